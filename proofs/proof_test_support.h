// Helpers for the proof tests (proofs/*_test.cc, tests/witnesses/proof_*).
#pragma once

#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#include "proofs/proof.h"

namespace idlespec::proofs::testing {

// The budget of one proof in tests: generous, since a timeout makes the proof
// unknown and the test fail, never pass.
inline ProofOptions test_options() {
  ProofOptions o;
  o.budget_seconds = 240;
  return o;
}

// Prints the verdict and time (the per-proof timings of the test log) and
// records them as test properties.
inline void report(const ProofResult& r) {
  std::printf("[proof] %-34s %-8s %7.2f s  %zu queries\n", r.name.c_str(),
              std::string(verdict_name(r.verdict)).c_str(), r.seconds, r.queries.size());
  ::testing::Test::RecordProperty("verdict", std::string(verdict_name(r.verdict)));
  ::testing::Test::RecordProperty("seconds", std::to_string(r.seconds));
}

inline void expect_held(const ProofResult& r) {
  report(r);
  EXPECT_EQ(r.verdict, Verdict::held) << r.detail << "\n" << r.counterexample;
  ASSERT_FALSE(r.queries.empty());
  for (const Query& q : r.queries) {
    EXPECT_EQ(q.verdict, Verdict::held) << q.label << ": " << q.reason;
    EXPECT_NE(q.smt2.find("(check-sat)"), std::string::npos) << q.label;
  }
  EXPECT_TRUE(r.counterexample.empty());
  EXPECT_TRUE(r.violated.empty());
}

// The proof found a counterexample that breaks `clause`.
inline void expect_violated(const ProofResult& r, const std::string& clause) {
  report(r);
  ASSERT_EQ(r.verdict, Verdict::violated) << r.detail;
  EXPECT_TRUE(r.violated.count(clause)) << r.detail << "\n" << r.counterexample;
  EXPECT_NE(r.counterexample.find("broken:"), std::string::npos) << r.counterexample;
  EXPECT_NE(r.counterexample.find(clause), std::string::npos) << r.counterexample;
  ASSERT_FALSE(r.queries.empty());
  EXPECT_EQ(r.queries.back().verdict, Verdict::violated);
  std::printf("%s\n%s", r.detail.c_str(), r.counterexample.c_str());
}

}  // namespace idlespec::proofs::testing
