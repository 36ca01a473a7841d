// BUSY-3 (safety): for an extended delay with hint h the policy requests
// exactly one sleep, of at most c = min(h, 1000) ms and at least c/10 ms,
// computed without overflow, and no cond_resched() besides.
//
// Assumptions: none: every 32-bit status, need_resched() true or false, any
// consecutive count; every form of the subject.
//
// Obligation, for 9900 <= status <= 9905 with h = 10^(status - 9900) ms from
// the clause's table (not from the code's delay time) and c = min(h, 1000):
//   - a sleep is requested: primitive != none, and one of the primitives
//     the spec knows (usleep_range, msleep, fsleep, mdelay);
//   - min_us <= max_us;
//   - max_us <= c * 1000 and min_us >= c * 100, both compared at 128 bits
//     (the 64-bit request and the bounds zero-extended, the bounds computed
//     there), so no wrapped product can pass for a small one;
//   - msleep, fsleep and mdelay request one duration: min_us = max_us;
//   - no cond_resched().
// There is one primitive per step, so "exactly one sleep" is primitive !=
// none.
//
// Verdict: held, or the status, need_resched, h and c, and the request (legacy
// fails: no sleep when need_resched() is false, msleep(100000) for 9905 when
// it is true, which the spec accepts).
#include "proofs/busy_delay_proofs.h"

namespace idlespec::proofs {

ProofResult prove_busy_delay_sleep_bounds(const BusySubject& subject, const ProofOptions& options) {
  auto obligation = [](const BusyStepRun& run, Obligation& ob) {
    using namespace busy_delay;
    z3::context& ctx = run.status.e.ctx();
    const z3::expr ext = status_is_extended(run.status);
    const z3::expr h = expected_delay_time(run.status);
    const z3::expr c32 =
        z3::ite(z3::ule(h, ctx.bv_val(kMaxSleepMs, 32)), h, ctx.bv_val(kMaxSleepMs, 32));
    const z3::expr c = z3::zext(c32, 96);
    const z3::expr max_bound = c * ctx.bv_val(1000, 128);
    const z3::expr min_bound = c * ctx.bv_val(100, 128);
    const z3::expr min_us = z3::zext(run.step.min_us.e, 64);
    const z3::expr max_us = z3::zext(run.step.max_us.e, 64);
    const z3::expr prim = run.step.primitive.e;
    const auto is = [&](Primitive p) { return prim == ctx.bv_val(p, 8); };

    ob.failures.push_back({"BUSY-3", "an extended delay requests no sleep", ext && is(kNoSleep)});
    ob.failures.push_back({"BUSY-3", "an extended delay requests an unknown sleep primitive",
                           ext && z3::ugt(prim, ctx.bv_val(kMdelay, 8))});
    ob.failures.push_back(
        {"BUSY-3", "the requested range has min > max", ext && z3::ugt(min_us, max_us)});
    ob.failures.push_back({"BUSY-3", "the request's upper end exceeds c * 1000 us",
                           ext && z3::ugt(max_us, max_bound)});
    ob.failures.push_back({"BUSY-3", "the request's lower end is below c * 100 us",
                           ext && z3::ult(min_us, min_bound)});
    ob.failures.push_back({"BUSY-3", "msleep, fsleep or mdelay requested with min != max",
                           ext && (is(kMsleep) || is(kFsleep) || is(kMdelay)) && min_us != max_us});
    ob.failures.push_back(
        {"BUSY-3", "cond_resched() besides the sleep", ext && run.step.cond_resched.e});

    ob.describe = [&run, h, c32](const z3::model& m) {
      const uint64_t hv = model_u64(m, h), cv = model_u64(m, c32);
      std::string s = run.describe(m);
      if (model_true(m, status_is_extended(run.status))) {
        s += "hint h " + std::to_string(hv) + " ms, c = min(h, 1000) = " + std::to_string(cv) +
             " ms: allowed min_us >= " + std::to_string(cv * 100) +
             ", max_us <= " + std::to_string(cv * 1000) + "\n";
      }
      return s;
    };
  };
  return prove_over_forms("busy_delay_sleep_bounds", subject, options, obligation,
                          "every extended delay requests one sleep within [c/10, c] ms, "
                          "c = min(h, 1000)");
}

}  // namespace idlespec::proofs
