// What decoding a parameter buffer must give, computed from spec/xcede.md
// with plain integers (nothing from impl/xcede.h but its constants), and an
// instrumented byte source that records every read outside the buffer
// instead of performing it.
//
// The model is what the properties and the header sweep compare a subject's
// decoder against:
//   buffer < 3 bytes         error XCEDE-1 at the buffer's end, nothing decoded
//   record-size byte != 9    error XCEDE-2 at offset 2, nothing decoded
//   payload_size < 2         warning XCEDE-3, no records
//   declared > capacity      warning XCEDE-4
//   partial trailing record  warning XCEDE-5
//   min(declared, capacity) records do not fit the buffer
//                            warning XCEDE-1 at the buffer's end
//   every declared record decoded, but no NUL after them
//                            warning XCEDE-5
//   count = min(declared, capacity, complete records in the buffer)
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>
#include <string>
#include <vector>

#include "impl/domain.h"
#include "impl/xcede.h"

namespace idlespec::props {

struct ExpectedDecode {
  std::string error_clause;  // empty when the buffer is decoded
  size_t error_offset = 0;
  uint32_t declared = 0;   // records payload_size declares (0 below 2 or on error)
  uint32_t in_buffer = 0;  // complete records the buffer holds
  uint32_t count = 0;      // records to decode
  std::vector<std::string> warning_clauses;  // sorted
  bool truncated = false;                    // the XCEDE-1 warning, which names the buffer's end
};

ExpectedDecode expected_decode(std::span<const uint8_t> bytes, uint32_t capacity);

// Record i as the buffer holds it (the buffer must hold it whole).
xcede::Record record_at(std::span<const uint8_t> bytes, uint32_t i);

// The clauses of a decode's warnings, sorted.
std::vector<std::string> warning_clauses(const xcede::Decoded& d);
bool has_warning(const xcede::Decoded& d, std::string_view clause);

// A concrete byte source (the shape decode_raw() reads through) that counts
// reads at an offset >= the buffer length and answers them with 0 rather than
// reading memory it was not given.
class ProbeSource {
 public:
  explicit ProbeSource(std::span<const uint8_t> bytes) : bytes_(bytes) {}

  Word<32> length() const {
    const size_t n = bytes_.size();
    return Word<32>(n > std::numeric_limits<uint32_t>::max() ? std::numeric_limits<uint32_t>::max()
                                                             : static_cast<uint32_t>(n));
  }
  Word<8> read(bool guard, Word<32> offset) {
    if (!guard) return Word<8>(0);
    if (offset.v >= bytes_.size()) {
      if (out_of_range_reads_++ == 0) first_out_of_range_ = offset.v;
      return Word<8>(0);
    }
    return Word<8>(bytes_[offset.v]);
  }

  uint64_t out_of_range_reads() const { return out_of_range_reads_; }
  uint32_t first_out_of_range() const { return first_out_of_range_; }

 private:
  std::span<const uint8_t> bytes_;
  uint64_t out_of_range_reads_ = 0;
  uint32_t first_out_of_range_ = 0;
};

// One run of a decoder over a ProbeSource.
struct Probe {
  xcede::RawDecode<Concrete> raw{};
  std::vector<xcede::Record> records;  // what the sink received, in slot order
  bool slots_in_order = true;          // sink slots were 0, 1, 2, ...
  uint64_t out_of_range_reads = 0;
  uint32_t first_out_of_range = 0;
};

template <class Decoder>
Probe probe_decode(std::span<const uint8_t> bytes, uint32_t capacity) {
  Probe p;
  ProbeSource src(bytes);
  p.raw = Decoder::template run<Concrete>(
      src, capacity, [&](uint32_t slot, const xcede::RawRecord<Concrete>& r) {
        p.slots_in_order = p.slots_in_order && slot == p.records.size();
        p.records.push_back(xcede::Record{r.hint.v, r.latency_ticks.v, r.wake_on_irqs.v});
      });
  p.out_of_range_reads = src.out_of_range_reads();
  p.first_out_of_range = src.first_out_of_range();
  return p;
}

}  // namespace idlespec::props
