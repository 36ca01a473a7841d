// GOV-6 (efficiency): with all else fixed, a larger latency limit never
// gives a shallower (lower-index) state, and neither does a longer
// prediction (Prediction::predicted_ns, walk()'s input).
//
// Two halves, each one query per table size n = 1..8 over tables keeping
// STATES-1..3 (proofs/governor_proofs.h's walk inputs), and each two
// instantiations of walk<S, Z3Domain> sharing every symbol but one:
//   limit half       limits L1 <= L2 (Inputs::latency_req_ns, passed on in the
//                    prediction): failure idx(L2) < idx(L1);
//   prediction half  predictions P1 <= P2: failure idx(P2) < idx(P1).
// The halves are independent proofs; the result lists every half that fails.
//
// Verdict: held, or per failing half the table, inputs, both values and both
// choices (the spec records them as accepted where it does).
#include "proofs/governor_proofs.h"

namespace idlespec::proofs {
namespace {

enum class Half { limit, prediction };

ProofResult prove_half(const GovernorSubject& subject, const ProofOptions& options,
                       const GovWalkScope& scope, Half half) {
  const bool limit = half == Half::limit;
  Prover prover("governor_monotonic", options);
  z3::context ctx;
  for (size_t n = scope.min_states; n <= scope.max_states; ++n) {
    Z3Scope z3scope(ctx);
    const GovWalkInputs a(n);
    GovWalkInputs b = a;
    const Sym<64> second = fresh<64>(limit ? "latency_req_ns_2" : "predicted_ns_2");
    const Sym<64> first = limit ? a.inputs.latency_req_ns : a.prediction.predicted_ns;
    if (limit) {
      b.inputs.latency_req_ns = second;
      b.prediction.latency_req_ns = second;
    } else {
      b.prediction.predicted_ns = second;
    }
    const GovChoice c1 = subject.walk(a.states, a.prediction, a.inputs);
    const GovChoice c2 = subject.walk(b.states, b.prediction, b.inputs);

    Obligation ob(ctx);
    ob.label = subject.name + (limit ? ", limit half" : ", prediction half") +
               ", n = " + std::to_string(n) + ", ordered table";
    ob.assumptions = a.domain() && a.ordered() &&
                     z3::ult(second.e, ctx.bv_val(uint64_t{1} << 63, 64)) &&
                     z3::ule(first.e, second.e);
    if (scope.tick_stopped) {
      ob.label += *scope.tick_stopped ? ", tick stopped" : ", tick running";
      ob.assumptions =
          ob.assumptions && a.inputs.tick_stopped.e == ctx.bool_val(*scope.tick_stopped);
    }
    ob.failures.push_back({"GOV-6",
                           limit ? "a larger latency limit gives a shallower state"
                                 : "a longer prediction gives a shallower state",
                           z3::ult(c2.idx.e, c1.idx.e)});
    ob.preferences = a.preferences();
    ob.preferences.push_back(z3::ule(second.e, ctx.bv_val(100000000, 64)));
    ob.describe = [&a, &c1, &c2, &first, &second, limit, &scope](const z3::model& m) {
      if (scope.counterexample) *scope.counterexample = a.concrete(m, c1);
      const std::string what = limit ? "latency_req_ns" : "predicted_ns";
      return a.describe(m) + "first: " + what + " " + model_decimal(m, first.e) + ", " +
             describe_choice(m, c1) + "second: " + what + " " + model_decimal(m, second.e) + ", " +
             describe_choice(m, c2);
    };
    if (!prover.decide(z3scope, ob)) break;
  }
  return prover.finish(std::string(limit ? "a larger latency limit" : "a longer prediction") +
                       " never gives a shallower state");
}

}  // namespace

ProofResult prove_governor_monotonic(const GovernorSubject& s, const ProofOptions& o,
                                     const GovWalkScope& scope) {
  const auto start = std::chrono::steady_clock::now();
  ProofResult limit = prove_half(s, o, scope, Half::limit);
  ProofOptions rest = o;
  rest.budget_seconds -=
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  ProofResult prediction = prove_half(s, rest, scope, Half::prediction);
  std::vector<ProofResult> parts;
  parts.push_back(std::move(limit));
  parts.push_back(std::move(prediction));
  return merge_parts("governor_monotonic", std::move(parts),
                     "a larger latency limit and a longer prediction never give a shallower "
                     "state, for tables keeping STATES-1..3 of 1.." +
                         std::to_string(scope.max_states) + " states");
}

}  // namespace idlespec::proofs
