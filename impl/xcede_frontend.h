// Concrete front end over any decoder with the shape of ReferenceDecoder
// (witnesses in tests/ plug broken ones in here). Included by impl/xcede.h.
#pragma once

#include <algorithm>
#include <cstdio>
#include <limits>

#include "impl/text.h"

namespace idlespec::xcede {

// The concrete byte source: reads exactly what the decoder asks for. It adds
// no bounds check of its own, so a decoder that asked for a byte outside the
// buffer would read outside it (and ASan in the fuzz and asan builds would
// say so): XCEDE-1 is the decoder's obligation, not the source's.
namespace detail {

struct SpanSource {
  std::span<const uint8_t> bytes;
  Word<32> length() const {
    const size_t n = bytes.size();
    return Word<32>(n > std::numeric_limits<uint32_t>::max() ? std::numeric_limits<uint32_t>::max()
                                                             : static_cast<uint32_t>(n));
  }
  Word<8> read(bool guard, Word<32> offset) const {
    return guard ? Word<8>(bytes.data()[offset.v]) : Word<8>(0);
  }
};

}  // namespace detail

template <class Decoder>
Decoded decode_using(std::span<const uint8_t> buffer, uint32_t capacity) {
  Decoded d;
  // Room for every record the buffer can hold, in one allocation (a decoder
  // that delivers more still gets them all).
  d.records.reserve(buffer.size() < kHeaderSize
                        ? 0
                        : std::min<size_t>(capacity, (buffer.size() - kHeaderSize) / kRecordSize));
  detail::SpanSource src{buffer};
  const RawDecode<Concrete> raw =
      Decoder::template run<Concrete>(src, capacity, [&](uint32_t, const RawRecord<Concrete>& r) {
        d.records.push_back(Record{r.hint.v, r.latency_ticks.v, r.wake_on_irqs.v});
      });
  d.payload_size = raw.payload_size.v;
  d.record_size_byte = raw.record_size_byte.v;
  d.declared_records = raw.declared.v;

  if (!raw.header_ok) {
    d.error = Diagnostic{"XCEDE-1", buffer.size(),
                         strprintf("buffer of %zu bytes is shorter than the 3-byte header "
                                   "(payload_size, record size)",
                                   buffer.size())};
    return d;
  }
  if (!raw.size_ok) {
    d.error = Diagnostic{"XCEDE-2", 2,
                         strprintf("Expected record-size %u. Observed size %u.", kRecordSize,
                                   static_cast<unsigned>(raw.record_size_byte.v) + 1)};
    return d;
  }
  if (raw.short_payload) {
    d.warnings.push_back(
        {"XCEDE-3", 0, strprintf("payload_size %u is below 2: no records", raw.payload_size.v)});
  }
  if (raw.partial_record) {
    d.warnings.push_back(
        {"XCEDE-5", 0,
         strprintf("payload_size %u leaves %u bytes that are not a whole record; ignored",
                   raw.payload_size.v, (raw.payload_size.v - 2u) % kRecordSize)});
  }
  if (raw.over_capacity) {
    d.warnings.push_back(
        {"XCEDE-4", 0,
         strprintf("payload_size declares %u records, the buffer holds %u: only %u decoded",
                   raw.declared.v, capacity, capacity)});
  }
  if (raw.truncated) {
    d.warnings.push_back(
        {"XCEDE-1", buffer.size(),
         strprintf("buffer ends after %u complete records of the %u declared: truncated",
                   raw.in_buffer.v, raw.declared.v < capacity ? raw.declared.v : capacity)});
  }
  if (raw.nul_missing) {
    d.warnings.push_back({"XCEDE-5", static_cast<size_t>(raw.payload_size.v) + 1,
                          "payload does not end with a NUL byte"});
  }
  return d;
}

}  // namespace idlespec::xcede
