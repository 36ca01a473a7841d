// The state-table properties (spec/states.md), one per check name, each a
// template over a subject like the XCEDE ones (properties/xcede_properties.h).
// Bodies that discharge several clauses, or whose failure is best explained
// in words, fail with RC_FAIL("STATES-n: ...") so that the verdict names the
// clause that broke.
#pragma once

#include <rapidcheck.h>

#include <initializer_list>
#include <string>
#include <string_view>

#include "impl/states.h"
#include "impl/text.h"
#include "oracle/states.h"
#include "properties/states_gen.h"

namespace idlespec::props {

template <class S>
states::Table build_for(const TableInput& in) {
  return states::build_using<typename S::Builder>(in.records, in.options());
}

using states::oracle::show_table;

// The property's verdict is the oracle's (oracle/states.h): the table S
// builds for the input, judged for STATES-1, 2, 3, 4, 5 and 7. Each property
// draws its own inputs and fails on the oracle's violations of its clauses,
// naming them.
template <class S>
void assert_table_holds(const TableInput& in, std::initializer_list<std::string_view> clauses) {
  const states::Table t = build_for<S>(in);
  states::oracle::Violations v;
  states::oracle::judge_table(in.options(), in.records, t, t.cede0_fixup_gated_in, v);
  for (const auto& x : v) {
    for (std::string_view c : clauses) {
      if (x.clause == c) RC_FAIL(x.clause + ": " + x.message + ": " + show_table(t));
    }
  }
}

// STATES-1 and STATES-2: exit latencies and target residencies never fall
// from one state to the next.
template <class S>
void states_monotonic() {
  assert_table_holds<S>(*gen::table_input(), {"STATES-1", "STATES-2"});
}

// STATES-3: every state resides at least as long as it takes to leave.
template <class S>
void states_residency_covers_latency() {
  assert_table_holds<S>(*gen::table_input(), {"STATES-3"});
}

// STATES-4: CEDE, every XCEDE state and the snooze timeout hold their exact
// values; records too large for cpuidle are refused (with a note each),
// never wrapped.
template <class S>
void states_no_wrap() {
  assert_table_holds<S>(*gen::table_input(), {"STATES-4"});
}

// STATES-5: never more than CPUIDLE_STATE_MAX states.
template <class S>
void states_state_max() {
  assert_table_holds<S>(*gen::table_input(), {"STATES-5"});
}

// STATES-6: the fix-up happens exactly where the spec's table says, and sets
// CEDE to the smallest usable non-zero latency (never 10 us here, so a
// fix-up that did not happen cannot pass for one that did).
template <class S>
void states_fixup_gate() {
  const TableInput in = *gen::probing_input();
  const auto cede0 = states::oracle::cede0_latency_us(in.records, in.tb_hz);
  RC_PRE(cede0.has_value() && *cede0 != states::kCedeExitLatencyUs);
  const states::Table t = build_for<S>(in);
  if (const auto v = states::oracle::judge_fixup(in.options(), in.records, t)) {
    RC_FAIL(v->clause + ": " + v->message + ": " + show_table(t));
  }
}

// STATES-7: XCEDE states only when exposed on a dedicated LPAR, each from a
// record that wakes on interrupts and whose hint is not 1, with TIMER_STOP
// exactly when its hint is above 0.
template <class S>
void states_xcede_exposure() {
  assert_table_holds<S>(*gen::table_input(), {"STATES-7"});
}

}  // namespace idlespec::props
