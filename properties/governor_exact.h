// The menu governor's arithmetic done exactly, in unsigned __int128, from
// spec/governor.md's description of the predictor and of menu_update() (not
// from impl/governor.h): property governor_predictor_exact (GOV-5) compares
// it with what predict() and menu_update() compute in their kernel widths.
// Every intermediate value fits 128 bits for inputs in the kernel ranges, so
// the recompute never wraps; where the kernel's word would not hold a value,
// the result says so.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>

#include "impl/governor.h"

namespace idlespec::props::gov_exact {

using u128 = unsigned __int128;
using i128 = __int128;

// "123" for any 128-bit value.
std::string u128s(u128 v);

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
// measured duration in whole us).
struct Update {
  u128 measured_ns = 0;
  u128 factor = 0;
  u128 interval_us = 0;
  bool divides_by_zero = false;
};
Update menu_update(std::span<const governor::State<Concrete>> states,
                   const governor::ConcreteHistory& h, const governor::ConcreteInputs& in);

// The typical interval of the ring (UINT_MAX: none). `accumulator_beyond_64`
// says that a sum of squares, or of squared differences, reached 2^64 in a
// pass the result depends on.
struct Typical {
  u128 us = governor::kUintMax;
  bool accumulator_beyond_64 = false;
  bool divides_by_zero = false;
};
// Up to v6.14: samples above the threshold (INT_MAX at first) left out; the
// average and then the mean squared difference from it; accepted when the
// spread is small (average^2 > 36 x variance with at least 6 of 8 samples,
// or variance <= 400); else, while more than 6 samples remain, drop the
// largest and retry.
Typical typical_two_pass(const std::array<uint32_t, governor::kIntervals>& iv);
// Since v6.15: samples strictly between a lower and an upper threshold
// (none and UINT_MAX at first); the variance as the mean square less the
// squared average; the same acceptance; else drop the samples at the end
// farther from the average.
Typical typical_both_ends(const std::array<uint32_t, governor::kIntervals>& iv);

// The prediction as the walk starts, from a ring with no update due.
// `mark_rejected`: the subject records UINT_MAX for a rejected period first.
struct Predict {
  Typical typical;
  bool consult_timer = false;  // typical x 1000 > 15 us
  u128 timer_us = 0;           // round(sleep length x factor / 8192) in us
  u128 predicted_ns = 0;
  u128 next_timer_ns = 0;
  unsigned bucket = 0;
  u128 delta_tick_ns = 0;
};
Predict predict(governor::Predictor predictor, bool mark_rejected,
                const governor::ConcreteHistory& h, const governor::ConcreteInputs& in);

}  // namespace idlespec::props::gov_exact
