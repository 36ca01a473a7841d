// Proof times: every check of kind proof in the builtin registry, run once
// per subject it names and timed in wall-clock time. The proofs themselves
// live in proofs/; this file only iterates the registry.
#include <benchmark/benchmark.h>

#include <cstdio>
#include <exception>
#include <string>

#include "bench/bench.h"
#include "verify/build_paths.h"
#include "verify/registry.h"

namespace idlespec::bench {

void register_proof_benchmarks() {
  size_t registered = 0;
  for (const verify::Check& check : verify::builtin_registry().checks()) {
    if (check.kind != verify::CheckKind::proof) continue;
    for (const std::string& subject : check.subjects) {
      const std::string name = "proof/" + check.name + "/" + subject;
      const verify::Check* c = &check;
      benchmark::RegisterBenchmark(
          name.c_str(),
          [c, subject](benchmark::State& state) {
            verify::RunOptions options;
            options.source_dir = idlespec::build::source_dir();
            verify::CheckResult result;
            try {
              for (auto _ : state) result = c->run(subject, options);
            } catch (const std::exception& e) {
              state.SkipWithError((std::string("proof threw: ") + e.what()).c_str());
              return;
            }
            state.SetLabel(std::string(verify::outcome_name(result.outcome)) +
                           (result.outcome == verify::Outcome::pass ? "" : ": " + result.detail));
          })
          ->Iterations(1)
          ->Unit(benchmark::kMillisecond)
          ->UseRealTime();
      ++registered;
    }
  }
  if (registered == 0) {
    std::fprintf(stderr, "idlespec_bench: the registry has no proof checks yet: no proof times\n");
  }
}

}  // namespace idlespec::bench
