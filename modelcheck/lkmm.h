// An operational reading of the Linux-kernel memory model (LKMM,
// tools/memory-model/) for the primitives idle_core's code uses, and a data
// race detector over it (spec/idle_core.md, "Weak memory: what the
// exploration covers"; IDLE-10).
//
// The machine is view-based: memory keeps, per location, every store still
// readable, in coherence order (co); each thread keeps views (one position
// in co per location) of what it must not read behind. Steps are taken in
// program order, one thread at a time, but
//
//   - a load reads any store at or after its thread's view of the location
//     (so loads see stale values, out of order with other loads, unless an
//     acquire, smp_rmb() or smp_mb() pulls the view forward);
//   - a store enters co anywhere after its thread's view (so two stores to
//     different locations may become visible in either order, and a store
//     may be co-before one executed earlier by another thread), except
//     between a read-modify-write and the store it read;
//   - a store carries a view: what its thread has ordered before later
//     stores (acquire, smp_wmb(), smp_mb(), an unlock followed by a lock),
//     and a release store carries everything its thread has seen. A thread
//     reading it takes that view at once (acquire) or at its next smp_rmb()
//     / smp_mb() (a relaxed load): that is cumulativity;
//   - smp_mb() also meets a global view that every smp_mb() joins (no store
//     buffering across two full barriers); a value-returning atomic that
//     succeeds (cmpxchg, test_and_set_bit) is smp_mb(); RMW; smp_mb();
//   - a read-modify-write reads the newest store of its location and is
//     placed right after it; non-value-returning bitops (set_bit,
//     clear_bit) are unordered RMWs, test_and_set_bit_lock an acquire RMW,
//     clear_bit_unlock a release RMW.
//
// What it does not have: load buffering (a load reading a store its thread
// or another has not executed yet: LB shapes, which LKMM allows without
// dependencies, never happen here), dependencies (address, data, control:
// LKMM orders them; the machine neither needs nor honours them), RCU.
// Non-multicopy-atomic propagation (IRIW without barriers) is in: each
// thread has its own views.
//
// Data races. Happens-before is tracked as bits rather than vector clocks,
// so that states stay finite: bit (x, u, k) of a thread's knowledge says
// that thread u's last access of kind k to location x (kinds: plain store,
// marked store, plain load, marked load) happens before the thread's next
// access, or that u made none. An access by u clears its bit everywhere
// else; knowledge travels with stores exactly as views do (release, fences,
// acquire). An access by t to x conflicts with u's last access of a kind
// whose bit t does not have; access_conflicts() reports those pairs, and
// the caller's judge (for idle_core, oracle::data_race) decides which are
// data races as LKMM defines one: at least one plain, at least one a store.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace idlespec::lkmm {

inline constexpr unsigned kMaxLocs = 4;
inline constexpr unsigned kMaxThreads = 8;
// Every location × thread pair has four knowledge bits, in one word.
inline constexpr unsigned kMaxCells = 16;

using View = std::array<uint8_t, kMaxLocs>;

// The kinds of access, as knowledge bits per (location, thread).
enum AccessKind : uint8_t { plain_store = 0, marked_store = 1, plain_load = 2, marked_load = 3 };
const char* access_kind_name(unsigned k);
inline bool is_store(unsigned k) { return k == plain_store || k == marked_store; }
inline bool is_plain(unsigned k) { return k == plain_store || k == plain_load; }

// A store still readable.
struct Msg {
  uint32_t val = 0;
  bool rmw = false;  // written by a read-modify-write: stays right after the store it read
  View view{};       // what a thread reading it learns (positions in co)
  uint64_t hb = ~uint64_t{0};
  friend bool operator==(const Msg&, const Msg&) = default;
};

struct ThreadViews {
  View cur{};   // reads may not go behind this
  View acq{};   // what relaxed loads brought, for the next smp_rmb()/smp_mb()
  View wv{};    // what later stores carry (ordered before them)
  View wown{};  // the thread's own stores, for smp_wmb()
  View relv{};  // what its last release carried (an unlock followed by a lock)
  uint64_t hb = ~uint64_t{0}, hb_acq = ~uint64_t{0}, hb_w = ~uint64_t{0}, hb_rel = ~uint64_t{0};
  friend bool operator==(const ThreadViews&, const ThreadViews&) = default;
};

// One access that conflicts with an earlier one of another thread that does
// not happen before it.
struct Conflict {
  unsigned loc = 0;
  unsigned thread = 0, kind = 0;  // the access now
  unsigned other = 0, other_kind = 0;
  uint16_t where = 0, other_where = 0;  // labels the caller gave (set_where)
};

// Picks among alternatives: a scripted choice per call, recording how many
// there were, so that a driver can enumerate every combination (odometer).
class Chooser {
 public:
  unsigned pick(unsigned n);
  // The next combination of the script; false when all were tried.
  bool next();
  void reset(const std::vector<uint8_t>& script = {});
  const std::vector<uint8_t>& taken() const { return taken_; }

 private:
  std::vector<uint8_t> script_, taken_, ranges_;
  size_t at_ = 0;
};

class Machine {
 public:
  Machine() = default;
  Machine(unsigned threads, unsigned locs, const std::array<uint32_t, kMaxLocs>& init = {});

  unsigned threads() const { return threads_; }
  unsigned locs() const { return locs_; }

  // Loads. A relaxed or plain load reads one of read_choices() stores (0:
  // the newest); an acquire load also takes the store's view.
  unsigned read_choices(unsigned t, unsigned x) const;
  uint32_t load(unsigned t, unsigned x, unsigned choice, bool plain, bool acquire);
  // Stores. A plain or relaxed store, or a release store, enters co at one
  // of write_choices() places (0: newest).
  unsigned write_choices(unsigned t, unsigned x) const;
  void store(unsigned t, unsigned x, uint32_t v, unsigned choice, bool plain, bool release);
  // A read-modify-write of the newest store: `op` maps the old value to the
  // new one and says whether to write (a failing cmpxchg does not). The
  // ordering: relaxed, acquire, release, or full (smp_mb() on both sides,
  // only when it writes: a failing cmpxchg is a relaxed load).
  enum class Order : uint8_t { relaxed, acquire, release, full };
  template <class Op>
  uint32_t rmw(unsigned t, unsigned x, Order order, Op op) {
    const unsigned n = static_cast<unsigned>(hist_[x].size()) - 1;
    uint32_t nv = 0;
    const uint32_t old = hist_[x][n].val;
    const bool writes = op(old, nv);
    if (writes && order == Order::full) fence_mb(t);
    rmw_at(t, x, n, nv, writes, order);
    if (writes && order == Order::full) fence_mb(t);
    return old;
  }
  // A lock taken (spin_lock: an acquire RMW that also orders what came
  // before the thread's last release before what follows) and released.
  void lock_acquired(unsigned t);
  void fence_mb(unsigned t);
  void fence_wmb(unsigned t);
  void fence_rmb(unsigned t);
  // Every thread sees every store, and every access so far happens before
  // every later one (the core's state loss: all threads stopped, the
  // core's caches written back).
  void sync_all();

  uint32_t newest(unsigned x) const { return hist_[x].back().val; }
  // Forgets stores no thread can read any more, and keeps at most `history`
  // readable stores per location (0: unbounded): a thread whose view lags
  // further is moved forward (fewer executions explored; the spec says so).
  void normalize(unsigned history);
  // Forgets what no later step can tell apart (a sound compaction: the
  // machine it leaves behaves exactly as this one): a view component at or
  // behind the one it is only ever joined into (acq into cur; wown and relv
  // into wv) becomes that one, and knowledge bits the joined-into word
  // already has are dropped (hb_acq against hb, hb_rel against hb_w). Each
  // pair only grows, and insertions and normalize() shift both alike, so
  // the order between them holds until the smaller is joined in or
  // overwritten.
  //
  // And a location only ever accessed by read-modify-writes (bit x of
  // rmw_only; the caller promises it, load() and store() there throw) keeps
  // only its newest store: an RMW reads nothing else, so older stores, every
  // view's position in it are never looked at again; and its accesses are
  // all marked, so none of them can be half of a data race: every thread
  // knows of every access to it (its knowledge bits all set, no conflicts
  // reported there).
  void compact(uint32_t rmw_only = 0);
  // The promise alone (compact() makes it too): load() and store() on these
  // locations throw from now on.
  void set_rmw_only(uint32_t rmw_only) { rmw_only_ = rmw_only; }
  void serialize(std::string& out) const;
  // The inverse of serialize() for a machine of this one's threads and
  // locations, from `in` at `at` (advanced past it).
  void deserialize(const std::string& in, size_t& at);

  // The same machine with its threads renumbered: new thread j is old
  // thread perm[j] (views, knowledge bits, labels); `value(x, v)` renumbers
  // what a stored value of location x says about threads. For the symmetry
  // reduction (modelcheck/idle_core_lkmm_symmetry.h).
  template <class Value>
  void permute_threads(const std::array<uint8_t, kMaxThreads>& perm, Value&& value) {
    for (unsigned x = 0; x < locs_; ++x)
      for (Msg& m : hist_[x]) {
        m.val = value(x, m.val);
        m.hb = permute_hb(m.hb, perm);
      }
    std::array<ThreadViews, kMaxThreads> th = th_;
    std::array<uint16_t, 64> where = where_;
    for (unsigned j = 0; j < threads_; ++j) {
      ThreadViews w = th[perm[j]];
      for (uint64_t* h : {&w.hb, &w.hb_acq, &w.hb_w, &w.hb_rel}) *h = permute_hb(*h, perm);
      th_[j] = w;
      for (unsigned x = 0; x < locs_; ++x)
        for (unsigned k = 0; k < 4; ++k)
          where_[(x * threads_ + j) * 4 + k] = where[(x * threads_ + perm[j]) * 4 + k];
    }
  }

  // What thread t's part of the state says whatever the threads' numbering
  // (its views, its own knowledge bits, how many others it has), appended
  // to `out`: the symmetry reduction's sort key.
  void thread_signature(unsigned t, std::string& out) const;

  // Tests only: a deliberately broken machine, the witness that the litmus
  // checks can fail. bit 0: smp_mb() does not meet the global view (store
  // buffering through full barriers); bit 1: a release store carries only
  // itself (no cumulativity); bit 2: a load may read behind its view
  // (no coherence).
  void break_for_test(unsigned what) { broken_ = what; }

  // Labels for the conflicts (not part of the state).
  void set_where(uint16_t w) { where_now_ = w; }
  // The conflicts of the accesses since the last take_conflicts().
  std::vector<Conflict> take_conflicts() {
    std::vector<Conflict> c;
    c.swap(conflicts_);
    return c;
  }

 private:
  uint64_t bit(unsigned x, unsigned u, unsigned k) const {
    return uint64_t{1} << ((x * threads_ + u) * 4 + k);
  }
  void access(unsigned t, unsigned x, unsigned k);
  uint64_t permute_hb(uint64_t h, const std::array<uint8_t, kMaxThreads>& perm) const {
    uint64_t out = 0;
    for (unsigned x = 0; x < locs_; ++x)
      for (unsigned j = 0; j < threads_; ++j)
        out |= ((h >> ((x * threads_ + perm[j]) * 4)) & 0xf) << ((x * threads_ + j) * 4);
    return out;
  }
  void rmw_at(unsigned t, unsigned x, unsigned n, uint32_t nv, bool writes, Order order);
  void insert(unsigned x, unsigned pos, const Msg& m);
  template <class M, class IO, class Resize>
  static void visit(M& self, IO&& io, Resize&& resize);
  void join(View& a, const View& b) const;

  unsigned threads_ = 0, locs_ = 0;
  std::array<std::vector<Msg>, kMaxLocs> hist_;
  std::array<ThreadViews, kMaxThreads> th_{};
  View g_{};  // every smp_mb() meets here
  std::array<uint16_t, 64> where_{};
  uint16_t where_now_ = 0;
  unsigned broken_ = 0;
  uint32_t rmw_only_ = 0;  // locations compact() was told only RMWs access
  std::vector<Conflict> conflicts_;
};

}  // namespace idlespec::lkmm
