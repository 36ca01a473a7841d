// Fuzz witness for GOV-1: governor_fuzz's driver and checker over
// IgnoresDisabled, the reference that never reads the disabled flag. A
// fresh libFuzzer campaign must find a selection of a disabled state
// (tests/witnesses/fuzz_expect_crash.sh). The witness aborts on the clauses
// it breaks beyond the reference's own violations on the same input (the
// reference breaks GOV-5 on some inputs in the stated ranges).
#include <cstddef>
#include <cstdint>
#include <span>

#include "fuzz/governor_input.h"
#include "tests/witnesses/governor_witnesses.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  namespace gf = idlespec::governor_fuzz;
  static const gf::Subject witness = gf::subject_of<idlespec::governor::witness::IgnoresDisabled>();
  static const gf::Subject reference = gf::subject_of<idlespec::governor::Reference>();
  const std::span<const uint8_t> input(data, size);
  const gf::Input in = gf::parse_input(input);
  const gf::Outcome out = gf::run(witness, in);
  if (out.violations.empty()) return 0;
  const gf::Violations own = gf::beyond(out.violations, gf::run(reference, in).violations);
  if (!own.empty()) {
    gf::report_and_abort("governor_fuzz_witness_ignores_disabled", witness.name, input, own);
  }
  return 0;
}
