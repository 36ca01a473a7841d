// The clause judges of spec/idle_core.md over the explicit states and
// transitions of impl/idle_core_model.h, for the model checker
// (modelcheck/idle_core_checker.h) and anything else that walks the model.
//
// A judge answers with a Finding code, cheap to compute on every transition;
// clause_of() names the clause it belongs to on the configuration at hand and
// finding_text() says what went wrong, for people. The program-point ranges
// the judges derive their expectations from:
//
//   holds the lock (IDLE-1, IDLE-7)
//     from a successful test-and-set (p8_entry_lock, p8_wake_lock, loss_lock)
//     to the step that releases it (p8_entry_unlock, the successful
//     unlock_cmpxchg): p8_entry_load and p8_entry_store (only when the subject
//     clears under the lock), p8_entry_apply_wa, p8_entry_winkle,
//     p8_entry_unlock, p8_wake_winkle, p8_loss_winkle, loss_check, the
//     first-thread duties (restore_core, p8_undo_wa, resync_tb,
//     restore_subcore), unlock_load, unlock_cmpxchg. Not: resync_tb_late and
//     restore_thread (after the release).
//
//   between "clear own bit" and "set own bit" (IDLE-2, IDLE-7)
//     only for the kinds that touch the word (POWER8 sleep/winkle, POWER9
//     deep/tb-loss stops; nap and shallow stop never clear the bit). The clear
//     is p8_entry_store (POWER8) or p9_entry_clear (POWER9); the set is the
//     successful unlock_cmpxchg or p9_wake_set. So the range is every pc after
//     the clear up to and including unlock_cmpxchg / p9_wake_set:
//       POWER8, clear under the lock: p8_entry_apply_wa .. unlock_cmpxchg
//         (not p8_entry_lock, p8_entry_load, p8_entry_store).
//       POWER8, clear before the lock (the ClearOutsideLock witness): the
//         clear at p8_entry_store is followed by p8_entry_lock, which is then
//         in the range; p8_entry_load and p8_entry_store are not.
//       POWER9: idle_insn .. unlock_cmpxchg (not p9_entry_clear).
//     Never in range: running, resync_tb_late, restore_thread.
//
//   in the winkle count (IDLE-5)
//     kind winkle, from the step after p8_entry_winkle (count+1) to the step
//     p8_wake_winkle or p8_loss_winkle (count-1) included: p8_entry_unlock,
//     idle_insn, hw_idle, p8_wake_lock, p8_wake_winkle, loss_lock,
//     p8_loss_winkle.
//
//   on the wake path (IDLE-8)
//     from the hardware wake-up to the return to running: p8_wake_lock ..
//     restore_thread (every pc from p8_wake_lock on in the Pc order).
//
// Kernel assertions (Event::bug, "no kernel assertion fires") are reported as
// the clause whose invariant the assertion guards, see clause_of_bug():
//   BUG_ON(!(*state & thread)) on entry, WARN_ON(*state & thread) on wake,
//     BUG_ON(s & thread)                                       -> IDLE-2
//   BUG_ON(!(s & PNV_CORE_IDLE_LOCK_BIT))                      -> IDLE-1
//   WARN_ON: winkle count wrapped to 0, WARN_ON: winkle count 0 on wake,
//     BUG_ON(!sprs_saved)                                      -> IDLE-5
//   the model's own misuse assertions (begin_idle not allowed, wake not in
//     hardware idle, state loss after nap, unknown pc)         -> IDLE-1
// On POWER9 every safety clause above is reported as IDLE-7 (its POWER9
// form); IDLE-4 and the winkle count do not apply there.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "impl/idle_core.h"
#include "impl/idle_core_model.h"

namespace idlespec::idle_core::mc {

// What the judges need to know of the subject's program order.
struct Shape {
  bool clear_under_lock = true;  // Subject::clear_under_lock
  template <class Subject>
  static Shape of() {
    return Shape{Subject::clear_under_lock};
  }
};

enum class Finding : uint8_t {
  none = 0,
  // IDLE-1 / IDLE-7 (POWER9)
  lock_holders,  // more than one thread in a lock-holding program point
  lock_bit,      // lock bit set without a holder, or clear with one
  deadlock,      // no enabled move changes the state
  // IDLE-2 / IDLE-7
  thread_bits,  // lock free and thread bits != threads not in hardware idle
  // IDLE-3 / IDLE-7
  tb_on_return,  // a thread returned to running with the timebase invalid
  // IDLE-4
  wa_on_loss,  // core loss with the workaround enabled but not applied
  // IDLE-5 (count: POWER8 only) / IDLE-7 (registers)
  winkle_count,     // count != threads between count+1 and count-1, or > threads
  core_regs,        // a thread returned with the per-core registers lost
  thread_regs,      // a thread returned with its per-thread registers lost
  restore_unsaved,  // per-thread registers restored that were never saved
  // IDLE-6
  subcore_regs,  // a thread returned with its subcore's registers lost
  // IDLE-9
  resync_not_first,  // a resync by a thread that found a thread bit set, or while
                     // another thread's bit is set
  // any: a kernel assertion (clause by clause_of_bug)
  bug,
  // IDLE-8
  starvation,  // a fair cycle in which a woken thread never returns
};
inline constexpr unsigned kFindingCount = static_cast<unsigned>(Finding::starvation) + 1;

// Program-point ranges (see the file comment).
bool holds_lock(const Shape& shape, const ThreadState& th);
bool touches_word(Kind k);  // sleep, winkle, deep stop, tb-loss stop
bool bit_cleared(const Config& c, const Shape& shape, const ThreadState& th);
bool in_winkle_count(const ThreadState& th);
bool on_wake_path(const ThreadState& th);

// The clause a finding belongs to on this configuration ("IDLE-1" ...).
// Findings about kernel assertions use clause_of_bug.
std::string_view clause_of(const Config& c, Finding f);
std::string_view clause_of_bug(const Config& c, const char* what);

// A set of findings: bit f = Finding f.
using Findings = uint32_t;
inline constexpr Findings finding_bit(Finding f) { return Findings{1} << static_cast<unsigned>(f); }

// The state judges: lock (holders, bit), thread bits, winkle count.
Findings judge_state(const Config& c, const Shape& shape, const CoreState& s);

// The transition judges: returns while something is invalid, the core loss
// without the workaround, unsaved restores, resyncs by a thread that was not
// first, kernel assertions. `after` is the state the transition led to.
Findings judge_transition(const Config& c, const Transition& tr, const CoreState& after);

// One line for people: what the finding means, for this state / transition.
std::string finding_text(const Config& c, const Shape& shape, Finding f, const CoreState& s,
                         const Transition* tr);

}  // namespace idlespec::idle_core::mc
