// Frama-C's EVA on the file's own text (issue 38): see framac.h.
#include "validate/framac.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <sstream>

#include "impl/text.h"
#include "sandbox/sandbox.h"
#include "validate/framac_text.h"
#include "validate/targets.h"
#include "validate/teo_check.h"

namespace idlespec::validate {

namespace {

// Z3's resource limit per WP goal (why3's steps), see run_wp().
constexpr const char* kWpSteps = "3000000";
constexpr const char* kWpGoalSeconds = "10";

// One WP contract: an ACSL header of the project's (contracts on
// declarations, read before the code), the function whose contract WP
// proves, the clause the contract states, and Frama-C options it needs
// (-ulevel N to unroll a loop of known bound: no loop invariant can go into
// kernel text).
struct WpContract {
  std::string header, function, clause;
  std::vector<std::string> args = {};
  // The header read after the code, not before: its contracts name what
  // the code defines (teo: the per-CPU teo_cpus).
  bool after_code = false;
  // What the contract proves of its clause, when more than a step of it
  // (states: STATES-5 where the probe succeeds); "" says "a step of".
  std::string part = "";
  // Shims the function calls whose contracts, in the same header, its
  // proof uses (xcede: the fake firmware's rtas_call()): proved on their
  // bodies by the test suite, or in the run with IDLESPEC_WP_SHIMS=1.
  std::vector<std::string> shims = {};
};

// A component's Frama-C unit: its driver, the env header, the define each
// found function gives, and the clauses it covers with the assertion name
// of each ("" when EVA's own alarms are the whole post-condition: XCEDE-1,
// no read outside the buffer).
struct Unit {
  std::string component, driver, env_header;
  std::vector<std::pair<std::string, std::string>> defines;  // function -> -D
  std::vector<std::pair<std::string, std::string>> clauses;  // clause -> assertion name
  // WP: the contracts the unit proves on the file's text, each run when the
  // file has its function.
  std::vector<WpContract> wp = {};
  // The functions the unit is built from, when not all of the component's
  // (states: the fix-up, not the probe, which has a build of its own).
  std::vector<std::string> functions = {};
  // Defines the file's layout asks for (an era's signature or field),
  // beyond one per found function: the harness's own reading, shared.
  std::vector<std::string> (*layout_defines)(const Extraction&) = nullptr;
  // What the harness adds to the extraction before building (teo: the
  // per-CPU data the extractor does not take), shared.
  void (*prepare)(const Target&, Extraction&) = nullptr;
  // The extraction the component's harness is built from, when it is more
  // than the functions themselves (the governor: menu_reflect() and the
  // per-CPU record): the same function, shared.
  Extraction (*extraction)(const Target&) = nullptr;
  // EVA options of the unit's own (teo: its loops bounded by the table's
  // size, which EVA's automatic unrolling does not take since they call
  // functions or write through pointers; -eva-precision 1..3 did not clear
  // the governor's relational alarms and cost 3..60 s).
  std::vector<std::string> eva_args = {};
  // Clauses whose post-condition is their assertion and EVA's own alarms in
  // the code together (TEO-6: the bounds, and no wrap on the way): beside a
  // failed one, an alarm in the file under test comes before the assertion.
  std::vector<std::string> alarm_clauses = {};
  // Functions the EVA unit takes beside `functions` when the file has them,
  // which no WP contract of the unit is built with (states: the probe, for
  // the snooze timeout STATES-4 names; its contract stays on its own
  // extraction).
  std::vector<std::string> eva_also = {};
};

const std::vector<Unit>& units() {
  static const std::vector<Unit> u = {
      {"xcede",
       "framac_xcede.c",
       "xcede_env.h",
       {{"parse_cede_parameters", "-DHAVE_PARSE_CEDE_PARAMETERS"}},
       {{"XCEDE-1", "XCEDE_1"}, {"XCEDE-3", "XCEDE_3"}, {"XCEDE-4", "XCEDE_4"}},
       // XCEDE-6 on a failing query: the retry loop unrolled once (its
       // rest is reached only on a busy answer, which the contract
       // excludes); the fake firmware's contracts proved beside it.
       {{"framac_xcede_wp.h",
         "parse_cede_parameters",
         "XCEDE-6",
         {"-ulevel", "1"},
         true,
         "",
         {"rtas_token", "xcede_fw_is_sysparm_name", "shim_rtas_call", "rtas_busy_delay",
          "xcede_printk"}}}},
      {"busy_delay",
       "framac_busy_delay.c",
       "",
       {{"rtas_busy_delay_time", "-DHAVE_RTAS_BUSY_DELAY_TIME"},
        {"rtas_busy_delay", "-DHAVE_RTAS_BUSY_DELAY"}},
       {{"BUSY-1", "BUSY_1"}, {"BUSY-4", "BUSY_4"}},
       {{"framac_busy_delay_wp.h", "rtas_busy_delay", "BUSY-1"}}},
      {"states",
       "framac_states.c",
       "states_env.h",
       {{"fixup_cede0_latency", "-DHAVE_FIXUP_CEDE0_LATENCY"},
        {"pseries_idle_probe", "-DHAVE_PSERIES_IDLE_PROBE"}},
       {{"STATES-4", "STATES_4"}},
       // The probe's contract is proved on the probe's own extraction (the
       // fix-up a call), apart from the EVA unit, which takes the probe too
       // (eva_also, below) for the snooze timeout.
       {{"framac_states_wp.h",
         "pseries_idle_probe",
         "STATES-5",
         {},
         true,
         "STATES-5 where the probe succeeds"}},
       {"fixup_cede0_latency"},
       nullptr,
       nullptr,
       nullptr,
       // A helper that reports through its result whether it wrote its
       // output (faithful text's xcede_latency_us()) returns two states:
       // (false, output unwritten) and (true, written). EVA joins them
       // right after the call, before the caller tests the result, and the
       // read of the output in the caller's true branch raises
       // \initialized. Partitioning by the last branch taken, kept through
       // the return, lets the caller's test separate them again (measured:
       // -eva-split-return needs -eva-slevel 100 for the same over 16
       // records, and merging the loop's iterations undoes it).
       {"-eva-partition-history", "1", "-eva-interprocedural-history"},
       // STATES-4 is its assertions and EVA's overflow alarms in the code
       // together: beside a failed one, the alarm in the file comes first.
       {"STATES-4"},
       // The probe computes the snooze timeout (STATES-4): harness/
       // framac_states.c asserts its exact value when the file has one.
       {"pseries_idle_probe"}},
      {"teo",
       "framac_teo.c",
       "teo_env.h",
       {{"teo_select", "-DHAVE_TEO_SELECT"}, {"teo_reflect", "-DHAVE_TEO_REFLECT"}},
       {{"TEO-6", "TEO_6"}},
       {{"framac_teo_wp.h", "teo_reflect", "TEO-6", {}, true}},
       {},
       &teo_layout_defines,
       &add_teo_cpus,
       nullptr,
       // CPUIDLE_STATE_MAX + 1 iterations of every loop.
       {"-eva-min-loop-unroll", "11"},
       {"TEO-6"}},
      // WP only: the lock helpers' contracts, steps of IDLE-1. The lock's
      // word is the core's idle_state up to v6.4, its idle_lock since v6.5.
      {"idle_core",
       "",
       "idle_env.h",
       {},
       {},
       {{"framac_idle_core_wp.h", "atomic_lock_thread_idle", "IDLE-1", {"-ulevel", "1"}},
        {"framac_idle_core_wp.h", "atomic_unlock_thread_idle", "IDLE-1"}},
       {},
       [](const Extraction& ex) {
         return ex.code.find("idle_lock") == std::string::npos
                    ? std::vector<std::string>{}
                    : std::vector<std::string>{"-DIC_LOCK_APART"};
       }},
      {"governor",
       "framac_governor.c",
       "governor_env.h",
       {},
       {{"GOV-5", "GOV_5"}, {"GOV-7", "GOV_7"}},
       {{"framac_governor_wp.h",
         "menu_reflect",
         "GOV-7",
         {"-inline-calls", "tick_nohz_idle_got_tick"}}},
       {},
       governor_defines,
       nullptr,
       governor_extraction,
       // The walk over a table of 3 states unrolled (its loop calls
       // functions, which EVA's automatic unrolling does not take), so that
       // GOV-1's assertion on one enabled state sees the index the walk
       // computes, not the join of its iterations (harness/
       // framac_governor.c, fc_gov1()): about 1 s more on menu.c.
       {"-eva-min-loop-unroll", "4"}},
  };
  return u;
}

// What a WP proof rests on besides the code (issue 48): the contract's own
// preconditions, the contracts it uses unproved by WP in the run, the
// options that shape it. Never the file's annotations (neutralised,
// framac_text.h).
std::string wp_rests_on(const WpContract& c) {
  if (c.header == "framac_busy_delay_wp.h")
    return "its precondition (system_state >= SYSTEM_SCHEDULING); the file's helpers inlined";
  if (c.header == "framac_xcede_wp.h")
    return "its preconditions (no records yet, a first answer neither success nor busy); the "
           "shims' contracts; Frama-C's own contract of Frama_C_interval() (printk's result); "
           "the retry loop unrolled once";
  if (c.header == "framac_states_wp.h")
    return "no precondition; the fix-up a call that may write anything";
  if (c.header == "framac_teo_wp.h")
    return "its precondition (\\valid(dev)); the contracts of the shims tick_nohz_idle_got_tick() "
           "and local_clock() in the same header, assumed";
  if (c.header == "framac_idle_core_wp.h")
    return "its precondition (fc_core_ok: a valid core, 1/2/4/8 threads); the atomics' "
           "sequential effect (shims/idle_env.h)";
  if (c.header == "framac_governor_wp.h")
    return "its precondition (\\valid(dev)); tick_nohz_idle_got_tick() inlined";
  return "its preconditions";
}

const Unit* find_unit(const std::string& component) {
  for (const auto& u : units())
    if (u.component == component) return &u;
  return nullptr;
}

// Split one line of report-csv (tab-separated).
std::vector<std::string> split_tabs(const std::string& line) {
  std::vector<std::string> f;
  size_t at = 0;
  for (;;) {
    const size_t t = line.find('\t', at);
    f.push_back(line.substr(at, t == std::string::npos ? std::string::npos : t - at));
    if (t == std::string::npos) break;
    at = t + 1;
  }
  return f;
}

// The assertion names of the driver, by line: "assert XCEDE_4:" on line N.
std::map<int, std::string> assertion_lines(const std::string& driver_text) {
  std::map<int, std::string> by_line;
  std::istringstream in(driver_text);
  int n = 0;
  for (std::string line; std::getline(in, line);) {
    ++n;
    const size_t a = line.find("assert ");
    if (a == std::string::npos || line.find("/*@") == std::string::npos) continue;
    const size_t b = a + 7, colon = line.find(':', b);
    if (colon == std::string::npos) continue;
    const std::string name = line.substr(b, colon - b);
    if (!name.empty() && std::all_of(name.begin(), name.end(), [](char c) {
          return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
        }))
      by_line[n] = name;
  }
  return by_line;
}

std::string base_name(const std::string& p) {
  const size_t s = p.rfind('/');
  return s == std::string::npos ? p : p.substr(s + 1);
}

// "out of bounds read: \valid_read(...)" from a property.
std::string describe(const EvaProperty& p) {
  std::string what = p.kind;
  if (p.kind == "mem_access")
    what = "out of bounds access";
  else if (p.kind == "index_bound")
    what = "index out of bounds";
  else if (p.kind == "signed_overflow")
    what = "signed overflow";
  else if (p.kind == "unsigned_overflow")
    what = "unsigned overflow";
  else if (p.kind == "signed_downcast")
    what = "signed downcast";
  else if (p.kind == "unsigned_downcast")
    what = "unsigned downcast";
  else if (p.kind == "division_by_zero")
    what = "division by zero";
  else if (p.kind == "initialization")
    what = "uninitialized read";
  else if (p.kind == "user assertion")
    what = "assertion " + p.assertion + (p.status == "Dead" ? " never reached" : " unproven");
  std::string text = p.text;
  if (text.size() > 120) text = text.substr(0, 117) + "...";
  return what + (text.empty() ? "" : ": " + text);
}

}  // namespace

std::string framac_command() {
  const char* e = std::getenv("IDLESPEC_FRAMAC");
  if (e && std::string(e) == "none") return "";
  return e && *e ? e : "frama-c";
}

std::string framac_setup_line() {
  return "Frama-C is not installed: the clauses it proves say 'tested' (set up with "
         "`scripts/setup.sh framac`, or `apt-get install frama-c-base why3 z3`)";
}

std::vector<std::string> framac_clauses(const std::string& component) {
  std::vector<std::string> out;
  if (const Unit* u = find_unit(component))
    for (const auto& [id, a] : u->clauses) out.push_back(id);
  return out;
}

const char* const kFramacMachine = "gcc_x86_64";

std::string framac_host_mismatch() {
#if defined(__x86_64__) && !defined(__CHAR_UNSIGNED__)
  return "";
#else
  return "the host is not x86-64 with signed char, the only 64-bit machine Frama-C 25 describes "
         "(gcc_x86_64)";
#endif
}

EvaResult parse_eva_report(const std::string& csv, const std::string& driver_text,
                           const std::string& driver_name, const std::string& log) {
  EvaResult r;
  const auto names = assertion_lines(driver_text);
  for (const auto& [line, name] : names) ++r.assertions[name];
  r.assertion_lines = names;
  std::istringstream in(csv);
  std::string line;
  std::getline(in, line);  // the header
  if (line.rfind("directory\tfile\tline", 0) != 0) {
    r.error = "Frama-C's report has no header";
    return r;
  }
  while (std::getline(in, line)) {
    const auto f = split_tabs(line);
    if (f.size() < 7) continue;
    const std::string& status = f[5];
    const std::string& kind = f[4];
    const std::string& function = f[3];
    // An assertion of the driver EVA proved: reached, and true there.
    if (kind == "user assertion" && status == "Valid" && base_name(f[1]) == driver_name) {
      const auto it = names.find(std::atoi(f[2].c_str()));
      if (it != names.end()) ++r.reached[it->second];
    }
    if (status == "Valid") continue;
    // "Considered valid": a specification taken as true. Only Frama-C's own
    // library's (its builtins' and libc's contracts, which EVA uses as
    // such); anywhere else it is not a proof. No property is skipped by a
    // name the code chose (a function the file calls Frama_C_... is the
    // file's: such a file is not proven at all, framac_text.h).
    if (status == "Considered valid" && f[0].rfind("FRAMAC_SHARE", 0) == 0) continue;
    // A library function's precondition on a path EVA found unreachable.
    if (status == "Dead" && kind != "user assertion") continue;
    EvaProperty p;
    p.kind = kind;
    p.file = f[0] == "." || f[0].empty() ? f[1] : f[0] + "/" + f[1];
    p.line = std::atoi(f[2].c_str());
    p.function = function;
    p.status = status;
    p.text = f[6];
    if (kind == "user assertion" && base_name(p.file) == driver_name) {
      const auto it = names.find(p.line);
      if (it != names.end()) p.assertion = it->second;
    }
    r.unproven.push_back(p);
  }
  // EVA's final states: "Values at end of function NAME:" followed by
  // "  NON TERMINATING FUNCTION" when no state reached its end.
  std::istringstream lines(log);
  std::string function;
  for (std::string l; std::getline(lines, l);) {
    const std::string head = "Values at end of function ";
    const size_t h = l.find(head);
    if (h != std::string::npos) {
      function = l.substr(h + head.size());
      if (!function.empty() && function.back() == ':') function.pop_back();
      continue;
    }
    if (l.find("NON TERMINATING FUNCTION") != std::string::npos && !function.empty() &&
        std::find(r.non_terminating.begin(), r.non_terminating.end(), function) ==
            r.non_terminating.end())
      r.non_terminating.push_back(function);
    if (l.find("egeneration") != std::string::npos) r.degenerated = true;
  }
  r.ran = true;
  return r;
}

EvaResult run_eva(const Options& opt, const std::string& dir, const std::string& env_header,
                  const std::string& code, const std::string& driver,
                  const std::vector<std::string>& defs, double timeout,
                  const std::vector<std::string>& extra_args) {
  EvaResult r;
  const auto t0 = std::chrono::steady_clock::now();
  const std::string cmd = framac_command();
  if (cmd.empty()) {
    r.error = "Frama-C turned off (IDLESPEC_FRAMAC=none)";
    return r;
  }
  if (!executable_on_path(cmd)) {
    r.unavailable = framac_setup_line();
    return r;
  }
  const std::string unit = dir + "/framac_unit.c", csv = dir + "/eva.csv";
  const std::string driver_path = opt.harness_dir + "/" + driver;
  // The driver's opening (Frama-C's builtins, the WARN_ON hook) before the
  // code, so that no macro of the code reaches it; the caller ends `code`
  // with an #undef of every name the file defines (framac_text.h), so that
  // none reaches the driver's C or its assertions either.
  std::string text = "#include \"kernel.h\"\n";
  if (!env_header.empty()) text += "#include \"" + env_header + "\"\n";
  text += "#include \"framac_driver.h\"\n";
  text += code + "#include \"" + driver_path + "\"\n";
  if (!spit(unit, text)) {
    r.error = "cannot write " + unit;
    return r;
  }
  std::string cpp = "-I" + opt.harness_dir + "/shims -I" + opt.harness_dir;
  for (const auto& d : defs) cpp += " " + d;
  Job j;
  j.argv = {cmd, "-machdep", kFramacMachine, "-cpp-extra-args=" + cpp, unit, "-eva",
            "-eva-auto-loop-unroll", "64", "-warn-signed-overflow", "-warn-unsigned-overflow",
            // Verbose 1 for the final states (a function EVA found
            // non-terminating); the initial state and the summary, which
            // can be long, are left out.
            "-eva-verbose", "1", "-eva-msg-key=-initial-state,-summary", "-eva-no-show-progress"};
  j.argv.insert(j.argv.end(), extra_args.begin(), extra_args.end());
  // The statements EVA leaves dead, listed by the project's own module
  // (validate/framac_dead.h): a clause whose function has one is not proven.
  std::string dead_why;
  const std::string dead_module = build_dead_module(opt, dir, dead_why);
  const std::string dead_list = dir + "/eva_dead.txt";
  if (!dead_module.empty()) {
    j.argv.insert(j.argv.begin() + 1, {"-load-module", dead_module});
    j.env.emplace_back("IDLESPEC_EVA_DEAD", dead_list);
  }
  for (const char* a : {"-then", "-report-csv"}) j.argv.push_back(a);
  j.argv.push_back(csv);
  j.out = dir + "/eva.out";
  j.err = dir + "/eva.err";
  j.reads = {opt.harness_dir + "/shims", opt.harness_dir, driver_path};
  // Frama-C quotes the line of a syntax error from the file the driver's
  // #line markers name: refused quietly (it reports the error without it).
  if (const std::string label = first_line_label(code); !label.empty()) j.quiet_refusals = {label};
  // Frama-C's plug-in loader (findlib) reads its configuration from /etc.
  if (access("/etc/ocamlfind.conf", R_OK) == 0) j.reads.push_back("/etc/ocamlfind.conf");
  j.timeout = timeout;
  j.memory_mb = 0;  // a tool, like the compilers
  j.confine = Confine::tool;
  j.scratch = dir;
  const auto res = run_jobs({j}, 1, timeout);
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const JobResult& jr = res.at(0);
  if (jr.exec_failed) {
    if (jr.sandbox_error.empty())
      r.unavailable = framac_setup_line();
    else
      r.error = "Frama-C could not run in the sandbox: " + jr.sandbox_error;
    return r;
  }
  if (jr.timed_out || jr.skipped) {
    r.error = "Frama-C did not finish within " + strprintf("%.0f", timeout) + " s";
    return r;
  }
  if (jr.exit_code != 0 || !std::filesystem::exists(csv)) {
    std::string why = tail(slurp(j.out) + slurp(j.err), 4);
    while (!why.empty() && (why.back() == '\n' || why.back() == ' ')) why.pop_back();
    for (char& c : why)
      if (c == '\n') c = ' ';
    r.error = "Frama-C could not analyse the unit (" + outcome(jr, timeout) + "): " + why;
    return r;
  }
  const std::string driver_text = slurp(driver_path);
  EvaResult parsed = parse_eva_report(slurp(csv), driver_text, driver, slurp(j.out) + slurp(j.err));
  parsed.seconds = r.seconds;
  if (!dead_module.empty()) {
    parsed.dead = parse_dead_list(slurp(dead_list));
    if (!parsed.dead.complete) dead_why = "the module listing EVA's dead statements wrote no list";
  }
  if (!parsed.dead.complete) parsed.dead_error = dead_why;
  return parsed;
}

WpResult run_wp(const Options& opt, const std::string& dir, const std::string& env_header,
                const std::string& code, const std::string& contracts, const std::string& function,
                const std::vector<std::string>& inline_functions,
                const std::vector<std::string>& extra_args, const std::vector<std::string>& defs,
                double timeout, bool contracts_after_code,
                const std::vector<std::string>& shim_functions) {
  WpResult r;
  const auto t0 = std::chrono::steady_clock::now();
  const std::string cmd = framac_command();
  if (cmd.empty() || !executable_on_path(cmd) || !executable_on_path("why3")) {
    r.error = "Frama-C or why3 is not installed";
    return r;
  }
  // why3's prover list, written in the run's own directory (never $HOME).
  const std::string conf = dir + "/why3.conf", unit = dir + "/wp_" + function + ".c";
  const std::string contracts_path = opt.harness_dir + "/" + contracts;
  std::string text = "#include \"kernel.h\"\n";
  if (!env_header.empty()) text += "#include \"" + env_header + "\"\n";
  if (contracts_after_code)
    text += code + "#include \"" + contracts_path + "\"\n";
  else
    text += "#include \"" + contracts_path + "\"\n" + code;
  if (!spit(unit, text)) {
    r.error = "cannot write " + unit;
    return r;
  }
  Job detect;
  detect.argv = {"why3", "config", "detect", "-C", conf};
  detect.out = dir + "/why3.out";
  detect.err = dir + "/why3.err";
  detect.timeout = timeout;
  detect.memory_mb = 0;
  detect.confine = Confine::tool;
  detect.scratch = dir;
  Job wp;
  // The file's own helpers (rtas_scheduler_up(), the early policy) are
  // inlined: WP sees their effects, and none needs a contract.
  wp.argv = {cmd, "-machdep", kFramacMachine};
  std::string cpp = "-I" + opt.harness_dir + "/shims -I" + opt.harness_dir;
  for (const auto& d : defs) cpp += " " + d;
  wp.argv.push_back("-cpp-extra-args=" + cpp);
  if (!inline_functions.empty()) {
    std::string list;
    for (const auto& f : inline_functions) list += (list.empty() ? "" : ",") + f;
    wp.argv.push_back("-inline-calls");
    wp.argv.push_back(list);
  }
  for (const char* a : {"-wp", "-wp-fct"}) wp.argv.push_back(a);
  if (const std::string label = first_line_label(code); !label.empty()) wp.quiet_refusals = {label};
  wp.argv.insert(wp.argv.begin() + 4, unit);
  std::string selected = function;
  for (const auto& f : shim_functions) selected += "," + f;
  wp.argv.push_back(selected);
  // Z3 is bounded by its resource limit (why3's steps), so that a goal's
  // verdict does not depend on the machine's load: the hardest true goal of
  // the contracts here (teo_reflect()'s on Debian 6.12) needs 1,622,510
  // steps, and a false goal mostly runs out of them within two seconds.
  // Some false goals spin without spending steps (busy_delay's BUSY-1 on a
  // policy that retries 9906): kWpGoalSeconds stops those, far above the
  // under 0.4 s any true goal here takes.
  for (const char* a :
       {"-wp-prover", "z3", "-wp-steps", kWpSteps, "-wp-timeout", kWpGoalSeconds, "-wp-par", "1"})
    wp.argv.push_back(a);
  wp.argv.insert(wp.argv.end(), extra_args.begin(), extra_args.end());
  wp.env = {{"WHY3CONFIG", conf}};
  wp.out = dir + "/wp_" + function + ".out";
  wp.err = dir + "/wp_" + function + ".err";
  wp.reads = {opt.harness_dir + "/shims", opt.harness_dir, contracts_path};
  if (access("/etc/ocamlfind.conf", R_OK) == 0) wp.reads.push_back("/etc/ocamlfind.conf");
  wp.timeout = timeout;
  wp.memory_mb = 0;
  wp.confine = Confine::tool;
  wp.scratch = dir;
  // One detection per directory: a unit's contracts share it.
  const bool detected =
      std::filesystem::exists(conf) || run_jobs({detect}, 1, timeout).at(0).exit_code == 0;
  const double left =
      timeout - std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (!detected || left <= 0) {
    r.error = "why3 could not configure its provers: " + tail(slurp(detect.err), 2);
    return r;
  }
  const auto w = run_jobs({wp}, 1, left);
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (w.at(0).timed_out || w.at(0).skipped) {
    r.error = "WP did not finish within " + strprintf("%.0f", timeout) + " s";
    return r;
  }
  // WP exits 0 whether or not the goals are proved: its summary says.
  const std::string out = slurp(wp.out) + slurp(wp.err);
  const size_t at = out.find("Proved goals:");
  if (w.at(0).exit_code != 0 || at == std::string::npos) {
    std::string seen;
    for (const auto& e : w.at(0).escapes) seen += "; the sandbox stopped: " + e;
    r.error = "WP did not run (" + outcome(w.at(0), left) + seen + "): " + tail(out, 2);
    return r;
  }
  if (std::sscanf(out.c_str() + at, "Proved goals: %d / %d", &r.proved, &r.goals) != 2)
    r.error = "WP's summary could not be read";
  r.ran = r.error.empty();
  return r;
}

namespace {

// What a unit reads of a target: the text with its annotations
// neutralised, the extraction the unit is built from, and its -D flags (one
// per found function asked for, and the layout's).
struct UnitText {
  AnalysisText neutral;
  Target analysed;
  Extraction ex;
  std::vector<std::string> defs;
};

UnitText unit_text(const Unit& unit, const Target& target) {
  const Unit* u = &unit;
  UnitText ut;
  ut.neutral = analysis_text(target.text);
  ut.analysed = target;
  ut.analysed.text = ut.neutral.text;
  const Target& analysed = ut.analysed;
  std::vector<std::string> names = target.functions;
  auto listed = [](const std::vector<std::string>& list, const std::string& n) {
    return std::find(list.begin(), list.end(), n) != list.end();
  };
  if (!u->functions.empty())
    names.erase(std::remove_if(names.begin(), names.end(),
                               [&](const std::string& n) {
                                 return !listed(u->functions, n) && !listed(u->eva_also, n);
                               }),
                names.end());
  ut.ex = u->extraction ? u->extraction(analysed) : extract(analysed.text, names, analysed.path);
  if (u->prepare) u->prepare(analysed, ut.ex);
  for (const auto& [fn, d] : u->defines)
    for (const auto& f : ut.ex.functions)
      if (f.name == fn && f.found &&
          std::find(target.functions.begin(), target.functions.end(), fn) != target.functions.end())
        ut.defs.push_back(d);
  if (u->layout_defines)
    for (const auto& d : u->layout_defines(ut.ex)) ut.defs.push_back(d);
  return ut;
}

// The -D flags' names a text may not name: this run's (`defs`) and every
// one any unit passes for a found function, not only this run's.
std::vector<std::string> define_names(const std::vector<std::string>& defs) {
  std::vector<std::string> names;
  auto define_name = [](std::string d) {
    if (d.rfind("-D", 0) == 0) d = d.substr(2);
    return d.substr(0, d.find('='));
  };
  for (const auto& d : defs) names.push_back(define_name(d));
  for (const auto& unit : units())
    for (const auto& [fn, d] : unit.defines) names.push_back(define_name(d));
  return names;
}

}  // namespace

std::vector<std::string> framac_define_names(const std::string& component, const Target& target) {
  const Unit* u = find_unit(component);
  return define_names(u && target.candidate.empty() ? unit_text(*u, target).defs
                                                    : std::vector<std::string>{});
}

void framac_pass(const Options& opt, const Component& component, const Target& target, Part& part) {
  const Unit* u = find_unit(component.name);
  if (!u || !target.candidate.empty()) return;
  auto clause_of = [&](const std::string& id) -> const std::string* {
    for (const auto& [c, a] : u->clauses)
      if (c == id) return &a;
    return nullptr;
  };
  std::vector<ClauseVerdict*> covered;
  for (auto& v : part.clauses)
    if (clause_of(v.id) && v.line > 0) covered.push_back(&v);
  // A unit of WP contracts only (idle_core: its clauses are about how the
  // threads' steps interleave, none about memory, ranges or arithmetic)
  // runs whenever the file has a contract's function.
  const bool wp_only = u->clauses.empty();
  // A contract on a function the file has but the EVA unit is not built
  // from (states: the probe; the unit is the fix-up's) runs on its own
  // extraction, whether or not EVA runs.
  auto apart = [&](const WpContract& c) {
    return !u->functions.empty() &&
           std::find(u->functions.begin(), u->functions.end(), c.function) == u->functions.end() &&
           std::find(target.functions.begin(), target.functions.end(), c.function) !=
               target.functions.end();
  };
  const bool any_apart = std::any_of(u->wp.begin(), u->wp.end(), apart);
  if (covered.empty() && !wp_only && !any_apart) return;
  // A POWER target (big-endian ppc64, little-endian ppc64le: unsigned char,
  // LP64) has no machine description in Frama-C 25 (its machines: x86_16,
  // x86_32, x86_64, ppc_32, msvc_x86_64): no proof there, the clause says
  // so on that target, and the merged verdict takes the weakest level
  // (merge_target_parts). Likewise a host Frama-C does not describe.
  const std::string mismatch =
      !opt.target.empty()
          ? "Frama-C 25 has no machine description of " + target_label(opt.target) +
                " (unsigned char, LP64; its machines are x86_16, x86_32, x86_64, ppc_32 and "
                "msvc_x86_64), and the host's x86-64 proof is not this target's"
          : framac_host_mismatch();
  if (!mismatch.empty()) {
    for (ClauseVerdict* v : covered) {
      v->proof = "tested";
      v->proof_note = "not proven: " + mismatch;
    }
    return;
  }
  // The text Frama-C reads: the file's annotations neutralised, its
  // macros #undef'd before the driver; a file that names the analyser's
  // identifiers or tests for the analysis is not proven (framac_text.h).
  UnitText ut = unit_text(*u, target);
  const AnalysisText& neutral = ut.neutral;
  const Target& analysed = ut.analysed;
  Extraction& ex = ut.ex;
  const std::vector<std::string>& defs = ut.defs;
  std::vector<std::string> refusals = analysis_text(target.text, define_names(ut.defs)).refusals;
  for (const auto& r : analysis_text(ex.code, {}, true).refusals)
    refusals.push_back("the extraction's " + r);
  if (!refusals.empty()) {
    std::string why;
    for (const auto& r : refusals) why += (why.empty() ? "" : "; ") + r;
    part.notes.push_back("Frama-C: not run, the file speaks to the analyser: " + why);
    for (ClauseVerdict* v : covered) {
      v->proof = "tested";
      v->proof_note = "not proven: the file speaks to the analyser (" + refusals.front() + ")";
    }
    return;
  }
  if (neutral.annotations > 0)
    part.notes.push_back(strprintf(
        "Frama-C: the file's %d ACSL annotation%s neutralised: the analysis reads none of them",
        neutral.annotations, neutral.annotations == 1 ? "" : "s"));
  const std::string undefs = undef_lines(neutral.macros);
  // At most 10 s under the default budget: a third of the part's --budget
  // (all targets' together, not this target's share: Frama-C runs on the
  // host alone, and its verdicts ought not to change with the number of
  // targets asked for), 1..10 s.
  const double whole = opt.part_budget_seconds > 0 ? opt.part_budget_seconds : opt.budget_seconds;
  const double timeout = std::clamp(whole / 3, 1.0, 10.0);
  std::string dir = part.temp_dir;
  const bool own_dir = dir.empty();
  if (own_dir) dir = make_temp_dir("framac");
  EvaResult r;
  if (dir.empty())
    r.error = "cannot create a temporary directory";
  else if (!wp_only && !covered.empty())
    r = run_eva(opt, dir, u->env_header, ex.code + undefs, u->driver, defs, timeout, u->eva_args);
  const bool framac_present = !framac_command().empty() && executable_on_path(framac_command());
  // The shims' contracts are about the project's own C, the same for every
  // file: the test suite proves them on their bodies (IDLESPEC_WP_SHIMS=1,
  // tests/validate/run_framac_xcede_wp.sh), and a run takes them as proved
  // (xcede: 1.5-2 s of WP instead of 17 s).
  const char* prove_shims_env = std::getenv("IDLESPEC_WP_SHIMS");
  const bool prove_shims = prove_shims_env && std::string(prove_shims_env) == "1";
  // WP where the unit has contracts: each verdict goes beside EVA's.
  std::vector<std::pair<const WpContract*, WpResult>> wps;
  for (const WpContract& c : u->wp) {
    const bool own = apart(c);
    Extraction own_ex;
    if (own) own_ex = extract(analysed.text, std::vector<std::string>{c.function}, target.path);
    const Extraction& wx = own ? own_ex : ex;
    // The contract's function: one asked for, or a helper pulled in.
    const bool found =
        std::any_of(wx.functions.begin(), wx.functions.end(),
                    [&](const FoundFunction& f) { return f.name == c.function && f.found; }) ||
        std::any_of(wx.prelude.begin(), wx.prelude.end(), [&](const std::string& item) {
          return item.rfind("function " + c.function + " ", 0) == 0;
        });
    if (!(wp_only || own ? framac_present : r.ran) || dir.empty() || !found) continue;
    // The helpers extract() pulled in: "function NAME (line N)".
    std::vector<std::string> helpers;
    for (const auto& item : wx.prelude)
      if (item.rfind("function ", 0) == 0) {
        const std::string name = item.substr(9, item.find(' ', 9) - 9);
        // The EVA unit's own functions stay calls for a contract apart
        // (the fix-up's loops: WP takes the call as writing anything).
        if (name != c.function && !(own && std::find(u->functions.begin(), u->functions.end(),
                                                     name) != u->functions.end()))
          helpers.push_back(name);
      }
    // Z3's steps bound each goal (run_wp()); the seconds, the whole run's
    // backstop, are --budget's, at most 30 s.
    WpResult wp = run_wp(opt, dir, u->env_header, wx.code + undefs, c.header, c.function, helpers,
                         c.args, defs, std::clamp(opt.budget_seconds, 3.0, 30.0), c.after_code,
                         prove_shims ? c.shims : std::vector<std::string>{});
    part.seconds += wp.seconds;
    // A contract on a clause no EVA assertion covers proves one step of it,
    // not the clause: the note says which.
    const std::string step = !c.part.empty()       ? ", " + c.part
                             : clause_of(c.clause) ? ""
                                                   : ", a step of " + c.clause;
    const std::string shims = c.shims.empty() ? ""
                              : prove_shims
                                  ? "; the shims' contracts it uses proved in the same run"
                                  : "; the shims' contracts it uses proved by the test suite";
    if (wp.ran)
      part.notes.push_back(strprintf(
          "Frama-C WP: %s()'s contract (harness/%s%s): %d of %d goals proved with Z3, %.1f s%s; "
          "rests on %s, machine %s, none of the file's annotations",
          c.function.c_str(), c.header.c_str(), step.c_str(), wp.proved, wp.goals, wp.seconds,
          shims.c_str(), wp_rests_on(c).c_str(), kFramacMachine));
    else
      part.notes.push_back("Frama-C WP: " + wp.error);
    wps.emplace_back(&c, wp);
  }
  if (own_dir && !dir.empty()) {
    if (opt.keep_temp)
      part.notes.push_back("Frama-C unit kept in " + dir);
    else
      remove_tree(dir);
  }
  part.seconds += r.seconds;
  auto shown = [&](const std::string& file) {
    if (file == target.path) return target.display;
    const std::string shims = opt.harness_dir + "/";
    if (file.rfind(shims, 0) == 0) return "harness/" + file.substr(shims.size());
    return file;
  };
  // The code's own alarms first (the file under test), then the shims'
  // and the driver's, then the assertions.
  auto rank = [&](const EvaProperty& p) {
    if (p.kind == "user assertion") return 2;
    return p.file == target.path ? 0 : 1;
  };
  if (r.ran)
    part.notes.push_back(strprintf(
        "Frama-C EVA: %zu propert%s unproven over the spec's ranges, %.1f s (driver "
        "harness/%s; machine %s: x86-64, little-endian, signed char, LP64, the host's harness "
        "build)",
        r.unproven.size(), r.unproven.size() == 1 ? "y" : "ies", r.seconds, u->driver.c_str(),
        kFramacMachine));
  // Proven means reached: each clause's own assertions reached and proved
  // (below), no function of the file EVA found non-terminating, no
  // degeneration, and the driver's end (FC_END, after every call) reached
  // unless an unproven assertion of the driver's stopped EVA before it.
  std::string unreached;
  if (r.ran) {
    std::vector<std::string> own;  // the file's functions in the unit
    for (const auto& f : ex.functions)
      if (f.found) own.push_back(f.name);
    for (const auto& item : ex.prelude)
      if (item.rfind("function ", 0) == 0) own.push_back(item.substr(9, item.find(' ', 9) - 9));
    const bool driver_stopped =
        std::any_of(r.unproven.begin(), r.unproven.end(),
                    [](const EvaProperty& p) { return p.kind == "user assertion"; });
    if (r.degenerated) unreached = "EVA's analysis degenerated";
    for (const auto& f : r.non_terminating)
      if (unreached.empty() && std::find(own.begin(), own.end(), f) != own.end())
        unreached = "EVA found the file's " + f + "() non-terminating";
    if (unreached.empty() && !r.reached.count("FC_END") && !driver_stopped)
      unreached = "EVA did not reach the end of the driver (assertion FC_END)";
  }
  for (ClauseVerdict* v : covered) {
    const std::string& assertion = *clause_of(v->id);
    if (!r.ran) {
      v->proof = "tested";
      v->proof_note = !r.unavailable.empty() ? "Frama-C is not installed" : r.error;
      continue;
    }
    // The clause's unproven properties: every alarm of the unit (an alarm
    // anywhere leaves EVA's states after it conditional), and its own
    // assertions.
    // Another clause's assertion blocks it only when EVA meets it first
    // (after an unproven assertion EVA goes on with the states that satisfy
    // it): one stated before this clause's last assertion in the driver.
    int last = 0;
    for (const auto& [line, name] : r.assertion_lines)
      if (name == assertion) last = std::max(last, line);
    const EvaProperty* first = nullptr;
    for (const auto& p : r.unproven) {
      if (p.kind == "user assertion" && p.assertion != assertion &&
          (p.assertion.empty() ? false : p.line >= last))
        continue;
      if (!first || rank(p) < rank(*first)) first = &p;
    }
    // A failed clause: its own assertion, where EVA left it unproven, is
    // the alarm that belongs beside the counterexample (an alarm elsewhere
    // in the code may be one of EVA's false ones), unless the clause's
    // post-condition includes the code's alarms and one is in the file.
    const bool alarm_first = first && rank(*first) == 0 &&
                             std::find(u->alarm_clauses.begin(), u->alarm_clauses.end(), v->id) !=
                                 u->alarm_clauses.end();
    if (v->status == "failed" && !assertion.empty() && !alarm_first)
      for (const auto& p : r.unproven)
        if (p.kind == "user assertion" && p.assertion == assertion) {
          first = &p;
          break;
        }
    const bool stated = r.assertions.count(assertion) > 0;
    // No dead branch in the function under test (the clause's, and the
    // functions the unit takes for it beside: the probe's snooze timeout):
    // a statement EVA never reached is code whose behaviour the proof does
    // not speak for, though the tests may run it.
    std::vector<std::string> under_test = {v->function};
    for (const auto& f : u->eva_also) under_test.push_back(f);
    const DeadStatement* dead = first_dead_in(r.dead, under_test, target.path);
    std::string dead_note;
    if (!r.dead_error.empty())
      dead_note = r.dead_error;
    else if (dead)
      dead_note = strprintf(
          "EVA left line %d of the file's %s() dead (never reached over the "
          "driver's range), code the tests may run",
          dead->line, dead->function.c_str());
    const bool reached =
        stated && r.reached.count(assertion) > 0 && unreached.empty() && dead_note.empty();
    if (!first && reached && v->status == "held") {
      v->proof = "proven";
      v->proof_note = strprintf(
          "Frama-C EVA, 0 alarms over the spec's ranges, every %s assertion (%d) reached and "
          "proven, on %s",
          assertion.c_str(), r.reached.at(assertion), kFramacMachine);
      for (const auto& [c, wp] : wps)
        if (wp.ran && v->id == c->clause && wp.goals > 0 && wp.proved == wp.goals)
          v->proof_note += "; WP proves " + c->function + "()'s contract, " +
                           std::to_string(wp.goals) + (wp.goals == 1 ? " goal" : " goals");
      continue;
    }
    v->proof = "tested";
    if (first) {
      v->alarm = describe(*first);
      v->alarm_file = shown(first->file);
      v->alarm_line = first->line;
      v->proof_note = "EVA could not prove it: " + v->alarm + " at " + v->alarm_file + ":" +
                      std::to_string(v->alarm_line);
      // Beside an alarm elsewhere, which of the clause's own assertions EVA
      // left unproven too (by the driver's line): the part of the clause the
      // note's alarm does not speak for (GOV-7's GOV-1 beside the
      // predictor's alarms).
      std::vector<int> own_lines;
      std::string own_file;
      for (const auto& p : r.unproven)
        if (&p != first && p.kind == "user assertion" && p.assertion == assertion &&
            std::find(own_lines.begin(), own_lines.end(), p.line) == own_lines.end()) {
          own_lines.push_back(p.line);
          own_file = shown(p.file);
        }
      std::sort(own_lines.begin(), own_lines.end());
      if (!own_lines.empty()) {
        std::string list;
        for (const int l : own_lines) list += (list.empty() ? "" : ", ") + std::to_string(l);
        v->proof_note +=
            strprintf("; %s assertion%s unproven too at %s line%s %s", assertion.c_str(),
                      own_lines.size() == 1 ? "" : "s", own_file.c_str(),
                      own_lines.size() == 1 ? "" : "s", list.c_str());
      }
    } else if (!stated) {
      v->proof_note = "the Frama-C unit states no assertion " + assertion;
    } else if (!unreached.empty()) {
      v->proof_note = "not proven: " + unreached;
    } else if (!dead_note.empty()) {
      v->proof_note = "not proven: " + dead_note;
    } else if (!r.reached.count(assertion)) {
      v->proof_note = "not proven: EVA never reached assertion " + assertion;
    } else {
      v->proof_note = "EVA raised no alarm; the tests' verdict stands";
    }
  }
}

}  // namespace idlespec::validate
