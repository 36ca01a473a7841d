// SPIN against impl/idle_core_model.h: spec/idle_core.pml must have exactly
// the reachable states of the C++ transition system (every reduction off on
// both sides: spin -o3, pan -DNOREDUCE; a plain BFS without symmetry here),
// the same transitions (but for the C++'s failing test-and-set self-loops,
// which the model waits out instead), and no assertion violation; and each of
// its clause assertions must fire on a model with one bug injected.
//
// pan is generated and built under the build tree (next to this binary, in
// spin-work/), never in the source tree. Skipped only when spin or a C
// compiler is missing (scripts/setup.sh installs spin).
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <vector>

#include "impl/idle_core.h"
#include "modelcheck/spin_driver.h"
#include "tests/skip.h"
#include "verify/build_paths.h"
#include "verify/registry.h"

namespace idlespec::spin {
namespace {

namespace fs = std::filesystem;

std::string work_dir() {
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  const fs::path build = ec ? fs::current_path() : exe.parent_path();
  return (build / "spin-work").string();
}

std::string model() {
  std::string pml;
  EXPECT_TRUE(read_text(std::string(idlespec::build::source_dir()) + "/spec/idle_core.pml", pml));
  return pml;
}

// The model with the statement on the line marked /* MARK name */ replaced
// by skip.
std::string without(const std::string& pml, const std::string& mark) {
  const std::string tag = "/* MARK " + mark + " */";
  const size_t at = pml.find(tag);
  if (at == std::string::npos) {
    ADD_FAILURE() << "spec/idle_core.pml has no line marked " << tag;
    return pml;
  }
  const size_t begin = pml.rfind('\n', at) + 1;
  return pml.substr(0, begin) + "     skip;  " + pml.substr(at);
}

Options exhaustive() {
  Options o;
  o.work_dir = work_dir();
  o.timeout_seconds = 600;
  return o;
}

#define SKIP_WITHOUT_SPIN()                                           \
  do {                                                                \
    if (const std::string why = unavailable_reason(); !why.empty()) { \
      IDLESPEC_SKIP(why);                                             \
    }                                                                 \
  } while (0)

idle_core::Config config(Platform p, unsigned threads, unsigned subcores = 1, bool wa = true) {
  idle_core::Config c;
  c.platform = p;
  c.threads = threads;
  c.subcores = subcores;
  c.fastsleep_workaround = wa;
  return c;
}

std::string trail_text(const Result& r) {
  std::string s;
  for (const std::string& m : r.trail) s += "  " + m + "\n";
  return s;
}

void expect_same_state_space(const std::string& pml, const idle_core::Config& c) {
  const Reachable bfs = explore_reference(c);
  ASSERT_TRUE(bfs.bug.empty()) << c.describe() << ": " << bfs.bug;
  const Result r = run(pml, ModelConfig::from(c), exhaustive());
  ASSERT_EQ(r.status, Status::ok) << c.describe() << ": " << status_name(r.status) << ": "
                                  << r.message << "\n"
                                  << trail_text(r) << r.pan_output;
  EXPECT_EQ(r.errors, 0u);
  EXPECT_EQ(r.states_stored, bfs.states) << c.describe() << ": SPIN vs BFS of idle_core_model.h";
  EXPECT_EQ(r.transitions, bfs.transitions + 1) << c.describe();
  testing::Test::RecordProperty(c.describe(), std::to_string(r.states_stored));
  std::printf("%-34s SPIN %9llu states %10llu transitions | BFS %9llu states %10llu transitions\n",
              c.describe().c_str(), static_cast<unsigned long long>(r.states_stored),
              static_cast<unsigned long long>(r.transitions - 1),
              static_cast<unsigned long long>(bfs.states),
              static_cast<unsigned long long>(bfs.transitions));
}

TEST(IdleCoreSpin, StateSpaceEqualsTheBfsPower8Smt2) {
  SKIP_WITHOUT_SPIN();
  expect_same_state_space(model(), config(Platform::power8, 2));
}

TEST(IdleCoreSpin, StateSpaceEqualsTheBfsPower9Smt2) {
  SKIP_WITHOUT_SPIN();
  expect_same_state_space(model(), config(Platform::power9, 2));
}

TEST(IdleCoreSpin, StateSpaceEqualsTheBfsOtherSmallCores) {
  SKIP_WITHOUT_SPIN();
  const std::string pml = model();
  for (const idle_core::Config& c :
       {config(Platform::power8, 1), config(Platform::power9, 1), config(Platform::power8, 2, 2),
        config(Platform::power8, 2, 1, false)}) {
    expect_same_state_space(pml, c);
  }
}

// Release builds only (IDLESPEC_EXHAUSTIVE): a sanitizer build does not
// register it, rather than report it skipped.
#if IDLESPEC_EXHAUSTIVE
// ~15 s and ~1 GB together.
TEST(IdleCoreSpin, StateSpaceEqualsTheBfsSmt4) {
  SKIP_WITHOUT_SPIN();
  // The BFS side is 3.1 M states: release builds only.
  const std::string pml = model();
  expect_same_state_space(pml, config(Platform::power9, 4));
  expect_same_state_space(pml, config(Platform::power8, 4));
}
#endif

// A witness: the model with one bug. SPIN must report the clause, with a
// trail that ends in the violation.
void expect_violation(const std::string& pml, ModelConfig m, const std::string& clause) {
  const Result r = run(pml, m, exhaustive());
  ASSERT_EQ(r.status, Status::violation)
      << m.describe() << ": " << status_name(r.status) << ": " << r.message;
  EXPECT_NE(std::find(r.clauses.begin(), r.clauses.end(), clause), r.clauses.end())
      << m.describe() << ": " << r.message << "\n"
      << trail_text(r);
  ASSERT_GE(r.trail.size(), 2u);
  EXPECT_NE(r.trail.back().find(clause), std::string::npos) << trail_text(r);
  std::printf("%s -> %s\n%s", m.describe().c_str(), r.message.c_str(), trail_text(r).c_str());
}

TEST(IdleCoreSpin, WitnessSkippedResyncBreaksIdle3) {
  SKIP_WITHOUT_SPIN();
  ModelConfig m;
  m.defines = {"WITNESS_SKIP_RESYNC"};
  const Result r = run(model(), m, exhaustive());
  ASSERT_EQ(r.status, Status::violation) << r.message;
  EXPECT_EQ(r.clauses, std::vector<std::string>{"IDLE-3"});
  EXPECT_NE(r.assertion.find("tb_valid"), std::string::npos) << r.assertion;
  // The shortest trail: both threads sleep, the core loses the timebase,
  // the first one back takes the lock and leaves without resyncing.
  EXPECT_NE(std::find(r.trail.begin(), r.trail.end(), "core loses state (partial)"), r.trail.end())
      << trail_text(r);
  EXPECT_LE(r.trail.size(), 25u) << trail_text(r);
  std::printf("%s\n%s", r.message.c_str(), trail_text(r).c_str());
}

TEST(IdleCoreSpin, WitnessUnlockBeforeResyncBreaksIdle3) {
  SKIP_WITHOUT_SPIN();
  ModelConfig m;
  m.defines = {"WITNESS_UNLOCK_BEFORE_RESYNC"};
  expect_violation(model(), m, "IDLE-3");
}

TEST(IdleCoreSpin, WitnessEntryKeepingTheLockBreaksIdle1) {
  SKIP_WITHOUT_SPIN();
  expect_violation(without(model(), "entry_unlock"), ModelConfig{}, "IDLE-1");
}

TEST(IdleCoreSpin, WitnessPower9EntryKeepingItsBitBreaksIdle2) {
  SKIP_WITHOUT_SPIN();
  ModelConfig m;
  m.power9 = true;
  expect_violation(without(model(), "p9_clear_bit"), m, "IDLE-2");
}

TEST(IdleCoreSpin, WitnessNoWorkaroundBreaksIdle4) {
  SKIP_WITHOUT_SPIN();
  expect_violation(without(model(), "apply_wa"), ModelConfig{}, "IDLE-4");
}

TEST(IdleCoreSpin, WitnessWithoutWorkaroundIsNoViolation) {
  // The same edit with the workaround off changes nothing: the assertion is
  // about the workaround, not about the line.
  SKIP_WITHOUT_SPIN();
  ModelConfig m;
  m.workaround = false;
  const Result r = run(without(model(), "apply_wa"), m, exhaustive());
  EXPECT_EQ(r.status, Status::ok) << r.message << "\n" << trail_text(r);
}

TEST(IdleCoreSpin, RegisteredCheckPasses) {
  SKIP_WITHOUT_SPIN();
  const verify::Check* check =
      verify::builtin_registry().find(verify::CheckKind::model_check, "idle_core_spin");
  ASSERT_NE(check, nullptr);
  EXPECT_EQ(check->component, "idle_core");
  EXPECT_EQ(check->clauses, (std::vector<std::string>{"IDLE-1", "IDLE-2", "IDLE-3", "IDLE-4"}));
  verify::RunOptions opts = verify::RunOptions::unhurried();
  opts.source_dir = idlespec::build::source_dir();
  const verify::CheckResult r = check->run("reference", opts);
  EXPECT_EQ(r.outcome, verify::Outcome::pass) << r.detail << "\n" << r.counterexample;
  EXPECT_NE(r.detail.find("SMT4"), std::string::npos) << r.detail;
  EXPECT_EQ(r.detail.find("not run"), std::string::npos) << r.detail;
  std::printf("%s\n", r.detail.c_str());
  // A budget too small for SMT4: SMT2 alone, and the detail says so.
  opts.budget_seconds = 15;
  const verify::CheckResult small = check->run("reference", opts);
  EXPECT_EQ(small.outcome, verify::Outcome::pass) << small.detail;
  EXPECT_NE(small.detail.find("SMT4 not run"), std::string::npos) << small.detail;
}

// The registered check on a broken model (a source tree whose
// spec/idle_core.pml resyncs without effect): fail, IDLE-3, the trail.
TEST(IdleCoreSpin, RegisteredCheckFailsWithTheTrailOnABrokenModel) {
  SKIP_WITHOUT_SPIN();
  const verify::Check* check =
      verify::builtin_registry().find(verify::CheckKind::model_check, "idle_core_spin");
  ASSERT_NE(check, nullptr);
  const fs::path src = fs::path(work_dir()) / "broken-source";
  fs::create_directories(src / "spec");
  {
    std::ofstream f(src / "spec" / "idle_core.pml");
    f << without(model(), "resync_tb");
  }
  verify::RunOptions opts = verify::RunOptions::unhurried();
  opts.source_dir = src.string();
  const verify::CheckResult r = check->run("reference", opts);
  fs::remove_all(src);
  EXPECT_EQ(r.outcome, verify::Outcome::fail) << r.detail;
  EXPECT_EQ(r.violated, (std::set<std::string>{"IDLE-3"})) << r.detail;
  EXPECT_NE(r.counterexample.find("core loses state (partial); t"), std::string::npos)
      << r.counterexample;
  EXPECT_NE(r.counterexample.find("step (resync_tb)"), std::string::npos) << r.counterexample;
  EXPECT_NE(r.replay.find("idle_core_spin"), std::string::npos);
  std::printf("%s\n%s\n", r.detail.c_str(), r.counterexample.c_str());
}

}  // namespace
}  // namespace idlespec::spin
