// The property idle_core_state_machine catches every broken protocol of
// tests/witnesses/idle_core_witnesses.h that its clauses rule out, naming the
// clause the oracle (oracle/idle_core.h) names first and showing the
// shrunk command sequence; the reference passes through the registry.
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <iostream>
#include <set>
#include <string>
#include <vector>

#include "properties/idle_core_state_machine.h"
#include "tests/witnesses/idle_core_witnesses.h"
#include "verify/registry.h"

namespace idlespec::idle_core::witness {
namespace {

namespace sm = props::idle_core_sm;
using verify::Outcome;

verify::RunOptions options(int cases = 300) {
  verify::RunOptions o = verify::RunOptions::unhurried();
  o.seed = 1;
  o.property_cases = cases;
  return o;
}

// The commands of the shrunk sequence of the first failing configuration
// (the counterexample's first line: "power8 SMT2: [EnterIdle{t0, sleep}, ...]").
std::vector<std::string> first_sequence(const verify::CheckResult& r) {
  const size_t open = r.counterexample.find('[');
  const size_t close = r.counterexample.find(']', open);
  std::vector<std::string> out;
  if (open == std::string::npos || close == std::string::npos) return out;
  const std::string body = r.counterexample.substr(open + 1, close - open - 1);
  size_t at = 0;
  while (at < body.size()) {
    size_t end = body.find("}, ", at);
    if (end == std::string::npos) end = body.size() - 1;
    out.push_back(body.substr(at, end + 1 - at));
    at = end + 3;
  }
  return out;
}

size_t count(const std::vector<std::string>& v, const std::string& prefix) {
  return static_cast<size_t>(std::count_if(
      v.begin(), v.end(), [&](const std::string& s) { return s.rfind(prefix, 0) == 0; }));
}

struct Witness {
  std::string name;
  std::set<std::string> violated;  // exactly
  std::string detail_has;          // in the detail (the oracle's message)
  // what the shrunk sequence must show
  std::function<void(const std::vector<std::string>&)> sequence;
  std::function<verify::CheckResult(const verify::RunOptions&)> run;
};

template <class W>
std::function<verify::CheckResult(const verify::RunOptions&)> runner() {
  return [](const verify::RunOptions& o) { return sm::run_state_machine<W>(W::name, o); };
}

std::vector<Witness> witnesses() {
  return {
      {"EveryThreadResyncs",
       {"IDLE-9"},
       "resynced the timebase, but no state of the word since it woke",
       [](const std::vector<std::string>& seq) {
         // A loss, a first thread back to running, a second thread woken.
         EXPECT_EQ(count(seq, "HardwareLoses{}"), 1u);
         EXPECT_EQ(count(seq, "Wake{"), 2u);
       },
       runner<EveryThreadResyncs>()},
      {"FirstSkipsResync",
       {"IDLE-3"},
       "returned to running with the timebase invalid",
       [](const std::vector<std::string>& seq) {
         EXPECT_EQ(count(seq, "HardwareLoses{}"), 1u);
         EXPECT_EQ(count(seq, "Wake{"), 1u);
       },
       runner<FirstSkipsResync>()},
      {"UnlockBeforeResync",
       {"IDLE-3"},
       "returned to running with the timebase invalid",
       [](const std::vector<std::string>& seq) {
         // The second thread must wake while the first sits between its
         // unlock and its late resync.
         EXPECT_EQ(count(seq, "HardwareLoses{}"), 1u);
         EXPECT_EQ(count(seq, "Wake{"), 2u);
       },
       runner<UnlockBeforeResync>()},
      {"NoWinkleDecOnNoLoss",
       {"IDLE-5"},
       "the winkle count is",
       [](const std::vector<std::string>& seq) {
         // One winkle and a wake-up without loss.
         EXPECT_EQ(count(seq, "HardwareLoses{}"), 0u);
         EXPECT_EQ(count(seq, "EnterIdle{"), 1u);
         EXPECT_EQ(count(seq, "Wake{"), 1u);
       },
       runner<NoWinkleDecOnNoLoss>()},
      // The lost update breaks whatever the stale word overwrote: on SMT2 the
      // bit of a thread in hardware idle (IDLE-2); on SMT4 the stale word
      // also carries the lock bit, so the word is not judged by IDLE-2 and the
      // winkle count it rolled back is what the oracle names (IDLE-5).
      {"ClearOutsideLock",
       {"IDLE-2", "IDLE-5"},
       "power8 SMT2: IDLE-2: move 10: the lock is free and t1's bit is set, but t1 is in "
       "hardware idle",
       [](const std::vector<std::string>& seq) {
         // Two entries interleaved, no loss needed.
         EXPECT_EQ(count(seq, "HardwareLoses{}"), 0u);
         EXPECT_EQ(count(seq, "EnterIdle{"), 2u);
       },
       runner<ClearOutsideLock>()},
  };
}

TEST(IdleCoreStateMachineWitness, EveryWitnessIsCaughtWithItsClauseAndAShortSequence) {
  for (const Witness& w : witnesses()) {
    SCOPED_TRACE(w.name);
    const verify::CheckResult r = w.run(options());
    std::cout << "--- " << w.name << ": " << verify::outcome_name(r.outcome) << " (" << r.seconds
              << " s)\n"
              << r.detail << "\n"
              << r.counterexample << "\n";
    ASSERT_EQ(r.outcome, Outcome::fail) << r.detail;
    EXPECT_EQ(r.violated, w.violated) << r.detail;
    EXPECT_NE(r.detail.find(w.detail_has), std::string::npos) << r.detail;
    EXPECT_NE(r.counterexample.find("<== "), std::string::npos) << "no timeline";
    EXPECT_FALSE(r.replay.empty());
    const std::vector<std::string> seq = first_sequence(r);
    ASSERT_FALSE(seq.empty()) << r.counterexample;
    w.sequence(seq);
  }
}

TEST(IdleCoreStateMachineWitness, ReferenceHoldsThroughTheRegistry) {
  const verify::Check* check =
      verify::builtin_registry().find(verify::CheckKind::property, "idle_core_state_machine");
  ASSERT_NE(check, nullptr);
  EXPECT_EQ(check->component, "idle_core");
  EXPECT_EQ(check->clauses,
            (std::vector<std::string>{"IDLE-2", "IDLE-3", "IDLE-4", "IDLE-5", "IDLE-6", "IDLE-9"}));
  const verify::CheckResult r = check->run("reference", options());
  EXPECT_EQ(r.outcome, Outcome::pass) << r.detail << "\n" << r.counterexample;
  for (const char* config : {"power8 SMT2", "power8 SMT4", "power8 SMT4 2x2", "power9 SMT2"}) {
    EXPECT_NE(r.detail.find(config), std::string::npos) << r.detail;
  }
}

}  // namespace
}  // namespace idlespec::idle_core::witness
