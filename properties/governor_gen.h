// The inputs of the governor properties (spec/governor.md) and their
// RapidCheck generators: state tables, histories, the inputs of one
// menu_select() call, predictions for walk(), wake-up sequences.
//
// Values are biased to the boundaries the clauses turn on: 0, equal
// neighbours, exactly TICK_NSEC (HZ 100, 250, 1000) and one off, the 15 us
// residency threshold, the table's own exit latencies and target residencies
// (and one off), and for GOV-5 the top of its kernel ranges (2^40 ns, ring
// entries near 2^40 ns in us) and, beyond them, 2^32 us and 2^42 ns.
#pragma once

#include <rapidcheck.h>

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "impl/governor.h"

namespace idlespec::props::gov {

using governor::ConcreteChoice;
using governor::ConcreteHistory;
using governor::ConcreteInputs;
using ConcreteState = governor::State<Concrete>;
using ConcretePrediction = governor::Prediction<Concrete>;
using Table = std::vector<ConcreteState>;

inline constexpr uint64_t kMaxLatencyReqNs = uint64_t{0x7fffffff} * governor::kNsecPerUsec;
inline constexpr uint64_t kMaxFactor = governor::kUnityFactor;  // 8192
// 2^32 us in ns: where a microsecond count stops fitting an unsigned int.
inline constexpr uint64_t kUintUsNs = (uint64_t{1} << 32) * governor::kNsecPerUsec;

// Where the generated values lie.
struct Range {
  uint64_t ns_excl;      // latencies, residencies, sleep lengths, residencies below this
  uint32_t ring_max_us;  // interval ring entries up to this (and UINT_MAX)
  bool negative_sleep;   // now and then a negative sleep length
  bool far;              // biased to the top of the range
};
// The kernel ranges of GOV-5 (spec/governor.md): durations below 2^40 ns,
// ring entries below 2^40 ns in us.
inline constexpr uint64_t kKernelNs = uint64_t{1} << 40;
inline constexpr uint32_t kKernelRingMaxUs = static_cast<uint32_t>((kKernelNs - 1) / 1000);
inline constexpr Range kKernelRange{kKernelNs, kKernelRingMaxUs, false, true};
// A wake-up sequence: kernel ranges, values biased to everyday ones.
inline constexpr Range kSequenceRange{kKernelNs, kKernelRingMaxUs, false, false};
// Beyond the kernel ranges: durations below 2^42 ns, any ring entry.
inline constexpr uint64_t kWideNs = uint64_t{1} << 42;
inline constexpr Range kBeyondRange{kWideNs, governor::kUintMax, false, true};
// The selection clauses (GOV-1..4, 7) hold for every value: wide values and
// negative sleep lengths.
inline constexpr Range kSelectionRange{kWideNs, governor::kUintMax, true, false};

// One menu_select() call: the table, the history it starts from and its
// inputs; `prediction` is a prediction of the shape predict() returns, which
// the properties also hand to walk() directly.
struct SelectionCase {
  Table states;
  unsigned hz = 1000;
  ConcreteHistory history;
  ConcreteInputs inputs;
  ConcretePrediction prediction;
};

// What happened after one selection: how long the CPU stayed idle, whether
// the tick woke it, whether polling hit its time limit, or whether the entry
// was rejected (no reflect; the next call sees last_residency_ns 0).
struct WakeStep {
  uint64_t latency_req_ns = 0;
  uint64_t sleep_length_ns = 0;
  uint64_t delta_tick_ns = 0;
  bool tick_stopped = false;
  uint64_t residency_ns = 0;
  bool got_tick = false;
  bool poll_time_limit = false;  // applies when the chosen state polls
  bool rejected = false;
};

struct SequenceCase {
  Table states;
  unsigned hz = 1000;
  ConcreteHistory start;
  std::vector<WakeStep> steps;
};

// walk(), all else equal, with the limit (kind kLimit) or the prediction
// (kPrediction) at `low`, at `high` and at the table's boundary values below
// `top` (exclusive: the range predict() can return, resp. S32_MAX us).
struct MonotonicCase {
  enum Kind { kLimit, kPrediction };
  Kind kind = kLimit;
  Table states;
  unsigned hz = 1000;
  ConcreteInputs inputs;
  ConcretePrediction prediction;
  uint64_t low = 0;
  uint64_t high = 0;
  uint64_t top = 0;
};

// "[0 poll 0/0, 1 5000/5000, 2 200000/2000000 disabled]": exit latency /
// target residency in ns.
std::string show_table(const Table& t);
std::string show_history(const ConcreteHistory& h);
// The inputs of one call (the previous period's fields only when `update`).
std::string show_inputs(const ConcreteInputs& in, unsigned hz, bool update);
std::string show_prediction(const ConcretePrediction& p);
std::string show_step(const WakeStep& s);

void showValue(const SelectionCase& c, std::ostream& os);
void showValue(const SequenceCase& c, std::ostream& os);
void showValue(const MonotonicCase& c, std::ostream& os);

namespace gen {

// RapidCheck's inRange scales with the size; resized to 100 it covers the
// whole range (and still shrinks towards `lo`).
template <class T>
rc::Gen<T> uniform_in(T lo, T hi_excl) {
  return rc::gen::resize(100, rc::gen::inRange<T>(lo, hi_excl));
}

// A duration in ns below `max_excl`, biased to 0, the tick and one off, the
// 15 us threshold and one off, and a spread of magnitudes; `far` adds values
// near `max_excl` and, below it, around 2^32 us.
rc::Gen<uint64_t> ns_value(uint64_t tick_ns, uint64_t max_excl, bool far);

rc::Gen<unsigned> hz();

// 1..10 states; ordered (STATES-1..3) four times in five unless
// `ordered_only`; the polling flag on state 0, elsewhere or nowhere; now and
// then disabled states (all of them, rarely); equal neighbours.
rc::Gen<Table> table(uint64_t tick_ns, bool ordered_only, const Range& r);

// A history as menu_select() may find it: correction factors 1..8192, an
// interval ring of zeros, UINT_MAX markers, clusters (so that a typical
// interval is found, large ones too) or anything up to r.ring_max_us.
rc::Gen<ConcreteHistory> history(uint64_t tick_ns, const Range& r);

// One call's inputs for `t`, durations in `r`; the limit 0 .. S32_MAX us.
rc::Gen<ConcreteInputs> inputs(const Table& t, uint64_t tick_ns, const Range& r);

// A prediction of the shape predict() returns for `in`: the timer consulted
// (next_timer_ns the sleep length) or not (KTIME_MAX, at most 15 us).
rc::Gen<ConcretePrediction> prediction(const Table& t, const ConcreteInputs& in);

rc::Gen<SelectionCase> selection_case(const Range& r);
rc::Gen<SequenceCase> sequence_case();
rc::Gen<MonotonicCase> monotonic_case(MonotonicCase::Kind kind);

}  // namespace gen
}  // namespace idlespec::props::gov
