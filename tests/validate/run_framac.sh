#!/bin/sh
# ctest: budget=30 timeout=400
# tests/validate/run_framac.sh IDLESPEC_VALIDATE [BUDGET_SECONDS]
#
# Frama-C's EVA on the file's own text (issue 38, validate/framac.h): on
# this suite's faithful files EVA proves XCEDE-1/-3/-4 and BUSY-1/-4 with no
# alarm anywhere in the unit, the shims included ("held (proven: ...)"); on
# each broken variant the tests fail the clause with a counterexample and
# EVA's alarm stands beside it, at the line it names; a clause EVA cannot
# prove stays held and says "tested" with the alarm; without Frama-C every
# such clause says "tested" and the report names the set-up line once. The
# level is in the text, --json, SARIF and Markdown. Skipped (exit 77) when
# frama-c is not installed.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
FRAMAC=1
. "$HERE/lib.sh"
. "$HERE/framac_lib.sh"

X="--component xcede --inputs generated --fuzz 0 --budget $BUDGET"
B="--component busy_delay --scan sampled --budget $BUDGET"

# --- xcede ------------------------------------------------------------------
COMPONENT=xcede
CLAUSES="XCEDE-1 XCEDE-2 XCEDE-3 XCEDE-4 XCEDE-5 XCEDE-6 XCEDE-7"
# The count believed: 6553 records read from a 16-record buffer.
variant unbounded '/variant: unbounded/s/min_t(u32, declared, ARRAY_SIZE(payload->records))/declared/'
# No guard for payload_size < 2: payload_size - 2 wraps.
variant wraps '/variant: wraps/s/if (payload_size < 2)/if (0)/'

# shellcheck disable=SC2086
run x_faithful --source "$(src faithful)" $X --json
mv "$SCRATCH/x_faithful.out" "$SCRATCH/x_faithful.json"
# shellcheck disable=SC2086
run x_faithful --source "$(src faithful)" $X --sarif "$SCRATCH/x_faithful.sarif" --markdown "$SCRATCH/x_faithful.md"
expect_rc x_faithful 0
expect_only_failed x_faithful
for c in XCEDE-1 XCEDE-3 XCEDE-4; do expect_level x_faithful "$c" "held $PROVEN"; done
# The clauses no Frama-C unit covers say nothing about a proof.
grep "^XCEDE-2 \[" "$SCRATCH/x_faithful.out" | grep -q "proven\|tested" &&
  fail "x_faithful: XCEDE-2 carries a proof level it has no unit for"
expect_text x_faithful "note: Frama-C EVA: 0 properties unproven over the spec's ranges"
grep -q '"id":"XCEDE-4".*"proof":"proven"' "$SCRATCH/x_faithful.json" ||
  fail "x_faithful: --json lacks XCEDE-4's proof level"
expect_no_shim_alarm x_faithful
grep -qF "held (proven: Frama-C EVA" "$SCRATCH/x_faithful.md" ||
  fail "x_faithful: the Markdown lacks the proof level"

# shellcheck disable=SC2086
run x_unbounded --source "$(src_variant unbounded)" $X --sarif "$SCRATCH/x_unbounded.sarif"
expect_rc x_unbounded 1
expect_only_failed x_unbounded XCEDE-1 XCEDE-4
expect_eva_beside x_unbounded XCEDE-1 "out of bounds access"
expect_eva_beside x_unbounded XCEDE-1 "xcede_unbounded.c:"
expect_no_shim_alarm x_unbounded
# SARIF: the alarm is a location of XCEDE-1's result, in the variant's file.
python3 - "$SCRATCH/x_unbounded.sarif" <<'PY' || fail "x_unbounded: SARIF lacks the alarm's location"
import json, sys
log = json.load(open(sys.argv[1]))
res = [r for r in log["runs"][0]["results"] if r["ruleId"] == "XCEDE-1"]
locs = res[0]["locations"] if res else []
ok = any("EVA: out of bounds" in l.get("message", {}).get("text", "") and
         l["physicalLocation"]["artifactLocation"]["uri"].endswith("xcede_unbounded.c") for l in locs)
sys.exit(0 if ok else 1)
PY
# XCEDE-3 held by the tests, EVA could not prove it (the read past the buffer).
expect_level x_unbounded XCEDE-3 "held (tested; EVA could not prove it: out of bounds access"

# Without ocamlopt EVA's dead statements cannot be listed: nothing is proven.
export IDLESPEC_OCAMLOPT=/nonexistent/ocamlopt
# shellcheck disable=SC2086
run x_no_ocamlopt --source "$(src faithful)" $X
unset IDLESPEC_OCAMLOPT
expect_rc x_no_ocamlopt 0
expect_only_failed x_no_ocamlopt
for c in XCEDE-1 XCEDE-3 XCEDE-4; do
  expect_level x_no_ocamlopt "$c" "held (tested; not proven: ocamlopt is not installed"
done

# shellcheck disable=SC2086
run x_wraps --source "$(src_variant wraps)" $X
expect_rc x_wraps 1
expect_only_failed x_wraps XCEDE-3
expect_eva_beside x_wraps XCEDE-3 "assertion XCEDE_3 unproven"
for c in XCEDE-1 XCEDE-4; do expect_level x_wraps "$c" "held $PROVEN"; done

# --- busy_delay ----------------------------------------------------------------
COMPONENT=busy_delay
CLAUSES="BUSY-1 BUSY-2 BUSY-3 BUSY-4 BUSY-5 BUSY-7"
# The extended-delay range ends at 9906.
variant accepts_9906 '/variant: accepts_9906/s/RTAS_EXTENDED_DELAY_MAX;/RTAS_EXTENDED_DELAY_MAX + 1;/'
# The table one decade off: 990n -> 10^(n+1).
variant table_off 's/for (n = RTAS_EXTENDED_DELAY_MIN; n < status; n++)/for (n = RTAS_EXTENDED_DELAY_MIN; n <= status; n++)/'

# shellcheck disable=SC2086
run b_faithful --source "$(src faithful)" $B
expect_rc b_faithful 0
expect_only_failed b_faithful
expect_level b_faithful BUSY-4 "held $PROVEN"
# WP proves rtas_busy_delay()'s contract (harness/framac_busy_delay_wp.h),
# why3's prover server inside the sandbox.
expect_level b_faithful BUSY-1 "held (proven: Frama-C EVA, 0 alarms over the spec's ranges, every BUSY_1 assertion (5) reached and proven, on gcc_x86_64; WP proves rtas_busy_delay()'s contract"
expect_text b_faithful "note: Frama-C WP: rtas_busy_delay()'s contract (harness/framac_busy_delay_wp.h): 1 of 1 goals proved with Z3"
grep -q "^escape" "$SCRATCH/b_faithful.out" && fail "b_faithful: an escape reported: $(grep '^escape' "$SCRATCH/b_faithful.out")"
expect_no_shim_alarm b_faithful

# No dead branch (validate/framac_dead.h): the driver narrowed to the
# spec's run time (no call before SYSTEM_SCHEDULING, as the unit once had)
# leaves the early branch of rtas_busy_delay() dead for EVA, a branch the
# harness runs (BUSY-7's early policy): BUSY-1 is not proven, and the note
# names the line. Without the dead-statement check it read proven (the
# branch raises no alarm).
# (Beside the binary: the sandbox gives its jobs a /tmp of their own.)
NARROW="$(dirname "$BIN")/harness_narrow.$$"
rm -rf "$NARROW"
cp -R "$HERE/../../harness" "$NARROW"
sed -i 's/^  fc_early();.*$//' "$NARROW/framac_busy_delay.c"
cmp -s "$HERE/../../harness/framac_busy_delay.c" "$NARROW/framac_busy_delay.c" &&
  fail "harness_narrow: the driver's mutant changed nothing"
EARLY_LINE=$(grep -n 'return rtas_busy_delay_early(status);' "$(src faithful)" | cut -d: -f1)
export IDLESPEC_HARNESS_DIR="$NARROW"
# shellcheck disable=SC2086
run b_narrow --source "$(src faithful)" $B
unset IDLESPEC_HARNESS_DIR
rm -rf "$NARROW"
expect_rc b_narrow 0
expect_only_failed b_narrow
expect_level b_narrow BUSY-1 "held (tested; not proven: EVA left line $EARLY_LINE of the file's rtas_busy_delay() dead"

# shellcheck disable=SC2086
run b_accepts_9906 --source "$(src_variant accepts_9906)" $B
expect_rc b_accepts_9906 1
expect_only_failed b_accepts_9906 BUSY-1 BUSY-5
expect_eva_beside b_accepts_9906 BUSY-1 "assertion BUSY_1 unproven"
# WP does not prove the contract on the broken range (WP exits 0 either way).
expect_text b_accepts_9906 "note: Frama-C WP: rtas_busy_delay()'s contract (harness/framac_busy_delay_wp.h): 0 of 1 goals proved"
# BUSY-4's calls come after BUSY-1's in the driver: EVA went on from the
# states that satisfy the unproven assertion, so BUSY-4 is not proven.
expect_level b_accepts_9906 BUSY-4 "held (tested; EVA could not prove it: assertion BUSY_1 unproven"

# shellcheck disable=SC2086
run b_table_off --source "$(src_variant table_off)" $B
expect_rc b_table_off 1
expect_clause b_table_off BUSY-4 failed
expect_eva_beside b_table_off BUSY-4 "assertion BUSY_4 unproven"
expect_level b_table_off BUSY-1 "held $PROVEN"

# matrix: a proven clause marked apart from a tested one, in the table and the HTML.
# shellcheck disable=SC2086
"$(dirname "$BIN")/idlespec" matrix good="$(src faithful)" bad="$(src_variant accepts_9906)" $B \
  --html "$SCRATCH/html" >"$SCRATCH/matrix.out" 2>"$SCRATCH/matrix.err"
RC=$?
echo "matrix: exit $RC"
expect_rc matrix 1
grep -q "^BUSY-1 *held (proven) *failed" "$SCRATCH/matrix.out" ||
  fail "matrix: BUSY-1 is not 'held (proven)' then 'failed': $(grep '^BUSY-1' "$SCRATCH/matrix.out")"
grep -q "^BUSY-4 *held (proven) *held (tested)" "$SCRATCH/matrix.out" ||
  fail "matrix: BUSY-4 is not 'held (proven)' then 'held (tested)': $(grep '^BUSY-4' "$SCRATCH/matrix.out")"
grep -q "EVA: assertion BUSY_1 unproven" "$SCRATCH/matrix.out" || fail "matrix: no EVA alarm under the table"
grep -q "(proven)" "$SCRATCH/html/index.html" || fail "matrix: the HTML report lacks the proof level"

# --- without Frama-C: tested, the set-up line once ----------------------------
COMPONENT=xcede
# shellcheck disable=SC2086
IDLESPEC_FRAMAC=frama-c-not-on-path run x_none --source "$(src faithful)" --inputs generated --fuzz 0 --budget "$BUDGET"
expect_rc x_none 0
expect_level x_none XCEDE-1 "held (tested; Frama-C is not installed)"
n=$(grep -c "scripts/setup.sh framac" "$SCRATCH/x_none.out")
[ "$n" = 1 ] || fail "x_none: the set-up line is named $n times, expected once"
# Turned off on purpose (the other validate scripts do so): tested, and no
# set-up line (nothing is missing).
# shellcheck disable=SC2086
IDLESPEC_FRAMAC=none run x_off --source "$(src faithful)" --inputs generated --fuzz 0 --budget "$BUDGET"
expect_rc x_off 0
expect_level x_off XCEDE-1 "held (tested; Frama-C turned off (IDLESPEC_FRAMAC=none))"
grep -q "scripts/setup.sh framac" "$SCRATCH/x_off.out" && fail "x_off: a set-up line although Frama-C was turned off"

finish
