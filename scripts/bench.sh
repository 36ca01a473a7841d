#!/usr/bin/env bash
# Benchmarks, and the ratios that matter, all measured in this one run:
#   1. idlespec_bench (decode vs memcpy, table build, checker per input,
#      validate's extraction at two source sizes, proof times of every proof
#      check in the registry);
#   2. libFuzzer exec/s of every fuzz target beside noop_fuzz (same flags,
#      does nothing) and subject_only_fuzz (the target's subject on the same
#      inputs, judged by nothing; not for idle_core_fuzz, whose oracle chooses
#      the moves) for equal time, from that target's seed corpus and options;
#   3. validate's three-target run (host, ppc64, ppc64le) of each POWER-only
#      component against its host-only run (scripts/bench-targets.sh; goal:
#      at most 3x).
#
#   3. libFuzzer exec/s of every fuzz target in each sanitizer build, as
#      OSS-Fuzz runs them: ASan (FUZZ_BUILD_DIR, the campaign build) and
#      UBSan (UBSAN_BUILD_DIR), from the same corpus;
#   4. time to exposure of every fuzz witness, libFuzzer beside AFL++
#      (scripts/fuzz_exposure.sh): its short form (one trial per witness and
#      engine, 20 s cap), or the whole run with BENCH_EXPOSURE=full (~30 min).
#
#   scripts/bench.sh BUILD_DIR FUZZ_BUILD_DIR [UBSAN_BUILD_DIR [AFL_BUILD_DIR]]
#       BUILD_DIR       a build with idlespec_bench (IDLESPEC_BENCH=ON), e.g. build/release
#       FUZZ_BUILD_DIR  a build with -DIDLESPEC_LIBFUZZER=ON (the *_fuzz targets, noop_fuzz,
#                       subject_only_fuzz: `cmake --build DIR --target subject_only_fuzz`)
#       UBSAN_BUILD_DIR the fuzz-ubsan preset's build (without it: no UBSan figures)
#       AFL_BUILD_DIR   the fuzz-afl preset's build (default build/fuzz-afl)
#   environment:
#       BENCH_EXPOSURE      short (default), full, or off
#       BENCH_FUZZ_SECONDS  seconds per libFuzzer binary (default 20)
#       BENCH_ARGS          extra idlespec_bench flags, e.g. --benchmark_filter=BM_
#       BENCH_FUZZ_FLAGS    extra libFuzzer flags for both binaries, e.g. -entropic=0
# Scratch files go to FUZZ_BUILD_DIR/bench-work; the source tree is not written.
set -uo pipefail

if [ $# -lt 2 ] || [ $# -gt 4 ]; then
  echo "usage: $0 BUILD_DIR FUZZ_BUILD_DIR [UBSAN_BUILD_DIR [AFL_BUILD_DIR]]" >&2
  exit 2
fi
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=$(cd "$1" && pwd) || exit 2
fuzz_build=$(cd "$2" && pwd) || exit 2
ubsan_build=
if [ $# -ge 3 ]; then ubsan_build=$(cd "$3" && pwd) || exit 2; fi
afl_build=${4:-$root/build/fuzz-afl}
exposure=${BENCH_EXPOSURE:-short}
case $exposure in
  short | full | off) ;;
  *) echo "bench.sh: BENCH_EXPOSURE must be short, full or off, not '$exposure'" >&2; exit 2 ;;
esac
seconds=${BENCH_FUZZ_SECONDS:-20}
for binary in "$build/idlespec_bench" "$fuzz_build/xcede_fuzz" "$fuzz_build/noop_fuzz" \
  "$fuzz_build/subject_only_fuzz"; do
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

# campaign TARGET BINARY: BINARY for $seconds from TARGET's corpus, options and
# dictionary (subject_only_fuzz runs TARGET's subject); prints "exec/s" (empty
# on failure).
campaign() {
  local target=$1 bin=$2 in_build=${3:-$fuzz_build} options=$root/fuzz/$1.options dict max_len dir
  dict=$(sed -n 's/^[[:space:]]*dict[[:space:]]*=[[:space:]]*\([^[:space:]]*\).*/\1/p' "$options")
  max_len=$(sed -n 's/^[[:space:]]*max_len[[:space:]]*=[[:space:]]*\([0-9]*\).*/\1/p' "$options")
  dir=$work/$target/$bin${3:+-$(basename "$3")}
  mkdir -p "$dir/corpus"
  # shellcheck disable=SC2086  # BENCH_FUZZ_FLAGS is a list of flags
  (cd "$dir" && IDLESPEC_SUBJECT_ONLY=$target "$in_build/$bin" -max_total_time="$seconds" -print_final_stats=1 \
    ${dict:+-dict="$root/fuzz/$dict"} ${max_len:+-max_len="$max_len"} ${BENCH_FUZZ_FLAGS:-} \
    corpus "$root/fuzz/corpus/$target") >"$dir/log" 2>&1 || { echo "bench.sh: $bin on $target's corpus failed, see $dir/log" >&2; return; }
  sed -n 's/^stat::average_exec_per_sec:[[:space:]]*//p' "$dir/log"
}
# Every target beside noop_fuzz run from the same corpus just before it, so
# that each ratio is measured under the same load.
fuzz_targets=(xcede_fuzz states_fuzz busy_delay_fuzz idle_core_fuzz governor_fuzz teo_fuzz)
declare -A eps noop_eps subject_eps
for target in "${fuzz_targets[@]}"; do
  if [ ! -x "$fuzz_build/$target" ]; then
    echo "== $target: not built"
    continue
  fi
  echo "== $target and noop_fuzz: ${seconds}s each from fuzz/corpus/$target"
  noop_eps[$target]=$(campaign "$target" noop_fuzz)
  [ "$target" = idle_core_fuzz ] || subject_eps[$target]=$(campaign "$target" subject_only_fuzz)
  eps[$target]=$(campaign "$target" "$target")
  echo "$target ${eps[$target]:-?} exec/s, subject alone ${subject_eps[$target]:-n/a}," \
       "noop_fuzz ${noop_eps[$target]:-?} exec/s"
  [ -n "${eps[$target]}" ] && [ -n "${noop_eps[$target]}" ] || exit 1
  [ "$target" = idle_core_fuzz ] || [ -n "${subject_eps[$target]:-}" ] || exit 1
done

# The same targets in the UBSan build (OSS-Fuzz's second sanitizer build).
declare -A ubsan_eps
if [ -n "$ubsan_build" ]; then
  for target in "${fuzz_targets[@]}"; do
    [ -x "$ubsan_build/$target" ] || continue
    echo "== $target, UBSan build: ${seconds}s from fuzz/corpus/$target"
    ubsan_eps[$target]=$(campaign "$target" "$target" "$ubsan_build")
    [ -n "${ubsan_eps[$target]}" ] || exit 1
  done
fi

# Time to exposure of every fuzz witness (scripts/fuzz_exposure.sh).
exposure_line="time to exposure: not measured (BENCH_EXPOSURE=off)"
if [ "$exposure" != off ]; then
  echo
  echo "== time to exposure ($exposure)"
  exposure_args=()
  [ "$exposure" = short ] && exposure_args=(--short)
  scripts_dir=$root/scripts
  "$scripts_dir/fuzz_exposure.sh" "${exposure_args[@]}" "$fuzz_build" "$afl_build" \
    | tee "$work/exposure.log"
  exposure_line="$(tail -1 "$work/exposure.log") ($exposure form)"
fi

decode=$(cpu_ns BM_Decode4Records)
memcpy=$(cpu_ns BM_Memcpy4Records)
build_plain=$(cpu_ns BM_BuildTable4Records/expose:0)
build_expose=$(cpu_ns BM_BuildTable4Records/expose:1)
check4=$(cpu_ns BM_XcedeFuzzCheck4Records)
check_corpus=$(cpu_ns BM_XcedeFuzzCheckCorpus)
extract_small=$(cpu_ns BM_Extract/KiB:512)
extract_large=$(cpu_ns BM_Extract/KiB:5120)
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
# per byte: (large / 5120 KiB) / (small / 512 KiB)
echo "extraction, 512 KiB / 5 MiB: ${extract_small:-?} ns / ${extract_large:-?} ns:" \
     "time per byte at 5 MiB = $(ratio "$extract_large" "$extract_small" 0.1) x at 512 KiB" \
     "(goal <= 1.5 x: linear)"
# counter NAME KEY: a user counter of benchmark NAME, from the JSON report.
counter() {
  awk -v want="\"$1\"," -v key="\"$2\":" '
    $1 == "\"name\":" { name = $2 }
    $1 == key && name == want { v = $2; sub(",", "", v); print v; exit }' "$work/bench.json"
}
scan_ratio=$(counter "BM_BusyDelayScanVsLoop/min_time:2.000" ratio)
scan_ns=$(counter "BM_BusyDelayScanVsLoop/min_time:2.000" scan_ns)
loop_ns=$(counter "BM_BusyDelayScanVsLoop/min_time:2.000" loop_ns)
echo "busy_delay 2^32 scan:       ${scan_ns:-?} ns per status vs ${loop_ns:-?} ns for an opaque" \
     "loop: ${scan_ratio:-?} x (goal <= 2 x)"
echo "libFuzzer, ${seconds}s each, ASan build, from the same corpus: the target against noop_fuzz" \
     "(goal >= 25%), and its subject alone (subject_only_fuzz: what the subject itself allows;"
echo "the target over it is the share of the subject's rate that the oracle leaves):"
for target in "${fuzz_targets[@]}"; do
  [ -n "${eps[$target]:-}" ] || continue
  alone=${subject_eps[$target]:-}
  if [ -n "$alone" ]; then
    subject="subject alone $(printf '%9s' "$alone") ($(ratio "$alone" "${noop_eps[$target]}" 100)% of noop_fuzz; the target $(ratio "${eps[$target]}" "$alone" 100)% of it)"
  else
    subject="subject alone n/a (the oracle chooses the moves)"
  fi
  printf '  %-16s %9s exec/s, noop_fuzz %9s exec/s: %s%%; %s\n' "$target" "${eps[$target]}" \
    "${noop_eps[$target]}" "$(ratio "${eps[$target]}" "${noop_eps[$target]}" 100)" "$subject"
done
echo "libFuzzer exec/s per sanitizer build (${seconds}s each from the target's corpus, as OSS-Fuzz" \
     "builds them: ASan, the campaign build; UBSan, a build of its own):"
for target in "${fuzz_targets[@]}"; do
  [ -n "${eps[$target]:-}" ] || continue
  printf '  %-16s ASan %9s exec/s, UBSan %9s exec/s\n' "$target" "${eps[$target]}" \
    "${ubsan_eps[$target]:-n/a}"
done
echo "$exposure_line"
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
  echo "proof times:                none measured (BENCH_ARGS filtered them out, or the registry has none)"
fi

# --- idle_core: SPIN vs idlespec model-check ----------------------------------
# SPIN on spec/idle_core.pml for POWER8 SMT4 (-DSAFETY -DCOLLAPSE, SPIN's
# default partial-order reduction), beside `idlespec model-check idle_core
# --threads 4` (symmetry and partial-order reduction) and --no-symmetry --no-por (the same state count as
# SPIN's, like for like); then the checker's SMT8 figures. Every missing piece
# (spin, a C compiler, the model-check command) prints a note; none fails the
# bench. Environment:
#   BENCH_SMT8_SECONDS  time limit of the SMT8 run (default 600; 0 skips it)
#   BENCH_LKMM_SECONDS  backstop of each --lkmm run (default 1800; 0 skips them)
#   BENCH_LKMM_SMT4_STATES, BENCH_LKMM_SMT8_STATES  their state bounds (40 M: SMT4 completes at 31.7 M; 3 M)
echo
echo "== idle_core: SPIN vs idlespec model-check"
spin_dir=$work/spin
mkdir -p "$spin_dir"
# measure LOG CMD...: runs CMD with stdout+stderr to LOG and writes
# "bench-measure SECONDS PEAK_RSS_KB" to LOG.time (the RSS "?" without
# /usr/bin/time).
measure() {
  local log=$1 rc t0=$SECONDS
  shift
  if [ -x /usr/bin/time ]; then
    /usr/bin/time -f "bench-measure %e %M" -o "$log.time" "$@" >"$log" 2>&1
    rc=$?
  else
    "$@" >"$log" 2>&1
    rc=$?
    echo "bench-measure $((SECONDS - t0)) ?" >"$log.time"
  fi
  return $rc
}
json_field() {  # json_field FILE KEY: a scalar from the checker's one-line JSON
  sed -n "s/.*\"$2\":\"\{0,1\}\([^,\"}]*\).*/\1/p" "$1" | head -1
}
spin_secs="" spin_kb="" spin_states=""
cc_bin=${CC:-cc}
command -v "$cc_bin" >/dev/null 2>&1 || cc_bin=gcc
if ! command -v spin >/dev/null 2>&1; then
  echo "SPIN: not available (spin is not installed; scripts/setup.sh installs it)"
elif ! command -v "$cc_bin" >/dev/null 2>&1; then
  echo "SPIN: not available (no C compiler for pan.c)"
else
  cp "$root/spec/idle_core.pml" "$spin_dir/idle_core.pml"
  if (cd "$spin_dir" && spin -DN=4 -a idle_core.pml >spin-a.log 2>&1 &&
      "$cc_bin" -w -O2 -DSAFETY -DCOLLAPSE -DMEMLIM=8192 -o pan pan.c >cc.log 2>&1); then
    (cd "$spin_dir" && measure pan.log ./pan -m1000000 -w24)
    read -r _ spin_secs spin_kb < <(grep '^bench-measure' "$spin_dir/pan.log.time" 2>/dev/null)
    spin_states=$(sed -n 's/^ *\([0-9]*\) states, stored.*/\1/p' "$spin_dir/pan.log")
    spin_errors=$(sed -n 's/.*errors: \([0-9]*\).*/\1/p' "$spin_dir/pan.log")
    pan_secs=$(sed -n 's/^pan: elapsed time \([0-9.e+]*\) seconds.*/\1/p' "$spin_dir/pan.log")
    pan_mb=$(sed -n 's/^ *\([0-9.]*\)[[:space:]]*total actual memory usage.*/\1/p' "$spin_dir/pan.log")
    if [ -z "$spin_secs" ] && [ -n "$pan_secs" ]; then spin_secs=$pan_secs; fi
    echo "SPIN power8 SMT4 (POR, COLLAPSE):  ${spin_states:-?} states, errors ${spin_errors:-?}," \
         "${spin_secs:-?} s wall (pan: ${pan_secs:-?} s, ${pan_mb:-?} MB), peak RSS ${spin_kb:-?} KB"
  else
    echo "SPIN: could not build pan (see $spin_dir/spin-a.log, $spin_dir/cc.log)"
  fi
fi
idlespec_bin=$build/idlespec
have_mc=0
if [ -x "$idlespec_bin" ] && "$idlespec_bin" model-check --help >/dev/null 2>&1; then
  have_mc=1
fi
# checker LABEL ARGS...: one `idlespec model-check idle_core` run; sets c_secs, c_kb.
checker() {
  local label=$1
  shift
  local log=$spin_dir/mc-$label.json
  c_secs="" c_kb=""
  "$idlespec_bin" model-check idle_core "$@" --json --quiet >"$log" 2>"$log.err"
  local rc=$?
  if [ ! -s "$log" ]; then
    echo "idlespec model-check $*: no JSON (exit $rc, see $log.err)"
    return
  fi
  c_secs=$(json_field "$log" seconds)
  c_kb=$(json_field "$log" peak_rss_kb)
  local complete violations
  complete=$(json_field "$log" complete)
  [ "$complete" = false ] && complete="false ($(json_field "$log" incomplete_reason))"
  violations=none
  grep -q '"violations":\[\]' "$log" || violations="some, see $log"
  echo "idlespec model-check $*: $(json_field "$log" states) states, complete ${complete:-?}," \
       "violations $violations, ${c_secs:-?} s, peak RSS ${c_kb:-?} KB (exit $rc)"
}
if [ "$have_mc" -eq 0 ]; then
  echo "idlespec model-check: not available ($idlespec_bin has no model-check command)"
else
  checker smt4 --threads 4
  echo "  SPIN / checker (symmetry):     time $(ratio "$spin_secs" "$c_secs") x," \
       "memory $(ratio "$spin_kb" "$c_kb") x"
  checker smt4-nosym --threads 4 --no-symmetry --no-por
  echo "  SPIN / checker (no symmetry):  time $(ratio "$spin_secs" "$c_secs") x," \
       "memory $(ratio "$spin_kb" "$c_kb") x (same state space: ${spin_states:-?} states in SPIN)"
  smt8_limit=${BENCH_SMT8_SECONDS:-600}
  if [ "$smt8_limit" = 0 ]; then
    echo "idlespec model-check --threads 8: skipped (BENCH_SMT8_SECONDS=0)"
  else
    checker smt8 --threads 8 --time-limit "$smt8_limit"
    echo "  SMT8 (symmetry, partial-order reduction): ${c_secs:-?} s, peak RSS ${c_kb:-?} KB" \
         "(goal <= 60 s and <= 2 GB on one core: $(ratio "$c_secs" 60) x the time," \
         "$(ratio "$c_kb" 2097152) x the memory)"
  fi
  # Under the Linux-kernel memory model (--lkmm, spec/idle_core.md "Weak
  # memory"): subject idle_lock, races checked, symmetry on (as the
  # interleaving runs above), one process and under mpirun -np 2, beside
  # the interleaving runs. Bounded by states (BENCH_LKMM_SMT4_STATES,
  # BENCH_LKMM_SMT8_STATES), with BENCH_LKMM_SECONDS only as a backstop.
  lkmm_limit=${BENCH_LKMM_SECONDS:-1800}
  smt4_states=${BENCH_LKMM_SMT4_STATES:-40000000}
  smt8_states=${BENCH_LKMM_SMT8_STATES:-3000000}
  if [ "$lkmm_limit" = 0 ]; then
    echo "idlespec model-check --lkmm: skipped (BENCH_LKMM_SECONDS=0)"
  else
    checker smt2-lkmm --threads 2 --subject idle_lock --lkmm
    checker smt4-sc --threads 4 --subject idle_lock
    sc_secs=$c_secs sc_kb=$c_kb
    checker smt4-lkmm --threads 4 --subject idle_lock --lkmm --max-states "$smt4_states" \
      --time-limit "$lkmm_limit"
    lkmm_secs=$c_secs lkmm_kb=$c_kb
    echo "  SMT4 LKMM / SMT4 interleavings (both reduced): time $(ratio "$lkmm_secs" "$sc_secs") x," \
         "memory $(ratio "$lkmm_kb" "$sc_kb") x"
    checker smt4-lkmm-nosym --threads 4 --subject idle_lock --lkmm --no-symmetry \
      --max-states 2000000 --time-limit "$lkmm_limit"
    mpi_bin=$build/idlespec-mc-mpi
    if command -v mpirun >/dev/null && [ -x "$mpi_bin" ]; then
      log=$spin_dir/mc-smt4-lkmm-mpi2.json
      OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 mpirun --oversubscribe -np 2 \
        "$mpi_bin" idle_core --threads 4 --subject idle_lock --lkmm --max-states "$smt4_states" \
        --time-limit "$lkmm_limit" --json --quiet >"$log" 2>"$log.err"
      if [ -s "$log" ]; then
        m_secs=$(json_field "$log" seconds)
        echo "idlespec-mc-mpi -np 2 --threads 4 --lkmm: $(json_field "$log" states) states," \
             "complete $(json_field "$log" complete), ${m_secs:-?} s, at most" \
             "$(json_field "$log" max_rank_states) states and $(json_field "$log" max_rank_rss_kb) KB" \
             "on a rank, $(json_field "$log" bytes_sent) bytes sent"
        echo "  SMT4 LKMM 2 ranks / one process: time $(ratio "$m_secs" "$lkmm_secs") x," \
             "peak RSS per rank $(ratio "$(json_field "$log" max_rank_rss_kb)" "$lkmm_kb") x"
      else
        echo "idlespec-mc-mpi -np 2 --lkmm: no JSON (see $log.err)"
      fi
    else
      echo "idlespec-mc-mpi --lkmm: not available (no mpirun or no $mpi_bin: scripts/setup.sh mpi)"
    fi
    checker smt8-lkmm --threads 8 --subject idle_lock --lkmm --max-states "$smt8_states" \
      --time-limit "$lkmm_limit"
  fi
fi

echo
echo "== validate on the POWER targets (issue 37)"
"$root/scripts/bench-targets.sh" "$idlespec_bin"

echo
echo "== review of a one-function patch (issue 49)"
"$root/scripts/bench-review.sh" "$idlespec_bin"
