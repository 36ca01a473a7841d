#!/bin/sh
# ctest: budget=20 timeout=300
# tests/validate/run_verdicts.sh IDLESPEC_VALIDATE [BUDGET_SECONDS]
#
# validate's verdict model (issue 13): clauses, subjects and acceptances come
# from spec/*.md; --subject chooses the subject a file is judged against; a
# failure the spec accepts for another subject names it and the upstream fix;
# the exit codes are verify's (0 held, 1 failed, 2 usage, 3 not judged), with
# a failure dominating an unbuildable function; bad numbers, subjects,
# functions and output paths are usage errors before any run.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
CLAUSES="BUSY-1 BUSY-2 BUSY-3 BUSY-4 BUSY-5 BUSY-7"
COMPONENT=busy_delay
. "$HERE/lib.sh"
RUN_DEFAULTS="--scan sampled --budget $BUDGET"

# --- a pre-v5.17 rtas.c: failed against reference, accepted as legacy ---------
run legacy --source "$(src legacy)"
expect_rc legacy 1
expect_clause legacy BUSY-2 failed
expect_clause legacy BUSY-3 failed
expect_clause legacy BUSY-7 failed
expect_clause legacy BUSY-1 held
expect_clause legacy BUSY-4 held
expect_text legacy "BUSY-2 [rtas_busy_delay] failed: as legacy (the spec accepts this violation there); fixed upstream by 38f7b7067dae"
expect_text legacy "subject reference, exit 1"
# No early mode before 09d1ea72c881: the spec's "- Since:" line names it.
expect_text legacy "BUSY-7 [rtas_busy_delay] failed: upstream has done what the clause asks since 09d1ea72c881"

run legacy_subject --source "$(src legacy)" --subject legacy --json
expect_rc legacy_subject 0
python3 - "$SCRATCH/legacy_subject.out" <<'PY' || fail "legacy_subject: unexpected JSON verdicts"
import json, sys
d = json.load(open(sys.argv[1]))
got = {c["id"]: (c["status"], c["subject"], c["fixed_by"]) for c in d["clauses"]}
want = {"BUSY-1": ("held", "legacy", ""), "BUSY-2": ("accepted", "legacy", "38f7b7067dae"),
        "BUSY-3": ("accepted", "legacy", "38f7b7067dae"), "BUSY-4": ("held", "legacy", ""),
        "BUSY-5": ("n/a", "legacy", ""), "BUSY-7": ("n/a", "legacy", "")}
assert got == want, got
assert d["judged_subject"] == "legacy" and d["exit_code"] == 0, d
PY

# A legacy-era file that sleeps on busy whether or not a reschedule is
# pending: its BUSY-2 failure (msleep(1) on -2 with need_resched() false) is
# not legacy's, which sleeps only with one pending, so neither the acceptance
# nor its fix is named, also under --subject legacy; its BUSY-3 failure
# (100 s on 9905) is legacy's and stays accepted there.
sed 's/if (need_resched())/if (1)/' "$(src legacy)" >"$SCRATCH/always_sleeps.c"
cmp -s "$(src legacy)" "$SCRATCH/always_sleeps.c" && fail "always_sleeps: the variant changed nothing"
run always_sleeps --source "$SCRATCH/always_sleeps.c"
expect_rc always_sleeps 1
expect_text always_sleeps "BUSY-2 [rtas_busy_delay] failed: the spec accepts a BUSY-2 violation for legacy, but none of them breaks BUSY-2 as the file does on this counterexample"
expect_text always_sleeps "BUSY-3 [rtas_busy_delay] failed: as legacy (the spec accepts this violation there); fixed upstream by 38f7b7067dae"
run always_sleeps_legacy --source "$SCRATCH/always_sleeps.c" --subject legacy
expect_rc always_sleeps_legacy 1
expect_clause always_sleeps_legacy BUSY-2 failed
expect_clause always_sleeps_legacy BUSY-3 accepted
grep "^BUSY-2 " "$SCRATCH/always_sleeps.out" | grep -q 38f7b7067dae &&
  fail "always_sleeps: BUSY-2 names legacy's fix"

# The faithful file judged as legacy: better than the subject is not a failure.
run faithful_as_legacy --source "$(src faithful)" --subject legacy
expect_rc faithful_as_legacy 0
expect_clause faithful_as_legacy BUSY-2 held
expect_text faithful_as_legacy "spec: the spec accepts a violation for legacy; this file does not show it"

# --- a failure beside a function that does not compile: 1, not 2 or 3 ---------
TREE="$SCRATCH/tree"
mkdir -p "$TREE/arch/powerpc/kernel" "$TREE/drivers/cpuidle/governors"
sed '/variant: accepts_9906/s/RTAS_EXTENDED_DELAY_MAX;/RTAS_EXTENDED_DELAY_MAX + 1;/' \
  "$(src faithful)" >"$TREE/arch/powerpc/kernel/rtas.c"
cmp -s "$(src faithful)" "$TREE/arch/powerpc/kernel/rtas.c" && fail "tree: the variant changed nothing"
printf 'int menu_select(struct cpuidle_driver *drv, struct cpuidle_device *dev, bool *stop_tick)\n{\n\treturn this does not compile;\n}\n' \
  >"$TREE/drivers/cpuidle/governors/menu.c"
run tree --kernel-tree "$TREE"
expect_rc tree 1
expect_clause tree BUSY-1 failed
expect_clause tree GOV-1 error
# Each component against its spec default: governor's and teo's is mainline,
# idle_core's idle_lock.
expect_text tree "subject reference (busy_delay, xcede, states); mainline (governor, teo); idle_lock (idle_core), exit 1"
run tree_unbuildable_only --kernel-tree "$TREE" --component governor
expect_rc tree_unbuildable_only 3
run tree_unbuildable_allowed --kernel-tree "$TREE" --component governor --allow-unknown
expect_rc tree_unbuildable_allowed 0

# --- nothing judged is never a pass --------------------------------------------
printf 'int unrelated(void)\n{\n\treturn 0;\n}\n' >"$SCRATCH/unrelated.c"
run nothing --source "$SCRATCH/unrelated.c" --component busy_delay
expect_rc nothing 3
run nothing_allowed --source "$SCRATCH/unrelated.c" --component busy_delay --allow-unknown
expect_rc nothing_allowed 0

# --- usage errors: exit 2 at once, as JSON under --json --------------------------
run usage_space --source "$(src faithful)" --budget " 5" --json
expect_rc usage_space 2
for bad in "--subject v9.99" "--function rtas_busy_dealy" "--budget -5" \
           "--budget 0x10" "--seed -1" "--seed 1e3" "--cases 010x" "--memory 12MB" \
           "--junit $SCRATCH/no/such/dir/v.xml" "--sarif $SCRATCH"; do
  name=usage_$(echo "$bad" | tr -c 'a-z0-9' _)
  # shellcheck disable=SC2086  # the option and its value are two words
  run "$name" --source "$(src faithful)" $bad --json
  expect_rc "$name" 2
  [ "$(awk -v s="$SECS" 'BEGIN { print (s < 5) }')" = 1 ] || fail "$name: took ${SECS}s: checked after the run"
  python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["exit_code"]==2 and d["error"], d' \
    "$SCRATCH/$name.out" || fail "$name: no JSON error on stdout"
done
# A leading zero is decimal, not octal.
run decimal --source "$(src faithful)" --component busy_delay --seed 010 --memory 0512 --json
python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$SCRATCH/decimal.out" ||
  fail "decimal: --seed 010 --memory 0512 were refused"
# A function hidden by an unresolved merge conflict is an error naming the
# markers, never "absent" (the text is broken, the function may be there).
{
  sed -n '1,/^bool __ref rtas_busy_delay(int status)/p' "$(src faithful)" | sed '$d'
  printf '<<<<<<< HEAD\nbool __ref rtas_busy_delay(int status)\n=======\nbool rtas_busy_delay(int status)\n>>>>>>> stable\n'
  sed -n '/^bool __ref rtas_busy_delay(int status)/,$p' "$(src faithful)" | sed '1d'
} >"$SCRATCH/conflicted.c"
grep -q '^<<<<<<< HEAD' "$SCRATCH/conflicted.c" || fail "conflicted: no marker written"
run conflicted --source "$SCRATCH/conflicted.c" --component busy_delay
expect_rc conflicted 3
expect_clause conflicted BUSY-1 error
expect_text conflicted "rtas_busy_delay() not found in text with version-control conflict markers (lines "
grep -q "^BUSY-[0-9] \[rtas_busy_delay\] absent" "$SCRATCH/conflicted.out" &&
  fail "conflicted: a function in conflicted text is absent"

# Inputs are regular files: a FIFO in a tree is an error naming it (it
# never blocks), a device is a usage error; a 6 MB source (70,000 helper
# functions before the two judged ones) is extracted and judged.
mkdir -p "$SCRATCH/fifo_tree/arch/powerpc/kernel"
mkfifo "$SCRATCH/fifo_tree/arch/powerpc/kernel/rtas.c"
run fifo --kernel-tree "$SCRATCH/fifo_tree" --component busy_delay
expect_rc fifo 3
expect_text fifo "is a FIFO, not a regular file (inputs must be regular files)"
run device --source /dev/zero --component busy_delay
expect_rc device 2
grep -qF "/dev/zero is a character device, not a regular file" "$SCRATCH/device.err" ||
  fail "device: the error does not name the character device"
python3 -c '
import sys
for i in range(70000):
    sys.stdout.write("static int helper_%d(int x)\n{\n\tif (x > %d) {\n\t\treturn x - %d; /* { */\n\t}\n\treturn 0;\n}\n" % (i, i, i))
' >"$SCRATCH/big.c"
cat "$(src faithful)" >>"$SCRATCH/big.c"
run big --source "$SCRATCH/big.c" --component busy_delay
expect_rc big 0
expect_clause big BUSY-1 held

# --json is valid UTF-8 whatever the bytes: a Latin-1 file name (0xe9) is
# reported as \xe9 (impl/text.h: an invalid byte shown, not echoed raw).
latin1="$SCRATCH/caf$(printf '\351').c"
cp "$(src faithful)" "$latin1"
run latin1 --source "$latin1" --component busy_delay --json
expect_rc latin1 0
python3 -c '
import json, sys
d = json.loads(open(sys.argv[1], "rb").read().decode("utf-8"))
assert "caf\\xe9.c" in d["subject"], d["subject"]' "$SCRATCH/latin1.out" ||
  fail "latin1: --json is not valid UTF-8 JSON naming the file"
finish
