// STATES-5 (safety): the table never has more than CPUIDLE_STATE_MAX (10)
// states.
//
// Assumptions: 16 records (the kernel's capacity; with snooze and CEDE that
// could be 18 states) with every field symbolic and present flags a prefix;
// a fresh latency per record, any value up to (2^64 - 1) * 10^6 us. Every
// build configuration (proofs/states_proofs.h).
//
// Obligation: the number of present states is at most 10, stated as: no
// present state has 10 present states before it.
//
// Verdict: held, or the records and the table with too many states.
#include "proofs/states_proofs.h"

namespace idlespec::proofs {

ProofResult prove_states_state_max(TableFn build, const ProofOptions& options) {
  auto obligation = [](const SymbolicRecords&, const StatesTable& t, const states::BuildConfig&,
                       std::vector<Failure>& failures) {
    // "More than 10 present states" is "some present state has 10 present
    // states before it": stated per state, each failure is local.
    z3::context& ctx = current_context();
    const z3::expr max = ctx.bv_val(states::kCpuidleStateMax, 32);
    z3::expr before = ctx.bv_val(0, 32);  // present states before state k
    for (size_t k = 0; k < t.states.size(); ++k) {
      const auto& s = t.states[k];
      failures.push_back({"STATES-5",
                          state_ref(k, s) + " is present after " +
                              std::to_string(states::kCpuidleStateMax) + " present states",
                          s.present.e && z3::uge(before, max)});
      before = before + z3::ite(s.present.e, ctx.bv_val(1, 32), ctx.bv_val(0, 32));
    }
  };
  return prove_over_configs("states_state_max", build, options, all_build_configs(), obligation,
                            "at most CPUIDLE_STATE_MAX (10) states");
}

}  // namespace idlespec::proofs
