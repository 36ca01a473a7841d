#!/bin/sh
# ctest: budget=120 timeout=600
# tests/validate/run_idle_core.sh IDLESPEC_VALIDATE [BUDGET_SECONDS]
#
# The end-to-end test of `idlespec validate` on the idle_core component: the
# faithful power9_idle_stop() of idle_core_faithful.c holds IDLE-1/2/3/7/8/9
# (IDLE-4/5/6 are POWER8's: n/a), and the faithful power7_idle_insn() of
# idle_core_power8_faithful.c holds IDLE-1/2/3/4/5/6/8/9 (IDLE-7 is POWER9's:
# n/a); each variant derived from either with sed fails exactly the clauses
# its bug breaks, with a shrunk schedule and a thread timeline; a variant that
# deadlocks (a thread spins forever on the lock) or livelocks (a cmpxchg
# retry that can never succeed) is reported as a finding, not a hang of the
# test; the lock may be the word's bit or paca->idle_lock (v6.5+). The variants run the plain build only (their
# findings need no sanitizer); the faithful files both.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
CLAUSES="IDLE-1 IDLE-2 IDLE-3 IDLE-7 IDLE-8 IDLE-9"
COMPONENT=idle_core
. "$HERE/lib.sh"
# Against reference: IDLE-10 (validate's default idle_lock judges it with a
# ThreadSanitizer build) is run_idle_core_races.sh's; here it is n/a.
RUN_DEFAULTS="--subject reference"

# The lost state is restored without the lock: the unlock's BUG_ON on the lock bit fires.
variant no_lock '/variant: no_lock/d'
# The first thread drops the lock before restoring the core: another thread
# takes it, finds the first one's bit and returns with PTCR (and the timebase) lost.
variant early_return '/variant: early_return \*\//a\
	word_unlock_rejoin(word);
/variant: early_return (the unlock)/d'
# The unlock forgets the own bit: a running thread whose bit is clear.
variant lost_bit '/variant: lost_bit, no_unlock/s/ | mine;/;/'
# Every thread that lost state resyncs the timebase (before the 2014 redesign).
variant resync_every '/variant: resync_every/s/first_up \&\& //'
# The unlock keeps the lock bit: the thread returns holding it, the next one spins forever.
variant no_unlock '/variant: lost_bit, no_unlock/s/(expected \& ~PNV_CORE_IDLE_LOCK_BIT) | mine/expected | mine/'
# The unlock's retry keeps the value it read first: once a sibling's lock-free
# bit flip lands between the read and the swap, the swap fails forever (a
# livelock: IDLE-8 by the fair-cycle criterion, the cycle as a thread timeline).
STALE='/variant: stale_retry/s/;; expected = seen)/;;)/'
variant stale_retry "$STALE"
# The lock apart from the word (paca->idle_lock, the layout since v6.5) and
# AMOR written back as the constant the kernel keeps it at (since
# 46f9caf1a246): today's upstream shape, every clause holds. Without the
# release of the separate lock the thread returns holding it and the next
# locker spins forever.
LOCK_APART='/variant: lock_apart \*\//s/return word;/return \&paca_ptrs[cpu_first_thread_sibling(raw_smp_processor_id())]->idle_lock;/
/variant: lock_apart (held)/s/(seen \& PNV_CORE_IDLE_LOCK_BIT)/(READ_ONCE(*lock_of(word)) \& PNV_CORE_IDLE_LOCK_BIT)/
/variant: lost_bit, no_unlock, lock_apart/s/(expected \& ~PNV_CORE_IDLE_LOCK_BIT) | mine/expected | mine/'
RELEASE='/variant: lock_apart (release)/a\
	clear_bit_unlock(NR_PNV_CORE_IDLE_LOCK_BIT, lock_of(word));'
AMOR_CONST='/variant: amor_const, amor_lost/s/SPRN_AMOR, //
/variant: amor_const \*\//a\
		mtspr(SPRN_AMOR, ~0UL);'
variant modern "$LOCK_APART
$RELEASE
$AMOR_CONST"
variant lock_apart_kept "$LOCK_APART"
# AMOR not written back at all after a state loss fails IDLE-7.
variant amor_lost '/variant: amor_const, amor_lost/s/SPRN_AMOR, //'
# The v5.2 to v5.11 form: power9_idle_stop(psscr, mmu_on) and the level
# named pnv_first_spr_loss_level. The harness calls it by its signature and
# sets the level by its name: every clause held, as on the modern form.
ERA_5="s/power9_idle_stop(unsigned long psscr)/power9_idle_stop(unsigned long psscr, bool mmu_on)/
s/deep_spr_loss_state/pnv_first_spr_loss_level/g"
variant era_5 "$ERA_5"
# ... and without CIABR among the registers a deep stop restores, as upstream
# before 250ad7a45b1e (v5.11): IDLE-7 failed, the report names the commit.
variant era_5_no_ciabr "$ERA_5
s/ SPRN_CIABR,//"

# The first thread back from a timebase loss does not resync it: the POWER9
# mutant of verify's FirstSkipsResync (IDLE-3, and IDLE-7, its POWER9 form).
variant no_resync '/if (first_up \&\& pls >= pnv_first_tb_loss_level)/{n;s/clock_resync();/;/}'


run faithful --source "$(src faithful)" --budget "$BUDGET"
expect_rc faithful 0
expect_only_failed faithful
for c in IDLE-4 IDLE-5 IDLE-6; do expect_clause faithful "$c" n/a; done
expect_text faithful "SMT2, exhaustive, 2 idle cycles per thread (kinds l,d,t):"
expect_text faithful ", complete"
expect_no_driver_crash faithful

run no_lock --source "$(src_variant no_lock)" --budget "$BUDGET" --no-sanitizers
expect_rc no_lock 1
expect_only_failed no_lock IDLE-1 IDLE-7
expect_text no_lock "(on the wake path) hit a kernel assertion: BUG_ON(!(seen & PNV_CORE_IDLE_LOCK_BIT))"
expect_text no_lock "replay (--keep-temp): printf '0 2 replay "

run early_return --source "$(src_variant early_return)" --budget "$BUDGET" --no-sanitizers
expect_rc early_return 1
expect_only_failed early_return IDLE-3 IDLE-7
expect_text early_return "returned to running with the timebase invalid (lost at move 7, no resync since)"
expect_text early_return "returned to running with the per-core PTCR lost"
expect_text early_return "hw: every thread stopped deep: the core loses SPRs"

run lost_bit --source "$(src_variant lost_bit)" --budget "$BUDGET" --no-sanitizers
expect_rc lost_bit 1
expect_only_failed lost_bit IDLE-2 IDLE-7
expect_text lost_bit "the lock is free and t0's bit is clear, but t0 is running"
expect_text lost_bit "t0: cmpxchg(expect 0x10000000)"

run resync_every --source "$(src_variant resync_every)" --budget "$BUDGET" --no-sanitizers
expect_rc resync_every 1
expect_only_failed resync_every IDLE-9
expect_text resync_every "resynced the timebase having found other threads awake"
expect_text resync_every "note: efficiency clause"

run no_unlock --source "$(src_variant no_unlock)" --budget "$BUDGET" --no-sanitizers
expect_rc no_unlock 1
expect_only_failed no_unlock IDLE-1 IDLE-7 IDLE-8
expect_text no_unlock "returned to running holding the lock"
expect_text no_unlock "can never return: no move is left; seen: t1 spins at test_and_set_bit_lock"
expect_text no_unlock "spins forever at test_and_set_bit_lock"
expect_no_driver_crash no_unlock

run stale_retry --source "$(src_variant stale_retry)" --budget "$BUDGET" --no-sanitizers
expect_rc stale_retry 1
expect_only_failed stale_retry IDLE-8
expect_text stale_retry "livelock: the state after move"
expect_text stale_retry "t1 woke and never returns: at cmpxchg"
expect_text stale_retry "----- the cycle: from here the steps repeat forever"
expect_text stale_retry "$(printf 'step | %-46s| t1' t0)"
expect_text stale_retry ": fails"
expect_text stale_retry "the lock is the word's own bit"
expect_no_driver_crash stale_retry

run no_resync --source "$(src_variant no_resync)" --budget "$BUDGET" --no-sanitizers
expect_rc no_resync 1
expect_only_failed no_resync IDLE-3 IDLE-7
expect_text no_resync "returned to running with the timebase invalid (lost at move 7, no resync since)"

run modern --source "$(src_variant modern)" --budget "$BUDGET" --no-sanitizers
expect_rc modern 0
expect_only_failed modern
expect_text modern "the lock is paca->idle_lock, apart from the word"
expect_text modern ", complete"

run lock_apart_kept --source "$(src_variant lock_apart_kept)" --budget "$BUDGET" --no-sanitizers
expect_rc lock_apart_kept 1
expect_only_failed lock_apart_kept IDLE-1 IDLE-7 IDLE-8
expect_text lock_apart_kept "returned to running holding the lock"
expect_text lock_apart_kept "test_and_set_bit_lock(28) on idle_lock"

run amor_lost --source "$(src_variant amor_lost)" --budget "$BUDGET" --no-sanitizers
expect_rc amor_lost 1
expect_only_failed amor_lost IDLE-7
expect_text amor_lost "with its own AMOR lost"

# LDBAR is a thread's own on POWER9 (spec/idle_core.md, IDLE-7): written
# back by the core's first thread alone, the other
# threads return to running with theirs lost; every thread writing it back
# (as upstream does, and the faithful file) holds.
variant ldbar_core_once 's/{ SPRN_PTCR, SPRN_RPR, SPRN_TSCR }/{ SPRN_PTCR, SPRN_RPR, SPRN_TSCR, SPRN_LDBAR }/
/^\tSPRN_LDBAR,$/d'
run ldbar_core_once --source "$(src_variant ldbar_core_once)" --budget "$BUDGET" --no-sanitizers
expect_rc ldbar_core_once 1
expect_only_failed ldbar_core_once IDLE-7
expect_text ldbar_core_once "with its own LDBAR lost"

run era_5 --source "$(src_variant era_5)" --budget "$BUDGET" --no-sanitizers
expect_rc era_5 0
expect_only_failed era_5

run era_5_no_ciabr --source "$(src_variant era_5_no_ciabr)" --budget "$BUDGET" --no-sanitizers
expect_rc era_5_no_ciabr 1
expect_only_failed era_5_no_ciabr IDLE-7
expect_text era_5_no_ciabr "with its own CIABR lost"
expect_text era_5_no_ciabr "IDLE-7 [power9_idle_stop] failed: upstream has done what the clause asks since 250ad7a45b1e"

# --- POWER8: power7_idle_insn (SMT2/SMT4 DFS, SMT8 PCT, split-core) --------
CLAUSES="IDLE-1 IDLE-2 IDLE-3 IDLE-4 IDLE-5 IDLE-6 IDLE-8 IDLE-9"
P8=$HERE/${COMPONENT}_power8_faithful.c
# variant8 NAME SED-SCRIPT: as variant, from the POWER8 file.
variant8() {
  sed "$2" "$P8" >"$SCRATCH/${COMPONENT}_p8_$1.c"
  cmp -s "$P8" "$SCRATCH/${COMPONENT}_p8_$1.c" && fail "p8 $1: the variant changed nothing"
}
src8() { echo "$SCRATCH/${COMPONENT}_p8_$1.c"; }

# No lock at all: the unlock's assertion on the lock bit fires, and the plain
# stores to the thread bits and the winkle count are made without the lock.
variant8 no_lock '/variant: no_lock/d'
# The no-loss wake of a winkle keeps counting the thread (the spec's IDLE-5
# witness); the inflated count later leaves the winkle bits unset before a
# full winkle, so the subcore's registers are not restored either (IDLE-6).
variant8 winkle_kept '/variant: winkle_kept/s/winkle_leave(word, me);/;/'
# The per-subcore registers are restored only by the first thread of the
# core, not of each subcore: split-core only.
variant8 subcore_by_core '/variant: subcore_by_core/s/local_paca->subcore_sibling_mask/every_thread()/'
# Every thread back from a loss resyncs the timebase (before the 2014 redesign).
variant8 resync_every '/variant: resync_every/s/first_up/true/'
# The last thread in undoes the fastsleep fix instead of applying it.
variant8 fix_never_set '/variant: fix_never_set/s/OPAL_CONFIG_IDLE_APPLY/OPAL_CONFIG_IDLE_UNDO/'
# The first thread back from a loss does not resync the timebase.
variant8 no_resync '/variant: no_resync/s/clock_resync();/;/'
# The unlock expects the word without the lock bit it holds: its swap can
# never succeed and it spins forever holding the lock (a livelock; the
# siblings wait for the lock).
variant8 unlock_unlocked '/variant: unlock_unlocked \*\//s/cmpxchg(word, now,/cmpxchg(word, now \& ~PNV_CORE_IDLE_LOCK_BIT,/
/variant: unlock_unlocked (exit)/s/was == now/was == (now \& ~PNV_CORE_IDLE_LOCK_BIT)/'
# The lock taken by a test and a plain store instead of test_and_set_bit_lock:
# the lock bit is set while no thread holds the lock (the oracle's IDLE-1).
variant8 plain_lock '/^static void atomic_lock_thread_idle/i\
static int plain_take(unsigned long *w) { if (READ_ONCE(*w) \& PNV_CORE_IDLE_LOCK_BIT) return 1; *w |= PNV_CORE_IDLE_LOCK_BIT; return 0; }
/variant: plain_lock/s/test_and_set_bit_lock(NR_PNV_CORE_IDLE_LOCK_BIT, word)/plain_take(word)/'
# No fastsleep workaround in the path at all: IDLE-4 is n/a, the rest holds.
variant8 no_fix 's/fastsleep_fix(OPAL_CONFIG_IDLE_[A-Z]*)/(void)0/'
# The mutants of verify's witnesses (tests/witnesses/idle_core_witnesses.h)
# that no variant above is (docs/verdicts.md, "Witnesses and mutants"):
# ClearOutsideLock: the entry clears its bit with a plain read-modify-write
# before it takes the lock (IDLE-2).
variant8 clear_outside_lock '/^static void going_down/,/^}/{/\tatomic_lock_thread_idle();\t*\/\* variant: no_lock \*\//i\
\t*word \&= ~me;
/^\tBUG_ON(!(\*word \& me));$/d
/^\t\*word \&= ~me;$/d
}'
# UnlockBeforeResync: the first thread rejoins (and frees the lock) before it
# resyncs the timebase; a sibling takes the lock, is not first, and returns
# with the timebase still invalid (IDLE-3).
variant8 unlock_before_resync '/^\tif (first_up)\t*\/\* variant: resync_every \*\/$/,/clock_resync();/d
/^\tword_unlock_rejoin(word, me);$/a\
\tif (first_up)\
\t\tclock_resync();'
# CoreMaskFor4: the core's thread mask sized for 4 threads: on SMT8 threads
# 4..7 are invisible to the first-awake decision, and a thread of 0..3
# resyncs while one of them runs (IDLE-9).
variant8 core_mask_for_4 's/return (1UL << threads_per_core) - 1;/return 0xfUL;/'

run p8_faithful --source "$P8" --budget "$BUDGET"
expect_rc p8_faithful 0
expect_only_failed p8_faithful
expect_clause p8_faithful IDLE-7 n/a
expect_text p8_faithful "IDLE-4 [power7_idle_insn] held"
expect_text p8_faithful "SMT2, exhaustive, 2 idle cycles per thread (kinds nap, sleep, winkle):"
expect_text p8_faithful "SMT8 as 4 subcores of 2, PCT depth 3"
expect_text p8_faithful ", complete"
expect_no_driver_crash p8_faithful

run p8_no_lock --source "$(src8 no_lock)" --budget "$BUDGET" --no-sanitizers
expect_rc p8_no_lock 1
expect_only_failed p8_no_lock IDLE-1 IDLE-2 IDLE-5
expect_text p8_no_lock "BUG_ON(!test_bit(NR_PNV_CORE_IDLE_LOCK_BIT, word))"
expect_text p8_no_lock "changed the thread bits with a plain store"
expect_text p8_no_lock "stopped after 20000 failing schedules"
expect_no_driver_crash p8_no_lock

run p8_winkle_kept --source "$(src8 winkle_kept)" --budget "$BUDGET" --no-sanitizers
expect_rc p8_winkle_kept 1
expect_only_failed p8_winkle_kept IDLE-5 IDLE-6
expect_text p8_winkle_kept "the winkle count is 1, but 0 winkle threads are in hardware idle"
expect_text p8_winkle_kept "t0: woken, SRR1 no loss"

run p8_subcore_by_core --source "$(src8 subcore_by_core)" --budget "$BUDGET" --no-sanitizers
expect_rc p8_subcore_by_core 1
expect_only_failed p8_subcore_by_core IDLE-6
expect_text p8_subcore_by_core "of subcore 1 lost"
expect_text p8_subcore_by_core "SMT2 as 2 subcores schedule:"
expect_text p8_subcore_by_core "SRR1 state loss (full winkle: timebase and SPRs lost)"

run p8_resync_every --source "$(src8 resync_every)" --budget "$BUDGET" --no-sanitizers
expect_rc p8_resync_every 1
expect_only_failed p8_resync_every IDLE-9
expect_text p8_resync_every "resynced the timebase having found other threads awake"
expect_text p8_resync_every "note: efficiency clause"

run p8_fix_never_set --source "$(src8 fix_never_set)" --budget "$BUDGET" --no-sanitizers
expect_rc p8_fix_never_set 1
expect_only_failed p8_fix_never_set IDLE-4
expect_text p8_fix_never_set "without the fastsleep workaround applied"
expect_text p8_fix_never_set "(fastsleep workaround not applied)"

run p8_no_resync --source "$(src8 no_resync)" --budget "$BUDGET" --no-sanitizers
expect_rc p8_no_resync 1
expect_only_failed p8_no_resync IDLE-3
expect_text p8_no_resync "returned to running with the timebase invalid"
expect_text p8_no_resync "SRR1 state loss (fastsleep: timebase lost)"

run p8_unlock_unlocked --source "$(src8 unlock_unlocked)" --budget "$BUDGET" --no-sanitizers
expect_rc p8_unlock_unlocked 1
expect_only_failed p8_unlock_unlocked IDLE-8
expect_text p8_unlock_unlocked "livelock: the state after move"
expect_text p8_unlock_unlocked "never reaches its idle instruction: at test_and_set_bit_lock"
expect_text p8_unlock_unlocked "woke and never returns: at cmpxchg"
expect_no_driver_crash p8_unlock_unlocked

run p8_plain_lock --source "$(src8 plain_lock)" --budget "$BUDGET" --no-sanitizers
expect_rc p8_plain_lock 1
expect_clause p8_plain_lock IDLE-1 failed
expect_text p8_plain_lock "the lock bit is set and no thread holds the lock (seen: t"
expect_text p8_plain_lock "'s plain store set the lock bit)"
expect_no_driver_crash p8_plain_lock

run p8_clear_outside_lock --source "$(src8 clear_outside_lock)" --budget "$BUDGET" --no-sanitizers
expect_rc p8_clear_outside_lock 1
expect_only_failed p8_clear_outside_lock IDLE-2
expect_text p8_clear_outside_lock "t0 changed the thread bits with a plain store (0x3 -> 0x2) without holding the lock"

run p8_unlock_before_resync --source "$(src8 unlock_before_resync)" --budget "$BUDGET" --no-sanitizers
expect_rc p8_unlock_before_resync 1
expect_only_failed p8_unlock_before_resync IDLE-3
expect_text p8_unlock_before_resync "returned to running with the timebase invalid"

run p8_core_mask_for_4 --source "$(src8 core_mask_for_4)" --budget "$BUDGET" --no-sanitizers
expect_rc p8_core_mask_for_4 1
expect_only_failed p8_core_mask_for_4 IDLE-9
expect_text p8_core_mask_for_4 "resynced the timebase having found other threads awake (it decided on the word"

run p8_no_fix --source "$(src8 no_fix)" --budget "$BUDGET" --no-sanitizers
expect_rc p8_no_fix 0
CLAUSES="IDLE-1 IDLE-2 IDLE-3 IDLE-5 IDLE-6 IDLE-8 IDLE-9"
expect_only_failed p8_no_fix
expect_clause p8_no_fix IDLE-4 n/a
expect_text p8_no_fix "the function's path has no fastsleep workaround"

finish
