// What the busy_delay proofs share (proofs/busy_delay_proofs.h): the shipped
// subjects, one symbolic step and its counterexample text, the clause's view
// of a status, and the loop over a subject's forms.
#include <cstdio>
#include <string>

#include "proofs/busy_delay_proofs.h"

namespace idlespec::proofs {

std::optional<BusySubject> busy_subject(std::string_view name) {
  using namespace busy_delay;
  if (name == ReferencePolicy::subject) {
    return busy_subject_of<ReferencePolicy, ReferenceFsleepPolicy>();
  }
  if (name == LegacyPolicy::subject) return busy_subject_of<LegacyPolicy>();
  if (name == EarlyPolicy::subject) return busy_subject_of<EarlyPolicy>();
  return std::nullopt;
}

BusyStepRun::BusyStepRun(const BusyForm& form)
    : status(fresh<32>("status")),
      need_resched(fresh_bool("need_resched")),
      consecutive(fresh<32>("consecutive")) {
  BusyContext ctx{need_resched, consecutive};
  step = form.step(status, ctx);
  next_count = ctx.consecutive;
  delay_time_ms = form.delay_time(status);
  own_delay_time = form.own_delay_time;
}

busy_delay::Request BusyStepRun::request(const z3::model& m) const {
  busy_delay::Request r;
  r.retry = model_true(m, step.retry.e);
  r.cond_resched = model_true(m, step.cond_resched.e);
  r.primitive = static_cast<busy_delay::Primitive>(model_u64(m, step.primitive.e));
  r.min_us = model_u64(m, step.min_us.e);
  r.max_us = model_u64(m, step.max_us.e);
  return r;
}

std::string BusyStepRun::describe(const z3::model& m, bool show_count) const {
  const busy_delay::Request r = request(m);
  std::string s = "status " + status_text(static_cast<uint32_t>(model_u64(m, status.e))) +
                  ", need_resched " + (model_true(m, need_resched.e) ? "true" : "false") +
                  ", consecutive " + model_decimal(m, consecutive.e);
  if (show_count) s += " (after the step: " + model_decimal(m, next_count.e) + ")";
  s += "\nrequest: " + busy_delay::describe(r) + " [primitive " +
       std::string(busy_delay::primitive_name(r.primitive)) + " (" +
       std::to_string(static_cast<unsigned>(r.primitive)) + "), min_us " +
       std::to_string(r.min_us) + ", max_us " + std::to_string(r.max_us) + ", cond_resched " +
       (r.cond_resched ? "true" : "false") + "]\n";
  return s;
}

std::vector<z3::expr> BusyStepRun::preferences() const {
  z3::context& ctx = status.e.ctx();
  return {!need_resched.e, consecutive.e == ctx.bv_val(0, 32)};
}

z3::expr status_is_busy(const Sym<32>& status) {
  return status.e == status.e.ctx().bv_val(0xfffffffeu, 32);
}

z3::expr status_is_extended(const Sym<32>& status) {
  z3::context& ctx = status.e.ctx();
  return z3::uge(status.e, ctx.bv_val(9900, 32)) && z3::ule(status.e, ctx.bv_val(9905, 32));
}

z3::expr expected_delay_time(const Sym<32>& status) {
  z3::context& ctx = status.e.ctx();
  z3::expr t = ctx.bv_val(0, 32);
  uint32_t power = 100000;
  for (unsigned n = 5;; --n) {
    t = z3::ite(status.e == ctx.bv_val(9900 + n, 32), ctx.bv_val(power, 32), t);
    if (n == 0) break;
    power /= 10;
  }
  return z3::ite(status_is_busy(status), ctx.bv_val(1, 32), t);
}

std::string status_text(uint32_t status) {
  char buf[64];
  if (status & 0x80000000u) {
    std::snprintf(buf, sizeof buf, "%u (0x%x, %d)", status, status, static_cast<int32_t>(status));
  } else {
    std::snprintf(buf, sizeof buf, "%u (0x%x)", status, status);
  }
  return buf;
}

std::string form_label(const BusySubject& subject, const BusyForm& form) {
  return subject.name + " (" + form.form + ")";
}

ProofResult prove_over_forms(const std::string& name, const BusySubject& subject,
                             const ProofOptions& options, const BusyObligation& obligation,
                             const std::string& statement) {
  Prover prover(name, options);
  z3::context ctx;
  for (const BusyForm& form : subject.forms) {
    Z3Scope scope(ctx);
    const BusyStepRun run(form);
    Obligation ob(ctx);
    ob.label = form_label(subject, form);
    ob.preferences = run.preferences();
    ob.describe = [&run](const z3::model& m) { return run.describe(m); };
    obligation(run, ob);
    if (!prover.decide(scope, ob)) break;
  }
  const size_t n = subject.forms.size();
  return prover.finish(statement + ", for " + subject.name +
                       (n == 1 ? "" : " (" + std::to_string(n) + " forms)"));
}

}  // namespace idlespec::proofs
