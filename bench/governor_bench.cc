// The menu governor's cost, and the wake-up sweep simulator's.
//
//   BM_GovernorSelect/<subject>   one menu_select() (menu_update included, as
//                                 after every reflected idle period) on a
//                                 6-state ordered table, through the
//                                 type-erased SubjectOps the simulator uses
//   BM_PlainScan                  the floor: the deepest enabled state whose
//                                 target residency <= the prediction and exit
//                                 latency <= the limit, over the same table
//                                 and inputs (the prediction: the sleep length)
//   BM_GovernorSelectVsScan/<subject>
//                                 both in each iteration, timed apart (thread
//                                 CPU time) over the same batch: select_ns,
//                                 scan_ns and their ratio from the same run
//   BM_GovernorSweep              `idlespec simulate governor`'s default sweep
//                                 (seed 004's 27 intervals, pseries-p10, IPI,
//                                 HZ=100) with 100000 wake-ups per interval
//                                 for v6.14, seed-v2, seed-threshold and
//                                 reference: the goal is a few seconds at most
#include <benchmark/benchmark.h>
#include <time.h>

#include <cstdint>
#include <string>
#include <vector>

#include "impl/governor.h"
#include "impl/governor_sim.h"

namespace {

namespace gov = idlespec::governor;
using idlespec::Concrete;

constexpr size_t kBatch = 4096;

// poll, C1, C1E, C3, C6, C10: exit latencies and target residencies rise
// together, each residency >= its exit latency (STATES-1..3).
std::vector<gov::TableEntry> six_state_table() {
  return {
      {"POLL", 0, 0, true, false, false},         {"C1", 2000, 2000, false, false, false},
      {"C1E", 10000, 20000, false, false, false}, {"C3", 50000, 150000, false, true, false},
      {"C6", 100000, 400000, false, true, false}, {"C10", 500000, 2000000, false, true, false},
  };
}

// splitmix64, so that every run sees the same inputs.
uint64_t mix(uint64_t& s) {
  uint64_t z = (s += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

// Idle periods of 1 us to ~65 ms (log-uniform), limits mostly unconstrained,
// the tick running in three quarters of them; each carries the previous
// period's state and residency for menu_update().
std::vector<gov::ConcreteInputs> input_batch() {
  std::vector<gov::ConcreteInputs> batch(kBatch);
  uint64_t seed = 42;
  const uint64_t tick = gov::tick_nsec(250);
  for (gov::ConcreteInputs& in : batch) {
    const uint64_t sleep = uint64_t{1000} << (mix(seed) % 17);
    const uint64_t limit_pick = mix(seed) % 8;
    in.latency_req_ns = Concrete::lit<64>(limit_pick == 0   ? 20000
                                          : limit_pick == 1 ? 100000
                                                            : gov::sim::kNoLatencyLimitNs);
    in.sleep_length_ns = Concrete::lit<64>(sleep + mix(seed) % sleep);
    in.delta_tick_ns = Concrete::lit<64>(1 + mix(seed) % tick);
    in.tick_stopped = mix(seed) % 4 == 0;
    in.tick_ns = Concrete::lit<64>(tick);
    in.last_state_idx = Concrete::lit<32>(mix(seed) % 6);
    in.last_residency_ns = Concrete::lit<64>(mix(seed) % (2 * sleep));
    in.poll_time_limit = mix(seed) % 2 == 0;
  }
  return batch;
}

// The deepest enabled state with target residency <= prediction and exit
// latency <= limit (state 0 if none).
uint32_t plain_scan(const std::vector<gov::State<Concrete>>& states, uint64_t prediction,
                    uint64_t limit) {
  uint32_t idx = 0;
  for (uint32_t i = 0; i < states.size(); ++i) {
    const gov::State<Concrete>& s = states[i];
    if (!s.disabled && s.target_residency_ns.v <= prediction && s.exit_latency_ns.v <= limit)
      idx = i;
  }
  return idx;
}

struct Bench {
  std::vector<gov::State<Concrete>> states = gov::to_states(six_state_table());
  std::vector<gov::ConcreteInputs> inputs = input_batch();
  gov::ConcreteHistory history = gov::fresh_history<Concrete>();

  // One batch through the subject; returns the sum of indices.
  uint64_t select_batch(const gov::SubjectOps& subject) {
    uint64_t sum = 0;
    for (const gov::ConcreteInputs& in : inputs) {
      gov::reflect<Concrete>(history, (in.last_residency_ns.v & 1) != 0);
      const gov::ConcreteChoice c = subject.select(states, history, in);
      sum += c.idx.v;
    }
    benchmark::DoNotOptimize(sum);
    return sum;
  }
  uint64_t scan_batch() {
    uint64_t sum = 0;
    for (const gov::ConcreteInputs& in : inputs) {
      uint64_t prediction = in.sleep_length_ns.v;
      uint64_t limit = in.latency_req_ns.v;
      benchmark::DoNotOptimize(prediction);
      benchmark::DoNotOptimize(limit);
      sum += plain_scan(states, prediction, limit);
    }
    benchmark::DoNotOptimize(sum);
    return sum;
  }
};

// Subject i of gov::subjects(), or nullptr (the benchmark is then skipped).
const gov::SubjectOps* subject_at(int64_t i) {
  const auto all = gov::subjects();
  return i >= 0 && static_cast<size_t>(i) < all.size() ? &all[static_cast<size_t>(i)] : nullptr;
}

void BM_GovernorSelect(benchmark::State& state) {
  const gov::SubjectOps* found = subject_at(state.range(0));
  if (!found) {
    state.SkipWithError("no such subject");
    for (auto _ : state) {
    }
    return;
  }
  const gov::SubjectOps& subject = *found;
  Bench b;
  for (auto _ : state) b.select_batch(subject);
  state.SetItemsProcessed(int64_t(state.iterations()) * int64_t(kBatch));
  state.counters["ns_per_select"] =
      benchmark::Counter(double(state.iterations()) * double(kBatch),
                         benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
  state.SetLabel(std::string(subject.name) + ", 6 states");
}
BENCHMARK(BM_GovernorSelect)->DenseRange(0, 4)->Unit(benchmark::kMicrosecond);

void BM_PlainScan(benchmark::State& state) {
  Bench b;
  for (auto _ : state) b.scan_batch();
  state.SetItemsProcessed(int64_t(state.iterations()) * int64_t(kBatch));
  state.counters["ns_per_scan"] =
      benchmark::Counter(double(state.iterations()) * double(kBatch),
                         benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
  state.SetLabel("6 states");
}
BENCHMARK(BM_PlainScan)->Unit(benchmark::kMicrosecond);

// This thread's CPU time in seconds: the comparison holds on a loaded machine.
double thread_cpu_s() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return double(ts.tv_sec) + double(ts.tv_nsec) * 1e-9;
}

// Both, alternating within each iteration so that they see the same load.
void BM_GovernorSelectVsScan(benchmark::State& state) {
  const gov::SubjectOps* found = subject_at(state.range(0));
  if (!found) {
    state.SkipWithError("no such subject");
    for (auto _ : state) {
    }
    return;
  }
  const gov::SubjectOps& subject = *found;
  Bench b;
  double select_s = 0, scan_s = 0;
  for (auto _ : state) {
    const double t0 = thread_cpu_s();
    b.select_batch(subject);
    const double t1 = thread_cpu_s();
    b.scan_batch();
    const double t2 = thread_cpu_s();
    select_s += t1 - t0;
    scan_s += t2 - t1;
  }
  const double n = double(state.iterations()) * double(kBatch);
  state.counters["select_ns"] = select_s * 1e9 / n;
  state.counters["scan_ns"] = scan_s * 1e9 / n;
  state.counters["ratio"] = scan_s > 0 ? select_s / scan_s : 0;
  state.SetLabel(std::string(subject.name) + ": select() / plain scan, per call, 6 states");
}
BENCHMARK(BM_GovernorSelectVsScan)->DenseRange(0, 4)->Unit(benchmark::kMicrosecond);

void BM_GovernorSweep(benchmark::State& state) {
  const std::vector<gov::TableEntry> table = gov::pseries_p10_table();
  const std::vector<uint64_t> intervals = gov::sim::default_intervals_us();
  std::vector<const gov::SubjectOps*> subjects;
  for (const char* name : {"v6.14", "seed-v2", "seed-threshold", "reference"})
    subjects.push_back(gov::find_subject(name));
  gov::sim::Config config;
  config.wakeups = 100000;
  uint64_t selections = 0, periods = 0;
  for (auto _ : state) {
    const auto rows = gov::sim::sweep(subjects, table, intervals, config);
    for (const auto& r : rows) {
      selections += r.selections;
      periods += r.wakeups + config.warmup;
    }
    benchmark::DoNotOptimize(selections);
  }
  state.counters["periods"] = double(periods) / double(state.iterations());
  state.counters["selections"] = double(selections) / double(state.iterations());
  state.counters["ns_per_period"] = benchmark::Counter(
      double(periods), benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
  state.SetLabel("27 intervals x 100000 wake-ups x 4 subjects, pseries-p10, ipi, HZ=100");
}
BENCHMARK(BM_GovernorSweep)->Iterations(1)->Unit(benchmark::kMillisecond);

}  // namespace
