// The inputs menu's harness is driven with: seeded state tables and idle
// sequences, the hand-picked cases of GOV-1, -2 and -8, and GOV-6's families.
#include <algorithm>
#include <random>

#include "validate/governor_run.h"

namespace idlespec::validate::menu {
namespace {

std::vector<gov::TableEntry> ordered_table(std::mt19937_64& rng, size_t n) {
  static const uint64_t exit_steps[] = {0, 1000, 2000, 5000, 12000, 50000, 200000, 1000000};
  static const uint64_t tr_steps[] = {0, 1000, 10000, 100000, 300000, 1000000, 5000000, 20000000};
  std::vector<gov::TableEntry> t;
  uint64_t el = 0, tr = 0;
  for (size_t i = 0; i < n; ++i) {
    gov::TableEntry e;
    if (i == 0) {
      e.polling = rng() % 5 != 0;
      el = e.polling ? 0 : exit_steps[rng() % 4];
      tr = e.polling ? 0 : el + tr_steps[rng() % 3];
    } else {
      el += exit_steps[1 + rng() % 7];
      tr = std::max(tr + tr_steps[1 + rng() % 7], el * (1 + rng() % 10));
    }
    e.exit_latency_ns = el;
    e.target_residency_ns = tr;
    e.disabled = rng() % 6 == 0;
    t.push_back(e);
  }
  return t;
}

uint64_t pick_time(std::mt19937_64& rng, uint64_t tick, const std::vector<gov::TableEntry>& t) {
  const uint64_t tr = t[rng() % t.size()].target_residency_ns;
  switch (rng() % 20) {
    case 0:
      return 0;
    case 1:
      return 1 + rng() % 20000;
    case 2:
      return 15000 - 1 + rng() % 3;
    case 3:
      return tick - 1 + rng() % 3;
    case 4:
      return tr == 0 ? 0 : tr - 1 + rng() % 3;
    case 5:
      return 50000000;
    case 6:
      return 310000000;
    case 7:
      return uint64_t{0xffffffff} * 1000 + rng() % 2000;
    case 8:
      return kRangeNs - 1;
    case 9:
      return rng() % 8 == 0 ? kS64Max : uint64_t{1} << 63;  // KTIME_MAX, negative
    case 10:
    case 11:
      return rng() % 2000000;
    case 12:
    case 13:
      return rng() % 100000000;
    default:
      return (1 + rng() % 30) * uint64_t{100000} * (1 + rng() % 50);
  }
}

uint64_t pick_limit(std::mt19937_64& rng, const std::vector<gov::TableEntry>& t) {
  const uint64_t el = t[rng() % t.size()].exit_latency_ns;
  switch (rng() % 12) {
    case 0:
      return 0;
    case 1:
      return 1;
    case 2:
      return el;
    case 3:
      return el == 0 ? 0 : el - 1;
    case 4:
      return el + 1;
    case 5:
      return rng() % 2000000;
    case 6:
      return kS64Max;
    default:
      return kNoLimitNs;
  }
}

std::vector<Step> make_steps(std::mt19937_64& rng, unsigned hz,
                             const std::vector<gov::TableEntry>& t) {
  const uint64_t tick = gov::tick_nsec(hz);
  std::vector<Step> s(1 + rng() % 20);
  // Half the sequences repeat one idle duration, so that the typical interval
  // takes over and the timer is consulted.
  static const uint64_t repeats[] = {8000, 30000, 200000, 2000000, 8000000, 40000000};
  const bool pattern = rng() % 2;
  const uint64_t r = repeats[rng() % 6];
  const unsigned stopped_pct = static_cast<unsigned>(rng() % 3) * 30;
  for (Step& x : s) {
    x.latency_req = pick_limit(rng, t);
    x.sleep = pick_time(rng, tick, t);
    switch (rng() % 4) {
      case 0:
        x.dtick = x.sleep;
        break;
      case 1:
        x.dtick = std::min<uint64_t>(x.sleep, rng() % tick);
        break;
      case 2:
        x.dtick = pick_time(rng, tick, t);
        break;
      default:
        x.dtick = std::min<uint64_t>(x.sleep, tick);
        break;
    }
    // The tick layer never reports a negative time to the tick with a
    // non-negative sleep length (the model reads that word as unsigned).
    if (x.dtick > kS64Max && x.sleep <= kS64Max) x.dtick = x.sleep;
    x.stopped = rng() % 100 < stopped_pct;
    x.residency = pattern && rng() % 8 ? r + rng() % 50 : pick_time(rng, tick, t) % kRangeNs;
    x.got_tick = rng() % 7 == 0;
    x.poll_limit = rng() % 7 == 0;
    x.entered = rng() % 12 != 0;
  }
  return s;
}

// GOV-6: families of inputs that differ in one thing. Eight steps teach the
// predictor one idle duration (the ring full of it, the factor learning it),
// the ninth is the selection compared. 'l' members repeat the same eight
// steps and differ only in the ninth step's latency limit (the same learned
// state); 'p' members share the ninth step and learn different durations (a
// different prediction, the walk's other inputs the same). The first two
// families are spec/governor.md's counterexamples.
void add_monotonic_families(std::mt19937_64& rng, std::vector<Input>& in) {
  int family = 0;
  auto member = [&](unsigned hz, const std::vector<gov::TableEntry>& t, Step teach,
                    const Step& last, char vary) {
    Input x{hz, t, std::vector<Step>(8, teach), "GOV-6", family, vary};
    x.steps.push_back(last);
    in.push_back(std::move(x));
  };
  auto limits = [&](unsigned hz, const std::vector<gov::TableEntry>& t, const Step& teach,
                    Step last, const std::vector<uint64_t>& values) {
    for (uint64_t v : values) last.latency_req = v, member(hz, t, teach, last, 'l');
  };
  auto predictions = [&](unsigned hz, const std::vector<gov::TableEntry>& t, Step teach,
                         const Step& last, const std::vector<uint64_t>& idle) {
    for (uint64_t v : idle) teach.residency = v, member(hz, t, teach, last, 'p');
  };
  {  // the limit: a deeper state within the larger limit sends the kept tick down
    const std::vector<gov::TableEntry> t = {{"S0", 0, 0, false, false, false},
                                            {"S1", 0, 401000, false, false, false},
                                            {"S2", 1552000, 67120000, false, false, false}};
    Step teach;
    teach.latency_req = 1024000, teach.sleep = 100000000, teach.dtick = 0,
    teach.residency = 8389000;
    limits(250, t, teach, teach, {1024000, 2000000, 33550000, kNoLimitNs});
    ++family;
  }
  {  // the prediction: with the tick stopped a short one is replaced by the timer
    const std::vector<gov::TableEntry> t = {{"S0", 5727000, 79870000, false, false, false},
                                            {"S1", 17959000, 80250000, false, false, false}};
    Step teach;
    teach.sleep = teach.dtick = 93340000, teach.stopped = true;
    predictions(250, t, teach, teach, {1000000, 3000000, 30000000, 60000000});
    ++family;
  }
  const unsigned hzs[] = {100, 250, 300, 1000};
  for (int i = 0; i < 24; ++i, ++family) {
    const unsigned hz = hzs[rng() % 4];
    const uint64_t tick = gov::tick_nsec(hz);
    auto t = ordered_table(rng, 2 + rng() % 4);
    Step teach;
    teach.sleep = pick_time(rng, tick, t) % kRangeNs;
    teach.dtick = rng() % 2 ? teach.sleep : std::min<uint64_t>(teach.sleep, rng() % tick);
    teach.stopped = rng() % 2;
    teach.latency_req = rng() % 2 ? kNoLimitNs : pick_limit(rng, t);
    const uint64_t tr = t[rng() % t.size()].target_residency_ns;
    teach.residency = rng() % 2 ? tr + 20000 + rng() % 3 : tick - 1 + rng() % 3;
    if (i % 2 == 0) {
      std::vector<uint64_t> values = {0, kNoLimitNs};
      for (const auto& e : t)
        values.push_back(e.exit_latency_ns), values.push_back(e.exit_latency_ns + 1);
      limits(hz, t, teach, teach, values);
    } else {
      std::vector<uint64_t> idle = {30000, tick / 2, tick + tick / 2};
      for (const auto& e : t) idle.push_back(e.target_residency_ns + e.exit_latency_ns + 1000);
      predictions(hz, t, teach, teach, idle);
    }
  }
}

}  // namespace

std::vector<Input> make_inputs(uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<Input> in;
  const unsigned hzs[] = {100, 250, 300, 1000};
  auto add = [&](unsigned hz, std::vector<gov::TableEntry> t, std::vector<Step> s,
                 const char* clause) {
    in.push_back({hz, std::move(t), std::move(s), clause});
  };
  // The pseries POWER10 table: snooze and CEDE.
  const std::vector<gov::TableEntry> p10 = gov::pseries_p10_table();
  for (int i = 0; i < 40; ++i) {
    const unsigned hz = hzs[rng() % 4];
    auto t = p10;
    if (i % 10 == 9) t[rng() % 2].disabled = true;
    add(hz, t, make_steps(rng, hz, t), "GOV-7");
  }
  // GOV-8's case: short periods (the timer is not consulted), then a polling
  // state that times out.
  for (int i = 0; i < 4; ++i) {
    std::vector<Step> s(10);
    for (Step& x : s) x.sleep = x.dtick = 5000000, x.residency = 5000;
    s[8].poll_limit = true;
    add(1000, p10, s, "GOV-8");
  }
  // GOV-2 with the tick stopped: a learned period of about 1 ms, the timer
  // far, the next tick beyond the deep state's residency, the limit between
  // the states' exit latencies (spec/governor.md's v6.14 counterexample).
  for (int i = 0; i < 6; ++i) {
    const std::vector<gov::TableEntry> t = {{"poll", 0, 0, true, false, false},
                                            {"C1", 5000, 5000, false, false, false},
                                            {"C2", 200000, 2000000, false, false, false}};
    std::vector<Step> s(10 + i);
    for (Step& x : s) {
      x.latency_req = 20000;
      x.sleep = 50000000;
      x.dtick = 4000000 + 1000000 * static_cast<uint64_t>(i);
      x.stopped = true;
      x.residency = 1000000 + 50000 * static_cast<uint64_t>(i);
    }
    add(1000, t, s, "GOV-2");
  }
  // Single states, all disabled, limit 0.
  for (int i = 0; i < 12; ++i) {
    const unsigned hz = hzs[rng() % 4];
    auto t = ordered_table(rng, i % 3 == 0 ? 1 : 3);
    if (i % 3 == 1)
      for (auto& e : t) e.disabled = true;
    auto s = make_steps(rng, hz, t);
    if (i % 3 == 2)
      for (Step& x : s) x.latency_req = 0;
    add(hz, t, s, "GOV-1");
  }
  // Random ordered tables of 1..8 states.
  for (int i = 0; i < 220; ++i) {
    const unsigned hz = hzs[rng() % 4];
    auto t = ordered_table(rng, 1 + rng() % 8);
    add(hz, t, make_steps(rng, hz, t), "GOV-7");
  }
  // Tables that break STATES-1..3 (GOV-7: only the index bound, GOV-1, GOV-4).
  for (int i = 0; i < 40; ++i) {
    const unsigned hz = hzs[rng() % 4];
    auto t = ordered_table(rng, 2 + rng() % 6);
    std::shuffle(t.begin() + 1, t.end(), rng);
    if (rng() % 2) t[rng() % t.size()].exit_latency_ns += 3000000;
    add(hz, t, make_steps(rng, hz, t), "GOV-7");
  }
  add_monotonic_families(rng, in);
  return in;
}

}  // namespace idlespec::validate::menu
