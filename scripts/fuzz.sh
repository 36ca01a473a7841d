#!/usr/bin/env bash
# A bounded libFuzzer campaign per fuzz target (fuzz/*_fuzz.cc), FUZZ_JOBS of
# them at once: `make fuzz` in a libFuzzer build, and CI (>= 20 s per target).
#
#   [FUZZ_JOBS=N] scripts/fuzz.sh [SECONDS_PER_TARGET] [BUILD_DIR]
#       SECONDS_PER_TARGET  default 60
#       BUILD_DIR           a build configured with -DIDLESPEC_LIBFUZZER=ON
#                           (default build/fuzz, the fuzz preset)
#       FUZZ_JOBS           campaigns at once, default the number of CPUs
#                           (each campaign is one process on one CPU, so each
#                           target gets its whole time at its own speed)
#
# Each target starts from its stored corpus fuzz/corpus/<target>/ (read only)
# and writes what it finds under BUILD_DIR/fuzz-work/<target>/ (new/ for new
# inputs, which accumulate across runs; artifacts/ for crashes): the source
# tree is never written. Prints runs, exec/s and coverage per target; exits 1
# if any target crashed, naming the crash file, 2 on a usage or build error.
#
# Keeping finds (by hand, then commit): a minimised merge into the corpus,
#   BUILD_DIR/<target> -merge=1 fuzz/corpus/<target> BUILD_DIR/fuzz-work/<target>/new
set -uo pipefail

seconds=${1:-60}
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${2:-$root/build/fuzz}
if ! [[ "$seconds" =~ ^[0-9]+$ ]] || [ "$seconds" -lt 1 ]; then
  echo "usage: $0 [SECONDS_PER_TARGET] [BUILD_DIR]" >&2
  exit 2
fi
if [ ! -d "$build" ]; then
  echo "fuzz.sh: no build directory $build (configure with -DIDLESPEC_LIBFUZZER=ON)" >&2
  exit 2
fi
build=$(cd "$build" && pwd)
jobs=${FUZZ_JOBS:-$(nproc)}
if ! [[ "$jobs" =~ ^[0-9]+$ ]] || [ "$jobs" -lt 1 ]; then
  echo "fuzz.sh: FUZZ_JOBS must be a whole number of campaigns >= 1, not '$jobs'" >&2
  exit 2
fi

. "$(dirname "${BASH_SOURCE[0]}")/libfuzzer_options.sh"  # libfuzzer_flags

# The targets, checked before any campaign starts (a missing binary is a
# build error, exit 2, not a campaign that never ran).
targets=()
for src in "$root"/fuzz/*_fuzz.cc; do
  [ -e "$src" ] || continue
  target=$(basename "$src" .cc)
  if [ ! -x "$build/$target" ]; then
    echo "fuzz.sh: $build/$target is not built (cmake --build $build --target $target)" >&2
    exit 2
  fi
  targets+=("$target")
done
if [ "${#targets[@]}" -eq 0 ]; then
  echo "fuzz.sh: no fuzz target in $root/fuzz" >&2
  exit 2
fi

campaign() {  # campaign TARGET: one libFuzzer run; its exit status is the run's
  local target=$1 work=$build/fuzz-work/$1 corpus=$root/fuzz/corpus/$1
  local options
  local flags=(-max_total_time="$seconds" -print_final_stats=1 -timeout=10 -rss_limit_mb=2560
               -artifact_prefix="$work/artifacts/")
  mapfile -t options < <(libfuzzer_flags "$root/fuzz/$1.options")
  flags+=("${options[@]}")
  local inputs=("$work/new")
  [ -d "$corpus" ] && inputs+=("$corpus")
  cd "$work" && exec "$build/$target" "${flags[@]}" "${inputs[@]}" >"$work/log" 2>&1
}

report() {  # report TARGET RC: the campaign's figures, and its crash if any
  local target=$1 rc=$2 work=$build/fuzz-work/$1 last cov ft corp crash
  final_stat() { sed -n "s/^stat::$1:[[:space:]]*//p" "$work/log" | tail -1; }
  last=$(grep -E '^#[0-9]+' "$work/log" | tail -1)
  cov=$(sed -n 's/.* cov: \([0-9]*\).*/\1/p' <<<"$last")
  ft=$(sed -n 's/.* ft: \([0-9]*\).*/\1/p' <<<"$last")
  corp=$(sed -n 's/.* corp: \([0-9]*\).*/\1/p' <<<"$last")
  printf '%s: %s runs, %s exec/s, cov %s, ft %s, corpus %s, %s new inputs in %s\n' \
    "$target" "$(final_stat number_of_executed_units)" "$(final_stat average_exec_per_sec)" \
    "${cov:-?}" "${ft:-?}" "${corp:-?}" "$(ls "$work/new" | wc -l)" "$work/new"
  if [ "$rc" -ne 0 ]; then
    crashed=1
    crash=$(ls "$work"/artifacts/* 2>/dev/null | head -1)
    echo "$target: CRASH (exit $rc): ${crash:-no artifact, see $work/log}" >&2
    grep -E "violated|ERROR|SUMMARY" "$work/log" | head -10 >&2
    [ -n "$crash" ] && echo "  replay: $build/${target}_replay $crash" >&2
  fi
  return 0
}

# At most $jobs campaigns at once, each reported as it ends.
declare -A running=()  # pid -> target
finish_one() {
  local pid rc
  wait -n -p pid "${!running[@]}"
  rc=$?
  report "${running[$pid]}" "$rc"
  unset "running[$pid]"
}
crashed=0
for target in "${targets[@]}"; do
  while [ "${#running[@]}" -ge "$jobs" ]; do finish_one; done
  work=$build/fuzz-work/$target
  rm -rf "$work/artifacts"
  mkdir -p "$work/new" "$work/artifacts"
  echo "== $target: ${seconds}s from $(ls "$root/fuzz/corpus/$target" 2>/dev/null | wc -l) corpus inputs"
  campaign "$target" &
  running[$!]=$target
done
while [ "${#running[@]}" -gt 0 ]; do finish_one; done

exit $crashed
