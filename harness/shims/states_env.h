/*
 * What the states code (spec/states.md: the CEDE(0) fix-up,
 * fixup_cede0_latency()) needs of the kernel beyond harness/shims/kernel.h
 * and harness/shims/xcede_env.h: included right after kernel.h, before the
 * extracted fixup_cede0_latency(), parse_cede_parameters() it calls, and the
 * state tables and idle loops they pull in.
 *
 * xcede_env.h already provides the fake firmware (what the harness scripts),
 * tb_to_ns() with the kernel's fixed-point arithmetic at 512 MHz (KD-1),
 * struct cpuidle_state and the idle-loop helpers; kernel.h the limits the
 * fix-up compares against. This adds the few names the idle loops of later kernels
 * mention (local_clock()). Everything is static; names a shim might one day define are
 * guarded.
 */
#ifndef IDLESPEC_VALIDATE_SHIM_STATES_ENV_H
#define IDLESPEC_VALIDATE_SHIM_STATES_ENV_H



#include "xcede_env.h"

/* --- what the idle loops beside the table mention ------------------------------ */
static inline u64 states_local_clock(void) { return 0; }
#ifndef local_clock
#define local_clock() states_local_clock()
#endif
#ifndef NSEC_PER_USEC
#define NSEC_PER_USEC 1000L
#endif

#endif /* IDLESPEC_VALIDATE_SHIM_STATES_ENV_H */
