#!/bin/sh
# ctest: budget=30 timeout=400
# tests/validate/run_framac_governor.sh IDLESPEC_VALIDATE [BUDGET_SECONDS]
#
# Frama-C on the menu governor (harness/framac_governor.c,
# harness/framac_governor_wp.h; validate/framac.h). EVA runs over spec/governor.md's
# value ranges on this suite's faithful governor and on the era files
# (microseconds, v4.17's and v4.4's menu_select()), the era read from the
# file as -D flags. On none of them does EVA prove GOV-5 or GOV-7: its
# interval domain cannot see the relational guards (a ring entry below 2^40
# ns in us or the UINT_MAX mark, the deduction guarded by twice the exit
# latency, the measured time at most the time to the next timer), so it
# raises overflow alarms in the predictor and menu_update() that the tests
# show false, and an alarm anywhere keeps GOV-7 at tested too. What is
# checked: both clauses say "held (tested; EVA could not prove it: <alarm>
# at <file:line>)", the alarm in the file under test and none in the shims;
# a variant whose arithmetic wraps fails GOV-5 with EVA's overflow alarm
# beside the counterexample; one whose index leaves the table fails GOV-7
# with the unproven assertion GOV_7 beside it; one that ignores the disable
# flags leaves GOV_7's GOV-1 assertion unproven (its note says so); WP proves menu_reflect()'s
# contract on the faithful file and leaves it unproven on a variant that
# records another index. Skipped (exit 77) when frama-c is not
# installed.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
FRAMAC=1
CLAUSES="GOV-1 GOV-2 GOV-3 GOV-4 GOV-5 GOV-7 GOV-8 GOV-9"
COMPONENT=governor
. "$HERE/lib.sh"
. "$HERE/framac_lib.sh"

# expect_tested_in NAME FILE: GOV-5 and GOV-7 held, tested, with an alarm of
# EVA's in FILE (the file under test), none in the shims
expect_tested_in() {
  for c in GOV-5 GOV-7; do
    expect_level "$1" "$c" "$TESTED"
    grep "^$c \[" "$SCRATCH/$1.out" | grep -q " at [^ ]*$2:[0-9]*[;)]" ||
      fail "$1: $c's alarm is not in $2: $(grep "^$c \[" "$SCRATCH/$1.out")"
  done
  expect_text "$1" "note: Frama-C EVA: "
  expect_no_shim_alarm "$1"
}
G="--component governor --budget $BUDGET --no-sanitizers"

# --- the faithful governor and WP ----------------------------------------------
ACCEPTED="GOV-8"
# shellcheck disable=SC2086
run faithful --source "$(src faithful)" $G
expect_rc faithful 0
expect_only_failed faithful
expect_tested_in faithful governor_faithful.c
expect_text faithful "note: Frama-C WP: menu_reflect()'s contract (harness/framac_governor_wp.h): 1 of 1 goals proved with Z3"

# The product of the timer estimate in 32 bits (run_governor.sh's
# prediction_32bit): the tests find the wrap, EVA's overflow alarm beside it.
variant prediction_32bit '/variant: prediction_32bit/s/= md->next_timer_ns \*/= (u32)md->next_timer_ns */'
# shellcheck disable=SC2086
run prediction_32bit --source "$(src_variant prediction_32bit)" $G
expect_rc prediction_32bit 1
expect_only_failed prediction_32bit GOV-5
expect_eva_beside prediction_32bit GOV-5 "overflow"
expect_eva_beside prediction_32bit GOV-5 "governor_prediction_32bit.c:"
expect_no_shim_alarm prediction_32bit

# No state enabled: the table's size instead of state 0.
variant past_table 's/return menu_tick_policy(drv, dev, pick < 0 ? 0 : pick,/return menu_tick_policy(drv, dev, pick < 0 ? drv->state_count : pick,/'
# shellcheck disable=SC2086
run past_table --source "$(src_variant past_table)" $G
expect_rc past_table 1
expect_clause past_table GOV-7 failed
expect_eva_beside past_table GOV-7 "assertion GOV_7 unproven"

# GOV-7 states GOV-1 (harness/framac_governor.c fc_gov1(): every pattern of
# disable flags of a 3-state table with a state enabled, a limit above 0;
# with one enabled, the choice that state), an assertion EVA proves on the
# faithful file (the one for several enabled states it cannot there: the
# walk's helpers join its picks, harness/framac_governor.c says how); a walk that ignores the disable flags (run_governor.sh's
# ignores_disabled) fails GOV-1 by the tests, and EVA leaves that GOV_7
# assertion unproven: GOV-7's note names its line beside the predictor's
# alarm. Without the assertion the variant's note names no GOV-1 line.
GOV1_LINE=$(grep -n 'assert GOV_7: 0 <= idx < FC_GOV1_STATES && (1 << idx) == mask;' "$HERE/../../harness/framac_governor.c" | cut -d: -f1)
[ -n "$GOV1_LINE" ] || fail "harness/framac_governor.c has no GOV-1 assertion"
# GOV-1 under the patterns with several states enabled (one analysis each)
GOV1_MANY_LINE=$(grep -n 'assert GOV_7: 0 <= idx < FC_GOV1_STATES && ((mask >> idx) & 1) == 1;' "$HERE/../../harness/framac_governor.c" | cut -d: -f1)
[ -n "$GOV1_MANY_LINE" ] || fail "harness/framac_governor.c has no GOV-1 assertion for several enabled states"
# unproven_gov1 NAME [LINE]: GOV-7's note lists the GOV-1 assertion's line (one enabled state, or LINE) as unproven
unproven_gov1() {
  grep "^GOV-7 \[" "$SCRATCH/$1.out" | grep -q "GOV_7 assertions\{0,1\} unproven too at harness/framac_governor.c lines\{0,1\} [0-9, ]*\b${2:-$GOV1_LINE}\b"
}
unproven_gov1 faithful && fail "faithful: EVA left GOV-1's assertion (line $GOV1_LINE) unproven"
variant ignores_disabled '/variant: ignores_disabled/s/return dev->states_usage\[k\].disable != 0;/return false;/'
# shellcheck disable=SC2086
run ignores_disabled --source "$(src_variant ignores_disabled)" $G
expect_rc ignores_disabled 1
expect_clause ignores_disabled GOV-1 failed
expect_level ignores_disabled GOV-7 "$TESTED"
unproven_gov1 ignores_disabled ||
  fail "ignores_disabled: GOV-7's note does not name GOV-1's assertion (line $GOV1_LINE): $(grep "^GOV-7 " "$SCRATCH/ignores_disabled.out")"

# menu_reflect() records another index than the one entered: WP leaves its
# contract unproven (WP exits 0 either way).
variant reflect_off 's/dev->last_state_idx = index;/dev->last_state_idx = index ? index - 1 : 0;/'
# shellcheck disable=SC2086
run reflect_off --source "$(src_variant reflect_off)" $G
expect_text reflect_off "note: Frama-C WP: menu_reflect()'s contract (harness/framac_governor_wp.h): 0 of 1 goals proved"

# --- the eras: the -D flags read from the file ----------------------------------
# The microsecond era (next_timer_us) and, on its struct and predictor, the
# menu_select() of v4.17 (bool *stop_tick) and of v4.4 (no stop_tick), as
# run_governor.sh composes them.
ACCEPTED=""
V417="$SCRATCH/governor_v417_era.c"
{ sed '/^static int menu_select(/,$d' "$HERE/governor_us_era.c"; cat "$HERE/governor_v417_select.c"; } >"$V417"
V44="$SCRATCH/governor_v44_era.c"
{ sed '/^static int menu_select(/,$d' "$HERE/governor_us_era.c"; cat "$HERE/governor_v44_select.c"; } >"$V44"
# shellcheck disable=SC2086
run us_era --source "$HERE/governor_us_era.c" $G
expect_tested_in us_era governor_us_era.c
# shellcheck disable=SC2086
run v417_era --source "$V417" $G
expect_tested_in v417_era governor_v417_era.c
# shellcheck disable=SC2086
run v44_era --source "$V44" $G
expect_tested_in v44_era governor_v44_era.c
# v4.4's walk is one function: EVA proves GOV-1 under every pattern of
# disable flags there, several states enabled included; a walk that reads no
# flag (the tests fail GOV-1) leaves that assertion unproven.
unproven_gov1 v44_era "$GOV1_MANY_LINE" && fail "v44_era: EVA left GOV-1's assertion for several enabled states (line $GOV1_MANY_LINE) unproven"
V44_OFF="$SCRATCH/governor_v44_ignores_off.c"
sed 's/^\t\tif (off(drv, dev, k))$/\t\tif (0)/' "$V44" >"$V44_OFF"
cmp -s "$V44" "$V44_OFF" && fail "v44_ignores_off: the variant changed nothing"
# shellcheck disable=SC2086
run v44_ignores_off --source "$V44_OFF" $G
expect_clause v44_ignores_off GOV-1 failed
unproven_gov1 v44_ignores_off "$GOV1_MANY_LINE" ||
  fail "v44_ignores_off: GOV-7's note does not name GOV-1's assertion for several enabled states (line $GOV1_MANY_LINE): $(grep "^GOV-7 " "$SCRATCH/v44_ignores_off.out")"

finish
