// idlespec simulate: run a component's policy against a model and report what
// its requests cost. Targets: busy_delay (spec/busy_delay.md, "The
// simulator"); the model is described in impl/busy_delay_sim.h.
#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>

#include "cli/args.h"
#include "cli/commands.h"
#include "impl/busy_delay_sim.h"
#include "impl/json.h"
#include "impl/text.h"

namespace idlespec::cli {
namespace {

namespace sim = busy_delay::sim;

constexpr const char* kSimulateUsage = R"(usage: idlespec simulate TARGET [options]

targets:
  busy_delay  run the RTAS busy/extended-delay policies in the caller's retry
              loop against a firmware model (DLPAR workloads or a trace) and
              report wall time, CPU time and RTAS calls per subject

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

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw UsageError("--trace: cannot open '" + path + "'");
  std::string data;
  try {
    data.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  } catch (const std::exception&) {  // libstdc++ throws on reading a directory
    throw UsageError("--trace: cannot read '" + path + "'");
  }
  if (in.bad()) throw UsageError("--trace: cannot read '" + path + "'");
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
    if (!trace) {
      std::cerr << "idlespec simulate busy_delay: --trace " << *path << ": " << error << "\n";
      return 2;
    }
    for (const auto& p : policies) rows.push_back(sim::run_trace(p, *trace, config));
    workload_label = "trace";
    header = strprintf("busy_delay: trace %s (%zu statuses), cpu %s, HZ=%u", path->c_str(),
                       trace->size(), std::string(sim::cpu_name(*cpu)).c_str(), hz);
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
    print_json(workload_label, args.get("trace"), std::string(sim::cpu_name(*cpu)), hz,
               args.has("trace") ? std::nullopt : std::optional<uint64_t>(seed), rows);
  } else {
    print_text(header, rows);
  }
  return 0;
}

struct Target {
  const char* name;
  int (*run)(const std::vector<std::string>&);
};
constexpr Target kTargets[] = {{"busy_delay", &simulate_busy_delay}};

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
      std::cerr << "idlespec simulate " << t.name << ": " << e.what()
                << "\n(see 'idlespec simulate " << t.name << " --help')\n";
      return 2;
    }
  }
  std::string known;
  for (const Target& t : kTargets) known += (known.empty() ? "" : ", ") + std::string(t.name);
  throw UsageError("unknown simulate target '" + argv[0] + "' (known: " + known + ")");
}

}  // namespace idlespec::cli
