// What each teo fuzz witness target does (tests/witnesses/fuzz_teo_*.cc):
// teo_fuzz's driver and oracle over one witness of teo_witnesses.h, on every
// input whatever its configuration byte names, aborting on the clauses the
// witness breaks beyond mainline's own on the same input (mainline breaks
// TEO-1, accepted by spec/teo.md).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "fuzz/teo_input.h"
#include "tests/witnesses/teo_witnesses.h"

namespace idlespec::teo_fuzz {

template <class Witness>
int run_witness(const char* target, const uint8_t* data, size_t size) {
  static const Subject witness = subject_of<Witness>();
  static const Subject mainline = subject_of<idlespec::teo::Mainline>();
  const std::span<const uint8_t> input(data, size);
  const Input in = parse_input(input);
  const Outcome out = run(witness, in);
  if (out.violations.empty()) return 0;
  const Violations own = beyond(out.violations, run(mainline, in).violations);
  if (!own.empty()) report_and_abort(target, witness.name, input, own);
  return 0;
}

}  // namespace idlespec::teo_fuzz
