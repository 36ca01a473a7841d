// The idle_core protocol (impl/idle_core.h) as an explicit-state transition
// system: one core's word, its threads' program points and locals, and the
// ghost state of the hardware the protocol is about (is the timebase valid,
// is the fastsleep workaround in effect, which registers hold their values).
//
// A move is one atomic action: a thread steps, a running thread starts to
// idle, the hardware wakes a thread, or the core enters its state-loss state
// (possible once every thread is in hardware idle in a state-loss kind). The
// model checker, the RapidCheck state machine and the fuzz target all drive
// this; the clause predicates that judge it live with the checks.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "impl/idle_core.h"

namespace idlespec::idle_core {

// What the hardware state is, besides the word. Not read by the protocol.
struct Ghost {
  bool tb_valid = true;              // the core's timebase is valid
  bool wa_applied = false;           // the fastsleep workaround is in effect (POWER8)
  bool core_regs_valid = true;       // per-core registers hold their values
  uint8_t subcore_regs_valid = 0xf;  // bit k: per-subcore registers of subcore k
  uint8_t thread_regs_valid = 0xff;  // bit t: per-thread registers of thread t
  friend bool operator==(const Ghost&, const Ghost&) = default;
};

struct CoreState {
  uint32_t word = 0;
  std::array<ThreadState, kMaxThreads> th{};
  Ghost ghost;
  friend bool operator==(const CoreState&, const CoreState&) = default;
};

// All threads running, their bits set, nothing lost.
CoreState initial_state(const Config& c);

enum class MoveKind : uint8_t { begin_idle, step, wake, core_loss };
struct Move {
  MoveKind kind = MoveKind::step;
  uint8_t thread = 0;      // begin_idle, step, wake
  Kind idle = Kind::none;  // begin_idle: the kind chosen
  friend bool operator==(const Move&, const Move&) = default;
};
std::string describe(const Move& m);  // "t2 step", "t0 begin sleep", "core loses state"

// The level of state loss the core may inflict now, or Loss::none when it
// cannot (a thread is not in hardware idle, or in nap / a shallow stop) or
// when a loss would change nothing (every thread already lost that much).
Loss core_loss_level(const Config& c, const CoreState& s);

// Every move enabled in s, in a fixed order: per thread (begin_idle for each
// allowed kind | step | wake), then core_loss. A thread at a spin point is
// enabled (its step retries).
void enabled_moves(const Config& c, const CoreState& s, std::vector<Move>& out);

// The ghost-state effects of the protocol's actions (the Env of step()).
struct GhostEnv {
  const Config& config;
  Ghost& g;
  void apply_wa() { g.wa_applied = true; }
  void undo_wa() { g.wa_applied = false; }
  void resync_tb(unsigned, const ThreadState&) { g.tb_valid = true; }
  void restore_core() { g.core_regs_valid = true; }
  void restore_subcore(unsigned k) { g.subcore_regs_valid |= uint8_t(1u << k); }
  void restore_thread(unsigned t) { g.thread_regs_valid |= uint8_t(1u << t); }
  void enter_hw_idle(unsigned) {}
  void returned(unsigned, const ThreadState&) {}
};

// What a move did, for the judges: the result of the thread's action (if
// any), and the state of the moving thread and the ghost before it.
struct Transition {
  Move move;
  StepResult result;
  ThreadState before;  // the moving thread before the move (core_loss: unused)
  Ghost ghost_before;
  Loss loss = Loss::none;  // core_loss: the level inflicted
};

// Applies m to s (m must be enabled). The core loss: every thread's `lost`
// rises to the level; POWER8: the timebase is lost, and after a full winkle
// the per-core, per-subcore and per-thread registers; POWER9: per-core and
// per-thread registers, and the timebase at the deepest level.
// apply_with: the same on any Word (the weak-memory exploration's, which
// keeps the word elsewhere and leaves s.word to its caller).
template <class Subject, class Word>
Transition apply_with(const Config& c, CoreState& s, const Move& m, Word& w) {
  Transition tr;
  tr.move = m;
  tr.ghost_before = s.ghost;
  GhostEnv env{c, s.ghost};
  if (m.kind == MoveKind::core_loss) {
    const Loss level = core_loss_level(c, s);
    tr.loss = level;
    for (unsigned t = 0; t < c.threads; ++t) {
      if (s.th[t].lost < level) s.th[t].lost = level;
    }
    if (c.power9()) {
      s.ghost.core_regs_valid = false;
      s.ghost.thread_regs_valid = 0;
      if (level == Loss::full) s.ghost.tb_valid = false;
    } else {
      s.ghost.tb_valid = false;
      if (level == Loss::full) {
        s.ghost.core_regs_valid = false;
        s.ghost.subcore_regs_valid = 0;
        s.ghost.thread_regs_valid = 0;
      }
    }
    return tr;
  }
  ThreadState& th = s.th[m.thread];
  tr.before = th;
  switch (m.kind) {
    case MoveKind::begin_idle:
      tr.result = begin_idle<Subject>(c, th, m.idle);
      break;
    case MoveKind::wake:
      tr.result = wake<Subject>(c, m.thread, th, env);
      break;
    case MoveKind::step:
      tr.result = step<Subject>(c, m.thread, th, w, env);
      break;
    case MoveKind::core_loss:
      break;
  }
  return tr;
}

template <class Subject = Reference>
Transition apply(const Config& c, CoreState& s, const Move& m) {
  PlainWord w{s.word};
  const Transition tr = apply_with<Subject>(c, s, m, w);
  s.word = static_cast<uint32_t>(w.v);
  return tr;
}

// The word rendered for people: "threads 1011 lock winkle 2 wbits 0000".
std::string describe_word(const Config& c, uint32_t word);
// One line per thread: "t0 hw_idle winkle lost=full".
std::string describe_state(const Config& c, const CoreState& s);

}  // namespace idlespec::idle_core
