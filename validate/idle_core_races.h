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
// POWER9's (power9_idle_stop): SMT2 through two deep stops (a thread back
// from one loss enters the next while a sibling still recovers from it) and
// SMT4 bounded, each with a schedule cap.
std::vector<RaceJob> race_jobs_power9();

struct RaceRun {
  std::string error;                     // the build or a run did not work: why
  std::vector<HarnessOutcome> outcomes;  // one per job, in order
  double seconds = 0;
};
// Builds the TSan harness from the plain build's command line (hb.plain_argv)
// in `dir` and runs the jobs, within `budget` seconds. Host target only.
RaceRun run_race_jobs(const HarnessBuild& hb, const std::string& dir,
                      const std::vector<RaceJob>& jobs, double budget);

// What the harness's report of a race says when the lock was the state
// word's bit at the time (harness/idle_core_races.c): the race b0c5b4f1ee36
// removed. Its own words, never the code's (the code's names reach the
// report as letters, digits and '_' only).
inline constexpr const char* kLockBitRace = "(the lock is the word's bit:";

// The harness's race report with each access's line as FILE:LINE.
std::string race_accesses_in(const std::string& report, const std::string& file);

// IDLE-10's note for a verdict of the race build: what was run, and the
// text's layout when it fails as the word-lock era.
std::string race_note_for(const std::string& status, const std::string& era);
// The line a POWER9 race's counterexample ends with (in every report
// format): the race every text to 6.12 has (spec/idle_core.md, IDLE-10).
std::string race_power9_context();

}  // namespace idlespec::validate

#endif
