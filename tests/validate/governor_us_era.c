/*
 * governor_us_era.c - idlespec's own menu-style governor of the microsecond
 * era (the behaviour of v5.4 and the kernels before the nanosecond rework),
 * an input for tests/validate/run_governor.sh.
 *
 * Written for this suite in its own layout; what it does, as the kernels of
 * that time did:
 *   - every time is an unsigned int of microseconds: the PM QoS bound, the
 *     state table's exit_latency and target_residency, the sleep length
 *     (next_timer_us), the last residency;
 *   - the timer is always asked; the history estimate is the two-pass one
 *     (outliers above only) without a check for an empty ring;
 *   - with the tick running the QoS bound is lowered to the prediction, and
 *     the bound is tested after the residency test (so, with the tick
 *     stopped, a promotion can pass over it: GOV-2 as spec/governor.md's
 *     v6.14 family, fixed upstream by 779b1a1cb13a);
 *   - with the tick stopped a short prediction becomes the time to the next
 *     tick event;
 *   - a refused entry leaves the ring alone.
 */

#define RESOLUTION	1024
#define DECAY		8
#define CLASSES		6	/* decades of sleep length in us */
#define RING		8
#define LONG_SLEEP_US	50000	/* a guess from here on counts as exact */

struct menu_device {
	unsigned int	correction_factor[CLASSES];
	unsigned int	bucket;
	unsigned int	next_timer_us;
	unsigned int	intervals[RING];
	int		interval_ptr;
	int		needs_update;
	int		tick_wakeup;
};

static DEFINE_PER_CPU(struct menu_device, menu_devices);

static bool off(struct cpuidle_driver *drv, struct cpuidle_device *dev, int k)
{
	return drv->states[k].disabled || dev->states_usage[k].disable;
}

static unsigned int decade(unsigned int us)
{
	unsigned int c = 0, edge = 10;

	while (c < CLASSES - 1 && us >= edge) {
		edge *= 10;
		c++;
	}
	return c;
}

/* Average of the ring entries up to a ceiling, dropping the largest while scattered. */
static unsigned int history_us(const struct menu_device *md)
{
	unsigned int ceiling = INT_MAX;

	for (;;) {
		u64 total = 0, spread = 0;
		unsigned int n = 0, top = 0, mean;
		int k;

		for (k = 0; k < RING; k++) {
			if (md->intervals[k] > ceiling)
				continue;
			total += md->intervals[k];
			n++;
			if (md->intervals[k] > top)
				top = md->intervals[k];
		}
		if (!n)
			return UINT_MAX;
		mean = div_u64(total, n);
		for (k = 0; k < RING; k++) {
			s64 d;

			if (md->intervals[k] > ceiling)
				continue;
			d = (s64)md->intervals[k] - mean;
			spread += d * d;
		}
		spread = div_u64(spread, n);
		if (spread <= U64_MAX / 36 &&
		    (((u64)mean * mean > spread * 36 && n * 4 >= RING * 3) || spread <= 400))
			return mean;
		if (n * 4 <= RING * 3)
			return UINT_MAX;
		ceiling = top - 1;
	}
}

static void menu_update(struct cpuidle_driver *drv, struct cpuidle_device *dev)
{
	struct menu_device *md = this_cpu_ptr(&menu_devices);
	struct cpuidle_state *used = &drv->states[dev->last_state_idx];
	unsigned int got, old = md->correction_factor[md->bucket];

	if (md->tick_wakeup && md->next_timer_us > TICK_USEC)
		got = 9 * LONG_SLEEP_US / 10;
	else if ((used->flags & CPUIDLE_FLAG_POLLING) && dev->poll_time_limit)
		got = md->next_timer_us;
	else if (dev->last_residency > 2 * used->exit_latency)
		got = dev->last_residency - used->exit_latency;
	else
		got = dev->last_residency / 2;
	if (got > md->next_timer_us)
		got = md->next_timer_us;

	old -= old / DECAY;
	if (md->next_timer_us > 0 && got < LONG_SLEEP_US)
		old += RESOLUTION * got / md->next_timer_us;
	else
		old += RESOLUTION;
	md->correction_factor[md->bucket] = old;

	md->intervals[md->interval_ptr] = got;
	md->interval_ptr = (md->interval_ptr + 1) % RING;
}

static void menu_reflect(struct cpuidle_device *dev, int index)
{
	struct menu_device *md = this_cpu_ptr(&menu_devices);

	dev->last_state_idx = index;
	md->needs_update = 1;
	md->tick_wakeup = tick_nohz_idle_got_tick();
}

static int menu_select(struct cpuidle_driver *drv, struct cpuidle_device *dev,
		       bool *stop_tick)
{
	struct menu_device *md = this_cpu_ptr(&menu_devices);
	int bound = cpuidle_governor_latency_req(dev->cpu);
	unsigned int expect, history;
	ktime_t tick_left;
	int pick = -1, k;

	if (md->needs_update) {
		menu_update(drv, dev);
		md->needs_update = 0;
	}
	md->next_timer_us = ktime_to_us(tick_nohz_get_sleep_length(&tick_left));
	md->bucket = decade(md->next_timer_us);

	if (drv->state_count <= 1 || bound == 0 ||
	    ((md->next_timer_us < drv->states[1].target_residency ||
	      bound < drv->states[1].exit_latency) && !off(drv, dev, 0))) {
		*stop_tick = !(drv->states[0].flags & CPUIDLE_FLAG_POLLING);
		return 0;
	}

	expect = DIV_ROUND_CLOSEST_ULL((u64)md->next_timer_us *
				       md->correction_factor[md->bucket],
				       RESOLUTION * DECAY);
	history = history_us(md);
	if (history < expect)
		expect = history;

	if (tick_nohz_tick_stopped()) {
		if (expect < TICK_USEC)
			expect = ktime_to_us(tick_left);
	} else if (bound > expect) {
		bound = expect;
	}

	for (k = 0; k < drv->state_count; k++) {
		struct cpuidle_state *st = &drv->states[k];

		if (off(drv, dev, k))
			continue;
		if (pick < 0)
			pick = k;
		if (st->target_residency > expect) {
			if ((drv->states[pick].flags & CPUIDLE_FLAG_POLLING) &&
			    st->exit_latency <= bound &&
			    st->target_residency <= md->next_timer_us) {
				expect = st->target_residency;
				pick = k;
				break;
			}
			if (expect < TICK_USEC)
				break;
			if (!tick_nohz_tick_stopped()) {
				expect = drv->states[pick].target_residency;
				break;
			}
			if (drv->states[pick].target_residency < TICK_USEC &&
			    st->target_residency <= ktime_to_us(tick_left))
				pick = k;
			return pick;
		}
		if (st->exit_latency > bound)
			break;
		pick = k;
	}
	if (pick < 0)
		pick = 0;

	if (((drv->states[pick].flags & CPUIDLE_FLAG_POLLING) || expect < TICK_USEC) &&
	    !tick_nohz_tick_stopped()) {
		unsigned int left_us = ktime_to_us(tick_left);

		*stop_tick = false;
		if (pick > 0 && drv->states[pick].target_residency > left_us) {
			for (k = pick - 1; k >= 0; k--) {
				if (off(drv, dev, k))
					continue;
				pick = k;
				if (drv->states[k].target_residency <= left_us)
					break;
			}
		}
	}
	return pick;
}
