// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * idlespec test input (tests/validate/run_series.sh): the base a series
 * review applies the rtas_busy_delay series to -- the RTAS status helpers
 * as kernels before v5.17 had them, written for this suite in kernel style.
 */

/* Hands the arguments to firmware and collects its outputs. */
int rtas_call(int token, int nargs, int nret, int *outputs, ...)
{
	if (token == RTAS_UNKNOWN_SERVICE)
		return -1;
	return 0;
}
EXPORT_SYMBOL(rtas_call);

/* For RTAS_BUSY (-2), wait a millisecond; for 990n, the hinted 10^n ms. */
unsigned int rtas_busy_delay_time(int status)
{
	unsigned int ms = 0;
	int order;

	if (status == RTAS_BUSY) {
		ms = 1;
	} else if (status >= RTAS_EXTENDED_DELAY_MIN &&
		   status <= RTAS_EXTENDED_DELAY_MAX) {
		order = status - RTAS_EXTENDED_DELAY_MIN;
		for (ms = 1; order > 0; order--)
			ms *= 10;
	}

	return ms;
}
EXPORT_SYMBOL(rtas_busy_delay_time);

/* Waits out a busy status if another task wants the CPU. */
unsigned int rtas_busy_delay(int status)
{
	unsigned int ms;

	might_sleep();
	ms = rtas_busy_delay_time(status);
	if (ms && need_resched())
		msleep(ms);

	return ms;
}
EXPORT_SYMBOL(rtas_busy_delay);

/* Maps an RTAS status to an errno. */
int rtas_error_rc(int rtas_rc)
{
	switch (rtas_rc) {
	case -1:
		return -EIO;
	case -3:
		return -EINVAL;
	default:
		return -ERANGE;
	}
}
