#!/bin/sh
# ctest: budget=40 timeout=600
# tests/validate/run_review_history.sh IDLESPEC_VALIDATE [BUDGET_SECONDS]
#
# `idlespec review` on patches shaped like upstream's own history (this
# suite's kernel-style files, changed with sed; no kernel text):
#   - a clause failed before and after whose failing inputs changed: the
#     inputs the patch newly breaks (or breaks another way) are a change
#     (one counterexample, exit 1), those it repairs are counted (BUSY-7 in
#     early boot when extended delays start to sleep before the scheduler
#     runs, as 38f7b7067dae did; STATES-4 on the 0-latency record, as
#     71737a6c2a8f repaired it, with the inputs the old defaults had hidden
#     newly failing); BUSY-6 named beside BUSY-1/-2/-3/-5;
#   - STATES-6 judged only where the CEDE(0) fix-up runs: a parser-only file
#     (054e44ba99ae's shape) has it absent, and the ungated fix-up
#     (d947fb4c965c's) fails it: absent -> failed;
#   - IDLE-7 failed before and after (CIABR lost, as before 250ad7a45b1e):
#     LDBAR written back by every thread again is a repaired input
#     (f5a9e488d623), written back once per core a newly failing one;
#   - a compiler that cannot be started is an error that says why, in the
#     text and the JSON, after a second try.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
CLAUSES=""
COMPONENT=review
. "$HERE/lib.sh"

# tree DIR PATH FILE: a kernel tree holding FILE at PATH.
tree() {
  mkdir -p "$1/$(dirname "$2")" && cp "$3" "$1/$2"
}
# patch_of OUT PATH BEFORE AFTER SUBJECT: a git-style patch from BEFORE to AFTER at PATH.
patch_of() {
  {
    printf 'From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001\n'
    printf 'Subject: [PATCH] %s\n\n---\n' "$5"
    diff -u --label "a/$2" --label "b/$2" "$3" "$4"
  } >"$1"
  grep -q '^@@' "$1" || fail "$1: the patch changes nothing"
}

# --- BUSY-7: newly failing inputs ------------------------------------------
# Before: the legacy policy (no early-boot helper: an extended delay retries
# forever without a delay, BUSY-7 failed). After: -2 yields with
# cond_resched() and an extended delay always sleeps, also before the
# scheduler runs: -2's early-boot steps, which held, fail now.
BEFORE="$SCRATCH/rtas_before.c"
AFTER="$SCRATCH/rtas_after.c"
cp "$HERE/busy_delay_legacy.c" "$BEFORE"
sed -e 's/^\tif (need_resched())$/\tif (status == RTAS_BUSY) {\n\t\tcond_resched();\n\t\treturn 1;\n\t}\n\tif (1)/' \
  "$BEFORE" >"$AFTER"
cmp -s "$BEFORE" "$AFTER" && fail "busy: the after file changed nothing"
tree "$SCRATCH/busy_tree" arch/powerpc/kernel/rtas.c "$BEFORE"
patch_of "$SCRATCH/busy.patch" arch/powerpc/kernel/rtas.c "$BEFORE" "$AFTER" \
  "powerpc/rtas: yield on busy and always sleep on extended delays"
run busy review "$SCRATCH/busy.patch" --kernel-tree "$SCRATCH/busy_tree" --scan sampled \
  --budget "$BUDGET" --no-sanitizers --markdown "$SCRATCH/busy.md"
expect_rc busy 1
expect_text busy "BUSY-7 [rtas_busy_delay] failed -> failed: "
# The early-boot extended delays failed before by not delaying at all and
# fail after by sleeping before the scheduler runs: another failure on the
# same inputs, a change (exit 1).
expect_text busy " input(s) failing another way"
expect_text busy "NEWLY FAILING INPUTS"
grep -A1 "failing another way, e.g.:" "$SCRATCH/busy.out" | grep -q "early boot" ||
  fail "busy: the BUSY-7 input failing another way is not an early-boot one"
grep -q "^| BUSY-7 | .* | failed | \*\*failed\*\* | [0-9]* input(s) failing another way" "$SCRATCH/busy.md" ||
  fail "busy: the Markdown does not count the inputs failing another way"
# BUSY-6 is named beside the per-call clauses the patch changed.
expect_text busy "BUSY-6 [rtas_busy_delay] "
expect_text busy "(follows from BUSY-1/-2/-3/-5 here; changed: "

# The same clause failing on the same inputs after a patch that changes
# nothing it judges: no change, exit 0.
sed 's/^\/\* Says whether to call firmware again/\/* Whether to call firmware again/' "$BEFORE" >"$SCRATCH/rtas_comment.c"
patch_of "$SCRATCH/comment.patch" arch/powerpc/kernel/rtas.c "$BEFORE" "$SCRATCH/rtas_comment.c" \
  "powerpc/rtas: reword a comment"
run comment review "$SCRATCH/comment.patch" --kernel-tree "$SCRATCH/busy_tree" --scan sampled \
  --budget "$BUDGET" --no-sanitizers
expect_rc comment 0
expect_text comment "no clause changed its verdict"
grep -q "newly failing\|repaired" "$SCRATCH/comment.out" && fail "comment: inputs compared as changed"

# A patch after which the file no longer compiles: every clause becomes
# `error` (exit 3), and each changed clause says why (the compiler's words).
sed 's/^\tif (need_resched())$/\tif (no_such_flag_here)/' "$BEFORE" >"$SCRATCH/rtas_broken.c"
cmp -s "$BEFORE" "$SCRATCH/rtas_broken.c" && fail "broken: the file did not change"
patch_of "$SCRATCH/broken.patch" arch/powerpc/kernel/rtas.c "$BEFORE" "$SCRATCH/rtas_broken.c" \
  "powerpc/rtas: a line that does not compile"
run broken review "$SCRATCH/broken.patch" --kernel-tree "$SCRATCH/busy_tree" --scan sampled \
  --budget "$BUDGET" --no-sanitizers --targets host
expect_rc broken 3
expect_text broken "BUSY-7 [rtas_busy_delay] failed -> error"
grep -A1 "BUSY-7 \[rtas_busy_delay\] failed -> error" "$SCRATCH/broken.out" | grep -q "why: the harness does not compile" ||
  fail "broken: the error does not say why"

# --- STATES-4: repaired inputs ----------------------------------------------
cat "$HERE/xcede_faithful.c" "$HERE/states_fixup.c" >"$SCRATCH/states_faithful.c"
# After: every conversion rounds down (STATES-4 fails on latencies that are
# not whole µs). Before: that, and a record of 0 µs taken as the smallest
# (CEDE keeps its defaults): STATES-4 fails on the 0-latency record too.
sed 's/DIV_ROUND_UP_ULL(ns, NSEC_PER_USEC)/ns \/ NSEC_PER_USEC/' "$SCRATCH/states_faithful.c" >"$SCRATCH/states_after.c"
sed -e 's/^\t\tif (us == 0) {$/\t\tif (0) {/' \
  -e 's/if (lowest_us == 0 || us < lowest_us)/if (i == 0 || us < lowest_us)/' \
  "$SCRATCH/states_after.c" >"$SCRATCH/states_before.c"
cmp -s "$SCRATCH/states_after.c" "$SCRATCH/states_before.c" && fail "states: the before file changed nothing"
tree "$SCRATCH/states_tree" drivers/cpuidle/cpuidle-pseries.c "$SCRATCH/states_before.c"
patch_of "$SCRATCH/states.patch" drivers/cpuidle/cpuidle-pseries.c "$SCRATCH/states_before.c" \
  "$SCRATCH/states_after.c" "cpuidle: pseries: skip the 0-latency record"
run states review "$SCRATCH/states.patch" --kernel-tree "$SCRATCH/states_tree" --component states \
  --budget "$BUDGET" --no-sanitizers --inputs generated,z3
# The 0-latency records are repaired; where the smallest other record is
# 10 µs the defaults CEDE kept before happened to be right, and the
# truncation now shows there: newly failing inputs too (exit 1).
expect_rc states 1
expect_text states "STATES-4 [fixup_cede0_latency] failed -> failed: "
expect_text states " repaired input(s)"
expect_text states "repaired, e.g. (before the patch):"
grep -A1 "repaired, e.g." "$SCRATCH/states.out" | grep -q "0 ticks = 0 µs" ||
  fail "states: the repaired STATES-4 input has no 0-latency record"
grep -A1 "newly failing, e.g." "$SCRATCH/states.out" | grep -q "0 ticks = 0 µs.*10 µs" ||
  fail "states: the newly failing STATES-4 input is not one the defaults hid"

# --- STATES-6: judged where the fix-up runs ----------------------------------
# Before: the XCEDE parser alone, which the probe calls on a dedicated LPAR
# (no fix-up). After: the fix-up on every dedicated LPAR, ungated.
sed -e '/^static void __init fixup_cede0_latency(void)$/,/^}$/d' \
  -e '/if (cede0_latency_from_firmware())/{N;s/.*\n.*/\t\tparse_cede_parameters();/}' \
  -e '/^static bool cede0_latency_from_firmware(void)$/,/^}$/d' \
  "$SCRATCH/states_faithful.c" >"$SCRATCH/parser_only.c"
grep -q fixup_cede0_latency "$SCRATCH/parser_only.c" && fail "parser_only: the fix-up is still there"
sed 's/if (cede0_latency_from_firmware())/if (1)/' "$SCRATCH/states_faithful.c" >"$SCRATCH/ungated.c"
run parser_only --source "$SCRATCH/parser_only.c" --component states --budget "$BUDGET" --no-sanitizers --inputs generated
expect_rc parser_only 0
grep -q "^STATES-6 \[pseries_idle_probe\] absent" "$SCRATCH/parser_only.out" ||
  fail "parser_only: STATES-6 is not absent: $(grep '^STATES-6' "$SCRATCH/parser_only.out")"
expect_text parser_only "the text has no CEDE(0) fix-up"
tree "$SCRATCH/gate_tree" drivers/cpuidle/cpuidle-pseries.c "$SCRATCH/parser_only.c"
patch_of "$SCRATCH/gate.patch" drivers/cpuidle/cpuidle-pseries.c "$SCRATCH/parser_only.c" \
  "$SCRATCH/ungated.c" "cpuidle: pseries: fix up CEDE(0)'s latency from firmware"
run gate review "$SCRATCH/gate.patch" --kernel-tree "$SCRATCH/gate_tree" --component states \
  --budget "$BUDGET" --no-sanitizers --inputs generated
expect_rc gate 1
expect_text gate "STATES-6 [pseries_idle_probe] absent -> failed"
expect_text gate "POWER8, dedicated LPAR; firmware answers status 0 with 2 record(s): the CEDE(0) fix-up ran"

# --- IDLE-7: a register repaired or lost while another stays lost -----------
# Both files lose CIABR across a deep stop (as upstream did before
# 250ad7a45b1e), so IDLE-7 fails on both sides; the failing inputs are per
# job and register. Moving LDBAR from the per-thread write-back to the core's
# first thread (10d91611f426's shape) makes the siblings lose it too: newly
# failing inputs (exit 1). Moving it back (f5a9e488d623's fix): repaired.
sed 's/SPRN_PID, SPRN_DSCR, SPRN_CIABR,/SPRN_PID, SPRN_DSCR,/' "$HERE/idle_core_faithful.c" >"$SCRATCH/idle_ldbar_thread.c"
sed -e 's/{ SPRN_PTCR, SPRN_RPR, SPRN_TSCR }/{ SPRN_PTCR, SPRN_RPR, SPRN_TSCR, SPRN_LDBAR }/' \
  -e '/^\tSPRN_LDBAR,$/d' "$SCRATCH/idle_ldbar_thread.c" >"$SCRATCH/idle_ldbar_core.c"
cmp -s "$HERE/idle_core_faithful.c" "$SCRATCH/idle_ldbar_thread.c" && fail "idle: CIABR is still written back"
cmp -s "$SCRATCH/idle_ldbar_thread.c" "$SCRATCH/idle_ldbar_core.c" && fail "idle: LDBAR did not move"
IDLE=arch/powerpc/platforms/powernv/idle.c
# ldbar_review NAME FROM TO SUBJECT RC KIND: review FROM -> TO on a tree
# holding FROM; exit RC, IDLE-7 failed on both sides, and the first input of
# KIND ("repaired" or "newly failing") is one of LDBAR's.
ldbar_review() {
  tree "$SCRATCH/$1_tree" "$IDLE" "$2"
  patch_of "$SCRATCH/$1.patch" "$IDLE" "$2" "$3" "$4"
  run "$1" review "$SCRATCH/$1.patch" --kernel-tree "$SCRATCH/$1_tree" \
    --budget "$BUDGET" --no-sanitizers --no-cache
  expect_rc "$1" "$5"
  expect_text "$1" "IDLE-7 [power9_idle_stop] failed -> failed: "
  grep -A1 "$6, e.g." "$SCRATCH/$1.out" | grep -q "with LDBAR lost" ||
    fail "$1: the $6 IDLE-7 input is not LDBAR's"
}
ldbar_review ldbar_fix "$SCRATCH/idle_ldbar_core.c" "$SCRATCH/idle_ldbar_thread.c" \
  "powerpc/powernv/idle: write LDBAR back on every thread" 0 repaired
expect_text ldbar_fix " repaired input(s)"
ldbar_review ldbar_bug "$SCRATCH/idle_ldbar_thread.c" "$SCRATCH/idle_ldbar_core.c" \
  "powerpc/powernv/idle: write LDBAR back once per core" 1 "newly failing"
expect_text ldbar_bug "NEWLY FAILING INPUTS"

# --- a compiler that cannot be started ------------------------------------
run nocc --source "$HERE/busy_delay_legacy.c" --component busy_delay --scan sampled \
  --budget "$BUDGET" --no-sanitizers --cc "$SCRATCH/no-such-cc"
expect_rc nocc 3
expect_text nocc "cannot run the C compiler '$SCRATCH/no-such-cc': "
expect_text nocc "(started twice)"
run nocc_json --source "$HERE/busy_delay_legacy.c" --component busy_delay --scan sampled \
  --budget "$BUDGET" --no-sanitizers --cc "$SCRATCH/no-such-cc" --json
python3 - "$SCRATCH/nocc_json.out" <<'PY' || fail "nocc: the JSON does not say why"
import json, sys
d = json.load(open(sys.argv[1]))
errs = [c["error"] for c in d["clauses"]]
assert errs and all(c["status"] == "error" for c in d["clauses"]), d["clauses"]
assert all("cannot run the C compiler" in e and "(started twice)" in e for e in errs), errs
PY

finish
