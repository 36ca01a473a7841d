// The properties layer as verify sees it: the registered checks are exactly
// the property and exhaustive checks the spec lists, with the spec's clauses
// and subjects, and running them maps RapidCheck's verdicts as documented in
// properties/run_property.h.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "properties/catalog.h"
#include "verify/registry.h"
#include "verify/spec_index.h"

namespace idlespec::props {
namespace {

using verify::CheckKind;
using verify::Outcome;

bool ours(CheckKind k) { return k == CheckKind::property || k == CheckKind::exhaustive; }

TEST(PropertiesRegistry, EverySpecCheckIsRegisteredWithItsClauses) {
  const verify::SpecIndex spec = verify::builtin_spec();
  ASSERT_TRUE(spec.errors.empty());
  const verify::Registry& registry = verify::builtin_registry();
  std::set<std::pair<CheckKind, std::string>> listed;
  for (const verify::Clause& clause : spec.clauses) {
    for (const verify::CheckRef& ref : clause.checks) {
      if (!ours(ref.kind) || (clause.component != "xcede" && clause.component != "states")) {
        continue;
      }
      listed.insert({ref.kind, ref.name});
      const verify::Check* c = registry.find(ref.kind, ref.name);
      ASSERT_NE(c, nullptr) << ref.name;
      EXPECT_EQ(c->component, clause.component) << ref.name;
      EXPECT_NE(std::find(c->clauses.begin(), c->clauses.end(), clause.id), c->clauses.end())
          << ref.name << " does not name " << clause.id;
      for (const auto& subject : clause.subjects) {
        EXPECT_NE(std::find(c->subjects.begin(), c->subjects.end(), subject), c->subjects.end())
            << ref.name << " does not run against " << subject;
      }
    }
  }
  for (const CatalogEntry& e : catalog()) {
    EXPECT_TRUE(listed.count({e.kind, e.name})) << e.name << " is not listed in the spec";
  }
  EXPECT_EQ(listed.size(), catalog().size());
}

verify::RunOptions quick(int cases) {
  verify::RunOptions o = verify::RunOptions::unhurried();
  o.property_cases = cases;
  return o;
}

TEST(PropertiesRegistry, EveryPropertyPassesForTheReference) {
  for (const CatalogEntry& e : catalog()) {
    if (e.kind != CheckKind::property) continue;
    const verify::Check* c = verify::builtin_registry().find(e.kind, e.name);
    ASSERT_NE(c, nullptr);
    const verify::CheckResult r = c->run("reference", verify::RunOptions::unhurried());
    EXPECT_EQ(r.outcome, Outcome::pass) << e.name << ": " << r.detail << " " << r.counterexample;
    EXPECT_NE(r.detail.find("1000 random cases passed"), std::string::npos) << r.detail;
  }
}

TEST(PropertiesRegistry, UpstreamBreaksXcede7AsTheSpecAccepts) {
  const verify::Check* c =
      verify::builtin_registry().find(CheckKind::property, "xcede_query_retries");
  ASSERT_NE(c, nullptr);
  verify::RunOptions o = verify::RunOptions::unhurried();
  o.seed = 7;
  const verify::CheckResult r = c->run("upstream", o);
  ASSERT_EQ(r.outcome, Outcome::fail) << r.detail;
  EXPECT_EQ(r.violated, std::set<std::string>{"XCEDE-7"});
  EXPECT_EQ(r.replay, "idlespec check property xcede_query_retries --subject upstream --seed 7");
  EXPECT_NE(r.counterexample.find("RTAS statuses"), std::string::npos) << r.counterexample;
  EXPECT_NE(r.detail.find("the query gave up after 1 RTAS call(s), on status"), std::string::npos)
      << r.detail;
}

TEST(RunProperty, MapsFailureToCounterexampleAndReplay) {
  const verify::RunOptions o = quick(50);
  const verify::CheckResult r = run_property("demo", "reference", {"XCEDE-1"}, o, [] {
    const int x = *rc::gen::inRange(0, 1000);
    RC_ASSERT(x < 10);
  });
  ASSERT_EQ(r.outcome, Outcome::fail);
  EXPECT_EQ(r.counterexample, "10");  // shrunk to the smallest failing value
  EXPECT_TRUE(r.violated.empty());    // the description names no clause: all of them
  EXPECT_EQ(r.replay, "idlespec check property demo --subject reference --seed 1 --cases 50");
}

TEST(RunProperty, NamesTheClauseAFailureNames) {
  const verify::CheckResult r =
      run_property("demo", "reference", {"STATES-1", "STATES-2"}, quick(10),
                   [] { RC_FAIL("STATES-2: target residency falls"); });
  ASSERT_EQ(r.outcome, Outcome::fail);
  EXPECT_EQ(r.violated, std::set<std::string>{"STATES-2"});
}

TEST(RunProperty, GivingUpIsUnknown) {
  const verify::CheckResult r =
      run_property("demo", "reference", {"XCEDE-1"}, quick(20), [] { RC_DISCARD("never"); });
  EXPECT_EQ(r.outcome, Outcome::unknown);
  EXPECT_NE(r.detail.find("gave up"), std::string::npos) << r.detail;
}

TEST(RunProperty, SpentBudgetIsUnknownNotPass) {
  verify::RunOptions o = quick(200000);
  o.budget_seconds = 0.05;
  const verify::CheckResult r = run_property("demo", "reference", {"XCEDE-1"}, o,
                                             [] { RC_ASSERT(*rc::gen::inRange(0, 10) < 10); });
  EXPECT_EQ(r.outcome, Outcome::unknown);
  EXPECT_NE(r.detail.find("time budget"), std::string::npos) << r.detail;
}

TEST(RunProperty, SeedDecidesTheCases) {
  std::vector<int> first;
  std::vector<int> again;
  const auto record = [](std::vector<int>& into) {
    return [&into] { into.push_back(*rc::gen::inRange(0, 1 << 30)); };
  };
  run_property("demo", "reference", {}, quick(20), record(first));
  run_property("demo", "reference", {}, quick(20), record(again));
  EXPECT_EQ(first, again);
  std::vector<int> other;
  verify::RunOptions o = quick(20);
  o.seed = 2;
  run_property("demo", "reference", {}, o, record(other));
  EXPECT_NE(first, other);
}

}  // namespace
}  // namespace idlespec::props
