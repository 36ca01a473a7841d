// The busy_delay_fuzz oracle: what each status and each retry loop must
// request, computed from spec/busy_delay.md's clauses (never from the step
// functions of impl/busy_delay.h), compared with what the policy under test
// requested.
#include "fuzz/busy_delay_check.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>

#include "impl/text.h"

namespace idlespec::busy_delay_fuzz {
namespace {

using busy_delay::Request;
using u128 = unsigned __int128;

// The spec's status classes, written out again on purpose.
constexpr uint32_t kBusyStatus = 0xfffffffeu;  // -2
constexpr uint32_t kFirstExtended = 9900;
constexpr uint32_t kLastExtended = 9905;
constexpr uint64_t kClampMs = 1000;          // BUSY-3: c = min(h, 1000) ms
constexpr uint64_t kLoopMsPerStatus = 1000;  // BUSY-6: k x 1000 ms
constexpr uint32_t kEarlyRetries = 1000;     // BUSY-7: the first 1000 retry, the 1001st gives up

bool is_busy_status(uint32_t s) { return s == kBusyStatus; }
bool is_extended_status(uint32_t s) { return s >= kFirstExtended && s <= kLastExtended; }

// 990n -> 10^n ms.
uint64_t hint_ms(uint32_t extended) {
  uint64_t h = 1;
  for (uint32_t n = kFirstExtended; n < extended; ++n) h *= 10;
  return h;
}

std::string status_text(uint32_t s) {
  const long long v = static_cast<int32_t>(s);
  if (is_busy_status(s)) return "-2 (busy)";
  if (is_extended_status(s)) {
    return strprintf("%lld (extended, hint %llu ms)", v,
                     static_cast<unsigned long long>(hint_ms(s)));
  }
  return strprintf("%lld (final)", v);
}

std::string dec(u128 v) {
  std::string s;
  do {
    s.insert(s.begin(), static_cast<char>('0' + static_cast<int>(v % 10)));
    v /= 10;
  } while (v != 0);
  return s;
}

std::string ordinal(uint64_t n) {
  const uint64_t mod100 = n % 100;
  const char* suffix = "th";
  if (mod100 < 11 || mod100 > 13) {
    if (n % 10 == 1) suffix = "st";
    if (n % 10 == 2) suffix = "nd";
    if (n % 10 == 3) suffix = "rd";
  }
  return std::to_string(n) + suffix;
}

using oracle::Collector;

std::string where(const Policy& p, size_t step, size_t loop, size_t call, uint32_t status) {
  return strprintf("[%s] step %zu (loop %zu, call %zu): status %s", p.name.c_str(), step, loop,
                   call, status_text(status).c_str());
}

// BUSY-3 for one extended status: the reasons the request is wrong, "" if none.
std::string extended_sleep_problems(uint32_t status, const Request& r) {
  const uint64_t c = std::min(hint_ms(status), kClampMs);
  const u128 lo = u128(c) * 100;
  const u128 hi = u128(c) * 1000;
  const bool one_duration = r.primitive == busy_delay::kUsleepRange || r.min_us == r.max_us;
  if (r.primitive != busy_delay::kNoSleep && r.primitive <= busy_delay::kMdelay &&
      !r.cond_resched && r.min_us <= r.max_us && r.max_us <= hi && r.min_us >= lo && one_duration) {
    return {};  // the common case, without building any text
  }
  std::string why;
  auto reason = [&](const std::string& s) { why += (why.empty() ? "" : "; ") + s; };
  if (r.primitive == busy_delay::kNoSleep) {
    reason("no sleep requested");
  } else if (r.primitive > busy_delay::kMdelay) {
    reason(strprintf("unknown sleep primitive %u", static_cast<unsigned>(r.primitive)));
  }
  if (r.cond_resched) reason("cond_resched() besides the sleep");
  if (r.min_us > r.max_us) reason("min > max");
  if (r.max_us > hi) reason("max " + dec(r.max_us) + " us > c x 1000 us");
  if (r.min_us < lo) reason("min " + dec(r.min_us) + " us < c x 100 us");
  if (r.primitive != busy_delay::kNoSleep && !one_duration) {
    reason(std::string(busy_delay::primitive_name(r.primitive)) +
           " requests one duration, but min != max");
  }
  if (why.empty()) return why;
  return strprintf("requested %s; expected exactly one sleep within [%s, %s] us (c = %llu ms): ",
                   busy_delay::describe(r).c_str(), dec(lo).c_str(), dec(hi).c_str(),
                   static_cast<unsigned long long>(c)) +
         why;
}

// BUSY-1, BUSY-3, BUSY-6: loops with a fresh context each.
void check_runtime(const Policy& p, const Input& in, Collector& out) {
  const std::vector<uint32_t>& s = in.statuses;
  size_t i = 0;
  size_t loop = 0;
  while (i < s.size()) {
    ++loop;
    const size_t start = i;
    busy_delay::ConcreteContext ctx{in.config.need_resched, 0};
    u128 total_us = 0;
    bool over_reported = false;
    for (;;) {
      const uint32_t status = s[i];
      ctx.need_resched = in.config.need_resched;
      const Request r = p.step(status, ctx);
      const size_t call = i - start + 1;
      const bool busy = is_busy_status(status);
      const bool ext = is_extended_status(status);
      if (r.retry != (busy || ext)) {
        out.add("BUSY-1", [&] {
          return where(p, i + 1, loop, call, status) + ": requested " + busy_delay::describe(r) +
                 (busy || ext ? "; busy and extended-delay statuses must retry"
                              : "; a status neither busy nor extended must not retry");
        });
      }
      if (ext) {
        std::string why = extended_sleep_problems(status, r);
        if (!why.empty()) {
          out.add("BUSY-3", [&] { return where(p, i + 1, loop, call, status) + ": " + why; });
        }
      }
      total_us += r.max_us;
      if (!over_reported && total_us > u128(call) * kLoopMsPerStatus * 1000) {
        over_reported = true;
        out.add("BUSY-6", [&] {
          return where(p, i + 1, loop, call, status) + ": the loop over " + std::to_string(call) +
                 (call == 1 ? " status (" : " statuses (") +
                 describe_statuses(std::span(s).subspan(start, call)) + ") has requested " +
                 dec(total_us) + " us of sleep (upper ends), more than " + std::to_string(call) +
                 " x 1000 ms";
        });
      }
      ++i;
      if (!r.retry) {
        if (busy || ext) {
          out.add("BUSY-6", [&] {
            return where(p, i, loop, call, status) + ": requested " + busy_delay::describe(r) +
                   "; the loop stops before the first status that is neither busy nor extended";
          });
        }
        break;
      }
      if (!busy && !ext) {
        out.add("BUSY-6", [&] {
          return where(p, i, loop, call, status) + ": requested " + busy_delay::describe(r) +
                 "; the loop goes on after a status that is neither busy nor extended" +
                 (i < s.size() ? " and consumes the next one, " + status_text(s[i]) : "");
        });
      }
      if (i == s.size()) break;
    }
  }
}

// BUSY-7: one context across every loop, from the configured count.
void check_early(const Policy& p, const Input& in, Collector& out) {
  enum Reset { kStart, kGiveUp, kBusy, kFinal };
  static constexpr const char* kResetText[] = {"the configured start count", "the give-up at step",
                                               "the busy status at step",
                                               "the final status at step"};
  busy_delay::ConcreteContext ctx{in.config.need_resched, in.config.start_count};
  uint32_t count = in.config.start_count;  // the oracle's count of consecutive extended delays
  Reset reset = kStart;
  size_t reset_step = 0;
  size_t loop = 1;
  size_t call = 0;
  const std::vector<uint32_t>& s = in.statuses;
  for (size_t i = 0; i < s.size(); ++i) {
    const uint32_t status = s[i];
    ++call;
    ctx.need_resched = in.config.need_resched;
    const Request r = p.step(status, ctx);
    const bool busy = is_busy_status(status);
    const bool ext = is_extended_status(status);
    bool expect_retry = false;
    const uint32_t before = count;
    if (ext) {
      if (r.primitive != busy_delay::kMdelay || r.min_us != 1000 || r.max_us != 1000 ||
          r.cond_resched) {
        out.add("BUSY-7", [&] {
          return where(p, i + 1, loop, call, status) + ": requested " + busy_delay::describe(r) +
                 "; an extended status requests exactly one mdelay(1 ms) and no other sleep or "
                 "yield";
        });
      }
      expect_retry = count + 1 <= kEarlyRetries;
      count = expect_retry ? count + 1 : 0;
    } else {
      expect_retry = busy;
      if (busy && (r.primitive != busy_delay::kNoSleep || r.min_us != 0 || r.max_us != 0)) {
        out.add("BUSY-7", [&] {
          return where(p, i + 1, loop, call, status) + ": requested " + busy_delay::describe(r) +
                 "; -2 retries without delay";
        });
      }
      count = 0;
    }
    if (r.retry != expect_retry) {
      out.add("BUSY-7", [&] {
        std::string why;
        if (ext) {
          why = "the " + ordinal(uint64_t(before) + 1) +
                " consecutive extended status (counting since " + kResetText[reset] +
                (reset == kStart ? " " + std::to_string(in.config.start_count)
                                 : " " + std::to_string(reset_step)) +
                (expect_retry ? "): the first 1000 retry" : "): the 1001st gives up");
        } else {
          why = busy ? "-2 retries" : "a status neither busy nor extended stops the loop";
        }
        return where(p, i + 1, loop, call, status) + ": requested " + busy_delay::describe(r) +
               "; expected " + (expect_retry ? "retry" : "stop") + ": " + why;
      });
    }
    if (ext && !expect_retry) {
      reset = kGiveUp;
      reset_step = i + 1;
    } else if (!ext) {
      reset = busy ? kBusy : kFinal;
      reset_step = i + 1;
    }
    if (!r.retry) {
      ++loop;
      call = 0;
    }
  }
}

const char* subject_override() {
  static const char* const value = [] {
    const char* v = std::getenv("IDLESPEC_BUSY_DELAY_SUBJECT");
    return v != nullptr && *v != '\0' ? v : nullptr;
  }();
  return value;
}

}  // namespace

std::string_view form_name(Form f) {
  switch (f) {
    case Form::reference_usleep:
      return "reference usleep_range/msleep";
    case Form::reference_fsleep:
      return "reference fsleep";
    case Form::early:
      return "early";
    case Form::legacy:
      return "legacy";
  }
  return "unknown";
}

Input parse_input(std::span<const uint8_t> data) {
  Input in;
  const uint8_t b0 = data.empty() ? 0 : data[0];
  in.config.form = static_cast<Form>(b0 & 3);
  in.config.need_resched = (b0 >> 2) & 1;
  in.config.start_count = kStartCounts[(b0 >> 3) & 7];
  in.config.little_endian = (b0 >> 6) & 1;
  auto push = [&](uint32_t status, size_t n) {
    const size_t room = kMaxStatuses - in.statuses.size();
    const size_t k = std::min(n, room);
    in.statuses.insert(in.statuses.end(), k, status);
    in.dropped += n - k;
  };
  bool have_last = false;
  uint32_t last = 0;
  size_t i = 1;
  while (i < data.size()) {
    const uint8_t op = data[i++];
    switch (op & 3) {
      case 0: {
        if (data.size() - i < 4) {
          i = data.size();
          break;
        }
        uint32_t v = 0;
        for (size_t k = 0; k < 4; ++k) {
          const uint32_t byte = data[i + k];
          v |= in.config.little_endian ? byte << (8 * k) : byte << (8 * (3 - k));
        }
        i += 4;
        last = v;
        have_last = true;
        push(v, 1);
        break;
      }
      case 1:
        if (have_last) push(last, (op >> 2) + 1u);
        break;
      case 2:
        if (have_last) push(last, ((op >> 2) + 1u) * 64);
        break;
      case 3:
        last = kNamedStatuses[(op >> 2) & 15];
        have_last = true;
        push(last, 1);
        break;
    }
  }
  return in;
}

std::vector<uint8_t> encode(const Config& c, std::span<const Run> runs) {
  const auto it = std::find(kStartCounts.begin(), kStartCounts.end(), c.start_count);
  if (it == kStartCounts.end()) {
    throw std::invalid_argument("start count " + std::to_string(c.start_count) +
                                " is not one of kStartCounts");
  }
  const uint8_t index = static_cast<uint8_t>(it - kStartCounts.begin());
  std::vector<uint8_t> out{static_cast<uint8_t>(static_cast<uint8_t>(c.form) |
                                                uint8_t(c.need_resched) << 2 | index << 3 |
                                                uint8_t(c.little_endian) << 6)};
  for (const Run& run : runs) {
    if (run.count == 0) continue;
    const auto named = std::find(kNamedStatuses.begin(), kNamedStatuses.end(), run.status);
    if (named != kNamedStatuses.end()) {
      out.push_back(static_cast<uint8_t>((named - kNamedStatuses.begin()) << 2 | 3));
    } else {
      out.push_back(0);
      for (size_t k = 0; k < 4; ++k) {
        const unsigned shift = c.little_endian ? 8 * k : 8 * (3 - k);
        out.push_back(static_cast<uint8_t>(run.status >> shift));
      }
    }
    size_t left = run.count - 1;
    while (left >= 64) {
      const size_t k = std::min<size_t>(left / 64, 64);
      out.push_back(static_cast<uint8_t>((k - 1) << 2 | 2));
      left -= k * 64;
    }
    while (left > 0) {
      const size_t k = std::min<size_t>(left, 64);
      out.push_back(static_cast<uint8_t>((k - 1) << 2 | 1));
      left -= k;
    }
  }
  return out;
}

std::string describe(const Config& c) {
  return strprintf("form %s, need_resched %s, start count %u, %s",
                   std::string(form_name(c.form)).c_str(), c.need_resched ? "true" : "false",
                   c.start_count, c.little_endian ? "little-endian" : "big-endian");
}

std::string describe_statuses(std::span<const uint32_t> statuses) {
  constexpr size_t kMaxRuns = 40;
  std::string out;
  size_t runs = 0;
  size_t i = 0;
  while (i < statuses.size()) {
    size_t j = i + 1;
    while (j < statuses.size() && statuses[j] == statuses[i]) ++j;
    if (runs == kMaxRuns) {
      size_t more = 0;
      for (size_t k = i; k < statuses.size(); ++k) more += statuses[k] != statuses[k - 1];
      out += strprintf(", ... (%zu more runs, %zu more statuses)", more + 1, statuses.size() - i);
      break;
    }
    out += strprintf("%s%lld", runs == 0 ? "" : ", ", static_cast<long long>(int32_t(statuses[i])));
    if (j - i > 1) out += strprintf(" x%zu", j - i);
    ++runs;
    i = j;
  }
  return out.empty() ? "(none)" : out;
}

Policy policy_for(Form form) {
  switch (form) {
    case Form::reference_usleep:
      break;
    case Form::reference_fsleep:
      return policy_of<busy_delay::ReferenceFsleepPolicy>(Kind::runtime);
    case Form::early:
      return policy_of<busy_delay::EarlyPolicy>(Kind::early);
    case Form::legacy:
      return policy_of<busy_delay::LegacyPolicy>(Kind::runtime);
  }
  return policy_of<busy_delay::ReferencePolicy>(Kind::runtime);
}

std::vector<Policy> policies_for_subject(std::string_view subject) {
  if (subject == "reference") {
    return {policy_for(Form::reference_usleep), policy_for(Form::reference_fsleep)};
  }
  if (subject == "early") return {policy_for(Form::early)};
  if (subject == "legacy") return {policy_for(Form::legacy)};
  return {};
}

std::span<const Policy> fuzz_policies(const Config& config) {
  // Built once: the target calls this on every input.
  static const std::vector<Policy> overridden = [] {
    std::vector<Policy> p;
    if (const char* subject = subject_override()) {
      p = policies_for_subject(subject);
      if (p.empty()) {
        std::fprintf(stderr,
                     "busy_delay_fuzz: IDLESPEC_BUSY_DELAY_SUBJECT=%s: want reference, early or "
                     "legacy\n",
                     subject);
        std::abort();
      }
    }
    return p;
  }();
  static const std::array<Policy, 4> by_form = {
      policy_for(Form::reference_usleep), policy_for(Form::reference_fsleep),
      policy_for(Form::early), policy_for(Form::reference_usleep)};  // legacy: replay only
  if (!overridden.empty()) return overridden;
  return std::span(&by_form[static_cast<size_t>(config.form)], 1);
}

Violations check(const Policy& policy, const Input& input) {
  Collector out;
  if (policy.kind == Kind::early) {
    check_early(policy, input, out);
  } else {
    check_runtime(policy, input, out);
  }
  return out.take();
}

Violations check_fuzz_input(std::span<const uint8_t> data) {
  const Input in = parse_input(data);
  Violations all;
  for (const Policy& p : fuzz_policies(in.config)) {
    Violations v = check(p, in);
    all.insert(all.end(), v.begin(), v.end());
  }
  return all;
}

void report_and_abort(const char* target, std::span<const uint8_t> data,
                      const Violations& violations) {
  const Input in = parse_input(data);
  for (const Violation& v : violations) {
    std::fprintf(
        stderr, "==%s== %s violated: %s%s\n", target, v.clause.c_str(), v.message.c_str(),
        v.occurrences > 1 ? strprintf(" (and %zu more times)", v.occurrences - 1).c_str() : "");
  }
  std::fprintf(stderr, "==%s== config: %s\n", target, describe(in.config).c_str());
  std::fprintf(stderr, "==%s== statuses (%zu%s): %s\n", target, in.statuses.size(),
               in.dropped != 0 ? strprintf(", %zu dropped", in.dropped).c_str() : "",
               describe_statuses(in.statuses).c_str());
  std::fprintf(stderr, "==%s== input (%zu bytes): %s\n", target, data.size(), hex(data).c_str());
  std::fflush(stderr);
  std::abort();
}

}  // namespace idlespec::busy_delay_fuzz
