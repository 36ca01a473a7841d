// Internal to validate/: what the menu (governor) and TEO checks share in
// driving a cpuidle governor's harness: the idle step's words on the harness
// line, the state table's, the reading of the harness's answers, and the
// per-CPU device definition the extractor does not take.
#pragma once

#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

#include "extract/extract.h"
#include "validate/component.h"
#include "validate/input_check.h"

namespace idlespec::validate {

// PM QoS "no limit": S32_MAX us.
constexpr uint64_t kCpuidleNoLimitNs = uint64_t{0x7fffffff} * 1000;

// One idle period of the wake-up sequence both harnesses play: the PM QoS
// limit, the tick layer's answers (sleep length, time to the tick, whether
// the tick is stopped), then how long the CPU stayed idle and what woke it.
struct IdleStep {
  uint64_t latency_req = kCpuidleNoLimitNs, sleep = 0, dtick = 0;
  bool stopped = false;
  uint64_t residency = 0;
  bool got_tick = false, poll_limit = false;
};

// The step on the harness line: limit/sleep/dtick/stopped/residency/got_tick/poll_limit.
std::string idle_step_text(const IdleStep& x);

// One state of the table on the harness line: exit:target:flags (p polling,
// d disabled, - neither).
std::string state_text(uint64_t exit_ns, uint64_t target_ns, bool polling, bool disabled);

// The state table on the harness line: each state's state_text(),
// comma-separated; `exit` and `target` name the entry's members in ns.
template <class Entry, class Ns>
std::string table_line(const std::vector<Entry>& t, Ns Entry::*exit, Ns Entry::*target) {
  std::string s;
  for (size_t i = 0; i < t.size(); ++i) {
    if (i) s += ',';
    s += state_text(t[i].*exit, t[i].*target, t[i].polling, t[i].disabled);
  }
  return s;
}

// The wake-up sequence on the harness line: each step's idle_step_text()
// and what more(step) adds for the harness, semicolon-separated.
template <class Step, class More>
std::string steps_line(const std::vector<Step>& steps, More more) {
  std::string s;
  for (size_t k = 0; k < steps.size(); ++k) {
    if (k) s += ';';
    s += idle_step_text(steps[k]);
    s += more(steps[k]);
  }
  return s;
}

// The value of ` key=` in a harness line ("" when absent).
std::string harness_field(const std::string& line, const std::string& key);

// A selection line (S step idx=... stop_tick=...; `line` with a space
// before its first word): the selection made, its index and stop_tick.
template <class Sel>
void read_choice(Sel& s, const std::string& line) {
  s.ok = true;
  s.idx = std::strtoll(harness_field(line, "idx").c_str(), nullptr, 10);
  s.stop = harness_field(line, "stop_tick") == "1";
}

// A CRASH or HANG line at `step` (`rest` after the step: the signal and its
// name): the outcome crashed or hung there, in the report's words.
template <class Outcome>
void read_trap(Outcome& o, const std::string& word, long long step, std::istringstream& rest) {
  (word == "CRASH" ? o.crashed : o.hung) = true;
  o.crash_step = step;
  std::string sig, name;
  rest >> sig >> name;
  o.crash = word == "CRASH" ? "signal " + sig + " (" + name + ")" : "no return within 2 s";
}

// `static DEFINE_PER_CPU(struct ..., name);` defines nothing to the
// extractor: put the line (with its #line marker) ahead of the first item of
// `ex` using `name`, and name it in the prelude.
void add_per_cpu(const Target& target, Extraction& ex, const std::string& name);

// The part of `component` on `target`: the functions of the extraction the
// target asks for, and its prelude.
Part start_part(const Component& component, const Target& target, const Extraction& ex);

// Whether the extraction found `name`.
bool found_function(const Extraction& ex, const std::string& name);

// The part's harness built in its temp dir (made here), its build notes
// added: false, with the verdicts filled in and the part finished, when
// there is nothing to run (no temp dir, or the build failed).
bool build_part_harness(const Options& opt, const Component& component, const Target& target,
                        Part& part, const std::string& env_header, const std::string& code,
                        const std::string& harness_file, const std::vector<std::string>& defs,
                        HarnessBuild& hb, std::chrono::steady_clock::time_point t0);

// What one harness run of a set of inputs gave: an outcome per input.
template <class Outcome>
struct HarnessRun {
  std::vector<Outcome> outcomes;
  std::vector<RunRecord> runs;
  std::vector<std::string> errors;
};

// Runs `inputs` (as line_of(input) says each) through the shared runner
// (validate/input_check.h) and opens one outcome per input: a selection per
// step, whether it was reported, the warnings; read(harness_outcome,
// outcome) reads the rest of the harness's lines.
template <class Outcome, class Input, class LineOf, class Read>
HarnessRun<Outcome> run_governor_harness(const std::string& harness, bool sanitizers,
                                         const std::vector<Input>& inputs, LineOf line_of,
                                         const std::string& dir, const std::string& tag,
                                         double budget, Read read) {
  std::vector<std::string> lines;
  for (const auto& in : inputs) lines.push_back(line_of(in));
  const HarnessBatch hb = run_harness_inputs(harness, sanitizers, lines, dir, tag, budget);
  HarnessRun<Outcome> b;
  b.runs = hb.runs;
  b.errors = hb.errors;
  b.outcomes.resize(inputs.size());
  for (size_t i = 0; i < inputs.size(); ++i) {
    Outcome& o = b.outcomes[i];
    o.sels.resize(inputs[i].steps.size());
    o.reported = hb.outcomes[i].reported;
    o.warns = hb.outcomes[i].warns;
    read(hb.outcomes[i], o);
  }
  return b;
}

}  // namespace idlespec::validate
