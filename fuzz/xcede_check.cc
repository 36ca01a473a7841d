// The xcede_fuzz oracle: what the decoder and the state table must be for
// one input, computed from the bytes and the spec's prose (never from
// decode_raw or build_raw), compared with what the subject produced.
#include "fuzz/xcede_check.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>

#include "impl/text.h"

namespace idlespec::fuzz {
namespace {

using u128 = unsigned __int128;

constexpr size_t kNoRecord = static_cast<size_t>(-1);

std::string dec(u128 v) {
  std::string s;
  do {
    s.insert(s.begin(), static_cast<char>('0' + static_cast<int>(v % 10)));
    v /= 10;
  } while (v != 0);
  return s;
}

// ceil(ticks * 10^6 / tb_hz), exactly (spec/states.md, "Latency").
u128 exact_us(uint64_t ticks, uint64_t tb_hz) {
  return (u128(ticks) * 1000000u + (tb_hz - 1)) / tb_hz;
}

uint64_t be64(std::span<const uint8_t> b, size_t at) {
  uint64_t v = 0;
  for (size_t i = 0; i < 8; ++i) v = (v << 8) | b[at + i];
  return v;
}

bool has_warning(const xcede::Decoded& d, std::string_view clause) {
  return std::any_of(d.warnings.begin(), d.warnings.end(),
                     [&](const xcede::Diagnostic& w) { return w.clause == clause; });
}

bool has_warning_at(const xcede::Decoded& d, std::string_view clause, size_t offset) {
  return std::any_of(d.warnings.begin(), d.warnings.end(), [&](const xcede::Diagnostic& w) {
    return w.clause == clause && w.offset == offset;
  });
}

}  // namespace

FuzzInput split_input(std::span<const uint8_t> data) {
  const uint8_t b0 = data.size() > 0 ? data[0] : 0;
  const uint8_t b1 = data.size() > 1 ? data[1] : 0;
  FuzzInput in;
  in.config.lpar.processor = kPlatformChoices[b0 & 3];
  in.config.lpar.compat = std::min(kPlatformChoices[(b0 >> 2) & 3], in.config.lpar.processor);
  in.config.lpar.shared_processor = (b0 >> 4) & 1;
  in.config.expose_xcede = (b0 >> 5) & 1;
  in.config.capacity = kCapacityChoices[b1 & 7];
  in.config.tb_hz = kTbChoices[(b1 >> 3) & 7];
  in.buffer = data.subspan(std::min(data.size(), kConfigBytes));
  return in;
}

std::vector<uint8_t> config_bytes(const FuzzConfig& c) {
  auto index_of = [](const auto& table, auto value) {
    const auto it = std::find(std::begin(table), std::end(table), value);
    return static_cast<uint8_t>(it == std::end(table) ? 0 : it - std::begin(table));
  };
  const uint8_t b0 = index_of(kPlatformChoices, c.lpar.processor) |
                     index_of(kPlatformChoices, c.lpar.compat) << 2 |
                     uint8_t(c.lpar.shared_processor) << 4 | uint8_t(c.expose_xcede) << 5;
  const uint8_t b1 = index_of(kCapacityChoices, c.capacity) | index_of(kTbChoices, c.tb_hz) << 3;
  return {b0, b1};
}

std::string describe(const FuzzConfig& c) {
  return strprintf("%s in %s mode, %s, expose %s, capacity %u, tb %llu Hz",
                   std::string(platform_name(c.lpar.processor)).c_str(),
                   std::string(platform_name(c.lpar.compat)).c_str(),
                   c.lpar.shared_processor ? "shared" : "dedicated", c.expose_xcede ? "on" : "off",
                   c.capacity, static_cast<unsigned long long>(c.tb_hz));
}

void check_decoded(const FuzzInput& in, const xcede::Decoded& d, Violations& out) {
  const auto& buf = in.buffer;
  const size_t len = buf.size();
  const uint32_t cap = in.config.capacity;
  auto fail = [&](const char* clause, std::string message) {
    out.push_back({clause, std::move(message)});
  };

  // XCEDE-1: fewer than 3 bytes is rejected, naming the offset where it ends.
  if (len < xcede::kHeaderSize) {
    if (!d.error || d.error->clause != "XCEDE-1" || d.error->offset != len) {
      fail("XCEDE-1",
           strprintf("%zu-byte buffer not rejected with an XCEDE-1 error at offset %zu", len, len));
    }
    if (!d.records.empty()) {
      fail("XCEDE-1",
           strprintf("%zu records decoded from a %zu-byte buffer", d.records.size(), len));
    }
    return;
  }

  // XCEDE-2: the record-size byte gates everything, payload_size included.
  if (buf[2] != xcede::kRecordSizeByte) {
    if (!d.error || d.error->clause != "XCEDE-2" || d.error->offset != 2) {
      fail("XCEDE-2",
           strprintf("record size %u not rejected with an XCEDE-2 error at offset 2", buf[2] + 1u));
    }
    if (!d.records.empty() || !d.warnings.empty()) {
      fail("XCEDE-2", strprintf("record size %u: %zu records and %zu warnings (%s), expected none",
                                buf[2] + 1u, d.records.size(), d.warnings.size(),
                                d.warnings.empty() ? "-" : d.warnings[0].clause.c_str()));
    }
    return;
  }
  if (d.error) {
    fail("XCEDE-2", "record size 10 rejected: " + d.error->clause + " " + d.error->message);
    return;
  }

  const uint32_t payload_size = uint32_t(buf[0]) << 8 | buf[1];
  const uint32_t body = payload_size >= 2 ? payload_size - 2 : 0;
  const uint32_t declared = body / xcede::kRecordSize;
  const bool partial = body % xcede::kRecordSize != 0;
  const size_t in_buffer = (len - xcede::kHeaderSize) / xcede::kRecordSize;
  const uint32_t wanted = std::min(declared, cap);
  const size_t expected = std::min<size_t>(wanted, in_buffer);
  const size_t n = d.records.size();

  if (n > in_buffer) {
    fail("XCEDE-1",
         strprintf("%zu records decoded, the %zu-byte buffer holds %zu", n, len, in_buffer));
  }
  if (n > cap) fail("XCEDE-4", strprintf("%zu records decoded, capacity %u", n, cap));
  if (n != expected && n <= in_buffer && n <= cap) {
    fail("XCEDE-5", strprintf("%zu records decoded, expected min(declared %u, capacity %u, "
                              "in buffer %zu) = %zu",
                              n, declared, cap, in_buffer, expected));
  }
  if (declared > cap && !has_warning(d, "XCEDE-4")) {
    fail("XCEDE-4", strprintf("payload_size declares %u records, capacity %u: no XCEDE-4 warning",
                              declared, cap));
  }
  if (wanted > in_buffer && !has_warning_at(d, "XCEDE-1", len)) {
    fail("XCEDE-1", strprintf("buffer of %zu bytes holds %zu of %u records: no XCEDE-1 warning "
                              "at offset %zu",
                              len, in_buffer, wanted, len));
  }

  // XCEDE-5: every decoded record is exactly the bytes of its slot.
  for (size_t i = 0; i < std::min(n, in_buffer); ++i) {
    const size_t at = xcede::kHeaderSize + i * xcede::kRecordSize;
    const xcede::Record want{buf[at], be64(buf, at + 1), buf[at + 9]};
    if (!(d.records[i] == want)) {
      fail("XCEDE-5",
           strprintf("record %zu decoded as hint %u, latency 0x%llx, wake %u; the "
                     "bytes at offset %zu say hint %u, latency 0x%llx, wake %u",
                     i, d.records[i].hint,
                     static_cast<unsigned long long>(d.records[i].latency_ticks),
                     d.records[i].wake_on_irqs, at, want.hint,
                     static_cast<unsigned long long>(want.latency_ticks), want.wake_on_irqs));
      break;
    }
  }
  if (payload_size >= 2 && partial && !has_warning(d, "XCEDE-5")) {
    fail("XCEDE-5",
         strprintf("payload_size %u leaves a partial record: no XCEDE-5 warning", payload_size));
  }
  const bool complete = payload_size >= 2 && !partial && declared <= cap && declared <= in_buffer;
  const size_t nul_at = size_t(payload_size) + 1;
  const bool nul_ok = nul_at < len && buf[nul_at] == 0;
  if (complete && !nul_ok && !has_warning(d, "XCEDE-5")) {
    fail("XCEDE-5", strprintf("no NUL at offset %zu: no XCEDE-5 warning", nul_at));
  }

  // XCEDE-5: a valid payload decodes without a word and encodes back to itself.
  if (complete && nul_ok && len == nul_at + 1) {
    if (!d.warnings.empty()) {
      fail("XCEDE-5", "valid payload decoded with a warning: " + d.warnings[0].clause + " " +
                          d.warnings[0].message);
    }
    const std::vector<uint8_t> again = xcede::encode(d.records);
    if (!std::equal(again.begin(), again.end(), buf.begin(), buf.end())) {
      fail("XCEDE-5", "valid payload: encode(decode(p)) != p, encode gives " + hex(again));
    }
  }
}

void check_table(const FuzzInput& in, std::span<const xcede::Record> records,
                 const states::Table& table, bool fixup_gate, Violations& out) {
  const auto& cfg = in.config;
  const auto& s = table.states;
  const bool dedicated = !cfg.lpar.shared_processor;
  auto fail = [&](const char* clause, std::string message) {
    out.push_back({clause, std::move(message)});
  };

  if (s.size() > states::kCpuidleStateMax) {
    fail("STATES-5",
         strprintf("%zu states, CPUIDLE_STATE_MAX is %u", s.size(), states::kCpuidleStateMax));
  }
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i].target_residency_us < s[i].exit_latency_us) {
      fail("STATES-3",
           strprintf("state %zu %s: target residency %u us < exit latency %u us", i,
                     s[i].name.c_str(), s[i].target_residency_us, s[i].exit_latency_us));
    }
    if (i == 0) continue;
    if (s[i].exit_latency_us < s[i - 1].exit_latency_us) {
      fail("STATES-1", strprintf("state %zu %s: exit latency %u us < %u us of state %zu %s", i,
                                 s[i].name.c_str(), s[i].exit_latency_us, s[i - 1].exit_latency_us,
                                 i - 1, s[i - 1].name.c_str()));
    }
    if (s[i].target_residency_us < s[i - 1].target_residency_us) {
      fail("STATES-2", strprintf("state %zu %s: target residency %u us < %u us of state %zu %s", i,
                                 s[i].name.c_str(), s[i].target_residency_us,
                                 s[i - 1].target_residency_us, i - 1, s[i - 1].name.c_str()));
    }
  }
  if (s.size() < 2) {
    fail("STATES-4", strprintf("%zu states: snooze and CEDE missing", s.size()));
    return;
  }

  // STATES-4: the exact values. snooze is 0/0; CEDE is 10/100 unless the
  // fix-up (the subject's own gate) finds a non-zero latency that fits.
  if (s[0].exit_latency_us != 0 || s[0].target_residency_us != 0) {
    fail("STATES-4",
         strprintf("snooze %u/%u us, exact 0/0", s[0].exit_latency_us, s[0].target_residency_us));
  }
  u128 cede_exit = states::kCedeExitLatencyUs;
  u128 cede_residency = states::kCedeTargetResidencyUs;
  if (dedicated && fixup_gate) {
    u128 min_us = 0;
    for (const auto& r : records) {
      const u128 us = exact_us(r.latency_ticks, cfg.tb_hz);
      if (us != 0 && us <= states::kMaxLatencyUs && (min_us == 0 || us < min_us)) min_us = us;
    }
    if (min_us != 0) {
      cede_exit = min_us;
      cede_residency = min_us * states::kResidencyFactor;
    }
  }
  if (s[1].exit_latency_us != cede_exit || s[1].target_residency_us != cede_residency) {
    fail("STATES-4", strprintf("%s %u/%u us (exit latency/target residency), exact %s/%s us",
                               s[1].name.c_str(), s[1].exit_latency_us, s[1].target_residency_us,
                               dec(cede_exit).c_str(), dec(cede_residency).c_str()));
  }
  const u128 timeout = cede_residency * (cfg.tb_hz / 1000000);
  if (table.snooze_timeout_ticks != timeout) {
    fail("STATES-4", strprintf("snooze timeout %llu ticks, exact %s (residency %s us x %llu "
                               "ticks/us)",
                               static_cast<unsigned long long>(table.snooze_timeout_ticks),
                               dec(timeout).c_str(), dec(cede_residency).c_str(),
                               static_cast<unsigned long long>(cfg.tb_hz / 1000000)));
  }

  // STATES-7: each XCEDE state comes, in record order, from a record with
  // its hint that wakes on interrupts and is not hint 1; STATES-4: its values
  // are that record's exact latency (+10 us with TIMER_STOP) and 10x that.
  size_t next = 0;
  for (size_t i = 2; i < s.size(); ++i) {
    const states::State& st = s[i];
    if (!dedicated || !cfg.expose_xcede) {
      fail("STATES-7", strprintf("state %zu %s with XCEDE exposure off", i, st.name.c_str()));
      continue;
    }
    if (st.timer_stop != (st.cede_hint > 0)) {
      fail("STATES-7", strprintf("state %zu %s: TIMER_STOP %s with hint %u", i, st.name.c_str(),
                                 st.timer_stop ? "set" : "clear", st.cede_hint));
    }
    size_t candidate = kNoRecord;
    size_t match = kNoRecord;
    u128 candidate_exit = 0;
    for (size_t k = next; k < records.size(); ++k) {
      const auto& r = records[k];
      if (r.hint != st.cede_hint || r.wake_on_irqs == 0 || r.hint == states::kXcede1Hint) continue;
      const u128 exit =
          exact_us(r.latency_ticks, cfg.tb_hz) + (r.hint > 0 ? states::kTimerStopExtraUs : 0);
      if (candidate == kNoRecord) {
        candidate = k;
        candidate_exit = exit;
      }
      if (exit == st.exit_latency_us && exit * states::kResidencyFactor == st.target_residency_us) {
        match = k;
        break;
      }
    }
    if (match != kNoRecord) {
      next = match + 1;
    } else if (candidate != kNoRecord) {
      fail("STATES-4", strprintf("state %zu %s %u/%u us, exact from record %zu: %s/%s us", i,
                                 st.name.c_str(), st.exit_latency_us, st.target_residency_us,
                                 candidate, dec(candidate_exit).c_str(),
                                 dec(candidate_exit * states::kResidencyFactor).c_str()));
      next = candidate + 1;
    } else {
      fail("STATES-7", strprintf("state %zu %s comes from no later record with hint %u that "
                                 "wakes on external interrupts",
                                 i, st.name.c_str(), st.cede_hint));
    }
  }
}

std::string hex(std::span<const uint8_t> bytes) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string s;
  s.reserve(bytes.size() * 2);
  for (uint8_t b : bytes) {
    s.push_back(kDigits[b >> 4]);
    s.push_back(kDigits[b & 15]);
  }
  return s;
}

void report_and_abort(const char* target, std::span<const uint8_t> data,
                      const Violations& violations) {
  const FuzzInput in = split_input(data);
  for (const Violation& v : violations) {
    std::fprintf(stderr, "==%s== %s violated: %s\n", target, v.clause.c_str(), v.message.c_str());
  }
  std::fprintf(stderr, "==%s== config (%zu bytes): %s\n", target,
               std::min(data.size(), kConfigBytes), describe(in.config).c_str());
  std::fprintf(stderr, "==%s== buffer (%zu bytes): %s\n", target, in.buffer.size(),
               hex(in.buffer).c_str());
  std::fprintf(stderr, "==%s== input (%zu bytes): %s\n", target, data.size(), hex(data).c_str());
  std::fflush(stderr);
  std::abort();
}

}  // namespace idlespec::fuzz
