// The idle_core model checker on the reference: every clause holds on the
// configurations the registered checks run; symmetry reduction agrees with
// the unreduced search; the unreduced count is a plain BFS's; the liveness
// analysis finds fair cycles and only those; the timeline is readable.
#include "modelcheck/idle_core_checker.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <deque>
#include <iostream>
#include <set>
#include <sstream>
#include <string>
#include <unordered_set>
#include <vector>

#include "tests/witnesses/idle_core_witnesses.h"
#include "verify/registry.h"

namespace idlespec::idle_core::mc {
namespace {

Config core(Platform p, unsigned threads, unsigned subcores = 1, bool workaround = true) {
  Config c;
  c.platform = p;
  c.threads = threads;
  c.subcores = subcores;
  c.fastsleep_workaround = workaround;
  return c;
}

template <class Subject = Reference>
CheckerResult run(const Config& c, bool symmetry = true, bool liveness = false, bool por = true) {
  CheckerOptions o;
  o.config = c;
  o.symmetry = symmetry;
  o.liveness = liveness;
  o.por = por;
  return check<Subject>(o);
}

std::set<std::string> clauses(const CheckerResult& r) {
  std::set<std::string> s;
  for (const auto& v : r.violations) s.insert(v.clause);
  return s;
}

std::string violations_text(const CheckerResult& r) {
  std::string s;
  for (const auto& v : r.violations) s += v.trace + "\n";
  return s;
}

const Platform P8 = Platform::power8, P9 = Platform::power9;

TEST(IdleCoreChecker, ReferenceHoldsEveryClauseOnTheRegisteredConfigurations) {
  for (const Config& c :
       {core(P8, 1), core(P8, 2), core(P8, 4), core(P8, 4, 2), core(P8, 4, 1, false),
        core(P8, 2, 2), core(P9, 1), core(P9, 2), core(P9, 4)}) {
    const CheckerResult r = run(c);
    EXPECT_TRUE(r.complete) << c.describe() << " " << r.incomplete_reason << r.error;
    EXPECT_TRUE(r.violations.empty()) << violations_text(r);
    EXPECT_GT(r.states, 10u);
    RecordProperty(c.describe(), std::to_string(r.states));
  }
}

// The lock apart (idle_lock, upstream since v6.5): every clause on the
// same configurations. Its liveness runs are the registered check's
// (RegisteredChecksPassOnBothSubjects), POWER8 SMT2 here.
TEST(IdleCoreChecker, IdleLockHoldsEveryClauseAndLiveness) {
  for (const Config& c :
       {core(P8, 1), core(P8, 2), core(P8, 4), core(P8, 4, 2), core(P8, 4, 1, false),
        core(P8, 2, 2), core(P9, 1), core(P9, 2), core(P9, 4)}) {
    const CheckerResult r = run<IdleLock>(c);
    EXPECT_TRUE(r.complete) << c.describe() << " " << r.incomplete_reason << r.error;
    EXPECT_TRUE(r.violations.empty()) << violations_text(r);
  }
  const CheckerResult r = run<IdleLock>(core(P8, 2), true, true);
  EXPECT_TRUE(r.liveness);
  EXPECT_TRUE(r.violations.empty()) << violations_text(r);
}

// POWER8 SMT4 is the registered check's (RegisteredChecksPassOnBothSubjects).
TEST(IdleCoreChecker, ReferenceHoldsLiveness) {
  for (const Config& c : {core(P8, 2), core(P9, 2), core(P8, 2, 2)}) {
    const CheckerResult r = run(c, true, true);
    EXPECT_FALSE(r.symmetry) << "liveness explores the unreduced graph";
    EXPECT_TRUE(r.complete) << c.describe();
    EXPECT_TRUE(r.liveness) << c.describe();
    EXPECT_TRUE(r.violations.empty()) << violations_text(r);
  }
  // Strong fairness on every move, not only on the threads' steps: weaker
  // claim, must hold too.
  CheckerOptions o;
  o.config = core(P8, 2);
  o.liveness = true;
  o.fair_environment = true;
  const CheckerResult r = check<Reference>(o);
  EXPECT_TRUE(r.liveness);
  EXPECT_TRUE(r.violations.empty()) << violations_text(r);
}

TEST(IdleCoreChecker, SymmetryOnAndOffAgree) {
  const auto agree = [](auto tag, const Config& c) {
    using Subject = decltype(tag);
    // The partial-order reduction off: its chains make a counterexample a
    // few moves longer than the shortest, differently with and without
    // symmetry (PartialOrderReductionAgrees compares it on and off).
    const CheckerResult on = run<Subject>(c, true, false, false);
    const CheckerResult off = run<Subject>(c, false, false, false);
    EXPECT_EQ(clauses(on), clauses(off)) << Subject::name << " " << c.describe();
    EXPECT_LE(on.states, off.states) << c.describe();
    EXPECT_TRUE(on.symmetry || c.threads == 1);
    EXPECT_FALSE(off.symmetry);
    // The shortest counterexample has the same length either way.
    for (const auto& v : on.violations)
      for (const auto& w : off.violations)
        if (v.clause == w.clause) {
          EXPECT_EQ(v.length, w.length) << v.clause << "\n" << v.trace;
        }
    return std::make_pair(on.states, off.states);
  };
  // POWER8 SMT4 whole unreduced is 3.1 M states: release builds only (the
  // sanitizer presets run the smaller cores, as they sample the scans).
  std::vector<Config> cores = {core(P8, 2), core(P8, 4, 2), core(P8, 4, 4), core(P9, 2),
                               core(P9, 4)};
  if (IDLESPEC_EXHAUSTIVE) cores.push_back(core(P8, 4));
  for (const Config& c : cores) {
    const auto [reduced, unreduced] = agree(Reference{}, c);
    if (c.threads == 4 && c.subcores == 1) {
      EXPECT_LT(reduced * 10, unreduced) << c.describe();
    }
  }
  agree(witness::FirstSkipsResync{}, core(P8, 4, 2));
  agree(witness::ClearOutsideLock{}, core(P8, 2));
  agree(witness::NoWinkleDecOnNoLoss{}, core(P8, 2));
  agree(witness::UnlockBeforeResync{}, core(P9, 2));
  agree(witness::EveryThreadResyncs{}, IDLESPEC_EXHAUSTIVE ? core(P8, 4) : core(P8, 2));
}

// The partial-order reduction of the lock holder's critical section
// (idle_core_reduction.h; spec/idle_core.md states why it is sound): on and
// off, every subject breaks the same clauses on every POWER8 configuration
// small enough to explore unreduced, with symmetry on and off; each
// counterexample of the reduced run is a real run (replayed move by move on
// concrete states, it ends in the violation it names) no longer than the
// unreduced one's plus the chain steps it must take at once. The reduction
// stores fewer states on the reference, and is off where it does not apply
// (POWER9, liveness, a subject that clears its bit before the lock).
template <class Subject>
void por_agrees(const Config& c, bool symmetry, uint64_t* on_states = nullptr,
                uint64_t* off_states = nullptr) {
  CheckerOptions o;
  o.config = c;
  o.symmetry = symmetry;
  o.por = true;
  o.max_states = 5'000'000;  // a reduction that blows up shows as incomplete, not as a hang
  const CheckerResult on = check<Subject>(o);
  o.por = false;
  const CheckerResult off = check<Subject>(o);
  const std::string what = std::string(Subject::name) + " " + c.describe() +
                           (symmetry ? " (symmetry)" : " (no symmetry)");
  ::testing::Test::RecordProperty(
      what, std::to_string(on.states) + " / " + std::to_string(off.states) + " states");
  EXPECT_TRUE(on.complete && off.complete) << what;
  EXPECT_EQ(clauses(on), clauses(off)) << what << "\nreduced:\n"
                                       << violations_text(on) << "unreduced:\n"
                                       << violations_text(off);
  EXPECT_LE(on.states, off.states) << what;
  EXPECT_FALSE(off.por);
  for (const auto& v : on.violations) {
    EXPECT_NE(v.trace.find("<- " + v.clause), std::string::npos) << what << "\n" << v.trace;
    EXPECT_TRUE(v.replayed) << what << ": " << v.clause << " not judged again at the end of its "
                            << "replayed path\n"
                            << v.trace;
  }
  if (on_states) *on_states = on.states;
  if (off_states) *off_states = off.states;
}

// ~55 s of CPU: every clause's verdict with and without the partial-order
// reduction over the SMT4 cores, the sizes where the reduction prunes.
TEST(IdleCoreChecker, PartialOrderReductionAgrees) {
  // Symmetry on: up to SMT4, whole and split; off: the cores small enough to
  // explore unreduced in a few seconds.
  for (bool symmetry : {true, false}) {
    for (const Config& c : {core(P8, 1), core(P8, 2), core(P8, 4), core(P8, 4, 2), core(P8, 4, 4),
                            core(P8, 2, 2), core(P8, 2, 1, false), core(P8, 4, 1, false)}) {
      if (!symmetry && c.threads == 4 && (c.subcores != 1 || !c.fastsleep_workaround)) continue;
      uint64_t on = 0, off = 0;
      por_agrees<Reference>(c, symmetry, &on, &off);
      if (c.threads == 4) {
        EXPECT_LT(on * 2, off) << c.describe() << ": the reduction stores at most half the states";
      }
      por_agrees<witness::EveryThreadResyncs>(c, symmetry);
      por_agrees<witness::FirstSkipsResync>(c, symmetry);
      por_agrees<witness::NoWinkleDecOnNoLoss>(c, symmetry);
      por_agrees<witness::UnlockBeforeResync>(c, symmetry);
      por_agrees<IdleLock>(c, symmetry);
      por_agrees<witness::LockApartKept>(c, symmetry);
      // Its bit cleared before the lock: the reduction is off (and its SMT4
      // graph is beyond a unit test).
      if (c.threads <= 2) por_agrees<witness::ClearOutsideLock>(c, symmetry);
    }
  }
  // Where it does not apply it is off.
  CheckerOptions o;
  o.config = core(P9, 2);
  EXPECT_FALSE(check<Reference>(o).por);
  o.config = core(P8, 2);
  o.liveness = true;
  EXPECT_FALSE(check<Reference>(o).por);
  o.liveness = false;
  EXPECT_FALSE(check<witness::ClearOutsideLock>(o).por);
  EXPECT_TRUE(check<Reference>(o).por);
}

// The cross-check's witness: a reduction that ignores who holds the lock
// (it runs any thread past its test-and-set alone) loses the interleaving
// the lock released before the resync needs, and the comparison sees it.
TEST(IdleCoreChecker, UnsoundReductionIsCaught) {
  CheckerOptions o;
  o.config = core(P8, 2);
  o.por = false;
  const CheckerResult off = check<witness::UnlockBeforeResync>(o);
  o.por = true;
  o.por_unsound_for_test = true;
  const CheckerResult broken = check<witness::UnlockBeforeResync>(o);
  EXPECT_EQ(clauses(off), (std::set<std::string>{"IDLE-3", "IDLE-9"}));
  EXPECT_NE(clauses(broken), clauses(off)) << violations_text(broken);
  o.por_unsound_for_test = false;
  EXPECT_EQ(clauses(check<witness::UnlockBeforeResync>(o)), clauses(off));
}

// A plain BFS over impl/idle_core_model.h: every field of CoreState in the
// key, no reduction.
std::string plain_key(const CoreState& s) {
  std::ostringstream k;
  k << s.word << ':';
  for (const ThreadState& th : s.th) {
    k << int(th.pc) << ',' << int(th.kind) << ',' << int(th.lost) << ',' << th.sprs_saved
      << th.full_winkle << th.first << th.sibling_awake << ',' << th.seen << ';';
  }
  const Ghost& g = s.ghost;
  k << g.tb_valid << g.wa_applied << g.core_regs_valid << ',' << int(g.subcore_regs_valid) << ','
    << int(g.thread_regs_valid);
  return k.str();
}

size_t plain_bfs(const Config& c) {
  std::unordered_set<std::string> seen;
  std::deque<CoreState> queue{initial_state(c)};
  seen.insert(plain_key(queue.front()));
  std::vector<Move> moves;
  while (!queue.empty()) {
    const CoreState s = queue.front();
    queue.pop_front();
    enabled_moves(c, s, moves);
    for (const Move& m : moves) {
      CoreState n = s;
      apply(c, n, m);
      if (seen.insert(plain_key(n)).second) queue.push_back(n);
    }
  }
  return seen.size();
}

// ~130 s of CPU, the suite's longest gtest (2026-12-07): the POWER9 SMT4
// core unreduced is 3.1 M states, explored twice (the checker and the
// string-keyed BFS). It needs that size: the count is the reduction's
// baseline, and a smaller core would not exercise the symmetric threads
// the reductions fold. The asan preset leaves it to release.
TEST(IdleCoreChecker, UnreducedCountIsAPlainBfs) {
  for (const Config& c : {core(P8, 1), core(P8, 2), core(P8, 2, 2), core(P8, 4, 2), core(P9, 1),
                          core(P9, 2), core(P9, 4), core(P8, 2, 1, false)}) {
    const CheckerResult r = run(c, false, false, false);  // no symmetry, no partial-order reduction
    ASSERT_TRUE(r.complete);
    EXPECT_EQ(r.states, plain_bfs(c)) << c.describe();
  }
}

TEST(IdleCoreChecker, ReducedCountsAreStable) {
  // Figures for the record (and for the SPIN model's unreduced count):
  // POWER8 SMT4 unreduced, with symmetry, with the partial-order reduction,
  // with both.
  // The unreduced one (3.1 M states) in release builds only.
  if (IDLESPEC_EXHAUSTIVE) {
    EXPECT_EQ(run(core(P8, 4), false, false, false).states, 3148464u);
  }
  EXPECT_EQ(run(core(P8, 4), true, false, false).states, 149116u);
  EXPECT_EQ(run(core(P8, 4), false, false, true).states, 549692u);
  EXPECT_EQ(run(core(P8, 4), true, false, true).states, 28263u);
}

TEST(IdleCoreChecker, TimelineIsReadable) {
  const CheckerResult r = run<witness::FirstSkipsResync>(core(P8, 2));
  ASSERT_TRUE(r.violated("IDLE-3")) << violations_text(r);
  const Violation* v = nullptr;
  for (const auto& x : r.violations)
    if (x.clause == "IDLE-3") v = &x;
  ASSERT_NE(v, nullptr);
  const std::string& t = v->trace;
  EXPECT_NE(t.find("IDLE-3 violated (power8 SMT2, subject witness-first-skips-resync)"),
            std::string::npos)
      << t;
  EXPECT_NE(t.find("returned to running with the timebase invalid"), std::string::npos);
  EXPECT_NE(t.find("| t0"), std::string::npos) << t;
  EXPECT_NE(t.find("| t1"), std::string::npos) << t;
  EXPECT_NE(t.find("CORE LOSES STATE"), std::string::npos) << t;
  EXPECT_NE(t.find("TIMEBASE LOST"), std::string::npos) << t;
  EXPECT_NE(t.find("=> running"), std::string::npos) << t;
  EXPECT_NE(t.find("<- IDLE-3"), std::string::npos) << t;
  EXPECT_NE(t.find("state at the end:"), std::string::npos) << t;
  // One row per move, every row with a column per thread plus the word.
  std::istringstream in(t);
  std::string line;
  unsigned rows = 0;
  while (std::getline(in, line)) {
    const size_t first = line.find_first_not_of(' ');
    const size_t bar = line.find(" | ");
    if (first != std::string::npos && bar != std::string::npos && first < bar &&
        line.find_first_not_of("0123456789", first) == bar) {
      ++rows;
      EXPECT_GE(std::count(line.begin(), line.end(), '|'), 2) << line;
    }
  }
  EXPECT_EQ(rows, v->length) << t;
  // The shortest: both threads enter sleep (2 begins + lock, load, store,
  // [apply_wa], unlock, idle_insn each), the loss, one wake and its path.
  EXPECT_LE(v->length, 24u) << t;
}

// The fair-cycle analysis on hand-made graphs. Labels: pack_move of a step of
// t0 / t1; 0x80 = the step spun.
TEST(IdleCoreChecker, LivenessAnalysisFindsFairCyclesOnly) {
  Config c = core(P8, 2);
  const uint8_t t0 = pack_move(c, Move{MoveKind::step, 0, Kind::none});
  const uint8_t t1 = pack_move(c, Move{MoveKind::step, 1, Kind::none});
  const auto build = [](std::vector<std::vector<std::pair<uint8_t, uint32_t>>> adj,
                        std::vector<uint8_t> waking) {
    Graph g;
    g.offsets = {0};
    for (const auto& out : adj) {
      for (const auto& [lab, to] : out) {
        g.labels.push_back(lab);
        g.targets.push_back(to);
      }
      g.offsets.push_back(g.targets.size());
    }
    g.waking = std::move(waking);
    return g;
  };
  Lasso l;
  // 0 -> 1; at 1 t0 spins (lock held by t1) or t1 releases (-> 2); at 2 t0
  // could take the lock (-> 3: returns) but t1 re-takes it (-> 1). Strong
  // fairness: t0's successful step is enabled infinitely often at 2, so the
  // cycle 1 <-> 2 is not fair.
  Graph g =
      build({{{t1, 1}}, {{uint8_t(t0 | 0x80), 1}, {t1, 2}}, {{t0, 3}, {t1, 1}}, {{t0, 0}, {t1, 3}}},
            {0, 1, 1, 0});
  EXPECT_FALSE(analyse_liveness(c, g, false, l, nullptr));
  // The same, but t0 never finds the lock free: it spins forever while t1
  // goes round: fair, a violation for t0.
  Graph h =
      build({{{t1, 1}}, {{uint8_t(t0 | 0x80), 1}, {t1, 2}}, {{uint8_t(t0 | 0x80), 2}, {t1, 1}}},
            {0, 1, 1});
  ASSERT_TRUE(analyse_liveness(c, h, false, l, nullptr));
  EXPECT_EQ(l.thread, 0u);
  EXPECT_EQ(l.entry, 1u);
  EXPECT_EQ(l.scc_size, 2u);
  ASSERT_FALSE(l.cycle.empty());
  EXPECT_EQ(l.cycle.back().second, 1u);  // back where it started
}

TEST(IdleCoreChecker, CliFiguresSmt8IsBoundedWhenAsked) {
  CheckerOptions o;
  o.config = core(P8, 8, 2);
  o.max_depth = 12;
  o.random_walks = 200;
  o.walk_length = 300;
  const CheckerResult r = check<Reference>(o);
  EXPECT_FALSE(r.complete);
  EXPECT_EQ(r.incomplete_reason, "max depth");
  EXPECT_EQ(r.depth, 12u);
  EXPECT_GT(r.walk_depth, 12u);
  EXPECT_TRUE(r.violations.empty()) << violations_text(r);
}

TEST(IdleCoreChecker, RegisteredChecksPassOnBothSubjects) {
  const verify::Registry& reg = verify::builtin_registry();
  const struct {
    const char* name;
    std::vector<std::string> clauses;
  } expected[] = {
      {"idle_core_power8", {"IDLE-1", "IDLE-2", "IDLE-3", "IDLE-4", "IDLE-5", "IDLE-6", "IDLE-9"}},
      {"idle_core_power9", {"IDLE-7"}},
      {"idle_core_liveness", {"IDLE-8"}},
  };
  for (const auto& e : expected) {
    const verify::Check* c = reg.find(verify::CheckKind::model_check, e.name);
    ASSERT_NE(c, nullptr) << e.name;
    EXPECT_EQ(c->component, "idle_core");
    EXPECT_EQ(c->clauses, e.clauses);
    EXPECT_EQ(c->subjects, (std::vector<std::string>{"reference", "idle_lock"}));
    // The liveness check's POWER8 SMT4 is 3.1 M unreduced states per
    // subject: run in release builds; the sanitizer presets check its
    // wiring above and the smaller cores in ReferenceHoldsLiveness.
    if (!IDLESPEC_EXHAUSTIVE && e.name == std::string("idle_core_liveness")) continue;
    verify::RunOptions opts = verify::RunOptions::unhurried();
    for (const std::string& subject : c->subjects) {
      const verify::CheckResult r = c->run(subject, opts);
      EXPECT_EQ(r.outcome, verify::Outcome::pass)
          << e.name << " on " << subject << ": " << r.detail << r.counterexample;
    }
  }
  // Cut by the budget: unknown, not pass.
  verify::RunOptions tiny;
  tiny.budget_seconds = 1e-6;
  const verify::CheckResult r =
      reg.find(verify::CheckKind::model_check, "idle_core_power8")->run("reference", tiny);
  EXPECT_EQ(r.outcome, verify::Outcome::unknown) << r.detail;
}

}  // namespace
}  // namespace idlespec::idle_core::mc
