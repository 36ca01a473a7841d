#!/usr/bin/env bash
# The cost of `idlespec review` on a one-function patch (issue 49's goal:
# under 20 s on three targets), measured on this suite's own files: one
# patch per file, each changing one line inside one modelled function
# (rtas.c's rtas_busy_delay(), cpuidle-pseries.c's fixup_cede0_latency(),
# menu.c's menu_update()), reviewed on host, ppc64 and ppc64le with
# validate's defaults (--scan sampled for rtas.c). Today review rebuilds and
# reruns every component of the touched file on both sides; the figures are
# the baseline a per-function cache would be measured against.
#
#   scripts/bench-review.sh IDLESPEC_BIN
set -uo pipefail
bin=${1:?usage: $0 IDLESPEC_BIN}
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
t=$root/tests/validate
work=$(mktemp -d /tmp/idlespec-bench-review-XXXXXX)
trap 'rm -rf "$work"' EXIT
targets=host
for cc in powerpc64-linux-gnu-gcc powerpc64le-linux-gnu-gcc; do
  command -v "$cc" >/dev/null && targets="$targets,${cc%%-linux-gnu-gcc}"
done
targets=${targets//powerpc64le/ppc64le}
targets=${targets//powerpc64/ppc64}

# one NAME PATH FILE SED [ARGS...]: review FILE at PATH changed by SED.
one() {
  local name=$1 path=$2 file=$3 edit=$4
  shift 4
  mkdir -p "$work/$name/tree/$(dirname "$path")"
  cp "$file" "$work/$name/tree/$path"
  sed "$edit" "$file" >"$work/$name/after.c"
  {
    printf 'Subject: [PATCH] bench: one line in one function\n\n---\n'
    diff -u --label "a/$path" --label "b/$path" "$file" "$work/$name/after.c"
  } >"$work/$name/patch"
  local t0 t1 rc
  t0=$(date +%s.%N)
  "$bin" review "$work/$name/patch" --kernel-tree "$work/$name/tree" --targets "$targets" "$@" \
    >"$work/$name/out" 2>&1
  rc=$?
  t1=$(date +%s.%N)
  awk -v n="$name" -v a="$t0" -v b="$t1" -v r="$rc" -v tg="$targets" \
    'BEGIN { printf "review %-18s %6.1f s (targets %s; exit %d; goal 20 s)\n", n, b - a, tg, r }'
}
one rtas.c arch/powerpc/kernel/rtas.c "$t/busy_delay_faithful.c" \
  '0,/might_sleep();/s/might_sleep();/might_sleep(); \/* bench *\//' --scan sampled
cat "$t/xcede_faithful.c" "$t/states_fixup.c" >"$work/pseries.c"
one cpuidle-pseries.c drivers/cpuidle/cpuidle-pseries.c "$work/pseries.c" \
  's/Fixed up CEDE exit latency to/Fixed up the CEDE exit latency to/'
one menu.c drivers/cpuidle/governors/menu.c "$t/governor_faithful.c" \
  's/ring_record(md, ktime_to_us(slept_ns));/ring_record(md, ktime_to_us(slept_ns)); \/* bench *\//'
