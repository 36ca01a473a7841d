// Fuzz witness for STATES-1: states_fuzz's checker over KeepsOutOfOrderSubject,
// whose table builder exposes a record shallower than the state before it
// instead of dropping it. A fresh campaign must find a buffer with such a
// record (tests/witnesses/fuzz_expect_crash.sh; make fuzz-exposure times it).
#include <cstddef>
#include <cstdint>
#include <span>

#include "fuzz/xcede_input.h"
#include "tests/witnesses/property_witnesses.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::span<const uint8_t> input(data, size);
  const auto violations =
      idlespec::fuzz::check_states_input<idlespec::witness::KeepsOutOfOrderSubject>(input);
  if (!violations.empty()) {
    idlespec::fuzz::report_and_abort("states_fuzz_witness_keeps_out_of_order", input, violations);
  }
  return 0;
}
