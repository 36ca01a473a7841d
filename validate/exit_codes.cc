// The exit codes of verify, check, validate, review and matrix, from a list
// of verdicts, an escape attempt and an interrupt; and the verdicts an
// interrupt withdraws.
#include <csignal>
#include <string>
#include <vector>

#include "validate/validate.h"

namespace idlespec::validate {

namespace {

bool judged(const std::string& status) {
  return status == "held" || status == "failed" || status == "accepted";
}

}  // namespace

int exit_code_of(const std::vector<ClauseVerdict>& verdicts, bool allow_unknown) {
  bool failed = false, unjudged = false, any_judged = false;
  for (const auto& v : verdicts) {
    failed = failed || v.status == "failed" || v.status == "uncovered";
    unjudged = unjudged || v.status == "error" || v.status == "unknown";
    any_judged = any_judged || judged(v.status);
  }
  if (failed) return kExitFailed;
  if ((unjudged || !any_judged) && !allow_unknown) return kExitUnjudged;
  return kExitHeld;
}

int command_exit_code(const std::vector<ClauseVerdict>& verdicts, bool allow_unknown,
                      bool escaped) {
  if (const int sig = interrupted()) return 128 + sig;
  if (escaped) return kExitFailed;
  return exit_code_of(verdicts, allow_unknown);
}

bool any_escape(const Report& report) {
  for (const auto& p : report.parts)
    if (!p.escapes.empty()) return true;
  return false;
}

void withdraw_if_interrupted(std::vector<ClauseVerdict>& verdicts) {
  const int sig = interrupted();
  if (!sig) return;
  for (auto& v : verdicts) {
    if (v.status == "absent" || v.status == "n/a") continue;
    v.status = "unknown";
    v.counterexamples.clear();
    v.error.clear();
    v.note = std::string("not judged: the run was interrupted (") +
             (sig == SIGINT    ? "SIGINT"
              : sig == SIGTERM ? "SIGTERM"
                               : "a signal") +
             ")";
  }
}

}  // namespace idlespec::validate
