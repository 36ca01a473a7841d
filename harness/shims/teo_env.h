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

#ifndef LATENCY_THRESHOLD_NS /* v6.19 teo.c defines it itself */
#endif

#endif /* IDLESPEC_VALIDATE_SHIM_TEO_ENV_H */
