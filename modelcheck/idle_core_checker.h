// The explicit-state model checker for idle_core (spec/idle_core.md, checks
// model-check idle_core_power8, idle_core_power9, idle_core_liveness): the
// header its users include.
//
// Breadth-first over every interleaving of impl/idle_core_model.h, templated
// on the subject (impl/idle_core.h Reference, or a witness of
// tests/witnesses/idle_core_witnesses.h). Every transition is judged by the
// idle_core oracle (oracle/idle_core.h), restarted from the state it leaves
// and told what the threads' program points mean
// (modelcheck/idle_core_observer.h); the checker itself judges no clause but
// IDLE-8, a property of the state graph. The first violation of each clause
// BFS meets is the shortest; it is printed as a timeline, one column per
// thread.
//
// Its parts, one job each:
//   idle_core_check_run.h       what a run is asked and what it reports
//   idle_core_state_encoding.h  a state's key, canonical under the threads'
//                               symmetry (State storage, Symmetry)
//   idle_core_state_store.h     the visited set and the BFS queue
//   idle_core_search.h          the Checker class, and the bookkeeping its
//                               searches share
//   idle_core_explore.h         one state's moves judged, the BFS, the random
//                               walks
//   idle_core_reduction.h       the partial-order reduction of the lock
//                               holder's critical section
//   idle_core_distributed.h     the same BFS over the ranks of an Exchange
//   idle_core_replay.h          counterexamples replayed on concrete states
//   idle_core_timeline.h        ... and shown as a timeline
//   idle_core_liveness.h        IDLE-8 on the unreduced graph
#pragma once

#include "modelcheck/idle_core_check_run.h"
#include "modelcheck/idle_core_distributed.h"
#include "modelcheck/idle_core_explore.h"
#include "modelcheck/idle_core_reduction.h"
#include "modelcheck/idle_core_replay.h"
#include "modelcheck/idle_core_search.h"

namespace idlespec::idle_core::mc {

// Runs the checker on subject Subject.
template <class Subject>
CheckerResult check(const CheckerOptions& o) {
  Checker<Subject> checker(o);
  return checker.run();
}

}  // namespace idlespec::idle_core::mc
