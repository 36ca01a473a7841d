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
using Violations = idlespec::oracle::Violations;

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
  //
  // An observer that sees the threads' program points (the model checker,
  // which walks impl/idle_core_model.h's explicit states) sees more, and the
  // oracle then judges the exact forms of the clauses:
  //   holders   the threads holding the lock after the move (IDLE-1: at most
  //             one; the lock bit set exactly while one does; no thread
  //             returns to running holding it). validate's harness sees it
  //             too: a thread holds the lock from its successful
  //             test_and_set_bit_lock until it writes the lock bit clear.
  //   cleared   the threads between "clear own bit" and "set own bit" after
  //             the move (IDLE-2: while the lock is free the thread bits are
  //             exactly the others)
  //   counted   the threads between their count+1 and count-1 (IDLE-5: the
  //             winkle count equals their number)
  //   found     for a resync: the thread's decision, whether it found a
  //             thread bit set (IDLE-9: then it is not the first awake)
  //   saved     for a restore of per-thread registers: whether the thread
  //             had saved them on entry (IDLE-5: it restores what it saved)
  //
  // word_known false: the observer could not read the word at this move
  // (the stress test over a non-atomic word, whose read would race with the
  // threads' writes); `word_after` is ignored and only the move is judged.
  struct Seen {
    bool word_known = true;
    bool decided_known = false;
    uint32_t decided = 0;
    size_t move_number = 0;
    bool holders_known = false;
    uint32_t holders = 0;
    bool cleared_known = false;
    uint32_t cleared = 0;
    bool counted_known = false;
    unsigned counted = 0;
    bool found_known = false;
    bool found_awake = false;
    bool saved_known = false;
    bool saved = false;
  };
  Verdict observe(const Transition& tr, uint32_t word_after, const Seen& seen);
  // Every violation of the move, not only the first: appended to `out`
  // (which the caller may reuse without allocating). observe() is this,
  // keeping the first.
  void observe_all(const Transition& tr, uint32_t word_after, const Seen& seen, Violations& out);
  // The state before any move (the initial word, with what the observer
  // sees of it), judged as the word after a move is. An observer that
  // reports only some moves (validate's harness reports a move when the
  // code does something the oracle's model names) judges the state after
  // each of the others with it.
  void judge_state(uint32_t word, const Seen& seen, Violations& out) const;
  // A plain store by thread `t` changed the word from `before` to `after`
  // (validate's harness: the real C's read-modify-writes, POWER8's under
  // the lock); `holders` as in Seen. Its load and its store are two steps,
  // so without the lock another thread's update between them is lost: a
  // change to the thread bits breaks IDLE-2, to the winkle count or the
  // winkle bits (POWER8) IDLE-5. Appended to `out`.
  void observe_store(unsigned t, uint32_t before, uint32_t after, uint32_t holders,
                     Violations& out) const;
  // No enabled move changes the state and some thread is not running: every
  // thread is stuck (IDLE-1: no reachable state leaves every thread unable
  // to move). An observer that explores the moves reports it.
  Verdict stuck() const;
  // The same, with what it means for the threads on their wake path: each
  // is woken and can never return (IDLE-8 at a deadlock). Appended to `out`.
  void stuck_all(Violations& out) const;

  // What the oracle keeps, for observers that keep the state themselves and
  // judge one move at a time from any state (the model checker): restart()
  // puts the oracle in the state `s` describes, with `move_number` the
  // number of the next move for the messages. What the oracle learns only
  // along a path (when a register set was lost, the states of the word since
  // a thread woke) is then unknown: the observer says it in Seen.
  struct Snapshot {
    std::array<Phase, kMaxThreads> phase{};
    std::array<Kind, kMaxThreads> kind{};
    std::array<Loss, kMaxThreads> lost{};
    bool tb_valid = true;
    bool wa_applied = false;
    bool core_regs = true;
    uint32_t subcore_regs = ~0u;  // bit k: subcore k's
    uint32_t thread_regs = ~0u;   // bit t: thread t's
  };
  void restart(const Snapshot& s, size_t move_number);
  // Quiet: violations name their clause with an empty message (an observer
  // that judges millions of moves and explains only the first of each
  // clause, judged again loudly).
  void set_quiet(bool quiet) { quiet_ = quiet; }

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
  // The state judges append what they find (nothing is built when it holds).
  void judge_lock(uint32_t word, const Seen& seen, Violations& out) const;
  void judge_bits(uint32_t word, const Seen& seen, Violations& out) const;
  void judge_count(uint32_t word, const Seen& seen, Violations& out) const;
  // The verdict of `clause`, its message made by make() unless quiet (the
  // model checker judges millions of moves and wants the clause only).
  template <class Make>
  Verdict violation(const char* clause, Make&& make) const {
    if (quiet_) return Verdict(clause, std::string());
    return violation_text(clause, make());
  }
  Verdict violation_text(const char* clause, std::string message) const;

  Config config_;
  bool quiet_ = false;
  std::array<ThreadView, kMaxThreads> th_{};
  CoreView core_;
  size_t n_ = 0;
  Verdict first_;
  size_t first_at_ = 0;
};

// The clauses a verdict is charged to on this platform. POWER9's IDLE-7 is
// the POWER9 form of IDLE-1's lock part, IDLE-2 and IDLE-3: a POWER9
// violation of those is IDLE-7's too, and any other POWER9 violation but
// IDLE-8's, IDLE-9's and IDLE-10's (a register set, an assertion) is IDLE-7's. The oracle's "model"
// (a move its model does not allow, an assertion that guards no clause) is
// the platform's catch-all: POWER8 IDLE-1 (a thread that cannot go on),
// POWER9 IDLE-7. Bit n: IDLE-n.
uint32_t charged_clauses(const Config& c, const Verdict& v);

// --- IDLE-8: liveness under strong fairness -----------------------------------
//
// An explorer that finds a cycle of moves judges it here: the model checker
// an SCC of the state graph in which a thread stays on its wake path,
// validate's harness a schedule that reaches a whole state it had before.
// Each move carries a fairness obligation, the explorer's label for it (the
// checker: the thread, the kind of move and whether a step spun; the
// harness: the thread that moves, the hardware's wake-up counted as the
// woken thread's). `enabled`: the obligations of the moves enabled at some
// state of the cycle; `taken`: those of the moves inside it.
struct Obligations {
  uint64_t w[4] = {0, 0, 0, 0};  // at most 256 labels
  void set(unsigned i) { w[i >> 6] |= uint64_t{1} << (i & 63); }
  bool test(unsigned i) const { return (w[i >> 6] >> (i & 63)) & 1; }
  bool any() const { return (w[0] | w[1] | w[2] | w[3]) != 0; }
};
// What the cycle leaves unmet: enabled in it and never taken in it (none:
// the cycle is strongly fair; a run that stays in it visits the states that
// enable an unmet one only finitely often).
Obligations unmet(const Obligations& enabled, const Obligations& taken);
// IDLE-8: the cycle is strongly fair and some thread stays inside the
// function throughout it (bit t of `inside`: entering idle or on its wake
// path), so a fair run goes round it forever and that thread never returns.
bool breaks_idle8(const Obligations& enabled, const Obligations& taken, uint32_t inside);

// --- IDLE-10: data races ---------------------------------------------------------

// One access to an idle word, as a race detector reports it: which thread,
// a store or a load, plain (a C access: `*state &= ~thread` is a plain load
// and a plain store) or marked (READ_ONCE, WRITE_ONCE, atomics, bitops,
// cmpxchg), and where (the program point or the line); `lock_op` when it is
// the lock's own operation (test_and_set_bit_lock, clear_bit_unlock).
struct Access {
  unsigned thread = 0;
  bool store = false;
  bool plain = false;
  bool lock_op = false;
  std::string where;
};
// IDLE-10, as LKMM defines a data race: `now` and `earlier` touch the same
// word (`word`: "the state word", "the lock word"), from different threads,
// and happens-before does not order them (the explorer's finding). A race
// when at least one is a store and at least one is plain; else ok(). A race
// between a plain access and the lock's operations on one word is the one
// b0c5b4f1ee36 removed by moving the lock into paca->idle_lock (v6.5): the
// message names it.
Verdict data_race(const std::string& word, const Access& now, const Access& earlier,
                  size_t move_number);

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
