// Runs one RapidCheck property through RapidCheck's programmatic API, with
// the seed and the case count of verify::RunOptions, and turns the verdict
// into a verify::CheckResult:
//
//   success  -> pass (unknown if the time budget cut the run short)
//   failure  -> fail, with the shrunk counterexample and a replay command
//   gave up  -> unknown (too many cases discarded)
//   error    -> unknown (the generators themselves failed)
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "verify/registry.h"

namespace idlespec::props {

// A property body: picks its inputs with `*gen` and asserts with RC_ASSERT.
using PropertyBody = std::function<void()>;

// `clauses` are the clauses the check names. When a failure's description
// names some of them (bodies that discharge several clauses say which one
// broke, "STATES-2: ..."), `violated` lists those; otherwise it stays empty,
// meaning all of them.
verify::CheckResult run_property(std::string_view name, std::string_view subject,
                                 const std::vector<std::string>& clauses,
                                 const verify::RunOptions& options, const PropertyBody& body);

// One RapidCheck run of a check: `body` fails with "CLAUSE: ..." naming one
// of `clauses`.
struct Part {
  std::string name;
  std::vector<std::string> clauses;
  PropertyBody body;
};

// Runs every part with the seed and case count of `options` and a share of
// its budget, and merges: fail if a part failed (violated: the clauses the
// failures name), unknown if a part neither passed nor failed, else pass.
// The counterexample lists each failing part's, as "part: ...". One run per
// clause lets a verdict name every clause that breaks, not only the first.
verify::CheckResult run_parts(std::string_view check, std::string_view subject,
                              const std::vector<Part>& parts, const verify::RunOptions& options);

// "idlespec check <kind> <name> --subject <subject> --seed <seed>", with
// --cases when the case count is not the default (RapidCheck's sizes, and so
// its inputs, depend on it).
std::string replay_command(std::string_view kind, std::string_view name, std::string_view subject,
                           const verify::RunOptions& options);

}  // namespace idlespec::props
