#!/usr/bin/env bash
# A test that cannot run is never a pass (tests/skip.sh, tests/skip.h):
# skip_test exits 77 (ctest's skipped), and 1 with CI=true; a validate
# script whose part did not run (not_run) ends skipped after the rest
# passed, failed when the rest failed; the gtest macro fails under CI=true.
# usage: skip_paths.sh IDLESPEC SOURCE_DIR
set -u
src=$2
. "$(dirname "$0")/lib.sh"
tmp=$(mktemp -d /tmp/idlespec-skip-test-XXXXXX)
trap 'rm -rf "$tmp"' EXIT

rc_of() { "$@" >"$tmp/out" 2>&1; echo $?; }
check_rc() {  # check_rc NAME WANT COMMAND...
  local name=$1 want=$2 got
  shift 2
  n=$((n + 1))
  got=$(rc_of "$@")
  if [ "$got" = "$want" ]; then echo "ok   $name"; else fail "$name: exit $got, want $want"; cat "$tmp/out"; fi
}

skip='. "$0"; skip_test "no frobnicator installed"'
check_rc skip-is-77 77 env -u CI sh -c "$skip" "$src/tests/skip.sh"
check_rc skip-in-ci-fails 1 env CI=true sh -c "$skip" "$src/tests/skip.sh"
n=$((n + 1))
grep -q "^SKIP: .*no frobnicator installed" "$tmp/out" && echo "ok   skip-says-why" ||
  fail "skip-says-why: $(cat "$tmp/out")"

# tests/validate/lib.sh's finish: a part not run makes the script skipped,
# unless something failed.
part='HERE=$1; shift; set -- /bin/false 10; . "$HERE/lib.sh"; not_run "sparse missing"'
check_rc part-not-run-skips 77 env -u CI sh -c "$part; finish" sh "$src/tests/validate"
check_rc part-not-run-in-ci-fails 1 env CI=true sh -c "$part; finish" sh "$src/tests/validate"
check_rc part-not-run-and-failure-fails 1 env -u CI sh -c "$part; fail broken; finish" sh "$src/tests/validate"
check_rc everything-ran-passes 0 env -u CI sh -c 'HERE=$1; set -- /bin/false 10; . "$HERE/lib.sh"; finish' sh "$src/tests/validate"

# The gtest macro: skipped outside CI, failed in it.
if command -v g++ >/dev/null && [ -f /usr/include/gtest/gtest.h ]; then
  cat >"$tmp/t.cc" <<'CC'
#include "tests/skip.h"
TEST(Skip, LacksATool) { IDLESPEC_SKIP("no frobnicator"); }
CC
  if g++ -std=c++20 -I"$src" "$tmp/t.cc" -o "$tmp/t" -lgtest -lgtest_main -pthread 2>"$tmp/build.err"; then
    check_rc gtest-skip-outside-ci 0 env -u CI "$tmp/t"
    n=$((n + 1))
    grep -q "SKIPPED" "$tmp/out" && echo "ok   gtest-skip-reported" || fail "gtest-skip-reported: $(cat "$tmp/out")"
    check_rc gtest-skip-in-ci-fails 1 env CI=true "$tmp/t"
  else
    n=$((n + 1)); fail "tests/skip.h does not compile: $(head -3 "$tmp/build.err")"
  fi
else
  skip_test "g++ or googletest is not installed (scripts/setup.sh base)"
fi

echo "$((n - fails)) passed, $fails failed"
[ "$fails" -eq 0 ]
