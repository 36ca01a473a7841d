// Every governor property fails against the broken governors of
// tests/witnesses/governor_witnesses.h that its clauses rule out, naming the
// clause and showing the table, inputs and choice that break it.
#include <gtest/gtest.h>

#include <iostream>
#include <set>
#include <string>

#include "properties/governor_properties.h"
#include "tests/witnesses/governor_witnesses.h"

namespace idlespec::governor::witness {
namespace {

using verify::Outcome;

bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

void print(const verify::CheckResult& r) {
  std::cout << r.detail << "\n  counterexample: " << r.counterexample << "\n";
}

// A disabled state chosen: GOV-1, in the part that judges GOV-1.
TEST(GovernorPropertyWitnesses, SelectionCatchesIgnoresDisabled) {
  const verify::CheckResult r = props::gov::run_selection<IgnoresDisabled>(
      IgnoresDisabled::name, verify::RunOptions::unhurried());
  print(r);
  ASSERT_EQ(r.outcome, Outcome::fail) << r.detail;
  EXPECT_TRUE(r.violated.count("GOV-1")) << r.detail;
  EXPECT_TRUE(has(r.detail, "GOV-1: falsified")) << r.detail;
  EXPECT_TRUE(has(r.detail, "is disabled (first enabled is")) << r.detail;
  EXPECT_TRUE(has(r.counterexample, "GOV-1: states [")) << r.counterexample;
  EXPECT_TRUE(has(r.counterexample, " disabled")) << r.counterexample;
  EXPECT_EQ(r.replay, "idlespec check property governor_selection --subject " +
                          std::string(IgnoresDisabled::name) + " --seed 1");
}

// The latency check after the residency block: with the tick stopped, the
// promotion returns a state past the limit (GOV-2 only).
TEST(GovernorPropertyWitnesses, SelectionCatchesLimitCheckAfterResidency) {
  const verify::CheckResult r = props::gov::run_selection<LimitCheckAfterResidency>(
      LimitCheckAfterResidency::name, verify::RunOptions::unhurried());
  print(r);
  ASSERT_EQ(r.outcome, Outcome::fail) << r.detail;
  EXPECT_EQ(r.violated, std::set<std::string>{"GOV-2"});
  EXPECT_TRUE(has(r.detail, "(path tick-stopped-promotion)")) << r.detail;
  EXPECT_TRUE(has(r.detail, "ns > limit")) << r.detail;
  EXPECT_TRUE(has(r.counterexample, "tick stopped")) << r.counterexample;
  EXPECT_TRUE(has(r.detail, "GOV-1, GOV-3, GOV-4, GOV-7: 1000 random cases each passed"))
      << r.detail;
}

// Mainline without 80606f4eb8d7: through wake-up sequences, GOV-9 (the
// tick-stopped selection past the timer) and GOV-8 (accepted for every
// subject) only.
TEST(GovernorPropertyWitnesses, WakeupSequenceCatchesStoppedSkipsTimer) {
  const verify::CheckResult r = props::gov::run_wakeup_sequence<StoppedSkipsTimer>(
      StoppedSkipsTimer::name, verify::RunOptions::unhurried());
  print(r);
  ASSERT_EQ(r.outcome, Outcome::fail) << r.detail;
  EXPECT_EQ(r.violated, (std::set<std::string>{"GOV-8", "GOV-9"}));
  EXPECT_TRUE(has(r.detail, "predicted 9223372036854775807 ns")) << r.detail;
  EXPECT_TRUE(has(r.detail, "ns > the time to the next timer")) << r.detail;
}

// The timer product in 32 bits: predict() differs from the exact recompute
// in GOV-5's ranges, where the reference differs nowhere, with a timer_us
// that fits an unsigned int.
TEST(GovernorPropertyWitnesses, PredictorExactCatchesPrediction32Bit) {
  const verify::CheckResult r = props::gov::run_predictor_exact<Prediction32Bit>(
      Prediction32Bit::name, verify::RunOptions::unhurried());
  print(r);
  ASSERT_EQ(r.outcome, Outcome::fail) << r.detail;
  EXPECT_EQ(r.violated, std::set<std::string>{"GOV-5"});
  ASSERT_EQ(r.detail.rfind("in the GOV-5 ranges: other: falsified", 0), 0u) << r.detail;
  const std::string part = r.detail.substr(0, r.detail.find(" || beyond the GOV-5 ranges"));
  EXPECT_TRUE(has(part, "GOV-5: predict(): sleep length ")) << part;
  EXPECT_TRUE(has(part, "exact timer_us ")) << part;
  EXPECT_TRUE(has(part, ": predicted_ns ")) << part;
  EXPECT_FALSE(has(part, "beyond an unsigned int")) << part;
  EXPECT_TRUE(has(part, "timer_us, sum_of_squares: 1000 random cases each passed")) << part;
  EXPECT_TRUE(has(r.counterexample, "other: states [")) << r.counterexample;
  const verify::CheckResult ref =
      props::gov::run_predictor_exact<Reference>(Reference::name, verify::RunOptions::unhurried());
  EXPECT_EQ(ref.outcome, Outcome::pass) << ref.detail;
}

// The same clauses with other seeds: the witnesses are caught, the
// reference's selections and arithmetic hold.
TEST(GovernorPropertyWitnesses, OtherSeedsFindTheSameClauses) {
  for (uint64_t seed : {2u, 3u, 4u}) {
    verify::RunOptions o = verify::RunOptions::unhurried();
    o.seed = seed;
    EXPECT_TRUE(props::gov::run_selection<IgnoresDisabled>(IgnoresDisabled::name, o)
                    .violated.count("GOV-1"))
        << seed;
    EXPECT_EQ(props::gov::run_selection<LimitCheckAfterResidency>(LimitCheckAfterResidency::name, o)
                  .violated,
              std::set<std::string>{"GOV-2"})
        << seed;
    const verify::CheckResult bits32 =
        props::gov::run_predictor_exact<Prediction32Bit>(Prediction32Bit::name, o);
    EXPECT_EQ(bits32.outcome, Outcome::fail) << seed;
    EXPECT_EQ(bits32.detail.rfind("in the GOV-5 ranges: other: falsified", 0), 0u)
        << seed << ": " << bits32.detail;
    const verify::CheckResult sel = props::gov::run_selection<Reference>(Reference::name, o);
    EXPECT_EQ(sel.outcome, Outcome::pass) << seed << ": " << sel.detail;
    const verify::CheckResult v614 = props::gov::run_selection<V614>(V614::name, o);
    EXPECT_EQ(v614.violated, std::set<std::string>{"GOV-2"}) << seed << ": " << v614.detail;
    const verify::CheckResult exact =
        props::gov::run_predictor_exact<Reference>(Reference::name, o);
    EXPECT_EQ(exact.outcome, Outcome::pass) << seed << ": " << exact.detail;
  }
}

}  // namespace
}  // namespace idlespec::governor::witness
