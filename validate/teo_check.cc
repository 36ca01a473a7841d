// The teo component of `idlespec validate`: a file's teo_select(),
// teo_reflect() and teo_update() (with the helpers they call, struct
// teo_cpu, struct teo_bin and the per-CPU teo_cpus) against spec/teo.md.
//
// The harness (harness/harness_teo.c) drives one CPU through a state table
// and a sequence of idle periods: per step it sets the PM QoS limit, the
// tick layer's answers and the tick state, calls teo_select() (which runs
// teo_update() for the previous period, as the kernel does), reports the
// index and stop_tick and the per-CPU struct teo_cpu as the selection left
// it, then plays the idle period (local_clock() advanced by the residency,
// teo_reflect()). The driver judges only through oracle/teo.h:
//
//   TEO-1..5  judge_selection() on (table, inputs, index, stop_tick) of
//             every selection;
//   TEO-6     judge_metrics() on the struct teo_cpu printed after every
//             selection (the update of the previous period has run); the
//             era (6.1's recent ring) from the members the file's struct
//             has.
//
// The status is held or failed; spec_judgement.cc's post-pass applies the spec's
// acceptances for the subject judged against. A crash or a hang is a failed
// clause with its input and replay, and no subject's (so no acceptance
// covers it): TEO-1 inside teo_select(), TEO-6 in teo_reflect() or the
// update. A WARN_ON or BUG_ON hit is failed the same way, at the step and in
// the function the harness names. A crash or a hang stops the input; the
// clauses not failed are then `error` (the code under test did not finish
// what the inputs ask).
//
// Differential: every selection is also run through the four subjects of
// impl/teo.h from the file's own struct teo_cpu before it (the members the
// file lacks carried over from the subject's own previous step), learning
// the previous period first; the note names the subjects whose index and
// stop_tick equal the file's on every selection, or the closest and its
// first departure.
#include "validate/teo_check.h"

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <map>
#include <random>
#include <regex>
#include <set>
#include <sstream>
#include <tuple>

#include "impl/teo.h"
#include "oracle/teo.h"
#include "sandbox/process.h"
#include "validate/component.h"
#include "validate/cpuidle_run.h"
#include "validate/input_check.h"

namespace idlespec::validate {
namespace {

using Clock = std::chrono::steady_clock;
using TState = teo::State<Concrete>;

constexpr size_t kMaxCounterexamples = 3;
constexpr uint64_t kNoLimitNs = kCpuidleNoLimitNs;  // PM QoS "no limit" (S32_MAX us)

struct Entry {
  uint64_t exit_ns = 0, target_ns = 0;
  bool polling = false, disabled = false;
};

using Step = IdleStep;

struct Input {
  std::string name;  // hand-picked inputs say what they aim at
  unsigned hz = 1000;
  std::vector<Entry> table;
  std::vector<Step> steps;
  // What sched_cpu_util() answers (teo.c of v6.3 to v6.10 reads it): 0, an
  // idle CPU, or SCHED_CAPACITY_SCALE, a busy one (spec/teo.md).
  unsigned long util = 0;
};

// SCHED_CAPACITY_SCALE (harness/shims/teo_env.h): a CPU utilised to capacity.
constexpr unsigned long kBusyUtil = 1024;

// struct teo_cpu as the harness printed it, and which members it has.
struct Metrics {
  bool ok = false;
  teo::ConcreteCpu cpu = teo::fresh_cpu<Concrete>();
};

struct Sel {
  bool ok = false;
  long long idx = 0;
  bool stop = true;
  Metrics after;
};

struct Outcome {
  bool reported = false, crashed = false, hung = false;
  long long crash_step = -1;
  // What the harness's own CRASH or HANG line says: the step it trapped at
  // and the signal (-1 when the input ended otherwise, e.g. in a harness
  // that had stopped after too many crashes).
  long long trap_step = -1;
  bool trap_hang = false;
  std::string trap;
  std::string crash;
  std::vector<Sel> sels;
  std::vector<std::string> warns;
};

// The members of the file's struct teo_cpu / teo_bin the harness prints.
struct Layout {
  bool recent = false, tick_hits = false, total_tick = false, tick_intercepts = false;
  bool short_idles = false, tick_wakeup = false, time_span = false;
  // v6.14 to v6.18: artificial_wakeup instead of tick_wakeup, and `total`
  // decayed on its own (no subject models this era; spec/teo.md, TEO-6).
  bool artificial_wakeup = false;
  // v6.3 to v6.10: struct teo_cpu has util_threshold (9ce0f7c4bc64's
  // util-awareness): the inputs run again with the CPU utilised.
  bool util = false;
  teo::Era era = teo::Era::kMainline;
};

uint64_t tick_of(unsigned hz) { return (1000000000ULL + hz / 2) / hz; }

// --- inputs -----------------------------------------------------------------------

std::vector<Entry> ordered_table(std::mt19937_64& rng, size_t n) {
  std::vector<Entry> t;
  uint64_t exit = 0, target = 0;
  const bool poll = rng() % 2 == 0;
  for (size_t i = 0; i < n; ++i) {
    Entry e;
    if (i == 0 && poll) {
      e.polling = true;
    } else {
      static constexpr uint64_t kSteps[] = {1000, 2000, 5000, 10000, 50000, 200000, 1000000};
      exit += kSteps[rng() % std::size(kSteps)];
      target = std::max(target + 1000, exit * (1 + rng() % 10));
    }
    e.exit_ns = exit;
    e.target_ns = target;
    e.disabled = rng() % 8 == 0;
    t.push_back(e);
  }
  return t;
}

// A time around the table's residencies, the tick, or far.
uint64_t pick_time(std::mt19937_64& rng, uint64_t tick, const std::vector<Entry>& t) {
  switch (rng() % 6) {
    case 0: {
      const uint64_t r = t[rng() % t.size()].target_ns;
      return r + (rng() % 3) - 1 + (r == 0);
    }
    case 1:
      return tick / 2 + rng() % (2 * tick);
    case 2:
      return 10 * tick + rng() % (1000 * tick);
    case 3:
      return 1000 + rng() % 100000;
    case 4:
      return 3 * tick + rng() % tick;
    default:
      return 1 + rng() % (4 * tick);
  }
}

uint64_t pick_limit(std::mt19937_64& rng, const std::vector<Entry>& t) {
  switch (rng() % 4) {
    case 0:
    case 1:
      return kNoLimitNs;
    case 2: {
      const uint64_t e = t[rng() % t.size()].exit_ns;
      return e + (rng() % 3) - 1 + (e == 0);
    }
    default:
      return rng() % 20000;
  }
}

// The kernel's delta_next: the time to the next timer or tick, at most the
// sleep length; with the tick running within a tick.
Step make_step(std::mt19937_64& rng, uint64_t tick, const std::vector<Entry>& t, bool stopped) {
  Step x;
  x.latency_req = pick_limit(rng, t);
  x.sleep = pick_time(rng, tick, t);
  x.stopped = stopped;
  x.dtick = stopped ? x.sleep : std::min(x.sleep, 1 + rng() % tick);
  switch (rng() % 4) {
    case 0:
      x.residency = x.sleep;  // woken by the timer
      break;
    case 1:
      x.residency = rng() % (x.sleep + 1);  // something else, earlier
      break;
    case 2:
      x.residency = rng() % 20000;  // a short idle
      break;
    default:
      x.residency = std::min(x.sleep, tick);  // the tick
      x.got_tick = !stopped;
  }
  x.poll_limit = t[0].polling && rng() % 10 == 0;
  return x;
}

std::vector<Input> make_inputs(uint64_t seed) {
  std::vector<Input> in;
  const uint64_t us = 1000, ms = 1000000;
  auto constant = [](Step s, size_t k) { return std::vector<Step>(k, s); };
  auto tick_running = [](uint64_t sleep, uint64_t tick) {
    Step s;
    s.sleep = sleep;
    s.dtick = std::min(sleep, tick);
    return s;
  };
  // spec TEO-1's example: poll 0/0 disabled, C1 exit 2 us, C2 exit 20 us,
  // limit 1 us (state 0 disabled with a tight limit).
  {
    Input i{"TEO-1 example: state 0 disabled, limit below every enabled state", 1000, {}, {}};
    i.table = {
        {0, 0, true, true}, {2 * us, 10 * us, false, false}, {20 * us, 100 * us, false, false}};
    Step s = tick_running(10 * ms, tick_of(1000));
    s.latency_req = 1 * us;
    s.residency = 10 * ms;
    i.steps = constant(s, 3);
    in.push_back(i);
  }
  // TEO-3: a polling state 0 chosen with the tick running (short sleeps).
  for (unsigned hz : {100u, 1000u}) {
    Input i{"TEO-3: polling state 0 chosen, tick running", hz, {}, {}};
    i.table = {
        {0, 0, true, false}, {10 * us, 100 * us, false, false}, {100 * us, 1 * ms, false, false}};
    Step s = tick_running(20 * us, tick_of(hz));
    s.residency = 20 * us;
    i.steps = constant(s, 4);
    // Intercepts: a far timer, woken early into bin 0.
    Step e = tick_running(50 * ms, tick_of(hz));
    e.residency = 5 * us;
    for (int k = 0; k < 12; ++k) i.steps.push_back(e);
    in.push_back(i);
  }
  // TEO-3: a polling state deeper than state 0 (state 0 disabled) taken by
  // the intercepts with a far timer: only the POLLING test keeps the tick.
  for (bool stopped_first : {false, true}) {
    Input i{"TEO-3: polling state 1 chosen by intercepts, timer far", 250, {}, {}};
    i.table = {{0, 0, false, true},
               {0, 0, true, false},
               {10 * us, 100 * us, false, false},
               {100 * us, 1 * ms, false, false}};
    Step e = tick_running(50 * ms, tick_of(250));
    e.stopped = stopped_first;
    if (stopped_first) e.dtick = e.sleep;
    e.residency = 50 * us;
    for (int k = 0; k < 6; ++k) i.steps.push_back(e);
    e = tick_running(50 * ms, tick_of(250));
    e.residency = 50 * us;
    for (int k = 0; k < 10; ++k) i.steps.push_back(e);
    in.push_back(i);
  }
  // TEO-4: the tick running and close, the timer far.
  for (unsigned hz : {100u, 250u, 1000u}) {
    Input i{"TEO-4: tick running, next tick close, timer far", hz, {}, {}};
    i.table = {{0, 0, true, false},
               {2 * us, 20 * us, false, false},
               {50 * us, 500 * us, false, false},
               {200 * us, 4 * ms, false, false}};
    Step s;
    s.sleep = 1000 * ms;
    s.dtick = 200 * us;
    s.residency = 150 * us;
    s.got_tick = true;
    i.steps = constant(s, 6);
    in.push_back(i);
  }
  // TEO-5: the tick stopped, the timer far, intercepts in bin 0 (spec's
  // v6.1 counterexample table: poll 0/0, C1 100 us, C2 5 ms, HZ=1000).
  for (bool c1_shallow : {true, false}) {
    Input i{"TEO-5: tick stopped, timer far, intercepts in bin 0", 1000, {}, {}};
    i.table = {{0, 0, true, false},
               {c1_shallow ? 10 * us : 50 * us, 100 * us, false, false},
               {1 * ms, 5 * ms, false, false}};
    Step e = tick_running(100 * ms, tick_of(1000));
    e.residency = 10 * us;
    for (int k = 0; k < 10; ++k) i.steps.push_back(e);
    Step far;
    far.stopped = true;
    far.sleep = 10000 * ms;
    far.dtick = far.sleep;
    far.residency = 10 * us;
    for (int k = 0; k < 6; ++k) i.steps.push_back(far);
    in.push_back(i);
  }
  // Two states with one target residency at or above a tick (a bin of size
  // 0), intercepts in bin 0, then the tick stopped with a far timer: v6.19's
  // search may stop at the shallower of the two, v7.0's 4bd2221f231d keeps
  // the candidate, v7.1's stopped-tick promotion takes the deeper one.
  {
    Input i{"zero-size bin, tick stopped", 1000, {}, {}};
    i.table = {{0, 0, true, false},
               {2 * us, 20 * us, false, false},
               {100 * us, 2 * ms, false, false},
               {200 * us, 2 * ms, false, false}};
    Step e = tick_running(50 * ms, tick_of(1000));
    e.residency = 10 * us;
    for (int k = 0; k < 10; ++k) i.steps.push_back(e);
    Step far;
    far.stopped = true;
    far.sleep = 50 * ms;
    far.dtick = far.sleep;
    far.residency = 10 * us;
    for (int k = 0; k < 4; ++k) i.steps.push_back(far);
    in.push_back(i);
  }
  // A far timer with the tick running and stopped, no history.
  for (bool stopped : {false, true}) {
    Input i{"far timer", 250, {}, {}};
    i.table = {{0, 0, true, false},
               {5 * us, 50 * us, false, false},
               {100 * us, 2 * ms, false, false},
               {500 * us, 10 * ms, false, false}};
    Step s;
    s.stopped = stopped;
    s.sleep = 5000 * ms;
    s.dtick = stopped ? s.sleep : tick_of(250);
    s.residency = s.sleep;
    i.steps = constant(s, 5);
    in.push_back(i);
  }
  // TEO-6: long runs of one kind of period (hits, intercepts, tick wakeups,
  // poll timeouts) that saturate the metrics.
  for (int kind = 0; kind < 4; ++kind) {
    Input i{"TEO-6: long run of one kind of period", 1000, {}, {}};
    i.table = {{0, 0, true, false},
               {2 * us, 20 * us, false, false},
               {50 * us, 300 * us, false, false},
               {300 * us, 3 * ms, false, false}};
    Step s = tick_running(kind == 1 ? 50 * ms : 500 * us, tick_of(1000));
    s.residency = kind == 0 ? 500 * us : kind == 1 ? 3 * us : kind == 2 ? 1 * ms : 40 * us;
    s.got_tick = kind == 2;
    s.poll_limit = kind == 3;
    i.steps = constant(s, 40);
    in.push_back(i);
  }
  // A single state, and no state enabled.
  {
    Input i{"one state", 1000, {{0, 0, true, false}}, {}};
    Step s = tick_running(2 * ms, tick_of(1000));
    s.residency = 1 * ms;
    i.steps = constant(s, 3);
    in.push_back(i);
    Input j{"no state enabled", 1000, {{0, 0, true, true}, {5 * us, 50 * us, false, true}}, {}};
    j.steps = constant(s, 3);
    in.push_back(j);
  }
  // Seeded random sequences over ordered tables.
  std::mt19937_64 rng(seed);
  static constexpr unsigned kHz[] = {100, 250, 1000};
  for (int k = 0; k < 600; ++k) {
    Input i;
    i.name = "random";
    i.hz = kHz[rng() % 3];
    i.table = ordered_table(rng, 2 + rng() % 5);
    const uint64_t tick = tick_of(i.hz);
    const size_t n = 4 + rng() % 28;
    bool stopped = rng() % 3 == 0;
    for (size_t s = 0; s < n; ++s) {
      if (rng() % 4 == 0) stopped = !stopped;
      i.steps.push_back(make_step(rng, tick, i.table, stopped));
    }
    in.push_back(i);
  }
  return in;
}

// --- the line protocol -----------------------------------------------------------

std::string line_of(const Input& in) {
  std::string s = std::to_string(in.hz) + " " +
                  table_line(in.table, &Entry::exit_ns, &Entry::target_ns) + " " +
                  steps_line(in.steps, [](const Step&) { return ""; });
  if (in.util) s += " util=" + std::to_string(in.util);
  return s;
}

std::vector<long long> list_of(const std::string& s) {
  std::vector<long long> out;
  std::istringstream is(s);
  for (std::string x; std::getline(is, x, ',');)
    out.push_back(std::strtoll(x.c_str(), nullptr, 10));
  return out;
}

uint32_t u32_of(const std::string& line, const std::string& key) {
  return static_cast<uint32_t>(std::strtoull(harness_field(line, key).c_str(), nullptr, 10));
}

Metrics parse_metrics(const std::string& line, const Layout& lay) {
  Metrics m;
  m.ok = line.find(" h=") != std::string::npos;
  teo::ConcreteCpu& c = m.cpu;
  c.sleep_length_ns =
      Word<64>(static_cast<uint64_t>(std::strtoll(harness_field(line, "sl").c_str(), nullptr, 10)));
  c.total = Word<32>(u32_of(line, "total"));
  const auto h = list_of(harness_field(line, "h")), i = list_of(harness_field(line, "i"));
  for (size_t b = 0; b < teo::kMaxStates; ++b) {
    c.bins[b].hits = Word<32>(b < h.size() ? static_cast<uint32_t>(h[b]) : 0);
    c.bins[b].intercepts = Word<32>(b < i.size() ? static_cast<uint32_t>(i[b]) : 0);
  }
  if (lay.recent) {
    const auto r = list_of(harness_field(line, "r")), ri = list_of(harness_field(line, "ri"));
    for (size_t b = 0; b < teo::kMaxStates; ++b)
      c.bins[b].recent = Word<32>(b < r.size() ? static_cast<uint32_t>(r[b]) : 0);
    for (size_t j = 0; j < teo::kNrRecent; ++j)
      c.recent_idx[j] = Word<32>(j < ri.size() ? static_cast<uint32_t>(ri[j]) : teo::kNoIndex);
    c.next_recent_idx = Word<32>(u32_of(line, "nri"));
  }
  if (lay.tick_hits) c.tick_hits = Word<32>(u32_of(line, "tick_hits"));
  if (lay.total_tick) c.total_tick = Word<32>(u32_of(line, "total_tick"));
  if (lay.tick_intercepts) c.tick_intercepts = Word<32>(u32_of(line, "tick_intercepts"));
  if (lay.short_idles) c.short_idles = Word<32>(u32_of(line, "short_idles"));
  if (lay.tick_wakeup) c.tick_wakeup = harness_field(line, "tick_wakeup") == "1";
  return m;
}

// The file's printed members over `into` (the members it lacks kept).
void overlay(teo::ConcreteCpu& into, const teo::ConcreteCpu& file, const Layout& lay) {
  into.sleep_length_ns = file.sleep_length_ns;
  into.total = file.total;
  for (size_t b = 0; b < teo::kMaxStates; ++b) {
    into.bins[b].hits = file.bins[b].hits;
    into.bins[b].intercepts = file.bins[b].intercepts;
    if (lay.recent) into.bins[b].recent = file.bins[b].recent;
  }
  if (lay.recent) into.recent_idx = file.recent_idx, into.next_recent_idx = file.next_recent_idx;
  if (lay.tick_hits) into.tick_hits = file.tick_hits;
  if (lay.total_tick) into.total_tick = file.total_tick;
  if (lay.tick_intercepts) into.tick_intercepts = file.tick_intercepts;
  if (lay.short_idles) into.short_idles = file.short_idles;
  if (lay.tick_wakeup) into.tick_wakeup = file.tick_wakeup;
}

using Batch = HarnessRun<Outcome>;

Batch run_inputs(const std::string& harness, const std::vector<Input>& inputs, const Layout& lay,
                 const std::string& dir, double budget) {
  auto read = [&](const HarnessOutcome& h, Outcome& o) {
    if (h.reported && h.lines.empty()) o.crashed = true, o.crash = h.crash;
    for (const auto& line : h.lines) {
      std::istringstream l(line);
      std::string word;
      long long step = -1;
      l >> word >> step;
      const bool step_ok = step >= 0 && static_cast<size_t>(step) < o.sels.size();
      if (word == "S" && step_ok) {
        read_choice(o.sels[static_cast<size_t>(step)], " " + line);
      } else if (word == "M" && step_ok) {
        o.sels[static_cast<size_t>(step)].after = parse_metrics(" " + line, lay);
      } else if (word == "CRASH" || word == "HANG") {
        read_trap(o, word, step, l);
        if (step >= 0) o.trap_step = step, o.trap_hang = word == "HANG", o.trap = o.crash;
      }
    }
  };
  return run_governor_harness<Outcome>(harness, false, inputs, line_of, dir, "plain", budget, read);
}

// --- describing and judging --------------------------------------------------------

std::string ns_text(uint64_t v) {
  if (v == kNoLimitNs) return "none";
  if (v >= 1000000 && v % 1000 == 0) return std::to_string(v / 1000) + " us";
  if (v >= 1000 && v % 1000 == 0) return std::to_string(v / 1000) + " us";
  return std::to_string(v) + " ns";
}

std::string describe_table(const std::vector<Entry>& t) {
  std::string s;
  for (size_t i = 0; i < t.size(); ++i) {
    s += (i ? ", " : "") + std::to_string(i) + ":" + ns_text(t[i].exit_ns) + "/" +
         ns_text(t[i].target_ns);
    if (t[i].polling) s += " poll";
    if (t[i].disabled) s += " disabled";
  }
  return s;
}

std::string describe_step(const Step& x) {
  return "limit " + ns_text(x.latency_req) + ", sleep " + ns_text(x.sleep) + ", delta_tick " +
         ns_text(x.dtick) + (x.stopped ? ", tick stopped" : ", tick running");
}

std::string where(size_t id, const Input& in, size_t k) {
  return "input " + std::to_string(id) + (in.name == "random" ? "" : " (" + in.name + ")") +
         (in.util ? ", CPU utilised (sched_cpu_util() " + std::to_string(in.util) + ")" : "") +
         ", HZ=" + std::to_string(in.hz) + ", table [" + describe_table(in.table) + "], step " +
         std::to_string(k) + " of " + std::to_string(in.steps.size()) + " (" +
         describe_step(in.steps[k]) + ")";
}

std::vector<TState> states_of(const std::vector<Entry>& t) {
  std::vector<TState> s;
  for (const Entry& e : t)
    s.push_back(TState{Word<64>(e.exit_ns), Word<64>(e.target_ns), e.polling, false, e.disabled});
  return s;
}

teo::ConcreteInputs inputs_of(const Input& in, const Step& x) {
  return teo::ConcreteInputs{Word<64>(x.latency_req), Word<64>(x.sleep), Word<64>(x.dtick),
                             x.stopped, Word<64>(tick_of(in.hz))};
}

teo::ConcretePeriod period_of(long long idx, const Step& x) {
  return teo::ConcretePeriod{Word<32>(static_cast<uint32_t>(idx)), Word<64>(x.residency),
                             x.poll_limit, x.got_tick, Word<64>(x.residency)};
}

bool has_member(const std::string& code, const std::string& strukt, const std::string& member) {
  const size_t at = code.find("struct " + strukt + " {");
  if (at == std::string::npos) return false;
  const size_t end = code.find("};", at);
  const std::string body = code.substr(at, end == std::string::npos ? std::string::npos : end - at);
  return std::regex_search(body, std::regex("\\b" + member + "\\b"));
}

Layout read_layout(const Extraction& ex) {
  Layout lay;
  lay.recent =
      has_member(ex.code, "teo_bin", "recent") && has_member(ex.code, "teo_cpu", "recent_idx");
  lay.tick_hits = has_member(ex.code, "teo_cpu", "tick_hits");
  lay.total_tick = has_member(ex.code, "teo_cpu", "total_tick");
  lay.tick_intercepts = has_member(ex.code, "teo_cpu", "tick_intercepts");
  lay.short_idles = has_member(ex.code, "teo_cpu", "short_idles");
  lay.tick_wakeup = has_member(ex.code, "teo_cpu", "tick_wakeup");
  lay.time_span = has_member(ex.code, "teo_cpu", "time_span_ns");
  lay.artificial_wakeup = has_member(ex.code, "teo_cpu", "artificial_wakeup") && !lay.tick_wakeup;
  lay.util = has_member(ex.code, "teo_cpu", "util_threshold");
  lay.era = lay.recent        ? teo::Era::k61
            : lay.tick_hits   ? teo::Era::k612
            : lay.short_idles ? teo::Era::k619
                              : teo::Era::kMainline;
  return lay;
}

// One TEO_HAVE_<member> per member the harness and the Frama-C unit read.
std::vector<std::string> layout_defines(const Layout& lay) {
  std::vector<std::string> defs;
  if (lay.recent) defs.push_back("-DTEO_HAVE_RECENT");
  if (lay.tick_hits) defs.push_back("-DTEO_HAVE_TICK_HITS");
  if (lay.total_tick) defs.push_back("-DTEO_HAVE_TOTAL_TICK");
  if (lay.tick_intercepts) defs.push_back("-DTEO_HAVE_TICK_INTERCEPTS");
  if (lay.short_idles) defs.push_back("-DTEO_HAVE_SHORT_IDLES");
  if (lay.tick_wakeup) defs.push_back("-DTEO_HAVE_TICK_WAKEUP");
  if (lay.time_span) defs.push_back("-DTEO_HAVE_TIME_SPAN");
  if (lay.util) defs.push_back("-DTEO_HAVE_UTIL_THRESHOLD");
  return defs;
}

}  // namespace

std::vector<std::string> teo_layout_defines(const Extraction& ex) {
  return layout_defines(read_layout(ex));
}

void add_teo_cpus(const Target& target, Extraction& ex) { add_per_cpu(target, ex, "teo_cpus"); }

Part check_teo(const Options& opt, const Target& target) {
  const auto t0 = Clock::now();
  const Component& component = *find_component("teo");
  std::vector<std::string> wanted = target.functions;
  for (const char* f : {"teo_select", "teo_reflect", "teo_update"})
    if (std::find(wanted.begin(), wanted.end(), f) == wanted.end()) wanted.push_back(f);
  Extraction ex = extract(target.text, wanted, target.path);
  add_teo_cpus(target, ex);
  Part part = start_part(component, target, ex);
  auto found = [&](const std::string& name) { return found_function(ex, name); };
  if (!found("teo_select")) {
    fill_verdicts(component, target, part, "absent", "");
    return part;
  }
  if (!found("teo_reflect")) {
    fill_verdicts(component, target, part, "unknown", "teo_reflect() is not in the file");
    return part;
  }
  const Layout lay = read_layout(ex);
  std::vector<std::string> defs = {"-DHAVE_TEO_SELECT"};
  for (const auto& d : layout_defines(lay)) defs.push_back(d);
  Options plain_only = opt;
  plain_only.sanitizers = false;
  HarnessBuild hb;
  if (!build_part_harness(plain_only, component, target, part, "teo_env.h", ex.code,
                          "harness_teo.c", defs, hb, t0))
    return part;
  auto finish = [&] {
    finish_part(opt, part, t0);
    return part;
  };
  {
    std::string era = lay.era == teo::Era::k61    ? "6.1 (bins with recent, the recent_idx ring)"
                      : lay.era == teo::Era::k612 ? "6.12 (tick_hits)"
                      : lay.era == teo::Era::k619 && lay.artificial_wakeup
                          ? "v6.14 to v6.18 (short_idles, artificial_wakeup; `total` decays on "
                            "its own), which no subject of spec/teo.md models: read with the v6.19 "
                            "layout (the differential names the closest subject)"
                      : lay.era == teo::Era::k619
                          ? "v6.19 or later (short_idles, tick_intercepts)"
                          : "unknown (none of recent_idx, tick_hits, short_idles)";
    part.notes.push_back("struct teo_cpu of the era " + era +
                         "; the plain build only (no ASan+UBSan run for teo)");
  }

  std::vector<Input> inputs = make_inputs(opt.seed);
  const size_t idle_inputs = inputs.size();  // a utilised input i has its idle twin at i - this
  if (lay.util) {
    // The util-awareness of v6.3 to v6.10: every input again with the CPU
    // utilised (the clauses hold whatever the utilisation; no subject
    // models it, so the differential leaves these inputs out).
    const size_t n = inputs.size();
    for (size_t i = 0; i < n; ++i) {
      Input busy = inputs[i];
      busy.util = kBusyUtil;
      inputs.push_back(std::move(busy));
    }
    part.notes.push_back(
        "struct teo_cpu has util_threshold (the util-awareness of v6.3 to v6.10): every input "
        "runs with sched_cpu_util() 0 and again with " +
        std::to_string(kBusyUtil) +
        " (SCHED_CAPACITY_SCALE, a utilised CPU); the subjects model an idle CPU, so the "
        "differential compares the first half only, and an acceptance covers a utilised "
        "input's failure only where its idle twin fails the same way at the same step");
  }
  // --budget is the part's: the runs get what the build left of it, no more.
  const Batch plain = run_inputs(hb.plain, inputs, lay, part.temp_dir, budget_left(opt, t0));
  part.runs = plain.runs;

  // The judge: oracle/teo.h on every selection and every metrics line.
  std::map<std::string, std::vector<std::pair<size_t, std::string>>> findings;
  // Inputs whose TEO-6 finding has `total` below the bins' sum (the v6.14..v6.18 defect).
  std::set<size_t> total_below;
  std::vector<std::string> stopped;  // crashes, hangs, WARNs
  std::set<std::string> crashed_in;  // the clauses a crash, a hang or a WARN failed
  size_t selections = 0, metrics = 0;
  // Where each selection clause failed (input, step: the first step per
  // input, as `findings` keeps it), for the comparison with the subjects.
  std::map<std::string, std::vector<std::pair<size_t, size_t>>> failed_at;
  for (size_t i = 0; i < inputs.size(); ++i) {
    const Input& in = inputs[i];
    const Outcome& o = plain.outcomes[i];
    if (!o.reported) continue;
    if (o.crashed || o.hung)
      stopped.push_back("input " + std::to_string(i) + ": " + o.crash +
                        (o.crash_step >= 0 ? " at step " + std::to_string(o.crash_step) : ""));
    // A crash or a hang that the harness trapped at a step is a failed
    // clause, and no subject's. In teo_select() (no selection line for its
    // step) it is TEO-1's, which asks for a state of the table; after it, in
    // teo_reflect() or the update, TEO-6's, which asks that one update keeps
    // the metrics. An input the harness never reached (it had stopped after
    // too many crashes) is only stopped.
    if (o.trap_step >= 0) {
      const size_t k = static_cast<size_t>(o.trap_step);
      const bool step_known = k < o.sels.size() && k < in.steps.size();
      const bool in_select = !step_known || !o.sels[k].ok;
      const std::string clause = in_select ? "TEO-1" : "TEO-6";
      auto& list = findings[clause];
      if (std::none_of(list.begin(), list.end(), [&](const auto& x) { return x.first == i; }))
        list.push_back(
            {i, (step_known ? where(i, in, k) : "input " + std::to_string(i)) + ": " +
                    (in_select ? "teo_select()" : "teo_reflect() or the update") +
                    (o.trap_hang ? " did not return within 2 s (hang)" : " crashed: " + o.trap) +
                    " at step " + std::to_string(k)});
      crashed_in.insert(clause);
    }
    // A WARN_ON or BUG_ON the code under test hit, at a step the harness
    // names: a failed clause as a crash there is (the kernel's own check
    // says the call went wrong), and no subject's; the input went on, so
    // the other clauses are judged on all of it. One the harness could not
    // place (a hit just before a crash) goes with the crash.
    static const std::regex placed(
        R"(^step ([0-9]+) in (teo_select\(\)|teo_reflect\(\) or the update): (.*)$)");
    for (const auto& w : o.warns) {
      std::smatch m;
      if (!std::regex_match(w, m, placed)) {
        stopped.push_back("input " + std::to_string(i) + ": " + w);
        continue;
      }
      const size_t k = std::stoul(m[1].str());
      const bool in_select = m[2].str() == "teo_select()";
      const std::string clause = in_select ? "TEO-1" : "TEO-6";
      auto& list = findings[clause];
      if (std::none_of(list.begin(), list.end(), [&](const auto& x) { return x.first == i; }))
        list.push_back({i, (k < in.steps.size() ? where(i, in, k) : "input " + std::to_string(i)) +
                               ": " + m[2].str() + " hit a kernel assertion: " + m[3].str() +
                               " at step " + std::to_string(k)});
      crashed_in.insert(clause);
    }
    const std::vector<TState> st = states_of(in.table);
    for (size_t k = 0; k < o.sels.size(); ++k) {
      const Sel& s = o.sels[k];
      if (!s.ok) break;
      ++selections;
      teo::ConcreteChoice c{};
      c.idx = Word<32>(static_cast<uint32_t>(s.idx));
      c.stop_tick = s.stop;
      const auto vs = teo::oracle::judge_selection(st, inputs_of(in, in.steps[k]), c);
      for (const auto& v : vs) {
        auto& list = findings[v.clause];
        if (std::none_of(list.begin(), list.end(), [&](const auto& x) { return x.first == i; })) {
          list.push_back({i, where(i, in, k) + ": idx=" + std::to_string(s.idx) +
                                 " stop_tick=" + std::to_string(s.stop) + ": " + v.message});
          failed_at[v.clause].push_back({i, k});
        }
      }
      if (s.after.ok) {
        ++metrics;
        for (const auto& v : teo::oracle::judge_metrics(in.table.size(), s.after.cpu, lay.era)) {
          auto& list = findings[v.clause];
          if (std::none_of(list.begin(), list.end(), [&](const auto& x) { return x.first == i; })) {
            list.push_back({i, where(i, in, k) + ": after teo_update(): " + v.message});
            if (v.clause == "TEO-6" && teo::oracle::total_below_bins(in.table.size(), s.after.cpu))
              total_below.insert(i);
          }
        }
      }
    }
  }

  // The differential: each subject from the file's own state. At the steps
  // where the file broke a selection clause, the same oracle judges each
  // subject's choice: `breaks[j]` holds (clause, input, step) where subject j
  // breaks it too, so that an acceptance covers a failure only for a subject
  // that shares it (spec_judgement.cc).
  const auto subjects = teo::subjects();
  std::vector<std::set<std::tuple<std::string, size_t, size_t>>> breaks(subjects.size());
  std::set<std::pair<size_t, size_t>> compare_at;
  for (const auto& [clause, at] : failed_at) compare_at.insert(at.begin(), at.end());
  {
    std::vector<size_t> equal(subjects.size(), 0);
    std::vector<std::string> first(subjects.size());
    size_t compared = 0;  // the selections of inputs with an idle CPU (the subjects' model)
    for (size_t j = 0; j < subjects.size(); ++j) {
      for (size_t i = 0; i < inputs.size(); ++i) {
        const Input& in = inputs[i];
        const Outcome& o = plain.outcomes[i];
        if (!o.reported || in.util != 0) continue;
        if (j == 0)
          for (size_t k = 0; k < o.sels.size() && o.sels[k].ok; ++k) ++compared;
        const std::vector<TState> st = states_of(in.table);
        teo::ConcreteCpu cpu = teo::fresh_cpu<Concrete>();
        for (size_t k = 0; k < o.sels.size() && o.sels[k].ok; ++k) {
          if (k > 0) {
            if (o.sels[k - 1].after.ok) overlay(cpu, o.sels[k - 1].after.cpu, lay);
            subjects[j].learn(st, cpu, period_of(o.sels[k - 1].idx, in.steps[k - 1]),
                              Word<64>(tick_of(in.hz)));
          }
          const teo::ConcreteChoice c = subjects[j].select(st, cpu, inputs_of(in, in.steps[k]));
          if (compare_at.count({i, k}))
            for (const auto& v : teo::oracle::judge_selection(st, inputs_of(in, in.steps[k]), c))
              breaks[j].insert({v.clause, i, k});
          const Sel& s = o.sels[k];
          if (static_cast<long long>(c.idx.v) == s.idx && c.stop_tick == s.stop) {
            ++equal[j];
          } else if (first[j].empty()) {
            first[j] = where(i, in, k) + ": the file chose idx=" + std::to_string(s.idx) +
                       " stop_tick=" + std::to_string(s.stop) + ", " +
                       std::string(subjects[j].name) + " idx=" + std::to_string(c.idx.v) +
                       " stop_tick=" + std::to_string(c.stop_tick);
          }
        }
      }
    }
    std::string all, others;
    size_t best = 0;
    for (size_t j = 0; j < subjects.size(); ++j) {
      if (equal[j] > equal[best]) best = j;
      if (compared > 0 && equal[j] == compared)
        all += (all.empty() ? "" : ", ") + std::string(subjects[j].name);
      else
        others += (others.empty() ? "" : ", ") + std::string(subjects[j].name) + " " +
                  std::to_string(equal[j]);
    }
    std::string line;
    if (!all.empty())
      line = "differential: the file's index and stop_tick equal subject " + all + " on all " +
             std::to_string(compared) + " selections (each from the file's own struct teo_cpu)";
    else
      line = "differential: no subject matches every selection; closest " +
             std::string(subjects[best].name) + " (" + std::to_string(equal[best]) + " of " +
             std::to_string(compared) + "), first departure: " + first[best];
    if (!others.empty()) line += "; others (equal selections): " + others;
    part.notes.push_back(line);
  }
  if (!stopped.empty()) {
    std::string s;
    for (size_t k = 0; k < stopped.size() && k < 3; ++k) s += (k ? "; " : "") + stopped[k];
    part.notes.push_back("the code under test stopped or warned on " +
                         std::to_string(stopped.size()) + " input(s): " + s);
  }

  const std::string coverage = std::to_string(selections) + " selections of " +
                               std::to_string(inputs.size()) + " inputs (plain)";
  for (const auto& [id, fn] : component.clauses) {
    ClauseVerdict v = clause_verdict(component, target, part.functions, id, fn);
    const auto it = findings.find(id);
    if (it != findings.end() && !it->second.empty()) {
      v.status = "failed";
      auto list = it->second;
      std::stable_sort(list.begin(), list.end(), [&](const auto& a, const auto& b) {
        return inputs[a.first].steps.size() * inputs[a.first].table.size() <
               inputs[b.first].steps.size() * inputs[b.first].table.size();
      });
      for (size_t k = 0; k < list.size() && k < kMaxCounterexamples; ++k)
        v.counterexamples.push_back(list[k].second);
      v.coverage =
          std::to_string(list.size()) + " of " + std::to_string(inputs.size()) + " inputs fail";
      v.replay = "printf '0 " + line_of(inputs[list.front().first]) + "\\n' | harness";
      // The inputs are the seed's alike on every run (review compares them).
      for (const auto& [i, text] : list)
        if (v.failing_inputs.size() < kMaxFailingInputs)
          v.failing_inputs.emplace_back(line_of(inputs[i]), text);
      if (const auto at = failed_at.find(id); at != failed_at.end()) {
        v.subjects_compared = true;
        const std::string clause = id;  // clang 14: no lambda capture of a structured binding
        for (size_t j = 0; j < subjects.size(); ++j)
          if (std::all_of(at->second.begin(), at->second.end(), [&](const auto& ik) {
                // A utilised input: the subject (an idle CPU's) shares the
                // failure when the idle twin fails the clause at the same
                // step and the subject breaks it there too.
                const size_t i = inputs[ik.first].util != 0 ? ik.first - idle_inputs : ik.first;
                return breaks[j].count({clause, i, ik.second}) > 0;
              }))
            v.fails_like.push_back(std::string(subjects[j].name));
      }
      if (crashed_in.count(id)) {  // the code under test crashed or hung: no subject does
        v.subjects_compared = true;
        v.fails_like.clear();
      }
      // spec/teo.md, TEO-6's "- Era v6.14-v6.18:" line: that era's `total`
      // decays on its own and falls below the bins' sum.
      if (id == "TEO-6" && lay.artificial_wakeup && total_below.count(list.front().first))
        v.era = "v6.14-v6.18";
      // "- Era v6.6-v6.10:": the recent ring beside tick_hits, whose tick-hit
      // exit leaves the ring slot naming a bin that no longer counts it.
      if (id == "TEO-6" && lay.recent && lay.tick_hits &&
          list.front().second.find(" recent count ") != std::string::npos)
        v.era = "v6.6-v6.10";
    } else if (!plain.errors.empty()) {
      v.status = "error";
      for (const auto& e : plain.errors) v.error += (v.error.empty() ? "" : "; ") + e;
    } else if (!stopped.empty()) {
      v.status = "error";
      v.error = "the code under test crashed, hung or warned: " + stopped.front();
    } else if (selections == 0 || (id == "TEO-6" && metrics == 0)) {
      v.status = "unknown";
      v.note = "no selection was judged";
    } else {
      v.status = "held";
      v.coverage = coverage;
      if (id == "TEO-6") v.coverage += "; " + std::to_string(metrics) + " struct teo_cpu states";
    }
    part.clauses.push_back(v);
  }
  return finish();
}

}  // namespace idlespec::validate
