// oracle/governor.h: the table of the clauses judge_selection() judges
// (kSelectionClauses) held to the judge itself on sampled selections, so that
// validate's differential, which compares a file's choice with the spec's
// subjects on the clauses judged on the choice alone, reads what the judge
// really does.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <set>
#include <span>
#include <string>
#include <vector>

#include "oracle/governor.h"

namespace idlespec::governor::oracle {
namespace {

using Table = std::vector<State<Concrete>>;

struct Sample {
  Table states;
  ConcreteInputs in;
  ConcreteChoice choice;
};

// Values around the boundaries the judge compares at: 0, the rounding of
// timer_us, microseconds, milliseconds, seconds and the negative s64 range.
uint64_t pick(std::mt19937_64& rng) {
  static const uint64_t pool[] = {0,       1,         499,       500,           501,
                                  1000,    2000,      10000,     100000,        1000000,
                                  4000000, 100000000, kKtimeMax, kKtimeMax + 1, ~uint64_t{0}};
  const uint64_t v = pool[rng() % (sizeof(pool) / sizeof(pool[0]))];
  return rng() % 4 == 0 ? v + rng() % 3 : v;
}

Sample sample(std::mt19937_64& rng) {
  Sample s;
  const size_t n = rng() % 6;  // 0..5 states
  uint64_t exit = 0, residency = 0;
  const bool ordered = rng() % 4 != 0;
  for (size_t i = 0; i < n; ++i) {
    State<Concrete> st;
    if (ordered) {
      exit += i == 0 ? 0 : pick(rng) % 200000;
      residency += i == 0 ? 0 : pick(rng) % 2000000;
    } else {
      exit = pick(rng);
      residency = pick(rng);
    }
    st.exit_latency_ns = Concrete::lit<64>(exit);
    st.target_residency_ns = Concrete::lit<64>(residency);
    st.polling = i == 0 && rng() % 2 == 0;
    st.timer_stop = !st.polling;
    st.disabled = rng() % 5 == 0;
    s.states.push_back(st);
  }
  s.in.latency_req_ns = Concrete::lit<64>(pick(rng));
  s.in.sleep_length_ns = Concrete::lit<64>(pick(rng));
  s.in.delta_tick_ns = Concrete::lit<64>(pick(rng));
  s.in.tick_stopped = rng() % 2 == 0;
  s.in.tick_ns = Concrete::lit<64>(4000000);
  s.choice.idx = Concrete::lit<32>(rng() % (n + 2));
  s.choice.stop_tick = rng() % 2 == 0;
  s.choice.path = Concrete::lit<8>(rng() % 8);
  s.choice.predicted_ns = Concrete::lit<64>(pick(rng));
  return s;
}

std::set<std::string> judged(const Sample& s) {
  return idlespec::oracle::clauses_of(judge_selection(s.states, s.in, s.choice));
}

// The first way `table` misdescribes judge_selection() on `count` sampled
// selections, or "": a clause reported that the table lacks, a listed clause
// never reported, or a verdict the table says reads the choice alone that
// changes with the prediction or the path.
std::string mismatch(std::span<const SelectionClause> table, unsigned count) {
  std::mt19937_64 rng(20261203);
  std::set<std::string> listed, seen;
  for (const SelectionClause& c : table) listed.insert(c.id);
  for (unsigned k = 0; k < count; ++k) {
    Sample s = sample(rng);
    const std::set<std::string> base = judged(s);
    for (const std::string& c : base) {
      if (!listed.count(c)) return c + " is judged but not listed";
      seen.insert(c);
    }
    for (int variant = 0; variant < 4; ++variant) {
      Sample t = s;
      t.choice.predicted_ns = Concrete::lit<64>(pick(rng));
      t.choice.path = Concrete::lit<8>(rng() % 8);
      const std::set<std::string> other = judged(t);
      for (const SelectionClause& c : table) {
        if (c.reads_prediction) continue;
        if (base.count(c.id) != other.count(c.id))
          return std::string(c.id) + " changes with the prediction or the path (sample " +
                 std::to_string(k) + ")";
      }
    }
  }
  for (const std::string& c : listed)
    if (!seen.count(c)) return c + " is listed but never judged in " + std::to_string(count);
  return "";
}

constexpr unsigned kSamples = 20000;

TEST(GovernorOracleClauses, TableMatchesTheJudge) {
  EXPECT_EQ(mismatch(kSelectionClauses, kSamples), "");
  EXPECT_TRUE(judged_on_choice("GOV-1"));
  EXPECT_TRUE(judged_on_choice("GOV-9"));
  EXPECT_FALSE(judged_on_choice("GOV-3"));
  EXPECT_FALSE(judged_on_choice("GOV-5"));  // not a selection clause
}

// Witnesses: tables that misdescribe the judge are caught.
TEST(GovernorOracleClauses, WitnessTablesAreCaught) {
  std::vector<SelectionClause> without_gov9, gov3_on_choice, with_gov5;
  for (const SelectionClause& c : kSelectionClauses) {
    if (std::string(c.id) != "GOV-9") without_gov9.push_back(c);
    gov3_on_choice.push_back({c.id, false});
    with_gov5.push_back(c);
  }
  with_gov5.push_back({"GOV-5", false});
  EXPECT_EQ(mismatch(without_gov9, kSamples), "GOV-9 is judged but not listed");
  EXPECT_NE(mismatch(gov3_on_choice, kSamples).find("GOV-3 changes with the prediction"),
            std::string::npos);
  EXPECT_NE(mismatch(with_gov5, kSamples).find("GOV-5 is listed but never judged"),
            std::string::npos);
}

}  // namespace
}  // namespace idlespec::governor::oracle

// judge_update(): GOV-5 and GOV-8 on what a menu_update() under test left,
// each step recomputed exactly and the wrapped one named.
namespace idlespec::governor::oracle {
namespace {

// A period of 3 us in a state whose exit latency is 10 us; the previous
// selection consulted a timer 5 ms away; the bucket's factor at unity.
UpdateIn short_period() {
  UpdateIn in;
  in.exit_latency = 10000;
  in.residency = 3000;
  in.next_timer = 5000000;
  in.tick = 4000000;
  in.factor = kUnityFactor;
  return in;
}

// What a menu_update() that computes `measured` (the kernel's u64 word,
// wrapped or not) leaves, in the kernel's words.
UpdateSeen kernel_words(const UpdateIn& in, uint64_t measured) {
  const uint64_t next = static_cast<uint64_t>(in.next_timer);
  if (measured > next) measured = next;
  const uint32_t f = static_cast<uint32_t>(in.factor);
  uint32_t nf = f - f / kDecay;
  nf += next > 0 && measured < kMaxInterestingNs
            ? static_cast<uint32_t>(kResolution * measured / next)
            : static_cast<uint32_t>(kResolution);
  return {nf, static_cast<uint32_t>(measured / 1000)};
}

TEST(GovernorOracleUpdate, FaithfulHoldsEveryStep) {
  const UpdateIn in = short_period();
  const UpdateJudgement j = judge_update(in, kernel_words(in, 3000 / 2));
  EXPECT_EQ(j.gov5, "");
  EXPECT_EQ(j.gov8, "");
  EXPECT_EQ(j.differs, "");
  EXPECT_EQ(static_cast<uint64_t>(j.exact.deducted), 1500u);
  EXPECT_EQ(static_cast<uint64_t>(j.exact.factor), kUnityFactor - 1024 + 0);
}

TEST(GovernorOracleUpdate, UnguardedDeductionWrapsAndGov8FollowsFromIt) {
  // The residency less the exit latency in a u64 word: 3000 - 10000 wraps,
  // the timer's clamp makes the duration 5 ms.
  UpdateIn in = short_period();
  UpdateJudgement j = judge_update(in, kernel_words(in, uint64_t{3000} - 10000));
  EXPECT_NE(j.gov5.find("the exit latency deduction wrapped"), std::string::npos) << j.gov5;
  EXPECT_NE(j.gov5.find("less the exit latency 10000 ns is negative"), std::string::npos) << j.gov5;
  EXPECT_EQ(j.gov8, "");  // the ring holds the duration the factor shows
  EXPECT_EQ(j.differs, "");
  // No timer consulted (KTIME_MAX): the wrapped duration is KTIME_MAX, and the
  // ring holds it truncated to 32 bits: GOV-8, following from GOV-5.
  in.next_timer = kKtimeMax;
  j = judge_update(in, kernel_words(in, uint64_t{3000} - 10000));
  EXPECT_NE(j.gov5.find("the exit latency deduction wrapped"), std::string::npos) << j.gov5;
  EXPECT_NE(j.gov8, "");
  EXPECT_TRUE(j.gov8_follows);
  EXPECT_FALSE(j.gov8_accepted);
}

TEST(GovernorOracleUpdate, RingOfBeforeV316HoldsTheResidency) {
  // A period of 400 us after a state with a 100 us exit latency: the factor
  // learns 300 us. Text of before v3.16 stores the residency, 400 us, in the
  // ring: GOV-8 by that era's meaning holds; by today's it fails. A ring of
  // that era holding the learned 300 us fails the era's meaning.
  UpdateIn in = short_period();
  in.exit_latency = 100000;
  in.residency = 400000;
  in.next_timer = 5000000;
  UpdateSeen seen = kernel_words(in, 300000);
  seen.stored = 400;
  UpdateJudgement j = judge_update(in, seen);
  EXPECT_NE(j.gov8, "");
  in.ring_holds_residency = true;
  j = judge_update(in, seen);
  EXPECT_EQ(j.gov8, "");
  EXPECT_EQ(j.gov5, "");
  seen.stored = 300;
  j = judge_update(in, seen);
  EXPECT_NE(j.gov8.find("for a measured residency of 400 us"), std::string::npos) << j.gov8;
}

TEST(GovernorOracleUpdate, DeductionWithoutWrapIsAnotherRule) {
  // A residency between one and two exit latencies, deducted instead of
  // halved: another rule (no word wrapped), the differential's.
  UpdateIn in = short_period();
  in.residency = 15000;
  in.next_timer = 20000;  // close enough that the factor shows the other duration
  const UpdateJudgement j = judge_update(in, kernel_words(in, 15000 - 10000));
  EXPECT_EQ(j.gov5, "");
  EXPECT_EQ(j.gov8, "");
  EXPECT_NE(j.differs, "");
}

TEST(GovernorOracleUpdate, AnotherRuleStoredFaithfullyIsNotGov8) {
  // The same deduction with the timer far: the factor is the exact one, the
  // ring holds the file's own 5 us where exact arithmetic learns 7 us; its
  // factor shows any duration up to 39 us, so the store is faithful to what
  // the file learned (the differential's), not GOV-8.
  UpdateIn in = short_period();
  in.residency = 15000;
  in.next_timer = 40500000;
  const UpdateJudgement j = judge_update(in, kernel_words(in, 15000 - 10000));
  EXPECT_EQ(j.gov5, "");
  EXPECT_EQ(j.gov8, "");
  EXPECT_NE(j.differs.find("another learning rule"), std::string::npos) << j.differs;
}

TEST(GovernorOracleUpdate, RatioIn32BitsAndFactorOutOfUnity) {
  UpdateIn in = short_period();
  in.residency = 9000000;  // 9 ms less 10 us: RESOLUTION x 8.99 ms needs 34 bits
  in.next_timer = 40000000;
  const uint64_t m = 9000000 - 10000;
  UpdateSeen seen = kernel_words(in, m);
  const uint32_t kept = kUnityFactor - kUnityFactor / kDecay;
  seen.factor = kept + static_cast<uint32_t>(static_cast<uint32_t>(kResolution * m) /
                                             static_cast<uint64_t>(in.next_timer));
  UpdateJudgement j = judge_update(in, seen);
  EXPECT_NE(j.gov5.find(": the ratio formed in 32 bits"), std::string::npos) << j.gov5;
  seen.factor = 9000;
  j = judge_update(in, seen);
  EXPECT_NE(j.gov5.find("outside 1..8192"), std::string::npos) << j.gov5;
}

TEST(GovernorOracleUpdate, RingInNanosecondsIsGov8Only) {
  const UpdateIn in = short_period();
  UpdateSeen seen = kernel_words(in, 1500);
  seen.stored = 1500;  // the duration in ns
  const UpdateJudgement j = judge_update(in, seen);
  EXPECT_EQ(j.gov5, "");
  EXPECT_NE(j.gov8.find(": the duration in ns, not us"), std::string::npos) << j.gov8;
  EXPECT_FALSE(j.gov8_follows);
}

TEST(GovernorOracleUpdate, PollTimeoutTruncationIsTheAcceptedOne) {
  UpdateIn in = short_period();
  in.polling = in.poll_time_limit = true;
  in.exit_latency = 0;
  in.next_timer = kKtimeMax;
  const UpdateJudgement j = judge_update(in, kernel_words(in, kKtimeMax));
  EXPECT_EQ(j.gov5, "");
  EXPECT_EQ(j.gov8, "");
  EXPECT_TRUE(j.gov8_accepted);
}

}  // namespace
}  // namespace idlespec::governor::oracle

// judge_typical(): the file's typical interval against both predictors
// recomputed exactly.
namespace idlespec::governor::oracle {
namespace {

using Ring32 = std::array<uint32_t, kIntervals>;

TEST(GovernorOracleTypical, ExactAnswersHold) {
  const Ring32 steady = {40000, 40000, 40000, 40000, 40000, 40000, 40000, 40000};
  const TypicalJudgement j = judge_typical(steady, 40000);
  EXPECT_EQ(j.gov5, "");
  EXPECT_FALSE(j.differs);
  EXPECT_EQ(static_cast<uint64_t>(j.two_pass), 40000u);
  EXPECT_EQ(static_cast<uint64_t>(j.both_ends), 40000u);
}

TEST(GovernorOracleTypical, AnswerOutsideTheSamplesIsAWrap) {
  const Ring32 steady = {40000, 40000, 40000, 40000, 40000, 40000, 40000, 40000};
  const TypicalJudgement j = judge_typical(steady, 12);
  EXPECT_NE(j.gov5.find("below the smallest sample 40000 us"), std::string::npos) << j.gov5;
}

TEST(GovernorOracleTypical, SquaresIn32BitsAreNamed) {
  // Eight periods of 30 ms: the squares sum to 7.2e9, beyond 32 bits; the
  // spread then reads as huge and the predictor gives up (UINT_MAX), where
  // exact arithmetic answers 30000 us.
  const Ring32 steady = {30000, 30000, 30000, 30000, 30000, 30000, 30000, 30000};
  const TypicalJudgement j = judge_typical(steady, kUintMax);
  EXPECT_NE(j.gov5.find("the sum of the squared intervals in 32 bits"), std::string::npos)
      << j.gov5;
  // Short periods: the same answer is another predictor's, not a wrap.
  const Ring32 shorter = {300, 300, 300, 300, 300, 300, 300, 300};
  const TypicalJudgement k = judge_typical(shorter, kUintMax);
  EXPECT_EQ(k.gov5, "");
  EXPECT_TRUE(k.differs);
}

TEST(GovernorOracleTypical, AnotherPredictorWithinTheSamplesDiffers) {
  // 85975daeaa4d's keeping the maximum: 6 of 8 samples scattered, the
  // largest kept instead of no prediction; within the samples: no wrap.
  const Ring32 ring = {100, 5000, 100, 5000, 100, 5000, 100, 90000};
  const TypicalJudgement j = judge_typical(ring, 90000);
  EXPECT_EQ(j.gov5, "");
  EXPECT_TRUE(j.differs);
}

}  // namespace
}  // namespace idlespec::governor::oracle
