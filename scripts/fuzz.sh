#!/usr/bin/env bash
# A bounded libFuzzer campaign per fuzz target (fuzz/*_fuzz.cc), one after the
# other: `make fuzz` in a libFuzzer build, and CI (>= 20 s per target).
#
#   scripts/fuzz.sh [SECONDS_PER_TARGET] [BUILD_DIR]
#       SECONDS_PER_TARGET  default 60
#       BUILD_DIR           a build configured with -DIDLESPEC_LIBFUZZER=ON
#                           (default build/fuzz, the fuzz preset)
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

option() {  # option OPTIONS_FILE KEY: a value of the [libfuzzer] section
  [ -f "$1" ] || return 0
  sed -n "s/^[[:space:]]*$2[[:space:]]*=[[:space:]]*\\([^[:space:]]*\\).*/\\1/p" "$1" | head -1
}

crashed=0
targets=0
for src in "$root"/fuzz/*_fuzz.cc; do
  target=$(basename "$src" .cc)
  binary=$build/$target
  corpus=$root/fuzz/corpus/$target
  if [ ! -x "$binary" ]; then
    echo "fuzz.sh: $binary is not built (cmake --build $build --target $target)" >&2
    exit 2
  fi
  targets=$((targets + 1))
  work=$build/fuzz-work/$target
  rm -rf "$work/artifacts"
  mkdir -p "$work/new" "$work/artifacts"
  flags=(-max_total_time="$seconds" -print_final_stats=1 -timeout=10 -rss_limit_mb=2560
         -artifact_prefix="$work/artifacts/")
  options=$root/fuzz/$target.options
  dict=$(option "$options" dict)
  max_len=$(option "$options" max_len)
  [ -n "$dict" ] && flags+=(-dict="$root/fuzz/$dict")
  [ -n "$max_len" ] && flags+=(-max_len="$max_len")
  inputs=("$work/new")
  [ -d "$corpus" ] && inputs+=("$corpus")

  echo "== $target: ${seconds}s from $(ls "$corpus" 2>/dev/null | wc -l) corpus inputs"
  (cd "$work" && "$binary" "${flags[@]}" "${inputs[@]}") >"$work/log" 2>&1
  rc=$?

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
done

if [ "$targets" -eq 0 ]; then
  echo "fuzz.sh: no fuzz target in $root/fuzz" >&2
  exit 2
fi
exit $crashed
