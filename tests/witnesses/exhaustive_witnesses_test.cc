// Every exhaustive check of properties/ fails against a subject with the bug
// its clauses rule out, naming the clause. The header sweep runs in its
// sampled mode here, in every build: a witness needs one violation, not all.
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <iostream>
#include <string>
#include <vector>

#include "properties/catalog.h"
#include "tests/witnesses/property_witnesses.h"
#include "tests/witnesses/xcede_witnesses.h"

namespace idlespec::witness {
namespace {

using verify::CheckKind;

struct ExhaustiveWitness {
  std::string check;
  std::string subject;
  std::string clause;
  std::function<verify::CheckResult()> run;
};

template <class S>
ExhaustiveWitness against(std::string check, std::string clause) {
  return {check, std::string(S::name), std::move(clause), [check] {
            return props::run_check<S>(CheckKind::exhaustive, check, verify::RunOptions{}, false);
          }};
}

std::vector<ExhaustiveWitness> witnesses() {
  return {
      against<UnboundedDecoderSubject>("xcede_header_sweep", "XCEDE-1"),
      against<SilentTruncationSubject>("xcede_header_sweep", "XCEDE-1"),
      against<LenientRecordSizeSubject>("xcede_header_sweep", "XCEDE-2"),
      against<WrappingShortPayloadSubject>("xcede_header_sweep", "XCEDE-3"),
      against<CapacityPlusOneSubject>("xcede_header_sweep", "XCEDE-4"),
      against<Power9OrLaterSubject>("states_fixup_gate", "STATES-6"),
  };
}

// How ctest and gtest name a witness: "check vs subject".
void PrintTo(const ExhaustiveWitness& w, std::ostream* os) {
  *os << w.check << " vs " << w.subject;
}

class ExhaustiveWitnessTest : public ::testing::TestWithParam<ExhaustiveWitness> {};

TEST_P(ExhaustiveWitnessTest, SweepFails) {
  const ExhaustiveWitness& w = GetParam();
  const verify::CheckResult r = w.run();
  std::cout << r.detail << "\n  counterexample: " << r.counterexample << "\n";
  ASSERT_EQ(r.outcome, verify::Outcome::fail) << w.check << " vs " << w.subject << ": " << r.detail;
  EXPECT_TRUE(r.violated.count(w.clause)) << r.detail;
  EXPECT_FALSE(r.counterexample.empty());
  EXPECT_EQ(r.replay,
            "idlespec check exhaustive " + w.check + " --subject " + w.subject + " --seed 1");
}

INSTANTIATE_TEST_SUITE_P(Witnesses, ExhaustiveWitnessTest, ::testing::ValuesIn(witnesses()),
                         [](const ::testing::TestParamInfo<ExhaustiveWitness>& info) {
                           std::string name = info.param.check + "_" + info.param.subject;
                           for (char& c : name) {
                             if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                           }
                           return name;
                         });

TEST(ExhaustiveWitnesses, EveryExhaustiveCheckHasOne) {
  const auto all = witnesses();
  for (const props::CatalogEntry& e : props::catalog()) {
    if (e.kind != CheckKind::exhaustive) continue;
    EXPECT_TRUE(std::any_of(all.begin(), all.end(),
                            [&](const ExhaustiveWitness& w) { return w.check == e.name; }))
        << e.name << " has no witness";
  }
}

// The upstream-style overrun: payload_size 65535 in a short buffer. The
// counterexample is the first violating buffer of the sweep.
TEST(ExhaustiveWitnesses, UnboundedDecoderCounterexampleShowsTheOverrun) {
  const verify::CheckResult r = props::run_check<UnboundedDecoderSubject>(
      CheckKind::exhaustive, "xcede_header_sweep", verify::RunOptions{}, false);
  ASSERT_EQ(r.outcome, verify::Outcome::fail);
  EXPECT_EQ(r.violated, std::set<std::string>{"XCEDE-1"});
  EXPECT_NE(r.counterexample.find("read at offset"), std::string::npos) << r.counterexample;
}

// The gate witness is wrong exactly on dedicated POWER9 (in POWER9 and POWER8
// mode) and on POWER11 below POWER10 mode: 4 configurations x expose on/off x
// 3 probes.
TEST(ExhaustiveWitnesses, Power9OrLaterIsWrongWhereTheSpecSaysNo) {
  const verify::CheckResult r = props::run_check<Power9OrLaterSubject>(
      CheckKind::exhaustive, "states_fixup_gate", verify::RunOptions{});
  ASSERT_EQ(r.outcome, verify::Outcome::fail);
  EXPECT_EQ(r.detail.rfind("24 of 120 cases", 0), 0u) << r.detail;
  EXPECT_NE(r.counterexample.find("power9 in power8 mode, dedicated"), std::string::npos)
      << r.counterexample;
}

}  // namespace
}  // namespace idlespec::witness
