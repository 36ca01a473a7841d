// The idle_core oracle: spec/idle_core.md as an abstract model of duties and
// episodes, independent of the protocol it judges.
//
// It shares no code with impl/idle_core.h's step function or
// impl/idle_core_model.h's apply: it never reads a thread's program point or
// locals, nor the model's ghost state, nor calls duty_applies / next_pc /
// core_loss_level. What it consumes is what an observer of the core sees:
//
//   - the move (which thread; begin idle with which kind, a step, a hardware
//     wake-up, or a core loss and the level the hardware inflicted),
//   - what the step did (Event: a duty performed, the idle instruction, a
//     wake-up, a kernel assertion) and whether the thread returned to running,
//   - the word after the move (IDLE-2 and the winkle count of IDLE-5 are
//     statements about the word).
//
// What it keeps, written from the spec's prose:
//
//   per thread  its phase (running; entering idle; in hardware idle; on the
//               wake path), the kind it chose, the loss it suffered in this
//               idle period; on the wake path, whether every state of the word
//               since it woke had a thread bit set (then whatever it read, it
//               found a bit set). A thread running, or idle in a kind that
//               never touches the word (nap, shallow stop), is *certainly
//               awake*: by IDLE-2 its bit is set whenever the lock is free
//   per core    is the timebase valid; is the fastsleep workaround in effect;
//               which registers hold their values (per-core, per-subcore of
//               each subcore, per-thread of each thread)
//
// and the duties it derives: a loss that loses the timebase owes a resync
// (POWER8: every loss, fastsleep and winkle; POWER9: the timebase-loss
// level); a full winkle owes the per-core, per-subcore and per-thread
// registers; a POWER9 deep stop the per-core and per-thread registers. Its
// verdicts:
//
//   IDLE-2  after every move, if the lock is free: a certainly-awake thread
//           has its bit set; a thread in hardware idle in sleep, winkle or a
//           deep stop has it clear; no bit beyond the core's threads is set
//   IDLE-3  a thread returns to running only with the timebase valid
//   IDLE-4  POWER8 with the workaround on: a core loss only with it applied
//   IDLE-5  POWER8: the winkle count lies between the winkle threads surely
//           counted (in hardware idle) and those possibly counted (entering,
//           in hardware idle, waking), and never above the threads per core;
//           a thread returns only with the per-core registers restored and,
//           after a full winkle, its own per-thread registers restored
//   IDLE-6  POWER8: a thread returns only with its subcore's registers restored
//   IDLE-7  POWER9: a thread returns only with its own registers restored
//           (checked here as well; the registered checks name IDLE-7 only
//           through the model checker)
//   IDLE-9  a resync by a thread none of whose possible reads (the states
//           of the word since it woke) had every thread bit clear: it found a
//           bit set, so it is not the first awake
//
// Kernel assertions (Event::bug) are observable events too: each is charged
// to the clause whose invariant it guards (the lock bit: IDLE-1; the winkle
// count or the saved registers: IDLE-5; a thread bit: IDLE-2); one that
// names none of them is clause "model" (a harness reports it as its
// platform's catch-all: POWER8 IDLE-1, POWER9 IDLE-7). A move the spec's model does not allow
// (a step of a running thread, a loss while a thread is awake, a loss at a
// level the kinds do not give) is reported as clause "model": the harness
// and the implementation's model disagree, not a clause.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "impl/idle_core.h"
#include "impl/idle_core_model.h"
#include "oracle/violation.h"

namespace idlespec::idle_core::oracle {

// The verdict on one move: the shared violation type, empty (ok()) when the
// move is allowed; clause "IDLE-3", ..., or "model"; message "move 12: t1
// returned to running with the timebase invalid ...".
using Verdict = idlespec::oracle::Violation;

enum class Phase : uint8_t { running, entering, hw_idle, waking };
const char* phase_name(Phase p);

class Oracle {
 public:
  explicit Oracle(const Config& c);

  const Config& config() const { return config_; }
  // The preconditions of the moves, from the oracle's phases.
  Phase phase(unsigned t) const { return th_[t].phase; }
  bool may_begin_idle(unsigned t) const { return th_[t].phase == Phase::running; }
  bool may_step(unsigned t) const {
    return th_[t].phase == Phase::entering || th_[t].phase == Phase::waking;
  }
  bool may_wake(unsigned t) const { return th_[t].phase == Phase::hw_idle; }
  // The loss thread t suffered since its idle instruction.
  Loss lost(unsigned t) const { return th_[t].lost; }
  // The level of loss the core may inflict now (every thread in hardware idle
  // in a state-loss kind; full when every one is in the deepest kind), or
  // Loss::none when it cannot or when no thread would lose more than it has.
  Loss loss_possible() const;
  // The kinds a running thread may choose on this platform.
  std::array<Kind, 3> kinds() const;

  // Judges one move of the implementation; `word_after` is the word after
  // it (the lock bit set when the lock is held, wherever the code keeps
  // it). The first violation is also kept (first_violation()).
  Verdict observe(const Transition& tr, uint32_t word_after);

  // What an observer of the real C sees besides the move (validate's
  // harness instruments every operation on the word; the model's observers
  // pass nothing): the word the thread decided on before it resynced (the
  // word after its last successful lock, else after its last operation on
  // the word). IDLE-9 is then judged on that word: another thread's bit in
  // it means the thread found a thread awake. Without it, on the states of
  // the word since the thread woke.
  // `move_number` (from 1; 0: the oracle counts its observations): the
  // observer's own numbering of moves, which the messages then use (an
  // observer that reports several actions of one move, or none for a move
  // that did nothing the oracle sees).
  struct Seen {
    bool decided_known = false;
    uint32_t decided = 0;
    size_t move_number = 0;
  };
  Verdict observe(const Transition& tr, uint32_t word_after, const Seen& seen);

  // Real code restores registers by writing them, not by a duty the oracle
  // could see: an observer that sees the register file says which sets hold
  // their values now (the per-core set; bit k: subcore k's; bit t: thread
  // t's). A set that stops holding is lost at this move. The model's
  // observers never call it (their restore_* events and the losses say it).
  void observe_registers(bool core, uint32_t subcore_mask, uint32_t thread_mask);
  // Moves observed so far; the last one observed is number moves().
  size_t moves() const { return n_; }
  const Verdict& first_violation() const { return first_; }
  size_t first_violation_move() const { return first_at_; }

 private:
  struct ThreadView {
    Phase phase = Phase::running;
    Kind kind = Kind::none;
    Loss lost = Loss::none;  // suffered in the current idle period
    size_t woke_at = 0;      // the hardware woke it at this move
    // Since it woke (on the wake path): every state of the word had a thread
    // bit set; the bits set in all of them.
    bool never_empty = false;
    uint32_t set_throughout = 0;
  };
  struct CoreView {
    bool tb_valid = true;
    size_t tb_lost_at = 0;  // the loss that invalidated it
    bool wa_applied = false;
    bool core_regs = true;
    size_t core_lost_at = 0;
    std::array<bool, kMaxThreads> subcore_regs{};
    std::array<bool, kMaxThreads> thread_regs{};
    size_t regs_lost_at = 0;  // the last loss that lost per-subcore or per-thread registers
  };

  bool word_kind(Kind k) const;     // sleep, winkle, deep stops: touch the word
  bool deepest_kind(Kind k) const;  // winkle, tb-loss stop: a full loss when all are
  bool certainly_awake(unsigned t) const;
  unsigned subcore(unsigned t) const;  // the spec's split-core geometry
  Verdict judge_loss(const Transition& tr);
  Verdict judge_thread(const Transition& tr, const Seen& seen);
  Verdict judge_return(unsigned t);
  Verdict judge_word(uint32_t word) const;
  Verdict violation(const char* clause, std::string message) const;

  Config config_;
  std::array<ThreadView, kMaxThreads> th_{};
  CoreView core_;
  size_t n_ = 0;
  Verdict first_;
  size_t first_at_ = 0;
};

// --- timelines ---------------------------------------------------------------

// One row per atomic move: the move, what it did, and the word after it.
struct Row {
  Transition tr;
  uint32_t word_after = 0;
};

// A timeline a reviewer can follow: one column per hardware thread, a column
// for the core (losses), the word after each move; `mark` (1-based, 0: none)
// flags the row with `note`. At most `max_rows` rows: the first few and the
// last ones, around an ellipsis.
std::string render_timeline(const Config& c, const std::vector<Row>& rows, size_t mark,
                            const std::string& note, size_t max_rows = 200);
// What one row shows in its thread's column ("begin sleep", "resync_tb",
// "wakes", "unlock_cmpxchg: spin", "-> running").
std::string describe_cell(const Transition& tr);

}  // namespace idlespec::idle_core::oracle
