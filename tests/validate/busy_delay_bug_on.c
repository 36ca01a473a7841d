// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Test input for `idlespec validate` (tests/validate/run.sh): the faithful
 * busy_delay_faithful.c with one injected bug.
 *
 * BUG: asserts that the hint fits below ten seconds before clamping it;
 * 9905 (100 s) trips the BUG_ON.
 * Expected: BUSY-3 failed at 9905 (0x000026b1) with the BUG_ON, the
 * run goes on and every other clause held.
 */
#define pr_fmt(fmt) "rtas: " fmt

#include <linux/delay.h>
#include <linux/export.h>
#include <linux/kernel.h>
#include <linux/sched.h>
#include <asm/rtas.h>

/* The most consecutive extended delays early boot waits out. */
#define EARLY_EXT_DELAY_LIMIT 1000

/**
 * rtas_busy_delay_time() - Milliseconds a status suggests waiting.
 * @status: an RTAS return word.
 *
 * -2 (busy) gives 1, 990n gives 10^n, anything else 0. Busy suggesting
 * 1 ms is odd but callers with their own loops rely on it.
 */
unsigned int rtas_busy_delay_time(int status)
{
	unsigned int ms = 0;
	int order;

	if (status == RTAS_BUSY)
		return 1;

	if (status >= RTAS_EXTENDED_DELAY_MIN && status <= RTAS_EXTENDED_DELAY_MAX) {
		ms = 1;
		for (order = status - RTAS_EXTENDED_DELAY_MIN; order > 0; order--)
			ms *= 10;
	}
	return ms;
}

/*
 * Before the scheduler runs there is no timed sleep: spin a millisecond per
 * extended delay, and stop pretending after too many in a row so that boot
 * is not held hostage by firmware that never finishes.
 */
static bool __init rtas_busy_delay_early(int status)
{
	static size_t ext_delays_in_a_row __initdata;
	bool again = false;

	switch (status) {
	case RTAS_EXTENDED_DELAY_MIN ... RTAS_EXTENDED_DELAY_MAX:
		mdelay(1);
		again = true;
		if (++ext_delays_in_a_row > EARLY_EXT_DELAY_LIMIT) {
			pr_err("giving up after %d extended delays\n", EARLY_EXT_DELAY_LIMIT);
			dump_stack();
			again = false;
			ext_delays_in_a_row = 0;
		}
		break;
	case RTAS_BUSY:
		again = true;
		ext_delays_in_a_row = 0;
		break;
	default:
		ext_delays_in_a_row = 0;
		break;
	}
	return again;
}

/**
 * rtas_busy_delay() - Wait as an RTAS status asks, and say whether to retry.
 * @status: an RTAS return word.
 *
 * Busy: yield if someone else wants the CPU, then retry at once. Extended
 * delay: sleep for the hint, clamped to a second, and retry. Anything else
 * is the caller's to handle: no retry.
 */
bool __ref rtas_busy_delay(int status)
{
	unsigned int ms;

	if (system_state < SYSTEM_SCHEDULING)
		return rtas_busy_delay_early(status);

	switch (status) {
	case RTAS_EXTENDED_DELAY_MIN ... RTAS_EXTENDED_DELAY_MAX:
		/* A hint of up to 100 s is not worth honouring: poll at 1 Hz. */
		ms = rtas_busy_delay_time(status);
		BUG_ON(ms > 10000);
		ms = clamp(ms, 1U, 1000U);
		/*
		 * The hint is an order of magnitude, not a minimum: short
		 * waits use a range so the timer can be coalesced
		 * (timers-howto: usleep_range up to about 20 ms).
		 */
		if (ms <= 20)
			usleep_range(ms * 100, ms * 1000);
		else
			msleep(ms);
		return true;
	case RTAS_BUSY:
		/* Firmware made progress: call again as soon as we may. */
		cond_resched();
		return true;
	default:
		/* Catch callers in atomic context even on the quiet path. */
		might_sleep();
		return false;
	}
}
EXPORT_SYMBOL_GPL(rtas_busy_delay);
