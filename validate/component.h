// Internal to validate/: the components `idlespec validate` knows and the
// pieces every component's check shares.
#pragma once

#include <chrono>
#include <string>
#include <utility>
#include <vector>

#include "validate/sparse_check.h"
#include "validate/validate.h"
#include "verify/spec_index.h"

namespace idlespec::validate {

// The spec built into idlespec (verify::builtin_spec()), parsed once.
const verify::SpecIndex& spec();

// The subject a component is judged against: --subject where the component
// has it, else the spec's "- Validate default:" for it, else reference
// (validate/spec_judgement.cc; the checks that spend work on one subject's
// clauses ask it too).
std::string judged_subject(const Options& opt, const std::string& component);

// What to check: one file's text and the functions asked for.
struct Target {
  std::string path;                    // the file on disk (for #line and messages)
  std::string display;                 // how the report names it
  std::string text;                    // its contents
  std::vector<std::string> functions;  // the component's functions to check
  // --candidate: the library (text is empty); its functions come through
  // harness/candidate_adapter.c instead of extracted text.
  std::string candidate;
  std::vector<std::string> implemented;  // what the library's probe listed
};

// For a candidate target: the adapter in place of extracted code, the
// functions found as the library implements them. `define` selects the
// component's names (CANDIDATE_BUSY_DELAY, CANDIDATE_XCEDE).
Extraction candidate_extraction(const Options& options, const Target& target,
                                const std::string& define);

struct Component {
  std::string name;                                          // "busy_delay"
  std::string tree_path;                                     // where a Linux tree keeps them
  std::vector<std::string> functions;                        // the modelled functions
  std::vector<std::pair<std::string, std::string>> clauses;  // clause -> function it is checked on
  Part (*check)(const Options&, const Target&);              // nullptr: not checked yet (unknown)
};

const std::vector<Component>& components();
const Component* find_component(const std::string& name);

Part check_busy_delay(const Options& options, const Target& target);
Part check_xcede(const Options& options, const Target& target);
Part check_states(const Options& options, const Target& target);
Part check_governor(const Options& options, const Target& target);
// The governor's extraction (menu_reflect(), get_typical_interval() and the
// per-CPU menu_devices beside the modelled functions) and the file's era
// as -D flags: what the harness and the Frama-C unit are both built from.
Extraction governor_extraction(const Target& target);
std::vector<std::string> governor_defines(const Extraction& ex);
Part check_teo(const Options& options, const Target& target);
Part check_idle_core(const Options& options, const Target& target);

// The lines of `text` that are version-control conflict markers ("<<<<<<< ",
// "=======", ">>>>>>> " at the start of a line), as "lines 120, 160, 190"
// (at most five named), or "" when there are none.
std::string conflict_markers(const std::string& text);
// A function the extractor did not find: "absent", or "error" naming the
// markers when the text has conflict markers (the text is broken, so the
// function may well be there). Sets v.status and v.error.
void mark_not_found(ClauseVerdict& v, const std::string& text);

// The verdict of clause `id` (of function `fn`) before it is judged: its
// component, file, and the function's first line among `functions`.
ClauseVerdict clause_verdict(const Component& component, const Target& target,
                             const std::vector<FoundFunction>& functions, const std::string& id,
                             const std::string& fn);

// Verdicts for a part none of whose runs happened: absent where the function
// is missing, otherwise `status` with `why`.
void fill_verdicts(const Component& component, const Target& target, Part& part,
                   const std::string& status, const std::string& why);

// Build a harness: kernel.h, then `env_header` (may be empty), then `code`,
// then the harness file, twice (plain -O3; -O1 ASan+UBSan with recovery)
// into `dir`. On success returns "" and sets `plain`/`san` (san empty when
// not asked for). A sanitizer build that fails, runs out of the budget or
// reads differently from the plain one is an `error` (issue 47,
// validate/sanitizer_parity.h): the code cannot opt out of it.
struct HarnessBuild {
  std::string plain, san, san_note, error;
  std::vector<std::string>
      plain_argv;  // the plain build's command (idle_core's TSan build, IDLE-10)
  // The file the driver's #line markers name: a compiler that tries to
  // read it is refused quietly (Job::quiet_refusals), in every build of it.
  std::string source_label;
  std::string fuzz, fuzz_note;  // the libFuzzer build, or why there is none
  // What was dropped to make it compile (pulled-in items the shims cannot
  // compile, extract.h's drop_failing_items), one note each, for the report.
  std::vector<std::string> notes;
  // With an error, what each clause's verdict says: the harness does not
  // compile, or its build ran out of the budget.
  std::string verdict_reason = "the harness does not compile";
  // sparse on the unit that compiled (opt.sparse; validate/sparse_check.h).
  SparseRun sparse;
};
// `fuzz`: also the libFuzzer build (IDLESPEC_LIBFUZZER, opt.fuzz_cc), when
// a campaign is asked for (fuzz_seconds(options) > 0). `libs`: what every
// build links after the harness (an archive, -lstdc++).
HarnessBuild build_harness(const Options& options, const std::string& dir,
                           const std::string& env_header, const std::string& code,
                           const std::string& harness_file, const std::vector<std::string>& defs,
                           bool fuzz = false, const std::vector<std::string>& libs = {});

// The campaign's length: --fuzz, or by default a sixth of the budget, 1..5 s.
double fuzz_seconds(const Options& options);
// The time RapidCheck's cases may take: a sixth of the budget, 1..5 s.
double property_seconds(const Options& options);

// --- the part's budget (issue 15) -------------------------------------------------
// --budget is one part's (a component on one file), counted from `start`,
// when its check began: the extraction and build, Z3's inputs, the
// libFuzzer campaign, RapidCheck, the runs and the shrinking share it. A
// stage's limit is its own share cut to what is left, never more: a stage
// that ran long on a loaded machine leaves the later ones less, so the
// part's work ends by the budget and only the teardown and the report
// come after it (the promise: the budget + 10 % + 1 s).

// How a message names the budget a stage ran out of: "--budget 10 s", or
// on one target of several "the host's share (6.2 s) of --budget 10 s".
std::string budget_words(const Options& options);

// Seconds left of the part's budget (negative once it is spent).
double budget_left(const Options& options, std::chrono::steady_clock::time_point start);
// What is left as a run_jobs deadline: positive, since 0 would mean none.
double as_deadline(double left);
// The stages that take their time before the runs, in their order.
enum class Stage { z3, fuzz, rapidcheck };
// What the stages after `stage` are given: the campaign's and RapidCheck's
// shares when they are asked for, and the runs' share (as much as
// RapidCheck's: a sixth of the budget, 1 to 5 s).
double later_shares_seconds(const Options& options, Stage stage);
// The time Z3's boundary inputs may take: what is left less the later
// stages' shares, 0 when nothing is.
double z3_seconds(const Options& options, std::chrono::steady_clock::time_point start);

// The sanitizer runtime's settings for a harness run: go on after a report,
// no leak checking, no stack traces from UBSan.
std::vector<std::pair<std::string, std::string>> sanitizer_env();

}  // namespace idlespec::validate
