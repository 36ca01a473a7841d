#!/usr/bin/env bash
# make kernel-check: `idlespec validate --kernel-tree` on Debian's own kernel
# sources (the packages linux-source-6.1 and linux-source-6.12) against the
# committed table tests/kernel/expected.tsv: which clause has which verdict on
# which tree, and why. A changed verdict fails with a diff until the table is
# updated with a reason.
#
# Usage: scripts/kernel-check.sh [--bin IDLESPEC] [--update] [--keep] [--trees "6.1 6.12"]
#   --update   rewrite the table from what the tool says now: an unchanged
#              verdict keeps its reason, a changed or new one gets
#              "TODO: ..." with the tool's own summary, and the check fails
#              until every TODO is replaced by a reason (why the verdict is
#              right, or what changed: a fix, a spec or harness change)
#   --keep     keep the extracted trees and the JSON reports (printed)
#   --from DIR compare the reports a --keep run left in DIR (<v>.json) instead
#              of running validate (for the table's own tests, and to update
#              the table without judging the trees again)
#
# The packages are installed by `scripts/setup.sh kernel` (as root; otherwise
# it prints the command). A clause Frama-C's EVA covers is recorded as
# "held (proven)" or "held (tested)" (scripts/setup.sh framac installs it). Only the four files the components read are
# extracted from /usr/src/linux-source-<v>.tar.xz, into a temporary tree.
# Each tree is judged on every installed target (validate's default: host,
# ppc64 and ppc64le for the POWER-only components xcede, states and
# busy_delay; governor, teo and idle_core on the host), a row per clause and
# target; a target whose tools are missing (scripts/setup.sh power) has its
# rows reported as not reported. Each tree is judged with --budget 90, three times the default: on an idle
# machine no stage comes near the default's caps (the fuzz campaign and the
# property take at most 5 s either way), so the work and the wall time are
# the default budget's, while a loaded CI machine, where the idle_core part's
# runs can take twice as long, still gets the same verdicts instead of
# "timed out" (a verdict must not depend on the machine's speed). The wall
# time is printed (the target is under 60 s a tree).
set -euo pipefail
cd "$(dirname "$0")/.."
bin=build/release/idlespec
table=tests/kernel/expected.tsv
update=
keep=
trees="6.1 6.12"
from=
while [ $# -gt 0 ]; do
  case $1 in
    --bin) bin=$2; shift 2 ;;
    --update) update=1; shift ;;
    --keep) keep=1; shift ;;
    --trees) trees=$2; shift 2 ;;
    --from) from=$2; shift 2 ;;
    *) echo "kernel-check.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
status=0
if [ -n "$from" ]; then
  work=$from
else
[ -x "$bin" ] || { echo "kernel-check.sh: no $bin (make build first)" >&2; exit 2; }
scripts/setup.sh kernel

work=$(mktemp -d "${TMPDIR:-/tmp}/idlespec-kernel-check.XXXXXX")
[ -n "$keep" ] || trap 'rm -rf "$work"' EXIT
files=(arch/powerpc/kernel/rtas.c drivers/cpuidle/cpuidle-pseries.c
  drivers/cpuidle/governors/menu.c drivers/cpuidle/governors/teo.c
  arch/powerpc/platforms/powernv/idle.c)

for v in $trees; do
  tarball=/usr/src/linux-source-$v.tar.xz
  [ -r "$tarball" ] || { echo "kernel-check.sh: no $tarball" >&2; exit 2; }
  pkg=$(dpkg-query -W -f='${Version}' "linux-source-$v" 2>/dev/null || echo "?")
  dest="$work/$v"
  mkdir -p "$dest"
  patterns=()
  for f in "${files[@]}"; do patterns+=("linux-source-$v/$f"); done
  tar -xJf "$tarball" -C "$dest" "${patterns[@]}"
  start=$(date +%s.%N)
  rc=0
  "$bin" validate --kernel-tree "$dest/linux-source-$v" --budget 90 --json >"$work/$v.json" \
    2>"$work/$v.err" || rc=$?
  secs=$(echo "$(date +%s.%N) - $start" | bc)
  printf 'debian-%s (linux-source-%s %s): exit %d, %.1f s\n' "$v" "$v" "$pkg" "$rc" "$secs"
  if [ "$(echo "$secs > 60" | bc)" = 1 ]; then
    echo "  note: over the 60 s a tree this check aims at"
  fi
  if [ "$rc" -eq 2 ]; then
    echo "kernel-check.sh: validate could not run on debian-$v:" >&2
    tail -20 "$work/$v.err" >&2
    status=1
  fi
done
fi

# Compare (or update) the table.
python3 - "$table" "$work" "$update" $trees <<'PY' || status=1
import json, os, sys

table, work, update, trees = sys.argv[1], sys.argv[2], sys.argv[3] == "1", sys.argv[4:]
head = ["tree", "component", "clause", "function", "target", "verdict", "why"]

def summary(c):
    if c.get("error"):
        return c["error"]
    if c["status"] in ("failed", "accepted") and c.get("counterexamples"):
        return c["counterexamples"][0]
    return c.get("note") or ""

def per_target(c):
    """Each target's verdict (validate --targets): (target, status, what the tool said)."""
    ts = c.get("targets") or []
    if not ts:
        return [("host", c["status"], summary(c), c.get("proof", ""))]
    return [(t["target"], t["status"], t.get("detail") or summary(c), t.get("proof", "")) for t in ts]

actual = {}
escaped = False
for v in trees:
    path = os.path.join(work, v + ".json")
    try:
        d = json.load(open(path))
    except (OSError, ValueError):
        print(f"debian-{v}: no JSON report")
        sys.exit(1)
    for c in d["clauses"]:
        for target, status, said, proof in per_target(c):
            key = (f"debian-{v}", c["component"], c["id"], c.get("function", ""), target)
            # A clause Frama-C's EVA covers (validate/framac.h): held (proven) or
            # held (tested), so the table records which clauses are proven; EVA
            # proves on the host's machine only (a POWER target's level is
            # "tested": Frama-C 25 describes no ppc64), and its word is on the
            # host's row: the host's own level.
            if target == "host" and status == "held" and proof:
                status += f" ({proof})"
            actual[key] = (status, " ".join(said.split())[:200])
    # Debian's faithful trees must show no escape attempt (docs/security.md):
    # the project's own processes are never the code under test's.
    for p in d.get("parts", []):
        for e in p.get("escapes", []):
            print(f"debian-{v}: {p['file']} ({p['component']}): escape reported on a faithful "
                  f"tree: {e}")
            escaped = True

expected, order = {}, []
if os.path.exists(table):
    for line in open(table):
        if line.startswith("#") or not line.strip():
            continue
        f = line.rstrip("\n").split("\t")
        if f[:7] == head or f[:4] == head[:4]:
            continue
        f += [""] * (7 - len(f))
        key = tuple(f[:5])
        expected[key] = (f[5], f[6])
        order.append(key)

# Rows of a target that did not run here (its tools missing: validate said
# so, with scripts/setup.sh power) are not compared, and that is said.
ran = {k[4] for k in actual}
skipped = [k for k in expected if k[0] in {f"debian-{v}" for v in trees} and k[4] not in ran]
for t in sorted({k[4] for k in skipped}):
    print(f"kernel-check: target {t} did not run (not asked, or not installed: "
          f"scripts/setup.sh power); "
          f"its {sum(1 for k in skipped if k[4] == t)} rows not compared")
checked = [k for k in expected if k[0] in {f"debian-{v}" for v in trees} and k[4] in ran]
diff = []
for k in sorted(set(checked) | set(actual)):
    e, a = expected.get(k), actual.get(k)
    if e and a and e[0] == a[0]:
        continue
    name = f"{k[0]} {k[2]} [{k[3]}] on {k[4]}"
    if not a:
        diff.append(f"- {name}: expected {e[0]} ({e[1]}), not reported")
    elif not e:
        diff.append(f"+ {name}: {a[0]}, not in the table (the tool: {a[1]})")
    else:
        diff.append(f"~ {name}: expected {e[0]} ({e[1]}), now {a[0]} (the tool: {a[1]})")

if update:
    rows = dict(expected)
    for k in checked:
        if k not in actual:
            del rows[k]
    for k, (verdict, said) in actual.items():
        old = expected.get(k)
        if old and old[0] == verdict:
            continue
        rows[k] = (verdict, "TODO: give the reason (the tool: " + said + ")")
    with open(table, "w") as out:
        out.write("# make kernel-check: the verdicts of `idlespec validate --kernel-tree` on\n")
        out.write("# Debian's linux-source packages (scripts/kernel-check.sh). A changed verdict\n")
        out.write("# fails the check; regenerate with scripts/kernel-check.sh --update and replace\n")
        out.write("# every TODO with the reason the new verdict is right (or what changed).\n")
        out.write("\t".join(head) + "\n")
        for k in sorted(rows):
            out.write("\t".join(list(k) + list(rows[k])) + "\n")
    print(f"{table}: {len(rows)} rows written, {len(diff)} changed")
    expected = rows

todo = [k for k, (_, why) in expected.items() if why.startswith("TODO")]
for d in diff if not update else []:
    print(d)
if diff and not update:
    print(f"kernel-check: {len(diff)} verdict(s) differ from {table}; if the new ones are right,")
    print("run scripts/kernel-check.sh --update and give each changed row its reason")
for k in todo:
    print(f"kernel-check: {k[0]} {k[2]} [{k[3]}] on {k[4]} has no reason yet ({table})")
# In CI every target is installed (.ci/run's set-up): a row not compared
# there is a check that did not run, and fails the run.
uncompared = bool(skipped) and os.environ.get("CI") == "true"
if uncompared:
    print(f"kernel-check: CI=true and {len(skipped)} row(s) were not compared: a target did not run")
if (diff and not update) or todo or escaped or uncompared:
    sys.exit(1)
print(f"kernel-check: {len(checked) if not update else len(actual)} verdicts as {table} says")
PY
[ -z "$keep" ] || [ -n "$from" ] || echo "kept: $work"
exit $status
