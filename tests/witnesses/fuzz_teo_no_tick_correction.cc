// Fuzz witness for TEO-4: teo_fuzz's driver and oracle over NoTickCorrection,
// mainline without the correction for the time to the next tick when the
// tick is kept, so that a state deeper than that time is chosen with the
// tick running. A fresh campaign must find it (tests/witnesses/
// fuzz_expect_crash.sh; make fuzz-exposure times it). Every input runs the
// witness whatever its configuration byte names; the witness aborts on the
// clauses it breaks beyond mainline's own on the same input (mainline breaks
// TEO-1, accepted by spec/teo.md).
#include <cstddef>
#include <cstdint>
#include <span>

#include "fuzz/teo_input.h"
#include "tests/witnesses/teo_witnesses.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  namespace tf = idlespec::teo_fuzz;
  static const tf::Subject witness = tf::subject_of<idlespec::teo::witness::NoTickCorrection>();
  static const tf::Subject mainline = tf::subject_of<idlespec::teo::Mainline>();
  const std::span<const uint8_t> input(data, size);
  const tf::Input in = tf::parse_input(input);
  const tf::Outcome out = tf::run(witness, in);
  if (out.violations.empty()) return 0;
  const tf::Violations own = tf::beyond(out.violations, tf::run(mainline, in).violations);
  if (!own.empty()) {
    tf::report_and_abort("teo_fuzz_witness_no_tick_correction", witness.name, input, own);
  }
  return 0;
}
