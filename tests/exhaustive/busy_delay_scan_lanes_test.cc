// The vectorised quiet check of busy_delay_status_scan against Concrete:
// LaneConcrete (impl/lanes_domain.h), the domain it runs the policies in,
// gives Concrete's value for every operation and every policy (boundary and
// sampled statuses, every subject and witness); QuietDeviation says what
// busy_delay::oracle::quiet_deviation says; and the quiet check compiled for each
// instruction set this CPU runs flags exactly the blocks the baseline check
// flags, so a range scan gives the same tally whichever runs.
#include <gtest/gtest.h>

#include <cstdint>
#include <iostream>
#include <random>
#include <string>
#include <vector>

#include "impl/busy_delay.h"
#include "impl/domain.h"
#include "impl/lanes_domain.h"
#include "oracle/busy_delay.h"
#include "properties/busy_delay_status_scan.h"
#include "tests/witnesses/busy_delay_witnesses.h"

namespace idlespec::props {
namespace {

using busy_delay::Request;
using L = LaneConcrete;
using C = Concrete;

constexpr ScanIsa kIsas[] = {ScanIsa::baseline, ScanIsa::avx2, ScanIsa::avx512};

std::vector<uint64_t> interesting_values(unsigned w, uint64_t seed) {
  const uint64_t top = w >= 64 ? ~uint64_t{0} : (uint64_t{1} << w) - 1;
  std::vector<uint64_t> v = {0,   1,    2,    top,  top - 1, top / 2, top / 2 + 1, 20,
                             100, 1000, 9900, 9905, 100000,  1000000, 0xfffffffe};
  std::mt19937_64 rng(seed);
  for (int i = 0; i < 40; ++i) v.push_back(rng());
  for (uint64_t& x : v) x &= top;
  return v;
}

template <unsigned W>
void check_words() {
  using T = typename C::U<W>::T;
  const std::vector<uint64_t> values = interesting_values(W, W);
  for (uint64_t x : values) {
    for (uint64_t y : values) {
      const auto ca = C::lit<W>(x), cb = C::lit<W>(y);
      const auto la = L::lit<W>(x), lb = L::lit<W>(y);
      ASSERT_EQ(T((ca + cb).v), T((la + lb).v)) << W << " " << x << " + " << y;
      ASSERT_EQ(T((ca * cb).v), T((la * lb).v));
      ASSERT_EQ(T((ca - cb).v), T((la - lb).v));
      ASSERT_EQ(T(C::udiv(ca, cb).v), T(L::udiv(la, lb).v));
      ASSERT_EQ(ca < cb, la < lb);
      ASSERT_EQ(ca >= cb, la >= lb);
      for (bool c : {false, true}) {
        ASSERT_EQ(T(C::ite(c, ca, cb).v), T(L::ite(c, la, lb).v)) << W << " " << c;
        for (bool a : {false, true}) {
          for (bool b : {false, true}) ASSERT_EQ(C::ite(c, a, b), L::ite(c, a, b));
        }
      }
    }
  }
}

// Every operation LaneConcrete redefines (ite), and the ones it inherits,
// give Concrete's value at every width.
TEST(BusyDelayScanLanes, LaneConcreteIsConcreteOperationByOperation) {
  check_words<8>();
  check_words<16>();
  check_words<32>();
  check_words<64>();
  check_words<128>();
}

template <class Policy>
void check_policy(const std::vector<uint32_t>& statuses) {
  for (bool need_resched : {false, true}) {
    for (uint32_t s : statuses) {
      busy_delay::ConcreteContext ctx{need_resched, 0};
      const Request expected = busy_delay::concrete_step<Policy>(s, ctx);
      ASSERT_EQ((request_in<Policy, C>(s, need_resched)), expected);
      ASSERT_EQ((request_in<Policy, L>(s, need_resched)), expected)
          << Policy::subject << " " << s << " need_resched " << need_resched;
      ASSERT_EQ((subject_delay_time_ms<Policy, L>(s)), subject_delay_time_ms<Policy>(s))
          << Policy::subject << " " << s;
    }
  }
}

// Each policy of the spec and each witness, in LaneConcrete, requests what
// it requests in Concrete, over the boundaries and a seeded sample.
TEST(BusyDelayScanLanes, PoliciesInLanesAreThePoliciesInConcrete) {
  const std::vector<uint32_t> statuses = status_scan_statuses(7, 200'000);
  check_policy<busy_delay::ReferencePolicy>(statuses);
  check_policy<busy_delay::ReferenceFsleepPolicy>(statuses);
  check_policy<busy_delay::LegacyPolicy>(statuses);
  check_policy<busy_delay::EarlyPolicy>(statuses);
  check_policy<busy_delay::witness::Accepts9906Policy>(statuses);
  check_policy<busy_delay::witness::Clamp100sPolicy>(statuses);
  check_policy<busy_delay::witness::SwappedRangePolicy>(statuses);
  check_policy<busy_delay::witness::FsleepMillisecondsPolicy>(statuses);
  check_policy<busy_delay::witness::NoResetOnGiveUpPolicy>(statuses);
  check_policy<busy_delay::witness::GiveUpOn1000thPolicy>(statuses);
}

// QuietDeviation is busy_delay::oracle::quiet_deviation, request by request and
// accumulated, for requests that break one field each.
TEST(BusyDelayScanLanes, QuietDeviationIsTheModelsQuietDeviation) {
  using namespace busy_delay::oracle;
  const Request variants[] = {
      {},
      {true, false, busy_delay::kNoSleep, 0, 0},
      {false, true, busy_delay::kNoSleep, 0, 0},
      {false, false, busy_delay::kMsleep, 0, 0},
      {false, false, busy_delay::kMdelay, 0, 0},
      {false, false, busy_delay::kNoSleep, 1, 0},
      {false, false, busy_delay::kNoSleep, 0, 1},
      {false, false, busy_delay::kNoSleep, 0, uint64_t{1} << 40},
      {false, false, busy_delay::kNoSleep, uint64_t{1} << 63, 0},
  };
  const unsigned masks[] = {kAllStatusClauses,
                            kBusy1 | kBusy2 | kBusy3 | kBusy4,
                            kBusy1 | kBusy2 | kBusy3,
                            kBusy4,
                            kBusy1,
                            kBusy5,
                            kBusy2 | kBusy3};
  for (unsigned mask : masks) {
    for (const Request& r : variants) {
      for (uint32_t delay : {0u, 1u, 0x80000000u}) {
        QuietDeviation one;
        one.add(r, delay, mask);
        ASSERT_EQ(one.value() != 0, quiet_deviation(r, delay, mask) != 0)
            << describe(r) << " delay " << delay << " mask " << mask;
        QuietDeviation many;  // a deviation among quiet answers
        many.add({}, 0, mask);
        many.add(r, delay, mask);
        many.add({}, 0, mask);
        ASSERT_EQ(many.value() != 0, quiet_deviation(r, delay, mask) != 0);
      }
    }
  }
}

// A policy wrong at exactly one status `Bad`: retries there (BUSY-1, BUSY-5),
// like the exhaustive test's RetriesAt0x12345678Policy.
template <uint32_t Bad>
struct RetriesAtPolicy {
  static constexpr std::string_view subject = "test-retries-at";
  static constexpr std::string_view form = "usleep_range/msleep";
  template <class D>
  static busy_delay::Step<D> step(typename D::template U<32> status, busy_delay::Context<D>& ctx) {
    busy_delay::Step<D> s = busy_delay::ReferencePolicy::step<D>(status, ctx);
    s.retry = s.retry || status == D::template lit<32>(Bad);
    return s;
  }
};

template <class Policy, unsigned Mask>
void check_blocks(const std::vector<std::pair<uint32_t, uint32_t>>& blocks, bool need_resched) {
  for (ScanIsa isa : kIsas) {
    if (!scan_isa_supported(isa)) continue;
    for (auto [first, count] : blocks) {
      const bool expected = block_deviation<Policy, Mask>(first, count, need_resched) != 0;
      ASSERT_EQ((block_deviation_on<Policy, Mask>(isa, first, count, need_resched) != 0), expected)
          << scan_isa_name(isa) << " " << Policy::subject << " block " << first << " + " << count;
    }
  }
}

// The quiet check of every supported instruction set flags the blocks the
// baseline flags: with the bad status first, last or inside a block, for
// block lengths that are and are not a multiple of any vector length.
TEST(BusyDelayScanLanes, EveryInstructionSetFlagsTheSameBlocks) {
  std::vector<std::pair<uint32_t, uint32_t>> blocks;
  for (uint32_t count : {1u, 2u, 3u, 7u, 15u, 16u, 17u, 31u, 63u, 64u, 65u, 100u, 4095u, 4096u}) {
    for (uint32_t offset : {0u, 1u, count / 2, count - 1, count}) {
      blocks.emplace_back(0x12345678u - offset, count);  // the bad status at `offset`
    }
    blocks.emplace_back(0x10000u, count);
    blocks.emplace_back(0xffffffffu - count + 1, count);
  }
  using namespace busy_delay::oracle;
  check_blocks<RetriesAtPolicy<0x12345678u>, kAllStatusClauses>(blocks, false);
  check_blocks<RetriesAtPolicy<0x12345678u>, kBusy1>(blocks, true);
  check_blocks<busy_delay::ReferencePolicy, kAllStatusClauses>(blocks, false);
  check_blocks<busy_delay::witness::Accepts9906Policy, kAllStatusClauses>(
      {{9906, 1}, {9906, 64}, {9890, 100}, {9907, 4096}}, false);
}

// A range scan gives the same tally (cases, violations per clause, first
// counterexample) whichever instruction set runs its quiet check, for the
// subjects (legacy breaks BUSY-2 and BUSY-3 in its range) and a policy wrong
// far from every boundary.
template <class Policy, unsigned Mask>
void check_range(uint64_t begin, uint64_t end, bool need_resched) {
  ScanTally base;
  scan_range_on<Policy, Mask>(ScanIsa::baseline, begin, end, need_resched, 0, base);
  for (ScanIsa isa : kIsas) {
    if (!scan_isa_supported(isa)) continue;
    ScanTally t;
    scan_range_on<Policy, Mask>(isa, begin, end, need_resched, 0, t);
    ASSERT_EQ(t.statuses, base.statuses);
    for (unsigned i = 0; i < busy_delay::oracle::kClauseCount; ++i) {
      ASSERT_EQ(t.violations[i], base.violations[i]) << scan_isa_name(isa) << " clause " << i;
      ASSERT_EQ(t.first[i].found, base.first[i].found);
      ASSERT_EQ(t.first[i].status, base.first[i].status);
      ASSERT_EQ(t.first[i].request, base.first[i].request);
    }
  }
}

TEST(BusyDelayScanLanes, RangeScansAgreeAcrossInstructionSets) {
  using namespace busy_delay::oracle;
  constexpr uint64_t kRange = uint64_t{1} << 22;
  check_range<busy_delay::ReferencePolicy, kAllStatusClauses>(0, kRange, false);
  check_range<busy_delay::ReferenceFsleepPolicy, kAllStatusClauses & ~kBusy4>(0, kRange, false);
  check_range<busy_delay::LegacyPolicy, kBusy1 | kBusy2 | kBusy3 | kBusy4>(0, kRange, false);
  check_range<busy_delay::LegacyPolicy, kBusy1 | kBusy2 | kBusy3>(0, kRange, true);
  check_range<busy_delay::EarlyPolicy, kBusy4>(0, kRange, false);
  check_range<busy_delay::LegacyPolicy, kBusy1 | kBusy2 | kBusy3>((uint64_t{1} << 32) - kRange,
                                                                  uint64_t{1} << 32, true);
  check_range<RetriesAtPolicy<0x12345678u>, kAllStatusClauses>(0x12300000, 0x12400000 + 77, false);
  ScanTally t;
  scan_range<RetriesAtPolicy<0x12345678u>, kAllStatusClauses>(0x12300000, 0x12400000, false, 0, t);
  EXPECT_EQ(t.violations[0], 1u);
  EXPECT_EQ(t.first[0].status, 0x12345678u);
}

TEST(BusyDelayScanLanes, TheChosenInstructionSetIsSupported) {
  EXPECT_TRUE(scan_isa_supported(ScanIsa::baseline));
  EXPECT_TRUE(scan_isa_supported(scan_isa())) << scan_isa_name(scan_isa());
  std::cout << "quiet check: " << scan_isa_name(scan_isa()) << "\n";
}

}  // namespace
}  // namespace idlespec::props
