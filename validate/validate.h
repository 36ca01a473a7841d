// `idlespec validate` and `idlespec review` (issue 6): check unmodified
// kernel-style C against the spec's clauses.
//
// A *component* (busy_delay, xcede, ...) names the kernel functions it
// models, the file of a Linux tree they live in, and the clauses checked on
// each (validate/component.cc). For each component that applies, the
// functions are extracted with what they need (extract/extract.h), compiled
// with the kernel shims (harness/shims/) and the component's harness
// (harness/harness_<component>.c) into two executables — plain -O3 for
// exhaustive scans and ASan+UBSan for everything else — and run in child
// processes with a time limit (validate/process.h). The harness reports what
// the code did; the driver judges it against the clause (for xcede,
// differentially against the reference decoder in impl/xcede.h) and shrinks
// every counterexample it reports.
//
// Verdicts per clause, the model of `idlespec verify` (verify/runner.h):
// held (its runs finished, nothing found), failed (a finding: a wrong
// answer, a crash, a hang, a WARN_ON/BUG_ON, a sanitizer report), accepted
// (failed, and the spec accepts that violation for the subject the file is
// judged against), uncovered (the spec says validate judges the clause on a
// function the run checked, and no verdict came), unknown (nothing failed,
// but the runs did not decide: budget spent, no input reached it), error (a
// run died or the harness did not compile: the clause was not judged), n/a
// (the clause is not one of the subject's, or does not apply to the code),
// absent (the function the clause needs is not in the file).
//
// Which clauses validate judges, on which function, for which subjects, and
// what each subject is accepted to break, all come from spec/*.md (the
// "validate FUNCTION" checks, "Subjects", "Accepted for", "Fixed by", "Modes
// of"): the components' checks report held or failed, and the post-pass in
// validate/spec_judgement.cc (judge_against_spec) applies the spec.
//
// Exit codes (the same for verify, check, validate and review): 0 every
// judged clause held (n/a, absent and accepted allowed); 1 a clause failed
// or is uncovered (dominates); 2 bad command line or unreadable input; 3
// nothing failed but something could not be judged (error, unknown, or no
// clause judged at all); --allow-unknown folds 3 into 0.
#pragma once

#include <chrono>
#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "extract/extract.h"
#include "sandbox/process.h"
#include "sandbox/sandbox.h"

// validate, review and matrix run every compiler and harness through the
// sandbox layer (sandbox/): its runner and its log are theirs to use by name.
namespace idlespec::validate {
using namespace idlespec::sandbox;
using namespace idlespec::extraction;  // extract/: functions out of kernel text, patches
}  // namespace idlespec::validate

namespace idlespec::validate {

struct Options {
  std::string source;                   // --source FILE.c
  std::string kernel_tree;              // --kernel-tree DIR
  std::string candidate;                // --candidate LIB.so (harness/candidate_abi.h)
  std::vector<std::string> functions;   // --function: restrict to these
  std::vector<std::string> components;  // --component: restrict to these
  double budget_seconds = 30;  // wall-clock budget per component and file (idle_core: per function)
  bool sanitizers = true;      // also the ASan + UBSan runs
  std::string cc = "cc";       // the system C compiler
  std::string harness_dir;     // where harness_*.c and shims/ live
  bool keep_temp = false;      // keep the temp dirs (their paths are reported)
  bool sampled = false;        // sampled instead of exhaustive 2^32 scans
  uint64_t seed = 1;           // generated inputs (xcede)
  long memory_mb = 2048;       // per harness process (ASan's own limits for ASan builds)
  double fuzz_seconds = -1;    // xcede, states: libFuzzer campaign (-1 auto, 0 none)
  std::string fuzz_cc = "clang";  // the compiler with libFuzzer
  // xcede, states: the input sources (--inputs): z3, fuzz, rapidcheck, generated.
  std::set<std::string> inputs = {"z3", "fuzz", "rapidcheck", "generated"};
  int property_cases = 100;           // RapidCheck cases (--cases)
  std::string subject = "reference";  // --subject: the spec subject the file is judged against
  bool subject_given = false;         // --subject was given (else the spec's Validate default)
  bool sandbox = true;                // false: --no-sandbox (validate/sandbox.h)
  bool allow_unknown = false;         // --allow-unknown: exit 3 becomes 0
  // --targets (issue 37, validate/targets.h): where each component's
  // harnesses are built and run: host, ppc64 (big-endian), ppc64le (both
  // cross-compiled as the kernel is, run under qemu-user). Empty: each
  // component's default (every installed target for the POWER-only
  // components, the host for the others).
  std::vector<std::string> targets;
  // Internal: the target of the run under way ("" the host); validate()
  // sets it for each target's run of a component.
  std::string target;
  // Internal: the component's first target's run, the one that also runs
  // what reads the text alone, the same on every target (sparse; Frama-C
  // runs on every target, its level being each target's own).
  bool first_target = true;
  // Internal: when this run of a component must end, every stage included
  // (Frama-C's too); run_on_targets sets it for each target's share of
  // --budget (validate/targets.h). time_point{}: none but budget_seconds.
  std::chrono::steady_clock::time_point deadline{};
  // Internal: the part's --budget when budget_seconds is one target's share
  // of it (0: budget_seconds is the whole part's); budget_words() names both.
  double part_budget_seconds = 0;
  // sparse on the extracted unit (validate/sparse_check.h): the program, ""
  // for none. Not installed: a note, never an error.
  std::string sparse = "sparse";
};

// The exit codes of verify, check, validate and review.
enum ExitCode : int { kExitHeld = 0, kExitFailed = 1, kExitUsage = 2, kExitUnjudged = 3 };

// How many failing inputs a verdict keeps for review's comparison.
constexpr size_t kMaxFailingInputs = 8192;

struct ClauseVerdict {
  std::string id;         // "BUSY-4"
  std::string component;  // "busy_delay"
  std::string function;   // the function it is checked on
  std::string file;       // the file it was found in
  int line = 0;           // the function's first line (0: absent)
  std::string status;     // held | failed | accepted | uncovered | unknown | error | n/a | absent
  std::string coverage;   // what the runs covered
  std::vector<std::string> counterexamples;  // shrunk, readable
  std::string replay;                        // a command that replays the first counterexample
  // failed: the inputs it fails on, each as (key, readable counterexample):
  // the key names the input and what the clause expected there, never what
  // the code answered, so that `idlespec review` can tell the inputs a patch
  // newly breaks from those it repairs when the clause fails on both sides
  // (at most kMaxFailingInputs; empty where the check does not keep them).
  std::vector<std::pair<std::string, std::string>> failing_inputs;
  std::string error;  // for error
  std::string note;   // what the check adds (coverage, differential)
  // failed: the clause whose failure this one follows from on the same
  // counterexample ("GOV-5" for a GOV-8 finding on an update that wrapped);
  // the note says how. Read that clause's failure first.
  std::string follows_from;
  // failed: the check compared its counterexample with the spec's subjects,
  // each judged by the same oracle; fails_like names the subjects that break
  // the clause there as the file does. Governor: the selection clauses on the
  // shrunk counterexample, each subject predicting and walking from the
  // file's state (GOV-8, whose judge sets the accepted truncation apart,
  // with none); teo: the selection clauses at every failing step, each
  // subject from the file's struct teo_cpu; busy_delay: BUSY-1/2/3/5 on every
  // failing status and need_resched() (a crash or sanitizer report is no
  // subject's); xcede: XCEDE-7 on the shrunk script, the same violation
  // (a hang is no subject's). The spec post-pass then names an acceptance,
  // and its fix, only for a subject in fails_like.
  bool subjects_compared = false;
  std::vector<std::string> fails_like;
  // failed: the file is text of this era of the clause's "- Era NAME:" line
  // (no subject of the spec) and fails as the spec says that era does; the
  // post-pass names the era and its fix from the spec.
  std::string era;
  // How the verdict was reached (issue 38, validate/framac.h), for a clause
  // a Frama-C unit covers: "proven" (EVA proved it on the file's text) or
  // "tested" (the tests' verdict alone); "" for a clause no unit covers.
  // proof_note says by what: "Frama-C EVA, 0 alarms over the spec's ranges",
  // "EVA could not prove it: <alarm> at <file:line>", "Frama-C is not
  // installed".
  std::string proof, proof_note;
  // EVA's first unproven property for the clause, where there is one (an
  // alarm in the code is named before one in the shims or an assertion):
  // what and where. Beside a failed clause's counterexample, never a
  // failure on its own.
  std::string alarm, alarm_file;
  int alarm_line = 0;
  // Set by the spec post-pass:
  std::string subject;    // the subject the clause was judged against
  std::string spec_note;  // accepted: the spec's reason; failed: the subjects that share it
  std::string fixed_by;   // the upstream commit that fixed this violation, where the spec has one
  // The verdict on each target the clause was judged on (validate/targets.h:
  // host, ppc64, ppc64le), when it ran on more than the host; `status` is
  // then the worst of them (a clause that fails on any target fails), and
  // where_text() says where ("failed on ppc64le, held on ppc64 (big-endian)").
  struct OnTarget {
    std::string target, status;
    std::string detail;  // its first counterexample or error, when not held
    std::string proof;   // its own proof level (Frama-C): proven, tested, "" none
  };
  std::vector<OnTarget> targets;
};

struct RunRecord {
  std::string build;  // plain | sanitizers
  std::string mode;   // scan-time, scan-policy 0, inputs, ...
  double seconds = 0;
  std::string outcome;  // finished | aborted | timed out | died (...)
};

// One component checked on one file.
struct Part {
  std::string component;
  std::string file;  // as given (or relative to the tree)
  std::vector<FoundFunction> functions;
  std::vector<std::string> prelude;
  std::vector<ClauseVerdict> clauses;
  std::vector<RunRecord> runs;
  std::vector<std::string> notes;
  std::string build_error;  // non-empty: the compiler's message
  // What the code under test tried outside its sandbox ("the code under test
  // tried to connect to 127.0.0.1:15000"): each is a finding (exit 1).
  std::vector<std::string> escapes;
  std::string temp_dir;  // kept with --keep-temp
  double seconds = 0;
};

struct Report {
  std::string subject;         // the file or the tree
  std::string judged_subject;  // the spec subject (--subject, default reference)
  std::string sandbox;         // "" sandboxed; else the --no-sandbox banner every report prints
  std::vector<Part> parts;
  std::vector<ClauseVerdict> clauses;  // all parts' clauses, in order
  std::vector<std::string> notes;
  std::string error;  // usage-level problem: exit 2
  double seconds = 0;
  int exit_code = 0;  // ExitCode
};

// The spec post-pass over a report's parts (see above), then the report's
// clause list and exit code. validate() and review() call it.
void judge_against_spec(Report& report, const Options& options);
// The exit code of a list of verdicts (see above); `usage_error` gives 2.
int exit_code_of(const std::vector<ClauseVerdict>& verdicts, bool allow_unknown);

// The exit code of validate, review and matrix alike: 128 + the signal after
// SIGINT/SIGTERM (130, 143: no verdict), else 1 when the code under test
// tried to leave its sandbox (whatever --allow-unknown says), else
// exit_code_of().
int command_exit_code(const std::vector<ClauseVerdict>& verdicts, bool allow_unknown, bool escaped);
// Whether any part of the report saw an escape attempt.
bool any_escape(const Report& report);
// After SIGINT/SIGTERM: every verdict withdrawn (unknown, "not judged: the
// run was interrupted"); a run killed by the interrupt proves nothing.
void withdraw_if_interrupted(std::vector<ClauseVerdict>& verdicts);
// Every string of the report through report_text() (impl/text.h): what the
// code under test printed or made a compiler quote reaches no terminal, log,
// JSON, Markdown, SARIF or HTML raw.
void make_report_safe(Report& report);

// Extract, build, run, judge. Never throws for problems of the code under
// test. --source, --kernel-tree and --candidate are exclusive.
Report validate(const Options& options);

// The renderers of these reports: verify/report.h.

// --- review ---------------------------------------------------------------

struct ReviewOptions {
  std::string patch;        // the patch file (mbox or plain diff)
  std::string kernel_tree;  // the tree it applies to
  Options validate;         // how each side is validated
  // The verdict cache (validate/verdict_cache.h): --cache-dir DIR (""
  // default_cache_dir()), --no-cache.
  std::string cache_dir;
  bool use_cache = true;
  // A component whose judged text the patch leaves as it was (or only moves,
  // validate/verdict_cache.h: same_but_lines()) cannot change its verdicts:
  // false (review's command line) leaves it unjudged, with a note; true
  // (--judge-unchanged, a series' patches) judges it once for both sides.
  bool judge_unchanged = true;
};

struct ClauseChange {
  std::string id, component, function, file;
  std::string before, after;                 // verdicts ("absent" when the side lacks it)
  std::vector<std::string> counterexamples;  // after's, when newly failed
  std::string where;  // after's verdict per target (validate/targets.h), "" for the host alone
  // A clause failed on both sides: the inputs that held before and fail
  // after (a change, exit 1: one counterexample shown) and those that
  // failed before and hold after, each counted (ClauseVerdict::failing_inputs).
  size_t newly_failing = 0, repaired = 0;
  size_t another_way = 0;  // failing on both sides, another way after (a change, exit 1)
  std::vector<std::string> repaired_examples = {};  // one counterexample from before
};
// "N newly failing input(s), M repaired input(s)" for a clause failed on
// both sides; "" for a verdict that changed (validate/review.cc).
std::string inputs_text(const ClauseChange& c);

struct ReviewReport {
  std::string patch, subject;
  std::vector<std::string> touched;  // "file: function" touched by the patch
  Report before, after;
  std::vector<ClauseChange> changes;     // clauses whose verdict changed
  std::vector<std::string> notes_after;  // e.g. a harness that no longer compiles after the patch
  std::vector<std::string> escapes;  // escape attempts, either side ("after the patch, F (C): ...")
  // Verdicts not rerun: "F (C) after the patch: reused from the before side"
  // or "... reused from the cache"; cache entries ignored, and why.
  std::vector<std::string> reused, cache_notes;
  std::string error;  // exit 2
  int exit_code = 0;  // 0 nothing newly failed, 1 a clause newly failed, 2 usage, 3 unjudged
};

ReviewReport review(const ReviewOptions& options);

// The command lines of validate and review, and the options matrix shares
// with them: validate/command_line.h.

}  // namespace idlespec::validate
