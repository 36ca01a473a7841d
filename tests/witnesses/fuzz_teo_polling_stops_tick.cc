// Fuzz witness for TEO-3: teo_fuzz's driver and oracle over PollingStopsTick,
// mainline whose end block forgets the POLLING test (the polling_keeps_tick
// hook of impl/teo.h off), so that a polling state chosen with a sleep
// length of a tick or more stops the running tick. A fresh libFuzzer
// campaign must find it (tests/witnesses/fuzz_expect_crash.sh). Every input
// runs the witness whatever its configuration byte names; the witness aborts
// on the clauses it breaks beyond mainline's own on the same input (mainline
// breaks TEO-1, accepted by spec/teo.md).
#include <cstddef>
#include <cstdint>

#include "tests/witnesses/teo_fuzz_witness.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  return idlespec::teo_fuzz::run_witness<idlespec::teo::witness::PollingStopsTick>(
      "teo_fuzz_witness_polling_stops_tick", data, size);
}
