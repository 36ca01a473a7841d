// The words of the governor's findings: times, tables, steps, inputs and
// choices as the report says them.
#include <algorithm>

#include "validate/governor_run.h"

namespace idlespec::validate::menu {
namespace {

std::string describe_table(const std::vector<gov::TableEntry>& t) {
  std::string s;
  for (size_t i = 0; i < t.size(); ++i) {
    s += (i ? ", " : "") + std::to_string(i) + (t[i].polling ? " poll" : "") +
         (t[i].disabled ? " disabled" : "") + " " + std::to_string(t[i].exit_latency_ns) + "/" +
         std::to_string(t[i].target_residency_ns);
  }
  return s + " ns (exit/target)";
}

std::string describe_step(const Step& x) {
  std::string s = "limit " +
                  (x.latency_req == kNoLimitNs ? std::string("none") : ns_text(x.latency_req)) +
                  ", sleep " + ns_text(x.sleep) + ", delta_tick " + ns_text(x.dtick) + ", tick " +
                  (x.stopped ? "stopped" : "running");
  if (!x.entered) return s + "; rejected";
  return s + "; idle " + ns_text(x.residency) + (x.got_tick ? " (tick woke)" : "") +
         (x.poll_limit ? " (poll_time_limit)" : "");
}

}  // namespace

std::string ns_text(uint64_t v) {
  if (v == kS64Max) return "KTIME_MAX";
  if (v > kS64Max) return std::to_string(static_cast<int64_t>(v)) + " ns";
  return std::to_string(v) + " ns";
}

std::string describe(const Input& in, long long upto) {
  std::string s = "HZ " + std::to_string(in.hz) + ", states " + describe_table(in.table) + "; ";
  const size_t n =
      upto < 0 ? in.steps.size() : std::min(in.steps.size(), static_cast<size_t>(upto) + 1);
  for (size_t k = 0; k < n; ++k)
    s += (k ? "; " : "") + std::string("step ") + std::to_string(k) + ": " +
         describe_step(in.steps[k]);
  if (s.size() > 1200) s = s.substr(0, 1200) + "...";
  return s;
}

std::string range_text(uint64_t lo, uint64_t hi) {
  if (hi == ~uint64_t{0}) return std::to_string(lo) + " ns and above";
  return std::to_string(lo) + ".." + std::to_string(hi) + " ns";
}

// A GOV-6 family member: its eight teaching steps are alike.
std::string describe_member(const Input& in) {
  if (in.family < 0 || in.steps.size() != 9) return describe(in);
  return "HZ " + std::to_string(in.hz) + ", states " + describe_table(in.table) +
         "; steps 0..7 each: " + describe_step(in.steps[0]) +
         "; step 8: " + describe_step(in.steps[8]);
}

std::string choice_text(long long idx, bool stop) {
  return "idx=" + std::to_string(idx) + " stop_tick=" + (stop ? "1" : "0");
}

}  // namespace idlespec::validate::menu
