// The governor_fuzz driver and checker: one fuzz input -> a state table and a
// sequence of idle periods -> the select/update loop of one menu governor
// subject -> the clauses of spec/governor.md it breaks.
//
// Each selection is judged by oracle/governor.h's judge_selection (GOV-1, 2,
// 3, 4 and the index bound of GOV-7); after it the history's invariants are
// checked (correction factors within 1..8192, the ring pointer within the
// ring) and, when the step's inputs lie in the kernel's ranges (kRangeNs and
// friends below), GOV-5 and GOV-8 by judge_prediction: the predictor and
// menu_update recomputed in exact arithmetic, every intermediate the kernel
// keeps in a 32- or 64-bit word must fit it, and predict()'s results must
// equal the exact ones. The libFuzzer target
// fuzz/governor_fuzz.cc aborts on any violation; the `fuzz-replay
// governor_fuzz` check (fuzz/governor_corpus_check.cc) replays the stored
// corpus for every subject and reports the violated clauses per subject.
//
// Input layout. A missing byte reads as 0.
//   byte 0, the configuration:
//     bits 0-2  subject form: 0 reference, 1 v6.19, 2 v6.14, 3 seed-v2,
//               4 seed-threshold, 5-7 reference. The libFuzzer target runs
//               reference or v6.19 as asked; the v6.14 family (which breaks
//               GOV-2 with the tick stopped by design) is judged only by the
//               replay, so for those forms the target runs reference.
//     bits 3-4  HZ: 100, 250, 300, 1000 (TICK_NSEC follows)
//     bit  5    ordered: the decoder raises exit latencies and target
//               residencies so that the table keeps STATES-1..3 (each no
//               smaller than the one before, each residency at least its
//               exit latency); clear, the table is taken as written (GOV-7)
//     bits 6-7  ignored
//   byte 1, the table size: (byte % 10) + 1 states
//   then per state: a flags byte (bit 0 polling, bit 1 disabled, bit 2
//   timer_stop), its exit latency, its target residency (times, below)
// then ops, each an op byte, by its low two bits:
//   00  select: the latency limit (unless bit 4: no limit, S32_MAX us), the
//       sleep length, the tick delta (unless bit 3: equal to the sleep
//       length), as times; bit 2 tick stopped
//   01  wake-up: the idle period of the last selection ended after a
//       residency (a time); bit 2 the tick woke it (menu_reflect's
//       got_tick), bit 3 poll_time_limit
//   10  rejected entry: the last selection's state was not entered
//       (last_residency_ns 0, no menu_reflect)
//   11  cycle: ((op >> 2) & 15) + 1 times the last select op, each followed
//       by the last wake-up op (if any)
// Only the latest wake-up or rejection after a selection counts; a
// selection with none before it follows a rejected entry. Events past
// kMaxSelections selections are dropped; an incomplete time at the end of
// the input ends it (the op it belongs to is dropped).
//
// A time is one byte t, possibly followed by more:
//   0x00-0xdf  (t & 31) x 10^e ns, e = {0, 2, 3, 4, 5, 6, 7}[t >> 5]
//              (5 us, 120 us, 2 ms, 50 ms, ... up to 310 ms)
//   0xe0-0xef  a named value, named_time(t & 15, HZ) (boundaries: 15 us,
//              the tick, 2^32 us, 2^40 ns, S32_MAX us, KTIME_MAX, ...)
//   0xf0-0xf7  a literal of (t - 0xef) bytes (1..8), big-endian
//   0xf8-0xff  (t - 0xf7) x 10 minutes (10 .. 80 min)
//
// The driver starts from a fresh history (menu_enable_device). A selection
// passes the last selection's index as last_state_idx and, after a wake-up,
// its residency and poll_time_limit (menu_reflect first); after a
// rejection, last_residency_ns 0 and no reflect.
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
#include "impl/governor.h"
#include "oracle/governor.h"

namespace idlespec::governor_fuzz {

using idlespec::Concrete;
using State = governor::State<Concrete>;

inline constexpr size_t kMaxSelections = 512;
inline constexpr std::array<unsigned, 4> kHz = {100, 250, 300, 1000};

// The kernel's ranges (spec/governor.md, GOV-5): exit latency, target
// residency, sleep length, tick delta and residency below 2^40 ns (18.3
// min); the latency limit at most S32_MAX us; interval ring entries below
// 2^40 ns in us, or UINT_MAX.
inline constexpr uint64_t kRangeNs = uint64_t{1} << 40;
inline constexpr uint64_t kMaxLatencyReqNs = uint64_t{0x7fffffff} * 1000;
inline constexpr uint64_t kMaxFactor = governor::kUnityFactor;  // 8192

// The named times of the time encoding (named_time(i, hz), i in 0..15):
//   0, 1, 15000 (RESIDENCY_THRESHOLD_NS), 14999, TICK_NSEC, TICK_NSEC - 1,
//   TICK_NSEC + 1, 50 ms (MAX_INTERESTING), UINT_MAX us, 2^32 us,
//   2^40 - 1 ns (the top of the kernel's range), 2^40 ns, S32_MAX us (no
//   latency constraint), KTIME_MAX, 2^63 and 2^64 - 1 (negative as s64).
inline constexpr size_t kNamedTimeCount = 16;
uint64_t named_time(size_t i, unsigned hz);

enum class Form : uint8_t {
  reference = 0,
  v619 = 1,
  v614 = 2,
  seed_v2 = 3,
  seed_threshold = 4,
  mainline = 5
};
std::string_view form_subject(Form f);  // "reference", "v6.19", ...

struct Config {
  Form form = Form::reference;
  unsigned hz = 1000;  // one of kHz
  bool ordered = true;
  friend bool operator==(const Config&, const Config&) = default;
};

struct Event {
  enum Kind : uint8_t { kSelect, kWake, kReject };
  Kind kind = kSelect;
  // kSelect
  uint64_t latency_req_ns = kMaxLatencyReqNs;
  uint64_t sleep_length_ns = 0;
  uint64_t delta_tick_ns = 0;
  bool tick_stopped = false;
  // kWake
  uint64_t residency_ns = 0;
  bool got_tick = false;
  bool poll_time_limit = false;
  friend bool operator==(const Event&, const Event&) = default;
};

struct Input {
  Config config;
  std::vector<governor::TableEntry> table;  // 1..10 states (names empty)
  std::vector<Event> events;
  size_t dropped = 0;  // events past kMaxSelections selections
};

Input parse_input(std::span<const uint8_t> data);

// The bytes that parse to `input` (each event one op, times in their
// shortest encoding); with config.ordered the table must already be
// ordered. Throws std::invalid_argument if it cannot be encoded.
std::vector<uint8_t> encode(const Input& input);

// A subject under test: the halves of select() and the facts of its
// predictor that the exact recomputation needs.
using PredictFn = governor::Prediction<Concrete> (*)(std::span<const State>,
                                                     governor::History<Concrete>&,
                                                     const governor::Inputs<Concrete>&);
struct Subject {
  std::string_view name;
  PredictFn predict = nullptr;
  governor::WalkFn walk = nullptr;
  governor::Predictor predictor = governor::Predictor::kBothEnds;
  bool rejected_period_invalidates = true;
  bool consults_timer_when_stopped = false;  // 80606f4eb8d7 (mainline)
};

template <class S>
Subject subject_of() {
  return {S::name,      &governor::predict<S, Concrete>, &governor::walk<S, Concrete>,
          S::predictor, S::rejected_period_invalidates,  S::consults_timer_when_stopped};
}

// The six subjects of impl/governor.h, in subjects() order.
std::span<const Subject> all_subjects();
const Subject* find_subject(std::string_view name);
// What the libFuzzer target runs for `config`: reference, v6.19 or mainline
// as the form asks (the v6.14 family: reference). IDLESPEC_GOVERNOR_SUBJECT=<name>
// in the environment overrides it (any of the six: replaying one file
// against one subject).
const Subject& fuzz_subject(const Config& config);

// "GOV-1" ... "GOV-8"; the message names the first occurrence (step, table,
// inputs, choice). At most one entry per clause, in the order first broken.
using Violation = oracle::Violation;
using Violations = oracle::Violations;

struct Outcome {
  Violations violations;
  size_t selections = 0;
  size_t gov5_judged = 0;  // selections whose inputs lay in the kernel's ranges
};

// Drives `subject` through the input's events and judges every selection
// (with Judging::subject_only, none: the benchmark's baseline).
Outcome run(const Subject& subject, const Input& input,
            fuzz::Judging judging = fuzz::Judging::every_step);
// The violations in `witness` of clauses that `baseline` does not break on
// the same input: what a fuzz witness derived from a subject adds to the
// subject's own findings (the reference breaks GOV-5 on some inputs in the
// ranges spec/governor.md states; a witness must be caught for its own
// change).
using cpuidle_fuzz::beyond;
// The libFuzzer target's check: fuzz_subject(config) over the input.
Violations check_fuzz_input(std::span<const uint8_t> data);

// "reference, HZ 1000, ordered; 3 states: 0 poll 0/0 ns, 1 ..." and the
// events, for reports.
std::string describe(const Input& input);
using oracle::hex;

// Prints every violation ("==TARGET== GOV-n violated: ..."), the input
// decoded and in hex to stderr and aborts, so that libFuzzer saves it.
[[noreturn]] void report_and_abort(const char* target, std::string_view subject,
                                   std::span<const uint8_t> data, const Violations& violations);

}  // namespace idlespec::governor_fuzz
