// spec/governor.md as an executable reading: the clause judge of one
// selection (GOV-1, 2, 3, 4, 7), and the menu governor's arithmetic done
// exactly, in unsigned __int128, from the spec's description of the
// predictor and of menu_update() (never from impl/governor.h's code, only
// its value types and the kernel's constants), with the judge of a
// prediction against it (GOV-5, GOV-8). Every layer judges here: the
// properties (properties/governor_*), governor_fuzz and its corpus replay,
// the proofs' witness tests; validate's governor component is to follow.
//
// The exact recomputation records every value the kernel keeps in a word too
// narrow for it (a Widths), instead of wrapping: every intermediate fits 128
// bits for inputs in the kernel's ranges.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "impl/governor.h"
#include "oracle/violation.h"

namespace idlespec::governor::oracle {

using Violation = idlespec::oracle::Violation;
using Violations = idlespec::oracle::Violations;
using idlespec::oracle::Collector;
using u128 = unsigned __int128;
using i128 = __int128;

// --- one selection -----------------------------------------------------------------

// True iff the table satisfies STATES-1..3: exit latencies and target
// residencies non-decreasing, each residency at least its exit latency.
bool table_is_ordered(std::span<const State<Concrete>> states);
// The index of the first enabled state, or states.size() if none.
size_t first_enabled(std::span<const State<Concrete>> states);

// How far a prediction from the timer estimate may exceed the time to the
// next timer: timer_us rounds to the nearest microsecond (GOV-9).
inline constexpr uint64_t kTimerRoundingNs = kNsecPerUsec / 2;

// GOV-1, GOV-2, GOV-3, GOV-4 and GOV-9 for one selection. `latency_req_ns` is the
// PM QoS limit as the governor received it; `predicted_ns` the prediction as
// the walk started (Choice::predicted_ns: the governor reports it, the judge
// only compares against it). GOV-2 and GOV-3 are judged only on tables that
// keep STATES-1..3 (GOV-7), GOV-9 on those too and only with the tick
// stopped and delta_next at most the sleep length; GOV-1, GOV-4 and the
// index bound (reported as GOV-7) on every table. One violation per broken
// clause.
Violations judge_selection(std::span<const State<Concrete>> states, const ConcreteInputs& in,
                           const ConcreteChoice& c);

// The clauses judge_selection() judges, and what each verdict reads: every
// one the table, the inputs and the choice (index, stop_tick); GOV-3 the
// prediction and the walk's path as well (its exemptions and its bound).
// A clause judged on the choice alone can be compared between a file and a
// subject that chose on the same input, whatever prediction each made
// (validate's differential does); GOV-3 cannot. tests/unit/
// governor_oracle_test.cc holds the table to the judge: every violation the
// judge reports is listed, each listed clause is reported on some selection,
// and changing the prediction or the path changes only the verdicts marked so.
struct SelectionClause {
  const char* id;
  bool reads_prediction;
};
inline constexpr SelectionClause kSelectionClauses[] = {
    {"GOV-1", false}, {"GOV-2", false}, {"GOV-3", true},
    {"GOV-4", false}, {"GOV-7", false}, {"GOV-9", false},
};
// A clause of kSelectionClauses whose verdict reads the choice alone.
bool judged_on_choice(std::string_view clause);

// --- the exact arithmetic ------------------------------------------------------------

// A value the kernel keeps in a word too narrow for it.
struct Overflow {
  const char* what;
  u128 exact;
  unsigned bits;
};

// Records the values that do not fit the kernel's word.
class Widths {
 public:
  // Records `v` not fitting `bits` bits; returns v.
  u128 fits(u128 v, unsigned bits, const char* what) {
    if (bits < 128 && v >= (u128{1} << bits)) overflows_.push_back({what, v, bits});
    return v;
  }
  const std::vector<Overflow>& overflows() const { return overflows_; }

 private:
  std::vector<Overflow> overflows_;
};

// What menu_update() stores in the ring (GOV-8 when it does not fit).
inline constexpr const char* kStoredInterval =
    "the interval in us (measured_ns / 1000, an unsigned int)";

// The history as the kernel's struct menu_device holds it, widened.
struct ExactHistory {
  bool needs_update = false;
  bool tick_wakeup = false;
  u128 next_timer_ns = 0;
  uint32_t bucket = 0;
  std::array<u128, kBuckets> factor{};
  std::array<u128, kIntervals> intervals{};
  uint32_t ptr = 0;
};
ExactHistory widen(const ConcreteHistory& h);

// The bucket of a duration: < 10 us, < 100 us, < 1 ms, < 10 ms, < 100 ms, or
// longer.
unsigned bucket_of(u128 duration_ns);

// menu_update(): the measured duration of the last period (45 ms after a
// tick wake-up with the timer more than a tick away; the time to the timer
// after a polling time-out; else the residency less the exit latency, or half
// the residency when that is at most twice the exit latency; never more than
// the time to the timer), the bucket's new correction factor (decayed by an
// eighth, plus 1024 x measured / next timer when the timer is known and the
// measurement below 50 ms, else plus 1024) and the interval recorded (the
// measured duration in whole us). Applied to `e` in place.
struct Update {
  u128 measured_ns = 0;
  u128 factor = 0;
  u128 interval_us = 0;
  bool divides_by_zero = false;
};
Update menu_update(std::span<const State<Concrete>> states, ExactHistory& e,
                   const ConcreteInputs& in, Widths& w);
Update menu_update(std::span<const State<Concrete>> states, const ConcreteHistory& h,
                   const ConcreteInputs& in);

// menu_update() step by step, in a time unit of `unit` ns (1; 1000 for the
// governor of v5.6 and before, which keeps microseconds): what menu_update()
// above computes, with every step spec/governor.md names for GOV-5 kept.
struct UpdateIn {
  u128 unit = 1;
  u128 exit_latency = 0;  // of the state the last period used
  u128 residency = 0;     // the last period
  u128 next_timer = 0;    // as the previous selection recorded it
  u128 tick = 0;
  bool tick_wakeup = false, polling = false, poll_time_limit = false;
  u128 factor = 0;  // the bucket's correction factor before the update
  // GOV-8's meaning in the era before v3.16 (spec/governor.md, "What the
  // ring holds"): the ring holds the measured residency, in us, not the
  // duration the factor learns.
  bool ring_holds_residency = false;
  // The text's era as its other markers show it (struct menu_device keeps
  // next_timer_ns: v5.7 on; validate sets it from the text, never from what
  // the update does): a ring slot holding the measured residency, which
  // only the era before v3.16 stored, is then GOV-8's failure with the era
  // named, not another learning rule stored faithfully.
  bool ns_era = false;
};
struct UpdateSteps {
  bool tick_guess = false;    // the tick woke a period meant to be long
  bool poll_timeout = false;  // a polling state timed out
  u128 deducted = 0;          // the exit latency deduction: residency - exit, or residency / 2
  u128 measured = 0;          // the branch's duration, at most the time to the next timer
  u128 kept = 0;              // the factor less an eighth
  bool learns = false;        // a timer, and a duration below MAX_INTERESTING
  u128 ratio = 0;             // RESOLUTION x measured / next timer (learns), else RESOLUTION
  u128 factor = 0;            // kept + ratio
  u128 interval_us = 0;       // the learned interval, in us
};
UpdateSteps update_steps(const UpdateIn& in, Widths& w);

// GOV-5 and GOV-8 on what a menu_update() under test left, seen from outside
// (validate): the bucket's correction factor and the interval in the slot it
// wrote, against update_steps() on the same inputs. GOV-5 names the step
// that wrapped, by what the file's own words show:
//   the exit latency deduction: no deduction from the residency, and no
//     guess the branch allows, gives the duration that both the factor and
//     the stored interval show (only a subtraction that wrapped exceeds the
//     residency it subtracts from);
//   the division by the time to the next timer: the ratio added to the
//     factor exceeds what any such duration gives; or equals the product
//     RESOLUTION x measured formed in 32 bits;
//   the factor update: the factor outside 1..8192, which exact arithmetic
//     never leaves.
// A factor that differs otherwise is another learning rule (`differs`, the
// differential's, no clause). GOV-8: the stored interval is not the learned
// duration in us (with `ring_holds_residency`, the era's meaning: not the
// measured residency in us) (the KTIME_MAX truncation after a poll time-out that the
// spec accepts for every subject set apart); when GOV-5 wrapped on the same
// update, GOV-8's finding follows from it (`gov8_follows`).
struct UpdateSeen {
  uint32_t factor = 0;
  uint32_t stored = 0;
};
struct UpdateJudgement {
  UpdateSteps exact;
  std::string gov5;  // the step that wrapped, with the numbers; "" if none
  std::string gov8;  // the stored interval is not the learned one; "" if none
  bool gov8_accepted = false;
  bool gov8_follows = false;
  std::string differs;  // another learning rule, no wrap
};
UpdateJudgement judge_update(const UpdateIn& in, const UpdateSeen& seen);

// The typical interval of the ring (UINT_MAX: none). `accumulator_beyond_64`
// says that a sum of squares, or of squared differences, reached 2^64 in a
// pass the result depends on.
struct Typical {
  u128 us = kUintMax;
  bool accumulator_beyond_64 = false;
  bool divides_by_zero = false;
};
using Ring = std::array<u128, kIntervals>;
// Up to v6.14: samples above the threshold (INT_MAX at first) left out; the
// average and then the mean squared difference from it; accepted when the
// spread is small (average^2 > 36 x variance with at least 6 of 8 samples,
// or variance <= 400); else, while more than 6 samples remain, drop the
// largest and retry.
Typical typical_two_pass(const Ring& iv, Widths& w);
Typical typical_two_pass(const std::array<uint32_t, kIntervals>& iv);
// Since v6.15: samples strictly between a lower and an upper threshold
// (none and UINT_MAX at first); the variance as the mean square less the
// squared average; the same acceptance; else drop the samples at the end
// farther from the average.
Typical typical_both_ends(const Ring& iv, Widths& w);
Typical typical_both_ends(const std::array<uint32_t, kIntervals>& iv);
// Both predictors with their sum and their sum of squares (or of squared
// differences) kept in words of `sum_bits` and `square_bits` (128: the exact
// reading above, which is what they are): what a predictor with narrower
// words computes, so that judge_typical() can name the accumulator that
// wrapped.
Typical typical_two_pass_in(const Ring& iv, Widths& w, unsigned sum_bits, unsigned square_bits);
Typical typical_both_ends_in(const Ring& iv, Widths& w, unsigned sum_bits, unsigned square_bits);

// GOV-5 on the typical interval a predictor under test answered for `ring`
// (validate reads the file's get_typical_interval()), against both
// predictors recomputed exactly. The predictor's sums are the file's own,
// but every predictor answers no prediction (UINT_MAX) or an average of
// samples it counts (or one of them), so an answer below the smallest sample
// or above the largest (UINT_MAX marks left out) is a sum, or the average
// formed from it, that wrapped. An answer that one of the two predictors
// gives with its sum or its sum of squares in 32 bits, and not exactly, is
// that accumulator wrapped. Any other answer is another predictor
// (`differs`).
struct TypicalJudgement {
  std::string gov5;  // "" if none
  bool differs = false;
  u128 two_pass = 0, both_ends = 0;  // the exact answers
};
TypicalJudgement judge_typical(const std::array<uint32_t, kIntervals>& ring, uint32_t got);

// The prediction as the walk starts, from a ring with no update due; the
// bucket and the time to the next timer it leaves in `e`. The timer is
// consulted when the typical interval exceeds 15 us, and, for a subject
// with `consults_when_stopped` (80606f4eb8d7, mainline), whenever the tick
// is stopped.
struct Predict {
  Typical typical;
  bool consult_timer = false;  // typical x 1000 > 15 us (or the tick stopped, see above)
  u128 timer_us = 0;           // round(sleep length x factor / 8192) in us
  u128 predicted_ns = 0;
  u128 next_timer_ns = 0;
  unsigned bucket = 0;
  u128 delta_tick_ns = 0;
};
// timer_us, exactly: round(sleep length x factor / (RESOLUTION x DECAY)) in
// us (the kernel keeps the product in 64 bits, the result in an unsigned
// int; `w` records where they do not hold it).
u128 timer_us_exact(u128 sleep_ns, u128 factor, Widths& w);
u128 timer_us_exact(u128 sleep_ns, u128 factor);

Predict predict_from(Predictor predictor, bool consults_when_stopped, ExactHistory& e,
                     const ConcreteInputs& in, Widths& w);
// `mark_rejected`: the subject records UINT_MAX for a rejected period first.
Predict predict(Predictor predictor, bool consults_when_stopped, bool mark_rejected,
                const ConcreteHistory& h, const ConcreteInputs& in);
// The first half of menu_select(), exactly, from the history a selection
// starts with: the update if one is due, the rejected period marked (when
// `rejected_period_invalidates`), then the prediction.
Predict select_prediction(Predictor predictor, bool consults_when_stopped,
                          bool rejected_period_invalidates, std::span<const State<Concrete>> states,
                          ExactHistory& e, const ConcreteInputs& in, Widths& w);

// GOV-5 and GOV-8 for one selection whose inputs lie in the kernel's ranges:
// `before` is the history the selection started from, `after` and `p` what
// the subject's predict() left. Every word the kernel keeps must hold its
// exact value (GOV-5; the interval stored, GOV-8) and predict()'s results
// (the prediction, the time to the next timer, the bucket, the correction
// factors, the interval ring) must equal the exact ones. `where` makes the
// opening of each message; it is called only when there is a message to make
// (the fuzz target judges hundreds of selections an input).
void judge_prediction(Predictor predictor, bool consults_when_stopped,
                      bool rejected_period_invalidates, std::span<const State<Concrete>> states,
                      const ConcreteHistory& before, const ConcreteHistory& after,
                      const ConcreteInputs& in, const Prediction<Concrete>& p,
                      const std::function<std::string()>& where, Collector& out);

// "[12 0 4294967295 ...] us, next slot 3"
std::string intervals_text(const ConcreteHistory& h);

}  // namespace idlespec::governor::oracle
