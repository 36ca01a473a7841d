// The command lines of `idlespec validate` and `idlespec review` (matrix
// shares their options through parse_front_end): usage, options, the files
// written besides stdout, and the exit code each run returns.
#include "validate/command_line.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <iostream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "sandbox/process.h"
#include "sandbox/sandbox.h"
#include "validate/component.h"
#include "validate/series.h"
#include "validate/targets.h"
#include "validate/validate.h"
#include "verify/outputs.h"
#include "verify/report.h"
#include "verify/report_format.h"

namespace idlespec::validate {

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
                         mainline for governor and teo, idle_lock for idle_core,
                         else reference; e.g. legacy for a pre-v5.17 rtas.c,
                         v6.19 for a menu.c of that era): the spec's accepted
                         violations of that subject are reported as accepted
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
  // Through the writer every command's files go through (verify/outputs.h).
  auto write = [&](const std::string& path, const std::string& text) {
    if (const std::string why = verify::write_output(path, text); !why.empty()) {
      std::cerr << prog << ": " << why << "\n";
      ok = false;
    }
  };
  if (!p.markdown.empty())
    write(p.markdown, review ? render_review_markdown(*review) : render_markdown(rep));
  if (!p.html.empty()) {
    const std::string why =
        review ? verify::write_html_report(p.html, "review", render_review_json(*review), spec())
               : verify::write_html_report(p.html, "validate", render_json(rep), spec());
    if (!why.empty()) {
      std::cerr << prog << ": --html " << p.html << ": " << why << "\n";
      ok = false;
    }
  }
  if (!p.junit.empty()) write(p.junit, render_junit(rep));
  if (!p.sarif.empty()) write(p.sarif, render_sarif(rep));
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
    if (json) std::cout << verify::json_error(p.error, kExitUsage);
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
      std::cout << verify::json_error(error, kExitUsage);
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
  --cache-dir DIR        the verdict cache (default verdicts/ in $IDLESPEC_CACHE_DIR,
                         else $XDG_CACHE_HOME/idlespec, else ~/.cache/idlespec): a
                         side whose judged text is unchanged reuses its verdicts
  --no-cache             judge afresh, neither reading nor writing the cache
  --judge-unchanged      also judge the components whose judged text the patch leaves
                         as it was (by default they are not judged: their verdicts
                         cannot change)
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
  std::string against, reply, cache_dir;
  bool use_cache = true, judge_unchanged = false;
  for (size_t i = 0; i < args.size(); ++i) {
    if ((args[i] == "--against" || args[i] == "--reply" || args[i] == "--cache-dir") &&
        i + 1 < args.size()) {
      std::string& into = args[i] == "--against" ? against
                          : args[i] == "--reply" ? reply
                                                 : cache_dir;
      into = args[++i];
    } else if (args[i] == "--no-cache") {
      use_cache = false;
    } else if (args[i] == "--judge-unchanged") {
      judge_unchanged = true;
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
    so.review.cache_dir = cache_dir, so.review.use_cache = use_cache;
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
      std::cout << verify::json_error(error, kExitUsage);
    return kExitUsage;
  }
  ReviewOptions ro;
  ro.patch = positional.front();
  ro.kernel_tree = p.opt.kernel_tree;
  ro.validate = p.opt;
  ro.cache_dir = cache_dir, ro.use_cache = use_cache;
  ro.judge_unchanged = judge_unchanged;
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
