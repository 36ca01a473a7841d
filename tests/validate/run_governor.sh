#!/bin/sh
# ctest: budget=60 timeout=300
# tests/validate/run_governor.sh IDLESPEC_VALIDATE [BUDGET_SECONDS]
#
# The end-to-end test of `idlespec validate` on the governor component: the
# faithful menu governor of governor_faithful.c (the `mainline` subject of
# impl/governor.h, validate's default for the governor) holds every clause
# but GOV-6, whose counterexamples spec/governor.md accepts for every subject
# (found, then `accepted`), and equals the mainline subject on every
# selection; the v6.19 form of it fails GOV-9, naming 80606f4eb8d7, and is
# `accepted` under --subject v6.19; each variant derived from
# it with sed fails exactly the clauses its bug breaks, with a shrunk
# counterexample that names the table and the steps; the era variants
# (another upstream predictor) pass. The variants whose findings do not come
# from a sanitizer run without the ASan+UBSan build (half the time each).
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
CLAUSES="GOV-1 GOV-2 GOV-3 GOV-4 GOV-5 GOV-7 GOV-8 GOV-9"
COMPONENT=governor
. "$HERE/lib.sh"
# The faithful governor and its variants do what mainline does: a polling
# time-out after a selection that did not consult the timer stores the
# truncated KTIME_MAX, the GOV-8 violation spec/governor.md accepts for every
# subject; validate shows it as `accepted`. The microsecond-era files below
# always consult the timer and hold GOV-8 (ACCEPTED is cleared for them).
ACCEPTED="GOV-8"

# The walk, the trivial check and the tick correction all take disabled
# states (GOV-1; GOV-2 as well: the disabled state 0 it falls back to is
# over the limit and is not the first enabled state; GOV-3: a disabled state
# 0 taken by the trivial return is not the fall-back, and its residency
# exceeds the prediction: GOV-3 judged by the clause's words, as no
# subject's walk gives such a choice).
variant ignores_disabled '/variant: ignores_disabled/s/return dev->states_usage\[k\].disable != 0;/return false;/'
# The QoS limit checked after the residency block, as before 779b1a1cb13a:
# with the tick stopped the promotion returns a state over the limit (GOV-2).
variant limit_after_residency '/variant: limit_after_residency/s/if (st->exit_latency_ns > qos_ns)/if (0)/'
# The time to the timer times the correction factor in 32 bits (GOV-5).
variant prediction_32bit '/variant: prediction_32bit/s/= md->next_timer_ns \*/= (u32)md->next_timer_ns */'
# menu_update()'s ratio formed in 32 bits: RESOLUTION times a period in ns
# wraps from 4.2 ms (GOV-5, a factor that exact arithmetic does not give and
# the wrapped ratio does).
variant ratio_32bit '/variant: ratio_32bit/s/div64_u64(RESOLUTION \* got_ns,/div64_u64((u32)(RESOLUTION * got_ns),/'
# The exit latency deducted from every period, unguarded: a period shorter
# than the exit latency wraps the u64 duration, which the timer's clamp then
# turns into the whole time to the next timer (GOV-5, the deduction named);
# where the timer was not consulted that is KTIME_MAX, and the ring stores it
# truncated (GOV-8, following from the wrap).
variant deduct_always '/variant: deduct_always/s/if (got <= 2 \* used->exit_latency_ns)/if (0)/'
# The predictor's sum of squared intervals in 32 bits: eight periods of
# tens of ms overflow it, the spread reads as huge and the predictor gives
# up or averages fewer samples (GOV-5: the file's get_typical_interval(),
# read back on the ring it predicted from, answers what the both-ends
# predictor answers with that sum in 32 bits, and exact arithmetic does not).
variant squares_32bit '/variant: squares_32bit/s/u64 total = 0, total_sq = 0;/u64 total = 0; u32 total_sq = 0;/'
# Upstream's predictor of 85975daeaa4d (v6.15 until its revert, and 6.6.y):
# with at most 3/4 and at least half of the samples left, their maximum
# instead of no prediction. Another prediction, no wrap: everything held.
# With it, the v5.x way of predicting: the timer always consulted, its
# estimate in a 64-bit word.
variant era_predictor '/variant: keeps_max/s/return UINT_MAX;/return rs.n * 2 >= RING_LEN ? rs.hi : UINT_MAX;/
/variant: timer_always/{s/if (guess_ns <= RESIDENCY_THRESHOLD_NS)/if (0)/;s/unsigned int us =/u64 us =/}'
# The ring stores the learned duration in ns instead of us (GOV-8, and only
# GOV-8: the predictor reads the ring as the file wrote it).
variant ring_ns '/variant: ring_ns/s/ring_record(md, ktime_to_us(slept_ns));/ring_record(md, slept_ns);/'
# v6.19 (and reference): with the tick stopped and a short typical interval
# the timer is not looked up, and the stopped-tick replacement takes the
# distant KTIME_MAX (the bug 80606f4eb8d7 fixed); no SAFE_TIMER_RANGE_NS.
variant v6_19 '/variant: stopped_skips_timer/s/!tick_nohz_tick_stopped()) {/1) {/
/variant: no_safe_range/s/md->next_timer_ns > SAFE_TIMER_RANGE_NS)/1)/'
# Debian 6.12.117's form: 80606f4eb8d7 backported, e57c2bf2e89d not. The
# timer replaces a short guess even when it is close: shallower or equal,
# never deeper; every clause holds.
variant no_safe_range '/variant: no_safe_range/s/md->next_timer_ns > SAFE_TIMER_RANGE_NS)/1)/'
# No guard for a negative sleep length, as in 5.7 to 5.11: S64_MIN, one of
# the boundary inputs, becomes a next timer 0 ns away with a deep state
# chosen (GOV-9), which the subjects, all of them guarded, do not do.
variant no_negative_guard '/variant: no_negative_guard/s/if (unlikely(sleep_len < 0)) {/if (0) {/'

# The faithful governor, as a kernel tree holds it, --json: one entry per
# clause.
TREE="$SCRATCH/tree"
mkdir -p "$TREE/drivers/cpuidle/governors"
cp "$(src faithful)" "$TREE/drivers/cpuidle/governors/menu.c"
run faithful --kernel-tree "$TREE" --component governor --budget "$BUDGET" --json
expect_rc faithful 0
python3 - "$SCRATCH/faithful.out" <<'PY' || fail "faithful: unexpected JSON"
import json, sys
d = json.load(open(sys.argv[1]))
st = {c["id"]: c for c in d["clauses"]}
text = json.dumps(d)
assert sorted(st) == ["GOV-%d" % i for i in range(1, 10)], st.keys()
assert all(st["GOV-%d" % i]["status"] == "held" for i in (1, 2, 3, 4, 5, 7, 9)), st
assert d["judged_subject"] == "mainline", d["judged_subject"]
assert st["GOV-5"]["function"] == "menu_update" and st["GOV-5"]["line"] > 0
assert st["GOV-1"]["file"].endswith("drivers/cpuidle/governors/menu.c"), st["GOV-1"]["file"]
# GOV-6: both halves of the spec's counterexample found, then accepted.
assert st["GOV-6"]["status"] == "accepted", st["GOV-6"]
cx = " ".join(st["GOV-6"]["counterexamples"])
assert "limit: HZ 250, states 0 0/0, 1 0/401000, 2 1552000/67120000 ns (exit/target)" in cx, cx
assert "from the longer prediction" in cx, cx
# GOV-3: every selection the reference's walk of its own prediction.
assert "0 of a prediction exact arithmetic does not give, 0 judged by the clause's words" in st["GOV-3"]["coverage"], st["GOV-3"]
assert "equal subject mainline on all" in text
assert "get_typical_interval() read back on " in st["GOV-5"]["coverage"], st["GOV-5"]
# GOV-8: the truncation the spec accepts for every subject observed (a
# polling time-out after a selection that did not consult the timer, as
# mainline does): `accepted`, by the spec's acceptance for mainline, with the
# spec's "Fixed by: none (...)" and its finding page; not `held`.
g8 = st["GOV-8"]
assert g8["status"] == "accepted", g8
assert "observed the truncation spec/governor.md accepts" in g8["note"], g8
assert g8["spec_note"].startswith("the spec accepts this for mainline: "), g8
assert "fixed by: none (open upstream" in g8["spec_note"], g8
assert "docs/findings/gov-8-poll-timeout.md" in g8["spec_note"], g8
assert g8["fixed_by"] == "", g8
assert "menu_update() stored 2783138807 us" in " ".join(g8["counterexamples"]), g8
PY
# The same in the other formats: the text report, SARIF (a suppressed
# result naming the finding page) and JUnit (not a failure).
run faithful_text --kernel-tree "$TREE" --component governor --budget "$BUDGET" --no-sanitizers \
  --sarif "$SCRATCH/faithful.sarif" --junit "$SCRATCH/faithful.junit" --markdown "$SCRATCH/faithful.md"
expect_rc faithful_text 0
expect_clause faithful_text GOV-8 accepted
expect_text faithful_text "fixed by: none (open upstream at the newest subject: see docs/findings/gov-8-poll-timeout.md)"
python3 - "$SCRATCH/faithful.sarif" "$SCRATCH/faithful.junit" "$SCRATCH/faithful.md" <<'PY' || fail "faithful: GOV-8 not accepted in SARIF, JUnit or Markdown"
import json, sys, xml.etree.ElementTree as ET
runs = json.load(open(sys.argv[1]))["runs"]
g8 = [r for run in runs for r in run["results"] if r["ruleId"] == "GOV-8"]
assert len(g8) == 1 and g8[0].get("suppressions"), g8
assert "docs/findings/gov-8-poll-timeout.md" in g8[0]["message"]["text"], g8
case = [t for t in ET.parse(sys.argv[2]).iter("testcase") if t.get("name") == "GOV-8 menu_update"]
assert len(case) == 1 and case[0].find("failure") is None, case
assert "docs/findings/gov-8-poll-timeout.md" in case[0].find("system-out").text
row = [l for l in open(sys.argv[3]) if l.startswith("| GOV-8 ")]
assert len(row) == 1 and "| accepted |" in row[0] and "gov-8-poll-timeout.md" in row[0], row
PY

# The v6.19 form: GOV-9 failed, as the older subjects do, naming the fix;
# with --subject v6.19 the spec's acceptance applies.
run v6_19 --source "$(src_variant v6_19)" --component governor --budget "$BUDGET" --no-sanitizers
expect_rc v6_19 1
expect_only_failed v6_19 GOV-9
expect_text v6_19 "fixed upstream by 80606f4eb8d7"
expect_text v6_19 "tick stopped: state "
expect_text v6_19 "ns > the time to the next timer "
expect_no_driver_crash v6_19
run v6_19_subject --source "$(src_variant v6_19)" --component governor --budget "$BUDGET" --no-sanitizers --subject v6.19
expect_rc v6_19_subject 0
expect_clause v6_19_subject GOV-9 accepted
run no_safe_range --source "$(src_variant no_safe_range)" --component governor --budget "$BUDGET" --no-sanitizers
expect_rc no_safe_range 0
expect_only_failed no_safe_range
expect_clause no_safe_range GOV-9 held

# Its GOV-9 failure is not the one the spec accepts for v6.14 to v6.19
# (fixed by 80606f4eb8d7): replayed on the counterexample, those subjects
# hold GOV-9, and the report names neither the acceptance nor the commit.
run no_negative_guard --source "$(src_variant no_negative_guard)" --component governor --budget "$BUDGET" --no-sanitizers
expect_rc no_negative_guard 1
expect_clause no_negative_guard GOV-9 failed
expect_text no_negative_guard "sleep -9223372036854775808 ns"
expect_text no_negative_guard "the spec accepts a GOV-9 violation for v6.14, seed-v2, seed-threshold, reference, v6.19, but none of them breaks"
grep -q "80606f4eb8d7" "$SCRATCH/no_negative_guard.out" && fail "no_negative_guard: names 80606f4eb8d7 for a GOV-9 failure the accepting subjects do not share"
# Replayed on every failing input, the subjects make the file's choice on
# one (not consulting the timer after short idle periods, the accepted
# violation, they take the same deep state) and on the others not: a file
# failing where no subject does fails another way, whatever else it shares.
expect_text no_negative_guard "some subject makes the file's choice too, on "
expect_no_driver_crash no_negative_guard
# ... and judged against v6.19, whose GOV-9 violation the spec accepts, it
# still fails: the acceptance does not cover a violation v6.19 does not share.
run no_negative_guard_v6_19 --source "$(src_variant no_negative_guard)" --component governor --budget "$BUDGET" --no-sanitizers --subject v6.19
expect_rc no_negative_guard_v6_19 1
expect_clause no_negative_guard_v6_19 GOV-9 failed

run ignores_disabled --source "$(src_variant ignores_disabled)" --component governor --budget "$BUDGET" --no-sanitizers
expect_rc ignores_disabled 1
expect_only_failed ignores_disabled GOV-1 GOV-2 GOV-3
expect_text ignores_disabled "the largest prediction a known predictor makes from the file's learned state (no subject's walk gives this choice"
expect_text ignores_disabled "the file chose idx=0 stop_tick=0: state 0 is disabled (first enabled is 1)"
expect_text ignores_disabled "replay (--keep-temp): printf '0 1000 0:0:pd,12000:120000:- "
# Its GOV-2 failure (the disabled state 0 over the limit) is not the one the
# spec accepts for v6.14: replayed on the counterexample, those subjects hold
# GOV-2, so neither the acceptance nor 779b1a1cb13a is named.
expect_text ignores_disabled "the spec accepts a GOV-2 violation for v6.14, seed-v2, seed-threshold, but none of them breaks"
grep -q "779b1a1cb13a" "$SCRATCH/ignores_disabled.out" && fail "ignores_disabled: names 779b1a1cb13a for a GOV-2 failure v6.14 does not share"
expect_no_driver_crash ignores_disabled

run limit_after_residency --source "$(src_variant limit_after_residency)" --component governor --budget "$BUDGET" --no-sanitizers
expect_rc limit_after_residency 1
expect_only_failed limit_after_residency GOV-2
expect_text limit_after_residency "states 0 poll 0/0, 1 5000/5000, 2 200000/2000000 ns (exit/target)"
expect_text limit_after_residency "the file chose idx=2 stop_tick=1: state 2 exit latency 200000 ns > limit 20000 ns"
expect_no_driver_crash limit_after_residency

run prediction_32bit --source "$(src_variant prediction_32bit)" --component governor --budget "$BUDGET" --no-sanitizers
expect_rc prediction_32bit 1
expect_only_failed prediction_32bit GOV-5
# The wrap the arithmetic shows: the file's timer estimate recomputed from
# its own next_timer and factor, with the product in 32 bits, is what the
# walk took (not a choice nothing else explains).
expect_text prediction_32bit "the prediction wrapped: the timer estimate's product (time to the next timer x correction factor) in 32 bits: "
expect_text prediction_32bit ") exceeds 2^32; so computed, with the "
expect_text prediction_32bit "'s walk of it gives the file's choice; exact arithmetic predicts "
expect_text prediction_32bit "note: the prediction is recomputed from the file's own inputs"
expect_no_driver_crash prediction_32bit

run ratio_32bit --source "$(src_variant ratio_32bit)" --component governor --budget "$BUDGET" --no-sanitizers
expect_rc ratio_32bit 1
expect_only_failed ratio_32bit GOV-5
expect_text ratio_32bit ": the ratio formed in 32 bits"
expect_no_driver_crash ratio_32bit

# GOV-5 is the failure the wrap is read by (issue 41: it held, and only a
# GOV-8 finding about the ring pointed at the bug); judged against v6.19 as
# the issue's run was, and against the default subject.
for subj in v6.19 mainline; do
  run deduct_always_$subj --source "$(src_variant deduct_always)" --component governor --budget "$BUDGET" --no-sanitizers --subject $subj
  expect_rc deduct_always_$subj 1
  expect_only_failed deduct_always_$subj GOV-5 GOV-8
  expect_text deduct_always_$subj "the exit latency deduction wrapped: the file learned at least "
  expect_text deduct_always_$subj " is negative (exact arithmetic: half the residency"
  # GOV-8 (the KTIME_MAX the wrap was clamped to, truncated in the ring) says
  # that it follows from GOV-5; a period between one and two exit latencies,
  # deducted without a wrap, is another learning rule stored faithfully: no
  # GOV-8 of its own.
  expect_text deduct_always_$subj "note: follows from GOV-5: on every failing input"
  expect_text deduct_always_$subj "follows from GOV-5 (the update wrapped): menu_update() stored 2783138807 us"
  expect_no_driver_crash deduct_always_$subj
done

run squares_32bit --source "$(src_variant squares_32bit)" --component governor --budget "$BUDGET" --no-sanitizers
expect_rc squares_32bit 1
expect_only_failed squares_32bit GOV-5
expect_text squares_32bit "the predictor's sums wrapped: get_typical_interval() answered "
expect_text squares_32bit "predictor with the sum of the squared intervals in 32 bits (exact: "
expect_no_driver_crash squares_32bit

ACCEPTED=""
# menu_select() of v4.17 to v4.19 (this suite's own, governor_v417_select.c,
# on the rest of governor_us_era.c): the tick-stopped promotion of
# 5ef499cd571c returns a state over the limit (GOV-2), and there is no early
# return of state 0. The subjects, replayed from the file's state, return
# state 0 early where state 1 is over the limit, so the counterexample must
# not shrink into such a table: the report names the acceptance for the
# v6.14 family and its fix (RHEL 8.1's 4.18 and the 4.14-4.19 backports
# were said to "fail another way").
V417="$SCRATCH/governor_v417_era.c"
{ sed '/^static int menu_select(/,$d' "$HERE/governor_us_era.c"; cat "$HERE/governor_v417_select.c"; } >"$V417"
run v417_era --source "$V417" --component governor --budget "$BUDGET" --no-sanitizers
expect_rc v417_era 1
expect_only_failed v417_era GOV-2
expect_text v417_era "GOV-2 [menu_select] failed: as v6.14, seed-v2, seed-threshold (the spec accepts this violation there); fixed upstream by 779b1a1cb13a"
expect_text v417_era "the file chose idx=2 stop_tick=1: state 2 exit latency 200000 ns > limit 20000 ns"
grep -q "none of them breaks" "$SCRATCH/v417_era.out" && fail "v417_era: the accepted GOV-2 failure said to be another"
expect_no_driver_crash v417_era
# The microsecond-era file with a predictor that keeps the largest sample
# when at least half remain (as a stable tree's backport does, Excito's
# 6.1.142 among them): it predicts otherwise than every subject, and walks
# as the v6.14 family to the same GOV-2 violation. The subjects are compared
# on the walk of the known predictors' predictions from the file's learned
# state too, so the acceptance and its fix are named.
USMAX="$SCRATCH/governor_us_era_keeps_max.c"
sed '/if (n \* 4 <= RING \* 3)$/{n;s/return UINT_MAX;/return n * 2 >= RING ? top : UINT_MAX;/}' "$HERE/governor_us_era.c" >"$USMAX"
grep -q "return n \* 2 >= RING ? top : UINT_MAX;" "$USMAX" || fail "us_era_keeps_max: not made"
run us_era_keeps_max --source "$USMAX" --component governor --budget "$BUDGET" --no-sanitizers
expect_rc us_era_keeps_max 1
expect_clause us_era_keeps_max GOV-2 failed
expect_text us_era_keeps_max "GOV-2 [menu_select] failed: as v6.14, seed-v2, seed-threshold (the spec accepts this violation there); fixed upstream by 779b1a1cb13a"
expect_no_driver_crash us_era_keeps_max

run us_era --source "$HERE/governor_us_era.c" --component governor --budget "$BUDGET" --no-sanitizers
expect_rc us_era 1
expect_only_failed us_era GOV-2
expect_clause us_era GOV-6 accepted
expect_text us_era "fixed upstream by 779b1a1cb13a"
expect_text us_era "the inputs are stated in whole microseconds"
expect_no_driver_crash us_era

# The form of before v4.17's idle loop rework, made from the v5.x file:
# menu_select(drv, dev) without stop_tick, the argument-less
# tick_nohz_get_sleep_length(), the limit from pm_qos_request(). The harness
# calls it by its signature, every input has the tick stopped (the idle loop
# stopped it before asking the governor then), and it is judged.
PRE="$SCRATCH/governor_pre_rework.c"
sed -e '/^static int menu_select(struct cpuidle_driver \*drv, struct cpuidle_device \*dev,$/{N;s/,\n[[:space:]]*bool \*stop_tick)/)/}' \
    -e 's/\*stop_tick = [^;]*;/(void)0;/' \
    -e 's/md->next_timer_us = ktime_to_us(tick_nohz_get_sleep_length(&tick_left));/tick_left = tick_nohz_get_sleep_length(); md->next_timer_us = ktime_to_us(tick_left);/' \
    -e 's/int bound = cpuidle_governor_latency_req(dev->cpu);/int bound = pm_qos_request(PM_QOS_CPU_DMA_LATENCY);/' \
    "$HERE/governor_us_era.c" >"$PRE"
grep -q "menu_select(struct cpuidle_driver \*drv, struct cpuidle_device \*dev)$" "$PRE" &&
  grep -q "pm_qos_request(PM_QOS_CPU_DMA_LATENCY)" "$PRE" && grep -q "tick_nohz_get_sleep_length()" "$PRE" &&
  ! grep -q "stop_tick" "$PRE" || fail "pre_rework: the v4.x form was not made"
run pre_rework --source "$PRE" --component governor --budget "$BUDGET" --no-sanitizers
expect_rc pre_rework 1
expect_only_failed pre_rework GOV-2
expect_text pre_rework "menu_select(drv, dev) without stop_tick: the governor of before v4.17"
grep -q "ns, tick running" "$SCRATCH/pre_rework.out" && fail "pre_rework: an input with the tick running"
expect_no_driver_crash pre_rework
# ... answering -1 when no state is enabled, as before v4.4: that answer is
# "no state" (the core ran its default idle), not an index outside the table.
sed 's/^\t\tpick = 0;$/\t\tpick = -1;/' "$PRE" >"$SCRATCH/governor_pre_rework_minus_one.c"
cmp -s "$PRE" "$SCRATCH/governor_pre_rework_minus_one.c" && fail "pre_rework_minus_one: nothing changed"
run pre_rework_minus_one --source "$SCRATCH/governor_pre_rework_minus_one.c" --component governor --budget "$BUDGET" --no-sanitizers
expect_clause pre_rework_minus_one GOV-7 held
expect_text pre_rework_minus_one "ended where menu_select() answered -1, no state"
expect_no_driver_crash pre_rework_minus_one

# menu_select() of v4.4 to v4.12 (this suite's own, governor_v44_select.c,
# on the rest of governor_us_era.c): the fall-back is
# CPUIDLE_DRIVER_STATE_START, 0, and its disable flag is never read, so a
# disabled state 0 is chosen when no deeper state fits. GOV-1, -2, -3 and -9
# fail, each reported as the era's (spec/governor.md, "- Era v4.4-v4.12:")
# with the commit that fixed it; with v4.13's fall-back (the first enabled
# state) every clause holds.
V413="$SCRATCH/governor_v413_first_enabled.c"
V44="$SCRATCH/governor_v44_era.c"
{ sed '/^static int menu_select(/,$d' "$HERE/governor_us_era.c"; cat "$HERE/governor_v44_select.c"; } >"$V413"
sed 's/if (off(drv, dev, pick)) { \/\* variant: first_enabled \*\//if (0) {/' "$V413" >"$V44"
cmp -s "$V413" "$V44" && fail "v44_era: nothing changed"
run v413_first_enabled --source "$V413" --component governor --budget "$BUDGET" --no-sanitizers
expect_only_failed v413_first_enabled
expect_clause v413_first_enabled GOV-1 held
expect_text v413_first_enabled "menu_select(drv, dev) without stop_tick: the governor of before v4.17"
expect_no_driver_crash v413_first_enabled
run v44_era --source "$V44" --component governor --budget "$BUDGET" --no-sanitizers
expect_rc v44_era 1
expect_only_failed v44_era GOV-1 GOV-2 GOV-3 GOV-9
expect_text v44_era "state 0 is disabled (first enabled is 1)"
[ "$(grep -c "as text of the era v4.4-v4.12 (no subject of the spec)" "$SCRATCH/v44_era.out")" -ge 4 ] ||
  fail "v44_era: not every failure named as the era's"
expect_text v44_era "fixed upstream by 3ed09c94580d"
expect_no_driver_crash v44_era
# The same failure in text of another shape (no fall-back assigned from
# CPUIDLE_DRIVER_STATE_START) is not the era's: ignores_disabled above.
grep -q "as text of the era" "$SCRATCH/ignores_disabled.out" && fail "ignores_disabled: named as the v4.4 era"

# GOV-8 by era: before v3.16 menu_update() stored `last_idle_us`, the period
# as the core measured it, in the ring while the factor learned another
# duration. The us-era file made to store it that way holds GOV-8 (judged by
# that era's meaning, with a note); the same shape storing half of it fails;
# the residency stored without the era's shape fails by today's meaning.
U="$HERE/governor_us_era.c"
RING="$SCRATCH/governor_ring_era.c"
sed -e 's/unsigned int got, old = md->correction_factor\[md->bucket\];/unsigned int got, old = md->correction_factor[md->bucket], last_idle_us = dev->last_residency;/' \
    -e 's/md->intervals\[md->interval_ptr\] = got;/md->intervals[md->interval_ptr] = last_idle_us;/' "$U" >"$RING"
grep -q "= last_idle_us;" "$RING" && grep -q "last_idle_us = dev->last_residency;" "$RING" || fail "ring_era: not made"
sed 's/last_idle_us = dev->last_residency;/last_idle_us = dev->last_residency \/ 2;/' "$RING" >"$SCRATCH/governor_ring_era_half.c"
sed 's/md->intervals\[md->interval_ptr\] = got;/md->intervals[md->interval_ptr] = dev->last_residency;/' "$U" >"$SCRATCH/governor_ring_modern.c"
cmp -s "$U" "$SCRATCH/governor_ring_modern.c" && fail "ring_modern: nothing changed"
run ring_era --source "$RING" --component governor --budget "$BUDGET" --no-sanitizers
expect_clause ring_era GOV-8 held
expect_clause ring_era GOV-5 held
expect_text ring_era "the ring of before v3.16; GOV-8 is judged by that era's meaning"
expect_no_driver_crash ring_era
run ring_era_half --source "$SCRATCH/governor_ring_era_half.c" --component governor --budget "$BUDGET" --no-sanitizers
expect_clause ring_era_half GOV-8 failed
expect_text ring_era_half "(the ring of that era holds the residency)"
expect_no_driver_crash ring_era_half
run ring_modern --source "$SCRATCH/governor_ring_modern.c" --component governor --budget "$BUDGET" --no-sanitizers
expect_clause ring_modern GOV-8 failed
grep -q "the ring of before v3.16" "$SCRATCH/ring_modern.out" && fail "ring_modern: judged as the old era"
expect_no_driver_crash ring_modern

ACCEPTED="GOV-8"
run era_predictor --source "$(src_variant era_predictor)" --component governor --budget "$BUDGET" --no-sanitizers
expect_rc era_predictor 0
expect_only_failed era_predictor
expect_clause era_predictor GOV-6 accepted
expect_text era_predictor "selections the file's choice is not mainline's walk of the prediction mainline's predictor makes"
expect_text era_predictor "the both-ends keeping the maximum (85975daeaa4d) predictor's prediction"
expect_no_driver_crash era_predictor

run ring_ns --source "$(src_variant ring_ns)" --component governor --budget "$BUDGET" --no-sanitizers
ALL=$CLAUSES
CLAUSES="GOV-1 GOV-2 GOV-3 GOV-4 GOV-5 GOV-7"
expect_only_failed ring_ns
CLAUSES=$ALL
# GOV-8 failed: the ring holds nanoseconds. spec/governor.md accepts one
# GOV-8 violation for every subject (the KTIME_MAX truncation after a poll
# timeout); the judge sets that one apart, so the post-pass does not accept
# this other violation for them and names no fix.
expect_rc ring_ns 1
expect_clause ring_ns GOV-8 failed
expect_text ring_ns "the spec accepts a GOV-8 violation for v6.14, seed-v2, seed-threshold, reference, v6.19, mainline, but"
expect_text ring_ns "us for a learned 13 us"
expect_text ring_ns ": the duration in ns, not us"
expect_no_driver_crash ring_ns

# A walk no subject has (the polling rule without its exit-latency-within-
# the-prediction condition, as upstream's walks have changed in v6.15-v6.19):
# a choice no prediction explains is a walk of its own, named with the
# nearest subject and where it differs; GOV-5 holds (it fails only on a wrap
# the arithmetic shows, never by elimination).
variant new_walk 's/^\t    st->exit_latency_ns <= \*predicted \&\&$/\t    1 \&\&/'
run new_walk --source "$(src_variant new_walk)" --component governor --budget "$BUDGET" --no-sanitizers
expect_clause new_walk GOV-5 held
expect_text new_walk "note: walk: on "
expect_text new_walk "a walk of its own, judged by the clauses' words (GOV-3) and not an overflow"
expect_text new_walk "; nearest subject mainline, first: "
expect_text new_walk "'s walk of its own prediction "
grep -q "walk: a word wrapped\|the prediction wrapped: " "$SCRATCH/new_walk.out" && fail "new_walk: a wrap inferred"
expect_no_driver_crash new_walk

# A predictor no subject has (giving up, it answers the smallest sample
# left; 85975daeaa4d's maximum on a 6.13 text was one such): each choice is
# explained by the file's own prediction computed exactly (its
# get_typical_interval() read back, the timer estimate without a wrap), so
# GOV-5 holds, no choice is blamed on a wrapped word (a 32-bit product that
# the file never computes), and GOV-3 is judged on the file's own walk.
variant own_predictor '/variant: keeps_max/s/return UINT_MAX;/return rs.n ? rs.lo : UINT_MAX;/'
run own_predictor --source "$(src_variant own_predictor)" --component governor --budget "$BUDGET" --no-sanitizers
expect_clause own_predictor GOV-5 held
expect_clause own_predictor GOV-3 held
expect_text own_predictor " 0 of a prediction exact arithmetic does not give, 0 judged by the clause's words"
grep -q "the prediction wrapped: " "$SCRATCH/own_predictor.out" && fail "own_predictor: a wrap inferred"
expect_no_driver_crash own_predictor

# The era of what the ring holds is the text's (next_timer_ns: v5.7 on), not
# the behaviour's: a modern menu_update() that no longer deducts the exit
# latency stores the measured residency, which only the ring of before v3.16
# held; GOV-8 fails with the era named (its factor learns the same way, so
# the range its factor shows would otherwise excuse it).
variant no_deduction '/variant: deduct_always/s/if (got <= 2 \* used->exit_latency_ns)/if (0)/
s/^\t\t\tgot -= used->exit_latency_ns;$/\t\t\tgot += 0;/'
run no_deduction --source "$(src_variant no_deduction)" --component governor --budget "$BUDGET" --no-sanitizers
expect_rc no_deduction 1
expect_clause no_deduction GOV-8 failed
expect_clause no_deduction GOV-5 held
expect_text no_deduction ": the measured residency, which only the ring of before v3.16 held (this text is of the v5.7-on era: its struct menu_device keeps next_timer_ns"
expect_no_driver_crash no_deduction

finish
