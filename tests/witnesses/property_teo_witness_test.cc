// Every TEO property fails against the broken governors of
// tests/witnesses/teo_witnesses.h that its clauses rule out, naming the
// clause and showing the table, metrics and inputs that break it; the
// repair of spec/teo.md's TEO-1 finding passes every clause.
#include <gtest/gtest.h>

#include <iostream>
#include <set>
#include <string>

#include "properties/teo_properties.h"
#include "tests/witnesses/teo_witnesses.h"

namespace idlespec::teo::witness {
namespace {

using verify::Outcome;

bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

void print(const verify::CheckResult& r) {
  std::cout << r.detail << "\n  counterexample: " << r.counterexample << "\n";
}

// The clauses a witness breaks besides TEO-1 (which every subject breaks).
std::set<std::string> beyond_teo1(const verify::CheckResult& r) {
  std::set<std::string> v = r.violated;
  v.erase("TEO-1");
  return v;
}

TEST(TeoPropertyWitnesses, SelectionCatchesNoConstraint) {
  const verify::CheckResult r = props::teo_props::run_selection<NoConstraint>(
      NoConstraint::name, verify::RunOptions::unhurried());
  print(r);
  ASSERT_EQ(r.outcome, Outcome::fail) << r.detail;
  EXPECT_EQ(beyond_teo1(r), std::set<std::string>{"TEO-2"}) << r.detail;
  EXPECT_TRUE(has(r.detail, "ns > limit")) << r.detail;
}

TEST(TeoPropertyWitnesses, SelectionCatchesPollingStopsTick) {
  const verify::CheckResult r = props::teo_props::run_selection<PollingStopsTick>(
      PollingStopsTick::name, verify::RunOptions::unhurried());
  print(r);
  ASSERT_EQ(r.outcome, Outcome::fail) << r.detail;
  EXPECT_EQ(beyond_teo1(r), std::set<std::string>{"TEO-3"}) << r.detail;
  EXPECT_TRUE(has(r.detail, "chosen with stop_tick while the tick runs")) << r.detail;
  EXPECT_TRUE(has(r.counterexample, " poll ")) << r.counterexample;
}

TEST(TeoPropertyWitnesses, SelectionCatchesNoTickCorrection) {
  const verify::CheckResult r = props::teo_props::run_selection<NoTickCorrection>(
      NoTickCorrection::name, verify::RunOptions::unhurried());
  print(r);
  ASSERT_EQ(r.outcome, Outcome::fail) << r.detail;
  EXPECT_EQ(beyond_teo1(r), std::set<std::string>{"TEO-4"}) << r.detail;
  EXPECT_TRUE(has(r.detail, "> delta_next")) << r.detail;
}

TEST(TeoPropertyWitnesses, SelectionCatchesNoStoppedTickPromotion) {
  const verify::CheckResult r = props::teo_props::run_selection<NoStoppedTickPromotion>(
      NoStoppedTickPromotion::name, verify::RunOptions::unhurried());
  print(r);
  ASSERT_EQ(r.outcome, Outcome::fail) << r.detail;
  EXPECT_EQ(beyond_teo1(r), std::set<std::string>{"TEO-5"}) << r.detail;
  EXPECT_TRUE(has(r.detail, "< TICK_NSEC")) << r.detail;
}

TEST(TeoPropertyWitnesses, WakeupSequenceCatchesNoDecay) {
  const verify::CheckResult r = props::teo_props::run_wakeup_sequence<NoDecay>(
      NoDecay::name, verify::RunOptions::unhurried());
  print(r);
  ASSERT_EQ(r.outcome, Outcome::fail) << r.detail;
  EXPECT_TRUE(r.violated.count("TEO-6")) << r.detail;
  EXPECT_TRUE(has(r.detail, "TEO-6: falsified")) << r.detail;
  EXPECT_TRUE(has(r.detail, "after update")) << r.detail;
  EXPECT_EQ(r.replay, "idlespec check property teo_wakeup_sequence --subject " +
                          std::string(NoDecay::name) + " --seed 1");
}

TEST(TeoPropertyWitnesses, TheRepairPassesEveryClause) {
  const verify::CheckResult s = props::teo_props::run_selection<ConstraintFromFirst>(
      ConstraintFromFirst::name, verify::RunOptions::unhurried());
  print(s);
  EXPECT_EQ(s.outcome, Outcome::pass) << s.detail;
  const verify::CheckResult q = props::teo_props::run_wakeup_sequence<ConstraintFromFirst>(
      ConstraintFromFirst::name, verify::RunOptions::unhurried());
  print(q);
  EXPECT_EQ(q.outcome, Outcome::pass) << q.detail;
}

}  // namespace
}  // namespace idlespec::teo::witness
