// The idle_core proof (proofs/idle_core_induction.h) and what makes it a
// proof about the code that runs:
//   - the binding: the encoding is impl/idle_core_model.h's apply() on every
//     move of every reachable state (POWER8 SMT1..SMT3 exhaustively, SMT4
//     exhaustively with IDLESPEC_EXHAUSTIVE, else by random walks; other
//     configurations the encoding covers too), and its Z3 instance is its
//     Concrete instance on samples;
//   - the induction holds for N = 1, 2, 4, 8, each query re-checked by cvc5;
//   - without a needed lemma it does not hold (unknown, never held), nor
//     without budget;
//   - the registry's check agrees with spec/idle_core.md and passes.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "impl/idle_core.h"
#include "proofs/idle_core_induction.h"
#include "proofs/idle_core_test_support.h"
#include "proofs/proof_test_support.h"
#include "verify/registry.h"
#include "verify/spec_index.h"

namespace idlespec::proofs {
namespace {

using idle_core::Config;
using idle_core::Reference;
using idle_core_enc::Fact;
using idle_core_enc::fact_info;
using idle_core_enc::kFactCount;

Config p8(unsigned threads, unsigned subcores = 1, bool workaround = true) {
  Config c = p8_whole_core(threads);
  c.subcores = subcores;
  c.fastsleep_workaround = workaround;
  return c;
}

Config p9(unsigned threads) {
  Config c;
  c.platform = Platform::power9;
  c.threads = threads;
  return c;
}

IdleBindingRequest exhaustive(const Config& c, size_t z3_sample = 0, size_t enumerate = 0) {
  IdleBindingRequest r;
  r.config = c;
  r.z3_sample = z3_sample;
  r.z3_enumerate = enumerate;
  return r;
}

IdleBindingRequest walks(const Config& c, size_t n, size_t length, uint64_t seed = 7) {
  IdleBindingRequest r;
  r.config = c;
  r.exhaustive = false;
  r.walks = n;
  r.walk_length = length;
  r.seed = seed;
  return r;
}

void expect_bound(const IdleBindingReport& b) {
  EXPECT_TRUE(b.bound) << b.mismatch;
  EXPECT_TRUE(b.complete) << b.summary();
  std::printf("[binding] %.2f s: %s\n", b.seconds, b.summary().c_str());
}

void expect_facts_hold(const IdleBindingReport& b) {
  for (unsigned f = 0; f < kFactCount; ++f) {
    EXPECT_EQ(b.fact_failures[f], 0u) << fact_info(static_cast<Fact>(f)).id << "\n"
                                      << b.first_fact_failure;
  }
  EXPECT_EQ(b.stuck_states, 0u);
}

// ---- the binding ----------------------------------------------------------------

// The configuration of the proof: every reachable state of SMT1..SMT3, every
// move; the Z3 instance on samples, T(s, .) enumerated by the solver. The
// facts of the inductive invariant (clauses and lemmas) hold on all of them.
TEST(IdleCoreBinding, EncodingIsTheImplementationOnEveryReachableState) {
  const IdleBindingReport b = bind_idle_core<Reference>(
      {exhaustive(p8(1), 64, 64), exhaustive(p8(2), 200, 40), exhaustive(p8(3), 40, 8)}, 600);
  expect_bound(b);
  expect_facts_hold(b);
  ASSERT_EQ(b.configs.size(), 3u);
  EXPECT_EQ(b.configs[0].states, 54u);
  EXPECT_EQ(b.configs[1].states, 2580u);
  EXPECT_EQ(b.configs[2].states, 98144u);
  EXPECT_EQ(b.configs[0].z3_states, 54u);
  EXPECT_EQ(b.configs[0].z3_enumerated, 54u);
  EXPECT_EQ(b.configs[1].z3_states, 200u);
  EXPECT_EQ(b.configs[1].z3_enumerated, 40u);
  // Every encoded move's guard was compared on every state.
  EXPECT_EQ(b.configs[1].guards, 2580u * idle_core_enc::encoded_moves(p8(2)).size());
}

// SMT4: 3.1 million states, exhaustively when the build runs the long scans,
// else random walks.
TEST(IdleCoreBinding, Smt4) {
  const IdleBindingReport b = IDLESPEC_EXHAUSTIVE
                                  ? bind_idle_core<Reference>({exhaustive(p8(4), 24, 4)}, 600)
                                  : bind_idle_core<Reference>({walks(p8(4), 300, 120)}, 600);
  expect_bound(b);
  expect_facts_hold(b);
  if (IDLESPEC_EXHAUSTIVE) {
    EXPECT_EQ(b.configs[0].states, 3148464u);
  }
}

// SMT8 (the largest N of the proof): random walks.
TEST(IdleCoreBinding, Smt8Walks) {
  const IdleBindingReport b =
      bind_idle_core<Reference>({walks(p8(8), IDLESPEC_EXHAUSTIVE ? 400 : 60, 200)}, 600);
  expect_bound(b);
  expect_facts_hold(b);
}

// The encoding covers what the proof does not use: the workaround off,
// split-core, POWER9. The facts are POWER8 whole-core statements, so only the
// binding is asserted (and, for POWER8, the facts too).
TEST(IdleCoreBinding, OtherConfigurations) {
  const IdleBindingReport p8b = bind_idle_core<Reference>(
      {exhaustive(p8(2, 1, false), 16, 4), exhaustive(p8(2, 2), 16, 4), exhaustive(p8(3, 1, false)),
       walks(p8(4, 2), 100, 120), walks(p8(8, 4), 40, 200)},
      600);
  expect_bound(p8b);
  expect_facts_hold(p8b);
  const IdleBindingReport p9b =
      bind_idle_core<Reference>({exhaustive(p9(1), 16, 16), exhaustive(p9(2), 16, 4),
                                 exhaustive(p9(3)), walks(p9(4), 100, 120)},
                                600);
  expect_bound(p9b);
}

// A binding cut short by its budget says so.
TEST(IdleCoreBinding, OutOfBudgetIsIncomplete) {
  const IdleBindingReport b = bind_idle_core<Reference>({exhaustive(p8(3))}, 0.0);
  EXPECT_TRUE(b.bound);
  EXPECT_FALSE(b.complete);
}

// ---- the induction ------------------------------------------------------------------

TEST(IdleCoreInduction, HoldsForN1To8AndCvc5Agrees) {
  const IdleInductionResult r = prove_idle_core_induction<Reference>(testing::test_options());
  testing::expect_held(r.proof);
  std::printf("%s\n", r.proof.detail.c_str());
  ASSERT_EQ(r.per_n.size(), 4u);
  for (const IdleInductionPerN& p : r.per_n) {
    EXPECT_EQ(p.outcome, "held") << p.threads;
    std::printf("[idle_core_induction] N=%u base %.2f s, step %.2f s, progress %.2f s\n", p.threads,
                p.base, p.step, p.progress);
  }
  // Per N: the base (clauses), the base (lemmas), the step (one query per
  // thread, one for the core loss), progress.
  EXPECT_EQ(r.proof.queries.size(), (1 + 4) + (2 + 4) + (4 + 4) + (8 + 4u));
  EXPECT_TRUE(r.cti.empty());
  for (const Query& q : r.proof.queries) EXPECT_EQ(q.logic, "QF_BV");
  if (testing::have_cvc5_for_idle_core()) {
    EXPECT_EQ(testing::idle_core_cvc5_agrees(r.proof, "idle_core_induction", 300),
              r.proof.queries.size());
  }
}

// k = 2: the same invariant, with a path of two states of it as hypothesis.
TEST(IdleCoreInduction, TwoInductionHoldsForSmallN) {
  IdleInductionOptions io;
  io.threads = {1, 2};
  io.k = 2;
  const IdleInductionResult r = prove_idle_core_induction<Reference>(testing::test_options(), io);
  testing::expect_held(r.proof);
  EXPECT_NE(r.proof.detail.find("2-induction"), std::string::npos) << r.proof.detail;
}

// Each lemma is needed: without it the step has a counterexample to
// induction that no path from the initial state reaches, and the proof is
// unknown (never held, never violated).
TEST(IdleCoreInduction, WithoutALemmaItIsUnknown) {
  for (const Fact f : {Fact::store_sees_word, Fact::bits_always, Fact::shape}) {
    SCOPED_TRACE(fact_info(f).id);
    IdleInductionOptions io;
    io.threads = {2};
    io.bmc_depth = 8;
    io.without = {f};
    const IdleInductionResult r = prove_idle_core_induction<Reference>(testing::test_options(), io);
    testing::report(r.proof);
    EXPECT_EQ(r.proof.verdict, Verdict::unknown) << r.proof.detail;
    EXPECT_FALSE(r.cti.empty());
    EXPECT_NE(r.proof.detail.find("counterexample to induction"), std::string::npos)
        << r.proof.detail;
    EXPECT_TRUE(r.trace.empty());
    std::printf("without %s: %s\n%s", fact_info(f).id, r.proof.detail.c_str(), r.cti.c_str());
  }
  // The progress obligation needs L-cmpxchg (the holder's cmpxchg succeeds).
  IdleInductionOptions io;
  io.threads = {2};
  io.bmc_depth = 8;
  io.without = {Fact::cmpxchg_sees_word};
  const IdleInductionResult r = prove_idle_core_induction<Reference>(testing::test_options(), io);
  EXPECT_EQ(r.proof.verdict, Verdict::unknown) << r.proof.detail;
  EXPECT_NE(r.cti.find("no thread can move"), std::string::npos) << r.cti;
}

TEST(IdleCoreInduction, NoBudgetIsUnknownNeverHeld) {
  ProofOptions o;
  o.budget_seconds = 0;
  const IdleInductionResult r = prove_idle_core_induction<Reference>(o);
  EXPECT_EQ(r.proof.verdict, Verdict::unknown) << r.proof.detail;
  for (const Query& q : r.proof.queries) EXPECT_NE(q.verdict, Verdict::held);
}

// ---- the registry ---------------------------------------------------------------------

TEST(IdleCoreProofRegistry, SpecAndRegistryAgree) {
  const verify::SpecIndex spec = verify::builtin_spec();
  const verify::Registry& registry = verify::builtin_registry();
  const verify::Check* c = registry.find(verify::CheckKind::proof, "idle_core_induction");
  ASSERT_NE(c, nullptr);
  EXPECT_EQ(c->component, "idle_core");
  EXPECT_EQ(c->clauses, (std::vector<std::string>{"IDLE-1", "IDLE-2", "IDLE-5"}));
  EXPECT_EQ(c->subjects, (std::vector<std::string>{"reference"}));
  std::vector<std::string> listing;
  for (const verify::Clause& clause : spec.clauses) {
    if (clause.component != "idle_core") continue;
    for (const verify::CheckRef& ref : clause.checks) {
      if (ref.kind == verify::CheckKind::proof && ref.name == "idle_core_induction") {
        listing.push_back(clause.id);
        // The induction is the reference's; the clause's other subject
        // (idle_lock) is the model checker's.
        for (const std::string& s : c->subjects) {
          EXPECT_NE(std::find(clause.subjects.begin(), clause.subjects.end(), s),
                    clause.subjects.end())
              << clause.id << " " << s;
        }
      }
    }
  }
  EXPECT_EQ(listing, c->clauses);
}

TEST(IdleCoreProofRegistry, CheckPassesForTheReference) {
  const verify::Check* c =
      verify::builtin_registry().find(verify::CheckKind::proof, "idle_core_induction");
  ASSERT_NE(c, nullptr);
  verify::RunOptions opts = verify::RunOptions::unhurried();
  const verify::CheckResult r = c->run("reference", opts);
  EXPECT_EQ(r.outcome, verify::Outcome::pass) << r.detail << "\n" << r.counterexample;
  EXPECT_NE(r.detail.find("N = 1, 2, 4, 8"), std::string::npos) << r.detail;
  EXPECT_NE(r.detail.find("bound to impl/idle_core_model.h"), std::string::npos) << r.detail;
  EXPECT_NE(r.detail.find("lemmas L-shape"), std::string::npos) << r.detail;
  std::printf("%s\n%.2f s\n", r.detail.c_str(), r.seconds);
  EXPECT_EQ(c->run("upstream", opts).outcome, verify::Outcome::unknown);
}

}  // namespace
}  // namespace idlespec::proofs
