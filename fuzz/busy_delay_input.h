// The busy_delay_fuzz input layout and driver: one fuzz input -> a
// configuration and a sequence of RTAS statuses -> retry loops driven
// through a policy -> the spec clauses the policy breaks, as oracle/busy_delay.h
// judges them (spec/busy_delay.md).
//
// Discharges, for the inputs it is given, BUSY-1, BUSY-3 and BUSY-6 for the
// runtime policies (reference in both forms, legacy) and BUSY-7 for the
// early-boot policy. The libFuzzer target fuzz/busy_delay_fuzz.cc aborts on
// any violation of the reference forms or early; the `fuzz-replay
// busy_delay_fuzz` check (fuzz/busy_delay_corpus_check.cc) replays the stored
// corpus for reference, early and legacy (which breaks BUSY-3 and BUSY-6 by
// design). The oracle is written from the spec's prose: it never calls the
// step functions of impl/busy_delay.h; the driver runs only the policy under
// test.
//
// Input layout. Byte 0 is the configuration (a missing byte reads as 0):
//   bits 0-1  policy form (the libFuzzer target's subject): 0 reference
//             usleep_range/msleep, 1 reference fsleep, 2 early, 3 legacy
//             (the libFuzzer target checks the reference usleep_range/msleep
//             form instead: legacy is checked only in replay)
//   bit  2    need_resched() (answered at every check of every loop)
//   bits 3-5  the early-boot count of consecutive extended delays when the
//             first loop starts (kStartCounts; the kernel's counter is a
//             static: a caller that left its loop early leaves it behind)
//   bit  6    byte order of literal statuses: 0 big-endian, 1 little-endian
//   bit  7    ignored
// then tokens, each an op byte, by its low two bits:
//   00  literal: the status is the next 4 bytes (in the configured byte
//       order); an incomplete literal at the end of the input is dropped
//   01  repeat the last status (op >> 2) + 1 times (1 .. 64)
//   10  repeat the last status ((op >> 2) + 1) x 64 times (64 .. 4096)
//   11  a named status: kNamedStatuses[(op >> 2) & 15] (0, -2, 9900..9905,
//       the boundaries 9899 and 9906, ...)
// A repeat before any status repeats nothing. Statuses past kMaxStatuses are
// dropped (runs of 1000+ extended delays fit several times).
//
// The driver. Runtime policies: a retry loop with a fresh context consumes
// statuses until the policy says not to retry; the next loop starts at the
// next status, until the statuses are consumed (the last loop may be cut
// short: the firmware would then answer something final). Early: the same
// loops, but one context across all of them (the kernel's count is static),
// starting at the configured count.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz/judging.h"
#include "impl/busy_delay.h"
#include "oracle/busy_delay.h"

namespace idlespec::busy_delay_fuzz {

inline constexpr size_t kMaxStatuses = 4096;

enum class Form : uint8_t { reference_usleep = 0, reference_fsleep = 1, early = 2, legacy = 3 };
std::string_view form_name(Form f);  // "reference usleep_range/msleep", ...

inline constexpr std::array<uint32_t, 8> kStartCounts = {0, 1, 2, 100, 500, 998, 999, 1000};
inline constexpr std::array<uint32_t, 16> kNamedStatuses = {
    0,           0xfffffffeu,  // success, busy (-2)
    9900,        9901,        9902,        9903,
    9904,        9905,        9899,        9906,  // just outside the extended range
    0xffffffffu, 0xfffffffdu,                     // -1 (hardware error), -3 (parameter error)
    1,           0x80000000u, 0xffffdcd8u,        // 1, INT_MIN, -9000
    0x7fffffffu};

struct Config {
  Form form = Form::reference_usleep;
  bool need_resched = false;
  uint32_t start_count = 0;  // one of kStartCounts
  bool little_endian = false;
  friend bool operator==(const Config&, const Config&) = default;
};

struct Input {
  Config config;
  std::vector<uint32_t> statuses;
  size_t dropped = 0;  // statuses past kMaxStatuses
};

Input parse_input(std::span<const uint8_t> data);

// A run of `count` copies of `status`; encode() writes the shortest tokens
// for it (a named status or a literal, then repeats).
struct Run {
  uint32_t status = 0;
  size_t count = 1;
};
// The bytes that parse to `config` and the runs (inverse of parse_input for
// configs whose start_count is one of kStartCounts; throws otherwise).
std::vector<uint8_t> encode(const Config& config, std::span<const Run> runs);

// "form early, need_resched false, start count 0, big-endian"
std::string describe(const Config& config);
// "9900 x1001, -2, 0" (statuses as the kernel prints them: signed)
using busy_delay::oracle::describe_statuses;

// Which clauses apply: the runtime clauses (BUSY-1, 3, 6) or the early-boot
// one (BUSY-7), and how the driver shares the context across loops.
enum class Kind { runtime, early };

// A policy under test: one form of a subject, or a witness.
struct Policy {
  std::string name;  // "reference (fsleep)", "early (...)", a witness name
  busy_delay::StepFn step = nullptr;
  Kind kind = Kind::runtime;
};

template <class P>
Policy policy_of(Kind kind) {
  return {std::string(P::subject) + " (" + std::string(P::form) + ")",
          &busy_delay::concrete_step<P>, kind};
}
Policy policy_for(Form form);
// The forms of a subject: reference (both forms), early, legacy; empty for
// any other name.
std::vector<Policy> policies_for_subject(std::string_view subject);
// What the libFuzzer target checks for `config`: the configured form, except
// legacy (replay only), for which the reference usleep_range/msleep form.
// IDLESPEC_BUSY_DELAY_SUBJECT=reference|early|legacy in the environment
// overrides the form (for replaying a corpus file against one subject).
std::span<const Policy> fuzz_policies(const Config& config);

// "BUSY-1", "BUSY-3", "BUSY-6", "BUSY-7"; the message names the first
// occurrence (policy, step, status, request). At most one entry per clause,
// in the order first broken.
using Violation = oracle::Violation;
using Violations = oracle::Violations;
using oracle::Collector;

// Drives `policy` through the input's statuses and checks the clauses of its
// kind. Empty when it holds (and with Judging::subject_only, which checks
// nothing: the benchmark's baseline).
Violations check(const Policy& policy, const Input& input,
                 fuzz::Judging judging = fuzz::Judging::every_step);
// The libFuzzer target's check: every policy of fuzz_policies().
Violations check_fuzz_input(std::span<const uint8_t> data);

using oracle::hex;

// Prints the target, every violation ("==TARGET== BUSY-n violated: ..."),
// the config, the statuses and the input in hex to stderr and aborts, so
// that libFuzzer saves the input.
[[noreturn]] void report_and_abort(const char* target, std::span<const uint8_t> data,
                                   const Violations& violations);

}  // namespace idlespec::busy_delay_fuzz
