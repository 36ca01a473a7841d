// The busy-delay policies on the statuses that matter, one by one: the
// examples a reader checks against rtas.c before trusting the proofs.
#include "impl/busy_delay.h"

#include <gtest/gtest.h>

#include <vector>

namespace idlespec::busy_delay {
namespace {

constexpr uint32_t kBusy = static_cast<uint32_t>(kRtasBusy);

template <class Policy>
Request step(uint32_t status, bool need_resched = false, uint32_t consecutive = 0) {
  ConcreteContext ctx{need_resched, consecutive};
  return concrete_step<Policy>(status, ctx);
}

uint32_t delay(uint32_t status) { return delay_time_ms<Concrete>(Word<32>(status)).v; }

TEST(BusyDelayTime, IsTheKernelDocTable) {
  EXPECT_EQ(delay(kBusy), 1u);
  EXPECT_EQ(delay(9900), 1u);
  EXPECT_EQ(delay(9901), 10u);
  EXPECT_EQ(delay(9902), 100u);
  EXPECT_EQ(delay(9903), 1000u);
  EXPECT_EQ(delay(9904), 10000u);
  EXPECT_EQ(delay(9905), 100000u);
  for (uint32_t s : {0u, 1u, 9899u, 9906u, 0xffffffffu, 0xfffffffdu, 0x80000000u}) {
    EXPECT_EQ(delay(s), 0u) << s;
  }
}

TEST(ReferencePolicy, UsleepRangeUpTo20msThenMsleepClampedToOneSecond) {
  EXPECT_EQ(step<ReferencePolicy>(9900), (Request{true, false, kUsleepRange, 100, 1000}));
  EXPECT_EQ(step<ReferencePolicy>(9901), (Request{true, false, kUsleepRange, 1000, 10000}));
  EXPECT_EQ(step<ReferencePolicy>(9902), (Request{true, false, kMsleep, 100000, 100000}));
  EXPECT_EQ(step<ReferencePolicy>(9903), (Request{true, false, kMsleep, 1000000, 1000000}));
  EXPECT_EQ(step<ReferencePolicy>(9905), (Request{true, false, kMsleep, 1000000, 1000000}));
}

TEST(ReferencePolicy, BusyOnlyYieldsAndOtherStatusesCostNothing) {
  EXPECT_EQ(step<ReferencePolicy>(kBusy), (Request{true, true, kNoSleep, 0, 0}));
  EXPECT_EQ(step<ReferencePolicy>(kBusy, true), (Request{true, true, kNoSleep, 0, 0}));
  for (uint32_t s : {0u, 9899u, 9906u, 0xffffffffu}) {
    EXPECT_EQ(step<ReferencePolicy>(s), Request{}) << s;
  }
}

TEST(ReferenceFsleepPolicy, RequestsMicroseconds) {
  EXPECT_EQ(step<ReferenceFsleepPolicy>(9900), (Request{true, false, kFsleep, 1000, 1000}));
  EXPECT_EQ(step<ReferenceFsleepPolicy>(9904), (Request{true, false, kFsleep, 1000000, 1000000}));
}

TEST(LegacyPolicy, SleepsTheWholeHintOnlyWhenAReschedIsPending) {
  EXPECT_EQ(step<LegacyPolicy>(9905, false), (Request{true, false, kNoSleep, 0, 0}));
  EXPECT_EQ(step<LegacyPolicy>(9905, true), (Request{true, false, kMsleep, 100000000, 100000000}));
  EXPECT_EQ(step<LegacyPolicy>(kBusy, true), (Request{true, false, kMsleep, 1000, 1000}));
  EXPECT_EQ(step<LegacyPolicy>(7, true), Request{});
}

TEST(EarlyPolicy, GivesUpOnThe1001stConsecutiveExtendedDelayAndResets) {
  ConcreteContext ctx;
  for (uint32_t i = 1; i <= kEarlyGiveUpAfter; ++i) {
    const Request r = concrete_step<EarlyPolicy>(9902, ctx);
    ASSERT_EQ(r, (Request{true, false, kMdelay, 1000, 1000})) << i;
    ASSERT_EQ(ctx.consecutive, i);
  }
  EXPECT_EQ(concrete_step<EarlyPolicy>(9902, ctx), (Request{false, false, kMdelay, 1000, 1000}));
  EXPECT_EQ(ctx.consecutive, 0u);
  EXPECT_TRUE(concrete_step<EarlyPolicy>(9900, ctx).retry);
  EXPECT_EQ(ctx.consecutive, 1u);
  EXPECT_EQ(concrete_step<EarlyPolicy>(kBusy, ctx), (Request{true, false, kNoSleep, 0, 0}));
  EXPECT_EQ(ctx.consecutive, 0u);
  ctx.consecutive = 500;
  EXPECT_EQ(concrete_step<EarlyPolicy>(3, ctx), Request{});
  EXPECT_EQ(ctx.consecutive, 0u);
}

TEST(Drive, StopsAtTheFirstFinalStatusAndSumsTheRequests) {
  const std::vector<uint32_t> statuses = {kBusy, 9900, 9902, 0, 9905};
  ConcreteContext ctx;
  const LoopTrace t = drive(&concrete_step<ReferencePolicy>, statuses, false, ctx);
  ASSERT_EQ(t.calls.size(), 4u);
  EXPECT_TRUE(t.stopped_by_policy);
  EXPECT_EQ(t.requested_max_us, 1000u + 100000u);
  EXPECT_EQ(t.cond_resched_calls, 1u);
}

TEST(Policies, ListsBothFormsOfTheReference) {
  EXPECT_EQ(policies_of("reference").size(), 2u);
  EXPECT_EQ(policies_of("legacy").size(), 1u);
  EXPECT_EQ(policies_of("early").size(), 1u);
  EXPECT_TRUE(policies_of("nonesuch").empty());
}

TEST(Describe, NamesThePrimitiveAndItsArguments) {
  EXPECT_EQ(describe(step<ReferencePolicy>(9900)), "retry, usleep_range(100, 1000 us)");
  EXPECT_EQ(describe(step<ReferencePolicy>(kBusy)), "retry, cond_resched()");
  EXPECT_EQ(describe(Request{}), "stop");
}

}  // namespace
}  // namespace idlespec::busy_delay
