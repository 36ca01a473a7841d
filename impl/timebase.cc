#include "impl/timebase.h"

namespace idlespec::timebase {

KernelScale kernel_scale(uint64_t tb_hz) {
  // 10^9 * 2^64 / tb_hz as a 128-bit quotient, computed in two 64-bit halves.
  const unsigned __int128 numerator_high = 1000000000u;
  const unsigned __int128 q_high = numerator_high / tb_hz;
  const unsigned __int128 rem = numerator_high % tb_hz;
  const unsigned __int128 q_low = (rem << 64) / tb_hz;
  uint64_t high = static_cast<uint64_t>(q_high);
  uint64_t low = static_cast<uint64_t>(q_low);
  unsigned shift = 0;
  while (high != 0) {
    low = (low >> 1) | (high << 63);
    high >>= 1;
    ++shift;
  }
  return {low, shift};
}

uint64_t kernel_tb_to_ns(uint64_t ticks, const KernelScale& k) {
  const unsigned __int128 product = static_cast<unsigned __int128>(ticks) * k.scale;
  return static_cast<uint64_t>(product >> 64) << k.shift;
}

uint64_t kernel_latency_us(uint64_t ticks, uint64_t tb_hz) {
  const uint64_t ns = kernel_tb_to_ns(ticks, kernel_scale(tb_hz));
  return ns / 1000 + (ns % 1000 != 0);
}

}  // namespace idlespec::timebase
