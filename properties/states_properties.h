// The state-table properties (spec/states.md), one per check name, each a
// template over a subject like the XCEDE ones (properties/xcede_properties.h).
// Bodies that discharge several clauses, or whose failure is best explained
// in words, fail with RC_FAIL("STATES-n: ...") so that the verdict names the
// clause that broke.
#pragma once

#include <rapidcheck.h>

#include <string>

#include "impl/states.h"
#include "impl/text.h"
#include "properties/states_gen.h"
#include "properties/states_model.h"

namespace idlespec::props {

template <class S>
states::Table build_for(const TableInput& in) {
  return states::build_using<typename S::Builder>(in.records, in.options());
}

// "snooze 0/0, CEDE 10/100, XCEDE2 30/300 (TIMER_STOP)"
std::string show_table(const states::Table& t);
std::string show_u128(u128 v);

// STATES-1 and STATES-2: exit latencies and target residencies never fall
// from one state to the next.
template <class S>
void states_monotonic() {
  const TableInput in = *gen::table_input();
  const states::Table t = build_for<S>(in);
  for (size_t i = 1; i < t.states.size(); ++i) {
    const states::State& a = t.states[i - 1];
    const states::State& b = t.states[i];
    if (b.exit_latency_us < a.exit_latency_us) {
      RC_FAIL("STATES-1: exit latency falls from " + a.name + " to " + b.name + ": " +
              show_table(t));
    }
    if (b.target_residency_us < a.target_residency_us) {
      RC_FAIL("STATES-2: target residency falls from " + a.name + " to " + b.name + ": " +
              show_table(t));
    }
  }
}

// STATES-3: every state resides at least as long as it takes to leave.
template <class S>
void states_residency_covers_latency() {
  const TableInput in = *gen::table_input();
  const states::Table t = build_for<S>(in);
  for (const states::State& s : t.states) {
    if (s.target_residency_us < s.exit_latency_us) {
      RC_FAIL("STATES-3: " + s.name + " resides less than its exit latency: " + show_table(t));
    }
  }
}

// STATES-4: CEDE, every XCEDE state and the snooze timeout hold their exact
// values, recomputed here in 128 bits; records too large for cpuidle are
// refused (with a note each), never wrapped.
template <class S>
void states_no_wrap() {
  const TableInput in = *gen::table_input();
  const states::Table t = build_for<S>(in);
  RC_ASSERT(t.states.size() >= 2u);
  const std::string table = show_table(t);

  const states::State& cede = t.states[1];
  u128 exit = states::kCedeExitLatencyUs;
  u128 residency = states::kCedeTargetResidencyUs;
  const auto cede0 = cede0_latency_us(in.records, in.tb_hz);
  if (!in.lpar.shared_processor && t.cede0_fixup_gated_in && cede0) {
    exit = *cede0;
    residency = 10 * exit;
  }
  if (cede.exit_latency_us != exit || cede.target_residency_us != residency) {
    RC_FAIL("STATES-4: " + cede.name + " is " + std::to_string(cede.exit_latency_us) + "/" +
            std::to_string(cede.target_residency_us) + " us, exactly " + show_u128(exit) + "/" +
            show_u128(residency) + ": " + table);
  }

  // XCEDE states are a subsequence of the records, with exact values.
  size_t next = 0;
  for (size_t k = 2; k < t.states.size(); ++k) {
    const states::State& s = t.states[k];
    bool found = false;
    for (; next < in.records.size() && !found; ++next) {
      const xcede::Record& r = in.records[next];
      const u128 e = exact_us(r.latency_ticks, in.tb_hz) + (r.hint > 0 ? 10 : 0);
      found = r.hint == s.cede_hint && e == s.exit_latency_us && 10 * e == s.target_residency_us;
    }
    if (!found) {
      RC_FAIL("STATES-4: " + s.name + " (" + std::to_string(s.exit_latency_us) + "/" +
              std::to_string(s.target_residency_us) +
              " us) is not the exact value of any record after the previous state: " + table);
    }
  }

  const u128 timeout = u128{cede.target_residency_us} * tb_ticks_per_usec(in.tb_hz);
  if (timeout != t.snooze_timeout_ticks) {
    RC_FAIL("STATES-4: snooze timeout " + std::to_string(t.snooze_timeout_ticks) +
            " ticks, exactly " + show_u128(timeout));
  }

  size_t too_large = 0;
  for (const auto& r : in.records)
    too_large += exact_us(r.latency_ticks, in.tb_hz) > kLargestKeptUs;
  size_t refused = 0;
  for (const auto& note : t.notes) refused += note.rfind("cpuidle: Refusing", 0) == 0;
  RC_ASSERT(refused == too_large);
}

// STATES-5: never more than CPUIDLE_STATE_MAX states.
template <class S>
void states_state_max() {
  const TableInput in = *gen::table_input();
  const states::Table t = build_for<S>(in);
  RC_ASSERT(t.states.size() <= size_t{states::kCpuidleStateMax});
}

// STATES-6: the fix-up happens exactly where the spec's table says, and sets
// CEDE to the smallest usable non-zero latency (never 10 us here, so a
// fix-up that did not happen cannot pass for one that did).
template <class S>
void states_fixup_gate() {
  const TableInput in = *gen::probing_input();
  const auto cede0 = cede0_latency_us(in.records, in.tb_hz);
  RC_PRE(cede0.has_value() && *cede0 != states::kCedeExitLatencyUs);
  const bool expected = spec_fixup_expected(in.lpar);
  const states::Table t = build_for<S>(in);
  RC_ASSERT(t.cede0_fixed_up == expected);
  RC_ASSERT(uint64_t{t.states.at(1).exit_latency_us} ==
            (expected ? *cede0 : uint64_t{states::kCedeExitLatencyUs}));
}

// STATES-7: XCEDE states only when exposed on a dedicated LPAR, each from a
// record that wakes on interrupts and whose hint is not 1, with TIMER_STOP
// exactly when its hint is above 0.
template <class S>
void states_xcede_exposure() {
  const TableInput in = *gen::table_input();
  const states::Table t = build_for<S>(in);
  const bool exposing = in.expose_xcede && !in.lpar.shared_processor;
  const std::string table = show_table(t);
  size_t next = 0;
  for (size_t k = 2; k < t.states.size(); ++k) {
    const states::State& s = t.states[k];
    if (!exposing) RC_FAIL("STATES-7: " + s.name + " without exposure: " + table);
    if (s.timer_stop != (s.cede_hint > 0)) {
      RC_FAIL("STATES-7: " + s.name + " has TIMER_STOP " + (s.timer_stop ? "on" : "off") + ": " +
              table);
    }
    // The earliest record after the previous state that fits; failing that,
    // the record that explains the violation.
    const auto from = [&](const xcede::Record& r) {
      const u128 e = exact_us(r.latency_ticks, in.tb_hz) + (r.hint > 0 ? 10 : 0);
      return r.hint == s.cede_hint && e == s.exit_latency_us;
    };
    size_t j = next;
    while (j < in.records.size() &&
           !(from(in.records[j]) && in.records[j].wake_on_irqs != 0 && in.records[j].hint != 1)) {
      ++j;
    }
    if (j == in.records.size()) {
      for (size_t i = next; i < in.records.size(); ++i) {
        if (!from(in.records[i])) continue;
        RC_FAIL(strprintf("STATES-7: %s comes from record %zu, which ", s.name.c_str(), i) +
                (in.records[i].hint == 1 ? "has hint 1" : "does not wake on interrupts") + ": " +
                table);
      }
      RC_FAIL("STATES-7: " + s.name + " comes from no record: " + table);
    }
    next = j + 1;
  }
}

}  // namespace idlespec::props
