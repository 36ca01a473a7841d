/*
 * The opening of every Frama-C driver (harness/framac_<component>.c;
 * validate/framac.h): Frama-C's builtins (Frama_C_interval,
 * Frama_C_make_unknown) and the hook shims/kernel.h's WARN_ON/BUG_ON call.
 * validate/framac.cc includes it before the code under test (no macro of
 * the code reaches it); the driver's own #include of it is then skipped.
 */
#pragma once
#include "__fc_builtin.h"

/* WARN_ON/BUG_ON: counted; no clause of a Frama-C unit reads the count. */
static unsigned fc_findings;
__attribute__((unused)) static void shim_kernel_finding(const char* what, const char* cond,
                                                        const char* file, int line) {
  (void)what, (void)cond, (void)file, (void)line;
  SHIM_COUNT(fc_findings);
}
