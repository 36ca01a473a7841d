// Every property of properties/ fails against a subject with the bug its
// clause rules out: the properties can fail, and say where.
#include "tests/witnesses/property_witnesses.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <functional>
#include <iostream>
#include <string>
#include <vector>

#include "properties/catalog.h"
#include "tests/witnesses/xcede_witnesses.h"

namespace idlespec::witness {
namespace {

using verify::CheckKind;

struct PropertyWitness {
  std::string check;
  std::string subject;
  std::string clause;  // the clause the verdict must name (or leave implied)
  std::function<verify::CheckResult(const verify::RunOptions&)> run;
};

template <class S>
PropertyWitness against(std::string check, std::string clause) {
  return {check, std::string(S::name), std::move(clause), [check](const verify::RunOptions& o) {
            return props::run_check<S>(CheckKind::property, check, o);
          }};
}

std::vector<PropertyWitness> witnesses() {
  return {
      against<UnboundedDecoderSubject>("xcede_never_overruns", "XCEDE-1"),
      against<LenientRecordSizeSubject>("xcede_rejects_bad_record_size", "XCEDE-2"),
      against<WrappingShortPayloadSubject>("xcede_short_payload_warns", "XCEDE-3"),
      against<CapacityPlusOneSubject>("xcede_capacity_bound", "XCEDE-4"),
      against<BooleanWakeSubject>("xcede_roundtrip", "XCEDE-5"),
      against<RetryEverythingSubject>("xcede_query_failure", "XCEDE-6"),
      against<UpstreamQuerySubject>("xcede_query_retries", "XCEDE-7"),
      against<HostOrderSizeSubject>("xcede_reads_big_endian", "XCEDE-8"),
      against<KeepsOutOfOrderSubject>("states_monotonic", "STATES-1"),
      against<MinMinusOneSubject>("states_residency_covers_latency", "STATES-3"),
      against<MinMinusOneSubject>("states_no_wrap", "STATES-4"),
      against<NoStateMaxSubject>("states_state_max", "STATES-5"),
      against<Power9OrLaterSubject>("states_fixup_gate", "STATES-6"),
      against<ExposesXcede1Subject>("states_xcede_exposure", "STATES-7"),
      against<IgnoresWakeSubject>("states_xcede_exposure", "STATES-7"),
  };
}

// How ctest and gtest name a witness: "check vs subject".
void PrintTo(const PropertyWitness& w, std::ostream* os) { *os << w.check << " vs " << w.subject; }

class PropertyWitnessTest : public ::testing::TestWithParam<PropertyWitness> {};

TEST_P(PropertyWitnessTest, PropertyFails) {
  const PropertyWitness& w = GetParam();
  const verify::CheckResult r = w.run(verify::RunOptions::unhurried());
  std::cout << r.detail << "\n  counterexample: " << r.counterexample << "\n";
  ASSERT_EQ(r.outcome, verify::Outcome::fail) << w.check << " vs " << w.subject << ": " << r.detail;
  EXPECT_FALSE(r.counterexample.empty());
  EXPECT_EQ(r.replay,
            "idlespec check property " + w.check + " --subject " + w.subject + " --seed 1");
  EXPECT_TRUE(r.violated.empty() || r.violated.count(w.clause)) << r.detail;
}

INSTANTIATE_TEST_SUITE_P(Witnesses, PropertyWitnessTest, ::testing::ValuesIn(witnesses()),
                         [](const ::testing::TestParamInfo<PropertyWitness>& info) {
                           std::string name = info.param.check + "_" + info.param.subject;
                           for (char& c : name) {
                             if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                           }
                           return name;
                         });

TEST(PropertyWitnesses, EveryPropertyHasOne) {
  const auto all = witnesses();
  for (const props::CatalogEntry& e : props::catalog()) {
    if (e.kind != CheckKind::property) continue;
    EXPECT_TRUE(std::any_of(all.begin(), all.end(),
                            [&](const PropertyWitness& w) { return w.check == e.name; }))
        << e.name << " has no witness";
  }
}

// states_monotonic discharges two clauses; its verdict names the one that broke.
TEST(PropertyWitnesses, MonotonicNamesTheClauseThatBroke) {
  const verify::CheckResult r =
      props::run_check<KeepsOutOfOrderSubject>(CheckKind::property, "states_monotonic", {});
  ASSERT_EQ(r.outcome, verify::Outcome::fail);
  ASSERT_EQ(r.violated.size(), 1u) << r.detail;
  EXPECT_TRUE(r.violated.count("STATES-1") || r.violated.count("STATES-2"));
}

}  // namespace
}  // namespace idlespec::witness
