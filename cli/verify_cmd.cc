// idlespec verify / check / clauses: the spec's clauses, the checks that
// discharge them, and their verdicts.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <thread>

#include "cli/args.h"
#include "cli/commands.h"
#include "impl/json.h"
#include "impl/text.h"
#include "verify/build_paths.h"
#include "verify/outputs.h"
#include "verify/registry.h"
#include "verify/runner.h"
#include "verify/sarif.h"
#include "verify/spec_index.h"

namespace idlespec::cli {
namespace {

using verify::CheckKind;

void add_run_options(Args& args) {
  args.option("seed", "N", "RapidCheck and sampling seed (default 1)")
      .option("budget", "SECONDS", "per check: solver timeout and time cap (default 120)")
      .option("cases", "N", "successful cases per property (default 1000)")
      .option("source-dir", "DIR",
              "the idlespec tree, for corpora (default: where it was built from)");
}

verify::RunOptions run_options(const Args& args) {
  verify::RunOptions o;
  o.seed = args.get_u64("seed", 1);
  o.budget_seconds = args.get_double("budget", 120);
  o.property_cases = static_cast<int>(args.get_u64("cases", 1000, 1, 10000000));
  if (const auto d = args.get("source-dir")) {
    o.source_dir = *d;
  } else if (const char* env = std::getenv("IDLESPEC_SOURCE_DIR")) {
    o.source_dir = env;
  } else {
    o.source_dir = idlespec::build::source_dir();
  }
  return o;
}

verify::SpecIndex load_spec(const Args& args) {
  verify::SpecIndex spec =
      args.has("spec-dir") ? verify::load_spec_dir(*args.get("spec-dir")) : verify::builtin_spec();
  if (!spec.errors.empty()) {
    std::string msg = "the spec does not parse:";
    for (const auto& e : spec.errors) msg += "\n  " + e;
    throw UsageError(msg);
  }
  if (spec.clauses.empty())  // an empty or wrong directory: nothing to judge or list
    throw UsageError("--spec-dir " + args.get("spec-dir").value_or("(built-in)") +
                     ": no clauses in its *.md (want the spec/ directory of an idlespec tree)");
  return spec;
}

std::vector<std::string> components_arg(const Args& args) {
  std::vector<std::string> out;
  for (const auto& c : args.all("component")) {
    const std::string canon = verify::canonical_component(c);
    if (canon.empty()) {
      throw UsageError("unknown component '" + c +
                       "' (xcede, states, busy_delay, idle_core, governor, teo)");
    }
    out.push_back(canon);
  }
  return out;
}

// --sarif FILE: rule links into the source tree's spec/ (or $IDLESPEC_SPEC_URI).
verify::SarifOptions sarif_options(const verify::RunOptions& o) {
  return verify::sarif_options_for(o.source_dir);
}

// Checked before the run: a long run must not end unable to write.
void check_writable(const Args& args, const char* flag) {
  if (const auto f = args.get(flag))
    if (const std::string why = verify::output_path_problem(*f); !why.empty())
      throw UsageError(std::string("--") + flag + ": " + why);
}

// --html DIR, checked before the run likewise.
void check_html(const Args& args) {
  if (const auto d = args.get("html"))
    if (const std::string why = verify::html_report_problem(*d); !why.empty())
      throw UsageError("--html: " + why);
}

// Writes the report; a failure is said on stderr and turns the exit code
// into 2 unless a clause failed (1 wins: the verdict is not lost).
int write_html(const Args& args, std::string_view kind, const std::string& json, int rc) {
  const auto d = args.get("html");
  if (!d) return rc;
  const std::string why = verify::write_html_report(*d, kind, json, verify::builtin_spec());
  if (why.empty()) return rc;
  std::cerr << "idlespec " << kind << ": --html " << *d << ": " << why << "\n";
  return rc == 1 ? 1 : 2;
}

void write_file(const std::string& path, const std::string& text) {
  if (const std::string why = verify::write_output(path, text); !why.empty())
    throw std::runtime_error(why);
}

bool parse_kind(const std::string& s, CheckKind& k) {
  for (CheckKind c : {CheckKind::proof, CheckKind::exhaustive, CheckKind::property,
                      CheckKind::fuzz_replay, CheckKind::model_check}) {
    if (verify::check_kind_name(c) == s) {
      k = c;
      return true;
    }
  }
  return false;
}

}  // namespace

int verify_command(const std::vector<std::string>& argv) {
  Args args("verify", "[options]");
  args.option("component", "NAME", "only this component (repeatable)", true)
      .option("subject", "NAME", "only this subject, e.g. reference (repeatable)", true)
      .flag("json", "print the report as JSON on stdout")
      .option("sarif", "FILE", "also write the report as SARIF 2.1.0 (verify/sarif.h)")
      .option("html", "DIR", "also write a static HTML report into DIR (needs python3)")
      .flag("allow-unknown", "exit 0 instead of 3 when nothing failed but a clause is unknown")
      .flag("quiet", "no progress lines on stderr")
      .option("spec-dir", "DIR", "read spec/*.md from DIR instead of the built-in copy")
      .option("jobs", "N",
              "checks run at once, each in its own process (default: the CPUs, at most 8; 1: "
              "one after the other in this process)");
  add_run_options(args);
  args.parse(argv);
  if (args.wants_help()) {
    std::cout << args.help();
    return 0;
  }
  if (!args.positional().empty())
    throw UsageError("unexpected argument '" + args.positional()[0] + "'");
  const verify::SpecIndex spec = load_spec(args);
  verify::VerifyFilter filter;
  filter.components = components_arg(args);
  filter.subjects = args.all("subject");
  for (const auto& s : filter.subjects) {
    const bool known = std::any_of(spec.clauses.begin(), spec.clauses.end(), [&](const auto& c) {
      return (filter.components.empty() ||
              std::find(filter.components.begin(), filter.components.end(), c.component) !=
                  filter.components.end()) &&
             std::find(c.subjects.begin(), c.subjects.end(), s) != c.subjects.end();
    });
    if (!known) throw UsageError("no clause of the selected components names subject '" + s + "'");
  }
  verify::RunOptions opts = run_options(args);
  const unsigned cpus = std::max(1u, std::min(8u, std::thread::hardware_concurrency()));
  opts.jobs = static_cast<int>(args.get_u64("jobs", cpus, 1, 64));
  check_writable(args, "sarif");
  check_html(args);
  const bool quiet = args.has("quiet");
  const auto progress = [&](size_t i, size_t n, const verify::Check& c, const std::string& subject,
                            const verify::CheckResult& r) {
    if (quiet) return;
    std::fprintf(stderr, "[%2zu/%zu] %-11s %-36s %-10s %-7s %6.2fs\n", i, n,
                 std::string(verify::check_kind_name(c.kind)).c_str(), c.name.c_str(),
                 subject.c_str(), std::string(verify::outcome_name(r.outcome)).c_str(), r.seconds);
  };
  const verify::VerifyReport report =
      verify::run_verify(spec, verify::builtin_registry(), filter, opts, progress);
  if (report.clauses.empty()) throw UsageError("nothing to verify: no clause matches the filter");
  if (const auto f = args.get("sarif"))
    write_file(*f, verify::report_sarif(report, sarif_options(opts)));
  const std::string json = verify::report_json(report);
  std::cout << (args.has("json") ? json : verify::report_text(report));
  return write_html(args, "verify", json, report.exit_code(args.has("allow-unknown")));
}

int check_command(const std::vector<std::string>& argv) {
  Args args("check",
            "KIND NAME [options]   (KIND: proof, exhaustive, property, fuzz-replay, model-check)");
  args.option("subject", "NAME", "subject to check (default reference)")
      .flag("json", "JSON output")
      .option("sarif", "FILE", "also write the result as SARIF 2.1.0 (verify/sarif.h)")
      .option("html", "DIR", "also write a static HTML report into DIR (needs python3)");
  add_run_options(args);
  args.parse(argv);
  if (args.wants_help()) {
    std::cout << args.help();
    return 0;
  }
  if (args.positional().size() != 2) throw UsageError("want KIND and NAME");
  check_writable(args, "sarif");
  check_html(args);
  CheckKind kind;
  if (!parse_kind(args.positional()[0], kind))
    throw UsageError("unknown check kind '" + args.positional()[0] + "'");
  const verify::Check* check = verify::builtin_registry().find(kind, args.positional()[1]);
  if (!check)
    throw UsageError("no " + args.positional()[0] + " check named '" + args.positional()[1] + "'");
  const std::string subject = args.get("subject").value_or("reference");
  if (std::find(check->subjects.begin(), check->subjects.end(), subject) == check->subjects.end()) {
    throw UsageError("check " + check->name + " does not run against subject '" + subject + "'");
  }
  const verify::CheckResult r = check->run(subject, run_options(args));
  if (const auto f = args.get("sarif"))
    write_file(*f, verify::check_sarif(*check, subject, r, verify::builtin_spec(),
                                       sarif_options(run_options(args))));
  const int rc = r.outcome == verify::Outcome::pass   ? 0
                 : r.outcome == verify::Outcome::fail ? 1
                                                      : 3;
  // The JSON is --json's output and the HTML report's input.
  JsonWriter w;
  w.begin_object();
  w.key("kind").value(verify::check_kind_name(check->kind));
  w.key("name").value(check->name);
  w.key("subject").value(subject);
  w.key("status").value(verify::outcome_name(r.outcome));
  w.key("detail").value(r.detail);
  w.key("counterexample").value(r.counterexample);
  w.key("replay").value(r.replay);
  w.key("clauses").begin_array();
  for (const auto& c : check->clauses) w.value(c);
  w.end_array();
  w.key("violated").begin_array();
  for (const auto& c : r.violated) w.value(c);
  w.end_array();
  w.end_object();
  if (args.has("json")) {
    std::cout << w.str() << "\n";
  } else {
    std::cout << verify::check_kind_name(check->kind) << " " << check->name << " (" << subject
              << "): " << verify::outcome_name(r.outcome) << "\n";
    if (!r.detail.empty()) std::cout << "  " << r.detail << "\n";
    if (!r.counterexample.empty()) std::cout << "  counterexample: " << r.counterexample << "\n";
    if (r.outcome != verify::Outcome::pass && !r.replay.empty())
      std::cout << "  replay: " << r.replay << "\n";
  }
  return write_html(args, "check", w.str() + "\n", rc);
}

int clauses_command(const std::vector<std::string>& argv) {
  Args args("clauses", "[options]");
  args.option("component", "NAME", "only this component (repeatable)", true)
      .flag("json", "JSON output")
      .option("spec-dir", "DIR", "read spec/*.md from DIR instead of the built-in copy");
  args.parse(argv);
  if (args.wants_help()) {
    std::cout << args.help();
    return 0;
  }
  if (!args.positional().empty())
    throw UsageError("unexpected argument '" + args.positional()[0] +
                     "' (--component NAME selects a component)");
  const verify::SpecIndex spec = load_spec(args);
  const auto comps = components_arg(args);
  if (args.has("json")) {
    std::cout << verify::clauses_json(spec, comps);
    return 0;
  }
  for (const auto& c : spec.clauses) {
    if (!comps.empty() && std::find(comps.begin(), comps.end(), c.component) == comps.end())
      continue;
    std::cout << c.id << " (" << c.kind << ") " << c.file << ":" << c.line << "\n  " << c.obligation
              << "\n  subjects:";
    for (const auto& s : c.subjects)
      std::cout << " " << s << (c.acceptance_for(s) ? " (accepted violation)" : "");
    std::cout << "\n  checks:";
    for (const auto& ch : c.checks)
      std::cout << " " << verify::check_kind_name(ch.kind) << ":" << ch.name;
    std::cout << "\n";
    for (const auto& e : c.eras)
      std::cout << "  era " << e.subject << " (no subject): " << e.reason << "; fixed by "
                << e.fixed_by << "\n";
  }
  return 0;
}

}  // namespace idlespec::cli
