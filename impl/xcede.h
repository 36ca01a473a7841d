// XCEDE: the PAPR "cede latency settings information" system parameter
// (parameter 45, read with the ibm,get-system-parameter RTAS call).
//
// Buffer layout, big-endian:
//   offset 0  u16 payload_size   counts the record-size byte, the records and the NUL
//   offset 2  u8  record_size-1  9 in the only version PAPR defines
//   offset 3  records, 10 bytes each:
//               +0 u8  cede latency hint
//               +1 u64 maximum wakeup latency in timebase ticks
//               +9 u8  responsive to external interrupts
//   then      u8  NUL
//
// decode_raw() is the decoder, written once over a value domain D (see
// impl/domain.h): production runs it on concrete words, proofs/ on Z3
// bit-vectors. decode() below is the concrete front end.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "impl/domain.h"

namespace idlespec::xcede {

inline constexpr uint32_t kRecordSize = 10;  // PAPR record size, version 1
inline constexpr uint8_t kRecordSizeByte = kRecordSize - 1;
inline constexpr uint32_t kHeaderSize = 3;        // payload_size + record-size byte
inline constexpr uint32_t kDefaultCapacity = 16;  // records the upstream buffer holds
inline constexpr uint32_t kMaxCapacity = (0xffff - 2) / kRecordSize;  // 6553: all a u16 can declare

// The decoder's view of one record; `present` says whether the record was
// decoded (records past the count are all-zero and absent).
template <class D>
struct RawRecord {
  typename D::Bool present;
  typename D::template U<8> hint;
  typename D::template U<64> latency_ticks;
  typename D::template U<8> wake_on_irqs;
};

// Everything the decoder concludes about one buffer, as values of D.
template <class D>
struct RawDecode {
  using Bool = typename D::Bool;
  Bool header_ok;  // the buffer holds payload_size and the record-size byte
  Bool size_ok;    // header_ok and record-size byte == 9: the payload is decoded
  typename D::template U<16> payload_size;
  typename D::template U<8> record_size_byte;
  typename D::template U<32> declared;   // records payload_size declares
  typename D::template U<32> in_buffer;  // complete records the buffer holds
  typename D::template U<32> count;      // records decoded
  Bool short_payload;                    // XCEDE-3: payload_size < 2
  Bool over_capacity;                    // XCEDE-4: more records declared than the capacity
  Bool truncated;                        // XCEDE-1: the buffer ends before the records to decode
  Bool partial_record;                   // payload_size - 2 is not a multiple of the record size
  Bool nul_missing;                      // the byte after the last record is absent or not NUL
};

// Decodes the buffer that `src` presents. `src` provides
//   D::U<32> length() const                       the buffer length (saturated at 2^32-1)
//   D::U<8>  read(D::Bool guard, D::U<32> offset) the byte at offset, when guard holds
// and must not be asked for a byte unless the decoder has proved it in range:
// that obligation is clause XCEDE-1. `sink(index, record)` receives every
// record slot the decoder fills, up to `capacity` slots.
template <class D, class Source, class Sink>
RawDecode<D> decode_raw(Source& src, uint32_t capacity, Sink&& sink) {
  using U8 = typename D::template U<8>;
  using U32 = typename D::template U<32>;
  using U64 = typename D::template U<64>;
  auto lit32 = [](uint64_t v) { return D::template lit<32>(v); };

  RawDecode<D> out{};
  const U32 len = src.length();
  out.header_ok = len >= lit32(kHeaderSize);
  const U8 hi = src.read(out.header_ok, lit32(0));
  const U8 lo = src.read(out.header_ok, lit32(1));
  out.record_size_byte = src.read(out.header_ok, lit32(2));
  out.payload_size = (D::template zext<16>(hi) << 8) | D::template zext<16>(lo);

  // XCEDE-2: the record size is checked first; nothing else is decoded when
  // it is not the one version PAPR defines.
  out.size_ok = out.header_ok && out.record_size_byte == D::template lit<8>(kRecordSizeByte);

  // XCEDE-3: payload_size counts the record-size byte and the NUL. Below 2
  // there is no room for records; the count is 0, never (payload_size - 2).
  const U32 size32 = D::template zext<32>(out.payload_size);
  const auto has_body = size32 >= lit32(2);
  const U32 body = D::ite(has_body, size32 - lit32(2), lit32(0));
  out.short_payload = out.size_ok && !has_body;
  out.declared = D::ite(out.size_ok, D::udiv(body, lit32(kRecordSize)), lit32(0));
  out.partial_record = out.size_ok && (body - out.declared * lit32(kRecordSize)) != lit32(0);

  // XCEDE-1 and XCEDE-4: the count is bounded by what the buffer holds and by
  // the capacity, not only by what payload_size declares.
  out.in_buffer =
      D::ite(out.size_ok, D::udiv(len - lit32(kHeaderSize), lit32(kRecordSize)), lit32(0));
  const U32 cap = lit32(capacity);
  out.over_capacity = out.size_ok && out.declared > cap;
  const U32 wanted = D::ite(out.over_capacity, cap, out.declared);
  out.truncated = out.size_ok && wanted > out.in_buffer;
  out.count = D::ite(out.truncated, out.in_buffer, wanted);

  // The NUL that ends the payload sits at offset 2 + payload_size - 1. It is
  // looked for only when every declared record was decoded.
  const auto complete =
      out.size_ok && has_body && !out.partial_record && !out.over_capacity && !out.truncated;
  const U32 nul_at = size32 + lit32(1);
  const auto nul_in_buffer = complete && nul_at < len;
  const U8 nul = src.read(nul_in_buffer, nul_at);
  out.nul_missing = complete && !(nul_in_buffer && nul == D::template lit<8>(0));

  for (uint32_t i = 0; i < capacity; ++i) {
    const auto present = lit32(i) < out.count;
    if (D::known_false(present)) break;
    const uint32_t base = kHeaderSize + i * kRecordSize;
    RawRecord<D> rec{};
    rec.present = present;
    rec.hint = src.read(present, lit32(base));
    U64 ticks = D::template lit<64>(0);
    for (uint32_t b = 0; b < 8; ++b) {
      ticks = (ticks << 8) | D::template zext<64>(src.read(present, lit32(base + 1 + b)));
    }
    rec.latency_ticks = ticks;
    rec.wake_on_irqs = src.read(present, lit32(base + 9));
    sink(i, rec);
  }
  return out;
}

// ---- Concrete front end -------------------------------------------------

struct Record {
  uint8_t hint = 0;
  uint64_t latency_ticks = 0;
  uint8_t wake_on_irqs = 0;
  friend bool operator==(const Record&, const Record&) = default;
};

// A warning or an error, with the clause that governs it and the byte offset
// in the parameter buffer it concerns.
struct Diagnostic {
  std::string clause;
  size_t offset = 0;
  std::string message;
};

struct Decoded {
  uint16_t payload_size = 0;
  uint8_t record_size_byte = 0;
  uint32_t declared_records = 0;
  std::vector<Record> records;
  std::vector<Diagnostic> warnings;
  std::optional<Diagnostic> error;  // set when nothing was decoded (XCEDE-2, short buffer)
  bool ok() const { return !error.has_value(); }
};

// The reference decoder, as a type that decode_using() and the checks take.
struct ReferenceDecoder {
  template <class D, class Source, class Sink>
  static RawDecode<D> run(Source& src, uint32_t capacity, Sink&& sink) {
    return decode_raw<D>(src, capacity, std::forward<Sink>(sink));
  }
};

// Decodes a raw parameter buffer with any decoder of ReferenceDecoder's shape.
template <class Decoder>
Decoded decode_using(std::span<const uint8_t> buffer, uint32_t capacity);

// Decodes a raw parameter buffer. Never reads outside `buffer`.
Decoded decode(std::span<const uint8_t> buffer, uint32_t capacity = kDefaultCapacity);

// The buffer a firmware would return for these records: payload_size,
// record-size byte, the records, the NUL. Inverse of decode (XCEDE-5).
std::vector<uint8_t> encode(std::span<const Record> records);

// The lines the kernel prints while parsing, one per record:
// "xcede: Record 0 : hint = 1, latency = 0x400 tb ticks, Wake-on-irq = 1".
std::vector<std::string> dmesg_lines(const Decoded& decoded);

}  // namespace idlespec::xcede

#include "impl/xcede_frontend.h"
