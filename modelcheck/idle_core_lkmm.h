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

// The exploration, on subject Subject.
template <class Subject>
class WeakChecker {
 public:
  explicit WeakChecker(const WeakOptions& o)
      : o_(o), c_(o.config), shape_(Shape::of<Subject>()), judge_(o.config, shape_) {}
  CheckerResult run();

 private:
  using Clock = std::chrono::steady_clock;
  struct Node {
    uint32_t parent;
    uint8_t move;
    uint8_t nchoices;
    std::array<uint8_t, 6> choices;
  };
  struct Found {
    std::string clause;
    uint32_t state;  // the state the violating move leaves
    uint8_t move;
    std::vector<uint8_t> choices;
    bool has_move = true;
  };

  // Applies move m to s with the chooser's picks; the conflicts go to `races`.
  Transition apply_weak(WeakState& s, const Move& m, lkmm::Chooser& ch, std::string* note,
                        std::vector<lkmm::Conflict>& races) const;
  void fingerprint(const WeakState& s, std::string& buf, std::pair<uint64_t, uint64_t>& fp) const;
  // The state whose bytes fingerprint() wrote (s: a state of this checker).
  void restore(const std::string& bytes, WeakState& s) const;
  // The oracle's IDLE-10 verdicts on the conflicts of one move.
  oracle::Violations race_verdicts(const WeakState& before, const std::vector<lkmm::Conflict>& cs,
                                   size_t move_number) const;
  void record(const oracle::Violations& vs, uint32_t state, uint8_t move,
              const std::vector<uint8_t>& choices, bool has_move);
  Violation replay(const Found& f);

  WeakOptions o_;
  Config c_;
  Shape shape_;
  Judge judge_;
  std::vector<Node> nodes_;
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
  LkmmWord<Subject> w{s.mem, m.thread, ch, note};
  if (m.kind == MoveKind::step) s.mem.set_where(static_cast<uint16_t>(s.core.th[m.thread].pc));
  const Transition tr = apply_with<Subject>(c_, s.core, m, w);
  if (m.kind == MoveKind::core_loss) s.mem.sync_all();
  s.mem.normalize(o_.history);
  s.core.word = s.mem.newest(kStateLoc) |
                static_cast<uint32_t>(Subject::lock_apart ? (s.mem.newest(kLockLoc) & kLock) : 0);
  races = s.mem.take_conflicts();
  return tr;
}

template <class Subject>
void WeakChecker<Subject>::fingerprint(const WeakState& s, std::string& buf,
                                       std::pair<uint64_t, uint64_t>& fp) const {
  buf.clear();
  const Ghost& g = s.core.ghost;
  const uint8_t gb[6] = {g.tb_valid,           g.wa_applied,        g.core_regs_valid,
                         g.subcore_regs_valid, g.thread_regs_valid, 0};
  buf.append(reinterpret_cast<const char*>(gb), sizeof gb);
  for (unsigned t = 0; t < c_.threads; ++t) {
    const ThreadState& th = s.core.th[t];
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
  s.mem.serialize(buf);
  uint64_t a = 0xcbf29ce484222325ull;
  for (const char ch : buf) a = (a ^ static_cast<uint8_t>(ch)) * 0x100000001b3ull;
  fp = {a, std::hash<std::string>{}(buf)};
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
                                  const std::vector<uint8_t>& choices, bool has_move) {
  for (const oracle::Verdict& v : vs) {
    const uint32_t charged = judge_.clauses(v) & ~found_clauses_;
    for (unsigned n = 1; n <= 10; ++n) {
      if (!((charged >> n) & 1)) continue;
      found_clauses_ |= 1u << n;
      found_.push_back(Found{"IDLE-" + std::to_string(n), state, move, choices, has_move});
      if (o_.stop_at_first) stop_ = true;
    }
  }
}

template <class Subject>
CheckerResult WeakChecker<Subject>::run() {
  const auto t0 = Clock::now();
  auto last = t0;
  res_.config = c_.describe() + " LKMM";
  res_.subject = std::string(Subject::name);
  res_.symmetry = false;
  res_.por = false;
  std::unordered_set<std::pair<uint64_t, uint64_t>, FpHash> seen;
  // The frontier as the states' bytes (fingerprint()'s), each with its node.
  std::vector<std::pair<std::string, uint32_t>> level, next;
  WeakState init{initial_state(c_), lkmm::Machine(c_.threads, Subject::lock_apart ? 2 : 1,
                                                  {initial_state(c_).word & ~uint32_t(kLock)})};
  init.core.word = init.mem.newest(kStateLoc);
  std::string buf;
  std::pair<uint64_t, uint64_t> fp;
  fingerprint(init, buf, fp);
  seen.insert(fp);
  nodes_.push_back(Node{UINT32_MAX, 0, 0, {}});
  level.push_back({buf, 0});
  WeakState s = init;
  std::vector<Move> moves;
  std::vector<lkmm::Conflict> races;
  lkmm::Chooser ch;
  bool truncated = false;
  while (!level.empty() && !stop_ && !truncated) {
    for (const auto& [bytes, idx] : level) {
      restore(bytes, s);
      enabled_moves(c_, s.core, moves);
      judge_.at(s.core);
      bool changes = false;
      std::pair<uint64_t, uint64_t> self;
      fingerprint(s, buf, self);
      for (const Move& m : moves) {
        ch.reset();
        for (;;) {
          WeakState n = s;
          const Transition tr = apply_weak(n, m, ch, nullptr, races);
          ++res_.transitions;
          const std::vector<uint8_t>& picks = ch.taken();
          const uint8_t mb = pack_move(c_, m);
          oracle::Violations vs = judge_.move(tr, n.core, res_.depth + 1);
          if (o_.races) {
            for (oracle::Verdict& v : race_verdicts(s, races, res_.depth + 1)) vs.push_back(v);
          }
          fingerprint(n, buf, fp);
          const bool fresh = seen.insert(fp).second;
          if (!vs.empty()) {
            record(vs, idx, mb, picks, true);
          } else if (fresh) {
            Node node{idx, mb, static_cast<uint8_t>(picks.size()), {}};
            for (size_t k = 0; k < picks.size() && k < node.choices.size(); ++k)
              node.choices[k] = picks[k];
            if (picks.size() > node.choices.size()) res_.error = "more choices than a node holds";
            nodes_.push_back(node);
            next.push_back({buf, static_cast<uint32_t>(nodes_.size() - 1)});
          }
          changes = changes || self != fp;
          if (stop_ || !ch.next()) break;
        }
        if (stop_) break;
      }
      if (!changes && !stop_) record({judge_.stuck(s.core)}, idx, 0, {}, false);
      if (o_.max_states && nodes_.size() >= o_.max_states) {
        truncated = true;
        res_.incomplete_reason = "max states";
        break;
      }
      if (o_.time_limit > 0 &&
          std::chrono::duration<double>(Clock::now() - t0).count() > o_.time_limit) {
        truncated = true;
        res_.incomplete_reason = "time limit";
        break;
      }
      if (o_.progress && Clock::now() - last > std::chrono::seconds(1)) {
        last = Clock::now();
        std::fprintf(stderr, "[model-check %s] %s states, depth %u, peak RSS %.0f MB, %.1fs\n",
                     res_.config.c_str(), human_count(static_cast<double>(nodes_.size())).c_str(),
                     res_.depth, static_cast<double>(peak_rss_kb()) / 1e3,
                     std::chrono::duration<double>(last - t0).count());
      }
      if (stop_) break;
    }
    level.swap(next);
    next.clear();
    if (!level.empty()) ++res_.depth;
  }
  res_.states = nodes_.size();
  res_.complete = !truncated && !stop_ && res_.error.empty();
  if (stop_ && res_.incomplete_reason.empty())
    res_.incomplete_reason = "stopped at the first violation";
  for (const Found& f : found_) res_.violations.push_back(replay(f));
  std::sort(res_.violations.begin(), res_.violations.end(),
            [](const Violation& a, const Violation& b) { return a.clause < b.clause; });
  res_.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
  res_.peak_rss_kb = peak_rss_kb();
  return res_;
}

template <class Subject>
Violation WeakChecker<Subject>::replay(const Found& f) {
  std::vector<const Node*> path;
  for (uint32_t i = f.state; i != UINT32_MAX && i != 0; i = nodes_[i].parent)
    path.push_back(&nodes_[i]);
  std::vector<std::pair<uint8_t, std::vector<uint8_t>>> steps;
  for (size_t k = path.size(); k-- > 0;)
    steps.push_back(
        {path[k]->move, std::vector<uint8_t>(path[k]->choices.begin(),
                                             path[k]->choices.begin() + path[k]->nchoices)});
  if (f.has_move) steps.push_back({f.move, f.choices});
  WeakState s{initial_state(c_), lkmm::Machine(c_.threads, Subject::lock_apart ? 2 : 1,
                                               {initial_state(c_).word & ~uint32_t(kLock)})};
  s.core.word = s.mem.newest(kStateLoc);
  Violation v;
  v.clause = f.clause;
  std::vector<TraceRow> rows;
  lkmm::Chooser ch;
  std::vector<lkmm::Conflict> races;
  const unsigned n = static_cast<unsigned>(std::stoi(f.clause.substr(5)));
  for (size_t k = 0; k < steps.size(); ++k) {
    const Move m = unpack_move(c_, steps[k].first);
    TraceRow row;
    row.move = m;
    row.pc_before = s.core.th[m.thread].pc;
    row.kind = s.core.th[m.thread].kind;
    const WeakState before = s;
    ch.reset(steps[k].second);
    const Transition tr = apply_weak(s, m, ch, &row.note, races);
    row.pc_after = s.core.th[m.thread].pc;
    if (row.kind == Kind::none) row.kind = s.core.th[m.thread].kind;
    row.result = tr.result;
    row.loss = tr.loss;
    row.word_after = s.core.word;
    row.ghost_after = s.core.ghost;
    if (k + 1 == steps.size() && f.has_move) {
      judge_.set_quiet(false);
      judge_.at(before.core);
      oracle::Violations vs = judge_.move(tr, s.core, k + 1);
      judge_.set_quiet(true);
      for (oracle::Verdict& r : race_verdicts(before, races, k + 1)) vs.push_back(r);
      for (const oracle::Verdict& x : vs) {
        if (!((judge_.clauses(x) >> n) & 1)) continue;
        v.summary = x.message;
        v.replayed = true;
        break;
      }
      row.note += " <- " + f.clause;
    }
    rows.push_back(row);
  }
  if (!f.has_move) {
    const oracle::Verdict x = judge_.stuck(s.core);
    v.summary = x.message;
    v.replayed = (judge_.clauses(x) >> n) & 1;
    if (!rows.empty()) rows.back().note += " <- " + f.clause;
  }
  v.length = static_cast<unsigned>(rows.size());
  v.trace = render_timeline(
      c_, rows, s.core,
      v.clause + " violated (" + res_.config + ", subject " + res_.subject + "): " + v.summary,
      o_.max_trace_rows);
  return v;
}

template <class Subject>
CheckerResult check_weak(const WeakOptions& o) {
  WeakChecker<Subject> w(o);
  return w.run();
}

}  // namespace idlespec::idle_core::mc
