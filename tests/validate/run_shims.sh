#!/bin/sh
# ctest: budget=30 timeout=400
# tests/validate/run_shims.sh IDLESPEC_VALIDATE [BUDGET_SECONDS]
#
# What the shims lack becomes verdicts, not "the harness does not compile"
# for the whole file (extract/extract.h, drop_failing_items and
# explain_build_error; build_harness in validate.cc):
#
# - a pulled-in function that is not on the judged path (a state table's
#   .enter) and does not compile or link is dropped with a note, a stub in
#   its place, and the functions under test are judged as usual;
# - an identifier the file brings that the shims lack, in what the judged
#   function needs, makes that function's clauses `error` naming the shim
#   line that would define it; the file's other functions are judged.
#
# The inputs are this suite's faithful files changed with sed into the
# shapes of the texts that did not compile: a development branch's
# dedicated_cede_loop() on lppaca.byte_b9 and LPPACA_DONATE_DED_CPU_CYCLES,
# an extern `cede_latency_override` defined elsewhere in the kernel (a link
# error), a proposed patch's CPUIDLE_FLAG_POLLING_SOFT in cpuidle-pseries.c
# and menu.c, and a derivative's MAX_STOP_STATE in power9_idle_stop().
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

# The same loop reading a variable the rest of the kernel defines: a link
# error in a pulled-in function, the same treatment.
variant cede_override_loop '/^static int dedicated_cede_loop(/i\
extern unsigned int cede_latency_override;
/lp->donate_dedicated_cpu = 1;/s/= 1;/= cede_latency_override ? 0 : 1;/'
run cede_override_loop --source "$(src_variant cede_override_loop)" $PSERIES
expect_rc cede_override_loop 0
expect_only_failed cede_override_loop
expect_text cede_override_loop ") does not link with the shims: dropped"

# The variable read by the probe itself: the probe's clauses are an error
# naming what would define it; the fix-up (its own build) and the parser
# are judged.
variant cede_override_probe '/^static int pseries_idle_probe(/i\
extern unsigned int cede_latency_override;
/variant: too_many_states/a\
		if (cede_latency_override)\
			max_idle_state = 1;'
run cede_override_probe --source "$(src_variant cede_override_probe)" $PSERIES
expect_rc cede_override_probe 3
for c in XCEDE-1 XCEDE-2 XCEDE-3 XCEDE-4 XCEDE-5 XCEDE-6 XCEDE-7 STATES-3 STATES-4; do
  expect_clause cede_override_probe "$c" held
done
for c in STATES-1 STATES-2 STATES-5 STATES-6; do
  expect_clause cede_override_probe "$c" error
done
expect_text cede_override_probe "cede_latency_override: not in the shims (the linker found no definition); harness/shims/states_env.h would need a definition of the variable \`cede_latency_override\`"

# A proposed patch renames CPUIDLE_FLAG_POLLING: the tables use it, so the
# fix-up and the probe (which need the tables) are an error naming the shim
# line; the parser, which does not, is judged.
variant polling_soft 's/CPUIDLE_FLAG_POLLING,/CPUIDLE_FLAG_POLLING_SOFT,/'
run polling_soft --source "$(src_variant polling_soft)" $PSERIES
expect_rc polling_soft 3
for c in XCEDE-1 XCEDE-2 XCEDE-3 XCEDE-4 XCEDE-5 XCEDE-6 XCEDE-7; do
  expect_clause polling_soft "$c" held
done
for c in STATES-1 STATES-2 STATES-3 STATES-4 STATES-5 STATES-6; do
  expect_clause polling_soft "$c" error
done
expect_text polling_soft "the harness does not compile: CPUIDLE_FLAG_POLLING_SOFT: not in the shims; harness/shims/cpuidle.h would need \`#define CPUIDLE_FLAG_POLLING_SOFT ...\`"
# The table dropped on the way is not what the report blames.
grep -q "dedicated_states: not in the shims" "$SCRATCH/polling_soft.out" &&
  fail "polling_soft: the report blames the dropped table"

# The same rename in menu.c: menu_select() and menu_update() both use the
# flag, so every GOV clause is an error naming the shim line.
sed 's/CPUIDLE_FLAG_POLLING)/CPUIDLE_FLAG_POLLING_SOFT)/' "$HERE/governor_faithful.c" >"$SCRATCH/menu_polling_soft.c"
cmp -s "$HERE/governor_faithful.c" "$SCRATCH/menu_polling_soft.c" && fail "menu_polling_soft: sed changed nothing"
run menu_polling_soft --source "$SCRATCH/menu_polling_soft.c" --component governor
expect_rc menu_polling_soft 3
for c in GOV-1 GOV-2 GOV-3 GOV-4 GOV-5 GOV-7 GOV-8 GOV-9; do
  expect_clause menu_polling_soft "$c" error
done
expect_text menu_polling_soft "CPUIDLE_FLAG_POLLING_SOFT: not in the shims; harness/shims/cpuidle.h would need \`#define CPUIDLE_FLAG_POLLING_SOFT ...\`"

# A derivative's idle.c bounds the requested level by MAX_STOP_STATE, which
# its headers define: power9_idle_stop()'s clauses name idle_env.h.
sed '/went_deep = (psscr & PSSCR_RL_MASK)/i\
	if ((psscr \& PSSCR_RL_MASK) >= MAX_STOP_STATE)\
		return 0;' "$HERE/idle_core_faithful.c" >"$SCRATCH/idle_max_stop.c"
cmp -s "$HERE/idle_core_faithful.c" "$SCRATCH/idle_max_stop.c" && fail "idle_max_stop: sed changed nothing"
run idle_max_stop --source "$SCRATCH/idle_max_stop.c" --component idle_core --no-sanitizers
expect_rc idle_max_stop 3
for c in IDLE-1 IDLE-2 IDLE-3 IDLE-7 IDLE-8 IDLE-9; do
  expect_clause idle_max_stop "$c" error
done
expect_text idle_max_stop "MAX_STOP_STATE: not in the shims; harness/shims/idle_env.h would need \`#define MAX_STOP_STATE ...\`"

finish
