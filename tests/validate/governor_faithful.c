// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * idlespec test input (tests/validate): a menu idle governor as
 * spec/governor.md states it for the `reference` subject (impl/governor.h:
 * the QoS limit checked ahead of the residency test and never lowered, the
 * polling rule that also needs exit latency <= the prediction, the one-loop
 * predictor that drops outliers at either end, a rejected entry recorded as
 * UINT_MAX). Written in kernel style for this suite with the names and
 * signatures the kernel's governor uses; no iowait buckets. The broken
 * variants are derived from this file with sed, at the lines marked
 * "variant:".
 */
#include <linux/kernel.h>
#include <linux/cpuidle.h>
#include <linux/ktime.h>
#include <linux/tick.h>
#include <linux/math64.h>

#include "gov.h"

#define BUCKETS		6	/* < 10 us, < 100 us, < 1 ms, < 10 ms, < 100 ms, longer */
#define INTERVAL_SHIFT	3
#define INTERVALS	(1UL << INTERVAL_SHIFT)
#define RESOLUTION	1024
#define DECAY		8
#define MAX_INTERESTING	(50000 * NSEC_PER_USEC)

/* What one CPU has learned. */
struct menu_device {
	int		needs_update;
	int		tick_wakeup;
	u64		next_timer_ns;
	unsigned int	bucket;
	unsigned int	correction_factor[BUCKETS];
	unsigned int	intervals[INTERVALS];
	int		interval_ptr;
};

static DEFINE_PER_CPU(struct menu_device, menu_devices);

static void menu_update(struct cpuidle_driver *drv, struct cpuidle_device *dev);

/* Whether user space switched state i off. */
static bool menu_state_off(struct cpuidle_device *dev, int i)
{
	return dev->states_usage[i].disable;	/* variant: ignores_disabled */
}

/* The order of magnitude of a duration, 10 us to 100 ms. */
static inline int which_bucket(u64 duration_ns)
{
	u64 limit = 10 * NSEC_PER_USEC;
	int b;

	for (b = 0; b < BUCKETS - 1; b++, limit *= 10)
		if (duration_ns < limit)
			return b;
	return BUCKETS - 1;
}

/* Append one interval (in us) to the ring. */
static void menu_update_intervals(struct menu_device *data, unsigned int interval_us)
{
	data->intervals[data->interval_ptr++] = interval_us;
	if (data->interval_ptr >= INTERVALS)
		data->interval_ptr = 0;
}

/*
 * The typical recent interval: the mean of the ring when its spread is
 * small; otherwise drop the samples at whichever end lies farther from the
 * mean and look again, while more than 3/4 of them remain. UINT_MAX when
 * there is none. Rejected entries (UINT_MAX) never count.
 */
static unsigned int get_typical_interval(struct menu_device *data)
{
	s64 low = -1, high = UINT_MAX;	/* samples must lie strictly between */
	unsigned int count, smallest, largest;
	u64 mean, spread, mean_sq;
	int i;

	for (;;) {
		count = 0;
		smallest = UINT_MAX;
		largest = 0;
		mean = 0;
		spread = 0;
		for (i = 0; i < INTERVALS; i++) {
			u64 v = data->intervals[i];

			if ((s64)v <= low || (s64)v >= high)
				continue;
			count++;
			mean += v;
			spread += v * v;
			if (v > largest)
				largest = v;
			if (v < smallest)
				smallest = v;
		}
		if (!largest)
			return UINT_MAX;

		if (count == INTERVALS) {
			mean >>= INTERVAL_SHIFT;
			spread >>= INTERVAL_SHIFT;
		} else {
			do_div(mean, count);
			do_div(spread, count);
		}
		mean_sq = mean * mean;
		spread -= mean_sq;	/* the variance */

		if (spread <= U64_MAX / 36 &&
		    ((mean_sq > spread * 36 && count * 4 >= INTERVALS * 3) ||
		     spread <= 400))
			return mean;

		if (count * 4 <= INTERVALS * 3)
			return UINT_MAX;

		if (mean - smallest > largest - mean)
			low = smallest;
		else
			high = largest;
	}
}

/**
 * menu_select - choose the idle state for the coming idle period
 * @drv: the driver's state table
 * @dev: the CPU
 * @stop_tick: whether to stop the tick (the caller's default is true)
 */
static int menu_select(struct cpuidle_driver *drv, struct cpuidle_device *dev,
		       bool *stop_tick)
{
	struct menu_device *data = this_cpu_ptr(&menu_devices);
	s64 latency_req = cpuidle_governor_latency_req(dev->cpu);
	u64 predicted_ns;
	ktime_t delta, delta_tick;
	int i, idx;

	if (data->needs_update) {
		menu_update(drv, dev);
		data->needs_update = 0;
	} else if (!dev->last_residency_ns) {
		/* The last state was rejected: nothing was learned from it. */
		menu_update_intervals(data, UINT_MAX);
	}

	predicted_ns = get_typical_interval(data) * NSEC_PER_USEC;
	if (predicted_ns > RESIDENCY_THRESHOLD_NS) {
		unsigned int timer_us;
		u64 product;

		delta = tick_nohz_get_sleep_length(&delta_tick);
		if (unlikely(delta < 0)) {
			delta = 0;
			delta_tick = 0;
		}
		data->next_timer_ns = delta;
		data->bucket = which_bucket(data->next_timer_ns);

		/* The time to the timer, scaled by the bucket's factor, in us. */
		product = data->next_timer_ns * data->correction_factor[data->bucket];	/* variant: prediction_32bit */
		timer_us = div_u64((RESOLUTION * DECAY * NSEC_PER_USEC) / 2 + product,
				   RESOLUTION * DECAY * NSEC_PER_USEC);
		predicted_ns = min((u64)timer_us * NSEC_PER_USEC, predicted_ns);
	} else {
		/* The timer was not asked: assume it is far, the tick half-way. */
		data->next_timer_ns = KTIME_MAX;
		delta_tick = TICK_NSEC / 2;
		data->bucket = which_bucket(KTIME_MAX);
	}

	if (unlikely(drv->state_count <= 1 || latency_req == 0) ||
	    ((data->next_timer_ns < drv->states[1].target_residency_ns ||
	      latency_req < drv->states[1].exit_latency_ns) &&
	     !menu_state_off(dev, 0))) {
		/* State 0 whatever the rest says; keep the tick for polling. */
		*stop_tick = !(drv->states[0].flags & CPUIDLE_FLAG_POLLING);
		return 0;
	}

	/* With the tick stopped a short prediction is not trusted. */
	if (tick_nohz_tick_stopped() && predicted_ns < TICK_NSEC)
		predicted_ns = data->next_timer_ns;

	idx = -1;
	for (i = 0; i < drv->state_count; i++) {
		struct cpuidle_state *s = &drv->states[i];

		if (menu_state_off(dev, i))
			continue;
		if (idx == -1)
			idx = i;	/* the first enabled state */

		/* The QoS limit comes first: nothing past it may be chosen. */
		if (s->exit_latency_ns > latency_req)	/* variant: limit_after_residency */
			break;

		if (s->target_residency_ns > predicted_ns) {
			/* Rather a real idle state than polling, if a timer is near. */
			if ((drv->states[idx].flags & CPUIDLE_FLAG_POLLING) &&
			    s->exit_latency_ns <= latency_req &&
			    s->target_residency_ns <= data->next_timer_ns &&
			    s->exit_latency_ns <= predicted_ns) {
				predicted_ns = s->target_residency_ns;
				idx = i;
				break;
			}
			if (predicted_ns < TICK_NSEC)
				break;
			if (!tick_nohz_tick_stopped()) {
				/* Keep the tick; it will wake us to look again. */
				predicted_ns = drv->states[idx].target_residency_ns;
				break;
			}
			/* Tick stopped: go deeper if the next tick allows it. */
			if (drv->states[idx].target_residency_ns < TICK_NSEC &&
			    s->target_residency_ns <= delta_tick)
				idx = i;
			return idx;
		}
		if (s->exit_latency_ns > latency_req)
			break;
		idx = i;
	}

	if (idx == -1)
		idx = 0;	/* nothing is enabled */

	/* Polling, or a period shorter than a tick: keep the tick. */
	if (((drv->states[idx].flags & CPUIDLE_FLAG_POLLING) ||
	     predicted_ns < TICK_NSEC) && !tick_nohz_tick_stopped()) {
		*stop_tick = false;

		/* And prefer a state that fits before the tick. */
		if (idx > 0 && drv->states[idx].target_residency_ns > delta_tick) {
			for (i = idx - 1; i >= 0; i--) {
				if (menu_state_off(dev, i))
					continue;
				idx = i;
				if (drv->states[i].target_residency_ns <= delta_tick)
					break;
			}
		}
	}

	return idx;
}

/**
 * menu_reflect - note that the last idle period is to be learned from
 * @dev: the CPU
 * @index: the state entered
 */
static void menu_reflect(struct cpuidle_device *dev, int index)
{
	struct menu_device *data = this_cpu_ptr(&menu_devices);

	dev->last_state_idx = index;
	data->needs_update = 1;
	data->tick_wakeup = tick_nohz_idle_got_tick();
}

/**
 * menu_update - learn from the last idle period
 * @drv: the driver's state table
 * @dev: the CPU
 */
static void menu_update(struct cpuidle_driver *drv, struct cpuidle_device *dev)
{
	struct menu_device *data = this_cpu_ptr(&menu_devices);
	int last_idx = dev->last_state_idx;
	struct cpuidle_state *target = &drv->states[last_idx];
	u64 measured_ns;
	unsigned int new_factor;

	if (data->tick_wakeup && data->next_timer_ns > TICK_NSEC) {
		/* The tick woke a CPU that expected a longer sleep: guess long. */
		measured_ns = 9 * MAX_INTERESTING / 10;
	} else if ((target->flags & CPUIDLE_FLAG_POLLING) && dev->poll_time_limit) {
		/* Polling timed out: the timer would have woken us. */
		measured_ns = data->next_timer_ns;
	} else {
		/* What was measured, less the exit latency (or half of it). */
		measured_ns = dev->last_residency_ns;
		if (measured_ns > 2 * target->exit_latency_ns)
			measured_ns -= target->exit_latency_ns;
		else
			measured_ns /= 2;
	}

	/* Never more than the timer allowed. */
	if (measured_ns > data->next_timer_ns)
		measured_ns = data->next_timer_ns;

	new_factor = data->correction_factor[data->bucket];
	new_factor -= new_factor / DECAY;
	if (data->next_timer_ns > 0 && measured_ns < MAX_INTERESTING)
		new_factor += div64_u64(RESOLUTION * measured_ns, data->next_timer_ns);
	else
		new_factor += RESOLUTION;	/* a long sleep is a perfect prediction */
	data->correction_factor[data->bucket] = new_factor;

	menu_update_intervals(data, ktime_to_us(measured_ns));
}

static int menu_enable_device(struct cpuidle_driver *drv, struct cpuidle_device *dev)
{
	struct menu_device *data = &per_cpu(menu_devices, dev->cpu);
	int i;

	memset(data, 0, sizeof(struct menu_device));
	for (i = 0; i < BUCKETS; i++)
		data->correction_factor[i] = RESOLUTION * DECAY;
	return 0;
}

static struct cpuidle_governor menu_governor = {
	.name =		"menu",
	.rating =	20,
	.enable =	menu_enable_device,
	.select =	menu_select,
	.reflect =	menu_reflect,
};

static int __init init_menu(void)
{
	return cpuidle_register_governor(&menu_governor);
}

postcore_initcall(init_menu);
