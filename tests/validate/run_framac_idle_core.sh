#!/bin/sh
# ctest: budget=30 timeout=400
# tests/validate/run_framac_idle_core.sh IDLESPEC_VALIDATE [BUDGET_SECONDS]
#
# Frama-C's WP on idle_core's own text (issue 38, validate/framac.h):
# harness/framac_idle_core_wp.h states what atomic_lock_thread_idle() and
# atomic_unlock_thread_idle() do to the lock's word (steps of IDLE-1), and
# validate proves them on the file's text. On this suite's faithful files
# every goal is proved, with the lock bit in the word and apart from it
# (paca->idle_lock, -DIC_LOCK_APART); a helper that takes or frees the wrong
# bit leaves a goal unproven and the report says so. A contract is one step
# of the clause, never the clause: no IDLE verdict carries a proof level.
# Skipped (exit 77) when frama-c is not installed.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
COMPONENT=idle_core
FRAMAC=1
. "$HERE/lib.sh"
. "$HERE/framac_lib.sh"
if ! command -v why3 >/dev/null 2>&1; then
  skip_test "why3 is not installed (scripts/setup.sh framac)"
fi
P8="$HERE/idle_core_power8_faithful.c"
WP="note: Frama-C WP:"

# expect_wp NAME FUNCTION all|some: the contract's note, every goal proved or not
expect_wp() {
  line=$(grep -F "$WP $2()'s contract (harness/framac_idle_core_wp.h, a step of IDLE-1): " \
    "$SCRATCH/$1.out") || {
    fail "$1: no WP note for $2()"
    return
  }
  proved=$(echo "$line" | sed -n 's/.*: \([0-9]*\) of \([0-9]*\) goals proved.*/\1 \2/p')
  set -- "$1" "$2" "$3" $proved
  if [ $# -ne 5 ] || [ "$5" -eq 0 ]; then
    fail "$1: $2()'s note has no goal count: $line"
  elif [ "$3" = all ] && [ "$4" -ne "$5" ]; then
    fail "$1: $2()'s contract not proved: $line"
  elif [ "$3" = some ] && [ "$4" -eq "$5" ]; then
    fail "$1: $2()'s broken contract proved all its goals: $line"
  fi
}
no_proof_level() {
  grep "^IDLE-[0-9] \[" "$SCRATCH/$1.out" | grep -q "proven\|tested" &&
    fail "$1: an IDLE clause carries a proof level from a step's contract"
  return 0
}

# The lock taken on bit 27, not the lock bit: LOCK_TAKEN unprovable.
variant wrong_lock_bit '/^static void atomic_lock_thread_idle/,/^}/s/test_and_set_bit_lock(NR_PNV_CORE_IDLE_LOCK_BIT,/test_and_set_bit_lock(NR_PNV_CORE_IDLE_LOCK_BIT - 1,/'
# The lock apart from the word (paca->idle_lock, v6.5+), released beside the rejoin.
variant lock_apart '/variant: lock_apart \*\//s/return word;/return \&paca_ptrs[cpu_first_thread_sibling(raw_smp_processor_id())]->idle_lock;/
/variant: lock_apart (held)/s/(seen \& PNV_CORE_IDLE_LOCK_BIT)/(READ_ONCE(*lock_of(word)) \& PNV_CORE_IDLE_LOCK_BIT)/
/variant: lost_bit, no_unlock, lock_apart/s/(expected \& ~PNV_CORE_IDLE_LOCK_BIT) | mine/expected | mine/
/variant: lock_apart (release)/a\
	clear_bit_unlock(NR_PNV_CORE_IDLE_LOCK_BIT, lock_of(word));'
# POWER8's unlock frees bit 0 (a thread's bit), not the lock: LOCK_FREED unprovable.
sed '/^static void atomic_unlock_thread_idle/,/^}/s/clear_bit_unlock(NR_PNV_CORE_IDLE_LOCK_BIT,/clear_bit_unlock(0,/' \
  "$P8" >"$SCRATCH/p8_wrong_unlock.c"
cmp -s "$P8" "$SCRATCH/p8_wrong_unlock.c" && fail "p8_wrong_unlock: the variant changed nothing"

# Against reference: IDLE-10 (validate's default idle_lock) is run_idle_core_races.sh's.
O="--component idle_core --subject reference --budget $BUDGET --no-sanitizers"
# shellcheck disable=SC2086
run p9 --source "$(src faithful)" $O
expect_rc p9 0
expect_wp p9 atomic_lock_thread_idle all
no_proof_level p9
# shellcheck disable=SC2086
run p9_apart --source "$(src_variant lock_apart)" $O
expect_rc p9_apart 0
expect_wp p9_apart atomic_lock_thread_idle all
# shellcheck disable=SC2086
run p9_wrong_lock --source "$(src_variant wrong_lock_bit)" $O
expect_wp p9_wrong_lock atomic_lock_thread_idle some
# shellcheck disable=SC2086
run p8 --source "$P8" $O
expect_rc p8 0
expect_wp p8 atomic_lock_thread_idle all
expect_wp p8 atomic_unlock_thread_idle all
no_proof_level p8
# shellcheck disable=SC2086
run p8_wrong_unlock --source "$SCRATCH/p8_wrong_unlock.c" $O
expect_wp p8_wrong_unlock atomic_lock_thread_idle all
expect_wp p8_wrong_unlock atomic_unlock_thread_idle some
# Frama-C switched off: no WP note at all.
# shellcheck disable=SC2086
IDLESPEC_FRAMAC=none run p8_off --source "$P8" $O
grep -qF "$WP" "$SCRATCH/p8_off.out" && fail "p8_off: a WP note with Frama-C turned off"
finish
