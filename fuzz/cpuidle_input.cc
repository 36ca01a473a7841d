// The shared pieces of the cpuidle governors' fuzz inputs: fuzz/cpuidle_input.h.
#include "fuzz/cpuidle_input.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>

#include "impl/text.h"

namespace idlespec::cpuidle_fuzz {

void put_time(std::vector<uint8_t>& out, uint64_t v, unsigned hz, const TimeCode& code) {
  for (size_t i = 0; i < kNamedTimes; ++i) {
    if (code.named(i, hz) == v) {
      out.push_back(static_cast<uint8_t>(0xe0 | i));
      return;
    }
  }
  for (size_t e = 0; e < kPowers.size(); ++e) {
    if (v % kPowers[e] == 0 && v / kPowers[e] < 32) {
      out.push_back(static_cast<uint8_t>(e << 5 | v / kPowers[e]));
      return;
    }
  }
  for (size_t i = 0; i < code.top.size(); ++i) {
    if (v == code.top[i]) {
      out.push_back(static_cast<uint8_t>(0xf8 + i));
      return;
    }
  }
  int bytes = 1;
  while (bytes < 8 && (v >> (8 * bytes)) != 0) ++bytes;
  out.push_back(static_cast<uint8_t>(0xef + bytes));
  for (int k = bytes - 1; k >= 0; --k) out.push_back(static_cast<uint8_t>(v >> (8 * k)));
}

const char* env_subject(const char* name) {
  const char* v = std::getenv(name);
  return v != nullptr && *v != '\0' ? v : nullptr;
}

void report_unknown_subject(const char* target, const char* var, const char* name,
                            const char* want) {
  std::fprintf(stderr, "%s: %s=%s: want %s\n", target, var, name, want);
  std::abort();
}

size_t hz_index(std::span<const unsigned> table, unsigned hz) {
  const auto at = std::find(table.begin(), table.end(), hz);
  if (at == table.end()) throw std::invalid_argument("HZ " + std::to_string(hz));
  return static_cast<size_t>(at - table.begin());
}

void check_table_size(size_t n, size_t max) {
  if (n == 0 || n > max) throw std::invalid_argument("a table of " + std::to_string(n) + " states");
}

oracle::Violations beyond(const oracle::Violations& witness, const oracle::Violations& baseline) {
  oracle::Violations out;
  for (const oracle::Violation& v : witness) {
    const bool shared =
        std::any_of(baseline.begin(), baseline.end(),
                    [&](const oracle::Violation& b) { return b.clause == v.clause; });
    if (!shared) out.push_back(v);
  }
  return out;
}

void report_and_abort(const char* target, std::string_view subject, std::span<const uint8_t> data,
                      const oracle::Violations& violations, const std::string& described) {
  for (const oracle::Violation& v : violations) {
    std::fprintf(
        stderr, "==%s== %s violated: %s%s\n", target, v.clause.c_str(), v.message.c_str(),
        v.occurrences > 1 ? strprintf(" (and %zu more times)", v.occurrences - 1).c_str() : "");
  }
  std::fprintf(stderr, "==%s== subject: %s\n", target, std::string(subject).c_str());
  std::fprintf(stderr, "==%s== input: %s\n", target, described.c_str());
  std::fprintf(stderr, "==%s== bytes (%zu): %s\n", target, data.size(), oracle::hex(data).c_str());
  std::fflush(stderr);
  std::abort();
}

}  // namespace idlespec::cpuidle_fuzz
