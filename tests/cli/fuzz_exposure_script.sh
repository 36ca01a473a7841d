#!/usr/bin/env bash
# scripts/fuzz_exposure.sh against stand-in witnesses (shell scripts named
# like witnesses, in a temporary build directory, each "finding" its clause
# at once as a libFuzzer crash reads): the last line says what ran. Without
# AFL++ (EXPOSURE_AFL naming a program that is not there) it says that AFL++
# is not installed and how to install it, never "AFL++ found all ...: no",
# which reads as AFL++ failing; with a stand-in afl-fuzz that saves a crash
# it gives AFL++'s figures; EXPOSURE_NO_AFL=1 says AFL++ was not run. No
# timing: the stand-ins return at once.
# usage: fuzz_exposure_script.sh IDLESPEC SOURCE_DIR
set -u
src=$2
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
work=$(mktemp -d /tmp/idlespec-exposure-test-XXXXXX)
trap 'rm -rf "$work"' EXIT

# Two stand-in witnesses of busy_delay_fuzz, each of its own clause.
mkdir -p "$work/lf" "$work/afl" "$work/bin"
printf 'wit_one\tbusy_delay_fuzz\tBUSY-1\nwit_two\tbusy_delay_fuzz\tBUSY-5\n' >"$work/lf/fuzz-witnesses.tsv"
for w in wit_one:BUSY-1 wit_two:BUSY-5; do
  name=${w%%:*} clause=${w#*:}
  # libFuzzer's side: an artifact and the witness's report; replaying a
  # crash file (AFL++'s) prints the same report.
  cat >"$work/lf/$name" <<EOF
#!/usr/bin/env bash
for a; do case \$a in -artifact_prefix=*) touch "\${a#-artifact_prefix=}crash-0" ;; esac; done
echo "==$name== $clause violated"
echo "stat::number_of_executed_units: 7"
exit 1
EOF
  cp "$work/lf/$name" "$work/afl/$name"
  chmod +x "$work/lf/$name" "$work/afl/$name"
done
# A stand-in afl-fuzz: saves one crash under -o's directory.
cat >"$work/bin/afl-fuzz" <<'EOF'
#!/usr/bin/env bash
while [ $# -gt 0 ]; do case $1 in -o) out=$2; shift ;; esac; shift; done
mkdir -p "$out/default/crashes"
echo x >"$out/default/crashes/id:000000,sig:06,execs:3"
printf 'execs_done : 3\n' >"$out/default/fuzzer_stats"
EOF
chmod +x "$work/bin/afl-fuzz"

exposure() {  # exposure NAME [ENV...]: runs the script; its output in $work/NAME.out
  local name=$1
  shift
  env EXPOSURE_TRIALS=1 EXPOSURE_CAP=5 "$@" bash "$src/scripts/fuzz_exposure.sh" --short \
    "$work/lf" "$work/afl" >"$work/$name.out" 2>&1
  rc=$?
  last=$(tail -1 "$work/$name.out")
}

exposure absent EXPOSURE_AFL="$work/bin/no-such-afl-fuzz"
[ "$rc" = 0 ] || fail "absent: exit $rc, expected 0 (libFuzzer found both): $(cat "$work/absent.out")"
want="time-to-exposure: 2 witnesses; libFuzzer found all in every trial: yes, worst median"
case $last in "$want"*) ;; *) fail "absent: last line '$last'" ;; esac
case $last in
  *"; AFL++ not installed, not compared (install it with: scripts/setup.sh fuzz, as root)") ;;
  *) fail "absent: the last line does not say AFL++ is not installed and how to install it: '$last'" ;;
esac
case $last in *"AFL++ found"*) fail "absent: the last line reports AFL++ figures: '$last'" ;; esac
grep -q "AFL++ is not installed" "$work/absent.out" || fail "absent: no word at the start"

# Witness: with AFL++ there (the stand-in), the line gives its figures.
exposure present EXPOSURE_AFL="$work/bin/afl-fuzz"
[ "$rc" = 0 ] || fail "present: exit $rc: $(cat "$work/present.out")"
case $last in
  *"; AFL++ found all in every trial: yes, worst median "*" s") ;;
  *) fail "present: last line '$last'" ;;
esac

exposure off EXPOSURE_NO_AFL=1
case $last in *"; AFL++ not run (EXPOSURE_NO_AFL=1)") ;; *) fail "off: last line '$last'" ;; esac

# make fuzz-exposure installs AFL++ before its builds (scripts/setup.sh fuzz).
if command -v make >/dev/null; then
  plan=$(make -s -n -C "$src" fuzz-exposure 2>/dev/null)
  grep -n "scripts/setup.sh fuzz" <<<"$plan" >/dev/null ||
    fail "make fuzz-exposure does not run scripts/setup.sh fuzz"
  at_setup=$(grep -n "scripts/setup.sh fuzz" <<<"$plan" | head -1 | cut -d: -f1)
  at_afl=$(grep -n "fuzz-afl" <<<"$plan" | head -1 | cut -d: -f1)
  [ -n "$at_setup" ] && [ -n "$at_afl" ] && [ "$at_setup" -lt "$at_afl" ] ||
    fail "make fuzz-exposure: AFL++'s set-up does not come before its build"
fi

[ "$fails" -eq 0 ] && echo "fuzz_exposure_script: all checks passed"
[ "$fails" -eq 0 ]
