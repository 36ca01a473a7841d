// The teo_fuzz driver and checker: one fuzz input -> a state table and a
// sequence of idle periods -> the select/learn loop of one TEO governor
// subject (impl/teo.h) -> the clauses of spec/teo.md it breaks.
//
// Every selection is judged by oracle/teo.h's judge_selection (TEO-1..5),
// the per-CPU metrics after every update by judge_metrics (TEO-6); this
// driver judges nothing itself. The libFuzzer target fuzz/teo_fuzz.cc aborts
// on any violation spec/teo.md does not accept for the subject; the
// `fuzz-replay teo_fuzz` check (fuzz/replays.cc) replays the stored corpus
// for every subject and reports every violated clause, accepted or not.
//
// Input layout. Every byte string is an input: a missing byte reads as 0,
// and a step cut short by the end of the input is dropped.
//   byte 0, the configuration:
//     bits 0-1  subject: 0 v6.1, 1 v6.12, 2 v6.19, 3 mainline (v7.1)
//               (IDLESPEC_TEO_SUBJECT=<name> in the environment overrides it)
//     bits 2-3  HZ: 0 100, 1 250, 2 and 3 1000 (TICK_NSEC 10 ms, 4 ms, 1 ms)
//     bit  4    subject v7.0 (bits 0-1 then ignored)
//     bits 5-7  ignored
//   byte 1, the table size: (byte % 10) + 1 states
//   then per state: a flags byte (bit 0 POLLING, bit 1 disabled, bit 2 "as
//   written"), its exit latency and its target residency (two times). Unless
//   "as written", both times are increments over the previous state's values
//   (state 0's over 0), so that tables are ordered (exit latencies and target
//   residencies non-decreasing, what TEO-2 and TEO-5 are stated for) unless
//   a state asks otherwise. Both values are kept below 2^40 ns (kStateTopNs;
//   a larger value is clamped to 2^40 - 1).
//   then steps, each a select byte, its times, a period byte and its times:
//     select byte:
//       bit  0    the tick is already stopped
//       bit  1    no PM QoS request: the limit is 2000 s (kNoLimitNs); else
//                 the limit is a time that follows
//       then the sleep length, a time
//       bit  2    delta_next by default (no time follows): the sleep length
//                 with the tick stopped, else min(sleep length, TICK_NSEC);
//                 else delta_next is a time that follows, and
//       bits 3-4  unless both set, that time is clamped into the kernel's
//                 order (at most the sleep length and, with the tick
//                 running, at most TICK_NSEC); both set: as written
//       bits 5-6  the step runs 1, 2, 4 or 16 times in a row
//       bit  7    ignored
//     period byte (what the cpuidle core records about the idle period that
//     follows; teo_update() reads it at the next selection):
//       bit  0    got_tick (tick_nohz_idle_got_tick())
//       bit  1    poll_time_limit
//       bit  2    the residency is the sleep length (no time follows); else
//                 it is a time that follows
//       bit  3    elapsed (local_clock() since the selection, 6.1 and 6.12's
//                 time span) is a time that follows; else the residency
//       bits 4-7  ignored
//   Every time of a step is kept below 2^42 ns (kStepTopNs, clamped).
//   Selections past kMaxSelections (counting repeats) are dropped: the
//   repeat of the step that reaches it is cut, later steps are not kept.
//
// A time is one byte t, possibly followed by more:
//   0x00-0xdf  (t & 31) x 10^e ns, e = {0, 2, 3, 4, 5, 6, 7}[t >> 5]
//              (0x05 5 ns, 0x4c 12 us, 0x6c 120 us, 0xa1 1 ms, up to 310 ms)
//   0xe0-0xef  a named value, named_time(t & 15, HZ) (the thresholds, the
//              tick and SAFE_TIMER_RANGE_NS around it, the top of the range)
//   0xf0-0xf7  a literal of (t - 0xef) bytes (1..8), big-endian
//   0xf8-0xff  seconds: 1, 2, 5, 10, 60, 600, 1000, 4000 s
//
// The driver starts from a fresh CPU (teo_enable_device()). Each selection
// is select(), judge_selection(), then learn() of the period with
// last_state_idx the chosen index, then judge_metrics().
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz/cpuidle_input.h"
#include "fuzz/judging.h"
#include "impl/teo.h"
#include "oracle/teo.h"

namespace idlespec::teo_fuzz {

using idlespec::Concrete;
using State = teo::State<Concrete>;

inline constexpr size_t kMaxSelections = 512;
inline constexpr std::array<unsigned, 4> kHz = {100, 250, 1000, 1000};
inline constexpr uint64_t kStateTopNs = uint64_t{1} << 40;  // exit latency, target residency
inline constexpr uint64_t kStepTopNs = uint64_t{1} << 42;   // the limit and the step's times
// PM_QOS_CPU_LATENCY_DEFAULT_VALUE (2000 s) in ns: no request.
inline constexpr uint64_t kNoLimitNs = 2000ULL * 1000000000ULL;
inline constexpr std::array<uint64_t, 8> kSeconds = {1, 2, 5, 10, 60, 600, 1000, 4000};

// The named times (named_time(i, hz), i in 0..15): 0, 1,
// LATENCY_THRESHOLD_NS (7.5 us) and 1 less, RESIDENCY_THRESHOLD_NS (15 us)
// and 1 less, TICK_NSEC / 2, TICK_NSEC - 1, TICK_NSEC, TICK_NSEC + 1,
// SAFE_TIMER_RANGE_NS (2 x TICK_NSEC) and 1 more, 2000 s (no PM QoS
// request), 2^32 ns, 2^40 - 1 and 2^42 - 1 (the tops of the ranges).
inline constexpr size_t kNamedTimeCount = 16;
uint64_t named_time(size_t i, unsigned hz);

enum class Form : uint8_t { v61 = 0, v612 = 1, v619 = 2, mainline = 3, v70 = 4 };
std::string_view form_subject(Form f);  // "v6.1", "v6.12", "v6.19", "v7.0", "mainline"

struct Config {
  Form form = Form::mainline;
  unsigned hz = 1000;  // one of kHz
  friend bool operator==(const Config&, const Config&) = default;
};

struct Entry {
  uint64_t exit_latency_ns = 0;
  uint64_t target_residency_ns = 0;
  bool polling = false;
  bool disabled = false;
  friend bool operator==(const Entry&, const Entry&) = default;
};

// One selection and the idle period after it, run `repeat` times.
struct Step {
  uint64_t latency_req_ns = kNoLimitNs;
  uint64_t sleep_length_ns = 0;
  uint64_t delta_next_ns = 0;
  bool tick_stopped = false;
  uint64_t residency_ns = 0;
  bool got_tick = false;
  bool poll_time_limit = false;
  uint64_t elapsed_ns = 0;
  unsigned repeat = 1;  // 1, 2, 4 or 16
  friend bool operator==(const Step&, const Step&) = default;
};

struct Input {
  Config config;
  std::vector<Entry> table;  // 1..10 states
  std::vector<Step> steps;
  size_t selections = 0;  // the steps' repeats summed (at most kMaxSelections)
  size_t dropped = 0;     // selections past kMaxSelections
};

Input parse_input(std::span<const uint8_t> data);

// The bytes that parse to `input`: a state is written as increments when it
// is ordered after the one before, else "as written"; times in their
// shortest encoding. Throws std::invalid_argument if it cannot be encoded
// (a value beyond its range, a repeat other than 1, 2, 4 or 16, a
// delta_next out of the kernel's order that is not the default).
std::vector<uint8_t> encode(const Input& input);

// A subject under test: impl/teo.h's select and learn for one rule set.
struct Subject {
  std::string_view name;
  teo::Era era = teo::Era::kMainline;
  teo::SelectFn select = nullptr;
  teo::LearnFn learn = nullptr;
};

template <class S>
Subject subject_of() {
  return {S::name, S::era, &teo::select<S, Concrete>, &teo::learn<S, Concrete>};
}

// v6.1, v6.12, v6.19, v7.0, mainline.
std::span<const Subject> all_subjects();
const Subject* find_subject(std::string_view name);
// What the libFuzzer target runs for `config`: the form's subject, or the
// one IDLESPEC_TEO_SUBJECT names (aborts on an unknown name).
const Subject& fuzz_subject(const Config& config);

using Violation = oracle::Violation;
using Violations = oracle::Violations;

struct Outcome {
  // One per clause broken, in the order first broken: the oracle's message
  // after the step that broke it first (its table, inputs and choice);
  // occurrences counts the selections that broke it.
  Violations violations;
  size_t selections = 0;  // selections judged
};

// Drives `subject` through the input's steps from a fresh CPU and judges
// every selection and update (with Judging::subject_only, none: the
// benchmark's baseline).
Outcome run(const Subject& subject, const Input& input,
            fuzz::Judging judging = fuzz::Judging::every_step);
// The violations in `witness` of clauses that `baseline` does not break on
// the same input (what a fuzz witness adds to its subject's own findings).
using cpuidle_fuzz::beyond;

// "v6.1, HZ 1000; 3 states: 0 polling 0/0 ns; ...; 12 steps: ...", for reports.
std::string describe(const Input& input);
using oracle::hex;

// Prints every violation ("==TARGET== TEO-n violated: ..."), the subject,
// the input decoded and in hex to stderr and aborts, so that libFuzzer
// saves it.
[[noreturn]] void report_and_abort(const char* target, std::string_view subject,
                                   std::span<const uint8_t> data, const Violations& violations);

}  // namespace idlespec::teo_fuzz
