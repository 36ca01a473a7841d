# tests/validate/framac_lib.sh: sourced after lib.sh by the run_framac*.sh
# scripts (Frama-C on the file's own text, validate/framac.h). Skips the
# script (skip_test: exit 77) when frama-c is not installed; defines the
# checks of a clause's proof level and of EVA's alarms in a report.

if ! command -v frama-c >/dev/null 2>&1; then
  skip_test "frama-c is not installed (scripts/setup.sh framac)"
fi
PROVEN="(proven: Frama-C EVA, 0 alarms over the spec's ranges, "
TESTED="held (tested; EVA could not prove it: "

# expect_level NAME CLAUSE TEXT: the clause's verdict line carries TEXT
expect_level() {
  grep "^$2 \[" "$SCRATCH/$1.out" | grep -qF -- "$3" ||
    fail "$1: expected $2 with '$3', got: $(grep "^$2 " "$SCRATCH/$1.out" || echo nothing)"
}
# expect_eva_beside NAME CLAUSE TEXT: under the failed clause, an "EVA: ..." line with TEXT
expect_eva_beside() {
  awk -v c="$2" '$1 == c { on = 1; next } /^[A-Z]+-[0-9]+ \[/ { on = 0 } on' "$SCRATCH/$1.out" |
    grep "^    EVA: " | grep -qF -- "$3" ||
    fail "$1: no 'EVA: ...$3' beside $2's counterexample"
}
# expect_no_shim_alarm NAME: no property EVA left unproven is in the shims
expect_no_shim_alarm() {
  grep -q " at harness/shims/" "$SCRATCH/$1.out" &&
    fail "$1: EVA raised an alarm in the shims: $(grep -o " at harness/shims/[^ )]*" "$SCRATCH/$1.out" | head -n 1)"
  return 0
}
