// Every proof can fail: run against a subject with one deliberate bug, it
// reports `violated` with a counterexample that breaks its clause.
#include <gtest/gtest.h>

#include <regex>
#include <string>

#include "proofs/proof_test_support.h"
#include "proofs/states_proofs.h"
#include "proofs/xcede_proofs.h"
#include "tests/witnesses/proof_witnesses.h"
#include "tests/witnesses/xcede_witnesses.h"

namespace idlespec::proofs {
namespace {

using testing::expect_violated;
using testing::test_options;
using witness::BrokenTable;
using witness::TableBug;

template <TableBug Bug>
TableFn broken_table() {
  return &BrokenTable<Bug>::template build<Z3Domain>;
}

// ---- xcede ------------------------------------------------------------------

TEST(ProofWitnesses, NoOverrunCatchesUnboundedDecoder) {
  const ProofResult r = prove_xcede_no_overrun<witness::UnboundedDecoderSubject>(test_options());
  expect_violated(r, "XCEDE-1");
  // The payload in hex, and a read at an offset at or past the length.
  EXPECT_TRUE(std::regex_search(r.counterexample, std::regex("\npayload [0-9a-f]{2,}")))
      << r.counterexample;
  std::smatch m;
  ASSERT_TRUE(std::regex_search(r.counterexample, m,
                                std::regex("read of offset ([0-9]+) >= length ([0-9]+)")))
      << r.counterexample;
  EXPECT_GE(std::stoull(m[1]), std::stoull(m[2]));
  // The preferred counterexample: a well-formed header, overrun by the records.
  EXPECT_GE(std::stoull(m[2]), xcede::kHeaderSize);
}

TEST(ProofWitnesses, RecordSizeGateCatchesMissingCheck) {
  const ProofResult r =
      prove_xcede_record_size_gate<witness::SkipsRecordSizeCheckSubject>(test_options());
  expect_violated(r, "XCEDE-2");
  EXPECT_NE(r.counterexample.find("record-size byte other than 9 is accepted"), std::string::npos);
}

TEST(ProofWitnesses, ShortPayloadCatchesWrappedCount) {
  const ProofResult r =
      prove_xcede_short_payload<witness::WrapsShortPayloadSubject>(test_options());
  expect_violated(r, "XCEDE-3");
  EXPECT_TRUE(std::regex_search(r.counterexample, std::regex("payload_size 0x[01]\\b")))
      << r.counterexample;
}

TEST(ProofWitnesses, CapacityBoundCatchesDecoderIgnoringCapacity) {
  const ProofResult r = prove_xcede_capacity_bound<witness::IgnoresCapacitySubject>(test_options());
  expect_violated(r, "XCEDE-4");
}

TEST(ProofWitnesses, RoundtripCatchesNormalisedWake) {
  const ProofResult r = prove_xcede_roundtrip<witness::NormalisesWakeSubject>(test_options());
  expect_violated(r, "XCEDE-5");
  EXPECT_NE(r.counterexample.find("wake-on-irq is not payload byte"), std::string::npos)
      << r.counterexample;
}

// The xcede proofs hold for subjects whose bug concerns another clause.
TEST(ProofWitnesses, XcedeWitnessesAreSpecific) {
  const auto o = test_options();
  EXPECT_EQ(prove_xcede_no_overrun<witness::NormalisesWakeSubject>(o).verdict, Verdict::held);
  EXPECT_EQ(prove_xcede_capacity_bound<witness::NormalisesWakeSubject>(o).verdict, Verdict::held);
  EXPECT_EQ(prove_xcede_no_overrun<witness::IgnoresCapacitySubject>(o).verdict, Verdict::held);
}

// ---- states -----------------------------------------------------------------

TEST(ProofWitnesses, MonotonicCatchesOutOfOrderRecords) {
  const ProofResult r =
      prove_states_monotonic(broken_table<TableBug::keeps_out_of_order>(), test_options());
  expect_violated(r, "STATES-1");
  EXPECT_NE(r.detail.find("XCEDE exposed"), std::string::npos) << r.detail;
}

TEST(ProofWitnesses, ResidencyCoversLatencyCatchesMinMinusOne) {
  const ProofResult r =
      prove_states_residency_covers_latency<witness::MinMinusOneFixup>(test_options());
  expect_violated(r, "STATES-3");
  EXPECT_NE(r.counterexample.find("exit latency 4294967295 us"), std::string::npos)
      << r.counterexample;
}

TEST(ProofWitnesses, NoWrapCatchesMinMinusOne) {
  const ProofResult r = prove_states_no_wrap<witness::MinMinusOneFixup>(test_options());
  expect_violated(r, "STATES-4");
  EXPECT_NE(r.detail.find("CEDE"), std::string::npos) << r.detail;
}

TEST(ProofWitnesses, NoWrapCatchesResidencyInU32) {
  const ProofResult r =
      prove_states_no_wrap(broken_table<TableBug::residency_in_u32>(), test_options());
  expect_violated(r, "STATES-4");
  EXPECT_NE(r.detail.find("target residency"), std::string::npos) << r.detail;
}

TEST(ProofWitnesses, LatencyConversionCatchesTruncation) {
  const ProofResult r =
      prove_states_latency_conversion(&witness::truncating_latency_us<Z3Domain>, test_options());
  expect_violated(r, "STATES-4");
  EXPECT_NE(r.detail.find("below"), std::string::npos) << r.detail;
}

TEST(ProofWitnesses, LatencyConversionCatchesMultiplyIn64Bits) {
  const ProofResult r =
      prove_states_latency_conversion(&witness::multiply64_latency_us<Z3Domain>, test_options());
  expect_violated(r, "STATES-4");
}

TEST(ProofWitnesses, StateMaxCatchesMissingRoomCheck) {
  const ProofResult r =
      prove_states_state_max(broken_table<TableBug::no_room_check>(), test_options());
  expect_violated(r, "STATES-5");
}

TEST(ProofWitnesses, XcedeExposureCatchesUnresponsiveState) {
  const ProofResult r =
      prove_states_xcede_exposure(broken_table<TableBug::exposes_unresponsive>(), test_options());
  expect_violated(r, "STATES-7");
  EXPECT_NE(r.detail.find("does not wake on interrupts"), std::string::npos) << r.detail;
}

TEST(ProofWitnesses, XcedeExposureCatchesTimerStopOnHintZero) {
  const ProofResult r =
      prove_states_xcede_exposure(broken_table<TableBug::timer_stop_for_all>(), test_options());
  expect_violated(r, "STATES-7");
  EXPECT_NE(r.detail.find("TIMER_STOP"), std::string::npos) << r.detail;
}

// A broken table builder that is a near-copy of the reference is the
// reference where its bug does not matter: the copy is faithful.
TEST(ProofWitnesses, BrokenTableIsOtherwiseFaithful) {
  const auto o = test_options();
  EXPECT_EQ(prove_states_xcede_exposure(broken_table<TableBug::no_room_check>(), o).verdict,
            Verdict::held);
  EXPECT_EQ(prove_states_state_max(broken_table<TableBug::exposes_unresponsive>(), o).verdict,
            Verdict::held);
}

}  // namespace
}  // namespace idlespec::proofs
