// The distributed search (Checker::run_distributed) with threads standing
// for ranks (ThreadExchange): over 1, 2 and 3 ranks it stores exactly the
// states the one-process search stores, finds the same clauses on the
// reference and the witnesses, and rank 0 rebuilds each counterexample
// across the ranks that hold its states (replayed, judged again at its
// end). The same code runs under MPI in idlespec-mc-mpi
// (scripts/mpi-check.sh, `make mpi-check`).
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "modelcheck/idle_core_checker.h"
#include "tests/witnesses/idle_core_witnesses.h"

namespace idlespec::idle_core::mc {
namespace {

Config core(Platform p, unsigned threads, unsigned subcores = 1) {
  return Config::of(p, threads, subcores);
}

std::set<std::string> clauses(const CheckerResult& r) {
  std::set<std::string> s;
  for (const auto& v : r.violations) s.insert(v.clause);
  return s;
}

// Runs the search on `ranks` threads; returns every rank's result.
template <class Subject>
std::vector<CheckerResult> distributed(const CheckerOptions& o, unsigned ranks) {
  return on_thread_ranks<CheckerResult>(ranks, [&](Exchange& x) {
    Checker<Subject> checker(o);
    return checker.run_distributed(x);
  });
}

template <class Subject>
void agrees(const Config& c, bool por = true) {
  CheckerOptions o;
  o.config = c;
  o.por = por;
  const CheckerResult one = check<Subject>(o);
  for (unsigned ranks : {1u, 2u, 3u}) {
    const std::vector<CheckerResult> rs = distributed<Subject>(o, ranks);
    const std::string what =
        std::string(Subject::name) + " " + c.describe() + " on " + std::to_string(ranks) + " ranks";
    uint64_t most = 0;
    for (const CheckerResult& r : rs) {
      EXPECT_EQ(r.error, "") << what;
      EXPECT_EQ(r.states, one.states) << what;
      EXPECT_EQ(r.complete, one.complete) << what;
      EXPECT_EQ(r.ranks, ranks) << what;
      most = std::max(most, r.max_rank_states);
    }
    EXPECT_LT(most, one.states + 1) << what;
    if (ranks > 1 && one.states > 1000) {
      EXPECT_LT(most, one.states) << what << ": the states are shared out";
      EXPECT_GT(rs[0].bytes_sent, 0u) << what;
    }
    EXPECT_EQ(clauses(rs[0]), clauses(one)) << what;
    for (unsigned r = 1; r < ranks; ++r) EXPECT_TRUE(rs[r].violations.empty()) << what;
    for (const Violation& v : rs[0].violations) {
      EXPECT_TRUE(v.replayed) << what << ": " << v.clause << "\n" << v.trace;
      EXPECT_NE(v.trace.find("<- " + v.clause), std::string::npos) << what << "\n" << v.trace;
    }
  }
}

const Platform P8 = Platform::power8, P9 = Platform::power9;

TEST(IdleCoreDistributed, SameStatesAndVerdictsOnAnyNumberOfRanks) {
  agrees<Reference>(core(P8, 2));
  agrees<Reference>(core(P8, 4));
  agrees<Reference>(core(P8, 4, 2));
  agrees<Reference>(core(P8, 4), /*por=*/false);
  agrees<Reference>(core(P9, 2));
  agrees<witness::FirstSkipsResync>(core(P8, 2));
  agrees<witness::UnlockBeforeResync>(core(P8, 4));
  agrees<witness::EveryThreadResyncs>(core(P8, 2, 2));
  agrees<witness::NoWinkleDecOnNoLoss>(core(P8, 4));
  agrees<witness::ClearOutsideLock>(core(P8, 2));
}

TEST(IdleCoreDistributed, BoundsAndRefusals) {
  CheckerOptions o;
  o.config = core(P8, 4);
  o.max_states = 2000;
  for (const CheckerResult& r : distributed<Reference>(o, 2)) {
    EXPECT_FALSE(r.complete);
    EXPECT_EQ(r.incomplete_reason, "max states");
    EXPECT_GE(r.states, 2000u);
  }
  o.max_states = 0;
  o.liveness = true;
  for (const CheckerResult& r : distributed<Reference>(o, 2)) {
    EXPECT_NE(r.error.find("safety only"), std::string::npos) << r.error;
  }
}

}  // namespace
}  // namespace idlespec::idle_core::mc
