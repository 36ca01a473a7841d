// GOV-8 with the tick running (spec/governor.md, docs/findings/gov-8.md):
// the spec's scenario on the pseries POWER10 table, run through select() and
// reflect() as the cpuidle core calls them, for mainline and for the repair
// the spec proposes (tests/witnesses/governor_witnesses.h).
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "impl/governor.h"
#include "oracle/governor.h"
#include "tests/witnesses/governor_witnesses.h"

namespace idlespec::governor {
namespace {

constexpr uint64_t kUs = 1000;

struct Walk {
  std::vector<uint32_t> stored;      // the ring entry each update wrote
  std::vector<uint32_t> chosen;      // the state each selection chose
  std::vector<uint64_t> next_timer;  // next_timer_ns each selection left
  ConcreteHistory h;
};

// Eight 5 us idle periods, then `timeouts` periods in which snooze runs to
// its poll limit (no wake-up before it, the tick did not fire); the tick
// runs throughout and the next timer is 10 ms away.
template <class S>
Walk run(unsigned timeouts) {
  const std::vector<TableEntry> table = pseries_p10_table();
  const std::vector<State<Concrete>> states = to_states(table);
  Walk r;
  r.h = fresh_history<Concrete>();
  for (auto& v : r.h.intervals) v = Concrete::lit<32>(5);
  ConcreteInputs in{};
  in.latency_req_ns = Concrete::lit<64>(2147483647ULL * kUs);  // no PM QoS constraint
  in.sleep_length_ns = Concrete::lit<64>(10000 * kUs);
  in.delta_tick_ns = Concrete::lit<64>(4000 * kUs);
  in.tick_stopped = false;
  in.tick_ns = Concrete::lit<64>(4000 * kUs);  // HZ=250
  in.last_state_idx = Concrete::lit<32>(0);
  in.last_residency_ns = Concrete::lit<64>(120 * kUs);  // snooze's poll limit: CEDE's residency
  in.poll_time_limit = true;
  for (unsigned i = 0; i <= timeouts; ++i) {
    const uint32_t ptr = r.h.interval_ptr.v;
    const ConcreteChoice c = select<S, Concrete>(states, r.h, in);
    if (i > 0) r.stored.push_back(r.h.intervals[ptr].v);
    r.chosen.push_back(c.idx.v);
    r.next_timer.push_back(r.h.next_timer_ns.v);
    reflect<Concrete>(r.h, false);
  }
  return r;
}

std::array<uint32_t, kIntervals> ring(const ConcreteHistory& h) {
  std::array<uint32_t, kIntervals> out{};
  for (unsigned i = 0; i < kIntervals; ++i) out[i] = h.intervals[i].v;
  return out;
}

TEST(GovernorGov8, MainlineStoresTruncatedKtimeMaxAndWrapsTheSumOfSquares) {
  const Walk r = run<Mainline>(3);
  // Every selection: typical interval 5 us, timer not consulted, snooze.
  for (size_t i = 0; i < r.chosen.size(); ++i) {
    SCOPED_TRACE(i);
    EXPECT_EQ(r.chosen[i], 0u);
    EXPECT_EQ(r.next_timer[i], kKtimeMax);
  }
  ASSERT_EQ(r.stored.size(), 3u);
  for (uint32_t v : r.stored) EXPECT_EQ(v, 2783138807u);  // ktime_to_us(KTIME_MAX) mod 2^32
  // The v6.15 predictor's 64-bit sum of squares of that ring wraps.
  EXPECT_TRUE(oracle::typical_both_ends(ring(r.h)).accumulator_beyond_64);
  // Two such samples do not wrap it.
  EXPECT_FALSE(oracle::typical_both_ends(ring(run<Mainline>(2).h)).accumulator_beyond_64);
}

TEST(GovernorGov8, TheRepairStoresTheSkippedMark) {
  using Repair = witness::MarkUnknownPollTimeout;
  const Walk r = run<Repair>(3);
  const Walk m = run<Mainline>(3);
  EXPECT_EQ(r.chosen, m.chosen);  // the same selections
  ASSERT_EQ(r.stored.size(), 3u);
  for (uint32_t v : r.stored) EXPECT_EQ(v, kUintMax);
  // The correction factors are untouched by the repair.
  for (unsigned b = 0; b < kBuckets; ++b)
    EXPECT_EQ(r.h.correction_factor[b].v, m.h.correction_factor[b].v) << b;
  // The predictor skips the marks: the five 5 us samples left, exactly.
  const oracle::Typical t = oracle::typical_both_ends(ring(r.h));
  EXPECT_FALSE(t.accumulator_beyond_64);
  EXPECT_EQ(t.us, 5u);
  EXPECT_EQ((typical_interval<Repair, Concrete>(r.h).v), 5u);
  // With the timer consulted, or without a polling timeout, it stores what
  // mainline stores.
  ConcreteHistory h = fresh_history<Concrete>();
  h.needs_update = true;
  h.next_timer_ns = Concrete::lit<64>(10000 * kUs);
  const std::vector<State<Concrete>> states = to_states(pseries_p10_table());
  ConcreteInputs in{};
  in.tick_ns = Concrete::lit<64>(4000 * kUs);
  in.last_state_idx = Concrete::lit<32>(0);
  in.last_residency_ns = Concrete::lit<64>(120 * kUs);
  in.poll_time_limit = true;
  ConcreteHistory a = h, b = h;
  menu_update<Repair, Concrete>(states, a, in);
  menu_update<Mainline, Concrete>(states, b, in);
  EXPECT_EQ(a.intervals[0].v, 10000u);
  EXPECT_EQ(a.intervals[0].v, b.intervals[0].v);
  h.next_timer_ns = Concrete::lit<64>(kKtimeMax);
  in.poll_time_limit = false;
  a = h;
  b = h;
  menu_update<Repair, Concrete>(states, a, in);
  menu_update<Mainline, Concrete>(states, b, in);
  EXPECT_EQ(a.intervals[0].v, 120u);
  EXPECT_EQ(a.intervals[0].v, b.intervals[0].v);
}

// What each does on a CPU whose every idle period is a poll timeout: the
// selection at which the timer is consulted again (the typical interval
// above 15 us, or none). Mainline gets there after five timeouts: its
// outlier pass drops the three 5 us samples (the farther end from the
// average), and the sum of squares of the five 2783138807 us samples left
// wraps, so the predictor finds no pattern (UINT_MAX) where exact arithmetic
// accepts 2783138807 us (with four of each, the ends are equally far and the
// large ones go). The repair gets there after eight, when no counted sample
// is left.
size_t first_consulted(const Walk& r) {
  for (size_t i = 0; i < r.next_timer.size(); ++i)
    if (r.next_timer[i] != kKtimeMax) return i;
  return r.next_timer.size();
}

TEST(GovernorGov8, WhenTheTimerIsConsultedAgain) {
  const Walk m = run<Mainline>(8);
  EXPECT_EQ(first_consulted(m), 5u);
  auto typical_of = [](unsigned large) {
    std::array<Concrete::U<32>, kIntervals> a{};
    for (unsigned i = 0; i < kIntervals; ++i)
      a[i] = Concrete::lit<32>(i < large ? 2783138807u : 5u);
    return typical_interval_both_ends<Concrete>(a).v;
  };
  EXPECT_EQ(typical_of(4), 5u);
  EXPECT_EQ(typical_of(5), kUintMax);
  std::array<uint32_t, kIntervals> five{};
  for (unsigned i = 0; i < kIntervals; ++i) five[i] = i < 5 ? 2783138807u : 5u;
  const oracle::Typical exact = oracle::typical_both_ends(five);
  EXPECT_EQ(exact.us, 2783138807u);
  EXPECT_TRUE(exact.accumulator_beyond_64);
  const Walk r = run<witness::MarkUnknownPollTimeout>(8);
  EXPECT_EQ(first_consulted(r), 8u);
}

}  // namespace
}  // namespace idlespec::governor
