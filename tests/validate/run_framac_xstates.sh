#!/bin/sh
# ctest: budget=30 timeout=300
# tests/validate/run_framac_xstates.sh IDLESPEC_VALIDATE [BUDGET_SECONDS]
#
# Frama-C's EVA on the CEDE(0) fix-up (states, spec/states.md STATES-4;
# validate/framac.h, harness/framac_states.c): on this suite's faithful
# fixup_cede0_latency() (xcede_faithful.c + states_fixup.c) EVA proves
# STATES-4 with no alarm anywhere in the unit, the shims included ("held
# (proven: ...)"), the probe's snooze timeout among its assertions; on a variant whose tick-to-µs conversion wraps the tests
# fail STATES-4 with a counterexample and EVA's unsigned-overflow alarm
# stands beside it, in the variant's file. Skipped (exit 77)
# when frama-c is not installed.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
FRAMAC=1
CLAUSES="STATES-1 STATES-2 STATES-3 STATES-4 STATES-5 STATES-6"
COMPONENT=states
. "$HERE/lib.sh"
. "$HERE/framac_lib.sh"

# The faithful cpuidle-pseries.c, as run_states.sh builds it.
cat "$HERE/xcede_faithful.c" "$HERE/states_fixup.c" >"$SCRATCH/states_faithful.c"
src() { echo "$SCRATCH/states_$1.c"; }
# No range check before the conversion: from about 9.4e18 ticks the
# kernel's tb_to_ns() wraps (a record reads 1 µs), and the sum in
# DIV_ROUND_UP_ULL() can wrap too (STATES-4).
variant conversion_wraps 's/if (ticks > most_us \* tb_ticks_per_usec)/if (0)/'
# The snooze timeout (STATES-4, computed by the probe): kept in 32 bits, the
# timeout of a residency from 2^23 us on is stored wrapped; multiplied in 32
# bits, the product itself wraps. The probe's harness judges the timeout
# through the oracle (validate/states_check.cc judge_snooze(), on a record
# of the largest latency cpuidle keeps), so both fail STATES-4 with the
# input and the expected and observed timeouts; the unit's driver asserts
# the exact timeout (harness/framac_states.c fc_snooze()), and EVA's alarm
# stands beside the counterexample.
variant snooze_u32 's/^static u64 snooze_timeout __read_mostly;/static u32 snooze_timeout __read_mostly;/'
variant snooze_mul32 's/snooze_timeout = cpuidle_state_table\[1\]\.target_residency \*$/& (u32)/'

S="--component states --inputs generated --fuzz 0 --budget $BUDGET"

# EVA proves STATES-4 on the faithful fix-up: xcede_latency_us() writes its
# output only when it returns true, and the unit's EVA options keep the two
# return states apart until the caller tests the result (validate/framac.cc).
# shellcheck disable=SC2086
run s_faithful --source "$(src faithful)" $S
expect_rc s_faithful 0
expect_only_failed s_faithful
expect_level s_faithful STATES-4 "held $PROVEN"
# the probe is in the unit: 1 + 8 fix-up assertions, 7 of the snooze timeout
expect_level s_faithful STATES-4 "every STATES_4 assertion (16) reached and proven"
expect_text s_faithful "note: Frama-C EVA: 0 properties unproven over the spec's ranges"
expect_no_shim_alarm s_faithful
# The probe's clauses have no Frama-C unit: no proof level.
grep "^STATES-[1256] \[" "$SCRATCH/s_faithful.out" | grep -q "proven\|tested" &&
  fail "s_faithful: a probe clause carries a proof level it has no unit for"

# shellcheck disable=SC2086
run s_conversion_wraps --source "$(src_variant conversion_wraps)" $S
expect_rc s_conversion_wraps 1
expect_only_failed s_conversion_wraps STATES-4
expect_eva_beside s_conversion_wraps STATES-4 "unsigned overflow"
expect_eva_beside s_conversion_wraps STATES-4 "states_conversion_wraps.c:"

# shellcheck disable=SC2086
run s_snooze_u32 --source "$(src_variant snooze_u32)" $S
expect_rc s_snooze_u32 1
expect_only_failed s_snooze_u32 STATES-4
expect_text s_snooze_u32 "POWER10, dedicated LPAR; firmware answers status 0 with 1 record(s): snooze_timeout = 4294964224 ticks; the exact value: 2199023252480 ticks (CEDE's target residency 4294967290 µs x 512 ticks per µs); the record(s): {hint 1, 219902325248 ticks = 429496729 µs}"
expect_eva_beside s_snooze_u32 STATES-4 "assertion STATES_4"
# shellcheck disable=SC2086
run s_snooze_mul32 --source "$(src_variant snooze_mul32)" $S
expect_rc s_snooze_mul32 1
expect_only_failed s_snooze_mul32 STATES-4
expect_text s_snooze_mul32 "the exact value: 2199023252480 ticks (CEDE's target residency 4294967290 µs"
expect_eva_beside s_snooze_mul32 STATES-4 "unsigned overflow"
expect_eva_beside s_snooze_mul32 STATES-4 "states_snooze_mul32.c:"

finish
