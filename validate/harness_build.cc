// The harness build every component shares: the extracted code, the kernel
// shims and a component's harness compiled into a plain -O3 and an
// ASan+UBSan executable (and the libFuzzer one), in the sandbox.
#include <algorithm>
#include <string>
#include <vector>

#include "validate/component.h"
#include "validate/job_retry.h"
#include "validate/sanitizer_parity.h"
#include "validate/sparse_check.h"
#include "validate/targets.h"

namespace idlespec::validate {

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
// GCC still opens the file of a syntax error's location to place a fix-it
// hint, whatever the flags: for the driver's own label that read is refused
// quietly (Job::quiet_refusals), for any other name it is a finding.
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
  // The file label is the one the driver's #line markers carry (the
  // extraction's first line marker precedes any text of the file).
  const std::string label = first_line_label(code);
  hb.source_label = label;
  auto compile = [&](const std::string& out, std::vector<std::string> flags,
                     const std::string& cc) {
    Job j;
    if (!label.empty()) j.quiet_refusals = {label};
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
  // that code, at most 8 rounds within the budget.
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
  hb.plain_argv = builds[0].argv;  // validate/idle_core_races.cc builds its TSan twin from it
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

}  // namespace idlespec::validate
