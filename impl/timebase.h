// Timebase conversions.
//
// idlespec converts XCEDE latencies exactly: ceil(ticks * 10^6 / tb_hz)
// (states::exact_latency_us). The kernel converts with tb_to_ns(), a
// fixed-point multiply whose scale drops low bits when it is normalised into
// 64 bits; kernel_latency_us() reproduces that arithmetic so that
// differential checks against kernel code can tell the known deviation
// (spec/states.md, KD-1) from a real difference.
#pragma once

#include <cstdint>

namespace idlespec::timebase {

struct KernelScale {
  uint64_t scale = 0;  // tb_to_ns_scale
  unsigned shift = 0;  // tb_to_ns_shift
};

// The scale and shift the kernel derives at boot: 10^9 * 2^64 / tb_hz,
// shifted right until it fits 64 bits. tb_hz must be non-zero.
KernelScale kernel_scale(uint64_t tb_hz);

// tb_to_ns(ticks): high 64 bits of ticks * scale, shifted left by shift.
uint64_t kernel_tb_to_ns(uint64_t ticks, const KernelScale& k);

// DIV_ROUND_UP(tb_to_ns(ticks), 1000): the microseconds the kernel computes.
uint64_t kernel_latency_us(uint64_t ticks, uint64_t tb_hz);

}  // namespace idlespec::timebase
