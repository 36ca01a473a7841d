// idle_core under the Linux-kernel memory model (modelcheck/idle_core_lkmm.h):
// which subjects hold which clauses, IDLE-10's findings, and the ordering
// witnesses that only this exploration catches (spec/idle_core.md, IDLE-10
// and "Weak memory").
#include "modelcheck/idle_core_lkmm.h"

#include <gtest/gtest.h>

#include "modelcheck/idle_core_checker.h"
#include "tests/witnesses/idle_core_witnesses.h"
#include "verify/registry.h"

namespace idlespec::idle_core::mc {
namespace {

template <class Subject>
CheckerResult weak(Platform p, unsigned threads, bool races, bool workaround = true) {
  WeakOptions o;
  o.config = Config::of(p, threads, 1, workaround);
  o.races = races;
  return check_weak<Subject>(o);
}

template <class Subject>
CheckerResult interleavings(Platform p, unsigned threads) {
  CheckerOptions o;
  o.config = Config::of(p, threads);
  return check<Subject>(o);
}

std::string clauses(const CheckerResult& r) {
  std::string s;
  for (const Violation& v : r.violations) s += v.clause + " ";
  return s;
}

void expect_replayed(const CheckerResult& r) {
  for (const Violation& v : r.violations) {
    EXPECT_TRUE(v.replayed) << v.clause << " not judged again at the end of its path:\n" << v.trace;
    EXPECT_GT(v.length, 0u);
  }
}

const Violation* find(const CheckerResult& r, const std::string& clause) {
  for (const Violation& v : r.violations)
    if (v.clause == clause) return &v;
  return nullptr;
}

// Upstream since v6.5 on POWER8: every clause, IDLE-10 included, in every
// execution LKMM allows.
TEST(IdleCoreLkmm, IdleLockPower8HoldsEveryClause) {
  for (unsigned threads : {1u, 2u}) {
    for (bool wa : {true, false}) {
      const CheckerResult r = weak<IdleLock>(Platform::power8, threads, true, wa);
      EXPECT_TRUE(r.complete) << r.incomplete_reason << r.error;
      EXPECT_TRUE(r.violations.empty()) << threads << " threads: " << clauses(r)
                                        << (r.violations.empty() ? "" : r.violations[0].trace);
      EXPECT_GT(r.states, 1000u * (threads - 1));
    }
  }
}

// Up to v6.4 the lock's test_and_set_bit_lock and the section's plain
// updates share the word: the race b0c5b4f1ee36 removed, named so. The
// other clauses hold under LKMM.
TEST(IdleCoreLkmm, ReferenceHasTheRaceB0c5b4f1ee36Fixed) {
  const CheckerResult r = weak<Reference>(Platform::power8, 2, true);
  const Violation* v = find(r, "IDLE-10");
  ASSERT_NE(v, nullptr) << clauses(r);
  EXPECT_NE(v->summary.find("b0c5b4f1ee36"), std::string::npos) << v->summary;
  EXPECT_NE(v->summary.find("plain"), std::string::npos) << v->summary;
  EXPECT_NE(v->trace.find("<- IDLE-10"), std::string::npos) << v->trace;
  expect_replayed(r);
  const CheckerResult quiet = weak<Reference>(Platform::power8, 2, false);
  EXPECT_TRUE(quiet.complete);
  EXPECT_TRUE(quiet.violations.empty()) << clauses(quiet);
}

// POWER9 (upstream up to 6.12): the first-thread check reads the state
// word plainly under the lock while a sibling's lock-free clear_bit/set_bit
// may write it. An LKMM data race (spec/idle_core.md, IDLE-10); nothing
// else fails.
TEST(IdleCoreLkmm, Power9FirstThreadCheckRacesWithLockFreeBitops) {
  for (const bool apart : {true, false}) {
    const CheckerResult r = apart ? weak<IdleLock>(Platform::power9, 2, true)
                                  : weak<Reference>(Platform::power9, 2, true);
    const Violation* v = find(r, "IDLE-10");
    ASSERT_NE(v, nullptr) << clauses(r);
    EXPECT_NE(v->summary.find("plain load at loss_check"), std::string::npos) << v->summary;
    expect_replayed(r);
  }
  const CheckerResult quiet = weak<IdleLock>(Platform::power9, 2, false);
  EXPECT_TRUE(quiet.violations.empty()) << clauses(quiet);
}

// The witnesses: every interleaving holds every clause; under LKMM each
// fails IDLE-10, and the two that drop an ordering fail IDLE-2 and IDLE-5
// through a stale read even with the race detector off.
template <class W>
void ordering_witness(bool stale_read_consequences) {
  const CheckerResult sc = interleavings<W>(Platform::power8, 2);
  EXPECT_TRUE(sc.violations.empty()) << W::name << " under interleavings: " << clauses(sc);
  const CheckerResult sc4 = interleavings<W>(Platform::power8, 4);
  EXPECT_TRUE(sc4.violations.empty()) << W::name << " SMT4 under interleavings: " << clauses(sc4);
  const CheckerResult r = weak<W>(Platform::power8, 2, true);
  EXPECT_TRUE(r.violated("IDLE-10")) << W::name << ": " << clauses(r);
  expect_replayed(r);
  const CheckerResult quiet = weak<W>(Platform::power8, 2, false);
  if (stale_read_consequences) {
    EXPECT_TRUE(quiet.violated("IDLE-2")) << W::name << ": " << clauses(quiet);
    EXPECT_TRUE(quiet.violated("IDLE-5")) << W::name << ": " << clauses(quiet);
    expect_replayed(quiet);
  } else {
    EXPECT_TRUE(quiet.violations.empty()) << W::name << ": " << clauses(quiet);
  }
}

TEST(IdleCoreLkmmWitness, ClearBitInsteadOfClearBitUnlock) {
  ordering_witness<witness::UnlockRelaxed>(true);
}

TEST(IdleCoreLkmmWitness, LockWithoutAcquire) { ordering_witness<witness::LockRelaxed>(true); }

TEST(IdleCoreLkmmWitness, PlainReadOutsideTheLock) {
  ordering_witness<witness::PeekBeforeLock>(false);
  const CheckerResult r = weak<witness::PeekBeforeLock>(Platform::power8, 2, true);
  const Violation* v = find(r, "IDLE-10");
  ASSERT_NE(v, nullptr);
  EXPECT_NE(v->summary.find("plain load at wake_lock"), std::string::npos) << v->summary;
}

// The history bound: a larger one explores a superset and finds the same.
TEST(IdleCoreLkmm, HistoryBoundDoesNotChangeVerdicts) {
  WeakOptions o;
  o.config = Config::of(Platform::power8, 2);
  o.races = false;
  o.history = 2;
  const CheckerResult small = check_weak<witness::UnlockRelaxed>(o);
  o.history = 5;
  const CheckerResult large = check_weak<witness::UnlockRelaxed>(o);
  EXPECT_EQ(clauses(small), clauses(large));
  o.history = 5;
  const CheckerResult ok = check_weak<IdleLock>(o);
  EXPECT_TRUE(ok.violations.empty()) << clauses(ok);
}

// The registered checks: idle_core_lkmm on both subjects and
// idle_core_races on idle_lock pass; a subject a check does not name is
// unknown, never pass.
TEST(IdleCoreLkmm, RegisteredChecks) {
  const verify::Registry& reg = verify::builtin_registry();
  const verify::Check* lkmm = reg.find(verify::CheckKind::model_check, "idle_core_lkmm");
  ASSERT_NE(lkmm, nullptr);
  EXPECT_EQ(lkmm->clauses, (std::vector<std::string>{"IDLE-1", "IDLE-2", "IDLE-3", "IDLE-4",
                                                     "IDLE-5", "IDLE-6", "IDLE-7", "IDLE-9"}));
  const verify::Check* races = reg.find(verify::CheckKind::model_check, "idle_core_races");
  ASSERT_NE(races, nullptr);
  EXPECT_EQ(races->clauses, (std::vector<std::string>{"IDLE-10"}));
  EXPECT_EQ(races->subjects, (std::vector<std::string>{"idle_lock"}));
  const verify::RunOptions opts = verify::RunOptions::unhurried();
  for (const std::string& subject : lkmm->subjects) {
    const verify::CheckResult r = lkmm->run(subject, opts);
    EXPECT_EQ(r.outcome, verify::Outcome::pass) << subject << ": " << r.detail << r.counterexample;
  }
  const verify::CheckResult r = races->run("idle_lock", opts);
  EXPECT_EQ(r.outcome, verify::Outcome::pass) << r.detail << r.counterexample;
  EXPECT_EQ(races->run("reference", opts).outcome, verify::Outcome::unknown);
}

}  // namespace
}  // namespace idlespec::idle_core::mc
