// The `idlespec validate` driver: which components apply, the harness build
// every component shares, the report formats and the command line.
#include "validate/validate.h"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <filesystem>
#include <iostream>
#include <map>
#include <regex>
#include <set>
#include <sstream>

#include "extract/extract.h"
#include "impl/json.h"
#include "impl/text.h"
#include "sandbox/process.h"
#include "sandbox/sandbox.h"
#include "validate/assumed_values.h"
#include "validate/component.h"
#include "validate/framac.h"
#include "validate/job_retry.h"
#include "validate/sanitizer_parity.h"
#include "validate/series.h"
#include "validate/sparse_check.h"
#include "validate/targets.h"
#include "verify/build_paths.h"
#include "verify/outputs.h"
#include "verify/sarif.h"
#include "verify/spec_index.h"

namespace idlespec::validate {

// --- the components ---------------------------------------------------------

// Which function each clause is judged on comes from the spec's "validate
// FUNCTION" checks (the first one named, for the component's table; a
// component whose check covers several functions reports each).
const verify::SpecIndex& spec() {
  static const verify::SpecIndex index = verify::builtin_spec();
  return index;
}

const std::vector<Component>& components() {
  static const std::vector<Component> all = [] {
    std::vector<Component> cs = {
        {"busy_delay",
         "arch/powerpc/kernel/rtas.c",
         {"rtas_busy_delay_time", "rtas_busy_delay"},
         {},
         &check_busy_delay},
        {"xcede", "drivers/cpuidle/cpuidle-pseries.c", {"parse_cede_parameters"}, {}, &check_xcede},
        {"states",
         "drivers/cpuidle/cpuidle-pseries.c",
         {"fixup_cede0_latency", "pseries_idle_probe"},
         {},
         &check_states},
        {"governor",
         "drivers/cpuidle/governors/menu.c",
         {"menu_select", "menu_update"},
         {},
         &check_governor},
        {"teo",
         "drivers/cpuidle/governors/teo.c",
         {"teo_select", "teo_reflect", "teo_update"},
         {},
         &check_teo},
        {"idle_core",
         "arch/powerpc/platforms/powernv/idle.c",
         {"power7_idle_insn", "power9_idle_stop"},
         {},
         &check_idle_core},
    };
    for (auto& c : cs)
      for (const auto& clause : spec().clauses)
        if (clause.component == c.name && !clause.validate_functions.empty())
          c.clauses.emplace_back(clause.id, clause.validate_functions.front());
    return cs;
  }();
  return all;
}

const Component* find_component(const std::string& name) {
  for (const auto& c : components())
    if (c.name == name) return &c;
  return nullptr;
}

std::string conflict_markers(const std::string& text) {
  std::vector<size_t> lines;
  bool opens = false, closes = false;
  size_t line = 1;
  for (size_t at = 0; at < text.size(); ++line) {
    const size_t end = std::min(text.find('\n', at), text.size());
    const std::string l = text.substr(at, end - at);
    const bool open = l.rfind("<<<<<<< ", 0) == 0 || l == "<<<<<<<";
    const bool close = l.rfind(">>>>>>> ", 0) == 0 || l == ">>>>>>>";
    if (open || close || l == "=======") lines.push_back(line);
    opens = opens || open;
    closes = closes || close;
    at = end + 1;
  }
  // "=======" alone may be a ruler in a comment: a conflict opens and closes.
  if (!opens || !closes) return "";
  std::string out = "lines ";
  for (size_t i = 0; i < lines.size() && i < 5; ++i)
    out += (i ? ", " : "") + std::to_string(lines[i]);
  if (lines.size() > 5) out += " and " + std::to_string(lines.size() - 5) + " more";
  return out;
}

void mark_not_found(ClauseVerdict& v, const std::string& text) {
  const std::string markers = conflict_markers(text);
  if (markers.empty()) {
    v.status = "absent";
    return;
  }
  v.status = "error";
  v.error = v.function + "() not found in text with version-control conflict markers (" + markers +
            "): resolve the conflict first";
}

void fill_verdicts(const Component& component, const Target& target, Part& part,
                   const std::string& status, const std::string& why) {
  if (part.functions.empty())
    part.functions = extract(target.text, target.functions, target.path).functions;
  for (const auto& [id, fn] : component.clauses) {
    if (std::find(target.functions.begin(), target.functions.end(), fn) == target.functions.end())
      continue;
    ClauseVerdict v;
    v.id = id;
    v.component = component.name;
    v.function = fn;
    v.file = target.display;
    bool found = false;
    for (const auto& f : part.functions)
      if (f.name == fn && f.found) found = true, v.status = status, v.line = f.first_line;
    if (found)
      (status == "error" ? v.error : v.note) = why;
    else
      mark_not_found(v, target.text);
    part.clauses.push_back(v);
  }
}

std::vector<std::pair<std::string, std::string>> sanitizer_env() {
  return {{"ASAN_OPTIONS",
           "halt_on_error=0:handle_segv=0:allow_user_segv_handler=1:detect_leaks=0:"
           "print_summary=1"},
          {"UBSAN_OPTIONS", "print_stacktrace=0:halt_on_error=0"}};
}

// Flags that keep a compiler from opening the files the #line markers of
// the compiled text name (to quote a line, or to count columns in it): the
// code under test names those files, so they are never a host path the
// compiler reads (issue 47). Its diagnostics keep file, line and column.
std::vector<std::string> no_source_quotes(const std::string& cc) {
  if (cc.find("clang") != std::string::npos) return {"-fno-caret-diagnostics"};
  return {"-fno-diagnostics-show-caret", "-fdiagnostics-column-unit=byte"};
}

HarnessBuild build_harness(const Options& opt, const std::string& dir,
                           const std::string& env_header, const std::string& code_in,
                           const std::string& harness_file, const std::vector<std::string>& defs,
                           bool fuzz, const std::vector<std::string>& libs) {
  HarnessBuild hb;
  const auto started = std::chrono::steady_clock::now();
  const std::string tu = dir + "/candidate.c";
  std::string code = code_in;
  auto write_tu = [&] {
    std::string text = "#include \"kernel.h\"\n";
    if (!env_header.empty()) text += "#include \"" + env_header + "\"\n";
    text += code + "#include \"" + opt.harness_dir + "/" + harness_file + "\"\n";
    return spit(tu, text);
  };
  if (!write_tu()) {
    hb.error = "cannot write " + tu;
    return hb;
  }
  auto compile = [&](const std::string& out, std::vector<std::string> flags,
                     const std::string& cc) {
    Job j;
    // The kernel's own code-generation flags: a NULL dereference stays a
    // dereference (not a trap the optimiser made up), overflow wraps.
    // A POWER target's cross compiler and flags (validate/targets.h).
    j.argv = {cc,
              "-std=gnu11",
              "-w",
              "-fno-strict-aliasing",
              "-fno-strict-overflow",
              "-fno-delete-null-pointer-checks",
              "-I" + opt.harness_dir + "/shims",
              "-I" + opt.harness_dir};
    j.argv.insert(j.argv.end(), flags.begin(), flags.end());
    const std::vector<std::string> quiet = no_source_quotes(j.argv[0]);
    j.argv.insert(j.argv.end(), quiet.begin(), quiet.end());
    const std::vector<std::string> target = target_flags(opt);
    j.argv.insert(j.argv.end(), target.begin(), target.end());
    j.argv.insert(j.argv.end(), defs.begin(), defs.end());
    j.argv.insert(j.argv.end(), {tu, "-o", out});
    j.argv.insert(j.argv.end(), libs.begin(), libs.end());
    j.out = out + ".build.out";
    j.err = out + ".build.err";
    // The build is the part's first stage: it may take the whole --budget
    // (issue 15: every stage within it), never more.
    j.timeout = opt.budget_seconds;
    j.memory_mb = 0;  // the compiler is trusted
    return j;
  };
  auto left = [&] {
    return as_deadline(
        opt.budget_seconds -
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count());
  };
  const std::string plain = dir + "/harness", san = dir + "/harness_san";
  // The hot loops at fixed alignments (functions and loops at 64 bytes):
  // busy_delay's 2^32 scans otherwise ran at whatever alignment the code
  // before them left, 10-25% apart from one harness change to the next
  // (its policy scan: 0.58 s per 2^28 statuses aligned, 0.66-0.81 s not).
  std::vector<Job> builds = {
      compile(plain, {"-O3", "-falign-functions=64", "-falign-loops=64"}, target_cc(opt))};
  if (opt.sanitizers)
    builds.push_back(
        compile(san,
                {"-O1", "-g", "-fno-omit-frame-pointer",
                 target_has_asan(opt) ? "-fsanitize=address,undefined" : "-fsanitize=undefined",
                 "-fsanitize-recover=all"},
                target_cc(opt)));
  const std::string fuzzer = dir + "/harness_fuzz";
  fuzz = fuzz && fuzz_seconds(opt) > 0 && target_has_asan(opt);
  if (fuzz) {
    builds.push_back(compile(
        fuzzer, {"-O1", "-g", "-fsanitize=fuzzer,address,undefined", "-DIDLESPEC_LIBFUZZER"},
        opt.fuzz_cc));
  }
  // One deadline for all of them: a third build that starts when one of the
  // first two ends gets what is left, not a budget of its own.
  auto built = run_jobs_retrying(builds, 2, opt.budget_seconds, /*tool_jobs=*/true);
  // A pulled-in item (not a function under test) that does not compile or
  // link with the shims is dropped, a function the code only refers to
  // keeping a stub (drop_failing_items), and the builds are made again from
  // that code, at most 8 rounds within the budget. The file label is the
  // one the #line markers carry.
  std::string label;
  if (const size_t l = code.find("#line "); l != std::string::npos) {
    const size_t q = code.find('"', l), e = q == std::string::npos ? q : code.find('"', q + 1);
    if (e != std::string::npos) label = code.substr(q + 1, e - q - 1);
  }
  // What failed for want of something in the shims: the plain build, or
  // the sanitizer build alone (its -O1 keeps references -O3 drops).
  auto failed = [&](size_t i) {
    return i < built.size() && built[i].exit_code != 0 && !built[i].exec_failed &&
           !built[i].timed_out && !built[i].skipped;
  };
  auto failed_text = [&] {
    std::string t = failed(0) ? slurp(builds[0].err) : "";
    if (opt.sanitizers && failed(1)) t += slurp(builds[1].err);
    return t;
  };
  std::string failed_output = failed_text();
  // The compiler's message on the file as written (a later round's may only
  // speak of what was dropped).
  const std::string first_plain_output = failed(0) ? slurp(builds[0].err) : "";
  // What the shims lack, from every failed round: the first names the cause;
  // a later one may only name what was dropped (left out below).
  std::string all_output = failed_output;
  std::set<std::string> dropped_names;
  for (int round = 0; round < 8 && !failed_output.empty() && !label.empty(); ++round) {
    std::vector<std::string> dropped;
    std::string pruned = drop_failing_items(code, failed_output, label, dropped);
    if (pruned == code) break;
    code = std::move(pruned);
    hb.notes.insert(hb.notes.end(), dropped.begin(), dropped.end());
    for (const auto& d : dropped) {  // "function NAME (line N) ..."
      const size_t b = d.find(' ') + 1;
      dropped_names.insert(d.substr(b, d.find(' ', b) - b));
    }
    if (!write_tu()) {
      hb.error = "cannot write " + tu;
      return hb;
    }
    built = run_jobs_retrying(builds, 2, left(), /*tool_jobs=*/true);
    failed_output = failed_text();
    all_output += failed_output;
  }
  const std::string out_of_budget = "did not finish within the budget (" + budget_words(opt) + ")";
  if (built[0].exit_code != 0) {
    const std::string shims = opt.harness_dir + "/shims";
    const std::vector<std::string> lacks =
        explain_build_error(all_output, ExplainContext{env_header, shims, code});
    std::string what;
    for (const auto& l : lacks)
      if (!dropped_names.count(l.substr(0, l.find(':')))) what += (what.empty() ? "" : "; ") + l;
    hb.notes.clear();  // nothing is judged: what was dropped on the way does not matter
    hb.error = built[0].exec_failed ? "cannot run the C compiler '" + target_cc(opt) +
                                          "': " + start_failure(built[0])
               : built[0].timed_out || built[0].skipped
                   ? "the C compiler " + out_of_budget
                   : "the harness does not compile:\n" + (what.empty() ? "" : what + "\n") +
                         tail(first_plain_output, 30);
    if (built[0].timed_out || built[0].skipped)
      hb.verdict_reason = "not judged: the harness's build ran out of the budget";
    else if (built[0].exec_failed)  // the sandbox's or the exec's own reason, in every format
      hb.verdict_reason = hb.error;
    else if (!built[0].exec_failed && !what.empty())
      hb.verdict_reason = "the harness does not compile: " + what;
    return hb;
  }
  hb.plain = plain;
  // sparse on what compiled (issue 37): validate/sparse_check.h.
  if (!opt.sparse.empty()) {
    const std::string unit_path = dir + "/sparse_unit.c";
    const std::string unit = sparse_unit(env_header, code);
    if (spit(unit_path, unit)) {
      // The harness's own directory (a --candidate's adapter is included
      // from it), never a file the code's #line markers name.
      const Job sj =
          sparse_job(opt.sparse, unit_path, opt.harness_dir + "/shims", {opt.harness_dir}, left());
      hb.sparse = sparse_result(sj, run_jobs({sj}, 1, left()).front(), unit);
    }
  }
  if (fuzz) {
    const auto& r = built.back();
    if (r.exit_code == 0)
      hb.fuzz = fuzzer;
    else
      hb.fuzz_note = r.exec_failed ? "cannot run '" + opt.fuzz_cc +
                                         "' (install clang and libclang-rt-14-dev, or pass "
                                         "--fuzz-cc)"
                     : r.skipped || r.timed_out ? "its build " + out_of_budget
                                                : tail(slurp(builds.back().err), 3);
  }
  if (opt.sanitizers) {
    // The code cannot opt out of the sanitizer runs (issue 47,
    // validate/sanitizer_parity.h): a build that fails there, or text that
    // reads differently there, is an error, not a note beside held clauses.
    const bool late = built[1].timed_out || built[1].skipped;
    const std::string why =
        late ? "the ASan+UBSan build " + out_of_budget
        : built[1].exit_code != 0
            ? "the code under test does not build with ASan+UBSan, where it builds without: " +
                  tail(slurp(builds[1].err), 3)
            : sanitizer_parity(code, builds[0].argv, builds[1].argv, dir, left());
    if (!why.empty()) {
      hb.error = why;
      hb.verdict_reason = late ? "not judged: the ASan+UBSan build ran out of the budget"
                               : "not judged: the sanitizer runs would not see the code judged";
      return hb;
    }
    hb.san = san;
  }
  return hb;
}

double fuzz_seconds(const Options& opt) {
  if (!opt.inputs.count("fuzz")) return 0;
  if (opt.fuzz_seconds >= 0) return opt.fuzz_seconds;
  return std::clamp(opt.budget_seconds / 6, 1.0, 5.0);
}

double property_seconds(const Options& opt) { return std::clamp(opt.budget_seconds / 6, 1.0, 5.0); }

double budget_left(const Options& opt, std::chrono::steady_clock::time_point start) {
  const auto now = std::chrono::steady_clock::now();
  const double left = opt.budget_seconds - std::chrono::duration<double>(now - start).count();
  if (opt.deadline == std::chrono::steady_clock::time_point{}) return left;
  return std::min(left, std::chrono::duration<double>(opt.deadline - now).count());
}

double as_deadline(double left) { return std::max(left, 1e-3); }

std::string budget_words(const Options& opt) {
  const std::string whole =
      "--budget " +
      strprintf("%g", opt.part_budget_seconds > 0 ? opt.part_budget_seconds : opt.budget_seconds) +
      " s";
  if (opt.part_budget_seconds <= 0) return whole;
  const std::string who = (opt.target.empty() ? std::string("the host") : opt.target) + "'s";
  return who + " share (" + strprintf("%.1f", opt.budget_seconds) + " s) of " + whole;
}

double later_shares_seconds(const Options& opt, Stage stage) {
  double shares = property_seconds(opt);  // the runs'
  if (stage < Stage::rapidcheck && opt.inputs.count("rapidcheck")) shares += property_seconds(opt);
  if (stage < Stage::fuzz) shares += fuzz_seconds(opt);  // 0 unless asked for
  return shares;
}

double z3_seconds(const Options& opt, std::chrono::steady_clock::time_point start) {
  return std::max(0.0, budget_left(opt, start) - later_shares_seconds(opt, Stage::z3));
}

Extraction candidate_extraction(const Options& opt, const Target& target,
                                const std::string& define) {
  Extraction ex;
  ex.code = "#define IDLESPEC_CANDIDATE_PATH \"" + target.candidate + "\"\n#define " + define +
            "\n#include \"" + opt.harness_dir + "/candidate_adapter.c\"\n";
  for (const auto& f : target.functions) {
    FoundFunction found;
    found.name = f;
    found.found = std::find(target.implemented.begin(), target.implemented.end(), f) !=
                  target.implemented.end();
    ex.functions.push_back(found);
  }
  ex.prelude.push_back("candidate library " + target.candidate);
  return ex;
}

// --- validate -----------------------------------------------------------------

namespace {

using Clock = std::chrono::steady_clock;

bool has_function(const std::string& text, const std::string& path, const std::string& name) {
  const std::vector<std::string> one = {name};
  return extract(text, one, path).functions.front().found;
}

bool judged(const std::string& status) {
  return status == "held" || status == "failed" || status == "accepted";
}

}  // namespace

int exit_code_of(const std::vector<ClauseVerdict>& verdicts, bool allow_unknown) {
  bool failed = false, unjudged = false, any_judged = false;
  for (const auto& v : verdicts) {
    failed = failed || v.status == "failed" || v.status == "uncovered";
    unjudged = unjudged || v.status == "error" || v.status == "unknown";
    any_judged = any_judged || judged(v.status);
  }
  if (failed) return kExitFailed;
  if ((unjudged || !any_judged) && !allow_unknown) return kExitUnjudged;
  return kExitHeld;
}

int command_exit_code(const std::vector<ClauseVerdict>& verdicts, bool allow_unknown,
                      bool escaped) {
  if (const int sig = interrupted()) return 128 + sig;
  if (escaped) return kExitFailed;
  return exit_code_of(verdicts, allow_unknown);
}

bool any_escape(const Report& report) {
  for (const auto& p : report.parts)
    if (!p.escapes.empty()) return true;
  return false;
}

void withdraw_if_interrupted(std::vector<ClauseVerdict>& verdicts) {
  const int sig = interrupted();
  if (!sig) return;
  for (auto& v : verdicts) {
    if (v.status == "absent" || v.status == "n/a") continue;
    v.status = "unknown";
    v.counterexamples.clear();
    v.error.clear();
    v.note = std::string("not judged: the run was interrupted (") +
             (sig == SIGINT    ? "SIGINT"
              : sig == SIGTERM ? "SIGTERM"
                               : "a signal") +
             ")";
  }
}

void make_report_safe(Report& report) {
  auto safe = [](std::string& s) { s = report_text(s); };
  auto safe_all = [&](std::vector<std::string>& v) {
    for (auto& s : v) safe(s);
  };
  for (std::string* s : {&report.subject, &report.judged_subject, &report.sandbox, &report.error})
    safe(*s);
  safe_all(report.notes);
  auto safe_clause = [&](ClauseVerdict& v) {
    for (std::string* s :
         {&v.id, &v.component, &v.function, &v.file, &v.subject, &v.status, &v.coverage, &v.error,
          &v.note, &v.spec_note, &v.fixed_by, &v.era, &v.replay})
      safe(*s);
    safe_all(v.counterexamples);
    safe_all(v.fails_like);
    for (auto& [key, text] : v.failing_inputs) safe(key), safe(text);
    for (auto& t : v.targets)
      for (std::string* s : {&t.target, &t.status, &t.detail, &t.proof}) safe(*s);
  };
  for (auto& p : report.parts) {
    for (std::string* s : {&p.component, &p.file, &p.build_error, &p.temp_dir}) safe(*s);
    for (auto& f : p.functions) safe(f.name);
    safe_all(p.prelude);
    safe_all(p.notes);
    safe_all(p.escapes);
    for (auto& r : p.runs)
      for (std::string* s : {&r.build, &r.mode, &r.outcome}) safe(*s);
    for (auto& v : p.clauses) safe_clause(v);
  }
  for (auto& v : report.clauses) safe_clause(v);
}

void judge_against_spec(Report& rep, const Options& opt) {
  const verify::SpecIndex& idx = spec();
  std::set<std::string> noted;
  std::vector<std::pair<std::string, std::vector<std::string>>> used;  // subject, components
  for (auto& part : rep.parts) {
    // The subject: --subject where the component has it, else the spec's
    // "- Validate default:" for the component, else reference.
    const std::vector<std::string> known = idx.subjects_of(part.component);
    const std::string by_default = idx.validate_default(part.component);
    std::string subject = !opt.subject_given && !by_default.empty() ? by_default : opt.subject;
    if (std::find(known.begin(), known.end(), subject) == known.end()) {
      subject = "reference";
      if (noted.insert(part.component).second)
        rep.notes.push_back(part.component + " has no subject '" + opt.subject +
                            "': judged against reference");
    }
    // What was judged, after the fall-back (one entry per component).
    auto u =
        std::find_if(used.begin(), used.end(), [&](const auto& x) { return x.first == subject; });
    if (u == used.end()) u = used.insert(used.end(), {subject, {}});
    if (std::find(u->second.begin(), u->second.end(), part.component) == u->second.end())
      u->second.push_back(part.component);
    const std::vector<std::string> modes = idx.modes_of(part.component, subject);
    // A clause the spec has validate judge on a function this part checked,
    // with no verdict: uncovered.
    for (const auto& clause : idx.clauses) {
      if (clause.component != part.component || clause.validate_functions.empty()) continue;
      if (std::any_of(part.clauses.begin(), part.clauses.end(),
                      [&](const ClauseVerdict& v) { return v.id == clause.id; }))
        continue;
      for (const auto& f : part.functions) {
        if (!f.found ||
            std::find(clause.validate_functions.begin(), clause.validate_functions.end(), f.name) ==
                clause.validate_functions.end())
          continue;
        ClauseVerdict v;
        v.id = clause.id;
        v.component = part.component;
        v.function = f.name;
        v.file = part.file;
        v.line = f.first_line;
        v.status = "uncovered";
        v.error = "the spec (" + clause.file + ":" + std::to_string(clause.line) +
                  ") has validate judge " + clause.id + " on " + f.name +
                  ", and the check gave no verdict";
        part.clauses.push_back(v);
        break;
      }
    }
    for (auto& v : part.clauses) {
      v.subject = subject;
      const verify::Clause* clause = idx.find(v.id);
      if (!clause) continue;
      if (!clause->applies_to(subject, modes)) {
        if (v.status != "absent") {
          v.status = "n/a";
          v.spec_note = "not a clause of subject " + subject + " (its subjects: ";
          for (size_t i = 0; i < clause->subjects.size(); ++i)
            v.spec_note += (i ? ", " : "") + clause->subjects[i];
          v.spec_note += ")";
        }
        continue;
      }
      const verify::Acceptance* acc = clause->acceptance_for(subject);
      for (const auto& m : modes)
        if (!acc) acc = clause->acceptance_for(m);
      // Where the check replayed the spec's subjects on its counterexample,
      // an acceptance covers the failure only if its subject breaks the
      // clause there too; otherwise the file fails another way than the
      // accepted violation, and neither the acceptance nor its fix applies.
      auto shows = [&](const std::string& s) {
        return !v.subjects_compared ||
               std::find(v.fails_like.begin(), v.fails_like.end(), s) != v.fails_like.end();
      };
      const verify::Acceptance* era = v.era.empty() ? nullptr : clause->era(v.era);
      if (v.status == "failed" && era) {
        // Text of an era the spec explains (no subject): its words and fix.
        v.spec_note = "as text of the era " + era->subject +
                      " (no subject of the spec): " + era->reason + "; fixed upstream by " +
                      era->fixed_by;
        v.fixed_by = era->fixed_by_commit;
      } else if (v.status == "failed" && acc && shows(acc->subject)) {
        v.status = "accepted";
        v.spec_note = "the spec accepts this for " + acc->subject + ": " + acc->reason;
        v.fixed_by = acc->fixed_by_commit;
        // "- Fixed by: none (why)": no commit to name; the spec's why (open
        // upstream, with its finding page; or upstream's design) is said.
        if (v.fixed_by.empty() && !acc->fixed_by.empty())
          v.spec_note += "; fixed by: " + acc->fixed_by;
      } else if (v.status == "failed") {
        // Which other subjects the spec accepts it for, and their fix.
        std::string like, unlike, fix, fix_text;
        for (const auto& a : clause->accepted) {
          if (!shows(a.subject)) {
            unlike += (unlike.empty() ? "" : ", ") + a.subject;
            continue;
          }
          if (a.subject == subject) continue;
          like += (like.empty() ? "" : ", ") + a.subject;
          if (fix.empty()) fix = a.fixed_by_commit;
          if (fix_text.empty()) fix_text = a.fixed_by;
        }
        if (!like.empty()) {
          v.spec_note = "as " + like + " (the spec accepts this violation there)";
          if (!fix.empty())
            v.spec_note += "; fixed upstream by " + fix;
          else if (!fix_text.empty())
            v.spec_note += "; fixed by: " + fix_text;
          v.fixed_by = fix;
        } else if (!unlike.empty()) {
          v.spec_note =
              "the spec accepts a " + v.id + " violation for " + unlike +
              ", but none of them breaks " + v.id +
              " as the file does on this counterexample (each compared from the file's state): the "
              "file fails another way than the accepted one";
        } else if (!clause->since_commit.empty()) {
          // The clause asks for what an upstream commit brought (spec
          // "- Since:"). Nothing here tells the file's age: the note names
          // the commit as the fix only for text older than it, and says
          // that newer text (or a change) breaks the clause on its own.
          v.spec_note = "upstream has done what the clause asks since " + clause->since +
                        ": text older than that fails as upstream then did, and that commit "
                        "is its fix; newer text fails the clause on its own";
          v.fixed_by = clause->since_commit;
        }
      } else if (v.status == "held" && acc) {
        v.spec_note =
            "the spec accepts a violation for " + acc->subject + "; this file does not show it";
      }
    }
  }
  // One subject: its name; several (the components' defaults differ):
  // "reference (busy_delay); mainline (governor)".
  if (!opt.subject_given && used.size() == 1) rep.judged_subject = used[0].first;
  if (!opt.subject_given && used.size() > 1) {
    rep.judged_subject.clear();
    for (const auto& [s, comps] : used) {
      std::string list;
      for (const auto& c : comps) list += (list.empty() ? "" : ", ") + c;
      rep.judged_subject += (rep.judged_subject.empty() ? "" : "; ") + s + " (" + list + ")";
    }
  }
  for (auto& p : rep.parts) withdraw_if_interrupted(p.clauses);
  for (auto& p : rep.parts) settle_target_statuses(p.clauses);
  rep.clauses.clear();
  for (const auto& p : rep.parts)
    rep.clauses.insert(rep.clauses.end(), p.clauses.begin(), p.clauses.end());
  // Frama-C missing: the set-up line once per report (validate/framac.h).
  if (std::any_of(
          rep.clauses.begin(), rep.clauses.end(),
          [](const ClauseVerdict& v) { return v.proof_note == "Frama-C is not installed"; }) &&
      std::find(rep.notes.begin(), rep.notes.end(), framac_setup_line()) == rep.notes.end())
    rep.notes.push_back(framac_setup_line());
  // An attempt of the code under test to leave its sandbox is a finding.
  rep.exit_code = !rep.error.empty()
                      ? (rep.exit_code == kExitFailed ? kExitFailed : kExitUsage)
                      : command_exit_code(rep.clauses, opt.allow_unknown, any_escape(rep));
  make_report_safe(rep);
}

namespace {

// Load the candidate library in a child (it is not trusted) and list what it
// implements. Returns "" or the reason it cannot be used.
std::string probe_candidate(const Options& opt, const std::string& lib,
                            std::vector<std::string>& implemented, std::string& name,
                            bool& escaped) {
  if (lib.find_first_of("\"\\\n") != std::string::npos)
    return "the library path must not contain quotes, backslashes or newlines";
  const std::string dir = make_temp_dir("candidate");
  if (dir.empty()) return "cannot create a temporary directory";
  const std::string tu = dir + "/probe.c";
  spit(tu, "#include \"kernel.h\"\n#include \"xcede_env.h\"\n#define IDLESPEC_CANDIDATE_PATH \"" +
               lib + "\"\n#include \"" + opt.harness_dir +
               "/candidate_adapter.c\"\nint main(void) { return 0; }\n");
  Job build;
  build.argv = {
      opt.cc, "-std=gnu11",   "-w",  "-I" + opt.harness_dir + "/shims", "-I" + opt.harness_dir, tu,
      "-o",   dir + "/probe", "-ldl"};
  build.out = dir + "/build.out", build.err = dir + "/build.err";
  build.timeout = 60, build.memory_mb = 0;
  Job run;
  run.argv = {dir + "/probe"};
  run.env = {{"IDLESPEC_CANDIDATE_PROBE", "1"}};
  run.out = dir + "/probe.out", run.err = dir + "/probe.err";
  // Loading runs the library's constructors: within --budget, as any run.
  run.timeout = std::min(30.0, opt.budget_seconds);
  std::string why;
  if (run_jobs({build}, 1).front().exit_code != 0) {
    why = "the candidate adapter does not compile:\n" + tail(slurp(build.err), 10);
  } else {
    const JobResult r = run_jobs({run}, 1).front();
    const std::string out = slurp(run.out);
    const size_t err = out.find("CANDIDATE-ERROR ");
    const size_t ok = out.find("CANDIDATE abi=");
    escaped = !r.escapes.empty();
    if (escaped) {
      // Its initialisers tried to escape: the finding, not a crash.
      why = "loading the library: escape: " + r.escapes.front();
    } else if (err != std::string::npos) {
      why = out.substr(err + 16, out.find('\n', err) - err - 16);
    } else if (ok == std::string::npos || r.exit_code != 0) {
      why = "loading the library " + outcome(r, run.timeout) +
            (r.signal ? " (its initialisers crashed)" : "");
    } else {
      // "CANDIDATE abi=1 functions=a,b, name=NAME": the functions (names
      // without spaces) first, the adapter's escaped name last.
      const std::string line = out.substr(ok, out.find('\n', ok) - ok);
      const size_t f = line.find(" functions="), n = line.find(" name=", f);
      if (f == std::string::npos || n == std::string::npos) {
        remove_tree(dir);
        return "the library's probe printed a malformed line: " + line.substr(0, 200);
      }
      name = line.substr(n + 6);
      std::istringstream fs(line.substr(f + 11, n - f - 11));
      for (std::string fn; std::getline(fs, fn, ',');)
        if (!fn.empty()) implemented.push_back(fn);
    }
  }
  remove_tree(dir);
  return why;
}

// One component on one target; what the sandbox saw the code under test
// attempt is the part's.
Part run_component(const Options& opt, const Component& c, Target t) {
  Part part;
  part.component = c.name;
  part.file = t.display;
  if (interrupted()) {
    fill_verdicts(c, t, part, "unknown", "not run: the run was interrupted");
    return part;
  }
  if (!c.check) {
    fill_verdicts(c, t, part, "unknown",
                  "validate does not check " + c.name + " clauses yet (the function was found)");
    return part;
  }
  // A file whose braces do not balance: one error naming the file and the
  // line, not pages of compiler errors about a harness that swallowed the
  // rest of the file into one function.
  if (t.candidate.empty())
    if (const std::string why = unbalanced_brace(t.text); !why.empty()) {
      part.build_error = t.display + ": " + why;
      fill_verdicts(c, t, part, "error", "not judged: " + part.build_error);
      return part;
    }
  // No run-wide deadline here: a component's own steps (Z3's inputs, the
  // campaign, RapidCheck, then the harness runs) are each bounded by their
  // share of --budget, and a deadline over the whole would skip the last
  // ones (a probe never compiled) instead of judging them.
  SandboxLog log;
  {
    SandboxLog::Scope scope(log);
    part = c.check(opt, t);
  }
  // Frama-C's EVA on the same text (validate/framac.h): how each covered
  // verdict was reached; it changes no status. On every target: a POWER
  // target's level is its own (framac_pass() says why it is not proven).
  if (!interrupted()) {
    SandboxLog::Scope scope(log);
    framac_pass(opt, c, t, part);
  }
  for (const auto& escape : log.findings()) part.escapes.push_back(escape);
  for (const auto& n : log.notes())
    if (std::find(part.notes.begin(), part.notes.end(), n) == part.notes.end())
      part.notes.push_back(n);
  if (interrupted()) part.notes.push_back("interrupted: the verdicts are what was judged so far");
  return part;
}

// One component on one file, on each of its targets (validate/targets.h):
// a run per target, merged into one part whose verdicts say where. A target
// that is not installed is named once in the report's notes, with the
// set-up line.
Part run_on_targets(const Options& opt, const Component& c, const Target& t, Report& rep) {
  std::vector<std::string> missing;
  std::string host_only;
  const std::vector<std::string> targets = targets_for(opt, c.name, missing, host_only);
  // Every missing target in one note of the report, with the set-up line.
  const std::string head =
      std::string("targets not run, their tools not installed (install with: ") + kTargetsSetup +
      "): ";
  auto said = std::find_if(rep.notes.begin(), rep.notes.end(),
                           [&](const std::string& n) { return n.rfind(head, 0) == 0; });
  std::string list = said == rep.notes.end() ? "" : said->substr(head.size());
  for (const auto& m : missing)
    if (list.find(m) == std::string::npos) list += (list.empty() ? "" : "; ") + m;
  if (!list.empty()) {
    if (said == rep.notes.end())
      rep.notes.push_back(head + list);
    else
      *said = head + list;
  }
  if (targets.empty()) {
    Part part;
    part.component = c.name;
    part.file = t.display;
    fill_verdicts(c, t, part, "unknown",
                  "not judged: none of the targets asked for (--targets) is installed");
    return part;
  }
  std::vector<std::pair<std::string, Part>> parts;
  std::vector<std::string> reduced;
  // --budget is the part's, every target's together (issue 53): the
  // targets run one after another, each within its share of what the ones
  // before it left, the host first (target_run_order(), validate/targets.h).
  const std::vector<std::string> order = target_run_order(targets);
  const auto start = Clock::now();
  for (size_t i = 0; i < order.size(); ++i) {
    Options o = options_for_target(opt, c.name, order[i], reduced);
    const double left =
        opt.budget_seconds - std::chrono::duration<double>(Clock::now() - start).count();
    o.budget_seconds = target_budget_seconds(order, i, left);
    if (order.size() > 1) o.part_budget_seconds = opt.budget_seconds;
    // A hard deadline only where targets share the budget: on one target
    // each stage's share already sums within it, and a deadline over the
    // whole would leave a later stage (states' probe, after a fix-up input
    // that hangs) unjudged instead of judged within its share.
    if (order.size() > 1)
      o.deadline = Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                      std::chrono::duration<double>(o.budget_seconds));
    // sparse reads the text, the same on every target: once, with the
    // first of `targets` (the host's when it runs). Frama-C runs on each
    // target, its level that target's own (validate/framac.h).
    if (order[i] != targets.front()) o.sparse.clear(), o.first_target = false;
    parts.emplace_back(order[i], run_component(o, c, t));
    if (interrupted()) break;
  }
  // Merged in `targets` order (the host's first), whatever the run order.
  std::stable_sort(parts.begin(), parts.end(), [&](const auto& a, const auto& b) {
    return std::find(targets.begin(), targets.end(), a.first) <
           std::find(targets.begin(), targets.end(), b.first);
  });
  Part part = merge_target_parts(std::move(parts));
  note_assumed_values(opt, t, part);  // validate/assumed_values.h
  for (const auto& n : reduced)
    if (std::find(part.notes.begin(), part.notes.end(), n) == part.notes.end())
      part.notes.push_back(n);
  if (!host_only.empty()) part.notes.push_back(host_only);
  return part;
}

// A file of the input within the input limit, or why not.
constexpr size_t kMaxInputBytes = 8u << 20;

}  // namespace

Report validate(const Options& opt) {
  const auto t0 = Clock::now();
  Report rep;
  rep.judged_subject = opt.subject;
  set_memory_limit(opt.memory_mb);
  if (!opt.sandbox) sandbox_options().enabled = false;
  if (sandbox_options().enabled)
    if (const std::string why = sandbox_unavailable(); !why.empty()) {
      rep.error = "cannot sandbox the code under test: " + why +
                  " (--no-sandbox runs it with your rights, and every report says so)";
      rep.exit_code = kExitUsage;
      return rep;
    }
  rep.sandbox = sandbox_banner();
  for (const auto& name : opt.components)
    if (!find_component(name)) {
      rep.error = "unknown component '" + name +
                  "' (components: busy_delay, xcede, states, "
                  "governor, teo, idle_core)";
      rep.exit_code = 2;
      return rep;
    }
  if (!opt.source.empty() + !opt.kernel_tree.empty() + !opt.candidate.empty() != 1) {
    rep.error = "give exactly one of --source FILE.c, --kernel-tree DIR and --candidate LIB.so";
    rep.exit_code = 2;
    return rep;
  }
  auto wanted_component = [&](const Component& c) {
    return opt.components.empty() ||
           std::find(opt.components.begin(), opt.components.end(), c.name) != opt.components.end();
  };
  // The component's functions to check: --function restricts them.
  auto functions_of = [&](const Component& c) {
    if (opt.functions.empty()) return c.functions;
    std::vector<std::string> fs;
    for (const auto& f : c.functions)
      if (std::find(opt.functions.begin(), opt.functions.end(), f) != opt.functions.end())
        fs.push_back(f);
    return fs;
  };
  std::string modelled_list;
  for (const auto& c : components())
    for (const auto& f : c.functions) modelled_list += (modelled_list.empty() ? "" : ", ") + f;
  for (const auto& f : opt.functions) {
    bool modelled = false;
    for (const auto& c : components())
      modelled = modelled || std::count(c.functions.begin(), c.functions.end(), f) > 0;
    if (!modelled) {
      rep.error = "--function " + f + ": no component models it (functions: " + modelled_list + ")";
      rep.exit_code = kExitUsage;
      return rep;
    }
  }
  {
    bool known = false;
    std::string subjects;
    for (const auto& c : components())
      for (const auto& s : spec().subjects_of(c.name)) {
        known = known || s == opt.subject;
        if (subjects.find(s) == std::string::npos) subjects += (subjects.empty() ? "" : ", ") + s;
      }
    if (!known) {
      rep.error = "--subject " + opt.subject +
                  ": no component's spec names it (subjects: " + subjects + ")";
      rep.exit_code = kExitUsage;
      return rep;
    }
  }

  if (!opt.candidate.empty()) {
    rep.subject = opt.candidate;
    std::error_code ec;
    if (!std::filesystem::is_regular_file(opt.candidate, ec) ||
        access(opt.candidate.c_str(), R_OK) != 0) {
      rep.error = "cannot read the library";
      rep.exit_code = 2;
      return rep;
    }
    const std::string lib = std::filesystem::absolute(opt.candidate, ec).string();
    // The library is the driver's own choice, named on its command line: the
    // jobs' view holds it (sandbox.h), never a path the code's text names.
    sandbox::sandbox_options().expose.push_back(lib);
    std::vector<std::string> implemented;
    std::string name;
    bool escaped = false;
    if (const std::string why = probe_candidate(opt, lib, implemented, name, escaped);
        !why.empty()) {
      rep.error = why;
      rep.exit_code = escaped ? 1 : 2;
      return rep;
    }
    Options plain = opt;
    plain.sanitizers = false;  // built elsewhere: its sanitizer runtime would not match
    for (const auto& c : components()) {
      if (!c.check || !wanted_component(c) || functions_of(c).empty()) continue;
      const std::vector<std::string> fs = functions_of(c);
      if (std::none_of(fs.begin(), fs.end(),
                       [&](const std::string& f) {
                         return std::count(implemented.begin(), implemented.end(), f) > 0;
                       }) &&
          opt.components.empty())
        continue;
      Target t{lib, opt.candidate, "", fs, lib, implemented};
      Part part = c.check(plain, t);
      part.notes.push_back("candidate '" + name +
                           "' (built elsewhere) ran without sanitizers: out-of-bounds reads show "
                           "only when they crash");
      rep.parts.push_back(part);
    }
    if (rep.parts.empty())
      rep.notes.push_back("the candidate implements none of the checked functions");
  } else if (!opt.source.empty()) {
    rep.subject = opt.source;
    std::string text;
    if (const std::string why = read_input_file(opt.source, kMaxInputBytes, text); !why.empty()) {
      rep.error = "cannot read the file: " + why;
      rep.exit_code = kExitUsage;
      return rep;
    }
    // Which components: those asked for; else those whose functions (or the
    // --function names) the file has; else every checked one (all absent).
    std::vector<const Component*> chosen;
    for (const auto& c : components()) {
      if (!wanted_component(c) || functions_of(c).empty()) continue;
      if (!opt.components.empty() || !opt.functions.empty()) {
        chosen.push_back(&c);
        continue;
      }
      if (!c.check) continue;
      for (const auto& f : c.functions)
        if (has_function(text, opt.source, f)) {
          chosen.push_back(&c);
          break;
        }
    }
    if (chosen.empty() && opt.components.empty() && opt.functions.empty())
      for (const auto& c : components())
        if (c.check) chosen.push_back(&c);
    for (const Component* c : chosen)
      rep.parts.push_back(
          run_on_targets(opt, *c, {opt.source, opt.source, text, functions_of(*c), {}, {}}, rep));
  } else {
    rep.subject = opt.kernel_tree;
    std::error_code ec;
    if (!std::filesystem::is_directory(opt.kernel_tree, ec)) {
      rep.error = "no such directory: " + opt.kernel_tree;
      rep.exit_code = 2;
      return rep;
    }
    std::vector<std::string> unchecked;
    for (const auto& c : components()) {
      if (!wanted_component(c) || functions_of(c).empty()) continue;
      if (opt.components.empty() && !c.check) {
        unchecked.push_back(c.name);
        continue;
      }
      const std::string path = opt.kernel_tree + "/" + c.tree_path;
      Target t{path, c.tree_path, "", functions_of(c), {}, {}};
      if (access(path.c_str(), R_OK) != 0) {
        Part part;
        part.component = c.name;
        part.file = c.tree_path;
        for (const auto& f : t.functions) part.functions.push_back({f, false, 0, 0, ""});
        part.notes.push_back(c.tree_path + " is not in the tree: its functions are absent");
        fill_verdicts(c, t, part, "absent", "");
        rep.parts.push_back(part);
        continue;
      }
      std::string why = inside_tree(opt.kernel_tree, c.tree_path);
      if (why.empty()) why = read_input_file(path, kMaxInputBytes, t.text);
      if (!why.empty()) {
        Part part;
        part.component = c.name;
        part.file = c.tree_path;
        for (const auto& f : t.functions) part.functions.push_back({f, true, 0, 0, ""});
        fill_verdicts(c, t, part, "error", "cannot read " + c.tree_path + ": " + why);
        rep.parts.push_back(part);
        continue;
      }
      rep.parts.push_back(run_on_targets(opt, c, t, rep));
    }
    if (!unchecked.empty()) {
      std::string list;
      for (const auto& u : unchecked) list += (list.empty() ? "" : ", ") + u;
      rep.notes.push_back("not checked by validate yet: " + list +
                          " (--component NAME lists their functions as unknown)");
    }
  }
  judge_against_spec(rep, opt);
  rep.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
  return rep;
}

// --- reports --------------------------------------------------------------------

namespace {

// A JSON string: the project's escaping (impl/json.h), quoted.
std::string js(const std::string& s) {
  std::string quoted = "\"";
  quoted += json_escape(s);
  return quoted += '"';
}

std::string js_list(const std::vector<std::string>& v) {
  std::string o = "[";
  for (size_t i = 0; i < v.size(); ++i) {
    if (i) o += ',';
    o += js(v[i]);
  }
  return o + "]";
}

std::string xml(const std::string& s) {
  std::string o;
  for (const unsigned char c : s) {
    switch (c) {
      case '&':
        o += "&amp;";
        break;
      case '<':
        o += "&lt;";
        break;
      case '>':
        o += "&gt;";
        break;
      case '"':
        o += "&quot;";
        break;
      default:
        if (c < 0x20 && c != '\n' && c != '\t')
          o += ' ';
        else
          o += static_cast<char>(c);
    }
  }
  return o;
}

std::string fixed(double x, int digits) {
  char b[32];
  std::snprintf(b, sizeof(b), "%.*f", digits, x);
  return b;
}

// How a verdict was reached, after its status (issue 38): " (proven: ...)",
// " (tested; ...)" for a held clause a Frama-C unit covers; "" otherwise.
std::string proof_level(const ClauseVerdict& v) {
  if (v.status != "held" || v.proof.empty()) return "";
  return " (" + v.proof + (v.proof == "proven" ? ": " : "; ") + v.proof_note + ")";
}

// EVA's alarm beside a failed clause's counterexample: "EVA: <alarm> at f:l".
std::string alarm_beside(const ClauseVerdict& v) {
  if (v.alarm.empty() || v.status == "held") return "";
  return "EVA: " + v.alarm + " at " + v.alarm_file + ":" + std::to_string(v.alarm_line);
}

std::string clause_json(const ClauseVerdict& v) {
  return "{\"id\":" + js(v.id) + ",\"component\":" + js(v.component) +
         ",\"function\":" + js(v.function) + ",\"file\":" + js(v.file) +
         ",\"line\":" + std::to_string(v.line) + ",\"subject\":" + js(v.subject) +
         ",\"status\":" + js(v.status) + ",\"coverage\":" + js(v.coverage) +
         ",\"error\":" + js(v.error) + ",\"note\":" + js(v.note) +
         ",\"follows_from\":" + js(v.follows_from) + ",\"spec_note\":" + js(v.spec_note) +
         ",\"fixed_by\":" + js(v.fixed_by) + ",\"era\":" + js(v.era) +
         ",\"replay\":" + js(v.replay) + ",\"counterexamples\":" + js_list(v.counterexamples) +
         ",\"proof\":" + js(v.proof) + ",\"proof_note\":" + js(v.proof_note) +
         ",\"alarm\":" + js(v.alarm) + ",\"alarm_file\":" + js(v.alarm_file) +
         ",\"alarm_line\":" + std::to_string(v.alarm_line) +
         (v.subjects_compared ? ",\"fails_like\":" + js_list(v.fails_like) : std::string()) +
         ",\"targets\":" + targets_json(v) + ",\"where\":" + js(where_text(v)) + "}";
}

}  // namespace

std::string markdown_cell(const std::string& text) {
  std::string out;
  for (const char c : text) {
    if (c == '|' || c == '`' || c == '[' || c == ']' || c == '\\')
      out += std::string("\\") + c;  // no table cell, code span or link of the text's own
    else if (c == '\n')
      out += "<br>";
    else if (c == '<')
      out += "&lt;";
    else
      out += c;
  }
  return out;
}

std::string verdict_counts(const std::vector<ClauseVerdict>& clauses) {
  std::map<std::string, size_t> counts;
  for (const auto& v : clauses) ++counts[v.status];
  std::string o =
      std::to_string(counts["held"]) + " held, " + std::to_string(counts["failed"]) + " failed";
  for (const char* st : {"accepted", "uncovered", "unknown", "error", "n/a", "absent"})
    if (counts[st]) o += ", " + std::to_string(counts[st]) + " " + st;
  return o;
}

std::string render_markdown(const Report& rep) {
  std::ostringstream o;
  o << "### idlespec validate: " << markdown_cell(rep.subject) << "\n\n";
  o << verdict_counts(rep.clauses) << "; subject `" << rep.judged_subject << "`, exit "
    << rep.exit_code << "\n\n";
  if (!rep.sandbox.empty()) o << "> " << markdown_cell(rep.sandbox) << "\n\n";
  o << "| clause | function | file | verdict | why |\n|---|---|---|---|---|\n";
  for (const auto& v : rep.clauses) {
    const bool bad = v.status == "failed" || v.status == "uncovered";
    std::string why = v.spec_note;
    if (v.status == "accepted" && !v.fixed_by.empty())
      why += " (fixed upstream by " + v.fixed_by + ")";
    if (!v.counterexamples.empty()) why += (why.empty() ? "" : "; ") + v.counterexamples.front();
    if (const std::string a = alarm_beside(v); !a.empty()) why += (why.empty() ? "" : "; ") + a;
    if (!v.error.empty()) why += (why.empty() ? "" : "; ") + v.error;
    o << "| " << v.id << " | `" << v.function << "` | " << markdown_cell(v.file)
      << (v.line > 0 ? ":" + std::to_string(v.line) : "") << " | "
      << markdown_cell(bad ? "**" + v.status + "**" : v.status + proof_level(v))
      << (where_text(v).empty() ? "" : " (" + markdown_cell(where_text(v)) + ")") << " | "
      << markdown_cell(why) << " |\n";
  }
  for (const auto& p : rep.parts)
    for (const auto& e : p.escapes) o << "\n- escape: " << markdown_cell(e) << " (a finding)";
  if (!rep.error.empty()) o << "\n- error: " << markdown_cell(rep.error);
  o << "\n";
  return o.str();
}

std::string render_text(const Report& rep) {
  std::ostringstream o;
  if (!rep.sandbox.empty()) o << rep.sandbox << "\n";
  for (const auto& p : rep.parts) {
    o << "idlespec validate: " << p.file << " (" << p.component << ")\n";
    for (const auto& f : p.functions) {
      if (f.found && f.first_line == 0)
        o << "  " << f.name << "  in the candidate library\n";
      else if (f.found)
        o << "  " << f.name << "  lines " << f.first_line << "-" << f.last_line << "\n";
      else
        o << "  " << f.name << "  not in the file\n";
    }
    if (!p.prelude.empty()) {
      o << "  with:";
      for (const auto& x : p.prelude) o << " " << x << ";";
      o << "\n";
    }
    if (!p.build_error.empty()) o << "  error: " << p.build_error << "\n";
    for (const auto& r : p.runs) {
      char line[120];
      std::snprintf(line, sizeof(line), "  run %-10s %-22s %7.2fs  ", r.build.c_str(),
                    r.mode.c_str(), r.seconds);
      o << line << r.outcome << "\n";
    }
    for (const auto& v : p.clauses) {
      o << v.id << " [" << v.function << "] " << v.status << proof_level(v);
      if (const std::string where = where_text(v); !where.empty()) o << " (" << where << ")";
      if (v.status == "failed" && !v.spec_note.empty()) o << ": " << v.spec_note;
      if (!v.coverage.empty()) o << "  (" << v.coverage << ")";
      o << "\n";
      if (v.status != "failed" && !v.spec_note.empty()) {
        o << "    spec: " << v.spec_note;
        if (v.status == "accepted" && !v.fixed_by.empty())
          o << " (fixed upstream by " << v.fixed_by << ")";
        o << "\n";
      }
      for (const auto& c : v.counterexamples) o << "    " << c << "\n";
      if (const std::string a = alarm_beside(v); !a.empty()) o << "    " << a << "\n";
      if (!v.replay.empty()) o << "    replay (--keep-temp): " << v.replay << "\n";
      if (!v.error.empty()) o << "    " << v.error << "\n";
      if (!v.note.empty()) o << "    note: " << v.note << "\n";
    }
    for (const auto& e : p.escapes) o << "escape: " << e << " (a finding: exit 1)\n";
    for (const auto& n : p.notes) o << "note: " << n << "\n";
    if (!p.temp_dir.empty()) o << "note: harness files kept in " << p.temp_dir << "\n";
  }
  for (const auto& n : rep.notes) o << "note: " << n << "\n";
  if (!rep.error.empty()) o << "error: " << rep.error << "\n";
  o << verdict_counts(rep.clauses);
  char secs[32];
  std::snprintf(secs, sizeof(secs), "; %.1fs", rep.seconds);
  o << secs << ", subject " << rep.judged_subject << ", exit " << rep.exit_code << "\n";
  if (!rep.sandbox.empty()) o << rep.sandbox << "\n";
  return o.str();
}

std::string render_json(const Report& rep) {
  std::ostringstream o;
  o << "{\"subject\":" << js(rep.subject) << ",\"judged_subject\":" << js(rep.judged_subject)
    << ",\"sandbox\":" << js(rep.sandbox.empty() ? "on" : rep.sandbox) << ",\"parts\":[";
  for (size_t i = 0; i < rep.parts.size(); ++i) {
    const auto& p = rep.parts[i];
    o << (i ? "," : "") << "{\"component\":" << js(p.component) << ",\"file\":" << js(p.file)
      << ",\"functions\":[";
    for (size_t k = 0; k < p.functions.size(); ++k) {
      const auto& f = p.functions[k];
      o << (k ? "," : "") << "{\"name\":" << js(f.name)
        << ",\"found\":" << (f.found ? "true" : "false") << ",\"first_line\":" << f.first_line
        << ",\"last_line\":" << f.last_line << "}";
    }
    o << "],\"prelude\":" << js_list(p.prelude) << ",\"build_error\":" << js(p.build_error)
      << ",\"runs\":[";
    for (size_t k = 0; k < p.runs.size(); ++k) {
      const auto& r = p.runs[k];
      o << (k ? "," : "") << "{\"build\":" << js(r.build) << ",\"mode\":" << js(r.mode)
        << ",\"seconds\":" << fixed(r.seconds, 3) << ",\"outcome\":" << js(r.outcome) << "}";
    }
    o << "],\"escapes\":" << js_list(p.escapes) << ",\"notes\":" << js_list(p.notes)
      << ",\"seconds\":" << fixed(p.seconds, 3) << "}";
  }
  o << "],\"clauses\":[";
  for (size_t i = 0; i < rep.clauses.size(); ++i)
    o << (i ? "," : "") << clause_json(rep.clauses[i]);
  o << "],\"notes\":" << js_list(rep.notes) << ",\"error\":" << js(rep.error)
    << ",\"seconds\":" << fixed(rep.seconds, 3) << ",\"exit_code\":" << rep.exit_code << "}\n";
  return o.str();
}

std::string render_junit(const Report& rep) {
  std::ostringstream o;
  o << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"idlespec validate\">\n";
  for (const auto& p : rep.parts) {
    size_t failures = 0, errors = 0, skipped = 0;
    for (const auto& v : p.clauses) {
      failures += v.status == "failed" || v.status == "uncovered";
      errors += v.status == "error";
      skipped += v.status == "absent" || v.status == "unknown" || v.status == "n/a";
    }
    o << "  <testsuite name=\"" << xml(p.component + " " + p.file) << "\" tests=\""
      << p.clauses.size() << "\" failures=\"" << failures << "\" errors=\"" << errors
      << "\" skipped=\"" << skipped << "\" time=\"" << fixed(p.seconds, 3) << "\">\n";
    for (const auto& v : p.clauses) {
      o << "    <testcase classname=\"idlespec." << xml(v.component) << "\" name=\""
        << xml(v.id + " " + v.function) << "\" file=\"" << xml(v.file) << "\" line=\"" << v.line
        << "\">";
      std::string body;
      for (const auto& c : v.counterexamples) body += c + "\n";
      if (!v.replay.empty()) body += "replay (--keep-temp): " + v.replay + "\n";
      if (v.status == "failed" || v.status == "uncovered")
        o << "<failure message=\""
          << xml(v.id + " " + v.status + (where_text(v).empty() ? "" : " (" + where_text(v) + ")") +
                 (v.spec_note.empty() ? "" : ": " + v.spec_note))
          << "\">" << xml(body + v.error) << "</failure>";
      else if (v.status == "error")
        o << "<error message=\"" << xml(v.error) << "\"/>";
      else if (v.status == "accepted")
        o << "<system-out>" << xml(v.spec_note + "\n" + body) << "</system-out>";
      else if (v.status != "held")
        o << "<skipped message=\"" << xml(v.status + (v.note.empty() ? "" : ": " + v.note))
          << "\"/>";
      o << "</testcase>\n";
    }
    o << "  </testsuite>\n";
  }
  o << "</testsuites>\n";
  return o.str();
}

constexpr const char* kSandboxRule = "SANDBOX-ESCAPE";

std::string render_sarif(const Report& rep) {
  // The rules: the spec's clauses (a clause the spec lacks, which the
  // post-pass reports as an error, gets a rule of its ID alone).
  std::vector<const verify::Clause*> rules;
  std::deque<verify::Clause> unknown_clauses;
  for (const auto& v : rep.clauses) {
    if (std::any_of(rules.begin(), rules.end(),
                    [&](const verify::Clause* c) { return c->id == v.id; }))
      continue;
    const verify::Clause* c = spec().find(v.id);
    if (!c) {
      verify::Clause& stub = unknown_clauses.emplace_back();
      stub.id = stub.obligation = v.id;
      stub.component = v.component;
      stub.file = "spec/" + v.component + ".md";
      stub.line = 1;
      c = &stub;
    }
    rules.push_back(c);
  }
  std::vector<verify::SarifResult> results;
  for (const auto& v : rep.clauses) {
    if (v.status == "held" || v.status == "n/a" || v.status == "absent") continue;
    verify::SarifResult r;
    r.rule = v.id;
    r.status = v.status;
    r.location = {v.file, std::max(1, v.line)};
    r.message = v.id + " " + v.status + " in " + v.function + "()";
    if (const std::string where = where_text(v); !where.empty()) r.message += " (" + where + ")";
    if (!v.spec_note.empty()) r.message += " (" + v.spec_note + ")";
    if (!v.counterexamples.empty()) r.message += ": " + v.counterexamples.front();
    if (!v.error.empty()) r.message += ": " + v.error;
    if (const std::string a = alarm_beside(v); !a.empty()) r.message += "; " + a;
    // The finding's identity: the clause, where it is judged and how it
    // ended; not the counterexample (it changes with the seed) or the path.
    r.fingerprint_key =
        v.id + "|" + v.component + "|" + v.function + "|" + v.subject + "|" + v.status;
    for (size_t k = 0; k < v.counterexamples.size(); ++k) {
      std::string title = "counterexample " + std::to_string(k + 1) + " of " + v.function + "()";
      if (k == 0 && !v.replay.empty()) title += "; replay: " + v.replay;
      r.flows.push_back({title, verify::sarif_detail::split(v.counterexamples[k], '\n')});
    }
    if (v.status == "accepted") r.suppression = v.spec_note;
    r.properties = {{"subject", v.subject}, {"function", v.function}};
    for (const auto& t : v.targets) r.properties.push_back({"target:" + t.target, t.status});
    if (!v.proof.empty()) r.properties.push_back({"proof", v.proof});
    // EVA's alarm: a location of the result, the code flow's last step.
    if (!v.alarm.empty() && v.alarm_line > 0) {
      r.related.push_back({v.alarm_file, v.alarm_line, "EVA: " + v.alarm});
    }
    if (!v.fixed_by.empty()) r.properties.push_back({"fixedBy", v.fixed_by});
    if (!v.replay.empty()) r.replay.push_back(v.replay);
    results.push_back(std::move(r));
  }
  // An escape attempt of the code under test: a result of its own, an error,
  // under a rule that is the sandbox's (docs/security.md), not a clause's.
  for (const auto& p : rep.parts) {
    if (p.escapes.empty()) continue;
    if (std::none_of(rules.begin(), rules.end(),
                     [](const verify::Clause* c) { return c->id == kSandboxRule; })) {
      verify::Clause& rule = unknown_clauses.emplace_back();
      rule.id = kSandboxRule;
      rule.obligation =
          "The code under test stays inside its sandbox: no file, process, network or system "
          "call outside the view and the policy of docs/security.md.";
      rule.component = p.component;
      rule.file = "docs/security.md";
      rule.line = 1;
      rules.push_back(&rule);
    }
    for (const auto& e : p.escapes) {
      verify::SarifResult r;
      r.rule = kSandboxRule;
      r.status = "failed";
      r.location = {p.file, 1};
      r.message = e + " (" + p.component + ")";
      r.fingerprint_key = std::string(kSandboxRule) + "|" + p.component + "|" + e;
      results.push_back(std::move(r));
    }
  }
  std::vector<std::string> notes;
  if (!rep.error.empty()) notes.push_back(rep.error);
  return verify::write_sarif(rules, results,
                             verify::sarif_options_for(idlespec::build::source_dir()), notes);
}

// --- the command line --------------------------------------------------------------

namespace {

constexpr const char* kValidateUsage =
    R"(usage: idlespec validate (--source FILE.c | --kernel-tree DIR | --candidate LIB.so) [options]

Checks unmodified kernel-style C against the spec's clauses: the modelled
functions are extracted with what they need, compiled with the kernel shims
into a plain and an ASan+UBSan harness, and run in child processes.

  --source FILE.c        one file (a patched copy, or a function in kernel style)
  --kernel-tree DIR      a Linux source tree: each component's file in it
  --candidate LIB.so     a library exporting idlespec_candidate_v1() (the C ABI
                         of harness/candidate_abi.h); run without sanitizers
  --component NAME...    busy_delay, xcede, states, governor, teo, idle_core
  --function NAME...     only these functions
  --json                 the report as JSON on stdout
  --junit FILE           also write JUnit XML (one testcase per clause)
  --sarif FILE           also write SARIF 2.1.0 (a result per clause not held, with
                         code flows and fingerprints that survive reruns)
  --markdown FILE        also write a Markdown verdict table (a CI job summary)
  --html DIR             also write a static HTML report into DIR (needs python3)
  --budget SECONDS       wall-clock budget per component and file (default 30),
                         shared by the build, Z3, the fuzz campaign, RapidCheck,
                         the runs and the shrinking: a part ends within it + 10%
                         + 1 s; busy_delay's exhaustive 2^32 scans run in chunks
                         after the sampled ones, and the report says which chunks
                         it cut
  --scan full|sampled    busy_delay: all 2^32 statuses (default) or a sample
  --targets LIST         where the harnesses are built and run, comma-separated
                         from host, ppc64 (big-endian) and ppc64le: the POWER
                         ones cross-compiled as the kernel is (plain char
                         unsigned, the target's ABI, -static) and run under
                         qemu-user in the same sandbox, judged by the same
                         oracles; a clause that fails on any target fails, and
                         the report says where. Default: every installed one
                         for xcede, states and busy_delay, the host for the
                         others (idle_core: the host only). On POWER targets
                         the sanitizer build is UBSan alone (ASan runs on the
                         host), there is no libFuzzer campaign, and busy_delay
                         scans the sampled statuses. Install the cross
                         compilers and qemu-user with scripts/setup.sh power
  --seed N               xcede, states: the generated inputs' and the fuzz
                         campaign's seed (default 1)
  --fuzz SECONDS         xcede, states: the libFuzzer campaign on the code under
                         test (default a sixth of the budget, 1 to 5 s; 0 none);
                         its corpus is judged with the other inputs
  --fuzz-cc COMPILER     the compiler with libFuzzer (default clang)
  --inputs LIST          xcede, states: the input sources, comma-separated from
                         z3 (Z3-chosen boundary inputs of every branch of the
                         spec model), fuzz (the campaign's corpus), rapidcheck
                         (a property per file: generated cases, shrunk on
                         failure), generated (hand-picked edges and seeded
                         random); default all
  --cases N              xcede, states: RapidCheck cases (default 100)
  --memory MB            memory limit per harness process (default 2048; 0 none;
                         ASan's own allocator limits for the ASan build)
  --no-sanitizers        skip the ASan+UBSan build and its runs
  --cc COMPILER          the C compiler for the harness (default cc)
  --harness-dir DIR      where harness_*.c and shims/ live (default: the
                         checkout's harness/; --validate-dir is the older name)
  --keep-temp            keep the harness directory (for replay commands)
  --disk-quota MB        what the code under test may write to its scratch
                         directory, /tmp and /dev/shm together (default 512;
                         IDLESPEC_DISK_QUOTA_MB); more is a finding
  --no-sandbox           run the code under test with your own rights (it
                         runs in a bubblewrap sandbox otherwise: no network,
                         the toolchain read-only and nothing else of the
                         host, a fixed environment, only its scratch
                         directory writable; every escape attempt is a
                         finding, exit 1; docs/security.md); every report
                         then says so
  --subject NAME         the spec subject to judge the file against (default:
                         the component's "- Validate default:" in spec/*.md,
                         mainline for governor and teo, else reference; e.g. legacy
                         for a pre-v5.17 rtas.c, v6.19 for a menu.c of that
                         era): the spec's accepted violations of that subject
                         are reported as accepted
  --allow-unknown        exit 0 instead of 3 when nothing failed but a clause
                         could not be judged

Environment: IDLESPEC_FRAMAC names the Frama-C program (default frama-c;
"none" switches the proofs off: the clauses it covers say "tested").
States' Z3 boundary edges are built in (validate/states_edges.txt,
used when it describes this build's model); for a build whose model it
does not describe, IDLESPEC_CACHE_DIR is where they are kept for the next
run of this executable (default $XDG_CACHE_HOME/idlespec or
~/.cache/idlespec; "off" keeps none). Each edge read back is re-checked on
the concrete model, and the note says where the answers came from.
sparse runs on the extracted unit when installed (XCEDE-8's byte-order
check); IDLESPEC_SPARSE names its program, empty for none. IDLESPEC_TARGETS
is the --targets list when the option is not given.

Verdicts (spec/*.md decides which clauses validate judges, on which
function, and what each subject is accepted to break): held; failed (with a
shrunk counterexample, and the subjects the spec accepts it for and the
upstream commit that fixed it); accepted (failed as the spec accepts for the
subject); uncovered (the spec has validate judge it and no verdict came);
unknown; error (not judged: a harness that does not compile, a run that
died); n/a (not a clause of the subject, or not applicable to the code);
absent (the function is not in the file).

Exit codes (the same for verify, check, validate and review):
  0  every judged clause held (n/a, absent and accepted allowed)
  1  a clause failed or is uncovered (dominates everything else)
  2  bad command line or unreadable input
  3  nothing failed, but something could not be judged (error, unknown, or
     no clause judged at all); --allow-unknown makes it 0
)";

using Parsed = CommandLine;

// Numbers on the command line: decimal, or hexadecimal after 0x; nothing
// else (no sign, no white space, no octal from a leading 0).
bool parse_number(const std::string& v, uint64_t& out) {
  static const std::regex form("^(0[xX][0-9a-fA-F]+|[0-9]+)$");
  if (!std::regex_match(v, form)) return false;
  const bool hex = v.size() > 2 && (v[1] == 'x' || v[1] == 'X');
  errno = 0;
  out = std::strtoull(v.c_str() + (hex ? 2 : 0), nullptr, hex ? 16 : 10);
  return errno == 0;
}

// Seconds: a decimal number, possibly with a fraction.
bool parse_seconds(const std::string& v, double& out) {
  static const std::regex form(R"(^([0-9]+(\.[0-9]*)?|\.[0-9]+)$)");
  if (!std::regex_match(v, form)) return false;
  out = std::strtod(v.c_str(), nullptr);
  return std::isfinite(out);
}

// Shared by validate and review: returns false (and sets error) on a bad
// argument; positional arguments go to `positional`.
bool parse_common(const std::vector<std::string>& args, Parsed& p,
                  std::vector<std::string>& positional) {
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    auto value = [&](std::string& out, const char* what) {
      if (i + 1 >= args.size()) {
        p.error = a + " needs " + what;
        return false;
      }
      out = args[++i];
      return true;
    };
    auto values = [&](std::vector<std::string>& out, const char* what) {
      std::string v;
      if (!value(v, what)) return false;
      out.push_back(v);
      while (i + 1 < args.size() && args[i + 1].rfind("--", 0) != 0) out.push_back(args[++i]);
      return true;
    };
    std::string v;
    if (a == "--help" || a == "-h") {
      p.help = true;
    } else if (a == "--source" || a == "--kernel-tree") {
      // Given twice, which one was judged would be a guess: refused.
      std::string& where = a == "--source" ? p.opt.source : p.opt.kernel_tree;
      if (!where.empty()) {
        p.error = a + " given twice: one file or tree a run";
        return false;
      }
      if (!value(where, a == "--source" ? "a file" : "a directory")) return false;
    } else if (a == "--function") {
      if (!values(p.opt.functions, "a name")) return false;
    } else if (a == "--component") {
      if (!values(p.opt.components, "a name")) return false;
    } else if (a == "--budget") {
      if (!value(v, "a number of seconds")) return false;
      if (!parse_seconds(v, p.opt.budget_seconds) || !(p.opt.budget_seconds > 0)) {
        p.error = "bad --budget '" + v + "': a positive decimal number of seconds";
        return false;
      }
    } else if (a == "--fuzz") {
      if (!value(v, "a number of seconds")) return false;
      if (!parse_seconds(v, p.opt.fuzz_seconds)) {
        p.error = "bad --fuzz '" + v + "': a decimal number of seconds, 0 for none";
        return false;
      }
    } else if (a == "--subject") {
      if (!value(p.opt.subject, "a subject (e.g. reference, legacy, v6.14)")) return false;
      p.opt.subject_given = true;
    } else if (a == "--allow-unknown") {
      p.opt.allow_unknown = true;
    } else if (a == "--inputs") {
      if (!value(v, "a list: z3,fuzz,rapidcheck,generated")) return false;
      p.opt.inputs.clear();
      std::istringstream list(v);
      for (std::string one; std::getline(list, one, ',');) {
        if (one != "z3" && one != "fuzz" && one != "rapidcheck" && one != "generated") {
          p.error = "bad --inputs '" + v + "': sources are z3, fuzz, rapidcheck, generated";
          return false;
        }
        p.opt.inputs.insert(one);
      }
      if (p.opt.inputs.empty()) {
        p.error = "bad --inputs '" + v + "': name at least one of z3, fuzz, rapidcheck, generated";
        return false;
      }
    } else if (a == "--cases") {
      if (!value(v, "a number")) return false;
      uint64_t n = 0;
      if (!parse_number(v, n) || n < 1 || n > 1000000) {
        p.error = "bad --cases '" + v + "': 1 to 1000000";
        return false;
      }
      p.opt.property_cases = static_cast<int>(n);
    } else if (a == "--fuzz-cc") {
      if (!value(p.opt.fuzz_cc, "a compiler")) return false;
    } else if (a == "--disk-quota") {
      if (!value(v, "a number of MiB")) return false;
      uint64_t mb = 0;
      if (!parse_number(v, mb) || mb < 1 || mb > (uint64_t{1} << 20)) {
        p.error = "bad --disk-quota '" + v + "': a number of MiB, 1 to 1048576";
        return false;
      }
      sandbox_options().disk_quota_mb = static_cast<long>(mb);
    } else if (a == "--memory") {
      if (!value(v, "a number of MiB")) return false;
      uint64_t mb = 0;
      if (!parse_number(v, mb) || mb > (uint64_t{1} << 40)) {
        p.error = "bad --memory '" + v + "': a number of MiB (decimal, or 0x...), 0 for none";
        return false;
      }
      p.opt.memory_mb = static_cast<long>(mb);
    } else if (a == "--seed") {
      if (!value(v, "a number")) return false;
      if (!parse_number(v, p.opt.seed)) {
        p.error = "bad --seed '" + v + "': a decimal number, or hexadecimal after 0x";
        return false;
      }
    } else if (a == "--cc") {
      if (!value(p.opt.cc, "a compiler")) return false;
    } else if (a == "--harness-dir" || a == "--validate-dir") {
      if (!value(p.opt.harness_dir, "a directory")) return false;
    } else if (a == "--scan") {
      if (!value(v, "full or sampled")) return false;
      if (v != "full" && v != "sampled") {
        p.error = "--scan takes full or sampled";
        return false;
      }
      p.opt.sampled = v == "sampled";
    } else if (a == "--targets") {
      if (!value(v, "a list: host,ppc64,ppc64le")) return false;
      if (const std::string why = parse_targets(v, p.opt.targets); !why.empty()) {
        p.error = why;
        return false;
      }
    } else if (a == "--junit") {
      if (!value(p.junit, "a file")) return false;
    } else if (a == "--sarif") {
      if (!value(p.sarif, "a file")) return false;
    } else if (a == "--markdown") {
      if (!value(p.markdown, "a file")) return false;
    } else if (a == "--html") {
      if (!value(p.html, "a directory")) return false;
    } else if (a == "--json") {
      p.json = true;
    } else if (a == "--no-sanitizers") {
      p.opt.sanitizers = false;
    } else if (a == "--keep-temp") {
      p.opt.keep_temp = true;
    } else if (a == "--no-sandbox") {
      p.opt.sandbox = false;
    } else if (a == "--candidate") {
      if (!value(p.opt.candidate, "a library")) return false;
    } else if (a.rfind("-", 0) == 0 && a.size() > 1) {
      p.error = "unknown argument '" + a + "'";
      return false;
    } else {
      positional.push_back(a);
    }
  }
  return true;
}

// The files besides stdout: --junit and --sarif of the (after-patch)
// report, --markdown and --html of the report or, for review, of the clause
// diff.
bool write_outputs(const Parsed& p, const Report& rep, const std::string& prog,
                   const ReviewReport* review = nullptr) {
  bool ok = true;
  if (!p.markdown.empty() &&
      !spit(p.markdown, review ? render_review_markdown(*review) : render_markdown(rep))) {
    std::cerr << prog << ": cannot write " << p.markdown << "\n";
    ok = false;
  }
  if (!p.html.empty()) {
    const std::string why =
        review ? verify::write_html_report(p.html, "review", render_review_json(*review), spec())
               : verify::write_html_report(p.html, "validate", render_json(rep), spec());
    if (!why.empty()) {
      std::cerr << prog << ": --html " << p.html << ": " << why << "\n";
      ok = false;
    }
  }
  if (!p.junit.empty() && !spit(p.junit, render_junit(rep))) {
    std::cerr << prog << ": cannot write " << p.junit << "\n";
    ok = false;
  }
  if (!p.sarif.empty() && !spit(p.sarif, render_sarif(rep))) {
    std::cerr << prog << ": cannot write " << p.sarif << "\n";
    ok = false;
  }
  return ok;
}

}  // namespace

int parse_front_end(const std::vector<std::string>& args, const std::string& harness_dir,
                    const std::string& prog, const char* usage, CommandLine& p,
                    std::vector<std::string>& positional) {
  // sparse's program (validate/sparse_check.h): IDLESPEC_SPARSE, "" for none.
  if (const char* sp = std::getenv("IDLESPEC_SPARSE")) p.opt.sparse = sp;
  // The targets when --targets is not given (validate/targets.h):
  // IDLESPEC_TARGETS, a list as --targets takes ("" or unset: the default).
  if (const char* ts = std::getenv("IDLESPEC_TARGETS"); ts && *ts)
    if (const std::string why = parse_targets(ts, p.opt.targets); !why.empty()) {
      std::cerr << prog << ": IDLESPEC_TARGETS: " << why << "\n";
      return kExitUsage;
    }
  p.opt.harness_dir = harness_dir;
  // IDLESPEC_HARNESS_DIR, or its older name IDLESPEC_VALIDATE_DIR.
  if (const char* d = std::getenv("IDLESPEC_VALIDATE_DIR")) p.opt.harness_dir = d;
  if (const char* d = std::getenv("IDLESPEC_HARNESS_DIR")) p.opt.harness_dir = d;
  const bool json = std::find(args.begin(), args.end(), "--json") != args.end();
  bool ok = parse_common(args, p, positional);
  if (ok && !p.help)
    for (const auto& name : p.opt.components)
      if (ok && !find_component(name)) {
        p.error = "unknown component '" + name +
                  "' for --component (components: busy_delay, xcede, states, governor, teo, "
                  "idle_core)";
        ok = false;
      }
  if (ok && !p.help) {
    for (const auto& [flag, out] :
         {std::pair{"--junit: ", &p.junit}, std::pair{"--sarif: ", &p.sarif},
          std::pair{"--markdown: ", &p.markdown}})
      if (ok && !out->empty())
        if (const std::string why = verify::output_path_problem(*out); !why.empty()) {
          p.error = flag + why;
          ok = false;
        }
    if (ok && !p.html.empty())
      if (const std::string why = verify::html_report_problem(p.html); !why.empty()) {
        p.error = "--html: " + why;
        ok = false;
      }
  }
  if (!ok) {
    std::cerr << prog << ": " << p.error << " (see --help)\n";
    if (json)
      std::cout << "{\"error\":\"" << json_escape(p.error) << "\",\"exit_code\":" << kExitUsage
                << "}\n";
    return kExitUsage;
  }
  if (p.help) {
    std::cout << usage;
    return 0;
  }
  // SIGINT/SIGTERM from here on: every child dies, the run stops, the
  // report says what was judged, the temporary directories go.
  install_interrupt_handlers(p.opt.keep_temp);
  return -1;
}

namespace {

// After a run: an interrupt's word and the temporary directories' removal.
void after_run(const std::string& prog) {
  if (const int sig = interrupted()) {
    std::cerr << prog << ": interrupted by signal " << sig << ": no verdict (exit " << 128 + sig
              << ")\n";
    cleanup_temp_dirs();
  }
}

}  // namespace

int validate_main(const std::vector<std::string>& args, const std::string& harness_dir) {
  const std::string prog = "idlespec validate";
  Parsed p;
  std::vector<std::string> positional;
  if (const int rc = parse_front_end(args, harness_dir, prog, kValidateUsage, p, positional);
      rc >= 0)
    return rc;
  if (!positional.empty()) {
    const std::string error = "unexpected argument '" + positional.front() + "'";
    std::cerr << prog << ": " << error << " (see --help)\n";
    if (p.json)  // as parse_front_end's usage errors
      std::cout << "{\"error\":\"" << json_escape(error) << "\",\"exit_code\":" << kExitUsage
                << "}\n";
    return kExitUsage;
  }
  Report rep = validate(p.opt);
  if (!rep.error.empty()) {
    std::cerr << prog << ": " << (rep.subject.empty() ? "" : rep.subject + ": ") << rep.error
              << "\n";
    if (p.json) std::cout << render_json(rep);
    // An escape before any part (a --candidate's initialisers) is a finding.
    return rep.exit_code == kExitFailed ? kExitFailed : kExitUsage;
  }
  for (const auto& part : rep.parts)
    if (!part.build_error.empty())
      std::cerr << prog << ": " << part.file << " (" << part.component << "): " << part.build_error
                << "\n";
  after_run(prog);
  // The files first: a write that fails changes the exit code, and the
  // report on stdout says the code the process returns.
  if (!write_outputs(p, rep, prog))
    rep.exit_code = rep.exit_code == kExitFailed ? kExitFailed : kExitUsage;
  std::cout << (p.json ? render_json(rep) : render_text(rep));
  return rep.exit_code;
}

constexpr const char* kReviewUsage =
    R"(usage: idlespec review PATCH --kernel-tree DIR [options]
       idlespec review SERIES... --kernel-tree DIR [--against OLD] [--reply FILE] [options]

Applies PATCH (an mbox email as sent to the list, or a plain diff) to a
temporary copy of the files it touches in DIR, validates every checked
component's functions in those files before and after, and prints the
clauses whose verdict changed, with the counterexample of each newly failed
one: what a reviewer pastes into a reply. A series (a b4 or lore mbox, a
thread with replies, a `git format-patch` directory, several patch files) is
reviewed patch by patch in [PATCH vN M/K] order, then as a whole; see
docs/review.md.

  --kernel-tree DIR      the tree the patch applies to (required)
  --against OLD          a series: compare with this older version (an mbox)
  --reply FILE           a series: write the review mail(s) to FILE (an mbox)
  --json                 the clause diff and both reports as JSON
  --junit FILE, --sarif FILE
                         the after-patch report in those formats
  --markdown FILE        the clause diff in Markdown (a pull request's job summary)
  --html DIR             a static HTML report of the clause diff (needs python3)
  and validate's --budget, --scan, --targets, --seed, --subject, --allow-unknown,
  --inputs, --fuzz, --fuzz-cc, --cases, --memory, --disk-quota,
  --no-sanitizers, --no-sandbox, --cc, --harness-dir (older name: --validate-dir), --keep-temp.

Exit codes (the same for verify, check, validate and review):
  0  no clause newly failed, and every clause after the patch was judged
  1  a clause newly failed (or became uncovered)
  2  bad command line, or a patch that cannot be read, has no applicable
     diff (e.g. a reply that only quotes one) or does not apply
  3  nothing newly failed, but after the patch something could not be
     judged (a harness that no longer compiles, an unknown); --allow-unknown
     makes it 0
)";

int review_main(const std::vector<std::string>& args, const std::string& harness_dir) {
  const std::string prog = "idlespec review";
  Parsed p;
  std::vector<std::string> positional;
  // A series' own options (validate/series.h); the rest are validate's.
  std::vector<std::string> rest;
  std::string against, reply;
  for (size_t i = 0; i < args.size(); ++i) {
    if ((args[i] == "--against" || args[i] == "--reply") && i + 1 < args.size()) {
      std::string& into = args[i] == "--against" ? against : reply;
      into = args[++i];
    } else {
      rest.push_back(args[i]);
    }
  }
  if (const int rc = parse_front_end(rest, harness_dir, prog, kReviewUsage, p, positional); rc >= 0)
    return rc;
  if (!positional.empty() && p.opt.source.empty() && p.opt.functions.empty() &&
      is_series_input(positional, against, reply)) {
    if (!p.junit.empty() || !p.sarif.empty() || !p.markdown.empty() || !p.html.empty()) {
      std::cerr << prog << ": --junit, --sarif, --markdown and --html take one patch, not a "
                << "series (use --json)\n";
      return kExitUsage;
    }
    SeriesOptions so;
    so.inputs = positional;
    so.against = against;
    so.reply = reply;
    so.review.kernel_tree = p.opt.kernel_tree;
    so.review.validate = p.opt;
    const SeriesReport sr = review_series(so);
    after_run(prog);
    if (!sr.error.empty() && sr.versions.empty()) std::cerr << prog << ": " << sr.error << "\n";
    std::cout << (p.json ? render_series_json(sr) : render_series_text(sr));
    return sr.exit_code;
  }
  if (positional.size() != 1 || !p.opt.source.empty() || !p.opt.functions.empty()) {
    const std::string error = "give one PATCH and --kernel-tree DIR";
    std::cerr << prog << ": " << error << " (see --help)\n";
    if (p.json)  // as parse_front_end's usage errors
      std::cout << "{\"error\":\"" << json_escape(error) << "\",\"exit_code\":" << kExitUsage
                << "}\n";
    return kExitUsage;
  }
  ReviewOptions ro;
  ro.patch = positional.front();
  ro.kernel_tree = p.opt.kernel_tree;
  ro.validate = p.opt;
  ReviewReport rr = review(ro);
  if (!rr.error.empty() && rr.before.parts.empty() && rr.after.parts.empty()) {
    std::cerr << prog << ": " << rr.patch << ": " << rr.error << "\n";
    if (p.json) std::cout << render_review_json(rr);
    return 2;
  }
  after_run(prog);
  // The files first, as for validate: stdout says the real exit code.
  if (!write_outputs(p, rr.after, prog, &rr))
    rr.exit_code = rr.exit_code == kExitFailed ? kExitFailed : kExitUsage;
  std::cout << (p.json ? render_review_json(rr) : render_review_text(rr));
  return rr.exit_code;
}

}  // namespace idlespec::validate
