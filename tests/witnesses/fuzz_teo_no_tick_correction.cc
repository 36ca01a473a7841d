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

#include "tests/witnesses/teo_fuzz_witness.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  return idlespec::teo_fuzz::run_witness<idlespec::teo::witness::NoTickCorrection>(
      "teo_fuzz_witness_no_tick_correction", data, size);
}
