// Every witness of tests/witnesses/idle_core_witnesses.h run through the
// idle_core model checker (modelcheck/idle_core_checker.h): each is caught
// with the clause spec/idle_core.md names for it, and the counterexample
// names the clause and shows the interleaving.
#include <gtest/gtest.h>

#include <iostream>
#include <string>

#include "modelcheck/idle_core_checker.h"
#include "tests/witnesses/idle_core_witnesses.h"

namespace idlespec::idle_core::mc {
namespace {

Config core(Platform p, unsigned threads, unsigned subcores = 1) {
  Config c;
  c.platform = p;
  c.threads = threads;
  c.subcores = subcores;
  return c;
}

const Violation* find(const CheckerResult& r, const std::string& clause) {
  for (const auto& v : r.violations)
    if (v.clause == clause) return &v;
  return nullptr;
}

std::string all(const CheckerResult& r) {
  std::string s = r.config + ": " + std::to_string(r.states) + " states; clauses:";
  for (const auto& v : r.violations) s += " " + v.clause;
  s += "\n";
  for (const auto& v : r.violations) s += v.trace + "\n";
  return s;
}

// Runs Subject and expects `clause` among the violations; returns its trace.
template <class Subject>
std::string caught(const Config& c, const std::string& clause, bool symmetry = true) {
  CheckerOptions o;
  o.config = c;
  o.symmetry = symmetry;
  const CheckerResult r = check<Subject>(o);
  const Violation* v = find(r, clause);
  EXPECT_NE(v, nullptr) << Subject::name << " on " << c.describe() << " not caught as " << clause
                        << "\n"
                        << all(r);
  if (!v) return "";
  EXPECT_NE(v->trace.find(clause + " violated (" + c.describe() + ", subject " +
                          std::string(Subject::name) + ")"),
            std::string::npos)
      << v->trace;
  EXPECT_NE(v->trace.find("<- " + clause), std::string::npos) << v->trace;
  EXPECT_NE(v->trace.find("| t1"), std::string::npos) << v->trace;
  ::testing::Test::RecordProperty(
      std::string(Subject::name),
      clause + " in " + std::to_string(v->length) + " moves; also:" + [&] {
        std::string s;
        for (const auto& x : r.violations) s += " " + x.clause;
        return s;
      }());
  return v->trace;
}

const Platform P8 = Platform::power8, P9 = Platform::power9;

TEST(ModelCheckIdleCoreWitness, EveryThreadResyncsBreaksIdle9) {
  const std::string t = caught<witness::EveryThreadResyncs>(core(P8, 2), "IDLE-9");
  EXPECT_NE(t.find("resync_tb"), std::string::npos) << t;
  EXPECT_NE(t.find("not the first awake"), std::string::npos) << t;
  EXPECT_NE(t.find("CORE LOSES STATE"), std::string::npos) << t;
  caught<witness::EveryThreadResyncs>(core(P9, 2), "IDLE-9");
}

TEST(ModelCheckIdleCoreWitness, FirstSkipsResyncBreaksIdle3) {
  const std::string t = caught<witness::FirstSkipsResync>(core(P8, 2), "IDLE-3");
  EXPECT_NE(t.find("TIMEBASE LOST"), std::string::npos) << t;
  EXPECT_NE(t.find("returned to running with the timebase invalid"), std::string::npos) << t;
  EXPECT_EQ(t.find("timebase resynced"), std::string::npos) << t;
  // POWER9: the same duty, judged as IDLE-7.
  caught<witness::FirstSkipsResync>(core(P9, 2), "IDLE-7");
}

TEST(ModelCheckIdleCoreWitness, ClearOutsideLockBreaksIdle2) {
  const std::string t = caught<witness::ClearOutsideLock>(core(P8, 2), "IDLE-2");
  EXPECT_NE(t.find("the lock is free and the thread bits are"), std::string::npos) << t;
  EXPECT_NE(t.find("entry_load"), std::string::npos) << t;
  EXPECT_NE(t.find("entry_store"), std::string::npos) << t;
  // Without symmetry reduction too (the stale `seen` makes the
  // representative approximate: it must still find it).
  caught<witness::ClearOutsideLock>(core(P8, 2), "IDLE-2", false);
}

// The lock apart (idle_lock) never released: IDLE-1 on both platforms (on
// POWER9 charged to IDLE-7 too), found through the reduction's new release
// point; the subject that releases it holds.
TEST(ModelCheckIdleCoreWitness, LockApartKeptBreaksIdle1) {
  const std::string t = caught<witness::LockApartKept>(core(P8, 2), "IDLE-1");
  EXPECT_NE(t.find("unlock_lock"), std::string::npos) << t;
  EXPECT_NE(t.find("the lock bit is set and no thread holds the lock"), std::string::npos) << t;
  caught<witness::LockApartKept>(core(P9, 2), "IDLE-7");
  for (const Config& c : {core(P8, 2), core(P9, 2)}) {
    CheckerOptions o;
    o.config = c;
    EXPECT_TRUE(check<IdleLock>(o).violations.empty()) << c.describe();
  }
}

TEST(ModelCheckIdleCoreWitness, ClearOutsideLockAlsoStarvesAWokenThread) {
  // The stale store can bring back the lock bit with no holder (IDLE-1):
  // every thread that wakes then spins on it forever, which the liveness
  // analysis reports as IDLE-8.
  CheckerOptions o;
  o.config = core(P8, 2);
  o.liveness = true;
  const CheckerResult r = check<witness::ClearOutsideLock>(o);
  ASSERT_TRUE(r.liveness) << r.incomplete_reason << r.error;
  const Violation* v = find(r, "IDLE-8");
  ASSERT_NE(v, nullptr) << all(r);
  EXPECT_NE(v->trace.find("never returns to running"), std::string::npos) << v->trace;
  EXPECT_NE(v->trace.find("cycle starts"), std::string::npos) << v->trace;
  EXPECT_NE(v->trace.find("(spin)"), std::string::npos) << v->trace;
  EXPECT_NE(find(r, "IDLE-1"), nullptr) << all(r);
}

TEST(ModelCheckIdleCoreWitness, NoWinkleDecOnNoLossBreaksIdle5) {
  const std::string t = caught<witness::NoWinkleDecOnNoLoss>(core(P8, 2), "IDLE-5");
  EXPECT_NE(t.find("begin winkle"), std::string::npos) << t;
  EXPECT_NE(t.find("winkle_count-1"), std::string::npos) << t;
  EXPECT_NE(t.find("the winkle count is 1 but 0 thread(s)"), std::string::npos) << t;
}

TEST(ModelCheckIdleCoreWitness, UnlockBeforeResyncBreaksIdle3) {
  const std::string t = caught<witness::UnlockBeforeResync>(core(P8, 2), "IDLE-3");
  EXPECT_NE(t.find("unlock_cmpxchg"), std::string::npos) << t;
  EXPECT_NE(t.find("returned to running with the timebase invalid"), std::string::npos) << t;
  caught<witness::UnlockBeforeResync>(core(P9, 2), "IDLE-7");
}

TEST(ModelCheckIdleCoreWitness, CoreMaskFor4BreaksIdle9OnSmt8) {
  // Threads 4..7 are invisible to the first/last decisions: once one of them
  // has done the first thread's duties, a thread of 0..3 waking from the same
  // loss believes it is first and resyncs again while the other runs.
  CheckerOptions o;
  o.config = core(P8, 8);
  o.stop_at_first = true;
  const CheckerResult r = check<witness::CoreMaskFor4>(o);
  const Violation* v = find(r, "IDLE-9");
  ASSERT_NE(v, nullptr) << all(r);
  EXPECT_NE(v->trace.find("not the first awake"), std::string::npos) << v->trace;
  EXPECT_NE(v->trace.find("| t7"), std::string::npos) << v->trace;
  std::cout << v->trace;  // for the record: the first clause BFS meets
  ::testing::Test::RecordProperty("CoreMaskFor4", std::to_string(r.states) + " states, " +
                                                      std::to_string(v->length) + " moves");
  // On SMT4 the mask is the core's: the reference.
  o.config = core(P8, 4);
  o.stop_at_first = false;
  EXPECT_TRUE(check<witness::CoreMaskFor4>(o).violations.empty());
}

}  // namespace
}  // namespace idlespec::idle_core::mc
