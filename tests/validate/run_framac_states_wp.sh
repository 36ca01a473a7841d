#!/bin/sh
# ctest: budget=30 timeout=300
# tests/validate/run_framac_states_wp.sh IDLESPEC_VALIDATE [BUDGET_SECONDS]
#
# Frama-C's WP on the states probe (validate/framac.h):
# harness/framac_states_wp.h states that when pseries_idle_probe()
# succeeds, the table it chooses is one of the file's two, its count
# (max_idle_state) is within that table and at most CPUIDLE_STATE_MAX
# (STATES-5 where the probe succeeds). The EVA unit of states is built from
# the fix-up alone; validate extracts the probe from the file for its
# contract, with EVA (the whole component) or without it (--function
# pseries_idle_probe: no EVA-covered clause on the target). On this suite's
# faithful probe every goal is proved; a count of 11 leaves both goals
# unproven (and the tests fail STATES-5), a shared count one past its table
# leaves the table's goal unproven (the tests, which judge the count
# against CPUIDLE_STATE_MAX, find nothing). The contract's note is never a
# proof level: no STATES verdict of the probe carries one. Skipped (exit 77)
# when frama-c or why3 is not installed.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
FRAMAC=1
CLAUSES="STATES-1 STATES-2 STATES-5 STATES-6"
COMPONENT=states
. "$HERE/lib.sh"
. "$HERE/framac_lib.sh"
if ! command -v why3 >/dev/null 2>&1; then
  skip_test "why3 is not installed (scripts/setup.sh framac)"
fi

# The faithful cpuidle-pseries.c, as run_states.sh builds it.
cat "$HERE/xcede_faithful.c" "$HERE/states_fixup.c" >"$SCRATCH/states_faithful.c"
src() { echo "$SCRATCH/states_$1.c"; }
# The dedicated table's count past CPUIDLE_STATE_MAX (and past the table).
variant eleven 's/max_idle_state = NR_DEDICATED_STATES;/max_idle_state = 11;/'
# The shared table's count one past the table, within CPUIDLE_STATE_MAX.
variant past_shared '/variant: too_many_states/s/ARRAY_SIZE(shared_states);/ARRAY_SIZE(shared_states) + 1;/'

WP="note: Frama-C WP: pseries_idle_probe()'s contract (harness/framac_states_wp.h, STATES-5 where the probe succeeds): "
# expect_wp NAME PROVED GOALS: the contract's note with PROVED of GOALS goals proved
expect_wp() {
  line=$(grep -F "$WP" "$SCRATCH/$1.out") || {
    fail "$1: no WP note for pseries_idle_probe()"
    return
  }
  echo "$line" | grep -qF ": $2 of $3 goals proved with Z3," ||
    fail "$1: expected $2 of $3 goals proved: $line"
}
no_probe_proof_level() {
  grep "^STATES-[1256] \[" "$SCRATCH/$1.out" | grep -q "proven\|tested" &&
    fail "$1: a probe clause carries a proof level from the probe's contract"
  return 0
}

P="--component states --function pseries_idle_probe --no-sanitizers --budget $BUDGET"
# The whole component: EVA on the fix-up (STATES-4 proven) and WP on the probe.
# shellcheck disable=SC2086
run faithful --source "$(src faithful)" --component states --inputs generated --fuzz 0 \
  --no-sanitizers --budget "$BUDGET"
expect_rc faithful 0
expect_wp faithful 2 2
expect_level faithful STATES-4 "held $PROVEN"
no_probe_proof_level faithful
# The probe alone: STATES-4 judged on its snooze timeout alone (the fix-up
# not asked for), and not proven (the unit's driver starts from the fix-up);
# the contract runs all the same.
# shellcheck disable=SC2086
run probe --source "$(src faithful)" $P
expect_rc probe 0
expect_only_failed probe
expect_wp probe 2 2
expect_level probe STATES-4 "held (tested; not proven: "
no_probe_proof_level probe
# shellcheck disable=SC2086
run eleven --source "$(src_variant eleven)" $P
expect_rc eleven 1
expect_only_failed eleven STATES-5
expect_wp eleven 0 2
# shellcheck disable=SC2086
run past_shared --source "$(src_variant past_shared)" $P
expect_rc past_shared 0
expect_only_failed past_shared
expect_wp past_shared 1 2
# Frama-C switched off: no WP note at all.
# shellcheck disable=SC2086
IDLESPEC_FRAMAC=none run off --source "$(src faithful)" $P
grep -qF "note: Frama-C WP:" "$SCRATCH/off.out" && fail "off: a WP note with Frama-C turned off"
finish
