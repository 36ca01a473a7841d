// BUSY-1 (safety): the policy returns retry exactly for -2 and 9900..9905,
// for every 32-bit status.
//
// Assumptions: none: every 32-bit status, need_resched() true or false, any
// consecutive count. Every form of the subject (reference: usleep_range/msleep
// and fsleep), each its impl/busy_delay.h policy instantiated with Z3Domain.
//
// Obligation: retry <=> status in {0xfffffffe} u [9900, 9905], the set
// stated over the raw status word (not through impl/'s is_busy or
// is_extended_delay, which are code under proof):
//   - a status outside the set does not retry;
//   - a status inside it retries.
//
// Verdict: held, or the status (decimal and hex), need_resched, the count and
// what the policy requested.
#include "proofs/busy_delay_proofs.h"

namespace idlespec::proofs {

ProofResult prove_busy_delay_retry_set(const BusySubject& subject, const ProofOptions& options) {
  auto obligation = [](const BusyStepRun& run, Obligation& ob) {
    const z3::expr in_set = status_is_busy(run.status) || status_is_extended(run.status);
    ob.failures.push_back({"BUSY-1", "retries on a status other than -2 and 9900..9905",
                           !in_set && run.step.retry.e});
    ob.failures.push_back(
        {"BUSY-1", "does not retry on -2 or 9900..9905", in_set && !run.step.retry.e});
  };
  return prove_over_forms("busy_delay_retry_set", subject, options, obligation,
                          "retry exactly for -2 and 9900..9905, every 32-bit status");
}

}  // namespace idlespec::proofs
