// The powernv per-core idle state word: which hardware thread of a POWER core
// is the last to enter a state-loss idle state (sleep, winkle, deep stop) and
// which is the first to wake from it (spec/idle_core.md).
//
// One word per core, shared by its threads:
//
//   bits  0..7   thread bits: set = the thread is not in sleep/winkle/deep stop
//   bits  8..15  per-thread winkle bits (POWER8): set when every thread winkles
//   bits 16..19  winkle count (POWER8): threads between count+1 and count-1
//   bit  28      lock
//
// The protocol is written once, as a step function: a thread's program point
// (Pc) and locals (ThreadState) advance by exactly one atomic action on the
// word per step. The word is a template parameter:
//
//   PlainWord    a plain integer inside an explicit state: the model checker,
//                the RapidCheck state machine and the fuzz target
//   AtomicWord   std::atomic<uint64_t> with the kernel's operations
//                (test_and_set_bit_lock, clear_bit_unlock, cmpxchg, set_bit,
//                clear_bit, READ_ONCE, plain load/store): the multi-threaded
//                stress test, one OS thread per hardware thread
//
// and so is the environment (Env): what the thread does besides the word
// (apply the fastsleep workaround, resync the timebase, restore registers,
// execute the idle instruction). The explicit state records those as ghost
// state; the stress test records them under a mutex. Either way the code that
// decides is this file's.
//
// Sources: seed 002 (the 2014 redesign that introduced the per-core word),
// upstream arch/powerpc/platforms/powernv/idle.c as of v6.12
// (power7_idle_insn, power9_idle_stop, the atomic_*_thread_idle helpers) and
// arch/powerpc/include/asm/cpuidle.h (the bit layout).
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <string>
#include <string_view>

#include "impl/platform.h"

namespace idlespec::idle_core {

inline constexpr unsigned kMaxThreads = 8;
inline constexpr unsigned kLockBit = 28;
inline constexpr uint64_t kLock = uint64_t{1} << kLockBit;
inline constexpr unsigned kWinkleBitsShift = 8;
inline constexpr unsigned kWinkleCountShift = 16;
inline constexpr uint64_t kWinkleCountBits = uint64_t{0xf} << kWinkleCountShift;
inline constexpr uint64_t kWinkleCountOne = uint64_t{1} << kWinkleCountShift;

// What a thread asks of the hardware when it idles. POWER8: nap never
// touches the word; sleep and winkle do. POWER9: a shallow stop (below the
// first SPR-loss level) never touches the word; deep stops do, and the
// deepest lose the timebase as well.
enum class Kind : uint8_t {
  none = 0,
  p8_nap,
  p8_sleep,
  p8_winkle,
  p9_shallow,
  p9_deep,     // >= pnv_first_spr_loss_level, < pnv_first_tb_loss_level
  p9_tb_loss,  // >= pnv_first_tb_loss_level
};
std::string_view kind_name(Kind k);

// State loss the core inflicted on a thread while it was in hardware idle
// (what SRR1 / PSSCR[PLS] tell it on wake-up). POWER8: fastsleep loses the
// timebase (and needs the workaround); full winkle loses per-core, per-subcore
// and per-thread registers too. POWER9: deep stop loses SPRs, the deepest the
// timebase as well.
enum class Loss : uint8_t { none = 0, partial = 1, full = 2 };

// Program points. Each step performs the action named by the current Pc and
// moves to the next one.
enum class Pc : uint8_t {
  running = 0,
  // POWER8 entry (sleep, winkle)
  p8_entry_lock,      // test_and_set_bit_lock(lock); spin while it was set
  p8_entry_load,      // s = *state      (the clear is a plain RMW under the
  p8_entry_store,     // *state = s & ~thread   lock: a load step, a store step)
  p8_entry_apply_wa,  // last thread: apply the fastsleep workaround (OPAL call)
  p8_entry_winkle,    // count += 1; all winkle bits when count == threads
  p8_entry_unlock,    // clear_bit_unlock(lock)
  // POWER9 entry (deep stop)
  p9_entry_clear,  // clear_bit(thread), lock-free
  // both
  idle_insn,  // the idle instruction: from then on in hardware idle
  hw_idle,    // in hardware idle; a wake-up may come at any time
  // wake
  p8_wake_lock,    // no loss: test_and_set_bit_lock(lock)
  p8_wake_winkle,  // no loss: count -= 1, clear own winkle bit (under the lock)
  p9_wake_set,     // no loss: set_bit(thread), lock-free
  loss_lock,       // state loss: test_and_set_bit_lock(lock)
  p8_loss_winkle,  // count -= 1; own winkle bit set => full winkle (clear it)
  loss_check,      // s = *state: no thread bit set => this thread is first awake
  // the duties, in this order, each when it applies (next_pc)
  restore_core,     // first: per-core registers (POWER8: after a full winkle)
  p8_undo_wa,       // first: undo the fastsleep workaround (OPAL call)
  resync_tb,        // first, timebase lost: opal_resync_timebase()
  restore_subcore,  // full winkle, no sibling of the subcore awake: per-subcore registers
  unlock_load,      // s = READ_ONCE(*state)
  unlock_cmpxchg,   // cmpxchg(state, s, (s | thread) & ~lock); retry with what it saw
                    // (the lock apart, v6.5+: cmpxchg(state, s, s | thread))
  unlock_lock,      // the lock apart: clear_bit_unlock(lock) after the cmpxchg
  resync_tb_late,   // (only subjects that resync after releasing the lock)
  restore_thread,   // per-thread registers (full winkle, deep stop)
};
inline constexpr unsigned kPcCount = static_cast<unsigned>(Pc::restore_thread) + 1;
std::string_view pc_name(Pc pc);

// The core under test.
struct Config {
  Platform platform = Platform::power8;  // power8 or power9
  unsigned threads = 4;                  // threads per core: 1, 2, 4, 8 (POWER9: 1, 2, 4)
  unsigned subcores = 1;                 // POWER8 split-core mode: 1, 2 or 4
  bool fastsleep_workaround = true;      // power7_fastsleep_workaround_entry/exit

  // A core of `threads` threads in `subcores` subcores, the fastsleep
  // workaround on where there is one (POWER8) unless `workaround` is false.
  static Config of(Platform p, unsigned threads, unsigned subcores = 1, bool workaround = true) {
    Config c;
    c.platform = p;
    c.threads = threads;
    c.subcores = subcores;
    c.fastsleep_workaround = p == Platform::power8 && workaround;
    return c;
  }

  bool power9() const { return platform == Platform::power9; }
  unsigned threads_per_subcore() const { return threads / subcores; }
  unsigned subcore_of(unsigned t) const { return t / threads_per_subcore(); }
  // local_paca->subcore_sibling_mask
  uint64_t subcore_sibling_mask(unsigned t) const;
  // (1 << threads_per_core) - 1
  uint64_t core_thread_mask() const { return (uint64_t{1} << threads) - 1; }
  // Which kinds a running thread may choose on this platform.
  bool valid() const;
  std::string describe() const;  // "power8 SMT4", "power8 SMT8 2x4"
};

// One hardware thread's private state: its program point and locals. Locals
// that are dead at the current Pc are kept zero, so that equal futures have
// equal states (the model checker relies on it).
struct ThreadState {
  Pc pc = Pc::running;
  Kind kind = Kind::none;      // the idle kind chosen on entry, until back to running
  Loss lost = Loss::none;      // what the core inflicted while in hardware idle
  bool sprs_saved = false;     // registers saved on entry (winkle, deep stop)
  bool full_winkle = false;    // woke from a full winkle: restores everything
  bool first = false;          // found no thread bit set: the first awake
  bool sibling_awake = false;  // found a thread of its subcore awake
  uint32_t seen = 0;           // the word as this thread last read it (when live)
  friend bool operator==(const ThreadState&, const ThreadState&) = default;
};

// --- the word ---------------------------------------------------------------

// A plain word inside an explicit state.
struct PlainWord {
  uint64_t v = 0;
  uint64_t load() const { return v; }
  uint64_t load_once() const { return v; }  // READ_ONCE
  void store(uint64_t x) { v = x; }
  // test_and_set_bit_lock (acquire), or with acquire false an unordered
  // test-and-set (a witness of the weak-memory exploration)
  template <bool acquire = true>
  bool test_and_set_bit(unsigned b) {
    const bool old = (v >> b) & 1;
    v |= uint64_t{1} << b;
    return old;
  }
  void clear_bit_unlock(unsigned b) { v &= ~(uint64_t{1} << b); }
  void set_bit(unsigned b) { v |= uint64_t{1} << b; }
  void clear_bit(unsigned b) { v &= ~(uint64_t{1} << b); }
  uint64_t cmpxchg(uint64_t expected, uint64_t desired) {
    const uint64_t old = v;
    if (old == expected) v = desired;
    return old;
  }
};

// The kernel's operations on std::atomic<uint64_t>.
struct AtomicWord {
  std::atomic<uint64_t>* a;
  uint64_t load() const { return a->load(std::memory_order_acquire); }
  uint64_t load_once() const { return a->load(std::memory_order_acquire); }
  void store(uint64_t x) { a->store(x, std::memory_order_release); }
  template <bool acquire = true>
  bool test_and_set_bit(unsigned b) {  // test_and_set_bit_lock: acquire
    const uint64_t m = uint64_t{1} << b;
    return (a->fetch_or(m, acquire ? std::memory_order_acquire : std::memory_order_relaxed) & m) !=
           0;
  }
  void clear_bit_unlock(unsigned b) {  // release
    a->fetch_and(~(uint64_t{1} << b), std::memory_order_release);
  }
  void set_bit(unsigned b) { a->fetch_or(uint64_t{1} << b, std::memory_order_seq_cst); }
  void clear_bit(unsigned b) { a->fetch_and(~(uint64_t{1} << b), std::memory_order_seq_cst); }
  uint64_t cmpxchg(uint64_t expected, uint64_t desired) {  // fully ordered
    a->compare_exchange_strong(expected, desired, std::memory_order_seq_cst);
    return expected;  // what was there: == expected on success
  }
};

// --- what a step did ----------------------------------------------------------

// Besides the word, a step may act on the core (Env) and reports what it did,
// for the checks: a kernel assertion that fired, a duty performed, a return
// to running.
enum class Event : uint8_t {
  none = 0,
  spin,             // a test-and-set or cmpxchg that must be retried
  apply_wa,         // the fastsleep workaround applied
  undo_wa,          // ... undone
  resync_tb,        // the timebase resynced (seen: the word the thread decided on)
  restore_core,     // per-core registers restored
  restore_subcore,  // per-subcore registers restored
  restore_thread,   // per-thread registers restored
  enter_hw_idle,    // the idle instruction: the thread is in hardware idle
  woke,             // the thread left hardware idle
  bug,              // BUG_ON / WARN_ON of the kernel code: `what` says which
};

struct StepResult {
  Event event = Event::none;
  bool returned = false;       // the thread left the wake path: it is running again
  const char* what = nullptr;  // for Event::bug: the assertion
};

// The environment a step acts on besides the word. The model checker's Env
// updates ghost state in its explicit state; the stress test's does so under
// a mutex. The protocol never reads the Env back: it decides from the word
// and its locals only, as the kernel does.
//
//   void apply_wa();                 the last thread entering: workaround on
//   void undo_wa();                  the first thread awake: workaround off
//   void resync_tb(unsigned t, const ThreadState& th);
//                                    the timebase resynced (th: the thread's
//                                    state, `first` tells what it found)
//   void restore_core();             per-core registers restored
//   void restore_subcore(unsigned k);  per-subcore registers of subcore k
//   void restore_thread(unsigned t);   per-thread registers of thread t
//   void enter_hw_idle(unsigned t);  the idle instruction executed
//   void returned(unsigned t, const ThreadState& th);
//                                    thread t leaves the wake path (th: its
//                                    state just before, locals still live)

// --- the subjects -------------------------------------------------------------

// The protocol as upstream has it since the 2014 redesign (v6.12's C). A
// subject is a type; tests/witnesses/ derives broken ones from it, each
// changing one hook.
struct Reference {
  static constexpr std::string_view name = "reference";
  // The core thread mask the "last"/"first" decisions use.
  static uint64_t core_thread_mask(const Config& c) { return c.core_thread_mask(); }
  // POWER8 entry clears the own bit with the lock held (else before taking it).
  static constexpr bool clear_under_lock = true;
  // The no-loss wake of a winkle decrements the winkle count.
  static constexpr bool winkle_dec_on_noloss = true;
  // The first thread awake resyncs the timebase ...
  static constexpr bool first_resyncs = true;
  // ... before it releases the lock (else after).
  static constexpr bool resync_before_unlock = true;
  // Every thread waking with state loss resyncs (before 2014: no tracking).
  static constexpr bool every_loss_wake_resyncs = false;
  // The lock in a word of its own (paca->idle_lock, since b0c5b4f1ee36,
  // v6.5): the wake path's cmpxchg sets the own bit only, and a
  // clear_bit_unlock of the lock follows it (Pc::unlock_lock). Modelled as
  // the same lock bit handled by its own operations: no operation touches
  // both the lock and the thread bits, as no kernel operation touches both
  // words.
  static constexpr bool lock_apart = false;
  // ... and releases it after the cmpxchg (a witness forgets to).
  static constexpr bool lock_apart_released = true;
  // Ordering that only the weak-memory exploration (modelcheck/idle_core_lkmm.h)
  // tells apart; each is what upstream has, and a witness drops it:
  // the lock is taken by test_and_set_bit_lock (acquire) ...
  static constexpr bool lock_acquire = true;
  // ... and released by clear_bit_unlock (release), not clear_bit;
  static constexpr bool unlock_release = true;
  // the wake path reads the word only once it holds the lock.
  static constexpr bool peek_before_lock = false;
};

// Upstream since v6.5: the protocol of Reference with the lock apart.
struct IdleLock : Reference {
  static constexpr std::string_view name = "idle_lock";
  static constexpr bool lock_apart = true;
};

// --- the step function ---------------------------------------------------------

namespace detail {
inline constexpr StepResult bug(const char* what) { return {Event::bug, false, what}; }
inline constexpr uint64_t bit(unsigned t) { return uint64_t{1} << t; }
inline constexpr unsigned winkle_count(uint64_t s) {
  return static_cast<unsigned>((s & kWinkleCountBits) >> kWinkleCountShift);
}
}  // namespace detail

// Which kinds a running thread may choose on this platform.
inline bool kind_allowed(const Config& c, Kind k) {
  if (c.power9()) return k == Kind::p9_shallow || k == Kind::p9_deep || k == Kind::p9_tb_loss;
  return k == Kind::p8_nap || k == Kind::p8_sleep || k == Kind::p8_winkle;
}

// Did the thread lose the timebase? POWER8: any loss (fastsleep and winkle
// both); POWER9: only the deepest stop levels.
inline bool tb_lost(const Config& c, const ThreadState& th) {
  return c.power9() ? th.lost == Loss::full : th.lost != Loss::none;
}

// Whether the duty at `pc` applies to this thread, on the wake path after the
// lock was taken (see the order in Pc).
template <class Subject>
bool duty_applies(const Config& c, const ThreadState& th, Pc pc) {
  const bool loss = th.lost != Loss::none;
  switch (pc) {
    case Pc::restore_core:
      return loss && th.first && (c.power9() || th.full_winkle);
    case Pc::p8_undo_wa:
      return loss && th.first && !c.power9() && c.fastsleep_workaround;
    case Pc::resync_tb:
      return tb_lost(c, th) &&
             ((th.first && Subject::first_resyncs && Subject::resync_before_unlock) ||
              Subject::every_loss_wake_resyncs);
    case Pc::restore_subcore:
      return loss && !c.power9() && th.full_winkle && !th.sibling_awake;
    case Pc::unlock_load:
    case Pc::unlock_cmpxchg:
      return true;
    case Pc::unlock_lock:
      return Subject::lock_apart;
    case Pc::resync_tb_late:
      return tb_lost(c, th) && th.first && Subject::first_resyncs && !Subject::resync_before_unlock;
    case Pc::restore_thread:
      return loss && (c.power9() ? th.sprs_saved : th.full_winkle);
    default:
      return false;
  }
}

// The next program point after `pc` on the wake path: the next duty that
// applies, or running.
template <class Subject>
Pc next_pc(const Config& c, const ThreadState& th, Pc pc) {
  for (unsigned p = static_cast<unsigned>(pc) + 1; p < kPcCount; ++p) {
    if (duty_applies<Subject>(c, th, static_cast<Pc>(p))) return static_cast<Pc>(p);
  }
  return Pc::running;
}

// A running thread starts to idle with `kind` (kind_allowed). One step, no
// action on the word yet.
template <class Subject = Reference>
StepResult begin_idle(const Config& c, ThreadState& th, Kind kind) {
  if (th.pc != Pc::running || !kind_allowed(c, kind)) return detail::bug("begin_idle: not allowed");
  th.kind = kind;
  switch (kind) {
    case Kind::p8_sleep:
    case Kind::p8_winkle:
      th.pc = Subject::clear_under_lock ? Pc::p8_entry_lock : Pc::p8_entry_load;
      break;
    case Kind::p9_deep:
    case Kind::p9_tb_loss:
      th.sprs_saved = true;  // registers saved before the bit is cleared
      th.pc = Pc::p9_entry_clear;
      break;
    default:  // nap, shallow stop: straight to the idle instruction
      th.pc = Pc::idle_insn;
      break;
  }
  return {};
}

namespace detail {
template <class Env>
StepResult finish_wake(unsigned t, ThreadState& th, Env& env, Event event) {
  env.returned(t, th);
  th = ThreadState{};
  return {event, true};
}
}  // namespace detail

// The hardware wakes thread t from hardware idle; th.lost says what the core
// lost meanwhile (the explicit state's core sets it). One step.
template <class Subject = Reference, class Env>
StepResult wake(const Config& c, unsigned t, ThreadState& th, Env& env) {
  if (th.pc != Pc::hw_idle) return detail::bug("wake: not in hardware idle");
  const bool loss = th.lost != Loss::none;
  switch (th.kind) {
    case Kind::p8_sleep:
    case Kind::p8_winkle:
      th.pc = loss ? Pc::loss_lock : Pc::p8_wake_lock;
      return {Event::woke};
    case Kind::p9_deep:
    case Kind::p9_tb_loss:
      th.pc = loss ? Pc::loss_lock : Pc::p9_wake_set;
      return {Event::woke};
    default:  // nap, shallow stop: the word was never touched
      if (loss) return detail::bug("BUG_ON: state loss after nap or a shallow stop");
      (void)c;
      return detail::finish_wake(t, th, env, Event::none);
  }
}

// One atomic action of thread t at its current program point (anything but
// running and hw_idle, which move by begin_idle and wake). Word: PlainWord
// or AtomicWord; Env: see above.
template <class Subject = Reference, class Word, class Env>
StepResult step(const Config& c, unsigned t, ThreadState& th, Word& word, Env& env) {
  using detail::bit;
  const uint64_t thread = bit(t);
  const uint64_t mask = Subject::core_thread_mask(c);
  // Moves on along the wake path from `pc`; returns to running when no duty
  // is left.
  const auto advance = [&](Pc pc, Event event) -> StepResult {
    th.pc = next_pc<Subject>(c, th, pc);
    if (th.pc == Pc::running) return detail::finish_wake(t, th, env, event);
    return {event};
  };
  // After the entry's clear: the last thread's workaround, the winkle count,
  // then the unlock.
  const auto after_clear = [&](uint64_t s) {
    const bool last = (s & mask) == 0;
    return (c.fastsleep_workaround && last) ? Pc::p8_entry_apply_wa
           : th.kind == Kind::p8_winkle     ? Pc::p8_entry_winkle
                                            : Pc::p8_entry_unlock;
  };

  switch (th.pc) {
    case Pc::running:
    case Pc::hw_idle:
      return detail::bug("step: running and hw_idle move by begin_idle and wake");

    // --- POWER8 entry ---
    case Pc::p8_entry_lock:
      if (word.template test_and_set_bit<Subject::lock_acquire>(kLockBit)) return {Event::spin};
      if (Subject::clear_under_lock) {
        th.pc = Pc::p8_entry_load;
      } else {  // the clear already happened, outside the lock
        th.pc = after_clear(th.seen);
        th.seen = 0;
      }
      return {};
    case Pc::p8_entry_load: {
      const uint64_t s = word.load();
      th.seen = static_cast<uint32_t>(s);
      th.pc = Pc::p8_entry_store;
      if (!(s & thread)) return detail::bug("BUG_ON(!(*state & thread)) on entry");
      return {};
    }
    case Pc::p8_entry_store: {
      const uint64_t s = uint64_t{th.seen} & ~thread;
      word.store(s);
      if (Subject::clear_under_lock) {
        th.pc = after_clear(s);
        th.seen = 0;
      } else {
        th.seen = static_cast<uint32_t>(s);  // decides once the lock is held
        th.pc = Pc::p8_entry_lock;
      }
      return {};
    }
    case Pc::p8_entry_apply_wa:
      env.apply_wa();
      th.pc = th.kind == Kind::p8_winkle ? Pc::p8_entry_winkle : Pc::p8_entry_unlock;
      return {Event::apply_wa};
    case Pc::p8_entry_winkle: {
      // A plain read-modify-write under the lock. The only other writers of
      // the word meanwhile are failing test-and-sets, which change nothing,
      // so it is one step.
      uint64_t s = word.load() + kWinkleCountOne;
      if (detail::winkle_count(s) == c.threads) s |= c.core_thread_mask() << kWinkleBitsShift;
      word.store(s);
      th.sprs_saved = true;
      th.pc = Pc::p8_entry_unlock;
      if (detail::winkle_count(s) == 0) return detail::bug("WARN_ON: winkle count wrapped to 0");
      return {};
    }
    case Pc::p8_entry_unlock:
      if (Subject::unlock_release) {
        word.clear_bit_unlock(kLockBit);
      } else {
        word.clear_bit(kLockBit);
      }
      th.pc = Pc::idle_insn;
      return {};

    // --- POWER9 entry ---
    case Pc::p9_entry_clear:
      word.clear_bit(t);
      th.pc = Pc::idle_insn;
      return {};

    case Pc::idle_insn:
      env.enter_hw_idle(t);
      th.pc = Pc::hw_idle;
      return {Event::enter_hw_idle};

    // --- wake without loss ---
    case Pc::p8_wake_lock:
      if (Subject::peek_before_lock && (word.load() & thread))
        return detail::bug("WARN_ON(*state & thread) before the lock");
      if (word.template test_and_set_bit<Subject::lock_acquire>(kLockBit)) return {Event::spin};
      th.pc = th.kind == Kind::p8_winkle ? Pc::p8_wake_winkle : Pc::unlock_load;
      return {};
    case Pc::p8_wake_winkle: {  // under the lock: one step, as p8_entry_winkle
      uint64_t s = word.load();
      const bool had_count = detail::winkle_count(s) != 0;
      if (Subject::winkle_dec_on_noloss) s -= kWinkleCountOne;
      s &= ~(thread << kWinkleBitsShift);
      word.store(s);
      th.pc = Pc::unlock_load;
      if (!had_count) return detail::bug("WARN_ON: winkle count 0 on wake");
      return {};
    }
    case Pc::p9_wake_set:
      word.set_bit(t);
      return detail::finish_wake(t, th, env, Event::none);

    // --- wake with loss ---
    case Pc::loss_lock:
      if (Subject::peek_before_lock && (word.load() & thread))
        return detail::bug("WARN_ON(*state & thread) before the lock");
      if (word.template test_and_set_bit<Subject::lock_acquire>(kLockBit)) return {Event::spin};
      th.pc = th.kind == Kind::p8_winkle ? Pc::p8_loss_winkle : Pc::loss_check;
      return {};
    case Pc::p8_loss_winkle: {  // under the lock: one step
      uint64_t s = word.load();
      const bool had_count = detail::winkle_count(s) != 0;
      s -= kWinkleCountOne;
      if (s & (thread << kWinkleBitsShift)) {
        s &= ~(thread << kWinkleBitsShift);
        th.full_winkle = true;
      }
      word.store(s);
      th.pc = Pc::loss_check;
      if (!had_count) return detail::bug("WARN_ON: winkle count 0 on wake");
      if (th.full_winkle && !th.sprs_saved) return detail::bug("BUG_ON(!sprs_saved)");
      return {};
    }
    case Pc::loss_check: {
      const uint64_t s = word.load();
      th.first = (s & mask) == 0;
      th.sibling_awake = !c.power9() && (s & c.subcore_sibling_mask(t)) != 0;
      const StepResult r = advance(Pc::loss_check, Event::none);
      if (s & thread) return detail::bug("WARN_ON(*state & thread) on wake");
      return r;
    }
    case Pc::restore_core:
      env.restore_core();
      return advance(Pc::restore_core, Event::restore_core);
    case Pc::p8_undo_wa:
      env.undo_wa();
      return advance(Pc::p8_undo_wa, Event::undo_wa);
    case Pc::resync_tb:
    case Pc::resync_tb_late: {
      env.resync_tb(t, th);
      return advance(th.pc, Event::resync_tb);
    }
    case Pc::restore_subcore:
      env.restore_subcore(c.subcore_of(t));
      return advance(Pc::restore_subcore, Event::restore_subcore);

    // --- set own bit and release the lock: one cmpxchg loop ---
    case Pc::unlock_load: {
      const uint64_t s = word.load_once();
      th.seen = static_cast<uint32_t>(s);
      th.pc = Pc::unlock_cmpxchg;
      if (!(s & kLock)) return detail::bug("BUG_ON(!(s & PNV_CORE_IDLE_LOCK_BIT))");
      if (s & thread) return detail::bug("BUG_ON(s & thread)");
      return {};
    }
    case Pc::unlock_cmpxchg: {
      const uint64_t s = th.seen;
      const uint64_t old =
          word.cmpxchg(s, Subject::lock_apart ? (s | thread) : (s | thread) & ~kLock);
      if (old != s) {
        th.seen = static_cast<uint32_t>(old);
        return {Event::spin};
      }
      th.seen = 0;
      return advance(Pc::unlock_cmpxchg, Event::none);
    }
    case Pc::unlock_lock:
      if (Subject::lock_apart_released && Subject::unlock_release) word.clear_bit_unlock(kLockBit);
      if (Subject::lock_apart_released && !Subject::unlock_release) word.clear_bit(kLockBit);
      return advance(Pc::unlock_lock, Event::none);
    case Pc::restore_thread:
      env.restore_thread(t);
      return advance(Pc::restore_thread, Event::restore_thread);
  }
  return detail::bug("step: unknown program point");
}

}  // namespace idlespec::idle_core
