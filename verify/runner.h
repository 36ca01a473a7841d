// The verdict model: clause x subject -> status, from the checks that run.
//
//   held       every check naming the clause passed for the subject
//   failed     a check found a violation (counterexample + replay), or the
//              spec and the registry disagree about the clause's checks, or
//              an accepted violation was not found
//   unknown    nothing failed, but a check ran out of budget or the solver
//              answered unknown
//   uncovered  no check names the clause
//   accepted   the spec says the subject knowingly breaks the clause, and a
//              check confirmed the violation
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "verify/registry.h"
#include "verify/spec_index.h"

namespace idlespec::verify {

enum class Status { held, failed, unknown, uncovered, accepted };
std::string_view status_name(Status s);

struct CheckReport {
  const Check* check = nullptr;
  CheckRef ref;  // as the spec names it (check may be null when it is not registered)
  CheckResult result;
};

struct ClauseReport {
  Clause clause;  // a copy: the report outlives the SpecIndex it came from
  std::string subject;
  Status status = Status::uncovered;
  std::string detail;
  std::vector<CheckReport> checks;
};

struct VerifyFilter {
  std::vector<std::string> components;  // empty: all
  std::vector<std::string> subjects;    // empty: all
};

struct VerifyReport {
  std::vector<ClauseReport> clauses;
  std::vector<std::string> errors;  // registry checks that name clauses the spec lacks
  bool passed(bool allow_unknown) const;
  // The exit code of verify, check, validate and review: 0 every clause held
  // or accepted; 1 one failed or is uncovered, or the spec and the registry
  // disagree (dominates); 3 nothing failed but one is unknown (0 with
  // allow_unknown). 2, bad command line, is the front end's.
  int exit_code(bool allow_unknown) const;
};

// Called after each check finishes: (index, total, check, subject, result).
using Progress =
    std::function<void(size_t, size_t, const Check&, const std::string&, const CheckResult&)>;

VerifyReport run_verify(const SpecIndex& spec, const Registry& registry, const VerifyFilter& filter,
                        const RunOptions& options, const Progress& progress = {});

std::string report_json(const VerifyReport& report);
std::string report_text(const VerifyReport& report);

}  // namespace idlespec::verify
