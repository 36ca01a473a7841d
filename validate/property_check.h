// Internal to validate/: RapidCheck properties over the code under test, for
// the input-driven components (xcede, states).
//
// The property is "the clauses hold for this input": RapidCheck generates an
// input with the component's generator, the plain harness runs it (one child
// process per case, so a crash or a hang is the case's outcome, never the
// driver's), and the component's judge decides. On a failure RapidCheck
// shrinks the input through its generators (records dropped, values made
// smaller, statuses simplified), re-running the harness for each candidate.
// Every case it ran, and its shrunk counterexample, then go through
// check_inputs() with the other inputs (both builds), so the verdicts rest on
// one judge and the counterexample RapidCheck found is shown as such.
#pragma once

#include <rapidcheck.h>

#include <algorithm>
#include <chrono>
#include <string>
#include <unordered_map>
#include <vector>

#include "validate/input_check.h"

namespace idlespec::validate {

template <class Input>
struct PropertyRun {
  std::vector<Input> cases;  // every case RapidCheck generated, in order
  bool failed = false;
  Input counterexample;  // the shrunk one, when failed
  std::string summary;   // for the report's notes
};

namespace detail {
// RapidCheck reports through a listener; validate prints its own report.
class SilentListener : public rc::detail::TestListener {
 public:
  void onTestCaseFinished(const rc::detail::CaseDescription&) override {}
  void onShrinkTried(const rc::detail::CaseDescription&, bool) override {}
  void onTestFinished(const rc::detail::TestMetadata&, const rc::detail::TestResult&) override {}
};
}  // namespace detail

// Runs `cases` RapidCheck cases of `gen` through hb.plain within `seconds`
// (cases after that pass without running, and the summary says so).
template <class Input>
PropertyRun<Input> check_property(const Options& opt, const HarnessBuild& hb,
                                  const std::string& dir, const rc::Gen<Input>& gen,
                                  const InputChecker<Input>& c, int cases, double seconds) {
  using Clock = std::chrono::steady_clock;
  PropertyRun<Input> run;
  const auto t0 = Clock::now();
  // Its own time, within what is left of the part's budget less the runs' share.
  const auto deadline = std::min(
      t0 + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds)),
      c.start + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(
                    opt.budget_seconds - later_shares_seconds(opt, Stage::rapidcheck))));
  bool out_of_time = false, shrinking = false;
  int evaluations = 0, shrink_steps = 0;
  std::string finding;
  const auto property = [&] {
    const Input in = *gen;
    // A case starts within RapidCheck's own time and runs for at least 1.5 s
    // (so that a harness started late still finishes), 10 s at most, but
    // never past the part's budget.
    const double part_left = budget_left(opt, c.start);
    if (out_of_time || Clock::now() > deadline || part_left <= 0.1) {
      out_of_time = true;
      return;
    }
    ++evaluations;
    if (!shrinking) run.cases.push_back(in);
    const double own_left = std::chrono::duration<double>(deadline - Clock::now()).count();
    const HarnessBatch b = run_harness_inputs(hb.plain, false, {c.line(in)}, dir, "rapidcheck-",
                                              std::min({std::max(own_left, 1.5), 10.0, part_left}));
    const Findings f = c.judge(in, b.outcomes.front());
    if (f.empty()) return;
    // RapidCheck's shrinking ends on the last case that failed.
    if (shrinking) ++shrink_steps;
    shrinking = true;
    run.failed = true;
    run.counterexample = in;
    finding = f.begin()->first + ": " + f.begin()->second;
    RC_FAIL(finding);
  };
  rc::detail::TestParams params;
  params.seed = opt.seed;
  params.maxSuccess = cases;
  rc::detail::TestMetadata metadata;
  metadata.id = metadata.description = "validate";
  detail::SilentListener listener;
  // The overload with a reproduce map: the others read RC_PARAMS and print.
  const std::unordered_map<std::string, rc::detail::Reproduce> none;
  const rc::detail::TestResult result =
      rc::detail::checkProperty(rc::detail::toProperty(property), metadata, params, listener, none);
  rc::detail::FailureResult failure;
  const double secs = std::chrono::duration<double>(Clock::now() - t0).count();
  char timing[48];
  std::snprintf(timing, sizeof(timing), "%.1f s", secs);
  run.summary = "RapidCheck: " + std::to_string(run.cases.size()) + " generated cases (seed " +
                std::to_string(opt.seed) + "), " + std::to_string(evaluations) + " harness runs, " +
                timing;
  if (result.match(failure))
    run.summary += "; falsified after " + std::to_string(failure.numSuccess) +
                   " passing cases, shrunk in " + std::to_string(shrink_steps) +
                   " steps: " + finding;
  else if (out_of_time)
    run.summary += "; the time for it (" + std::to_string(static_cast<int>(seconds)) +
                   " s) ran out before " + std::to_string(cases) + " cases";
  else
    run.summary += "; every case held";
  return run;
}

// With "rapidcheck" among --inputs: runs the property and appends every
// case and the shrunk counterexample (its origin "RapidCheck, shrunk") to
// `inputs`, the summary to the part's notes.
template <class Input>
void add_property_inputs(const Options& opt, const HarnessBuild& hb, const rc::Gen<Input>& gen,
                         const InputChecker<Input>& c, Part& part, std::vector<Input>& inputs) {
  if (!opt.inputs.count("rapidcheck")) return;
  PropertyRun<Input> pr =
      check_property(opt, hb, part.temp_dir, gen, c, opt.property_cases, property_seconds(opt));
  part.notes.push_back(pr.summary);
  for (auto& x : pr.cases) inputs.push_back(std::move(x));
  if (pr.failed) {
    pr.counterexample.origin = "RapidCheck, shrunk";
    inputs.push_back(pr.counterexample);
  }
}

}  // namespace idlespec::validate
