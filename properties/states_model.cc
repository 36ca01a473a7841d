#include "properties/states_model.h"

namespace idlespec::props {

u128 exact_us(uint64_t ticks, uint64_t tb_hz) {
  const u128 scaled = u128{ticks} * 1000000u;
  const u128 quotient = scaled / tb_hz;
  return quotient + (scaled % tb_hz != 0 ? 1 : 0);
}

std::optional<uint64_t> cede0_latency_us(std::span<const xcede::Record> records, uint64_t tb_hz) {
  std::optional<uint64_t> best;
  for (const auto& r : records) {
    const u128 us = exact_us(r.latency_ticks, tb_hz);
    if (us == 0 || us > kLargestKeptUs) continue;
    if (!best || us < *best) best = static_cast<uint64_t>(us);
  }
  return best;
}

const FixupGateRow* spec_fixup_row(const Lpar& lpar) {
  for (const auto& row : kSpecFixupGate) {
    if (row.processor == lpar.processor && row.compat == lpar.compat) return &row;
  }
  return nullptr;
}

bool spec_fixup_expected(const Lpar& lpar) {
  const FixupGateRow* row = spec_fixup_row(lpar);
  return !lpar.shared_processor && row && row->dedicated_fixed_up;
}

}  // namespace idlespec::props
