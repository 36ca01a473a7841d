// A gtest that cannot run for want of a tool: IDLESPEC_SKIP(why) reports it
// skipped (ctest shows it as such), except in CI (CI=true), where every tool
// is installed and a skip is the set-up's failure (tests/skip.sh, the
// scripts' counterpart).
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>

namespace idlespec::test_skip {
inline bool in_ci() {
  const char* ci = std::getenv("CI");
  return ci && std::strcmp(ci, "true") == 0;
}
}  // namespace idlespec::test_skip

#define IDLESPEC_SKIP(why)                                  \
  do {                                                      \
    if (::idlespec::test_skip::in_ci()) {                   \
      FAIL() << "CI=true and this test cannot run (" << why \
             << "): scripts/setup.sh "                      \
                "installs what it needs";                   \
    } else {                                                \
      GTEST_SKIP() << why;                                  \
    }                                                       \
  } while (0)
