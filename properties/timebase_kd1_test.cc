// KD-1 (spec/states.md, known deviations): the kernel's tb_to_ns() can give
// one microsecond less than the exact conversion. A differential property
// over the kernel's arithmetic (impl/timebase.h) and idlespec's
// (states::exact_latency_us): at 512 MHz the difference is 0 or 1 and never
// anything else, for every latency whose nanoseconds fit the kernel's u64.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <cstdint>

#include "impl/states.h"
#include "impl/timebase.h"

namespace idlespec {
namespace {

constexpr uint64_t kHz = states::kDefaultTbHz;

uint64_t exact(uint64_t ticks) {
  return static_cast<uint64_t>(states::exact_latency_us<Concrete>(Word<64>(ticks), kHz).v);
}

// tb_to_ns() keeps nanoseconds in a u64. At 512 MHz its scale is 125 * 2^57
// with shift 1, so ns = 2 * floor(ticks * 125 / 128): the largest ticks whose
// nanoseconds fit is floor(1.024 * 2^63) (past it the kernel wraps, and KD-1
// says nothing).
constexpr uint64_t kLargestKernelTicks = 9444732965739290427ull;

RC_GTEST_PROP(KnownDeviationKd1, KernelIsExactOrOneMicrosecondLess, ()) {
  const uint64_t ticks = *rc::gen::weightedOneOf<uint64_t>({
      {3, rc::gen::inRange<uint64_t>(0, 1 << 20)},
      {3, rc::gen::inRange<uint64_t>(0, uint64_t{1} << 42)},
      {2, rc::gen::resize(100, rc::gen::inRange<uint64_t>(0, kLargestKernelTicks + 1))},
      {1, rc::gen::element<uint64_t>(512, 513, 1023, 1024, 1025, kLargestKernelTicks)},
  });
  const uint64_t kernel = timebase::kernel_latency_us(ticks, kHz);
  const uint64_t exact_us = exact(ticks);
  RC_ASSERT(kernel <= exact_us);
  RC_ASSERT(exact_us - kernel <= 1u);
}

TEST(KnownDeviationKd1, Ticks513ShowTheDifference) {
  // tb_to_ns(513) is 1000 ns (exactly 1001.95 ns): 1 us for the kernel, 2 for idlespec.
  EXPECT_EQ(timebase::kernel_tb_to_ns(513, timebase::kernel_scale(kHz)), 1000u);
  EXPECT_EQ(timebase::kernel_latency_us(513, kHz), 1u);
  EXPECT_EQ(exact(513), 2u);
}

TEST(KnownDeviationKd1, ScaleAt512MHzIsWhatTheDomainAssumes) {
  const timebase::KernelScale k = timebase::kernel_scale(kHz);
  EXPECT_EQ(k.scale, uint64_t{125} << 57);
  EXPECT_EQ(k.shift, 1u);
  EXPECT_EQ(timebase::kernel_tb_to_ns(kLargestKernelTicks, k), UINT64_MAX - 1);
}

TEST(KnownDeviationKd1, WholeMicrosecondsAgree) {
  for (uint64_t us : {uint64_t{1}, uint64_t{2}, uint64_t{10}, uint64_t{1000000}}) {
    EXPECT_EQ(timebase::kernel_latency_us(us * 512, kHz), us) << us << " us";
    EXPECT_EQ(exact(us * 512), us) << us << " us";
  }
}

}  // namespace
}  // namespace idlespec
