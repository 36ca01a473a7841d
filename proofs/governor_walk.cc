// GOV-1, GOV-2, GOV-3, GOV-4 and GOV-7: what one state walk may choose.
//
// Each proof asks one query per table size n = 1..8: walk<S, Z3Domain> over
// n states whose every field is symbolic, a symbolic Prediction and symbolic
// Inputs (proofs/governor_proofs.h: values below 2^63, tick_ns one of the
// three TICK_NSEC). With idx, path, stop_tick and predicted_ns the walk's
// Choice, and "first enabled", "GOV-1 exception" (no state enabled, limit 0
// or a single state) and "fall-back" (idx is the first enabled state, or 0 in
// a GOV-1 exception) read from the raw state fields:
//
//   GOV-1  (any table)      idx < n, state idx disabled, and not (exception and idx = 0)
//   GOV-2  (STATES-1..3)    idx < n, not the fall-back, exit latency > Inputs::latency_req_ns
//   GOV-3  (STATES-1..3)    idx < n, not the fall-back, path neither polling-rule nor
//                           tick-stopped-promotion, target residency > Choice::predicted_ns
//   GOV-4  (any table)      idx < n, state idx polling, stop_tick, tick not stopped
//   GOV-7  (any table)      idx >= n, or the GOV-1 or GOV-4 failure
//
// each listed as a failure; unsat for every n is held.
//
// Verdict: held, or the table, prediction, inputs and choice of the
// counterexample (v6.14, seed-v2 and seed-threshold break GOV-2 with the tick
// stopped: the tick-stopped promotion ignores the latency limit).
#include <functional>

#include "proofs/governor_proofs.h"

namespace idlespec::proofs {
namespace {

using WalkFailures =
    std::function<void(const GovWalkInputs&, const GovChoice&, std::vector<Failure>&)>;

ProofResult prove_walk(const std::string& name, const GovernorSubject& subject,
                       const ProofOptions& options, const GovWalkScope& scope, bool ordered,
                       const WalkFailures& failures, const std::string& statement) {
  Prover prover(name, options);
  z3::context ctx;
  for (size_t n = scope.min_states; n <= scope.max_states; ++n) {
    Z3Scope z3scope(ctx);
    const GovWalkInputs in(n);
    const GovChoice c = subject.walk(in.states, in.prediction, in.inputs);
    Obligation ob(ctx);
    ob.label =
        subject.name + ", n = " + std::to_string(n) + (ordered ? ", ordered table" : ", any table");
    ob.assumptions = in.domain();
    if (ordered) ob.assumptions = ob.assumptions && in.ordered();
    if (scope.tick_stopped) {
      ob.label += *scope.tick_stopped ? ", tick stopped" : ", tick running";
      ob.assumptions =
          ob.assumptions && in.inputs.tick_stopped.e == ctx.bool_val(*scope.tick_stopped);
    }
    failures(in, c, ob.failures);
    ob.preferences = in.preferences();
    ob.describe = [&in, &c, &scope](const z3::model& m) {
      if (scope.counterexample) *scope.counterexample = in.concrete(m, c);
      const uint64_t first = model_u64(m, in.first_enabled().e);
      return in.describe(m) + describe_choice(m, c) + "first enabled state: " +
             (first >= in.n ? std::string("none") : std::to_string(first)) + "\n";
    };
    if (!prover.decide(z3scope, ob)) break;
  }
  return prover.finish(statement + " (tables of " + std::to_string(scope.min_states) + ".." +
                       std::to_string(scope.max_states) + " states)");
}

Failure gov1_failure(const GovWalkInputs& in, const GovChoice& c) {
  const z3::expr zero = current_context().bv_val(0, 32);
  return {"GOV-1", "the chosen state is disabled",
          in.in_range(c.idx) && in.disabled_at(c.idx) && !(in.gov1_exception() && c.idx.e == zero)};
}

Failure gov4_failure(const GovWalkInputs& in, const GovChoice& c) {
  return {"GOV-4", "a polling state is chosen with stop_tick while the tick runs",
          in.in_range(c.idx) && in.polling_at(c.idx) && c.stop_tick.e && !in.inputs.tick_stopped.e};
}

}  // namespace

ProofResult prove_governor_chosen_enabled(const GovernorSubject& s, const ProofOptions& o,
                                          const GovWalkScope& scope) {
  return prove_walk(
      "governor_chosen_enabled", s, o, scope, false,
      [](const GovWalkInputs& in, const GovChoice& c, std::vector<Failure>& f) {
        f.push_back(gov1_failure(in, c));
      },
      "the chosen state is enabled, except state 0 when none is, the limit is 0 or the table "
      "has one state");
}

ProofResult prove_governor_latency_limit(const GovernorSubject& s, const ProofOptions& o,
                                         const GovWalkScope& scope) {
  return prove_walk(
      "governor_latency_limit", s, o, scope, true,
      [](const GovWalkInputs& in, const GovChoice& c, std::vector<Failure>& f) {
        f.push_back({"GOV-2", "the chosen state's exit latency exceeds the latency limit",
                     in.in_range(c.idx) && !in.fallback(c.idx) &&
                         z3::ugt(in.exit_at(c.idx).e, in.inputs.latency_req_ns.e)});
      },
      "the chosen state's exit latency is within the limit unless it is the fall-back, for "
      "tables keeping STATES-1..3");
}

ProofResult prove_governor_residency_fits(const GovernorSubject& s, const ProofOptions& o,
                                          const GovWalkScope& scope) {
  return prove_walk(
      "governor_residency_fits", s, o, scope, true,
      [](const GovWalkInputs& in, const GovChoice& c, std::vector<Failure>& f) {
        z3::context& ctx = current_context();
        const z3::expr exempt_path = c.path.e == ctx.bv_val(governor::kPollingRule, 8) ||
                                     c.path.e == ctx.bv_val(governor::kTickStoppedPromotion, 8);
        f.push_back({"GOV-3", "the chosen state's target residency exceeds the prediction",
                     in.in_range(c.idx) && !in.fallback(c.idx) && !exempt_path &&
                         z3::ugt(in.residency_at(c.idx).e, c.predicted_ns.e)});
      },
      "the chosen state's target residency fits the prediction except on the polling-rule "
      "and tick-stopped-promotion paths and for the fall-back, for tables keeping STATES-1..3");
}

ProofResult prove_governor_tick_polling(const GovernorSubject& s, const ProofOptions& o,
                                        const GovWalkScope& scope) {
  return prove_walk(
      "governor_tick_polling", s, o, scope, false,
      [](const GovWalkInputs& in, const GovChoice& c, std::vector<Failure>& f) {
        f.push_back(gov4_failure(in, c));
      },
      "no polling state is chosen with stop_tick while the tick runs");
}

ProofResult prove_governor_any_table(const GovernorSubject& s, const ProofOptions& o,
                                     const GovWalkScope& scope) {
  return prove_walk(
      "governor_any_table", s, o, scope, false,
      [](const GovWalkInputs& in, const GovChoice& c, std::vector<Failure>& f) {
        f.push_back({"GOV-7", "the chosen index is outside the table", !in.in_range(c.idx)});
        f.push_back(gov1_failure(in, c));
        f.push_back(gov4_failure(in, c));
      },
      "for every table the index is within it, and GOV-1 and GOV-4 hold");
}

}  // namespace idlespec::proofs
