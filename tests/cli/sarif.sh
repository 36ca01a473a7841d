#!/usr/bin/env bash
# Every SARIF log idlespec writes is valid SARIF 2.1.0: validated against the
# official schema (tests/fixtures/sarif-schema-2.1.0.json) by
# scripts/sarif_validate.py (python3-jsonschema), with the rules, codeFlows
# and stable partialFingerprints code scanning needs. The validator's own
# witness: logs broken on purpose must be rejected.
# usage: sarif.sh IDLESPEC SOURCE_DIR
set -u
# The host's runs (validate --targets: tests/validate/run_targets.sh covers the POWER ones).
export IDLESPEC_TARGETS="${IDLESPEC_TARGETS:-host}"
bin=$1
src=$2
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
schema=$src/tests/fixtures/sarif-schema-2.1.0.json
validator=(python3 "$src/scripts/sarif_validate.py" "$schema")
if ! python3 -c 'import jsonschema' 2>/dev/null; then
  echo "FAIL: python3 jsonschema is not installed (Debian: python3-jsonschema; scripts/setup.sh)"
  exit 1
fi
work=$(mktemp -d /tmp/idlespec-sarif-test-XXXXXX)
trap 'rm -rf "$work"' EXIT

# validate: BUSY-2, -3 and -7 fail on the legacy loop, located at the
# function in the file, each with its counterexample as a code flow; run
# twice (another seed) for the fingerprints.
for seed in 1 7; do
  "$bin" validate --source "$src/tests/validate/busy_delay_legacy.c" --component busy_delay \
    --scan sampled --budget 20 --seed "$seed" --sarif "$work/validate$seed.sarif" >/dev/null 2>&1
  rc=$?
  [ "$rc" = 1 ] || fail "validate legacy (seed $seed): exit $rc, want 1"
done
cp "$work/validate1.sarif" "$work/validate.sarif"
"${validator[@]}" --fingerprints "$work/validate.sarif" || fail "validate's SARIF is not valid 2.1.0"
python3 - "$work/validate1.sarif" "$work/validate7.sarif" <<'PY' || fail "validate's SARIF: content"
import json, sys
runs = [json.load(open(p))["runs"][0] for p in sys.argv[1:]]
run = runs[0]
rules = {r["id"]: r for r in run["tool"]["driver"]["rules"]}
assert "BUSY-2" in rules and rules["BUSY-2"]["helpUri"].endswith(".md#L" + rules["BUSY-2"]["helpUri"].split("#L")[1]), rules
res = {r["ruleId"]: r for r in run["results"]}
assert set(res) == {"BUSY-2", "BUSY-3", "BUSY-7"}, sorted(res)
b2 = res["BUSY-2"]
loc = b2["locations"][0]["physicalLocation"]
assert loc["artifactLocation"]["uri"].endswith("busy_delay_legacy.c"), loc
assert loc["region"]["startLine"] > 1, loc
assert b2["level"] == "error" and "38f7b7067dae" in b2["properties"]["fixedBy"], b2
steps = b2["codeFlows"][0]["threadFlows"][0]["locations"]
assert steps and "0xfffffffe" in steps[0]["location"]["message"]["text"], steps
fp = [{r["ruleId"]: r["partialFingerprints"] for r in x["results"]} for x in runs]
assert fp[0] == fp[1], fp
PY

# check --sarif and verify --sarif (verify/sarif.h).
if "$bin" check --help | grep -q -- '--sarif'; then
  "$bin" check proof busy_delay_busy_yields --subject legacy --sarif "$work/check.sarif" >/dev/null
  rc=$?
  [ "$rc" = 1 ] || fail "check busy_delay_busy_yields legacy: exit $rc, want 1"
  "${validator[@]}" --fingerprints "$work/check.sarif" || fail "check's SARIF is not valid 2.1.0"
  python3 - "$work/check.sarif" <<'PY' || fail "check's SARIF: content"
import json, sys
run = json.load(open(sys.argv[1]))["runs"][0]
rules = {r["id"]: r for r in run["tool"]["driver"]["rules"]}
assert "BUSY-2" in rules and "#L" in rules["BUSY-2"]["helpUri"], rules
assert rules["BUSY-2"]["fullDescription"]["text"], rules["BUSY-2"]
res = [r for r in run["results"] if r["ruleId"] == "BUSY-2"]
assert res and res[0]["level"] == "note" and res[0]["suppressions"], res  # accepted for legacy
assert res[0]["codeFlows"][0]["threadFlows"][0]["locations"], res[0]
PY
  # The fingerprint is the finding's identity: the same for another seed.
  "$bin" check proof busy_delay_busy_yields --subject legacy --seed 7 --sarif "$work/check7.sarif" >/dev/null
  python3 - "$work/check.sarif" "$work/check7.sarif" <<'PY' || fail "fingerprints differ across runs"
import json, sys
fp = [[r["partialFingerprints"] for r in json.load(open(p))["runs"][0]["results"]] for p in sys.argv[1:]]
assert fp[0] == fp[1] and fp[0], fp
PY
else
  fail "idlespec check has no --sarif"
fi
if "$bin" verify --help | grep -q -- '--sarif'; then
  "$bin" verify --component busy_delay --subject legacy --budget 20 --cases 50 --quiet \
    --sarif "$work/verify.sarif" >/dev/null
  rc=$?
  [ "$rc" = 0 ] || fail "verify busy_delay legacy: exit $rc, want 0 (its violations are accepted)"
  "${validator[@]}" --fingerprints "$work/verify.sarif" || fail "verify's SARIF is not valid 2.1.0"
  python3 - "$work/verify.sarif" <<'PY' || fail "verify's SARIF: content"
import json, sys
run = json.load(open(sys.argv[1]))["runs"][0]
res = [r for r in run["results"] if r["ruleId"] == "BUSY-2"]
assert res and res[0]["level"] == "note" and res[0]["suppressions"], res
assert res[0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "spec/busy_delay.md", res[0]
PY
else
  fail "idlespec verify has no --sarif"
fi
# An output path that cannot be written is a usage error before the run.
"$bin" verify --component busy_delay --sarif "$work/no/such/dir/x.sarif" >/dev/null 2>&1
rc=$?
[ "$rc" = 2 ] || fail "verify --sarif into a missing directory: exit $rc, want 2"
[ -e "$work/no" ] && fail "verify --sarif created a directory"

# Witnesses: the validator rejects a log without its version, a result whose
# rule is not declared, and a result without a fingerprint.
python3 - "$work/validate.sarif" "$work" <<'PY'
import json, sys
log = json.load(open(sys.argv[1]))
a = json.loads(json.dumps(log)); del a["version"]
b = json.loads(json.dumps(log)); b["runs"][0]["results"][0]["ruleId"] = "NOPE-1"
b["runs"][0]["results"][0].pop("ruleIndex", None)
c = json.loads(json.dumps(log)); c["runs"][0]["results"][0]["level"] = "fatal"
d = json.loads(json.dumps(log)); d["runs"][0]["results"][0]["codeFlows"] = [{"threadFlows": []}]
for name, l in (("no_version", a), ("unknown_rule", b), ("bad_level", c), ("empty_flow", d)):
    json.dump(l, open(f"{sys.argv[2]}/broken_{name}.sarif", "w"))
PY
for broken in "$work"/broken_*.sarif; do
  "${validator[@]}" "$broken" >/dev/null && fail "the validator accepts $(basename "$broken")"
done

if [ "$fails" -ne 0 ]; then
  echo "sarif.sh: $fails failure(s)"
  exit 1
fi
echo "sarif.sh: all passed"
