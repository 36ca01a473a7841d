#include "impl/xcede.h"

#include <cinttypes>
#include <cstdio>

#include "impl/text.h"

namespace idlespec::xcede {

Decoded decode(std::span<const uint8_t> buffer, uint32_t capacity) {
  return decode_using<ReferenceDecoder>(buffer, capacity);
}

std::vector<uint8_t> encode(std::span<const Record> records) {
  const size_t payload_size = 2 + records.size() * kRecordSize;
  std::vector<uint8_t> out;
  out.reserve(2 + payload_size);
  out.push_back(static_cast<uint8_t>(payload_size >> 8));
  out.push_back(static_cast<uint8_t>(payload_size));
  out.push_back(kRecordSizeByte);
  for (const Record& r : records) {
    out.push_back(r.hint);
    for (int shift = 56; shift >= 0; shift -= 8) {
      out.push_back(static_cast<uint8_t>(r.latency_ticks >> shift));
    }
    out.push_back(r.wake_on_irqs);
  }
  out.push_back(0);
  return out;
}

std::vector<std::string> dmesg_lines(const Decoded& d) {
  std::vector<std::string> lines;
  if (d.error) {
    lines.push_back("xcede: " + d.error->message);
    return lines;
  }
  lines.push_back(strprintf("xcede: xcede_record_size = %u", d.record_size_byte + 1u));
  for (size_t i = 0; i < d.records.size(); ++i) {
    const Record& r = d.records[i];
    lines.push_back(strprintf("xcede: Record %zu : hint = %u, latency = 0x%" PRIx64
                              " tb ticks, Wake-on-irq = %u",
                              i, r.hint, r.latency_ticks, r.wake_on_irqs));
  }
  return lines;
}

}  // namespace idlespec::xcede
