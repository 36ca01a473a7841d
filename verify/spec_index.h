// The machine-readable side of spec/: every clause, parsed from the same
// Markdown people review. A clause is written as
//
//   ### XCEDE-1 (safety)
//   One-sentence obligation, possibly wrapped.
//
//   - Subjects: reference, upstream
//   - Source: PAPR ...; kernel commit ...
//   - Checks: proof xcede_no_overrun, validate parse_cede_parameters
//   - Accepted for upstream, legacy: why these subjects knowingly break the clause
//   - Fixed by: 0123456789ab ("subsystem: the commit's title"), or: none (why)
//   - Era v6.14-v6.18: how text of an era that is no subject breaks it
//   - Fixed by: ...
//
// followed by any prose (rationale, decisions, counterexamples explained).
// The kind is safety, efficiency or liveness. Check kinds: proof,
// exhaustive, property, fuzz-replay, model-check (run by `idlespec verify`),
// and validate FUNCTION: `idlespec validate` judges the clause on that kernel
// function. Every "Accepted for" line is followed by its "Fixed by" line.
//
// Outside clauses, a spec file may say which subjects are modes of another
// (`idlespec validate` judges a file against a subject and its modes):
//
//   - Modes of reference: early
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "verify/registry.h"

namespace idlespec::verify {

struct CheckRef {
  CheckKind kind = CheckKind::proof;
  std::string name;
};

// One subject's accepted violation. An "Accepted for a, b" line gives one
// Acceptance per subject, sharing the reason and the fix.
struct Acceptance {
  std::string subject;
  std::string reason;
  std::string fixed_by;         // the Fixed by line: "779b1a1cb13a (\"...\")" or "none (...)"
  std::string fixed_by_commit;  // its commit id, "" for none
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
  std::vector<std::string> validate_functions;  // "validate FUNCTION" checks
  // "- Since: COMMIT (...)": the upstream commit that brought what the clause
  // asks for, so that kernel text from before it fails the clause as
  // upstream then did; validate names it beside such a failure.
  std::string since;         // the line's text
  std::string since_commit;  // its commit id
  // "- Era NAME: what that era's text does", then its "- Fixed by:" line:
  // kernel text of an era that is none of the clause's subjects and breaks
  // it in a way the spec explains (teo.c of v6.14 to v6.18 and TEO-6).
  // A check that recognises the era and its failure sets
  // ClauseVerdict::era; validate then names the era and its fix.
  std::vector<Acceptance> eras;  // subject: the era's name
  std::string file;
  int line = 0;

  const Acceptance* acceptance_for(std::string_view subject) const;
  // The "- Era NAME:" line of that name, or null.
  const Acceptance* era(std::string_view name) const;
  // The clause applies to `subject` judged with `modes` (its modes, from
  // SpecIndex::modes_of): the subject or one of its modes is listed.
  bool applies_to(std::string_view subject, const std::vector<std::string>& modes) const;
};

struct SubjectModes {
  std::string component, subject;
  std::vector<std::string> modes;
};

struct SpecIndex {
  std::vector<Clause> clauses;
  std::vector<SubjectModes> modes;
  // "- Validate default: NAME" (before the clauses): the subject validate
  // judges the component's files against when --subject names none
  // (component, subject); without one, reference.
  std::vector<std::pair<std::string, std::string>> validate_defaults;
  std::vector<std::string> errors;  // "spec/xcede.md:12: ..."; a spec with errors is unusable

  // The clause with this ID, or null.
  const Clause* find(std::string_view id) const;
  // The modes the spec gives `subject` in `component` (none: empty).
  std::vector<std::string> modes_of(std::string_view component, std::string_view subject) const;
  // The component's "- Validate default:" subject, or "".
  std::string validate_default(std::string_view component) const;
  // Every subject the component's clauses name, in first-seen order.
  std::vector<std::string> subjects_of(std::string_view component) const;
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
inline constexpr std::string_view kComponents[] = {"xcede",     "states",   "busy_delay",
                                                   "idle_core", "governor", "teo"};

}  // namespace idlespec::verify
