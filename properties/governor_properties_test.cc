// The governor checks of the properties layer: registered as spec/governor.md
// lists them; the exact recompute against hand-worked values; and the
// verdicts per subject, with the counterexamples the spec records.
#include "properties/governor_properties.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <iostream>
#include <set>

#include "verify/registry.h"
#include "verify/spec_index.h"

namespace idlespec::props::gov {
namespace {

using governor::kUintMax;
using verify::CheckKind;
using verify::Outcome;

const std::vector<std::string> kSubjects = {"v6.14",     "seed-v2", "seed-threshold",
                                            "reference", "v6.19",   "mainline"};
// The subjects with the v6.15 predictor and the limit checked first.
bool v615_or_later(const std::string& s) {
  return s == "reference" || s == "v6.19" || s == "mainline";
}

TEST(GovernorRegistry, FourPropertiesForEverySubject) {
  const verify::Registry& registry = verify::builtin_registry();
  const std::vector<std::pair<std::string, std::vector<std::string>>> expected = {
      {"governor_selection", {"GOV-1", "GOV-2", "GOV-3", "GOV-4", "GOV-7"}},
      {"governor_wakeup_sequence", {"GOV-1", "GOV-2", "GOV-3", "GOV-4", "GOV-5", "GOV-8", "GOV-9"}},
      {"governor_predictor_exact", {"GOV-5"}},
      {"governor_monotonic", {"GOV-6"}},
  };
  size_t registered = 0;
  for (const verify::Check& c : registry.checks()) {
    if (c.component == "governor" && c.kind == CheckKind::property) ++registered;
  }
  EXPECT_EQ(registered, expected.size());
  for (const auto& [name, clauses] : expected) {
    const verify::Check* c = registry.find(CheckKind::property, name);
    ASSERT_NE(c, nullptr) << name;
    EXPECT_EQ(c->component, "governor");
    EXPECT_EQ(c->clauses, clauses) << name;
    EXPECT_EQ(c->subjects, kSubjects) << name;
  }
  // Where the spec already lists governor checks, it lists these.
  const verify::SpecIndex spec = verify::builtin_spec();
  for (const verify::Clause& clause : spec.clauses) {
    if (clause.component != "governor") continue;
    for (const verify::CheckRef& ref : clause.checks) {
      if (ref.kind != CheckKind::property) continue;
      const verify::Check* c = registry.find(ref.kind, ref.name);
      ASSERT_NE(c, nullptr) << ref.name;
      EXPECT_NE(std::find(c->clauses.begin(), c->clauses.end(), clause.id), c->clauses.end())
          << ref.name << " does not name " << clause.id;
    }
  }
}

TEST(GovernorExact, BucketsAndTimerRounding) {
  EXPECT_EQ(governor::oracle::bucket_of(9999), 0u);
  EXPECT_EQ(governor::oracle::bucket_of(10000), 1u);
  EXPECT_EQ(governor::oracle::bucket_of(999999), 2u);
  EXPECT_EQ(governor::oracle::bucket_of(99999999), 4u);
  EXPECT_EQ(governor::oracle::bucket_of(100000000), 5u);
  ConcreteHistory h = governor::fresh_history<Concrete>();  // no typical interval
  ConcreteInputs in{};
  in.tick_ns = Concrete::lit<64>(governor::tick_nsec(1000));
  // Half a microsecond rounds up, just below it rounds down.
  for (const auto& [sleep, us] : std::vector<std::pair<uint64_t, uint64_t>>{
           {499, 0}, {500, 1}, {1499, 1}, {1500, 2}, {50000000, 50000}}) {
    in.sleep_length_ns = Concrete::lit<64>(sleep);
    const governor::oracle::Predict p =
        governor::oracle::predict(governor::Predictor::kTwoPass, false, false, h, in);
    EXPECT_TRUE(p.consult_timer);
    EXPECT_EQ(static_cast<uint64_t>(p.timer_us), us) << sleep;
    EXPECT_EQ(static_cast<uint64_t>(p.predicted_ns), us * 1000) << sleep;
  }
  // Half the factor halves the prediction.
  h.correction_factor[4] = Concrete::lit<32>(4096);
  in.sleep_length_ns = Concrete::lit<64>(50000000);
  EXPECT_EQ(static_cast<uint64_t>(
                governor::oracle::predict(governor::Predictor::kTwoPass, false, false, h, in)
                    .predicted_ns),
            25000000u);
  // The first sleep length whose timer_us passes an unsigned int at unity
  // factor: 2^32 us less half a microsecond.
  in.sleep_length_ns = Concrete::lit<64>(kUintUsNs - 501);
  EXPECT_EQ(governor::oracle::predict(governor::Predictor::kTwoPass, false, false, h, in).timer_us,
            kUintMax);
  in.sleep_length_ns = Concrete::lit<64>(kUintUsNs - 500);
  EXPECT_EQ(governor::oracle::predict(governor::Predictor::kTwoPass, false, false, h, in).timer_us,
            governor::oracle::u128{kUintMax} + 1);
}

TEST(GovernorExact, MenuUpdateMeasuredValue) {
  const Table t = governor::to_states(governor::pseries_p10_table());  // CEDE 12 us / 120 us
  ConcreteHistory h = governor::fresh_history<Concrete>();
  h.next_timer_ns = Concrete::lit<64>(1000000);
  h.bucket = Concrete::lit<32>(2);
  ConcreteInputs in{};
  in.tick_ns = Concrete::lit<64>(governor::tick_nsec(250));
  in.last_state_idx = Concrete::lit<32>(1);
  in.last_residency_ns = Concrete::lit<64>(100000);  // > 2 x 12 us: less the exit latency
  governor::oracle::Update u = governor::oracle::menu_update(t, h, in);
  EXPECT_EQ(static_cast<uint64_t>(u.measured_ns), 88000u);
  EXPECT_EQ(static_cast<uint64_t>(u.factor), 8192u - 1024 + 1024 * 88000 / 1000000);
  EXPECT_EQ(static_cast<uint64_t>(u.interval_us), 88u);
  in.last_residency_ns = Concrete::lit<64>(20000);  // <= 2 x 12 us: half of it
  EXPECT_EQ(static_cast<uint64_t>(governor::oracle::menu_update(t, h, in).measured_ns), 10000u);
  // The tick woke it with the timer more than a tick away: 45 ms, learnt.
  h.tick_wakeup = true;
  h.next_timer_ns = Concrete::lit<64>(100000000);
  u = governor::oracle::menu_update(t, h, in);
  EXPECT_EQ(static_cast<uint64_t>(u.measured_ns), 45000000u);
  EXPECT_EQ(static_cast<uint64_t>(u.factor), 8192u - 1024 + 1024 * 45 / 100);
  // 50 ms or more is not learnt from: the factor moves towards 1.0.
  h.tick_wakeup = false;
  in.last_residency_ns = Concrete::lit<64>(60000000);
  u = governor::oracle::menu_update(t, h, in);
  EXPECT_EQ(static_cast<uint64_t>(u.measured_ns), 60000000u - 12000);
  EXPECT_EQ(static_cast<uint64_t>(u.factor), 8192u - 1024 + 1024);
  EXPECT_EQ(static_cast<uint64_t>(u.interval_us), 59988u);
}

TEST(GovernorExact, TypicalIntervalOfASteadyRing) {
  std::array<uint32_t, governor::kIntervals> ring;
  ring.fill(100);
  EXPECT_EQ(governor::oracle::typical_two_pass(ring).us, 100u);
  EXPECT_EQ(governor::oracle::typical_both_ends(ring).us, 100u);
  ring.fill(0);
  EXPECT_EQ(governor::oracle::typical_two_pass(ring).us, kUintMax);
  EXPECT_EQ(governor::oracle::typical_both_ends(ring).us, kUintMax);
  // One outlier among eight: dropped, the rest accepted.
  ring = {100, 100, 100, 100, 100, 100, 100, 100000};
  EXPECT_EQ(governor::oracle::typical_two_pass(ring).us, 100u);
  EXPECT_EQ(governor::oracle::typical_both_ends(ring).us, 100u);
}

// The v6.15+ predictor sums the squares of the samples in 64 bits: eight
// equal intervals of 1518500250 us (about 25 minutes, the first value whose
// square exceeds 2^61) wrap it, and the ring no longer yields its interval.
TEST(GovernorExact, BothEndsSumOfSquaresWrapsAt1518500250Us) {
  std::array<Concrete::U<32>, governor::kIntervals> model;
  std::array<uint32_t, governor::kIntervals> ring;
  for (uint32_t v : {1518500249u, 1518500250u}) {
    ring.fill(v);
    model.fill(Concrete::lit<32>(v));
    const governor::oracle::Typical exact = governor::oracle::typical_both_ends(ring);
    EXPECT_EQ(exact.us, v);
    EXPECT_EQ(exact.accumulator_beyond_64, v == 1518500250u);
    const uint32_t got = governor::typical_interval_both_ends<Concrete>(model).v;
    EXPECT_EQ(got, v == 1518500250u ? kUintMax : v) << v;
    // The two-pass predictor of v6.14 leaves samples above INT_MAX out and
    // sums squared differences: no wrap.
    EXPECT_EQ(governor::typical_interval_two_pass<Concrete>(model).v, v);
    EXPECT_FALSE(governor::oracle::typical_two_pass(ring).accumulator_beyond_64);
  }
}

// The spec's example: poll 0/0, C1 5/5 us, C2 200 us / 2 ms; limit 20 us;
// HZ 1000, tick stopped, prediction one tick, 50 ms to the timer. v6.14
// promotes to C2 past the limit (GOV-2); the reference keeps C1.
TEST(GovernorJudge, TickStoppedPromotionPastTheLimit) {
  const std::vector<governor::TableEntry> entries = {{"poll", 0, 0, true, false, false},
                                                     {"C1", 5000, 5000, false, true, false},
                                                     {"C2", 200000, 2000000, false, true, false}};
  const Table t = governor::to_states(entries);
  ConcreteInputs in{};
  in.latency_req_ns = Concrete::lit<64>(20000);
  in.tick_ns = Concrete::lit<64>(governor::tick_nsec(1000));
  in.sleep_length_ns = in.delta_tick_ns = Concrete::lit<64>(50000000);
  in.tick_stopped = true;
  ConcretePrediction p{};
  p.predicted_ns = in.tick_ns;
  p.latency_req_ns = in.latency_req_ns;
  p.next_timer_ns = p.delta_tick_ns = Concrete::lit<64>(50000000);
  const ConcreteChoice v614 = governor::walk<governor::V614, Concrete>(t, p, in);
  EXPECT_EQ(v614.idx.v, 2u);
  EXPECT_EQ(v614.path.v, governor::kTickStoppedPromotion);
  EXPECT_EQ(clause_failure(governor::oracle::judge_selection(t, in, v614), "GOV-2", t),
            "state 2 exit latency 200000 ns > limit 20000 ns (path tick-stopped-promotion)");
  const ConcreteChoice ref = governor::walk<governor::Reference, Concrete>(t, p, in);
  EXPECT_EQ(ref.idx.v, 1u);
  EXPECT_EQ(clause_failure(governor::oracle::judge_selection(t, in, ref), "GOV-2", t), "");
}

// Mainline without e57c2bf2e89d: 80606f4eb8d7 alone, as stable trees carry it.
struct WithoutSafeRange : governor::Mainline {
  static constexpr bool safe_timer_range = false;
};

// The spec's GOV-9 example: the last eight idle periods 5 us each, poll
// 0/0, C1 2/10 us, C2 100 us / 1 ms; HZ 250, tick stopped, the timer 200 us
// away. v6.19 does not look the timer up (typical interval 5 us), replaces
// the short prediction by KTIME_MAX and takes C2. With 80606f4eb8d7 alone
// (Debian's 6.12) the timer replaces it: C1 fits. Mainline keeps the short
// prediction (the timer is within SAFE_TIMER_RANGE_NS), and the polling
// rule leaves poll for C1. Only v6.19 breaks GOV-9.
TEST(GovernorJudge, TickStoppedWithoutTheTimer) {
  const std::vector<governor::TableEntry> entries = {{"poll", 0, 0, true, false, false},
                                                     {"C1", 2000, 10000, false, true, false},
                                                     {"C2", 100000, 1000000, false, true, false}};
  const Table t = governor::to_states(entries);
  ConcreteInputs in{};
  in.latency_req_ns = Concrete::lit<64>(uint64_t{0x7fffffff} * 1000);
  in.tick_ns = Concrete::lit<64>(governor::tick_nsec(250));
  in.sleep_length_ns = in.delta_tick_ns = Concrete::lit<64>(200000);
  in.tick_stopped = true;
  in.last_state_idx = Concrete::lit<32>(0);
  in.last_residency_ns = Concrete::lit<64>(1000);  // not a rejected entry
  in.poll_time_limit = false;
  auto choose = [&](auto subject) {
    ConcreteHistory h = governor::fresh_history<Concrete>();
    for (auto& v : h.intervals) v = Concrete::lit<32>(5);
    return governor::select<decltype(subject), Concrete>(t, h, in);
  };
  const ConcreteChoice v619 = choose(governor::V619{});
  EXPECT_EQ(v619.idx.v, 2u);
  EXPECT_EQ(v619.predicted_ns.v, governor::kKtimeMax);
  EXPECT_EQ(clause_failure(governor::oracle::judge_selection(t, in, v619), "GOV-9", t),
            "tick stopped: state 2 target residency 1000000 ns > the time to the next timer "
            "200000 ns (path residency-fits, prediction 9223372036854775807 ns)");
  const ConcreteChoice backport = choose(WithoutSafeRange{});
  EXPECT_EQ(backport.idx.v, 1u);
  EXPECT_EQ(clause_failure(governor::oracle::judge_selection(t, in, backport), "GOV-9", t), "");
  const ConcreteChoice mainline = choose(governor::Mainline{});
  EXPECT_EQ(mainline.idx.v, 1u);
  EXPECT_EQ(mainline.path.v, governor::kPollingRule);
  EXPECT_EQ(mainline.predicted_ns.v, 5000u);  // as the walk started
  EXPECT_EQ(clause_failure(governor::oracle::judge_selection(t, in, mainline), "GOV-9", t), "");
  // delta_next beyond the sleep length is outside the clause's inputs.
  ConcreteInputs unordered = in;
  unordered.delta_tick_ns = Concrete::lit<64>(200001);
  EXPECT_EQ(clause_failure(governor::oracle::judge_selection(t, unordered, v619), "GOV-9", t), "");
}

// spec/governor.md, GOV-9's "A negative delta_next": poll 0/0, C1 2/200 us,
// C2 20 us / 50 ms; HZ 250, tick stopped, the timer 4 ms away, the clock
// event overdue (delta_next -2^63 as s64). The kernel compares the target
// residency with delta_next as s64: no promotion, C1 stays. The same walk
// with delta_next read as 2^63 (or any value past 50 ms) promotes to C2,
// which breaks GOV-9: the sign alone decides.
TEST(GovernorJudge, NegativeDeltaNextPromotesNothing) {
  const std::vector<governor::TableEntry> entries = {{"poll", 0, 0, true, false, false},
                                                     {"C1", 2000, 200000, false, true, false},
                                                     {"C2", 20000, 50000000, false, true, false}};
  const Table t = governor::to_states(entries);
  ConcreteInputs in{};
  in.latency_req_ns = Concrete::lit<64>(uint64_t{0x7fffffff} * 1000);
  in.tick_ns = Concrete::lit<64>(governor::tick_nsec(250));
  in.sleep_length_ns = Concrete::lit<64>(4000000);
  in.delta_tick_ns = Concrete::lit<64>(uint64_t{1} << 63);
  in.tick_stopped = true;
  ConcretePrediction p{};
  p.predicted_ns = in.tick_ns;
  p.latency_req_ns = in.latency_req_ns;
  p.next_timer_ns = in.sleep_length_ns;
  p.delta_tick_ns = in.delta_tick_ns;
  const ConcreteChoice c = governor::walk<governor::Mainline, Concrete>(t, p, in);
  EXPECT_EQ(c.idx.v, 1u);
  EXPECT_NE(c.path.v, governor::kTickStoppedPromotion);
  EXPECT_EQ(clause_failure(governor::oracle::judge_selection(t, in, c), "GOV-9", t), "");
  ConcretePrediction past = p;
  past.delta_tick_ns = Concrete::lit<64>(50000000);
  const ConcreteChoice promoted = governor::walk<governor::Mainline, Concrete>(t, past, in);
  EXPECT_EQ(promoted.idx.v, 2u);
  EXPECT_EQ(promoted.path.v, governor::kTickStoppedPromotion);
  EXPECT_NE(clause_failure(governor::oracle::judge_selection(t, in, promoted), "GOV-9", t), "");
}

verify::CheckResult run(const std::string& name, const std::string& subject) {
  const auto t0 = std::chrono::steady_clock::now();
  const verify::CheckResult r =
      run_governor_property(name, subject, verify::RunOptions::unhurried());
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::cout << name << " " << subject << ": " << verify::outcome_name(r.outcome) << " in " << s
            << " s; " << r.detail << "\n  counterexample: " << r.counterexample << "\n";
  // The time is printed, never asserted: a verdict must not depend on the
  // machine's speed (make bench measures speed).
  return r;
}

bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// GOV-1, 3, 4, 7 hold for every subject; GOV-2 for the reference and v6.19.
// v6.14 and both seed variants promote past the limit with the tick stopped.
TEST(GovernorProperties, Selection) {
  for (const std::string& subject : kSubjects) {
    const verify::CheckResult r = run("governor_selection", subject);
    if (v615_or_later(subject)) {
      EXPECT_EQ(r.outcome, Outcome::pass) << subject << ": " << r.detail;
      continue;
    }
    ASSERT_EQ(r.outcome, Outcome::fail) << subject << ": " << r.detail;
    EXPECT_EQ(r.violated, std::set<std::string>{"GOV-2"}) << subject;
    EXPECT_TRUE(has(r.counterexample, "tick stopped")) << r.counterexample;
    EXPECT_TRUE(has(r.detail, "(path tick-stopped-promotion)")) << r.detail;
    EXPECT_TRUE(has(r.detail, "GOV-1, GOV-3, GOV-4, GOV-7: 1000 random cases each passed"))
        << r.detail;
    EXPECT_EQ(r.replay,
              "idlespec check property governor_selection --subject " + subject + " --seed 1");
  }
}

// Through wake-up sequences: the same GOV-2 breaks; GOV-1, 3, 4 and the
// arithmetic (GOV-5) hold. Every subject breaks GOV-8 as the spec accepts: a
// polling state times out after a selection that did not consult the timer,
// and menu_update() stores ktime_to_us(KTIME_MAX) truncated to 32 bits.
TEST(GovernorProperties, WakeupSequence) {
  for (const std::string& subject : kSubjects) {
    const verify::CheckResult r = run("governor_wakeup_sequence", subject);
    ASSERT_EQ(r.outcome, Outcome::fail) << subject << ": " << r.detail;
    const bool old = !v615_or_later(subject);
    // GOV-9 (accepted for all but mainline): with the tick stopped and a
    // typical interval of at most 15 us, the timer is not consulted.
    std::set<std::string> expected =
        old ? std::set<std::string>{"GOV-2", "GOV-8"} : std::set<std::string>{"GOV-8"};
    if (subject != "mainline") expected.insert("GOV-9");
    EXPECT_EQ(r.violated, expected) << subject;
    EXPECT_TRUE(has(r.detail, "next_timer 9223372036854775807 ns")) << r.detail;
    EXPECT_TRUE(has(r.detail, "interval recorded 2783138807 us, exact 9223372036854775 us"))
        << r.detail;
    EXPECT_TRUE(has(r.detail, "poll_time_limit")) << r.detail;
    const char* held = old ? "GOV-1, GOV-3, GOV-4, GOV-5: 1000 random cases each passed"
                       : subject == "mainline"
                           ? "GOV-1, GOV-2, GOV-3, GOV-4, GOV-5, GOV-9: 1000 random cases each "
                             "passed"
                           : "GOV-1, GOV-2, GOV-3, GOV-4, GOV-5: 1000 random cases each passed";
    EXPECT_TRUE(has(r.detail, held)) << r.detail;
    if (subject != "mainline") {
      EXPECT_TRUE(has(r.detail, "GOV-9: selection ")) << r.detail;
      EXPECT_TRUE(has(r.detail, "ns > the time to the next timer")) << r.detail;
    }
    if (old) {
      EXPECT_TRUE(has(r.detail, "(path tick-stopped-promotion)")) << r.detail;
      EXPECT_TRUE(has(r.counterexample, "tick stopped")) << r.counterexample;
    }
  }
}

// The exact recompute: in GOV-5's ranges nothing differs for any subject.
// Beyond them (recorded in the detail) every subject loses timer_us to its
// unsigned int, and the v6.15+ predictor (reference, v6.19) wraps its sum of
// squares.
TEST(GovernorProperties, PredictorExact) {
  for (const std::string& subject : kSubjects) {
    const verify::CheckResult r = run("governor_predictor_exact", subject);
    EXPECT_EQ(r.outcome, Outcome::pass) << subject << ": " << r.detail;
    EXPECT_TRUE(has(r.detail,
                    "in the GOV-5 ranges: timer_us, sum_of_squares, other: 1000 random cases "
                    "each passed"))
        << r.detail;
    const size_t beyond = r.detail.find(
        "beyond the GOV-5 ranges (2^42 ns, any ring entry; "
        "recorded, not a violation): ");
    ASSERT_NE(beyond, std::string::npos) << r.detail;
    const std::string rest = r.detail.substr(beyond);
    EXPECT_TRUE(has(rest, "timer_us: falsified")) << rest;
    EXPECT_TRUE(has(rest, "(beyond an unsigned int)")) << rest;
    const bool both_ends = v615_or_later(subject);
    EXPECT_EQ(has(rest, "sum_of_squares: falsified"), both_ends) << rest;
  }
}

// Every subject breaks GOV-6 both ways. A prediction just below the tick,
// with the tick stopped, is replaced by the time to the timer, which can
// exceed a prediction of a tick or more. A higher limit lets the walk reach a
// state whose residency exceeds the prediction; with the tick running the
// governor then keeps the tick and corrects towards a state fitting the time
// to the tick, shallower than the one a lower limit stops at.
TEST(GovernorProperties, Monotonic) {
  for (const std::string& subject : kSubjects) {
    const verify::CheckResult r = run("governor_monotonic", subject);
    ASSERT_EQ(r.outcome, Outcome::fail) << subject << ": " << r.detail;
    EXPECT_EQ(r.violated, std::set<std::string>{"GOV-6"});
    const size_t limit = r.detail.find("limit: falsified");
    const size_t prediction = r.detail.find("prediction: falsified");
    ASSERT_NE(limit, std::string::npos) << r.detail;
    ASSERT_NE(prediction, std::string::npos) << r.detail;
    EXPECT_TRUE(has(r.detail.substr(limit, prediction - limit), "path tick-retained, keep tick"))
        << r.detail;
    EXPECT_TRUE(has(r.counterexample, "tick running")) << r.counterexample;
    // HZ 100: 10 ms less 1 ns is replaced by the 20 ms to the timer. In
    // mainline only a timer beyond SAFE_TIMER_RANGE_NS (2 ticks, 20 ms)
    // replaces it: the smallest counterexample is 1 ns further.
    const std::string timer = subject == "mainline" ? "20000001" : "20000000";
    EXPECT_TRUE(has(r.detail.substr(prediction),
                    "prediction 9999999 ns chose state 2, path residency-fits, stop tick, "
                    "predicted " +
                        timer + " ns; the larger prediction 10000000 ns chose state 1"))
        << r.detail;
    EXPECT_TRUE(has(r.counterexample,
                    "prediction: states [0 0/0, 1 0/0, 2 0/20000000]; limit 2147483647000 ns, "
                    "sleep length " +
                        timer + " ns, delta_tick 0 ns, tick stopped, HZ 100"))
        << r.counterexample;
  }
}

TEST(GovernorProperties, UnknownSubjectAndCheck) {
  EXPECT_EQ(run_governor_property("governor_selection", "v5.0", {}).outcome, Outcome::unknown);
  EXPECT_EQ(run_governor_property("governor_nothing", "reference", {}).outcome, Outcome::unknown);
}

}  // namespace
}  // namespace idlespec::props::gov
