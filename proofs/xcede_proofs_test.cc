// Every xcede proof holds for the reference decoder.
#include "proofs/xcede_proofs.h"

#include "proofs/proof_test_support.h"

namespace idlespec::proofs {
namespace {

using testing::expect_held;
using testing::test_options;

TEST(XcedeProofs, NoOverrunHolds) { expect_held(prove_xcede_no_overrun(test_options())); }

TEST(XcedeProofs, RecordSizeGateHolds) {
  expect_held(prove_xcede_record_size_gate(test_options()));
}

TEST(XcedeProofs, ShortPayloadHolds) { expect_held(prove_xcede_short_payload(test_options())); }

TEST(XcedeProofs, CapacityBoundHolds) { expect_held(prove_xcede_capacity_bound(test_options())); }

TEST(XcedeProofs, RoundtripHolds) { expect_held(prove_xcede_roundtrip(test_options())); }

// The proofs read arrays: their scripts say so, for other solvers.
TEST(XcedeProofs, ScriptsDeclareArrayLogic) {
  const ProofResult r = prove_xcede_capacity_bound(test_options());
  ASSERT_EQ(r.queries.size(), 1u);
  EXPECT_EQ(r.queries[0].smt2.rfind("(set-logic QF_ABV)", 0), 0u)
      << r.queries[0].smt2.substr(0, 80);
  EXPECT_NE(r.queries[0].smt2.find("(Array (_ BitVec 32) (_ BitVec 8))"), std::string::npos);
}

}  // namespace
}  // namespace idlespec::proofs
