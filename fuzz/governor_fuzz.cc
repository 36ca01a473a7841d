// libFuzzer target for the menu governor (spec/governor.md).
//
// Decodes a state table and a sequence of selections, wake-ups and rejected
// entries (fuzz/governor_input.h explains the input layout), drives the
// subject the input's form asks for (reference, v6.19 or mainline; the
// v6.14 family breaks GOV-2 by design and is judged only by the corpus
// replay) through the select/update loop from a fresh history, judges
// GOV-1, 2, 3, 4, 7 and 9 on every selection and GOV-5 and GOV-8 on every
// selection whose inputs lie in the kernel's ranges, and aborts with the
// violated clauses on the first input that breaks one of them, except what
// spec/governor.md accepts for the subject (read from the built-in spec): GOV-8 for every subject
// (a truncated KTIME_MAX / 1000 stored after a polling timeout) and GOV-9 for every subject but
// mainline (the timer not consulted with the tick stopped, fixed by 80606f4eb8d7). The corpus
// replay reports both. Built as a libFuzzer binary (clang, IDLESPEC_LIBFUZZER) and as
// governor_fuzz_replay; with IDLESPEC_GOVERNOR_SUBJECT=<subject> the replay judges that subject on
// every input instead.
#include <cstddef>
#include <cstdint>
#include <span>

#include "fuzz/governor_input.h"
#include "fuzz/spec_acceptance.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  namespace gf = idlespec::governor_fuzz;
  const std::span<const uint8_t> input(data, size);
  const gf::Input in = gf::parse_input(input);
  const gf::Subject& subject = gf::fuzz_subject(in.config);
  const gf::Outcome out = gf::run(subject, in);
  gf::Violations stop;
  for (const gf::Violation& v : out.violations) {
    if (!idlespec::fuzz::spec_accepts(v.clause, subject.name)) stop.push_back(v);
  }
  if (!stop.empty()) gf::report_and_abort("governor_fuzz", subject.name, input, stop);
  return 0;
}
