// Fuzz witness for BUSY-7: busy_delay_fuzz's checker over
// NoResetOnGiveUpPolicy, the early-boot policy that keeps its count when it
// gives up. A fresh libFuzzer campaign must find a later loop that gives up
// on its first extended delay (tests/witnesses/fuzz_expect_crash.sh).
#include <cstddef>
#include <cstdint>
#include <span>

#include "fuzz/busy_delay_input.h"
#include "tests/witnesses/busy_delay_witnesses.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  namespace bf = idlespec::busy_delay_fuzz;
  static const bf::Policy policy =
      bf::policy_of<idlespec::busy_delay::witness::NoResetOnGiveUpPolicy>(bf::Kind::early);
  const std::span<const uint8_t> input(data, size);
  const auto violations = bf::check(policy, bf::parse_input(input));
  if (!violations.empty()) {
    bf::report_and_abort("busy_delay_fuzz_witness_no_reset", input, violations);
  }
  return 0;
}
