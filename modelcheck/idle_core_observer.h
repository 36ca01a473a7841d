// What the model checker (modelcheck/idle_core_checker.h) sees of
// impl/idle_core_model.h's explicit states, told to the idle_core oracle
// (oracle/idle_core.h), which judges every move: the checker has no clause
// judge of its own.
//
// The checker keeps the states, so it judges one move at a time from any
// state: the oracle is restarted from the state's snapshot (each thread's
// phase, kind and loss; the ghost's timebase, workaround and register
// validity) and observes the move. Beyond what any observer sees, the
// checker reads the threads' program points, and tells the oracle what they
// mean (Oracle::Seen), so that the oracle judges the clauses' exact forms.
// The program-point ranges:
//
//   holds the lock (IDLE-1)
//     from a successful test-and-set (p8_entry_lock, p8_wake_lock, loss_lock)
//     to the step that releases it (p8_entry_unlock, the successful
//     unlock_cmpxchg): p8_entry_load and p8_entry_store (only when the subject
//     clears under the lock), p8_entry_apply_wa, p8_entry_winkle,
//     p8_entry_unlock, p8_wake_winkle, p8_loss_winkle, loss_check, the
//     first-thread duties (restore_core, p8_undo_wa, resync_tb,
//     restore_subcore), unlock_load, unlock_cmpxchg, and with the lock apart
//     (IdleLock) unlock_lock, its release after the cmpxchg. Not:
//     resync_tb_late and restore_thread (after the release).
//
//   between "clear own bit" and "set own bit" (IDLE-2)
//     only for the kinds that touch the word (POWER8 sleep/winkle, POWER9
//     deep/tb-loss stops; nap and shallow stop never clear the bit). The clear
//     is p8_entry_store (POWER8) or p9_entry_clear (POWER9); the set is the
//     successful unlock_cmpxchg or p9_wake_set. So the range is every pc after
//     the clear up to and including unlock_cmpxchg / p9_wake_set:
//       POWER8, clear under the lock: p8_entry_apply_wa .. unlock_cmpxchg
//         (not p8_entry_lock, p8_entry_load, p8_entry_store).
//       POWER8, clear before the lock (the ClearOutsideLock witness): the
//         clear at p8_entry_store is followed by p8_entry_lock, which is then
//         in the range; p8_entry_load and p8_entry_store are not.
//       POWER9: idle_insn .. unlock_cmpxchg (not p9_entry_clear).
//     Never in range: running, resync_tb_late, restore_thread.
//
//   in the winkle count (IDLE-5)
//     kind winkle, from the step after p8_entry_winkle (count+1) to the step
//     p8_wake_winkle or p8_loss_winkle (count-1) included: p8_entry_unlock,
//     idle_insn, hw_idle, p8_wake_lock, p8_wake_winkle, loss_lock,
//     p8_loss_winkle.
//
//   what a resyncing thread found (IDLE-9)
//     its `first` (it found no thread bit set with the subject's mask); on
//     POWER8 also the word at the resync, as the word it decided on: the word
//     cannot change between the decision (loss_check) and the resync, both
//     under the lock, so another thread's bit set there is one it found too,
//     whatever the subject's own mask made of it (a core thread mask too
//     small). Not on POWER9: a no-loss wake sets its bit lock-free meanwhile.
//
//   on the wake path (IDLE-8, for the checker's fair-cycle analysis)
//     from the hardware wake-up to the return to running: p8_wake_lock ..
//     restore_thread (every pc from p8_wake_lock on in the Pc order).
//
//   the oracle's phases
//     running: running; entering: the entry program points and idle_insn;
//     in hardware idle: hw_idle; on the wake path: the rest.
#pragma once

#include <cstdint>
#include <string>

#include "impl/idle_core.h"
#include "impl/idle_core_model.h"
#include "oracle/idle_core.h"

namespace idlespec::idle_core::mc {

// What the observer needs to know of the subject's program order.
struct Shape {
  bool clear_under_lock = true;  // Subject::clear_under_lock
  template <class Subject>
  static Shape of() {
    return Shape{Subject::clear_under_lock};
  }
};

// Program-point ranges (see the file comment).
bool holds_lock(const Shape& shape, const ThreadState& th);
bool touches_word(Kind k);  // sleep, winkle, deep stop, tb-loss stop
bool bit_cleared(const Config& c, const Shape& shape, const ThreadState& th);
bool in_winkle_count(const ThreadState& th);
bool on_wake_path(const ThreadState& th);
oracle::Phase phase_of(const ThreadState& th);

// The oracle's state for a model state.
oracle::Oracle::Snapshot snapshot(const Config& c, const CoreState& s);
// What the observer sees after a move (tr: the move, nullptr for the
// initial state) that led to `after`.
oracle::Oracle::Seen seen_in(const Config& c, const Shape& shape, const Transition* tr,
                             const CoreState& after, size_t move_number);

// The oracle, judging one move of the model at a time from any state.
class Judge {
 public:
  Judge(const Config& c, const Shape& shape) : c_(c), shape_(shape), oracle_(c) {}
  // The state the next moves leave (every successor of one state is judged
  // from the same snapshot).
  void at(const CoreState& before);
  // The violations of the move tr from the state at() was given to `after`
  // (move number `move_number` of the path, for the messages). Quiet (the
  // default): the violations name their clauses, without messages.
  const oracle::Violations& move(const Transition& tr, const CoreState& after, size_t move_number);
  void set_quiet(bool quiet) { quiet_ = quiet; }
  // The violations of a state judged on its own (the initial state).
  const oracle::Violations& state(const CoreState& s);
  // `s` has no enabled move that changes it.
  oracle::Verdict stuck(const CoreState& s);
  // Bit n: IDLE-n, the clauses `v` is charged to on this configuration.
  uint32_t clauses(const oracle::Verdict& v) const { return oracle::charged_clauses(c_, v); }

 private:
  Config c_;
  Shape shape_;
  bool quiet_ = true;
  oracle::Oracle oracle_;
  oracle::Oracle::Snapshot snap_;
  uint32_t marks_[3] = {0, 0, 0};  // before: holders, cleared, counted (bit t: thread t)
  oracle::Violations out_;
};

}  // namespace idlespec::idle_core::mc
