// The governor component of `idlespec validate`: a file's menu_select() and
// menu_update() (with the helpers they call) against spec/governor.md.
//
// The harness (harness/harness_governor.c) drives one CPU through a state
// table and a sequence of idle periods: per step it sets the PM QoS limit,
// the tick layer's answers and the tick state, calls menu_select(), reports
// the index, stop_tick and whether it asked the tick layer for the time to
// the next timer, and the learned state of the per-CPU struct menu_device
// (correction factors, the interval ring, next_timer, bucket), then plays
// the idle period (menu_reflect(), or a rejected entry). The driver judges
// each selection (the status is held or failed; validate.cc's post-pass
// applies the spec's acceptances):
//
//   GOV-1, GOV-2, GOV-4, GOV-7  oracle/governor.h's judge_selection() on
//            (table, inputs, index, stop_tick): these need nothing the code
//            keeps to itself. A crash, a hang or an ASan report fails GOV-7.
//   GOV-3    judged on every selection as verify judges it, with the path
//            and the prediction that made the choice. The file does not
//            expose them; they are found from its own state after the
//            selection (its ring and correction factor, the next_timer it
//            recorded, whether it asked the tick layer): the matched
//            subject's walk of the subject's own prediction from that state;
//            else a subject's walk (the matched one first: a file may walk as
//            one subject and learn as another) of another known predictor's
//            prediction (two-pass v6.14, two-pass before the empty-ring check
//            v5.x..v6.1, both-ends v6.15, 85975daeaa4d's keeping the
//            maximum); else of any prediction exact arithmetic allows (the
//            walk is constant between the table's residencies, latencies and
//            the tick, so one walk per such value finds every range); else of
//            any prediction at all. A choice that no subject's walk gives is
//            judged by the clause's words:
//            not the fall-back, not a GOV-1 exception, not a choice the
//            polling rule or the tick-stopped promotion could make, and a
//            target residency above the largest prediction a known
//            predictor makes: failed.
//   GOV-5    wraps and divisions by zero: UBSan's reports (overflow,
//            division by zero) and SIGFPE; menu_update() by oracle/governor.h's
//            judge_update(), which recomputes each step the spec names (the
//            exit latency deduction, the factor update, the division by the
//            time to the next timer, the learned interval) exactly from the
//            file's own inputs and previous state, compares the file's factor
//            and stored interval, and names the step that wrapped: a learned
//            duration, shown by both, beyond what any deduction from the
//            residency gives (the deduction); the ratio formed in 32 bits
//            (the division); a factor outside 1..8192 (the factor update);
//            the predictor's sums by judge_typical() on what the file's own
//            get_typical_interval() answers, read back on the ring the
//            selection predicted from (an answer outside the ring's samples,
//            or one a predictor gives only with an accumulator in 32 bits);
//            in the predictor (governor_gov5.cc), a wrap the arithmetic
//            shows: the file's prediction recomputed from its own inputs (the
//            time to the next timer and factor it recorded, its own
//            get_typical_interval() answer, the known predictors') with one
//            word wrapped where the exact value does not fit it, whose walk
//            gives the choice that exact arithmetic does not, when every
//            divergence of the input is some prediction's walk. A choice no
//            prediction explains is never blamed on a wrap by elimination:
//            it is a walk of its own (a note naming the nearest subject and
//            where it differs; GOV-3 by the clause's words). A prediction or
//            a learning that merely differs from the subject's is the
//            differential's report (notes), not GOV-5.
//   GOV-6    searched: families of inputs that differ only in the last
//            step's latency limit (the same learned state), and selections
//            with the same walk inputs whose predictions are known (GOV-3
//            above) compared by prediction; a larger limit or a longer
//            prediction giving a shallower state is a counterexample
//            (failed; the spec accepts GOV-6 for every subject).
//   GOV-8    every interval menu_update() stores (judge_update() too): the
//            slot it wrote must hold the learned duration in us (recomputed
//            exactly from the file's previous state; when the file's factor
//            shows another learned duration, within the range that factor
//            implies), a rejected entry at most marks UINT_MAX. The
//            poll-timeout after a selection that did not consult the timer
//            (the truncation the spec accepts for every subject) is set
//            apart: without another GOV-8 finding it is failed with the
//            subjects whose own update stores the same value from the
//            file's state, which the post-pass turns into `accepted`. A
//            GOV-8 finding on an update where GOV-5 wrapped follows from
//            it, and the verdict says so (follows_from).
//
// The selection clauses judged on the choice alone (GOV-1, -2, -4, -7, -9)
// compare the subjects with the file on every failing input (failing_like):
// the acceptance validate.cc applies is named only when the subjects make
// the file's violating choice on every failing input they reach.
//
// Differential: every step is also run through the six subjects of
// impl/governor.h from the file's own learned state (so one divergence does
// not cascade); the note names the subject whose choices and learned state
// equal the file's on every selection, or the closest and the first
// divergence; a second note counts the selections explained by another
// prediction than the subject's.
//
// A governor in microseconds (struct menu_device keeps next_timer_us: v5.6
// and before) gets its inputs in its own units: whole microseconds, HZ whose
// tick is a whole number of them, no negative or over-long sleep length, so
// that the numbers the file compares are the judge's divided by 1000 (a
// 1 ns limit would reach it as 0 us and take the "no latency allowed"
// return); it is then judged like the others.
//
// Each failed clause's first counterexample is shrunk (every shorter prefix,
// each step left out, fewer states, plainer steps; the smallest candidate
// that still fails wins a round) by re-running the harness on candidates.

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <map>
#include <optional>
#include <random>
#include <regex>
#include <set>
#include <span>
#include <sstream>
#include <thread>

#include "fuzz/governor_input.h"
#include "impl/governor.h"
#include "oracle/governor.h"
#include "oracle/violation.h"
#include "sandbox/process.h"
#include "sandbox/sandbox.h"
#include "validate/component.h"
#include "validate/governor_gov5.h"
#include "validate/input_check.h"

namespace idlespec::validate {
namespace {

namespace gov = idlespec::governor;
namespace gf = idlespec::governor_fuzz;
using Clock = std::chrono::steady_clock;
using u128 = unsigned __int128;
using CState = gov::State<Concrete>;

// The clauses a menu.c of v4.4 to v4.12 breaks through the disabled state 0
// it falls back to (spec/governor.md's "- Era v4.4-v4.12:" lines).
const std::set<std::string> kDisabledState0Era = {"GOV-1", "GOV-2", "GOV-3", "GOV-9"};

constexpr size_t kMaxCounterexamples = 3;
constexpr uint64_t kNoLimitNs = uint64_t{0x7fffffff} * 1000;  // S32_MAX us
constexpr uint64_t kS64Max = 0x7fffffffffffffffULL;
constexpr uint64_t kRangeNs = uint64_t{1} << 40;
// The opening of a GOV-8 finding on an update where GOV-5 wrapped: the ring
// holds the wrapped duration.
const std::string kFollowsGov5 = "follows from GOV-5 (the update wrapped): ";

struct Step {
  uint64_t latency_req = kNoLimitNs, sleep = 0, dtick = 0;
  bool stopped = false;
  uint64_t residency = 0;
  bool got_tick = false, poll_limit = false, entered = true;
};

struct Input {
  unsigned hz = 1000;
  std::vector<gov::TableEntry> table;
  std::vector<Step> steps;
  std::string clause = "GOV-7";  // a hang or a WARN fails this one
  // GOV-6: inputs of one family share the table and the last step's inputs;
  // 'l' ones also the steps before it (only the last step's limit differs),
  // 'p' ones differ in the steps before it (what the predictor learned).
  int family = -1;
  char vary = 0;
  // A governor of before v4.4 may answer -1, no state (the core then ran the
  // default idle): the selection is not judged and the input ends there.
  bool may_decline = false;
};

// struct menu_device as the harness printed it.
struct Dev {
  bool ok = false;
  long long ptr = 0;
  uint32_t bucket = 0;
  uint64_t next_timer = 0;
  bool us = false;  // v5.x: next_timer_us
  std::array<uint32_t, gov::kBuckets> f{};
  std::array<uint32_t, gov::kIntervals> iv{};
  uint64_t next_timer_ns() const { return us ? next_timer * 1000 : next_timer; }
};

struct Sel {
  bool ok = false;
  long long idx = 0;
  bool stop = true;
  bool timer = true;  // it asked the tick layer for the time to the next timer
  Dev after;
  long long typical = -1;  // what its get_typical_interval() answers on that ring (-1: not read)
};

struct Outcome {
  bool reported = false, crashed = false, hung = false;
  long long crash_step = -1;
  std::string crash;
  Dev init;
  std::vector<Sel> sels;
  std::vector<std::string> warns, sanitizer;
};

// --- inputs ---------------------------------------------------------------------

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

// The inputs of a governor in microseconds (next_timer_us, v5.6 and before)
// in its own units: every time a whole number of microseconds, so that the
// harness's division by 1000 loses nothing (a limit of 1 ns is 0 us, and the
// judge must see the 0 the file sees); the sleep length within an unsigned
// int of microseconds and never negative (the era's ktime_to_us() into an
// unsigned int does not clamp); the limit within an int; HZ whose tick is a
// whole number of microseconds.
void in_microseconds(std::vector<Input>& inputs) {
  auto us = [](uint64_t v) { return v / 1000 * 1000; };
  auto time = [&](uint64_t v) { return v > kS64Max ? 0 : us(std::min(v, kRangeNs - 1)); };
  for (Input& in : inputs) {
    if (in.hz == 300) in.hz = 250;
    for (auto& e : in.table) {
      e.exit_latency_ns = us(std::min(e.exit_latency_ns, kRangeNs - 1));
      e.target_residency_ns = us(std::min(e.target_residency_ns, kRangeNs - 1));
    }
    for (Step& x : in.steps) {
      x.latency_req = us(std::min(x.latency_req, kNoLimitNs));
      x.sleep = time(x.sleep);
      x.dtick = time(x.dtick);
      x.residency = time(x.residency);
    }
  }
}

// The inputs of a governor from before v4.17's idle loop rework
// (menu_select(drv, dev): no stop_tick), when the idle loop stopped the tick
// before it asked the governor: every step with the tick stopped and the
// time to the next event the sleep length (the tick no longer bounds it).
// Inputs with the tick running describe a kernel that did not exist then.
void tick_stopped_first(std::vector<Input>& inputs) {
  for (Input& in : inputs) {
    in.may_decline = true;
    for (Step& x : in.steps) {
      x.stopped = true;
      x.dtick = x.sleep;
    }
  }
}

// menu_select(struct cpuidle_driver *drv, struct cpuidle_device *dev): the
// two-parameter form of before v4.17.
bool select_without_stop_tick(const std::string& code) {
  static const std::regex two(
      R"(\bmenu_select\s*\(\s*struct\s+cpuidle_driver\s*\*\s*\w+\s*,\s*struct\s+cpuidle_device\s*\*\s*\w+\s*\))");
  return std::regex_search(code, two);
}

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

// --- the line protocol ---------------------------------------------------------------

std::string table_text(const std::vector<gov::TableEntry>& t) {
  std::string s;
  for (size_t i = 0; i < t.size(); ++i) {
    s += (i ? "," : "") + std::to_string(t[i].exit_latency_ns) + ":" +
         std::to_string(t[i].target_residency_ns) + ":";
    std::string f = std::string(t[i].polling ? "p" : "") + (t[i].disabled ? "d" : "");
    s += f.empty() ? "-" : f;
  }
  return s;
}

std::string input_line(size_t id, const Input& in) {
  std::string s =
      std::to_string(id) + " " + std::to_string(in.hz) + " " + table_text(in.table) + " ";
  for (size_t k = 0; k < in.steps.size(); ++k) {
    const Step& x = in.steps[k];
    char b[200];
    std::snprintf(b, sizeof(b), "%s%llu/%llu/%llu/%d/%llu/%d/%d/%d", k ? ";" : "",
                  static_cast<unsigned long long>(x.latency_req),
                  static_cast<unsigned long long>(x.sleep),
                  static_cast<unsigned long long>(x.dtick), x.stopped ? 1 : 0,
                  static_cast<unsigned long long>(x.residency), x.got_tick ? 1 : 0,
                  x.poll_limit ? 1 : 0, x.entered ? 1 : 0);
    s += b;
  }
  return s + "\n";
}

std::string field(const std::string& line, const std::string& key) {
  const size_t p = line.find(" " + key + "=");
  if (p == std::string::npos) return "";
  const size_t b = p + key.size() + 2;
  return line.substr(b, line.find(' ', b) - b);
}

template <size_t N>
void parse_list(const std::string& s, std::array<uint32_t, N>& out) {
  std::istringstream is(s);
  std::string x;
  for (size_t i = 0; i < N && std::getline(is, x, ','); ++i)
    out[i] = static_cast<uint32_t>(std::strtoull(x.c_str(), nullptr, 10));
}

Dev parse_dev(const std::string& line) {
  Dev d;
  d.ok = line.find(" iv=") != std::string::npos;
  d.ptr = std::strtoll(field(line, "ptr").c_str(), nullptr, 10);
  d.bucket = static_cast<uint32_t>(std::strtoul(field(line, "bucket").c_str(), nullptr, 10));
  d.next_timer = std::strtoull(field(line, "next_timer").c_str(), nullptr, 10);
  d.us = field(line, "unit") == "us";
  parse_list(field(line, "f"), d.f);
  parse_list(field(line, "iv"), d.iv);
  return d;
}

struct Batch {
  std::vector<Outcome> outcomes;
  std::vector<RunRecord> runs;
  std::vector<std::string> errors;
};

// The harness line of an input, without its id.
std::string line_of(const Input& in) {
  const std::string l = input_line(0, in);
  return l.substr(2, l.size() - 3);
}

// Runs `inputs` through the shared runner (validate/input_check.h) and reads
// harness_governor.c's lines: I (the device before the first step), then per
// step S (the choice) and U (what menu_update() left), or CRASH/HANG with
// the step in flight.
Batch run_inputs(const std::string& harness, bool sanitizers, const std::vector<Input>& inputs,
                 const std::string& dir, const std::string& tag, double budget) {
  std::vector<std::string> lines;
  for (const auto& in : inputs) lines.push_back(line_of(in));
  const HarnessBatch hb = run_harness_inputs(harness, sanitizers, lines, dir, tag, budget);
  Batch b;
  b.runs = hb.runs;
  b.errors = hb.errors;
  b.outcomes.resize(inputs.size());
  for (size_t i = 0; i < inputs.size(); ++i) {
    const HarnessOutcome& h = hb.outcomes[i];
    Outcome& o = b.outcomes[i];
    o.sels.resize(inputs[i].steps.size());
    o.reported = h.reported;
    o.warns = h.warns;
    o.sanitizer = h.sanitizer;
    if (h.reported && h.lines.empty()) {  // the runner blamed it for a harness that died
      o.crashed = true;
      o.crash = h.crash;
    }
    for (const auto& line : h.lines) {
      std::istringstream l(line);
      std::string word;
      long long step = -1;
      l >> word;
      if (word == "S" || word == "U" || word == "T" || word == "CRASH" || word == "HANG") l >> step;
      const bool step_ok = step >= 0 && static_cast<size_t>(step) < o.sels.size();
      if (word == "I") {
        o.init = parse_dev(" " + line);
      } else if (word == "S" && step_ok) {
        Sel& s = o.sels[static_cast<size_t>(step)];
        s.ok = true;
        s.idx = std::strtoll(field(" " + line, "idx").c_str(), nullptr, 10);
        s.stop = field(" " + line, "stop_tick") == "1";
        s.timer = field(" " + line, "timer") != "0";
      } else if (word == "U" && step_ok) {
        o.sels[static_cast<size_t>(step)].after = parse_dev(" " + line);
      } else if (word == "T" && step_ok) {
        o.sels[static_cast<size_t>(step)].typical =
            std::strtoll(field(" " + line, "typical").c_str(), nullptr, 10);
      } else if (word == "CRASH" || word == "HANG") {
        (word == "CRASH" ? o.crashed : o.hung) = true;
        o.crash_step = step;
        std::string sig, name;
        l >> sig >> name;
        o.crash = word == "CRASH" ? "signal " + sig + " (" + name + ")" : "no return within 2 s";
      }
    }
  }
  return b;
}

// --- describing ------------------------------------------------------------------------

std::string ns_text(uint64_t v) {
  if (v == kS64Max) return "KTIME_MAX";
  if (v > kS64Max) return std::to_string(static_cast<int64_t>(v)) + " ns";
  return std::to_string(v) + " ns";
}

std::string describe_table(const std::vector<gov::TableEntry>& t) {
  std::string s;
  for (size_t i = 0; i < t.size(); ++i) {
    s += (i ? ", " : "") + std::to_string(i) + (t[i].polling ? " poll" : "") +
         (t[i].disabled ? " disabled" : "") + " " + std::to_string(t[i].exit_latency_ns) + "/" +
         std::to_string(t[i].target_residency_ns);
  }
  return s + " ns (exit/target)";
}

std::string describe_step(const Step& x) {
  std::string s = "limit " +
                  (x.latency_req == kNoLimitNs ? std::string("none") : ns_text(x.latency_req)) +
                  ", sleep " + ns_text(x.sleep) + ", delta_tick " + ns_text(x.dtick) + ", tick " +
                  (x.stopped ? "stopped" : "running");
  if (!x.entered) return s + "; rejected";
  return s + "; idle " + ns_text(x.residency) + (x.got_tick ? " (tick woke)" : "") +
         (x.poll_limit ? " (poll_time_limit)" : "");
}

std::string describe(const Input& in, long long upto = -1) {
  std::string s = "HZ " + std::to_string(in.hz) + ", states " + describe_table(in.table) + "; ";
  const size_t n =
      upto < 0 ? in.steps.size() : std::min(in.steps.size(), static_cast<size_t>(upto) + 1);
  for (size_t k = 0; k < n; ++k)
    s += (k ? "; " : "") + std::string("step ") + std::to_string(k) + ": " +
         describe_step(in.steps[k]);
  if (s.size() > 1200) s = s.substr(0, 1200) + "...";
  return s;
}

std::string range_text(uint64_t lo, uint64_t hi) {
  if (hi == ~uint64_t{0}) return std::to_string(lo) + " ns and above";
  return std::to_string(lo) + ".." + std::to_string(hi) + " ns";
}

// A GOV-6 family member: its eight teaching steps are alike.
std::string describe_member(const Input& in) {
  if (in.family < 0 || in.steps.size() != 9) return describe(in);
  return "HZ " + std::to_string(in.hz) + ", states " + describe_table(in.table) +
         "; steps 0..7 each: " + describe_step(in.steps[0]) +
         "; step 8: " + describe_step(in.steps[8]);
}

// --- judging ---------------------------------------------------------------------------

struct Ctx {
  gov::History<Concrete> h;  // the file's state before the step, as the model holds it
  gov::Inputs<Concrete> in;
  bool history_ok = true;  // convertible (ns units, buckets 0..5, pointer in the ring)
};

Ctx context(const Input& input, const Outcome& o, size_t k) {
  Ctx c;
  const Dev& pre = k == 0 ? o.init : o.sels[k - 1].after;
  const Step* prev = k == 0 ? nullptr : &input.steps[k - 1];
  const bool reflected = prev != nullptr && prev->entered;
  auto& h = c.h;
  h = gov::fresh_history<Concrete>();
  h.needs_update = reflected;
  h.tick_wakeup = reflected && prev->got_tick;
  h.next_timer_ns = Concrete::lit<64>(pre.next_timer_ns());
  h.bucket = Concrete::lit<32>(pre.bucket);
  for (size_t b = 0; b < gov::kBuckets; ++b) h.correction_factor[b] = Concrete::lit<32>(pre.f[b]);
  for (size_t i = 0; i < gov::kIntervals; ++i) h.intervals[i] = Concrete::lit<32>(pre.iv[i]);
  h.interval_ptr = Concrete::lit<32>(static_cast<uint64_t>(pre.ptr));
  c.history_ok = pre.ok && pre.bucket < gov::kBuckets && pre.ptr >= 0 &&
                 pre.ptr < static_cast<long long>(gov::kIntervals);
  const Step& x = input.steps[k];
  auto& in = c.in;
  in.latency_req_ns = Concrete::lit<64>(x.latency_req);
  in.sleep_length_ns = Concrete::lit<64>(x.sleep);
  in.delta_tick_ns = Concrete::lit<64>(x.dtick);
  in.tick_stopped = x.stopped;
  in.tick_ns = Concrete::lit<64>(gov::tick_nsec(input.hz));
  const long long last = k == 0 ? 0 : o.sels[k - 1].idx;
  in.last_state_idx = Concrete::lit<32>(static_cast<uint64_t>(std::max(0LL, last)));
  in.last_residency_ns = Concrete::lit<64>(reflected ? prev->residency : 0);
  in.poll_time_limit = reflected && prev->poll_limit;
  return c;
}

bool same_learned(const gov::History<Concrete>& h, const Dev& d, std::string* why) {
  for (size_t b = 0; b < gov::kBuckets; ++b)
    if (h.correction_factor[b].v != d.f[b]) {
      if (why)
        *why = "correction factor " + std::to_string(b) + " " + std::to_string(d.f[b]) +
               " (subject " + std::to_string(h.correction_factor[b].v) + ")";
      return false;
    }
  for (size_t i = 0; i < gov::kIntervals; ++i)
    if (h.intervals[i].v != d.iv[i]) {
      if (why)
        *why = "interval " + std::to_string(i) + " " + std::to_string(d.iv[i]) + " us (subject " +
               std::to_string(h.intervals[i].v) + ")";
      return false;
    }
  if (static_cast<long long>(h.interval_ptr.v) != d.ptr) {
    if (why) *why = "ring pointer " + std::to_string(d.ptr);
    return false;
  }
  if (h.next_timer_ns.v != d.next_timer_ns() || h.bucket.v != d.bucket) {
    if (why)
      *why = "next_timer " + ns_text(d.next_timer_ns()) + ", bucket " + std::to_string(d.bucket) +
             " (subject " + ns_text(h.next_timer_ns.v) + ", " + std::to_string(h.bucket.v) + ")";
    return false;
  }
  return true;
}

std::string choice_text(long long idx, bool stop) {
  return "idx=" + std::to_string(idx) + " stop_tick=" + (stop ? "1" : "0");
}

// Subject `s`'s choice for the selection of `c`: its prediction from the
// file's state before the selection, then its walk; `h` is left holding what
// the subject learned while predicting.
gov::Choice<Concrete> subject_choice(const gf::Subject& s, const std::vector<CState>& states,
                                     const Ctx& c, gov::History<Concrete>& h) {
  h = c.h;
  return s.walk(states, s.predict(states, h, c.in), c.in);
}

// The differential: per subject, the selections whose choice and learned
// state equal the file's, and the first that does not.
struct Diff {
  std::vector<size_t> equal;
  std::vector<std::string> first;  // "" while none diverged
  size_t selections = 0;
};

void differ(const Input& input, const Outcome& o, Diff& d) {
  const auto subjects = gf::all_subjects();
  if (d.equal.empty()) d.equal.assign(subjects.size(), 0), d.first.assign(subjects.size(), "");
  const std::vector<CState> states = gov::to_states(input.table);
  for (size_t k = 0; k < o.sels.size(); ++k) {
    const Sel& s = o.sels[k];
    if (!s.ok) break;
    ++d.selections;
    Ctx c = context(input, o, k);
    for (size_t j = 0; j < subjects.size(); ++j) {
      std::string why;
      bool eq = c.history_ok;
      if (eq) {
        gov::History<Concrete> h;
        const auto ch = subject_choice(subjects[j], states, c, h);
        if (static_cast<long long>(ch.idx.v) != s.idx || ch.stop_tick != s.stop) {
          eq = false;
          why = "the file chose " + choice_text(s.idx, s.stop) + ", the subject " +
                choice_text(ch.idx.v, ch.stop_tick);
        } else if (!same_learned(h, s.after, &why)) {
          eq = false;
          why = "the file learned " + why;
        }
      } else {
        why = "the file's struct menu_device is not the model's (units or buckets)";
      }
      if (eq) {
        ++d.equal[j];
      } else if (d.first[j].empty()) {
        d.first[j] = describe(input, static_cast<long long>(k)) + ": at step " + std::to_string(k) +
                     " " + why;
      }
    }
  }
}

// The subject the file matches best (the first of the most matches).
size_t best_subject(const Diff& d) {
  size_t best = 0;
  for (size_t j = 0; j < d.equal.size(); ++j)
    if (d.equal[j] > d.equal[best]) best = j;
  return best;
}

// A selection whose prediction is known (the subject's walk of it gives the
// file's choice): GOV-6's prediction half compares such selections.
struct Known {
  std::string key;  // the walk's inputs besides the prediction
  uint64_t predicted = 0;
  long long idx = 0;
  std::string at;
};

struct Judged {
  std::map<std::string, std::string> f;  // clause -> first finding
  size_t selections = 0, gov5_update = 0, gov5_predict = 0, gov5_typical = 0;
  std::string gov8_accepted;          // the accepted truncation, observed
  long long gov8_accepted_step = -1;  // the selection whose update stored it
  // GOV-3: how each selection's prediction and path were found.
  size_t gov3_exact = 0, gov3_family = 0, gov3_other = 0, gov3_wrapped = 0, gov3_wording = 0;
  size_t gov3_unjudged = 0;
  size_t gov3_beyond = 0;  // beyond GOV-5's ranges, a walk of a prediction outside them
  size_t declined = 0;     // selections that answered -1 (Input::may_decline)
  std::string family_first, other_first;  // the first selection of each kind
  // GOV-5 through the walk: the first divergence only a prediction outside
  // exact arithmetic's range explains, set only when every divergence of the
  // input has some explanation; walk_differs when one has none (the file's
  // walk is not the subject's).
  std::string gov5_walk;
  bool walk_differs = false;
  std::string new_walk;        // the first choice no prediction explains (a walk of its own)
  std::string update_differs;  // menu_update() learns otherwise, without a wrap
  std::vector<Known> known;
  size_t gov8_stored = 0;
};

std::string ring_text(const std::array<uint32_t, gov::kIntervals>& iv) {
  std::string t = "[";
  for (size_t i = 0; i < iv.size(); ++i) t += (i ? " " : "") + std::to_string(iv[i]);
  return t + "] us";
}

bool in_ring_range(const Dev& d) {
  for (uint32_t v : d.iv)
    if (!(v == gov::kUintMax || v < kRangeNs / 1000)) return false;
  for (uint32_t v : d.f)
    if (v < 1 || v > gov::kUnityFactor) return false;
  return true;
}

// get_typical_interval() as 85975daeaa4d ("cpuidle: menu: Avoid discarding
// useful information", v6.15 until its late-2025 revert, also in 6.6.y) has
// it: the v6.15 loop over the samples between two thresholds, except that
// once at most three quarters of the samples remain, it answers the largest
// of them when at least half remain (instead of no prediction). Kept in the
// kernel's 64-bit words, so that it wraps where that predictor does.
uint32_t typical_keeping_max(const std::array<uint32_t, gov::kIntervals>& iv) {
  int64_t low = -1, high = gov::kUintMax;  // samples strictly between count
  for (;;) {
    uint64_t sum = 0, squares = 0;
    uint32_t count = 0, largest = 0, smallest = gov::kUintMax;
    for (uint32_t v : iv) {
      if (static_cast<int64_t>(v) <= low || static_cast<int64_t>(v) >= high) continue;
      ++count;
      sum += v;
      squares += uint64_t{v} * v;
      largest = std::max(largest, v);
      smallest = std::min(smallest, v);
    }
    if (largest == 0) return gov::kUintMax;
    const uint64_t avg = sum / count, spread = squares / count - avg * avg;
    if (spread <= ~uint64_t{0} / 36 &&
        ((avg * avg > spread * 36 && count * 4 >= gov::kIntervals * 3) || spread <= 400))
      return static_cast<uint32_t>(avg);
    if (count * 4 <= gov::kIntervals * 3)
      return count * 2 >= gov::kIntervals ? largest : gov::kUintMax;
    if (avg - smallest > largest - avg)
      low = smallest;
    else
      high = largest;
  }
}

// get_typical_interval() before the empty-ring check (v5.x to v6.1 and the
// stable trees of that time): the two-pass loop, but a ring of zeros gives
// its average, 0, instead of no prediction. (Its early return when the
// smallest sample is at least the timer estimate changes nothing the
// smaller of the two can show.) In the kernel's words.
uint32_t typical_two_pass_zeros(const std::array<uint32_t, gov::kIntervals>& iv) {
  uint32_t limit = gov::kIntMax;  // samples above are left out
  for (;;) {
    uint64_t sum = 0;
    uint32_t count = 0, largest = 0;
    for (uint32_t v : iv)
      if (v <= limit) sum += v, ++count, largest = std::max(largest, v);
    if (count == 0) return gov::kUintMax;
    const uint32_t avg = static_cast<uint32_t>(count == gov::kIntervals ? sum >> 3 : sum / count);
    uint64_t spread = 0;
    for (uint32_t v : iv)
      if (v <= limit) {
        const int64_t d = static_cast<int64_t>(v) - avg;
        spread += static_cast<uint64_t>(d * d);
      }
    spread = count == gov::kIntervals ? spread >> 3 : spread / count;
    if (spread <= ~uint64_t{0} / 36 &&
        ((uint64_t{avg} * avg > spread * 36 && count * 4 >= gov::kIntervals * 3) || spread <= 400))
      return avg;
    if (count * 4 <= gov::kIntervals * 3) return gov::kUintMax;
    limit = largest - 1;
  }
}

// What the file's walk started from, as far as its own state after the
// selection shows it: the time to the next timer it recorded, whether it
// asked the tick layer (then the tick delta is the step's, else half a
// tick), and the predictions the known predictors make from its own ring and
// correction factor.
struct WalkBase {
  gov::Prediction<Concrete> p;  // predicted_ns set per candidate
  bool timer = false;
  std::vector<std::pair<std::string, uint64_t>> family;    // predictor -> prediction (ns)
  std::vector<std::pair<std::string, uint32_t>> typicals;  // predictor -> typical interval (us)
  uint64_t subject_ns = 0;                                 // the matched subject's predictor
  uint64_t low = 0, high = ~uint64_t{0};  // what exact arithmetic allows a known predictor
};

WalkBase walk_base(const Input& input, const Sel& s, const Step& x, const gf::Subject& subj) {
  WalkBase w;
  const Dev& d = s.after;
  const uint64_t tick = gov::tick_nsec(input.hz);
  w.timer = s.timer;
  const bool negative = x.sleep > kS64Max;
  w.p.next_timer_ns = Concrete::lit<64>(d.next_timer_ns());
  w.p.delta_tick_ns = Concrete::lit<64>(w.timer ? (negative ? 0 : x.dtick) : tick / 2);
  w.p.latency_req_ns = Concrete::lit<64>(x.latency_req);
  std::array<Concrete::U<32>, gov::kIntervals> ring;
  for (size_t i = 0; i < gov::kIntervals; ++i) ring[i] = Concrete::lit<32>(d.iv[i]);
  const uint32_t two_pass = gov::typical_interval_two_pass<Concrete>(ring).v;
  const uint32_t both_ends = gov::typical_interval_both_ends<Concrete>(ring).v;
  const uint32_t keeps_max = typical_keeping_max(d.iv);
  // The timer estimate in the reference's words (a 64-bit product, an
  // unsigned int of microseconds), and exactly.
  const uint64_t delta = negative ? 0 : x.sleep;
  const uint32_t factor = d.f[d.bucket < gov::kBuckets ? d.bucket : gov::kBuckets - 1];
  const uint64_t scale = gov::kResolution * gov::kDecay * gov::kNsecPerUsec;
  const uint64_t timer_words =
      uint64_t{static_cast<uint32_t>((scale / 2 + delta * factor) / scale)} * 1000;
  const u128 timer_exact = gov::oracle::timer_us_exact(delta, factor) * gov::kNsecPerUsec;
  auto predict = [&](uint32_t typical) {
    const uint64_t t = uint64_t{typical} * gov::kNsecPerUsec;
    return w.timer ? std::min(t, timer_words) : t;
  };
  w.typicals = {
      {"two-pass (v6.14)", two_pass},
      {"two-pass without the empty-ring check (v5.x..v6.1)", typical_two_pass_zeros(d.iv)},
      {"both-ends (v6.15)", both_ends},
      {"both-ends keeping the maximum (85975daeaa4d)", keeps_max}};
  w.family = {
      {"two-pass (v6.14)", predict(two_pass)},
      {"two-pass without the empty-ring check (v5.x..v6.1)", predict(typical_two_pass_zeros(d.iv))},
      {"both-ends (v6.15)", predict(both_ends)},
      {"both-ends keeping the maximum (85975daeaa4d)", predict(keeps_max)}};
  // The subject's own: v6.14's two-pass loop, or the v6.15 one.
  w.subject_ns =
      subj.predictor == gov::Predictor::kTwoPass ? w.family[0].second : w.family[2].second;
  // What exact arithmetic allows: the known predictors' predictions, and the
  // timer estimate alone (no typical interval), each within a microsecond
  // (another rounding of the same estimate). A prediction outside is a word
  // that did not hold its value.
  uint64_t lo = ~uint64_t{0}, hi = 0;
  for (const auto& f : w.family) lo = std::min(lo, f.second), hi = std::max(hi, f.second);
  if (w.timer) {
    const uint64_t t =
        timer_exact > ~uint64_t{0} ? ~uint64_t{0} : static_cast<uint64_t>(timer_exact);
    lo = std::min(lo, t), hi = std::max(hi, t);
  }
  w.low = lo > 1000 ? lo - 1000 : 0;
  w.high = hi > ~uint64_t{0} - 1000 ? ~uint64_t{0} : hi + 1000;
  return w;
}

// The predictions for which the subject's walk gives `idx`/`stop`, as
// maximal ranges [lo, hi] with the walk's own choice (path, adjusted
// prediction) for each. The walk compares the prediction only with target
// residencies, exit latencies and the tick, so between those values (each
// and its successor) it is constant: one walk per value finds every range.
struct Range {
  uint64_t lo, hi;
  gov::Choice<Concrete> walk;
};

std::vector<Range> explaining(const gf::Subject& subj, std::span<const CState> states,
                              const Input& input, gov::Prediction<Concrete> p,
                              const gov::Inputs<Concrete>& in, long long idx, bool stop) {
  std::set<uint64_t> at = {0, ~uint64_t{0}};
  auto add = [&](uint64_t v) {
    at.insert(v);
    if (v != ~uint64_t{0}) at.insert(v + 1);
  };
  const uint64_t tick = gov::tick_nsec(input.hz);
  add(tick);
  for (const auto& e : input.table) add(e.target_residency_ns), add(e.exit_latency_ns);
  std::vector<Range> r;
  for (auto it = at.begin(); it != at.end(); ++it) {
    p.predicted_ns = Concrete::lit<64>(*it);
    const auto c = subj.walk(states, p, in);
    const auto next = std::next(it);
    const uint64_t hi = next == at.end() ? *it : *next - 1;
    if (static_cast<long long>(c.idx.v) != idx || c.stop_tick != stop) continue;
    if (!r.empty() && r.back().hi + 1 == *it && r.back().walk.path.v == c.path.v)
      r.back().hi = hi;
    else
      r.push_back({*it, hi, c});
  }
  return r;
}

// The file's choice at selection k as the oracle judges it.
gov::Choice<Concrete> file_choice(const Sel& s) {
  gov::Choice<Concrete> ch;
  ch.idx = Concrete::lit<32>(s.idx < 0 || s.idx > 0xffffffffLL ? 0xffffffffULL
                                                               : static_cast<uint64_t>(s.idx));
  ch.stop_tick = s.stop;
  ch.path = Concrete::lit<8>(gov::kResidencyFits);
  ch.predicted_ns = Concrete::lit<64>(~uint64_t{0});
  return ch;
}

bool breaks(std::span<const CState> states, const gov::Inputs<Concrete>& in,
            const gov::Choice<Concrete>& ch, const std::string& clause) {
  for (const oracle::Violation& v : gov::oracle::judge_selection(states, in, ch))
    if (v.clause == clause) return true;
  return false;
}

// The selections of `input` at which the file's choice breaks `clause` (up
// to the first the model cannot state: a failed selection or a learned
// state it cannot hold).
std::vector<size_t> failing_steps(const Input& input, const Outcome& o, const std::string& clause) {
  std::vector<size_t> at;
  const std::vector<CState> states = gov::to_states(input.table);
  for (size_t k = 0; k < o.sels.size() && k < input.steps.size(); ++k) {
    if (!o.sels[k].ok) break;
    const Ctx c = context(input, o, k);
    if (!c.history_ok) break;
    if (breaks(states, c.in, file_choice(o.sels[k]), clause)) at.push_back(k);
  }
  return at;
}

// The subjects that break `clause` as the file does on `input`: at a
// selection where the file's choice breaks it, the subject makes the same
// choice and so breaks it too. Each subject is compared from the file's
// state before that selection (as the differential compares them): its own
// prediction and walk, and its walk of each prediction a known predictor
// makes from the file's learned state (a clause judged on the choice alone
// is about the walk; how the file predicts is GOV-5's and the
// differential's matter, and a file of another predictor, such as a stable
// tree's backport, walks the same code to the same violation). A subject the
// spec accepts a violation for, but which makes no such choice on the
// file's counterexample, does not fail the way the file does: the file's
// failure is another defect than the one the acceptance names.
std::vector<std::string> failing_like(const Input& input, const Outcome& o,
                                      const std::string& clause) {
  std::vector<std::string> out;
  const std::vector<CState> states = gov::to_states(input.table);
  const std::vector<size_t> at = failing_steps(input, o, clause);
  for (const gf::Subject& subject : gf::all_subjects()) {
    bool fails = false;
    for (size_t k : at) {
      const Sel& s = o.sels[k];
      const Ctx c = context(input, o, k);
      auto same = [&](const gov::Choice<Concrete>& ch) {
        return static_cast<long long>(ch.idx.v) == s.idx && breaks(states, c.in, ch, clause);
      };
      gov::History<Concrete> h = c.h;
      gov::Prediction<Concrete> p = subject.predict(states, h, c.in);
      fails = same(subject.walk(states, p, c.in));
      if (!fails && s.after.ok) {
        const WalkBase w = walk_base(input, s, input.steps[k], subject);
        // The subject's walk inputs stay its own (the time to the next
        // timer, the tick delta); a prediction made with the timer
        // consulted is at most the time to the next timer (the factor is
        // at most 1), so a known predictor's prediction is capped by the
        // subject's timer where the subject consulted it.
        const uint64_t timer = p.next_timer_ns.v;
        for (const auto& f : w.family) {
          p.predicted_ns =
              Concrete::lit<64>(timer == kS64Max ? f.second : std::min(f.second, timer));
          if ((fails = same(subject.walk(states, p, c.in)))) break;
        }
      }
      if (fails) break;
    }
    if (fails) out.push_back(std::string(subject.name));
  }
  return out;
}

// Whether, at every selection of `input` where the file breaks `clause`,
// every subject returns state 0 before its walk because the latency limit
// is below state 1's exit latency (an input the file gets as the subjects
// do; the other reasons for that return, the time to the next timer, come
// from the subject's own timer handling and are compared). Text without
// that early return (menu.c of v4.17 to v4.19 among it) walks on to the
// state it breaks the clause with; the subjects never reach their walk
// there, so they cannot be compared with the file on that input.
bool subjects_return_early(const Input& input, const Outcome& o, const std::string& clause) {
  const std::vector<CState> states = gov::to_states(input.table);
  const std::vector<size_t> at = failing_steps(input, o, clause);
  if (at.empty()) return false;
  for (size_t k : at) {
    const Ctx c = context(input, o, k);
    if (states.size() < 2 || c.in.latency_req_ns.v >= states[1].exit_latency_ns.v) return false;
    for (const gf::Subject& subject : gf::all_subjects()) {
      gov::History<Concrete> h;
      if (subject_choice(subject, states, c, h).path.v != gov::kTrivial) return false;
    }
  }
  return true;
}

// The subjects whose menu_update(), replayed from the file's state before
// selection k of `input` (the period it reflects, the time to the next timer
// the file recorded), stores in the ring slot the file wrote what the file
// stored there.
std::vector<std::string> storing_like(const Input& input, const Outcome& o, size_t k) {
  std::vector<std::string> out;
  if (k >= o.sels.size() || !o.sels[k].after.ok) return out;
  const Dev& pre = k == 0 ? o.init : o.sels[k - 1].after;
  const Ctx c = context(input, o, k);
  if (!c.history_ok) return out;
  const size_t slot = static_cast<size_t>(pre.ptr);
  const std::vector<CState> states = gov::to_states(input.table);
  for (const gf::Subject& subject : gf::all_subjects()) {
    gov::History<Concrete> h;
    subject_choice(subject, states, c, h);
    if (h.intervals[slot].v == o.sels[k].after.iv[slot]) out.push_back(std::string(subject.name));
  }
  return out;
}

std::string key_of(const Input& input, const gov::Prediction<Concrete>& p, const Step& x) {
  return std::to_string(input.hz) + " " + table_text(input.table) + " " +
         std::to_string(x.latency_req) + " " + std::to_string(p.next_timer_ns.v) + " " +
         std::to_string(p.delta_tick_ns.v) + " " + (x.stopped ? "1" : "0");
}

// `ring_holds_residency`: the text's ring is of the era before v3.16 (GOV-8's
// meaning then, oracle/governor.h's UpdateIn).
Judged judge(const Input& input, const Outcome& o, size_t subject, bool ring_holds_residency) {
  Judged r;
  if (!o.reported) return r;
  auto add = [&](const std::string& clause, const std::string& text) { r.f.emplace(clause, text); };
  for (const auto& s : o.sanitizer)
    add(s.find("division by zero") != std::string::npos || s.find("overflow") != std::string::npos
            ? "GOV-5"
            : "GOV-7",
        describe(input) + ": " + s);
  if (o.crashed || o.hung)
    add(o.hung                                        ? input.clause
        : o.crash.find("SIGFPE") != std::string::npos ? "GOV-5"  // an integer division by zero
                                                      : "GOV-7",
        describe(input, o.crash_step) + ": menu_select() " +
            (o.hung ? "did not return within 2 s (hang)" : "crashed: " + o.crash) +
            (o.crash_step >= 0 ? " at step " + std::to_string(o.crash_step) : ""));
  for (const auto& w : o.warns) add(input.clause, describe(input) + ": " + w);

  const gf::Subject& subj = gf::all_subjects()[subject];
  const std::vector<CState> states = gov::to_states(input.table);
  const size_t n = states.size();
  const bool ordered = gov::oracle::table_is_ordered(states);
  const size_t first = gov::oracle::first_enabled(states);
  const uint64_t tick = gov::tick_nsec(input.hz);
  bool states_in_range = true;
  for (const auto& e : input.table)
    states_in_range =
        states_in_range && e.exit_latency_ns < kRangeNs && e.target_residency_ns < kRangeNs;
  // GOV-5 through the walk: (step, text) of divergences only a prediction
  // outside exact arithmetic's range explains.
  std::vector<std::pair<size_t, std::string>> wrapped;

  for (size_t k = 0; k < o.sels.size(); ++k) {
    const Sel& s = o.sels[k];
    if (!s.ok) break;
    if (s.idx < 0 && input.may_decline) {
      ++r.declined;
      break;
    }
    ++r.selections;
    const Step& x = input.steps[k];
    Ctx c = context(input, o, k);
    const std::string at = (input.family >= 0 && k + 1 == input.steps.size()
                                ? describe_member(input)
                                : describe(input, static_cast<long long>(k))) +
                           ": at step " + std::to_string(k) + " the file chose " +
                           choice_text(s.idx, s.stop);
    // GOV-1, GOV-2, GOV-4, GOV-7: the clause judge on the choice alone.
    const gov::Choice<Concrete> ch = file_choice(s);  // GOV-3 is judged below
    for (const oracle::Violation& v : gov::oracle::judge_selection(states, c.in, ch)) {
      if (v.clause == "GOV-3") continue;
      std::string why = v.message;
      const size_t p = why.find(" (path ");
      if (p != std::string::npos) why.erase(p);
      add(v.clause, at + ": " + why);
    }
    const Dev& pre = k == 0 ? o.init : o.sels[k - 1].after;
    const Step* prev = k == 0 ? nullptr : &input.steps[k - 1];
    const long long last = k == 0 ? 0 : o.sels[k - 1].idx;
    if (s.idx < 0 || static_cast<size_t>(s.idx) >= n || !s.after.ok || !c.history_ok) {
      ++r.gov3_unjudged;
      if (s.idx < 0 || static_cast<size_t>(s.idx) >= n) r.walk_differs = true;
      continue;
    }
    const bool in_range = states_in_range && pre.ok && in_ring_range(pre) &&
                          (pre.next_timer_ns() < kRangeNs || pre.next_timer_ns() == kS64Max) &&
                          x.latency_req <= kNoLimitNs &&
                          (x.sleep < kRangeNs || x.sleep > kS64Max) &&
                          (x.dtick < kRangeNs || x.dtick > kS64Max) &&
                          (prev == nullptr || prev->residency < kRangeNs) && last >= 0 &&
                          static_cast<size_t>(last) < n;
    // GOV-5 and GOV-8 on menu_update(), from the file's own previous state.
    const bool reflected = prev != nullptr && prev->entered;
    if (in_range && reflected && pre.bucket < gov::kBuckets && pre.ptr >= 0 &&
        pre.ptr < static_cast<long long>(gov::kIntervals)) {
      ++r.gov5_update;
      const auto& t = input.table[static_cast<size_t>(last)];
      gov::oracle::UpdateIn ui;
      ui.unit = pre.us ? 1000 : 1;
      ui.exit_latency = t.exit_latency_ns / ui.unit;
      ui.residency = prev->residency / ui.unit;
      ui.next_timer = pre.next_timer;
      ui.tick = pre.us ? (1000000 + input.hz / 2) / input.hz : tick;
      ui.tick_wakeup = prev->got_tick;
      ui.polling = t.polling;
      ui.poll_time_limit = prev->poll_limit;
      ui.factor = pre.f[pre.bucket];
      ui.ring_holds_residency = ring_holds_residency;
      ui.ns_era = !pre.us && !ring_holds_residency;  // the text's marker: next_timer_ns
      const size_t slot = static_cast<size_t>(pre.ptr);
      const gov::oracle::UpdateJudgement uj =
          gov::oracle::judge_update(ui, {s.after.f[pre.bucket], s.after.iv[slot]});
      const std::string learn =
          " (last state " + std::to_string(last) + ", idle " + ns_text(prev->residency) +
          (uj.exact.tick_guess ? ", the tick woke it" : "") +
          (uj.exact.poll_timeout ? ", poll_time_limit" : "") + ", next_timer " +
          std::to_string(pre.next_timer) + (pre.us ? " us" : " ns") + ", factor " +
          std::to_string(pre.f[pre.bucket]) + " of bucket " + std::to_string(pre.bucket) + ")";
      if (!uj.gov5.empty()) add("GOV-5", at + ": " + uj.gov5 + learn);
      if (!uj.differs.empty() && r.update_differs.empty())
        r.update_differs = at + ": " + uj.differs + learn;
      ++r.gov8_stored;
      if (uj.gov8_accepted && r.gov8_accepted.empty())
        r.gov8_accepted_step = static_cast<long long>(k),
        r.gov8_accepted = at + ": menu_update() stored " + std::to_string(s.after.iv[slot]) +
                          " us for a learned " +
                          std::to_string(static_cast<uint64_t>(uj.exact.interval_us)) + " us" +
                          learn;
      if (!uj.gov8.empty())
        add("GOV-8",
            at + ": " + (uj.gov8_follows ? kFollowsGov5 : std::string()) + uj.gov8 + learn);
    } else if (!reflected && pre.ok && s.after.ok && pre.ptr >= 0 &&
               pre.ptr < static_cast<long long>(gov::kIntervals)) {
      // No period to learn (a rejected entry, or boot): the ring keeps its
      // entries or marks the slot UINT_MAX.
      for (size_t i = 0; i < gov::kIntervals; ++i)
        if (s.after.iv[i] != pre.iv[i] && s.after.iv[i] != gov::kUintMax)
          add("GOV-8", at + ": menu_update() stored " + std::to_string(s.after.iv[i]) +
                           " us in slot " + std::to_string(i) +
                           " for a rejected entry (UINT_MAX marks one)");
    }

    // GOV-5 on the predictor's sums: the file's get_typical_interval() read
    // back on the ring the selection predicted from.
    if (s.typical >= 0 && s.typical <= gov::kUintMax && in_ring_range(s.after)) {
      ++r.gov5_typical;
      const gov::oracle::TypicalJudgement tj =
          gov::oracle::judge_typical(s.after.iv, static_cast<uint32_t>(s.typical));
      if (!tj.gov5.empty())
        add("GOV-5", at + ": " + tj.gov5 + " (ring " + ring_text(s.after.iv) + ")");
    }

    // GOV-3 (and GOV-5 through the walk): which prediction and path explain
    // the choice.
    WalkBase w = walk_base(input, s, x, subj);
    auto walk_of = [&](uint64_t predicted) {
      gov::Prediction<Concrete> p = w.p;
      p.predicted_ns = Concrete::lit<64>(predicted);
      return subj.walk(states, p, c.in);
    };
    auto same = [&](const gov::Choice<Concrete>& a) {
      return static_cast<long long>(a.idx.v) == s.idx && a.stop_tick == s.stop;
    };
    auto judge3 = [&](const gov::Choice<Concrete>& walk, const std::string& how) {
      for (const oracle::Violation& v : gov::oracle::judge_selection(states, c.in, walk))
        if (v.clause == "GOV-3") add("GOV-3", at + ": " + v.message + "; " + how);
    };
    // The subjects in the order tried: the matched one, then the others (a
    // file may walk as one subject and learn as another).
    std::vector<const gf::Subject*> order = {&subj};
    for (const auto& other : gf::all_subjects())
      if (other.name != subj.name) order.push_back(&other);
    auto walk_by = [&](const gf::Subject* by, uint64_t predicted) {
      gov::Prediction<Concrete> p = w.p;
      p.predicted_ns = Concrete::lit<64>(predicted);
      return by->walk(states, p, c.in);
    };
    const auto exact = walk_of(w.subject_ns);
    bool done = false;
    if (same(exact)) {
      ++r.gov3_exact;
      judge3(exact, std::string(subj.name) + "'s walk of its own prediction");
      if (ordered) r.known.push_back({key_of(input, w.p, x), w.subject_ns, s.idx, at});
      done = true;
    }
    // Another known predictor's prediction, walked by some subject.
    for (const gf::Subject* by : order) {
      for (size_t q = 0; q < w.family.size() && !done; ++q) {
        const auto& [name, v] = w.family[q];
        const auto fw = walk_by(by, v);
        if (!same(fw)) continue;
        ++r.gov3_family;
        if (r.family_first.empty() && (by != &subj || v != w.subject_ns))
          r.family_first = at + ": " + std::string(by->name) + "'s walk of the " + name +
                           " predictor's prediction " + ns_text(v) + ", where " +
                           std::string(subj.name) + "'s predictor gives " + ns_text(w.subject_ns);
        judge3(fw, std::string(by->name) + "'s walk of the " + name + " predictor's prediction");
        if (ordered) r.known.push_back({key_of(input, w.p, x), v, s.idx, at});
        done = true;
      }
      if (done) break;
    }
    // Any prediction exact arithmetic allows, walked by some subject; the
    // ranges of the matched subject's walk kept for what follows.
    const gf::Subject* explainer = nullptr;
    std::vector<Range> theirs;
    for (const gf::Subject* by : order) {
      if (done) break;
      const std::vector<Range> why = explaining(*by, states, input, w.p, c.in, s.idx, s.stop);
      if (!why.empty() && !explainer) explainer = by, theirs = why;
      for (const auto& g : why) {
        if (g.lo > w.high || g.hi < w.low) continue;
        ++r.gov3_other;
        const uint64_t v = std::clamp(w.subject_ns, std::max(g.lo, w.low), std::min(g.hi, w.high));
        if (r.other_first.empty())
          r.other_first = at + ": " + std::string(by->name) + "'s walk of a prediction of " +
                          ns_text(v) + " (any in " + range_text(g.lo, g.hi) + "), where " +
                          std::string(subj.name) + "'s predictor gives " + ns_text(w.subject_ns);
        judge3(walk_by(by, v), std::string(by->name) + "'s walk of a prediction of " + ns_text(v));
        done = true;
        break;
      }
    }
    if (!done && in_range && in_ring_range(s.after)) {
      // GOV-5 through the walk: the file's own prediction recomputed from
      // its inputs with one word wrapped (governor_gov5.cc), walked by some
      // subject, gives the choice that exact arithmetic does not.
      gov5::PredictionInputs pi;
      pi.next_timer_ns = w.p.next_timer_ns.v;
      pi.factor = s.after.f[std::min<uint32_t>(s.after.bucket, gov::kBuckets - 1)];
      pi.timer = w.timer;
      if (s.typical >= 0 && s.typical <= gov::kUintMax)
        pi.typicals.push_back({"file's own", static_cast<uint32_t>(s.typical)});
      pi.typicals.insert(pi.typicals.end(), w.typicals.begin(), w.typicals.end());
      for (const gov5::WrappedPrediction& wp : gov5::wrapped_predictions(pi)) {
        for (const gf::Subject* by : order) {
          const auto ww = walk_by(by, wp.predicted_ns);
          if (!same(ww)) continue;
          ++r.gov3_wrapped;
          judge3(ww, std::string(by->name) + "'s walk of the wrapped prediction " +
                         ns_text(wp.predicted_ns));
          wrapped.push_back(
              {k, at + ": " +
                      gov5::wrap_text(wp, std::string(by->name),
                                      choice_text(walk_by(by, wp.exact_ns).idx.v,
                                                  walk_by(by, wp.exact_ns).stop_tick))});
          done = true;
          break;
        }
        if (done) break;
      }
    }
    const bool judged5 = in_range && in_ring_range(s.after);
    if (!done && !judged5 && explainer) {
      // Beyond the ranges GOV-5 is stated for: some subject's walk of a
      // prediction outside what exact arithmetic allows gives the choice;
      // GOV-3 is judged on that walk, and no claim is made about the walk.
      ++r.gov3_beyond;
      const Range& g = theirs.front();
      judge3(g.walk, std::string(explainer->name) + "'s walk of a prediction of " + ns_text(g.lo));
      done = true;
    }
    if (!done && judged5 && r.new_walk.empty()) {
      // No prediction, exact or wrapped, explains the choice: the file's
      // walk is not a subject's (a note, not an overflow). Where the nearest
      // subject differs: what it chooses from its own prediction, and the
      // predictions (if any) for which it would make the file's choice.
      std::string ranges;
      for (size_t q = 0; q < theirs.size() && q < 3; ++q)
        ranges += (q ? ", " : "") + range_text(theirs[q].lo, theirs[q].hi);
      r.new_walk = at + "; " + std::string(subj.name) + "'s walk of its own prediction " +
                   ns_text(w.subject_ns) + " gives " + choice_text(exact.idx.v, exact.stop_tick) +
                   (explainer != nullptr && !ranges.empty()
                        ? "; " + std::string(explainer->name) +
                              "'s walk gives the file's choice only for predictions in " + ranges
                        : "; no subject's walk of any prediction gives the file's choice") +
                   ", none of which the file's predictor (exact, or with a word wrapped) makes "
                   "here (" +
                   range_text(w.low, w.high) + " is what exact arithmetic allows)";
    }
    if (!done) {
      // No subject's walk of any prediction gives it: the clause's own words.
      // Exempt: the fall-back, the GOV-1 exceptions, a choice the polling
      // rule or the tick-stopped promotion could make; else the target
      // residency must fit the largest prediction a known predictor makes
      // from the file's state (after the tick-stopped adjustment).
      r.walk_differs = true;
      ++r.gov3_wording;
      const size_t i = static_cast<size_t>(s.idx);
      const bool gov1 = first == n || x.latency_req == 0 || n <= 1;
      size_t below = i;
      for (size_t q = i; q-- > 0;)
        if (!input.table[q].disabled) {
          below = q;
          break;
        }
      const auto& e = input.table[i];
      const bool rule = below != i && input.table[below].polling &&
                        e.target_residency_ns <= w.p.next_timer_ns.v &&
                        e.exit_latency_ns <= x.latency_req;
      const bool promote = x.stopped && below != i &&
                           input.table[below].target_residency_ns < tick &&
                           e.target_residency_ns <= w.p.delta_tick_ns.v;
      uint64_t bound = 0;
      auto adjusted = [&](uint64_t v) { return x.stopped && v < tick ? w.p.next_timer_ns.v : v; };
      for (const auto& f : w.family) bound = std::max(bound, adjusted(f.second));
      // Kernels before the nanosecond rework replace a short prediction with
      // the time to the next tick event instead.
      if (x.stopped)
        for (const auto& f : w.family)
          if (f.second < tick) bound = std::max(bound, w.p.delta_tick_ns.v);
      if (ordered && i != first && !(gov1 && i == 0) && !rule && !promote &&
          e.target_residency_ns > bound)
        add("GOV-3", at + ": state " + std::to_string(i) + " target residency " +
                         std::to_string(e.target_residency_ns) + " ns > " + ns_text(bound) +
                         ", the largest prediction a known predictor makes from the file's "
                         "learned state (no subject's walk gives this choice, and it is not the "
                         "fall-back, the polling rule or the tick-stopped promotion)");
    }
    if (in_range && in_ring_range(s.after)) ++r.gov5_predict;
  }
  if (!wrapped.empty() && !r.walk_differs) r.gov5_walk = wrapped.front().second;
  return r;
}
// Shrinking candidates: fewer steps, fewer states, plainer steps and tables.
std::vector<Input> shrink_candidates(const Input& in) {
  std::vector<Input> c;
  auto with = [&](auto change) {
    Input x = in;
    change(x);
    if (input_line(0, x) != input_line(0, in)) c.push_back(x);
  };
  const size_t n = in.steps.size();
  // Every shorter prefix (the shrink keeps the smallest that still fails:
  // one round instead of one per step), then each step left out.
  for (size_t k = 1; k < n; ++k) with([&](Input& x) { x.steps.resize(k); });
  for (size_t k = n; k-- > 0;)
    if (n > 1) with([&](Input& x) { x.steps.erase(x.steps.begin() + static_cast<long>(k)); });
  for (size_t i = in.table.size(); i-- > 1;)
    with([&](Input& x) { x.table.erase(x.table.begin() + static_cast<long>(i)); });
  for (size_t i = 0; i < in.table.size(); ++i) with([&](Input& x) { x.table[i].disabled = false; });
  for (size_t k = 0; k < n && c.size() < 160; ++k) {
    with([&](Input& x) { x.steps[k].latency_req = kNoLimitNs; });
    with([&](Input& x) { x.steps[k].got_tick = x.steps[k].poll_limit = false; });
    with([&](Input& x) { x.steps[k].entered = true; });
    with([&](Input& x) { x.steps[k].stopped = false; });
    with([&](Input& x) { x.steps[k].dtick = x.steps[k].sleep; });
    if (k + 1 == n) with([&](Input& x) { x.steps[k].residency = 0; });
  }
  if (in.hz != 1000) with([](Input& x) { x.hz = 1000; });
  return c;
}

}  // namespace

// The extraction the harness and the Frama-C unit are built from:
// menu_select() and menu_update() with menu_reflect() and
// get_typical_interval() asked for by name, and the per-CPU menu_devices
// the extractor does not take for a definition.
Extraction governor_extraction(const Target& target) {
  std::vector<std::string> wanted = target.functions;
  wanted.push_back("menu_reflect");
  wanted.push_back("get_typical_interval");
  Extraction ex = extract(target.text, wanted, target.path);
  // The extractor takes `static DEFINE_PER_CPU(struct menu_device,
  // menu_devices);` for a macro invocation that defines nothing: put it
  // (with its line) ahead of the first item that uses menu_devices.
  if (const size_t use = ex.code.find("menu_devices"); use != std::string::npos) {
    std::istringstream is(target.text);
    int line_no = 0;
    for (std::string line; std::getline(is, line);) {
      ++line_no;
      if (line.find("DEFINE_PER_CPU") == std::string::npos ||
          line.find("menu_devices") == std::string::npos)
        continue;
      const size_t at = ex.code.rfind("#line", use);
      const std::string text =
          "#line " + std::to_string(line_no) + " \"" + target.path + "\"\n" + line + "\n";
      ex.code.insert(at == std::string::npos ? 0 : at, text);
      ex.prelude.push_back("per-CPU menu_devices (line " + std::to_string(line_no) + ")");
      break;
    }
  }
  return ex;
}

// The file's era as -D flags, for the harness (whose _Generic reads the
// signatures itself) and the Frama-C unit (which cannot parse _Generic):
// HAVE_MENU_SELECT, HAVE_MENU_REFLECT, HAVE_TYPICAL_INTERVAL where the
// extraction found them, MENU_NEXT_TIMER_US when struct menu_device keeps
// next_timer_us (v5.6 and before), MENU_SELECT_STOP_TICK when menu_select()
// takes bool *stop_tick (v4.17 on; its own text says).
std::vector<std::string> governor_defines(const Extraction& ex) {
  auto found = [&](const std::string& name) -> const FoundFunction* {
    for (const auto& f : ex.functions)
      if (f.name == name && f.found) return &f;
    return nullptr;
  };
  std::vector<std::string> defs;
  const FoundFunction* select = found("menu_select");
  if (!select) return defs;
  defs.push_back("-DHAVE_MENU_SELECT");
  if (found("menu_reflect")) defs.push_back("-DHAVE_MENU_REFLECT");
  if (found("get_typical_interval")) defs.push_back("-DHAVE_TYPICAL_INTERVAL");
  if (ex.code.find("next_timer_us") != std::string::npos) defs.push_back("-DMENU_NEXT_TIMER_US");
  if (!select_without_stop_tick(select->text)) defs.push_back("-DMENU_SELECT_STOP_TICK");
  return defs;
}

Part check_governor(const Options& opt, const Target& target) {
  const auto t0 = Clock::now();
  const Component& component = *find_component("governor");
  Part part;
  part.component = component.name;
  part.file = target.display;
  Extraction ex = governor_extraction(target);
  for (const auto& f : ex.functions)
    if (std::find(target.functions.begin(), target.functions.end(), f.name) !=
        target.functions.end())
      part.functions.push_back(f);
  part.prelude = ex.prelude;
  // get_typical_interval() is asked for by name (the harness reads it back)
  // rather than found as menu_select()'s helper: listed with the helpers.
  for (const auto& f : ex.functions)
    if (f.name == "get_typical_interval" && f.found)
      part.prelude.push_back("function get_typical_interval (line " + std::to_string(f.first_line) +
                             ")");
  auto found = [&](const std::string& name) {
    for (const auto& f : ex.functions)
      if (f.name == name && f.found) return true;
    return false;
  };
  if (!found("menu_select")) {
    fill_verdicts(component, target, part, "absent", "");
    if (found("menu_update"))
      for (auto& v : part.clauses)
        if (v.status != "absent") v.status = "unknown", v.note = "menu_select() is not in the file";
    return part;
  }
  part.temp_dir = make_temp_dir("validate");
  if (part.temp_dir.empty()) {
    fill_verdicts(component, target, part, "error", "cannot create a temporary directory");
    return part;
  }
  const std::vector<std::string> defs = governor_defines(ex);
  const HarnessBuild hb =
      build_harness(opt, part.temp_dir, "governor_env.h", ex.code, "harness_governor.c", defs);
  part.notes.insert(part.notes.end(), hb.notes.begin(), hb.notes.end());
  auto finish = [&] {
    part.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
    if (!opt.keep_temp) remove_tree(part.temp_dir), part.temp_dir.clear();
    return part;
  };
  if (!hb.error.empty()) {
    part.build_error = hb.error;
    fill_verdicts(component, target, part, "error", hb.verdict_reason);
    return finish();
  }
  if (opt.sanitizers && hb.san.empty())
    part.notes.push_back("the ASan+UBSan build failed, sanitizer reports not observed: " +
                         hb.san_note);
  if (!found("menu_reflect"))
    part.notes.push_back(
        "menu_reflect() is not in the file: the harness records the idle period as it does "
        "(last_state_idx, needs_update, tick_wakeup)");
  if (ex.code.find("next_timer_us") != std::string::npos)
    part.notes.push_back(
        "struct menu_device keeps next_timer_us: the governor of v5.6 and before, in "
        "microseconds: the inputs are stated in whole microseconds (limit, latencies, "
        "residencies, times below 2^40 ns, no negative sleep length; HZ 100, 250 or 1000, where "
        "TICK_USEC is TICK_NSEC in us), so that the file's view and the judge's are the same "
        "numbers; menu_update() is recomputed in us");

  std::vector<Input> inputs = make_inputs(opt.seed);
  if (ex.code.find("next_timer_us") != std::string::npos) in_microseconds(inputs);
  const bool tick_stopped_era =
      std::find(defs.begin(), defs.end(), "-DMENU_SELECT_STOP_TICK") == defs.end();
  // menu_update() of before v3.16 stores the period it read from the core
  // (`last_idle_us`) in the ring, and learns the factor from another
  // duration: GOV-8 judges that ring by the era's meaning.
  static const std::regex ring_residency_era(R"(intervals\s*\[[^\]]*\]\s*=\s*last_idle_us\s*;)");
  const bool ring_holds_residency = std::regex_search(ex.code, ring_residency_era);
  if (ring_holds_residency)
    part.notes.push_back(
        "menu_update() stores last_idle_us, the period as the core measured it, in the ring: "
        "the ring of before v3.16; GOV-8 is judged by that era's meaning (the slot holds the "
        "measured residency in us; spec/governor.md, GOV-8)");
  if (tick_stopped_era) {
    tick_stopped_first(inputs);
    part.notes.push_back(
        "menu_select(drv, dev) without stop_tick: the governor of before v4.17, when the idle "
        "loop stopped the tick before asking it; every input has the tick stopped and the next "
        "event at the sleep length, and the file's stop_tick is reported as true (it had no say)");
  }
  const bool san = !hb.san.empty();
  Batch plain, sanb;
  {
    std::thread other;
    SandboxLog& log = SandboxLog::current();  // the san runs are this part's too
    // --budget is the part's: the runs get what the build left of it, no more.
    const double left = budget_left(opt, t0);
    if (san)
      other = std::thread([&] {
        SandboxLog::Scope scope(log);
        sanb = run_inputs(hb.san, true, inputs, part.temp_dir, "san", left);
      });
    plain = run_inputs(hb.plain, false, inputs, part.temp_dir, "plain", left);
    if (other.joinable()) other.join();
  }
  part.runs = plain.runs;
  part.runs.insert(part.runs.end(), sanb.runs.begin(), sanb.runs.end());

  // The differential, then the judge with the subject matched.
  Diff diff;
  for (size_t i = 0; i < inputs.size(); ++i) differ(inputs[i], plain.outcomes[i], diff);
  const size_t subject = best_subject(diff);
  const auto subjects = gf::all_subjects();
  const std::string sname(subjects[subject].name);
  {
    std::string line;
    std::vector<std::string> all;
    for (size_t j = 0; j < subjects.size(); ++j)
      if (diff.selections > 0 && diff.equal[j] == diff.selections)
        all.push_back(std::string(subjects[j].name));
    if (!all.empty()) {
      line = "differential: the file's choices and learned state equal subject ";
      for (size_t j = 0; j < all.size(); ++j) line += (j ? ", " : "") + all[j];
      line += " on all " + std::to_string(diff.selections) +
              " selections (each from the file's own learned state)";
    } else {
      line = "differential: no subject matches every selection; closest " + sname + " (" +
             std::to_string(diff.equal[subject]) + " of " + std::to_string(diff.selections) +
             "), first divergence: " + diff.first[subject];
    }
    std::string others;
    for (size_t j = 0; j < subjects.size(); ++j)
      if (diff.equal[j] != diff.selections)
        others += (others.empty() ? "" : ", ") + std::string(subjects[j].name) + " " +
                  std::to_string(diff.equal[j]);
    if (!others.empty()) line += "; others (equal selections): " + others;
    part.notes.push_back(line);
  }

  std::map<std::string, std::vector<std::pair<size_t, std::string>>> findings;
  size_t selections = 0, gov5_update = 0, gov5_predict = 0, gov5_typical = 0, gov8_stored = 0;
  size_t g3_exact = 0, g3_family = 0, g3_other = 0, g3_wrapped = 0, g3_wording = 0, g3_unjudged = 0;
  std::string gov8_accepted, family_first, other_first, update_differs;
  size_t gov8_input = 0;
  long long gov8_step = -1;
  std::vector<std::pair<size_t, std::string>> walk_findings;
  std::string new_walk;
  size_t new_walks = 0;
  std::vector<Known> known;
  size_t walk_differs = 0, declined = 0;
  for (size_t i = 0; i < inputs.size(); ++i) {
    for (const Batch* b : {&sanb, &plain}) {
      if (b->outcomes.empty() || !b->outcomes[i].reported) continue;
      Judged jd = judge(inputs[i], b->outcomes[i], subject, ring_holds_residency);
      for (const auto& [clause, text] : jd.f) {
        auto& v = findings[clause];
        if (std::none_of(v.begin(), v.end(), [&](const auto& x) { return x.first == i; }))
          v.push_back({i, text});
      }
      if (b == &plain) {
        selections += jd.selections, gov5_update += jd.gov5_update, gov8_stored += jd.gov8_stored;
        gov5_predict += jd.gov5_predict, gov5_typical += jd.gov5_typical;
        g3_exact += jd.gov3_exact, g3_family += jd.gov3_family, g3_other += jd.gov3_other;
        g3_wrapped += jd.gov3_wrapped + jd.gov3_beyond, g3_wording += jd.gov3_wording;
        g3_unjudged += jd.gov3_unjudged;
        declined += jd.declined;
        if (gov8_accepted.empty() && !jd.gov8_accepted.empty())
          gov8_accepted = jd.gov8_accepted, gov8_input = i, gov8_step = jd.gov8_accepted_step;
        if (family_first.empty()) family_first = jd.family_first;
        if (other_first.empty()) other_first = jd.other_first;
        if (update_differs.empty()) update_differs = jd.update_differs;
        walk_differs += jd.walk_differs;
        new_walks += !jd.new_walk.empty();
        if (new_walk.empty()) new_walk = jd.new_walk;
        if (!jd.gov5_walk.empty()) walk_findings.push_back({i, jd.gov5_walk});
        for (auto& k : jd.known) known.push_back(std::move(k));
      }
    }
  }

  // A prediction is blamed only when the file's walk is the subject's
  // everywhere: every divergence of every input is explained by one.
  if (walk_differs == 0)
    for (const auto& w : walk_findings) findings["GOV-5"].push_back(w);
  if (!new_walk.empty())
    part.notes.push_back(
        "walk: on " + std::to_string(new_walks) +
        " input(s) the file's choice is no subject's walk of any prediction its predictor makes "
        "(exact, or with a word wrapped): a walk of its own, judged by the clauses' words (GOV-3) "
        "and not an overflow (GOV-5 fails only on a wrap its arithmetic shows)" +
        (walk_findings.empty()
             ? std::string()
             : "; the wraps seen beside it are not blamed while the walk differs") +
        "; nearest subject " + sname + ", first: " + new_walk);
  if (declined > 0)
    part.notes.push_back(std::to_string(declined) +
                         " input(s) ended where menu_select() answered -1, no state: before "
                         "v4.4 the cpuidle core then ran the architecture's default idle and "
                         "reflected nothing; that answer is not judged, and the selections "
                         "before it are");
  if (g3_family + g3_other > 0) {
    std::string line = "predictor: on " + std::to_string(g3_family + g3_other) + " of " +
                       std::to_string(selections) + " selections the file's choice is " + sname +
                       "'s walk of another prediction than " + sname +
                       "'s predictor makes from the file's learned state (the file predicts "
                       "otherwise; not a GOV-5 matter)";
    if (!family_first.empty())
      line += "; first that another known predictor explains: " + family_first;
    if (!other_first.empty()) line += "; first that no known predictor explains: " + other_first;
    part.notes.push_back(line);
  }
  if (!update_differs.empty())
    part.notes.push_back(
        "menu_update(): the file learns otherwise than exact arithmetic, without "
        "a wrap (the differential's report, not GOV-5); first: " +
        update_differs);

  // GOV-6. The limit half: members of an 'l' family share everything up to
  // the last step's limit; the prediction half: selections with the same
  // walk inputs and known predictions.
  std::vector<std::string> gov6;
  size_t limit_pairs = 0, prediction_pairs = 0, limit_found = 0, prediction_found = 0;
  {
    std::map<int, std::vector<size_t>> fam;
    for (size_t i = 0; i < inputs.size(); ++i)
      if (inputs[i].vary == 'l') fam[inputs[i].family].push_back(i);
    for (const auto& [f, members] : fam) {
      for (size_t a : members)
        for (size_t b : members) {
          const Outcome& oa = plain.outcomes[a];
          const Outcome& ob = plain.outcomes[b];
          const size_t last = inputs[a].steps.size() - 1;
          if (!oa.reported || !ob.reported || oa.sels.size() <= last || ob.sels.size() <= last ||
              !oa.sels[last].ok || !ob.sels[last].ok ||
              !gov::oracle::table_is_ordered(gov::to_states(inputs[a].table)))
            continue;
          const uint64_t la = inputs[a].steps[last].latency_req,
                         lb = inputs[b].steps[last].latency_req;
          if (la >= lb) continue;
          ++limit_pairs;
          const long long ia = oa.sels[last].idx, ib = ob.sels[last].idx;
          if (ib < ia && limit_found++ < 2)
            gov6.push_back("limit: " + describe_member(inputs[a]) + ": at step " +
                           std::to_string(last) + " the file chose " +
                           choice_text(ia, oa.sels[last].stop) + "; with the larger limit " +
                           ns_text(lb) + " (everything else the same) it chose " +
                           choice_text(ib, ob.sels[last].stop) + ", a shallower state");
        }
    }
    std::map<std::string, std::vector<const Known*>> by_key;
    for (const auto& k : known) by_key[k.key].push_back(&k);
    std::string found;
    for (const auto& [key, list] : by_key) {
      const Known* lo = nullptr;  // a violation: a longer prediction, a shallower state
      for (const Known* a : list)
        for (const Known* b : list) {
          if (a->predicted >= b->predicted) continue;
          ++prediction_pairs;
          if (b->idx < a->idx && found.empty()) lo = a, found = b->at;
        }
      if (lo && prediction_found++ < 2) {
        const Known* hi = nullptr;
        for (const Known* b : list)
          if (b->at == found) hi = b;
        gov6.push_back("prediction: " + lo->at + " from a prediction of " + ns_text(lo->predicted) +
                       "; " + hi->at + " from the longer prediction " + ns_text(hi->predicted) +
                       " (the walk's other inputs the same: table, limit, "
                       "next_timer, delta_tick, tick state)");
        found = "done";
      }
    }
  }

  // spec/governor.md, the "- Era v4.4-v4.12:" lines of GOV-1, -2, -3 and
  // -9: menu_select() of that era (9c4b2867ed7c, v4.5-rc1 and 4.4.y, to
  // v4.13) takes CPUIDLE_DRIVER_STATE_START (0 without a polling state at
  // the front) as the fall-back and walks from the state after it, so a
  // disabled state 0 is returned when no deeper state fits. Recognised by
  // the text's shape (the fall-back assigned from CPUIDLE_DRIVER_STATE_START)
  // and by the failure: the clause's shrunk counterexample is a choice of a
  // disabled state 0, and every input failing the clause also fails GOV-1
  // that way (the oracle's finding: "state 0 is disabled").
  static const std::regex era_v44_fallback(R"(=\s*CPUIDLE_DRIVER_STATE_START\s*;)");
  const bool era_v44_shape = std::regex_search(ex.code, era_v44_fallback);
  auto disabled_state0_era = [&](const std::vector<std::pair<size_t, std::string>>& list,
                                 const Input& small, const std::string& text) {
    if (!era_v44_shape || small.table.empty() || !small.table[0].disabled) return false;
    if (text.find("the file chose idx=0 ") == std::string::npos) return false;
    const auto g1 = findings.find("GOV-1");
    if (g1 == findings.end()) return false;
    return std::all_of(list.begin(), list.end(), [&](const auto& f) {
      return std::any_of(g1->second.begin(), g1->second.end(), [&](const auto& x) {
        return x.first == f.first && x.second.find("the file chose idx=0 ") != std::string::npos &&
               x.second.find("state 0 is disabled") != std::string::npos;
      });
    });
  };
  // `keep`: when given, a candidate counts only if it stays what the input
  // was to the subjects (failing_like): shared with one of these subjects,
  // or (an empty list) shared with none. Shrinking must not turn a failure
  // the subjects share into one they do not, nor the reverse.
  auto shrink = [&](const std::string& clause, size_t index, std::string text,
                    const std::vector<std::string>* keep) {
    Input in = inputs[index];
    const bool via_san = san && text.find("San ") != std::string::npos;
    const std::string& harness = via_san ? hb.san : hb.plain;
    Outcome out = via_san && !sanb.outcomes.empty() ? sanb.outcomes[index] : plain.outcomes[index];
    for (int round = 0; round < 40; ++round) {
      const double round_left = budget_left(opt, t0);
      if (round_left <= 1) break;  // no round in the last second, as the input engine
      std::vector<Input> cand = shrink_candidates(in);
      // The era's constraints hold for every candidate too (the shrinker's
      // plainer step has the tick running).
      if (tick_stopped_era) {
        tick_stopped_first(cand);
        std::erase_if(cand, [&](const Input& x) { return input_line(0, x) == input_line(0, in); });
      }
      if (cand.empty()) break;
      const Batch b =
          run_inputs(harness, via_san, cand, part.temp_dir, "shrink" + std::to_string(round) + "-",
                     std::min(round_left, 20.0));
      bool progressed = false;
      // The smallest candidate that still fails (the first of equals).
      size_t best_size = ~size_t{0};
      Input best;
      Outcome best_out;
      std::string best_text;
      for (size_t i = 0; i < cand.size(); ++i) {
        Input c = cand[i];
        c.clause = in.clause;
        const size_t size = c.steps.size() * c.table.size();
        if (size >= best_size) continue;
        const Judged jd = judge(c, b.outcomes[i], subject, ring_holds_residency);
        auto it = jd.f.find(clause);
        std::string found;
        if (it != jd.f.end() && (text.find(kFollowsGov5) == std::string::npos ||
                                 it->second.find(kFollowsGov5) != std::string::npos))
          found = it->second;
        else if (clause == "GOV-5" && !jd.gov5_walk.empty() &&
                 text.find("the prediction wrapped: ") != std::string::npos)
          found = jd.gov5_walk;
        if (!found.empty() && keep) {
          const std::vector<std::string> like = failing_like(c, b.outcomes[i], clause);
          const bool shares = std::any_of(like.begin(), like.end(), [&](const std::string& x) {
            return std::find(keep->begin(), keep->end(), x) != keep->end();
          });
          if (keep->empty() ? !like.empty() : !shares) found.clear();
        }
        if (!found.empty()) best = c, best_out = b.outcomes[i], best_text = found, best_size = size;
      }
      if (best_size != ~size_t{0})
        in = best, out = std::move(best_out), text = best_text, progressed = true;
      if (!progressed) break;
    }
    return std::make_tuple(in, out, text);
  };

  const std::string coverage_all =
      std::to_string(selections) + " selections of " + std::to_string(inputs.size()) + " inputs";
  for (const auto& [id, fn] : component.clauses) {
    ClauseVerdict v;
    v.id = id;
    v.component = component.name;
    v.function = fn;
    v.file = target.display;
    for (const auto& f : part.functions)
      if (f.name == fn && f.found) v.line = f.first_line;
    if (v.line == 0)
      for (const auto& f : part.functions)
        if (f.name == "menu_select") v.line = f.first_line;
    const auto it = findings.find(id);
    if (id == "GOV-6") {
      v.coverage = std::to_string(limit_pairs) + " pairs differing only in the limit, " +
                   std::to_string(prediction_pairs) +
                   " pairs differing only in the walk's input prediction";
      if (!gov6.empty()) {
        v.status = "failed";
        v.counterexamples = gov6;
        v.note =
            "the counterexamples go through the tick logic as spec/governor.md describes "
            "(the spec accepts GOV-6 for every subject)";
      } else if (!plain.errors.empty()) {
        v.status = "error";
        for (const auto& e : plain.errors) v.error += (v.error.empty() ? "" : "; ") + e;
      } else if (limit_pairs + prediction_pairs == 0) {
        v.status = "unknown";
        v.note = "no pair of selections could be compared";
      } else {
        v.status = "held";
      }
    } else if (it != findings.end() && !it->second.empty()) {
      v.status = "failed";
      auto list = it->second;
      // The smallest input first; GOV-6's families (built for pairs) last.
      auto weight = [&](size_t i) {
        return inputs[i].steps.size() * inputs[i].table.size() +
               (inputs[i].family >= 0 ? 100000 : 0);
      };
      std::stable_sort(list.begin(), list.end(), [&](const auto& a, const auto& b) {
        return weight(a.first) < weight(b.first);
      });
      // A clause judged on the choice alone: the subjects are compared with
      // the file on every failing input, each input being shared (some
      // subject makes the file's violating choice there), not comparable
      // (every subject returns state 0 before its walk where the file
      // fails: text without that early return, v4.17 to v4.19, walks on)
      // or unshared. The file fails as the subjects do only if no failing
      // input is unshared and one is shared; then the counterexample is the
      // smallest shared input, shrunk so that it stays shared (a smaller
      // table can put it where the subjects return early). Otherwise it is
      // the smallest unshared input (the smallest of all when every one is
      // not comparable), shrunk so that it stays unshared, and the file
      // fails another way than the subjects.
      const bool compared = gov::oracle::judged_on_choice(id);
      size_t start = 0, shared_n = 0, early = 0, unshared_n = 0;
      std::optional<size_t> first_shared, first_unshared;
      std::vector<std::string> shared;
      if (compared)
        for (size_t k = 0; k < list.size(); ++k) {
          const size_t i = list[k].first;
          const bool via_san =
              san && !sanb.outcomes.empty() && list[k].second.find("San ") != std::string::npos;
          const Outcome& o = via_san ? sanb.outcomes[i] : plain.outcomes[i];
          std::vector<std::string> like = failing_like(inputs[i], o, id);
          if (!like.empty()) {
            ++shared_n;
            if (!first_shared) first_shared = k, shared = std::move(like);
          } else if (subjects_return_early(inputs[i], o, id)) {
            ++early;
          } else {
            ++unshared_n;
            if (!first_unshared) first_unshared = k;
          }
        }
      const bool as_subjects = compared && unshared_n == 0 && shared_n > 0;
      const std::vector<std::string> none;
      const std::vector<std::string>* keep = nullptr;
      if (as_subjects)
        start = *first_shared, keep = &shared;
      else if (compared)
        start = first_unshared.value_or(0), keep = &none;
      auto [small, small_out, text] = shrink(id, list[start].first, list[start].second, keep);
      v.counterexamples.push_back(text);
      if (compared) {
        v.subjects_compared = true;
        v.fails_like = as_subjects ? failing_like(small, small_out, id) : none;
        const std::string n = " of the " + std::to_string(list.size()) + " failing inputs";
        if (early > 0)
          v.note = "on " + std::to_string(early) + n +
                   " every subject returns state 0 before its walk (state 1's exit latency "
                   "is above the limit), which the file does not: its walk goes on to the "
                   "state it breaks " +
                   id + " with; the subjects are not compared with the file there";
        if (!as_subjects && shared_n > 0)
          v.note += (v.note.empty() ? "" : "; ") + std::string("on ") + std::to_string(shared_n) +
                    n + " some subject makes the file's choice too, on " +
                    std::to_string(unshared_n) + " (this counterexample among them) none does";
      }
      if (kDisabledState0Era.count(id) && disabled_state0_era(list, small, text))
        v.era = "v4.4-v4.12";
      if (id == "GOV-8") {
        // The judge records the violation the spec accepts for every subject
        // (the KTIME_MAX truncation after a poll timeout) apart, as observed,
        // and never as a finding: a GOV-8 finding is one no subject shares.
        v.subjects_compared = true;
      }
      for (size_t k = 0; k < list.size() && v.counterexamples.size() < kMaxCounterexamples; ++k)
        if (k != start) v.counterexamples.push_back(list[k].second);
      v.coverage =
          std::to_string(list.size()) + " of " + std::to_string(inputs.size()) + " inputs fail";
      // The inputs are the seed's alike on every run (review compares them).
      for (const auto& [i, t] : list)
        if (v.failing_inputs.size() < kMaxFailingInputs)
          v.failing_inputs.emplace_back(input_line(0, inputs[i]), t);
      const std::string line = input_line(0, small);
      v.replay = "printf '" + line.substr(0, line.size() - 1) + "\\n' | " +
                 (san && text.find("San ") != std::string::npos ? "harness_san trace" : "harness");
      // GOV-8 on updates whose arithmetic wrapped: the ring stores the
      // wrapped duration; GOV-5 is the failure to read first.
      if (id == "GOV-8" && findings.count("GOV-5")) {
        const size_t follow =
            static_cast<size_t>(std::count_if(list.begin(), list.end(), [](const auto& x) {
              return x.second.find(kFollowsGov5) != std::string::npos;
            }));
        if (follow == list.size() && text.find(kFollowsGov5) != std::string::npos) {
          v.follows_from = "GOV-5";
          v.note =
              "follows from GOV-5: on every failing input menu_update()'s arithmetic wrapped "
              "on the same update (GOV-5's counterexamples name the step), and the ring "
              "stores the wrapped duration";
        } else if (follow > 0) {
          v.note = std::to_string(follow) + " of the " + std::to_string(list.size()) +
                   " failing inputs follow from GOV-5 (the update wrapped); the others do not";
        }
      }
      if (id == "GOV-5" && text.find("the prediction wrapped: ") != std::string::npos)
        v.note =
            "the prediction is recomputed from the file's own inputs (its time to the next "
            "timer, correction factor and typical interval): with the word named wrapped it "
            "gives the file's choice, exactly it does not, and every divergence of the "
            "input is some prediction's walk";
    } else if (id == "GOV-8" && !gov8_accepted.empty() && plain.errors.empty()) {
      // No GOV-8 finding, but the violation spec/governor.md accepts for
      // every subject (the truncated KTIME_MAX after a polling time-out
      // that had no timer to guess from) observed: failed here, with the
      // subjects whose own menu_update() stores the same value from the
      // file's state, so that validate.cc's post-pass reports it as the
      // acceptance (`accepted` for the subject judged against, with the
      // spec's words and what upstream did about it) and not as `held`.
      v.status = "failed";
      v.counterexamples.push_back(gov8_accepted);
      v.subjects_compared = true;
      v.fails_like = storing_like(inputs[gov8_input], plain.outcomes[gov8_input],
                                  static_cast<size_t>(gov8_step));
      v.coverage = coverage_all + (san ? " (plain and ASan+UBSan)" : " (plain)") + "; " +
                   std::to_string(gov8_stored) + " stored intervals in range";
      const std::string line = input_line(0, inputs[gov8_input]);
      v.replay = "printf '" + line.substr(0, line.size() - 1) + "\\n' | harness";
      v.note =
          "observed the truncation spec/governor.md accepts for every subject (a polling state "
          "timing out after a selection that did not consult the timer); every other stored "
          "interval in range";
    } else if (!plain.errors.empty()) {
      v.status = "error";
      for (const auto& e : plain.errors) v.error += (v.error.empty() ? "" : "; ") + e;
    } else if (id == "GOV-3" && g3_unjudged > 0) {
      v.status = "unknown";
      v.note = std::to_string(g3_unjudged) + " of " + std::to_string(selections) +
               " selections not judged (the file's struct menu_device is not the model's: units "
               "or buckets, or the index is outside the table)";
    } else {
      v.status = "held";
      v.coverage = coverage_all + (san ? " (plain and ASan+UBSan)" : " (plain)");
      if (id == "GOV-3")
        v.coverage += "; the path and prediction of each: " + std::to_string(g3_exact) + " " +
                      sname + "'s walk of its own prediction, " + std::to_string(g3_family) +
                      " of another known predictor's, " + std::to_string(g3_other) +
                      " of another prediction, " + std::to_string(g3_wrapped) +
                      " of a prediction exact arithmetic does not give, " +
                      std::to_string(g3_wording) + " judged by the clause's words (no walk of " +
                      sname + " gives the choice)";
      if (id == "GOV-5") {
        v.coverage += "; menu_update() recomputed exactly on " + std::to_string(gov5_update);
        if (found("get_typical_interval"))
          v.coverage += ", get_typical_interval() read back on " + std::to_string(gov5_typical);
        if (walk_differs == 0) {
          v.coverage += ", the prediction judged through " + sname + "'s walk on " +
                        std::to_string(gov5_predict);
        } else {
          v.note = "the prediction is not judged: in " + std::to_string(walk_differs) +
                   " inputs the file's choice is no prediction's walk by subject " + sname +
                   " (its walk differs; see the other clauses and the differential note)";
        }
      }
      if (id == "GOV-8")
        v.coverage += "; " + std::to_string(gov8_stored) + " stored intervals in range";
    }
    part.clauses.push_back(v);
  }
  return finish();
}

}  // namespace idlespec::validate
