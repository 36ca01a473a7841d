// Every states proof holds for the reference table builder and conversion.
#include "proofs/states_proofs.h"

#include "proofs/proof_test_support.h"

namespace idlespec::proofs {
namespace {

using testing::expect_held;
using testing::test_options;

TEST(StatesProofs, MonotonicHolds) { expect_held(prove_states_monotonic(test_options())); }

TEST(StatesProofs, ResidencyCoversLatencyHolds) {
  expect_held(prove_states_residency_covers_latency(test_options()));
}

TEST(StatesProofs, NoWrapHolds) {
  const ProofResult r = prove_states_no_wrap(test_options());
  expect_held(r);
  // 8 configurations, and 17 induction steps for CEDE in the 2 with the
  // fix-up gated in.
  EXPECT_EQ(r.queries.size(), 8u + 2u * (kProofRecords + 1));
}

TEST(StatesProofs, LatencyConversionHolds) {
  const ProofResult r = prove_states_latency_conversion(test_options());
  expect_held(r);
  EXPECT_EQ(r.queries.size(), conversion_tb_hz().size());
}

TEST(StatesProofs, StateMaxHolds) { expect_held(prove_states_state_max(test_options())); }

TEST(StatesProofs, XcedeExposureHolds) { expect_held(prove_states_xcede_exposure(test_options())); }

// Every build configuration is asked, one query each.
TEST(StatesProofs, EveryConfigurationIsCovered) {
  const auto configs = all_build_configs();
  EXPECT_EQ(configs.size(), 8u);
  const ProofResult r = prove_states_state_max(test_options());
  ASSERT_EQ(r.queries.size(), configs.size());
  for (size_t i = 0; i < configs.size(); ++i) {
    EXPECT_EQ(r.queries[i].label.rfind(config_label(configs[i]), 0), 0u) << r.queries[i].label;
  }
}

}  // namespace
}  // namespace idlespec::proofs
