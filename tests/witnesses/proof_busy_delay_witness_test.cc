// Every busy_delay proof can fail: run against a policy with one deliberate
// bug (tests/witnesses/busy_delay_witnesses.h, and two defined here), it
// reports `violated` with a counterexample that breaks its clause and names
// the status that breaks it. cvc5, when installed, finds the same violations.
#include <gtest/gtest.h>

#include <regex>
#include <string>

#include "proofs/busy_delay_proofs.h"
#include "proofs/busy_delay_test_support.h"
#include "proofs/proof_test_support.h"
#include "tests/witnesses/busy_delay_witnesses.h"

namespace idlespec::proofs {
namespace {

using testing::expect_violated;
using testing::test_options;
namespace bd = busy_delay;
namespace w = busy_delay::witness;

// ---- Witnesses of this file -------------------------------------------------

// The reference whose busy branch sleeps usleep_range(100, 1000 us) (the
// delay time's 1 ms for busy, taken at its word) besides cond_resched()
// (BUSY-2).
struct SleepsOnBusyPolicy {
  static constexpr std::string_view subject = "witness-sleeps-on-busy";
  static constexpr std::string_view form = "usleep_range/msleep";
  template <class D>
  static bd::Step<D> step(typename D::template U<32> status, bd::Context<D>&) {
    bd::Step<D> s = bd::reference_step<D>(status, false);
    const auto busy = bd::is_busy<D>(status);
    // The change: busy sleeps like a 1 ms extended delay.
    s.primitive = D::ite(busy, D::template lit<8>(bd::kUsleepRange), s.primitive);
    s.min_us = D::ite(busy, D::template lit<64>(100), s.min_us);
    s.max_us = D::ite(busy, D::template lit<64>(1000), s.max_us);
    return s;
  }
};

// The reference with its own delay-time table, one entry wrong: 9903 -> 100
// ms instead of 1000 (BUSY-4).
struct WrongDelayTablePolicy {
  static constexpr std::string_view subject = "witness-wrong-delay-table";
  static constexpr std::string_view form = "usleep_range/msleep";
  template <class D>
  static bd::Step<D> step(typename D::template U<32> status, bd::Context<D>&) {
    return bd::reference_step<D>(status, false);
  }
  template <class D>
  static typename D::template U<32> delay_time(typename D::template U<32> status) {
    // The change: the 9903 row.
    return D::ite(status == D::template lit<32>(9903), D::template lit<32>(100),
                  bd::delay_time_ms<D>(status));
  }
};

static_assert(HasOwnDelayTime<WrongDelayTablePolicy>);
static_assert(!HasOwnDelayTime<bd::ReferencePolicy>);

template <class... Policies>
BusySubject subject() {
  return busy_subject_of<Policies...>();
}

void crosscheck(const ProofResult& r, const std::string& tag) {
  if (testing::have_cvc5()) {
    EXPECT_EQ(testing::cvc5_agrees(r, tag), r.queries.size());
  }
}

// ---- BUSY-1, BUSY-5: Accepts9906Policy ---------------------------------------

TEST(BusyDelayProofWitnesses, RetrySetCatchesAccepts9906) {
  const ProofResult r = prove_busy_delay_retry_set(subject<w::Accepts9906Policy>(), test_options());
  expect_violated(r, "BUSY-1");
  EXPECT_NE(r.counterexample.find("status 9906 (0x26b2)"), std::string::npos) << r.counterexample;
  EXPECT_NE(r.counterexample.find("retries on a status other than -2 and 9900..9905"),
            std::string::npos);
  EXPECT_NE(r.counterexample.find("request: retry, msleep(1000 ms)"), std::string::npos)
      << r.counterexample;
  crosscheck(r, "retry_set_9906");
}

TEST(BusyDelayProofWitnesses, OtherQuietCatchesAccepts9906) {
  const ProofResult r =
      prove_busy_delay_other_quiet(subject<w::Accepts9906Policy>(), test_options());
  expect_violated(r, "BUSY-5");
  EXPECT_NE(r.counterexample.find("status 9906 (0x26b2)"), std::string::npos) << r.counterexample;
  EXPECT_NE(r.counterexample.find("a status neither busy nor extended retries"), std::string::npos);
  EXPECT_NE(r.counterexample.find("a status neither busy nor extended requests a sleep primitive"),
            std::string::npos);
  crosscheck(r, "other_quiet_9906");
}

// ---- BUSY-2: SleepsOnBusyPolicy -----------------------------------------------

TEST(BusyDelayProofWitnesses, BusyYieldsCatchesSleepOnBusy) {
  const ProofResult r = prove_busy_delay_busy_yields(subject<SleepsOnBusyPolicy>(), test_options());
  expect_violated(r, "BUSY-2");
  EXPECT_NE(r.counterexample.find("status 4294967294 (0xfffffffe, -2)"), std::string::npos)
      << r.counterexample;
  EXPECT_NE(r.counterexample.find("retry, cond_resched(), usleep_range(100, 1000 us)"),
            std::string::npos)
      << r.counterexample;
  // Either need_resched(): the preferred counterexample has it false.
  EXPECT_NE(r.counterexample.find("need_resched false"), std::string::npos) << r.counterexample;
  crosscheck(r, "busy_yields_sleeps");
}

// ---- BUSY-3: Clamp100sPolicy, SwappedRangePolicy, FsleepMillisecondsPolicy -----

TEST(BusyDelayProofWitnesses, SleepBoundsCatchesClamp100s) {
  const ProofResult r =
      prove_busy_delay_sleep_bounds(subject<w::Clamp100sPolicy>(), test_options());
  expect_violated(r, "BUSY-3");
  // 9904 (10 s) or 9905 (100 s): above the 1 s clamp.
  std::smatch m;
  ASSERT_TRUE(
      std::regex_search(r.counterexample, m, std::regex("status (990[45]) \\(0x26b[01]\\)")))
      << r.counterexample;
  EXPECT_NE(r.counterexample.find("the request's upper end exceeds c * 1000 us"),
            std::string::npos);
  EXPECT_NE(r.counterexample.find("c = min(h, 1000) = 1000 ms"), std::string::npos)
      << r.counterexample;
  EXPECT_TRUE(std::regex_search(r.counterexample, std::regex("msleep\\((10000|100000) ms\\)")))
      << r.counterexample;
  crosscheck(r, "sleep_bounds_clamp");
}

TEST(BusyDelayProofWitnesses, SleepBoundsCatchesSwappedRange) {
  const ProofResult r =
      prove_busy_delay_sleep_bounds(subject<w::SwappedRangePolicy>(), test_options());
  expect_violated(r, "BUSY-3");
  // usleep_range is requested for 9900 (1 ms) and 9901 (10 ms) only.
  std::smatch m;
  ASSERT_TRUE(
      std::regex_search(r.counterexample, m, std::regex("status (990[01]) \\(0x26a[cd]\\)")))
      << r.counterexample;
  EXPECT_NE(r.counterexample.find("the requested range has min > max"), std::string::npos);
  EXPECT_TRUE(std::regex_search(r.counterexample,
                                std::regex("usleep_range\\((1000, 100|10000, 1000) us\\)")))
      << r.counterexample;
  crosscheck(r, "sleep_bounds_swapped");
}

TEST(BusyDelayProofWitnesses, SleepBoundsCatchesFsleepMilliseconds) {
  const ProofResult r =
      prove_busy_delay_sleep_bounds(subject<w::FsleepMillisecondsPolicy>(), test_options());
  expect_violated(r, "BUSY-3");
  EXPECT_TRUE(std::regex_search(r.counterexample, std::regex("status 990[0-5] \\(0x26")))
      << r.counterexample;
  EXPECT_NE(r.counterexample.find("the request's lower end is below c * 100 us"),
            std::string::npos);
  // fsleep(c us) with c the clamped hint in ms: 1, 10, 100 or 1000.
  EXPECT_TRUE(std::regex_search(r.counterexample, std::regex("fsleep\\((1|10|100|1000) us\\)")))
      << r.counterexample;
  crosscheck(r, "sleep_bounds_fsleep_ms");
}

// ---- BUSY-4: WrongDelayTablePolicy --------------------------------------------

TEST(BusyDelayProofWitnesses, TimeTableCatchesOneWrongEntry) {
  const ProofResult r =
      prove_busy_delay_time_table(subject<WrongDelayTablePolicy>(), test_options());
  expect_violated(r, "BUSY-4");
  EXPECT_NE(r.counterexample.find("status 9903 (0x26af)"), std::string::npos) << r.counterexample;
  EXPECT_NE(r.counterexample.find("delay time 100 ms (the policy's own), the table says 1000 ms"),
            std::string::npos)
      << r.counterexample;
  EXPECT_NE(r.detail.find("the delay time of 9903 is not 1000 ms"), std::string::npos) << r.detail;
  crosscheck(r, "time_table_wrong");
}

// ---- BUSY-7: NoResetOnGiveUpPolicy, GiveUpOn1000thPolicy ------------------------

TEST(BusyDelayProofWitnesses, EarlyCounterCatchesNoResetOnGiveUp) {
  const ProofResult r =
      prove_busy_delay_early_counter(subject<w::NoResetOnGiveUpPolicy>(), test_options());
  expect_violated(r, "BUSY-7");
  EXPECT_NE(r.counterexample.find("does not reset the count on giving up"), std::string::npos);
  EXPECT_NE(r.counterexample.find("consecutive 1000 (after the step: 1000)"), std::string::npos)
      << r.counterexample;
  EXPECT_TRUE(std::regex_search(r.counterexample, std::regex("status 990[0-5] \\(0x26")))
      << r.counterexample;
  EXPECT_NE(r.counterexample.find("request: stop, mdelay(1 ms)"), std::string::npos)
      << r.counterexample;
  crosscheck(r, "early_counter_no_reset");
}

TEST(BusyDelayProofWitnesses, EarlyCounterCatchesGiveUpOn1000th) {
  const ProofResult r =
      prove_busy_delay_early_counter(subject<w::GiveUpOn1000thPolicy>(), test_options());
  expect_violated(r, "BUSY-7");
  EXPECT_NE(r.counterexample.find("gives up before the 1001st consecutive extended status"),
            std::string::npos);
  EXPECT_NE(r.counterexample.find("consecutive 999 (after the step: 0)"), std::string::npos)
      << r.counterexample;
  EXPECT_NE(r.counterexample.find("request: stop, mdelay(1 ms)"), std::string::npos)
      << r.counterexample;
  crosscheck(r, "early_counter_1000th");
}

// ---- Specificity: each witness breaks its clause only ---------------------------

TEST(BusyDelayProofWitnesses, WitnessesAreSpecific) {
  const auto o = test_options();
  EXPECT_EQ(prove_busy_delay_time_table(subject<w::Accepts9906Policy>(), o).verdict, Verdict::held);
  EXPECT_EQ(prove_busy_delay_sleep_bounds(subject<w::Accepts9906Policy>(), o).verdict,
            Verdict::held);
  EXPECT_EQ(prove_busy_delay_retry_set(subject<w::SwappedRangePolicy>(), o).verdict, Verdict::held);
  EXPECT_EQ(prove_busy_delay_busy_yields(subject<w::Clamp100sPolicy>(), o).verdict, Verdict::held);
  EXPECT_EQ(prove_busy_delay_other_quiet(subject<w::FsleepMillisecondsPolicy>(), o).verdict,
            Verdict::held);
  EXPECT_EQ(prove_busy_delay_retry_set(subject<SleepsOnBusyPolicy>(), o).verdict, Verdict::held);
  EXPECT_EQ(prove_busy_delay_sleep_bounds(subject<SleepsOnBusyPolicy>(), o).verdict, Verdict::held);
  EXPECT_EQ(prove_busy_delay_other_quiet(subject<WrongDelayTablePolicy>(), o).verdict,
            Verdict::held);
  EXPECT_EQ(prove_busy_delay_time_table(subject<w::NoResetOnGiveUpPolicy>(), o).verdict,
            Verdict::held);
}

// A subject holds a clause only if every form does: the reference with a
// broken fsleep form fails, and the counterexample names that form.
TEST(BusyDelayProofWitnesses, OneBrokenFormBreaksTheSubject) {
  const ProofResult r = prove_busy_delay_sleep_bounds(
      subject<bd::ReferencePolicy, w::FsleepMillisecondsPolicy>(), test_options());
  expect_violated(r, "BUSY-3");
  ASSERT_EQ(r.queries.size(), 2u);
  EXPECT_EQ(r.queries[0].verdict, Verdict::held);
  EXPECT_NE(r.detail.find("(fsleep)"), std::string::npos) << r.detail;
}

}  // namespace
}  // namespace idlespec::proofs
