#!/usr/bin/env bash
# `idlespec matrix`: a release x clause table over trees and files, each
# failed cell with the upstream fix the spec records, the exit code of the
# verdict model over every release, and usage errors before any run.
# usage: matrix.sh IDLESPEC SOURCE_DIR
set -u
# The host's runs (validate --targets: tests/validate/run_targets.sh covers the POWER ones).
export IDLESPEC_TARGETS="${IDLESPEC_TARGETS:-host}"
bin=$1
src=$2
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
# Frama-C off: a clause it covers is "held (tested)" (its "held (proven)"
# cells are tests/validate/run_framac.sh's).
export IDLESPEC_FRAMAC=none
work=$(mktemp -d /tmp/idlespec-matrix-test-XXXXXX)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/new/arch/powerpc/kernel" "$work/old/arch/powerpc/kernel"
cp "$src/tests/validate/busy_delay_faithful.c" "$work/new/arch/powerpc/kernel/rtas.c"
cp "$src/tests/validate/busy_delay_legacy.c" "$work/old/arch/powerpc/kernel/rtas.c"
printf 'VERSION = 5\nPATCHLEVEL = 4\nSUBLEVEL = 0\nEXTRAVERSION =\n' >"$work/old/Makefile"
opts=(--component busy_delay --scan sampled --budget 20)

"$bin" matrix "$work/new" "$work/old" "${opts[@]}" >"$work/text" 2>"$work/err"
rc=$?
[ "$rc" = 1 ] || fail "text: exit $rc, want 1 (the old tree fails BUSY-2)"
grep -qE '^clause +new +5\.4 *$' "$work/text" || fail "text: header (the old tree named by its Makefile): $(head -1 "$work/text")"
grep -qE '^BUSY-2 +held +failed \(fix 38f7b7067dae\) *$' "$work/text" || fail "text: BUSY-2 row"
grep -qE '^BUSY-4 +held \(tested\) +held \(tested\) *$' "$work/text" || fail "text: BUSY-4 row"
grep -qE '^BUSY-5 +held +held *$' "$work/text" || fail "text: BUSY-5 row"
grep -qF '5.4 BUSY-2 [rtas_busy_delay] failed: status 0xfffffffe (-2)' "$work/text" ||
  fail "text: BUSY-2's counterexample under the table"

"$bin" matrix "$work/new" "$work/old" "${opts[@]}" --format markdown >"$work/md" 2>/dev/null
grep -qF '| BUSY-2 | held | failed (fix 38f7b7067dae) |' "$work/md" || fail "markdown: BUSY-2 row"

"$bin" matrix a="$work/new" b="$work/old" "${opts[@]}" --subject legacy --json >"$work/json" 2>/dev/null
rc=$?
[ "$rc" = 0 ] || fail "json --subject legacy: exit $rc, want 0 (the old tree's violations are legacy's)"
python3 - "$work/json" <<'PY' || fail "json: unexpected content"
import json, sys
d = json.load(open(sys.argv[1]))
assert [r["label"] for r in d["releases"]] == ["a", "b"], d
b = {c["id"]: c for c in d["releases"][1]["clauses"]}
assert b["BUSY-2"]["status"] == "accepted" and b["BUSY-2"]["fixed_by"] == "38f7b7067dae", b
assert b["BUSY-7"]["status"] == "n/a", b
assert d["exit_code"] == 0, d
PY

"$bin" matrix "$work/new" --component busy_delay --scan sampled --budget 20 --function rtas_busy_delay_time >/dev/null 2>&1
[ $? = 0 ] || fail "one release, one function: exit $?"

"$bin" matrix "$work/no_such_tree" >/dev/null 2>&1
[ $? = 2 ] || fail "missing tree: want exit 2"
"$bin" matrix --format html "$work/new" >/dev/null 2>&1
[ $? = 2 ] || fail "bad --format: want exit 2"
"$bin" matrix >/dev/null 2>&1
[ $? = 2 ] || fail "no release: want exit 2"

if [ "$fails" -ne 0 ]; then
  echo "matrix.sh: $fails failure(s)"
  exit 1
fi
echo "matrix.sh: all passed"
