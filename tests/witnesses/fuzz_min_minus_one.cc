// Fuzz witness for STATES-4: xcede_fuzz's checker over MinMinusOneSubject,
// the July 2020 CEDE(0) fix-up (min - 1 in u64, zero latencies included). A
// fresh libFuzzer campaign must find a table whose CEDE latency is not the
// exact value (tests/witnesses/fuzz_expect_crash.sh).
#include <cstddef>
#include <cstdint>
#include <span>

#include "fuzz/xcede_input.h"
#include "tests/witnesses/xcede_witnesses.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::span<const uint8_t> input(data, size);
  const auto violations =
      idlespec::fuzz::check_states_input<idlespec::witness::MinMinusOneSubject>(input);
  if (!violations.empty()) {
    idlespec::fuzz::report_and_abort("states_fuzz_witness_min_minus_one", input, violations);
  }
  return 0;
}
