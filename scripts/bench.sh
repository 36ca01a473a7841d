#!/usr/bin/env bash
# Benchmarks, and the ratios that matter, all measured in this one run:
#   1. idlespec_bench (decode vs memcpy, table build, checker per input, proof
#      times of every proof check in the registry);
#   2. libFuzzer exec/s of xcede_fuzz beside noop_fuzz (same flags, does
#      nothing) for equal time, from the same seed corpus and options.
#
#   scripts/bench.sh BUILD_DIR FUZZ_BUILD_DIR
#       BUILD_DIR       a build with idlespec_bench (IDLESPEC_BENCH=ON), e.g. build/release
#       FUZZ_BUILD_DIR  a build with -DIDLESPEC_LIBFUZZER=ON (xcede_fuzz, noop_fuzz)
#   environment:
#       BENCH_FUZZ_SECONDS  seconds per libFuzzer binary (default 20)
#       BENCH_ARGS          extra idlespec_bench flags, e.g. --benchmark_filter=BM_
#       BENCH_FUZZ_FLAGS    extra libFuzzer flags for both binaries, e.g. -entropic=0
# Scratch files go to FUZZ_BUILD_DIR/bench-work; the source tree is not written.
set -uo pipefail

if [ $# -ne 2 ]; then
  echo "usage: $0 BUILD_DIR FUZZ_BUILD_DIR" >&2
  exit 2
fi
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=$(cd "$1" && pwd) || exit 2
fuzz_build=$(cd "$2" && pwd) || exit 2
seconds=${BENCH_FUZZ_SECONDS:-20}
for binary in "$build/idlespec_bench" "$fuzz_build/xcede_fuzz" "$fuzz_build/noop_fuzz"; do
  if [ ! -x "$binary" ]; then
    echo "bench.sh: $binary is not built" >&2
    exit 2
  fi
done
work=$fuzz_build/bench-work
rm -rf "$work"
mkdir -p "$work"

echo "== idlespec_bench"
# shellcheck disable=SC2086  # BENCH_ARGS is a list of flags
"$build/idlespec_bench" --benchmark_out="$work/bench.json" --benchmark_out_format=json \
  ${BENCH_ARGS:-} || exit 1

# cpu_time in ns of benchmark NAME, from the JSON report.
cpu_ns() {
  awk -v want="\"$1\"," '
    $1 == "\"name\":" { name = $2 }
    $1 == "\"cpu_time\":" && name == want { t = $2; sub(",", "", t) }
    $1 == "\"time_unit\":" && name == want && t != "" {
      u = $2; gsub(/[",]/, "", u)
      f = (u == "ns") ? 1 : (u == "us") ? 1e3 : (u == "ms") ? 1e6 : 1e9
      printf "%.1f\n", t * f; exit
    }' "$work/bench.json"
}

options=$root/fuzz/xcede_fuzz.options
dict=$(sed -n 's/^[[:space:]]*dict[[:space:]]*=[[:space:]]*\([^[:space:]]*\).*/\1/p' "$options")
max_len=$(sed -n 's/^[[:space:]]*max_len[[:space:]]*=[[:space:]]*\([0-9]*\).*/\1/p' "$options")
declare -A eps
for target in noop_fuzz xcede_fuzz; do
  echo "== $target: ${seconds}s from fuzz/corpus/xcede_fuzz"
  mkdir -p "$work/$target/corpus"
  # shellcheck disable=SC2086  # BENCH_FUZZ_FLAGS is a list of flags
  (cd "$work/$target" && "$fuzz_build/$target" -max_total_time="$seconds" -print_final_stats=1 \
    -dict="$root/fuzz/$dict" -max_len="$max_len" ${BENCH_FUZZ_FLAGS:-} corpus \
    "$root/fuzz/corpus/xcede_fuzz") >"$work/$target/log" 2>&1
  rc=$?
  eps[$target]=$(sed -n 's/^stat::average_exec_per_sec:[[:space:]]*//p' "$work/$target/log")
  runs=$(sed -n 's/^stat::number_of_executed_units:[[:space:]]*//p' "$work/$target/log")
  echo "$target: ${runs:-?} runs, ${eps[$target]:-?} exec/s (exit $rc)"
  if [ "$rc" -ne 0 ] || [ -z "${eps[$target]}" ]; then
    echo "bench.sh: $target failed, see $work/$target/log" >&2
    exit 1
  fi
done

decode=$(cpu_ns BM_Decode4Records)
memcpy=$(cpu_ns BM_Memcpy4Records)
build_plain=$(cpu_ns BM_BuildTable4Records/expose:0)
build_expose=$(cpu_ns BM_BuildTable4Records/expose:1)
check4=$(cpu_ns BM_XcedeFuzzCheck4Records)
check_corpus=$(cpu_ns BM_XcedeFuzzCheckCorpus)
# ratio A B [SCALE]: A / B * SCALE with one decimal, "?" when either is missing.
ratio() {
  awk -v a="$1" -v b="$2" -v k="${3:-1}" \
    'BEGIN { if (a == "" || b == "" || b == 0) print "?"; else printf "%.1f", k * a / b }'
}

echo
echo "== summary (CPU time per iteration, this run)"
echo "decode, 4 records:          ${decode:-?} ns; memcpy of the same bytes ${memcpy:-?} ns:" \
     "decode = $(ratio "$decode" "$memcpy") x memcpy"
echo "table build, 4 records:     ${build_plain:-?} ns (expose off)," \
     "${build_expose:-?} ns (expose on)"
echo "xcede_fuzz checker:         ${check4:-?} ns per 4-record input," \
     "${check_corpus:-?} ns per corpus input"
fuzz_ratio=$(ratio "${eps[xcede_fuzz]}" "${eps[noop_fuzz]}" 100)
echo "libFuzzer, ${seconds}s each:     xcede_fuzz ${eps[xcede_fuzz]} exec/s," \
     "noop_fuzz ${eps[noop_fuzz]} exec/s: ratio ${fuzz_ratio}% (goal >= 50%)"
proofs=$(awk '
  function flush() { if (line != "") print line; line = "" }
  $1 == "\"name\":" { flush(); name = $2; gsub(/[",]/, "", name); sub(/\/iterations:.*/, "", name) }
  $1 == "\"real_time\":" && name ~ /^proof\// { t = $2; sub(",", "", t) }
  $1 == "\"time_unit\":" && name ~ /^proof\// && t != "" {
    u = $2; gsub(/[",]/, "", u); line = sprintf("  %-44s %10.1f %s", name, t, u); t = "" }
  $1 == "\"label\":" && line != "" {
    l = $0; sub(/^[^:]*: "/, "", l); sub(/",?$/, "", l); line = line "  " l }
  END { flush() }' "$work/bench.json")
if [ -n "$proofs" ]; then
  echo "proof times (wall clock, one run each):"
  echo "$proofs"
else
  echo "proof times:                none (the registry has no proof checks yet)"
fi
