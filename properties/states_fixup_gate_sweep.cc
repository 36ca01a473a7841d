#include "properties/states_fixup_gate_sweep.h"

#include "properties/run_property.h"

namespace idlespec::props {

std::vector<GateProbe> gate_probes() {
  return {
      // POWER9 firmware: XCEDE1 advertised at 2 us, below CEDE's default.
      {"xcede1-2us", {{1, 1024, 1}, {2, 25600, 1}}, 2},
      // Every record slower than the default: the fix-up raises CEDE (no
      // 10 us cap since the 2021 change).
      {"all-slow", {{1, 12800, 1}, {2, 51200, 0}}, 25},
      // A zero placeholder first (skipped), then 513 ticks (rounds up to 2 us).
      {"zero-then-513", {{1, 0, 1}, {2, 513, 1}, {3, 102400, 1}}, 2},
  };
}

std::vector<GateConfig> gate_configs() {
  std::vector<GateConfig> out;
  for (Platform processor : kAllPlatforms) {
    for (Platform compat : kAllPlatforms) {
      if (compat > processor) continue;
      for (bool shared : {false, true}) {
        for (bool expose : {false, true}) out.push_back({Lpar{processor, compat, shared}, expose});
      }
    }
  }
  return out;
}

std::string describe(const GateConfig& c) {
  return std::string(platform_name(c.lpar.processor)) + " in " +
         std::string(platform_name(c.lpar.compat)) + " mode, " +
         (c.lpar.shared_processor ? "shared" : "dedicated") + ", expose " +
         (c.expose_xcede ? "on" : "off");
}

verify::CheckResult gate_verdict(std::string_view subject, const verify::RunOptions& options,
                                 size_t cases, const std::vector<std::string>& findings) {
  verify::CheckResult r;
  if (findings.empty()) {
    r.outcome = verify::Outcome::pass;
    r.detail = std::to_string(cases) +
               " cases (every processor x mode x shared/dedicated x expose x 3 probes) agree "
               "with the spec's table";
    return r;
  }
  r.outcome = verify::Outcome::fail;
  r.detail = std::to_string(findings.size()) + " of " + std::to_string(cases) +
             " cases disagree with the spec's table";
  for (size_t i = 0; i < findings.size() && i < 4; ++i) {
    r.counterexample += (i ? "; " : "") + findings[i];
  }
  if (findings.size() > 4) r.counterexample += "; ...";
  r.violated = {"STATES-6"};
  r.replay = replay_command("exhaustive", "states_fixup_gate", subject, options);
  return r;
}

}  // namespace idlespec::props
