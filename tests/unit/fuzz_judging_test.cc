// Judging::subject_only (fuzz/judging.h), the benchmark's baseline: it drives
// the subject through the same input as the judged run (the same number of
// selections) and reports nothing, where the judged run over the same stored
// corpus finds the violations the spec knows of for a subject that breaks a
// clause.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <utility>
#include <vector>

#include "fuzz/busy_delay_input.h"
#include "fuzz/governor_input.h"
#include "fuzz/judging.h"
#include "fuzz/teo_input.h"
#include "fuzz/xcede_input.h"
#include "tests/witnesses/xcede_witnesses.h"
#include "verify/build_paths.h"

namespace idlespec::fuzz {
namespace {

using Bytes = std::vector<uint8_t>;

std::vector<std::pair<std::string, Bytes>> corpus(const std::string& target) {
  std::vector<std::pair<std::string, Bytes>> out;
  const auto dir = std::filesystem::path(idlespec::build::source_dir()) / "fuzz/corpus" / target;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    std::ifstream f(entry.path(), std::ios::binary);
    out.emplace_back(entry.path().filename().string(),
                     Bytes{std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()});
  }
  std::sort(out.begin(), out.end());
  return out;
}

// Over `target`'s stored corpus, a selection driver's `run(subject, input,
// judging)`: the subject alone makes as many selections as the judged run and
// reports nothing. Returns how many violations the judged runs reported.
size_t judged_over_corpus(const std::string& target, const auto& subject, auto parse, auto run) {
  size_t judged_violations = 0;
  for (const auto& [name, bytes] : corpus(target)) {
    const auto in = parse(bytes);
    const auto judged = run(subject, in, Judging::every_step);
    const auto alone = run(subject, in, Judging::subject_only);
    EXPECT_EQ(alone.selections, judged.selections) << name;
    EXPECT_TRUE(alone.violations.empty()) << name;
    judged_violations += judged.violations.size();
  }
  return judged_violations;
}

TEST(FuzzJudging, GovernorSubjectOnlyDrivesTheSameSelectionsAndJudgesNone) {
  namespace gf = governor_fuzz;
  const gf::Subject* v614 = gf::find_subject("v6.14");
  ASSERT_NE(v614, nullptr);
  // v6.14 breaks GOV-2 with the tick stopped
  EXPECT_GT(judged_over_corpus(
                "governor_fuzz", *v614, [](const Bytes& b) { return gf::parse_input(b); },
                [](const auto& s, const auto& in, Judging j) { return gf::run(s, in, j); }),
            0u);
}

TEST(FuzzJudging, TeoSubjectOnlyDrivesTheSameSelectionsAndJudgesNone) {
  namespace tf = teo_fuzz;
  const tf::Subject* v61 = tf::find_subject("v6.1");
  ASSERT_NE(v61, nullptr);
  // v6.1 breaks TEO-1 and TEO-5 (accepted)
  EXPECT_GT(judged_over_corpus(
                "teo_fuzz", *v61, [](const Bytes& b) { return tf::parse_input(b); },
                [](const auto& s, const auto& in, Judging j) { return tf::run(s, in, j); }),
            0u);
}

TEST(FuzzJudging, BusyDelaySubjectOnlyJudgesNone) {
  namespace bf = busy_delay_fuzz;
  const bf::Policy legacy = bf::policy_for(bf::Form::legacy);
  size_t judged_violations = 0;
  for (const auto& [name, bytes] : corpus("busy_delay_fuzz")) {
    const bf::Input in = bf::parse_input(bytes);
    judged_violations += bf::check(legacy, in).size();
    EXPECT_TRUE(bf::check(legacy, in, Judging::subject_only).empty()) << name;
  }
  EXPECT_GT(judged_violations, 0u);  // legacy breaks BUSY-3 and BUSY-6
}

TEST(FuzzJudging, StatesSubjectOnlyJudgesNone) {
  size_t judged_violations = 0;
  for (const auto& [name, bytes] : corpus("states_fuzz")) {
    judged_violations += check_states_input<witness::MinMinusOneSubject>(bytes).size();
    EXPECT_TRUE(
        check_states_input<witness::MinMinusOneSubject>(bytes, Judging::subject_only).empty())
        << name;
    EXPECT_TRUE(check_xcede_input<ReferenceSubject>(bytes, Judging::subject_only).empty()) << name;
  }
  EXPECT_GT(judged_violations, 0u);  // the witness's fix-up breaks a STATES clause
}

}  // namespace
}  // namespace idlespec::fuzz
