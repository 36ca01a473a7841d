#!/bin/sh
# ctest: budget=120 timeout=1200
# tests/validate/run_series.sh IDLESPEC_VALIDATE [BUDGET_SECONDS]
#
# `idlespec review` of whole series (issue 51), on mail written for this
# suite (tests/validate/series/): every message body and patch is this
# suite's own text in kernel style, after the shape of seeds 000 (the
# extended CEDE series) and 003 (the rtas_busy_delay series v2).
#
#   rtas-v2-thread.mbox   a lore-style thread: cover letter, 2/2 before 1/2,
#                         a reply quoting 1/2 and an "Applied" reply; 1/2 is
#                         quoted-printable, 2/2 base64, the reply ISO-8859-1
#   rtas-v1.mbox          a made-up v1: 1/2 kernel-doc, 2/2 a rework without
#                         the one-second cap that yields on every status
#   rtas-v2-missing.mbox  the thread without 2/2
#   rtas-v2-duplicate.mbox  1/2 sent twice (two Message-IDs)
#   xcede-series/         `git format-patch` output: the parser (1/3), the
#                         CEDE(0) fix-up (2/3), a cleanup outside every
#                         modelled function (3/3)
#   rtas_base/, xcede_base/  the trees at the series' base, in this suite's
#                         words from what the series' context shows
#
# Asserted: the clause changes per patch and net that the cover letters
# claim (v2 fixes BUSY-2 and BUSY-3 in 1/2; 2/2 is documentation), the
# version comparison, the reply mail's headers, quoting and wrapping, a
# missing and a duplicated patch named, and the parser's clauses going from
# absent to judged in the XCEDE series. A patch that changes no text the
# modelled functions are built from is not judged again (its line says so,
# and review's run count shows it).
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
CLAUSES="BUSY-1 BUSY-2 BUSY-3 BUSY-4 BUSY-5 BUSY-7"
COMPONENT=busy_delay
. "$HERE/lib.sh"
S="$HERE/series"
RTAS_TREE="$S/rtas_base"
XCEDE_TREE="$S/xcede_base"
before_tree=$(cd "$S" && find rtas_base xcede_base -type f -exec md5sum {} + | sort)

# expect_line NAME REGEX: a line of the report matches REGEX (grep -E)
expect_line() { grep -qE -- "$2" "$SCRATCH/$1.out" || fail "$1: no line matching '$2'"; }
expect_no_line() { ! grep -qE -- "$2" "$SCRATCH/$1.out" || fail "$1: a line matches '$2'"; }

# --- v2 as a lore thread: per patch, net, replies set aside -------------------
run v2 review "$S/rtas-v2-thread.mbox" --kernel-tree "$RTAS_TREE" --scan sampled --budget "$BUDGET"
# 1/2 also sleeps where the base spun in early boot: BUSY-7 failed on both
# sides, its early-boot inputs failing another way after (review's inputs
# diff, as on 38f7b7067dae): a change, exit 1.
expect_rc v2 1
expect_line v2 '^      BUSY-7 \[rtas_busy_delay\] failed -> failed   .*input\(s\) failing another way' 
expect_text v2 'cover letter "[PATCH v2 0/2] powerpc/rtas: wait as firmware asks on busy and extended delay"'
expect_text v2 '  1/2 "[PATCH v2 1/2] powerpc/rtas: sleep on every extended delay, yield on busy"'
expect_text v2 '      touches arch/powerpc/kernel/rtas.c: rtas_busy_delay'
expect_text v2 '      BUSY-2 [rtas_busy_delay] failed -> held   repaired'
expect_text v2 '      BUSY-3 [rtas_busy_delay] failed -> held   repaired'
# 2/2 documents rtas_busy_delay_time(): nothing to judge again
expect_text v2 '  2/2 "[PATCH v2 2/2] powerpc/rtas: kernel-doc for rtas_busy_delay_time()"'
expect_text v2 '      no change to what the modelled functions are built from: verdicts as before it, not judged again'
expect_text v2 'net effect of v2 against the base:'
expect_text v2 '  BUSY-2 [rtas_busy_delay] failed -> held'
expect_text v2 '  BUSY-3 [rtas_busy_delay] failed -> held'
expect_no_line v2 'NEWLY FAILED'
expect_no_line v2 '^  BUSY-(1|4|5|7) '
# BUSY-7 fails before and after: v5.17's text has no early-boot mode yet
expect_text v2 'after the series: 6 clause(s) judged, 5 held, 1 failed'
expect_text v2 'set aside: 2 reply(ies)'
expect_text v2 '"Re: [PATCH v2 1/2] powerpc/rtas: sleep on every extended delay, yield on busy" (Jürgen Reviewer <juergen@example.org>): a reply, quoting the patch'
# the thread's order was 0, 2, 1: review goes by the tags
line1=$(grep -n '^  1/2 ' "$SCRATCH/v2.out" | cut -d: -f1)
line2=$(grep -n '^  2/2 ' "$SCRATCH/v2.out" | cut -d: -f1)
[ -n "$line1" ] && [ -n "$line2" ] && [ "$line1" -lt "$line2" ] || fail "v2: 1/2 is not reviewed before 2/2"

# --- v1 against v2: what v2 changed in the verdicts ---------------------------
run versions review "$S/rtas-v2-thread.mbox" --against "$S/rtas-v1.mbox" --kernel-tree "$RTAS_TREE" \
  --scan sampled --budget "$BUDGET"
expect_rc versions 1
expect_text versions 'idlespec review: series v1, 2 patch(es)'
expect_text versions '      BUSY-5 [rtas_busy_delay] held -> failed   NEWLY FAILED'
expect_text versions 'bisect: BUSY-5 [rtas_busy_delay] first fails at 2/2'
expect_text versions 'exit 1 (for this version)'
expect_text versions 'between the versions:'
expect_text versions '  v1 broke BUSY-5 [rtas_busy_delay] in 2/2; v2 holds it'
expect_text versions '  v1 and v2 both fix BUSY-2 [rtas_busy_delay] (v1 in 2/2, v2 in 1/2)'
expect_text versions '  v2 fixes BUSY-3 [rtas_busy_delay] in 1/2, which v1 left failed'

# --- the reply to v1's 2/2 -----------------------------------------------------
run reply review "$S/rtas-v1.mbox" --kernel-tree "$RTAS_TREE" --scan sampled --budget "$BUDGET" \
  --reply "$SCRATCH/reply.mbox"
expect_rc reply 1
expect_text reply "reply: $SCRATCH/reply.mbox"
M="$SCRATCH/reply.mbox"
[ -s "$M" ] || fail "reply: no mail written"
[ "$(grep -c '^From ' "$M")" = 1 ] || fail "reply: expected one mail (only 2/2 newly fails a clause)"
grep -qx 'Subject: Re: \[PATCH 2/2\] powerpc/rtas: always wait on an extended delay' "$M" || fail "reply: subject"
grep -qx 'In-Reply-To: <20261019120000.2-ada@example.org>' "$M" || fail "reply: In-Reply-To"
grep -qx 'References: <20261019120000.0-ada@example.org>' "$M" &&
  grep -qx ' <20261019120000.2-ada@example.org>' "$M" || fail "reply: References (folded, the patch's id last)"
grep -qx 'To: Ada Lovelace-Byron <ada@example.org>' "$M" || fail "reply: To is not the author"
grep -qx 'Content-Type: text/plain; charset=UTF-8' "$M" || fail "reply: not plain text"
grep -qx 'On Mon, 19 Oct 2026 12:00:02 +0000, Ada Lovelace-Byron wrote:' "$M" || fail "reply: attribution"
# the hunk of rtas_busy_delay() is quoted, and the clause is said under it
grep -q '^> @@ .* unsigned int rtas_busy_delay_time(int status)$' "$M" || fail "reply: the hunk is not quoted"
grep -q '^> +bool rtas_busy_delay(int status)$' "$M" || fail "reply: rtas_busy_delay's lines are not quoted"
hunk=$(grep -n '^> @@' "$M" | head -1 | cut -d: -f1)
says=$(grep -n '^This breaks BUSY-5 for rtas_busy_delay() (spec/busy_delay.md):$' "$M" | cut -d: -f1)
[ -n "$hunk" ] && [ -n "$says" ] && [ "$hunk" -lt "$says" ] || fail "reply: BUSY-5 is not said under the hunk"
grep -q '^  For any status that is neither busy nor extended the policy requests' "$M" ||
  fail "reply: the clause's sentence is missing"
grep -q '^  status 0x00000000 (0), need_resched=0: ' "$M" || fail "reply: the counterexample is missing"
grep -q '^  idlespec validate --source arch/powerpc/kernel/rtas.c' "$M" || fail "reply: the replay command is missing"
# nothing else quoted: not the commit message, not the other file's diff
! grep -q '^> Wait the hinted time' "$M" || fail "reply: the commit message is quoted"
! grep -q '^> diff --git a/arch/powerpc/include/asm/rtas.h' "$M" || fail "reply: rtas.h is quoted"
# plain text: no HTML, no Markdown; 72 columns outside the quoted code
! grep -qE '<html|<p>|^```|\*\*|^#+ ' "$M" || fail "reply: HTML or Markdown in the mail"
awk '!/^>/ && !/^(References|In-Reply-To|Subject|From |To|Cc):/ && length($0) > 72 { print; bad = 1 }
     END { exit bad }' "$M" >"$SCRATCH/reply.long" || fail "reply: lines over 72 columns: $(cat "$SCRATCH/reply.long")"
# witness: v2 newly fails no clause (BUSY-7 was failed before), so --reply
# writes no mail; the exit is still the input change's
run reply_none review "$S/rtas-v2-thread.mbox" --kernel-tree "$RTAS_TREE" --scan sampled --budget "$BUDGET" \
  --reply "$SCRATCH/none.mbox"
expect_rc reply_none 1
expect_text reply_none 'no reply written (no clause newly failed)'
[ ! -e "$SCRATCH/none.mbox" ] || fail "reply_none: a mail was written"

# --- both versions in one thread: the same comparison without --against -------
cat "$S/rtas-v1.mbox" "$S/rtas-v2-thread.mbox" >"$SCRATCH/both.mbox"
run both review "$SCRATCH/both.mbox" --kernel-tree "$RTAS_TREE" --scan sampled --budget "$BUDGET"
expect_rc both 1
expect_text both '  v1 broke BUSY-5 [rtas_busy_delay] in 2/2; v2 holds it'

# --- --json: the same review as data -------------------------------------------
run v2_json review "$S/rtas-v2-thread.mbox" --kernel-tree "$RTAS_TREE" --scan sampled --budget "$BUDGET" --json
expect_rc v2_json 1
python3 - "$SCRATCH/v2_json.out" >"$SCRATCH/v2_json.check" 2>&1 <<'PY' || fail "v2_json: $(cat "$SCRATCH/v2_json.check")"
import json, sys
r = json.load(open(sys.argv[1]))
v = r["versions"][-1]
problems = []
if [p["judged"] for p in v["patches"]] != ["judged", "carried"]:
    problems.append("judged: %s" % [p["judged"] for p in v["patches"]])
if sorted((c["id"], c["before"], c["after"]) for c in v["net"]) != [("BUSY-2", "failed", "held"), ("BUSY-3", "failed", "held"), ("BUSY-6", "failed", "held")]:
    problems.append("net: %s" % v["net"])
if v["patches"][0]["message_id"] != "20261102093000.1-ada@example.org":
    problems.append("message_id: %s" % v["patches"][0]["message_id"])
if len(r["replies"]) != 2 or r["exit_code"] != 1:
    problems.append("replies/exit: %s %s" % (r["replies"], r["exit_code"]))
if problems:
    print("; ".join(problems))
    sys.exit(1)
PY

# --- a missing and a duplicated patch ------------------------------------------
run missing review "$S/rtas-v2-missing.mbox" --kernel-tree "$RTAS_TREE" --scan sampled --budget "$BUDGET"
expect_rc missing 2
expect_text missing 'not reviewed: v2 lacks 2/2 (fetch the whole thread, e.g. with b4 am)'
expect_text missing 'no net effect: v2 was not reviewed to its end'
# a tree the series does not apply to: patch(1)'s words, naming the user's tree
mkdir -p "$SCRATCH/empty_tree"
run wrong_base review "$S/rtas-v2-thread.mbox" --kernel-tree "$SCRATCH/empty_tree" --budget "$BUDGET"
expect_rc wrong_base 2
expect_text wrong_base "not reviewed: 1/2 does not apply to the tree: arch/powerpc/include/asm/rtas.h: not found in the kernel tree $SCRATCH/empty_tree"
run duplicate review "$S/rtas-v2-duplicate.mbox" --kernel-tree "$RTAS_TREE" --scan sampled --budget "$BUDGET"
expect_rc duplicate 2
expect_text duplicate 'not reviewed: v2 1/2 twice: <20261102093000.1-ada@example.org> and <20261102093500.1-ada@example.org>'

# several files on the command line: the cover letter and 1/3 alone
run files review "$S/xcede-series/0000-cover-letter.patch" \
  "$S/xcede-series/0001-cpuidle-pseries-decode-the-cede-latency-settings-par.patch" \
  --kernel-tree "$XCEDE_TREE" --budget "$BUDGET"
expect_rc files 2
expect_text files 'not reviewed: v1 lacks 2/3, 3/3 (fetch the whole thread, e.g. with b4 am)'

# --- the XCEDE series as the parser appears (a format-patch directory) ---------
run xcede review "$S/xcede-series" --kernel-tree "$XCEDE_TREE" --budget "$BUDGET" --fuzz 0 --cases 20
expect_rc xcede 0
expect_text xcede 'cover letter "[PATCH 0/3] cpuidle: pseries: extended CEDE latency information"'
# 1/3: the parser appears, and every XCEDE clause is judged on it
for c in XCEDE-1 XCEDE-2 XCEDE-3 XCEDE-4 XCEDE-5 XCEDE-6 XCEDE-7 XCEDE-8; do
  expect_text xcede "      $c [parse_cede_parameters] absent -> held"
done
# 2/3: the CEDE(0) fix-up appears; the probe now takes firmware's latency on
# POWER10, which the base (fixed 10 us) fails
expect_text xcede '      STATES-3 [fixup_cede0_latency] absent -> held'
expect_text xcede '      STATES-4 [fixup_cede0_latency] absent -> held'
# Parser-only text has no fix-up: STATES-6 is absent there (issue 49).
expect_text xcede '      STATES-6 [pseries_idle_probe] absent -> held'
expect_text xcede 'after the series: 14 clause(s) judged, 14 held, 0 failed'
expect_text xcede '  3/3 "[PATCH 3/3] cpuidle: pseries: flatten the CPU online callback"'
expect_text xcede '      no change to what the modelled functions are built from: verdicts as before it, not judged again'
expect_line xcede '^  XCEDE-1 \[parse_cede_parameters\] absent -> held'

# the trees were only read
after_tree=$(cd "$S" && find rtas_base xcede_base -type f -exec md5sum {} + | sort)
[ "$before_tree" = "$after_tree" ] || fail "the base trees were modified"
finish
