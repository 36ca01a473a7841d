// xcede_header_sweep against the reference decoder: every payload_size in
// release builds (IDLESPEC_EXHAUSTIVE=1), boundaries and a seeded sample
// otherwise; and the sweep's own plan.
#include "properties/xcede_header_sweep.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "impl/subjects.h"

namespace idlespec::props {
namespace {

TEST(XcedeHeaderSweep, ReferenceHolds) {
  const verify::CheckResult r = run_xcede_header_sweep<ReferenceSubject>(verify::RunOptions{});
  EXPECT_EQ(r.outcome, verify::Outcome::pass) << r.detail << "\n" << r.counterexample;
  std::cout << r.detail << "\n";
}

TEST(XcedeHeaderSweep, OtherSeedsHoldToo) {
  for (uint64_t seed : {2u, 3u}) {
    verify::RunOptions o;
    o.seed = seed;
    const verify::CheckResult r = run_xcede_header_sweep<ReferenceSubject>(o, false);
    EXPECT_EQ(r.outcome, verify::Outcome::pass) << r.detail << "\n" << r.counterexample;
  }
}

TEST(XcedeHeaderSweep, FullPlanCoversEveryPayloadSize) {
  const std::vector<SweepJob> jobs = header_sweep_jobs(true, 1);
  std::vector<bool> seen(0x10000);
  for (const SweepJob& j : jobs) {
    if (j.capacity == xcede::kDefaultCapacity) seen[j.payload_size] = true;
  }
  EXPECT_EQ(std::count(seen.begin(), seen.end(), true), 0x10000);
}

TEST(XcedeHeaderSweep, SampledPlanHasBoundariesAndIsSeeded) {
  const auto sizes = [](uint64_t seed) {
    std::vector<uint16_t> out;
    for (const SweepJob& j : header_sweep_jobs(false, seed)) out.push_back(j.payload_size);
    return out;
  };
  const std::vector<uint16_t> one = sizes(1);
  for (uint16_t ps : {0, 1, 2, 12, 162, 172, 173, 65535}) {
    EXPECT_NE(std::find(one.begin(), one.end(), ps), one.end()) << ps;
  }
  EXPECT_EQ(one, sizes(1));
  EXPECT_NE(one, sizes(2));
}

TEST(XcedeHeaderSweep, LengthsRunPastTheCapacityAndHitTheExactPayload) {
  const std::vector<size_t> lengths = header_sweep_lengths(65535, 16);
  ASSERT_EQ(lengths.size(), 176u + 2u);  // 0..175, then 65536 and 65537
  EXPECT_EQ(lengths[175], 175u);
  EXPECT_EQ(lengths[176], 65536u);
  EXPECT_EQ(lengths[177], 65537u);
  EXPECT_EQ(header_sweep_lengths(22, 16).size(), 176u);  // 23 and 24 are already in 0..175
}

TEST(XcedeHeaderSweep, BufferCarriesHeaderAndNul) {
  const std::vector<uint8_t> b = header_sweep_buffer(22, 9, 30);
  ASSERT_EQ(b.size(), 30u);
  EXPECT_EQ(b[0], 0u);
  EXPECT_EQ(b[1], 22u);
  EXPECT_EQ(b[2], 9u);
  EXPECT_EQ(b[23], 0u);
  for (size_t i = 3; i < b.size(); ++i) {
    EXPECT_TRUE(i == 23 || b[i] != 0) << i;
  }
}

}  // namespace
}  // namespace idlespec::props
