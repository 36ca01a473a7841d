// idlespec_bench: Google Benchmark programs for the xcede decoder, the state
// table, the xcede_fuzz checker (bench/xcede_bench.cc) and the proof checks
// of the registry (bench/proof_bench.cc, registered at start-up).
//
//   build/release/idlespec_bench [--benchmark_filter=REGEX] [benchmark flags]
//   scripts/bench.sh BUILD_DIR FUZZ_BUILD_DIR   (also the libFuzzer exec/s)
#include <benchmark/benchmark.h>

#include "bench/bench.h"

int main(int argc, char** argv) {
  idlespec::bench::register_proof_benchmarks();
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
