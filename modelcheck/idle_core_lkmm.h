// idle_core under the Linux-kernel memory model: the protocol's step
// function (impl/idle_core.h) run on the LKMM machine (modelcheck/lkmm.h)
// instead of one sequentially consistent word, explored breadth-first over
// every execution the machine allows, every move judged by the oracle as the
// interleaving checker judges it (modelcheck/idle_core_observer.h), and every
// access checked for data races (IDLE-10, oracle::data_race).
// spec/idle_core.md, "Weak memory", says what it covers and what not.
//
// The idle words are the machine's locations: the state word (location 0)
// and, for subjects with the lock apart (IdleLock, v6.5+), paca->idle_lock
// (location 1); with the lock in the word (Reference, up to v6.4) its
// test_and_set_bit_lock and clear_bit_unlock are operations on location 0.
// What each of the step function's operations is (LkmmWord below):
//
//   load()                  `*state`: a plain load (POWER8 entry, the winkle
//                           count, the first-thread check)
//   store()                 `*state = ...`: a plain store
//   load_once()             READ_ONCE(*state) (the unlock's first read)
//   test_and_set_bit        test_and_set_bit_lock: an acquire RMW (a
//                           witness: unordered); one that finds the bit set
//                           is a marked load
//   clear_bit_unlock        a release RMW
//   set_bit / clear_bit     unordered RMWs (POWER9's lock-free updates; a
//                           witness's unlock)
//   cmpxchg                 fully ordered when it swaps, else a marked load
//
// A plain read-modify-write (`*state &= ~thread`, the winkle count) is one
// step, as in the interleaving model, but two accesses: the race detector
// sees its load and its store. The core's state loss synchronises every
// thread (lkmm::Machine::sync_all): the core powers down only when every
// thread executed its idle instruction, and its caches are gone.
//
// The state: the interleaving model's CoreState (its word: the newest value
// of the state word, with the lock bit of the lock word) and the machine.
// States are stored as 128-bit fingerprints of their bytes (hash compaction;
// two states alike in 128 bits are taken as one, with odds of about n^2 /
// 2^129 for n states).
// Reduced by symmetry (modelcheck/idle_core_lkmm_symmetry.h) and by
// lkmm::Machine::compact(); searched in one process or over MPI ranks
// (modelcheck/idle_core_lkmm_search.h). docs/model-check.md says why both
// reductions keep every clause's verdict.
#pragma once

#include <algorithm>
#include <array>
#include <chrono>
#include <cstring>
#include <string>
#include <unordered_set>
#include <vector>

#include "impl/idle_core.h"
#include "impl/idle_core_model.h"
#include "impl/text.h"
#include "modelcheck/idle_core_check_run.h"
#include "modelcheck/idle_core_exchange.h"
#include "modelcheck/idle_core_lkmm_symmetry.h"
#include "modelcheck/idle_core_observer.h"
#include "modelcheck/idle_core_state_encoding.h"
#include "modelcheck/idle_core_timeline.h"
#include "modelcheck/lkmm.h"
#include "oracle/idle_core.h"

namespace idlespec::idle_core::mc {

struct WeakOptions {
  Config config;
  unsigned history = 3;     // readable stores kept per location (0: unbounded)
  bool races = true;        // IDLE-10
  uint64_t max_states = 0;  // 0: unbounded
  double time_limit = 0;    // seconds, 0: none
  bool stop_at_first = false;
  bool symmetry = true;  // threads interchangeable (modelcheck/idle_core_lkmm_symmetry.h)
  bool compact = true;   // views no later step tells apart made equal (lkmm::Machine::compact)
  // Tests only, the witness of the reductions' cross-check: a deliberately
  // unsound "compaction" that keeps only the newest store of every location
  // (no stale reads at all).
  bool unsound_for_test = false;
  bool progress = false;
  unsigned max_trace_rows = 400;
};

inline constexpr unsigned kStateLoc = 0;
inline constexpr unsigned kLockLoc = 1;

// The step function's word on the machine, for thread t; the chooser picks
// which store a load reads and where a store enters co.
template <class Subject>
struct LkmmWord {
  lkmm::Machine& m;
  unsigned t;
  lkmm::Chooser& ch;
  std::string* note = nullptr;  // what was not the newest, for the timeline

  static constexpr bool apart = Subject::lock_apart;
  static unsigned loc_of(unsigned b) { return apart && b == kLockBit ? kLockLoc : kStateLoc; }
  uint64_t lock_bits() const { return apart ? (m.newest(kLockLoc) & kLock) : 0; }
  uint64_t read(bool plain) {
    const unsigned k = ch.pick(m.read_choices(t, kStateLoc));
    if (k && note) *note += strprintf(" [read %u behind the newest]", k);
    return m.load(t, kStateLoc, k, plain, false) | lock_bits();
  }
  uint64_t load() { return read(true); }
  uint64_t load_once() { return read(false); }
  void store(uint64_t x) {
    const unsigned k = ch.pick(m.write_choices(t, kStateLoc));
    if (k && note) *note += strprintf(" [store placed %u before the newest]", k);
    m.store(t, kStateLoc, static_cast<uint32_t>(apart ? x & ~kLock : x), k, true, false);
  }
  template <bool acquire = true>
  bool test_and_set_bit(unsigned b) {
    const uint32_t bit = uint32_t{1} << b;
    const uint32_t old =
        m.rmw(t, loc_of(b), acquire ? lkmm::Machine::Order::acquire : lkmm::Machine::Order::relaxed,
              [&](uint32_t o, uint32_t& nv) {
                nv = o | bit;
                return (o & bit) == 0;
              });
    return (old & bit) != 0;
  }
  void bitop(unsigned b, bool set, lkmm::Machine::Order order) {
    const uint32_t bit = uint32_t{1} << b;
    m.rmw(t, loc_of(b), order, [&](uint32_t o, uint32_t& nv) {
      nv = set ? o | bit : o & ~bit;
      return true;
    });
  }
  void clear_bit_unlock(unsigned b) { bitop(b, false, lkmm::Machine::Order::release); }
  void set_bit(unsigned b) { bitop(b, true, lkmm::Machine::Order::relaxed); }
  void clear_bit(unsigned b) { bitop(b, false, lkmm::Machine::Order::relaxed); }
  uint64_t cmpxchg(uint64_t expected, uint64_t desired) {
    const uint32_t e = static_cast<uint32_t>(apart ? expected & ~kLock : expected);
    const uint32_t d = static_cast<uint32_t>(apart ? desired & ~kLock : desired);
    const uint32_t old =
        m.rmw(t, kStateLoc, lkmm::Machine::Order::full, [&](uint32_t o, uint32_t& nv) {
          nv = d;
          return o == e;
        });
    return apart ? old | (expected & kLock) : old;
  }
};

// The whole weak state.
struct WeakState {
  CoreState core;
  lkmm::Machine mem;
};

// The exploration, on subject Subject: in one process (run()), or over the
// ranks of an Exchange (run(&x), modelcheck/idle_core_lkmm_search.h).
template <class Subject>
class WeakChecker {
 public:
  explicit WeakChecker(const WeakOptions& o)
      : o_(o),
        c_(o.config),
        shape_(Shape::of<Subject>()),
        judge_(o.config, shape_),
        sym_(weak_symmetry(o)) {}
  CheckerResult run(Exchange* ranks = nullptr);

 private:
  using Clock = std::chrono::steady_clock;
  using Fp = std::pair<uint64_t, uint64_t>;
  using Steps = std::vector<std::pair<uint8_t, std::vector<uint8_t>>>;
  struct Node {
    uint32_t parent;
    uint8_t move;
    uint8_t nchoices;
    std::array<uint8_t, 6> choices;
  };
  struct Found {
    std::string clause;
    uint32_t state;  // the state the violating move leaves (this rank's index)
    uint8_t move;
    std::vector<uint8_t> choices;
    bool has_move = true;
    unsigned depth = 0;  // of the state it leaves
  };
  static Symmetry weak_symmetry(const WeakOptions& o) {
    Symmetry s = symmetry_for(o.config, Subject::core_thread_mask(o.config), o.symmetry);
    s.swap_blocks = false;  // threads within a block only
    return s;
  }

  // Applies move m to s with the chooser's picks; the conflicts go to `races`.
  Transition apply_weak(WeakState& s, const Move& m, lkmm::Chooser& ch, std::string* note,
                        std::vector<lkmm::Conflict>& races) const;
  // A state's bytes (what restore() reads) and their 128-bit fingerprint.
  void bytes_of(const CoreState& core, const lkmm::Machine& mem, std::string& buf) const;
  static Fp hash_of(const std::string& buf);
  // Makes s its orbit's representative (the symmetry; as it is without),
  // its bytes in buf; perm[j]: the thread of s the representative's j is.
  void canonicalize(WeakState& s, ThreadPerm& perm, std::string& buf) const {
    canonical_weak(c_, sym_, s.core, s.mem, perm, buf,
                   [&](const CoreState& c, const lkmm::Machine& m, std::string& b) {
                     b.clear();
                     bytes_of(c, m, b);
                   });
  }
  // The state whose bytes bytes_of() wrote (s: a state of this checker).
  void restore(const std::string& bytes, WeakState& s) const;
  WeakState initial() const;
  // The oracle's IDLE-10 verdicts on the conflicts of one move.
  oracle::Violations race_verdicts(const WeakState& before, const std::vector<lkmm::Conflict>& cs,
                                   size_t move_number) const;
  void record(const oracle::Violations& vs, uint32_t state, uint8_t move,
              const std::vector<uint8_t>& choices, bool has_move, unsigned depth);
  // The path to f's state from the initial one, from this process's nodes.
  Steps local_path(const Found& f) const;
  // The counterexample: `steps` from the initial state (moves on
  // representatives), replayed on concrete states and judged again.
  Violation replay(const Found& f, const Steps& steps);

  WeakOptions o_;
  Config c_;
  Shape shape_;
  Judge judge_;
  Symmetry sym_;
  std::vector<Node> nodes_;
  std::vector<uint8_t> node_rank_;  // per node: the rank that holds its parent
  std::vector<Found> found_;
  uint32_t found_clauses_ = 0;
  bool stop_ = false;
  CheckerResult res_;
};

struct FpHash {
  size_t operator()(const std::pair<uint64_t, uint64_t>& p) const {
    return static_cast<size_t>(p.first ^ (p.second * 0x9e3779b97f4a7c15ull));
  }
};

template <class Subject>
Transition WeakChecker<Subject>::apply_weak(WeakState& s, const Move& m, lkmm::Chooser& ch,
                                            std::string* note,
                                            std::vector<lkmm::Conflict>& races) const {
  // paca->idle_lock is only ever a read-modify-write's (LkmmWord: its
  // test_and_set_bit_lock and clear_bit_unlock; lock_bits() reads the
  // newest value without an access, as an RMW would).
  constexpr uint32_t kRmwOnly = Subject::lock_apart ? 1u << kLockLoc : 0u;
  if (o_.compact) s.mem.set_rmw_only(kRmwOnly);
  LkmmWord<Subject> w{s.mem, m.thread, ch, note};
  if (m.kind == MoveKind::step) s.mem.set_where(static_cast<uint16_t>(s.core.th[m.thread].pc));
  const Transition tr = apply_with<Subject>(c_, s.core, m, w);
  if (m.kind == MoveKind::core_loss) s.mem.sync_all();
  s.mem.normalize(o_.unsound_for_test ? 1 : o_.history);
  if (o_.compact) s.mem.compact(kRmwOnly);
  s.core.word = s.mem.newest(kStateLoc) |
                static_cast<uint32_t>(Subject::lock_apart ? (s.mem.newest(kLockLoc) & kLock) : 0);
  races = s.mem.take_conflicts();
  return tr;
}

template <class Subject>
void WeakChecker<Subject>::bytes_of(const CoreState& core, const lkmm::Machine& mem,
                                    std::string& buf) const {
  const Ghost& g = core.ghost;
  const uint8_t gb[6] = {g.tb_valid,           g.wa_applied,        g.core_regs_valid,
                         g.subcore_regs_valid, g.thread_regs_valid, 0};
  buf.append(reinterpret_cast<const char*>(gb), sizeof gb);
  for (unsigned t = 0; t < c_.threads; ++t) {
    const ThreadState& th = core.th[t];
    const uint8_t tb[7] = {static_cast<uint8_t>(th.pc),
                           static_cast<uint8_t>(th.kind),
                           static_cast<uint8_t>(th.lost),
                           th.sprs_saved,
                           th.full_winkle,
                           th.first,
                           th.sibling_awake};
    buf.append(reinterpret_cast<const char*>(tb), sizeof tb);
    buf.append(reinterpret_cast<const char*>(&th.seen), sizeof th.seen);
  }
  mem.serialize(buf);
}

template <class Subject>
typename WeakChecker<Subject>::Fp WeakChecker<Subject>::hash_of(const std::string& buf) {
  uint64_t a = 0xcbf29ce484222325ull;
  for (const char ch : buf) a = (a ^ static_cast<uint8_t>(ch)) * 0x100000001b3ull;
  return {a, std::hash<std::string>{}(buf)};
}

template <class Subject>
WeakState WeakChecker<Subject>::initial() const {
  WeakState s{initial_state(c_), lkmm::Machine(c_.threads, Subject::lock_apart ? 2 : 1,
                                               {initial_state(c_).word & ~uint32_t(kLock)})};
  s.core.word = s.mem.newest(kStateLoc);
  return s;
}

template <class Subject>
void WeakChecker<Subject>::restore(const std::string& bytes, WeakState& s) const {
  const auto b = [&](size_t i) { return static_cast<uint8_t>(bytes[i]); };
  Ghost& g = s.core.ghost;
  g.tb_valid = b(0);
  g.wa_applied = b(1);
  g.core_regs_valid = b(2);
  g.subcore_regs_valid = b(3);
  g.thread_regs_valid = b(4);
  size_t at = 6;
  for (unsigned t = 0; t < c_.threads; ++t) {
    ThreadState& th = s.core.th[t];
    th.pc = static_cast<Pc>(b(at));
    th.kind = static_cast<Kind>(b(at + 1));
    th.lost = static_cast<Loss>(b(at + 2));
    th.sprs_saved = b(at + 3);
    th.full_winkle = b(at + 4);
    th.first = b(at + 5);
    th.sibling_awake = b(at + 6);
    std::memcpy(&th.seen, bytes.data() + at + 7, sizeof th.seen);
    at += 7 + sizeof th.seen;
  }
  s.mem.deserialize(bytes, at);
  s.core.word = s.mem.newest(kStateLoc) |
                static_cast<uint32_t>(Subject::lock_apart ? (s.mem.newest(kLockLoc) & kLock) : 0);
}

// The idle word a location is, for people.
inline const char* weak_word_name(bool apart, unsigned loc) {
  if (loc == kLockLoc) return "paca->idle_lock";
  return apart ? "the state word (paca->idle_state)" : "the state word (lock bit inside)";
}

template <class Subject>
oracle::Violations WeakChecker<Subject>::race_verdicts(const WeakState& before,
                                                       const std::vector<lkmm::Conflict>& cs,
                                                       size_t move_number) const {
  oracle::Violations out;
  const auto access = [&](unsigned thread, unsigned kind, uint16_t where) {
    oracle::Access a;
    a.thread = thread;
    a.store = lkmm::is_store(kind);
    a.plain = lkmm::is_plain(kind);
    const Pc pc = static_cast<Pc>(where);
    a.where = std::string(pc_name(pc));
    switch (pc) {
      case Pc::p8_entry_lock:
      case Pc::p8_wake_lock:
      case Pc::loss_lock:
      case Pc::p8_entry_unlock:
      case Pc::unlock_lock:
        a.lock_op = !a.plain;
        break;
      case Pc::unlock_cmpxchg:
        a.lock_op = !Subject::lock_apart;  // the cmpxchg that releases the lock in the word
        break;
      default:
        break;
    }
    return a;
  };
  (void)before;
  for (const lkmm::Conflict& k : cs) {
    oracle::Verdict v = oracle::data_race(
        weak_word_name(Subject::lock_apart, k.loc), access(k.thread, k.kind, k.where),
        access(k.other, k.other_kind, k.other_where), move_number);
    if (!v.ok()) out.push_back(std::move(v));
  }
  return out;
}

template <class Subject>
void WeakChecker<Subject>::record(const oracle::Violations& vs, uint32_t state, uint8_t move,
                                  const std::vector<uint8_t>& choices, bool has_move,
                                  unsigned depth) {
  for (const oracle::Verdict& v : vs) {
    const uint32_t charged = judge_.clauses(v) & ~found_clauses_;
    for (unsigned n = 1; n <= 10; ++n) {
      if (!((charged >> n) & 1)) continue;
      found_clauses_ |= 1u << n;
      found_.push_back(Found{"IDLE-" + std::to_string(n), state, move, choices, has_move, depth});
      if (o_.stop_at_first) stop_ = true;
    }
  }
}

}  // namespace idlespec::idle_core::mc

#include "modelcheck/idle_core_lkmm_search.h"

namespace idlespec::idle_core::mc {

template <class Subject>
CheckerResult check_weak(const WeakOptions& o, Exchange* ranks = nullptr) {
  WeakChecker<Subject> w(o);
  return w.run(ranks);
}

}  // namespace idlespec::idle_core::mc
