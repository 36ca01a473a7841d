# tests/validate/lib.sh: what the validate test scripts share (sourced, not
# run). The sourcing script sets HERE (its directory), CLAUSES (the
# component's clause IDs) and COMPONENT (the prefix of its kernel-style
# files, e.g. busy_delay for busy_delay_faithful.c); its arguments are
# IDLESPEC_VALIDATE [BUDGET_SECONDS] [full|sampled].
BIN=${1:?usage: $0 PATH/TO/idlespec-validate [BUDGET_SECONDS] [full|sampled]}
BUDGET=${2:-120}
SCAN=${3:-sampled}
SCRATCH=$(mktemp -d /tmp/idlespec-validate-test-XXXXXX)
trap 'rm -rf "$SCRATCH"' EXIT
FAILS=0
# The host's runs unless the script asks for more (validate --targets: the
# POWER targets have their own scripts, run_byteorder.sh and run_targets.sh).
export IDLESPEC_TARGETS="${IDLESPEC_TARGETS:-host}"
# Frama-C's EVA (validate/framac.h) runs only in the scripts that test it
# (run_framac.sh sets FRAMAC=1 before sourcing this file): the others judge
# the tests' verdicts, and EVA would add seconds to every run.
[ -n "${FRAMAC:-}" ] || export IDLESPEC_FRAMAC=none

fail() { echo "FAIL: $*"; FAILS=$((FAILS + 1)); }
# skip_test REASON: exit 77, ctest's "skipped" (a failure in CI).
. "$HERE/../skip.sh"

# run NAME ARGS...: output in $SCRATCH/NAME.out/.err, exit code in $RC, seconds in $SECS;
# $RUN_DEFAULTS (if the script sets it) goes before ARGS, which may override it
run() {
  name=$1; shift
  t0=$(date +%s.%N)
  # shellcheck disable=SC2086  # RUN_DEFAULTS: options the script puts before each run's own
  "$BIN" ${RUN_DEFAULTS:-} "$@" >"$SCRATCH/$name.out" 2>"$SCRATCH/$name.err"
  RC=$?
  SECS=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
  echo "$name: exit $RC, ${SECS}s"
}

# expect_clause NAME CLAUSE STATUS: the report of NAME has CLAUSE with STATUS
expect_clause() {
  grep -q "^$2 \[[a-z0-9_]*\] $3\b" "$SCRATCH/$1.out" ||
    fail "$1: expected $2 $3, got: $(grep "^$2 " "$SCRATCH/$1.out" || echo nothing)"
}

# expect_where NAME CLAUSE STATUS WHERE: CLAUSE has STATUS overall and the
# report says where, per target ("failed on host and ppc64le, held on ppc64
# (big-endian)"), in the text and in --json's per-target verdicts
expect_where() {
  grep -qF -- "$2 [" "$SCRATCH/$1.out" || { fail "$1: no $2"; return; }
  # (a proof level, Frama-C's word, may stand between the status and where)
  grep -F -- "$2 [" "$SCRATCH/$1.out" | grep -F -- "] $3" | grep -qF -- " ($4)" ||
    fail "$1: expected $2 $3 ($4), got: $(grep -F -- "$2 [" "$SCRATCH/$1.out")"
}

# expect_only_failed NAME CLAUSE...: exactly these clauses failed, all others held
# expect_only_failed NAME CLAUSE...: exactly these clauses failed, those of
# $ACCEPTED (a script may set it: clauses whose violation the spec accepts
# and the file shows) accepted, all others held
expect_only_failed() {
  name=$1; shift
  for c in $CLAUSES; do
    case " $* " in
      *" $c "*) expect_clause "$name" "$c" failed ;;
      *)
        case " ${ACCEPTED:-} " in
          *" $c "*) expect_clause "$name" "$c" accepted ;;
          *) expect_clause "$name" "$c" held ;;
        esac ;;
    esac
  done
}

# expect_text NAME TEXT: the report mentions TEXT (fixed string)
expect_text() { grep -qF -- "$2" "$SCRATCH/$1.out" || fail "$1: report lacks '$2'"; }

# expect_property_held NAME: RapidCheck ran on NAME and no case failed:
# all --cases of them (100 by default) held, or its time ran out first (a
# sanitizer build on a loaded machine) after at least one case held. Which
# of the two depends on the machine's speed, so both are accepted; a
# falsified property, no case at all or cases without a harness run fail.
expect_property_held() {
  line=$(grep -o "RapidCheck: [0-9]* generated cases (seed [0-9]*), [0-9]* harness runs, [0-9.]* s; .*" "$SCRATCH/$1.out" | head -n 1)
  cases=$(echo "$line" | sed -n 's/^RapidCheck: \([0-9]*\) generated cases.*/\1/p')
  runs=$(echo "$line" | sed -n 's/^RapidCheck: [0-9]* generated cases (seed [0-9]*), \([0-9]*\) harness runs.*/\1/p')
  case $line in
    *"; every case held") [ "$cases" = 100 ] && [ "$runs" = 100 ] ||
      fail "$1: expected 100 RapidCheck cases and harness runs, got: $line" ;;
    *"; the time for it ("*" s) ran out before 100 cases")
      [ "${cases:-0}" -ge 1 ] && [ "$cases" = "$runs" ] ||
        fail "$1: RapidCheck ran no case to the end: $line" ;;
    *) fail "$1: expected RapidCheck's cases held (all 100, or some before its time ran out), got: ${line:-no RapidCheck note}" ;;
  esac
}

expect_rc() { [ "$RC" = "$2" ] || fail "$1: exit $RC, expected $2"; }

# A driver crash shows as a signal exit (>= 128) or a missing summary line.
expect_no_driver_crash() {
  [ "$RC" -lt 128 ] || fail "$1: the driver died (exit $RC)"
  grep -q "held, .* failed" "$SCRATCH/$1.out" || fail "$1: no summary line"
}

src() { echo "$HERE/${COMPONENT}_$1.c"; }

# variant NAME SED-SCRIPT: the faithful file with one injected bug, at the
# line marked "variant: NAME", written to $SCRATCH; src_variant prints it.
variant() {
  sed "$2" "$(src faithful)" >"$SCRATCH/${COMPONENT}_$1.c"
  cmp -s "$(src faithful)" "$SCRATCH/${COMPONENT}_$1.c" && fail "$1: the variant changed nothing"
}
src_variant() { echo "$SCRATCH/${COMPONENT}_$1.c"; }

# finish: the verdict of the whole script.
# not_run REASON: a part of the script could not run (a tool is missing);
# finish then reports the script skipped, not passed (skip_test).
NOT_RUN=
not_run() { echo "not run: $*"; NOT_RUN="${NOT_RUN:+$NOT_RUN; }$*"; }

finish() {
  if [ "$FAILS" -ne 0 ]; then
    echo "$(basename "$0"): $FAILS failure(s); reports kept in $SCRATCH"
    trap - EXIT
    exit 1
  fi
  [ -z "$NOT_RUN" ] || skip_test "the rest passed, but not all of it ran: $NOT_RUN"
  echo "$(basename "$0"): all passed"
}
