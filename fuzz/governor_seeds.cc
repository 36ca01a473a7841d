// Writes the hand-made seeds of fuzz/corpus/governor_fuzz/ (one file per
// seed, named seed-<what>), built with the checker's own input layout
// (governor_fuzz::encode) so that the seeds follow it if it changes:
//
//   cmake --build BUILD --target governor_fuzz_seeds
//   BUILD/governor_fuzz_seeds fuzz/corpus/governor_fuzz
//
// With --beyond-range it writes instead inputs just beyond the ranges
// spec/governor.md states for GOV-5, on which the reference's 32- and 64-bit
// words no longer hold the exact values (what the spec records under GOV-5;
// kept out of the corpus: the replay judges GOV-5 in range only, and the
// libFuzzer target would not stop on them either).
//
// The campaign finds (sha1-named files) are kept beside the seeds after a
// `-merge=1` (scripts/fuzz.sh says how).
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "fuzz/governor_input.h"

namespace {

namespace gf = idlespec::governor_fuzz;
namespace gov = idlespec::governor;
using gf::Event;
using gf::Form;
using gf::Input;
using Bytes = std::vector<uint8_t>;

constexpr uint64_t kUs = 1000;
constexpr uint64_t kMs = 1000 * kUs;

gov::TableEntry st(uint64_t exit_ns, uint64_t residency_ns, bool polling = false,
                   bool disabled = false) {
  gov::TableEntry e;
  e.exit_latency_ns = exit_ns;
  e.target_residency_ns = residency_ns;
  e.polling = polling;
  e.disabled = disabled;
  return e;
}

Event sel(uint64_t sleep_ns, bool stopped = false, uint64_t limit_ns = gf::kMaxLatencyReqNs,
          uint64_t delta_tick_ns = ~uint64_t{0}) {
  Event e;
  e.kind = Event::kSelect;
  e.sleep_length_ns = sleep_ns;
  e.delta_tick_ns = delta_tick_ns == ~uint64_t{0} ? sleep_ns : delta_tick_ns;
  e.tick_stopped = stopped;
  e.latency_req_ns = limit_ns;
  return e;
}

Event wake(uint64_t residency_ns, bool got_tick = false, bool poll_time_limit = false) {
  Event e;
  e.kind = Event::kWake;
  e.residency_ns = residency_ns;
  e.got_tick = got_tick;
  e.poll_time_limit = poll_time_limit;
  return e;
}

Event reject() {
  Event e;
  e.kind = Event::kReject;
  return e;
}

// `n` periods: the selection, then the wake-up.
std::vector<Event> periods(const Event& s, const Event& w, size_t n) {
  std::vector<Event> out;
  for (size_t i = 0; i < n; ++i) {
    out.push_back(s);
    out.push_back(w);
  }
  return out;
}

std::vector<Event> operator+(std::vector<Event> a, const std::vector<Event>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

const std::vector<gov::TableEntry> kP10 = {st(0, 0, true), st(12 * kUs, 120 * kUs)};
// The GOV-2 example of spec/governor.md: poll, C1 5/5 us, C2 200 us / 2 ms.
const std::vector<gov::TableEntry> kThree = {st(0, 0, true), st(5 * kUs, 5 * kUs),
                                             st(200 * kUs, 2 * kMs)};
const std::vector<gov::TableEntry> kTen = {st(0, 0, true),          st(1 * kUs, 2 * kUs),
                                           st(2 * kUs, 10 * kUs),   st(10 * kUs, 14 * kUs),
                                           st(12 * kUs, 120 * kUs), st(50 * kUs, 300 * kUs),
                                           st(100 * kUs, 1 * kMs),  st(200 * kUs, 2 * kMs),
                                           st(1 * kMs, 10 * kMs),   st(10 * kMs, 100 * kMs)};

Input input(Form form, unsigned hz, bool ordered, std::vector<gov::TableEntry> table,
            std::vector<Event> events) {
  Input in;
  in.config = {form, hz, ordered};
  in.table = std::move(table);
  in.events = std::move(events);
  return in;
}

std::vector<std::pair<std::string, Input>> corpus_seeds() {
  std::vector<std::pair<std::string, Input>> out;
  auto add = [&](const std::string& name, Input in) { out.emplace_back("seed-" + name, in); };
  const Form ref = Form::reference;

  // The pseries POWER10 table: short, long and mixed idle periods.
  add("p10-short-idle", input(ref, 1000, true, kP10, periods(sel(20 * kUs), wake(3 * kUs), 10)));
  add("p10-long-idle", input(ref, 1000, true, kP10, periods(sel(10 * kMs), wake(5 * kMs), 10)));
  add("p10-mixed",
      input(ref, 250, true, kP10,
            periods(sel(4 * kMs), wake(30 * kUs), 4) + periods(sel(4 * kMs), wake(3 * kMs), 4) +
                periods(sel(200 * kUs), wake(100 * kUs), 4)));
  // The polling rule: a 50 us typical interval, a timer 1 ms away.
  add("p10-polling-rule", input(ref, 1000, true, kP10, periods(sel(1 * kMs), wake(50 * kUs), 10)));
  add("p10-polling-rule-v6.19",
      input(Form::v619, 1000, true, kP10, periods(sel(1 * kMs), wake(50 * kUs), 10)));
  add("p10-polling-rule-tick-stopped",
      input(ref, 100, true, kP10, periods(sel(1 * kMs, true), wake(50 * kUs), 10)));
  // seed-threshold's rule: the state after polling below 15 us.
  add("threshold-rule", input(Form::seed_threshold, 1000, true,
                              {st(0, 0, true), st(2 * kUs, 14 * kUs), st(20 * kUs, 100 * kUs)},
                              periods(sel(1 * kMs), wake(8 * kUs), 10)));
  // v6.14's GOV-2 break with the tick stopped: the limit 20 us, a prediction
  // of about one tick (1 ms intervals), 50 ms to the timer: the tick-stopped
  // promotion takes C2 (exit latency 200 us).
  add("v6.14-gov2-tick-stopped",
      input(Form::v614, 1000, true, kThree,
            periods(sel(50 * kMs, true, 20 * kUs), wake(1005 * kUs), 9)));
  add("v6.14-gov2-tick-running",
      input(Form::v614, 1000, true, kThree,
            periods(sel(50 * kMs, false, 20 * kUs), wake(1005 * kUs), 9)));
  add("v6.14-gov2-hz100",
      input(Form::v614, 100, true, {st(0, 0, true), st(5 * kUs, 5 * kUs), st(200 * kUs, 20 * kMs)},
            periods(sel(50 * kMs, true, 20 * kUs), wake(12 * kMs), 9)));
  // The latency limit: 0, tight, the largest.
  add("limit-zero",
      input(ref, 1000, true, kThree, periods(sel(5 * kMs, false, 0), wake(3 * kMs), 4)));
  add("limit-tight",
      input(ref, 300, true, kTen, periods(sel(30 * kMs, false, 11 * kUs), wake(20 * kMs), 6)));
  add("limit-max", input(ref, 1000, true, kTen, periods(sel(30 * kMs), wake(20 * kMs), 6)));
  // Disabled states: one, the first, all; a single disabled state.
  auto disabled = [](std::vector<gov::TableEntry> t, std::initializer_list<size_t> which) {
    for (size_t i : which) t[i].disabled = true;
    return t;
  };
  add("disabled-deep", input(ref, 1000, true, disabled(kTen, {7, 8}),
                             periods(sel(300 * kMs, true), wake(200 * kMs), 4)));
  add("disabled-first",
      input(ref, 1000, true, disabled(kThree, {0}), periods(sel(20 * kUs), wake(3 * kUs), 6)));
  add("disabled-first-two", input(ref, 250, true, disabled(kTen, {0, 1}),
                                  periods(sel(20 * kUs, false, 0), wake(3 * kUs), 3) +
                                      periods(sel(20 * kUs), wake(3 * kUs), 3)));
  add("disabled-all",
      input(ref, 1000, true, disabled(kThree, {0, 1, 2}), periods(sel(5 * kMs), wake(3 * kMs), 3)));
  add("single-disabled",
      input(ref, 1000, true, {st(0, 0, true, true)}, periods(sel(5 * kMs), wake(3 * kMs), 3)));
  add("single-cede", input(ref, 1000, true, {st(12 * kUs, 120 * kUs)},
                           periods(sel(5 * kMs, true), wake(3 * kMs), 3)));
  // Tables that break STATES-1..3 (GOV-7: index bound, GOV-1, GOV-4 only).
  add("unordered", input(ref, 1000, false,
                         {st(200 * kUs, 2 * kMs), st(0, 0, true), st(5 * kUs, 1 * kUs, true),
                          st(1 * kMs, 50 * kUs)},
                         periods(sel(3 * kMs), wake(2 * kMs), 4) +
                             periods(sel(3 * kMs, true, 0), wake(10 * kUs), 4)));
  add("unordered-polling-deep",
      input(ref, 100, false, {st(0, 0), st(0, 0, true), st(0, 0, true, true)},
            periods(sel(3 * kMs), wake(1 * kMs), 6)));
  // The tick: stopped with a short prediction (the timer instead), kept
  // with delta_tick before the timer (a shallower state), tick wake-ups.
  add("tick-stopped-short",
      input(ref, 1000, true, kTen, periods(sel(80 * kMs, true), wake(100 * kUs), 10)));
  add("tick-retained",
      input(ref, 250, true, kTen,
            periods(sel(50 * kMs, false, gf::kMaxLatencyReqNs, 500 * kUs), wake(20 * kMs), 10)));
  add("tick-wakeups",
      input(ref, 100, true, kTen, periods(sel(80 * kMs), wake(10 * kMs, true), 10)));
  add("poll-time-limit",
      input(ref, 1000, true, kP10, periods(sel(2 * kMs), wake(200 * kUs, false, true), 6)));
  // Rejected entries: the reference records UINT_MAX for each.
  add("rejected", input(ref, 1000, true, kP10,
                        periods(sel(500 * kUs), wake(300 * kUs), 4) +
                            std::vector<Event>{sel(500 * kUs), reject(), sel(500 * kUs), reject(),
                                               sel(500 * kUs), sel(500 * kUs)} +
                            periods(sel(500 * kUs), wake(300 * kUs), 4)));
  add("rejected-v6.14", input(Form::v614, 1000, true, kP10, periods(sel(500 * kUs), reject(), 10)));
  // Outliers: the predictors drop them above (two-pass) or at either end.
  add("outliers",
      input(ref, 1000, true, kTen,
            periods(sel(20 * kMs), wake(100 * kUs), 6) + periods(sel(20 * kMs), wake(15 * kMs), 2) +
                periods(sel(20 * kMs), wake(1 * kUs), 2)));
  add("outliers-v6.14", input(Form::v614, 1000, true, kTen,
                              periods(sel(20 * kMs), wake(100 * kUs), 6) +
                                  periods(sel(20 * kMs), wake(15 * kMs), 2)));
  // Every bucket of the correction factor.
  std::vector<Event> buckets;
  for (uint64_t t : {5 * kUs, 50 * kUs, 500 * kUs, 5 * kMs, 50 * kMs, 500 * kMs}) {
    buckets = buckets + periods(sel(t), wake(t / 3), 3);
  }
  add("every-bucket", input(ref, 1000, true, kTen, buckets));
  // Edges of the kernel's ranges that stay in them: the largest sleep
  // length at which timer_us fits at unity factor, the largest latency
  // limit, negative sleep lengths (clamped to 0).
  add("largest-timer-us", input(ref, 1000, true, kP10,
                                periods(sel(uint64_t{0xffffffff} * kUs + 499), wake(60 * kMs), 2)));
  add("negative-sleep-length", input(ref, 1000, true, kP10,
                                     periods(sel(0x8000000000000000ULL, true), wake(1 * kMs), 3) +
                                         periods(sel(~uint64_t{0}), wake(1 * kMs), 3)));
  // spec/governor.md, GOV-9's "A negative delta_next": the clock event
  // overdue at idle entry (delta_next -2^63 as s64), the next timer 4 ms
  // away, the tick stopped. The kernel compares them signed and does not
  // promote to the 50 ms state; an unsigned comparison does.
  add("gov9-negative-delta-next",
      input(Form::mainline, 250, true,
            {st(0, 0, true), st(2 * kUs, 200 * kUs), st(20 * kUs, 50 * kMs)},
            {sel(4 * kMs, true, gf::kMaxLatencyReqNs, 0x8000000000000000ULL)}));
  // Beyond the ranges: judged for GOV-1..4 and 7, not GOV-5.
  add("beyond-ranges",
      input(
          ref, 1000, false,
          {st(0, 0, true), st(gf::kRangeNs, gf::kRangeNs), st(0x7fffffffffffffffULL, ~uint64_t{0})},
          periods(sel(0x7fffffffffffffffULL, true, ~uint64_t{0}), wake(~uint64_t{0}), 3)));
  // The edges of the layout.
  add("one-select", input(ref, 1000, true, kP10, {sel(1 * kMs)}));
  add("no-events", input(ref, 1000, true, kTen, {}));
  // GOV-8, accepted for every subject: a polling period ended by poll_time_limit after a selection
  // that did not consult the timer (next_timer_ns = KTIME_MAX): measured_ns = KTIME_MAX, and
  // KTIME_MAX / 1000 us is stored in an unsigned int.
  add("gov8-poll-timeout-ktime-max",
      input(Form::reference, 1000, true, kP10,
            periods(sel(2 * kMs), wake(5 * kUs), 9) +
                std::vector<Event>{sel(2 * kMs), wake(5 * kUs, false, true), sel(2 * kMs)}));
  return out;
}

// Just beyond the ranges spec/governor.md states for GOV-5: the reference's
// 32- and 64-bit words no longer hold the exact values.
std::vector<std::pair<std::string, Input>> beyond_range() {
  std::vector<std::pair<std::string, Input>> out;
  auto add = [&](const std::string& name, Input in) {
    out.emplace_back("beyond-range-" + name, in);
  };
  const Form ref = Form::reference;
  // timer_us (an unsigned int) wraps for sleep lengths from 2^32 us - 500 ns
  // at unity factor.
  add("timer-us-wraps", input(ref, 1000, true, kP10, {sel(uint64_t{0xffffffff} * kUs + 500)}));
  add("timer-us-wraps-2^42", input(ref, 1000, true, kP10, {sel((uint64_t{1} << 42) - 1)}));
  // A residency of more than 2^32 us (71.6 min), after a selection that did
  // not consult the timer: the interval stored wraps.
  add("residency-wraps",
      input(ref, 1000, true, kP10,
            periods(sel(2 * kMs), wake(5 * kUs), 9) +
                std::vector<Event>{sel(2 * kMs), wake((uint64_t{1} << 42) - 1), sel(2 * kMs)}));
  // The v6.15 predictor's sum of squares (u64) wraps for eight intervals of
  // 1518500250 us (25.3 min) and more (1518600000 us here): the exact average
  // is accepted, the wrapped variance rejects it.
  add("sum-of-squares-wraps", input(ref, 1000, true, kP10,
                                    periods(sel(gf::kMaxLatencyReqNs), wake(1518600000 * kUs), 8) +
                                        std::vector<Event>{sel(50 * 60 * 1000 * kMs)}));
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  const bool findings = argc == 3 && std::strcmp(argv[1], "--beyond-range") == 0;
  if (argc != 2 && !findings) {
    std::fprintf(stderr, "usage: %s [--beyond-range] OUTPUT_DIR\n", argv[0]);
    return 2;
  }
  const std::filesystem::path dir(argv[argc - 1]);
  std::filesystem::create_directories(dir);
  size_t n = 0;
  for (const auto& [name, in] : findings ? beyond_range() : corpus_seeds()) {
    const Bytes bytes = gf::encode(in);
    // The bytes must decode to exactly this input.
    const Input back = gf::parse_input(bytes);
    if (!(back.config == in.config) || back.events != in.events ||
        back.table.size() != in.table.size()) {
      std::fprintf(stderr, "%s: the bytes decode to %s\n", name.c_str(),
                   gf::describe(back).c_str());
      return 1;
    }
    for (size_t i = 0; i < in.table.size(); ++i) {
      const gov::TableEntry& a = in.table[i];
      const gov::TableEntry& b = back.table[i];
      if (a.exit_latency_ns != b.exit_latency_ns ||
          a.target_residency_ns != b.target_residency_ns || a.polling != b.polling ||
          a.disabled != b.disabled || a.timer_stop != b.timer_stop) {
        std::fprintf(stderr, "%s: state %zu decodes differently: %s\n", name.c_str(), i,
                     gf::describe(back).c_str());
        return 1;
      }
    }
    std::ofstream f(dir / name, std::ios::binary | std::ios::trunc);
    f.write(reinterpret_cast<const char*>(bytes.data()),
            static_cast<std::streamsize>(bytes.size()));
    if (!f) {
      std::fprintf(stderr, "cannot write %s\n", (dir / name).c_str());
      return 1;
    }
    ++n;
  }
  std::printf("wrote %zu %s to %s\n", n, findings ? "GOV-5 findings" : "seeds", dir.c_str());
  return 0;
}
