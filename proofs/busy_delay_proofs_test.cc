// The busy_delay proofs against every subject their clauses name: held
// where spec/busy_delay.md expects the clause to hold, violated (with a
// concrete counterexample) where it accepts a violation; every query
// re-checked by cvc5 when it is installed. Also: the registry's busy_delay
// proofs agree with the spec, and the symbolic step is the concrete one.
#include "proofs/busy_delay_proofs.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "proofs/busy_delay_test_support.h"
#include "proofs/proof_test_support.h"
#include "verify/registry.h"
#include "verify/spec_index.h"

namespace idlespec::proofs {
namespace {

using testing::test_options;

struct Case {
  std::string proof;
  std::string subject;
};

std::vector<Case> all_cases() {
  std::vector<Case> out;
  for (const BusyDelayProofEntry& p : busy_delay_proof_catalog()) {
    for (const std::string& s : p.subjects) out.push_back({p.name, s});
  }
  return out;
}

// The spec accepts these violations; everything else must hold.
bool expected_violated(const Case& c) {
  return c.subject == "legacy" &&
         (c.proof == "busy_delay_busy_yields" || c.proof == "busy_delay_sleep_bounds");
}

const verify::Clause* spec_clause(const verify::SpecIndex& spec, const std::string& id) {
  for (const verify::Clause& c : spec.clauses) {
    if (c.id == id) return &c;
  }
  return nullptr;
}

class BusyDelayProofs : public ::testing::TestWithParam<Case> {};

TEST_P(BusyDelayProofs, VerdictAsTheSpecSays) {
  const Case& c = GetParam();
  const BusyDelayProofEntry* p = find_busy_delay_proof(c.proof);
  ASSERT_NE(p, nullptr);
  // The expectation is the spec's: violated iff an "Accepted for" line says so.
  const verify::SpecIndex spec = verify::builtin_spec();
  const verify::Clause* clause = spec_clause(spec, p->clauses.front());
  ASSERT_NE(clause, nullptr) << p->clauses.front();
  EXPECT_EQ(clause->acceptance_for(c.subject) != nullptr, expected_violated(c));

  const std::optional<BusySubject> s = busy_subject(c.subject);
  ASSERT_TRUE(s.has_value());
  const ProofResult r = p->prove(*s, test_options());
  if (expected_violated(c)) {
    testing::expect_violated(r, p->clauses.front());
    // The concrete counterexample: status in decimal and hex, need_resched,
    // the count, what the policy requested.
    EXPECT_NE(r.counterexample.find("need_resched "), std::string::npos) << r.counterexample;
    EXPECT_NE(r.counterexample.find("consecutive "), std::string::npos) << r.counterexample;
    EXPECT_NE(r.counterexample.find("request: "), std::string::npos) << r.counterexample;
  } else {
    testing::expect_held(r);
    // One query per form (plus the induction base for the early counter).
    const size_t base = c.proof == "busy_delay_early_counter" ? 1 : 0;
    EXPECT_EQ(r.queries.size(), s->forms.size() + base);
  }
  if (testing::have_cvc5()) {
    EXPECT_EQ(testing::cvc5_agrees(r, c.proof + "_" + c.subject), r.queries.size());
  }
}

INSTANTIATE_TEST_SUITE_P(BusyDelay, BusyDelayProofs, ::testing::ValuesIn(all_cases()),
                         [](const auto& info) {
                           return info.param.proof + "_" + info.param.subject;
                         });

// The two accepted legacy violations, as the spec explains them.
TEST(BusyDelayProofsLegacy, BusyYieldsShowsMsleepOnBusy) {
  const ProofResult r = prove_busy_delay_busy_yields(*busy_subject("legacy"), test_options());
  ASSERT_EQ(r.verdict, Verdict::violated) << r.detail;
  EXPECT_NE(r.counterexample.find("status 4294967294 (0xfffffffe, -2)"), std::string::npos)
      << r.counterexample;
  EXPECT_NE(r.counterexample.find("need_resched true"), std::string::npos) << r.counterexample;
  EXPECT_NE(r.counterexample.find("msleep(1 ms)"), std::string::npos) << r.counterexample;
}

TEST(BusyDelayProofsLegacy, SleepBoundsShowsAnExtendedDelay) {
  const ProofResult r = prove_busy_delay_sleep_bounds(*busy_subject("legacy"), test_options());
  ASSERT_EQ(r.verdict, Verdict::violated) << r.detail;
  EXPECT_TRUE(r.counterexample.find("(0x26a") != std::string::npos ||
              r.counterexample.find("(0x26b") != std::string::npos)
      << r.counterexample;  // 9900..9905 = 0x26ac..0x26b1
  EXPECT_NE(r.counterexample.find("hint h "), std::string::npos) << r.counterexample;
}

// The reference holds only if both forms hold: its subject has both.
TEST(BusyDelayProofsSubjects, ReferenceHasBothForms) {
  const std::optional<BusySubject> s = busy_subject("reference");
  ASSERT_TRUE(s.has_value());
  ASSERT_EQ(s->forms.size(), 2u);
  EXPECT_EQ(s->forms[0].form, busy_delay::ReferencePolicy::form);
  EXPECT_EQ(s->forms[1].form, busy_delay::ReferenceFsleepPolicy::form);
  EXPECT_FALSE(s->forms[0].own_delay_time);
  EXPECT_EQ(busy_subject("legacy")->forms.size(), 1u);
  EXPECT_EQ(busy_subject("early")->forms.size(), 1u);
  EXPECT_FALSE(busy_subject("upstream").has_value());
}

// The symbolic step is the concrete step: with the inputs fixed, the model's
// request is what concrete_step<Policy> returns.
template <class Policy>
void expect_symbolic_matches_concrete() {
  const uint32_t statuses[] = {0,    1,    0xfffffffe, 0xffffffff, 9899, 9900, 9901,
                               9902, 9903, 9904,       9905,       9906, 990};
  const uint32_t counts[] = {0, 5, 999, 1000};
  const BusyForm form = busy_form_of<Policy>();
  z3::context ctx;
  for (uint32_t status : statuses) {
    for (uint32_t count : counts) {
      for (bool need : {false, true}) {
        Z3Scope scope(ctx);
        const BusyStepRun run(form);
        z3::solver solver(ctx);
        solver.add(scope.side_conditions());
        solver.add(run.status.e == ctx.bv_val(status, 32));
        solver.add(run.consecutive.e == ctx.bv_val(count, 32));
        solver.add(run.need_resched.e == ctx.bool_val(need));
        ASSERT_EQ(solver.check(), z3::sat);
        const z3::model m = solver.get_model();
        busy_delay::ConcreteContext cc{need, count};
        const busy_delay::Request want = busy_delay::concrete_step<Policy>(status, cc);
        SCOPED_TRACE(std::string(Policy::form) + ", status " + std::to_string(status) + ", count " +
                     std::to_string(count) + ", need_resched " + (need ? "true" : "false"));
        EXPECT_EQ(run.request(m), want)
            << busy_delay::describe(run.request(m)) << " vs " << busy_delay::describe(want);
        EXPECT_EQ(model_u64(m, run.next_count.e), cc.consecutive);
        EXPECT_EQ(model_u64(m, run.delay_time_ms.e),
                  busy_delay::delay_time_ms<Concrete>(Word<32>(status)).v);
      }
    }
  }
}

TEST(BusyDelayProofsSubjects, SymbolicStepIsTheConcreteStep) {
  expect_symbolic_matches_concrete<busy_delay::ReferencePolicy>();
  expect_symbolic_matches_concrete<busy_delay::ReferenceFsleepPolicy>();
  expect_symbolic_matches_concrete<busy_delay::LegacyPolicy>();
  expect_symbolic_matches_concrete<busy_delay::EarlyPolicy>();
}

// The registry's busy_delay proofs agree with the spec's "- Checks:" and
// "- Subjects:" lines.
TEST(BusyDelayProofRegistry, SpecAndRegistryAgree) {
  const verify::SpecIndex spec = verify::builtin_spec();
  ASSERT_TRUE(spec.errors.empty()) << spec.errors.front();
  const verify::Registry& registry = verify::builtin_registry();
  size_t listed = 0;
  for (const verify::Clause& clause : spec.clauses) {
    if (clause.component != "busy_delay") continue;
    for (const verify::CheckRef& ref : clause.checks) {
      if (ref.kind != verify::CheckKind::proof) continue;
      ++listed;
      const verify::Check* c = registry.find(verify::CheckKind::proof, ref.name);
      ASSERT_NE(c, nullptr) << clause.id << " lists proof " << ref.name;
      EXPECT_EQ(c->component, "busy_delay");
      EXPECT_NE(std::find(c->clauses.begin(), c->clauses.end(), clause.id), c->clauses.end())
          << ref.name << " does not name " << clause.id;
      for (const std::string& s : clause.subjects) {
        EXPECT_NE(std::find(c->subjects.begin(), c->subjects.end(), s), c->subjects.end())
            << ref.name << " does not run against " << s << " (" << clause.id << ")";
      }
    }
  }
  EXPECT_EQ(listed, 6u);  // BUSY-1..5 and BUSY-7, one proof each
  for (const BusyDelayProofEntry& p : busy_delay_proof_catalog()) {
    const verify::Check* c = registry.find(verify::CheckKind::proof, p.name);
    ASSERT_NE(c, nullptr) << p.name;
    EXPECT_EQ(c->clauses, p.clauses);
    EXPECT_EQ(c->subjects, p.subjects);
    std::vector<std::string> subjects;
    for (const std::string& id : p.clauses) {
      const verify::Clause* clause = spec_clause(spec, id);
      ASSERT_NE(clause, nullptr) << p.name << " names " << id;
      subjects.insert(subjects.end(), clause->subjects.begin(), clause->subjects.end());
    }
    std::vector<std::string> registered = p.subjects;
    std::sort(subjects.begin(), subjects.end());
    std::sort(registered.begin(), registered.end());
    EXPECT_EQ(registered, subjects) << p.name;
  }
  EXPECT_EQ(busy_delay_proof_catalog().size(), 6u);
}

TEST(BusyDelayProofRegistry, RunsPerSubject) {
  const verify::Check* c =
      verify::builtin_registry().find(verify::CheckKind::proof, "busy_delay_sleep_bounds");
  ASSERT_NE(c, nullptr);
  verify::RunOptions opts = verify::RunOptions::unhurried();
  const verify::CheckResult held = c->run("reference", opts);
  EXPECT_EQ(held.outcome, verify::Outcome::pass) << held.detail;
  EXPECT_NE(held.detail.find("proved"), std::string::npos) << held.detail;
  EXPECT_EQ(held.detail.find('\n'), std::string::npos);
  const verify::CheckResult legacy = c->run("legacy", opts);
  EXPECT_EQ(legacy.outcome, verify::Outcome::fail) << legacy.detail;
  EXPECT_EQ(legacy.replay, "idlespec check proof busy_delay_sleep_bounds --subject legacy");
  EXPECT_TRUE(legacy.violated.count("BUSY-3"));
  EXPECT_NE(legacy.counterexample.find("status "), std::string::npos);
  for (const char* other : {"upstream", "early", "witness-accepts-9906"}) {
    const verify::CheckResult r = c->run(other, opts);
    EXPECT_EQ(r.outcome, verify::Outcome::unknown) << other;
    EXPECT_NE(r.detail.find(other), std::string::npos) << r.detail;
  }
}

}  // namespace
}  // namespace idlespec::proofs
