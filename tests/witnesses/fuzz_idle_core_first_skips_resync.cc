// Fuzz witness for IDLE-3: idle_core_fuzz's driver and oracle over
// FirstSkipsResync, the protocol whose first thread awake does not resync the
// timebase. A fresh libFuzzer campaign must find a thread returning to
// running after a loss with the timebase still invalid
// (tests/witnesses/fuzz_expect_crash.sh).
#include <cstddef>
#include <cstdint>
#include <span>

#include "fuzz/idle_core_input.h"
#include "tests/witnesses/idle_core_witnesses.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  namespace icf = idlespec::idle_core_fuzz;
  const std::span<const uint8_t> input(data, size);
  const auto outcome =
      icf::run<idlespec::idle_core::witness::FirstSkipsResync>(icf::parse_input(input));
  if (!outcome.ok()) {
    icf::report_and_abort("idle_core_fuzz_witness_first_skips_resync", input, outcome);
  }
  return 0;
}
