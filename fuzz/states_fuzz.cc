// libFuzzer target for the cpuidle state table built from XCEDE records
// (spec/states.md).
//
// Judges STATES-1, 2, 3, 4, 5 and 7 on every input through oracle/states.h
// (the input layout is xcede_fuzz's: fuzz/xcede_input.h) and aborts with the
// violated clauses on the first input that breaks one. Built as a libFuzzer
// binary (clang, IDLESPEC_LIBFUZZER) and as states_fuzz_replay.
#include <cstddef>
#include <cstdint>
#include <span>

#include "fuzz/xcede_input.h"
#include "impl/subjects.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::span<const uint8_t> input(data, size);
  const auto violations = idlespec::fuzz::check_states_input<idlespec::ReferenceSubject>(input);
  if (!violations.empty()) idlespec::fuzz::report_and_abort("states_fuzz", input, violations);
  return 0;
}
