#include "fuzz/governor_check.h"

#include <cstdio>

namespace idlespec::governor {

bool table_is_ordered(std::span<const State<Concrete>> states) {
  for (size_t i = 0; i < states.size(); ++i) {
    if (states[i].target_residency_ns.v < states[i].exit_latency_ns.v) return false;
    if (i == 0) continue;
    if (states[i].exit_latency_ns.v < states[i - 1].exit_latency_ns.v) return false;
    if (states[i].target_residency_ns.v < states[i - 1].target_residency_ns.v) return false;
  }
  return true;
}

size_t first_enabled(std::span<const State<Concrete>> states) {
  for (size_t i = 0; i < states.size(); ++i) {
    if (!states[i].disabled) return i;
  }
  return states.size();
}

namespace {

std::string u64s(uint64_t v) { return std::to_string(v); }

}  // namespace

Judgement judge_selection(std::span<const State<Concrete>> states, const ConcreteInputs& in,
                          const ConcreteChoice& c) {
  Judgement j;
  auto fail = [&](const char* clause, const std::string& why) {
    j.violated.insert(clause);
    if (!j.detail.empty()) j.detail += "\n";
    j.detail += std::string(clause) + ": " + why;
  };
  const size_t n = states.size();
  const uint64_t idx = c.idx.v;
  const size_t first = first_enabled(states);
  const bool ordered = table_is_ordered(states);

  if (idx >= (n == 0 ? 1 : n)) {
    fail("GOV-7", "index " + u64s(idx) + " outside a table of " + u64s(n) + " states");
    return j;
  }
  // GOV-1: enabled, except no state enabled, latency limit 0 or a single
  // state (state 0 whatever its flag).
  const bool gov1_exception = first == n || in.latency_req_ns.v == 0 || n <= 1;
  if (n > 0 && states[idx].disabled && !(gov1_exception && idx == 0)) {
    fail("GOV-1", "state " + u64s(idx) + " is disabled (first enabled is " + u64s(first) + ")");
  }
  if (n == 0) return j;
  const bool fallback = idx == first || (gov1_exception && idx == 0);
  // GOV-2 and GOV-3 are promised for tables that keep STATES-1..3 only
  // (GOV-7).
  // GOV-2: exit latency within the PM QoS limit unless the fall-back.
  if (ordered && !fallback && states[idx].exit_latency_ns.v > in.latency_req_ns.v) {
    fail("GOV-2", "state " + u64s(idx) + " exit latency " + u64s(states[idx].exit_latency_ns.v) +
                      " ns > limit " + u64s(in.latency_req_ns.v) + " ns (path " +
                      std::string(path_name(c.path.v)) + ")");
  }
  // GOV-3: target residency within the prediction, except the named paths.
  const bool gov3_exempt =
      fallback || c.path.v == kPollingRule || c.path.v == kTickStoppedPromotion;
  if (ordered && !gov3_exempt && states[idx].target_residency_ns.v > c.predicted_ns.v) {
    fail("GOV-3", "state " + u64s(idx) + " target residency " +
                      u64s(states[idx].target_residency_ns.v) + " ns > prediction " +
                      u64s(c.predicted_ns.v) + " ns (path " + std::string(path_name(c.path.v)) +
                      ")");
  }
  // GOV-4: never stop the tick for a polling state, unless already stopped.
  if (states[idx].polling && c.stop_tick && !in.tick_stopped) {
    fail("GOV-4", "polling state " + u64s(idx) + " chosen with stop_tick while the tick runs");
  }
  return j;
}

}  // namespace idlespec::governor
