// Fuzz witness for IDLE-9: idle_core_fuzz's driver and oracle over
// EveryThreadResyncs, the protocol before the 2014 redesign, in which every
// thread waking with state loss resyncs the timebase. A fresh libFuzzer
// campaign must find a thread resyncing while another has been running since
// before it woke (tests/witnesses/fuzz_expect_crash.sh).
#include <cstddef>
#include <cstdint>
#include <span>

#include "fuzz/idle_core_input.h"
#include "tests/witnesses/idle_core_witnesses.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  namespace icf = idlespec::idle_core_fuzz;
  const std::span<const uint8_t> input(data, size);
  const auto outcome =
      icf::run<idlespec::idle_core::witness::EveryThreadResyncs>(icf::parse_input(input));
  if (!outcome.ok()) {
    icf::report_and_abort("idle_core_fuzz_witness_every_thread_resyncs", input, outcome);
  }
  return 0;
}
