#include "oracle/xcede.h"

#include <algorithm>
#include <array>
#include <cstdio>
#include <iterator>

#include "impl/text.h"

namespace idlespec::xcede::oracle {
namespace {

// The spec's layout, in its own words: a 2-byte payload_size, the record-size
// byte (9: records of 10 bytes), then the records.
constexpr size_t kHeader = 3;
constexpr size_t kRecordBytes = 10;
constexpr uint8_t kRecordSizeNine = 9;

std::string show(const Record& r) {
  return strprintf("hint %u, latency 0x%llx, wake %u", r.hint,
                   static_cast<unsigned long long>(r.latency_ticks), r.wake_on_irqs);
}

// Counts "XCEDE-1".."XCEDE-4" into tally[1..4]; false on a clause outside
// XCEDE-1..5 (the caller then compares the lists themselves).
bool count_governed(const std::string& clause, std::array<uint32_t, 5>& tally) {
  if (clause.size() != 7 || clause.compare(0, 6, "XCEDE-") != 0) return false;
  const char digit = clause[6];
  if (digit < '1' || digit > '5') return false;
  if (digit != '5') ++tally[size_t(digit - '0')];
  return true;
}

bool same_governed_warnings(const ExpectedDecode& e, const Decoded& d) {
  std::array<uint32_t, 5> want{};
  std::array<uint32_t, 5> got{};
  for (const std::string& c : e.warning_clauses) {
    if (!count_governed(c, want)) return false;
  }
  for (const Diagnostic& w : d.warnings) {
    if (!count_governed(w.clause, got)) return false;
  }
  return want == got;
}

}  // namespace

ExpectedDecode expected_decode(std::span<const uint8_t> bytes, uint32_t capacity) {
  ExpectedDecode e;
  const size_t len = bytes.size();
  if (len < kHeader) {
    e.error_clause = "XCEDE-1";
    e.error_offset = len;
    return e;
  }
  e.payload_size = (uint32_t{bytes[0]} << 8) | bytes[1];
  if (bytes[2] != kRecordSizeNine) {
    e.error_clause = "XCEDE-2";
    e.error_offset = 2;
    return e;
  }
  std::vector<std::string>& w = e.warning_clauses;
  if (e.payload_size < 2) {
    w.push_back("XCEDE-3");
  } else {
    e.declared = (e.payload_size - 2) / kRecordBytes;
    e.partial = (e.payload_size - 2) % kRecordBytes != 0;
    if (e.partial) w.push_back("XCEDE-5");
  }
  const bool over_capacity = e.declared > capacity;
  if (over_capacity) w.push_back("XCEDE-4");
  e.in_buffer = static_cast<uint32_t>(std::min<size_t>((len - kHeader) / kRecordBytes, UINT32_MAX));
  const uint32_t wanted = std::min(e.declared, capacity);
  e.truncated = wanted > e.in_buffer;
  if (e.truncated) w.push_back("XCEDE-1");
  e.count = std::min(wanted, e.in_buffer);
  // The NUL ends the payload at offset payload_size + 1; it is looked for only
  // when every declared record was decoded.
  if (e.payload_size >= 2 && !e.partial && !over_capacity && !e.truncated) {
    const size_t nul_at = size_t{e.payload_size} + 1;
    const bool nul = nul_at < len && bytes[nul_at] == 0;
    if (!nul) w.push_back("XCEDE-5");
    e.valid = nul && len == nul_at + 1;
  }
  std::sort(w.begin(), w.end());
  return e;
}

Record record_at(std::span<const uint8_t> bytes, uint32_t i) {
  const size_t base = kHeader + kRecordBytes * i;
  uint64_t ticks = 0;
  for (size_t b = 0; b < 8; ++b) ticks = (ticks << 8) | bytes[base + 1 + b];
  return Record{bytes[base], ticks, bytes[base + 9]};
}

std::vector<std::string> warning_clauses(const Decoded& d) {
  std::vector<std::string> out;
  for (const auto& w : d.warnings) out.push_back(w.clause);
  std::sort(out.begin(), out.end());
  return out;
}

bool has_warning(const Decoded& d, std::string_view clause) {
  return std::any_of(d.warnings.begin(), d.warnings.end(),
                     [&](const Diagnostic& w) { return w.clause == clause; });
}

std::optional<Violation> judge_reads(const Probe& p, size_t buffer_length) {
  if (p.out_of_range_reads == 0) return std::nullopt;
  return Violation{"XCEDE-1", strprintf("the decoder read at offset %u of a %zu-byte buffer (%llu "
                                        "read(s) outside it)",
                                        p.first_out_of_range, buffer_length,
                                        static_cast<unsigned long long>(p.out_of_range_reads))};
}

std::optional<Violation> judge_header(const ExpectedDecode& e, size_t count, const Decoded& d,
                                      size_t length, uint32_t capacity) {
  if (count != e.count) {
    // Where a wrong record count breaks the spec.
    std::string clause = e.error_clause;  // XCEDE-1 (< 3 bytes) or XCEDE-2
    if (clause.empty()) {
      if (std::count(e.warning_clauses.begin(), e.warning_clauses.end(), "XCEDE-3")) {
        clause = "XCEDE-3";
      } else if (count > capacity) {
        clause = "XCEDE-4";
      } else {
        clause = "XCEDE-1";
      }
    }
    return Violation{clause, strprintf("%zu records decoded, expected %u = min(declared %u, "
                                       "capacity %u, in buffer %u)",
                                       count, e.count, e.declared, capacity, e.in_buffer)};
  }
  const std::string error = d.error ? d.error->clause : "";
  if (error != e.error_clause) {
    return Violation{e.error_clause.empty() ? error : e.error_clause,
                     "error " + (error.empty() ? "none" : error) + ", expected " +
                         (e.error_clause.empty() ? "none" : e.error_clause)};
  }
  if (d.error && d.error->offset != e.error_offset) {
    return Violation{
        error, strprintf("error at offset %zu, expected %zu", d.error->offset, e.error_offset)};
  }
  // XCEDE-5 warnings (partial record, NUL) are judge_records's. The common
  // case, the same XCEDE-1..4 warnings as often each, is decided by counting;
  // any other difference, or a clause outside XCEDE-1..5, is spelt out here.
  if (!same_governed_warnings(e, d)) {
    const auto governed = [](const std::string& clause) { return clause != "XCEDE-5"; };
    std::vector<std::string> want;
    std::vector<std::string> got;
    std::copy_if(e.warning_clauses.begin(), e.warning_clauses.end(), std::back_inserter(want),
                 governed);
    const std::vector<std::string> all = warning_clauses(d);
    std::copy_if(all.begin(), all.end(), std::back_inserter(got), governed);
    if (want != got) {
      // A missing warning names the clause that broke; an extra one follows from it.
      std::vector<std::string> diff;
      std::set_difference(want.begin(), want.end(), got.begin(), got.end(),
                          std::back_inserter(diff));
      std::set_difference(got.begin(), got.end(), want.begin(), want.end(),
                          std::back_inserter(diff));
      std::string w = "warnings [";
      for (size_t i = 0; i < got.size(); ++i) w += (i ? " " : "") + got[i];
      w += "], expected [";
      for (size_t i = 0; i < want.size(); ++i) w += (i ? " " : "") + want[i];
      return Violation{diff.empty() ? "XCEDE-1" : diff.front(), w + "]"};
    }
  }
  for (const auto& w : d.warnings) {
    if (w.clause == "XCEDE-1" && w.offset != length) {
      return Violation{"XCEDE-1", strprintf("truncation warning names offset %zu, the buffer "
                                            "ends at %zu",
                                            w.offset, length)};
    }
  }
  return std::nullopt;
}

void judge_records(std::span<const uint8_t> bytes, const ExpectedDecode& e, const Decoded& d,
                   Violations& out) {
  auto fail = [&](std::string message) { out.push_back({"XCEDE-5", std::move(message)}); };
  if (!e.error_clause.empty()) {
    if (has_warning(d, "XCEDE-5"))
      fail("an XCEDE-5 warning beside the " + e.error_clause + " error");
    return;
  }
  const size_t n = std::min<size_t>(d.records.size(), e.in_buffer);
  for (size_t i = 0; i < n; ++i) {
    const Record want = record_at(bytes, static_cast<uint32_t>(i));
    if (!(d.records[i] == want)) {
      fail(strprintf("record %zu decoded as %s; the bytes at offset %zu say %s", i,
                     show(d.records[i]).c_str(), kHeader + i * kRecordBytes, show(want).c_str()));
      break;
    }
  }
  const bool due = std::count(e.warning_clauses.begin(), e.warning_clauses.end(), "XCEDE-5") != 0;
  if (due && !has_warning(d, "XCEDE-5")) {
    fail(e.partial ? strprintf("payload_size %u leaves a partial record: no XCEDE-5 warning",
                               e.payload_size)
                   : strprintf("no NUL at offset %u: no XCEDE-5 warning", e.payload_size + 1));
  }
  if (e.valid) {
    if (!d.warnings.empty()) {
      fail("valid payload decoded with a warning: " + d.warnings[0].clause + " " +
           d.warnings[0].message);
    }
    const std::vector<uint8_t> again = encode(d.records);
    if (!std::equal(again.begin(), again.end(), bytes.begin(), bytes.end())) {
      fail("valid payload: encode(decode(p)) != p, encode gives " + idlespec::oracle::hex(again));
    }
  }
}

Violations judge_decode(std::span<const uint8_t> bytes, uint32_t capacity, const Decoded& d) {
  Violations out;
  const ExpectedDecode e = expected_decode(bytes, capacity);
  if (auto v = judge_header(e, d.records.size(), d, bytes.size(), capacity)) {
    out.push_back(std::move(*v));
  }
  judge_records(bytes, e, d, out);
  return out;
}

std::string describe_buffer(std::span<const uint8_t> bytes, uint32_t capacity) {
  std::string out;
  if (bytes.size() >= kHeader) {
    out = strprintf("payload_size %u, record-size byte %u, ", (bytes[0] << 8) | bytes[1], bytes[2]);
  }
  return out + strprintf("buffer of %zu bytes, capacity %u", bytes.size(), capacity);
}

std::optional<Violation> judge_query_retries(std::span<const int32_t> script, uint64_t calls) {
  if (script.empty() || !std::all_of(script.begin(), script.end(), spec_retried_status))
    return std::nullopt;
  const uint64_t due = script.size() + 1;
  if (calls == due) return std::nullopt;
  if (calls < due) {
    const int32_t at = script[calls == 0 ? 0 : calls - 1];
    return Violation("XCEDE-7", "the query gave up after " + std::to_string(calls) +
                                    " RTAS call(s), on status " + std::to_string(at) +
                                    ", which is not final (" + std::to_string(due) +
                                    " calls reach the firmware's success)");
  }
  return Violation("XCEDE-7", "the query made " + std::to_string(calls) + " RTAS calls, " +
                                  std::to_string(due) + " reach the firmware's success");
}

// --- XCEDE-8 ------------------------------------------------------------------

namespace {
// The buffer with payload_size's two bytes exchanged.
std::vector<uint8_t> size_swapped(std::span<const uint8_t> bytes) {
  std::vector<uint8_t> b(bytes.begin(), bytes.end());
  if (b.size() >= 2) std::swap(b[0], b[1]);
  return b;
}
std::string hex16(uint32_t v) {
  char buf[16];
  std::snprintf(buf, sizeof(buf), "0x%04x", v & 0xffffu);
  return buf;
}
}  // namespace

std::optional<Violation> judge_payload_size_order(std::span<const uint8_t> bytes,
                                                  uint32_t seen_payload_size) {
  if (bytes.size() < 2) return std::nullopt;
  const uint32_t big = (uint32_t{bytes[0]} << 8) | bytes[1];
  const uint32_t other = (uint32_t{bytes[1]} << 8) | bytes[0];
  if (big == other || seen_payload_size != other) return std::nullopt;
  return Violation{"XCEDE-8", "payload_size read as " + hex16(other) + " from bytes " + hex16(big) +
                                  ": the field taken in little-endian order, not "
                                  "big-endian (" +
                                  std::to_string(big) + ")"};
}

std::optional<Violation> judge_count_order(std::span<const uint8_t> bytes, uint32_t capacity,
                                           uint32_t count) {
  if (bytes.size() < kHeader || bytes[0] == bytes[1]) return std::nullopt;
  const ExpectedDecode want = expected_decode(bytes, capacity);
  const std::vector<uint8_t> swapped = size_swapped(bytes);
  const ExpectedDecode other = expected_decode(swapped, capacity);
  if (!want.error_clause.empty() || want.count == other.count || count != other.count)
    return std::nullopt;
  // A big-endian payload_size below 2 is XCEDE-3's ground: a decoder whose
  // payload_size - 2 wraps there is clamped by its min() to the count a
  // swapped field gives too (0x0001: 1 big-endian, 256 the other way, 16
  // records either way), so such an input says nothing of the order.
  if (want.payload_size < 2) return std::nullopt;
  const uint32_t big = want.payload_size, little = other.payload_size;
  std::string how = "payload_size read in little-endian order (" + hex16(little) + ", " +
                    std::to_string(little) + ")";
  // A plain-char byte sign-extended (char signed) can give the same count:
  // the low byte's sign bit over the high byte.
  if (bytes[1] & 0x80) {
    std::vector<uint8_t> extended(bytes.begin(), bytes.end());
    extended[0] = 0xff;
    if (expected_decode(extended, capacity).count == count)
      how +=
          " or with its low byte sign-extended (" + hex16(0xff00u | bytes[1]) + ", a signed char)";
  }
  return Violation{"XCEDE-8", std::to_string(count) + " record(s): what " + how +
                                  " gives; big-endian payload_size " + hex16(big) + " is " +
                                  std::to_string(big) + ", " + std::to_string(want.count) +
                                  " record(s)"};
}

std::optional<Violation> judge_latency_order(std::span<const uint8_t> bytes, uint32_t i,
                                             uint64_t seen) {
  const size_t at = kHeader + size_t{i} * kRecordBytes + 1;
  if (at + 8 > bytes.size()) return std::nullopt;
  uint64_t big = 0, little = 0;
  for (size_t k = 0; k < 8; ++k) {
    big = big << 8 | bytes[at + k];
    little = little << 8 | bytes[at + 7 - k];
  }
  if (big == little || seen != little) return std::nullopt;
  char buf[160];
  std::snprintf(buf, sizeof(buf),
                "record %u's latency read as 0x%016llx: its bytes in little-endian order; "
                "big-endian they are 0x%016llx",
                i, static_cast<unsigned long long>(little), static_cast<unsigned long long>(big));
  return Violation{"XCEDE-8", buf};
}

Violations judge_byte_order(std::span<const uint8_t> bytes, uint32_t capacity, const Decoded& d) {
  Violations out;
  if (auto v = judge_payload_size_order(bytes, d.payload_size))
    out.push_back(std::move(*v));
  else if (auto c = judge_count_order(bytes, capacity, static_cast<uint32_t>(d.records.size())))
    out.push_back(std::move(*c));
  for (uint32_t i = 0; i < d.records.size(); ++i)
    if (auto v = judge_latency_order(bytes, i, d.records[i].latency_ticks)) {
      out.push_back(std::move(*v));
      break;
    }
  return out;
}

}  // namespace idlespec::xcede::oracle
