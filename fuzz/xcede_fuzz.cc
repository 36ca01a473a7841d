// libFuzzer target for the XCEDE decoder (spec/xcede.md).
//
// Judges XCEDE-1..5 on every input through oracle/xcede.h (fuzz/xcede_input.h
// explains the input layout) and aborts with the violated clauses on the
// first input that breaks one. Built as a libFuzzer binary (clang,
// IDLESPEC_LIBFUZZER) and as xcede_fuzz_replay.
#include <cstddef>
#include <cstdint>
#include <span>

#include "fuzz/xcede_input.h"
#include "impl/subjects.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::span<const uint8_t> input(data, size);
  const auto violations = idlespec::fuzz::check_xcede_input<idlespec::ReferenceSubject>(input);
  if (!violations.empty()) idlespec::fuzz::report_and_abort("xcede_fuzz", input, violations);
  return 0;
}
