// Writes the hand-made seeds of fuzz/corpus/teo_fuzz/ (one file per seed,
// named seed-<what>), built with the target's own input layout
// (teo_fuzz::encode) so that the seeds follow it if it changes:
//
//   cmake --build BUILD --target teo_fuzz_seeds
//   BUILD/teo_fuzz_seeds fuzz/corpus/teo_fuzz
//
// Each seed is checked to decode to exactly what it encodes. The campaign
// finds (sha1-named files) are kept beside the seeds after a `-merge=1`
// (scripts/fuzz.sh says how).
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

#include "fuzz/teo_input.h"

namespace {

namespace tf = idlespec::teo_fuzz;
using tf::Entry;
using tf::Form;
using tf::Input;
using tf::Step;
using Bytes = std::vector<uint8_t>;

constexpr uint64_t kUs = 1000;
constexpr uint64_t kMs = 1000 * kUs;
constexpr uint64_t kSec = 1000 * kMs;

Entry st(uint64_t exit_ns, uint64_t residency_ns, bool polling = false, bool disabled = false) {
  return Entry{exit_ns, residency_ns, polling, disabled};
}

// One selection and the idle period after it. delta_next defaults to the
// kernel's: the sleep length with the tick stopped, else at most a tick.
struct S {
  uint64_t sleep_ns;
  bool stopped = false;
  uint64_t limit_ns = tf::kNoLimitNs;
  uint64_t residency_ns = ~uint64_t{0};  // default: the sleep length
  bool got_tick = false;
  bool poll_time_limit = false;
  unsigned repeat = 1;
  uint64_t delta_next_ns = ~uint64_t{0};  // default: as above
  uint64_t elapsed_ns = ~uint64_t{0};     // default: the residency
};

Step step(const S& s, unsigned hz) {
  const uint64_t tick = idlespec::governor::tick_nsec(hz);
  Step out;
  out.latency_req_ns = s.limit_ns;
  out.sleep_length_ns = s.sleep_ns;
  out.tick_stopped = s.stopped;
  out.delta_next_ns = s.delta_next_ns != ~uint64_t{0} ? s.delta_next_ns
                      : s.stopped                     ? s.sleep_ns
                                                      : std::min(s.sleep_ns, tick);
  out.residency_ns = s.residency_ns != ~uint64_t{0} ? s.residency_ns : s.sleep_ns;
  out.got_tick = s.got_tick;
  out.poll_time_limit = s.poll_time_limit;
  out.elapsed_ns = s.elapsed_ns != ~uint64_t{0} ? s.elapsed_ns : out.residency_ns;
  out.repeat = s.repeat;
  return out;
}

Input input(Form form, unsigned hz, std::vector<Entry> table, std::initializer_list<S> steps) {
  Input in;
  in.config = {form, hz};
  in.table = std::move(table);
  for (const S& s : steps) {
    in.steps.push_back(step(s, hz));
    in.selections += s.repeat;
  }
  return in;
}

// PowerVM shared processor (pseries): snooze (polling) and CEDE 12/120 us.
const std::vector<Entry> kPowerVM = {st(0, 0, true), st(12 * kUs, 120 * kUs)};
// PowerNV-like POWER9 stop states: snooze, stop0_lite, stop1, stop2, stop4, stop5.
const std::vector<Entry> kPowerNV = {st(0, 0, true),         st(1 * kUs, 10 * kUs),
                                     st(5 * kUs, 50 * kUs),  st(10 * kUs, 100 * kUs),
                                     st(100 * kUs, 1 * kMs), st(200 * kUs, 10 * kMs)};
// x86-like intel_idle: POLL, C1 2/2 us, C1E 10/20 us, C6 133/400 us.
const std::vector<Entry> kX86 = {st(0, 0, true), st(2 * kUs, 2 * kUs), st(10 * kUs, 20 * kUs),
                                 st(133 * kUs, 400 * kUs)};
// The TEO-5 example for v6.1: poll, C1 100 us, C2 5 ms.
const std::vector<Entry> kBinMiddle = {st(0, 0, true), st(1 * kUs, 100 * kUs),
                                       st(10 * kUs, 5 * kMs)};
// The TEO-1 finding: poll disabled, C1 exit 2 us, C2 exit 20 us.
const std::vector<Entry> kPollDisabled = {st(0, 0, true, true), st(2 * kUs, 10 * kUs),
                                          st(20 * kUs, 200 * kUs)};

constexpr Form kForms[] = {Form::v61, Form::v612, Form::v619, Form::v70, Form::mainline};

std::vector<std::pair<std::string, Input>> corpus_seeds() {
  std::vector<std::pair<std::string, Input>> out;
  auto add = [&](const std::string& name, const Input& in) {
    out.emplace_back("seed-" + name, in);
  };
  // Every subject on the common shapes.
  for (Form f : kForms) {
    const std::string sub(tf::form_subject(f));
    // PowerVM: short idles (intercepts in bin 0), then long ones.
    add("powervm-" + sub, input(f, 1000, kPowerVM,
                                {{.sleep_ns = 4 * kMs, .residency_ns = 3 * kUs, .repeat = 16},
                                 {.sleep_ns = 4 * kMs, .repeat = 4},
                                 {.sleep_ns = 200 * kUs, .residency_ns = 150 * kUs, .repeat = 4}}));
    // x86: poll, C1, C1E, C6 with the tick running and delta_next before the timer.
    add("x86-tick-running-" + sub,
        input(f, 250, kX86,
              {{.sleep_ns = 30 * kMs, .residency_ns = 4 * kMs, .got_tick = true, .repeat = 4},
               {.sleep_ns = 30 * kMs,
                .residency_ns = 300 * kUs,
                .repeat = 2,
                .delta_next_ns = 350 * kUs},
               {.sleep_ns = 500 * kUs, .residency_ns = 20 * kUs, .repeat = 4}}));
    // The tick stopped, the next timer seconds away, after intercepts.
    add("tick-stopped-far-" + sub,
        input(f, 1000, kBinMiddle,
              {{.sleep_ns = 10 * kSec, .stopped = true, .residency_ns = 50 * kUs, .repeat = 16},
               {.sleep_ns = 10 * kSec, .stopped = true}}));
    // State 0 disabled and a limit below every enabled state (TEO-1's finding).
    add("poll-disabled-tight-limit-" + sub,
        input(f, 1000, kPollDisabled,
              {{.sleep_ns = 5 * kMs, .limit_ns = 1 * kUs, .repeat = 2},
               {.sleep_ns = 5 * kMs, .limit_ns = 0},
               {.sleep_ns = 5 * kMs, .limit_ns = 30 * kUs, .residency_ns = 1 * kMs}}));
    // A long sequence on six states: every kind of period, the metrics saturated.
    add("long-sequence-" + sub,
        input(
            f, 100, kPowerNV,
            {{.sleep_ns = 50 * kMs, .residency_ns = 40 * kMs, .repeat = 16},
             {.sleep_ns = 50 * kMs, .residency_ns = 8 * kUs, .repeat = 16},
             {.sleep_ns = 50 * kMs, .stopped = true, .residency_ns = 20 * kMs, .repeat = 16},
             {.sleep_ns = 2 * kMs, .residency_ns = 60 * kUs, .poll_time_limit = true, .repeat = 16},
             {.sleep_ns = 100 * kMs, .residency_ns = 10 * kMs, .got_tick = true, .repeat = 16},
             {.sleep_ns = 3 * kSec, .stopped = true, .repeat = 16},
             {.sleep_ns = 30 * kUs, .residency_ns = 30 * kUs, .repeat = 16}}));
  }
  // The TEO-5 acceptance for v6.1 (spec/teo.md's counterexample) and its
  // later forms: intercepts in bin 0, the tick stopped, 10 s to the timer.
  add("v6.1-bin-middle", input(Form::v61, 1000, kBinMiddle,
                               {{.sleep_ns = 10 * kSec, .residency_ns = 20 * kUs, .repeat = 16},
                                {.sleep_ns = 10 * kSec, .stopped = true}}));
  // 6.1 and 6.12's time span: the elapsed time beyond the residency, the
  // safety nets (a tick with a far timer, a polling time-out).
  add("v6.12-time-span",
      input(Form::v612, 1000, kPowerVM,
            {{.sleep_ns = 3 * kMs, .residency_ns = 1 * kMs, .got_tick = true, .repeat = 4},
             {.sleep_ns = 3 * kMs, .residency_ns = 20 * kUs, .repeat = 4, .elapsed_ns = 4 * kMs},
             {.sleep_ns = 3 * kMs, .residency_ns = 60 * kUs, .poll_time_limit = true}}));
  // v6.12's tick bin: the deepest state shallower than the tick.
  add("v6.12-tick-bin", input(Form::v612, 100, kX86,
                              {{.sleep_ns = 40 * kMs, .stopped = true, .repeat = 16},
                               {.sleep_ns = 40 * kMs, .residency_ns = 20 * kMs, .repeat = 4}}));
  // v6.19 and mainline: short idles dominate; tick wake-ups dominate.
  add("v6.19-short-idles", input(Form::v619, 1000, kX86,
                                 {{.sleep_ns = 5 * kMs, .residency_ns = 3 * kUs, .repeat = 16},
                                  {.sleep_ns = 5 * kMs, .limit_ns = 5 * kUs}}));
  add("mainline-tick-wakeups",
      input(Form::mainline, 250, kPowerNV,
            {{.sleep_ns = 30 * kMs, .residency_ns = 4 * kMs, .got_tick = true, .repeat = 16},
             {.sleep_ns = 30 * kMs, .stopped = true, .residency_ns = 4 * kMs, .got_tick = true}}));
  // The v7.0 merge window. f36de72673ad: wake-ups in the timer's bin but
  // well before the timer (a 10 ms bin, woken 3 ms early) are intercepts.
  for (Form f : {Form::v619, Form::v70, Form::mainline}) {
    const std::string sub(tf::form_subject(f));
    add("early-in-timer-bin-" + sub,
        input(f, 1000, kPowerNV,
              {{.sleep_ns = 20 * kMs, .residency_ns = 17 * kMs, .repeat = 16},
               {.sleep_ns = 20 * kMs, .residency_ns = 20 * kMs, .repeat = 2}}));
    // 60836533b4c7: tick wake-ups with few tick intercepts are hits on the
    // timer's bin; 475ca3470b37: keep the tick at 2/3 tick intercepts.
    add("tick-wakeups-few-intercepts-" + sub,
        input(f, 250, kPowerNV,
              {{.sleep_ns = 8 * kMs, .residency_ns = 4 * kMs, .got_tick = true, .repeat = 4},
               {.sleep_ns = 8 * kMs, .residency_ns = 300 * kUs, .repeat = 16},
               {.sleep_ns = 8 * kMs, .residency_ns = 4 * kMs, .got_tick = true, .repeat = 4}}));
  }
  // 4bd2221f231d (v7.0 only): with the tick stopped and intercepts, the
  // first state reaching a tick has the candidate's target residency.
  add("v7.0-zero-size-bin",
      input(Form::v70, 1000,
            {st(0, 0, true), st(2 * kUs, 20 * kUs), st(100 * kUs, 2 * kMs), st(200 * kUs, 2 * kMs)},
            {{.sleep_ns = 50 * kMs, .residency_ns = 10 * kUs, .repeat = 16},
             {.sleep_ns = 50 * kMs, .stopped = true, .residency_ns = 10 * kUs, .repeat = 2}}));
  // Mainline's stopped-tick promotion at SAFE_TIMER_RANGE_NS (2 ticks) and
  // just beyond.
  add("mainline-safe-timer-range",
      input(Form::mainline, 1000, kPowerNV,
            {{.sleep_ns = 20 * kMs, .residency_ns = 5 * kUs, .repeat = 16},
             {.sleep_ns = 2 * kMs, .stopped = true},
             {.sleep_ns = 2 * kMs + 1, .stopped = true}}));
  // TEO-4: the tick kept, delta_next shorter than the deep state's residency.
  add("tick-kept-short-delta", input(Form::mainline, 1000, kPowerNV,
                                     {{.sleep_ns = 50 * kMs,
                                       .residency_ns = 900 * kUs,
                                       .repeat = 4,
                                       .delta_next_ns = 200 * kUs}}));
  // delta_next out of the kernel's order (TEO-4 and 5 are not judged there).
  add("delta-out-of-order", input(Form::v619, 1000, kX86,
                                  {{.sleep_ns = 100 * kUs, .delta_next_ns = 5 * kMs},
                                   {.sleep_ns = 5 * kSec, .stopped = false}}));
  // Tables: unordered (TEO-2 and 5 not judged), one state, all disabled,
  // disabled deep states, ten states.
  add("unordered",
      input(Form::mainline, 1000, {st(0, 0, true), st(200 * kUs, 2 * kMs), st(5 * kUs, 20 * kUs)},
            {{.sleep_ns = 5 * kMs, .residency_ns = 1 * kMs, .repeat = 4},
             {.sleep_ns = 5 * kMs, .limit_ns = 10 * kUs}}));
  add("single-state",
      input(Form::v61, 1000, {st(12 * kUs, 120 * kUs)}, {{.sleep_ns = 5 * kMs, .stopped = true}}));
  add("single-polling", input(Form::mainline, 1000, {st(0, 0, true)}, {{.sleep_ns = 5 * kMs}}));
  add("all-disabled",
      input(Form::v612, 1000, {st(0, 0, true, true), st(12 * kUs, 120 * kUs, false, true)},
            {{.sleep_ns = 5 * kMs, .repeat = 2}}));
  add("deep-disabled",
      input(Form::v619, 1000,
            {st(0, 0, true), st(1 * kUs, 10 * kUs), st(5 * kUs, 50 * kUs),
             st(100 * kUs, 1 * kMs, false, true), st(200 * kUs, 10 * kMs, false, true)},
            {{.sleep_ns = 1 * kSec, .stopped = true, .repeat = 4}}));
  std::vector<Entry> ten;
  for (uint64_t i = 0; i < 10; ++i) ten.push_back(st(i * i * kUs, i * i * i * 10 * kUs, i == 0));
  add("ten-states", input(Form::mainline, 250, ten,
                          {{.sleep_ns = 80 * kMs, .residency_ns = 7 * kMs, .repeat = 16},
                           {.sleep_ns = 80 * kMs, .stopped = true, .repeat = 2}}));
  // The tops of the ranges: target residencies near 2^40 ns, timers near 2^42 ns.
  add("range-tops",
      input(Form::v61, 100, {st(0, 0, true), st(tf::kStateTopNs - 1, tf::kStateTopNs - 1)},
            {{.sleep_ns = tf::kStepTopNs - 1, .stopped = true, .repeat = 2},
             {.sleep_ns = tf::kStepTopNs - 1, .residency_ns = tf::kStepTopNs - 1}}));
  return out;
}

bool same(const Input& a, const Input& b) {
  return a.config == b.config && a.table == b.table && a.steps == b.steps &&
         a.selections == b.selections;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s OUTPUT_DIR\n", argv[0]);
    return 2;
  }
  const std::filesystem::path dir(argv[1]);
  std::filesystem::create_directories(dir);
  size_t n = 0;
  for (const auto& [name, in] : corpus_seeds()) {
    const Bytes bytes = tf::encode(in);
    const Input back = tf::parse_input(bytes);
    if (!same(back, in)) {
      std::fprintf(stderr, "%s: the bytes decode to %s\n", name.c_str(),
                   tf::describe(back).c_str());
      return 1;
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
  std::printf("wrote %zu seeds to %s\n", n, dir.c_str());
  return 0;
}
