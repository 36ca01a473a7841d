// The explicit-state model checker for idle_core (spec/idle_core.md, checks
// model-check idle_core_power8, idle_core_power9, idle_core_liveness).
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
// State storage. A state is packed into a 16-byte key: 12 bits of core-wide
// fields (winkle count, lock, timebase / workaround / per-core / per-subcore
// register validity) and one dictionary index per thread (14 bits at SMT8, up
// to 32 below). The dictionary interns a thread's *local view*: program point,
// kind, loss, flags, its own thread and winkle bit of the word, its per-thread
// register validity and `seen` (stored as "equal to the word", or raw). Few
// local views are reachable (hundreds), so the key stays fixed-width. Keys
// live in a chunked array in BFS order (the queue is a cursor into it, each key
// with its parent's index and the move from it); the visited set is an
// open-addressing table of 32-bit indices into that array. No heap allocation
// per state.
//
// Symmetry. Threads of a block are interchangeable: the whole core is one
// block; in split-core mode each subcore is one and whole subcores are
// interchangeable too (the wreath product S_k wr S_m). A witness whose
// core_thread_mask is not the core's splits blocks further by the mask and
// forbids block swaps. The representative sorts threads by their local view
// within blocks (then blocks by their subcore register bit and sorted views),
// which permutes the thread and winkle bits of the word, of every `seen`, and
// the ghost's per-thread and per-subcore bitmasks along. When some thread's
// `seen` differs from the word in per-thread bits (POWER9's lock-free races,
// the ClearOutsideLock witness), views that tie are ordered by how many such
// `seen`s reference them: still a member of the orbit (sound), possibly not
// the unique one (a few more states). Judges are symmetric; counterexamples
// are replayed on concrete states, un-permuting each move.
//
// Partial-order reduction (safety runs on POWER8 subjects that clear their
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
//
// Liveness (IDLE-8) runs on the unreduced graph: see idle_core_checker.cc,
// analyse_liveness.
#pragma once

#include <sys/resource.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <climits>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <random>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "impl/idle_core.h"
#include "impl/idle_core_model.h"
#include "impl/text.h"
#include "modelcheck/idle_core_exchange.h"
#include "modelcheck/idle_core_observer.h"

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

// --- machinery (idle_core_checker.cc) -------------------------------------------

struct Key {
  uint64_t w[2] = {0, 0};
  friend bool operator==(const Key&, const Key&) = default;
};

// Which threads are interchangeable.
struct Symmetry {
  bool enabled = false;
  unsigned blocks = 1;  // contiguous blocks of block_size threads
  unsigned block_size = 1;
  bool swap_blocks = false;  // whole blocks interchangeable (their subcore register bit too)
};
Symmetry symmetry_for(const Config& c, uint64_t subject_mask, bool on);

// A state's representative spelled out, the same in every process: the
// core-wide fields, then each thread's local view in the representative's
// order (what a key holds dictionary indices of). The distributed search
// sends these.
struct WideKey {
  uint64_t w[1 + kMaxThreads] = {};
  friend bool operator==(const WideKey&, const WideKey&) = default;
};

// Packs states into keys, canonical under the symmetry.
class Codec {
 public:
  Codec(const Config& c, const Symmetry& sym);
  // The representative's key; perm[new] = the thread of s it came from.
  // False if the state cannot be packed (stray word bits, dictionary full).
  bool encode(const CoreState& s, Key& key, std::array<uint8_t, kMaxThreads>& perm);
  // encode() in two halves: the representative spelled out, and its key in
  // this codec's dictionary.
  bool canonical(const CoreState& s, WideKey& wide, std::array<uint8_t, kMaxThreads>& perm);
  bool intern_wide(const WideKey& wide, Key& key);
  void decode(const Key& key, CoreState& s) const;
  size_t local_views() const { return views_.size(); }
  const std::string& error() const { return error_; }

 private:
  uint32_t intern(uint64_t view);
  Config c_;
  Symmetry sym_;
  unsigned id_bits_;
  std::vector<uint64_t> views_;  // id -> view
  // The views of the state decoded last, and their ids: most of a
  // successor's views are among them.
  mutable std::array<uint64_t, kMaxThreads> hint_view_{};
  mutable std::array<uint32_t, kMaxThreads> hint_id_{};
  std::vector<uint64_t> slots_;  // open addressing: view+1, 0 = empty
  std::vector<uint32_t> slot_ids_;
  std::string error_;
};

// The visited set and the BFS queue: keys in insertion order, with parents.
// The table holds 32-bit indices into the key chunks and, in a parallel byte
// array, 8 bits of each key's hash, so that a probe rarely touches a key that
// does not match.
class StateStore {
 public:
  StateStore();
  ~StateStore();
  StateStore(const StateStore&) = delete;
  StateStore& operator=(const StateStore&) = delete;
  static constexpr uint32_t kNone = UINT32_MAX;
  static uint64_t hash(const Key& k);
  // Hints that key (with this hash) will be looked up soon.
  void prefetch(uint64_t h) const {
    __builtin_prefetch(&table_[h & table_mask_]);
    __builtin_prefetch(&tags_[h & table_mask_]);
  }
  // Whether key (with this hash) is stored.
  bool contains(const Key& key, uint64_t h) const;
  // The index of key; inserted tells whether it is new.
  uint32_t insert(const Key& key, uint64_t h, uint32_t parent, uint8_t move, bool& inserted);
  uint32_t insert(const Key& key, uint32_t parent, uint8_t move, bool& inserted) {
    return insert(key, hash(key), parent, move, inserted);
  }
  const Key& key(uint32_t i) const { return keys_[i >> kChunkBits][i & kChunkMask]; }
  uint32_t parent(uint32_t i) const { return parents_[i >> kChunkBits][i & kChunkMask]; }
  uint8_t move(uint32_t i) const { return moves_[i >> kChunkBits][i & kChunkMask]; }
  uint64_t size() const { return size_; }
  uint64_t memory_bytes() const;

 private:
  static constexpr unsigned kChunkBits = 20;
  static constexpr uint32_t kChunkMask = (1u << kChunkBits) - 1;
  void grow();
  std::vector<std::unique_ptr<Key[]>> keys_;
  std::vector<std::unique_ptr<uint32_t[]>> parents_;
  std::vector<std::unique_ptr<uint8_t[]>> moves_;
  uint32_t* table_ = nullptr;  // index+1, 0 = empty
  uint8_t* tags_ = nullptr;    // hash bits 56..63 of the key at the same slot
  uint64_t table_mask_ = 0;
  uint64_t size_ = 0;
};

// A move in one byte: kind (2 bits), thread (3), the begin_idle kind's index
// among the platform's three (2).
uint8_t pack_move(const Config& c, const Move& m);
Move unpack_move(const Config& c, uint8_t b);

// One row of a counterexample, on concrete states.
struct TraceRow {
  Move move;
  Pc pc_before = Pc::running;
  Pc pc_after = Pc::running;
  Kind kind = Kind::none;  // the thread's kind during the move
  StepResult result;
  Loss loss = Loss::none;
  uint32_t word_after = 0;
  Ghost ghost_after;
  std::string note;  // e.g. "<- IDLE-3: ..." on the last row, "cycle starts"
};
// The timeline people read: one column per thread (the action the thread
// took, the program point it reached), the word and the hardware after each
// move.
std::string render_timeline(const Config& c, const std::vector<TraceRow>& rows,
                            const CoreState& final_state, const std::string& headline,
                            unsigned max_rows);

// The unreduced state graph for the liveness analysis (CSR, in store order).
struct Graph {
  std::vector<uint64_t> offsets{0};  // edges of state i: [offsets[i], offsets[i+1])
  std::vector<uint32_t> targets;
  std::vector<uint8_t> labels;  // pack_move | 0x80 when the step spun
  std::vector<uint8_t> waking;  // bit t: thread t on its wake path
};
// IDLE-8: a reachable strongly fair cycle on which thread `thread` stays on
// its wake path. Returns false if none; else the cycle's first state (prefix:
// parents in the store) and the cycle as (label, target) edges back to it.
struct Lasso {
  unsigned thread = 0;
  uint32_t entry = 0;
  std::vector<std::pair<uint8_t, uint32_t>> cycle;
  uint64_t scc_size = 0;
};
bool analyse_liveness(const Config& c, const Graph& g, bool fair_environment, Lasso& out,
                      uint64_t* sccs_examined);

long peak_rss_kb();
std::string human_count(double n);

// --- the checker ------------------------------------------------------------------

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
  // Runs the holder's chain from n (the reduction above): every step judged
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
  // The lock holder whose next step alone expands s (the class comment), or -1.
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
template <class Emit>
void Checker<Subject>::expand(const CoreState& s, uint32_t cur, std::vector<Move>& moves,
                              Emit&& emit) {
  enabled_moves(c_, s, moves);
  judge_.at(s);
  bool changes = false;
  CoreState n;
  for (const Move& m : moves) {
    n = s;
    const Transition tr = apply<Subject>(c_, n, m);
    ++res_.transitions;
    const uint8_t mb = pack_move(c_, m);
    const bool spin = tr.result.event == Event::spin;
    const bool self = n == s;  // a failing test-and-set
    // A failing test-and-set changes nothing: the state it stays in was
    // judged when it was reached, and the oracle has nothing to learn
    // from a spin.
    const oracle::Violations* vs =
        self && spin && !tr.result.returned ? nullptr : &judge_.move(tr, n, depth_ + 1);
    const bool fs = vs && !vs->empty();
    if (!fs && self) {
      if (o_.liveness && !emit(n, mb, spin, true, false)) break;
      continue;
    }
    changes = changes || !self;
    if (fs) {
      record(*vs, cur, true, mb);
      if (stop_) break;
      // A violating successor is terminal, except for the liveness
      // analysis, which wants the whole reachable graph.
      if (!o_.liveness) continue;
    }
    if (por_ && !self) {  // the holder's chain, judged step by step
      bool bad = false;
      run_chain(n, cur, mb, depth_ + 1, bad);
      if (stop_) break;
      if (bad) continue;
    }
    if (!emit(n, mb, spin, self, fs)) break;
  }
  if (!changes && !stop_) record(oracle::Violations{judge_.stuck(s)}, cur, false, 0);
}

template <class Subject>
void Checker<Subject>::begin() {
  t0_ = last_progress_ = Clock::now();
  res_.config = c_.describe();
  res_.subject = std::string(Subject::name);
  res_.symmetry = sym_.enabled;
  res_.por = por_;
}

template <class Subject>
CheckerResult Checker<Subject>::run() {
  begin();
  std::array<uint8_t, kMaxThreads> perm{};
  Key key;
  bool inserted = false;

  const CoreState init = initial_state(c_);
  if (!codec_.encode(init, key, perm)) {
    res_.error = codec_.error();
    return res_;
  }
  store_.insert(key, StateStore::kNone, 0, inserted);
  record(judge_.state(init), 0, false, 0);

  std::vector<Move> moves;
  uint64_t level_end = 1;
  bool truncated = false;
  CoreState s, n;
  while (cursor_ < store_.size() && !stop_) {
    if (cursor_ == level_end) {
      ++depth_;
      level_end = store_.size();
    }
    const uint32_t cur = static_cast<uint32_t>(cursor_++);
    if ((cur & 1023) == 0) {
      progress(false);
      if (out_of_time()) {
        res_.incomplete_reason = "time limit";
        truncated = true;
        break;
      }
    }
    codec_.decode(store_.key(cur), s);
    if (o_.liveness) {  // graph_.offsets[cur] is where cur's edges start
      uint8_t w = 0;
      for (unsigned t = 0; t < c_.threads; ++t) w |= uint8_t(on_wake_path(s.th[t]) << t);
      graph_.waking.push_back(w);
    }
    if (o_.max_depth && depth_ >= o_.max_depth) {
      truncated = true;
      if (res_.incomplete_reason.empty()) res_.incomplete_reason = "max depth";
      if (o_.liveness) graph_.offsets.push_back(graph_.targets.size());
      continue;
    }
    succ_.clear();
    expand(s, cur, moves, [&](const CoreState& next, uint8_t mb, bool spin, bool self, bool fs) {
      if (self) {  // only the graph wants it
        succ_.push_back({Key{}, 0, mb, spin, true});
        return true;
      }
      if (!codec_.encode(next, key, perm)) {
        // Only a state past a violation can leave the word's fields (a
        // winkle count wrapped by a broken subject): a dead end for the
        // liveness graph. Otherwise the checker cannot go on.
        if (fs) return true;
        res_.error = codec_.error();
        stop_ = true;
        return false;
      }
      const uint64_t h = StateStore::hash(key);
      store_.prefetch(h);
      succ_.push_back({key, h, mb, spin, false});
      return true;
    });
    for (const Succ& x : succ_) {
      if (stop_) break;
      uint32_t idx = cur;
      if (!x.self) {
        if (o_.max_states && store_.size() >= o_.max_states) {
          truncated = true;
          res_.incomplete_reason = "max states";
          stop_ = true;
          break;
        }
        idx = store_.insert(x.key, x.h, cur, x.move, inserted);
      }
      if (o_.liveness) {
        graph_.targets.push_back(idx);
        graph_.labels.push_back(uint8_t(x.move | (x.spin ? 0x80 : 0)));
      }
    }
    if (o_.liveness) graph_.offsets.push_back(graph_.targets.size());
  }
  res_.depth = depth_;
  if (stop_ && !found_.empty() && res_.incomplete_reason.empty() && cursor_ < store_.size())
    res_.incomplete_reason = "stopped at the first violation";
  res_.complete = !truncated && !stop_ && res_.error.empty() && cursor_ >= store_.size();
  if (o_.random_walks && res_.error.empty() && !stop_) random_walks();
  progress(true);

  if (o_.liveness && res_.complete) {
    Lasso lasso;
    uint64_t examined = 0;
    if (analyse_liveness(c_, graph_, o_.fair_environment, lasso, &examined)) {
      Violation v;
      v.clause = "IDLE-8";
      v.summary = strprintf(
          "t%u is woken and never returns to running on a strongly fair cycle (fair SCC of "
          "%llu states)",
          lasso.thread, static_cast<unsigned long long>(lasso.scc_size));
      v.trace = replay_lasso(lasso);
      v.length = static_cast<unsigned>(lasso.cycle.size());
      res_.violations.push_back(std::move(v));
    }
    res_.liveness = true;
  }
  for (const Found& f : found_) {
    Violation v;
    v.clause = f.clause;
    std::vector<TraceRow> rows;
    CoreState last;
    v.summary = replay(f, rows, last, v.replayed);
    v.length = static_cast<unsigned>(rows.size());
    v.trace = render_timeline(
        c_, rows, last,
        v.clause + " violated (" + res_.config + ", subject " + res_.subject + "): " + v.summary,
        o_.max_trace_rows);
    res_.violations.push_back(std::move(v));
  }
  res_.states = store_.size();
  res_.local_views = codec_.local_views();
  res_.seconds = std::chrono::duration<double>(Clock::now() - t0_).count();
  res_.peak_rss_kb = peak_rss_kb();
  return res_;
}

namespace wire {

inline uint64_t wide_hash(const WideKey& w, unsigned threads) {
  uint64_t h = 0x9E3779B97F4A7C15ULL;
  for (unsigned i = 0; i <= threads; ++i) {
    h ^= w.w[i] + 0x9E3779B97F4A7C15ULL + (h << 6) + (h >> 2);
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdULL;
    h ^= h >> 33;
  }
  return h;
}
template <class T>
void put_raw(std::vector<uint8_t>& b, const T& v) {
  const auto* p = reinterpret_cast<const uint8_t*>(&v);
  b.insert(b.end(), p, p + sizeof(T));
}
template <class T>
T get_raw(const std::vector<uint8_t>& b, size_t& at) {
  T v{};
  if (at + sizeof(T) > b.size()) throw std::length_error("a short record from another rank");
  std::memcpy(&v, b.data() + at, sizeof(T));
  at += sizeof(T);
  return v;
}

}  // namespace wire

template <class Subject>
CheckerResult Checker<Subject>::run_distributed(Exchange& x) {
  begin();
  const unsigned R = x.ranks(), me = x.rank();
  res_.ranks = R;
  if (o_.liveness || o_.random_walks) {
    res_.error = "the distributed search checks safety only (no --liveness, no --random-walks)";
    return res_;
  }
  const unsigned n_words = 1 + c_.threads;
  const auto owner = [&](const WideKey& w) {
    return static_cast<unsigned>(wire::wide_hash(w, c_.threads) % R);
  };
  std::vector<uint8_t> parent_rank;  // per stored state: the rank that holds its parent
  std::array<uint8_t, kMaxThreads> perm{};
  WideKey w;
  Key key;
  bool inserted = false;

  const CoreState init = initial_state(c_);
  if (!codec_.canonical(init, w, perm)) {
    res_.error = codec_.error();
    return res_;
  }
  if (owner(w) == me) {
    if (!codec_.intern_wide(w, key)) {
      res_.error = codec_.error();
      stop_ = true;
    } else {
      store_.insert(key, StateStore::kNone, 0, inserted);
      parent_rank.push_back(0xff);
      record(judge_.state(init), 0, false, 0);
    }
  }
  uint64_t lb = 0, le = store_.size(), bytes = 0;
  bool truncated = false;
  std::vector<std::vector<uint8_t>> out(R), in;
  std::vector<std::vector<WideKey>> sent(R);  // per owner: what was sent to it lately
  WideKey none;  // no state's: its core-wide word has bits no state uses
  none.w[0] = ~uint64_t{0};
  for (unsigned r = 0; r < R; ++r)
    if (r != me) sent[r].assign(kSentMask + 1, none);
  std::vector<Move> moves;
  CoreState s;
  for (;;) {
    if (o_.max_depth && depth_ >= o_.max_depth) {
      truncated = x.sum(le - lb) != 0;
      if (truncated) res_.incomplete_reason = "max depth";
      break;
    }
    // The level in batches (every rank takes part in as many exchanges as
    // the rank with the most states needs), so that the buffers stay small.
    const uint64_t batches = x.max((le - lb + kBatchStates - 1) / kBatchStates);
    const uint64_t level_end = le;
    uint64_t cur = lb;
    lb = store_.size();  // the next level: what this one's exchanges add
    for (uint64_t batch = 0; batch < batches; ++batch) {
      for (auto& b : out) b.clear();
      for (uint64_t k = 0; k < kBatchStates && cur < level_end && !stop_; ++k, ++cur) {
        codec_.decode(store_.key(static_cast<uint32_t>(cur)), s);
        expand(s, static_cast<uint32_t>(cur), moves,
               [&](const CoreState& next, uint8_t mb, bool, bool self, bool fs) {
                 if (self) return true;
                 if (!codec_.canonical(next, w, perm)) {
                   if (fs) return true;  // past a violation: a dead end
                   res_.error = codec_.error();
                   stop_ = true;
                   return false;
                 }
                 const uint64_t h = wire::wide_hash(w, c_.threads);
                 const unsigned to = static_cast<unsigned>(h % R);
                 if (to == me) {  // this rank's own: stored at once (the next level)
                   if (!codec_.intern_wide(w, key)) {
                     res_.error = codec_.error();
                     stop_ = true;
                     return false;
                   }
                   store_.insert(key, static_cast<uint32_t>(cur), mb, inserted);
                   if (inserted) parent_rank.push_back(static_cast<uint8_t>(me));
                   return true;
                 }
                 // Most successors are states seen before: a successor sent
                 // to its owner a moment ago is not sent again (an exact
                 // comparison, never a hash's word for it).
                 WideKey& recent = sent[to][(h >> 20) & kSentMask];
                 if (recent == w) return true;
                 recent = w;
                 std::vector<uint8_t>& b = out[to];
                 wire::put_raw(b, static_cast<uint32_t>(cur));
                 wire::put_raw(b, mb);
                 b.insert(b.end(), reinterpret_cast<const uint8_t*>(w.w),
                          reinterpret_cast<const uint8_t*>(w.w + n_words));
                 return true;
               });
      }
      for (unsigned r = 0; r < R; ++r)
        if (r != me) bytes += out[r].size();
      x.all_to_all(out, in);
      for (unsigned from = 0; from < R && !stop_; ++from) {
        const std::vector<uint8_t>& b = in[from];
        for (size_t at = 0; at < b.size();) {
          const uint32_t parent = wire::get_raw<uint32_t>(b, at);
          const uint8_t mb = wire::get_raw<uint8_t>(b, at);
          WideKey got;
          for (unsigned i = 0; i < n_words; ++i) got.w[i] = wire::get_raw<uint64_t>(b, at);
          if (!codec_.intern_wide(got, key)) {
            res_.error = codec_.error();
            stop_ = true;
            break;
          }
          store_.insert(key, parent, mb, inserted);
          if (inserted) parent_rank.push_back(static_cast<uint8_t>(from));
        }
      }
    }
    le = store_.size();
    const uint64_t fresh = x.sum(le - lb);
    const uint64_t stopping = x.sum(stop_ ? 1 : 0);
    const uint64_t total = x.sum(store_.size());
    const uint64_t elapsed_ms = x.max(
        static_cast<uint64_t>(std::chrono::duration<double>(Clock::now() - t0_).count() * 1000));
    if (me == 0 && o_.progress) {
      std::fprintf(
          stderr,
          "[model-check %s, %u ranks] depth %u: %s states (+%s), rank 0 sent %.0f MB, "
          "peak RSS %.0f MB, %.1fs\n",
          res_.config.c_str(), R, depth_ + 1, human_count(static_cast<double>(total)).c_str(),
          human_count(static_cast<double>(fresh)).c_str(), static_cast<double>(bytes) / 1e6,
          static_cast<double>(peak_rss_kb()) / 1e3, static_cast<double>(elapsed_ms) / 1e3);
    }
    if (stopping) {
      stop_ = true;
      break;
    }
    if (fresh == 0) break;
    ++depth_;
    if (o_.max_states && total >= o_.max_states) {
      truncated = true;
      res_.incomplete_reason = "max states";
      break;
    }
    if (o_.time_limit > 0 && static_cast<double>(elapsed_ms) / 1e3 > o_.time_limit) {
      truncated = true;
      res_.incomplete_reason = "time limit";
      break;
    }
  }

  // The totals, on every rank.
  res_.depth = depth_;
  res_.states = x.sum(store_.size());
  res_.transitions = x.sum(res_.transitions);
  res_.por_states = x.sum(res_.por_states);
  res_.max_rank_states = x.max(store_.size());
  res_.bytes_sent = x.sum(bytes);
  res_.max_rank_bytes_sent = x.max(bytes);
  res_.max_rank_rss_kb = static_cast<long>(x.max(static_cast<uint64_t>(peak_rss_kb())));
  res_.local_views = codec_.local_views();

  // Each rank's findings and error to rank 0.
  for (auto& b : out) b.clear();
  std::vector<uint8_t>& mine = out[0];
  wire::put_raw(mine, static_cast<uint32_t>(res_.error.size()));
  mine.insert(mine.end(), res_.error.begin(), res_.error.end());
  for (const Found& f : found_) {
    wire::put_raw(mine, static_cast<uint8_t>(std::stoi(f.clause.substr(5))));
    wire::put_raw(mine, f.state);
    wire::put_raw(mine, static_cast<uint8_t>(f.has_move));
    wire::put_raw(mine, f.move);
    wire::put_raw(mine, f.chain);
    wire::put_raw(mine, f.depth);
    wire::put_raw(mine, static_cast<uint32_t>(f.message.size()));
    mine.insert(mine.end(), f.message.begin(), f.message.end());
  }
  x.all_to_all(out, in);
  struct Remote {
    Found f;
    unsigned rank = 0;
  };
  std::vector<Remote> chosen;  // rank 0: the shallowest finding of each clause
  if (me == 0) {
    for (unsigned from = 0; from < R; ++from) {
      const std::vector<uint8_t>& b = in[from];
      size_t at = 0;
      const uint32_t elen = wire::get_raw<uint32_t>(b, at);
      const std::string err(b.begin() + static_cast<long>(at),
                            b.begin() + static_cast<long>(at + elen));
      at += elen;
      if (!err.empty() && res_.error.empty()) {
        res_.error = "rank " + std::to_string(from) + ": " + err;
      }
      while (at < b.size()) {
        Remote r;
        r.rank = from;
        r.f.clause = "IDLE-" + std::to_string(wire::get_raw<uint8_t>(b, at));
        r.f.state = wire::get_raw<uint32_t>(b, at);
        r.f.has_move = wire::get_raw<uint8_t>(b, at) != 0;
        r.f.move = wire::get_raw<uint8_t>(b, at);
        r.f.chain = wire::get_raw<unsigned>(b, at);
        r.f.depth = wire::get_raw<unsigned>(b, at);
        const uint32_t mlen = wire::get_raw<uint32_t>(b, at);
        r.f.message.assign(b.begin() + static_cast<long>(at),
                           b.begin() + static_cast<long>(at + mlen));
        at += mlen;
        bool fresh_clause = true;
        for (Remote& c : chosen) {
          if (c.f.clause != r.f.clause) continue;
          fresh_clause = false;
          if (r.f.depth < c.f.depth) c = r;
        }
        if (fresh_clause) chosen.push_back(r);
      }
    }
  }
  const bool any_error = x.sum(res_.error.empty() ? 0 : 1) != 0;
  res_.complete = !truncated && !stop_ && !any_error;
  if (stop_ && res_.incomplete_reason.empty() && !any_error)
    res_.incomplete_reason = "stopped at the first violation";

  // Rank 0 walks each finding's parents back to the initial state, asking
  // the rank that holds each one; every rank takes part in each round.
  const uint64_t findings = x.sum(me == 0 ? chosen.size() : 0);
  for (uint64_t k = 0; k < findings; ++k) {
    std::vector<uint8_t> steps_back;
    uint32_t at_rank = me == 0 ? chosen[k].rank : 0;
    uint32_t at_idx = me == 0 ? chosen[k].f.state : 0;
    for (;;) {
      for (auto& b : out) b.clear();
      if (me == 0) {
        for (unsigned r = 0; r < R; ++r) {
          wire::put_raw(out[r], at_rank);
          wire::put_raw(out[r], at_idx);
        }
      }
      x.all_to_all(out, in);
      size_t pos = 0;
      const uint32_t q_rank = wire::get_raw<uint32_t>(in[0], pos);
      const uint32_t q_idx = wire::get_raw<uint32_t>(in[0], pos);
      if (q_idx == StateStore::kNone) break;  // past the initial state: done
      for (auto& b : out) b.clear();
      if (q_rank == me) {
        const uint32_t parent = store_.parent(q_idx);
        wire::put_raw(out[0], parent == StateStore::kNone ? 0u : uint32_t{parent_rank[q_idx]});
        wire::put_raw(out[0], parent);
        wire::put_raw(out[0], store_.move(q_idx));
      }
      x.all_to_all(out, in);
      if (me == 0) {
        size_t p = 0;
        at_rank = wire::get_raw<uint32_t>(in[q_rank], p);
        at_idx = wire::get_raw<uint32_t>(in[q_rank], p);
        const uint8_t mb = wire::get_raw<uint8_t>(in[q_rank], p);
        if (at_idx != StateStore::kNone) steps_back.push_back(mb);
      }
    }
    if (me != 0) continue;
    const Found& f = chosen[k].f;
    std::vector<uint8_t> steps(steps_back.rbegin(), steps_back.rend());
    if (f.has_move) steps.push_back(f.move);
    Violation v;
    v.clause = f.clause;
    std::vector<TraceRow> rows;
    CoreState last;
    v.summary = replay_steps(f, steps, rows, last, v.replayed);
    v.length = static_cast<unsigned>(rows.size());
    v.trace = render_timeline(
        c_, rows, last,
        v.clause + " violated (" + res_.config + ", subject " + res_.subject + "): " + v.summary,
        o_.max_trace_rows);
    res_.violations.push_back(std::move(v));
  }
  std::sort(res_.violations.begin(), res_.violations.end(),
            [](const Violation& a, const Violation& b) { return a.clause < b.clause; });
  res_.seconds = std::chrono::duration<double>(Clock::now() - t0_).count();
  res_.peak_rss_kb = peak_rss_kb();
  return res_;
}

// Replays the path to f.state on concrete states: each stored move was taken
// on a representative; perm maps the representative's threads to the
// concrete ones.
template <class Subject>
std::string Checker<Subject>::replay(const Found& f, std::vector<TraceRow>& rows,
                                     CoreState& final_state, bool& confirmed) {
  std::vector<uint32_t> path;
  for (uint32_t i = f.state; i != StateStore::kNone; i = store_.parent(i)) path.push_back(i);
  std::vector<uint8_t> steps;  // the moves on representatives, root first
  for (size_t k = path.size(); k-- > 1;) steps.push_back(store_.move(path[k - 1]));
  if (f.has_move) steps.push_back(f.move);
  return replay_steps(f, steps, rows, final_state, confirmed);
}

template <class Subject>
std::string Checker<Subject>::replay_steps(const Found& f, const std::vector<uint8_t>& steps,
                                           std::vector<TraceRow>& rows, CoreState& final_state,
                                           bool& confirmed) {
  confirmed = false;

  CoreState conc = initial_state(c_);
  std::array<uint8_t, kMaxThreads> pi{}, rho{};
  Key key;
  codec_.encode(conc, key, pi);
  CoreState rep;
  codec_.decode(key, rep);
  std::string summary = f.message;
  // The oracle along the concrete path: its messages can say where what
  // went wrong began (the loss that invalidated the timebase, ...).
  oracle::Oracle along(c_);
  oracle::Violations said;
  const unsigned clause_n = static_cast<unsigned>(std::stoi(f.clause.substr(5)));
  // The violating move judged again: by the oracle along the path (its
  // words can say where what went wrong began), else on the snapshot.
  const auto confirm = [&](const CoreState& before, const Transition& tr, const CoreState& after,
                           size_t move_number) {
    for (const oracle::Verdict& v : said) {
      if ((judge_.clauses(v) >> clause_n) & 1) {
        summary = v.message;
        confirmed = true;
        return;
      }
    }
    judge_.set_quiet(false);
    judge_.at(before);
    for (const oracle::Verdict& v : judge_.move(tr, after, move_number)) {
      if ((judge_.clauses(v) >> clause_n) & 1) {
        summary = v.message;
        confirmed = true;
        break;
      }
    }
    judge_.set_quiet(true);
  };
  for (size_t k = 0; k < steps.size(); ++k) {
    const Move rm = unpack_move(c_, steps[k]);
    Move cm = rm;
    cm.thread = pi[rm.thread];
    TraceRow row;
    row.move = cm;
    row.pc_before = conc.th[cm.thread].pc;
    row.kind = conc.th[cm.thread].kind;
    const CoreState before = conc;
    const Transition tr = apply<Subject>(c_, conc, cm);
    row.pc_after = conc.th[cm.thread].pc;
    if (row.kind == Kind::none) row.kind = conc.th[cm.thread].kind;
    row.result = tr.result;
    row.loss = tr.loss;
    row.word_after = conc.word;
    row.ghost_after = conc.ghost;
    const bool last = k + 1 == steps.size();
    said.clear();
    along.observe_all(tr, conc.word, seen_in(c_, shape_, &tr, conc, k + 1), said);
    if (last && f.has_move && f.chain == 0) {
      confirm(before, tr, conc, k + 1);
      row.note = "<- " + f.clause;
    }
    rows.push_back(row);
    // The holder's chain after the move (the reduction): the same steps on
    // the concrete state as the search took on the representative.
    const unsigned want = last && f.has_move ? f.chain : UINT_MAX;
    for (unsigned k = 0; por_ && k < want;) {
      const int t = ample_thread(conc);
      if (t < 0) break;
      const Move chain_move{MoveKind::step, static_cast<uint8_t>(t), Kind::none};
      ++k;
      TraceRow crow;
      crow.move = chain_move;
      crow.pc_before = conc.th[t].pc;
      crow.kind = conc.th[t].kind;
      const CoreState cbefore = conc;
      const Transition ctr = apply<Subject>(c_, conc, chain_move);
      crow.pc_after = conc.th[t].pc;
      crow.result = ctr.result;
      crow.word_after = conc.word;
      crow.ghost_after = conc.ghost;
      said.clear();
      along.observe_all(ctr, conc.word, seen_in(c_, shape_, &ctr, conc, rows.size() + 1), said);
      if (k == want) {
        confirm(cbefore, ctr, conc, rows.size() + 1);
        crow.note = "<- " + f.clause;
      }
      rows.push_back(crow);
    }
    if (!(last && f.has_move)) {
      CoreState next = rep;
      apply<Subject>(c_, next, rm);
      if (por_) {
        for (int t; (t = ample_thread(next)) >= 0;)
          apply<Subject>(c_, next, Move{MoveKind::step, static_cast<uint8_t>(t), Kind::none});
      }
      codec_.encode(next, key, rho);
      codec_.decode(key, rep);
      std::array<uint8_t, kMaxThreads> npi{};
      for (unsigned j = 0; j < c_.threads; ++j) npi[j] = pi[rho[j]];
      pi = npi;
    }
  }
  final_state = conc;
  if (!f.has_move) {  // a state's own violation: the initial state, or every thread stuck
    if (!rows.empty()) rows.back().note = "<- " + f.clause;
    oracle::Violations again = judge_.state(conc);
    std::vector<Move> moves;
    enabled_moves(c_, conc, moves);
    const bool stuck = std::all_of(moves.begin(), moves.end(), [&](const Move& m) {
      CoreState n = conc;
      apply<Subject>(c_, n, m);
      return n == conc;
    });
    if (stuck) again.push_back(judge_.stuck(conc));
    for (const oracle::Verdict& v : again)
      confirmed = confirmed || ((judge_.clauses(v) >> clause_n) & 1);
  }
  return summary;
}

template <class Subject>
std::string Checker<Subject>::replay_lasso(const Lasso& l) {
  // Symmetry is off for liveness: stored keys are the concrete states.
  std::vector<uint32_t> path;
  for (uint32_t i = l.entry; i != StateStore::kNone; i = store_.parent(i)) path.push_back(i);
  std::vector<std::pair<uint8_t, std::string>> steps;
  for (size_t k = path.size(); k-- > 1;) steps.push_back({store_.move(path[k - 1]), ""});
  const size_t prefix = steps.size();
  for (size_t k = 0; k < l.cycle.size(); ++k)
    steps.push_back({uint8_t(l.cycle[k].first & 0x7f), k == 0 ? "cycle starts" : ""});
  CoreState conc = initial_state(c_);
  std::vector<TraceRow> rows;
  for (const auto& [mb, note] : steps) {
    const Move m = unpack_move(c_, mb);
    TraceRow row;
    row.move = m;
    row.pc_before = conc.th[m.thread].pc;
    row.kind = conc.th[m.thread].kind;
    const Transition tr = apply<Subject>(c_, conc, m);
    row.pc_after = conc.th[m.thread].pc;
    if (row.kind == Kind::none) row.kind = conc.th[m.thread].kind;
    row.result = tr.result;
    row.loss = tr.loss;
    row.word_after = conc.word;
    row.ghost_after = conc.ghost;
    row.note = note;
    rows.push_back(row);
  }
  if (!rows.empty()) rows.back().note = "cycle ends (back to where it started)";
  (void)prefix;
  return render_timeline(
      c_, rows, conc,
      strprintf("IDLE-8 violated (%s, subject %s): t%u is woken and never returns to running on "
                "a strongly fair cycle of %zu moves (fair SCC of %llu states)",
                res_.config.c_str(), res_.subject.c_str(), l.thread, l.cycle.size(),
                static_cast<unsigned long long>(l.scc_size)),
      o_.max_trace_rows + static_cast<unsigned>(l.cycle.size()));
}

template <class Subject>
void Checker<Subject>::random_walks() {
  std::mt19937_64 rng(o_.seed);
  std::vector<Move> moves;
  std::array<uint8_t, kMaxThreads> perm{};
  Key key;
  bool inserted = false;
  for (uint64_t w = 0; w < o_.random_walks && !stop_; ++w) {
    CoreState s = initial_state(c_);
    uint32_t cur = 0;
    for (unsigned d = 0; d < o_.walk_length; ++d) {
      enabled_moves(c_, s, moves);
      if (moves.empty()) break;
      const Move m = moves[rng() % moves.size()];
      // The stored move is relative to the representative of cur: map back.
      std::array<uint8_t, kMaxThreads> p{};
      codec_.encode(s, key, p);  // p[new] = concrete thread
      Move rm = m;
      for (unsigned j = 0; j < c_.threads; ++j)
        if (p[j] == m.thread) rm.thread = static_cast<uint8_t>(j);
      CoreState n = s;
      const Transition tr = apply<Subject>(c_, n, m);
      ++res_.transitions;
      judge_.at(s);
      const oracle::Violations& vs = judge_.move(tr, n, d + 1);
      if (!vs.empty()) {
        record(vs, cur, true, pack_move(c_, rm));
        break;
      }
      if (por_) {  // stored states are past the holder's chain (replay re-derives it)
        bool bad = false;
        const unsigned k = run_chain(n, cur, pack_move(c_, rm), d + 1, bad);
        if (bad) break;
        d += k;
      }
      if (!codec_.encode(n, key, perm)) break;
      cur = store_.insert(key, cur, pack_move(c_, rm), inserted);
      s = n;
      if (d + 1 > res_.walk_depth) res_.walk_depth = d + 1;
    }
    if ((w & 63) == 0) progress(false);
  }
}

// Runs the checker on subject Subject.
template <class Subject>
CheckerResult check(const CheckerOptions& o) {
  Checker<Subject> checker(o);
  return checker.run();
}

}  // namespace idlespec::idle_core::mc
