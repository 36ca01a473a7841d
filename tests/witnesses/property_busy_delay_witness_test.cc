// Every busy_delay property fails against the broken policies of
// tests/witnesses/busy_delay_witnesses.h that its clauses rule out, naming
// the clause and showing the status or sequence that breaks it; and, through
// the registry, confirms the violations the spec accepts for legacy while the
// reference and early pass.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <functional>
#include <iostream>
#include <set>
#include <string>
#include <vector>

#include "properties/busy_delay_properties.h"
#include "tests/witnesses/busy_delay_witnesses.h"
#include "verify/registry.h"

namespace idlespec::busy_delay::witness {
namespace {

using verify::CheckKind;
using verify::Outcome;

const std::vector<std::string> kSingleStatusClauses = {"BUSY-1", "BUSY-2", "BUSY-3", "BUSY-5"};

struct PropertyWitness {
  std::string check;
  std::string subject;
  std::set<std::string> violated;         // the verdict's clauses, exactly
  std::vector<std::string> must_contain;  // in the counterexample
  std::vector<std::string> detail_has;    // in the detail
  std::function<verify::CheckResult(const verify::RunOptions&)> run;
};

template <class Policy>
PropertyWitness single_status(std::set<std::string> violated, std::vector<std::string> cex,
                              std::vector<std::string> detail) {
  return {"busy_delay_single_status",
          std::string(Policy::subject),
          std::move(violated),
          std::move(cex),
          std::move(detail),
          [](const verify::RunOptions& o) {
            return props::run_single_status<Policy>(Policy::subject, kSingleStatusClauses, o);
          }};
}

std::vector<PropertyWitness> witnesses() {
  return {
      single_status<Accepts9906Policy>(
          {"BUSY-1", "BUSY-5"},
          {"BUSY-1: status 9906 (0x000026b2)", "BUSY-5: status 9906 (0x000026b2)"},
          {"retry, msleep(1000 ms); the spec: stop"}),
      single_status<Clamp100sPolicy>({"BUSY-3"}, {"BUSY-3: status 990"},
                                     {"max <= 1000000 us", "000 ms)"}),
      single_status<SwappedRangePolicy>({"BUSY-3"}, {"BUSY-3: status 990"}, {"usleep_range(1000"}),
      single_status<FsleepMillisecondsPolicy>({"BUSY-3"}, {"BUSY-3: status 990"},
                                              {"fsleep(", " us); the spec"}),
      {"busy_delay_loop_bounded",
       std::string(Clamp100sPolicy::subject),
       {"BUSY-6"},
       // Shrunk to the one status that asks for 100 s.
       {"RTAS statuses [9905]"},
       {"BUSY-6: step 1 (loop 1, call 1): status 9905 (extended, hint 100000 ms): the loop over 1 "
        "status (9905) requested 100000 ms of sleep, more than 1 x 1000 ms"},
       [](const verify::RunOptions& o) {
         return props::run_loop_bounded<Clamp100sPolicy>(Clamp100sPolicy::subject, o);
       }},
      {"busy_delay_early_sequence",
       std::string(NoResetOnGiveUpPolicy::subject),
       {"BUSY-7"},
       {"runs ["},
       // The loop after a give-up stops on its first extended status.
       {"BUSY-7: ",
        "expected retry: the 1st consecutive extended status (counting since the "
        "give-up at step"},
       [](const verify::RunOptions& o) {
         return props::run_early_sequence<NoResetOnGiveUpPolicy>(NoResetOnGiveUpPolicy::subject, o);
       }},
      {"busy_delay_early_sequence",
       std::string(GiveUpOn1000thPolicy::subject),
       {"BUSY-7"},
       {"runs ["},
       {"expected retry: the 1000th consecutive extended status"},
       [](const verify::RunOptions& o) {
         return props::run_early_sequence<GiveUpOn1000thPolicy>(GiveUpOn1000thPolicy::subject, o);
       }},
  };
}

void PrintTo(const PropertyWitness& w, std::ostream* os) { *os << w.check << " vs " << w.subject; }

class BusyDelayPropertyWitnessTest : public ::testing::TestWithParam<PropertyWitness> {};

TEST_P(BusyDelayPropertyWitnessTest, PropertyFailsWithTheCounterexample) {
  const PropertyWitness& w = GetParam();
  const verify::CheckResult r = w.run(verify::RunOptions::unhurried());
  std::cout << r.detail << "\n  counterexample: " << r.counterexample << "\n";
  ASSERT_EQ(r.outcome, Outcome::fail) << w.check << " vs " << w.subject << ": " << r.detail;
  EXPECT_EQ(r.violated, w.violated) << r.detail;
  for (const std::string& part : w.must_contain) {
    EXPECT_NE(r.counterexample.find(part), std::string::npos) << part << "\n" << r.counterexample;
  }
  for (const std::string& part : w.detail_has) {
    EXPECT_NE(r.detail.find(part), std::string::npos) << part << "\n" << r.detail;
  }
  EXPECT_EQ(r.replay,
            "idlespec check property " + w.check + " --subject " + w.subject + " --seed 1");
}

INSTANTIATE_TEST_SUITE_P(Witnesses, BusyDelayPropertyWitnessTest, ::testing::ValuesIn(witnesses()),
                         [](const ::testing::TestParamInfo<PropertyWitness>& info) {
                           std::string name = info.param.check + "_" + info.param.subject;
                           for (char& c : name) {
                             if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                           }
                           return name;
                         });

TEST(BusyDelayPropertyWitnesses, EveryBusyDelayPropertyHasOne) {
  const auto all = witnesses();
  for (const verify::Check& c : verify::builtin_registry().checks()) {
    if (c.component != "busy_delay" || c.kind != CheckKind::property) continue;
    EXPECT_TRUE(std::any_of(all.begin(), all.end(),
                            [&](const PropertyWitness& w) { return w.check == c.name; }))
        << c.name << " has no witness";
  }
}

verify::CheckResult run_registered(const std::string& name, const std::string& subject,
                                   const verify::RunOptions& o = {}) {
  const verify::Check* c = verify::builtin_registry().find(CheckKind::property, name);
  if (!c) {
    verify::CheckResult none;
    none.detail = name + " is not registered";
    return none;
  }
  return c->run(subject, o);
}

// The accepted violations of legacy, confirmed one clause at a time: the
// merged verdict names BUSY-2 and BUSY-3 and keeps BUSY-1.
TEST(BusyDelayPropertyWitnesses, SingleStatusConfirmsLegacysAcceptedViolations) {
  const verify::CheckResult r = run_registered("busy_delay_single_status", "legacy");
  std::cout << r.detail << "\n  counterexample: " << r.counterexample << "\n";
  ASSERT_EQ(r.outcome, Outcome::fail) << r.detail;
  EXPECT_EQ(r.violated, (std::set<std::string>{"BUSY-2", "BUSY-3"}));
  EXPECT_NE(r.counterexample.find("BUSY-2: status -2 (0xfffffffe), need_resched true"),
            std::string::npos)
      << r.counterexample;
  EXPECT_NE(r.counterexample.find("BUSY-3: status 990"), std::string::npos) << r.counterexample;
  EXPECT_NE(r.detail.find("BUSY-1: 1000 random cases each passed"), std::string::npos) << r.detail;
}

// One 9905 with a pending reschedule: msleep(100000), a hundred times the bound.
TEST(BusyDelayPropertyWitnesses, LoopBoundedConfirmsLegacysHundredSeconds) {
  const verify::CheckResult r = run_registered("busy_delay_loop_bounded", "legacy");
  std::cout << r.detail << "\n  counterexample: " << r.counterexample << "\n";
  ASSERT_EQ(r.outcome, Outcome::fail) << r.detail;
  EXPECT_TRUE(r.violated.empty() || r.violated == std::set<std::string>{"BUSY-6"});
  EXPECT_EQ(r.counterexample, "RTAS statuses [9905], need_resched true, msleep if need_resched");
  EXPECT_NE(r.detail.find("100000 ms of sleep"), std::string::npos) << r.detail;
}

TEST(BusyDelayPropertyWitnesses, ReferenceAndEarlyPass) {
  for (const auto& [name, subject] :
       std::vector<std::pair<std::string, std::string>>{{"busy_delay_single_status", "reference"},
                                                        {"busy_delay_loop_bounded", "reference"},
                                                        {"busy_delay_early_sequence", "early"}}) {
    const verify::CheckResult r = run_registered(name, subject);
    EXPECT_EQ(r.outcome, Outcome::pass)
        << name << " " << subject << ": " << r.detail << " " << r.counterexample;
  }
}

TEST(BusyDelayPropertyWitnesses, OtherSeedsFindTheSameClauses) {
  for (uint64_t seed : {2u, 3u, 4u}) {
    verify::RunOptions o = verify::RunOptions::unhurried();
    o.seed = seed;
    EXPECT_EQ(run_registered("busy_delay_single_status", "legacy", o).violated,
              (std::set<std::string>{"BUSY-2", "BUSY-3"}))
        << seed;
    EXPECT_EQ(
        props::run_early_sequence<GiveUpOn1000thPolicy>(GiveUpOn1000thPolicy::subject, o).outcome,
        Outcome::fail)
        << seed;
    EXPECT_EQ(
        props::run_early_sequence<NoResetOnGiveUpPolicy>(NoResetOnGiveUpPolicy::subject, o).outcome,
        Outcome::fail)
        << seed;
  }
}

}  // namespace
}  // namespace idlespec::busy_delay::witness
