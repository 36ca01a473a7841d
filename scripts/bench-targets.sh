#!/usr/bin/env bash
# The cost of validate's POWER targets (issue 37): each POWER-only component
# on its faithful test file, host only (--targets host) and on the three
# targets (--targets host,ppc64,ppc64le), wall and CPU time (the driver and
# every child: compilers, harnesses, qemu-user), and the ratio; the goal is
# at most 3x the host-only run. Part of `make bench` (scripts/bench.sh).
#
#   scripts/bench-targets.sh [IDLESPEC]    (default build/release/idlespec)
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
bin=${1:-$root/build/release/idlespec}
[ -x "$bin" ] || { echo "bench-targets.sh: $bin is not built" >&2; exit 2; }
for tool in powerpc64-linux-gnu-gcc qemu-ppc64 powerpc64le-linux-gnu-gcc qemu-ppc64le; do
  if ! command -v "$tool" >/dev/null; then
    echo "validate --targets: not measured ($tool not installed: scripts/setup.sh power)"
    exit 0
  fi
done
work=$(mktemp -d "${TMPDIR:-/tmp}/idlespec-bench-targets.XXXXXX")
trap 'rm -rf "$work"' EXIT
# one COMPONENT FILE TARGETS: "wall cpu" seconds of one validate run.
one() {
  local TIMEFORMAT="%R %U %S" t
  t=$({ time "$bin" validate --component "$1" --source "$work/$2" \
    --targets "$3" >"$work/$1-$3.out" 2>&1; } 2>&1 | tail -1)
  awk '{ printf "%.1f %.1f", $1, $2 + $3 }' <<<"$t"
}
# states' faithful file is the xcede decoder and the fix-up together (as
# tests/validate/run_states.sh builds it).
cp "$root/tests/validate/xcede_faithful.c" "$root/tests/validate/busy_delay_faithful.c" "$work/"
cat "$root/tests/validate/xcede_faithful.c" "$root/tests/validate/states_fixup.c" >"$work/states_faithful.c"
echo "validate --targets: each component host-only, then on host, ppc64 and ppc64le (wall s / CPU s)"
for pair in xcede:xcede_faithful.c states:states_faithful.c busy_delay:busy_delay_faithful.c; do
  comp=${pair%%:*} file=${pair#*:}
  one "$comp" "$file" host >/dev/null  # warm-up: caches (states' Z3 edges), page cache
  read -r hw hc <<<"$(one "$comp" "$file" host)"
  read -r aw ac <<<"$(one "$comp" "$file" host,ppc64,ppc64le)"
  verdict=$(tail -1 "$work/$comp-host,ppc64,ppc64le.out" | cut -d';' -f1)
  printf '  %-10s host %6.1f / %6.1f   three targets %6.1f / %6.1f   ratio wall %.2fx CPU %.2fx (goal <= 3x); %s\n' \
    "$comp" "$hw" "$hc" "$aw" "$ac" "$(awk -v a="$aw" -v b="$hw" 'BEGIN { print (b > 0 ? a / b : 0) }')" \
    "$(awk -v a="$ac" -v b="$hc" 'BEGIN { print (b > 0 ? a / b : 0) }')" "$verdict"
done
