// libFuzzer target for the powernv per-core idle word (spec/idle_core.md).
//
// Each input is a core configuration and a schedule of moves (which thread
// begins to idle, steps, is woken, or the core loses state;
// fuzz/idle_core_input.h gives the layout). The reference protocol runs the
// schedule and the oracle of oracle/idle_core.h judges every move; the
// first violation aborts with its clause ("==idle_core_fuzz== IDLE-3
// violated: ...") and the schedule as a timeline. Built as a libFuzzer binary
// (clang, IDLESPEC_LIBFUZZER) and as idle_core_fuzz_replay.
#include <cstddef>
#include <cstdint>
#include <span>

#include "fuzz/idle_core_input.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::span<const uint8_t> input(data, size);
  namespace icf = idlespec::idle_core_fuzz;
  const icf::Outcome outcome = icf::check_fuzz_input(input, icf::Rows::counted);
  if (!outcome.ok()) icf::report_and_abort("idle_core_fuzz", input, outcome);
  return 0;
}
