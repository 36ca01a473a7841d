// STATES-4 (safety), the conversion: the tick-to-us conversion is the exact
// ceiling, us = ceil(ticks * 10^6 / tb_hz), with nothing wrapped.
//
// Assumptions: ticks is any u64. tb_hz is each of 512 MHz (the POWER
// timebase), 1 MHz, a prime near 1 GHz (999999937: no factor in common with
// 10^6, so every remainder occurs) and the ends of the modelled timebase
// domain, 1 Hz and 2^42 Hz (spec/states.md KD-2): one query each.
//
// Obligation, with q the conversion's 128-bit result, everything zero-extended
// to 256 bits so that no product wraps:
//   q * tb_hz >= ticks * 10^6            (q is not below the exact value)
//   q * tb_hz <  ticks * 10^6 + tb_hz    ((q - 1) * tb_hz < ticks * 10^6: the
//                                         least such q)
//
// Verdict: held, or the ticks, the frequency and the wrong result.
#include "proofs/states_proofs.h"

namespace idlespec::proofs {

std::vector<uint64_t> conversion_tb_hz() {
  return {states::kDefaultTbHz, states::kMinTbHz, 1000000, 999999937, states::kMaxTbHz};
}

ProofResult prove_states_latency_conversion(ConversionFn convert, const ProofOptions& options) {
  Prover prover("states_latency_conversion", options);
  for (uint64_t tb_hz : conversion_tb_hz()) {
    z3::context ctx;
    Z3Scope scope(ctx);
    const Sym<64> ticks = fresh<64>("ticks");
    const Latency us = convert(ticks, tb_hz);
    constexpr unsigned kWide = 256;
    const z3::expr q = z3::zext(us.e, kWide - 128);
    // ticks * 10^6 < 2^84: its 128-bit product is the exact one.
    const z3::expr scaled = z3::zext(z3::zext(ticks.e, 64) * ctx.bv_val(1000000, 128), kWide - 128);
    const z3::expr tb = ctx.bv_val(tb_hz, kWide);

    Obligation ob(ctx);
    ob.label = "tb_hz " + std::to_string(tb_hz);
    // Z3's default QF_BV engine bit-blasts the 256-bit products and needs
    // 20-70 s per frequency; its lazy bit-vector core needs under 3 s.
    ob.tactic = "smt";
    ob.failures.push_back(
        {"STATES-4", "the conversion is below ticks * 10^6 / tb_hz", z3::ult(q * tb, scaled)});
    ob.failures.push_back({"STATES-4",
                           "the conversion is above the ceiling of ticks * 10^6 / tb_hz",
                           z3::uge(q * tb, scaled + tb)});
    ob.describe = [&](const z3::model& m) {
      return "ticks " + model_decimal(m, ticks.e) + " at tb_hz " + std::to_string(tb_hz) +
             ": converted to " + model_decimal(m, us.e) + " us; exact value " +
             model_decimal(m, scaled) + " / " + std::to_string(tb_hz) + " us\n";
    };
    if (!prover.decide(scope, ob)) break;
  }
  return prover.finish("exact_latency_us = ceil(ticks * 10^6 / tb_hz) for every u64 ticks");
}

}  // namespace idlespec::proofs
