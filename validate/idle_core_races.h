// IDLE-10 in `idlespec validate`'s idle_core check: the same harness built
// with ThreadSanitizer, each hardware thread a TSan fiber
// (harness/idle_core_races.c), run on a few short explorations.
#ifndef IDLESPEC_VALIDATE_IDLE_CORE_RACES_H
#define IDLESPEC_VALIDATE_IDLE_CORE_RACES_H

#include <string>
#include <vector>

#include "validate/component.h"
#include "validate/input_check.h"

namespace idlespec::validate {

// One exploration job of the race build: the harness line without its id.
struct RaceJob {
  std::string line, what;
};
// POWER8's (power7_idle_insn) jobs: SMT2 exhaustive and SMT4 bounded, each
// with a schedule cap that keeps the run short.
std::vector<RaceJob> race_jobs_power8(bool workaround);

struct RaceRun {
  std::string error;                     // the build or a run did not work: why
  std::vector<HarnessOutcome> outcomes;  // one per job, in order
  double seconds = 0;
};
// Builds the TSan harness from the plain build's command line (hb.plain_argv)
// in `dir` and runs the jobs, within `budget` seconds. Host target only.
RaceRun run_race_jobs(const HarnessBuild& hb, const std::string& dir,
                      const std::vector<RaceJob>& jobs, double budget);

}  // namespace idlespec::validate

#endif
