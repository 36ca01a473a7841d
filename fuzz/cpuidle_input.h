// What the cpuidle governors' fuzz inputs (fuzz/governor_input.h,
// fuzz/teo_input.h) share: the byte reader, the time encoding, the subject an
// environment variable names, and the report that aborts on a violation.
//
// A time is one byte t, possibly followed by more:
//   0x00-0xdf  (t & 31) x 10^e ns, e = {0, 2, 3, 4, 5, 6, 7}[t >> 5]
//   0xe0-0xef  a named value, TimeCode::named(t & 15, HZ)
//   0xf0-0xf7  a literal of (t - 0xef) bytes (1..8), big-endian
//   0xf8-0xff  TimeCode::top[t - 0xf8] (the long times)
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "oracle/violation.h"

namespace idlespec::cpuidle_fuzz {

inline constexpr std::array<uint64_t, 7> kPowers = {1, 100, 1000, 10000, 100000, 1000000, 10000000};

inline constexpr size_t kNamedTimes = 16;

// What a component's time bytes 0xe0-0xef and 0xf8-0xff stand for.
struct TimeCode {
  uint64_t (*named)(size_t i, unsigned hz) = nullptr;  // i in 0..15
  std::array<uint64_t, 8> top{};
};

// The environment variable `name` when it is set and not empty, else null.
const char* env_subject(const char* name);
// "<target>: <var>=<name>: want <want>" to stderr, and abort.
[[noreturn]] void report_unknown_subject(const char* target, const char* var, const char* name,
                                         const char* want);

class Reader {
 public:
  explicit Reader(std::span<const uint8_t> d) : d_(d) {}
  bool done() const { return i_ >= d_.size(); }
  // A byte; 0 past the end (and the reader then ran short).
  uint8_t byte() {
    if (i_ >= d_.size()) {
      short_ = true;
      return 0;
    }
    return d_[i_++];
  }
  bool ran_short() const { return short_; }
  uint64_t time(const TimeCode& code, unsigned hz) {
    const uint8_t t = byte();
    if (t < 0xe0) return (t & 31u) * kPowers[t >> 5];
    if (t < 0xf0) return code.named(t & 15u, hz);
    if (t < 0xf8) {
      uint64_t v = 0;
      for (int k = 0; k < t - 0xef; ++k) v = v << 8 | byte();
      return v;
    }
    return code.top[t - 0xf8];
  }

 private:
  std::span<const uint8_t> d_;
  size_t i_ = 0;
  bool short_ = false;
};

// Appends `v` in its shortest encoding: a named value, a small multiple of a
// power of ten, a long time, else a literal.
void put_time(std::vector<uint8_t>& out, uint64_t v, unsigned hz, const TimeCode& code);

// The subject of `all` named `name`, or null.
template <class Subject>
const Subject* find_by_name(std::span<const Subject> all, std::string_view name) {
  for (const Subject& s : all) {
    if (s.name == name) return &s;
  }
  return nullptr;
}

// The subject the environment variable `var` names (null when it is unset
// or empty); on a name not in `all`, says so as `target`, with the names it
// wants, and aborts.
template <class Subject>
const Subject* env_override(const char* var, std::span<const Subject> all, const char* target,
                            const char* want) {
  const char* name = env_subject(var);
  if (name == nullptr) return nullptr;
  const Subject* s = find_by_name(all, name);
  if (s == nullptr) report_unknown_subject(target, var, name, want);
  return s;
}

// The index of `hz` in `table`; throws std::invalid_argument if it is not there.
size_t hz_index(std::span<const unsigned> table, unsigned hz);
// Throws std::invalid_argument unless a table of `n` states has 1..`max`.
void check_table_size(size_t n, size_t max);

// The violations in `witness` of clauses that `baseline` does not break on
// the same input: what a fuzz witness adds to its subject's own findings.
oracle::Violations beyond(const oracle::Violations& witness, const oracle::Violations& baseline);

// Prints every violation ("==TARGET== <clause> violated: ..."), the subject,
// the input as `described` and in hex to stderr and aborts, so that
// libFuzzer saves it.
[[noreturn]] void report_and_abort(const char* target, std::string_view subject,
                                   std::span<const uint8_t> data,
                                   const oracle::Violations& violations,
                                   const std::string& described);

}  // namespace idlespec::cpuidle_fuzz
