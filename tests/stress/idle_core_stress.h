// The multi-threaded stress test of the idle_core protocol (impl/idle_core.h):
// one OS thread per hardware thread runs the real protocol (begin_idle, step,
// wake) over one shared word, and a simulated core decides the state loss
// and the wake-ups. Run under ThreadSanitizer by the `tsan` preset.
//
// Who is who:
//
//   the word      shared by every worker, passed as `Word&`: AtomicWord over
//                 one std::atomic<uint64_t> (the subject of the test), or one
//                 PlainWord shared across threads (the data-race witness:
//                 TSan must report it; never run it without TSan)
//   a worker      one hardware thread, in a loop: choose an idle kind (its own
//                 seeded RNG), step through the entry until hw_idle, wait to be
//                 woken, step through the wake path until it returns
//   the core      the calling thread of run(): the hardware. When every
//                 worker is in hardware idle in a state-loss kind it may
//                 inflict a loss (the same semantics as apply(core_loss) in
//                 impl/idle_core_model.h: it calls it); it wakes idle workers
//                 at random times (interrupts)
//   the ghost     the hardware state besides the word (timebase, workaround,
//                 registers) and who is in hardware idle: a table guarded by
//                 one mutex. The ghost side is not under test; the word is.
//
// The checks (spec/idle_core.md), while running:
//
//   IDLE-1  a worker that has taken the lock (its test-and-set succeeded) is
//           the only holder: a relaxed atomic counter, incremented after the
//           successful test-and-set and decremented just before the release,
//           must be 0 before the increment and 1 at every step in between;
//           a spin longer than stuck_seconds means no thread can move
//   IDLE-2  at quiescent points (every worker in hardware idle, none woken
//           yet: nobody touches the word) the lock is free and the thread
//           bits are exactly the workers in nap / a shallow stop
//   IDLE-3  a worker returns to running only with the timebase valid
//   IDLE-4  POWER8 with the workaround enabled: a loss only with it applied
//   IDLE-5  (IDLE-7 on POWER9) a worker returns only with the per-core
//           registers and its own per-thread registers valid; at quiescent
//           points the winkle count equals the number of winkling workers
//   IDLE-6  a worker returns only with its subcore's registers valid
//   IDLE-9  only a worker that found no thread bit set resyncs (its `first`),
//           and (POWER8, where every bit changes under the lock) no other
//           thread bit is set in the word when it has resynced
//   BUG     no step reports Event::bug (the kernel's BUG_ON / WARN_ON)
//
// and when every worker has stopped: the word is back to "every thread bit
// set, nothing else".
//
// The deterministic hook: the POWER8 entry clears the own bit with a load
// step and a store step (a plain read-modify-write). A worker yields between
// any two steps with yield_percent, and between that load and that store
// with window_yield_percent. The reference holds the lock there, so the
// yield only makes it hold the lock longer; a subject that loads outside the
// lock (witness::ClearOutsideLock) has its window opened wide, and another
// worker's write in the window is lost: a BUG_ON, IDLE-1 or IDLE-2 fires
// within milliseconds instead of once in a long while.
#pragma once

#include <array>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "impl/idle_core.h"
#include "impl/idle_core_model.h"
#include "impl/text.h"

namespace idlespec::idle_core::stress {

struct Options {
  Config config;
  double seconds = 2.0;     // stop after this long (wall clock) ...
  uint64_t iterations = 0;  // ... or once every worker has done this many cycles (0: time only)
  uint64_t seed = 1;
  unsigned loss_percent = 60;           // the core inflicts a loss when it can
  unsigned yield_percent = 2;           // a worker yields between two steps
  unsigned window_yield_percent = 100;  // ... between the entry's load and store
  double stuck_seconds = 3.0;           // a spin this long: no thread can move (IDLE-1)
};

struct Stats {
  uint64_t cycles = 0;            // idle cycles completed (begin_idle .. returned)
  uint64_t min_cycles = 0;        // by the worker that did fewest
  uint64_t partial_losses = 0;    // fastsleep / deep stop above the timebase-loss level
  uint64_t full_losses = 0;       // full winkle / deep stop at the timebase-loss level
  uint64_t loss_wakes = 0;        // wake-ups with state loss
  uint64_t resyncs = 0;           // timebase resyncs
  uint64_t subcore_restores = 0;  // per-subcore register restores
  uint64_t quiescent_checks = 0;  // IDLE-2/IDLE-5 checks of the word with every worker idle
  uint64_t spins = 0;             // failed test-and-sets and cmpxchgs
  double seconds = 0;
  double cycles_per_second() const { return seconds > 0 ? cycles / seconds : 0; }
};

struct Result {
  std::vector<std::string> violations;  // the first few; the run stops at the first
  double first_violation_seconds = -1;
  Stats stats;
  bool ok() const { return violations.empty(); }
  std::string summary(const Config& c) const;
};

// Validates options; empty if fine.
std::string check_options(const Options& o);

// --- the shared state: the ghost, the hardware-idle table, the core ---------

class Shared {
 public:
  explicit Shared(const Options& o);

  const Options& options() const { return o_; }
  const Config& config() const { return o_.config; }

  // Workers.
  bool aborted() const { return aborted_.load(std::memory_order_relaxed); }
  bool stopping() const { return stopping_.load(std::memory_order_relaxed); }
  Kind choose_kind(std::mt19937_64& rng) const;
  // Blocks until the core wakes thread t; false if the run was aborted. On
  // true, `lost` is what the core inflicted while t was in hardware idle.
  bool wait_for_wake(unsigned t, Loss& lost);
  void violation(std::string what);
  void worker_exit(unsigned t, uint64_t spins);

  // The Env side (ThreadEnv forwards here).
  void apply_wa();
  void undo_wa();
  void resync_tb(unsigned t, const ThreadState& th);
  void restore_core();
  void restore_subcore(unsigned k);
  void restore_thread(unsigned t);
  void enter_hw_idle(unsigned t, Kind kind);
  void returned(unsigned t, const ThreadState& th);

  // The core: runs until every worker has exited (or the run is aborted and
  // every worker has been told). read_word is called only at quiescent
  // points, with every worker in hardware idle.
  void run_core(const std::function<uint64_t()>& read_word);
  // After the workers are joined: the final checks and the result.
  Result finish(uint64_t final_word);

 private:
  struct Slot {
    bool idle = false;  // in hardware idle, not woken yet
    bool wake = false;  // woken by the core, the worker has not seen it yet
    bool exited = false;
    Kind kind = Kind::none;
    Loss lost = Loss::none;  // inflicted while idle, handed over on wake
    uint64_t cycles = 0;
    std::condition_variable cv;
  };
  void violation_locked(std::string what);
  void wake_locked(unsigned t);
  void quiescent_check_locked(uint64_t word);
  void maybe_loss_locked(std::mt19937_64& rng);
  double elapsed() const;
  std::string table_locked() const;

  Options o_;
  std::chrono::steady_clock::time_point start_;
  std::atomic<bool> aborted_{false};
  std::atomic<bool> stopping_{false};
  std::atomic<unsigned> mood_{0};  // which kinds the workers favour now (set by the core)

  std::mutex m_;
  std::condition_variable core_cv_;
  Ghost ghost_;
  std::array<Slot, kMaxThreads> slots_;
  unsigned exited_ = 0;
  Result result_;
};

// The Env of step() for worker t: forwards to Shared.
class ThreadEnv {
 public:
  ThreadEnv(Shared& s, const ThreadState& th) : s_(s), th_(th) {}
  void apply_wa() { s_.apply_wa(); }
  void undo_wa() { s_.undo_wa(); }
  void resync_tb(unsigned t, const ThreadState& th) { s_.resync_tb(t, th); }
  void restore_core() { s_.restore_core(); }
  void restore_subcore(unsigned k) { s_.restore_subcore(k); }
  void restore_thread(unsigned t) { s_.restore_thread(t); }
  void enter_hw_idle(unsigned t) { s_.enter_hw_idle(t, th_.kind); }
  void returned(unsigned t, const ThreadState& th) { s_.returned(t, th); }

 private:
  Shared& s_;
  const ThreadState& th_;
};

std::string describe_thread(unsigned t, const ThreadState& th);

// --- a worker -------------------------------------------------------------------

namespace detail {

inline bool acquires(Pc pc) {
  return pc == Pc::p8_entry_lock || pc == Pc::p8_wake_lock || pc == Pc::loss_lock;
}
inline bool releases(Pc pc) { return pc == Pc::p8_entry_unlock || pc == Pc::unlock_cmpxchg; }

// The lock holders, for IDLE-1. Relaxed: it must not add happens-before
// edges that would hide a race on the word from TSan.
struct Holders {
  std::atomic<unsigned> n{0};
};

template <class Subject, class Word>
class Worker {
 public:
  Worker(Shared& s, Holders& h, unsigned t, Word& word)
      : s_(s),
        h_(h),
        c_(s.config()),
        t_(t),
        word_(word),
        env_(s, th_),
        rng_(s.options().seed * 0x9e3779b97f4a7c15ull + t + 1) {}

  void run() {
    while (!s_.aborted() && !s_.stopping()) {
      if (!cycle()) break;
    }
    s_.worker_exit(t_, spins_);
  }

 private:
  // One idle cycle: entry, hardware idle, wake path. False: aborted.
  bool cycle() {
    if (!check(begin_idle<Subject>(c_, th_, s_.choose_kind(rng_)), Pc::running)) return false;
    if (!drive()) return false;
    Loss lost = Loss::none;
    if (!s_.wait_for_wake(t_, lost)) return false;
    th_.lost = lost;
    const StepResult r = wake<Subject>(c_, t_, th_, env_);
    if (!check(r, Pc::hw_idle)) return false;
    return r.returned || drive();
  }

  // Steps until hw_idle or back to running. False: aborted.
  bool drive() {
    unsigned spin_run = 0;
    std::chrono::steady_clock::time_point spin_start;
    for (;;) {
      if (s_.aborted()) return false;
      const Pc pc = th_.pc;
      if (holding_) {
        const unsigned n = h_.n.load(std::memory_order_relaxed);
        if (n != 1) {
          s_.violation(strprintf("IDLE-1: t%u holds the lock at %s, but %u threads hold it", t_,
                                 std::string(pc_name(pc)).c_str(), n));
          return false;
        }
        if (releases(pc)) {  // decrement before the release (re-taken if it must retry)
          h_.n.fetch_sub(1, std::memory_order_relaxed);
          holding_ = false;
        }
      }
      const StepResult r = step<Subject>(c_, t_, th_, word_, env_);
      if (!check(r, pc)) return false;
      if ((acquires(pc) && r.event != Event::spin) ||
          (pc == Pc::unlock_cmpxchg && r.event == Event::spin)) {
        const unsigned before = h_.n.fetch_add(1, std::memory_order_relaxed);
        holding_ = true;
        if (before != 0) {
          s_.violation(strprintf("IDLE-1: t%u took the lock at %s while %u other threads held it",
                                 t_, std::string(pc_name(pc)).c_str(), before));
          return false;
        }
      }
      if (r.event == Event::resync_tb && !c_.power9() && !resync_alone()) return false;
      if (r.returned || th_.pc == Pc::hw_idle) return true;
      if (r.event == Event::spin) {
        ++spins_;
        if (spin_run++ == 0) spin_start = std::chrono::steady_clock::now();
        if (spin_run % 16 == 0) std::this_thread::yield();
        if (spin_run % 1024 == 0 && !spin_watchdog(spin_start, pc)) return false;
        continue;
      }
      spin_run = 0;
      const unsigned pct = th_.pc == Pc::p8_entry_store && pc == Pc::p8_entry_load
                               ? s_.options().window_yield_percent
                               : s_.options().yield_percent;
      if (pct != 0 && rng_() % 100 < pct) std::this_thread::yield();
    }
  }

  // IDLE-9 from the word, not from the thread's own `first`: on POWER8 every
  // change of a thread bit happens under the lock, which the resyncing thread
  // holds (the reference resyncs before it releases it), so no other thread
  // bit may be set: no other thread runs while the timebase steps.
  bool resync_alone() {
    const uint64_t others = word_.load() & c_.core_thread_mask() & ~(uint64_t{1} << t_);
    if (others == 0) return true;
    s_.violation(strprintf("IDLE-9: t%u resynced the timebase with other threads awake (word %s)",
                           t_, describe_word(c_, static_cast<uint32_t>(word_.load())).c_str()));
    return false;
  }

  bool spin_watchdog(std::chrono::steady_clock::time_point since, Pc pc) {
    const std::chrono::duration<double> d = std::chrono::steady_clock::now() - since;
    if (d.count() < s_.options().stuck_seconds) return true;
    s_.violation(
        strprintf("IDLE-1: t%u spun %.1f s at %s (word %s, %u lock holders): no thread can move",
                  t_, d.count(), std::string(pc_name(pc)).c_str(),
                  describe_word(c_, static_cast<uint32_t>(word_.load())).c_str(),
                  h_.n.load(std::memory_order_relaxed)));
    return false;
  }

  bool check(const StepResult& r, Pc pc) {
    if (r.event != Event::bug) return true;
    s_.violation(strprintf("BUG: t%u at %s: %s (%s)", t_, std::string(pc_name(pc)).c_str(), r.what,
                           describe_thread(t_, th_).c_str()));
    return false;
  }

  Shared& s_;
  Holders& h_;
  const Config& c_;
  const unsigned t_;
  Word& word_;
  ThreadState th_;
  ThreadEnv env_;
  std::mt19937_64 rng_;
  bool holding_ = false;
  uint64_t spins_ = 0;
};

}  // namespace detail

// Runs the stress test: one std::thread per hardware thread over `word`
// (shared by all of them; reset to every thread bit set), the core in the
// calling thread.
template <class Subject = Reference, class Word>
Result run(const Options& o, Word& word) {
  if (const std::string err = check_options(o); !err.empty()) {
    Result r;
    r.violations.push_back("bad options: " + err);
    return r;
  }
  word.store(o.config.core_thread_mask());
  Shared shared(o);
  detail::Holders holders;
  std::vector<std::thread> threads;
  threads.reserve(o.config.threads);
  for (unsigned t = 0; t < o.config.threads; ++t) {
    threads.emplace_back([&shared, &holders, &word, t] {
      detail::Worker<Subject, Word>(shared, holders, t, word).run();
    });
  }
  shared.run_core([&word] { return word.load(); });
  for (std::thread& th : threads) th.join();
  return shared.finish(word.load());
}

}  // namespace idlespec::idle_core::stress
