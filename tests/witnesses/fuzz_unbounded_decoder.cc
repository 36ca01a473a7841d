// Fuzz witness for XCEDE-1: xcede_fuzz's checker over UnboundedDecoderSubject,
// which believes payload_size and reads past the buffer. A fresh libFuzzer
// campaign must find an input that makes it read outside the buffer
// (tests/witnesses/fuzz_expect_crash.sh, ctest fuzz-replay/witness_...).
#include <cstddef>
#include <cstdint>
#include <span>

#include "fuzz/xcede_input.h"
#include "tests/witnesses/xcede_witnesses.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::span<const uint8_t> input(data, size);
  const auto violations =
      idlespec::fuzz::check_xcede_input<idlespec::witness::UnboundedDecoderSubject>(input);
  if (!violations.empty()) {
    idlespec::fuzz::report_and_abort("xcede_fuzz_witness_unbounded_decoder", input, violations);
  }
  return 0;
}
