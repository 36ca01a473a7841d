// Fuzz witness for GOV-5: governor_fuzz's driver and checker over
// Prediction32Bit, the reference that multiplies the sleep length by the
// correction factor in 32 bits. A fresh libFuzzer campaign must find a
// prediction that differs from the exact one on an input where the
// reference's does not (tests/witnesses/fuzz_expect_crash.sh): the witness
// aborts on the clauses it breaks beyond the reference's own violations on
// the same input.
#include <cstddef>
#include <cstdint>
#include <span>

#include "fuzz/governor_input.h"
#include "tests/witnesses/governor_witnesses.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  namespace gf = idlespec::governor_fuzz;
  static const gf::Subject witness = gf::subject_of<idlespec::governor::witness::Prediction32Bit>();
  static const gf::Subject reference = gf::subject_of<idlespec::governor::Reference>();
  const std::span<const uint8_t> input(data, size);
  const gf::Input in = gf::parse_input(input);
  const gf::Outcome out = gf::run(witness, in);
  if (out.violations.empty()) return 0;
  const gf::Violations own = gf::beyond(out.violations, gf::run(reference, in).violations);
  if (!own.empty()) {
    gf::report_and_abort("governor_fuzz_witness_prediction_32_bit", witness.name, input, own);
  }
  return 0;
}
