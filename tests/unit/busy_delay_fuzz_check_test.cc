// The busy_delay_fuzz checker (fuzz/busy_delay_check.h) on its own: the
// input layout, the subjects on every stored corpus input, each witness of
// tests/witnesses/busy_delay_witnesses.h on a hand-made input, and the
// registered `fuzz-replay busy_delay_fuzz` check per subject.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>
#include <string>
#include <vector>

#include "fuzz/busy_delay_input.h"
#include "tests/witnesses/busy_delay_witnesses.h"
#include "verify/build_paths.h"
#include "verify/layers.h"

namespace idlespec::busy_delay_fuzz {
namespace {

namespace fs = std::filesystem;
namespace w = busy_delay::witness;

constexpr uint32_t kBusy = 0xfffffffeu;
// Not `Run`: inside a TEST body that names testing::Test::Run.
using StatusRun = Run;

std::set<std::string> clauses(const Violations& v) {
  std::set<std::string> out;
  for (const Violation& x : v) out.insert(x.clause);
  return out;
}

std::string report(const Violations& v) {
  std::string s;
  for (const Violation& x : v) s += x.clause + ": " + x.message + "\n";
  return s;
}

Input input(const Config& c, const std::vector<StatusRun>& runs) {
  return parse_input(encode(c, runs));
}

std::vector<std::pair<std::string, std::vector<uint8_t>>> corpus() {
  std::vector<std::pair<std::string, std::vector<uint8_t>>> out;
  const fs::path dir = fs::path(idlespec::build::source_dir()) / "fuzz/corpus/busy_delay_fuzz";
  for (const auto& entry : fs::directory_iterator(dir)) {
    std::ifstream f(entry.path(), std::ios::binary);
    out.emplace_back(
        entry.path().filename().string(),
        std::vector<uint8_t>{std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()});
  }
  std::sort(out.begin(), out.end());
  return out;
}

TEST(BusyDelayFuzzLayout, ConfigByteAndTokens) {
  const std::vector<uint8_t> bytes = {
      0x7e,                          // early, need_resched, start count 1000 (7), little-endian
      0x00, 0xac, 0x26, 0x00, 0x00,  // literal 9900, little-endian
      0x05,                          // repeat 2
      0x06,                          // repeat 2 x 64
      0x07,                          // named -2
      0x00, 0x01, 0x02};             // incomplete literal: dropped
  const Input in = parse_input(bytes);
  EXPECT_EQ(in.config, (Config{Form::early, true, 1000, true}));
  std::vector<uint32_t> want(1 + 2 + 128, 9900);
  want.push_back(kBusy);
  EXPECT_EQ(in.statuses, want);
  EXPECT_EQ(parse_input({}).config, Config{});
  EXPECT_TRUE(parse_input({}).statuses.empty());
  // A repeat before any status repeats nothing.
  EXPECT_TRUE(parse_input(std::vector<uint8_t>{0x00, 0x01, 0xfe}).statuses.empty());
}

TEST(BusyDelayFuzzLayout, EncodeParsesBack) {
  const Config c{Form::legacy, true, 999, false};
  const std::vector<StatusRun> runs = {{9900, 1001}, {kBusy, 1}, {12345, 70}, {0, 1}, {9906, 0}};
  const Input in = input(c, runs);
  EXPECT_EQ(in.config, c);
  ASSERT_EQ(in.statuses.size(), 1001u + 1 + 70 + 1);
  EXPECT_EQ(in.statuses[1000], 9900u);
  EXPECT_EQ(in.statuses[1001], kBusy);
  EXPECT_EQ(in.statuses[1002], 12345u);
  EXPECT_EQ(in.statuses.back(), 0u);
  EXPECT_EQ(describe_statuses(in.statuses), "9900 x1001, -2, 12345 x70, 0");
  EXPECT_THROW(encode(Config{Form::early, false, 3, false}, {}), std::invalid_argument);
}

TEST(BusyDelayFuzzLayout, StatusesPastTheCapAreDropped) {
  const Input in = input(Config{}, {{9900, kMaxStatuses + 10}});
  EXPECT_EQ(in.statuses.size(), kMaxStatuses);
  EXPECT_EQ(in.dropped, 10u);
}

TEST(BusyDelayFuzzCorpus, ReferenceAndEarlyHoldOnEveryInput) {
  const auto files = corpus();
  ASSERT_GE(files.size(), 30u);
  for (const auto& [name, bytes] : files) {
    const Input in = parse_input(bytes);
    for (const char* subject : {"reference", "early"}) {
      for (const Policy& p : policies_for_subject(subject)) {
        const Violations v = check(p, in);
        EXPECT_TRUE(v.empty()) << name << " " << p.name << ":\n" << report(v);
      }
    }
  }
}

TEST(BusyDelayFuzzCorpus, LegacyBreaksBusy3AndBusy6ButNotBusy1) {
  std::set<std::string> found;
  for (const auto& [name, bytes] : corpus()) {
    const Violations v = check(policy_for(Form::legacy), parse_input(bytes));
    for (const auto& c : clauses(v)) found.insert(c);
  }
  EXPECT_EQ(found, (std::set<std::string>{"BUSY-3", "BUSY-6"}));
}

TEST(BusyDelayFuzzSubjects, LegacyOnItsKnownViolations) {
  const Policy legacy = policy_for(Form::legacy);
  // An extended delay on an idle CPU: no sleep at all.
  const Violations idle = check(legacy, input(Config{}, {{9900, 1}, {0, 1}}));
  EXPECT_EQ(clauses(idle), std::set<std::string>{"BUSY-3"}) << report(idle);
  // 9905 with a pending reschedule: msleep(100000).
  const Violations busy_cpu =
      check(legacy, input(Config{Form::legacy, true, 0, false}, {{9905, 1}, {0, 1}}));
  EXPECT_EQ(clauses(busy_cpu), (std::set<std::string>{"BUSY-3", "BUSY-6"})) << report(busy_cpu);
  EXPECT_NE(busy_cpu[0].message.find("msleep(100000 ms)"), std::string::npos)
      << busy_cpu[0].message;
}

TEST(BusyDelayFuzzSubjects, EarlyGivesUpOnThe1001stAndStartsAfresh) {
  const Policy early = policy_for(Form::early);
  EXPECT_TRUE(
      check(early, input(Config{}, {{9900, 1001}, {9900, 1001}, {kBusy, 1}, {0, 1}})).empty());
  EXPECT_TRUE(check(early, input(Config{Form::early, false, 1000, false}, {{9900, 3}})).empty());
}

// Each witness of busy_delay_witnesses.h, caught on a hand-made input with
// the clause its comment names.
struct WitnessCase {
  const char* name;
  Policy policy;
  Config config;
  std::vector<StatusRun> runs;
  std::string clause;
};

TEST(BusyDelayFuzzWitnesses, EachIsCaughtWithItsClause) {
  const std::vector<WitnessCase> cases = {
      {"no reset on give-up",
       policy_of<w::NoResetOnGiveUpPolicy>(Kind::early),
       Config{},
       {{9900, 1001}, {9900, 1}, {0, 1}},
       "BUSY-7"},
      {"no reset on give-up, from a start count",
       policy_of<w::NoResetOnGiveUpPolicy>(Kind::early),
       Config{Form::early, false, 1000, false},
       {{9900, 2}},
       "BUSY-7"},
      {"give up on the 1000th",
       policy_of<w::GiveUpOn1000thPolicy>(Kind::early),
       Config{},
       {{9900, 1000}, {0, 1}},
       "BUSY-7"},
      {"clamp at 100 s",
       policy_of<w::Clamp100sPolicy>(Kind::runtime),
       Config{},
       {{9905, 1}, {0, 1}},
       "BUSY-3"},
      {"accepts 9906",
       policy_of<w::Accepts9906Policy>(Kind::runtime),
       Config{},
       {{9906, 1}, {0, 1}},
       "BUSY-1"},
      {"swapped range",
       policy_of<w::SwappedRangePolicy>(Kind::runtime),
       Config{},
       {{9900, 1}, {0, 1}},
       "BUSY-3"},
      {"fsleep in milliseconds",
       policy_of<w::FsleepMillisecondsPolicy>(Kind::runtime),
       Config{},
       {{9903, 1}, {0, 1}},
       "BUSY-3"},
  };
  for (const WitnessCase& c : cases) {
    const Violations v = check(c.policy, input(c.config, c.runs));
    EXPECT_EQ(clauses(v).count(c.clause), 1u) << c.name << ":\n" << report(v);
    // The same input holds for the subject the witness was derived from.
    const Policy base =
        c.policy.kind == Kind::early ? policy_for(Form::early) : policy_for(Form::reference_usleep);
    EXPECT_TRUE(check(base, input(c.config, c.runs)).empty()) << c.name;
  }
  // Clamp100s over a loop breaks BUSY-6 too; accepts-9906 keeps the loop
  // going past a final status (BUSY-6).
  EXPECT_EQ(clauses(check(policy_of<w::Clamp100sPolicy>(Kind::runtime),
                          input(Config{}, {{9905, 1}, {0, 1}}))),
            (std::set<std::string>{"BUSY-3", "BUSY-6"}));
  EXPECT_EQ(clauses(check(policy_of<w::Accepts9906Policy>(Kind::runtime),
                          input(Config{}, {{9906, 1}, {0, 1}}))),
            (std::set<std::string>{"BUSY-1", "BUSY-6"}));
}

TEST(BusyDelayFuzzWitnesses, NoResetReportNamesTheGiveUp) {
  const Violations v = check(policy_of<w::NoResetOnGiveUpPolicy>(Kind::early),
                             input(Config{}, {{9900, 1001}, {9900, 1}, {0, 1}}));
  ASSERT_EQ(v.size(), 1u);
  EXPECT_NE(v[0].message.find("step 1002 (loop 2, call 1)"), std::string::npos) << v[0].message;
  EXPECT_NE(v[0].message.find("the 1st consecutive extended status (counting since the give-up "
                              "at step 1001)"),
            std::string::npos)
      << v[0].message;
}

TEST(BusyDelayFuzzRegistration, ReplayVerdictPerSubject) {
  const verify::Check* c =
      verify::builtin_registry().find(verify::CheckKind::fuzz_replay, "busy_delay_fuzz");
  ASSERT_NE(c, nullptr);
  EXPECT_EQ(c->component, "busy_delay");
  EXPECT_EQ(c->clauses, (std::vector<std::string>{"BUSY-1", "BUSY-3", "BUSY-6", "BUSY-7"}));
  EXPECT_EQ(c->subjects, (std::vector<std::string>{"reference", "legacy", "early"}));
  verify::RunOptions opts = verify::RunOptions::unhurried();
  opts.source_dir = idlespec::build::source_dir();
  for (const char* subject : {"reference", "early"}) {
    const verify::CheckResult res = c->run(subject, opts);
    EXPECT_EQ(res.outcome, verify::Outcome::pass) << subject << ": " << res.detail;
  }
  const verify::CheckResult legacy = c->run("legacy", opts);
  EXPECT_EQ(legacy.outcome, verify::Outcome::fail) << legacy.detail;
  EXPECT_EQ(legacy.violated, (std::set<std::string>{"BUSY-3", "BUSY-6"})) << legacy.detail;
  EXPECT_NE(legacy.replay.find("IDLESPEC_BUSY_DELAY_SUBJECT=legacy"), std::string::npos);
  EXPECT_NE(legacy.counterexample.find("BUSY-3: "), std::string::npos) << legacy.counterexample;
  EXPECT_EQ(c->run("upstream", opts).outcome, verify::Outcome::unknown);
}

}  // namespace
}  // namespace idlespec::busy_delay_fuzz
