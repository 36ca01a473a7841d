#include "impl/states.h"

#include <cinttypes>
#include <cstdio>

#include "impl/text.h"

namespace idlespec::states {
Table build(std::span<const xcede::Record> records, const Options& options) {
  return build_using<ReferenceBuilder>(records, options);
}

std::vector<std::string> idle_info_lines(const Table& table) {
  std::vector<std::string> lines;
  lines.push_back("CPUidle driver: pseries_idle");
  lines.push_back(strprintf("Number of idle states: %zu", table.states.size()));
  std::string names = "Available idle states:";
  for (const auto& s : table.states) names += " " + s.name;
  lines.push_back(names);
  for (const auto& s : table.states) {
    lines.push_back(s.name + ":");
    std::string flags = s.name;
    if (s.polling) flags += " (POLLING)";
    if (s.timer_stop) flags += " (TIMER_STOP)";
    lines.push_back("Flags/Description: " + flags);
    lines.push_back(strprintf("Latency: %u", s.exit_latency_us));
    lines.push_back(strprintf("Residency: %u", s.target_residency_us));
  }
  return lines;
}

}  // namespace idlespec::states
