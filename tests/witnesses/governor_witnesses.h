// Deliberately broken menu governors: each is a subject of impl/governor.h
// with one change, so the proofs, properties and the fuzz target run the same
// broken code (spec/governor.md names the checks that must catch each).
// And one repaired subject: mainline with the fix spec/governor.md proposes
// for its GOV-8 finding, which the GOV-8 proof must pass.
#pragma once

#include <string_view>

#include "impl/governor.h"

namespace idlespec::governor::witness {

// Ignores dev->states_usage[i].disable: a disabled state can be chosen
// (GOV-1).
struct IgnoresDisabled : Reference {
  static constexpr std::string_view name = "witness-ignores-disabled";
  static constexpr bool honours_disabled = false;
};

// The reference without 779b1a1cb13a's reordering: the latency check after
// the residency block. With the tick stopped and a prediction of at least a
// tick, the tick-stopped promotion returns a state over the limit (GOV-2).
struct LimitCheckAfterResidency : Reference {
  static constexpr std::string_view name = "witness-limit-check-after-residency";
  static constexpr bool limit_check_first = false;
};

// The time to the next timer multiplied by the correction factor in 32 bits:
// wraps for sleep lengths beyond ~524 us at unity factor (GOV-5).
struct Prediction32Bit : Reference {
  static constexpr std::string_view name = "witness-prediction-32-bit";
  static constexpr unsigned timer_product_bits = 32;
};

// Mainline without 80606f4eb8d7: with the tick stopped and a typical
// interval of at most 15 us the timer is not consulted, next_timer_ns stays
// KTIME_MAX and replaces the short prediction (GOV-9).
struct StoppedSkipsTimer : Mainline {
  static constexpr std::string_view name = "witness-stopped-skips-timer";
  static constexpr bool consults_timer_when_stopped = false;
};

// The repair: a polling timeout with no timer consulted (next_timer_ns =
// KTIME_MAX, the tick running) stores UINT_MAX in the ring (GOV-8 holds).
struct MarkUnknownPollTimeout : Mainline {
  static constexpr std::string_view name = "repair-gov8-mark-unknown-poll-timeout";
  static constexpr bool marks_unknown_poll_timeout = true;
};

}  // namespace idlespec::governor::witness
