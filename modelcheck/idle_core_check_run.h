// What a model-check run of idle_core is asked (CheckerOptions) and what it
// reports (CheckerResult, one Violation per clause), with the figures it
// measures and prints; the interleaving checker (idle_core_checker.h) and
// the weak-memory one (idle_core_lkmm.h) answer alike.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "impl/idle_core.h"

namespace idlespec::idle_core::mc {

struct CheckerOptions {
  Config config;
  bool symmetry = true;
  bool por = true;  // the lock holder's critical section (safety runs, POWER8)
  // Tests only, the witness of the reduction's cross-check: a deliberately
  // unsound reduction that runs any thread past its test-and-set alone,
  // whoever holds the lock (IdleCoreChecker.UnsoundReductionIsCaught).
  bool por_unsound_for_test = false;
  uint64_t max_states = 0;        // 0: unbounded; else stop (incomplete) at this many
  unsigned max_depth = 0;         // 0: unbounded; else do not expand beyond this depth
  double time_limit = 0;          // seconds, 0: none
  bool stop_at_first = false;     // stop at the first violation
  bool liveness = false;          // IDLE-8 cycle analysis (explores unreduced, and past
                                  // safety violations: the whole reachable graph)
  bool fair_environment = false;  // liveness: strong fairness on every move, not only steps
  uint64_t random_walks = 0;      // after the BFS: this many random walks from the initial state
  unsigned walk_length = 200;     // ... of this many moves
  uint64_t seed = 1;
  bool progress = false;  // a line on stderr every second
  unsigned max_trace_rows = 400;
};

struct Violation {
  std::string clause;     // "IDLE-3"
  std::string summary;    // one line
  std::string trace;      // the timeline
  unsigned length = 0;    // moves in the counterexample
  bool replayed = false;  // safety: the oracle judged it again at the replayed path's end
};

struct CheckerResult {
  std::string config;  // "power8 SMT4"
  std::string subject;
  bool symmetry = true;
  bool por = false;         // the partial-order reduction was in force
  uint64_t por_states = 0;  // states expanded by the lock holder's step alone
  uint64_t states = 0;
  uint64_t transitions = 0;
  double seconds = 0;
  long peak_rss_kb = 0;
  bool complete = false;
  std::string incomplete_reason;  // "max states", "time limit", "max depth", "stopped at first"
  unsigned depth = 0;             // BFS depth reached
  unsigned walk_depth = 0;        // longest random walk
  uint64_t local_views = 0;       // dictionary size
  bool liveness = false;          // the IDLE-8 analysis ran (to completion)
  std::string error;              // the checker itself could not go on
  std::vector<Violation> violations;
  // The distributed search (run_distributed): the ranks, and per rank the
  // largest share of the states, of the bytes sent to other ranks and of
  // the peak RSS; bytes_sent is the sum over the ranks.
  unsigned ranks = 1;
  uint64_t max_rank_states = 0;
  uint64_t bytes_sent = 0;
  uint64_t max_rank_bytes_sent = 0;
  long max_rank_rss_kb = 0;

  bool violated(std::string_view clause) const {
    for (const auto& v : violations)
      if (v.clause == clause) return true;
    return false;
  }
};

// The process's peak resident set, in kB.
long peak_rss_kb();
// A count for people: 12.3k, 4.56M.
std::string human_count(double n);

}  // namespace idlespec::idle_core::mc
