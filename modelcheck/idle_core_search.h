// The interleaving checker's class, Checker<Subject>: what a search holds
// (the judges, the codec, the store, the findings) and the bookkeeping every
// search shares (recording a finding, the clock, the progress line). Its
// searches, reduction and replay are defined in the headers
// idle_core_checker.h includes.
#pragma once

#include <array>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "impl/idle_core.h"
#include "impl/idle_core_model.h"
#include "modelcheck/idle_core_check_run.h"
#include "modelcheck/idle_core_exchange.h"
#include "modelcheck/idle_core_liveness.h"
#include "modelcheck/idle_core_observer.h"
#include "modelcheck/idle_core_state_encoding.h"
#include "modelcheck/idle_core_state_store.h"
#include "modelcheck/idle_core_timeline.h"

namespace idlespec::idle_core::mc {

template <class Subject>
class Checker {
 public:
  explicit Checker(const CheckerOptions& o)
      : o_(o),
        c_(o.config),
        shape_(Shape::of<Subject>()),
        judge_(o.config, shape_),
        chain_judge_(o.config, shape_),
        sym_(
            symmetry_for(o.config, Subject::core_thread_mask(o.config), o.symmetry && !o.liveness)),
        codec_(o.config, sym_),
        por_(o.por && !o.liveness && !o.config.power9() && shape_.clear_under_lock) {}

  CheckerResult run();
  // The same search distributed over the ranks of x, the states
  // hash-partitioned among them (the owner of a state is the hash of its
  // representative, spelled out as a WideKey, modulo the ranks): level by
  // level, each rank expands the states it owns and sends each successor to
  // its owner in one all-to-all exchange. Safety only (no liveness, no
  // random walks). The counterexamples are rebuilt by rank 0, which asks
  // the owners for each state's parent; rank 0's result has them and the
  // totals, every rank's the totals.
  CheckerResult run_distributed(Exchange& x);

 private:
  static constexpr uint64_t kBatchStates = uint64_t{1} << 17;     // per exchange, per rank
  static constexpr uint64_t kSentMask = (uint64_t{1} << 15) - 1;  // remembered sends per owner
  using Clock = std::chrono::steady_clock;
  struct Found {
    std::string clause;
    std::string message;  // the oracle's, on the snapshot (replay: on the path)
    uint32_t state = 0;   // the state the violating move leaves (or the bad state)
    bool has_move = false;
    uint8_t move = 0;    // on the representative of `state`
    unsigned chain = 0;  // the violation is at this step of the holder's chain after `move`
    unsigned depth = 0;  // the BFS depth of `state`
  };
  void record(const oracle::Violations& vs, uint32_t state, bool has_move, uint8_t move,
              unsigned chain = 0);
  // Runs the holder's chain from n (idle_core_reduction.h): every step judged
  // from the state it leaves, move numbers from `move_number`. Returns the
  // steps taken; `bad` tells whether the last one violated a clause (then
  // recorded against state `from`, move `mb`, and the chain stops).
  unsigned run_chain(CoreState& n, uint32_t from, uint8_t mb, size_t move_number, bool& bad);
  void progress(bool final);
  bool out_of_time() const {
    return o_.time_limit > 0 &&
           std::chrono::duration<double>(Clock::now() - t0_).count() > o_.time_limit;
  }
  // The clock and the result's description, at the start of a search.
  void begin();
  // The lock holder whose next step alone expands s (idle_core_reduction.h),
  // or -1.
  int ample_thread(const CoreState& s) const;
  // Every move from s (stored at index cur, BFS depth depth_) judged by the
  // oracle, violations recorded, the holder's chains run; each successor to
  // store (and, for the liveness graph, each self-loop) handed to
  // emit(next, move byte, spin, self, violating), which returns false to
  // stop. A state no move changes is judged stuck.
  template <class Emit>
  void expand(const CoreState& s, uint32_t cur, std::vector<Move>& moves, Emit&& emit);
  // The path to f on concrete states; `confirmed`: the oracle judged the
  // violation again at its end (along the path, or on the snapshot there).
  std::string replay(const Found& f, std::vector<TraceRow>& rows, CoreState& final_state,
                     bool& confirmed);
  // The same from the moves on representatives, root first (f.move last if
  // f.has_move).
  std::string replay_steps(const Found& f, const std::vector<uint8_t>& steps,
                           std::vector<TraceRow>& rows, CoreState& final_state, bool& confirmed);
  std::string replay_lasso(const Lasso& l);
  // Move m applied to the concrete state conc (its transition in tr), as a
  // row of the timeline.
  TraceRow traced_move(CoreState& conc, const Move& m, Transition& tr);
  void random_walks();

  CheckerOptions o_;
  Config c_;
  Shape shape_;
  Judge judge_;
  Judge chain_judge_;  // the holder's chains (judge_ keeps the expanded state's snapshot)
  Symmetry sym_;
  Codec codec_;
  bool por_;
  StateStore store_;
  Graph graph_;
  std::vector<Found> found_;
  uint32_t found_clauses_ = 0;  // bit n: IDLE-n is in found_
  struct Succ {
    Key key;
    uint64_t h;
    uint8_t move;
    bool spin;
    bool self;
  };
  std::vector<Succ> succ_;
  CheckerResult res_;
  Clock::time_point t0_, last_progress_;
  unsigned depth_ = 0;
  uint64_t cursor_ = 0;
  bool stop_ = false;
};

template <class Subject>
void Checker<Subject>::record(const oracle::Violations& vs, uint32_t state, bool has_move,
                              uint8_t move, unsigned chain) {
  for (const oracle::Verdict& v : vs) {
    const uint32_t charged = judge_.clauses(v) & ~found_clauses_;
    if (!charged) continue;
    for (unsigned n = 1; n <= 9; ++n) {
      if (!((charged >> n) & 1)) continue;
      found_clauses_ |= 1u << n;
      found_.push_back(
          Found{"IDLE-" + std::to_string(n), v.message, state, has_move, move, chain, depth_});
      if (o_.stop_at_first) stop_ = true;
    }
  }
}

template <class Subject>
void Checker<Subject>::progress(bool final) {
  if (!o_.progress) return;
  const auto now = Clock::now();
  if (!final && now - last_progress_ < std::chrono::seconds(1)) return;
  last_progress_ = now;
  const double secs = std::chrono::duration<double>(now - t0_).count();
  std::fprintf(stderr,
               "[model-check %s] %s states (%s/s), %s transitions, depth %u, queue %s, "
               "store %.0f MB, peak RSS %.0f MB, %.1fs\n",
               res_.config.c_str(), human_count(static_cast<double>(store_.size())).c_str(),
               human_count(secs > 0 ? static_cast<double>(store_.size()) / secs : 0).c_str(),
               human_count(static_cast<double>(res_.transitions)).c_str(), depth_,
               human_count(static_cast<double>(store_.size() - cursor_)).c_str(),
               static_cast<double>(store_.memory_bytes()) / 1e6,
               static_cast<double>(peak_rss_kb()) / 1e3, secs);
}

template <class Subject>
void Checker<Subject>::begin() {
  t0_ = last_progress_ = Clock::now();
  res_.config = c_.describe();
  res_.subject = std::string(Subject::name);
  res_.symmetry = sym_.enabled;
  res_.por = por_;
}

}  // namespace idlespec::idle_core::mc
