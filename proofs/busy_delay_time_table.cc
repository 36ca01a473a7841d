// BUSY-4 (safety): the delay time is exactly: -2 -> 1; 990n -> 10^n for
// n = 0..5; any other status -> 0.
//
// Assumptions: none: every 32-bit status. Every form of the subject.
//
// The delay time is the form's own: busy_delay::delay_time_ms<Z3Domain>
// (rtas_busy_delay_time(), shared by reference, legacy and early), unless the
// policy brings its own `delay_time` (proofs/busy_delay_proofs.h), as a
// witness with a different table does; the clause is checked per subject so
// that such a subject is caught.
//
// Obligation: delay_time(status) equals the clause's table, stated over the
// raw status word, for all 2^32 statuses: one failure per table row (busy,
// each 990n) and one for every other status.
//
// Verdict: held, or the status, the delay time and the table's value.
#include "proofs/busy_delay_proofs.h"

namespace idlespec::proofs {

ProofResult prove_busy_delay_time_table(const BusySubject& subject, const ProofOptions& options) {
  auto obligation = [](const BusyStepRun& run, Obligation& ob) {
    z3::context& ctx = run.status.e.ctx();
    const z3::expr got = run.delay_time_ms.e;
    const z3::expr& status = run.status.e;
    ob.failures.push_back({"BUSY-4", "the delay time of -2 is not 1 ms",
                           status_is_busy(run.status) && got != ctx.bv_val(1, 32)});
    uint32_t power = 1;
    for (unsigned n = 0; n <= 5; ++n, power *= 10) {
      ob.failures.push_back({"BUSY-4",
                             "the delay time of " + std::to_string(9900 + n) + " is not " +
                                 std::to_string(power) + " ms",
                             status == ctx.bv_val(9900 + n, 32) && got != ctx.bv_val(power, 32)});
    }
    ob.failures.push_back({"BUSY-4",
                           "the delay time of a status other than -2 and 9900..9905 is not 0",
                           !status_is_busy(run.status) && !status_is_extended(run.status) &&
                               got != ctx.bv_val(0, 32)});
    const z3::expr expected = expected_delay_time(run.status);
    ob.describe = [&run, expected](const z3::model& m) {
      return "status " + status_text(static_cast<uint32_t>(model_u64(m, run.status.e))) +
             "\ndelay time " + model_decimal(m, run.delay_time_ms.e) + " ms (" +
             (run.own_delay_time ? "the policy's own" : "busy_delay::delay_time_ms") +
             "), the table says " + model_decimal(m, expected) + " ms\n";
    };
  };
  return prove_over_forms("busy_delay_time_table", subject, options, obligation,
                          "the delay time is -2 -> 1, 990n -> 10^n, else 0, every 32-bit status");
}

}  // namespace idlespec::proofs
