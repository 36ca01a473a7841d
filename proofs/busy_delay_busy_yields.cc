// BUSY-2 (efficiency): on busy (-2) the policy requests no sleep of any kind;
// it may only yield (cond_resched()).
//
// Assumptions: none: every 32-bit status, need_resched() true or false, any
// consecutive count; every form of the subject.
//
// Obligation: status = 0xfffffffe => primitive = none, min_us = 0 and
// max_us = 0. cond_resched() is allowed; whether busy retries is BUSY-1's.
//
// Verdict: held, or the status, need_resched and the sleep requested (legacy
// fails: msleep(1) whenever need_resched() is true, which the spec accepts).
#include "proofs/busy_delay_proofs.h"

namespace idlespec::proofs {

ProofResult prove_busy_delay_busy_yields(const BusySubject& subject, const ProofOptions& options) {
  auto obligation = [](const BusyStepRun& run, Obligation& ob) {
    z3::context& ctx = run.status.e.ctx();
    const z3::expr busy = status_is_busy(run.status);
    const z3::expr zero = ctx.bv_val(0, 64);
    ob.failures.push_back({"BUSY-2", "busy (-2) requests a sleep primitive",
                           busy && run.step.primitive.e != ctx.bv_val(busy_delay::kNoSleep, 8)});
    ob.failures.push_back({"BUSY-2", "busy (-2) requests a sleep with a non-zero lower end",
                           busy && run.step.min_us.e != zero});
    ob.failures.push_back({"BUSY-2", "busy (-2) requests a sleep with a non-zero upper end",
                           busy && run.step.max_us.e != zero});
  };
  return prove_over_forms("busy_delay_busy_yields", subject, options, obligation,
                          "busy (-2) requests no sleep (at most cond_resched)");
}

}  // namespace idlespec::proofs
