// libFuzzer target for the RTAS busy and extended-delay policies.
//
// Drives the policy the input's config byte chooses (reference in either
// form, or early; legacy breaks BUSY-3 and BUSY-6 by design and is checked
// only by the corpus replay) through retry loops over the input's statuses,
// asserts BUSY-1, 3, 6 (runtime) or BUSY-7 (early) on every input
// (fuzz/busy_delay_check.h explains the input layout) and aborts with the
// violated clauses on the first input that breaks one. Built as a libFuzzer
// binary (clang, IDLESPEC_LIBFUZZER) and as busy_delay_fuzz_replay; with
// IDLESPEC_BUSY_DELAY_SUBJECT=reference|early|legacy the replay checks that
// subject on every input instead.
#include <cstddef>
#include <cstdint>
#include <span>

#include "fuzz/busy_delay_input.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::span<const uint8_t> input(data, size);
  const auto violations = idlespec::busy_delay_fuzz::check_fuzz_input(input);
  if (!violations.empty()) {
    idlespec::busy_delay_fuzz::report_and_abort("busy_delay_fuzz", input, violations);
  }
  return 0;
}
