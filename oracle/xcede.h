// spec/xcede.md as an executable reading: what decoding a parameter buffer
// must give, computed from the bytes with plain integers (nothing from
// impl/xcede.h but its value types and constants), and the judges that
// compare a decoder's output with it. Every layer judges XCEDE-1..5 here:
// the properties and the header sweep (properties/), the fuzz target and
// the corpus replay (fuzz/xcede_fuzz), validate's xcede component.
//
// What the spec asks of a buffer of `len` bytes and a capacity:
//   len < 3                  error XCEDE-1 at the buffer's end, nothing decoded
//   record-size byte != 9    error XCEDE-2 at offset 2, nothing decoded
//   payload_size < 2         warning XCEDE-3, no records
//   declared > capacity      warning XCEDE-4
//   partial trailing record  warning XCEDE-5
//   min(declared, capacity) records do not fit the buffer
//                            warning XCEDE-1 at the buffer's end
//   every declared record decoded, but no NUL after them
//                            warning XCEDE-5
//   count = min(declared, capacity, complete records in the buffer), each
//   record exactly the bytes of its slot; a valid payload decodes without a
//   warning and encodes back to itself (XCEDE-5).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "impl/domain.h"
#include "impl/xcede.h"
#include "oracle/violation.h"

namespace idlespec::xcede::oracle {

using Violation = idlespec::oracle::Violation;
using Violations = idlespec::oracle::Violations;

struct ExpectedDecode {
  std::string error_clause;  // empty when the buffer is decoded
  size_t error_offset = 0;
  uint32_t payload_size = 0;
  uint32_t declared = 0;   // records payload_size declares (0 below 2 or on error)
  uint32_t in_buffer = 0;  // complete records the buffer holds
  uint32_t count = 0;      // records to decode
  bool partial = false;    // payload_size leaves a partial trailing record
  std::vector<std::string> warning_clauses;  // sorted
  bool truncated = false;                    // the XCEDE-1 warning, which names the buffer's end
  // A valid payload: whole records, all within capacity and buffer, the NUL
  // last (nothing after it): decodes without a warning, encodes to itself.
  bool valid = false;
};

ExpectedDecode expected_decode(std::span<const uint8_t> bytes, uint32_t capacity);

// Record i as the buffer holds it (the buffer must hold it whole).
Record record_at(std::span<const uint8_t> bytes, uint32_t i);

// The clauses of a decode's warnings, sorted.
std::vector<std::string> warning_clauses(const Decoded& d);
bool has_warning(const Decoded& d, std::string_view clause);

// XCEDE-1's instrument: a byte source (the shape decode_raw() reads through)
// that serves in-range reads from the buffer and counts, instead of
// performing, every read at an offset >= its length (answered with 0). A read
// whose guard is false is no read at all, as in the production source.
class CheckedSource {
 public:
  explicit CheckedSource(std::span<const uint8_t> bytes) : bytes_(bytes) {}

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

// One run of a decoder over a CheckedSource.
struct Probe {
  RawDecode<Concrete> raw{};
  std::vector<Record> records;  // what the sink received, in slot order
  bool slots_in_order = true;   // sink slots were 0, 1, 2, ...
  uint64_t out_of_range_reads = 0;
  uint32_t first_out_of_range = 0;
};

template <class Decoder>
Probe probe_decode(std::span<const uint8_t> bytes, uint32_t capacity) {
  Probe p;
  // One allocation for every record the buffer holds (3-byte header, 10-byte records).
  p.records.reserve(bytes.size() < 3 ? 0 : std::min<size_t>(capacity, (bytes.size() - 3) / 10));
  CheckedSource src(bytes);
  p.raw = Decoder::template run<Concrete>(
      src, capacity, [&](uint32_t slot, const RawRecord<Concrete>& r) {
        p.slots_in_order = p.slots_in_order && slot == p.records.size();
        p.records.push_back(Record{r.hint.v, r.latency_ticks.v, r.wake_on_irqs.v});
      });
  p.out_of_range_reads = src.out_of_range_reads();
  p.first_out_of_range = src.first_out_of_range();
  return p;
}

// --- the judges ----------------------------------------------------------------

// XCEDE-1: a decoder's reads, as a probe counted them.
std::optional<Violation> judge_reads(const Probe& p, size_t buffer_length);

// XCEDE-1..4 for one buffer: `count` records decoded (the sink's), and the
// frontend's error and XCEDE-1..4 warnings (XCEDE-5's warnings are
// judge_records's). The first finding only: the exhaustive header sweep
// runs this on every case.
std::optional<Violation> judge_header(const ExpectedDecode& e, size_t count, const Decoded& d,
                                      size_t buffer_length, uint32_t capacity);

// XCEDE-5 for one buffer: every decoded record is the bytes of its slot, the
// XCEDE-5 warnings are given where due, a valid payload decodes without a
// warning and encodes back to itself.
void judge_records(std::span<const uint8_t> bytes, const ExpectedDecode& e, const Decoded& d,
                   Violations& out);

// Everything above for one decode of `bytes` at `capacity`.
Violations judge_decode(std::span<const uint8_t> bytes, uint32_t capacity, const Decoded& d);

// A subject's decoder on one buffer: XCEDE-1 through the checked source
// first (a decoder that asks for a byte outside the buffer is not run on the
// real buffer at all), then judge_decode(). Returns the decode too.
template <class Decoder>
Violations judge_decoder(std::span<const uint8_t> bytes, uint32_t capacity,
                         Decoded* decoded = nullptr) {
  const Probe probe = probe_decode<Decoder>(bytes, capacity);
  if (auto v = judge_reads(probe, bytes.size())) return {std::move(*v)};
  Decoded d = decode_using<Decoder>(bytes, capacity);
  Violations out = judge_decode(bytes, capacity, d);
  if (decoded) *decoded = std::move(d);
  return out;
}

// --- XCEDE-8: byte order ------------------------------------------------------

// "The decoder reads every multi-byte field as big-endian on every host."
// A decoder that reads a field in the order of the host it runs on (no
// conversion, or a conversion that assumes one host order) is right on one
// order and wrong on the other; the judges below recognise the signature:
// what it gave equals what the field read in the opposite order gives, and
// differs from the big-endian reading. Where the two readings agree (a
// palindromic field) the input says nothing.

// payload_size as the decoder acted on it (`seen`, from its Decoded, or the
// value a harness recovered).
std::optional<Violation> judge_payload_size_order(std::span<const uint8_t> bytes,
                                                  uint32_t seen_payload_size);
// The record count a decoder gave for `bytes` at `capacity`: the count the
// other order of payload_size gives, not the big-endian one (validate's
// harness sees the count, not the field).
std::optional<Violation> judge_count_order(std::span<const uint8_t> bytes, uint32_t capacity,
                                           uint32_t count);
// Record i's latency as a decoder read it (`seen`): the slot's eight bytes
// in the opposite order, not big-endian.
std::optional<Violation> judge_latency_order(std::span<const uint8_t> bytes, uint32_t i,
                                             uint64_t seen);
// All three on one decode.
Violations judge_byte_order(std::span<const uint8_t> bytes, uint32_t capacity, const Decoded& d);

// --- XCEDE-7: the query's retries ------------------------------------------

// "Busy (-2) and extended delay (9900..9905) answers to the query are not
// final."
constexpr bool spec_retried_status(int32_t status) {
  return status == -2 || (status >= 9900 && status <= 9905);
}

// XCEDE-7 for one query: the firmware answers `script` in turn and success
// after it; the code made `calls` RTAS calls. When the script is busy and
// extended-delay answers only (at least one), the query must retry through
// every one of them and make exactly one call more, the successful one: a
// query that stops before it gave up on a status that is not final. Scripts
// with a final failing status (XCEDE-6's) and empty ones say nothing here.
std::optional<Violation> judge_query_retries(std::span<const int32_t> script, uint64_t calls);

// "payload_size 12, record-size byte 9, buffer of 15 bytes, capacity 16"
std::string describe_buffer(std::span<const uint8_t> bytes, uint32_t capacity);

}  // namespace idlespec::xcede::oracle
