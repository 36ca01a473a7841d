#!/usr/bin/env bash
# A fuzz witness test: a FRESH libFuzzer campaign (empty corpus in the build
# tree, fixed seed, the options of the target's .options file) against a target built
# over a deliberately broken subject must find the violation of CLAUSE within
# its budget. Passes only if libFuzzer stopped on a crash whose report names
# the clause; no stored crash input is involved.
#
#   fuzz_expect_crash.sh FUZZER CLAUSE WORK_DIR OPTIONS_FILE MAX_RUNS MAX_SECONDS
set -u
if [ $# -ne 6 ]; then
  echo "usage: $0 FUZZER CLAUSE WORK_DIR OPTIONS_FILE MAX_RUNS MAX_SECONDS" >&2
  exit 2
fi
fuzzer=$1 clause=$2 work=$3 options=$4 max_runs=$5 max_seconds=$6
name=$(basename "$fuzzer")

# Every [libfuzzer] option as -key=value, as ClusterFuzz passes them
# (scripts/libfuzzer_options.sh, the campaigns' own reading).
. "$(dirname "${BASH_SOURCE[0]}")/../../scripts/libfuzzer_options.sh"
mapfile -t flags < <(libfuzzer_flags "$options")

rm -rf "$work"
mkdir -p "$work/corpus" "$work/artifacts"
SECONDS=0
"$fuzzer" -seed=1 -runs="$max_runs" -max_total_time="$max_seconds" "${flags[@]}" \
  -artifact_prefix="$work/artifacts/" -print_final_stats=1 "$work/corpus" >"$work/log" 2>&1
rc=$?
elapsed=$SECONDS

crash=$(ls "$work/artifacts"/crash-* 2>/dev/null | head -1)
execs=$(sed -n 's/^stat::number_of_executed_units:[[:space:]]*//p' "$work/log" | tail -1)
if [ "$rc" -eq 0 ] || [ -z "$crash" ]; then
  echo "FAIL: $name: no crash in $max_runs runs / ${max_seconds}s (exit $rc):" \
       "the campaign did not find the $clause violation" >&2
  tail -5 "$work/log" >&2
  exit 1
fi
if ! grep -q "^==$name== $clause violated" "$work/log"; then
  echo "FAIL: $name crashed (exit $rc) but its report does not name $clause:" >&2
  grep -E "violated|ERROR" "$work/log" | head -5 >&2
  exit 1
fi
echo "PASS: $name: fresh campaign (-seed=1) found the $clause violation after" \
     "${execs:-?} runs in ${elapsed}s (exit $rc)"
grep "^==$name== " "$work/log" | head -4
echo "crash input: $crash"
