// The state-table properties against the reference subject, and the
// independent arithmetic and fix-up table they compare with.
#include "properties/states_properties.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "impl/subjects.h"
#include "oracle/states.h"
#include "properties/xcede_gen.h"

namespace idlespec::props {
namespace {

using namespace states::oracle;  // the oracle the properties judge by
using idlespec::oracle::dec;

RC_GTEST_PROP(StatesProperties, Monotonic, ()) { states_monotonic<ReferenceSubject>(); }

RC_GTEST_PROP(StatesProperties, ResidencyCoversLatency, ()) {
  states_residency_covers_latency<ReferenceSubject>();
}

RC_GTEST_PROP(StatesProperties, NoWrap, ()) { states_no_wrap<ReferenceSubject>(); }

RC_GTEST_PROP(StatesProperties, StateMax, ()) { states_state_max<ReferenceSubject>(); }

RC_GTEST_PROP(StatesProperties, FixupGate, ()) { states_fixup_gate<ReferenceSubject>(); }

RC_GTEST_PROP(StatesProperties, XcedeExposure, ()) { states_xcede_exposure<ReferenceSubject>(); }

// The independent ceiling agrees with the reference's on every generated
// latency and timebase (STATES-4's "exact ceiling").
RC_GTEST_PROP(StatesModel, ExactCeilingAgreesWithReference, ()) {
  const uint64_t ticks = *gen::latency_ticks();
  const uint64_t hz = *gen::tb_hz();
  RC_ASSERT(dec(exact_us(ticks, hz)) ==
            dec(states::exact_latency_us<Concrete>(Word<64>(ticks), hz).v));
}

TEST(StatesModel, ExactCeilingByHand) {
  EXPECT_EQ(exact_us(0, 512000000), 0u);
  EXPECT_EQ(exact_us(512, 512000000), 1u);
  EXPECT_EQ(exact_us(513, 512000000), 2u);
  EXPECT_EQ(dec(exact_us(UINT64_MAX, 1)), "18446744073709551615000000");
}

TEST(StatesModel, Cede0LatencySkipsZeroAndRefusesTooLarge) {
  const std::vector<xcede::Record> r = {
      {1, 0, 1}, {2, 0xffffffffffffffffull, 1}, {3, 5121, 0}, {4, 1024, 1}};
  EXPECT_EQ(cede0_latency_us(r, 512000000), std::optional<uint64_t>(2));
  EXPECT_EQ(cede0_latency_us(std::span(r).first(2), 512000000), std::nullopt);
}

// Within the generated timebases no snooze timeout can wrap, so a wrap that
// states_no_wrap finds is the subject's.
TEST(StatesModel, GeneratedTimebasesCannotWrapTheSnoozeTimeout) {
  const u128 largest_residency = 10 * kLargestKeptUs;
  EXPECT_LT(largest_residency * tb_ticks_per_usec(gen::kFastestTbHz), u128{1} << 64);
}

// The table covers every processor and mode, and says what the spec's words say.
TEST(StatesModel, FixupGateTableMatchesTheSpecWording) {
  for (Platform processor : kAllPlatforms) {
    for (Platform compat : kAllPlatforms) {
      if (compat > processor) continue;
      EXPECT_NE(spec_fixup_row(Lpar{processor, compat, false}), nullptr)
          << platform_name(processor) << " in " << platform_name(compat) << " mode";
      EXPECT_FALSE(spec_fixup_expected(Lpar{processor, compat, true}));
    }
  }
  EXPECT_TRUE(spec_fixup_expected(Lpar{Platform::power10, Platform::power9, false}));
  EXPECT_FALSE(spec_fixup_expected(Lpar{Platform::power11, Platform::power9, false}));
  EXPECT_TRUE(spec_fixup_expected(Lpar{Platform::power11, Platform::power10, false}));
  EXPECT_FALSE(spec_fixup_expected(Lpar{Platform::power9, Platform::power9, false}));
}

}  // namespace
}  // namespace idlespec::props
