// The busy_delay_fuzz input layout and driver: the policy's requests, loop
// after loop, judged by oracle/busy_delay.h.
#include "fuzz/busy_delay_input.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>

#include "impl/text.h"

namespace idlespec::busy_delay_fuzz {
namespace {

using busy_delay::Request;
namespace bo = busy_delay::oracle;

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
  // The token grammar, once: `emit(status, n)` for each run of statuses.
  const auto tokens = [&](auto&& emit) {
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
          emit(v, 1);
          break;
        }
        case 1:
          if (have_last) emit(last, (op >> 2) + 1u);
          break;
        case 2:
          if (have_last) emit(last, ((op >> 2) + 1u) * 64);
          break;
        case 3:
          last = kNamedStatuses[(op >> 2) & 15];
          have_last = true;
          emit(last, 1);
          break;
      }
    }
  };
  // The statuses' storage is allocated once, at its final size: a first pass
  // counts them.
  size_t total = 0;
  tokens([&](uint32_t, size_t n) { total += n; });
  in.statuses.reserve(std::min(total, kMaxStatuses));
  tokens([&](uint32_t status, size_t n) {
    const size_t room = kMaxStatuses - in.statuses.size();
    const size_t k = std::min(n, room);
    in.statuses.insert(in.statuses.end(), k, status);
    in.dropped += n - k;
  });
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

Violations check(const Policy& policy, const Input& input, fuzz::Judging judging) {
  // The driver: the policy's requests, loop after loop; the oracle judges them.
  // The calls' storage is kept from one input to the next (up to
  // kMaxStatuses calls): the target runs this on every input.
  static thread_local std::vector<bo::Call> calls;
  calls.clear();
  calls.reserve(input.statuses.size());
  Collector out;
  if (policy.kind == Kind::early) {
    // One context across every loop (the kernel's count is a static).
    busy_delay::ConcreteContext ctx{input.config.need_resched, input.config.start_count};
    for (const uint32_t status : input.statuses) {
      ctx.need_resched = input.config.need_resched;
      calls.push_back({status, policy.step(status, ctx)});
    }
    if (judging == fuzz::Judging::subject_only) return {};
    bo::judge_early_calls(calls, input.config.start_count, out);
    return out.take();
  }
  // A fresh context per loop; a loop consumes statuses until the policy
  // stops, the next starts at the next status.
  size_t i = 0;
  size_t loop = 0;
  while (i < input.statuses.size()) {
    ++loop;
    const size_t start = i;
    calls.clear();
    busy_delay::ConcreteContext ctx{input.config.need_resched, 0};
    for (;;) {
      const uint32_t status = input.statuses[i];
      ctx.need_resched = input.config.need_resched;
      const Request r = policy.step(status, ctx);
      calls.push_back({status, r});
      ++i;
      if (!r.retry || i == input.statuses.size()) break;
    }
    if (judging == fuzz::Judging::subject_only) continue;
    bo::judge_runtime_loop(calls, loop, start + 1, bo::kBusy1 | bo::kBusy3, out);
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
