#!/bin/sh
# ctest: budget=30 timeout=400
# tests/validate/run_shims.sh IDLESPEC_VALIDATE [BUDGET_SECONDS]
#
# What the shims lack becomes verdicts, not "the harness does not compile"
# for the whole file (extract/extract.h, drop_failing_items and
# explain_build_error; build_harness in harness_build.cc):
#
# - a pulled-in function that is not on the judged path (a state table's
#   .enter) and does not compile or link is dropped with a note, a stub in
#   its place, and the functions under test are judged as usual;
# - an identifier the file brings that the shims lack, in what the judged
#   function needs, makes that function's clauses `error` naming the shim
#   line that would define it; the file's other functions are judged;
# - an identifier whose meaning is fixed outside the file (issue 53) has a
#   value in the shims, and the clauses of a function that uses it are
#   judged, their note saying which value was assumed
#   (validate/assumed_values.h): a Power ISA constant (MAX_STOP_STATE, 0xF),
#   a proposed patch's flag tested against a state's flags
#   (CPUIDLE_FLAG_POLLING_SOFT, a bit of its own set on the polling
#   states), a variable another file of the kernel defines
#   (cede_latency_override, declared extern: the harness defines it as 0).
#
# The inputs are this suite's faithful files changed with sed into the
# shapes of the real texts: a development branch's dedicated_cede_loop() on
# lppaca.byte_b9 and LPPACA_DONATE_DED_CPU_CYCLES, an extern
# `cede_latency_override` defined elsewhere in the kernel (a link error
# before), a proposed patch's CPUIDLE_FLAG_POLLING_SOFT in cpuidle-pseries.c
# and menu.c, and a derivative's MAX_STOP_STATE in idle.c (its levels'
# initial values, as upstream writes them, and a bound in
# power9_idle_stop()); and a file with an identifier nothing defines.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
CLAUSES="XCEDE-1 XCEDE-2 XCEDE-3 XCEDE-4 XCEDE-5 XCEDE-6 XCEDE-7 STATES-1 STATES-2 STATES-3 STATES-4 STATES-5 STATES-6"
COMPONENT=pseries
. "$HERE/lib.sh"

cat "$HERE/xcede_faithful.c" "$HERE/states_fixup.c" >"$SCRATCH/pseries_faithful.c"
src() { echo "$SCRATCH/pseries_$1.c"; }
RUN_DEFAULTS="--fuzz 0 --inputs generated --budget $BUDGET"
PSERIES="--component xcede --component states"

# A development branch: the dedicated CEDE loop donates its cycles through a
# flag byte of the lppaca the shims do not have. The loop is only the
# dedicated table's .enter: stubbed, and every clause judged as on the
# faithful file.
variant lppaca_byte '/lp->donate_dedicated_cpu = 1;/s/.*/\tlp->byte_b9 |= LPPACA_DONATE_DED_CPU_CYCLES;/'
run lppaca_byte --source "$(src_variant lppaca_byte)" $PSERIES
expect_rc lppaca_byte 0
expect_only_failed lppaca_byte
expect_no_driver_crash lppaca_byte
expect_text lppaca_byte "function dedicated_cede_loop (line "
expect_text lppaca_byte ") does not compile with the shims: dropped (its body replaced by a stub that stops the harness if it is called)"

# The same loop reading a variable the rest of the kernel defines: the
# harness defines it (0, no override), nothing is dropped.
variant cede_override_loop '/^static int dedicated_cede_loop(/i\
extern unsigned int cede_latency_override;
/lp->donate_dedicated_cpu = 1;/s/= 1;/= cede_latency_override ? 0 : 1;/'
run cede_override_loop --source "$(src_variant cede_override_loop)" $PSERIES
expect_rc cede_override_loop 0
expect_only_failed cede_override_loop
grep -q "does not link with the shims" "$SCRATCH/cede_override_loop.out" &&
  fail "cede_override_loop: the loop was dropped"
ASSUMED_CEDE="assumed cede_latency_override = 0 (defined in another file of the kernel; no override: the table spec/states.md describes)"
expect_text cede_override_loop "$ASSUMED_CEDE"

# The variable read by the probe itself: every clause judged as on the
# faithful file, the probe's saying what it assumed.
variant cede_override_probe '/^static int pseries_idle_probe(/i\
extern unsigned int cede_latency_override;
/variant: too_many_states/a\
		if (cede_latency_override)\
			max_idle_state = 1;'
run cede_override_probe --source "$(src_variant cede_override_probe)" $PSERIES --json
expect_rc cede_override_probe 0
# note_of NAME CLAUSE FUNCTION: the clause's note in NAME's --json report
note_of() {
  python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))
for c in r["clauses"]:
    if c["id"] == sys.argv[2] and c["function"] == sys.argv[3]:
        print(c["status"] + "|" + c.get("note", ""))
' "$SCRATCH/$1.out" "$2" "$3"
}
for c in STATES-1 STATES-2 STATES-5 STATES-6; do
  got=$(note_of cede_override_probe "$c" pseries_idle_probe)
  case $got in
    held\|*"$ASSUMED_CEDE"*) ;;
    *) fail "cede_override_probe: $c: expected held with the assumed value in its note, got '$got'" ;;
  esac
done
# The parser does not use it: its clauses say nothing of it.
got=$(note_of cede_override_probe XCEDE-1 parse_cede_parameters)
case $got in
  held\|*cede_latency_override*) fail "cede_override_probe: XCEDE-1's note names what its function does not use" ;;
  held\|*) ;;
  *) fail "cede_override_probe: XCEDE-1: '$got'" ;;
esac

# Witness: a file that defines the variable itself (a module parameter of
# its own) keeps its value, and no note says the harness assumed one. Its
# value 1 takes the probe's bail-out, so STATES-5/6 see a one-state table.
variant cede_override_own '/^static int pseries_idle_probe(/i\
static unsigned int cede_latency_override = 1;
/variant: too_many_states/a\
		if (cede_latency_override)\
			max_idle_state = 1;'
run cede_override_own --source "$(src_variant cede_override_own)" $PSERIES
grep -qF "assumed cede_latency_override" "$SCRATCH/cede_override_own.out" &&
  fail "cede_override_own: a note assumes the value the file defines"
grep -q "^STATES-[0-9]* \[[a-z0-9_]*\] error" "$SCRATCH/cede_override_own.out" &&
  fail "cede_override_own: a clause is an error: $(grep "error" "$SCRATCH/cede_override_own.out" | head -3)"

# A proposed patch renames CPUIDLE_FLAG_POLLING in the tables: the flag is a
# bit of its own, every clause judged as on the faithful file, and the
# clauses of the functions that use the tables say what was assumed.
ASSUMED_SOFT="assumed CPUIDLE_FLAG_POLLING_SOFT = 1 << 24"
variant polling_soft 's/CPUIDLE_FLAG_POLLING,/CPUIDLE_FLAG_POLLING_SOFT,/'
run polling_soft --source "$(src_variant polling_soft)" $PSERIES
expect_rc polling_soft 0
expect_only_failed polling_soft
expect_text polling_soft "$ASSUMED_SOFT"

# The same rename in menu.c, where the flag's only use is a test against a
# state's flags: the harness sets it on each polling state, and every GOV
# clause gets the faithful file's verdict.
sed 's/CPUIDLE_FLAG_POLLING)/CPUIDLE_FLAG_POLLING_SOFT)/' "$HERE/governor_faithful.c" >"$SCRATCH/menu_polling_soft.c"
cmp -s "$HERE/governor_faithful.c" "$SCRATCH/menu_polling_soft.c" && fail "menu_polling_soft: sed changed nothing"
grep -q "CPUIDLE_FLAG_POLLING\b" "$SCRATCH/menu_polling_soft.c" && fail "menu_polling_soft: a test of CPUIDLE_FLAG_POLLING is left"
run menu_polling_soft --source "$SCRATCH/menu_polling_soft.c" --component governor
soft_rc=$RC
run menu_faithful --source "$HERE/governor_faithful.c" --component governor
[ "$soft_rc" = "$RC" ] || fail "menu_polling_soft: exit $soft_rc, the faithful file's $RC"
verdicts() { grep -E '^GOV-[0-9]+ \[' "$SCRATCH/$1.out" | awk '{ print $1, $2, $3 }'; }
[ -n "$(verdicts menu_faithful)" ] || fail "menu_faithful: no GOV verdicts"
[ "$(verdicts menu_polling_soft)" = "$(verdicts menu_faithful)" ] ||
  fail "menu_polling_soft: verdicts differ from the faithful file's: $(verdicts menu_polling_soft | tr '\n' ';') vs $(verdicts menu_faithful | tr '\n' ';')"
expect_text menu_polling_soft "$ASSUMED_SOFT"

# A derivative's idle.c: the levels' initial values from MAX_STOP_STATE, as
# upstream writes them, with the #define in a header of its own; and a
# bound on the requested level in power9_idle_stop(). The Power ISA's 0xF.
ASSUMED_STOP="assumed MAX_STOP_STATE = 0xF (the Power ISA's greatest stop level: PSSCR[RL] is 4 bits)"
sed 's/= 0xF + 1;/= MAX_STOP_STATE + 1;/' "$HERE/idle_core_faithful.c" >"$SCRATCH/idle_max_stop.c"
cmp -s "$HERE/idle_core_faithful.c" "$SCRATCH/idle_max_stop.c" && fail "idle_max_stop: sed changed nothing"
sed '/went_deep = (psscr & PSSCR_RL_MASK)/i\
	if ((psscr \& PSSCR_RL_MASK) > MAX_STOP_STATE)\
		return 0;' "$SCRATCH/idle_max_stop.c" >"$SCRATCH/idle_max_stop_bound.c"
cmp -s "$SCRATCH/idle_max_stop.c" "$SCRATCH/idle_max_stop_bound.c" && fail "idle_max_stop_bound: sed changed nothing"
for v in idle_max_stop idle_max_stop_bound; do
  run "$v" --source "$SCRATCH/$v.c" --component idle_core --subject reference --no-sanitizers
  expect_rc "$v" 0
  for c in IDLE-1 IDLE-2 IDLE-3 IDLE-7 IDLE-8 IDLE-9; do
    expect_clause "$v" "$c" held
  done
  expect_text "$v" "$ASSUMED_STOP"
done
# Witness: the file's own #define is no assumption.
sed '/^static u64 pnv_first_tb_loss_level/i\
#define MAX_STOP_STATE 0xF' "$SCRATCH/idle_max_stop.c" >"$SCRATCH/idle_own_max_stop.c"
run idle_own_max_stop --source "$SCRATCH/idle_own_max_stop.c" --component idle_core --subject reference --no-sanitizers
expect_rc idle_own_max_stop 0
grep -qF "assumed MAX_STOP_STATE" "$SCRATCH/idle_own_max_stop.out" &&
  fail "idle_own_max_stop: a note assumes the value the file defines"

# An identifier nothing defines is still an error naming the shim line: a
# derivative's flag in menu.c that no shim assumes.
sed 's/CPUIDLE_FLAG_POLLING)/CPUIDLE_FLAG_POLLING_VENDOR)/' "$HERE/governor_faithful.c" >"$SCRATCH/menu_vendor_flag.c"
run menu_vendor_flag --source "$SCRATCH/menu_vendor_flag.c" --component governor --no-sanitizers
expect_rc menu_vendor_flag 3
for c in GOV-1 GOV-2 GOV-3 GOV-4 GOV-5 GOV-7 GOV-8 GOV-9; do
  expect_clause menu_vendor_flag "$c" error
done
expect_text menu_vendor_flag "CPUIDLE_FLAG_POLLING_VENDOR: not in the shims; harness/shims/cpuidle.h would need \`#define CPUIDLE_FLAG_POLLING_VENDOR ...\`"

finish
