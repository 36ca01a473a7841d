// The proof checks in the registry agree with the spec's "- Checks:" lines:
// every proof a clause lists is registered and names that clause, and every
// registered proof is listed under each clause it names.
#include <gtest/gtest.h>

#include <algorithm>

#include "proofs/catalog.h"
#include "verify/registry.h"
#include "verify/spec_index.h"

namespace idlespec::proofs {
namespace {

bool contains(const std::vector<std::string>& v, const std::string& s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

TEST(ProofRegistry, SpecAndRegistryAgree) {
  const verify::SpecIndex spec = verify::builtin_spec();
  ASSERT_TRUE(spec.errors.empty()) << spec.errors.front();
  const verify::Registry& registry = verify::builtin_registry();
  size_t listed = 0;
  for (const verify::Clause& clause : spec.clauses) {
    for (const verify::CheckRef& ref : clause.checks) {
      if (ref.kind != verify::CheckKind::proof) continue;
      // busy_delay's proofs have their own catalog (proofs/busy_delay_register.cc).
      if (clause.component == "xcede" || clause.component == "states") ++listed;
      const verify::Check* c = registry.find(verify::CheckKind::proof, ref.name);
      ASSERT_NE(c, nullptr) << clause.id << " lists proof " << ref.name;
      EXPECT_TRUE(contains(c->clauses, clause.id)) << ref.name << " does not name " << clause.id;
      EXPECT_EQ(c->component, clause.component) << ref.name;
    }
  }
  EXPECT_EQ(listed, 12u);  // STATES-4 lists two proofs, STATES-1/2 share one
  for (const ProofEntry& p : proof_catalog()) {
    const verify::Check* c = registry.find(verify::CheckKind::proof, p.name);
    ASSERT_NE(c, nullptr) << p.name;
    EXPECT_EQ(c->subjects, std::vector<std::string>{"reference"});
    EXPECT_EQ(c->clauses, p.clauses);
    for (const std::string& id : p.clauses) {
      const auto clause = std::find_if(spec.clauses.begin(), spec.clauses.end(),
                                       [&](const verify::Clause& cl) { return cl.id == id; });
      ASSERT_NE(clause, spec.clauses.end()) << p.name << " names " << id;
      EXPECT_TRUE(std::any_of(clause->checks.begin(), clause->checks.end(),
                              [&](const verify::CheckRef& r) {
                                return r.kind == verify::CheckKind::proof && r.name == p.name;
                              }))
          << id << " does not list proof " << p.name;
    }
  }
  EXPECT_EQ(proof_catalog().size(), 11u);
}

TEST(ProofRegistry, RunsAgainstTheReferenceOnly) {
  const verify::Check* c =
      verify::builtin_registry().find(verify::CheckKind::proof, "xcede_short_payload");
  ASSERT_NE(c, nullptr);
  verify::RunOptions opts = verify::RunOptions::unhurried();
  const verify::CheckResult held = c->run("reference", opts);
  EXPECT_EQ(held.outcome, verify::Outcome::pass) << held.detail;
  EXPECT_EQ(held.detail.find('\n'), std::string::npos);
  EXPECT_NE(held.detail.find("proved"), std::string::npos) << held.detail;
  const verify::CheckResult other = c->run("upstream", opts);
  EXPECT_EQ(other.outcome, verify::Outcome::unknown);
}

}  // namespace
}  // namespace idlespec::proofs
