#include "modelcheck/idle_core_invariants.h"

#include <cstring>
#include <initializer_list>

#include "impl/text.h"

namespace idlespec::idle_core::mc {

namespace {

constexpr uint32_t pcs(std::initializer_list<Pc> l) {
  uint32_t m = 0;
  for (Pc p : l) m |= 1u << static_cast<unsigned>(p);
  return m;
}
constexpr uint32_t pcbit(Pc p) { return 1u << static_cast<unsigned>(p); }

// From a successful test-and-set to the release (see the header).
constexpr uint32_t kHolds =
    pcs({Pc::p8_entry_apply_wa, Pc::p8_entry_winkle, Pc::p8_entry_unlock, Pc::p8_wake_winkle,
         Pc::p8_loss_winkle, Pc::loss_check, Pc::restore_core, Pc::p8_undo_wa, Pc::resync_tb,
         Pc::restore_subcore, Pc::unlock_load, Pc::unlock_cmpxchg});
constexpr uint32_t kHoldsIfClearUnderLock = pcs({Pc::p8_entry_load, Pc::p8_entry_store});

// After "clear own bit", up to and including the step that sets it.
constexpr uint32_t kCleared =
    pcs({Pc::p8_entry_apply_wa, Pc::p8_entry_winkle, Pc::p8_entry_unlock, Pc::idle_insn,
         Pc::hw_idle, Pc::p8_wake_lock, Pc::p8_wake_winkle, Pc::p9_wake_set, Pc::loss_lock,
         Pc::p8_loss_winkle, Pc::loss_check, Pc::restore_core, Pc::p8_undo_wa, Pc::resync_tb,
         Pc::restore_subcore, Pc::unlock_load, Pc::unlock_cmpxchg});

// After count+1, up to and including the step that does count-1.
constexpr uint32_t kInCount =
    pcs({Pc::p8_entry_unlock, Pc::idle_insn, Pc::hw_idle, Pc::p8_wake_lock, Pc::p8_wake_winkle,
         Pc::loss_lock, Pc::p8_loss_winkle});

inline uint32_t holds_mask(const Shape& shape) {
  return kHolds | (shape.clear_under_lock ? kHoldsIfClearUnderLock : 0);
}
inline uint32_t cleared_mask(const Config& c, const Shape& shape) {
  return kCleared | (!c.power9() && !shape.clear_under_lock ? pcbit(Pc::p8_entry_lock) : 0);
}

}  // namespace

bool holds_lock(const Shape& shape, const ThreadState& th) {
  return (holds_mask(shape) >> static_cast<unsigned>(th.pc)) & 1;
}

bool touches_word(Kind k) {
  return k == Kind::p8_sleep || k == Kind::p8_winkle || k == Kind::p9_deep || k == Kind::p9_tb_loss;
}

bool bit_cleared(const Config& c, const Shape& shape, const ThreadState& th) {
  return touches_word(th.kind) && ((cleared_mask(c, shape) >> static_cast<unsigned>(th.pc)) & 1);
}

bool in_winkle_count(const ThreadState& th) {
  return th.kind == Kind::p8_winkle && ((kInCount >> static_cast<unsigned>(th.pc)) & 1);
}

bool on_wake_path(const ThreadState& th) {
  return static_cast<unsigned>(th.pc) >= static_cast<unsigned>(Pc::p8_wake_lock);
}

std::string_view clause_of(const Config& c, Finding f) {
  const bool p9 = c.power9();
  switch (f) {
    case Finding::lock_holders:
    case Finding::lock_bit:
    case Finding::deadlock:
      return p9 ? "IDLE-7" : "IDLE-1";
    case Finding::thread_bits:
      return p9 ? "IDLE-7" : "IDLE-2";
    case Finding::tb_on_return:
      return p9 ? "IDLE-7" : "IDLE-3";
    case Finding::wa_on_loss:
      return "IDLE-4";
    case Finding::winkle_count:
    case Finding::core_regs:
    case Finding::thread_regs:
    case Finding::restore_unsaved:
      return p9 ? "IDLE-7" : "IDLE-5";
    case Finding::subcore_regs:
      return "IDLE-6";
    case Finding::resync_not_first:
      return "IDLE-9";
    case Finding::starvation:
      return "IDLE-8";
    case Finding::bug:
    case Finding::none:
      break;
  }
  return p9 ? "IDLE-7" : "IDLE-1";
}

std::string_view clause_of_bug(const Config& c, const char* what) {
  if (c.power9()) return "IDLE-7";
  const std::string_view w = what ? what : "";
  if (w.find("& thread") != std::string_view::npos) return "IDLE-2";
  if (w.find("LOCK_BIT") != std::string_view::npos) return "IDLE-1";
  if (w.find("winkle count") != std::string_view::npos ||
      w.find("sprs_saved") != std::string_view::npos)
    return "IDLE-5";
  return "IDLE-1";
}

Findings judge_state(const Config& c, const Shape& shape, const CoreState& s) {
  Findings out = 0;
  unsigned holders = 0;
  uint32_t expected_bits = 0;
  unsigned in_count = 0;
  const uint32_t hm = holds_mask(shape), cm = cleared_mask(c, shape);
  for (unsigned t = 0; t < c.threads; ++t) {
    const ThreadState& th = s.th[t];
    const unsigned pc = static_cast<unsigned>(th.pc);
    holders += (hm >> pc) & 1;
    if (!(touches_word(th.kind) && ((cm >> pc) & 1))) expected_bits |= 1u << t;
    in_count += th.kind == Kind::p8_winkle && ((kInCount >> pc) & 1);
  }
  const bool lock = (s.word & kLock) != 0;
  if (holders > 1) out |= finding_bit(Finding::lock_holders);
  if (lock != (holders > 0)) out |= finding_bit(Finding::lock_bit);
  if (!lock && (s.word & c.core_thread_mask()) != expected_bits)
    out |= finding_bit(Finding::thread_bits);
  if (!c.power9()) {
    const unsigned count = detail::winkle_count(s.word);
    if (count != in_count || count > c.threads) out |= finding_bit(Finding::winkle_count);
  }
  return out;
}

Findings judge_transition(const Config& c, const Transition& tr, const CoreState& after) {
  Findings out = 0;
  const StepResult& r = tr.result;
  if (tr.move.kind == MoveKind::core_loss) {
    if (!c.power9() && c.fastsleep_workaround && !tr.ghost_before.wa_applied)
      out |= finding_bit(Finding::wa_on_loss);
    return out;
  }
  if (r.event == Event::bug) out |= finding_bit(Finding::bug);
  const unsigned t = tr.move.thread;
  if (r.event == Event::restore_thread && !tr.before.sprs_saved)
    out |= finding_bit(Finding::restore_unsaved);
  // Not first awake: it found a thread bit set (its `first`). On POWER8 the
  // word cannot change between the decision (loss_check) and the resync, both
  // under the lock, so another thread's bit set at the resync is one it found
  // too, whatever the subject's own mask made of it (a core thread mask too
  // small). Not on POWER9: a no-loss wake sets its bit lock-free meanwhile.
  if (r.event == Event::resync_tb &&
      (!tr.before.first || (!c.power9() && (after.word & c.core_thread_mask() & ~(1u << t)) != 0)))
    out |= finding_bit(Finding::resync_not_first);
  if (r.returned) {
    const Ghost& g = after.ghost;
    if (!g.tb_valid) out |= finding_bit(Finding::tb_on_return);
    if (!g.core_regs_valid) out |= finding_bit(Finding::core_regs);
    if (!((g.thread_regs_valid >> t) & 1)) out |= finding_bit(Finding::thread_regs);
    if (!c.power9() && !((g.subcore_regs_valid >> c.subcore_of(t)) & 1))
      out |= finding_bit(Finding::subcore_regs);
  }
  return out;
}

namespace {
std::string bits(unsigned n, uint32_t v) {
  std::string s;
  for (unsigned t = 0; t < n; ++t) s += (v >> t) & 1 ? '1' : '0';
  return s;
}
}  // namespace

std::string finding_text(const Config& c, const Shape& shape, Finding f, const CoreState& s,
                         const Transition* tr) {
  const unsigned t = tr ? tr->move.thread : 0;
  const char* pre = c.power9() ? "POWER9: " : "";
  switch (f) {
    case Finding::lock_holders: {
      std::string who;
      for (unsigned i = 0; i < c.threads; ++i)
        if (holds_lock(shape, s.th[i])) who += strprintf(" t%u", i);
      return strprintf("%sthe lock is held by more than one thread:%s", pre, who.c_str());
    }
    case Finding::lock_bit: {
      bool any = false;
      for (unsigned i = 0; i < c.threads; ++i) any = any || holds_lock(shape, s.th[i]);
      return any ? strprintf("%sa thread holds the lock but the lock bit is clear", pre)
                 : strprintf("%sthe lock bit is set and no thread holds the lock", pre);
    }
    case Finding::deadlock:
      return strprintf("%sno enabled move changes the state: every thread is stuck", pre);
    case Finding::thread_bits: {
      uint32_t expected = 0;
      for (unsigned i = 0; i < c.threads; ++i)
        if (!bit_cleared(c, shape, s.th[i])) expected |= 1u << i;
      return strprintf(
          "%sthe lock is free and the thread bits are %s, but the threads not between "
          "\"clear own bit\" and \"set own bit\" are %s",
          pre, bits(c.threads, s.word).c_str(), bits(c.threads, expected).c_str());
    }
    case Finding::tb_on_return:
      return strprintf("%st%u returned to running with the core's timebase invalid", pre, t);
    case Finding::wa_on_loss:
      return "the core entered its state-loss state with the fastsleep workaround not applied";
    case Finding::winkle_count: {
      unsigned n = 0;
      for (unsigned i = 0; i < c.threads; ++i) n += in_winkle_count(s.th[i]);
      return strprintf(
          "the winkle count is %u but %u thread(s) are between their count+1 and count-1 "
          "(threads per core: %u)",
          detail::winkle_count(s.word), n, c.threads);
    }
    case Finding::core_regs:
      return strprintf("%st%u returned to running before the per-core registers were restored", pre,
                       t);
    case Finding::thread_regs:
      return strprintf("%st%u returned to running with its per-thread registers lost", pre, t);
    case Finding::restore_unsaved:
      return strprintf("%st%u restored per-thread registers it had never saved", pre, t);
    case Finding::subcore_regs:
      return strprintf("t%u returned to running before subcore %u's registers were restored", t,
                       c.subcore_of(t));
    case Finding::resync_not_first: {
      const uint32_t others = s.word & static_cast<uint32_t>(c.core_thread_mask()) & ~(1u << t);
      std::string awake;
      for (unsigned i = 0; i < c.threads; ++i)
        if ((others >> i) & 1) awake += strprintf(" t%u", i);
      if (tr && !tr->before.first)
        return strprintf(
            "t%u resynced the timebase although it had found a thread bit set (not the first "
            "awake)",
            t);
      return strprintf(
          "t%u resynced the timebase although it is not the first awake: the word shows%s "
          "awake (thread bits %s)",
          t, awake.c_str(), bits(c.threads, s.word).c_str());
    }
    case Finding::bug:
      return strprintf("%sa kernel assertion fired in t%u: %s", pre, t,
                       tr && tr->result.what ? tr->result.what : "?");
    case Finding::starvation:
      return "a woken thread never returns to running on a strongly fair cycle";
    case Finding::none:
      break;
  }
  return "?";
}

}  // namespace idlespec::idle_core::mc
