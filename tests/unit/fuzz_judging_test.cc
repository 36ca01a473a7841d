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

namespace idlespec::fuzz {
namespace {

using Bytes = std::vector<uint8_t>;

std::vector<std::pair<std::string, Bytes>> corpus(const std::string& target) {
  std::vector<std::pair<std::string, Bytes>> out;
  const auto dir = std::filesystem::path(IDLESPEC_SOURCE_DIR) / "fuzz/corpus" / target;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    std::ifstream f(entry.path(), std::ios::binary);
    out.emplace_back(entry.path().filename().string(),
                     Bytes{std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()});
  }
  std::sort(out.begin(), out.end());
  return out;
}

TEST(FuzzJudging, GovernorSubjectOnlyDrivesTheSameSelectionsAndJudgesNone) {
  namespace gf = governor_fuzz;
  const gf::Subject* v614 = gf::find_subject("v6.14");
  ASSERT_NE(v614, nullptr);
  size_t judged_violations = 0;
  for (const auto& [name, bytes] : corpus("governor_fuzz")) {
    const gf::Input in = gf::parse_input(bytes);
    const gf::Outcome judged = gf::run(*v614, in);
    const gf::Outcome alone = gf::run(*v614, in, Judging::subject_only);
    EXPECT_EQ(alone.selections, judged.selections) << name;
    EXPECT_TRUE(alone.violations.empty()) << name;
    judged_violations += judged.violations.size();
  }
  EXPECT_GT(judged_violations, 0u);  // v6.14 breaks GOV-2 with the tick stopped
}

TEST(FuzzJudging, TeoSubjectOnlyDrivesTheSameSelectionsAndJudgesNone) {
  namespace tf = teo_fuzz;
  const tf::Subject* v61 = tf::find_subject("v6.1");
  ASSERT_NE(v61, nullptr);
  size_t judged_violations = 0;
  for (const auto& [name, bytes] : corpus("teo_fuzz")) {
    const tf::Input in = tf::parse_input(bytes);
    const tf::Outcome judged = tf::run(*v61, in);
    const tf::Outcome alone = tf::run(*v61, in, Judging::subject_only);
    EXPECT_EQ(alone.selections, judged.selections) << name;
    EXPECT_TRUE(alone.violations.empty()) << name;
    judged_violations += judged.violations.size();
  }
  EXPECT_GT(judged_violations, 0u);  // v6.1 breaks TEO-1 and TEO-5 (accepted)
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
