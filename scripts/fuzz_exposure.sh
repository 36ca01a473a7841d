#!/usr/bin/env bash
# Time to exposure: how soon a campaign finds a known bug. For every fuzz
# witness (a target's oracle over a deliberately broken subject, listed in
# BUILD/fuzz-witnesses.tsv by cmake/IdlespecFuzz.cmake) it runs fresh
# campaigns with libFuzzer and with AFL++ over the same LLVMFuzzerTestOneInput
# source, from the target's stored corpus and from an empty one (AFL++: one
# trivial seed, a single zero byte), each capped, one after another, niced.
# libFuzzer gets every option of fuzz/<target>.options, AFL++ its dictionary
# and max_len.
# A trial counts as found only if the campaign stopped on a crash whose report
# names the witness's clause (an AFL++ crash is replayed through the libFuzzer
# binary to read its report). A stored input that crashes stops libFuzzer:
# found. AFL++ 4 skips seeds that crash in its dry run (a warning, no crash
# file) and fuzzes from the others, so what counts is its first saved crash;
# where every seed crashes it refuses to start, and the first seed is
# replayed: found if it breaks the clause.
#
#   scripts/fuzz_exposure.sh [--short] [LIBFUZZER_BUILD] [AFL_BUILD]
#       LIBFUZZER_BUILD  default build/fuzz (the fuzz preset: the witnesses built)
#       AFL_BUILD        default build/fuzz-afl (the fuzz-afl preset, afl-clang-fast++)
#       --short          CI's form: one trial per witness and engine, from the
#                        empty start, capped at 20 s
#   environment:
#       EXPOSURE_TRIALS  trials per witness, engine and start (default 5; --short 1)
#       EXPOSURE_CAP     seconds per trial (default 60; --short 20)
#       EXPOSURE_ONLY    a regex: only the witnesses whose name matches
#       EXPOSURE_NO_AFL  1: libFuzzer only, even where AFL++ is installed
#       EXPOSURE_AFL     the afl-fuzz program (default afl-fuzz on PATH)
#
# Prints a table per witness (found k/N, median and worst seconds, median
# executions, per engine and start) and, last, exactly
#   time-to-exposure: W witnesses; libFuzzer found all in every trial: yes|no, worst median S s; AFL++ found all in every trial: yes|no, worst median S s
# or, where AFL++ did not run, the same line ending in
#   ...; AFL++ not installed, not compared (install it with: scripts/setup.sh fuzz, as root)
#   ...; AFL++ not run (EXPOSURE_NO_AFL=1)
# A median over trials that missed is ">CAP". Exit 0 when libFuzzer found
# every witness in every trial, 1 when it missed one (AFL++'s misses are
# reported, not failed: it is the comparison), 2 on a usage or build error.
# Without AFL++ installed (`make fuzz-exposure` installs it first where it
# can) it says so at the start and in the last line, with the set-up line,
# and runs libFuzzer only. Scratch goes to LIBFUZZER_BUILD/exposure-work.
set -uo pipefail

short=
if [ "${1:-}" = --short ]; then
  short=1
  shift
fi
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
lf_build=${1:-$root/build/fuzz}
afl_build=${2:-$root/build/fuzz-afl}
trials=${EXPOSURE_TRIALS:-$([ -n "$short" ] && echo 1 || echo 5)}
cap=${EXPOSURE_CAP:-$([ -n "$short" ] && echo 20 || echo 60)}
only=${EXPOSURE_ONLY:-}
for n in "$trials" "$cap"; do
  if ! [[ "$n" =~ ^[1-9][0-9]*$ ]]; then
    echo "fuzz_exposure.sh: EXPOSURE_TRIALS and EXPOSURE_CAP must be whole numbers >= 1" >&2
    exit 2
  fi
done
list=$lf_build/fuzz-witnesses.tsv
if [ ! -f "$list" ]; then
  echo "fuzz_exposure.sh: no $list (configure $lf_build with the fuzz preset)" >&2
  exit 2
fi
lf_build=$(cd "$lf_build" && pwd)
[ ! -d "$afl_build" ] || afl_build=$(cd "$afl_build" && pwd)  # trials run in their own directory
starts=(corpus empty)
[ -n "$short" ] && starts=(empty)

afl=1
afl_fuzz=${EXPOSURE_AFL:-afl-fuzz}
afl_absent="AFL++ not installed, not compared (install it with: scripts/setup.sh fuzz, as root)"
if [ "${EXPOSURE_NO_AFL:-0}" = 1 ]; then
  afl=
  afl_absent="AFL++ not run (EXPOSURE_NO_AFL=1)"
  echo "fuzz_exposure.sh: libFuzzer only (EXPOSURE_NO_AFL=1)"
elif ! command -v "$afl_fuzz" >/dev/null; then
  afl=
  echo "fuzz_exposure.sh: AFL++ is not installed ($afl_fuzz not found); running libFuzzer only" \
       "(install it with: scripts/setup.sh fuzz, as root)"
fi

witnesses=()
declare -A target_of clause_of
while IFS=$'\t' read -r name target clause; do
  [ -n "$name" ] || continue
  [ -z "$only" ] || [[ "$name" =~ $only ]] || continue
  for bin in "$lf_build/$name" ${afl:+"$afl_build/$name"}; do
    if [ ! -x "$bin" ]; then
      echo "fuzz_exposure.sh: $bin is not built" >&2
      exit 2
    fi
  done
  witnesses+=("$name")
  target_of[$name]=$target
  clause_of[$name]=$clause
done <"$list"
if [ "${#witnesses[@]}" -eq 0 ]; then
  echo "fuzz_exposure.sh: no witness in $list${only:+ matching '$only'}" >&2
  exit 2
fi

option() {  # option OPTIONS_FILE KEY: a value of the [libfuzzer] section
  [ -f "$1" ] || return 0
  sed -n "s/^[[:space:]]*$2[[:space:]]*=[[:space:]]*\\([^[:space:]]*\\).*/\\1/p" "$1" | head -1
}
. "$(dirname "${BASH_SOURCE[0]}")/libfuzzer_options.sh"  # libfuzzer_flags
now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.2f\n", b - a }'; }

work=$lf_build/exposure-work
rm -rf "$work"
mkdir -p "$work"

# A trial prints "found SECONDS EXECUTIONS" or "missed SECONDS EXECUTIONS".
libfuzzer_trial() {  # NAME START TRIAL DIR
  local name=$1 start=$2 trial=$3 dir=$4 target=${target_of[$1]} t0 secs execs options
  mapfile -t options < <(libfuzzer_flags "$root/fuzz/$target.options")
  mkdir -p "$dir/new" "$dir/artifacts"
  local inputs=("$dir/new")
  [ "$start" = corpus ] && inputs+=("$root/fuzz/corpus/$target")
  t0=$(now)
  # No symbolised stack trace on the crash (what AFL++ sets for its target
  # too): it costs ~0.5 s at exit, which the time would count.
  (cd "$dir" && ASAN_OPTIONS=symbolize=0 UBSAN_OPTIONS=symbolize=0 \
     exec nice -n 10 timeout -k 5 $((cap + 60)) "$lf_build/$name" -seed="$trial" \
     -max_total_time="$cap" -timeout=10 -rss_limit_mb=2560 -print_final_stats=1 \
     "${options[@]}" -artifact_prefix="$dir/artifacts/" "${inputs[@]}") >"$dir/log" 2>&1
  secs=$(since "$t0")
  execs=$(sed -n 's/^stat::number_of_executed_units:[[:space:]]*//p' "$dir/log" | tail -1)
  if ls "$dir"/artifacts/crash-* >/dev/null 2>&1 &&
     grep -q "^==$name== ${clause_of[$name]} violated" "$dir/log"; then
    echo "found $secs ${execs:-0}"
  else
    echo "missed $secs ${execs:-0}"
  fi
}

afl_trial() {  # NAME START TRIAL DIR
  local name=$1 start=$2 trial=$3 dir=$4 target=${target_of[$1]} t0 secs execs crash
  local options=$root/fuzz/$target.options dict max_len input
  dict=$(option "$options" dict)
  max_len=$(option "$options" max_len)
  if [ "$start" = corpus ]; then
    input=$root/fuzz/corpus/$target
  else
    input=$dir/seed
    mkdir -p "$input"
    printf '\0' >"$input/zero"
  fi
  t0=$(now)
  (cd "$dir" && AFL_NO_UI=1 AFL_SKIP_CPUFREQ=1 AFL_NO_AFFINITY=1 AFL_BENCH_UNTIL_CRASH=1 \
     AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1 \
     AFL_QUIET=1 AFL_TRY_AFFINITY=0 \
     exec nice -n 10 timeout -k 5 $((cap + 60)) "$afl_fuzz" -i "$input" -o "$dir/out" -s "$trial" \
     -V "$cap" -m none -t 10000 ${dict:+-x "$root/fuzz/$dict"} ${max_len:+-G "$max_len"} \
     -- "$afl_build/$name") >"$dir/log" 2>&1
  secs=$(since "$t0")
  crash=$(ls "$dir"/out/default/crashes/id:* 2>/dev/null | head -1)
  execs=$(sed -n 's/^execs_done[[:space:]]*:[[:space:]]*//p' "$dir/out/default/fuzzer_stats" 2>/dev/null)
  if [ -n "$crash" ]; then
    # The executions up to the crash, from its file name (execs:N).
    execs=$(sed -n 's/.*,execs:\([0-9]*\).*/\1/p' <<<"$crash")
    if "$lf_build/$name" "$crash" >"$dir/replay" 2>&1 ||
       ! grep -q "^==$name== ${clause_of[$name]} violated" "$dir/replay"; then
      echo "missed $secs ${execs:-0}"  # a crash, but not of the witness's clause
      return
    fi
    echo "found $secs ${execs:-0}"
  elif grep -q 'at least one valid input seed that does not crash' "$dir/log"; then
    # Every seed crashed in AFL++'s dry run and it refused to start: the
    # seeds exposed the bug if the first, in AFL++'s (name) order, breaks the
    # clause. (Where only some seeds crash, AFL++ 4 skips them with a warning
    # and fuzzes from the others: what counts then is its first saved crash.)
    seed=$(find "$input" -maxdepth 1 -type f | LC_ALL=C sort | head -1)
    if [ -n "$seed" ] && ! "$lf_build/$name" "$seed" >"$dir/replay" 2>&1 &&
       grep -q "^==$name== ${clause_of[$name]} violated" "$dir/replay"; then
      echo "found $secs 1"
    else
      echo "missed $secs 1"
    fi
  else
    if grep -q 'PROGRAM ABORT' "$dir/log"; then  # AFL++ did not fuzz: say why
      echo "fuzz_exposure.sh: AFL++ stopped on $name:" \
           "$(grep -A1 'PROGRAM ABORT' "$dir/log" | sed 's/\x1b\[[0-9;]*[a-zA-Z]//g' | tr -s ' \n' ' ')" >&2
    fi
    echo "missed $secs ${execs:-0}"
  fi
}

# summary FILE: "k median worst median_execs" of the trial lines in FILE; a
# miss counts as longer than the cap.
summary() {
  local k n m worst me
  n=$(wc -l <"$1")
  k=$(grep -c '^found ' "$1")
  # times (a miss as 1e9) and executions, each sorted, then the middle value
  m=$(awk '{ print ($1 == "found") ? $2 : 1e9 }' "$1" | sort -g | awk -v n="$n" '
    { t[NR] = $1 } END { print (n % 2) ? t[(n + 1) / 2] : (t[n / 2] + t[n / 2 + 1]) / 2 }')
  worst=$(awk '{ print ($1 == "found") ? $2 : 1e9 }' "$1" | sort -g | tail -1)
  me=$(awk '{ print $3 }' "$1" | sort -g | awk -v n="$n" '
    { e[NR] = $1 } END { printf "%d\n", (n % 2) ? e[(n + 1) / 2] : (e[n / 2] + e[n / 2 + 1]) / 2 }')
  shown() { awk -v v="$1" -v cap="$cap" 'BEGIN { if (v >= 1e9) print ">" cap; else printf "%.1f\n", v }'; }
  echo "$k $(shown "$m") $(shown "$worst") $me"
}
secs_of() { [[ "$1" == ">"* ]] && echo 1e9 || echo "$1"; }  # a median for comparing

engines=(libFuzzer)
[ -n "$afl" ] && engines+=(AFL++)
declare -A all_found worst_median
for engine in "${engines[@]}"; do all_found[$engine]=yes worst_median[$engine]=0; done
slower=()

echo "time to exposure: ${#witnesses[@]} witnesses, ${trials} trial(s) per engine and start" \
     "(${starts[*]}), ${cap} s cap each, one at a time, niced; load now $(cut -d' ' -f1-3 /proc/loadavg)"
for name in "${witnesses[@]}"; do
  echo
  echo "== $name (${target_of[$name]}, ${clause_of[$name]})"
  printf '  %-9s %-6s %6s %9s %9s %14s\n' engine start found "median s" "worst s" "median execs"
  declare -A median_of=()
  for engine in "${engines[@]}"; do
    for start in "${starts[@]}"; do
      results=$work/$name.$engine.$start
      : >"$results"
      for ((i = 1; i <= trials; i++)); do
        dir=$work/$name/$engine-$start-$i
        mkdir -p "$dir"
        if [ "$engine" = libFuzzer ]; then
          libfuzzer_trial "$name" "$start" "$i" "$dir" >>"$results"
        else
          afl_trial "$name" "$start" "$i" "$dir" >>"$results"
        fi
      done
      read -r k median worst execs < <(summary "$results")
      printf '  %-9s %-6s %6s %9s %9s %14s\n' "$engine" "$start" "$k/$trials" "$median" "$worst" "$execs"
      [ "$k" -eq "$trials" ] || all_found[$engine]=no
      median_of[$engine.$start]=$median
      if awk -v a="$(secs_of "$median")" -v b="$(secs_of "${worst_median[$engine]}")" 'BEGIN { exit !(a > b) }'; then
        worst_median[$engine]=$median
      fi
    done
  done
  if [ -n "$afl" ]; then
    for start in "${starts[@]}"; do
      if awk -v a="$(secs_of "${median_of[libFuzzer.$start]}")" \
             -v b="$(secs_of "${median_of[AFL++.$start]}")" 'BEGIN { exit !(a > b) }'; then
        slower+=("$name ($start start: libFuzzer ${median_of[libFuzzer.$start]} s, AFL++ ${median_of[AFL++.$start]} s)")
      fi
    done
  fi
  unset median_of
done

echo
if [ -n "$afl" ]; then
  if [ "${#slower[@]}" -eq 0 ]; then
    echo "libFuzzer's median is nowhere worse than AFL++'s"
  else
    printf 'libFuzzer slower than AFL++: %s\n' "${slower[@]}"
  fi
fi
echo "details: $work/<witness>/<engine>-<start>-<trial>/log"
lf_line="time-to-exposure: ${#witnesses[@]} witnesses; libFuzzer found all in every trial:"
lf_line+=" ${all_found[libFuzzer]}, worst median ${worst_median[libFuzzer]} s"
if [ -n "$afl" ]; then
  echo "$lf_line; AFL++ found all in every trial: ${all_found[AFL++]}, worst median ${worst_median[AFL++]} s"
else
  echo "$lf_line; $afl_absent"
fi
[ "${all_found[libFuzzer]}" = yes ]
