// How the report layer words a verdict: how it was reached (proven,
// tested), EVA's alarm beside it, and a list of verdicts counted.
#include <map>
#include <string>
#include <vector>

#include "verify/report.h"

namespace idlespec::validate {

std::string proof_level(const ClauseVerdict& v) {
  if (v.status != "held" || v.proof.empty()) return "";
  return " (" + v.proof + (v.proof == "proven" ? ": " : "; ") + v.proof_note + ")";
}

// EVA's alarm beside a failed clause's counterexample: "EVA: <alarm> at f:l".
std::string alarm_beside(const ClauseVerdict& v) {
  if (v.alarm.empty() || v.status == "held") return "";
  return "EVA: " + v.alarm + " at " + v.alarm_file + ":" + std::to_string(v.alarm_line);
}

std::string verdict_counts(const std::vector<ClauseVerdict>& clauses) {
  std::map<std::string, size_t> counts;
  for (const auto& v : clauses) ++counts[v.status];
  std::string o =
      std::to_string(counts["held"]) + " held, " + std::to_string(counts["failed"]) + " failed";
  for (const char* st : {"accepted", "uncovered", "unknown", "error", "n/a", "absent"})
    if (counts[st]) o += ", " + std::to_string(counts[st]) + " " + st;
  return o;
}

}  // namespace idlespec::validate
