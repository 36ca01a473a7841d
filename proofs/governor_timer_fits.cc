// GOV-9: with the tick stopped, the chosen state's target residency fits
// the time to the next timer.
//
// One query per table size n = 1..8, over the code that runs: the second
// half of predict() (impl/governor.h predict_from_typical: whether the timer
// is consulted, the timer estimate, the tick-stopped handling's inputs) and
// walk(), instantiated with Z3Domain. Symbolic: every field of every state
// (a table keeping STATES-1..3), the latency limit, the sleep length and
// delta_next (below 2^63, delta_next at most the sleep length: the tick
// layer's order the clause is stated for), tick_ns one of the three
// TICK_NSEC, the six correction factors (1..8192, the range menu_update()
// keeps, proved by governor_no_overflow) and the typical interval (any
// 32-bit value: the clause must hold whatever the ring predicted, so the
// ring's arithmetic is left out). The tick is stopped.
//
//   GOV-9  idx < n, not the fall-back, target residency > sleep length + 500 ns
//
// Verdict: held (mainline), or the counterexample (every older subject: a
// typical interval of at most 15 us leaves the timer unconsulted, and the
// tick-stopped handling takes KTIME_MAX as the prediction).
#include "proofs/governor_proofs.h"

namespace idlespec::proofs {

ProofResult prove_governor_timer_fits(const GovernorSubject& subject, const ProofOptions& options,
                                      const GovWalkScope& scope) {
  Prover prover("governor_timer_fits", options);
  z3::context ctx;
  for (size_t n = scope.min_states; n <= scope.max_states; ++n) {
    Z3Scope z3scope(ctx);
    GovWalkInputs in(n);
    Obligation ob(ctx);
    ob.label = subject.name + ", n = " + std::to_string(n) + ", ordered table, tick stopped";
    ob.assumptions = in.domain() && in.ordered();
    in.inputs.tick_stopped = Z3Domain::truth(true);
    in.inputs.sleep_length_ns = fresh<64>("sleep_length_ns");
    in.inputs.delta_tick_ns = fresh<64>("delta_tick_ns");
    const Sym<64> sleep = in.inputs.sleep_length_ns;
    ob.assumptions = ob.assumptions && z3::ult(sleep.e, ctx.bv_val(uint64_t{1} << 63, 64)) &&
                     z3::ule(in.inputs.delta_tick_ns.e, sleep.e);
    GovHistory h = governor::fresh_history<Z3Domain>();
    for (size_t b = 0; b < h.correction_factor.size(); ++b) {
      h.correction_factor[b] = fresh<32>("factor" + std::to_string(b));
      ob.assumptions = ob.assumptions &&
                       z3::uge(h.correction_factor[b].e, ctx.bv_val(kGovMinFactor, 32)) &&
                       z3::ule(h.correction_factor[b].e, ctx.bv_val(kGovMaxFactor, 32));
    }
    const Sym<32> typical = fresh<32>("typical_us");
    in.prediction = subject.predict_typical(h, in.inputs, typical);
    const GovChoice c = subject.walk(in.states, in.prediction, in.inputs);
    const Sym<64> bound = sleep + Z3Domain::lit<64>(governor::kNsecPerUsec / 2);
    ob.failures.push_back(
        {"GOV-9",
         "with the tick stopped the chosen state's target residency exceeds "
         "the time to the next timer",
         in.in_range(c.idx) && !in.fallback(c.idx) && z3::ugt(in.residency_at(c.idx).e, bound.e)});
    ob.preferences = in.preferences();
    ob.describe = [&in, &c, &scope, sleep, typical, h](const z3::model& m) {
      if (scope.counterexample) *scope.counterexample = in.concrete(m, c);
      std::string factors;
      for (const auto& f : h.correction_factor) {
        if (!factors.empty()) factors += ' ';
        factors += model_decimal(m, f.e);
      }
      return in.describe(m) + "sleep_length_ns " + model_decimal(m, sleep.e) + ", delta_tick_ns " +
             model_decimal(m, in.inputs.delta_tick_ns.e) + ", typical interval " +
             model_decimal(m, typical.e) + " us, correction factors [" + factors + "]\n" +
             describe_choice(m, c);
    };
    if (!prover.decide(z3scope, ob)) break;
  }
  return prover.finish(
      "with the tick stopped the chosen state's target residency is at most the time to the "
      "next timer plus 500 ns, unless it is the fall-back, for tables keeping STATES-1..3 and "
      "delta_next at most the sleep length (tables of " +
      std::to_string(scope.min_states) + ".." + std::to_string(scope.max_states) + " states)");
}

}  // namespace idlespec::proofs
