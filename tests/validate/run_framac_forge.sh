#!/bin/sh
# ctest: budget=30 timeout=900
# tests/validate/run_framac_forge.sh IDLESPEC_VALIDATE [BUDGET_SECONDS]
#
# Nobody forges "held (proven)" (validate/framac.h, framac_text.h): one
# mutant per way the code under test could once get it for code that breaks
# its clause, each derived from this suite's faithful files with sed. Each
# hides its bug where the tests do not look (a status the sampled scan skips,
# 5242880 = 0x500000; a payload_size the generated inputs skip, 12345) and
# reads "tested" (or failed), where it read proven before the fix named:
#   1. admits        an ACSL admit on the buggy branch (the file's own
#                    annotations are neutralised, never obeyed)
#   2. framac_ifdef  #ifndef __FRAMAC__ around the bug (a file that tests for
#                    the analysis is not proven)
#   3. macro_assert  #define BUSY_1 BUSY_1: 1 ? 1, rewriting the driver's
#                    assertion (the file's macros are #undef'd before the
#                    driver)
#   4. framac_named  the bug in a helper named Frama_C_... (no alarm is
#                    dropped by a name; the name is refused)
#   5. printk_spin   a loop EVA found endless under the old printk shim
#                    before the bug (each clause has its own assertion, which
#                    EVA must reach: XCEDE_1 included; and the shim, 6)
#   6. printk_gate   the bug on the path taken when printk returns non-zero
#                    (the shim's printk may return what the harness's does)
#   7. floor / u32_store  STATES-4's exact values, a floor and a wrapped
#                    store (fc_exact() in harness/framac_states.c)
#   8. scheduling    BUSY-1 broken at SYSTEM_SCHEDULING only (the driver runs
#                    every system_state from SYSTEM_SCHEDULING on)
#   9. char_sign     a bug only unsigned char shows (ppc64): no POWER target
#                    is proven (Frama-C 25 has no machine description of
#                    it), the merged level is the weakest, and no format
#                    carries failed with proven
# The faithful files keep their proofs (run_framac.sh, run_framac_xstates.sh).
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
FRAMAC=1
. "$HERE/lib.sh"
. "$HERE/framac_lib.sh"

B="--component busy_delay --scan sampled --budget $BUDGET"
X="--component xcede --inputs generated --fuzz 0 --budget $BUDGET"

# expect_not_proven NAME CLAUSE: the clause carries no "proven", in the text
# or in --json (NAME.json when the run wrote one)
expect_not_proven() {
  grep "^$2 \[" "$SCRATCH/$1.out" | grep -q "(proven" &&
    fail "$1: $2 still reads proven: $(grep "^$2 \[" "$SCRATCH/$1.out")"
  grep -q "^$2 \[" "$SCRATCH/$1.out" || fail "$1: no $2 in the report"
}

# --- busy_delay: ways 1, 2, 3, 4, 8 -------------------------------------------
COMPONENT=busy_delay
CLAUSES="BUSY-1 BUSY-2 BUSY-3 BUSY-4 BUSY-5 BUSY-7"
AFTER='return rtas_busy_delay_early(status);'
variant admits "s|$AFTER|$AFTER\n\tif (status == 5242880) {\n\t\t/*@ admit \\\\false; */\n\t\treturn true;\n\t}|"
variant framac_ifdef "s|$AFTER|$AFTER\n#ifndef __FRAMAC__\n\tif (status == 5242880)\n\t\treturn true;\n#endif|"
variant macro_assert "s|$AFTER|$AFTER\n#define BUSY_1 BUSY_1: 1 ? 1\n\tif (status == 5242880)\n\t\treturn true;|"
variant framac_named "s|^/\\* Waits as the status asks|static unsigned char Frama_C_quirks[4];\n\nstatic bool Frama_C_quirk(int status)\n{\n\treturn status > 5000000 \\&\\& Frama_C_quirks[status % 8];\n}\n\n&|; s|$AFTER|$AFTER\n\tif (Frama_C_quirk(status))\n\t\treturn true;|"
variant scheduling "s|$AFTER|$AFTER\n\tif (system_state == SYSTEM_SCHEDULING \\&\\& status == RTAS_BUSY)\n\t\treturn false;|"

for v in admits framac_ifdef macro_assert framac_named scheduling; do
  # shellcheck disable=SC2086
  run "b_$v" --source "$(src_variant $v)" $B
  expect_no_driver_crash "b_$v"
  expect_not_proven "b_$v" BUSY-1
done
# 1: the annotation is read as a comment; EVA sees the retry on 5242880.
expect_level b_admits BUSY-1 "held (tested; EVA could not prove it: assertion BUSY_1 unproven"
expect_text b_admits "the file's 1 ACSL annotation neutralised"
# 2 and 4: the file names the analyser's identifiers: not analysed at all.
expect_level b_framac_ifdef BUSY-1 "held (tested; not proven: the file speaks to the analyser (line "
expect_level b_framac_ifdef BUSY-1 "names __FRAMAC__"
expect_level b_framac_named BUSY-1 "names Frama_C_quirks"
# 3: the driver's assertion is the driver's; EVA sees the retry.
expect_level b_macro_assert BUSY-1 "held (tested; EVA could not prove it: assertion BUSY_1 unproven"
# 8: at SYSTEM_SCHEDULING busy (-2) is not retried: failed by the tests or
# left unproven by EVA, never proven.
grep "^BUSY-1 \[" "$SCRATCH/b_scheduling.out" | grep -q "failed\|assertion BUSY_1 unproven" ||
  fail "b_scheduling: BUSY-1 neither failed nor unproven: $(grep '^BUSY-1 \[' "$SCRATCH/b_scheduling.out")"

# --- xcede: ways 5 and 6 -----------------------------------------------------------
COMPONENT=xcede
CLAUSES="XCEDE-1 XCEDE-2 XCEDE-3 XCEDE-4 XCEDE-5 XCEDE-6 XCEDE-7"
# A read one record past the table's end, for a payload_size the generated
# inputs do not hold (XCEDE-1 at run time).
PAST='\tstatus = xcede_decode();\n\tif (be16_to_cpu(xcede_latency_parameter.payload_size) == 12345)\n\t\tpr_info("xcede: hint %u\\n", xcede_latency_parameter.payload.records[nr_xcede_records + 16].hint);\n\treturn status;'
variant printk_spin "s|^\tstatus = xcede_query();|\twhile (!pr_info(\"xcede: querying firmware\\\\n\"))\n\t\tcpu_relax();\n&|; s|^\treturn xcede_decode();|$PAST|"
variant printk_gate "s|^\treturn xcede_decode();|\tif (!pr_info(\"xcede: decoding\\\\n\"))\n\t\treturn xcede_decode();\n$PAST|"
for v in printk_spin printk_gate; do
  # shellcheck disable=SC2086
  run "x_$v" --source "$(src_variant $v)" $X
  expect_no_driver_crash "x_$v"
  for c in XCEDE-1 XCEDE-3 XCEDE-4; do expect_not_proven "x_$v" "$c"; done
  expect_level "x_$v" XCEDE-1 "EVA could not prove it: index out of bounds"
done

# --- states: way 7 ----------------------------------------------------------------
COMPONENT=states
cat "$HERE/xcede_faithful.c" "$HERE/states_fixup.c" >"$SCRATCH/states_faithful.c"
src() { echo "$SCRATCH/states_$1.c"; }
# A floor in place of the ceiling.
variant floor 's/DIV_ROUND_UP_ULL(ns, NSEC_PER_USEC);/div_u64(ns, NSEC_PER_USEC);/'
# No refusal of a latency ten times which does not fit: the residency is
# stored wrapped.
variant u32_store 's/if (ticks > most_us \* tb_ticks_per_usec)/if (0)/; s/return \*latency_us <= most_us;/return true;/'
S="--component states --inputs generated --fuzz 0 --budget $BUDGET"
for v in floor u32_store; do
  # shellcheck disable=SC2086
  run "s_$v" --source "$(src_variant $v)" $S
  expect_no_driver_crash "s_$v"
  expect_not_proven "s_$v" STATES-4
done
# The floor: 768 ticks (1.5 us) read as 1 us, which EVA's exact-value
# assertion shows (the tests may also fail it on their inputs).
grep "^STATES-4 \[" "$SCRATCH/s_floor.out" | grep -q "failed\|assertion STATES_4 unproven" ||
  fail "s_floor: STATES-4 neither failed nor unproven: $(grep '^STATES-4 \[' "$SCRATCH/s_floor.out")"
expect_eva_beside s_floor STATES-4 "assertion STATES_4 unproven"
# The wrapped store: EVA's overflow alarm in the file comes first (STATES-4
# is its assertions and the code's alarms together).
expect_eva_beside s_u32_store STATES-4 "states_u32_store.c:"

# --- targets: way 9 -----------------------------------------------------------------
src() { echo "$HERE/${COMPONENT}_$1.c"; }
COMPONENT=busy_delay
CLAUSES="BUSY-1 BUSY-2 BUSY-3 BUSY-4 BUSY-5 BUSY-7"
# A plain char's sign: negative statuses below -2 are retried where char is
# unsigned (ppc64, ppc64le), not on x86-64.
variant char_sign "s|$AFTER|$AFTER\n\tif (status < -2) {\n\t\tchar top = (char)(status >> 24);\n\n\t\tif (top > 0)\n\t\t\treturn true;\n\t}|"
if [ -n "$(command -v powerpc64-linux-gnu-gcc)" ] && [ -n "$(command -v qemu-ppc64)" ]; then
  # shellcheck disable=SC2086
  IDLESPEC_TARGETS= run t_char_sign --source "$(src_variant char_sign)" $B --targets host,ppc64 --json
  mv "$SCRATCH/t_char_sign.out" "$SCRATCH/t_char_sign.json"
  python3 - "$SCRATCH/t_char_sign.json" <<'PY' || fail "t_char_sign: the JSON levels are wrong"
import json, sys
d = json.load(open(sys.argv[1]))
bad = 0
for c in d["clauses"]:
    if c["status"] != "held" and c.get("proof") == "proven":
        print("FAIL: %s %s with proof proven" % (c["id"], c["status"])); bad = 1
    for t in c.get("targets", []):
        if t["target"] != "host" and t.get("proof") == "proven":
            print("FAIL: %s proven on %s" % (c["id"], t["target"])); bad = 1
b1 = [c for c in d["clauses"] if c["id"] == "BUSY-1"][0]
if b1["status"] != "failed":
    print("FAIL: BUSY-1 is %s, expected failed (ppc64's unsigned char)" % b1["status"]); bad = 1
sys.exit(bad)
PY
  # The faithful file on host and ppc64: proven on the host's row, tested
  # on ppc64's, the merged level the weakest, the machine named.
  # shellcheck disable=SC2086
  IDLESPEC_TARGETS= run t_faithful --source "$(src faithful)" $B --targets host,ppc64 --json
  mv "$SCRATCH/t_faithful.out" "$SCRATCH/t_faithful.json"
  python3 - "$SCRATCH/t_faithful.json" <<'PY' || fail "t_faithful: the per-target levels are wrong"
import json, sys
d = json.load(open(sys.argv[1]))
b4 = [c for c in d["clauses"] if c["id"] == "BUSY-4"][0]
levels = {t["target"]: t.get("proof") for t in b4["targets"]}
ok = (b4["status"] == "held" and b4["proof"] == "tested" and levels.get("host") == "proven"
      and levels.get("ppc64") == "tested" and "no machine description" in b4["proof_note"])
if not ok:
    print("FAIL: BUSY-4:", b4["status"], b4["proof"], b4["proof_note"], levels)
notes = " ".join(n for p in d.get("parts", []) for n in p.get("notes", [])) + " ".join(d.get("notes", []))
if "machine gcc_x86_64" not in json.dumps(d):
    print("FAIL: no note names the machine the analysis assumed"); ok = False
sys.exit(0 if ok else 1)
PY
  # ppc64 alone: no proof at all.
  # shellcheck disable=SC2086
  IDLESPEC_TARGETS= run t_ppc64 --source "$(src faithful)" $B --targets ppc64
  expect_level t_ppc64 BUSY-4 "held (tested; ppc64 (big-endian): not proven: Frama-C 25 has no machine description of ppc64"
else
  fail "no powerpc64-linux-gnu-gcc or qemu-ppc64 (scripts/setup.sh power): way 9 not checked"
fi

finish
