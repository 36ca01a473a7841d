/*
 * What the TEO governor (spec/teo.md, drivers/cpuidle/governors/teo.c)
 * needs of the kernel beyond harness/shims/kernel.h: included right after
 * it, before the extracted teo_select(), teo_reflect(), teo_update() and
 * their helpers (struct teo_cpu, struct teo_bin, the per-CPU teo_cpus).
 *
 * The PM QoS limit, the tick layer (tick_nohz_get_sleep_length() with its
 * delta_next, tick_nohz_tick_stopped(), tick_nohz_idle_got_tick()), TICK_NSEC,
 * the per-CPU macros and gov.h's RESIDENCY_THRESHOLD_NS are the menu
 * governor's shims (governor_env.h, scripted through gov_env by the harness,
 * harness/harness_teo.c). TEO adds local_clock(), which 6.1 and 6.12 read in
 * teo_select() and teo_reflect() to measure the idle period: a clock the
 * harness advances by each step's residency.
 */
#ifndef IDLESPEC_VALIDATE_SHIM_TEO_ENV_H
#define IDLESPEC_VALIDATE_SHIM_TEO_ENV_H

#include "governor_env.h"

/* include/linux/sched/clock.h: one CPU's clock, in ns. */
static u64 teo_env_clock_ns = 1000000000ULL;
static inline u64 local_clock(void) { return teo_env_clock_ns; }
static inline u64 sched_clock(void) { return teo_env_clock_ns; }

/*
 * include/linux/sched/topology.h, kernel/sched: the CPU's utilisation and
 * capacity, which teo.c of v6.3 to v6.10 reads (the util-awareness of
 * 9ce0f7c4bc64: sched_cpu_util() above util_threshold, set from
 * arch_scale_cpu_capacity() by teo_enable_device()). spec/teo.md: the
 * clauses hold whatever the utilisation; the harness sets it per input
 * (teo_env_util: 0, an idle CPU, or SCHED_CAPACITY_SCALE, a busy one) and
 * every CPU has the full capacity.
 */
#ifndef SCHED_CAPACITY_SHIFT
#define SCHED_CAPACITY_SHIFT 10
#define SCHED_CAPACITY_SCALE (1L << SCHED_CAPACITY_SHIFT)
#endif
static unsigned long teo_env_util;
static inline unsigned long sched_cpu_util(int cpu) {
  (void)cpu;
  return teo_env_util;
}
static inline unsigned long arch_scale_cpu_capacity(int cpu) {
  (void)cpu;
  return SCHED_CAPACITY_SCALE;
}

#ifndef LATENCY_THRESHOLD_NS /* v6.19 teo.c defines it itself */
#endif

#endif /* IDLESPEC_VALIDATE_SHIM_TEO_ENV_H */
