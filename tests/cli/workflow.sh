#!/usr/bin/env bash
# .github/workflows/idlespec.yml, the workflow users copy into a kernel
# tree, is what it claims: it parses as YAML (python3-yaml); every idlespec
# command and option it runs exists in the CLI (`SUBCOMMAND --help`), as do
# the set-up group, the CMake preset and the target it builds; and its own
# shell steps, run on a toy kernel tree whose pull request breaks BUSY-2,
# write the job summary (the Markdown clause diff), a valid SARIF log located
# at the file in the tree and the exit code the verdict step fails on.
# Witnesses: a copy with a misspelled option and a copy that is not YAML are
# rejected.
# usage: workflow.sh IDLESPEC SOURCE_DIR
set -u
# The host's runs (validate --targets: tests/validate/run_targets.sh covers the POWER ones).
export IDLESPEC_TARGETS="${IDLESPEC_TARGETS:-host}"
bin=$1
src=$2
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
workflow=$src/.github/workflows/idlespec.yml
if ! python3 -c 'import yaml' 2>/dev/null; then
  echo "FAIL: python3 yaml is not installed (Debian: python3-yaml; scripts/setup.sh)"
  exit 1
fi
work=$(mktemp -d /tmp/idlespec-workflow-test-XXXXXX)
trap 'rm -rf "$work"' EXIT

# check WORKFLOW: the structure and every command; prints the problems, exit 1 on any.
check() {
  python3 - "$1" "$bin" "$src" <<'PY'
import json, os, re, shlex, subprocess, sys
import yaml

path, binary, src = sys.argv[1:]
try:
    doc = yaml.safe_load(open(path))
except yaml.YAMLError as e:
    print(f"not YAML: {e}")
    sys.exit(1)
problems = []
# YAML 1.1 reads the key `on` as True.
on = doc.get("on", doc.get(True)) if isinstance(doc, dict) else None
if not isinstance(on, dict) or "pull_request" not in on:
    problems.append("not triggered by pull_request")
else:
    paths = on["pull_request"].get("paths", [])
    for want in ("arch/powerpc/kernel/rtas.c", "drivers/cpuidle/cpuidle-pseries.c",
                 "drivers/cpuidle/governors/menu.c", "arch/powerpc/platforms/powernv/idle.c"):
        if want not in paths:
            problems.append(f"pull_request.paths lacks {want}")
perms = doc.get("permissions", {}) if isinstance(doc, dict) else {}
if perms.get("security-events") != "write":
    problems.append("permissions: security-events: write is needed to upload SARIF")
jobs = doc.get("jobs", {}) if isinstance(doc, dict) else {}
steps = [s for j in jobs.values() for s in j.get("steps", [])]
env = {k: str(v) for j in jobs.values() for k, v in j.get("env", {}).items()}
runs = "\n".join(s["run"] for s in steps if "run" in s)
helps = {}

def help_of(sub):
    if sub not in helps:
        p = subprocess.run([binary, sub, "--help"], capture_output=True, text=True)
        helps[sub] = p.stdout if p.returncode == 0 else None
    return helps[sub]

# Every idlespec invocation: its subcommand and options (continued lines
# joined; $VARS expanded from the job's env).
text = re.sub(r"\\\n\s*", " ", runs)
for var, val in env.items():
    text = text.replace("$" + var, val).replace("${" + var + "}", val)
calls = [l for l in text.splitlines() if re.search(r"(^|[\s/])idlespec\s+[a-z-]+\s", l + " ")
         and "build/release/idlespec" in l]
if not calls:
    problems.append("no idlespec command is run")
for line in calls:
    words = shlex.split(line[line.index("build/release/idlespec"):])
    sub = words[1]
    h = help_of(sub)
    if h is None:
        problems.append(f"idlespec {sub}: no such command")
        continue
    for w in words[2:]:
        if w.startswith("--") and not re.search(r"(^|[\s,])" + re.escape(w) + r"\b", h):
            problems.append(f"idlespec {sub}: {w} is not in its --help")
# What the build step names.
if "scripts/setup.sh base" in runs:
    groups = open(os.path.join(src, "scripts/setup.sh")).read()
    if not re.search(r"\bbase\)", groups):
        problems.append("scripts/setup.sh has no group base")
for preset in re.findall(r"--preset (\S+)", runs):
    names = [p["name"] for p in json.load(open(os.path.join(src, "CMakePresets.json")))["configurePresets"]]
    if preset not in names:
        problems.append(f"no CMake preset {preset}")
for target in re.findall(r"--target (\S+)", runs):
    if f"add_executable({target} " not in open(os.path.join(src, "CMakeLists.txt")).read():
        problems.append(f"no CMake target {target}")
uploads = [s for s in steps if str(s.get("uses", "")).startswith("github/codeql-action/upload-sarif")]
if not uploads:
    problems.append("the SARIF is not uploaded")
else:
    sarif = uploads[0].get("with", {}).get("sarif_file")
    if not sarif or f"--sarif {sarif}" not in text:
        problems.append(f"the upload's sarif_file {sarif} is not what review writes")
if "GITHUB_STEP_SUMMARY" not in runs:
    problems.append("no job summary")
for p in problems:
    print(p)
sys.exit(1 if problems else 0)
PY
}

check "$workflow" || fail "the workflow (above)"

# Witnesses: a misspelled option, and a file that is not YAML.
sed 's/--markdown summary.md/--markdwn summary.md/' "$workflow" >"$work/misspelled.yml"
cmp -s "$workflow" "$work/misspelled.yml" && fail "witness: the sed changed nothing"
check "$work/misspelled.yml" >"$work/misspelled.out" && fail "witness: a misspelled option is accepted"
grep -q -- '--markdwn is not in its --help' "$work/misspelled.out" ||
  fail "witness: the misspelled option is not named: $(cat "$work/misspelled.out")"
printf 'on: [pull_request\njobs: {\n' >"$work/broken.yml"
check "$work/broken.yml" >/dev/null && fail "witness: a file that is not YAML is accepted"

# The workflow's own steps on a toy tree: the base has the faithful busy-delay
# loop, the pull request the legacy one (BUSY-2 newly fails).
run_step() {  # NAME: the step's run script, as the runner runs it (bash -e)
  python3 - "$workflow" "$1" >"$work/step.sh" <<'PY'
import sys, yaml
doc = yaml.safe_load(open(sys.argv[1]))
for job in doc["jobs"].values():
    env = job.get("env", {})
    for s in job["steps"]:
        if s.get("name") == sys.argv[2]:
            for k, v in env.items():
                print(f"export {k}={str(v)!r}")
            print("export REVIEW_FLAGS='--budget 20 --scan sampled'  # the test's: shorter")
            print(s["run"])
            sys.exit(0)
sys.exit(f"no step {sys.argv[2]}")
PY
  (cd "$work/ws" && bash -e "$work/step.sh")
}
mkdir -p "$work/ws/kernel/arch/powerpc/kernel" "$work/ws/idlespec/build/release"
ln -s "$(realpath "$bin")" "$work/ws/idlespec/build/release/idlespec"
export HOME=$work  # git config --global stays in the test's folder
(
  cd "$work/ws/kernel" || exit 1
  git init -q -b main . && git config user.email t@example.invalid && git config user.name t
  cp "$src/tests/validate/busy_delay_faithful.c" arch/powerpc/kernel/rtas.c
  git add -A && git commit -qm base && git update-ref refs/remotes/origin/main HEAD
  cp "$src/tests/validate/busy_delay_legacy.c" arch/powerpc/kernel/rtas.c
  git commit -qam "the pull request"
) || fail "the toy tree"
export GITHUB_BASE_REF=main GITHUB_OUTPUT=$work/output GITHUB_STEP_SUMMARY=$work/summary
: >"$GITHUB_OUTPUT"
: >"$GITHUB_STEP_SUMMARY"
run_step "The patch and the tree it applies to" || fail "the patch step: exit $?"
grep -q '^+' "$work/ws/pr.diff" || fail "the patch step wrote no diff"
run_step "idlespec review" >"$work/review.out" 2>&1 || fail "the review step: exit $?"
grep -qx 'rc=1' "$GITHUB_OUTPUT" || fail "the review step's rc: $(cat "$GITHUB_OUTPUT"), want rc=1"
grep -q 'BUSY-2.*newly failed' "$GITHUB_STEP_SUMMARY" ||
  fail "the job summary lacks BUSY-2 newly failed: $(cat "$GITHUB_STEP_SUMMARY")"
python3 "$src/scripts/sarif_validate.py" "$src/tests/fixtures/sarif-schema-2.1.0.json" \
  --fingerprints "$work/ws/idlespec.sarif" >/dev/null || fail "the review's SARIF is not valid"
python3 - "$work/ws/idlespec.sarif" <<'PY' || fail "the review's SARIF: not located in the tree"
import json, sys
res = json.load(open(sys.argv[1]))["runs"][0]["results"]
uris = {r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in res}
assert uris == {"arch/powerpc/kernel/rtas.c"}, uris
PY

if [ "$fails" -ne 0 ]; then
  echo "workflow.sh: $fails failure(s); the review's output:"
  cat "$work/review.out" 2>/dev/null
  exit 1
fi
echo "workflow.sh: all passed"
