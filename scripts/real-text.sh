#!/usr/bin/env bash
# The real-text table (docs/real-text.md): runs `idlespec validate` on real
# copies of the four kernel files and writes one line per copy and clause.
# Run from anywhere:  scripts/real-text.sh [options]   (see --help)
#
# The list (default tests/kernel/real-text.list) has one copy a line,
#   <family> <owner>/<repo>@<commit>:<path>   # <version; kind>
# family: rtas (busy_delay), pseries (xcede, states), menu (governor),
# idle (idle_core). Kernel text is never committed: each copy is looked for
# in the texts directory as <owner>+<repo>@<commit>+<path, / as +>; when it is
# not there it is taken from a local git mirror (MIRRORS/<owner>+<repo>/repo,
# `git show COMMIT:PATH`) or, for debian/linux-source-X@VERSION entries, from
# /usr/src/linux-source-X.tar.xz when that installed package has VERSION.
# A copy that cannot be had is reported as "unavailable", not judged.
#
# The result (--out, default build/real-text.tsv) has the columns
#   family  entry  component  clause  status  why
# (clause is ID:function, the function the clause was judged on) and
# the script prints, per family, the copies judged without error: every
# clause has a verdict (held, failed, accepted, n/a or absent) and none is
# error, unknown or uncovered. Exit 0 when it ran, 2 on bad arguments.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bin=$root/build/release/idlespec
list=$root/tests/kernel/real-text.list
texts=${IDLESPEC_REAL_TEXTS:-/tmp/idlespec-real-texts}
out=$root/build/real-text.tsv
families=rtas,pseries,menu,idle
budget=10
mirrors=${IDLESPEC_MIRRORS:-/work/.mirror}
nice=10

usage() {
  cat <<'EOF'
usage: scripts/real-text.sh [--bin IDLESPEC] [--list FILE] [--texts DIR]
                            [--mirrors DIR] [--out FILE.tsv]
                            [--families rtas,pseries,menu,idle]
                            [--budget SECONDS] [--nice N]
EOF
}

need() { [ "$2" -ge 2 ] || { echo "real-text.sh: $1 needs a value" >&2; usage >&2; exit 2; }; }
while [ $# -gt 0 ]; do
  case $1 in
    --bin) need "$1" $#; bin=$2; shift 2 ;;
    --list) need "$1" $#; list=$2; shift 2 ;;
    --texts) need "$1" $#; texts=$2; shift 2 ;;
    --mirrors) need "$1" $#; mirrors=$2; shift 2 ;;
    --out) need "$1" $#; out=$2; shift 2 ;;
    --families) need "$1" $#; families=$2; shift 2 ;;
    --budget) need "$1" $#; budget=$2; shift 2 ;;
    --nice) need "$1" $#; nice=$2; shift 2 ;;
    -h | --help) usage; exit 0 ;;
    *) echo "real-text.sh: unknown argument $1" >&2; usage >&2; exit 2 ;;
  esac
done
case $budget in '' | *[!0-9]*) echo "real-text.sh: --budget takes whole seconds" >&2; exit 2 ;; esac
case $nice in '' | *[!0-9]*) echo "real-text.sh: --nice takes a number" >&2; exit 2 ;; esac
for f in ${families//,/ }; do
  case $f in rtas | pseries | menu | idle) ;; *) echo "real-text.sh: unknown family $f" >&2; exit 2 ;; esac
done
[ -r "$list" ] || { echo "real-text.sh: no list $list" >&2; exit 2; }
[ -x "$bin" ] || { echo "real-text.sh: no idlespec binary $bin (build it, or give --bin)" >&2; exit 2; }
command -v python3 >/dev/null || { echo "real-text.sh: needs python3" >&2; exit 2; }
mkdir -p "$texts" "$(dirname "$out")"

components() {
  case $1 in
    rtas) echo busy_delay ;;
    pseries) echo xcede states ;;
    menu) echo governor ;;
    idle) echo idle_core ;;
  esac
}

# Prints the file holding the entry's text; prints nothing when it cannot be had.
text_of() {
  local entry=$1 repo commit path file m
  repo=${entry%%@*}
  commit=${entry#*@}
  commit=${commit%%:*}
  path=${entry#*:}
  file="$texts/${repo/\//+}@$commit+${path//\//+}"
  if [ ! -s "$file" ]; then
    case $repo in
      debian/linux-source-*)
        local pkg=${repo#debian/} have
        have=$(dpkg-query -W -f '${Version}' "$pkg" 2>/dev/null || true)
        if [ "$have" = "$commit" ] && [ -r "/usr/src/$pkg.tar.xz" ] &&
          tar -xJOf "/usr/src/$pkg.tar.xz" "$pkg/$path" >"$file.tmp" 2>/dev/null; then
          mv "$file.tmp" "$file"
        fi
        ;;
      *)
        m="$mirrors/${repo/\//+}/repo"
        [ -d "$m/.git" ] && m="$m/.git"
        if [ -d "$m" ] && git --git-dir="$m" show "$commit:$path" >"$file.tmp" 2>/dev/null; then
          mv "$file.tmp" "$file"
        fi
        ;;
    esac
    rm -f "$file.tmp"
  fi
  if [ -s "$file" ]; then echo "$file"; fi
}

printf 'family\tentry\tcomponent\tclause\tstatus\twhy\n' >"$out"
while read -r family entry _rest; do
  case $family in '' | '#'*) continue ;; esac
  case ",$families," in *",$family,"*) ;; *) continue ;; esac
  file=$(text_of "$entry")
  if [ -z "$file" ]; then
    printf '%s\t%s\t-\t-\tunavailable\tthe text is neither in %s nor in a mirror\n' \
      "$family" "$entry" "$texts" >>"$out"
    continue
  fi
  for c in $(components "$family"); do
    json=$(nice -n "$nice" "$bin" validate --component "$c" --source "$file" \
      --budget "$budget" --json 2>/dev/null </dev/null || true)
    python3 - "$family" "$entry" "$c" "$json" >>"$out" <<'PY'
import json, sys
family, entry, comp, text = sys.argv[1:5]
def line(clause, status, why):
    why = " ".join(str(why).split())[:400]
    print(f"{family}\t{entry}\t{comp}\t{clause}\t{status}\t{why}")
try:
    d = json.loads(text)
except ValueError:
    line("-", "error", "validate gave no JSON report")
    sys.exit(0)
# The compiler's first errors name the construct a harness could not take.
import re
built = []
for p in d.get("parts", []):
    for m in re.finditer(r":(\d+):\d+: error: (.*)", p.get("build_error") or ""):
        msg = f"line {m.group(1)}: {m.group(2)}"
        if msg not in built:
            built.append(msg)
    for m in re.finditer(r"undefined reference to `([^']+)'", p.get("build_error") or ""):
        msg = f"link: undefined reference to {m.group(1)}"
        if msg not in built:
            built.append(msg)
built = "; ".join(built[:4])
clauses = d.get("clauses", [])
if not clauses:
    line("-", "error", built or "no clause verdicts")
for v in clauses:
    st = v.get("status", "?")
    why = (v.get("error") or "").strip()
    if st == "error" and built and "compile" in why:
        why = f"{why}: {built}"
    if st == "failed" and v.get("counterexamples"):
        why = v["counterexamples"][0]
        if v.get("spec_note"):
            why = v["spec_note"] + "; " + why
    elif st == "accepted":
        why = v.get("spec_note") or v.get("note") or ""
    elif not why:
        why = v.get("note") or v.get("spec_note") or ""
    clause = v.get("id", "?")
    if v.get("function"):
        clause += ":" + v["function"]
    line(clause, st, why)
PY
  done
done <"$list"

python3 - "$out" <<'PY'
import csv, sys
from collections import defaultdict
rows = list(csv.DictReader(open(sys.argv[1]), delimiter="\t", quoting=csv.QUOTE_NONE))
copies, bad, unavailable = defaultdict(set), defaultdict(set), defaultdict(set)
for r in rows:
    if r["status"] == "unavailable":
        unavailable[r["family"]].add(r["entry"])
        continue
    copies[r["family"]].add(r["entry"])
    if r["status"] in ("error", "unknown", "uncovered"):
        bad[r["family"]].add(r["entry"])
for fam in ("rtas", "pseries", "menu", "idle"):
    es = copies.get(fam)
    if not es and not unavailable.get(fam):
        continue
    n = len(es or ())
    ok = n - len(bad[fam])
    share = f"{100 * ok / n:.0f}%" if n else "-"
    extra = f", {len(unavailable[fam])} unavailable" if unavailable[fam] else ""
    print(f"{fam}: {ok} of {n} copies judged without error ({share}){extra}")
print(f"per clause: {sys.argv[1]}")
PY
