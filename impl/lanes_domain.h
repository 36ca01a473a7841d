// The lane value domain: Concrete for a vectorised loop.
//
// LaneConcrete is Concrete (impl/domain.h) with one difference: ite is a
// select under an all-ones mask instead of `c ? a : b`. The words (Word<W>),
// the truth values (bool) and every other operation are Concrete's, and ite
// gives the same value; it only has no branch. gcc compiles Concrete's ite
// chains (as in busy_delay::delay_time_ms and reference_step) into compares
// and branches, which keep a loop running impl/'s templates over many inputs
// scalar ("control flow in loop"); with the select, such a loop has no
// branch, gcc if-converts and vectorises it, and each input becomes one lane
// of the loop's vectors.
//
// The exhaustive status scan (properties/busy_delay_status_scan.h) runs the
// busy-delay policies in this domain for its vectorised quiet check;
// tests/exhaustive/busy_delay_scan_lanes_test.cc holds the domain to Concrete,
// operation by operation and policy by policy.
#pragma once

#include "impl/domain.h"

namespace idlespec {

struct LaneConcrete : Concrete {
  // a where c holds, b elsewhere.
  template <unsigned W>
  static constexpr U<W> ite(Bool c, U<W> a, U<W> b) {
    using T = typename U<W>::T;
    const T mask = T(T(0) - T(c));  // all ones where c holds
    return U<W>(T((a.v & mask) | (b.v & T(~mask))));
  }
  static constexpr Bool ite(Bool c, Bool a, Bool b) { return (c && a) || (!c && b); }
};

}  // namespace idlespec
