// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * idlespec test input (tests/validate/run.sh): the RTAS busy and
 * extended-delay policy of spec/busy_delay.md -- the runtime policy and the
 * early-boot one -- written in kernel style for this suite, with the names
 * and signatures the kernel uses. run.sh derives each broken variant from
 * this file with sed, at the lines marked "variant:".
 */
#include <linux/delay.h>
#include <linux/kernel.h>
#include <linux/sched.h>
#include <asm/rtas.h>

#define RTAS_EARLY_GIVE_UP	1000	/* extended delays in a row, early boot */
#define RTAS_SHORT_WAIT_MS	20	/* usleep_range up to here, msleep above */
#define RTAS_LONGEST_WAIT_MS	1000U	/* poll firmware at least once a second */

/* Busy: 1 ms (callers with loops of their own expect it); 990n: 10^n ms. */
unsigned int rtas_busy_delay_time(int status)
{
	static const unsigned int hint_ms[] = { 1, 10, 100, 1000, 10000, 100000 };

	if (status == RTAS_BUSY)	/* variant: hang */
		return 1;
	if (status < RTAS_EXTENDED_DELAY_MIN || status > RTAS_EXTENDED_DELAY_MAX)
		return 0;
	return hint_ms[status - RTAS_EXTENDED_DELAY_MIN];
}

/* No timer before the scheduler: a millisecond's spin per extended delay. */
static bool __init rtas_busy_delay_early(int status)
{
	static unsigned int waited __initdata;

	if (status == RTAS_BUSY) {
		waited = 0;
		return true;
	}
	if (status < RTAS_EXTENDED_DELAY_MIN || status > RTAS_EXTENDED_DELAY_MAX) {
		waited = 0;
		return false;
	}
	mdelay(1);
	if (++waited <= RTAS_EARLY_GIVE_UP)
		return true;
	pr_warn("rtas: still told to wait after %u tries, giving up\n", RTAS_EARLY_GIVE_UP);
	waited = 0;	/* variant: no_reset */
	return false;
}

/* Whether to call RTAS again, after waiting as the status asks. */
bool __ref rtas_busy_delay(int status)
{
	bool wait = status >= RTAS_EXTENDED_DELAY_MIN &&
		    status <= RTAS_EXTENDED_DELAY_MAX;	/* variant: accepts_9906 */
	unsigned int ms;

	if (system_state < SYSTEM_SCHEDULING)
		return rtas_busy_delay_early(status);
	if (status == RTAS_BUSY) {
		cond_resched();	/* variant: sleeps_on_busy */
		return true;
	}
	if (!wait) {
		might_sleep();	/* variant: segfault */
		return false;
	}
	ms = clamp(rtas_busy_delay_time(status), 1U, RTAS_LONGEST_WAIT_MS);	/* variant: bug_on */
	if (ms > RTAS_SHORT_WAIT_MS)
		msleep(ms);
	else
		usleep_range(ms * 100, ms * 1000);
	return true;
}
