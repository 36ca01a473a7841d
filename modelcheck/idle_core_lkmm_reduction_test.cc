// The weak exploration's reductions and its distributed search
// (modelcheck/idle_core_lkmm_symmetry.h, lkmm::Machine::compact,
// modelcheck/idle_core_lkmm_search.h): with the symmetry reduction and the
// compaction on and off the same clauses fail (IDLE-1..7, 9 and IDLE-10,
// with the race detector on and off) with counterexamples of the same
// length, the three ordering witnesses among them, and a deliberately
// unsound reduction is caught; and over 1, 2 and 3 ranks (threads
// standing for ranks, ThreadExchange) the search stores exactly the states
// one process stores, finds the same clauses with counterexamples of the
// same length, rebuilt across ranks and judged again at their end. The
// same code runs under MPI in idlespec-mc-mpi (scripts/mpi-check.sh).
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "modelcheck/idle_core_lkmm.h"
#include "tests/witnesses/idle_core_witnesses.h"

namespace idlespec::idle_core::mc {
namespace {

// clause -> counterexample length
std::map<std::string, unsigned> found(const CheckerResult& r) {
  std::map<std::string, unsigned> m;
  for (const Violation& v : r.violations) m[v.clause] = v.length;
  return m;
}

std::string names(const CheckerResult& r) {
  std::string s;
  for (const Violation& v : r.violations) s += v.clause + " ";
  return s.empty() ? "no violation" : s;
}

WeakOptions options(Platform p, unsigned threads, bool races, bool reduced) {
  WeakOptions o;
  o.config = Config::of(p, threads);
  o.races = races;
  o.symmetry = reduced;
  o.compact = reduced;
  return o;
}

template <class Subject>
std::vector<CheckerResult> distributed(const WeakOptions& o, unsigned ranks) {
  return on_thread_ranks<CheckerResult>(ranks,
                                        [&](Exchange& x) { return check_weak<Subject>(o, &x); });
}

// The reductions (symmetry and compaction, each alone and both) keep every
// verdict and counterexample length; returns the run with both.
template <class Subject>
CheckerResult reduction_agrees(Platform p, unsigned threads, bool races) {
  const CheckerResult full = check_weak<Subject>(options(p, threads, races, false));
  for (bool symmetry : {false, true}) {
    WeakOptions o = options(p, threads, races, false);
    o.symmetry = symmetry;
    o.compact = !symmetry;
    const CheckerResult one = check_weak<Subject>(o);
    EXPECT_EQ(found(one), found(full)) << Subject::name << (symmetry ? " symmetry" : " compaction")
                                       << " alone: " << names(one) << "/ " << names(full);
    EXPECT_LE(one.states, full.states) << Subject::name;
  }
  const CheckerResult reduced = check_weak<Subject>(options(p, threads, races, true));
  const std::string what =
      std::string(Subject::name) + " " + full.config + (races ? " races" : " no races");
  EXPECT_TRUE(full.complete && reduced.complete) << what << full.error << reduced.error;
  EXPECT_FALSE(full.symmetry);
  EXPECT_TRUE(reduced.symmetry) << what;
  EXPECT_LT(reduced.states, full.states) << what;
  EXPECT_EQ(found(reduced), found(full)) << what << ": " << names(reduced) << "/ " << names(full);
  for (const Violation& v : reduced.violations) {
    EXPECT_TRUE(v.replayed) << what << ": " << v.clause
                            << " not judged again on the concrete path\n"
                            << v.trace;
    EXPECT_NE(v.trace.find("<- " + v.clause), std::string::npos) << what << "\n" << v.trace;
  }
  return reduced;
}

TEST(IdleCoreLkmmReduction, SymmetryKeepsEveryVerdict) {
  for (bool races : {true, false}) {
    EXPECT_TRUE(reduction_agrees<IdleLock>(Platform::power8, 2, races).violations.empty());
    reduction_agrees<Reference>(Platform::power8, 2, races);
    reduction_agrees<Reference>(Platform::power9, 2, races);
  }
  EXPECT_TRUE(reduction_agrees<Reference>(Platform::power8, 2, true).violated("IDLE-10"));
}

// The ordering witnesses still fail under the reduced exploration: IDLE-10,
// and IDLE-2 and IDLE-5 through a stale read for the two that drop an
// ordering (spec/idle_core.md, IDLE-10 and "Weak memory").
TEST(IdleCoreLkmmReduction, OrderingWitnessesStillFail) {
  const CheckerResult unlock = reduction_agrees<witness::UnlockRelaxed>(Platform::power8, 2, true);
  EXPECT_TRUE(unlock.violated("IDLE-10")) << names(unlock);
  const CheckerResult lock = reduction_agrees<witness::LockRelaxed>(Platform::power8, 2, true);
  EXPECT_TRUE(lock.violated("IDLE-10")) << names(lock);
  const CheckerResult peek = reduction_agrees<witness::PeekBeforeLock>(Platform::power8, 2, true);
  EXPECT_TRUE(peek.violated("IDLE-10")) << names(peek);
  for (const CheckerResult& r :
       {reduction_agrees<witness::UnlockRelaxed>(Platform::power8, 2, false),
        reduction_agrees<witness::LockRelaxed>(Platform::power8, 2, false)}) {
    EXPECT_TRUE(r.violated("IDLE-2")) << names(r);
    EXPECT_TRUE(r.violated("IDLE-5")) << names(r);
  }
}

// The cross-check can fail: a "compaction" that forgets stale stores loses
// the stale reads through which the two witnesses that drop an ordering
// fail IDLE-2 and IDLE-5.
TEST(IdleCoreLkmmReduction, UnsoundReductionIsCaught) {
  WeakOptions o = options(Platform::power8, 2, false, false);
  const CheckerResult full = check_weak<witness::UnlockRelaxed>(o);
  o.unsound_for_test = true;
  const CheckerResult broken = check_weak<witness::UnlockRelaxed>(o);
  EXPECT_TRUE(full.violated("IDLE-2")) << names(full);
  EXPECT_NE(found(broken), found(full)) << names(broken);
}

template <class Subject>
void ranks_agree(const WeakOptions& o) {
  const CheckerResult one = check_weak<Subject>(o);
  ASSERT_TRUE(one.complete) << one.error;
  for (unsigned ranks : {1u, 2u, 3u}) {
    const std::vector<CheckerResult> rs = distributed<Subject>(o, ranks);
    const std::string what = std::string(Subject::name) + " " + one.config +
                             (o.symmetry ? "" : " unreduced") + " on " + std::to_string(ranks) +
                             " ranks";
    for (const CheckerResult& r : rs) {
      EXPECT_EQ(r.error, "") << what;
      EXPECT_EQ(r.states, one.states) << what;
      EXPECT_EQ(r.complete, one.complete) << what;
      EXPECT_EQ(r.ranks, ranks) << what;
      EXPECT_EQ(r.depth, one.depth) << what;
    }
    if (ranks > 1) {
      EXPECT_LT(rs[0].max_rank_states, one.states) << what << ": the states are shared out";
      EXPECT_GT(rs[0].bytes_sent, 0u) << what;
    }
    EXPECT_EQ(found(rs[0]), found(one)) << what << ": " << names(rs[0]) << "/ " << names(one);
    for (unsigned r = 1; r < ranks; ++r) EXPECT_TRUE(rs[r].violations.empty()) << what;
    for (const Violation& v : rs[0].violations)
      EXPECT_TRUE(v.replayed) << what << ": " << v.clause << "\n" << v.trace;
  }
}

TEST(IdleCoreLkmmDistributed, SameStatesAndVerdictsOnAnyNumberOfRanks) {
  ranks_agree<IdleLock>(options(Platform::power8, 2, true, true));
  ranks_agree<IdleLock>(options(Platform::power8, 2, true, false));
  ranks_agree<Reference>(options(Platform::power8, 2, true, true));
  ranks_agree<Reference>(options(Platform::power9, 2, true, true));
  ranks_agree<witness::UnlockRelaxed>(options(Platform::power8, 2, false, true));
  ranks_agree<witness::PeekBeforeLock>(options(Platform::power8, 2, true, true));
}

TEST(IdleCoreLkmmDistributed, StateBoundIsCollective) {
  WeakOptions o = options(Platform::power8, 4, true, true);
  o.max_states = 3000;
  for (const CheckerResult& r : distributed<IdleLock>(o, 2)) {
    EXPECT_FALSE(r.complete);
    EXPECT_EQ(r.incomplete_reason, "max states");
    EXPECT_GE(r.states, 3000u);
  }
}

}  // namespace
}  // namespace idlespec::idle_core::mc
