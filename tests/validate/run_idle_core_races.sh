#!/bin/sh
# ctest: budget=60 timeout=400
# tests/validate/run_idle_core_races.sh IDLESPEC_VALIDATE [BUDGET_SECONDS]
#
# IDLE-10 (no data race on the idle words) in `idlespec validate`: the
# idle_core harness built with ThreadSanitizer, each hardware thread a TSan
# fiber (harness/idle_core_races.c), judged against validate's default
# subject for idle_core, idle_lock (IDLE-10's; spec/idle_core.md says why
# text of both layouts is judged against it). POWER8, power7_idle_insn() of
# idle_core_power8_faithful.c and variants of it: the file as it is keeps
# the lock in the state word (the layout up to v6.4): its spinners'
# test_and_set_bit_lock races with the holder's plain updates, the failure
# is the spec's era lock-in-word and the report names b0c5b4f1ee36, each
# access as file:line, and a replay of the shrunk schedule that the kept
# ThreadSanitizer build reproduces. With the lock in paca->idle_lock (the
# layout since v6.5) it holds. Two witnesses on that layout fail it, neither
# blamed on the word's lock bit: the entry's release of the lock by
# clear_bit instead of clear_bit_unlock, and a plain read of the state word
# before the lock is taken. POWER9, power9_idle_stop() of
# idle_core_faithful.c: its first-thread check reads the word plainly under
# the lock while a sibling's clear_bit flips its bit, the race every text
# to 6.12 has (not the lock bit's, though this file keeps the lock in the
# word: a shim whose acquiring RMW wrote before it acquired reported the
# read against the next holder's test_and_set_bit_lock instead, ordered by
# the cmpxchg unlock, and blamed the lock bit); with READ_ONCE there it
# holds. Host only, --no-sanitizers (the ASan build judges nothing here).
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
CLAUSES="IDLE-1 IDLE-2 IDLE-3 IDLE-4 IDLE-5 IDLE-6 IDLE-8 IDLE-9"
COMPONENT=idle_core
. "$HERE/lib.sh"
command -v gcc >/dev/null 2>&1 || skip_test "no gcc for the ThreadSanitizer build"
echo 'int main(void){return 0;}' >"$SCRATCH/probe.c"
gcc -fsanitize=thread "$SCRATCH/probe.c" -o "$SCRATCH/probe" 2>/dev/null && "$SCRATCH/probe" ||
  skip_test "gcc cannot build or run a ThreadSanitizer program (libtsan)"

P8=$HERE/${COMPONENT}_power8_faithful.c
# The lock apart from the word: its own word (paca->idle_lock), taken and
# released there; the wake path's cmpxchg sets the own bit only and the
# release of the lock follows it.
LOCK_APART8='/^static int winklers/i\
static unsigned long *lock_word(void)\
{\
	return \&paca_ptrs[cpu_first_thread_sibling(raw_smp_processor_id())]->idle_lock;\
}\

/variant: plain_lock/s/test_and_set_bit_lock(NR_PNV_CORE_IDLE_LOCK_BIT, word)/test_and_set_bit_lock(NR_PNV_CORE_IDLE_LOCK_BIT, lock_word())/
s/BUG_ON(!test_bit(NR_PNV_CORE_IDLE_LOCK_BIT, word));/BUG_ON(!test_bit(NR_PNV_CORE_IDLE_LOCK_BIT, lock_word()));/
s/^\tclear_bit_unlock(NR_PNV_CORE_IDLE_LOCK_BIT, word);/\tclear_bit_unlock(NR_PNV_CORE_IDLE_LOCK_BIT, lock_word());\t\/* variant: entry_release *\//
s/BUG_ON(!(now \& PNV_CORE_IDLE_LOCK_BIT));/BUG_ON(!test_bit(NR_PNV_CORE_IDLE_LOCK_BIT, lock_word()));/
s/(now | me) \& ~PNV_CORE_IDLE_LOCK_BIT)/now | me)/
/^static void word_unlock_rejoin/,/^}/s/^}$/\tclear_bit_unlock(NR_PNV_CORE_IDLE_LOCK_BIT, lock_word());\n}/'
APART=$SCRATCH/${COMPONENT}_p8_apart.c
sed "$LOCK_APART8" "$P8" >"$APART"
grep -q 'idle_lock' "$APART" && grep -q 'variant: entry_release' "$APART" ||
  fail "apart: the variant did not move the lock"
# Witness: the entry path releases the lock with clear_bit (no release order).
sed '/variant: entry_release/s/clear_bit_unlock/clear_bit/' "$APART" >"$SCRATCH/clear_bit.c"
cmp -s "$APART" "$SCRATCH/clear_bit.c" && fail "clear_bit: the variant changed nothing"
# Witness: a plain read of the state word before the lock is taken.
sed '/^static void going_down/,/^}/{/atomic_lock_thread_idle();/i\
\tWARN_ON(!(*word \& me));\t/* a plain read outside the lock */
}' "$APART" >"$SCRATCH/plain_read.c"
cmp -s "$APART" "$SCRATCH/plain_read.c" && fail "plain_read: the variant changed nothing"

RUN_DEFAULTS="--component idle_core --no-sanitizers"

run word_lock --source "$P8" --budget "$BUDGET" --keep-temp
expect_rc word_lock 1
expect_only_failed word_lock
expect_clause word_lock IDLE-10 failed
expect_text word_lock "subject idle_lock"
expect_text word_lock "data race on the state word (paca->idle_state)"
expect_text word_lock "marked read (8 bytes) at $P8:85 in atomic_lock_thread_idle"
expect_text word_lock "plain write (8 bytes)"
expect_text word_lock 'the race b0c5b4f1ee36 "powerpc: powernv: Fix KCSAN datarace warnings on idle_state contention"'
expect_text word_lock "failed: as text of the era lock-in-word"
expect_text word_lock 'fixed upstream by b0c5b4f1ee36 ("powerpc: powernv: Fix KCSAN'
expect_text word_lock "schedules of the ThreadSanitizer build"
expect_no_driver_crash word_lock
# The replay: the shrunk schedule, run alone by the kept ThreadSanitizer build.
job=$(sed -n "s/^ *replay (--keep-temp): printf '0 \(.*\)\\\\n' | harness_tsan\$/\1/p" "$SCRATCH/word_lock.out" | head -n 1)
kept=$(sed -n 's/^note: harness files kept in //p' "$SCRATCH/word_lock.out" | head -n 1)
if [ -z "$job" ] || [ ! -x "$kept/harness_tsan" ]; then
  fail "word_lock: no replay of the race, or no kept ThreadSanitizer build ($kept)"
else
  printf '0 %s\n' "$job" | "$kept/harness_tsan" >"$SCRATCH/replay.out" 2>/dev/null
  grep -q "^FINDING 0 IDLE-10 count=1 .*data race on the state word" "$SCRATCH/replay.out" ||
    fail "word_lock: the replay '$job' does not report the race: $(head -c 300 "$SCRATCH/replay.out")"
fi
case $kept in /tmp/idlespec-validate-*) rm -rf "$kept" ;; esac

run apart --source "$APART" --budget "$BUDGET"
expect_rc apart 0
expect_only_failed apart
expect_clause apart IDLE-10 held
expect_text apart "5500 schedules of the ThreadSanitizer build"
expect_no_driver_crash apart

run clear_bit --source "$SCRATCH/clear_bit.c" --budget "$BUDGET"
expect_rc clear_bit 1
expect_only_failed clear_bit
expect_clause clear_bit IDLE-10 failed
expect_text clear_bit "data race on the state word (paca->idle_state)"
expect_text clear_bit "plain write (8 bytes) at $SCRATCH/clear_bit.c:168 in going_down before it"
grep -q "the lock is the word's bit" "$SCRATCH/clear_bit.out" &&
  fail "clear_bit: the lock is apart, but the report blames the word's lock bit"
grep -q "era lock-in-word" "$SCRATCH/clear_bit.out" &&
  fail "clear_bit: the text names paca->idle_lock, but the failure is given the word-lock era"

run plain_read --source "$SCRATCH/plain_read.c" --budget "$BUDGET"
expect_rc plain_read 1
expect_only_failed plain_read
expect_clause plain_read IDLE-10 failed
expect_text plain_read "plain read (8 bytes) at $SCRATCH/plain_read.c:166 in going_down"

# POWER9: the first-thread check's plain read against a sibling's clear_bit
# (not the next holder's test_and_set_bit_lock, which the unlock orders).
P9=$HERE/${COMPONENT}_faithful.c
CLAUSES="IDLE-1 IDLE-2 IDLE-3 IDLE-7 IDLE-8 IDLE-9"
run p9 --source "$P9" --budget "$BUDGET"
expect_rc p9 1
expect_only_failed p9
expect_clause p9 IDLE-10 failed
expect_text p9 "plain read (8 bytes) at $P9:170 in recover_core"
expect_text p9 "marked write (8 bytes) at $P9:75 in word_leave"
expect_text p9 "docs/findings/idle-10-power9-first-thread-check.md"
grep -q "era lock-in-word\|the lock is the word's bit" "$SCRATCH/p9.out" &&
  fail "p9: the first-thread check's race is blamed on the word's lock bit"
# The fix: READ_ONCE for the first-thread check.
sed '/variant: early_return \*\//s/(\*word \& all_slots)/(READ_ONCE(*word) \& all_slots)/' "$P9" >"$SCRATCH/p9_read_once.c"
cmp -s "$P9" "$SCRATCH/p9_read_once.c" && fail "p9_read_once: the variant changed nothing"
run p9_read_once --source "$SCRATCH/p9_read_once.c" --budget "$BUDGET"
expect_rc p9_read_once 0
expect_only_failed p9_read_once
expect_clause p9_read_once IDLE-10 held

finish
