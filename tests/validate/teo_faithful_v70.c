// SPDX-License-Identifier: GPL-2.0
/*
 * A TEO cpuidle governor written for idlespec's validate tests: the `v7.0`
 * subject of impl/teo.h (spec/teo.md), the teo.c of v7.0, in kernel style,
 * in this project's own words and structure. It differs from
 * teo_faithful.c (v7.1) in teo_select() only: with the tick stopped the
 * intercepts search starts no shallower than the first state reaching a
 * tick (and keeps the candidate when that state's bin would be empty), it
 * may jump straight to that state, the sleep length may be skipped with the
 * tick stopped, and nothing promotes a shallow choice for a far timer. The
 * harness reads struct teo_cpu and struct teo_bin by their member names, so
 * those follow the kernel's.
 *
 * The line marked "variant: zero_size_bin" is where tests/validate/run_teo.sh
 * removes 4bd2221f231d's test with sed.
 */
#include <linux/cpuidle.h>
#include <linux/kernel.h>
#include <linux/sched/clock.h>
#include <linux/tick.h>

#include "gov.h"

#define PULSE 1024
#define DECAY_SHIFT 3
/* Below this PM QoS limit, a shallow candidate is taken without the timer. */
#define LATENCY_THRESHOLD_NS (RESIDENCY_THRESHOLD_NS / 2)

struct teo_bin {
	unsigned int intercepts;
	unsigned int hits;
};

struct teo_cpu {
	s64 sleep_length_ns;
	struct teo_bin state_bins[CPUIDLE_STATE_MAX];
	unsigned int total;
	unsigned int total_tick;
	unsigned int tick_intercepts;
	unsigned int short_idles;
	bool tick_wakeup;
};

static DEFINE_PER_CPU(struct teo_cpu, teo_cpus);

/* One eighth off; what is left of a small count is dropped altogether. */
static unsigned int teo_decayed(unsigned int m)
{
	unsigned int part = m >> DECAY_SHIFT;

	if (!part)
		return 0;
	return m - part;
}

static bool teo_disabled(struct cpuidle_device *dev, int i)
{
	return dev->states_usage[i].disable != 0;
}

/* From @from down, the first enabled state whose residency fits @span_ns. */
static int teo_fit_below(struct cpuidle_driver *drv, struct cpuidle_device *dev,
			 int from, s64 span_ns)
{
	int pick = from;
	int k;

	for (k = from - 1; k >= 0; k--) {
		if (teo_disabled(dev, k))
			continue;
		pick = k;
		if (drv->states[k].target_residency_ns <= span_ns)
			break;
	}
	return pick;
}

/* Learn from the idle period teo_reflect() recorded. */
static void teo_update(struct cpuidle_driver *drv, struct cpuidle_device *dev)
{
	struct teo_cpu *td = per_cpu_ptr(&teo_cpus, dev->cpu);
	s64 exit_ns = drv->states[dev->last_state_idx].exit_latency_ns;
	u64 slept = dev->last_residency_ns;
	bool long_enough = slept >= (u64)exit_ns;
	u64 net, measured;
	unsigned int sum = 0;
	int timer_bin = 0, actual_bin = 0;
	int k;

	/* Without the exit latency (half of it), or half the period when it
	 * did not even cover the exit. */
	net = long_enough ? slept - exit_ns / 2 : slept / 2;

	td->short_idles = teo_decayed(td->short_idles);
	if (dev->poll_time_limit) {
		measured = KTIME_MAX;
	} else {
		measured = net;
		if (!long_enough || net < RESIDENCY_THRESHOLD_NS)
			td->short_idles += PULSE;
	}

	for (k = 0; k < drv->state_count; k++) {
		struct teo_bin *b = &td->state_bins[k];
		s64 res = drv->states[k].target_residency_ns;

		b->hits = teo_decayed(b->hits);
		b->intercepts = teo_decayed(b->intercepts);
		sum += b->hits + b->intercepts;

		if (res <= td->sleep_length_ns) {
			timer_bin = k;
			if ((u64)res <= measured)
				actual_bin = k;
		}
	}
	td->total = sum + PULSE;

	td->tick_intercepts = teo_decayed(td->tick_intercepts);
	td->total_tick = teo_decayed(td->total_tick);
	if (td->tick_wakeup) {
		td->total_tick += PULSE;
		/* Mostly woken by the tick: count it for the deepest state. */
		if (3 * td->total_tick > 2 * td->total) {
			td->state_bins[drv->state_count - 1].hits += PULSE;
			return;
		}
		/* Few short intercepts lately: the tick most likely came in
		 * place of an expected early wake-up, so credit the timer's bin. */
		if (3 * td->tick_intercepts < 2 * sum) {
			td->state_bins[timer_bin].hits += PULSE;
			return;
		}
	}

	/* On time: the timer's bin, and woken less than half the exit
	 * latency before the timer was due (signed: a late wake-up counts). */
	if (timer_bin == actual_bin &&
	    td->sleep_length_ns - (s64)measured < exit_ns / 2) {
		td->state_bins[timer_bin].hits += PULSE;
	} else {
		td->state_bins[actual_bin].intercepts += PULSE;
		if (measured <= TICK_NSEC)
			td->tick_intercepts += PULSE;
	}
}

static int teo_select(struct cpuidle_driver *drv, struct cpuidle_device *dev,
		      bool *stop_tick)
{
	struct teo_cpu *td = per_cpu_ptr(&teo_cpus, dev->cpu);
	s64 limit_ns = cpuidle_governor_latency_req(dev->cpu);
	ktime_t to_tick = TICK_NSEC / 2;
	s64 span_ns = 0;
	unsigned int below_i = 0, below_h = 0, cand_i = 0, cand_h = 0;
	unsigned int most = 0, walked;
	int most_bin = -1, first = -1, pick = 0, allowed = 0, cand, k;

	if (dev->last_state_idx >= 0) {
		teo_update(drv, dev);
		dev->last_state_idx = -1;
	}
	td->sleep_length_ns = KTIME_MAX;

	/* No test for a single state: the cpuidle core does not call the
	 * governor for a table of at most one state. */
	if (!teo_disabled(dev, 0))
		first = 0;
	for (k = 1; k < drv->state_count; k++) {
		struct teo_bin *lower = &td->state_bins[k - 1];

		below_i += lower->intercepts;
		below_h += lower->hits;
		if (lower->intercepts >= most) {
			most = lower->intercepts;
			most_bin = k - 1;
		}
		if (teo_disabled(dev, k))
			continue;
		if (first < 0)
			first = k;
		pick = k;
		if (drv->states[k].exit_latency_ns <= limit_ns)
			allowed = k;
		cand_i = below_i;
		cand_h = below_h;
	}

	if (first < 0) {
		/* Nothing enabled: state 0 with the tick left alone. */
		*stop_tick = false;
		return 0;
	}
	if (pick == first) {
		/* The only enabled candidate. */
		span_ns = drv->states[pick].target_residency_ns;
		goto decide_tick;
	}

	/* Intercepts below the candidate outweigh the rest: go shallower, not
	 * past the bin that had the most of them. */
	if (2 * cand_i > td->total - cand_h) {
		s64 cand_res = drv->states[pick].target_residency_ns;
		int lowest = first;

		cand = pick;
		if (tick_nohz_tick_stopped()) {
			/* The tick is off: no state shorter than a tick, unless
			 * the candidate itself is. */
			while (lowest < cand &&
			       drv->states[lowest].target_residency_ns < TICK_NSEC)
				lowest++;
			/* Same residency as the candidate: that state's bin is
			 * empty, keep the candidate. */
			if (drv->states[lowest].target_residency_ns == cand_res) /* variant: zero_size_bin */
				goto clamp;
		}
		/* Already at or past the busiest bin: the walk would end
		 * at that state anyway. */
		if (lowest >= most_bin && !teo_disabled(dev, lowest)) {
			pick = lowest;
			goto clamp;
		}
		walked = 0;
		for (k = cand - 1; k >= lowest; k--) {
			walked += td->state_bins[k].intercepts;
			if (teo_disabled(dev, k))
				continue;
			pick = k;
			if (2 * walked > cand_i && k <= most_bin)
				break;
		}
	}

clamp:
	if (pick > allowed)
		pick = allowed;

	/* A shallow pick and mostly short idles (or a tight limit): the timer
	 * would change nothing, whether or not the tick runs. */
	if ((pick == 0 || drv->states[pick].target_residency_ns < RESIDENCY_THRESHOLD_NS) &&
	    (2 * td->short_idles >= td->total || limit_ns < LATENCY_THRESHOLD_NS))
		goto keep_tick;

	span_ns = tick_nohz_get_sleep_length(&to_tick);
	td->sleep_length_ns = span_ns;

	if (pick == 0)
		goto keep_tick;

	if (drv->states[pick].target_residency_ns > span_ns)
		pick = teo_fit_below(drv, dev, pick, span_ns);

	/* Short intercepts make up two thirds or more: keep the tick. */
	if (drv->states[pick].target_residency_ns < TICK_NSEC &&
	    3 * td->tick_intercepts >= 2 * td->total)
		span_ns = TICK_NSEC / 2;

decide_tick:
	if (((drv->states[pick].flags & CPUIDLE_FLAG_POLLING) ||
	     span_ns < TICK_NSEC) && !tick_nohz_tick_stopped()) {
		*stop_tick = false;
		if (pick > first && drv->states[pick].target_residency_ns > to_tick)
			pick = teo_fit_below(drv, dev, pick, to_tick);
	}
	return pick;

keep_tick:
	*stop_tick = false;
	return pick;
}

static void teo_reflect(struct cpuidle_device *dev, int state)
{
	struct teo_cpu *td = per_cpu_ptr(&teo_cpus, dev->cpu);

	dev->last_state_idx = state;
	td->tick_wakeup = tick_nohz_idle_got_tick();
}

static int teo_enable_device(struct cpuidle_driver *drv, struct cpuidle_device *dev)
{
	struct teo_cpu *td = per_cpu_ptr(&teo_cpus, dev->cpu);

	memset(td, 0, sizeof(*td));
	return 0;
}

static struct cpuidle_governor teo_governor = {
	.name =		"teo",
	.rating =	19,
	.enable =	teo_enable_device,
	.select =	teo_select,
	.reflect =	teo_reflect,
};

static int __init teo_governor_init(void)
{
	return cpuidle_register_governor(&teo_governor);
}

postcore_initcall(teo_governor_init);
