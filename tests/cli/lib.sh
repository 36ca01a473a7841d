# tests/cli/lib.sh: what the command-line test scripts share (sourced, not
# run): the pass/fail counters, fail and expect. Each script ends with
#   echo "$((n - fails)) passed, $fails failed"; [ "$fails" -eq 0 ]
fails=0
n=0

fail() { echo "FAIL $*"; fails=$((fails + 1)); }
# skip_test REASON: exit 77, ctest's "skipped" (a failure in CI).
. "$(dirname "$0")/../skip.sh"

# expect NAME WANT_RC GREP_PATTERN -- COMMAND...: the command's exit code
# is WANT_RC and its stdout+stderr match the extended regular expression.
expect() {
  local name=$1 want=$2 pattern=$3
  shift 4
  local out rc
  n=$((n + 1))
  out=$("$@" 2>&1)
  rc=$?
  if [ "$rc" != "$want" ]; then
    fail "$name: exit $rc, want $want (pattern /$pattern/)"
    echo "$out" | head -20
    return
  fi
  if ! grep -qE -- "$pattern" <<<"$out"; then
    fail "$name: output lacks /$pattern/"
    echo "$out" | head -20
    return
  fi
  echo "ok   $name"
}
