#include "properties/xcede_gen.h"

#include <algorithm>
#include <cinttypes>
#include <limits>

#include "impl/states.h"
#include "impl/text.h"

namespace idlespec::props {

std::string hex(std::span<const uint8_t> bytes, size_t max_bytes) {
  std::string out;
  const size_t shown = std::min(bytes.size(), max_bytes);
  for (size_t i = 0; i < shown; ++i) out += strprintf(i ? " %02x" : "%02x", bytes[i]);
  if (shown < bytes.size()) out += strprintf(" ... (%zu bytes)", bytes.size());
  return out;
}

std::string show_records(std::span<const xcede::Record> records) {
  std::string out = "[";
  for (size_t i = 0; i < records.size(); ++i) {
    const xcede::Record& r = records[i];
    out += strprintf("%shint=%u latency=0x%" PRIx64 " wake=%u", i ? ", " : "", r.hint,
                     r.latency_ticks, r.wake_on_irqs);
  }
  return out + "]";
}

void showValue(const Payload& p, std::ostream& os) {
  os << p.shape << ", capacity " << p.capacity << ", " << p.bytes.size() << " bytes";
  if (p.bytes.size() >= 3) {
    os << " (payload_size " << ((p.bytes[0] << 8) | p.bytes[1]) << ", record-size byte "
       << unsigned{p.bytes[2]} << ")";
  }
  os << ": " << hex(p.bytes);
}

void showValue(const RecordList& r, std::ostream& os) {
  os << "capacity " << r.capacity << ", " << r.records.size()
     << " records: " << show_records(r.records);
}

void set_payload_size(std::vector<uint8_t>& bytes, uint16_t payload_size) {
  bytes[0] = static_cast<uint8_t>(payload_size >> 8);
  bytes[1] = static_cast<uint8_t>(payload_size);
}

namespace gen {
namespace {

// Sizes do not shrink the interesting values below: a huge latency stays
// huge when RapidCheck starts small.
template <class T>
rc::Gen<T> full_range() {
  return rc::gen::resize(100, rc::gen::arbitrary<T>());
}

rc::Gen<std::vector<uint8_t>> bytes_up_to(size_t n) {
  return rc::gen::exec([n] {
    const auto len = *rc::gen::inRange<size_t>(0, n + 1);
    return *rc::gen::container<std::vector<uint8_t>>(len, full_range<uint8_t>());
  });
}

std::vector<xcede::Record> pick_records(uint32_t n) {
  return *rc::gen::container<std::vector<xcede::Record>>(n, record());
}

}  // namespace

rc::Gen<uint64_t> latency_ticks() {
  constexpr uint64_t kMax = std::numeric_limits<uint64_t>::max();
  // At 512 MHz: 512 ticks = 1 us, 513 the first to round up to 2 us, 5120 =
  // 10 us (CEDE's default); kMaxLatencyUs * 512 the last latency cpuidle keeps.
  constexpr uint64_t kLastKept = states::kMaxLatencyUs * 512;
  return rc::gen::weightedOneOf<uint64_t>({
      {2, rc::gen::just<uint64_t>(0)},
      {2, rc::gen::inRange<uint64_t>(1, 16)},
      {3, rc::gen::element<uint64_t>(511, 512, 513, 1024, 5119, 5120, 5121, 51200)},
      {4, rc::gen::inRange<uint64_t>(1, uint64_t{1} << 40)},
      {2, rc::gen::element(uint64_t{kLastKept}, kLastKept + 1, uint64_t{1} << 63, kMax - 1,
                           uint64_t{kMax})},
      {1, full_range<uint64_t>()},
  });
}

rc::Gen<uint8_t> hint() {
  return rc::gen::weightedOneOf<uint8_t>(
      {{4, rc::gen::inRange<uint8_t>(0, 5)}, {1, full_range<uint8_t>()}});
}

rc::Gen<uint8_t> wake_on_irqs() {
  return rc::gen::weightedOneOf<uint8_t>(
      {{3, rc::gen::element<uint8_t>(0, 1)}, {2, full_range<uint8_t>()}});
}

rc::Gen<xcede::Record> record() {
  return rc::gen::exec([] { return xcede::Record{*hint(), *latency_ticks(), *wake_on_irqs()}; });
}

rc::Gen<uint32_t> capacity() {
  return rc::gen::weightedOneOf<uint32_t>({
      {6, rc::gen::just(uint32_t{xcede::kDefaultCapacity})},
      {1, rc::gen::just<uint32_t>(4)},
      {1, rc::gen::element<uint32_t>(0, 1)},
      {2, rc::gen::inRange<uint32_t>(0, 41)},
  });
}

rc::Gen<RecordList> record_list() {
  return rc::gen::exec([] {
    const uint32_t cap = *capacity();
    const auto n = *rc::gen::inRange<uint32_t>(0, cap + 1);
    return RecordList{pick_records(n), cap};
  });
}

rc::Gen<Payload> valid_payload() {
  return rc::gen::exec([] {
    const RecordList r = *record_list();
    return Payload{xcede::encode(r.records), r.capacity, "valid"};
  });
}

rc::Gen<Payload> corrupted_payload() {
  return rc::gen::exec([] {
    const uint32_t cap = *capacity();
    const auto n = *rc::gen::inRange<uint32_t>(0, cap + 4);
    std::vector<uint8_t> b = xcede::encode(pick_records(n));
    const uint16_t ps = static_cast<uint16_t>(b.size() - 2);
    switch (*rc::gen::element(0, 1, 2, 3, 4, 5, 6, 7, 8)) {  // uniform, whatever the size
      case 0:
        b[2] = *rc::gen::distinctFrom(full_range<uint8_t>(), xcede::kRecordSizeByte);
        return Payload{b, cap, "bad record size"};
      case 1:
        set_payload_size(b, *rc::gen::element<uint16_t>(0, 1));
        return Payload{b, cap, "payload_size below 2"};
      case 2:
        set_payload_size(
            b, *rc::gen::weightedOneOf<uint16_t>({{3, rc::gen::inRange<uint16_t>(ps + 1, 0xffff)},
                                                  {1, rc::gen::just<uint16_t>(0xffff)}}));
        return Payload{b, cap, "payload_size beyond the buffer"};
      case 3:
        set_payload_size(b, *rc::gen::inRange<uint16_t>(0, ps));
        return Payload{b, cap, "payload_size short of the buffer"};
      case 4: {
        const auto extra = *rc::gen::container<std::vector<uint8_t>>(
            *rc::gen::inRange<size_t>(1, xcede::kRecordSize), full_range<uint8_t>());
        b.insert(b.end() - 1, extra.begin(), extra.end());
        set_payload_size(b, static_cast<uint16_t>(ps + extra.size()));
        return Payload{b, cap, "partial trailing record"};
      }
      case 5:
        if (*rc::gen::arbitrary<bool>()) {
          b.pop_back();
        } else {
          b.back() = *rc::gen::inRange<uint8_t>(1, 0xff);
        }
        return Payload{b, cap, "missing NUL"};
      case 6:
        b.resize(*rc::gen::inRange<size_t>(0, b.size()));
        return Payload{b, cap, "buffer cut short"};
      case 7: {
        const auto tail = *bytes_up_to(20);
        b.insert(b.end(), tail.begin(), tail.end());
        return Payload{b, cap, "bytes after the NUL"};
      }
      default: {
        const auto over = *rc::gen::inRange<uint32_t>(cap + 1, cap + 5);
        return Payload{xcede::encode(pick_records(over)), cap, "more records than the capacity"};
      }
    }
  });
}

rc::Gen<Payload> byte_soup() {
  return rc::gen::exec([] {
    const uint32_t cap = *capacity();
    std::vector<uint8_t> b = *bytes_up_to(3 + xcede::kRecordSize * (cap + 2));
    if (b.size() >= 3 && *rc::gen::arbitrary<bool>()) b[2] = xcede::kRecordSizeByte;
    return Payload{b, cap, "byte soup"};
  });
}

rc::Gen<Payload> any_payload() {
  return rc::gen::weightedOneOf<Payload>(
      {{3, valid_payload()}, {5, corrupted_payload()}, {2, byte_soup()}});
}

rc::Gen<Payload> bad_record_size_payload() {
  return rc::gen::exec([] {
    Payload p = *rc::gen::oneOf(valid_payload(), corrupted_payload(), byte_soup());
    if (p.bytes.size() < 3) p.bytes.resize(3);
    p.bytes[2] = *rc::gen::distinctFrom(full_range<uint8_t>(), xcede::kRecordSizeByte);
    if (*rc::gen::arbitrary<bool>()) set_payload_size(p.bytes, *rc::gen::element<uint16_t>(0, 1));
    p.shape = "bad record size (" + p.shape + ")";
    return p;
  });
}

rc::Gen<Payload> short_payload() {
  return rc::gen::exec([] {
    Payload p = *rc::gen::oneOf(valid_payload(), byte_soup());
    if (p.bytes.size() < 3) p.bytes.resize(3);
    set_payload_size(p.bytes, *rc::gen::element<uint16_t>(0, 1));
    p.bytes[2] = xcede::kRecordSizeByte;
    p.shape = "payload_size below 2 (" + p.shape + ")";
    return p;
  });
}

rc::Gen<Payload> around_capacity_payload() {
  return rc::gen::exec([] {
    const uint32_t cap = *capacity();
    const auto n =
        *rc::gen::weightedOneOf<uint32_t>({{1, rc::gen::inRange<uint32_t>(0, cap + 1)},
                                           {2, rc::gen::inRange<uint32_t>(cap, cap + 5)}});
    return Payload{xcede::encode(pick_records(n)), cap, strprintf("%u records", n)};
  });
}

}  // namespace gen
}  // namespace idlespec::props
