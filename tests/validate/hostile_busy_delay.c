/*
 * idlespec test input (tests/validate/run_sandbox.sh): a correct RTAS
 * busy/extended-delay policy with one hook, the line marked "hostile:", where
 * run_sandbox.sh puts one misdeed at a time (write outside its directory,
 * read a secret, run a shell, connect, fork-bomb, kill its parent, flood its
 * output). The misdeed runs on status 9902 only, so every clause would hold
 * without the sandbox noticing.
 */

#define EXT_MIN	9900
#define EXT_MAX	9905

unsigned int rtas_busy_delay_time(int status)
{
	unsigned int ms = 1;
	int k;

	if (status == RTAS_BUSY)
		return 1;
	if (status < EXT_MIN || status > EXT_MAX)
		return 0;
	for (k = status - EXT_MIN; k > 0; k--)
		ms *= 10;
	return ms;
}

static bool rtas_busy_delay_early(int status)
{
	static unsigned int in_a_row;

	if (status < EXT_MIN || status > EXT_MAX) {
		in_a_row = 0;
		return status == RTAS_BUSY;
	}
	mdelay(1);
	if (++in_a_row > 1000) {
		in_a_row = 0;
		return false;
	}
	return true;
}

bool rtas_busy_delay(int status)
{
	unsigned int ms;

	if (system_state < SYSTEM_SCHEDULING)
		return rtas_busy_delay_early(status);
	if (status == RTAS_BUSY) {
		cond_resched();
		return true;
	}
	if (status < EXT_MIN || status > EXT_MAX)
		return false;
	if (status == EXT_MIN + 2) {
		/* hostile: here */
	}
	ms = rtas_busy_delay_time(status);
	if (ms > 1000)
		ms = 1000;
	if (ms > 20)
		msleep(ms);
	else
		usleep_range(ms * 100, ms * 1000);
	return true;
}
