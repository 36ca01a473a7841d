// The busy-delay simulator (impl/busy_delay_sim.h): its clock rules, the
// firmware model on small hand-made operations, trace replay, determinism,
// and the qualitative shape of seed 003's DLPAR measurements as relations
// between subjects. Everything here is simulated time: no test measures its
// own running time.
#include "impl/busy_delay_sim.h"

#include <gtest/gtest.h>

#include <vector>

namespace idlespec::busy_delay::sim {
namespace {

constexpr uint32_t kBusy = static_cast<uint32_t>(kRtasBusy);
constexpr uint32_t kFailed = static_cast<uint32_t>(-3);

const PolicyInfo kReference = policy_info<ReferencePolicy>();
const PolicyInfo kReferenceFsleep = policy_info<ReferenceFsleepPolicy>();
const PolicyInfo kLegacy = policy_info<LegacyPolicy>();
const PolicyInfo kEarly = policy_info<EarlyPolicy>();

Request sleep_request(Primitive p, uint64_t min_us, uint64_t max_us) {
  return Request{true, false, p, min_us, max_us};
}

TEST(SimClock, MsleepLastsItsJiffiesPlusOne) {
  EXPECT_EQ(msleep_us(1, 100), 20000u);
  EXPECT_EQ(msleep_us(1, 250), 8000u);
  EXPECT_EQ(msleep_us(1, 1000), 2000u);
  EXPECT_EQ(msleep_us(10, 100), 20000u);    // 9901 under legacy: as long as 9900
  EXPECT_EQ(msleep_us(100, 100), 110000u);  // 10 jiffies + 1
  EXPECT_EQ(msleep_us(100, 1000), 101000u);
  EXPECT_EQ(msecs_to_jiffies(5, 250), 2u);  // rounded up
}

TEST(SimClock, UsleepRangeIsTheLowerEndPlusSlack) {
  EXPECT_EQ(usleep_range_us(100, 1000), 100 + kHrtimerSlackUs);
  EXPECT_EQ(usleep_range_us(1000, 10000), 1000 + kHrtimerSlackUs);
  EXPECT_EQ(usleep_range_us(1000, 1010), 1010u);  // never past the upper end
  EXPECT_EQ(sleep_wall_us(sleep_request(kUsleepRange, 100, 1000), 100), 100 + kHrtimerSlackUs);
}

TEST(SimClock, FsleepIsUsleepRangeUpTo20msThenMsleep) {
  EXPECT_EQ(fsleep_us(1000, 100), 1000 + kHrtimerSlackUs);
  EXPECT_EQ(fsleep_us(20000, 100), 20000 + kHrtimerSlackUs);
  EXPECT_EQ(fsleep_us(100000, 100), msleep_us(100, 100));
  EXPECT_EQ(sleep_wall_us(sleep_request(kFsleep, 1000000, 1000000), 250), msleep_us(1000, 250));
}

TEST(SimClock, MdelaySpinsAndSleepsDoNot) {
  bool spins = false;
  EXPECT_EQ(sleep_wall_us(sleep_request(kMdelay, 1000, 1000), 100, &spins), 1000u);
  EXPECT_TRUE(spins);
  EXPECT_EQ(sleep_wall_us(sleep_request(kMsleep, 1000, 1000), 100, &spins), 20000u);
  EXPECT_FALSE(spins);
  EXPECT_EQ(sleep_wall_us(Request{}, 100, &spins), 0u);
}

TEST(SimClock, YieldOnABusyCpuIsOneJiffy) {
  EXPECT_EQ(yield_us(100), 10000u);
  EXPECT_EQ(yield_us(250), 4000u);
  EXPECT_EQ(yield_us(1000), 1000u);
}

// One operation: 3 calls of work (100 us each), then a 9901 wait of 1 ms.
Workload work_then_wait() {
  Phase w;
  w.kind = Phase::kWork;
  w.calls = 3;
  w.slice_cpu_us = 100;
  Phase x;
  x.kind = Phase::kWait;
  x.status = 9901;
  x.wait_us = 1000;
  return Workload{"test", {Operation{"op", {w, x}}}};
}

TEST(SimFirmware, LegacyOnAnIdleCpuSpinsThroughTheWait) {
  const Result r = run_workload(kLegacy, work_then_wait(), {100, Cpu::idle});
  // -2, -2, then the third slice answers 9901 at t = 300 us: the event is due
  // at 1300 us. Calls at 300, 350 .. 1250 answer 9901 (20), the one at 1300
  // answers 0.
  EXPECT_EQ(r.rtas_calls, 24u);
  EXPECT_EQ(r.busy_answers, 2u);
  EXPECT_EQ(r.extended_answers, 21u);
  EXPECT_EQ(r.elapsed_us, 300u + 21 * kAnswerCpuUs);
  EXPECT_EQ(r.cpu_us, r.elapsed_us);  // all spinning
  EXPECT_EQ(r.sleeps, 0u);
  EXPECT_EQ(r.loops, 1u);
  EXPECT_EQ(r.gave_up, 0u);
}

TEST(SimFirmware, TheEventCompletesWhateverTheCallerDoes) {
  const Result r = run_workload(kReference, work_then_wait(), {100, Cpu::idle});
  // 9901 -> usleep_range(1000, 10000): 1050 us, past the event: one more call.
  EXPECT_EQ(r.rtas_calls, 4u);
  EXPECT_EQ(r.sleeps, 1u);
  EXPECT_EQ(r.elapsed_us, 300u + 1000 + kHrtimerSlackUs + kAnswerCpuUs);
  EXPECT_EQ(r.cpu_us, 300u + kAnswerCpuUs);
  EXPECT_EQ(r.cond_resched, 2u);
  EXPECT_EQ(r.yields, 0u);  // idle: cond_resched() returns at once
}

TEST(SimFirmware, BusyCpuYieldsAndLegacyOversleeps) {
  const Result ref = run_workload(kReference, work_then_wait(), {100, Cpu::busy});
  EXPECT_EQ(ref.yields, 2u);
  EXPECT_EQ(ref.yield_us, 2 * yield_us(100));
  EXPECT_EQ(ref.cpu_us, 300u + kAnswerCpuUs);  // giving the CPU away costs no CPU
  const Result legacy = run_workload(kLegacy, work_then_wait(), {100, Cpu::busy});
  // msleep(1) on each -2 and msleep(10) on 9901: 20 ms each at HZ=100.
  EXPECT_EQ(legacy.sleeps, 3u);
  EXPECT_EQ(legacy.sleep_us, 3 * msleep_us(1, 100));
  EXPECT_EQ(legacy.rtas_calls, 4u);
}

TEST(SimTrace, ParsesCommentsBlankLinesAndSigns) {
  std::string error;
  const auto t = parse_trace("# a DLPAR remove\n-2\n  9900  # hint 1 ms\n\n0\r\n-3", error);
  ASSERT_TRUE(t) << error;
  EXPECT_EQ(*t, (std::vector<uint32_t>{kBusy, 9900, 0, kFailed}));
}

TEST(SimTrace, ABadLineIsNamed) {
  std::string error;
  EXPECT_FALSE(parse_trace("-2\n9900\n99o1\n0\n", error));
  EXPECT_NE(error.find("line 3"), std::string::npos) << error;
  EXPECT_NE(error.find("99o1"), std::string::npos) << error;
  EXPECT_FALSE(parse_trace("1\n-2\n4294967296\n", error));
  EXPECT_NE(error.find("line 3"), std::string::npos) << error;
  EXPECT_FALSE(parse_trace("# nothing\n\n", error));
}

TEST(SimTrace, ReplayCountsCallsLoopsSleepsAndYields) {
  const std::vector<uint32_t> trace = {kBusy, kBusy, 9900, 0, 9901, 0, kFailed};
  for (const PolicyInfo& p : policies()) {
    for (Cpu cpu : {Cpu::idle, Cpu::busy}) {
      const Result r = run_trace(p, trace, {100, cpu});
      EXPECT_EQ(r.rtas_calls, 7u) << r.label;
      EXPECT_EQ(r.busy_answers, 2u) << r.label;
      EXPECT_EQ(r.extended_answers, 2u) << r.label;
      EXPECT_EQ(r.loops, 3u) << r.label;
      EXPECT_EQ(r.gave_up, 0u) << r.label;
    }
  }
  const Result idle = run_trace(kReference, trace, {100, Cpu::idle});
  EXPECT_EQ(idle.sleeps, 2u);
  EXPECT_EQ(idle.elapsed_us, 7 * kAnswerCpuUs + (100 + kHrtimerSlackUs) + (1000 + kHrtimerSlackUs));
  EXPECT_EQ(idle.cpu_us, 7 * kAnswerCpuUs);
  const Result busy = run_trace(kReference, trace, {100, Cpu::busy});
  EXPECT_EQ(busy.yields, 2u);
  EXPECT_EQ(busy.elapsed_us, idle.elapsed_us + 2 * yield_us(100));

  EXPECT_EQ(run_trace(kLegacy, trace, {100, Cpu::idle}).elapsed_us, 7 * kAnswerCpuUs);
  const Result legacy_busy = run_trace(kLegacy, trace, {100, Cpu::busy});
  EXPECT_EQ(legacy_busy.sleeps, 4u);
  EXPECT_EQ(legacy_busy.elapsed_us, 7 * kAnswerCpuUs + 4 * msleep_us(1, 100));

  const Result early = run_trace(kEarly, trace, {100, Cpu::idle});
  EXPECT_EQ(early.spin_us, 2000u);  // two mdelay(1)
  EXPECT_EQ(early.cpu_us, 7 * kAnswerCpuUs + 2000);
}

TEST(SimTrace, ATraceEndingInsideALoopCountsIt) {
  const std::vector<uint32_t> trace = {kBusy, 9900};
  EXPECT_EQ(run_trace(kReference, trace, {100, Cpu::idle}).loops, 1u);
}

TEST(SimTrace, EarlyGivesUpOnThe1001stExtendedDelay) {
  std::vector<uint32_t> trace(1001, 9900);
  trace.push_back(0);
  const Result r = run_trace(kEarly, trace, {100, Cpu::idle});
  EXPECT_EQ(r.gave_up, 1u);
  EXPECT_EQ(r.loops, 2u);  // the give-up ends one loop, the 0 another
}

void expect_same(const Result& a, const Result& b) {
  EXPECT_EQ(a.elapsed_us, b.elapsed_us);
  EXPECT_EQ(a.cpu_us, b.cpu_us);
  EXPECT_EQ(a.rtas_calls, b.rtas_calls);
  EXPECT_EQ(a.sleeps, b.sleeps);
  EXPECT_EQ(a.yields, b.yields);
}

TEST(SimWorkload, DeterministicForASeed) {
  for (WorkloadKind k : {WorkloadKind::dlpar_add, WorkloadKind::dlpar_remove}) {
    const Workload a = make_workload(k, 42);
    const Workload b = make_workload(k, 42);
    ASSERT_EQ(a.operations.size(), b.operations.size());
    for (const PolicyInfo& p : policies()) {
      for (Cpu cpu : {Cpu::idle, Cpu::busy}) {
        expect_same(run_workload(p, a, {100, cpu}), run_workload(p, b, {100, cpu}));
      }
    }
    const Result other = run_workload(kLegacy, make_workload(k, 43), {100, Cpu::idle});
    EXPECT_NE(other.elapsed_us, run_workload(kLegacy, a, {100, Cpu::idle}).elapsed_us);
  }
}

TEST(SimWorkload, ShapesMatchTheirNames) {
  const Workload add = make_workload(WorkloadKind::dlpar_add, 1);
  const Workload remove = make_workload(WorkloadKind::dlpar_remove, 1);
  EXPECT_EQ(add.operations.size(), 3 * kLmbCount);
  EXPECT_EQ(remove.operations.size(), 2 * kLmbCount);
  const Result a = run_workload(kReference, add, {100, Cpu::idle});
  const Result r = run_workload(kReference, remove, {100, Cpu::idle});
  EXPECT_GT(a.busy_answers, 4 * a.extended_answers);  // mostly -2
  EXPECT_GT(r.extended_answers, 2 * r.busy_answers);  // mostly 990x
  EXPECT_EQ(a.gave_up + r.gave_up, 0u);
}

// Seed 003's shape, as relations between subjects at HZ=100, for a few seeds.
class SimShape : public ::testing::TestWithParam<uint64_t> {};

TEST_P(SimShape, BusyCpuReferenceFinishesSoonerThanLegacy) {
  for (WorkloadKind k : {WorkloadKind::dlpar_add, WorkloadKind::dlpar_remove}) {
    const Workload w = make_workload(k, GetParam());
    const Result legacy = run_workload(kLegacy, w, {100, Cpu::busy});
    for (const PolicyInfo& p : {kReference, kReferenceFsleep}) {
      const Result ref = run_workload(p, w, {100, Cpu::busy});
      EXPECT_LT(ref.elapsed_us, legacy.elapsed_us) << w.name << " " << ref.label;
    }
  }
}

TEST_P(SimShape, IdleCpuRemoveTakesTheReferenceFarFewerCallsAndLessCpu) {
  const Workload w = make_workload(WorkloadKind::dlpar_remove, GetParam());
  const Result legacy = run_workload(kLegacy, w, {100, Cpu::idle});
  EXPECT_EQ(legacy.sleeps, 0u);  // legacy never sleeps on an idle CPU
  for (const PolicyInfo& p : {kReference, kReferenceFsleep}) {
    const Result ref = run_workload(p, w, {100, Cpu::idle});
    EXPECT_LT(3 * ref.rtas_calls, legacy.rtas_calls) << ref.label;
    EXPECT_LT(2 * ref.cpu_us, legacy.cpu_us) << ref.label;
  }
}

TEST_P(SimShape, IdleCpuAddCostsBothAboutTheSame) {
  const Workload w = make_workload(WorkloadKind::dlpar_add, GetParam());
  const Result legacy = run_workload(kLegacy, w, {100, Cpu::idle});
  const Result ref = run_workload(kReference, w, {100, Cpu::idle});
  // Within 20 %: the -2 phases cost both the same; only the rare short 9900
  // waits differ (legacy spins through them).
  EXPECT_LT(5 * ref.rtas_calls, 6 * legacy.rtas_calls);
  EXPECT_LT(5 * legacy.rtas_calls, 6 * ref.rtas_calls);
  EXPECT_LT(5 * ref.cpu_us, 6 * legacy.cpu_us);
  EXPECT_LT(5 * legacy.cpu_us, 6 * ref.cpu_us);
}

INSTANTIATE_TEST_SUITE_P(Seeds, SimShape, ::testing::Values(1u, 2u, 3u, 2021u));

}  // namespace
}  // namespace idlespec::busy_delay::sim
