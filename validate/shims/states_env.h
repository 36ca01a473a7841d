/*
 * What the states code (spec/states.md: the CEDE(0) fix-up,
 * fixup_cede0_latency()) needs of the kernel beyond validate/shims/kernel.h
 * and validate/shims/xcede_env.h: included right after kernel.h, before the
 * extracted fixup_cede0_latency(), parse_cede_parameters() it calls, and the
 * state tables and idle loops they pull in.
 *
 * xcede_env.h already provides the fake firmware (what the harness scripts),
 * tb_to_ns() with the kernel's fixed-point arithmetic at 512 MHz (KD-1),
 * struct cpuidle_state and the idle-loop helpers. This adds the limits the
 * fix-up compares against and the few names the idle loops of later kernels
 * mention (local_clock()). Everything is static; names a shim might one day define are
 * guarded.
 */
#ifndef IDLESPEC_VALIDATE_SHIM_STATES_ENV_H
#define IDLESPEC_VALIDATE_SHIM_STATES_ENV_H

#include <limits.h>

#include "xcede_env.h"

/* --- limits (include/linux/limits.h) ----------------------------------------- */
#ifndef U8_MAX
#define U8_MAX ((u8)~0U)
#endif
#ifndef U16_MAX
#define U16_MAX ((u16)~0U)
#endif
#ifndef U32_MAX
#define U32_MAX ((u32)~0U)
#endif
#ifndef S32_MAX
#define S32_MAX ((s32)(U32_MAX >> 1))
#endif
#ifndef U64_MAX
#define U64_MAX ((u64)~0ULL)
#endif
#ifndef S64_MAX
#define S64_MAX ((s64)(U64_MAX >> 1))
#endif

/* --- what the idle loops beside the table mention ------------------------------ */
static inline u64 states_local_clock(void) { return 0; }
#ifndef local_clock
#define local_clock() states_local_clock()
#endif
#ifndef NSEC_PER_USEC
#define NSEC_PER_USEC 1000L
#endif

#endif /* IDLESPEC_VALIDATE_SHIM_STATES_ENV_H */
