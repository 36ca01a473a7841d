// libFuzzer target for the TEO governor (spec/teo.md).
//
// Decodes a state table and a sequence of selections, each with the idle
// period after it (fuzz/teo_input.h explains the input layout), drives the
// subject the input's configuration byte names (v6.1, v6.12, v6.19, v7.0 or
// mainline) through the select/learn loop from a fresh CPU, judges TEO-1..5
// on every selection and TEO-6 after every update (oracle/teo.h), and aborts
// with the violated clauses on the first input that breaks one the spec does
// not accept for the subject (its "- Accepted for" lines, read from the
// built-in spec: TEO-1 for every subject, TEO-5 for v6.1). The corpus replay (`fuzz-replay
// teo_fuzz`) reports the accepted ones too. Built as a libFuzzer binary
// (clang, IDLESPEC_LIBFUZZER) and as teo_fuzz_replay; with
// IDLESPEC_TEO_SUBJECT=<subject> every input runs that subject instead.
#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

#include "fuzz/spec_acceptance.h"
#include "fuzz/teo_input.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  namespace tf = idlespec::teo_fuzz;
  const std::span<const uint8_t> input(data, size);
  const tf::Input in = tf::parse_input(input);
  const tf::Subject& subject = tf::fuzz_subject(in.config);
  const tf::Outcome out = tf::run(subject, in);
  if (out.violations.empty()) return 0;
  tf::Violations stop;
  for (const tf::Violation& v : out.violations) {
    if (!idlespec::fuzz::spec_accepts(v.clause, subject.name)) stop.push_back(v);
  }
  if (!stop.empty()) tf::report_and_abort("teo_fuzz", subject.name, input, stop);
  return 0;
}
