// Registration hooks of the benchmarks that are only known at run time.
#pragma once

namespace idlespec::bench {

// One benchmark per (proof check, subject) in verify::builtin_registry(),
// named proof/<check>/<subject>, one iteration each, labelled with the outcome.
void register_proof_benchmarks();

}  // namespace idlespec::bench
