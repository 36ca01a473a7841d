// Exhaustive check states_fixup_gate (STATES-6): every processor x
// compatibility mode (<= processor) x shared/dedicated x expose on/off, with
// probing payloads whose smallest non-zero latency is not 10 us, against the
// table in oracle/states.h (kSpecFixupGate, spelled from
// spec/states.md, not computed by impl/platform.h):
//   POWER10, any mode             fixed up
//   POWER11 in POWER10/11 mode    fixed up
//   POWER11 in POWER9 (or 8) mode not fixed up
//   POWER9 and POWER8             never
//   shared LPAR                   never
// Fixed up means: CEDE's exit latency is the probe's smallest non-zero
// latency and its target residency ten times that; otherwise 10/100 us.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "impl/platform.h"
#include "impl/states.h"
#include "impl/xcede.h"
#include "oracle/states.h"
#include "verify/registry.h"

namespace idlespec::props {

// A payload to probe the gate with, and what CEDE becomes when it is fixed
// up (at 512 MHz, 512 ticks = 1 us).
struct GateProbe {
  std::string_view name;
  std::vector<xcede::Record> records;
  uint32_t fixed_up_exit_us;
};

std::vector<GateProbe> gate_probes();

// One LPAR configuration of the sweep.
struct GateConfig {
  Lpar lpar;
  bool expose_xcede = false;
};

std::vector<GateConfig> gate_configs();
std::string describe(const GateConfig& c);

// Turns the findings of a sweep into a verdict.
verify::CheckResult gate_verdict(std::string_view subject, const verify::RunOptions& options,
                                 size_t cases, const std::vector<std::string>& findings);

template <class S>
verify::CheckResult run_states_fixup_gate_sweep(const verify::RunOptions& options) {
  std::vector<std::string> findings;
  size_t cases = 0;
  for (const GateConfig& c : gate_configs()) {
    if (!states::oracle::spec_fixup_row(c.lpar)) {
      findings.push_back("the spec table has no row for " + describe(c));
      continue;
    }
    for (const GateProbe& probe : gate_probes()) {
      ++cases;
      const states::Options o{c.lpar, states::kDefaultTbHz, c.expose_xcede};
      const states::Table t = states::build_using<typename S::Builder>(probe.records, o);
      if (const auto v = states::oracle::judge_fixup(o, probe.records, t)) {
        findings.push_back(describe(c) + ", probe " + std::string(probe.name) + ": " + v->message);
      }
    }
  }
  return gate_verdict(S::name, options, cases, findings);
}

}  // namespace idlespec::props
