// TEO (spec/teo.md): the clause judge of oracle/teo.h on hand-made cases,
// and the spec's two worked examples run on impl/teo.h's subjects.
#include "impl/teo.h"

#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "oracle/teo.h"
#include "tests/witnesses/teo_witnesses.h"

namespace idlespec::teo {
namespace {

using Table = std::vector<State<Concrete>>;
constexpr uint64_t kUs = 1000;
constexpr uint64_t kMs = 1000 * kUs;

State<Concrete> st(uint64_t exit_ns, uint64_t residency_ns, bool polling = false,
                   bool disabled = false) {
  State<Concrete> s;
  s.exit_latency_ns = Concrete::lit<64>(exit_ns);
  s.target_residency_ns = Concrete::lit<64>(residency_ns);
  s.polling = polling;
  s.timer_stop = !polling;
  s.disabled = disabled;
  return s;
}

ConcreteInputs inputs(uint64_t limit_ns, uint64_t sleep_ns, uint64_t delta_ns, bool stopped,
                      uint64_t tick_ns = kMs) {
  ConcreteInputs in;
  in.latency_req_ns = Concrete::lit<64>(limit_ns);
  in.sleep_length_ns = Concrete::lit<64>(sleep_ns);
  in.delta_tick_ns = Concrete::lit<64>(delta_ns);
  in.tick_stopped = stopped;
  in.tick_ns = Concrete::lit<64>(tick_ns);
  return in;
}

ConcreteChoice choice(uint32_t idx, bool stop_tick) {
  ConcreteChoice c;
  c.idx = Concrete::lit<32>(idx);
  c.stop_tick = stop_tick;
  c.idx0 = Concrete::lit<32>(0);
  c.queried = true;
  c.duration_ns = Concrete::lit<64>(0);
  return c;
}

std::set<std::string> judged(const Table& t, const ConcreteInputs& in, const ConcreteChoice& c) {
  return idlespec::oracle::clauses_of(oracle::judge_selection(t, in, c));
}

const Table kX86 = {st(0, 0, true), st(2 * kUs, 10 * kUs), st(20 * kUs, 100 * kUs),
                    st(500 * kUs, 2 * kMs)};

TEST(TeoJudge, EachClauseOnItsOwn) {
  const ConcreteInputs far_stopped = inputs(kMs, 100 * kMs, 100 * kMs, true);
  EXPECT_TRUE(judged(kX86, far_stopped, choice(3, true)).empty());
  // TEO-1: a disabled state; an index outside the table.
  Table off = kX86;
  off[3].disabled = true;
  EXPECT_EQ(judged(off, far_stopped, choice(3, true)), std::set<std::string>{"TEO-1"});
  EXPECT_EQ(judged(kX86, far_stopped, choice(4, true)), std::set<std::string>{"TEO-1"});
  // TEO-2: C3 (500 us) over a 100 us limit; state 0 and the first enabled
  // state are exempt.
  EXPECT_EQ(judged(kX86, inputs(100 * kUs, 100 * kMs, 100 * kMs, true), choice(3, true)),
            std::set<std::string>{"TEO-2"});
  EXPECT_TRUE(judged(kX86, inputs(0, 100 * kMs, 100 * kMs, true), choice(0, true)).empty());
  // TEO-3: polling with stop_tick while the tick runs; fine when stopped.
  EXPECT_EQ(judged(kX86, inputs(kMs, 5 * kMs, kMs, false), choice(0, true)),
            std::set<std::string>{"TEO-3"});
  // TEO-4: tick kept, C3 (2 ms) past delta_next (1 ms); C1 (10 us, below
  // RESIDENCY_THRESHOLD_NS) is exempt.
  EXPECT_EQ(judged(kX86, inputs(kMs, 5 * kMs, kMs, false), choice(3, false)),
            std::set<std::string>{"TEO-4"});
  EXPECT_TRUE(judged(kX86, inputs(kMs, 5 * kMs, 5 * kUs, false), choice(1, false)).empty());
  // TEO-5: tick stopped, timer 100 ms away, C2 (100 us < 1 ms) while C3
  // (2 ms) fits the limit; not with a timer within 2 ticks, nor when C3 is
  // over the limit.
  EXPECT_EQ(judged(kX86, far_stopped, choice(2, true)), std::set<std::string>{"TEO-5"});
  EXPECT_TRUE(judged(kX86, inputs(kMs, 2 * kMs, 2 * kMs, true), choice(2, true)).empty());
  EXPECT_TRUE(judged(kX86, inputs(100 * kUs, 100 * kMs, 100 * kMs, true), choice(2, true)).empty());
  // Inputs out of the kernel's order (delta_next past the sleep length):
  // TEO-4 and TEO-5 say nothing.
  EXPECT_TRUE(judged(kX86, inputs(kMs, 100 * kMs, 200 * kMs, true), choice(2, true)).empty());
}

TEST(TeoJudge, MetricsBound) {
  ConcreteCpu c = fresh_cpu<Concrete>();
  EXPECT_TRUE(oracle::judge_metrics(4, c, Era::k61).empty());
  c.bins[1].hits = Concrete::lit<32>(kMetricBound + 1);
  c.total = Concrete::lit<32>(kMetricBound + 1);
  const oracle::Violations v = oracle::judge_metrics(4, c, Era::kMainline);
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0].clause, "TEO-6");
  EXPECT_NE(v[0].message.find("bin 1 hits 8200 > 8199"), std::string::npos) << v[0].message;
  // The v7.0 era is judged as v6.19 and mainline are (no recent ring).
  EXPECT_EQ(idlespec::oracle::clauses_of(oracle::judge_metrics(4, c, Era::k70)),
            std::set<std::string>{"TEO-6"});
  // 6.1's recent counts follow the ring.
  ConcreteCpu r = fresh_cpu<Concrete>();
  r.recent_idx[3] = Concrete::lit<32>(2);
  EXPECT_EQ(idlespec::oracle::clauses_of(oracle::judge_metrics(4, r, Era::k61)),
            std::set<std::string>{"TEO-6"});
  r.bins[2].recent = Concrete::lit<32>(1);
  EXPECT_TRUE(oracle::judge_metrics(4, r, Era::k61).empty());
}

// spec/teo.md, "Decision": poll 0/0 disabled, C1 exit 2 us, C2 exit 20 us,
// limit 1 us: every subject returns the disabled state 0; the repair
// returns C1.
TEST(TeoSpecExamples, DisabledStateZeroUnderATightLimit) {
  Table t = {st(0, 0, true, true), st(2 * kUs, 10 * kUs), st(20 * kUs, 100 * kUs)};
  const ConcreteInputs in = inputs(kUs, 10 * kMs, kMs, false);
  for (const SubjectOps& s : subjects()) {
    SCOPED_TRACE(s.name);
    ConcreteCpu cpu = fresh_cpu<Concrete>();
    const ConcreteChoice c = s.select(t, cpu, in);
    EXPECT_EQ(c.idx.v, 0u);
    EXPECT_EQ(judged(t, in, c), std::set<std::string>{"TEO-1"});
  }
  ConcreteCpu cpu = fresh_cpu<Concrete>();
  const ConcreteChoice fixed = select<witness::ConstraintFromFirst, Concrete>(t, cpu, in);
  EXPECT_EQ(fixed.idx.v, 1u);
  EXPECT_TRUE(judged(t, in, fixed).empty());
}

// The same table with the tick already stopped and the next timer 10 s away
// (beyond SAFE_TIMER_RANGE_NS): mainline's stopped-tick step (106a2662e655)
// searches from constraint_idx, still 0, and returns at once, so the
// disabled state 0 comes back there too; the repair returns C1
// (docs/findings/teo-1-disabled-state-0.md).
TEST(TeoSpecExamples, DisabledStateZeroWithTheTickStopped) {
  Table t = {st(0, 0, true, true), st(2 * kUs, 10 * kUs), st(20 * kUs, 100 * kUs)};
  const ConcreteInputs in = inputs(kUs, 10000 * kMs, 10000 * kMs, true, 4 * kMs);
  for (const SubjectOps& s : subjects()) {
    SCOPED_TRACE(s.name);
    ConcreteCpu cpu = fresh_cpu<Concrete>();
    const ConcreteChoice c = s.select(t, cpu, in);
    EXPECT_EQ(c.idx.v, 0u);
    EXPECT_EQ(judged(t, in, c), std::set<std::string>{"TEO-1"});
  }
  ConcreteCpu cpu = fresh_cpu<Concrete>();
  const ConcreteChoice fixed = select<witness::ConstraintFromFirst, Concrete>(t, cpu, in);
  EXPECT_EQ(fixed.idx.v, 1u);
  EXPECT_TRUE(judged(t, in, fixed).empty());
}

// spec/teo.md, TEO-5's acceptance for v6.1: poll 0/0, C1 100 us, C2 5 ms,
// HZ 1000, sleep length 10 s, the intercepts in bin 0: v6.1 takes C1 (its
// bin middle, 2.55 ms, reaches a tick); mainline does not.
TEST(TeoSpecExamples, V61BinMiddleWithTheTickStopped) {
  const Table t = {st(0, 0, true), st(10 * kUs, 100 * kUs), st(200 * kUs, 5 * kMs)};
  const ConcreteInputs in = inputs(2000000000ULL * kUs, 10000 * kMs, 10000 * kMs, true);
  ConcreteCpu cpu = fresh_cpu<Concrete>();
  cpu.bins[0].intercepts = Concrete::lit<32>(kMetricBound);
  cpu.total = Concrete::lit<32>(kMetricBound + kPulse);
  ConcreteCpu a = cpu;
  const ConcreteChoice old = select<V61, Concrete>(t, a, in);
  EXPECT_EQ(old.idx.v, 1u);
  EXPECT_EQ(judged(t, in, old), std::set<std::string>{"TEO-5"});
  ConcreteCpu b = cpu;
  const ConcreteChoice now = select<Mainline, Concrete>(t, b, in);
  EXPECT_EQ(now.idx.v, 2u);
  EXPECT_TRUE(judged(t, in, now).empty());
}

// --- the v7.0 merge window and v7.1 (spec/teo.md, Subjects) ---------------

// PowerNV-like: snooze, then 10 us, 50 us, 100 us, 1 ms and 10 ms states.
const Table kPowerNV = {st(0, 0, true),          st(1 * kUs, 10 * kUs),  st(5 * kUs, 50 * kUs),
                        st(10 * kUs, 100 * kUs), st(100 * kUs, 1 * kMs), st(200 * kUs, 10 * kMs)};

ConcretePeriod period(uint32_t last_idx, uint64_t residency_ns, bool got_tick = false) {
  return ConcretePeriod{Concrete::lit<32>(last_idx), Concrete::lit<64>(residency_ns), false,
                        got_tick, Concrete::lit<64>(residency_ns)};
}

// One teo_update() of subject S from `cpu` (sleep length as teo_select()
// left it) for the period; the bins after it.
template <class S>
ConcreteCpu learned(ConcreteCpu cpu, const ConcretePeriod& p) {
  learn<S, Concrete>(kPowerNV, cpu, p, Concrete::lit<64>(kMs));
  return cpu;
}

// f36de72673ad: the timer 20 ms away, the CPU out of the 10 ms state (exit
// 200 us) after 17 ms (measured 16.9 ms): the same bin as the timer, but
// 3.1 ms early, not under lat / 2 = 100 us. v6.19 counts a hit, v7.0 and
// mainline an intercept in that bin. At the boundary: measured exactly
// 100 us before the timer is an intercept, 1 ns later a hit.
TEST(TeoUpstream, HitNeedsTheTimerWithinHalfTheExitLatency) {
  ConcreteCpu cpu = fresh_cpu<Concrete>();
  cpu.sleep_length_ns = Concrete::lit<64>(20 * kMs);
  const ConcretePeriod early = period(5, 17 * kMs);
  const ConcreteCpu old = learned<V619>(cpu, early);
  EXPECT_EQ(old.bins[5].hits.v, kPulse);
  EXPECT_EQ(old.bins[5].intercepts.v, 0u);
  for (const ConcreteCpu& now : {learned<V70>(cpu, early), learned<Mainline>(cpu, early)}) {
    EXPECT_EQ(now.bins[5].hits.v, 0u);
    EXPECT_EQ(now.bins[5].intercepts.v, kPulse);
    EXPECT_EQ(now.tick_intercepts.v, 0u);  // 16.9 ms is beyond a tick
  }
  EXPECT_EQ(learned<Mainline>(cpu, period(5, 20 * kMs)).bins[5].intercepts.v, kPulse);
  EXPECT_EQ(learned<Mainline>(cpu, period(5, 20 * kMs + 1)).bins[5].hits.v, kPulse);
  // A polling time-out (measured KTIME_MAX) is still a hit on the timer's bin.
  ConcretePeriod timeout = period(0, 5 * kMs);
  timeout.poll_time_limit = true;
  EXPECT_EQ(learned<Mainline>(cpu, timeout).bins[5].hits.v, kPulse);
}

// 60836533b4c7: a tick wake-up (1 ms into a 20 ms timer, measured 900 us:
// bin 3) that does not dominate. With no tick intercepts it is a hit on the
// timer's bin 5 in v7.0 and mainline; v6.19 counts an intercept in bin 3
// and a tick intercept. With tick intercepts at 2/3 of the bins' sum or
// more, v7.0 counts the intercept too.
TEST(TeoUpstream, TickWakeupIsAHitUnlessTickInterceptsDominate) {
  ConcreteCpu cpu = fresh_cpu<Concrete>();
  cpu.sleep_length_ns = Concrete::lit<64>(20 * kMs);
  cpu.bins[2].hits = Concrete::lit<32>(8000);  // decays to 7000, the bins' sum
  cpu.total = Concrete::lit<32>(8000 + kPulse);
  const ConcretePeriod tick = period(5, kMs, true);
  const ConcreteCpu old = learned<V619>(cpu, tick);
  EXPECT_EQ(old.bins[3].intercepts.v, kPulse);
  EXPECT_EQ(old.tick_intercepts.v, kPulse);
  EXPECT_EQ(old.bins[5].hits.v, 0u);
  for (const ConcreteCpu& now : {learned<V70>(cpu, tick), learned<Mainline>(cpu, tick)}) {
    EXPECT_EQ(now.bins[5].hits.v, kPulse);
    EXPECT_EQ(now.bins[3].intercepts.v, 0u);
    EXPECT_EQ(now.tick_intercepts.v, 0u);
  }
  // Tick intercepts 5334 decay to 4668: 3 x 4668 = 14004 >= 2 x 7000.
  cpu.tick_intercepts = Concrete::lit<32>(5334);
  const ConcreteCpu busy = learned<V70>(cpu, tick);
  EXPECT_EQ(busy.bins[3].intercepts.v, kPulse);
  EXPECT_EQ(busy.bins[5].hits.v, 0u);
}

// 475ca3470b37: the tick kept for a state shallower than a tick when tick
// intercepts are at least 2/3 of total (v6.19: over 5/8). total 1000: 640
// keeps it in v6.19 only, 667 in every one of them.
TEST(TeoUpstream, TickKeptAtTwoThirdsTickIntercepts) {
  const Table t = {st(0, 0, true), st(10 * kUs, 100 * kUs)};
  const ConcreteInputs in = inputs(2000000000ULL * kUs, 50 * kMs, kMs, false);
  auto stops = [&](auto select_fn, uint32_t tick_intercepts) {
    ConcreteCpu cpu = fresh_cpu<Concrete>();
    cpu.total = Concrete::lit<32>(1000);
    cpu.tick_intercepts = Concrete::lit<32>(tick_intercepts);
    const ConcreteChoice c = select_fn(t, cpu, in);
    EXPECT_EQ(c.idx.v, 1u);
    return c.stop_tick;
  };
  EXPECT_FALSE(stops(&select<V619, Concrete>, 640));
  EXPECT_TRUE(stops(&select<V70, Concrete>, 640));
  EXPECT_TRUE(stops(&select<Mainline, Concrete>, 640));
  EXPECT_FALSE(stops(&select<V70, Concrete>, 667));
  EXPECT_FALSE(stops(&select<Mainline, Concrete>, 667));
}

// 4bd2221f231d (v7.0 only): the tick stopped, intercepts in bin 0, the two
// deepest states both 2 ms. v6.19's search stops at min_idx 2, the
// shallower of the two; v7.0 keeps the candidate 3; mainline (no min_idx)
// walks to bin 0 and its stopped-tick promotion takes 3.
TEST(TeoUpstream, NoStateWithAZeroSizeBin) {
  const Table t = {st(0, 0, true), st(2 * kUs, 20 * kUs), st(100 * kUs, 2 * kMs),
                   st(200 * kUs, 2 * kMs)};
  const ConcreteInputs in = inputs(2000000000ULL * kUs, 50 * kMs, 50 * kMs, true);
  ConcreteCpu cpu = fresh_cpu<Concrete>();
  cpu.bins[0].intercepts = Concrete::lit<32>(8000);
  cpu.total = Concrete::lit<32>(8000 + kPulse);
  ConcreteCpu a = cpu, b = cpu, c = cpu;
  EXPECT_EQ((select<V619, Concrete>(t, a, in).idx.v), 2u);
  EXPECT_EQ((select<V70, Concrete>(t, b, in).idx.v), 3u);
  EXPECT_EQ((select<Mainline, Concrete>(t, c, in).idx.v), 3u);
}

// a971f984b845's shortcut (v7.0: min_idx taken when it is enabled and at or
// past the bin with the most intercepts) changes no answer (spec/teo.md,
// v7.0): v7.0 equals v7.0 without it on a grid of disabled states, heaviest
// intercept bins and tick states.
TEST(TeoUpstream, ShortcutAgreesWithTheWalk) {
  const Table t = {st(0, 0, true), st(2 * kUs, 20 * kUs), st(20 * kUs, 200 * kUs),
                   st(50 * kUs, 1500 * kUs), st(100 * kUs, 5 * kMs)};
  size_t compared = 0;
  for (uint32_t mask = 0; mask < 16; ++mask) {
    for (uint32_t heavy = 0; heavy < 4; ++heavy) {
      for (bool stopped : {false, true}) {
        Table u = t;
        for (size_t i = 0; i < 4; ++i) u[i].disabled = (mask >> i & 1) != 0;
        ConcreteCpu cpu = fresh_cpu<Concrete>();
        cpu.bins[heavy].intercepts = Concrete::lit<32>(6000);
        cpu.bins[(heavy + 1) % 4].intercepts = Concrete::lit<32>(3000);
        cpu.total = Concrete::lit<32>(9000 + kPulse);
        const ConcreteInputs in =
            inputs(2000000000ULL * kUs, 50 * kMs, stopped ? 50 * kMs : kMs, stopped);
        ConcreteCpu a = cpu, b = cpu;
        const ConcreteChoice v70 = select<V70, Concrete>(u, a, in);
        const ConcreteChoice walk = select<witness::V70WithoutShortcut, Concrete>(u, b, in);
        EXPECT_EQ(v70.idx.v, walk.idx.v) << "mask " << mask << " heavy " << heavy;
        EXPECT_EQ(v70.stop_tick, walk.stop_tick);
        ++compared;
      }
    }
  }
  EXPECT_EQ(compared, 128u);
}

}  // namespace
}  // namespace idlespec::teo
