// The exhaustive scan busy_delay_status_scan per status, beside an opaque
// no-op loop over the same statuses (the floor of any scan of that range):
// the goal is a scan within 2x the loop. Each iteration covers 2^24 statuses
// from 0 (so the block holding 9900..9905 is judged status by status, as in
// the full scan); the full 2^32 scan is 256 such ranges per pass.
//
//   BM_BusyDelayScan/<form>    the scan of one pass (items/s = statuses/s),
//                              as the check runs it (props::scan_isa())
//   BM_BusyDelayScanIsa/<isa>  the reference's first pass with the quiet
//                              check compiled for one instruction set
//                              (baseline: the build's target; those the CPU
//                              lacks are skipped)
//   BM_OpaqueStatusLoop        the loop, its body kept by DoNotOptimize
//   BM_BusyDelayScanVsLoop     both in each iteration, one after the other,
//                              timed apart: scan_ns, loop_ns (per status)
//                              and their ratio from the same run
//                              (/baseline: the scan with the scalar quiet
//                              check, as before it was vectorised)
#include <benchmark/benchmark.h>

#include <chrono>
#include <cstdint>

#include "impl/busy_delay.h"
#include "oracle/busy_delay.h"
#include "properties/busy_delay_status_scan.h"

namespace {

using idlespec::busy_delay::EarlyPolicy;
using idlespec::busy_delay::LegacyPolicy;
using idlespec::busy_delay::ReferenceFsleepPolicy;
using idlespec::busy_delay::ReferencePolicy;
using idlespec::props::ScanTally;
namespace bd_model = idlespec::busy_delay::oracle;

constexpr uint64_t kRange = uint64_t{1} << 24;
constexpr unsigned kReferenceMask = bd_model::kAllStatusClauses;
constexpr unsigned kLegacyMask =
    bd_model::kBusy1 | bd_model::kBusy2 | bd_model::kBusy3 | bd_model::kBusy4;

using idlespec::props::ScanIsa;

template <class Policy, unsigned Mask>
uint64_t scan_once(bool need_resched, ScanIsa isa = idlespec::props::scan_isa()) {
  ScanTally t;
  idlespec::props::scan_range_on<Policy, Mask>(isa, 0, kRange, need_resched, 0, t);
  uint64_t violations = 0;
  for (uint64_t v : t.violations) violations += v;
  benchmark::DoNotOptimize(violations);
  return violations;
}

// Every status of the range through an empty body that the compiler must
// keep: the status is materialised in a register each time round.
void opaque_loop() {
  for (uint64_t s = 0; s < kRange; ++s) {
    uint32_t status = static_cast<uint32_t>(s);
    benchmark::DoNotOptimize(status);
  }
  benchmark::ClobberMemory();
}

template <class Policy, unsigned Mask>
void BM_BusyDelayScan(benchmark::State& state) {
  const bool need_resched = state.range(0) != 0;
  uint64_t violations = 0;
  for (auto _ : state) violations += scan_once<Policy, Mask>(need_resched);
  state.SetItemsProcessed(int64_t(state.iterations()) * int64_t(kRange));
  state.counters["ns_per_status"] =
      benchmark::Counter(double(state.iterations()) * double(kRange),
                         benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
  state.SetLabel(std::string(Policy::form) + (need_resched ? ", need_resched" : "") + ", " +
                 std::to_string(violations) + " violations, " +
                 std::string(idlespec::props::scan_isa_name(idlespec::props::scan_isa())));
}
BENCHMARK(BM_BusyDelayScan<ReferencePolicy, kReferenceMask>)
    ->Name("BM_BusyDelayScan/reference")
    ->Arg(0)
    ->Unit(benchmark::kMillisecond);
// The second pass of the reference, as the check runs it (BUSY-4 is judged
// in the first pass only).
BENCHMARK(BM_BusyDelayScan<ReferenceFsleepPolicy, kReferenceMask & ~bd_model::kBusy4>)
    ->Name("BM_BusyDelayScan/reference_fsleep")
    ->Arg(0)
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_BusyDelayScan<LegacyPolicy, kLegacyMask>)
    ->Name("BM_BusyDelayScan/legacy")
    ->Arg(0)
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_BusyDelayScan<LegacyPolicy, kLegacyMask & ~bd_model::kBusy4>)
    ->Name("BM_BusyDelayScan/legacy_second_pass")
    ->Arg(1)
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_BusyDelayScan<EarlyPolicy, bd_model::kBusy4>)
    ->Name("BM_BusyDelayScan/early")
    ->Arg(0)
    ->Unit(benchmark::kMillisecond);

void BM_BusyDelayScanIsa(benchmark::State& state) {
  const auto isa = static_cast<ScanIsa>(state.range(0));
  if (!idlespec::props::scan_isa_supported(isa)) {
    state.SkipWithError("this CPU lacks the instruction set");
    for (auto _ : state) {
    }
    return;
  }
  uint64_t violations = 0;
  for (auto _ : state) violations += scan_once<ReferencePolicy, kReferenceMask>(false, isa);
  state.SetItemsProcessed(int64_t(state.iterations()) * int64_t(kRange));
  state.counters["ns_per_status"] =
      benchmark::Counter(double(state.iterations()) * double(kRange),
                         benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
  state.SetLabel("usleep_range/msleep, " + std::to_string(violations) + " violations, " +
                 std::string(idlespec::props::scan_isa_name(isa)));
}
BENCHMARK(BM_BusyDelayScanIsa)
    ->Name("BM_BusyDelayScanIsa/reference")
    ->Arg(int(ScanIsa::baseline))
    ->Arg(int(ScanIsa::avx2))
    ->Arg(int(ScanIsa::avx512))
    ->Unit(benchmark::kMillisecond);

void BM_OpaqueStatusLoop(benchmark::State& state) {
  for (auto _ : state) opaque_loop();
  state.SetItemsProcessed(int64_t(state.iterations()) * int64_t(kRange));
  state.counters["ns_per_status"] =
      benchmark::Counter(double(state.iterations()) * double(kRange),
                         benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}
BENCHMARK(BM_OpaqueStatusLoop)->Unit(benchmark::kMillisecond);

// The reference policy's first pass (every clause, BUSY-4 included: the
// dearer of its two passes) and the loop, alternating within each iteration
// so that both see the same machine load. The scan as the check runs it
// (props::scan_isa()); /baseline: with the scalar quiet check of the
// baseline instruction set, the scan as it was before the vectorised one.
template <bool kBaseline>
void BM_BusyDelayScanVsLoop(benchmark::State& state) {
  using Clock = std::chrono::steady_clock;
  const ScanIsa isa = kBaseline ? ScanIsa::baseline : idlespec::props::scan_isa();
  double scan_s = 0;
  double loop_s = 0;
  for (auto _ : state) {
    const auto t0 = Clock::now();
    scan_once<ReferencePolicy, kReferenceMask>(false, isa);
    const auto t1 = Clock::now();
    opaque_loop();
    const auto t2 = Clock::now();
    scan_s += std::chrono::duration<double>(t1 - t0).count();
    loop_s += std::chrono::duration<double>(t2 - t1).count();
  }
  const double n = double(state.iterations()) * double(kRange);
  state.SetItemsProcessed(int64_t(state.iterations()) * int64_t(kRange));
  state.counters["scan_ns"] = scan_s * 1e9 / n;
  state.counters["loop_ns"] = loop_s * 1e9 / n;
  state.counters["ratio"] = loop_s > 0 ? scan_s / loop_s : 0;
  state.SetLabel("reference scan (" + std::string(idlespec::props::scan_isa_name(isa)) +
                 ") / opaque loop, per status (goal: ratio <= 2)");
}
BENCHMARK(BM_BusyDelayScanVsLoop<false>)
    ->Name("BM_BusyDelayScanVsLoop")
    ->Unit(benchmark::kMillisecond)
    ->MinTime(2.0);
BENCHMARK(BM_BusyDelayScanVsLoop<true>)
    ->Name("BM_BusyDelayScanVsLoop/baseline")
    ->Unit(benchmark::kMillisecond)
    ->MinTime(2.0);

}  // namespace
