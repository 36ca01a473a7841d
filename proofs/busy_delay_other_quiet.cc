// BUSY-5 (safety): for any status that is neither busy nor extended the
// policy requests no sleep, no cond_resched() and no retry.
//
// Assumptions: none: every 32-bit status, need_resched() true or false, any
// consecutive count; every form of the subject.
//
// Obligation: status != 0xfffffffe and status outside [9900, 9905] (stated
// over the raw status word) => retry false, cond_resched false, primitive
// none, min_us = max_us = 0. might_sleep() is no request of the policy (see
// the spec's kernel configuration) and is not modelled.
//
// Verdict: held, or the status (decimal and hex), need_resched, the count and
// what the policy requested.
#include "proofs/busy_delay_proofs.h"

namespace idlespec::proofs {

ProofResult prove_busy_delay_other_quiet(const BusySubject& subject, const ProofOptions& options) {
  auto obligation = [](const BusyStepRun& run, Obligation& ob) {
    z3::context& ctx = run.status.e.ctx();
    const z3::expr other = !status_is_busy(run.status) && !status_is_extended(run.status);
    const z3::expr zero = ctx.bv_val(0, 64);
    const std::string st = "a status neither busy nor extended ";
    ob.failures.push_back({"BUSY-5", st + "retries", other && run.step.retry.e});
    ob.failures.push_back(
        {"BUSY-5", st + "yields (cond_resched)", other && run.step.cond_resched.e});
    ob.failures.push_back({"BUSY-5", st + "requests a sleep primitive",
                           other && run.step.primitive.e != ctx.bv_val(busy_delay::kNoSleep, 8)});
    ob.failures.push_back({"BUSY-5", st + "requests a sleep with a non-zero range",
                           other && (run.step.min_us.e != zero || run.step.max_us.e != zero)});
  };
  return prove_over_forms("busy_delay_other_quiet", subject, options, obligation,
                          "a status neither busy nor extended requests nothing and stops");
}

}  // namespace idlespec::proofs
