// Deliberately broken TEO governors: each is a subject of impl/teo.h with one
// hook changed, so that the proofs, the properties and the fuzz target run
// the same broken code (spec/teo.md names the checks that must catch each).
// And one repaired subject: mainline with the fix spec/teo.md proposes for
// its TEO-1 finding, which the TEO-1 checks must pass.
#pragma once

#include <string_view>

#include "impl/teo.h"

namespace idlespec::teo::witness {

// No latency clamp: a candidate past the PM QoS limit is kept (TEO-2).
struct NoConstraint : Mainline {
  static constexpr std::string_view name = "witness-teo-no-constraint";
  static constexpr bool applies_constraint = false;
};

// The end block forgets the POLLING test: a polling state chosen with a
// long sleep length stops the running tick (TEO-3).
struct PollingStopsTick : Mainline {
  static constexpr std::string_view name = "witness-teo-polling-stops-tick";
  static constexpr bool polling_keeps_tick = false;
};

// No correction for the time to the tick when the tick is kept: a deep
// state outlasts the next tick (TEO-4).
struct NoTickCorrection : Mainline {
  static constexpr std::string_view name = "witness-teo-no-tick-correction";
  static constexpr bool corrects_for_tick = false;
};

// Mainline without 106a2662e655's promotion: with the tick stopped and a
// far timer, intercepts can keep the CPU in a state shallower than a tick
// (TEO-5).
struct NoStoppedTickPromotion : Mainline {
  static constexpr std::string_view name = "witness-teo-no-stopped-tick-promotion";
  static constexpr bool stopped_tick_promotion = false;
};

// teo_update() without the decay: every update adds PULSE and the metrics
// grow past their bound, then wrap (TEO-6).
struct NoDecay : Mainline {
  static constexpr std::string_view name = "witness-teo-no-decay";
  static constexpr bool decays = false;
};

// Not a defect: v7.0 without a971f984b845's shortcut to min_idx, which
// tests/unit/teo_test.cc shows changes no answer (spec/teo.md, v7.0).
struct V70WithoutShortcut : V70 {
  static constexpr std::string_view name = "v7.0-without-shortcut";
  static constexpr bool min_idx_shortcut = false;
};

// The repair: constraint_idx starts at the first enabled state (TEO-1 holds).
struct ConstraintFromFirst : Mainline {
  static constexpr std::string_view name = "repair-teo-constraint-from-first";
  static constexpr bool constraint_from_first = true;
};

}  // namespace idlespec::teo::witness
