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

}  // namespace
}  // namespace idlespec::teo
