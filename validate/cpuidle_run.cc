// What the menu and TEO checks share in driving a cpuidle governor's
// harness (validate/cpuidle_run.h): the harness line's words, the answers'
// reading, the per-CPU device, the part and verdict they start from.
#include "validate/cpuidle_run.h"

#include <algorithm>
#include <cstdio>

#include "sandbox/process.h"

namespace idlespec::validate {

std::string idle_step_text(const IdleStep& x) {
  char b[200];
  std::snprintf(b, sizeof(b), "%llu/%llu/%llu/%d/%llu/%d/%d",
                static_cast<unsigned long long>(x.latency_req),
                static_cast<unsigned long long>(x.sleep), static_cast<unsigned long long>(x.dtick),
                x.stopped ? 1 : 0, static_cast<unsigned long long>(x.residency), x.got_tick ? 1 : 0,
                x.poll_limit ? 1 : 0);
  return b;
}

std::string state_text(uint64_t exit_ns, uint64_t target_ns, bool polling, bool disabled) {
  const std::string f = std::string(polling ? "p" : "") + (disabled ? "d" : "");
  return std::to_string(exit_ns) + ":" + std::to_string(target_ns) + ":" + (f.empty() ? "-" : f);
}

std::string harness_field(const std::string& line, const std::string& key) {
  const size_t p = line.find(" " + key + "=");
  if (p == std::string::npos) return "";
  const size_t b = p + key.size() + 2;
  return line.substr(b, line.find(' ', b) - b);
}

void add_per_cpu(const Target& target, Extraction& ex, const std::string& name) {
  const size_t use = ex.code.find(name);
  if (use == std::string::npos) return;
  std::istringstream is(target.text);
  int line_no = 0;
  for (std::string line; std::getline(is, line);) {
    ++line_no;
    if (line.find("DEFINE_PER_CPU") == std::string::npos || line.find(name) == std::string::npos)
      continue;
    const size_t at = ex.code.rfind("#line", use);
    const std::string text =
        "#line " + std::to_string(line_no) + " \"" + target.path + "\"\n" + line + "\n";
    ex.code.insert(at == std::string::npos ? 0 : at, text);
    ex.prelude.push_back("per-CPU " + name + " (line " + std::to_string(line_no) + ")");
    break;
  }
}

Part start_part(const Component& component, const Target& target, const Extraction& ex) {
  Part part;
  part.component = component.name;
  part.file = target.display;
  for (const auto& f : ex.functions)
    if (std::find(target.functions.begin(), target.functions.end(), f.name) !=
        target.functions.end())
      part.functions.push_back(f);
  part.prelude = ex.prelude;
  return part;
}

bool found_function(const Extraction& ex, const std::string& name) {
  for (const auto& f : ex.functions)
    if (f.name == name && f.found) return true;
  return false;
}

bool build_part_harness(const Options& opt, const Component& component, const Target& target,
                        Part& part, const std::string& env_header, const std::string& code,
                        const std::string& harness_file, const std::vector<std::string>& defs,
                        HarnessBuild& hb, std::chrono::steady_clock::time_point t0) {
  part.temp_dir = make_temp_dir("validate");
  if (part.temp_dir.empty()) {
    fill_verdicts(component, target, part, "error", "cannot create a temporary directory");
    return false;
  }
  hb = build_harness(opt, part.temp_dir, env_header, code, harness_file, defs);
  part.notes.insert(part.notes.end(), hb.notes.begin(), hb.notes.end());
  if (!hb.error.empty()) {
    part.build_error = hb.error;
    fill_verdicts(component, target, part, "error", hb.verdict_reason);
    finish_part(opt, part, t0);
    return false;
  }
  return true;
}

}  // namespace idlespec::validate
