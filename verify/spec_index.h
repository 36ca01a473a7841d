// The machine-readable side of spec/: every clause, parsed from the same
// Markdown people review. A clause is written as
//
//   ### XCEDE-1 (safety)
//   One-sentence obligation, possibly wrapped.
//
//   - Subjects: reference, upstream
//   - Source: PAPR ...; kernel commit ...
//   - Checks: proof xcede_no_overrun, property xcede_truncates_to_buffer
//   - Accepted for upstream: why this subject knowingly breaks the clause
//
// followed by any prose (rationale, decisions, counterexamples explained).
// The kind is safety, efficiency or liveness. Check kinds: proof,
// exhaustive, property, fuzz-replay, model-check.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "verify/registry.h"

namespace idlespec::verify {

struct CheckRef {
  CheckKind kind = CheckKind::proof;
  std::string name;
};

struct Acceptance {
  std::string subject;
  std::string reason;
};

struct Clause {
  std::string id;         // XCEDE-1
  std::string component;  // xcede
  std::string kind;       // safety | efficiency | liveness
  std::string obligation;
  std::string source;
  std::vector<std::string> subjects;
  std::vector<CheckRef> checks;
  std::vector<Acceptance> accepted;
  std::string file;
  int line = 0;

  const Acceptance* acceptance_for(std::string_view subject) const;
};

struct SpecIndex {
  std::vector<Clause> clauses;
  std::vector<std::string> errors;  // "spec/xcede.md:12: ..."; a spec with errors is unusable
};

// Parses one spec file; `component` is its base name (spec/xcede.md -> xcede).
void parse_spec_file(std::string_view component, std::string_view file_name, std::string_view text,
                     SpecIndex& into);

// The spec as it was when idlespec was built (embedded by CMake).
SpecIndex builtin_spec();
// The spec files in a directory (spec/*.md other than README.md).
SpecIndex load_spec_dir(const std::string& dir);

// The component a clause-ID prefix belongs to ("XCEDE" -> "xcede"), or "".
std::string_view component_for_prefix(std::string_view prefix);
// Canonical component name for a CLI argument ("busy-delay" -> "busy_delay"), or "".
std::string canonical_component(std::string_view name);
inline constexpr std::string_view kComponents[] = {"xcede", "states", "busy_delay", "idle_core",
                                                   "governor"};

}  // namespace idlespec::verify
