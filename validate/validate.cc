// The `idlespec validate` driver: which components apply to the file, the
// tree or the candidate library, each run on its targets in the sandbox,
// and the parts gathered into one report judged against the spec.
#include "validate/validate.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <map>
#include <set>
#include <sstream>

#include "extract/extract.h"
#include "impl/text.h"
#include "sandbox/process.h"
#include "sandbox/sandbox.h"
#include "validate/assumed_values.h"
#include "validate/component.h"
#include "validate/framac.h"
#include "validate/sparse_check.h"
#include "validate/targets.h"

namespace idlespec::validate {

namespace {

using Clock = std::chrono::steady_clock;

bool has_function(const std::string& text, const std::string& path, const std::string& name) {
  const std::vector<std::string> one = {name};
  return extract(text, one, path).functions.front().found;
}

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

}  // namespace idlespec::validate
