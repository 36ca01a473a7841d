#include "properties/xcede_model.h"

#include <algorithm>

namespace idlespec::props {

ExpectedDecode expected_decode(std::span<const uint8_t> bytes, uint32_t capacity) {
  ExpectedDecode e;
  const size_t len = bytes.size();
  if (len < 3) {
    e.error_clause = "XCEDE-1";
    e.error_offset = len;
    return e;
  }
  if (bytes[2] != 9) {
    e.error_clause = "XCEDE-2";
    e.error_offset = 2;
    return e;
  }
  const uint32_t payload_size = (uint32_t{bytes[0]} << 8) | bytes[1];
  std::vector<std::string>& w = e.warning_clauses;
  bool partial = false;
  if (payload_size < 2) {
    w.push_back("XCEDE-3");
  } else {
    e.declared = (payload_size - 2) / 10;
    partial = (payload_size - 2) % 10 != 0;
    if (partial) w.push_back("XCEDE-5");
  }
  const bool over_capacity = e.declared > capacity;
  if (over_capacity) w.push_back("XCEDE-4");
  e.in_buffer = static_cast<uint32_t>(std::min<size_t>((len - 3) / 10, UINT32_MAX));
  const uint32_t wanted = std::min(e.declared, capacity);
  e.truncated = wanted > e.in_buffer;
  if (e.truncated) w.push_back("XCEDE-1");
  e.count = std::min(wanted, e.in_buffer);
  // The NUL ends the payload at offset payload_size + 1; it is looked for only
  // when every declared record was decoded.
  if (payload_size >= 2 && !partial && !over_capacity && !e.truncated) {
    const size_t nul_at = size_t{payload_size} + 1;
    if (nul_at >= len || bytes[nul_at] != 0) w.push_back("XCEDE-5");
  }
  std::sort(w.begin(), w.end());
  return e;
}

xcede::Record record_at(std::span<const uint8_t> bytes, uint32_t i) {
  const size_t base = 3 + size_t{10} * i;
  uint64_t ticks = 0;
  for (size_t b = 0; b < 8; ++b) ticks = (ticks << 8) | bytes[base + 1 + b];
  return xcede::Record{bytes[base], ticks, bytes[base + 9]};
}

std::vector<std::string> warning_clauses(const xcede::Decoded& d) {
  std::vector<std::string> out;
  for (const auto& w : d.warnings) out.push_back(w.clause);
  std::sort(out.begin(), out.end());
  return out;
}

bool has_warning(const xcede::Decoded& d, std::string_view clause) {
  return std::any_of(d.warnings.begin(), d.warnings.end(),
                     [&](const xcede::Diagnostic& w) { return w.clause == clause; });
}

}  // namespace idlespec::props
