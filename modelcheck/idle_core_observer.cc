#include "modelcheck/idle_core_observer.h"

#include <initializer_list>

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
         Pc::restore_subcore, Pc::unlock_load, Pc::unlock_cmpxchg, Pc::unlock_lock});
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

oracle::Phase phase_of(const ThreadState& th) {
  switch (th.pc) {
    case Pc::running:
      return oracle::Phase::running;
    case Pc::p8_entry_lock:
    case Pc::p8_entry_load:
    case Pc::p8_entry_store:
    case Pc::p8_entry_apply_wa:
    case Pc::p8_entry_winkle:
    case Pc::p8_entry_unlock:
    case Pc::p9_entry_clear:
    case Pc::idle_insn:
      return oracle::Phase::entering;
    case Pc::hw_idle:
      return oracle::Phase::hw_idle;
    default:
      return oracle::Phase::waking;
  }
}

oracle::Oracle::Snapshot snapshot(const Config& c, const CoreState& s) {
  oracle::Oracle::Snapshot o;
  for (unsigned t = 0; t < c.threads; ++t) {
    o.phase[t] = phase_of(s.th[t]);
    o.kind[t] = s.th[t].kind;
    o.lost[t] = s.th[t].lost;
  }
  o.tb_valid = s.ghost.tb_valid;
  o.wa_applied = s.ghost.wa_applied;
  o.core_regs = s.ghost.core_regs_valid;
  o.subcore_regs = s.ghost.subcore_regs_valid;
  o.thread_regs = s.ghost.thread_regs_valid;
  return o;
}

namespace {
// The program-point ranges thread t is in: bit t of holders, cleared, counted.
void mark(const Config& c, const Shape& shape, unsigned t, const ThreadState& th,
          uint32_t (&marks)[3]) {
  const unsigned pc = static_cast<unsigned>(th.pc);
  const uint32_t bit = 1u << t;
  marks[0] = (marks[0] & ~bit) | (((holds_mask(shape) >> pc) & 1u) << t);
  marks[1] = (marks[1] & ~bit) |
             ((touches_word(th.kind) && ((cleared_mask(c, shape) >> pc) & 1)) ? bit : 0);
  marks[2] = (marks[2] & ~bit) | ((th.kind == Kind::p8_winkle && ((kInCount >> pc) & 1)) ? bit : 0);
}

oracle::Oracle::Seen seen_of(const Config& c, const Transition* tr, const CoreState& after,
                             const uint32_t (&marks)[3], size_t move_number) {
  oracle::Oracle::Seen seen;
  seen.move_number = move_number;
  seen.holders_known = seen.cleared_known = true;
  seen.holders = marks[0];
  seen.cleared = marks[1];
  seen.counted_known = !c.power9();
  seen.counted = static_cast<unsigned>(__builtin_popcount(marks[2]));
  if (!tr || tr->move.kind == MoveKind::core_loss) return seen;
  if (tr->result.event == Event::restore_thread) {
    seen.saved_known = true;
    seen.saved = tr->before.sprs_saved;
  }
  if (tr->result.event == Event::resync_tb) {
    seen.found_known = true;
    seen.found_awake = !tr->before.first;
    if (!c.power9()) {
      seen.decided_known = true;
      seen.decided = after.word;
    }
  }
  return seen;
}
}  // namespace

oracle::Oracle::Seen seen_in(const Config& c, const Shape& shape, const Transition* tr,
                             const CoreState& after, size_t move_number) {
  uint32_t marks[3] = {0, 0, 0};
  for (unsigned t = 0; t < c.threads; ++t) mark(c, shape, t, after.th[t], marks);
  return seen_of(c, tr, after, marks, move_number);
}

void Judge::at(const CoreState& before) {
  snap_ = snapshot(c_, before);
  for (uint32_t& m : marks_) m = 0;
  for (unsigned t = 0; t < c_.threads; ++t) mark(c_, shape_, t, before.th[t], marks_);
}

const oracle::Violations& Judge::move(const Transition& tr, const CoreState& after,
                                      size_t move_number) {
  out_.clear();
  oracle_.set_quiet(quiet_);
  oracle_.restart(snap_, move_number);
  // Only the moving thread's program point changed (a core loss moves none).
  uint32_t marks[3] = {marks_[0], marks_[1], marks_[2]};
  if (tr.move.kind != MoveKind::core_loss) {
    mark(c_, shape_, tr.move.thread, after.th[tr.move.thread], marks);
  }
  oracle_.observe_all(tr, after.word, seen_of(c_, &tr, after, marks, move_number), out_);
  return out_;
}

const oracle::Violations& Judge::state(const CoreState& s) {
  out_.clear();
  oracle_.set_quiet(false);
  oracle_.restart(snapshot(c_, s), 1);
  oracle_.judge_state(s.word, seen_in(c_, shape_, nullptr, s, 0), out_);
  return out_;
}

oracle::Verdict Judge::stuck(const CoreState& s) {
  oracle_.set_quiet(false);
  oracle_.restart(snapshot(c_, s), 1);
  return oracle_.stuck();
}

}  // namespace idlespec::idle_core::mc
