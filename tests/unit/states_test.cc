// Worked examples of the state table, and of the timebase conversion.
#include "impl/states.h"

#include <gtest/gtest.h>

#include "impl/timebase.h"

namespace idlespec::states {
namespace {

const std::vector<xcede::Record> kPower9 = {{1, 0x400, 1}, {2, 0x3e8000, 0}};

Options lpar(Platform processor, Platform compat, bool shared = false, bool expose = false) {
  Options o;
  o.lpar = Lpar{processor, compat, shared};
  o.expose_xcede = expose;
  return o;
}

TEST(States, Power10DedicatedFixesCedeUpToTheFastestRecord) {
  const Table t = build(kPower9, lpar(Platform::power10, Platform::power10));
  ASSERT_EQ(t.states.size(), 2u);
  EXPECT_EQ(t.states[0], (State{"snooze", 0, 0, true, false, 0}));
  EXPECT_EQ(t.states[1], (State{"CEDE", 2, 20, false, false, 0}));  // 0x400 ticks = 2 us
  EXPECT_TRUE(t.cede0_fixed_up);
  EXPECT_EQ(t.snooze_timeout_ticks, 20u * 512u);
}

TEST(States, Power9KeepsTheTenMicrosecondDefault) {
  const Table t = build(kPower9, lpar(Platform::power9, Platform::power9));
  EXPECT_EQ(t.states[1], (State{"CEDE", 10, 100, false, false, 0}));
  EXPECT_FALSE(t.cede0_fixup_gated_in);
}

TEST(States, TheGateFollowsFeatureBitAndPvr) {
  EXPECT_TRUE(build(kPower9, lpar(Platform::power10, Platform::power9)).cede0_fixed_up);
  EXPECT_FALSE(build(kPower9, lpar(Platform::power11, Platform::power9)).cede0_fixed_up);
  EXPECT_TRUE(build(kPower9, lpar(Platform::power11, Platform::power10)).cede0_fixed_up);
  EXPECT_FALSE(build(kPower9, lpar(Platform::power10, Platform::power10, true)).cede0_fixed_up);
}

TEST(States, SharedLparHasSharedCede) {
  const Table t = build(kPower9, lpar(Platform::power10, Platform::power10, true));
  EXPECT_EQ(t.states[1].name, "Shared Cede");
  EXPECT_EQ(t.states[1].exit_latency_us, 10u);
}

TEST(States, ZeroLatencyRecordsAreSkippedNotSubtractedFrom) {
  const std::vector<xcede::Record> recs = {{1, 0, 1}, {2, 0x400 * 3, 1}};
  const Table t = build(recs, lpar(Platform::power10, Platform::power10));
  EXPECT_EQ(t.states[1].exit_latency_us, 6u);
  EXPECT_EQ(t.states[1].target_residency_us, 60u);
}

TEST(States, FixupIsNotCappedAtTenMicroseconds) {
  const std::vector<xcede::Record> recs = {{1, 512 * 25, 1}};
  EXPECT_EQ(build(recs, lpar(Platform::power10, Platform::power10)).states[1].exit_latency_us, 25u);
}

TEST(States, RefusesLatenciesWhoseResidencyWouldNotFit) {
  const std::vector<xcede::Record> recs = {{2, UINT64_MAX, 1}};
  const Table t = build(recs, lpar(Platform::power10, Platform::power10));
  EXPECT_EQ(t.states[1].exit_latency_us, 10u);
  EXPECT_FALSE(t.cede0_fixed_up);
  ASSERT_FALSE(t.notes.empty());
  EXPECT_NE(t.notes[0].find("Refusing"), std::string::npos);
}

TEST(States, ExposesResponsiveRecordsExceptXcede1) {
  const std::vector<xcede::Record> recs = {{1, 0x400, 1}, {2, 512 * 50, 1}, {3, 512 * 40, 1}};
  const Table t = build(recs, lpar(Platform::power10, Platform::power10, false, true));
  ASSERT_EQ(t.states.size(), 3u);  // XCEDE1 blocked, XCEDE3 out of order
  EXPECT_EQ(t.states[2], (State{"XCEDE2", 60, 600, false, true, 2}));
}

TEST(States, NeverMoreThanTenStates) {
  std::vector<xcede::Record> recs;
  for (uint8_t h = 2; h < 18; ++h) recs.push_back({h, 512ull * 10 * h, 1});
  const Table t = build(recs, lpar(Platform::power10, Platform::power10, false, true));
  EXPECT_EQ(t.states.size(), kCpuidleStateMax);
}

TEST(Timebase, KernelConversionLosesOneMicrosecondAt513Ticks) {
  EXPECT_EQ(timebase::kernel_tb_to_ns(513, timebase::kernel_scale(512000000)), 1000u);
  EXPECT_EQ(timebase::kernel_latency_us(513, 512000000), 1u);
  EXPECT_EQ(exact_latency_us<Concrete>(Word<64>(513), 512000000).v, 2u);
  EXPECT_EQ(timebase::kernel_latency_us(0x400, 512000000), 2u);
}

}  // namespace
}  // namespace idlespec::states
