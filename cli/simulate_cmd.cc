// idlespec simulate: run a component's policy against a model and report what
// its requests cost. Targets: busy_delay (spec/busy_delay.md, "The
// simulator"; the model is described in impl/busy_delay_sim.h) and governor
// (the wake-up sweep of spec/governor.md; impl/governor_sim.h).
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <iterator>
#include <span>
#include <sstream>

#include "cli/args.h"
#include "cli/commands.h"
#include "cli/input.h"
#include "impl/busy_delay_sim.h"
#include "impl/governor_sim.h"
#include "impl/json.h"
#include "impl/text.h"
#include "verify/outputs.h"

namespace idlespec::cli {
namespace {

namespace sim = busy_delay::sim;

constexpr const char* kSimulateUsage = R"(usage: idlespec simulate TARGET [options]

targets:
  busy_delay  run the RTAS busy/extended-delay policies in the caller's retry
              loop against a firmware model (DLPAR workloads or a trace) and
              report wall time, CPU time and RTAS calls per subject
  governor    wake a CPU at fixed intervals and count what the menu governor
              selects (usage, above %, below %, time polling) per subject,
              as the cpuidle sysfs counters would

'idlespec simulate TARGET --help' for a target's options.
)";

constexpr const char* kBusyDelayNotes = R"(
The model (impl/busy_delay_sim.h): -2 = firmware progresses only while called
(N calls of work, each a CPU slice); 990x = firmware waits for an external
event that completes after a wall time, whatever the caller does.
msleep(n) = msecs_to_jiffies(n)+1 jiffies; usleep_range = min + 50 us;
fsleep <= 20 ms = usleep_range(us, 2us), else msleep; mdelay spins.
--cpu busy: need_resched() is true at every check and cond_resched() gives
the CPU away for one jiffy. A trace: one status per line ('#' comments), the
firmware's answers in order; each call costs 50 us of CPU.
)";

std::string ms(uint64_t us) { return strprintf("%.1f ms", static_cast<double>(us) / 1000.0); }

// --trace FILE, bounded (cli/input.h); a UsageError naming the option.
std::string read_file(const std::string& path) {
  std::string data;
  if (const std::string why = read_input(path, data); !why.empty())
    throw UsageError("--trace: " + escape_input_text(why));
  return data;
}

void print_text(const std::string& header, const std::vector<sim::Result>& rows) {
  std::cout << header << "\n\n";
  std::cout << strprintf("%-20s %-26s %12s %12s %10s %8s %8s\n", "subject", "form", "elapsed",
                         "CPU", "RTAS calls", "sleeps", "yields");
  for (const sim::Result& r : rows) {
    std::cout << strprintf("%-20s %-26s %12s %12s %10llu %8llu %8llu", r.label.c_str(),
                           r.form.c_str(), ms(r.elapsed_us).c_str(), ms(r.cpu_us).c_str(),
                           static_cast<unsigned long long>(r.rtas_calls),
                           static_cast<unsigned long long>(r.sleeps),
                           static_cast<unsigned long long>(r.yields));
    if (r.gave_up) std::cout << "  (gave up " << r.gave_up << " loops)";
    std::cout << "\n";
  }
}

void print_json(const std::string& workload, const std::optional<std::string>& trace,
                const std::string& cpu, unsigned hz, std::optional<uint64_t> seed,
                const std::vector<sim::Result>& rows) {
  JsonWriter w;
  w.begin_object();
  w.key("target").value("busy_delay");
  w.key("workload").value(workload);
  w.key("trace");
  if (trace)
    w.value(*trace);
  else
    w.null();
  w.key("cpu").value(cpu);
  w.key("hz").value(hz);
  w.key("seed");
  if (seed)
    w.value(*seed);
  else
    w.null();
  w.key("results").begin_array();
  for (const sim::Result& r : rows) {
    w.begin_object();
    w.key("subject").value(r.subject);
    w.key("form").value(r.form);
    w.key("label").value(r.label);
    w.key("elapsed_ms").value(static_cast<double>(r.elapsed_us) / 1000.0);
    w.key("cpu_ms").value(static_cast<double>(r.cpu_us) / 1000.0);
    w.key("rtas_calls").value(r.rtas_calls);
    w.key("busy_answers").value(r.busy_answers);
    w.key("extended_answers").value(r.extended_answers);
    w.key("loops").value(r.loops);
    w.key("gave_up").value(r.gave_up);
    w.key("sleeps").value(r.sleeps);
    w.key("sleep_ms").value(static_cast<double>(r.sleep_us) / 1000.0);
    w.key("spin_ms").value(static_cast<double>(r.spin_us) / 1000.0);
    w.key("cond_resched").value(r.cond_resched);
    w.key("yields").value(r.yields);
    w.key("yield_ms").value(static_cast<double>(r.yield_us) / 1000.0);
    w.end_object();
  }
  w.end_array();
  w.end_object();
  std::cout << w.str() << "\n";
}

int simulate_busy_delay(const std::vector<std::string>& argv) {
  Args args("simulate busy_delay", "[options]");
  args.option("subject", "S", "reference, legacy, early or all (default all)")
      .option("hz", "HZ", "kernel tick rate: 100 (default), 250 or 1000")
      .option("cpu", "C", "idle (default: need_resched() never true) or busy")
      .option("workload", "W", "dlpar-remove (default: mostly 9900/9901) or dlpar-add (mostly -2)")
      .option("trace", "FILE", "replay firmware statuses from FILE instead of a workload")
      .option("seed", "N", "seed of the workload's generator (default 1)")
      .flag("json", "machine-readable output");
  args.parse(argv);
  if (args.wants_help()) {
    std::cout << args.help() << kBusyDelayNotes;
    return 0;
  }
  if (!args.positional().empty())
    throw UsageError("unexpected argument '" + args.positional()[0] + "'");

  const std::string subject = args.get("subject").value_or("all");
  std::vector<busy_delay::PolicyInfo> policies;
  if (subject == "all") {
    for (const auto& p : busy_delay::policies()) policies.push_back(p);
  } else {
    policies = busy_delay::policies_of(subject);
    if (policies.empty())
      throw UsageError("unknown subject '" + subject + "' (known: reference, legacy, early, all)");
  }

  const std::string hz_text = args.get("hz").value_or("100");
  const unsigned hz = hz_text == "100"    ? 100
                      : hz_text == "250"  ? 250
                      : hz_text == "1000" ? 1000
                                          : 0;
  if (!sim::valid_hz(hz)) throw UsageError("--hz wants 100, 250 or 1000, not '" + hz_text + "'");

  const std::string cpu_text = args.get("cpu").value_or("idle");
  const auto cpu = sim::parse_cpu(cpu_text);
  if (!cpu) throw UsageError("--cpu wants idle or busy, not '" + cpu_text + "'");

  if (args.has("trace") && args.has("workload"))
    throw UsageError("give --workload or --trace, not both");
  const std::string workload_text = args.get("workload").value_or("dlpar-remove");
  const auto workload_kind = sim::parse_workload(workload_text);
  if (!workload_kind)
    throw UsageError("--workload wants dlpar-add or dlpar-remove, not '" + workload_text + "'");
  const uint64_t seed = args.get_u64("seed", 1);

  const sim::Config config{hz, *cpu};
  std::vector<sim::Result> rows;
  std::string header;
  std::string workload_label;
  if (const auto path = args.get("trace")) {
    std::string error;
    const auto trace = sim::parse_trace(read_file(*path), error);
    if (!trace)  // the error quotes the line: escaped, as the path
      return report_error("simulate busy_delay",
                          "--trace " + escape_input_text(*path) + ": " + escape_input_text(error),
                          args.has("json"), false);
    for (const auto& p : policies) rows.push_back(sim::run_trace(p, *trace, config));
    workload_label = "trace";
    header = strprintf("busy_delay: trace %s (%zu statuses), cpu %s, HZ=%u",
                       escape_input_text(*path).c_str(), trace->size(),
                       std::string(sim::cpu_name(*cpu)).c_str(), hz);
  } else {
    const sim::Workload w = sim::make_workload(*workload_kind, seed);
    for (const auto& p : policies) rows.push_back(sim::run_workload(p, w, config));
    workload_label = w.name;
    header = strprintf(
        "busy_delay: workload %s (%u LMBs, %zu RTAS operations, seed %llu), cpu %s, "
        "HZ=%u",
        w.name.c_str(), sim::kLmbCount, w.operations.size(), static_cast<unsigned long long>(seed),
        std::string(sim::cpu_name(*cpu)).c_str(), hz);
  }
  if (args.has("json")) {
    const auto trace_path = args.get("trace");
    print_json(
        workload_label,
        trace_path ? std::optional<std::string>(escape_input_text(*trace_path)) : std::nullopt,
        std::string(sim::cpu_name(*cpu)), hz,
        args.has("trace") ? std::nullopt : std::optional<uint64_t>(seed), rows);
  } else {
    print_text(header, rows);
  }
  return 0;
}

// --- simulate governor ---------------------------------------------------------

namespace gsim = governor::sim;

constexpr const char* kGovernorNotes = R"(
The model (impl/governor_sim.h): one wakee CPU, woken `interval` after it goes
idle, by an IPI (its next timer is 10 ms away) or by its own timer (the next
timer is the wake-up). The tick runs at HZ with a random phase per period
(--seed) until a selection stops it. Per selection: the subject's menu_select,
then the state: a polling state polls until the wake-up or its timeout (the
first non-polling state's target residency, as cpuidle-pseries' snooze); any
other state until the wake-up, a tick or a timer, plus its exit latency. The
core selects again while the wake-up has not come. above/below count as
cpuidle_enter_state does, in % of selections. Each (subject, interval) starts
from a fresh history; 300 warm-up wake-ups are not counted. No latency QoS.
--table takes the JSON of 'idlespec decode xcede --json' (a file, or - for
stdin); pseries-p10 is snooze 0/0 us (POLLING) + CEDE 12/120 us.
)";

// --table FILE or - (stdin), bounded (cli/input.h).
std::string read_table_text(const std::string& path) {
  std::string data;
  if (const std::string why = read_input(path, data); !why.empty())
    throw UsageError("--table: " + escape_input_text(why));
  return data;
}

void write_output_file(const std::string& option, const std::string& path,
                       const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) throw UsageError("--" + option + ": cannot create '" + path + "'");
  out << text;
  out.close();
  if (!out) throw UsageError("--" + option + ": cannot write '" + path + "'");
}

bool ends_with(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() &&
         s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// The first executable `name` on PATH, or "".
std::string find_on_path(const std::string& name) {
  const char* path = std::getenv("PATH");
  if (!path) return "";
  std::istringstream dirs{std::string(path)};
  std::string dir;
  while (std::getline(dirs, dir, ':')) {
    std::string candidate = dir.empty() ? std::string(".") : dir;
    candidate += '/';
    candidate += name;
    if (access(candidate.c_str(), X_OK) == 0) return candidate;
  }
  return "";
}

// Runs gnuplot on a script that writes `png`; a UsageError on failure.
void render_png(const std::string& script, const std::string& png) {
  const std::string gnuplot = find_on_path("gnuplot");
  if (gnuplot.empty()) {
    throw UsageError("--plot " + png +
                     ": a PNG needs gnuplot on PATH (Debian package gnuplot-nox); install it or "
                     "write an SVG instead (--plot FILE.svg)");
  }
  char name[] = "/tmp/idlespec-governor-XXXXXX";
  const int fd = mkstemp(name);
  if (fd < 0) throw UsageError("--plot " + png + ": cannot create a temporary file for gnuplot");
  const bool written =
      write(fd, script.data(), script.size()) == static_cast<ssize_t>(script.size());
  close(fd);
  int rc = -1;
  if (written) {
    const std::string command = "'" + gnuplot + "' '" + name + "'";
    rc = std::system(command.c_str());
  }
  unlink(name);
  if (!written || rc != 0)
    throw UsageError("--plot " + png + ": gnuplot failed (exit status " + std::to_string(rc) + ")");
}

// A row set's name (the Row::subject) and what it is.
struct SimSubject {
  std::string name;
  std::string summary;
};

void print_governor_text(const std::string& header, std::span<const governor::TableEntry> table,
                         std::span<const SimSubject> subjects, std::span<const gsim::Row> rows) {
  std::cout << header << "\n";
  for (const SimSubject& sub : subjects) {
    const SimSubject* s = &sub;
    std::cout << "\n" << s->name << ": " << s->summary << "\n";
    std::cout << strprintf("%11s", "interval us");
    std::vector<int> widths;
    for (const governor::TableEntry& e : table) {
      widths.push_back(std::max(10, static_cast<int>(e.name.size()) + 1));
      std::cout << strprintf(" %*s", widths.back(), e.name.c_str());
    }
    std::cout << strprintf(" %8s %8s %16s\n", "above %", "below %", "poll us/wake-up");
    for (const gsim::Row& r : rows) {
      if (r.subject != s->name) continue;
      std::cout << strprintf("%11llu", static_cast<unsigned long long>(r.interval_us));
      for (size_t i = 0; i < r.usage.size(); ++i)
        std::cout << strprintf(" %*llu", widths[i], static_cast<unsigned long long>(r.usage[i]));
      const double poll_per_wake =
          r.wakeups ? static_cast<double>(r.poll_time_ns) / 1000.0 / static_cast<double>(r.wakeups)
                    : 0.0;
      std::cout << strprintf(" %8.2f %8.2f %16.2f", r.above_pct(), r.below_pct(), poll_per_wake);
      if (r.truncated)
        std::cout << strprintf("  (%llu periods cut short)",
                               static_cast<unsigned long long>(r.truncated));
      std::cout << "\n";
    }
  }
}

void json_us(JsonWriter& w, uint64_t ns) {
  if (ns % 1000 == 0)
    w.value(ns / 1000);
  else
    w.value(static_cast<double>(ns) / 1000.0);
}

void print_governor_json(const std::string& table_source,
                         std::span<const governor::TableEntry> table, const gsim::Config& config,
                         const std::string& governors, std::span<const gsim::Row> rows) {
  JsonWriter w;
  w.begin_object();
  w.key("target").value("governor");
  w.key("governor").value(governors);
  w.key("table").begin_object();
  w.key("source").value(table_source);
  w.key("states").begin_array();
  for (const governor::TableEntry& e : table) {
    w.begin_object();
    w.key("name").value(e.name);
    w.key("exit_latency_us");
    json_us(w, e.exit_latency_ns);
    w.key("target_residency_us");
    json_us(w, e.target_residency_ns);
    w.key("flags").begin_array();
    if (e.polling) w.value("POLLING");
    if (e.timer_stop) w.value("TIMER_STOP");
    w.end_array();
    w.key("disabled").value(e.disabled);
    w.end_object();
  }
  w.end_array();
  w.end_object();
  w.key("wake").value(gsim::wake_name(config.wake));
  w.key("hz").value(config.hz);
  w.key("wakeups").value(config.wakeups);
  w.key("warmup").value(config.warmup);
  w.key("seed").value(config.seed);
  w.key("results").begin_array();
  for (const gsim::Row& r : rows) {
    w.begin_object();
    w.key("subject").value(r.subject);
    w.key("interval_us").value(r.interval_us);
    w.key("wakeups").value(r.wakeups);
    w.key("selections").value(r.selections);
    w.key("above").value(r.above);
    w.key("below").value(r.below);
    w.key("above_pct").value(r.above_pct());
    w.key("below_pct").value(r.below_pct());
    w.key("usage").begin_array();
    for (size_t i = 0; i < r.usage.size(); ++i) {
      w.begin_object();
      w.key("state").value(table[i].name);
      w.key("count").value(r.usage[i]);
      w.end_object();
    }
    w.end_array();
    w.key("poll_time_us").value(static_cast<double>(r.poll_time_ns) / 1000.0);
    w.key("idle_time_us").value(static_cast<double>(r.idle_time_ns) / 1000.0);
    w.key("tick_wakeups").value(r.tick_wakeups);
    w.key("truncated").value(r.truncated);
    w.end_object();
  }
  w.end_array();
  w.end_object();
  std::cout << w.str() << "\n";
}

int simulate_governor(const std::vector<std::string>& argv) {
  Args args("simulate governor", "[options]");
  args.option("table", "T",
              "pseries-p10 (default), or a FILE (- for stdin) holding the JSON of "
              "'idlespec decode xcede --json'")
      .option("governor", "G", "menu (default), teo, or both (the same tables and wake-ups)")
      .option("subject", "S",
              "menu: v6.14, seed-v2, seed-threshold, reference, v6.19, mainline; teo: v6.1, "
              "v6.12, v6.19, v7.0, mainline; or all (default)")
      .option("intervals", "LIST",
              "sleep intervals in us, e.g. 2,22,52 (default: seed 004's 27, 2..1002)")
      .option("wakeups", "N", "counted wake-ups per subject and interval (default 100000)")
      .option("wake", "W", "ipi (default: the waker's IPI) or timer (the wakee's own timer)")
      .option("hz", "HZ", "kernel tick rate: 100 (default), 250 or 1000")
      .option("seed", "N", "seed of the tick phases (default 1)")
      .option("csv", "FILE", "also write the rows as CSV to FILE")
      .option("plot", "FILE", "also plot above % and below % to FILE.svg (or FILE.png: gnuplot)")
      .flag("json", "machine-readable output");
  args.parse(argv);
  if (args.wants_help()) {
    std::cout << args.help() << kGovernorNotes;
    return 0;
  }
  if (!args.positional().empty())
    throw UsageError("unexpected argument '" + args.positional()[0] + "'");

  const std::string which = args.get("governor").value_or("menu");
  if (which != "menu" && which != "teo" && which != "both")
    throw UsageError("--governor wants menu, teo or both, not '" + which + "'");
  const bool run_menu = which != "teo";
  const bool run_teo = which != "menu";
  const std::string subject = args.get("subject").value_or("all");
  std::vector<const governor::SubjectOps*> subjects;
  std::vector<const teo::SubjectOps*> teo_subjects;
  std::vector<SimSubject> names;
  if (run_menu) {
    for (const governor::SubjectOps& s : governor::subjects()) {
      if (subject != "all" && s.name != subject) continue;
      subjects.push_back(&s);
      names.push_back({std::string(s.name), std::string(s.summary)});
    }
  }
  if (run_teo) {
    for (const teo::SubjectOps& s : teo::subjects()) {
      if (subject != "all" && s.name != subject) continue;
      teo_subjects.push_back(&s);
      names.push_back({"teo-" + std::string(s.name), "TEO, " + std::string(s.summary)});
    }
  }
  if (names.empty()) {
    std::string known;
    if (run_menu) {
      for (const governor::SubjectOps& k : governor::subjects())
        known += std::string(k.name) + ", ";
    }
    if (run_teo) {
      for (const teo::SubjectOps& k : teo::subjects()) known += std::string(k.name) + ", ";
    }
    throw UsageError("unknown " + (which == "both" ? std::string("menu or teo") : which) +
                     " subject '" + subject + "' (known: " + known + "all)");
  }

  gsim::Config config;
  const std::string hz_text = args.get("hz").value_or("100");
  config.hz = hz_text == "100" ? 100 : hz_text == "250" ? 250 : hz_text == "1000" ? 1000 : 0;
  if (!gsim::valid_hz(config.hz))
    throw UsageError("--hz wants 100, 250 or 1000, not '" + hz_text + "'");
  const std::string wake_text = args.get("wake").value_or("ipi");
  const auto wake = gsim::parse_wake(wake_text);
  if (!wake) throw UsageError("--wake wants ipi or timer, not '" + wake_text + "'");
  config.wake = *wake;
  config.wakeups = args.get_u64("wakeups", config.wakeups, 1, 10000000);
  config.seed = args.get_u64("seed", config.seed);

  std::vector<uint64_t> intervals = gsim::default_intervals_us();
  if (const auto list = args.get("intervals")) {
    std::string error;
    const auto parsed = gsim::parse_intervals(*list, error);
    if (!parsed) throw UsageError("--intervals: " + error);
    intervals = *parsed;
  }

  const std::optional<std::string> plot = args.get("plot");
  if (plot && !ends_with(*plot, ".svg") && !ends_with(*plot, ".png"))
    throw UsageError("--plot wants a FILE ending in .svg or .png, not '" + *plot + "'");
  if (plot && ends_with(*plot, ".png") && find_on_path("gnuplot").empty()) {
    throw UsageError("--plot " + *plot +
                     ": a PNG needs gnuplot on PATH (Debian package gnuplot-nox); install it or "
                     "write an SVG instead (--plot FILE.svg)");
  }

  // The output files can be written: checked before the sweep, which can be long.
  for (const char* option : {"csv", "plot"})
    if (const auto path = args.get(option))
      if (const std::string why = verify::output_path_problem(*path); !why.empty())
        throw UsageError("--" + std::string(option) + ": " + escape_input_text(why));

  const std::string table_arg = args.get("table").value_or("pseries-p10");
  std::vector<governor::TableEntry> table;
  if (table_arg == "pseries-p10") {
    table = governor::pseries_p10_table();
  } else {
    std::string error;
    const auto parsed = gsim::parse_table_json(read_table_text(table_arg), error);
    if (!parsed)
      return report_error(
          "simulate governor",
          "--table " + (table_arg == "-" ? std::string("(stdin)") : escape_input_text(table_arg)) +
              ": " + escape_input_text(error),
          args.has("json"), false);
    table = *parsed;
    // The states' names come from the file: escaped once for every output.
    for (governor::TableEntry& e : table) e.name = escape_input_text(e.name);
  }

  std::vector<gsim::Row> rows = gsim::sweep(subjects, table, intervals, config);
  for (gsim::Row& r : gsim::sweep(teo_subjects, table, intervals, config))
    rows.push_back(std::move(r));

  const std::string governors = which == "both"  ? "menu and TEO governors"
                                : which == "teo" ? "TEO governor"
                                                 : "menu governor";
  const std::string title = strprintf(
      "%s, table %s: wake %s, HZ=%u, %llu wake-ups per interval (seed %llu)", governors.c_str(),
      table_arg == "-" ? "(stdin)" : escape_input_text(table_arg).c_str(),
      std::string(gsim::wake_name(config.wake)).c_str(), config.hz,
      static_cast<unsigned long long>(config.wakeups),
      static_cast<unsigned long long>(config.seed));
  if (const auto csv = args.get("csv")) write_output_file("csv", *csv, gsim::to_csv(rows, table));
  if (plot) {
    std::vector<std::string> plotted;
    for (const SimSubject& s : names) plotted.push_back(s.name);
    if (ends_with(*plot, ".svg"))
      write_output_file("plot", *plot, gsim::plot_svg(rows, plotted, title));
    else
      render_png(gsim::gnuplot_script(rows, plotted, title, *plot), *plot);
  }

  if (args.has("json")) {
    print_governor_json(escape_input_text(table_arg), table, config, which, rows);
  } else {
    const std::string header = strprintf(
        "governor%s: table %s (%s), wake %s, HZ=%u, %llu wake-ups per interval after %llu "
        "warm-up, seed %llu",
        which == "menu"  ? ""
        : which == "teo" ? " (teo)"
                         : " (menu and teo)",
        table_arg == "-" ? "(stdin)" : escape_input_text(table_arg).c_str(),
        gsim::describe_table(table).c_str(), std::string(gsim::wake_name(config.wake)).c_str(),
        config.hz, static_cast<unsigned long long>(config.wakeups),
        static_cast<unsigned long long>(config.warmup),
        static_cast<unsigned long long>(config.seed));
    print_governor_text(header, table, names, rows);
  }
  return 0;
}

struct Target {
  const char* name;
  int (*run)(const std::vector<std::string>&);
};
constexpr Target kTargets[] = {{"busy_delay", &simulate_busy_delay},
                               {"governor", &simulate_governor}};

}  // namespace

int simulate_command(const std::vector<std::string>& argv) {
  if (argv.empty() || argv[0] == "-h" || argv[0] == "--help") {
    std::cout << kSimulateUsage;
    return argv.empty() ? 2 : 0;
  }
  for (const Target& t : kTargets) {
    if (argv[0] != t.name) continue;
    try {
      return t.run(std::vector<std::string>(argv.begin() + 1, argv.end()));
    } catch (const UsageError& e) {
      return report_error("simulate " + std::string(t.name), e.what(), wants_json(argv));
    }
  }
  std::string known;
  for (const Target& t : kTargets) known += (known.empty() ? "" : ", ") + std::string(t.name);
  throw UsageError("unknown simulate target '" + argv[0] + "' (known: " + known + ")");
}

}  // namespace idlespec::cli
