// idle_core_state_machine: the per-configuration runs merged into one verdict
// (properties/idle_core_state_machine.h).
#include "properties/idle_core_state_machine.h"

#include <algorithm>

#include "impl/text.h"

namespace idlespec::props::idle_core_sm {
namespace {

std::string join(const std::vector<std::string>& parts, const char* sep) {
  std::string out;
  for (size_t i = 0; i < parts.size(); ++i) out += (i ? sep : "") + parts[i];
  return out;
}

}  // namespace

std::string command_text(const Move& m) {
  switch (m.kind) {
    case MoveKind::begin_idle:
      return strprintf("EnterIdle{t%u, %s}", unsigned{m.thread},
                       std::string(idle_core::kind_name(m.idle)).c_str());
    case MoveKind::step:
      return strprintf("Step{t%u}", unsigned{m.thread});
    case MoveKind::wake:
      return strprintf("Wake{t%u}", unsigned{m.thread});
    case MoveKind::core_loss:
      return "HardwareLoses{}";
  }
  return "?";
}

const std::vector<Config>& state_machine_configs() {
  static const std::vector<Config> configs = {
      Config::of(Platform::power8, 2), Config::of(Platform::power8, 4),
      Config::of(Platform::power8, 4, 2), Config::of(Platform::power9, 2)};
  return configs;
}

const std::vector<std::string>& state_machine_clauses() {
  static const std::vector<std::string> clauses = {"IDLE-2", "IDLE-3", "IDLE-4",
                                                   "IDLE-5", "IDLE-6", "IDLE-9"};
  return clauses;
}

verify::CheckResult merge_configs(const std::vector<ConfigVerdict>& verdicts,
                                  const verify::RunOptions& options) {
  verify::CheckResult merged;
  std::vector<std::string> passed;
  std::vector<std::string> failed;
  std::vector<std::string> unknown;
  std::vector<std::string> examples;
  bool outside = false;
  const auto& clauses = state_machine_clauses();
  for (const ConfigVerdict& v : verdicts) {
    const std::string name = v.config.describe();
    merged.seconds += v.result.seconds;
    switch (v.result.outcome) {
      case verify::Outcome::pass:
        passed.push_back(name);
        break;
      case verify::Outcome::fail: {
        const Failure& f = v.failure;
        if (f.clause.empty()) {  // failed, but not through the oracle (an exception?)
          outside = true;
          failed.push_back(name + ": " + v.result.detail);
          examples.push_back(name + ": " + v.result.counterexample);
        } else {
          if (std::find(clauses.begin(), clauses.end(), f.clause) == clauses.end()) {
            outside = true;
          } else {
            merged.violated.insert(f.clause);
          }
          failed.push_back(strprintf("%s: %s: %s (shrunk to %zu commands)", name.c_str(),
                                     f.clause.c_str(), f.message.c_str(), f.commands.size()));
          examples.push_back(name + ": [" + join(f.commands, ", ") + "]\n" + f.timeline);
        }
        if (merged.replay.empty()) merged.replay = v.result.replay;
        break;
      }
      case verify::Outcome::unknown:
        unknown.push_back(name + ": " + v.result.detail);
        break;
    }
  }
  std::vector<std::string> parts;
  if (!failed.empty()) parts.push_back(join(failed, " || "));
  if (!unknown.empty()) parts.push_back("not decided: " + join(unknown, "; "));
  if (!passed.empty()) {
    parts.push_back(strprintf("%s: %d random command sequences each passed (seed %llu)",
                              join(passed, ", ").c_str(), options.property_cases,
                              static_cast<unsigned long long>(options.seed)));
  }
  merged.detail = join(parts, "; ");
  merged.counterexample = join(examples, "\n");
  merged.outcome = !unknown.empty()  ? verify::Outcome::unknown
                   : !failed.empty() ? verify::Outcome::fail
                                     : verify::Outcome::pass;
  if (merged.outcome != verify::Outcome::fail || outside) merged.violated.clear();
  return merged;
}

verify::CheckResult run_idle_core_state_machine(std::string_view subject,
                                                const verify::RunOptions& options) {
  if (subject == "reference") return run_state_machine<idle_core::Reference>(subject, options);
  verify::CheckResult none;
  none.detail = "idle_core_state_machine has no subject named '" + std::string(subject) + "'";
  return none;
}

}  // namespace idlespec::props::idle_core_sm
