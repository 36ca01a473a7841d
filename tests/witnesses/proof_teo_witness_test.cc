// Every TEO proof can fail: run against a subject with one hook of
// impl/teo.h changed (tests/witnesses/teo_witnesses.h), it reports
// `violated` naming its clause, and the other proofs still hold there
// (each witness breaks what it is meant to, not everything). The repair
// of spec/teo.md's TEO-1 finding makes teo_chosen_enabled hold.
#include <gtest/gtest.h>

#include <string>

#include "proofs/proof_test_support.h"
#include "proofs/teo_proofs.h"
#include "tests/witnesses/teo_witnesses.h"

namespace idlespec::proofs {
namespace {

using testing::expect_held;
using testing::expect_violated;
using testing::test_options;
namespace w = teo::witness;

bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TEST(TeoProofWitnesses, LatencyLimitCatchesNoConstraint) {
  const ProofResult r = prove_teo_latency_limit(teo_subject_of<w::NoConstraint>(), test_options());
  expect_violated(r, "TEO-2");
  EXPECT_TRUE(has(r.counterexample, "exit latency exceeds the PM QoS limit")) << r.counterexample;
  // Without the clamp the limit is the only thing lost.
  expect_held(prove_teo_polling_tick(teo_subject_of<w::NoConstraint>(), test_options()));
}

TEST(TeoProofWitnesses, PollingTickCatchesPollingStopsTick) {
  const ProofResult r =
      prove_teo_polling_tick(teo_subject_of<w::PollingStopsTick>(), test_options());
  expect_violated(r, "TEO-3");
  EXPECT_TRUE(has(r.counterexample, "POLLING")) << r.counterexample;
  EXPECT_TRUE(has(r.counterexample, "tick running")) << r.counterexample;
  EXPECT_TRUE(has(r.counterexample, "stop the tick")) << r.counterexample;
  expect_held(prove_teo_latency_limit(teo_subject_of<w::PollingStopsTick>(), test_options()));
}

TEST(TeoProofWitnesses, TickKeptFitsCatchesNoTickCorrection) {
  const ProofResult r =
      prove_teo_tick_kept_fits(teo_subject_of<w::NoTickCorrection>(), test_options());
  expect_violated(r, "TEO-4");
  EXPECT_TRUE(has(r.counterexample, "keep the tick")) << r.counterexample;
  expect_held(prove_teo_polling_tick(teo_subject_of<w::NoTickCorrection>(), test_options()));
}

TEST(TeoProofWitnesses, StoppedFarTimerCatchesNoStoppedTickPromotion) {
  const ProofResult r =
      prove_teo_stopped_far_timer(teo_subject_of<w::NoStoppedTickPromotion>(), test_options());
  expect_violated(r, "TEO-5");
  EXPECT_TRUE(has(r.counterexample, "tick stopped")) << r.counterexample;
  expect_held(prove_teo_latency_limit(teo_subject_of<w::NoStoppedTickPromotion>(), test_options()));
}

TEST(TeoProofWitnesses, MetricsBoundedCatchesNoDecay) {
  const ProofResult r = prove_teo_metrics_bounded(teo_subject_of<w::NoDecay>(), test_options());
  expect_violated(r, "TEO-6");
  EXPECT_TRUE(has(r.counterexample, "exceed")) << r.counterexample;
}

// The finding (TEO-1 broken by every subject) and its repair.
TEST(TeoProofWitnesses, ChosenEnabledFindsTheFindingAndPassesTheRepair) {
  for (const TeoSubject& s : teo_subjects()) {
    SCOPED_TRACE(s.name);
    const ProofResult r = prove_teo_chosen_enabled(s, test_options());
    expect_violated(r, "TEO-1");
    EXPECT_TRUE(has(r.counterexample, "the chosen state is disabled")) << r.counterexample;
    EXPECT_TRUE(has(r.counterexample, "chosen: state 0")) << r.counterexample;
  }
  expect_held(prove_teo_chosen_enabled(teo_subject_of<w::ConstraintFromFirst>(), test_options()));
  // The repair keeps the limit (the first enabled state is TEO-2's exception).
  expect_held(prove_teo_latency_limit(teo_subject_of<w::ConstraintFromFirst>(), test_options()));
}

}  // namespace
}  // namespace idlespec::proofs
