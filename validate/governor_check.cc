// The governor component of `idlespec validate`: a file's menu_select() and
// menu_update() (with the helpers they call) against spec/governor.md.
//
// The harness (validate/harness_governor.c) drives one CPU through a state
// table and a sequence of idle periods: per step it sets the PM QoS limit,
// the tick layer's answers and the tick state, calls menu_select(), reports
// the index and stop_tick and the learned state of the per-CPU struct
// menu_device (correction factors, the interval ring, next_timer, bucket),
// then plays the idle period (menu_reflect(), or a rejected entry). The
// driver judges each selection:
//
//   GOV-1, GOV-2, GOV-4, GOV-7  fuzz/governor_check.h's judge_selection() on
//            (table, inputs, index, stop_tick): these need nothing the code
//            keeps to itself. A crash, a hang or an ASan report fails GOV-7.
//   GOV-5    menu_update(): the correction factor, the ring slot and the ring
//            pointer it leaves, recomputed exactly (128 bits) from the state
//            the file itself had before the step; the predictor: the
//            prediction is a local of menu_select(), so it is judged through
//            the walk. From the file's own learned state the subject the
//            file matches best (below) predicts in exact arithmetic (its
//            words hold exact values in the spec's ranges); where the file's
//            choice differs from that subject's walk of the exact prediction
//            but equals its walk of another prediction, and every divergence
//            of the input is of that kind (the walk is the subject's, only
//            the prediction differs), the file predicted wrongly.
//   GOV-8    the interval menu_update() stores when the learned duration does
//            not fit an unsigned int (the poll-timeout after a selection that
//            did not consult the timer is the case the spec accepts for every
//            subject: observed, it is noted, not failed).
//   GOV-3    needs the path that made the choice and the prediction, which
//            the file does not expose: unknown, with what the matched
//            subject's path says on the selections where the file agrees.
//   GOV-6    unknown: the spec accepts counterexamples for every subject.
//
// Differential: every step is also run through the five subjects of
// impl/governor.h from the file's own learned state (so one divergence does
// not cascade); the note names the subject whose choices and learned state
// equal the file's on every selection, or the first divergence.
//
// Each failed clause's first counterexample is shrunk (fewer steps, fewer
// states, plainer steps) by re-running the harness on candidates.
#include "fuzz/governor_check.h"

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <map>
#include <random>
#include <set>
#include <sstream>
#include <thread>

#include "fuzz/governor_loop_check.h"
#include "impl/governor.h"
#include "validate/component.h"
#include "validate/input_check.h"
#include "validate/process.h"

namespace idlespec::validate {
namespace {

namespace gov = idlespec::governor;
namespace gf = idlespec::governor_fuzz;
using Clock = std::chrono::steady_clock;
using u128 = unsigned __int128;
using CState = gov::State<Concrete>;

constexpr size_t kMaxCounterexamples = 3;
constexpr uint64_t kNoLimitNs = uint64_t{0x7fffffff} * 1000;  // S32_MAX us
constexpr uint64_t kS64Max = 0x7fffffffffffffffULL;
constexpr uint64_t kRangeNs = uint64_t{1} << 40;

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
  Dev after;
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
      if (word == "S" || word == "U" || word == "CRASH" || word == "HANG") l >> step;
      const bool step_ok = step >= 0 && static_cast<size_t>(step) < o.sels.size();
      if (word == "I") {
        o.init = parse_dev(" " + line);
      } else if (word == "S" && step_ok) {
        Sel& s = o.sels[static_cast<size_t>(step)];
        s.ok = true;
        s.idx = std::strtoll(field(" " + line, "idx").c_str(), nullptr, 10);
        s.stop = field(" " + line, "stop_tick") == "1";
      } else if (word == "U" && step_ok) {
        o.sels[static_cast<size_t>(step)].after = parse_dev(" " + line);
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
  c.history_ok = pre.ok && !pre.us && pre.bucket < gov::kBuckets && pre.ptr >= 0 &&
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
        gov::History<Concrete> h = c.h;
        const auto p = subjects[j].predict(states, h, c.in);
        const auto ch = subjects[j].walk(states, p, c.in);
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

struct Judged {
  std::map<std::string, std::string> f;  // clause -> first finding
  size_t selections = 0, gov5_update = 0, gov5_predict = 0;
  std::string gov8_accepted;  // the accepted truncation, observed
  size_t gov3_agree = 0, gov3_found = 0;
  std::string gov3_first;
  // GOV-5 through the walk: the first divergence a prediction explains, set
  // only when every divergence of the input is of that kind; walk_differs
  // when one is not (the file's walk is not the subject's).
  std::string gov5_walk;
  bool walk_differs = false;
};

bool in_ring_range(const Dev& d) {
  for (uint32_t v : d.iv)
    if (!(v == gov::kUintMax || v < kRangeNs / 1000)) return false;
  for (uint32_t v : d.f)
    if (v < 1 || v > gov::kUnityFactor) return false;
  return true;
}

// Predictions whose walk could give the file's choice: the thresholds the
// walk compares the prediction with, either side.
std::vector<uint64_t> candidate_predictions(const Input& in, uint64_t exact, uint64_t next_timer) {
  std::set<uint64_t> c = {0, 1, next_timer, exact / 2, exact * 2};
  const uint64_t tick = gov::tick_nsec(in.hz);
  for (uint64_t v : {tick - 1, tick, tick + 1}) c.insert(v);
  for (const auto& e : in.table)
    for (uint64_t v : {e.target_residency_ns, e.exit_latency_ns}) {
      c.insert(v);
      c.insert(v + 1);
      if (v) c.insert(v - 1);
    }
  c.erase(exact);
  return {c.begin(), c.end()};
}

Judged judge(const Input& input, const Outcome& o, size_t subject) {
  Judged r;
  if (!o.reported) return r;
  auto add = [&](const std::string& clause, const std::string& text) { r.f.emplace(clause, text); };
  for (const auto& s : o.sanitizer)
    add(s.find("division by zero") != std::string::npos || s.find("overflow") != std::string::npos
            ? "GOV-5"
            : "GOV-7",
        describe(input) + ": " + s);
  if (o.crashed || o.hung)
    add(o.hung ? input.clause : "GOV-7",
        describe(input, o.crash_step) + ": menu_select() " +
            (o.hung ? "did not return within 2 s (hang)" : "crashed: " + o.crash) +
            (o.crash_step >= 0 ? " at step " + std::to_string(o.crash_step) : ""));
  for (const auto& w : o.warns) add(input.clause, describe(input) + ": " + w);

  const gf::Subject& subj = gf::all_subjects()[subject];
  const std::vector<CState> states = gov::to_states(input.table);
  const size_t n = states.size();
  bool states_in_range = true;
  for (const auto& e : input.table)
    states_in_range =
        states_in_range && e.exit_latency_ns < kRangeNs && e.target_residency_ns < kRangeNs;
  // GOV-5 through the walk: (step, text) of divergences a prediction explains.
  std::vector<std::pair<size_t, std::string>> explained;
  bool unexplained = false;

  for (size_t k = 0; k < o.sels.size(); ++k) {
    const Sel& s = o.sels[k];
    if (!s.ok) break;
    ++r.selections;
    const Step& x = input.steps[k];
    Ctx c = context(input, o, k);
    const std::string at = describe(input, static_cast<long long>(k)) + ": at step " +
                           std::to_string(k) + " the file chose " + choice_text(s.idx, s.stop);
    // GOV-1, GOV-2, GOV-4, GOV-7: the clause judge, without path or prediction.
    gov::Choice<Concrete> ch;
    ch.idx = Concrete::lit<32>(s.idx < 0 || s.idx > 0xffffffffLL ? 0xffffffffULL
                                                                 : static_cast<uint64_t>(s.idx));
    ch.stop_tick = s.stop;
    ch.path = Concrete::lit<8>(gov::kResidencyFits);
    ch.predicted_ns = Concrete::lit<64>(~uint64_t{0});  // GOV-3 is not judged here
    const gov::Judgement j = gov::judge_selection(states, c.in, ch);
    std::istringstream lines(j.detail);
    for (std::string line; std::getline(lines, line);) {
      const std::string id = line.substr(0, line.find(':'));
      if (id == "GOV-3") continue;
      std::string why = line.substr(line.find(':') + 2);
      const size_t p = why.find(" (path ");
      if (p != std::string::npos) why.erase(p);
      add(id, at + ": " + why);
    }
    if (s.idx < 0 || static_cast<size_t>(s.idx) >= n) {
      unexplained = true;
      continue;
    }
    const Dev& pre = k == 0 ? o.init : o.sels[k - 1].after;
    const Step* prev = k == 0 ? nullptr : &input.steps[k - 1];
    const long long last = k == 0 ? 0 : o.sels[k - 1].idx;
    const bool in_range = states_in_range && pre.ok && in_ring_range(pre) &&
                          (pre.next_timer_ns() < kRangeNs || pre.next_timer_ns() == kS64Max) &&
                          x.latency_req <= kNoLimitNs &&
                          (x.sleep < kRangeNs || x.sleep > kS64Max) &&
                          (x.dtick < kRangeNs || x.dtick > kS64Max) &&
                          (prev == nullptr || prev->residency < kRangeNs) && last >= 0 &&
                          static_cast<size_t>(last) < n;
    // GOV-5 and GOV-8 on menu_update(), from the file's own previous state.
    if (in_range && prev != nullptr && prev->entered && pre.bucket < gov::kBuckets &&
        pre.ptr >= 0 && pre.ptr < static_cast<long long>(gov::kIntervals) && s.after.ok) {
      ++r.gov5_update;
      const u128 unit = pre.us ? 1000 : 1;
      const auto& t = input.table[static_cast<size_t>(last)];
      const u128 exit = t.exit_latency_ns / unit, res = prev->residency / unit;
      const u128 next = pre.next_timer;
      const u128 tick = pre.us ? (1000000 + input.hz / 2) / input.hz : gov::tick_nsec(input.hz);
      const u128 max_interesting = gov::kMaxInterestingNs / unit;
      u128 measured;
      const bool guessed_tick = prev->got_tick && next > tick;
      const bool poll_timeout = !guessed_tick && t.polling && prev->poll_limit;
      if (guessed_tick)
        measured = 9 * max_interesting / 10;
      else if (poll_timeout)
        measured = next;
      else
        measured = res > 2 * exit ? res - exit : res / 2;
      measured = std::min(measured, next);
      u128 factor = pre.f[pre.bucket];
      factor -= factor / gov::kDecay;
      factor += next > 0 && measured < max_interesting ? gov::kResolution * measured / next
                                                       : u128{gov::kResolution};
      const u128 stored = pre.us ? measured : measured / 1000;
      const std::string learn =
          " (last state " + std::to_string(last) + ", idle " + ns_text(prev->residency) +
          (guessed_tick ? ", the tick woke it" : "") + (poll_timeout ? ", poll_time_limit" : "") +
          ", next_timer " + std::to_string(static_cast<uint64_t>(next)) + (pre.us ? " us" : " ns") +
          ", factor " + std::to_string(pre.f[pre.bucket]) + " of bucket " +
          std::to_string(pre.bucket) + ")";
      const size_t slot = static_cast<size_t>(pre.ptr);
      if (s.after.f[pre.bucket] != factor)
        add("GOV-5", at + ": menu_update() left the correction factor of bucket " +
                         std::to_string(pre.bucket) + " at " +
                         std::to_string(s.after.f[pre.bucket]) + ", exact arithmetic gives " +
                         std::to_string(static_cast<uint64_t>(factor)) + learn);
      if (stored > gov::kUintMax) {
        const bool accepted = poll_timeout && pre.next_timer_ns() == kS64Max &&
                              s.after.iv[slot] == static_cast<uint32_t>(stored);
        const std::string text = "menu_update() stored " + std::to_string(s.after.iv[slot]) +
                                 " us for a learned " +
                                 std::to_string(static_cast<uint64_t>(stored)) + " us" + learn;
        if (accepted) {
          if (r.gov8_accepted.empty()) r.gov8_accepted = at + ": " + text;
        } else {
          add("GOV-8", at + ": " + text);
        }
      } else if (s.after.iv[slot] != stored) {
        add("GOV-5", at + ": menu_update() stored the interval " +
                         std::to_string(s.after.iv[slot]) + " us, exact arithmetic gives " +
                         std::to_string(static_cast<uint64_t>(stored)) + " us" + learn);
      }
      if (s.after.ptr != (pre.ptr + 1) % static_cast<long long>(gov::kIntervals))
        add("GOV-5", at + ": the ring pointer went from " + std::to_string(pre.ptr) + " to " +
                         std::to_string(s.after.ptr));
    }
    // GOV-5 on the predictor, through the matched subject's walk.
    if (in_range && s.after.ok && !s.after.us && in_ring_range(s.after) && s.after.ptr >= 0 &&
        s.after.ptr < static_cast<long long>(gov::kIntervals)) {
      ++r.gov5_predict;
      gov::History<Concrete> h = c.h;
      for (size_t b = 0; b < gov::kBuckets; ++b)
        h.correction_factor[b] = Concrete::lit<32>(s.after.f[b]);
      for (size_t i = 0; i < gov::kIntervals; ++i)
        h.intervals[i] = Concrete::lit<32>(s.after.iv[i]);
      h.interval_ptr = Concrete::lit<32>(static_cast<uint64_t>(s.after.ptr));
      h.needs_update = false;
      gov::Inputs<Concrete> in2 = c.in;
      in2.last_residency_ns = Concrete::lit<64>(1);  // no rejected-entry mark: already done
      const gov::Prediction<Concrete> p = subj.predict(states, h, in2);
      const auto want = subj.walk(states, p, c.in);
      if (static_cast<long long>(want.idx.v) != s.idx || want.stop_tick != s.stop) {
        bool found = false;
        for (uint64_t v : candidate_predictions(input, p.predicted_ns.v, p.next_timer_ns.v)) {
          gov::Prediction<Concrete> q = p;
          q.predicted_ns = Concrete::lit<64>(v);
          const auto got = subj.walk(states, q, c.in);
          if (static_cast<long long>(got.idx.v) == s.idx && got.stop_tick == s.stop) {
            std::string dev = "next_timer " + ns_text(p.next_timer_ns.v);
            if (p.next_timer_ns.v != kS64Max)
              dev += ", correction factor " + std::to_string(h.correction_factor[h.bucket.v].v) +
                     " of bucket " + std::to_string(h.bucket.v);
            explained.push_back({k, at + ", which " + std::string(subj.name) +
                                        "'s walk gives for a prediction of " + ns_text(v) +
                                        "; exact arithmetic predicts " + ns_text(p.predicted_ns.v) +
                                        " (" + dev + "), where it gives " +
                                        choice_text(want.idx.v, want.stop_tick)});
            found = true;
            break;
          }
        }
        unexplained = unexplained || !found;
      }
    }
    // GOV-3: what the matched subject's path says where the file agrees.
    if (c.history_ok) {
      gov::History<Concrete> h = c.h;
      const auto p = subj.predict(states, h, c.in);
      const auto sc = subj.walk(states, p, c.in);
      if (static_cast<long long>(sc.idx.v) == s.idx && sc.stop_tick == s.stop) {
        ++r.gov3_agree;
        const auto j3 = gov::judge_selection(states, c.in, sc);
        if (j3.violated.count("GOV-3")) {
          ++r.gov3_found;
          if (r.gov3_first.empty()) r.gov3_first = at + ": " + j3.detail;
        }
      }
    }
  }
  r.walk_differs = unexplained;
  if (!explained.empty() && !unexplained) r.gov5_walk = explained.front().second;
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
  if (n > 1) with([&](Input& x) { x.steps.resize(n / 2); });
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

Part check_governor(const Options& opt, const Target& target) {
  const auto t0 = Clock::now();
  const Component& component = *find_component("governor");
  Part part;
  part.component = component.name;
  part.file = target.display;
  std::vector<std::string> wanted = target.functions;
  wanted.push_back("menu_reflect");
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
  for (const auto& f : ex.functions)
    if (std::find(target.functions.begin(), target.functions.end(), f.name) !=
        target.functions.end())
      part.functions.push_back(f);
  part.prelude = ex.prelude;
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
  std::vector<std::string> defs = {"-DHAVE_MENU_SELECT"};
  if (found("menu_reflect")) defs.push_back("-DHAVE_MENU_REFLECT");
  if (ex.code.find("next_timer_us") != std::string::npos) defs.push_back("-DMENU_NEXT_TIMER_US");
  const HarnessBuild hb =
      build_harness(opt, part.temp_dir, "governor_env.h", ex.code, "harness_governor.c", defs);
  auto finish = [&] {
    part.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
    if (!opt.keep_temp) remove_tree(part.temp_dir), part.temp_dir.clear();
    return part;
  };
  if (!hb.error.empty()) {
    part.build_error = hb.error;
    fill_verdicts(component, target, part, "error", "the harness does not compile");
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
        "struct menu_device keeps next_timer_us: the v5.x governor in microseconds (the PM QoS "
        "limit is passed in us, last_residency in us; menu_update() is recomputed in us)");

  const std::vector<Input> inputs = make_inputs(opt.seed);
  const bool san = !hb.san.empty();
  Batch plain, sanb;
  {
    std::thread other;
    if (san)
      other = std::thread([&] {
        sanb = run_inputs(hb.san, true, inputs, part.temp_dir, "san", opt.budget_seconds);
      });
    plain = run_inputs(hb.plain, false, inputs, part.temp_dir, "plain", opt.budget_seconds);
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
  size_t selections = 0, gov5_update = 0, gov5_predict = 0, gov3_agree = 0, gov3_found = 0;
  std::string gov8_accepted, gov3_first;
  std::vector<std::pair<size_t, std::string>> walk_findings;
  size_t walk_differs = 0;
  for (size_t i = 0; i < inputs.size(); ++i) {
    for (const Batch* b : {&sanb, &plain}) {
      if (b->outcomes.empty() || !b->outcomes[i].reported) continue;
      const Judged jd = judge(inputs[i], b->outcomes[i], subject);
      for (const auto& [clause, text] : jd.f) {
        auto& v = findings[clause];
        if (std::none_of(v.begin(), v.end(), [&](const auto& x) { return x.first == i; }))
          v.push_back({i, text});
      }
      if (b == &plain) {
        selections += jd.selections, gov5_update += jd.gov5_update;
        gov5_predict += jd.gov5_predict, gov3_agree += jd.gov3_agree, gov3_found += jd.gov3_found;
        if (gov8_accepted.empty()) gov8_accepted = jd.gov8_accepted;
        if (gov3_first.empty()) gov3_first = jd.gov3_first;
        walk_differs += jd.walk_differs;
        if (!jd.gov5_walk.empty()) walk_findings.push_back({i, jd.gov5_walk});
      }
    }
  }

  // A prediction is blamed only when the file's walk is the subject's
  // everywhere: every divergence of every input is explained by one.
  if (walk_differs == 0)
    for (const auto& w : walk_findings) findings["GOV-5"].push_back(w);

  auto shrink = [&](const std::string& clause, Input in, std::string text) {
    const bool via_san = san && text.find("San ") != std::string::npos;
    const std::string& harness = via_san ? hb.san : hb.plain;
    for (int round = 0; round < 40; ++round) {
      if (std::chrono::duration<double>(Clock::now() - t0).count() > opt.budget_seconds) break;
      const std::vector<Input> cand = shrink_candidates(in);
      if (cand.empty()) break;
      const Batch b = run_inputs(harness, via_san, cand, part.temp_dir,
                                 "shrink" + std::to_string(round) + "-", 20);
      bool progressed = false;
      for (size_t i = 0; i < cand.size() && !progressed; ++i) {
        Input c = cand[i];
        c.clause = in.clause;
        const Judged jd = judge(c, b.outcomes[i], subject);
        auto it = jd.f.find(clause);
        if (it != jd.f.end()) {
          in = c, text = it->second, progressed = true;
        } else if (clause == "GOV-5" && !jd.gov5_walk.empty() &&
                   text.find("walk gives") != std::string::npos) {
          in = c, text = jd.gov5_walk, progressed = true;
        }
      }
      if (!progressed) break;
    }
    return std::make_pair(in, text);
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
    if (id == "GOV-3" || id == "GOV-6") {
      v.status = "unknown";
      if (id == "GOV-3") {
        v.note =
            "the path that made a choice and the prediction the walk started from are locals of "
            "menu_select(): not observable. On the " +
            std::to_string(gov3_agree) + " of " + std::to_string(selections) +
            " selections where the file's choice equals subject " + sname +
            "'s (from the same learned state), that subject's path and prediction give " +
            (gov3_found == 0
                 ? std::string("no GOV-3 finding")
                 : std::to_string(gov3_found) + " GOV-3 finding(s), first: " + gov3_first);
      } else {
        v.note =
            "not checked: spec/governor.md accepts GOV-6 counterexamples for every subject "
            "(through the tick logic), so a monotonicity scan could not tell this file from "
            "them";
      }
    } else if (it != findings.end() && !it->second.empty()) {
      v.status = "failed";
      auto list = it->second;
      std::stable_sort(list.begin(), list.end(), [&](const auto& a, const auto& b) {
        return inputs[a.first].steps.size() * inputs[a.first].table.size() <
               inputs[b.first].steps.size() * inputs[b.first].table.size();
      });
      auto [small, text] = shrink(id, inputs[list.front().first], list.front().second);
      v.counterexamples.push_back(text);
      for (size_t k = 1; k < list.size() && v.counterexamples.size() < kMaxCounterexamples; ++k)
        v.counterexamples.push_back(list[k].second);
      v.coverage =
          std::to_string(list.size()) + " of " + std::to_string(inputs.size()) + " inputs fail";
      const std::string line = input_line(0, small);
      v.replay = "printf '" + line.substr(0, line.size() - 1) + "\\n' | " +
                 (san && text.find("San ") != std::string::npos ? "harness_san trace" : "harness");
      if (id == "GOV-2")
        v.note =
            "spec/governor.md accepts GOV-2 for the v6.14, seed-v2 and seed-threshold subjects "
            "(the walk order before 779b1a1cb13a: with the tick stopped the promotion ignores "
            "the limit); the reference subject holds it";
      if (id == "GOV-5" && text.find("walk gives") != std::string::npos)
        v.note = "the prediction is inferred: the file's choice is subject " + sname +
                 "'s walk of a prediction other than the exact one, and every divergence of "
                 "the input is of that kind";
    } else if (!plain.errors.empty()) {
      v.status = "error";
      for (const auto& e : plain.errors) v.error += (v.error.empty() ? "" : "; ") + e;
    } else {
      v.status = "held";
      v.coverage = coverage_all + (san ? " (plain and ASan+UBSan)" : " (plain)");
      if (id == "GOV-5") {
        v.coverage += "; menu_update() recomputed exactly on " + std::to_string(gov5_update);
        if (walk_differs == 0) {
          v.coverage += ", the prediction judged through " + sname + "'s walk on " +
                        std::to_string(gov5_predict);
        } else {
          v.note = "the prediction is not judged: in " + std::to_string(walk_differs) +
                   " inputs the file's choice is no prediction's walk by subject " + sname +
                   " (its walk differs; see the other clauses and the differential note)";
        }
      }
      if (id == "GOV-8") {
        v.coverage += "; " + std::to_string(gov5_update) + " updates in range";
        if (!gov8_accepted.empty())
          v.note =
              "observed the truncation spec/governor.md accepts for every subject (a polling "
              "state timing out after a selection that did not consult the timer): " +
              gov8_accepted;
      }
    }
    part.clauses.push_back(v);
  }
  return finish();
}

}  // namespace idlespec::validate
