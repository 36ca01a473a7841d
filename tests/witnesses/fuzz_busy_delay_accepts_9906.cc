// Fuzz witness for BUSY-1: busy_delay_fuzz's checker over Accepts9906Policy,
// the reference policy whose extended-delay range ends at 9906. A fresh
// libFuzzer campaign must find a loop that retries on 9906
// (tests/witnesses/fuzz_expect_crash.sh).
#include <cstddef>
#include <cstdint>
#include <span>

#include "fuzz/busy_delay_input.h"
#include "tests/witnesses/busy_delay_witnesses.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  namespace bf = idlespec::busy_delay_fuzz;
  static const bf::Policy policy =
      bf::policy_of<idlespec::busy_delay::witness::Accepts9906Policy>(bf::Kind::runtime);
  const std::span<const uint8_t> input(data, size);
  const auto violations = bf::check(policy, bf::parse_input(input));
  if (!violations.empty()) {
    bf::report_and_abort("busy_delay_fuzz_witness_accepts_9906", input, violations);
  }
  return 0;
}
