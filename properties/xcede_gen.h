// RapidCheck generators for the XCEDE parameter buffer (spec/xcede.md),
// for the oracle that judges what they give (oracle/xcede.h).
//
//   valid payloads     0..capacity records, every hint and wake-on-irq byte,
//                      latencies 0, tiny, 512/513 ticks, huge up to 2^64 - 1;
//   corrupted payloads bad record-size byte, payload_size below 2, larger or
//                      smaller than the buffer, partial trailing record,
//                      missing NUL, more records than the capacity, cut short;
//   byte soup          any bytes, half of them with a plausible header.
//
// Generated values print as a kernel developer reads them: the payload in hex
// with its header fields, records as the dmesg lines would show them.
#pragma once

#include <rapidcheck.h>

#include <cstdint>
#include <ostream>
#include <span>
#include <string>
#include <vector>

#include "impl/xcede.h"

namespace idlespec::props {

// A parameter buffer as firmware might hand it over, the capacity it is
// decoded with, and how it was made ("valid", "missing NUL", ...).
struct Payload {
  std::vector<uint8_t> bytes;
  uint32_t capacity = xcede::kDefaultCapacity;
  std::string shape;
};

// Records as firmware describes them, before encoding.
struct RecordList {
  std::vector<xcede::Record> records;
  uint32_t capacity = xcede::kDefaultCapacity;
};

// "00 16 09 01 ..." (at most max_bytes, then "... (N bytes)").
std::string hex(std::span<const uint8_t> bytes, size_t max_bytes = 64);
// "[hint=1 latency=0x400 wake=1, ...]"
std::string show_records(std::span<const xcede::Record> records);

void showValue(const Payload& p, std::ostream& os);
void showValue(const RecordList& r, std::ostream& os);

// Sets the big-endian payload_size of a buffer of at least 2 bytes.
void set_payload_size(std::vector<uint8_t>& bytes, uint16_t payload_size);

namespace gen {

rc::Gen<uint64_t> latency_ticks();
rc::Gen<uint8_t> hint();
rc::Gen<uint8_t> wake_on_irqs();
rc::Gen<xcede::Record> record();
// 16 most often, 4 (the 2020 RFC's buffer), 0, 1, and anything up to 40.
rc::Gen<uint32_t> capacity();
// A capacity and 0..capacity records.
rc::Gen<RecordList> record_list();

rc::Gen<Payload> valid_payload();
rc::Gen<Payload> corrupted_payload();
rc::Gen<Payload> byte_soup();
rc::Gen<Payload> any_payload();

// At least 3 bytes, record-size byte other than 9, any payload_size
// (below 2 as often as not: XCEDE-2 comes before XCEDE-3).
rc::Gen<Payload> bad_record_size_payload();
// Record-size byte 9, payload_size 0 or 1, anything after.
rc::Gen<Payload> short_payload();
// Whole, well-formed payloads with 0..capacity+4 records.
rc::Gen<Payload> around_capacity_payload();

}  // namespace gen
}  // namespace idlespec::props
