// STATES-1 (safety): exit latencies are non-decreasing in state order, for
// every payload, platform and option, even when firmware lists records out
// of latency order.
// STATES-2 (safety): target residencies are non-decreasing in state order,
// for every payload, platform and option.
//
// Assumptions: 16 records with every field symbolic and present flags a
// prefix, as decode_raw hands them over; a fresh latency per record, any
// value up to (2^64 - 1) * 10^6 us, so in any order and with any repeats.
// Every build configuration: dedicated or shared, fix-up gated in or out,
// XCEDE exposed or hidden (proofs/states_proofs.h).
//
// Obligation: for every two present states a < b of the table,
// exit(a) <= exit(b) (STATES-1) and residency(a) <= residency(b) (STATES-2).
// Stated as: each present state is no shallower than the last present state
// before it, which is the same by transitivity and spares the solver from
// rediscovering transitivity over 18 x 18 pairs of 32-bit comparisons.
//
// Verdict: held, or the records, the table and the pair out of order.
#include "proofs/states_proofs.h"

namespace idlespec::proofs {

ProofResult prove_states_monotonic(TableFn build, const ProofOptions& options) {
  auto obligation = [](const SymbolicRecords&, const StatesTable& t, const states::BuildConfig&,
                       std::vector<Failure>& failures) {
    // Each present state against the present state before it: by
    // transitivity, every pair of present states is then in order.
    z3::context& ctx = current_context();
    z3::expr has_prev = ctx.bool_val(false);
    z3::expr prev_exit = ctx.bv_val(0, 32);
    z3::expr prev_residency = ctx.bv_val(0, 32);
    for (size_t b = 0; b < t.states.size(); ++b) {
      const auto& s = t.states[b];
      const z3::expr follows = s.present.e && has_prev;
      const std::string st = state_ref(b, s) + " is below the present state before it";
      failures.push_back({"STATES-1", st + " in exit latency",
                          follows && z3::ult(s.exit_latency_us.e, prev_exit)});
      failures.push_back({"STATES-2", st + " in target residency",
                          follows && z3::ult(s.target_residency_us.e, prev_residency)});
      prev_exit = z3::ite(s.present.e, s.exit_latency_us.e, prev_exit);
      prev_residency = z3::ite(s.present.e, s.target_residency_us.e, prev_residency);
      has_prev = has_prev || s.present.e;
    }
  };
  return prove_over_configs("states_monotonic", build, options, all_build_configs(), obligation,
                            "exit latencies and target residencies non-decreasing in state order");
}

}  // namespace idlespec::proofs
