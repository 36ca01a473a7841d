#!/bin/sh
# tests/validate/run_idle_core.sh IDLESPEC_VALIDATE [BUDGET_SECONDS]
#
# The end-to-end test of `idlespec validate` on the idle_core component: the
# faithful power9_idle_stop() of idle_core_faithful.c holds IDLE-1/2/3/7/8/9
# (IDLE-4/5/6 are POWER8's: n/a); each variant derived from it with sed fails
# exactly the clauses its bug breaks, with a shrunk schedule and a thread
# timeline; a variant that deadlocks (a thread spins forever on the lock) is
# reported as a finding, not a hang of the test. The variants run the plain
# build only (their findings need no sanitizer); the faithful file both.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
CLAUSES="IDLE-1 IDLE-2 IDLE-3 IDLE-7 IDLE-8 IDLE-9"
COMPONENT=idle_core
. "$HERE/lib.sh"

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
expect_text no_lock "kernel assertion on t0: BUG_ON(!(seen & PNV_CORE_IDLE_LOCK_BIT))"
expect_text no_lock "replay (--keep-temp): printf '0 2 replay "

run early_return --source "$(src_variant early_return)" --budget "$BUDGET" --no-sanitizers
expect_rc early_return 1
expect_only_failed early_return IDLE-3 IDLE-7
expect_text early_return "returned to running with the timebase not resynced"
expect_text early_return "returned to running with the per-core PTCR lost"
expect_text early_return "hw: every thread stopped deep: the core loses SPRs"

run lost_bit --source "$(src_variant lost_bit)" --budget "$BUDGET" --no-sanitizers
expect_rc lost_bit 1
expect_only_failed lost_bit IDLE-2 IDLE-7
expect_text lost_bit "is running but its bit is clear"
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
expect_text no_unlock "woke and never returns: it spins at test_and_set_bit_lock"
expect_text no_unlock "spins forever at test_and_set_bit_lock"
expect_no_driver_crash no_unlock

finish
