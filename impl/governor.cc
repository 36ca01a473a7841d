#include "impl/governor.h"

#include <cstdio>

namespace idlespec::governor {

std::string_view path_name(uint8_t p) {
  switch (p) {
    case kTrivial:
      return "trivial";
    case kNoneEnabled:
      return "none-enabled";
    case kFirstEnabled:
      return "first-enabled";
    case kResidencyFits:
      return "residency-fits";
    case kPollingRule:
      return "polling-rule";
    case kTickStoppedPromotion:
      return "tick-stopped-promotion";
    case kTickRetained:
      return "tick-retained";
  }
  return "unknown";
}

std::vector<State<Concrete>> to_states(std::span<const TableEntry> table) {
  std::vector<State<Concrete>> out;
  out.reserve(table.size());
  for (const TableEntry& e : table) {
    State<Concrete> s;
    s.exit_latency_ns = Concrete::lit<64>(e.exit_latency_ns);
    s.target_residency_ns = Concrete::lit<64>(e.target_residency_ns);
    s.polling = e.polling;
    s.timer_stop = e.timer_stop;
    s.disabled = e.disabled;
    out.push_back(s);
  }
  return out;
}

std::vector<TableEntry> pseries_p10_table() {
  return {
      {"snooze", 0, 0, true, false, false},
      {"CEDE", 12 * kNsecPerUsec, 120 * kNsecPerUsec, false, false, false},
  };
}

std::span<const SubjectOps> subjects() {
  static const SubjectOps all[] = {
      ops_of<V614>(
          "v6.14 (after 38f83090f515): limit lowered to the prediction while the tick runs; "
          "polling rule"),
      ops_of<SeedV2>("seed 004 v2 on v6.14: polling rule removed"),
      ops_of<SeedThreshold>(
          "seed 004 review on v6.14: polling rule only below RESIDENCY_THRESHOLD_NS"),
      ops_of<Reference>(
          "upstream after 779b1a1cb13a + db86f55bf81a: limit checked first, never lowered; "
          "rule needs exit latency <= prediction"),
      ops_of<V619>(
          "reference + 'Use residency threshold in polling state override decisions' (v6.19)"),
      ops_of<Mainline>(
          "2026 mainline: v6.19 + 80606f4eb8d7 (timer consulted with the tick stopped) + "
          "e57c2bf2e89d (SAFE_TIMER_RANGE_NS)"),
  };
  return all;
}

const SubjectOps* find_subject(std::string_view name) {
  for (const SubjectOps& s : subjects()) {
    if (s.name == name) return &s;
  }
  return nullptr;
}

std::string describe(const ConcreteChoice& c, std::span<const TableEntry> table) {
  std::string s = "state " + std::to_string(c.idx.v);
  if (c.idx.v < table.size() && !table[c.idx.v].name.empty()) s += " (" + table[c.idx.v].name + ")";
  s += ", path ";
  s += path_name(c.path.v);
  s += c.stop_tick ? ", stop tick" : ", keep tick";
  char buf[64];
  std::snprintf(buf, sizeof buf, ", predicted %llu ns",
                static_cast<unsigned long long>(c.predicted_ns.v));
  s += buf;
  return s;
}

}  // namespace idlespec::governor
