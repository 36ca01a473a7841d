#include "oracle/busy_delay.h"

#include <algorithm>
#include <vector>

#include "impl/text.h"

namespace idlespec::busy_delay::oracle {

std::string clause_id(unsigned index) { return "BUSY-" + std::to_string(index + 1); }

unsigned clause_mask(std::initializer_list<std::string_view> ids) {
  unsigned mask = 0;
  for (std::string_view id : ids) {
    for (unsigned i = 0; i < kClauseCount; ++i) {
      if (id == clause_id(i)) mask |= 1u << i;
    }
  }
  return mask;
}

std::vector<StatusGroup> status_groups(uint32_t lo, uint32_t hi) {
  std::vector<StatusGroup> out;
  uint64_t s = lo;
  while (s <= hi) {
    const StatusClass k = classify(static_cast<uint32_t>(s));
    if (k != StatusClass::other) {
      out.push_back({static_cast<uint32_t>(s), 1, k});
      ++s;
      continue;
    }
    // The stretch of other statuses from s: up to the next busy or extended
    // status, or hi.
    uint64_t end = hi;
    for (uint64_t special : {uint64_t{kSpecExtendedFirst}, uint64_t{kSpecBusy}}) {
      if (special > s && special - 1 < end) end = special - 1;
    }
    out.push_back({static_cast<uint32_t>(s), end - s + 1, k});
    s = end + 1;
  }
  return out;
}

std::string show_status(uint32_t status) {
  return strprintf("status %d (0x%08x)", static_cast<int32_t>(status), status);
}

std::string spec_expectation(unsigned index, uint32_t status) {
  const StatusClass k = classify(status);
  switch (1u << index) {
    case kBusy1:
      return k == StatusClass::other ? "stop (neither busy nor extended)"
                                     : "retry (busy or extended)";
    case kBusy2:
      return "busy: no sleep of any kind, cond_resched() allowed";
    case kBusy3: {
      const SleepBounds b = spec_sleep_bounds(status);
      return strprintf(
          "extended, hint %u ms: exactly one sleep with %llu us <= min <= max <= %llu us "
          "(min = max unless usleep_range), no cond_resched()",
          spec_delay_time_ms(status), static_cast<unsigned long long>(b.min_us_at_least),
          static_cast<unsigned long long>(b.max_us_at_most));
    }
    case kBusy4:
      return strprintf("delay time %u ms", spec_delay_time_ms(status));
    case kBusy5:
      return "neither busy nor extended: no sleep, no cond_resched(), no retry";
  }
  return "?";
}

namespace {

using u128 = unsigned __int128;
using idlespec::oracle::dec;

std::string status_text(uint32_t s) {
  const long long v = static_cast<int32_t>(s);
  switch (classify(s)) {
    case StatusClass::busy:
      return "-2 (busy)";
    case StatusClass::extended:
      return strprintf("%lld (extended, hint %u ms)", v, spec_delay_time_ms(s));
    case StatusClass::other:
      break;
  }
  return strprintf("%lld (final)", v);
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

std::string where(size_t step, size_t loop, size_t call, uint32_t status) {
  return strprintf("step %zu (loop %zu, call %zu): status %s", step, loop, call,
                   status_text(status).c_str());
}

std::string us_as_ms(u128 us) {
  const auto frac = static_cast<unsigned>(us % 1000);
  return frac ? dec(us / 1000) + strprintf(".%03u ms", frac) : dec(us / 1000) + " ms";
}

// BUSY-3 for one extended status whose request busy3_holds() refused: why.
std::string extended_sleep_problems(uint32_t status, const Request& r) {
  const SleepBounds b = spec_sleep_bounds(status);
  std::string why;
  auto reason = [&](const std::string& s) { why += (why.empty() ? "" : "; ") + s; };
  if (r.primitive == busy_delay::kNoSleep) {
    reason("no sleep requested");
  } else if (!is_sleep_primitive(r.primitive)) {
    reason(strprintf("unknown sleep primitive %u", static_cast<unsigned>(r.primitive)));
  }
  if (r.cond_resched) reason("cond_resched() besides the sleep");
  if (r.min_us > r.max_us) reason("min > max");
  if (r.max_us > b.max_us_at_most) reason("max " + dec(r.max_us) + " us > c x 1000 us");
  if (r.min_us < b.min_us_at_least) reason("min " + dec(r.min_us) + " us < c x 100 us");
  if (r.primitive != busy_delay::kNoSleep && r.primitive != busy_delay::kUsleepRange &&
      r.min_us != r.max_us) {
    reason(std::string(busy_delay::primitive_name(r.primitive)) +
           " requests one duration, but min != max");
  }
  return strprintf(
             "requested %s; expected exactly one sleep within [%llu, %llu] us (c = %llu ms): ",
             busy_delay::describe(r).c_str(), static_cast<unsigned long long>(b.min_us_at_least),
             static_cast<unsigned long long>(b.max_us_at_most),
             static_cast<unsigned long long>(b.max_us_at_most / 1000)) +
         why;
}

}  // namespace

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

void judge_runtime_loop(std::span<const Call> calls, size_t loop, size_t first_step, unsigned mask,
                        Collector& out) {
  u128 total_us = 0;
  bool over_reported = false;
  for (size_t c = 0; c < calls.size(); ++c) {
    const uint32_t status = calls[c].status;
    const Request& r = calls[c].request;
    const size_t step = first_step + c;
    const size_t call = c + 1;
    const StatusClass k = classify(status);
    if ((mask & kBusy1) && !busy1_holds(status, r)) {
      out.add("BUSY-1", [&] {
        return where(step, loop, call, status) + ": requested " + busy_delay::describe(r) +
               (k != StatusClass::other ? "; busy and extended-delay statuses must retry"
                                        : "; a status neither busy nor extended must not retry");
      });
    }
    if ((mask & kBusy3) && !busy3_holds(status, r)) {
      out.add("BUSY-3", [&] {
        return where(step, loop, call, status) + ": " + extended_sleep_problems(status, r);
      });
    }
    // BUSY-6: at most k x 1000 ms of sleep (upper ends) for the k statuses so far.
    total_us += r.max_us;
    if (!over_reported && total_us > u128(call) * kSpecLoopBudgetUsPerStatus) {
      over_reported = true;
      out.add("BUSY-6", [&] {
        std::vector<uint32_t> seen;
        for (size_t i = 0; i <= c; ++i) seen.push_back(calls[i].status);
        return where(step, loop, call, status) + ": the loop over " + std::to_string(call) +
               (call == 1 ? " status (" : " statuses (") + describe_statuses(seen) +
               ") requested " + us_as_ms(total_us) + " of sleep, more than " +
               std::to_string(call) + " x 1000 ms";
      });
    }
    // BUSY-6: the loop stops exactly at the first status neither busy nor extended.
    if (!r.retry && k != StatusClass::other) {
      out.add("BUSY-6", [&] {
        return where(step, loop, call, status) + ": requested " + busy_delay::describe(r) +
               "; the loop stops before the first status that is neither busy nor extended";
      });
    }
    if (r.retry && k == StatusClass::other) {
      out.add("BUSY-6", [&] {
        return where(step, loop, call, status) + ": requested " + busy_delay::describe(r) +
               "; the loop goes on after a status that is neither busy nor extended" +
               (c + 1 < calls.size()
                    ? " and consumes the next one, " + status_text(calls[c + 1].status)
                    : "");
      });
    }
  }
}

void judge_early_calls(std::span<const Call> calls, uint32_t start_count, Collector& out) {
  enum Reset { kStart, kGiveUp, kBusy, kFinal };
  static constexpr const char* kResetText[] = {"the configured start count", "the give-up at step",
                                               "the busy status at step",
                                               "the final status at step"};
  uint32_t count = start_count;  // consecutive extended delays, by the spec
  Reset reset = kStart;
  size_t reset_step = 0;
  size_t loop = 1;
  size_t call = 0;
  for (size_t i = 0; i < calls.size(); ++i) {
    const uint32_t status = calls[i].status;
    const Request& r = calls[i].request;
    ++call;
    const StatusClass k = classify(status);
    bool expect_retry = false;
    const uint32_t before = count;
    if (k == StatusClass::extended) {
      if (r.primitive != busy_delay::kMdelay || r.min_us != kSpecEarlyDelayUs ||
          r.max_us != kSpecEarlyDelayUs || r.cond_resched) {
        out.add("BUSY-7", [&] {
          return where(i + 1, loop, call, status) + ": requested " + busy_delay::describe(r) +
                 "; an extended status requests exactly one mdelay(1 ms) and no other sleep or "
                 "yield";
        });
      }
      expect_retry = count + 1 <= kSpecEarlyRetries;
      count = expect_retry ? count + 1 : 0;
    } else {
      expect_retry = k == StatusClass::busy;
      if (expect_retry && !requests_no_sleep(r)) {
        out.add("BUSY-7", [&] {
          return where(i + 1, loop, call, status) + ": requested " + busy_delay::describe(r) +
                 "; -2 retries without delay";
        });
      }
      count = 0;
    }
    if (r.retry != expect_retry) {
      out.add("BUSY-7", [&] {
        std::string why;
        if (k == StatusClass::extended) {
          why = strprintf("the %s consecutive extended status (counting since %s %zu): %s",
                          ordinal(uint64_t(before) + 1).c_str(), kResetText[reset],
                          reset == kStart ? size_t{start_count} : reset_step,
                          expect_retry ? "the first 1000 retry" : "the 1001st gives up");
        } else {
          why = expect_retry ? "-2 retries" : "a status neither busy nor extended stops the loop";
        }
        return where(i + 1, loop, call, status) + ": requested " + busy_delay::describe(r) +
               "; expected " + (expect_retry ? "retry" : "stop") + ": " + why;
      });
    }
    if (k == StatusClass::extended && !expect_retry) {
      reset = kGiveUp;
      reset_step = i + 1;
    } else if (k != StatusClass::extended) {
      reset = k == StatusClass::busy ? kBusy : kFinal;
      reset_step = i + 1;
    }
    if (!r.retry) {
      ++loop;
      call = 0;
    }
  }
}

}  // namespace idlespec::busy_delay::oracle
