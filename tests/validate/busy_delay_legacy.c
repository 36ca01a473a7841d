/*
 * idlespec test input (tests/validate/run_verdicts.sh): the RTAS busy and
 * extended-delay policy as kernels before the v5.17 rework had it -- the
 * `legacy` subject of spec/busy_delay.md -- in kernel style, written for this
 * suite. One rule for every status and every boot phase: wait the status's
 * hint, but only when another task wants the CPU.
 */

/* The hint of a status in ms: busy 1, 990n 10^n, anything else none (0). */
unsigned int rtas_busy_delay_time(int status)
{
	unsigned int ms = 0;

	if (status == RTAS_BUSY) {
		ms = 1;
	} else if (status >= RTAS_EXTENDED_DELAY_MIN &&
		   status <= RTAS_EXTENDED_DELAY_MAX) {
		int order;

		for (ms = 1, order = status - RTAS_EXTENDED_DELAY_MIN; order > 0; order--)
			ms *= 10;
	}
	return ms;
}

/* Says whether to call firmware again, after waiting if someone else can run. */
int rtas_busy_delay(int status)
{
	const unsigned int wait_ms = rtas_busy_delay_time(status);

	might_sleep();
	if (wait_ms == 0)
		return 0;
	if (need_resched())
		msleep(wait_ms);
	return 1;
}
