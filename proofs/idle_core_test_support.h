// Test helpers for the idle_core proof (proofs/idle_core_proofs_test.cc,
// tests/witnesses/proof_idle_core_witness_test.cc): re-checking every query's
// exported SMT-LIB2 script with cvc5, as proofs/busy_delay_test_support.h
// does, but with cvc5's eager bit-blasting: the induction step of an 8-thread
// core takes cvc5 1.0.3 about a second that way and minutes with its lazy
// default (the script itself is unchanged, solver-neutral).
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <string>

#include "proofs/proof.h"

namespace idlespec::proofs::testing {

inline bool have_cvc5_for_idle_core() { return !std::string(IDLESPEC_CVC5_PATH).empty(); }

struct IdleCvc5Answer {
  std::string verdict;  // sat, unsat, unknown, timeout, error
  std::string output;
  double seconds = 0;
};

inline IdleCvc5Answer run_cvc5_eager(const std::string& script, double limit_seconds,
                                     const std::string& tag) {
  const std::string path = ::testing::TempDir() + "idlespec_cvc5_idle_core_" + tag + ".smt2";
  std::ofstream(path) << script;
  const std::string cmd = std::string(IDLESPEC_CVC5_PATH) +
                          " --lang=smt2 --bitblast=eager --bv-sat-solver=cadical --tlimit=" +
                          std::to_string(static_cast<long>(limit_seconds * 1000)) + " '" + path +
                          "' 2>&1";
  IdleCvc5Answer a;
  const auto t0 = std::chrono::steady_clock::now();
  if (FILE* p = popen(cmd.c_str(), "r")) {
    char buf[4096];
    size_t n = 0;
    while ((n = fread(buf, 1, sizeof buf, p)) > 0) a.output.append(buf, n);
    pclose(p);
  }
  a.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::remove(path.c_str());
  const std::string first = a.output.substr(0, a.output.find('\n'));
  if (first == "sat" || first == "unsat" || first == "unknown") {
    a.verdict = first;
  } else if (a.output.find("timeout") != std::string::npos) {
    a.verdict = "timeout";
  } else {
    a.verdict = "error";
  }
  return a;
}

// Runs cvc5 on every query Z3 decided and expects the same answer (unsat <=>
// held, sat <=> violated); returns how many queries cvc5 decided.
inline size_t idle_core_cvc5_agrees(const ProofResult& r, const std::string& tag,
                                    double limit_seconds = 120) {
  size_t decided = 0;
  double seconds = 0, slowest = 0;
  for (size_t i = 0; i < r.queries.size(); ++i) {
    const Query& q = r.queries[i];
    SCOPED_TRACE(r.name + " / " + q.label);
    EXPECT_EQ(q.smt2.find("noovfl"), std::string::npos);
    if (q.verdict == Verdict::unknown) continue;
    const IdleCvc5Answer a = run_cvc5_eager(q.smt2, limit_seconds, tag + "_" + std::to_string(i));
    seconds += a.seconds;
    slowest = std::max(slowest, a.seconds);
    if (a.verdict == "sat" || a.verdict == "unsat") {
      ++decided;
      EXPECT_EQ(a.verdict, q.verdict == Verdict::held ? "unsat" : "sat")
          << "Z3 and cvc5 disagree (Z3: " << verdict_name(q.verdict) << ")";
    } else if (a.verdict == "error") {
      ADD_FAILURE() << "cvc5 rejected the script:\n" << a.output;
    } else {
      ADD_FAILURE() << "cvc5 did not decide in " << limit_seconds << " s: " << a.verdict;
    }
  }
  std::printf(
      "[cvc5] %-26s %-28s %zu of %zu queries decided, agreeing with Z3, %.2f s (slowest "
      "%.2f s)\n",
      r.name.c_str(), tag.c_str(), decided, r.queries.size(), seconds, slowest);
  return decided;
}

}  // namespace idlespec::proofs::testing
