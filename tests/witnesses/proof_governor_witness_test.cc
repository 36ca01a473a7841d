// Every governor proof with a witness can fail: run against a subject with
// one deliberate bug (tests/witnesses/governor_witnesses.h), it reports
// `violated` with a counterexample that breaks its clause, and the
// counterexample, replayed on the concrete walk, is what the clause judge
// (oracle/governor.h) rejects. cvc5, when installed, finds the same.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>

#include "oracle/governor.h"
#include "proofs/busy_delay_test_support.h"
#include "proofs/governor_proofs.h"
#include "proofs/proof_test_support.h"
#include "tests/witnesses/governor_witnesses.h"

namespace idlespec::proofs {
namespace {

using testing::expect_violated;
using testing::test_options;
namespace w = governor::witness;

void crosscheck_last(const ProofResult& r, const std::string& tag) {
  if (!testing::have_cvc5()) return;
  ProofResult one = r;
  one.queries = {r.queries.back()};
  EXPECT_EQ(testing::cvc5_agrees(one, tag, 60), 1u);
}

std::set<std::string> judge(const GovWalkCase& k, const GovernorSubject& s) {
  const governor::ConcreteChoice again = s.concrete_walk(k.states, k.prediction, k.inputs);
  EXPECT_EQ(again.idx.v, k.choice.idx.v);
  EXPECT_EQ(again.path.v, k.choice.path.v);
  EXPECT_EQ(again.stop_tick, k.choice.stop_tick);
  return idlespec::oracle::clauses_of(governor::oracle::judge_selection(k.states, k.inputs, again));
}

// ---- GOV-1: IgnoresDisabled ---------------------------------------------------

TEST(GovernorProofWitnesses, ChosenEnabledCatchesIgnoresDisabled) {
  const GovernorSubject s = governor_subject_of<w::IgnoresDisabled>();
  GovWalkCase k;
  GovWalkScope scope;
  scope.counterexample = &k;
  const ProofResult r = prove_governor_chosen_enabled(s, test_options(), scope);
  expect_violated(r, "GOV-1");
  EXPECT_NE(r.counterexample.find("the chosen state is disabled"), std::string::npos);
  // The chosen state is disabled, some state is enabled, the limit is not 0
  // and the table has more than one state: no GOV-1 exception.
  ASSERT_GE(k.states.size(), 2u);
  ASSERT_LT(k.choice.idx.v, k.states.size());
  EXPECT_TRUE(k.states[k.choice.idx.v].disabled);
  EXPECT_LT(governor::oracle::first_enabled(k.states), k.states.size());
  EXPECT_NE(k.inputs.latency_req_ns.v, 0u);
  EXPECT_NE(r.counterexample.find("disabled"), std::string::npos) << r.counterexample;
  EXPECT_TRUE(judge(k, s).count("GOV-1"));
  crosscheck_last(r, "gov_ignores_disabled");
  // GOV-7 names the same failure on any table.
  EXPECT_TRUE(prove_governor_any_table(s, test_options()).violated.count("GOV-1"));
}

// ---- GOV-2: LimitCheckAfterResidency -------------------------------------------

TEST(GovernorProofWitnesses, LatencyLimitCatchesLimitCheckAfterResidency) {
  const GovernorSubject s = governor_subject_of<w::LimitCheckAfterResidency>();
  GovWalkCase k;
  GovWalkScope scope;
  scope.counterexample = &k;
  const ProofResult r = prove_governor_latency_limit(s, test_options(), scope);
  expect_violated(r, "GOV-2");
  EXPECT_NE(r.counterexample.find("tick_stopped true"), std::string::npos) << r.counterexample;
  EXPECT_NE(r.counterexample.find("path tick-stopped-promotion"), std::string::npos)
      << r.counterexample;
  EXPECT_TRUE(k.inputs.tick_stopped);
  ASSERT_LT(k.choice.idx.v, k.states.size());
  EXPECT_GT(k.states[k.choice.idx.v].exit_latency_ns.v, k.inputs.latency_req_ns.v);
  EXPECT_NE(k.choice.idx.v, governor::oracle::first_enabled(k.states));
  EXPECT_TRUE(governor::oracle::table_is_ordered(k.states));
  EXPECT_TRUE(judge(k, s).count("GOV-2"));
  crosscheck_last(r, "gov_limit_after_residency");

  // Only with the tick stopped: with it running the witness holds GOV-2.
  GovWalkScope running;
  running.tick_stopped = false;
  testing::expect_held(prove_governor_latency_limit(s, test_options(), running));
}

// ---- GOV-9: StoppedSkipsTimer ----------------------------------------------------

// Mainline without 80606f4eb8d7: a typical interval of at most 15 us leaves
// the timer unconsulted; with the tick stopped the walk takes a state whose
// residency the timer cuts short.
TEST(GovernorProofWitnesses, TimerFitsCatchesStoppedSkipsTimer) {
  const GovernorSubject s = governor_subject_of<w::StoppedSkipsTimer>();
  GovWalkCase k;
  GovWalkScope scope;
  scope.counterexample = &k;
  const ProofResult r = prove_governor_timer_fits(s, test_options(), scope);
  expect_violated(r, "GOV-9");
  EXPECT_NE(r.counterexample.find("exceeds the time to the next timer"), std::string::npos)
      << r.counterexample;
  EXPECT_EQ(k.prediction.next_timer_ns.v, governor::kKtimeMax) << r.counterexample;
  ASSERT_LT(k.choice.idx.v, k.states.size());
  EXPECT_GT(k.states[k.choice.idx.v].target_residency_ns.v, k.inputs.sleep_length_ns.v + 500);
  EXPECT_TRUE(judge(k, s).count("GOV-9"));
  crosscheck_last(r, "gov_stopped_skips_timer");
}

// ---- GOV-5: Prediction32Bit ------------------------------------------------------

// The 32-bit product wraps at 524288 ns at the factor 8192, well inside the
// ranges: GOV-5 violated (GOV-8 too, as for every subject: the witness keeps
// menu_update).
TEST(GovernorProofWitnesses, NoOverflowCatchesPrediction32Bit) {
  const GovernorSubject s = governor_subject_of<w::Prediction32Bit>();
  const ProofResult r = prove_governor_no_overflow(s, test_options());
  expect_violated(r, "GOV-5");
  EXPECT_EQ(r.violated, (std::set<std::string>{"GOV-5", "GOV-8"})) << r.detail;
  EXPECT_NE(r.detail.find("(witness-prediction-32-bit, timer estimate): GOV-5: the timer product "
                          "(sleep length * correction factor) wraps"),
            std::string::npos)
      << r.detail;
  EXPECT_NE(r.counterexample.find("GOV-5: the timer product (sleep length * correction factor) "
                                  "wraps"),
            std::string::npos)
      << r.counterexample;
  // The smallest wrapping sleep length: 2^32 / 8192.
  EXPECT_NE(r.detail.find("timer estimate first wraps at sleep length 524288 ns, the 64-bit "
                          "product at 524288 ns (factor 8192)"),
            std::string::npos)
      << r.detail;
  // The timer query itself, re-checked.
  const auto timer = std::find_if(r.queries.begin(), r.queries.end(), [](const Query& q) {
    return q.label.find("timer estimate") != std::string::npos;
  });
  ASSERT_NE(timer, r.queries.end());
  EXPECT_EQ(timer->verdict, Verdict::violated);
  if (testing::have_cvc5()) {
    ProofResult one = r;
    one.queries = {*timer};
    EXPECT_EQ(testing::cvc5_agrees(one, "gov_prediction_32_bit", 60), 1u);
  }
  // The reference's timer estimate holds in range.
  const ProofResult ref =
      prove_governor_no_overflow(*governor_subject("reference"), test_options());
  const auto ref_timer = std::find_if(ref.queries.begin(), ref.queries.end(), [](const Query& q) {
    return q.label.find("timer estimate") != std::string::npos;
  });
  ASSERT_NE(ref_timer, ref.queries.end());
  EXPECT_EQ(ref_timer->verdict, Verdict::held);
  EXPECT_EQ(ref.counterexample.find("the timer product"), std::string::npos) << ref.counterexample;
}

// ---- GOV-8: the repair -----------------------------------------------------------

// Mainline stores ktime_to_us(KTIME_MAX) truncated after a polling timeout
// with no timer consulted; the repair (UINT_MAX there) holds GOV-8, and
// GOV-5 with it.
TEST(GovernorProofWitnesses, NoOverflowPassesTheGov8Repair) {
  const ProofResult m = prove_governor_no_overflow(*governor_subject("mainline"), test_options());
  expect_violated(m, "GOV-8");
  EXPECT_EQ(m.violated, (std::set<std::string>{"GOV-8"})) << m.detail;
  const ProofResult r =
      prove_governor_no_overflow(governor_subject_of<w::MarkUnknownPollTimeout>(), test_options());
  testing::expect_held(r);
  EXPECT_TRUE(r.violated.empty()) << r.detail;
  EXPECT_EQ(r.counterexample.find("GOV-8"), std::string::npos) << r.counterexample;
}

// The walk witnesses do not change the predictor, and the 32-bit product
// does not change the walk.
TEST(GovernorProofWitnesses, WitnessesAreSpecific) {
  const auto o = test_options();
  EXPECT_EQ(
      prove_governor_chosen_enabled(governor_subject_of<w::LimitCheckAfterResidency>(), o).verdict,
      Verdict::held);
  EXPECT_EQ(prove_governor_latency_limit(governor_subject_of<w::Prediction32Bit>(), o).verdict,
            Verdict::held);
  EXPECT_EQ(prove_governor_tick_polling(governor_subject_of<w::IgnoresDisabled>(), o).verdict,
            Verdict::held);
}

}  // namespace
}  // namespace idlespec::proofs
