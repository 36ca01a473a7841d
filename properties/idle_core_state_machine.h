// The RapidCheck state machine of spec/idle_core.md: property
// idle_core_state_machine (IDLE-2, 3, 4, 5, 6, 9).
//
// Commands, one atomic move each:
//
//   EnterIdle{thread, kind}  a running thread begins to idle (nap, sleep,
//                            winkle; POWER9: shallow, deep, timebase-loss stop)
//   Step{thread}             a thread entering idle or on its wake path takes
//                            one atomic step (a spin on the lock is a step)
//   Wake{thread}             the hardware wakes a thread in hardware idle
//   HardwareLoses{}          the core enters its state-loss state (every
//                            thread in hardware idle in a state-loss kind)
//
// The model is the oracle (oracle/idle_core.h): its phases give the
// preconditions. The oracle's phases move by what the implementation reports
// (a step may or may not reach the idle instruction or running), so the model
// carries a shadow of the implementation too, advanced by apply() with the
// same moves. run() drives the implementation under test
// (impl/idle_core_model.h apply<Subject>) and its own oracle in lockstep and
// fails with the clause the oracle names ("IDLE-3: move 14: ..."). RapidCheck
// shrinks to the shortest failing command sequence; the verdict shows it and
// its timeline (one column per hardware thread, one row per move).
//
// The state machine runs once per configuration (POWER8 SMT2, SMT4, SMT4
// split 2x2; POWER9 SMT2), each with the seed, the case count and a share of
// the time budget of verify::RunOptions.
#pragma once

#include <rapidcheck.h>
#include <rapidcheck/state.h>

#include <memory>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "impl/idle_core.h"
#include "impl/idle_core_model.h"
#include "oracle/idle_core.h"
#include "properties/run_property.h"
#include "verify/registry.h"

namespace idlespec::props::idle_core_sm {

using idle_core::Config;
using idle_core::CoreState;
using idle_core::Kind;
using idle_core::Move;
using idle_core::MoveKind;
namespace oracle = idle_core::oracle;

// What the last failing run saw. RapidCheck accepts a shrink only when it
// fails, so the last failing run is the shrunk counterexample.
struct Failure {
  std::string clause;
  std::string message;
  std::vector<std::string> commands;
  std::string timeline;
};

// "EnterIdle{t0, sleep}", "Step{t1}", "Wake{t0}", "HardwareLoses{}"
std::string command_text(const Move& m);

struct Model {
  Config config;
  oracle::Oracle oracle;
  CoreState shadow;  // the implementation, run ahead by apply()
};

struct Sut {
  Config config;
  oracle::Oracle oracle;
  CoreState impl;
  std::vector<oracle::Row> rows;
  Failure* failure = nullptr;
};

using Cmd = rc::state::Command<Model, Sut>;
using CmdPtr = std::shared_ptr<const Cmd>;

// One command of subject `Subject`: a move, its precondition from the
// oracle's phases, the shadow's advance, and the lockstep run.
template <class Subject>
class IdleCommand : public Cmd {
 public:
  explicit IdleCommand(Move m) : move_(m) {}

  void checkPreconditions(const Model& m) const override {
    switch (move_.kind) {
      case MoveKind::begin_idle:
        RC_PRE(m.oracle.may_begin_idle(move_.thread));
        break;
      case MoveKind::step:
        RC_PRE(m.oracle.may_step(move_.thread));
        break;
      case MoveKind::wake:
        RC_PRE(m.oracle.may_wake(move_.thread));
        break;
      case MoveKind::core_loss:
        RC_PRE(m.oracle.loss_possible() != idle_core::Loss::none);
        break;
    }
  }

  void apply(Model& m) const override {
    const idle_core::Transition tr = idle_core::apply<Subject>(m.config, m.shadow, move_);
    m.oracle.observe(tr, m.shadow.word);
  }

  void run(const Model&, Sut& sut) const override {
    const idle_core::Transition tr = idle_core::apply<Subject>(sut.config, sut.impl, move_);
    sut.rows.push_back({tr, sut.impl.word});
    const oracle::Verdict v = sut.oracle.observe(tr, sut.impl.word);
    if (v.ok()) return;
    if (sut.failure != nullptr) {
      Failure& f = *sut.failure;
      f.clause = v.clause;
      f.message = v.message;
      f.commands.clear();
      for (const oracle::Row& row : sut.rows) f.commands.push_back(command_text(row.tr.move));
      f.timeline =
          oracle::render_timeline(sut.config, sut.rows, sut.rows.size(), v.clause + " violated");
    }
    RC_FAIL(v.clause + ": " + v.message);
  }

  void show(std::ostream& os) const override { os << command_text(move_); }

 private:
  Move move_;
};

// The commands enabled in `m`, weighted towards getting every thread into
// hardware idle and the core to lose state, then waking them: steps 16, the
// deepest kind 5, sleep and deep stop 3, nap and shallow stop 1, a wake-up 1 (12 after a loss),
// the loss 40.
template <class Subject>
rc::Gen<CmdPtr> next_command(const Model& m) {
  std::vector<std::pair<size_t, Move>> choices;
  for (unsigned t = 0; t < m.config.threads; ++t) {
    const auto tt = static_cast<uint8_t>(t);
    if (m.oracle.may_begin_idle(t)) {
      const auto kinds = m.oracle.kinds();
      for (size_t i = 0; i < kinds.size(); ++i) {
        choices.push_back({i == 0 ? 1 : i == 1 ? 3 : 5, Move{MoveKind::begin_idle, tt, kinds[i]}});
      }
    } else if (m.oracle.may_step(t)) {
      choices.push_back({16, Move{MoveKind::step, tt, Kind::none}});
    } else if (m.oracle.may_wake(t)) {
      const bool lost = m.oracle.lost(t) != idle_core::Loss::none;
      choices.push_back({lost ? 12u : 1u, Move{MoveKind::wake, tt, Kind::none}});
    }
  }
  if (m.oracle.loss_possible() != idle_core::Loss::none) {
    choices.push_back({40, Move{MoveKind::core_loss, 0, Kind::none}});
  }
  size_t total = 0;
  for (const auto& c : choices) total += c.first;
  return rc::gen::noShrink(rc::gen::map(
      rc::gen::resize(100, rc::gen::inRange<size_t>(0, total)), [choices](size_t pick) {
        for (const auto& [weight, move] : choices) {
          if (pick < weight) return CmdPtr(std::make_shared<IdleCommand<Subject>>(move));
          pick -= weight;
        }
        return CmdPtr(std::make_shared<IdleCommand<Subject>>(choices.back().second));
      }));
}

// One RapidCheck case: a command sequence from the initial state of `c`, as
// rc::state::check runs it, but up to `threads` x the size long (RapidCheck's
// size is at most 100 commands; an SMT4 core needs ~30 to lose state once).
template <class Subject>
void state_machine_body(const Config& c, Failure& failure) {
  const Model init{c, oracle::Oracle(c), idle_core::initial_state(c)};
  Sut sut{c, oracle::Oracle(c), idle_core::initial_state(c), {}, &failure};
  const auto commands = *rc::gen::scale(static_cast<double>(c.threads),
                                        rc::state::gen::commands(init, &next_command<Subject>));
  rc::state::runAll(commands, init, sut);
}

// The configurations the registered check runs: POWER8 SMT2, SMT4, SMT4
// split 2x2, POWER9 SMT2.
const std::vector<Config>& state_machine_configs();

// The clauses of idle_core_state_machine: IDLE-2, 3, 4, 5, 6, 9.
const std::vector<std::string>& state_machine_clauses();

// Merges the per-configuration verdicts: fail if a configuration failed
// (violated: the clauses the oracle named; every clause if it named one
// outside the check's list), unknown if one neither passed nor failed.
struct ConfigVerdict {
  Config config;
  verify::CheckResult result;
  Failure failure;
};
verify::CheckResult merge_configs(const std::vector<ConfigVerdict>& verdicts,
                                  const verify::RunOptions& options);

// idle_core_state_machine for `Subject`, per configuration.
template <class Subject>
verify::CheckResult run_state_machine(
    std::string_view subject, const verify::RunOptions& options,
    const std::vector<Config>& configs = state_machine_configs()) {
  verify::RunOptions each = options;
  each.budget_seconds =
      options.budget_seconds / static_cast<double>(configs.empty() ? 1 : configs.size());
  std::vector<ConfigVerdict> verdicts;
  for (const Config& c : configs) {
    ConfigVerdict v{c, {}, {}};
    Failure* failure = &v.failure;
    v.result = run_property("idle_core_state_machine", subject, state_machine_clauses(), each,
                            [c, failure] { state_machine_body<Subject>(c, *failure); });
    verdicts.push_back(std::move(v));
  }
  return merge_configs(verdicts, options);
}

// The check as verify runs it: subject "reference".
verify::CheckResult run_idle_core_state_machine(std::string_view subject,
                                                const verify::RunOptions& options);

}  // namespace idlespec::props::idle_core_sm
