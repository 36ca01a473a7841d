// The TEO properties on the five subjects: each finds spec/teo.md's TEO-1
// finding, teo_selection finds v6.1's TEO-5 (the bin-middle search), and
// every other clause passes.
#include "properties/teo_properties.h"

#include <gtest/gtest.h>

#include <set>
#include <string>

namespace idlespec::props::teo_props {
namespace {

using verify::Outcome;

TEST(TeoProperties, SelectionOnEverySubject) {
  for (const char* subject : {"v6.1", "v6.12", "v6.19", "v7.0", "mainline"}) {
    SCOPED_TRACE(subject);
    const verify::CheckResult r =
        run_teo_property("teo_selection", subject, verify::RunOptions::unhurried());
    ASSERT_EQ(r.outcome, Outcome::fail) << r.detail;
    const std::set<std::string> want = std::string(subject) == "v6.1"
                                           ? std::set<std::string>{"TEO-1", "TEO-5"}
                                           : std::set<std::string>{"TEO-1"};
    EXPECT_EQ(r.violated, want) << r.detail;
    EXPECT_NE(r.detail.find("is disabled (first enabled is"), std::string::npos) << r.detail;
  }
}

TEST(TeoProperties, WakeupSequenceOnEverySubject) {
  for (const char* subject : {"v6.1", "v6.12", "v6.19", "v7.0", "mainline"}) {
    SCOPED_TRACE(subject);
    const verify::CheckResult r =
        run_teo_property("teo_wakeup_sequence", subject, verify::RunOptions::unhurried());
    ASSERT_EQ(r.outcome, Outcome::fail) << r.detail;
    EXPECT_TRUE(r.violated.count("TEO-1")) << r.detail;
    EXPECT_FALSE(r.violated.count("TEO-6")) << r.detail;
    EXPECT_FALSE(r.violated.count("TEO-2")) << r.detail;
    EXPECT_FALSE(r.violated.count("TEO-3")) << r.detail;
    EXPECT_FALSE(r.violated.count("TEO-4")) << r.detail;
  }
}

TEST(TeoProperties, AnUnknownSubjectIsUnknown) {
  const verify::CheckResult r =
      run_teo_property("teo_selection", "v5.4", verify::RunOptions::unhurried());
  EXPECT_EQ(r.outcome, Outcome::unknown);
  EXPECT_NE(r.detail.find("v6.1, v6.12, v6.19, v7.0, mainline"), std::string::npos) << r.detail;
}

}  // namespace
}  // namespace idlespec::props::teo_props
