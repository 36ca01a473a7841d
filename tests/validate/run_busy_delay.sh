#!/bin/sh
# ctest: budget=120 timeout=300
# tests/validate/run_busy_delay.sh IDLESPEC_VALIDATE [BUDGET_SECONDS] [full|sampled]
#
# The end-to-end test of `idlespec validate` on busy_delay (issue 6): runs the
# given idlespec-validate binary (it builds nothing) on the kernel-style files
# beside this script (the faithful one, and one broken variant per injected
# bug that the script derives from it with sed) and asserts the verdict of every clause, the exit codes,
# that each counterexample names its status in hex and decimal, and that
# crashes, hangs and BUG_ON are reported without ending the run.
#
# The faithful file always gets the full 2^32-status scans (~10-25 s on two
# cores); the buggy files get the third argument's scan, `sampled` by default
# (every status in -65536..65535 plus 2^24 spread over the rest: each bug
# lies in the first part), `full` to scan them exhaustively as well.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
CLAUSES="BUSY-1 BUSY-2 BUSY-3 BUSY-4 BUSY-5 BUSY-7"
COMPONENT=busy_delay
. "$HERE/lib.sh"

# Early boot forgets to reset its count on giving up (BUSY-7).
variant no_reset '/variant: no_reset/d'
# The extended-delay range ends at 9906 (BUSY-1, BUSY-5).
variant accepts_9906 '/variant: accepts_9906/s/RTAS_EXTENDED_DELAY_MAX;/RTAS_EXTENDED_DELAY_MAX + 1;/'
# Busy sleeps the delay time's 1 ms when a reschedule is pending (BUSY-2).
variant sleeps_on_busy '/variant: sleeps_on_busy/s/cond_resched();/if (need_resched()) msleep(rtas_busy_delay_time(status));/'
# -3 counts into statistics that were never allocated: a NULL dereference.
variant segfault '/^#define RTAS_EARLY_GIVE_UP/i static unsigned long *rtas_invalid_parameter_count;
/variant: segfault/i if (status == RTAS_INVALID_PARAMETER) (*rtas_invalid_parameter_count)++;'
# 9906 waits for a flag nobody sets (BUSY-4: rtas_busy_delay_time hangs).
variant hang '/^#define RTAS_EARLY_GIVE_UP/i static int rtas_settled;
/variant: hang/i while (status == RTAS_EXTENDED_DELAY_MAX + 1 \&\& !READ_ONCE(rtas_settled)) cpu_relax();'
# An assertion on -3 aborts the process (BUSY-5, the status named, the scan goes on).
variant aborts '/variant: segfault/i if (status == RTAS_INVALID_PARAMETER) abort();'
# A status the code does not expect ends the process with exit(0): it must
# not pass for a finished run (BUSY-5 failed with the status; the clauses the
# scan did not reach are errors).
variant exits '/variant: segfault/i if (status == RTAS_INVALID_PARAMETER) exit(0);'
# A BUG_ON on hints above 10 s: 9905 (100 s) hits it (BUSY-3).
variant bug_on '/variant: bug_on/s/ms = clamp(rtas_busy_delay_time(status),/ms = rtas_busy_delay_time(status); BUG_ON(ms > 10000); ms = clamp(ms,/'

# The mutants paired with verify's witnesses of tests/witnesses/busy_delay_witnesses.h
# (docs/verdicts.md, "Witnesses and mutants"): the same bug in kernel-style C
# fails the same clauses under validate as the witness does under verify.
# Early boot gives up on the 1000th extended delay in a row, not the 1001st
# (GiveUpOn1000thPolicy: BUSY-7).
variant give_up_on_1000th 's/if (spun > RTAS_EARLY_GIVE_UP)/if (spun >= RTAS_EARLY_GIVE_UP)/'
# The clamp at 100 s instead of 1 s (Clamp100sPolicy: BUSY-3; its BUSY-6 is
# BUSY-3 on the call that oversleeps, spec/busy_delay.md).
variant clamp_100s 's/^#define RTAS_LONGEST_WAIT_MS\t1000U/#define RTAS_LONGEST_WAIT_MS\t100000U/'
# usleep_range(max, min) (SwappedRangePolicy: BUSY-3).
variant swapped_range 's|usleep_range(most_us / 10, most_us);|usleep_range(most_us, most_us / 10);|'
# fsleep() handed the hint in ms where it takes us (FsleepMillisecondsPolicy: BUSY-3).
variant fsleep_milliseconds '/if (ms > RTAS_SHORT_WAIT_MS) {/,/^\t}$/c\
\tfsleep(ms);'

# The code under test prints protocol lines that claim every status stopped
# with nothing requested, and retries on 9906: the harness's protocol has a
# channel of its own, so the forged lines are the code's stdout, never a
# verdict (BUSY-1 and BUSY-5 still fail on 9906).
variant forges '/variant: accepts_9906/s/RTAS_EXTENDED_DELAY_MAX;/RTAS_EXTENDED_DELAY_MAX + 1;/
/variant: segfault/i if (status == RTAS_INVALID_PARAMETER) { printf("OBS policy 0 0x00000000 0xffffffff 0 0 0 0 0 0\\nCOMPLETE policy\\nDONE forged\\n"); fflush(stdout); }'
# Odd statuses above 100000 retry: the answers change at every status, more
# runs than the harness records. The scan stops, says where, and the verdict
# comes from the statuses before it: BUSY-1 and BUSY-5 failed; BUSY-2 and
# BUSY-3, whose statuses the cut scans did not reach, are errors, never held.
variant alternates '/variant: segfault/i if (status > 100000 \&\& (status \& 1)) return true;'

# --- the faithful file: every clause held ----------------------------------------
run faithful --source "$(src faithful)" --budget "$BUDGET"
expect_rc faithful 0
expect_only_failed faithful
expect_no_driver_crash faithful

# --- a budget too short for the exhaustive scans (but long enough for the
# harness build, which shares it): the sampled scans decide,
# the report names the ranges the budget cut --------------------------------------
run short_budget --source "$(src faithful)" --budget 4
expect_rc short_budget 0
expect_only_failed short_budget
expect_text short_budget "s cut the exhaustive scan-policy 0: statuses 0x"
expect_text short_budget "were covered by the sampled scan only"

# --- one injected bug each: exactly the expected clauses fail, with the status ----
run no_reset --source "$(src_variant no_reset)" --budget "$BUDGET" --scan "$SCAN"
expect_rc no_reset 1
expect_only_failed no_reset BUSY-7
expect_text no_reset "status 0x000026ac (9900), early boot: loop after giving up"

run accepts_9906 --source "$(src_variant accepts_9906)" --budget "$BUDGET" --scan "$SCAN"
expect_rc accepts_9906 1
expect_only_failed accepts_9906 BUSY-1 BUSY-5   # 9906 retries (BUSY-1) and sleeps (BUSY-5)
expect_text accepts_9906 "status 0x000026b2 (9906), need_resched=0: rtas_busy_delay returned true (retry)"

run sleeps_on_busy --source "$(src_variant sleeps_on_busy)" --budget "$BUDGET" --scan "$SCAN"
expect_rc sleeps_on_busy 1
expect_only_failed sleeps_on_busy BUSY-2
expect_text sleeps_on_busy "status 0xfffffffe (-2), need_resched=1: requested 1 sleep(s), last msleep"

# --- the mutants paired with verify's witnesses -----------------------------------
run give_up_on_1000th --source "$(src_variant give_up_on_1000th)" --budget "$BUDGET" --scan sampled
expect_rc give_up_on_1000th 1
expect_only_failed give_up_on_1000th BUSY-7
expect_text give_up_on_1000th "step 1001 (loop 2, call 1000): status 9903 (extended, hint 1000 ms): requested stop, mdelay(1 ms); expected retry"

run clamp_100s --source "$(src_variant clamp_100s)" --budget "$BUDGET" --scan sampled
expect_rc clamp_100s 1
expect_only_failed clamp_100s BUSY-3
expect_text clamp_100s "status 0x000026b0 (9904), need_resched=0: requested 1 sleep(s), last msleep(10000000..10000000 us)"

run swapped_range --source "$(src_variant swapped_range)" --budget "$BUDGET" --scan sampled
expect_rc swapped_range 1
expect_only_failed swapped_range BUSY-3
expect_text swapped_range "status 0x000026ac (9900), need_resched=0: requested 1 sleep(s), last usleep_range(1000..100 us)"

run fsleep_milliseconds --source "$(src_variant fsleep_milliseconds)" --budget "$BUDGET" --scan sampled
expect_rc fsleep_milliseconds 1
expect_only_failed fsleep_milliseconds BUSY-3
expect_text fsleep_milliseconds "status 0x000026ac (9900), need_resched=0: requested 1 sleep(s), last fsleep(1..1 us)"

# --- crashes, hangs, BUG_ON: failed with the input, the run goes on --------------
run segfault --source "$(src_variant segfault)" --budget "$BUDGET" --scan "$SCAN"
expect_rc segfault 1
expect_only_failed segfault BUSY-5
expect_text segfault "status 0xfffffffd (-3), need_resched=0: crashed with signal 11 (SIGSEGV)"
expect_no_driver_crash segfault

run hang --source "$(src_variant hang)" --budget "$BUDGET" --scan "$SCAN"
expect_rc hang 1
expect_only_failed hang BUSY-4
expect_text hang "status 0x000026b2 (9906), need_resched=0: did not return within 2 s (hang)"
expect_no_driver_crash hang

run aborts --source "$(src_variant aborts)" --budget "$BUDGET" --scan "$SCAN"
expect_rc aborts 1
expect_only_failed aborts BUSY-5
expect_text aborts "status 0xfffffffd (-3), need_resched=0: crashed with signal 6 (SIGABRT"
expect_text aborts "replay (--keep-temp): harness scan-policy 0 0xfffffffd 0xfffffffd"
expect_no_driver_crash aborts

run exits --source "$(src_variant exits)" --budget "$BUDGET" --scan "$SCAN"
expect_rc exits 1
expect_clause exits BUSY-5 failed
expect_clause exits BUSY-4 held
expect_text exits "status 0xfffffffd (-3), need_resched=0: called exit(): the process ended inside the function"
expect_text exits "replay (--keep-temp): harness scan-policy 0 0xfffffffd 0xfffffffd"
grep -q "^BUSY-[123] \[rtas_busy_delay\] held" "$SCRATCH/exits.out" &&
  fail "exits: a clause whose scan exit(0) cut short is held"
expect_no_driver_crash exits

run bug_on --source "$(src_variant bug_on)" --budget "$BUDGET" --scan "$SCAN"
expect_rc bug_on 1
expect_only_failed bug_on BUSY-3
expect_text bug_on "status 0x000026b1 (9905), need_resched=0: BUG_ON(ms > 10000) fired at"
expect_no_driver_crash bug_on

# --- JUnit and SARIF: read back by a consumer, the fields the formats require -------
run reports --source "$(src_variant accepts_9906)" --scan sampled --budget "$BUDGET" \
  --junit "$SCRATCH/report.junit.xml" --sarif "$SCRATCH/report.sarif"
expect_rc reports 1
python3 "$HERE/check_reports.py" "$SCRATCH/report.junit.xml" "$SCRATCH/report.sarif" \
  "BUSY-1 BUSY-5" 6 || fail "reports: JUnit or SARIF check failed"

# --- review: a patch of this suite's own against a tree holding the faithful file --
TREE="$SCRATCH/tree"
mkdir -p "$TREE/arch/powerpc/kernel"
cp "$(src faithful)" "$TREE/arch/powerpc/kernel/rtas.c"
run review review "$HERE/review_accepts_9906.patch" --kernel-tree "$TREE" --scan sampled --budget "$BUDGET"
expect_rc review 1
expect_text review "touches arch/powerpc/kernel/rtas.c: rtas_busy_delay"
expect_text review "BUSY-1 [rtas_busy_delay] held -> failed   NEWLY FAILED"
expect_text review "BUSY-5 [rtas_busy_delay] held -> failed   NEWLY FAILED"
expect_text review "status 0x000026b2 (9906), need_resched=0: rtas_busy_delay returned true (retry), expected false"
expect_text review "unchanged: 4 clause(s), 4 held"
cmp -s "$(src faithful)" "$TREE/arch/powerpc/kernel/rtas.c" || fail "review: the tree was modified"

# A reply that only quotes the diff: one message, exit 2.
run review_quoted review "$HERE/review_quoted_reply.txt" --kernel-tree "$TREE"
expect_rc review_quoted 2
[ "$(wc -l <"$SCRATCH/review_quoted.err")" -eq 1 ] || fail "review_quoted: expected one line on stderr"
grep -q "only quotes a diff" "$SCRATCH/review_quoted.err" || fail "review_quoted: no message"

# The patch against a tree that already has it: does not apply, exit 2.
cp "$(src_variant accepts_9906)" "$TREE/arch/powerpc/kernel/rtas.c"
run review_stale review "$HERE/review_accepts_9906.patch" --kernel-tree "$TREE"
expect_rc review_stale 2
grep -q "does not apply" "$SCRATCH/review_stale.err" || fail "review_stale: no 'does not apply' message"

run review_no_tree review "$HERE/review_accepts_9906.patch" --kernel-tree "$SCRATCH/no_such_tree"
expect_rc review_no_tree 2

run forges --source "$(src_variant forges)" --budget "$BUDGET" --scan sampled
expect_rc forges 1
expect_only_failed forges BUSY-1 BUSY-5
expect_text forges "status 0x000026b2 (9906), need_resched=0: rtas_busy_delay returned true (retry), expected false"
# The code's stdout is quoted as such in one note; nothing else may carry it.
grep "forged" "$SCRATCH/forges.out" | grep -qv "the code under test printed" &&
  fail "forges: a forged line reached the report"

run alternates --source "$(src_variant alternates)" --budget "$BUDGET" --scan sampled
expect_rc alternates 1
for c in BUSY-1 BUSY-5; do expect_clause alternates "$c" failed; done
for c in BUSY-2 BUSY-3; do expect_clause alternates "$c" error; done
expect_clause alternates BUSY-4 held
expect_text alternates "status 0x000186a1 (100001), need_resched=0: rtas_busy_delay returned true (retry), expected false"
expect_text alternates "scan stopped before status 0x"
expect_no_driver_crash alternates

# --- a function absent from the file ----------------------------------------------
# The file with only rtas_busy_delay_time (everything before the early helper).
sed '/^static bool __init rtas_busy_delay_early/,$d' "$(src faithful)" >"$SCRATCH/time_only.c"
run absent --source "$SCRATCH/time_only.c" --budget "$BUDGET"
expect_rc absent 0  # absent functions are allowed beside a judged one
expect_clause absent BUSY-4 held
for c in BUSY-1 BUSY-2 BUSY-3 BUSY-5 BUSY-7; do expect_clause absent "$c" absent; done
expect_text absent "rtas_busy_delay  not in the file"

# --json on the same: parseable, one entry per clause
run absent_json --source "$SCRATCH/time_only.c" --function rtas_busy_delay --json
expect_rc absent_json 3  # nothing judged is never a pass
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert [c["status"] for c in d["clauses"]]==["absent"]*5, d' \
  "$SCRATCH/absent_json.out" || fail "absent_json: unexpected JSON"

# --- usage errors: exit 2, one message; a harness that does not compile: 3 --------
run missing_file --source "$SCRATCH/no_such_file.c"
expect_rc missing_file 2
[ "$(wc -l <"$SCRATCH/missing_file.err")" -eq 1 ] || fail "missing_file: expected one line on stderr"
grep -q "cannot read" "$SCRATCH/missing_file.err" || fail "missing_file: no 'cannot read' message"

run bad_flag --source "$(src faithful)" --frobnicate
expect_rc bad_flag 2
[ "$(wc -l <"$SCRATCH/bad_flag.err")" -eq 1 ] || fail "bad_flag: expected one line on stderr"
grep -q "unknown argument '--frobnicate'" "$SCRATCH/bad_flag.err" || fail "bad_flag: no message"

run no_source --json
expect_rc no_source 2

sed 's/return 1;/return 1/' "$(src faithful)" >"$SCRATCH/syntax_error.c"
run build_error --source "$SCRATCH/syntax_error.c"
expect_rc build_error 3  # not judged (error), nothing failed
grep -q "syntax_error.c:[0-9]*" "$SCRATCH/build_error.err" || fail "build_error: no compiler message naming the file"

finish
