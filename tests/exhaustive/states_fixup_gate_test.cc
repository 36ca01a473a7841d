// states_fixup_gate (exhaustive) against the reference builder, and the
// sweep's plan: every LPAR configuration, probes whose fix-up value is not 10.
#include <gtest/gtest.h>

#include "impl/subjects.h"
#include "properties/states_fixup_gate_sweep.h"

namespace idlespec::props {
namespace {

TEST(StatesFixupGateSweep, ReferenceHolds) {
  const verify::CheckResult r = run_states_fixup_gate_sweep<ReferenceSubject>({});
  EXPECT_EQ(r.outcome, verify::Outcome::pass) << r.detail << "\n" << r.counterexample;
  EXPECT_EQ(r.detail.rfind("120 cases", 0), 0u) << r.detail;
}

TEST(StatesFixupGateSweep, EveryConfigurationOnce) {
  // (1 + 2 + 3 + 4) processor/mode pairs x shared/dedicated x expose on/off.
  EXPECT_EQ(gate_configs().size(), 40u);
}

TEST(StatesFixupGateSweep, ProbesAreNotTheDefault) {
  for (const GateProbe& p : gate_probes()) {
    EXPECT_NE(p.fixed_up_exit_us, 10u) << p.name;
    // The expected value is written by hand; the model agrees with it.
    EXPECT_EQ(states::oracle::cede0_latency_us(p.records, 512000000),
              std::optional<uint64_t>(p.fixed_up_exit_us))
        << p.name;
  }
}

}  // namespace
}  // namespace idlespec::props
