// Deliberately broken idle_core protocols: each check of spec/idle_core.md
// must catch the ones its clauses name, with a readable trace. Each is the
// reference (impl/idle_core.h) with one hook changed.
#pragma once

#include <string_view>

#include "impl/idle_core.h"

namespace idlespec::idle_core::witness {

// Before the 2014 redesign: every thread waking with state loss resyncs the
// timebase (IDLE-9).
struct EveryThreadResyncs : Reference {
  static constexpr std::string_view name = "witness-every-thread-resyncs";
  static constexpr bool every_loss_wake_resyncs = true;
};

// The first thread awake skips the resync (IDLE-3).
struct FirstSkipsResync : Reference {
  static constexpr std::string_view name = "witness-first-skips-resync";
  static constexpr bool first_resyncs = false;
};

// POWER8 entry clears its bit with a plain read-modify-write before taking
// the lock (IDLE-2: a lost update).
struct ClearOutsideLock : Reference {
  static constexpr std::string_view name = "witness-clear-outside-lock";
  static constexpr bool clear_under_lock = false;
};

// The no-loss wake of a winkle forgets to decrement the winkle count
// (IDLE-5).
struct NoWinkleDecOnNoLoss : Reference {
  static constexpr std::string_view name = "witness-no-winkle-dec-on-no-loss";
  static constexpr bool winkle_dec_on_noloss = false;
};

// The first thread releases the lock (and sets its bit) before it resyncs
// the timebase (IDLE-3).
struct UnlockBeforeResync : Reference {
  static constexpr std::string_view name = "witness-unlock-before-resync";
  static constexpr bool resync_before_unlock = false;
};

// The lock apart (idle_lock, v6.5+), never released after the wake path's
// cmpxchg: the thread returns holding it and the next locker spins forever
// (IDLE-1; IDLE-8 for a woken thread that waits).
struct LockApartKept : IdleLock {
  static constexpr std::string_view name = "witness-lock-apart-kept";
  static constexpr bool lock_apart_released = false;
};

// A core thread mask sized for 4 threads, used on an 8-thread core: threads
// 4..7 are invisible to the last/first decisions.
struct CoreMaskFor4 : Reference {
  static constexpr std::string_view name = "witness-core-mask-for-4";
  static uint64_t core_thread_mask(const Config&) { return 0xf; }
};

// The next three differ from upstream (IdleLock, v6.5+) only in ordering:
// every interleaving holds every clause, and only the weak-memory
// exploration (model-check --lkmm) catches them.

// The lock released by clear_bit instead of clear_bit_unlock: the next
// holder may read the state word from before the last holder's plain
// updates (IDLE-10, and what the stale read leads to).
struct UnlockRelaxed : IdleLock {
  static constexpr std::string_view name = "witness-unlock-relaxed";
  static constexpr bool unlock_release = false;
};

// The lock taken by an unordered test-and-set (the acquire dropped): the
// holder's plain reads may see the word from before the last section.
struct LockRelaxed : IdleLock {
  static constexpr std::string_view name = "witness-lock-relaxed";
  static constexpr bool lock_acquire = false;
};

// The wake path reads the state word plainly before it takes the lock (a
// WARN_ON hoisted out of the section): harmless in every interleaving, a
// data race with the holder's plain store (IDLE-10).
struct PeekBeforeLock : IdleLock {
  static constexpr std::string_view name = "witness-peek-before-lock";
  static constexpr bool peek_before_lock = true;
};

}  // namespace idlespec::idle_core::witness
