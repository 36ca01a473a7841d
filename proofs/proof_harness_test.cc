// The proof harness (proofs/proof.h): verdicts, budgets, side conditions,
// the exported scripts and the check results `idlespec verify` records.
#include <gtest/gtest.h>

#include "proofs/proof.h"
#include "proofs/z3_domain.h"

namespace idlespec::proofs {
namespace {

// (2^64 - 59) * (2^64 - 83), two primes: no solver factors it in a second.
constexpr const char* kSemiprime = "340282366920938460843936948965011886881";

ProofOptions budget(double seconds) {
  ProofOptions o;
  o.budget_seconds = seconds;
  return o;
}

// x * y = kSemiprime with x, y > 1: sat, but out of reach in a short budget.
Obligation factoring(z3::context& ctx) {
  const Sym<128> x = fresh<128>("x");
  const Sym<128> y = fresh<128>("y");
  const z3::expr product = z3::zext(x.e, 128) * z3::zext(y.e, 128);
  Obligation ob(ctx);
  ob.label = "factoring";
  ob.failures.push_back({"TEST-1", "a factorisation",
                         product == ctx.bv_val(kSemiprime, 256) &&
                             z3::ugt(x.e, ctx.bv_val(1, 128)) && z3::ugt(y.e, ctx.bv_val(1, 128))});
  return ob;
}

TEST(ProofHarness, TimeoutIsUnknownNeverHeld) {
  Prover prover("test_timeout", budget(0.3));
  z3::context ctx;
  Z3Scope scope(ctx);
  EXPECT_TRUE(prover.decide(scope, factoring(ctx)));
  const ProofResult r = prover.finish("nothing");
  EXPECT_EQ(r.verdict, Verdict::unknown) << r.detail;
  ASSERT_EQ(r.queries.size(), 1u);
  EXPECT_EQ(r.queries[0].verdict, Verdict::unknown);
  EXPECT_FALSE(r.queries[0].reason.empty());
  EXPECT_LT(r.seconds, 30);  // a 0.3 s budget: 100 times over means the timeout is not applied
  const verify::CheckResult c = to_check_result(r, "reference");
  EXPECT_EQ(c.outcome, verify::Outcome::unknown);
  EXPECT_EQ(c.replay, "idlespec check proof test_timeout --subject reference");
}

TEST(ProofHarness, SpentBudgetIsUnknownButStillExported) {
  Prover prover("test_budget", budget(0));
  z3::context ctx;
  Z3Scope scope(ctx);
  Obligation ob(ctx);
  ob.label = "trivial";
  ob.failures.push_back({"TEST-1", "never", ctx.bool_val(false)});
  EXPECT_TRUE(prover.decide(scope, ob));
  const ProofResult r = prover.finish("nothing");
  EXPECT_EQ(r.verdict, Verdict::unknown);
  ASSERT_EQ(r.queries.size(), 1u);
  EXPECT_NE(r.queries[0].reason.find("budget"), std::string::npos) << r.queries[0].reason;
  EXPECT_NE(r.queries[0].smt2.find("(check-sat)"), std::string::npos);
}

TEST(ProofHarness, NoQueryIsUnknown) {
  Prover prover("test_empty", budget(10));
  EXPECT_EQ(prover.finish("nothing").verdict, Verdict::unknown);
}

// udiv by a constant is a fresh quotient defined by side conditions; the
// harness asserts them, so the quotient is the floor and this holds.
TEST(ProofHarness, SideConditionsAreAsserted) {
  Prover prover("test_udiv", budget(30));
  z3::context ctx;
  Z3Scope scope(ctx);
  const Sym<32> x = fresh<32>("x");
  const Sym<32> q = Z3Domain::udiv(x, Z3Domain::lit<32>(10));
  const z3::expr wide_q = z3::zext(q.e, 32) * ctx.bv_val(10, 64);
  const z3::expr wide_x = z3::zext(x.e, 32);
  Obligation ob(ctx);
  ob.label = "floor";
  ob.failures.push_back({"TEST-1", "q * 10 > x", z3::ugt(wide_q, wide_x)});
  ob.failures.push_back(
      {"TEST-1", "(q + 1) * 10 <= x", z3::ule(wide_q + ctx.bv_val(10, 64), wide_x)});
  prover.decide(scope, ob);
  const ProofResult r = prover.finish("floor division");
  EXPECT_EQ(r.verdict, Verdict::held) << r.detail << r.counterexample;
  ASSERT_EQ(r.queries.size(), 1u);
  EXPECT_NE(r.queries[0].smt2.find("udiv_q0"), std::string::npos);
  EXPECT_EQ(to_check_result(r, "reference").outcome, verify::Outcome::pass);
  EXPECT_TRUE(to_check_result(r, "reference").replay.empty());
}

// Contradictory assumptions make every obligation unsat: not a proof.
TEST(ProofHarness, VacuousAssumptionsAreUnknown) {
  Prover prover("test_vacuous", budget(30));
  z3::context ctx;
  Z3Scope scope(ctx);
  const Sym<8> b = fresh<8>("b");
  Obligation ob(ctx);
  ob.label = "contradiction";
  ob.assumptions = z3::ugt(b.e, ctx.bv_val(7, 8)) && z3::ult(b.e, ctx.bv_val(3, 8));
  ob.failures.push_back({"TEST-1", "b is anything", ctx.bool_val(true)});
  prover.decide(scope, ob);
  const ProofResult r = prover.finish("nothing");
  EXPECT_EQ(r.verdict, Verdict::unknown) << r.detail;
  EXPECT_NE(r.detail.find("vacuous"), std::string::npos) << r.detail;
}

TEST(ProofHarness, ViolationCarriesCounterexampleAndClause) {
  Prover prover("test_violated", budget(30));
  z3::context ctx;
  Z3Scope scope(ctx);
  const Sym<8> b = fresh<8>("b");
  Obligation ob(ctx);
  ob.label = "bytes";
  ob.assumptions = z3::ugt(b.e, ctx.bv_val(200, 8));
  ob.failures.push_back({"TEST-2", "b is odd", b.e.extract(0, 0) == ctx.bv_val(1, 1)});
  ob.failures.push_back({"TEST-3", "b is zero", b.e == ctx.bv_val(0, 8)});
  ob.preferences.push_back(b.e == ctx.bv_val(201, 8));
  ob.describe = [&](const z3::model& m) { return "b = " + std::to_string(model_u64(m, b.e)); };
  EXPECT_FALSE(prover.decide(scope, ob));
  const ProofResult r = prover.finish("nothing");
  ASSERT_EQ(r.verdict, Verdict::violated);
  EXPECT_EQ(r.violated, std::set<std::string>{"TEST-2"});
  EXPECT_NE(r.counterexample.find("b = 201"), std::string::npos) << r.counterexample;
  EXPECT_NE(r.counterexample.find("TEST-2: b is odd"), std::string::npos) << r.counterexample;
  EXPECT_EQ(r.detail, "violated (bytes): TEST-2: b is odd");

  const verify::CheckResult c = to_check_result(r, "witness-x");
  EXPECT_EQ(c.outcome, verify::Outcome::fail);
  EXPECT_EQ(c.detail.find('\n'), std::string::npos);
  EXPECT_EQ(c.counterexample, r.counterexample);
  EXPECT_EQ(c.violated, r.violated);
  EXPECT_EQ(c.replay, "idlespec check proof test_violated --subject witness-x");
}

TEST(ProofHarness, ScriptIsSelfContainedSmtLib) {
  z3::context ctx;
  z3::solver s(ctx);
  const z3::expr x = ctx.bv_const("x", 16);
  s.add(z3::ult(x * ctx.bv_val(3, 16), ctx.bv_val(7, 16)));
  const std::string text = export_smt2(s, "QF_BV");
  EXPECT_EQ(text.rfind("(set-logic QF_BV)\n", 0), 0u) << text;
  EXPECT_NE(text.find("(declare-fun x () (_ BitVec 16))"), std::string::npos) << text;
  EXPECT_EQ(text.find("(check-sat)"), text.rfind("(check-sat)")) << text;
  EXPECT_EQ(text.find("noovfl"), std::string::npos) << text;
}

}  // namespace
}  // namespace idlespec::proofs
