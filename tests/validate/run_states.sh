#!/bin/sh
# ctest: budget=60 timeout=300
# tests/validate/run_states.sh IDLESPEC_VALIDATE [BUDGET_SECONDS]
#
# The end-to-end test of `idlespec validate` on the states component (the
# CEDE(0) fix-up, spec/states.md STATES-3 and STATES-4; the probe,
# STATES-1, -2, -5, -6): the faithful fixup_cede0_latency() and
# pseries_idle_probe() of xcede_faithful.c + states_fixup.c hold every clause, KD-1's
# one-µs tolerance of the kernel's tb_to_ns() included; each variant derived
# from it with sed fails exactly the clauses its bug breaks, with a shrunk
# counterexample that names the records' latencies in ticks and µs and what
# the code set against the reference; a tree made of this suite's faithful
# files holds everything.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
CLAUSES="STATES-1 STATES-2 STATES-3 STATES-4 STATES-5 STATES-6"
COMPONENT=states
. "$HERE/lib.sh"

# The faithful cpuidle-pseries.c: this suite's parse_cede_parameters()
# (xcede_faithful.c) followed by its idle states and CEDE(0) fix-up
# (states_fixup.c).
cat "$HERE/xcede_faithful.c" "$HERE/states_fixup.c" >"$SCRATCH/states_faithful.c"
src() { echo "$SCRATCH/states_$1.c"; }

# The July 2020 RFC's arithmetic: CEDE's exit latency is the minimum - 1
# (u64). Zero records are skipped before the minimum, so it does not wrap
# here, but every fix-up is one µs short of the exact value (STATES-4).
variant min_minus_one '/variant: min_minus_one/s/= lowest_us;/= lowest_us - 1;/'
# ns / 1000 rounding down: below 1 µs a record reads 0 and is skipped, and
# 1023 ticks (1.998 µs) read 1 µs where the kernel's own arithmetic says 2 --
# more than KD-1's tolerance (STATES-4).
variant truncating_conversion '/variant: truncating_conversion/s/DIV_ROUND_UP_ULL(ns, NSEC_PER_USEC)/ns \/ NSEC_PER_USEC/'
# The target residency is half the exit latency instead of ten times it:
# below the exit latency (STATES-3), and not the exact value (STATES-4).
variant residency_not_scaled '/variant: residency_not_scaled/s/CEDE0_RESIDENCY_FACTOR \* lowest_us/lowest_us \/ 2/'

# Z3's states inputs take seconds (a 128-bit conversion per query): the
# faithful file and the witnesses of each input source use them, the other
# runs the generated inputs, RapidCheck's and a one-second campaign.
RUN_DEFAULTS="--fuzz 1 --inputs generated,fuzz,rapidcheck"

run faithful --source "$(src faithful)" --component states --budget "$BUDGET" --inputs z3,fuzz,rapidcheck,generated
expect_rc faithful 0
expect_only_failed faithful
expect_no_driver_crash faithful
expect_text faithful "note: Z3: 19 boundary inputs for 3 feasible branches of the spec model"
expect_text faithful "note: libFuzzer: 1 s coverage-guided campaign on the code under test"
expect_property_held faithful

# Each input source alone: Z3's edge of the zero fate (1 tick is 1 µs, the
# kernel's tb_to_ns() says 0) against a fix-up that subtracts one µs, and a
# campaign's corpus against a residency below the latency.
run min_minus_one_z3 --source "$(src_variant min_minus_one)" --component states --budget "$BUDGET" --inputs z3
expect_rc min_minus_one_z3 1
expect_only_failed min_minus_one_z3 STATES-4
expect_text min_minus_one_z3 "[Z3 "
run residency_fuzz --source "$(src_variant residency_not_scaled)" --component states --budget "$BUDGET" --inputs fuzz --fuzz 3
expect_rc residency_fuzz 1
expect_only_failed residency_fuzz STATES-3 STATES-4
expect_text residency_fuzz "[libFuzzer corpus]"
run residency_rc --source "$(src_variant residency_not_scaled)" --component states --budget "$BUDGET" --inputs rapidcheck
expect_rc residency_rc 1
expect_only_failed residency_rc STATES-3 STATES-4
expect_text residency_rc "note: RapidCheck: "
expect_text residency_rc " passing cases, shrunk in "
expect_text faithful "KD-1: the reference with the kernel's tb_to_ns() conversion is accepted too"

run min_minus_one --source "$(src_variant min_minus_one)" --component states --budget "$BUDGET"
expect_rc min_minus_one 1
expect_only_failed min_minus_one STATES-4
expect_text min_minus_one "1 record(s) {hint 1, 2 ticks = 1 µs}: CEDE's exit_latency = 0 µs, target_residency = 10 µs; the reference: 1 µs, 10 µs"
expect_text min_minus_one "replay (--keep-temp): printf '0 0 000c090100000000000000020000\n' | harness"
expect_no_driver_crash min_minus_one

run truncating --source "$(src_variant truncating_conversion)" --component states --budget "$BUDGET"
expect_rc truncating 1
expect_only_failed truncating STATES-4
expect_text truncating "1 record(s) {hint 1, 2 ticks = 1 µs}: CEDE's exit_latency = 10 µs, target_residency = 100 µs; the reference: 1 µs, 10 µs"

run residency_not_scaled --source "$(src_variant residency_not_scaled)" --component states --budget "$BUDGET"
expect_rc residency_not_scaled 1
expect_only_failed residency_not_scaled STATES-3 STATES-4
expect_text residency_not_scaled "1 record(s) {hint 1, 2 ticks = 1 µs}: CEDE's exit_latency = 1 µs, target_residency = 0 µs: the residency is below the exit latency"
expect_text residency_not_scaled "1 record(s) {hint 1, 2 ticks = 1 µs}: CEDE's exit_latency = 1 µs, target_residency = 0 µs; the reference: 1 µs, 10 µs"

# The probe's witnesses. The fix-up on every dedicated LPAR (before the
# POWER10 gate): POWER8 and POWER9 trust firmware's latencies (STATES-6).
variant no_gate '/variant: no_gate/s/cede0_latency_from_firmware()/1/'
# The gate on ISA 3.1 alone: a POWER10 in an older mode loses the fix-up.
variant arch31_only '/variant: arch31_only/s/||/|| 0 \&\&/'
# The shared table's snooze exits slower than its CEDE (STATES-1), or
# needs a longer stay (STATES-2).
variant shared_unordered '/variant: shared_unordered/s/= 0,/= 20,/'
variant shared_residency_unordered '/variant: shared_residency_unordered/s/= 0,/= 200,/'
# max_idle_state past CPUIDLE_STATE_MAX (STATES-5).
variant too_many_states '/variant: too_many_states/s/ARRAY_SIZE(shared_states);/ARRAY_SIZE(shared_states) + 9;/'

run no_gate --source "$(src_variant no_gate)" --component states --budget "$BUDGET"
expect_rc no_gate 1
expect_only_failed no_gate STATES-6
expect_text no_gate "POWER8, dedicated LPAR; firmware answers status 0 with 2 record(s): the CEDE(0) fix-up ran (1 firmware query); the spec: it does not run here"
# The fix-up on every dedicated LPAR is the era from d947fb4c965c to
# 50741b70b0cb: the report names the commit that brought the gate.
expect_text no_gate "STATES-6 [pseries_idle_probe] failed: upstream has done what the clause asks since 50741b70b0cb"
run arch31_only --source "$(src_variant arch31_only)" --component states --budget "$BUDGET"
expect_rc arch31_only 1
expect_only_failed arch31_only STATES-6
expect_text arch31_only "POWER10 in POWER8 mode, dedicated LPAR; firmware answers status 0 with 2 record(s): the CEDE(0) fix-up did not run; the spec: it runs here"
run shared_unordered --source "$(src_variant shared_unordered)" --component states --budget "$BUDGET"
expect_rc shared_unordered 1
expect_only_failed shared_unordered STATES-1
expect_text shared_unordered "the shared table's state 1 exits in 10 µs, state 0 in 20 µs"
run shared_residency_unordered --source "$(src_variant shared_residency_unordered)" --component states --budget "$BUDGET"
expect_rc shared_residency_unordered 1
expect_only_failed shared_residency_unordered STATES-2
expect_text shared_residency_unordered "the shared table's state 1 has target residency 100 µs, state 0 200 µs"
run too_many_states --source "$(src_variant too_many_states)" --component states --budget "$BUDGET"
expect_rc too_many_states 1
expect_only_failed too_many_states STATES-5
expect_text too_many_states "max_idle_state = 11, more than CPUIDLE_STATE_MAX (10)"

# --json: every clause, the counterexample and replay fields filled.
run min_minus_one_json --source "$(src_variant min_minus_one)" --component states --budget "$BUDGET" --json
python3 - "$SCRATCH/min_minus_one_json.out" <<'PY' || fail "min_minus_one_json: unexpected JSON"
import json, sys
d = json.load(open(sys.argv[1]))
st = {c["id"]: c for c in d["clauses"]}
assert sorted(st) == ["STATES-%d" % i for i in (1, 2, 3, 4, 5, 6)], st.keys()
assert all(st[c]["status"] == "held" for c in st if c != "STATES-4"), st
assert st["STATES-6"]["function"] == "pseries_idle_probe" and st["STATES-6"]["line"] > 0
assert st["STATES-4"]["status"] == "failed" and st["STATES-4"]["counterexamples"] and st["STATES-4"]["replay"]
assert st["STATES-4"]["function"] == "fixup_cede0_latency" and st["STATES-4"]["line"] > 0
assert d["exit_code"] == 1
PY

# A file without the fix-up and the probe: every clause absent.
run no_fixup --source "$HERE/xcede_faithful.c" --component states --budget "$BUDGET"
expect_rc no_fixup 3  # every clause absent: nothing judged
for c in $CLAUSES; do expect_clause no_fixup "$c" absent; done

# --- a kernel tree -------------------------------------------------------------
# cpuidle-pseries.c is the faithful concatenation, found and judged in a
# tree; states alone (run_xcede.sh's tree judges busy_delay, xcede, states
# and the governor together).
TREE="$SCRATCH/tree"
mkdir -p "$TREE/drivers/cpuidle"
cp "$(src faithful)" "$TREE/drivers/cpuidle/cpuidle-pseries.c"
run tree --kernel-tree "$TREE" --component states --budget "$BUDGET"
expect_rc tree 0
for c in $CLAUSES; do
  expect_clause tree "$c" held
done
expect_text tree "idlespec validate: drivers/cpuidle/cpuidle-pseries.c (states)"

finish
