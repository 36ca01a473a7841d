/*
 * governor_faithful.c - idlespec's own known-good menu-style governor, the
 * input that tests/validate/run_governor.sh expects `idlespec validate` to
 * accept.
 *
 * It behaves exactly like the `mainline` subject of impl/governor.h as
 * spec/governor.md describes it:
 *   - the PM QoS bound is tested before the residency test, and the state
 *     walk never goes back below a choice because of it;
 *   - leaving a polling state for a real one also needs that state's exit
 *     latency to stay within the expected idle time;
 *   - the history estimate is a single loop that may exclude outliers at
 *     either end;
 *   - an entry the driver refused is remembered as UINT_MAX;
 *   - a state that polls gives way to a real one only below the residency
 *     threshold;
 *   - with the tick stopped the timer is always looked up, and it replaces
 *     a short expectation only when it lies beyond SAFE_TIMER_RANGE_NS.
 * There is no iowait weighting.
 *
 * Only the entry points and the per-CPU record carry the names the validate
 * harness looks up (menu_select, menu_update, menu_reflect,
 * get_typical_interval, menu_devices,
 * struct menu_device with its fields, RESOLUTION, DECAY); the rest is laid
 * out for this suite. Some lines are tagged "variant:"; run_governor.sh
 * rewrites them with sed to obtain the broken governors and the era
 * variants that must still pass.
 */

#include "gov.h"

#define RESOLUTION	1024	/* fixed-point unit of a correction factor */
#define DECAY		8	/* a factor keeps (DECAY - 1) / DECAY of its past */
#define SLEEP_CLASSES	6	/* decades of sleep length: 10 us up to 100 ms, then beyond */
#define RING_ORDER	3
#define RING_LEN	(1UL << RING_ORDER)	/* observed idle periods kept */
#define LONG_SLEEP_NS	(50000 * NSEC_PER_USEC)	/* from here on a guess counts as exact */
#define FACTOR_TO_US	(RESOLUTION * DECAY * NSEC_PER_USEC)	/* ns * factor -> us */

/* Per-CPU learning record; the harness prints these fields after each selection. */
struct menu_device {
	unsigned int	correction_factor[SLEEP_CLASSES];	/* RESOLUTION * DECAY is 1.0 */
	unsigned int	bucket;		/* class of the sleep length last obtained */
	u64		next_timer_ns;	/* that sleep length, KTIME_MAX if not obtained */
	unsigned int	intervals[RING_LEN];	/* observed periods in us */
	int		interval_ptr;	/* slot for the next observation */
	int		needs_update;	/* a finished period awaits learning */
	int		tick_wakeup;	/* ... and the tick is what ended it */
};

static DEFINE_PER_CPU(struct menu_device, menu_devices);

/* Has state k been switched off through sysfs? */
static bool state_is_off(struct cpuidle_device *dev, int k)
{
	return dev->states_usage[k].disable != 0;	/* variant: ignores_disabled */
}

/* Decade class of a sleep length: 0 below 10 us, ..., SLEEP_CLASSES - 1 from 100 ms on. */
static unsigned int sleep_class(u64 ns)
{
	u64 bound = 10 * NSEC_PER_USEC;
	unsigned int cls = 0;

	while (cls < SLEEP_CLASSES - 1 && ns >= bound) {
		bound *= 10;
		cls++;
	}
	return cls;
}

/* Store one observation (us) in the ring and advance the write slot. */
static void ring_record(struct menu_device *md, unsigned int us)
{
	int slot = md->interval_ptr;

	md->intervals[slot] = us;
	md->interval_ptr = slot + 1 < (int)RING_LEN ? slot + 1 : 0;
}

/* Statistics of the ring entries lying strictly inside an open window. */
struct ring_summary {
	unsigned int	n;		/* how many entries */
	unsigned int	lo, hi;		/* smallest and largest of them */
	u64		avg;		/* their mean (valid when n > 0) */
	u64		var;		/* their variance (valid when n > 0) */
};

static void ring_summarize(const struct menu_device *md, s64 floor, s64 ceil,
			   struct ring_summary *rs)
{
	u64 total = 0, total_sq = 0;	/* variant: squares_32bit */
	int k;

	rs->n = 0;
	rs->hi = 0;
	rs->lo = UINT_MAX;
	for (k = 0; k < (int)RING_LEN; k++) {
		u64 x = md->intervals[k];

		if ((s64)x <= floor || (s64)x >= ceil)
			continue;
		rs->n++;
		total += x;
		total_sq += x * x;
		if (x < rs->lo)
			rs->lo = x;
		if (x > rs->hi)
			rs->hi = x;
	}
	if (rs->n) {
		rs->avg = div_u64(total, rs->n);
		rs->var = div_u64(total_sq, rs->n) - rs->avg * rs->avg;
	}
}

/*
 * History-based guess in us, or UINT_MAX if the ring offers nothing usable.
 * Refused entries (UINT_MAX) are outside every window. While the entries are
 * too scattered, the extreme that is farther from the average is cut off and
 * the test repeated, as long as more than three quarters of the ring remain.
 */
static unsigned int get_typical_interval(const struct menu_device *md)
{
	s64 floor = -1, ceil = UINT_MAX;
	struct ring_summary rs;

	for (;;) {
		bool enough;
		u64 avg_sq;

		ring_summarize(md, floor, ceil, &rs);
		if (rs.hi == 0)
			return UINT_MAX;

		avg_sq = rs.avg * rs.avg;
		enough = rs.n * 4 >= RING_LEN * 3;
		if (rs.var <= U64_MAX / 36 &&
		    (rs.var <= 400 || (enough && avg_sq > rs.var * 36)))
			return rs.avg;

		if (rs.n * 4 <= RING_LEN * 3)
			return UINT_MAX;	/* variant: keeps_max */

		if (rs.hi - rs.avg < rs.avg - rs.lo)
			floor = rs.lo;
		else
			ceil = rs.hi;
	}
}

/* The recorded sleep length scaled by its class's factor, rounded to whole us. */
static u64 corrected_sleep_ns(const struct menu_device *md)
{
	unsigned int factor = md->correction_factor[md->bucket];
	u64 weighted = md->next_timer_ns * factor;	/* variant: prediction_32bit */
	unsigned int us = div_u64(weighted + FACTOR_TO_US / 2, FACTOR_TO_US);	/* variant: timer_always */

	return (u64)us * NSEC_PER_USEC;
}

/* How long the CPU could really have stayed idle last time, in ns. */
static u64 observed_sleep_ns(struct cpuidle_driver *drv, struct cpuidle_device *dev,
			     const struct menu_device *md)
{
	const struct cpuidle_state *used = &drv->states[dev->last_state_idx];
	u64 got;

	if (md->tick_wakeup && md->next_timer_ns > TICK_NSEC) {
		/* The tick cut short a period meant to be long: the length is unknown, call it long. */
		got = 9 * LONG_SLEEP_NS / 10;
	} else if ((used->flags & CPUIDLE_FLAG_POLLING) && dev->poll_time_limit) {
		/* The poll loop gave up, so only the timer would have ended the period. */
		got = md->next_timer_ns;
	} else {
		/* Measured time without the exit latency, or half of it if that is larger. */
		got = dev->last_residency_ns;
		if (got <= 2 * used->exit_latency_ns)	/* variant: deduct_always */
			got /= 2;
		else
			got -= used->exit_latency_ns;
	}
	return min(got, md->next_timer_ns);
}

/* Age the factor of the recorded class and add the new ratio observed/expected. */
static void refresh_factor(struct menu_device *md, u64 got_ns)
{
	unsigned int old = md->correction_factor[md->bucket];
	unsigned int sample = RESOLUTION;	/* no timer, or a very long period: exact */

	if (got_ns < LONG_SLEEP_NS && md->next_timer_ns)
		sample = div64_u64(RESOLUTION * got_ns, md->next_timer_ns);	/* variant: ratio_32bit */
	md->correction_factor[md->bucket] = old - old / DECAY + sample;
}

/* Learn from the idle period that menu_reflect() noted. */
static void menu_update(struct cpuidle_driver *drv, struct cpuidle_device *dev)
{
	struct menu_device *md = this_cpu_ptr(&menu_devices);
	u64 slept_ns = observed_sleep_ns(drv, dev, md);

	refresh_factor(md, slept_ns);
	ring_record(md, ktime_to_us(slept_ns));	/* variant: ring_ns */
}

/* Note which state was used; the learning waits for the next selection. */
static void menu_reflect(struct cpuidle_device *dev, int index)
{
	struct menu_device *md = this_cpu_ptr(&menu_devices);

	md->tick_wakeup = tick_nohz_idle_got_tick();
	md->needs_update = 1;
	dev->last_state_idx = index;
}

/* Bring the record up to date with the previous idle period, if any. */
static void menu_catch_up(struct cpuidle_driver *drv, struct cpuidle_device *dev,
			  struct menu_device *md)
{
	if (md->needs_update) {
		md->needs_update = 0;
		menu_update(drv, dev);
	} else if (dev->last_residency_ns == 0) {
		/* The driver refused the state: keep a placeholder the estimate skips. */
		ring_record(md, UINT_MAX);
	}
}

/*
 * Expected idle time in ns. Records the sleep length and its class in md;
 * *tick_left receives the time until the next tick.
 */
static u64 menu_predict(struct menu_device *md, ktime_t *tick_left)
{
	u64 guess_ns = get_typical_interval(md) * NSEC_PER_USEC;
	ktime_t sleep_len;

	if (guess_ns <= RESIDENCY_THRESHOLD_NS &&	/* variant: timer_always */
	    !tick_nohz_tick_stopped()) {		/* variant: stopped_skips_timer */
		/* Short anyway: skip the tick layer, take the timer as distant. */
		md->next_timer_ns = KTIME_MAX;
		md->bucket = sleep_class(KTIME_MAX);
		*tick_left = TICK_NSEC / 2;
		return guess_ns;
	}

	sleep_len = tick_nohz_get_sleep_length(tick_left);
	if (unlikely(sleep_len < 0)) {	/* variant: no_negative_guard */
		*tick_left = 0;
		sleep_len = 0;
	}
	md->next_timer_ns = sleep_len;
	md->bucket = sleep_class(md->next_timer_ns);
	return min(guess_ns, corrected_sleep_ns(md));
}

/*
 * True when state 0 is the only candidate: one state, a zero QoS bound, or
 * (state 0 being usable) state 1 neither fits before the timer nor within
 * the bound.
 */
static bool only_first_state(struct cpuidle_driver *drv, struct cpuidle_device *dev,
			     const struct menu_device *md, s64 qos_ns)
{
	const struct cpuidle_state *second;

	if (drv->state_count < 2 || qos_ns == 0)
		return true;
	if (state_is_off(dev, 0))
		return false;
	second = &drv->states[1];
	return qos_ns < second->exit_latency_ns ||
	       md->next_timer_ns < second->target_residency_ns;
}

/*
 * State k (st) wants more idle time than predicted. Choose between it and
 * the current pick; *settled tells the caller to skip the tick policy.
 */
static int past_prediction(struct cpuidle_driver *drv, const struct menu_device *md,
			   const struct cpuidle_state *st, int k, int pick, s64 qos_ns,
			   ktime_t tick_left, u64 *predicted, bool *settled)
{
	const struct cpuidle_state *cur = &drv->states[pick];
	bool tick_running;

	/* Busy-polling is a waste when a real state fits before the timer. */
	if ((cur->flags & CPUIDLE_FLAG_POLLING) &&
	    st->target_residency_ns < RESIDENCY_THRESHOLD_NS &&	/* variant: no_threshold */
	    st->exit_latency_ns <= qos_ns &&
	    st->exit_latency_ns <= *predicted &&
	    st->target_residency_ns <= md->next_timer_ns) {
		*predicted = st->target_residency_ns;
		return k;
	}
	if (*predicted < TICK_NSEC)
		return pick;
	tick_running = !tick_nohz_tick_stopped();
	if (tick_running) {
		/* The running tick offers another chance; count on the pick's residency. */
		*predicted = cur->target_residency_ns;
		return pick;
	}
	/* No tick will rescue a shallow pick: take st if the next tick is far enough. */
	if (cur->target_residency_ns < TICK_NSEC && st->target_residency_ns <= tick_left)
		pick = k;
	*settled = true;
	return pick;
}

/*
 * Go through the enabled states from shallow to deep and keep the deepest
 * one both the QoS bound and the expected idle time allow; -1 when no state
 * is enabled. *predicted may be revised.
 */
static int menu_walk(struct cpuidle_driver *drv, struct cpuidle_device *dev,
		     const struct menu_device *md, s64 qos_ns, ktime_t tick_left,
		     u64 *predicted, bool *settled)
{
	int pick = -1;
	int k;

	*settled = false;
	for (k = 0; k < drv->state_count; k++) {
		const struct cpuidle_state *st = &drv->states[k];

		if (state_is_off(dev, k))
			continue;
		if (pick < 0)
			pick = k;

		if (st->exit_latency_ns > qos_ns)	/* variant: limit_after_residency */
			break;

		if (st->target_residency_ns > *predicted)
			return past_prediction(drv, md, st, k, pick, qos_ns, tick_left,
					       predicted, settled);

		if (st->exit_latency_ns > qos_ns)
			break;
		pick = k;
	}
	return pick;
}

/*
 * While the tick runs, a polling pick or a prediction shorter than a tick
 * keeps it running; the pick then moves up to the deepest enabled state
 * whose residency ends before the tick.
 */
static int menu_tick_policy(struct cpuidle_driver *drv, struct cpuidle_device *dev,
			    int pick, u64 predicted, ktime_t tick_left, bool *stop_tick)
{
	int k;

	if (tick_nohz_tick_stopped())
		return pick;
	if (predicted >= TICK_NSEC && !(drv->states[pick].flags & CPUIDLE_FLAG_POLLING))
		return pick;

	*stop_tick = false;
	if (pick == 0 || drv->states[pick].target_residency_ns <= tick_left)
		return pick;
	for (k = pick - 1; k >= 0; k--) {
		if (!state_is_off(dev, k)) {
			pick = k;
			if (drv->states[k].target_residency_ns <= tick_left)
				break;
		}
	}
	return pick;
}

/* Pick the idle state for this CPU; *stop_tick arrives true. */
static int menu_select(struct cpuidle_driver *drv, struct cpuidle_device *dev,
		       bool *stop_tick)
{
	struct menu_device *md = this_cpu_ptr(&menu_devices);
	s64 qos_ns = cpuidle_governor_latency_req(dev->cpu);
	ktime_t tick_left;
	u64 expect_ns;
	bool settled;
	int pick;

	menu_catch_up(drv, dev, md);
	expect_ns = menu_predict(md, &tick_left);

	if (only_first_state(drv, dev, md, qos_ns)) {
		/* A polling state 0 needs the tick to be left on. */
		*stop_tick = (drv->states[0].flags & CPUIDLE_FLAG_POLLING) == 0;
		return 0;
	}

	/*
	 * With the tick off a short guess cannot be corrected later: use the
	 * timer, unless it comes soon enough to end a shallow stay itself.
	 */
	if (expect_ns < TICK_NSEC && tick_nohz_tick_stopped() &&
	    md->next_timer_ns > SAFE_TIMER_RANGE_NS)	/* variant: no_safe_range */
		expect_ns = md->next_timer_ns;

	pick = menu_walk(drv, dev, md, qos_ns, tick_left, &expect_ns, &settled);
	if (settled)
		return pick;
	return menu_tick_policy(drv, dev, pick < 0 ? 0 : pick, expect_ns, tick_left,
				stop_tick);
}

static int idlespec_menu_enable(struct cpuidle_driver *drv, struct cpuidle_device *dev)
{
	struct menu_device *md = &per_cpu(menu_devices, dev->cpu);
	unsigned int c;

	memset(md, 0, sizeof(*md));
	for (c = 0; c < SLEEP_CLASSES; c++)
		md->correction_factor[c] = RESOLUTION * DECAY;	/* unity */
	return 0;
}

static struct cpuidle_governor idlespec_menu_gov = {
	.name =		"menu",
	.rating =	20,
	.enable =	idlespec_menu_enable,
	.select =	menu_select,
	.reflect =	menu_reflect,
};

static int __init idlespec_menu_register(void)
{
	return cpuidle_register_governor(&idlespec_menu_gov);
}

postcore_initcall(idlespec_menu_register);
