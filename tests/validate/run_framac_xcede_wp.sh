#!/bin/sh
# ctest: budget=30 timeout=400
# tests/validate/run_framac_xcede_wp.sh IDLESPEC_VALIDATE [BUDGET_SECONDS]
#
# Frama-C's WP on xcede (harness/framac_xcede_wp.h, validate/framac.h):
# parse_cede_parameters()'s contract (XCEDE-6 on a query whose first answer
# is final: a status neither success nor busy leaves no records and a
# non-zero result) and the fake firmware's contracts it calls through, all
# proved in one run. This suite's faithful file proves every goal; a variant
# whose count survives a failed query fails XCEDE-6 by counterexample and
# leaves a goal of the contract unproven. Skipped (exit 77) when
# frama-c is not installed.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
FRAMAC=1
COMPONENT=xcede
CLAUSES="XCEDE-1 XCEDE-2 XCEDE-3 XCEDE-4 XCEDE-5 XCEDE-6 XCEDE-7 XCEDE-8"
. "$HERE/lib.sh"
. "$HERE/framac_lib.sh"

X="--component xcede --inputs generated --fuzz 0 --budget $BUDGET"
NOTE="note: Frama-C WP: parse_cede_parameters()'s contract (harness/framac_xcede_wp.h, a step of XCEDE-6): "

# wp_goals NAME: "PROVED GOALS" from the contract's note
wp_goals() {
  grep -F -- "$NOTE" "$SCRATCH/$1.out" | sed 's/.*: \([0-9]*\) of \([0-9]*\) goals proved.*/\1 \2/'
}

# shellcheck disable=SC2086
# The shims' contracts (the fake firmware's) proved in the run, as the test
# suite proves them for every validate run, which takes them as proved.
IDLESPEC_WP_SHIMS=1 run faithful --source "$(src faithful)" $X
expect_rc faithful 0
expect_only_failed faithful
expect_text faithful "$NOTE"
expect_text faithful "; the shims' contracts it uses proved in the same run"
set -- $(wp_goals faithful)
[ "${1:-}" != "" ] && [ "$1" -gt 0 ] && [ "$1" = "${2:-}" ] ||
  fail "faithful: WP did not prove every goal: $(grep -F -- "Frama-C WP" "$SCRATCH/faithful.out")"
WITH_SHIMS=$1
run faithful_fn --source "$(src faithful)" $X
expect_text faithful_fn "; the shims' contracts it uses proved by the test suite"
set -- $(wp_goals faithful_fn)
[ "${1:-}" != "" ] && [ "$1" -gt 0 ] && [ "$1" = "${2:-}" ] && [ "$1" -lt "$WITH_SHIMS" ] ||
  fail "faithful_fn: WP on the function alone did not prove its goals: $(grep -F -- "Frama-C WP" "$SCRATCH/faithful_fn.out")"

# A stale count survives a failed query (run_xcede.sh's keeps_count_on_error).
variant keeps_count_on_error '/variant: keeps_count_on_error/s/= 0;/= ARRAY_SIZE(xcede_latency_parameter.payload.records);/'
# shellcheck disable=SC2086
run keeps_count_on_error --source "$(src_variant keeps_count_on_error)" $X
expect_rc keeps_count_on_error 1
expect_clause keeps_count_on_error XCEDE-6 failed
set -- $(wp_goals keeps_count_on_error)
[ "${1:-}" != "" ] && [ "${2:-0}" -gt 0 ] && [ "$1" -lt "$2" ] ||
  fail "keeps_count_on_error: WP left no goal unproven: $(grep -F -- "Frama-C WP" "$SCRATCH/keeps_count_on_error.out")"

finish
