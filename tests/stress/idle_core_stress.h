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
//   the observer  who is in hardware idle, and the idle_core oracle, which
//                 keeps the rest of the hardware state (timebase, workaround,
//                 registers) from what it is told: guarded by one mutex. The
//                 observer is not under test; the word is.
//
// The judge is the idle_core oracle (oracle/idle_core.h), the one every
// other layer's runs are judged by. The stress test observes, under the
// observer's mutex, what a real core's observer would: a worker begins an idle
// cycle of a kind, performs a duty (the workaround, a resync, a restore),
// executes the idle instruction, is woken by the core, returns to running;
// the core loses state; each with the word as it is then. Every word
// operation of a thread happens while the oracle has it entering idle or on
// the wake path (it reports its begin before its first operation and its
// return after its last), so the word a concurrent observer reads is one
// the oracle can judge. The oracle judges
//
//   IDLE-2, -5  after every observation, while the lock is free: the bits of
//           the threads certainly awake set, those of threads in hardware
//           idle in sleep, winkle or a deep stop clear; the winkle count
//           between the winklers surely and possibly counted (at quiescent
//           points, with every worker in hardware idle and none woken,
//           exactly)
//   IDLE-3  a worker returns to running only with the timebase valid
//   IDLE-4  POWER8 with the workaround enabled: a loss only with it applied
//   IDLE-5  (IDLE-7 on POWER9) a worker returns only with the per-core
//           registers and its own per-thread registers valid
//   IDLE-6  a worker returns only with its subcore's registers valid
//   IDLE-9  only a worker that found no thread bit set resyncs (its `first`),
//           and on POWER8, where every bit changes under the lock, the word
//           it resyncs under has no other thread's bit (Seen.decided)
//   IDLE-1  the lock bit set exactly while one thread holds it: at quiescent
//           points nobody does; while running, the holders are a relaxed
//           atomic mask (set after the successful test-and-set, cleared just
//           before the release) that a holder reads at every step and reports
//           to the oracle when it is not itself alone; a spin longer than
//           stuck_seconds is reported as every thread stuck
//   BUG     a step that reports Event::bug (the kernel's BUG_ON / WARN_ON),
//           charged by the oracle to the clause whose invariant it guards
//
// and when every worker has stopped: every thread running, the lock free
// (the word is back to "every thread bit set, nothing else").
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
#include <type_traits>
#include <vector>

#include "impl/idle_core.h"
#include "impl/idle_core_model.h"
#include "impl/text.h"
#include "oracle/idle_core.h"

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

  // The Env side (ThreadEnv forwards here, with the acting worker `by`).
  void apply_wa(unsigned by);
  void undo_wa(unsigned by);
  void resync_tb(unsigned t, const ThreadState& th);
  void restore_core(unsigned by);
  void restore_subcore(unsigned by, unsigned k);
  void restore_thread(unsigned by, unsigned t);
  void enter_hw_idle(unsigned t);
  void returned(unsigned t, const ThreadState& th);

  // What a worker sees besides the Env calls: it begins an idle cycle of
  // `kind` (before its first operation on the word); a step hit a kernel
  // assertion; the lock's holders (bit u: thread u) are not t alone while t
  // holds it, at program point pc; t spun `seconds` at pc.
  void began(unsigned t, Kind kind);
  void assertion(unsigned t, const StepResult& r, const ThreadState& th);
  void lock_shared(unsigned t, uint32_t holders, Pc pc);
  void spun(unsigned t, double seconds, Pc pc, uint32_t holders);

  // The core: runs until every worker has exited (or the run is aborted and
  // every worker has been told). read_word is called only at quiescent
  // points, with every worker in hardware idle.
  void run_core();
  // After the workers are joined: the final checks and the result.
  Result finish();
  // How the observer reads the word; set before the workers start.
  // `anytime`: at every observation (an atomic word: a relaxed load); else
  // only where the mutex orders the read after every worker's last write
  // (a non-atomic word, the race witness: at quiescent points and at the
  // end; elsewhere the oracle judges the move without the word).
  void set_word_reader(std::function<uint64_t()> read_word, bool anytime) {
    read_word_ = std::move(read_word);
    read_anytime_ = anytime;
  }

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
  // One observation, judged by the oracle; each violation is recorded as
  // "<clause>: <message><context>" (the oracle's "model", a move its model
  // does not allow or an assertion that guards no clause, named by the
  // platform's catch-all).
  void observe_locked(const Transition& tr, const oracle::Oracle::Seen& seen,
                      const std::string& context = "");
  void observe_locked(MoveKind kind, unsigned t, Event e, bool returned = false);
  void report_locked(oracle::Violations& found, const std::string& context);
  void wake_locked(unsigned t);
  void quiescent_check_locked();
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
  oracle::Oracle oracle_;
  oracle::Violations found_;  // reused by every observation
  std::function<uint64_t()> read_word_;
  bool read_anytime_ = true;
  std::array<Slot, kMaxThreads> slots_;
  unsigned exited_ = 0;
  Result result_;
};

// The Env of step() for worker t: forwards to Shared.
class ThreadEnv {
 public:
  ThreadEnv(Shared& s, unsigned t) : s_(s), t_(t) {}
  void apply_wa() { s_.apply_wa(t_); }
  void undo_wa() { s_.undo_wa(t_); }
  void resync_tb(unsigned t, const ThreadState& th) { s_.resync_tb(t, th); }
  void restore_core() { s_.restore_core(t_); }
  void restore_subcore(unsigned k) { s_.restore_subcore(t_, k); }
  void restore_thread(unsigned t) { s_.restore_thread(t_, t); }
  void enter_hw_idle(unsigned t) { s_.enter_hw_idle(t); }
  void returned(unsigned t, const ThreadState& th) { s_.returned(t, th); }

 private:
  Shared& s_;
  const unsigned t_;
};

std::string describe_thread(unsigned t, const ThreadState& th);

// --- a worker -------------------------------------------------------------------

namespace detail {

inline bool acquires(Pc pc) {
  return pc == Pc::p8_entry_lock || pc == Pc::p8_wake_lock || pc == Pc::loss_lock;
}
template <class Subject>
bool releases(Pc pc) {
  return pc == Pc::p8_entry_unlock ||
         pc == (Subject::lock_apart ? Pc::unlock_lock : Pc::unlock_cmpxchg);
}

// The lock holders (bit t: thread t), for IDLE-1. Relaxed: it must not add
// happens-before edges that would hide a race on the word from TSan.
struct Holders {
  std::atomic<uint32_t> mask{0};
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
        env_(s, t),
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
    const Kind kind = s_.choose_kind(rng_);
    s_.began(t_, kind);
    if (!check(begin_idle<Subject>(c_, th_, kind))) return false;
    if (!drive()) return false;
    Loss lost = Loss::none;
    if (!s_.wait_for_wake(t_, lost)) return false;
    th_.lost = lost;
    const StepResult r = wake<Subject>(c_, t_, th_, env_);
    if (!check(r)) return false;
    return r.returned || drive();
  }

  // Steps until hw_idle or back to running. False: aborted.
  bool drive() {
    unsigned spin_run = 0;
    std::chrono::steady_clock::time_point spin_start;
    for (;;) {
      if (s_.aborted()) return false;
      const Pc pc = th_.pc;
      const uint32_t me = uint32_t{1} << t_;
      if (holding_) {
        const uint32_t holders = h_.mask.load(std::memory_order_relaxed);
        if (holders != me) {
          s_.lock_shared(t_, holders, pc);
          return false;
        }
        if (releases<Subject>(pc)) {  // cleared before the release (re-taken if it must retry)
          h_.mask.fetch_and(~me, std::memory_order_relaxed);
          holding_ = false;
        }
      }
      const StepResult r = step<Subject>(c_, t_, th_, word_, env_);
      if (!check(r)) return false;
      if ((acquires(pc) && r.event != Event::spin) ||
          (!Subject::lock_apart && pc == Pc::unlock_cmpxchg && r.event == Event::spin)) {
        const uint32_t before = h_.mask.fetch_or(me, std::memory_order_relaxed);
        holding_ = true;
        if (before != 0) {
          s_.lock_shared(t_, before | me, pc);
          return false;
        }
      }
      if (s_.aborted()) return false;  // an observation of this step failed
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

  bool spin_watchdog(std::chrono::steady_clock::time_point since, Pc pc) {
    const std::chrono::duration<double> d = std::chrono::steady_clock::now() - since;
    if (d.count() < s_.options().stuck_seconds) return true;
    s_.spun(t_, d.count(), pc, h_.mask.load(std::memory_order_relaxed));
    return false;
  }

  bool check(const StepResult& r) {
    if (r.event != Event::bug) return true;
    s_.assertion(t_, r, th_);
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
  shared.set_word_reader([&word] { return word.load(); }, !std::is_same_v<Word, PlainWord>);
  detail::Holders holders;
  std::vector<std::thread> threads;
  threads.reserve(o.config.threads);
  for (unsigned t = 0; t < o.config.threads; ++t) {
    threads.emplace_back([&shared, &holders, &word, t] {
      detail::Worker<Subject, Word>(shared, holders, t, word).run();
    });
  }
  shared.run_core();
  for (std::thread& th : threads) th.join();
  return shared.finish();
}

}  // namespace idlespec::idle_core::stress
