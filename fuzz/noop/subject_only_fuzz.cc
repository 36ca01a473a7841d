// A baseline for scripts/bench.sh, beside noop_fuzz: a libFuzzer binary,
// built with the fuzz targets' flags, that runs one target's subject on each
// input exactly as the target does and judges nothing (fuzz/judging.h). Its
// exec/s over the target's is what the target's oracle costs; over
// noop_fuzz's, what the subject itself costs under ASan+UBSan and libFuzzer.
// Not a fuzz target (it can find nothing): it lives outside the
// fuzz/*_fuzz.cc glob on purpose.
//
//   IDLESPEC_SUBJECT_ONLY=<target> subject_only_fuzz [libFuzzer flags] CORPUS...
//
// <target> is one of xcede_fuzz, states_fuzz, busy_delay_fuzz,
// governor_fuzz, teo_fuzz. idle_core_fuzz has no such baseline: its oracle
// chooses the moves (a thread may begin to idle only where the oracle's
// phases allow it), so the subject cannot run without it.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <span>
#include <string_view>

#include "fuzz/busy_delay_input.h"
#include "fuzz/governor_input.h"
#include "fuzz/judging.h"
#include "fuzz/teo_input.h"
#include "fuzz/xcede_input.h"
#include "impl/subjects.h"

namespace {

using idlespec::fuzz::Judging;
using Input = std::span<const uint8_t>;

void xcede(Input data) {
  idlespec::fuzz::check_xcede_input<idlespec::ReferenceSubject>(data, Judging::subject_only);
}
void states(Input data) {
  idlespec::fuzz::check_states_input<idlespec::ReferenceSubject>(data, Judging::subject_only);
}
void busy_delay(Input data) {
  namespace bf = idlespec::busy_delay_fuzz;
  const bf::Input in = bf::parse_input(data);
  for (const bf::Policy& p : bf::fuzz_policies(in.config)) bf::check(p, in, Judging::subject_only);
}
void governor(Input data) {
  namespace gf = idlespec::governor_fuzz;
  const gf::Input in = gf::parse_input(data);
  gf::run(gf::fuzz_subject(in.config), in, Judging::subject_only);
}
void teo(Input data) {
  namespace tf = idlespec::teo_fuzz;
  const tf::Input in = tf::parse_input(data);
  tf::run(tf::fuzz_subject(in.config), in, Judging::subject_only);
}

struct Baseline {
  std::string_view target;
  void (*run)(Input);
};
constexpr Baseline kBaselines[] = {{"xcede_fuzz", &xcede},
                                   {"states_fuzz", &states},
                                   {"busy_delay_fuzz", &busy_delay},
                                   {"governor_fuzz", &governor},
                                   {"teo_fuzz", &teo}};

void (*chosen)(Input) = nullptr;

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  const char* want = std::getenv("IDLESPEC_SUBJECT_ONLY");
  for (const Baseline& b : kBaselines) {
    if (want != nullptr && b.target == want) chosen = b.run;
  }
  if (chosen == nullptr) {
    std::fprintf(stderr,
                 "subject_only_fuzz: set IDLESPEC_SUBJECT_ONLY to xcede_fuzz, states_fuzz, "
                 "busy_delay_fuzz, governor_fuzz or teo_fuzz (got %s)\n",
                 want != nullptr ? want : "nothing");
    std::exit(2);
  }
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  chosen(Input(data, size));
  return 0;
}
