// The checker's partial-order reduction: which states the lock holder's
// next step alone expands, and the holder's chain of such steps.
//
// The reduction (safety runs on POWER8 subjects that clear their
// bit under the lock; spec/idle_core.md, "The partial-order reduction",
// states why it is sound). While one thread holds the lock, the other
// threads cannot touch the word but by a failing test-and-set (a self-loop):
// the holder's steps inside its critical section commute with everything
// the others can do meanwhile. In a state where the holder's next step is
// inside the section (its release included) and every other thread is at a
// program point from which it can do only such moves (ample_thread), the
// holder's step is the only move explored (an ample set of one move); when
// that step restores a register set or resyncs the timebase, also no other
// thread may be able to return to running before the release (its return
// is judged on those). Such states are not stored: a move that leads into
// one is followed at once by the holder's steps until the state is no
// longer one (the holder's *chain*), each step judged by the oracle like
// any move, and the state after the chain is stored. The chain is a
// function of the state (up to the symmetry), so a counterexample's replay
// re-derives it; it ends at the release at the latest, since the holder's
// program point advances through the finite, acyclic critical section at
// every step (no cycle of reduced states: the cycle proviso holds).
#pragma once

#include "modelcheck/idle_core_search.h"

namespace idlespec::idle_core::mc {

template <class Subject>
int Checker<Subject>::ample_thread(const CoreState& s) const {
  if (o_.por_unsound_for_test) {
    for (unsigned u = 0; u < c_.threads; ++u) {
      switch (s.th[u].pc) {
        case Pc::running:
        case Pc::hw_idle:
        case Pc::p8_entry_lock:
        case Pc::p8_wake_lock:
        case Pc::loss_lock:
          break;
        default:
          return static_cast<int>(u);
      }
    }
    return -1;
  }
  if (!(s.word & kLock)) return -1;  // a holder without the bit: the others' test-and-sets succeed
  int t = -1;
  for (unsigned u = 0; u < c_.threads; ++u) {
    if (!holds_lock(shape_, s.th[u])) continue;
    if (t >= 0) return -1;
    t = static_cast<int>(u);
  }
  if (t < 0) return -1;
  bool restores = false;  // the step makes a register set or the timebase valid
  switch (s.th[t].pc) {
    case Pc::p8_entry_load:
    case Pc::p8_entry_store:
    case Pc::p8_entry_apply_wa:
    case Pc::p8_entry_winkle:
    case Pc::p8_wake_winkle:
    case Pc::p8_loss_winkle:
    case Pc::loss_check:
    case Pc::p8_undo_wa:
    case Pc::unlock_load:
      break;
    case Pc::restore_core:
    case Pc::resync_tb:
    case Pc::restore_subcore:
      restores = true;
      break;
    case Pc::p8_entry_unlock:  // the release
    case Pc::unlock_lock:      // the release, the lock apart
      break;
    case Pc::unlock_cmpxchg:  // the release (with the lock apart: the own bit), when the swap
                              // succeeds
      if (uint64_t{s.th[t].seen} != s.word) return -1;
      break;
    default:  // the acquisition and everything else
      return -1;
  }
  for (unsigned u = 0; u < c_.threads; ++u) {
    if (static_cast<int>(u) == t) continue;
    const ThreadState& x = s.th[u];
    switch (x.pc) {
      case Pc::p8_entry_lock:  // test-and-sets that fail while the lock is held
      case Pc::p8_wake_lock:
      case Pc::loss_lock:
        break;
      case Pc::running:         // may begin nap and return
      case Pc::restore_thread:  // returns next
        if (restores) return -1;
        break;
      case Pc::idle_insn:
      case Pc::hw_idle:  // a nap's wake-up returns at once
        if (restores && !touches_word(x.kind)) return -1;
        break;
      default:
        return -1;
    }
  }
  return t;
}

template <class Subject>
unsigned Checker<Subject>::run_chain(CoreState& n, uint32_t from, uint8_t mb, size_t move_number,
                                     bool& bad) {
  bad = false;
  if (!por_) return 0;
  unsigned k = 0;
  for (int t; (t = ample_thread(n)) >= 0;) {
    const Move m{MoveKind::step, static_cast<uint8_t>(t), Kind::none};
    chain_judge_.at(n);
    const Transition tr = apply<Subject>(c_, n, m);
    ++k;
    ++res_.transitions;
    ++res_.por_states;
    const oracle::Violations& vs = chain_judge_.move(tr, n, move_number + k);
    if (!vs.empty()) {
      record(vs, from, true, mb, k);
      bad = true;
      break;
    }
  }
  return k;
}

}  // namespace idlespec::idle_core::mc
