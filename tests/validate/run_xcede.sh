#!/bin/sh
# ctest: budget=60 timeout=480
# tests/validate/run_xcede.sh IDLESPEC_VALIDATE [BUDGET_SECONDS]
#
# The end-to-end test of `idlespec validate` on the xcede component and on
# kernel trees (issue 6): the faithful parse_cede_parameters() of
# xcede_faithful.c holds XCEDE-1..7; each variant derived from it with sed
# fails exactly the clauses its bug breaks, with a shrunk counterexample
# that names the statuses and the payload in hex; a tree made of this
# suite's faithful files holds everything, a tree without the file reports
# its functions absent.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
CLAUSES="XCEDE-1 XCEDE-2 XCEDE-3 XCEDE-4 XCEDE-5 XCEDE-6 XCEDE-7 XCEDE-8"
COMPONENT=xcede
. "$HERE/lib.sh"

# The count is believed: 17 declared records give 17, 6553 read past the
# buffer (XCEDE-4; XCEDE-1 through ASan, and a SIGSEGV in the plain build).
variant unbounded '/variant: unbounded/s/min_t(u32, declared, ARRAY_SIZE(payload->records))/declared/'
# No record-size gate: a record-size byte of 8 decodes (XCEDE-2).
variant no_gate '/variant: no_gate/s/if (payload->record_size + 1 != sizeof(struct xcede_latency_record))/if (0)/'
# No guard for payload_size < 2: payload_size - 2 wraps (XCEDE-3; the min() still caps the count).
variant wraps '/variant: wraps/s/if (payload_size < 2)/if (0)/'
# One RTAS call: busy and 990x are final (XCEDE-7).
variant no_retry '/variant: no_retry/s/while (rtas_busy_delay(status));/while (0);/'
# The query asks again once, then gives up on the second busy answer.
variant retries_once 's/^\tint status;$/\tint status, tries = 0;/
/variant: no_retry/s/while (rtas_busy_delay(status));/while (rtas_busy_delay(status) \&\& ++tries < 2);/'
# A stale count survives a failed query (XCEDE-6).
variant keeps_count_on_error '/variant: keeps_count_on_error/s/= 0;/= ARRAY_SIZE(xcede_latency_parameter.payload.records);/'

# The count bounded by the table, but the NUL after the last record looked
# for where payload_size puts it, past the buffer when payload_size declares
# more than it holds: the mutant of verify's UnboundedDecoder (its
# TrustingSource, which believes payload_size for the buffer's length). XCEDE-1
# alone, as under verify; the count stays within the table (XCEDE-4 held).
variant trusting_source 's/else if (declared == count \&\& 1 + payload_size < sizeof(xcede_latency_parameter) \&\&/else if (/'

# The code hands the firmware an address it cannot write: every query
# crashes before any payload reaches the code. XCEDE-1 fails, naming the
# query; XCEDE-2 (a decoding clause) must not be blamed for it.
variant bad_buffer 's/__pa(&xcede_latency_parameter),/16UL,/'

# A one-second fuzz campaign per run; the runs below that test the input
# sources one at a time ask for their own.
RUN_DEFAULTS="--fuzz 1"

run faithful --source "$(src faithful)" --budget "$BUDGET"
expect_rc faithful 0
expect_only_failed faithful
expect_no_driver_crash faithful
expect_text faithful "note: Z3: 36 boundary inputs for 22 feasible branches of the spec model"
expect_text faithful "note: libFuzzer: 1 s coverage-guided campaign on the code under test"
expect_property_held faithful

# Each input source alone finds the unbounded count: Z3's boundary inputs
# (the least over-capacity payload_size is 17 records), and a campaign
# started from one well-formed payload of no records (its crash artifacts
# and corpus).
run unbounded_z3 --source "$(src_variant unbounded)" --budget "$BUDGET" --inputs z3
expect_rc unbounded_z3 1
expect_only_failed unbounded_z3 XCEDE-1 XCEDE-4
expect_text unbounded_z3 "[Z3 header_ok size_ok over_capacity truncated, payload_size least]: nr_xcede_records = 17"
run unbounded_fuzz --source "$(src_variant unbounded)" --budget "$BUDGET" --inputs fuzz --fuzz 6
expect_rc unbounded_fuzz 1
expect_only_failed unbounded_fuzz XCEDE-1 XCEDE-4
# Every input judged here is the campaign's (a counterexample shrunk from
# one no longer carries the tag).
expect_text unbounded_fuzz "of them judged with the other inputs"
expect_text unbounded_fuzz "crash/timeout/OOM artifacts kept"
# RapidCheck alone: a property falsified and shrunk to payload_size 0.
run wraps_rc --source "$(src_variant wraps)" --budget "$BUDGET" --inputs rapidcheck
expect_rc wraps_rc 1
expect_only_failed wraps_rc XCEDE-3
expect_text wraps_rc "passing cases, shrunk in "
expect_text wraps_rc "XCEDE-3: payload_size 0 gave nr_xcede_records = 16"
# No input at all is no verdict.
run wraps_fuzz_none --source "$(src_variant wraps)" --budget "$BUDGET" --inputs fuzz --fuzz 0
expect_rc wraps_fuzz_none 3  # nothing failed, XCEDE-3 not judged
expect_clause wraps_fuzz_none XCEDE-3 unknown
expect_text wraps_fuzz_none "no input was judged"
run bad_inputs --source "$(src faithful)" --inputs z3,quickcheck
expect_rc bad_inputs 2
grep -q "bad --inputs 'z3,quickcheck': sources are z3, fuzz, rapidcheck, generated" "$SCRATCH/bad_inputs.err" ||
  fail "bad_inputs: no message naming the sources"

run unbounded --source "$(src_variant unbounded)" --budget "$BUDGET"
expect_rc unbounded 1
expect_only_failed unbounded XCEDE-1 XCEDE-4
# The smallest over-capacity header is Z3's least payload_size of that branch.
expect_text unbounded "statuses 0, payload 00ac 09 (3 bytes) [Z3 header_ok size_ok over_capacity truncated, payload_size least]: nr_xcede_records = 17, the buffer holds 16 records"
grep -q "XCEDE-1 .*failed" "$SCRATCH/unbounded.out" &&
  grep -A3 "^XCEDE-1 " "$SCRATCH/unbounded.out" | grep -q "AddressSanitizer\|UBSan\|SIGSEGV" ||
  fail "unbounded: XCEDE-1 without a sanitizer report or crash"
expect_no_driver_crash unbounded

run no_gate --source "$(src_variant no_gate)" --budget "$BUDGET"
expect_rc no_gate 1
expect_only_failed no_gate XCEDE-2
expect_text no_gate "record-size byte 0x00 accepted: returned 0, 0 record(s)"

run wraps --source "$(src_variant wraps)" --budget "$BUDGET"
expect_rc wraps 1
expect_only_failed wraps XCEDE-3
expect_text wraps "statuses 0, payload 0000 09 (3 bytes): payload_size 0 gave nr_xcede_records = 16"

run no_retry --source "$(src_variant no_retry)" --budget "$BUDGET"
expect_rc no_retry 1
expect_only_failed no_retry XCEDE-7
expect_text no_retry "statuses -2,0, payload "
expect_text no_retry "the query gave up after 1 RTAS call(s), on status -2, which is not final"
expect_text no_retry "note: efficiency clause"
# One call and no retry is upstream's query: the spec accepts it there.
expect_text no_retry "XCEDE-7 [parse_cede_parameters] failed: as upstream (the spec accepts this violation there)"

# A query that retries once and then gives up on a status that is not
# final fails XCEDE-7 another way than upstream's single call: the
# acceptance is not named, also under --subject upstream.
run retries_once --source "$(src_variant retries_once)" --budget "$BUDGET"
expect_rc retries_once 1
expect_only_failed retries_once XCEDE-7
expect_text retries_once "the query gave up after 2 RTAS call(s), on status"
expect_text retries_once "the spec accepts a XCEDE-7 violation for upstream, but none of them breaks XCEDE-7 as the file does"
run retries_once_upstream --source "$(src_variant retries_once)" --subject upstream --budget "$BUDGET"
expect_rc retries_once_upstream 1
expect_clause retries_once_upstream XCEDE-7 failed
run no_retry_upstream --source "$(src_variant no_retry)" --subject upstream --budget "$BUDGET"
expect_rc no_retry_upstream 0
expect_clause no_retry_upstream XCEDE-7 accepted

run keeps_count --source "$(src_variant keeps_count_on_error)" --budget "$BUDGET"
expect_rc keeps_count 1
expect_only_failed keeps_count XCEDE-6
expect_text keeps_count "final RTAS status -1 but kept 16 record(s)"
expect_text keeps_count "replay (--keep-temp): printf '0 -1 "

# A parse that allocates 16 MiB per call and never frees it, under --memory 128:
# the allocations start failing (RLIMIT_AS in the plain build, ASan's own
# limits in the ASan build), the code returns -ENOMEM, the run finishes.
# Z3's 36 inputs exhaust the 128 MiB; the other sources' 4,000 add only
# seconds of ASan allocations (46 s in all).
variant hog '/variant: keeps_count_on_error/a\
	if (!kzalloc(16 << 20, GFP_KERNEL)) return -ENOMEM;'
run hog --source "$(src_variant hog)" --budget "$BUDGET" --memory 128 --inputs z3
expect_rc hog 1
expect_clause hog XCEDE-5 failed
expect_text hog "returned -12 for a payload of"
expect_no_driver_crash hog

# --json: one entry per clause, the counterexample and replay fields filled
# (Z3's inputs find the unbounded count, as unbounded_z3 shows).
# Z3's inputs suffice: every query crashes, whatever the payload.
run trusting_source --source "$(src_variant trusting_source)" --budget "$BUDGET" --inputs z3
expect_rc trusting_source 1
expect_only_failed trusting_source XCEDE-1
expect_text trusting_source "statuses 0, payload ff0c 09 (3 bytes): crashed: 11 SIGSEGV"
expect_no_driver_crash trusting_source

run bad_buffer --source "$(src_variant bad_buffer)" --budget "$BUDGET" --inputs z3
expect_rc bad_buffer 1
expect_clause bad_buffer XCEDE-1 failed
expect_text bad_buffer "crashed: 11 SIGSEGV (during the firmware query"
grep -q "^XCEDE-2 \[parse_cede_parameters\] failed" "$SCRATCH/bad_buffer.out" &&
  fail "bad_buffer: a crash in the query is blamed on XCEDE-2"
grep -q "decoding went on and crashed" "$SCRATCH/bad_buffer.out" &&
  fail "bad_buffer: the report says decoding went on"

run unbounded_json --source "$(src_variant unbounded)" --budget "$BUDGET" --json --inputs z3
python3 - "$SCRATCH/unbounded_json.out" <<'PY' || fail "unbounded_json: unexpected JSON"
import json, sys
d = json.load(open(sys.argv[1]))
st = {c["id"]: c for c in d["clauses"]}
assert sorted(st) == ["XCEDE-%d" % i for i in range(1, 9)], st.keys()
assert st["XCEDE-4"]["status"] == "failed" and st["XCEDE-4"]["counterexamples"] and st["XCEDE-4"]["replay"]
assert st["XCEDE-4"]["line"] > 0 and st["XCEDE-4"]["file"].endswith("xcede_unbounded.c")
assert d["exit_code"] == 1
PY

# --- kernel trees ----------------------------------------------------------------
TREE="$SCRATCH/tree"
mkdir -p "$TREE/arch/powerpc/kernel" "$TREE/drivers/cpuidle"
cp "$HERE/busy_delay_faithful.c" "$TREE/arch/powerpc/kernel/rtas.c"
cat "$(src faithful)" "$HERE/states_fixup.c" >"$TREE/drivers/cpuidle/cpuidle-pseries.c"  # and the fix-up
mkdir -p "$TREE/drivers/cpuidle/governors"
cp "$HERE/governor_faithful.c" "$TREE/drivers/cpuidle/governors/menu.c"
run tree --kernel-tree "$TREE" --scan sampled --budget "$BUDGET"
# The governor's verdicts are its own suite's (run_governor.sh): here only
# that the tree run reached it; the exit code follows from them.
for c in BUSY-1 BUSY-2 BUSY-3 BUSY-4 BUSY-5 BUSY-7 $CLAUSES STATES-3 STATES-4; do
  expect_clause tree "$c" held
done
for c in GOV-1 GOV-3 GOV-6; do
  grep -Eq "^$c \[[a-z_]+\] (held|failed|accepted|unknown)" "$SCRATCH/tree.out" || fail "tree: $c not judged"
done
expect_text tree "idlespec validate: drivers/cpuidle/cpuidle-pseries.c (xcede)"
expect_text tree "arch/powerpc/platforms/powernv/idle.c is not in the tree"

# Asked for by name, an unchecked component's functions are located: absent here.
run tree_idle --kernel-tree "$TREE" --component idle_core
expect_rc tree_idle 3  # every clause absent: nothing judged
expect_clause tree_idle IDLE-1 absent
expect_text tree_idle "arch/powerpc/platforms/powernv/idle.c is not in the tree"

# A tree without cpuidle-pseries.c: xcede absent, busy_delay still checked.
rm "$TREE/drivers/cpuidle/cpuidle-pseries.c"
run tree_partial --kernel-tree "$TREE" --component xcede busy_delay --scan sampled --budget "$BUDGET"
expect_rc tree_partial 0  # absent is allowed
expect_clause tree_partial XCEDE-1 absent
expect_clause tree_partial BUSY-4 held

run no_tree --kernel-tree "$SCRATCH/no_such_tree"
expect_rc no_tree 2
grep -q "no such directory" "$SCRATCH/no_tree.err" || fail "no_tree: no message"

run both --kernel-tree "$TREE" --source "$(src faithful)"
expect_rc both 2

run bad_component --kernel-tree "$TREE" --component frobnicator
expect_rc bad_component 2
grep -q "unknown component 'frobnicator'" "$SCRATCH/bad_component.err" || fail "bad_component: no message"

run candidate --candidate "$SCRATCH/libcandidate.so"
expect_rc candidate 2

finish
