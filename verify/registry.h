// Checks and the registry that maps them to spec clauses.
//
// A check is one piece of evidence (a Z3 proof, an exhaustive scan, a
// RapidCheck property, a corpus replay, a model check) that discharges the
// clauses it names, for the subjects it can run against. The spec lists the
// same check names under each clause; `idlespec verify` insists that the two
// lists agree.
#pragma once

#include <cstdint>
#include <functional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace idlespec::verify {

enum class CheckKind { proof, exhaustive, property, fuzz_replay, model_check };
enum class Outcome { pass, fail, unknown };

std::string_view check_kind_name(CheckKind k);  // "proof", "fuzz-replay", ...
std::string_view outcome_name(Outcome o);       // "pass", "fail", "unknown"

struct RunOptions {
  uint64_t seed = 1;            // RapidCheck seed, sampling seed
  double budget_seconds = 120;  // per check: solver timeout, property time cap
  int property_cases = 1000;    // RapidCheck successful cases per property
  std::string source_dir;       // the idlespec tree (corpora, spec)
  // verify: checks run at once, each in a child process of its own (1: one
  // after the other, in this process). A check's verdict does not depend on
  // it: each child runs the same code with the same seed and budget.
  int jobs = 1;

  // The options of the test suite: the defaults with a budget of an hour,
  // which no check comes near even under a sanitizer on a loaded machine.
  // A budget is a user's cap; a test's verdict must never depend on the
  // machine's speed (ctest's own timeout still ends a hang).
  static RunOptions unhurried() {
    RunOptions o;
    o.budget_seconds = 3600;
    return o;
  }
};

struct CheckResult {
  Outcome outcome = Outcome::unknown;
  std::string detail;          // one line for people: what was shown, or what went wrong
  std::string counterexample;  // on fail: the concrete input (hex payload, sequence ...)
  std::string replay;          // on fail: a command that reproduces it
  // On fail: the clauses the violation breaks. Empty means every clause the
  // check names.
  std::set<std::string> violated;
  double seconds = 0;
};

struct Check {
  CheckKind kind = CheckKind::proof;
  std::string name;                   // e.g. "xcede_no_overrun"
  std::string component;              // xcede, states, busy_delay, idle_core, governor
  std::vector<std::string> clauses;   // clause IDs it discharges
  std::vector<std::string> subjects;  // subjects it runs against
  std::function<CheckResult(const std::string& subject, const RunOptions&)> run;
};

class Registry {
 public:
  void add(Check check);
  const std::vector<Check>& checks() const { return checks_; }
  const Check* find(CheckKind kind, std::string_view name) const;

 private:
  std::vector<Check> checks_;
};

// Every check idlespec ships, across all components.
Registry& builtin_registry();

}  // namespace idlespec::verify
