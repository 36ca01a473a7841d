#!/usr/bin/env bash
# scripts/fuzz.sh against stand-in targets (shell scripts named like the fuzz
# targets, in a temporary build directory): FUZZ_JOBS campaigns run at once
# and never more, every campaign is reported, a crash names its target and
# artifact and exits 1 without losing the others' results, a missing target
# or a bad FUZZ_JOBS exits 2 before any campaign starts. No timing: the
# stand-ins count each other through marker files.
# usage: fuzz_script.sh IDLESPEC SOURCE_DIR
set -u
src=$2
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
work=$(mktemp -d /tmp/idlespec-fuzz-script-test-XXXXXX)
trap 'rm -rf "$work"' EXIT

targets=()
for f in "$src"/fuzz/*_fuzz.cc; do targets+=("$(basename "$f" .cc)"); done
total=${#targets[@]}
[ "$total" -ge 3 ] || { echo "FAIL: fewer than 3 fuzz targets under $src/fuzz"; exit 1; }

# A stand-in campaign: marks itself running, waits (at most 30 s) until as
# many campaigns run as FUZZ_JOBS allows or every one has started, records
# the largest number it saw running, and prints libFuzzer's final lines.
# CRASH_TARGET exits 77 with an artifact, as a libFuzzer crash does.
make_stand_ins() {  # make_stand_ins DIR
  mkdir -p "$1/marks/running" "$1/marks/started"
  for t in "${targets[@]}"; do
    cat >"$1/$t" <<EOF
#!/usr/bin/env bash
marks=$1/marks
touch "\$marks/running/$t" "\$marks/started/$t"
for _ in \$(seq 300); do
  running=\$(ls "\$marks/running" | wc -l)
  [ "\$running" -ge "\$WANT_RUNNING" ] && break
  [ "\$(ls "\$marks/started" | wc -l)" -ge $total ] && break
  sleep 0.1
done
echo "\$(ls "\$marks/running" | wc -l)" >>"\$marks/seen"
for a; do case \$a in -artifact_prefix=*) prefix=\${a#-artifact_prefix=} ;; esac; done
echo "#42 DONE cov: 7 ft: 9 corp: 3/12b exec/s: 21"
echo "stat::number_of_executed_units: 42"
echo "stat::average_exec_per_sec: 21"
rm -f "\$marks/running/$t"
if [ "$t" = "\${CRASH_TARGET:-}" ]; then
  echo crash >"\${prefix}crash-stand-in"
  echo "==1==ERROR: AddressSanitizer: stand-in crash"
  exit 77
fi
EOF
    chmod +x "$1/$t"
  done
}

run() {  # run JOBS DIR [ENV...]: fuzz.sh's output in DIR/out, DIR/err; its rc
  local jobs=$1 dir=$2
  shift 2
  env FUZZ_JOBS="$jobs" WANT_RUNNING="$jobs" "$@" bash "$src/scripts/fuzz.sh" 1 "$dir" \
    >"$dir/out" 2>"$dir/err"
}

# Two at once: every target reported, at most two running, and two seen.
d=$work/two
make_stand_ins "$d"
run 2 "$d"
rc=$?
[ "$rc" = 0 ] || fail "FUZZ_JOBS=2: exit $rc, expected 0 ($(cat "$d/err"))"
for t in "${targets[@]}"; do
  grep -q "^$t: 42 runs, 21 exec/s, cov 7, ft 9, corpus 3," "$d/out" ||
    fail "FUZZ_JOBS=2: no report line for $t"
  grep -q "^== $t: 1s from" "$d/out" || fail "FUZZ_JOBS=2: no start line for $t"
done
max=$(sort -n "$d/marks/seen" | tail -1)
[ "$max" = 2 ] || fail "FUZZ_JOBS=2: at most $max campaigns ran at once, expected 2"
[ "$(wc -l <"$d/marks/seen")" = "$total" ] || fail "FUZZ_JOBS=2: not every campaign ran"

# One at a time: never two at once.
d=$work/one
make_stand_ins "$d"
run 1 "$d"
rc=$?
[ "$rc" = 0 ] || fail "FUZZ_JOBS=1: exit $rc, expected 0"
max=$(sort -n "$d/marks/seen" | tail -1)
[ "$max" = 1 ] || fail "FUZZ_JOBS=1: $max campaigns ran at once"

# A crash in one campaign: exit 1, the crash named, the others still reported.
crash_target=${targets[1]}
d=$work/crash
make_stand_ins "$d"
run 2 "$d" CRASH_TARGET="$crash_target"
rc=$?
[ "$rc" = 1 ] || fail "crash: exit $rc, expected 1"
grep -q "^$crash_target: CRASH (exit 77): $d/fuzz-work/$crash_target/artifacts/crash-stand-in" \
  "$d/err" || fail "crash: stderr does not name $crash_target's artifact: $(cat "$d/err")"
grep -q "replay: $d/${crash_target}_replay " "$d/err" || fail "crash: no replay command"
for t in "${targets[@]}"; do
  grep -q "^$t: 42 runs" "$d/out" || fail "crash: $t's result was lost"
done

# A target that is not built: exit 2 and no campaign started.
d=$work/missing
make_stand_ins "$d"
rm "$d/${targets[2]}"
run 2 "$d"
rc=$?
[ "$rc" = 2 ] || fail "missing target: exit $rc, expected 2"
grep -q "${targets[2]} is not built" "$d/err" || fail "missing target: not named"
[ ! -e "$d/marks/seen" ] || fail "missing target: campaigns ran before the check"

# FUZZ_JOBS that is not a whole number >= 1.
for bad in 0 two -1; do
  run "$bad" "$work/one"
  rc=$?
  [ "$rc" = 2 ] || fail "FUZZ_JOBS=$bad: exit $rc, expected 2"
  grep -q "FUZZ_JOBS must be a whole number" "$work/one/err" || fail "FUZZ_JOBS=$bad: no message"
done

[ "$fails" = 0 ] && echo "fuzz_script: ok ($total stand-in targets)"
exit $((fails > 0))
