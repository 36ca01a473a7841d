// The TEO proofs (spec/teo.md): Z3 over the templates of impl/teo.h.
//
// Every proof asks one query per table size n = 1..kTeoMaxProofStates with
// every state field, the limit, the sleep length, the time to the tick,
// the tick state (TICK_NSEC of HZ 100, 250 or 1000) and every metric
// symbolic. Metrics are assumed in TEO-6's invariant (each at most
// kMetricBound, total at least their sum), which teo_metrics_bounded proves
// inductive from a fresh CPU.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "impl/teo.h"
#include "proofs/proof.h"
#include "proofs/z3_domain.h"

namespace idlespec::proofs {

using TeoState = teo::State<Z3Domain>;
using TeoCpu = teo::CpuData<Z3Domain>;
using TeoInputs = teo::Inputs<Z3Domain>;
using TeoPeriod = teo::Period<Z3Domain>;
using TeoChoice = teo::Choice<Z3Domain>;

using TeoSelectFn = TeoChoice (*)(std::span<const TeoState>, TeoCpu&, const TeoInputs&);
using TeoLearnFn = void (*)(std::span<const TeoState>, TeoCpu&, const TeoPeriod&, const Sym<64>&);

inline constexpr size_t kTeoMaxProofStates = 5;

struct TeoSubject {
  std::string name;
  teo::Era era;
  TeoSelectFn select;
  TeoLearnFn learn;
};

template <class S>
TeoChoice teo_symbolic_select(std::span<const TeoState> st, TeoCpu& c, const TeoInputs& in) {
  return teo::select<S, Z3Domain>(st, c, in);
}
template <class S>
void teo_symbolic_learn(std::span<const TeoState> st, TeoCpu& c, const TeoPeriod& p,
                        const Sym<64>& tick) {
  teo::learn<S, Z3Domain>(st, c, p, tick);
}
template <class S>
TeoSubject teo_subject_of() {
  return TeoSubject{std::string(S::name), S::era, &teo_symbolic_select<S>, &teo_symbolic_learn<S>};
}

// v6.1, v6.12, v6.19, v7.0, mainline.
const std::vector<TeoSubject>& teo_subjects();
std::vector<std::string> teo_subject_names();
const TeoSubject* find_teo_subject(std::string_view name);

// One proof per clause family; each returns held, or violated with the
// concrete table, inputs and choice.
ProofResult prove_teo_chosen_enabled(const TeoSubject& s, const ProofOptions& o);     // TEO-1
ProofResult prove_teo_latency_limit(const TeoSubject& s, const ProofOptions& o);      // TEO-2
ProofResult prove_teo_polling_tick(const TeoSubject& s, const ProofOptions& o);       // TEO-3
ProofResult prove_teo_tick_kept_fits(const TeoSubject& s, const ProofOptions& o);     // TEO-4
ProofResult prove_teo_stopped_far_timer(const TeoSubject& s, const ProofOptions& o);  // TEO-5
ProofResult prove_teo_metrics_bounded(const TeoSubject& s, const ProofOptions& o);    // TEO-6

struct TeoProofEntry {
  std::string name;
  std::vector<std::string> clauses;
  ProofResult (*prove)(const TeoSubject&, const ProofOptions&);
};
const std::vector<TeoProofEntry>& teo_proof_catalog();

}  // namespace idlespec::proofs
