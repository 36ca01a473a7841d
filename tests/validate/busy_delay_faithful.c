/*
 * idlespec test input (tests/validate/run.sh): the RTAS busy and
 * extended-delay policy of spec/busy_delay.md -- the runtime policy and the
 * early-boot one -- written in kernel style for this suite, with the names
 * and signatures the kernel uses. run.sh derives each broken variant from
 * this file with sed, at the lines marked "variant:".
 */

#define RTAS_EARLY_GIVE_UP	1000	/* extended delays in a row, early boot */
#define RTAS_SHORT_WAIT_MS	20	/* usleep_range up to here, msleep above */
#define RTAS_LONGEST_WAIT_MS	1000U	/* poll firmware at least once a second */

/* The hint of a status in ms: busy 1, 990n 10^n, anything else none (0). */
unsigned int rtas_busy_delay_time(int status)
{
	unsigned int hint = 1;
	int n;

	if (status == RTAS_BUSY)	/* variant: hang */
		return 1;
	if (status < RTAS_EXTENDED_DELAY_MIN || status > RTAS_EXTENDED_DELAY_MAX)
		return 0;
	for (n = RTAS_EXTENDED_DELAY_MIN; n < status; n++)
		hint *= 10;
	return hint;
}

/*
 * Boot time, no scheduler: each extended delay is a millisecond of spinning.
 * After RTAS_EARLY_GIVE_UP of them in a row the caller is told to stop; any
 * other status, busy included, starts the count again.
 */
static bool __init rtas_busy_delay_early(int status)
{
	static unsigned int spun __initdata;

	if (status < RTAS_EXTENDED_DELAY_MIN || status > RTAS_EXTENDED_DELAY_MAX) {
		spun = 0;
		return status == RTAS_BUSY;
	}
	mdelay(1);
	spun++;
	if (spun > RTAS_EARLY_GIVE_UP) {
		pr_warn("rtas: %u extended delays in a row during boot, stopping\n",
			RTAS_EARLY_GIVE_UP);
		spun = 0;	/* variant: no_reset */
		return false;
	}
	return true;
}

/* Sleeping needs the scheduler: before it runs, delays are spun. */
static bool rtas_scheduler_up(void)
{
	return system_state >= SYSTEM_SCHEDULING;
}

/* Waits as the status asks (or yields), then says whether to call again. */
bool __ref rtas_busy_delay(int status)
{
	const bool hinted = status >= RTAS_EXTENDED_DELAY_MIN &&
			    status <= RTAS_EXTENDED_DELAY_MAX;	/* variant: accepts_9906 */
	unsigned int ms;

	if (!rtas_scheduler_up())
		return rtas_busy_delay_early(status);
	if (!hinted && status != RTAS_BUSY) {
		might_sleep();	/* variant: segfault */
		return false;
	}
	if (!hinted) {
		cond_resched();	/* variant: sleeps_on_busy */
		return true;
	}
	ms = clamp(rtas_busy_delay_time(status), 1U, RTAS_LONGEST_WAIT_MS);	/* variant: bug_on */
	if (ms > RTAS_SHORT_WAIT_MS) {
		msleep(ms);
	} else {
		const unsigned long most_us = ms * 1000;

		usleep_range(most_us / 10, most_us);	/* a tenth of the hint at least */
	}
	return true;
}
