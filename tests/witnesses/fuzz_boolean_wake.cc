// Fuzz witness for XCEDE-5: xcede_fuzz's checker over BooleanWakeSubject,
// whose decoder reduces the wake-on-interrupt byte to 0 or 1 as a bool field
// would. A fresh campaign must find a record whose byte is neither
// (tests/witnesses/fuzz_expect_crash.sh; make fuzz-exposure times it).
#include <cstddef>
#include <cstdint>
#include <span>

#include "fuzz/xcede_input.h"
#include "tests/witnesses/property_witnesses.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::span<const uint8_t> input(data, size);
  const auto violations =
      idlespec::fuzz::check_xcede_input<idlespec::witness::BooleanWakeSubject>(input);
  if (!violations.empty()) {
    idlespec::fuzz::report_and_abort("xcede_fuzz_witness_boolean_wake", input, violations);
  }
  return 0;
}
