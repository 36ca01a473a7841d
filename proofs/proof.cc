#include "proofs/proof.h"

#include <algorithm>
#include <cstdio>

namespace idlespec::proofs {
namespace {

// Counterexamples list at most this many broken obligations; the rest are
// counted.
constexpr size_t kMaxListedFailures = 8;
// A preference query (a smaller counterexample) gets at most this long.
// A preference (a smaller counterexample) is kept when Z3 finds it within a
// resource budget, the same on every machine, so that the counterexample
// never depends on the machine's speed; the time cap is a safety net only.
constexpr unsigned kPreferenceRlimit = 100'000'000;
constexpr double kPreferenceSeconds = 60;

unsigned timeout_ms(double seconds) {
  const double ms = std::clamp(seconds * 1000.0, 1.0, 4.0e9);
  return static_cast<unsigned>(ms);
}

// The default solver, or `tactic` as a solver, limited to `seconds`.
z3::solver make_solver(z3::context& ctx, const std::string& tactic, double seconds) {
  if (tactic.empty()) return z3::solver(ctx);
  return z3::try_for(z3::tactic(ctx, tactic.c_str()), timeout_ms(seconds)).mk_solver();
}

std::string one_line(std::string s) {
  std::replace(s.begin(), s.end(), '\n', ' ');
  return s;
}

std::string seconds_text(double s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f s", s);
  return buf;
}

}  // namespace

std::string_view verdict_name(Verdict v) {
  switch (v) {
    case Verdict::held:
      return "held";
    case Verdict::violated:
      return "violated";
    case Verdict::unknown:
      return "unknown";
  }
  return "?";
}

ProofOptions proof_options(const verify::RunOptions& run) {
  ProofOptions o;
  o.budget_seconds = run.budget_seconds;
  return o;
}

std::string export_smt2(z3::solver& solver, std::string_view logic) {
  std::string text = solver.to_smt2();
  if (text.find("(check-sat)") == std::string::npos) text += "(check-sat)\n";
  return "(set-logic " + std::string(logic) + ")\n" + text + "(exit)\n";
}

Prover::Prover(std::string name, const ProofOptions& options)
    : options_(options), start_(std::chrono::steady_clock::now()) {
  result_.name = std::move(name);
}

z3::check_result Prover::admits_an_input(Z3Scope& scope, const Obligation& ob) {
  z3::context& ctx = current_context();
  const double remaining = options_.budget_seconds - elapsed();
  if (remaining <= 0) return z3::unknown;
  try {
    z3::solver solver = make_solver(ctx, ob.tactic, remaining);
    solver.add(ob.assumptions);
    solver.add(scope.side_conditions());
    z3::params p(ctx);
    p.set("timeout", timeout_ms(remaining));
    solver.set(p);
    return solver.check();
  } catch (const z3::exception&) {
    return z3::unknown;
  }
}

double Prover::elapsed() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
}

bool Prover::decide(Z3Scope& scope, const Obligation& ob) {
  z3::context& ctx = current_context();
  z3::expr_vector disjuncts(ctx);
  for (const Failure& f : ob.failures) disjuncts.push_back(f.cond);
  const double remaining = options_.budget_seconds - elapsed();
  z3::solver solver = make_solver(ctx, ob.tactic, remaining);
  solver.add(ob.assumptions);
  solver.add(ob.hypotheses);
  solver.add(scope.side_conditions());
  solver.add(disjuncts.empty() ? ctx.bool_val(false) : z3::mk_or(disjuncts));

  Query q;
  q.label = ob.label;
  q.logic = ob.logic;
  q.smt2 = export_smt2(solver, ob.logic);
  if (remaining <= 0) {
    q.reason = "budget of " + seconds_text(options_.budget_seconds) + " spent before this query";
    result_.queries.push_back(std::move(q));
    return true;
  }

  z3::check_result answer = z3::unknown;
  const auto t0 = std::chrono::steady_clock::now();
  try {
    z3::params p(ctx);
    p.set("timeout", timeout_ms(remaining));
    solver.set(p);
    answer = solver.check();
    if (answer == z3::unknown) q.reason = solver.reason_unknown();
  } catch (const z3::exception& e) {
    answer = z3::unknown;
    q.reason = std::string("z3: ") + e.msg();
  }
  q.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

  if (answer == z3::unsat) {
    // Not vacuous: some input meets the assumptions.
    const z3::check_result inputs = admits_an_input(scope, ob);
    q.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (inputs == z3::sat) {
      q.verdict = Verdict::held;
    } else {
      q.reason = inputs == z3::unsat ? "vacuous: the assumptions admit no input"
                                     : "could not show that the assumptions admit an input";
    }
    result_.queries.push_back(std::move(q));
    return true;
  }
  if (answer == z3::unknown) {
    result_.queries.push_back(std::move(q));
    return true;
  }

  q.verdict = Verdict::violated;
  z3::model model = solver.get_model();
  // Smaller counterexamples, if the solver finds them within the budget.
  for (const z3::expr& pref : ob.preferences) {
    solver.push();
    solver.add(pref);
    z3::params p(ctx);
    p.set("timeout", timeout_ms(std::min(kPreferenceSeconds, options_.budget_seconds - elapsed())));
    p.set("rlimit", kPreferenceRlimit);
    solver.set(p);
    bool kept = false;
    try {
      if (solver.check() == z3::sat) {
        model = solver.get_model();
        kept = true;
      }
    } catch (const z3::exception&) {
    }
    if (!kept) solver.pop();
  }

  std::string cex = "configuration: " + ob.label + "\n";
  if (ob.describe) cex += ob.describe(model);
  if (!cex.empty() && cex.back() != '\n') cex += '\n';
  cex += "broken:\n";
  size_t listed = 0, unlisted = 0;
  for (const Failure& f : ob.failures) {
    if (!model_true(model, f.cond)) continue;
    result_.violated.insert(f.clause);
    if (listed == 0) result_.detail = "violated (" + ob.label + "): " + f.clause + ": " + f.what;
    if (listed++ < kMaxListedFailures) {
      cex += "  " + f.clause + ": " + f.what + "\n";
    } else {
      ++unlisted;
    }
  }
  if (unlisted) cex += "  ... and " + std::to_string(unlisted) + " more\n";
  result_.counterexample = std::move(cex);
  result_.verdict = Verdict::violated;
  result_.queries.push_back(std::move(q));
  return false;
}

ProofResult Prover::finish(const std::string& statement) {
  ProofResult r = std::move(result_);
  r.seconds = elapsed();
  if (r.verdict != Verdict::violated) {
    const auto unknown = std::find_if(r.queries.begin(), r.queries.end(),
                                      [](const Query& q) { return q.verdict != Verdict::held; });
    if (unknown != r.queries.end()) {
      r.verdict = Verdict::unknown;
      r.detail = "unknown (" + unknown->label + "): " + unknown->reason + ", after " +
                 seconds_text(r.seconds);
    } else if (r.queries.empty()) {
      r.verdict = Verdict::unknown;
      r.detail = "unknown: no query was asked";
    } else {
      r.verdict = Verdict::held;
      r.detail = "proved for every input, " + std::to_string(r.queries.size()) +
                 (r.queries.size() == 1 ? " query, " : " queries, ") + seconds_text(r.seconds) +
                 ": " + statement;
    }
  }
  r.detail = one_line(r.detail);
  return r;
}

uint64_t model_u64(const z3::model& m, const z3::expr& e) {
  z3::expr v = m.eval(e, true);
  uint64_t out = 0;
  if (!v.is_numeral_u64(out)) return 0;
  return out;
}

std::string model_decimal(const z3::model& m, const z3::expr& e) {
  z3::expr v = m.eval(e, true);
  return v.is_numeral() ? v.get_decimal_string(0) : v.to_string();
}

bool model_true(const z3::model& m, const z3::expr& e) { return m.eval(e, true).is_true(); }

std::string hex_byte(uint64_t b) {
  char buf[4];
  std::snprintf(buf, sizeof buf, "%02x", static_cast<unsigned>(b & 0xff));
  return buf;
}

std::string hex_u64(uint64_t v) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
  return buf;
}

std::string replay_command(std::string_view check, std::string_view subject) {
  return "idlespec check proof " + std::string(check) + " --subject " + std::string(subject);
}

verify::CheckResult to_check_result(const ProofResult& proof, std::string_view subject) {
  verify::CheckResult r;
  switch (proof.verdict) {
    case Verdict::held:
      r.outcome = verify::Outcome::pass;
      break;
    case Verdict::violated:
      r.outcome = verify::Outcome::fail;
      break;
    case Verdict::unknown:
      r.outcome = verify::Outcome::unknown;
      break;
  }
  r.detail = one_line(proof.detail);
  r.seconds = proof.seconds;
  if (proof.verdict != Verdict::held) r.replay = replay_command(proof.name, subject);
  if (proof.verdict == Verdict::violated) {
    r.counterexample = proof.counterexample;
    r.violated = proof.violated;
  }
  return r;
}

}  // namespace idlespec::proofs
