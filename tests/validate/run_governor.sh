#!/bin/sh
# ctest: budget=60 timeout=300
# tests/validate/run_governor.sh IDLESPEC_VALIDATE [BUDGET_SECONDS]
#
# The end-to-end test of `idlespec validate` on the governor component: the
# faithful menu governor of governor_faithful.c (the `reference` subject of
# impl/governor.h) holds the clauses validate judges (GOV-1, 2, 4, 5, 7, 8;
# GOV-3 and GOV-6 are reported unknown) and equals the reference subject on
# every selection; each variant derived from it with sed fails exactly the
# clauses its bug breaks, with a shrunk counterexample that names the table
# and the steps.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
CLAUSES="GOV-1 GOV-2 GOV-4 GOV-5 GOV-7 GOV-8"
COMPONENT=governor
. "$HERE/lib.sh"

# The walk, the trivial check and the tick correction all take disabled
# states (GOV-1; GOV-2 as well: the disabled state 0 it falls back to is
# over the limit and is not the first enabled state).
variant ignores_disabled '/variant: ignores_disabled/s/return dev->states_usage\[k\].disable != 0;/return false;/'
# The QoS limit checked after the residency block, as before 779b1a1cb13a:
# with the tick stopped the promotion returns a state over the limit (GOV-2).
variant limit_after_residency '/variant: limit_after_residency/s/if (st->exit_latency_ns > qos_ns)/if (0)/'
# The time to the timer times the correction factor in 32 bits (GOV-5).
variant prediction_32bit '/variant: prediction_32bit/s/= md->next_timer_ns \*/= (u32)md->next_timer_ns */'

run faithful --source "$(src faithful)" --component governor --budget "$BUDGET"
expect_rc faithful 1  # GOV-3 and GOV-6 are unknown
expect_only_failed faithful
expect_clause faithful GOV-3 unknown
expect_clause faithful GOV-6 unknown
expect_text faithful "equal subject reference on all"
expect_text faithful "observed the truncation spec/governor.md accepts"
expect_no_driver_crash faithful

run ignores_disabled --source "$(src_variant ignores_disabled)" --component governor --budget "$BUDGET"
expect_rc ignores_disabled 1
expect_only_failed ignores_disabled GOV-1 GOV-2
expect_text ignores_disabled "the file chose idx=0 stop_tick=0: state 0 is disabled (first enabled is 1)"
expect_text ignores_disabled "replay (--keep-temp): printf '0 1000 0:0:pd,12000:120000:- "
expect_no_driver_crash ignores_disabled

run limit_after_residency --source "$(src_variant limit_after_residency)" --component governor --budget "$BUDGET"
expect_rc limit_after_residency 1
expect_only_failed limit_after_residency GOV-2
expect_text limit_after_residency "states 0 poll 0/0, 1 5000/5000, 2 200000/2000000 ns (exit/target)"
expect_text limit_after_residency "the file chose idx=2 stop_tick=1: state 2 exit latency 200000 ns > limit 20000 ns"
expect_no_driver_crash limit_after_residency

run prediction_32bit --source "$(src_variant prediction_32bit)" --component governor --budget "$BUDGET"
expect_rc prediction_32bit 1
expect_only_failed prediction_32bit GOV-5
expect_text prediction_32bit "which reference's walk gives for a prediction of 12000 ns; exact arithmetic predicts 42500000 ns"
expect_text prediction_32bit "note: the prediction is inferred"
expect_no_driver_crash prediction_32bit

# --json: one entry per clause of the component.
run faithful_json --source "$(src faithful)" --component governor --budget "$BUDGET" --json
python3 - "$SCRATCH/faithful_json.out" <<'PY' || fail "faithful_json: unexpected JSON"
import json, sys
d = json.load(open(sys.argv[1]))
st = {c["id"]: c for c in d["clauses"]}
assert sorted(st) == ["GOV-%d" % i for i in range(1, 9)], st.keys()
assert st["GOV-3"]["status"] == "unknown" and st["GOV-3"]["note"]
assert all(st["GOV-%d" % i]["status"] == "held" for i in (1, 2, 4, 5, 7, 8))
assert st["GOV-5"]["function"] == "menu_update" and st["GOV-5"]["line"] > 0
PY

# A kernel tree holding the faithful governor.
TREE="$SCRATCH/tree"
mkdir -p "$TREE/drivers/cpuidle/governors"
cp "$(src faithful)" "$TREE/drivers/cpuidle/governors/menu.c"
run tree --kernel-tree "$TREE" --component governor --budget "$BUDGET"
expect_rc tree 1
expect_clause tree GOV-1 held
expect_clause tree GOV-6 unknown
expect_text tree "idlespec validate: drivers/cpuidle/governors/menu.c (governor)"

finish
