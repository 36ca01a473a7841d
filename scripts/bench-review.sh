#!/usr/bin/env bash
# The cost of `idlespec review` on a one-function patch (issue 49's goal:
# under 20 s on three targets), measured on this suite's own files: one
# patch per file, each changing one line inside one modelled function
# (rtas.c's rtas_busy_delay(), cpuidle-pseries.c's fixup_cede0_latency(),
# menu.c's menu_update(), teo.c's teo_update(), powernv/idle.c's
# power9_idle_stop()), reviewed on host, ppc64 and ppc64le with validate's
# defaults (--scan sampled for rtas.c). Four figures per file:
#   all     --no-cache --judge-unchanged, the sides one after the other
#           (IDLESPEC_REVIEW_SERIAL=1): every component of the file judged
#           on both sides, as review did before it judged only what the
#           patch changes (the earlier time, measured in the same sitting);
#   cold    --no-cache: the components the patch changes, both sides at once;
#   first   a fresh --cache-dir: the same, the cache filled;
#   cached  another one-line patch to the same function on the same base,
#           with that cache: the before side comes from the cache.
# BENCH_REVIEW_KEEP=DIR keeps each review's --json report there
# (NAME-cold.json, ...): where the time went, per component and run.
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

# review NAME PATCH TREE [ARGS...]: seconds and exit code of one review.
review() {
  local name=$1 patch=$2 tree=$3
  shift 3
  local t0 t1 rc
  t0=$(date +%s.%N)
  "$bin" review "$patch" --kernel-tree "$tree" --targets "$targets" --json "$@" \
    >"$work/$name.json" 2>"$work/$name.err"
  rc=$?
  if [ -n "${BENCH_REVIEW_KEEP:-}" ]; then
    mkdir -p "$BENCH_REVIEW_KEEP" && cp "$work/$name.json" "$BENCH_REVIEW_KEEP/"
  fi
  t1=$(date +%s.%N)
  awk -v a="$t0" -v b="$t1" -v r="$rc" 'BEGIN { printf "%6.1f s (exit %d)", b - a, r }'
}

# one NAME PATH FILE SED SED2 [ARGS...]: review FILE at PATH changed by SED
# (cold, then first with a fresh cache), then by SED2 with that cache.
one() {
  local name=$1 path=$2 file=$3 edit=$4 edit2=$5
  shift 5
  mkdir -p "$work/$name/tree/$(dirname "$path")"
  cp "$file" "$work/$name/tree/$path"
  local e i=0
  for e in "$edit" "$edit2"; do
    i=$((i + 1))
    sed "$e" "$file" >"$work/$name/after$i.c"
    if cmp -s "$file" "$work/$name/after$i.c"; then
      echo "bench-review: $name: edit $i changes nothing" >&2
      exit 1
    fi
    {
      printf 'Subject: [PATCH] bench: one line in one function\n\n---\n'
      diff -u --label "a/$path" --label "b/$path" "$file" "$work/$name/after$i.c"
    } >"$work/$name/patch$i"
  done
  local all cold first cached
  all=$(export IDLESPEC_REVIEW_SERIAL=1 && review "$name-all" "$work/$name/patch1" "$work/$name/tree" \
    --no-cache --judge-unchanged "$@")
  cold=$(review "$name-cold" "$work/$name/patch1" "$work/$name/tree" --no-cache "$@")
  first=$(review "$name-first" "$work/$name/patch1" "$work/$name/tree" \
    --cache-dir "$work/$name/cache" "$@")
  cached=$(review "$name-cached" "$work/$name/patch2" "$work/$name/tree" \
    --cache-dir "$work/$name/cache" "$@")
  printf 'review %-18s all %s  cold %s  first %s  cached %s  (targets %s; goal 20 s)\n' \
    "$name" "$all" "$cold" "$first" "$cached" "$targets"
}
one rtas.c arch/powerpc/kernel/rtas.c "$t/busy_delay_faithful.c" \
  '0,/might_sleep();/s/might_sleep();/might_sleep(); \/* bench *\//' \
  '0,/might_sleep();/s/might_sleep();/might_sleep(); \/* bench again *\//' --scan sampled
cat "$t/xcede_faithful.c" "$t/states_fixup.c" >"$work/pseries.c"
one cpuidle-pseries.c drivers/cpuidle/cpuidle-pseries.c "$work/pseries.c" \
  's/Fixed up CEDE exit latency to/Fixed up the CEDE exit latency to/' \
  's/Fixed up CEDE exit latency to/Fixed up CEDE exit latency as/'
one menu.c drivers/cpuidle/governors/menu.c "$t/governor_faithful.c" \
  's/ring_record(md, ktime_to_us(slept_ns));/ring_record(md, ktime_to_us(slept_ns)); \/* bench *\//' \
  's/ring_record(md, ktime_to_us(slept_ns));/ring_record(md, ktime_to_us(slept_ns)); \/* again *\//'
one teo.c drivers/cpuidle/governors/teo.c "$t/teo_faithful.c" \
  's/^\tu64 net, measured;/\tu64 net, measured; \/* bench *\//' \
  's/^\tu64 net, measured;/\tu64 net, measured; \/* again *\//'
one powernv/idle.c arch/powerpc/platforms/powernv/idle.c "$t/idle_core_faithful.c" \
  's/went_deep = (psscr \& PSSCR_RL_MASK) >= deep_spr_loss_state;/& \/* bench *\//' \
  's/went_deep = (psscr \& PSSCR_RL_MASK) >= deep_spr_loss_state;/& \/* again *\//'
