// Moved: the governor clause judge is oracle/governor.h (issue 13). What is
// left here keeps the old names for validate/governor_check.cc and
// proofs/governor_proofs_test.cc until they call
// governor::oracle::judge_selection (a list of oracle::Violation) directly.
#pragma once

#include <set>
#include <span>
#include <string>

#include "oracle/governor.h"

namespace idlespec::governor {

using oracle::first_enabled;
using oracle::table_is_ordered;

struct Judgement {
  std::set<std::string> violated;  // clause IDs
  std::string detail;              // "GOV-n: why", one line per violation
};

inline Judgement judge_selection(std::span<const State<Concrete>> states, const ConcreteInputs& in,
                                 const ConcreteChoice& c) {
  Judgement j;
  for (const auto& v : oracle::judge_selection(states, in, c)) {
    j.violated.insert(v.clause);
    j.detail += (j.detail.empty() ? "" : "\n") + v.clause + ": " + v.message;
  }
  return j;
}

}  // namespace idlespec::governor
