// The proof harness: one place that turns "this must hold" into a solver
// query, a verdict and, on failure, a counterexample people can replay.
//
// A proof states its obligation negated, as a list of Failures (each one way
// the obligation can break, with the clause it breaks), over inputs
// constrained only by `assumptions` (the input domain: never a fact about the
// code under proof). The code under proof is impl/'s templates instantiated
// with Z3Domain; the side conditions its divisions introduce are always
// asserted with the query. Z3 answers:
//
//   unsat    no input breaks the obligation: held, once a second query has
//            shown that some input meets the assumptions (a contradictory
//            input domain would make any obligation "hold")
//   sat      the model is a counterexample: violated
//   unknown  (timeout, budget spent, incomplete): unknown, never held
//
// Every query is exported as a self-contained SMT-LIB2 script (set-logic,
// declarations, assertions, check-sat) so that another solver can re-check it
// (proofs/cvc5_crosscheck_test.cc). Overflow is encoded by zero-extension,
// never with bvumul_noovfl: Z3 4.8 prints that name and cvc5 rejects it.
#pragma once

#include <z3++.h>

#include <chrono>
#include <cstdint>
#include <functional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "proofs/z3_domain.h"
#include "verify/registry.h"

namespace idlespec::proofs {

enum class Verdict { held, violated, unknown };
std::string_view verdict_name(Verdict v);  // "held", "violated", "unknown"

struct ProofOptions {
  double budget_seconds = 120;  // for the whole proof, every query included
};
ProofOptions proof_options(const verify::RunOptions& run);

// One way the obligation can break: `cond` holds exactly when it does.
struct Failure {
  std::string clause;  // the clause it breaks, e.g. "STATES-1"
  std::string what;    // e.g. "state 3's exit latency is below state 2's"
  z3::expr cond;
};

// One solver query, as it was asked.
struct Query {
  std::string label;  // the configuration it covers
  std::string logic;  // SMT-LIB logic of the script
  std::string smt2;   // complete SMT-LIB2 script; sat <=> the obligation is violated
  Verdict verdict = Verdict::unknown;
  std::string reason;  // why unknown
  double seconds = 0;
};

struct ProofResult {
  std::string name;  // the check name, e.g. "xcede_no_overrun"
  Verdict verdict = Verdict::unknown;
  std::string detail;              // one line: what was proved, broken, or why unknown
  std::string counterexample;      // on violated: inputs and outputs, payload in hex
  std::set<std::string> violated;  // clauses the counterexample breaks
  std::vector<Query> queries;
  double seconds = 0;
};

// What a proof asks of one configuration.
struct Obligation {
  std::string label;            // e.g. "dedicated, fix-up on, XCEDE exposed"
  std::string logic = "QF_BV";  // QF_ABV when the inputs include arrays
  // The Z3 engine: empty for the default solver (bit-blasting for QF_BV), or
  // a tactic such as "smt" (lazy bit-vector core, far faster on products with
  // large constants). The exported script is the same either way.
  std::string tactic;
  // The input domain. Never a fact about the code.
  z3::expr assumptions;
  // Lemmas earlier queries of the same proof proved for every input of the
  // domain (an induction's hypothesis). Asserted with the query; left out of
  // the vacuity check, since a lemma valid on the domain excludes no input.
  z3::expr hypotheses;
  std::vector<Failure> failures;  // the negated obligation: their disjunction
  // Tried in order, each on top of the counterexample's constraints, only to
  // make the printed counterexample smaller (never changes the verdict).
  std::vector<z3::expr> preferences;
  // Inputs and outputs under a model, multi-line, for the counterexample.
  std::function<std::string(const z3::model&)> describe;

  explicit Obligation(z3::context& ctx)
      : assumptions(ctx.bool_val(true)), hypotheses(ctx.bool_val(true)) {}
};

// Runs the queries of one proof within its budget. Usage:
//   Prover p("states_monotonic", options);
//   for (each configuration) { Z3Scope scope(ctx); ...; if (!p.decide(scope, ob)) break; }
//   return p.finish("exit latencies and residencies non-decreasing");
class Prover {
 public:
  Prover(std::string name, const ProofOptions& options);

  // Decides one obligation; false once a counterexample is found (further
  // configurations need not be asked).
  bool decide(Z3Scope& scope, const Obligation& obligation);

  // The result; `statement` says what held, for the one-line detail.
  ProofResult finish(const std::string& statement);

 private:
  double elapsed() const;
  z3::check_result admits_an_input(Z3Scope& scope, const Obligation& ob);

  ProofOptions options_;
  std::chrono::steady_clock::time_point start_;
  ProofResult result_;
};

// The SMT-LIB2 script of a solver's assertions under `logic`.
std::string export_smt2(z3::solver& solver, std::string_view logic);

// ---- Model helpers for counterexamples ----------------------------------

// The value of a bit-vector of at most 64 bits under the model (completed).
uint64_t model_u64(const z3::model& m, const z3::expr& e);
// Any width, as decimal text ("340282366920938463463374607431768211455").
std::string model_decimal(const z3::model& m, const z3::expr& e);
bool model_true(const z3::model& m, const z3::expr& e);
std::string hex_byte(uint64_t b);  // "0c"
std::string hex_u64(uint64_t v);   // "0x400"

// ---- Verify integration -----------------------------------------------------

// The check result `idlespec verify` records: detail one line, the
// counterexample, and a replay command.
verify::CheckResult to_check_result(const ProofResult& proof, std::string_view subject);
std::string replay_command(std::string_view check, std::string_view subject);

}  // namespace idlespec::proofs
