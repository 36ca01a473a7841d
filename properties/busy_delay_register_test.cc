// The busy_delay checks of the properties layer as verify sees them: exactly
// the property and exhaustive checks spec/busy_delay.md lists, with its
// clauses and subjects; and the model against the spec's own examples.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "oracle/busy_delay.h"
#include "verify/registry.h"
#include "verify/spec_index.h"

namespace idlespec::props {
namespace {

using verify::CheckKind;

bool ours(CheckKind k) { return k == CheckKind::property || k == CheckKind::exhaustive; }

TEST(BusyDelayRegistry, EverySpecCheckIsRegisteredWithItsClausesAndSubjects) {
  const verify::SpecIndex spec = verify::builtin_spec();
  ASSERT_TRUE(spec.errors.empty());
  const verify::Registry& registry = verify::builtin_registry();
  std::set<std::pair<CheckKind, std::string>> listed;
  for (const verify::Clause& clause : spec.clauses) {
    if (clause.component != "busy_delay") continue;
    for (const verify::CheckRef& ref : clause.checks) {
      if (!ours(ref.kind)) continue;
      listed.insert({ref.kind, ref.name});
      const verify::Check* c = registry.find(ref.kind, ref.name);
      ASSERT_NE(c, nullptr) << ref.name;
      EXPECT_EQ(c->component, "busy_delay") << ref.name;
      EXPECT_NE(std::find(c->clauses.begin(), c->clauses.end(), clause.id), c->clauses.end())
          << ref.name << " does not name " << clause.id;
      for (const auto& subject : clause.subjects) {
        EXPECT_NE(std::find(c->subjects.begin(), c->subjects.end(), subject), c->subjects.end())
            << ref.name << " does not run against " << subject;
      }
    }
  }
  size_t registered = 0;
  for (const verify::Check& c : registry.checks()) {
    if (c.component != "busy_delay" || !ours(c.kind)) continue;
    ++registered;
    EXPECT_TRUE(listed.count({c.kind, c.name})) << c.name << " is not listed in the spec";
    // Every clause it names lists it, and every subject it runs names one of them.
    for (const auto& id : c.clauses) {
      const auto cl = std::find_if(spec.clauses.begin(), spec.clauses.end(),
                                   [&](const verify::Clause& x) { return x.id == id; });
      ASSERT_NE(cl, spec.clauses.end()) << id;
    }
  }
  EXPECT_EQ(registered, 4u);
  EXPECT_EQ(listed.size(), 4u);
}

TEST(BusyDelayModel, DelayTimeTableAsTheSpecWritesIt) {
  using namespace busy_delay::oracle;
  EXPECT_EQ(spec_delay_time_ms(0xfffffffeu), 1u);
  const uint32_t powers[] = {1, 10, 100, 1000, 10000, 100000};
  for (uint32_t n = 0; n <= 5; ++n) EXPECT_EQ(spec_delay_time_ms(9900 + n), powers[n]) << n;
  for (uint32_t s : {0u, 9899u, 9906u, 0xffffffffu, 0xfffffffdu, 0x80000000u, 1u}) {
    EXPECT_EQ(spec_delay_time_ms(s), 0u) << s;
    EXPECT_FALSE(spec_retries(s)) << s;
  }
}

TEST(BusyDelayModel, SleepBoundsClampAtOneSecond) {
  using namespace busy_delay::oracle;
  EXPECT_EQ(spec_sleep_bounds(9900).min_us_at_least, 100u);
  EXPECT_EQ(spec_sleep_bounds(9900).max_us_at_most, 1000u);
  EXPECT_EQ(spec_sleep_bounds(9903).max_us_at_most, 1000000u);
  EXPECT_EQ(spec_sleep_bounds(9905).min_us_at_least, 100000u);
  EXPECT_EQ(spec_sleep_bounds(9905).max_us_at_most, 1000000u);
}

TEST(BusyDelayModel, ClausePredicatesOnTheSpecsExamples) {
  using namespace busy_delay::oracle;
  using busy_delay::Request;
  // usleep_range(100, 1000 us) for 9900; msleep(1000) for 9905.
  EXPECT_TRUE(busy3_holds(9900, Request{true, false, busy_delay::kUsleepRange, 100, 1000}));
  EXPECT_TRUE(busy3_holds(9905, Request{true, false, busy_delay::kMsleep, 1000000, 1000000}));
  EXPECT_FALSE(busy3_holds(9905, Request{true, false, busy_delay::kMsleep, 1000000, 1000001}));
  EXPECT_FALSE(busy3_holds(9900, Request{true, false, busy_delay::kUsleepRange, 1000, 100}));
  EXPECT_FALSE(busy3_holds(9900, Request{true, false, busy_delay::kFsleep, 1, 1}));
  EXPECT_FALSE(busy3_holds(9900, Request{true, false, busy_delay::kMsleep, 100, 1000}));
  EXPECT_FALSE(busy3_holds(9900, Request{true, true, busy_delay::kUsleepRange, 100, 1000}));
  EXPECT_FALSE(busy3_holds(9900, Request{true, false, busy_delay::kNoSleep, 0, 0}));
  // Busy: a yield is fine, a sleep is not.
  EXPECT_TRUE(busy2_holds(0xfffffffeu, Request{true, true, busy_delay::kNoSleep, 0, 0}));
  EXPECT_FALSE(busy2_holds(0xfffffffeu, Request{true, false, busy_delay::kMsleep, 1000, 1000}));
  // Anything else: nothing at all.
  EXPECT_TRUE(busy5_holds(9906, Request{}));
  EXPECT_FALSE(busy5_holds(9906, Request{false, true, busy_delay::kNoSleep, 0, 0}));
  EXPECT_TRUE(busy1_holds(9906, Request{}));
  EXPECT_FALSE(busy1_holds(9906, Request{true, false, busy_delay::kNoSleep, 0, 0}));
  EXPECT_FALSE(busy1_holds(0xfffffffeu, Request{}));
  EXPECT_EQ(clause_mask({"BUSY-1", "BUSY-5", "BUSY-6"}), kBusy1 | kBusy5);
  EXPECT_EQ(clause_id(3), "BUSY-4");
}

}  // namespace
}  // namespace idlespec::props
