// STATES-3 (safety): every state's target residency is at least its exit
// latency.
//
// Assumptions: 16 records with every field symbolic and present flags a
// prefix, as decode_raw hands them over; a fresh latency per record, any
// value up to (2^64 - 1) * 10^6 us (zero included). Every build
// configuration (proofs/states_proofs.h).
//
// Obligation: every present state has residency >= exit latency.
//
// Verdict: held, or the records, the table and the state whose residency is
// below its exit latency.
#include "proofs/states_proofs.h"

namespace idlespec::proofs {

ProofResult prove_states_residency_covers_latency(TableFn build, const ProofOptions& options) {
  auto obligation = [](const SymbolicRecords&, const StatesTable& t, const states::BuildConfig&,
                       std::vector<Failure>& failures) {
    for (size_t i = 0; i < t.states.size(); ++i) {
      const auto& s = t.states[i];
      failures.push_back({"STATES-3",
                          state_ref(i, s) + "'s target residency is below its exit latency",
                          s.present.e && z3::ult(s.target_residency_us.e, s.exit_latency_us.e)});
    }
  };
  return prove_over_configs("states_residency_covers_latency", build, options, all_build_configs(),
                            obligation, "every state's target residency >= its exit latency");
}

}  // namespace idlespec::proofs
