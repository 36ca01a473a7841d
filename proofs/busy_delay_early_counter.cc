// BUSY-7 (safety): before the scheduler runs, every extended status requests
// exactly one mdelay(1) and no other sleep or yield; the first 1000
// consecutive extended statuses retry and the 1001st gives up; the count of
// consecutive extended statuses resets on giving up, on -2 and on every
// other status (which does not retry). -2 retries without delay.
//
// An inductive proof over one step. The state is the count c of consecutive
// extended statuses (the kernel's static, Context::consecutive); the
// invariant is c <= 1000.
//
// Assumptions: every 32-bit status, need_resched() true or false, and a
// symbolic count c with c <= 1000 (the invariant: the input domain is every
// state the invariant admits). Every form of the subject.
//
// Obligations:
//   base:  the count starts at 0 (a static), and 0 satisfies the invariant;
//   step:  for every status and every c <= 1000, with c' the count after the
//          step:
//     - extended => primitive mdelay, min_us = max_us = 1000, no
//       cond_resched(), retry <=> c < 1000, c' = (c < 1000 ? c + 1 : 0);
//     - busy (-2) => retry, no sleep (primitive none, min_us = max_us = 0),
//       c' = 0;
//     - any other status => no retry, no sleep, c' = 0;
//     - c' <= 1000 (the invariant is preserved).
//
// Why this is the sequence statement of BUSY-7: take any sequence of
// statuses s_1, s_2, ... from the start of boot. By the base and the
// preserved invariant (induction on i), the count before every step is
// <= 1000, so the step obligation applies to every s_i. By the count
// equations, the count before s_i is the number of extended statuses
// immediately before s_i since the last reset (a reset being giving up, a
// busy or any other status): induction again, c' = c + 1 on a counted
// extended status and 0 otherwise. So the j-th consecutive extended status
// sees c = j - 1: it retries for j <= 1000 and gives up (and resets) for
// j = 1001, each requesting exactly mdelay(1) and no yield; -2 retries with
// no delay and resets; anything else stops and resets. Every loop after a
// give-up therefore starts from 0 again (the reset the review asked for).
//
// Verdict: held, or the status, the count before and after the step and what
// the policy requested.
#include "proofs/busy_delay_proofs.h"

namespace idlespec::proofs {

ProofResult prove_busy_delay_early_counter(const BusySubject& subject,
                                           const ProofOptions& options) {
  using namespace busy_delay;
  const std::string name = "busy_delay_early_counter";
  Prover prover(name, options);
  z3::context ctx;
  const z3::expr limit = ctx.bv_val(kEarlyGiveUpAfter, 32);

  // Base: the count starts at 0, inside the invariant.
  {
    Z3Scope scope(ctx);
    const Sym<32> initial = fresh<32>("initial_count");
    Obligation ob(ctx);
    ob.label = "induction base: the count starts at 0";
    ob.assumptions = initial.e == ctx.bv_val(0, 32);
    ob.failures.push_back({"BUSY-7", "the initial count exceeds 1000", z3::ugt(initial.e, limit)});
    ob.describe = [&initial](const z3::model& m) {
      return "initial count " + model_decimal(m, initial.e) + "\n";
    };
    if (!prover.decide(scope, ob)) return prover.finish("");
  }

  for (const BusyForm& form : subject.forms) {
    Z3Scope scope(ctx);
    const BusyStepRun run(form);
    const z3::expr& c = run.consecutive.e;
    const z3::expr& next = run.next_count.e;
    const BusyStep& s = run.step;
    const z3::expr zero64 = ctx.bv_val(0, 64);
    const z3::expr ms1 = ctx.bv_val(1000, 64);
    const z3::expr zero32 = ctx.bv_val(0, 32);
    const z3::expr ext = status_is_extended(run.status);
    const z3::expr busy = status_is_busy(run.status);
    const z3::expr other = !ext && !busy;
    const z3::expr below = z3::ult(c, limit);
    const z3::expr sleeps =
        s.primitive.e != ctx.bv_val(kNoSleep, 8) || s.min_us.e != zero64 || s.max_us.e != zero64;

    Obligation ob(ctx);
    ob.label = "induction step: " + form_label(subject, form) + ", any count <= 1000";
    ob.assumptions = z3::ule(c, limit);
    ob.preferences = run.preferences();
    const auto fail = [&](const std::string& what, const z3::expr& cond) {
      ob.failures.push_back({"BUSY-7", what, cond});
    };
    fail("an extended status does not request mdelay",
         ext && s.primitive.e != ctx.bv_val(kMdelay, 8));
    fail("an extended status's mdelay is not 1 ms (min_us = max_us = 1000)",
         ext && (s.min_us.e != ms1 || s.max_us.e != ms1));
    fail("an extended status yields (cond_resched) besides mdelay", ext && s.cond_resched.e);
    fail("gives up before the 1001st consecutive extended status", ext && below && !s.retry.e);
    fail("retries on the 1001st consecutive extended status", ext && !below && s.retry.e);
    fail("does not count an extended status that retries",
         ext && below && next != c + ctx.bv_val(1, 32));
    fail("does not reset the count on giving up", ext && !below && next != zero32);
    fail("-2 does not retry", busy && !s.retry.e);
    fail("-2 requests a delay", busy && sleeps);
    fail("-2 does not reset the count", busy && next != zero32);
    fail("a status neither busy nor extended retries", other && s.retry.e);
    fail("a status neither busy nor extended requests a delay", other && sleeps);
    fail("a status neither busy nor extended does not reset the count", other && next != zero32);
    fail("the count after the step exceeds 1000 (the invariant is not preserved)",
         z3::ugt(next, limit));
    ob.describe = [&run](const z3::model& m) { return run.describe(m, true); };
    if (!prover.decide(scope, ob)) break;
  }
  const size_t n = subject.forms.size();
  return prover.finish(
      "one mdelay(1) per extended status, the 1001st in a row gives up, every other status "
      "resets the count; count <= 1000 is inductive, for " +
      subject.name + (n == 1 ? "" : " (" + std::to_string(n) + " forms)"));
}

}  // namespace idlespec::proofs
