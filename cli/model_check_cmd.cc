// idlespec model-check: the explicit-state model checker of idle_core
// (modelcheck/idle_core_checker.h) on one configuration, with its
// counterexamples as timelines.
#include <iostream>

#include "cli/args.h"
#include "cli/commands.h"
#include "impl/json.h"
#include "impl/text.h"
#include "modelcheck/idle_core_checker.h"
#include "modelcheck/idle_core_lkmm.h"
#include "verify/spec_index.h"

namespace idlespec::cli {
namespace {

constexpr const char* kNotes = R"(
Explores every interleaving of impl/idle_core_model.h breadth-first and judges
every state and transition by spec/idle_core.md (IDLE-1..7, 9; IDLE-8 with
--liveness, on the unreduced graph). Each violated clause is printed with its
shortest counterexample, one column per thread. Progress goes to stderr.
Exit 0: no violation (an incomplete run, "complete": false, also exits 0);
1: a violation; 2: usage error.
)";

constexpr const char* kDistributedNotes = R"(
idlespec-mc-mpi runs the same search distributed over the ranks of mpirun:
each rank owns the states whose representative hashes to it, expands them
level by level and sends each successor to its owner. Safety only (no
--liveness, no --random-walks). Rank 0 prints; every rank exits with the
same status. Example: mpirun -np 2 idlespec-mc-mpi idle_core --threads 8
)";

}  // namespace

int model_check_command(const std::vector<std::string>& argv) {
  return model_check_with(argv, nullptr);
}

int model_check_with(const std::vector<std::string>& argv, idle_core::mc::Exchange* ranks) {
  const bool speaks = !ranks || ranks->rank() == 0;  // under mpirun, rank 0 prints
  Args args(ranks ? "idlespec-mc-mpi" : "model-check", "idle_core --threads N [options]");
  args.option("threads", "N", "threads per core: 1, 2, 4, 8 (POWER9: up to 4)")
      .option("subcores", "K", "POWER8 split-core mode: 1, 2 or 4 subcores (default 1)")
      .option("platform", "P", "power8 (default) or power9")
      .option("subject", "NAME",
              "reference (default) or idle_lock (the lock apart, upstream since v6.5); "
              "witnesses live in tests/")
      .flag("no-workaround", "POWER8: the fastsleep workaround off")
      .flag("no-symmetry", "explore without symmetry reduction")
      .flag("no-por",
            "explore without the partial-order reduction of the lock holder's critical section "
            "(with --no-symmetry: the unreduced count)")
      .flag("liveness", "also check IDLE-8 by cycle analysis (explores unreduced)")
      .flag("fair-environment", "liveness: strong fairness on every move, not only on thread steps")
      .option("max-states", "N", "stop after storing N states (incomplete)")
      .option("max-depth", "N", "do not expand states deeper than N moves (incomplete)")
      .option("time-limit", "SECONDS", "stop after this long (incomplete)")
      .option("random-walks", "N", "after the BFS, N random walks from the initial state")
      .option("walk-length", "N", "moves per random walk (default 200)")
      .option("seed", "N", "random walk seed (default 1)")
      .flag("lkmm",
            "explore the executions the Linux-kernel memory model allows (modelcheck/lkmm.h), "
            "not only interleavings, and check IDLE-10 (data races); no symmetry or "
            "partial-order reduction")
      .flag("no-races", "--lkmm: do not check IDLE-10 (data races)")
      .flag("no-compaction", "--lkmm: keep views and knowledge bits no later step can tell apart")
      .option("history", "N", "--lkmm: readable stores kept per location (default 3, 0: all)")
      .flag("stop-at-first", "stop at the first violation")
      .flag("quiet", "no progress on stderr")
      .flag("json", "print the result as JSON on stdout");
  args.parse(argv);
  if (args.wants_help()) {
    if (speaks) std::cout << args.help() << kNotes << (ranks ? kDistributedNotes : "");
    return 0;
  }
  if (args.positional().size() != 1) throw UsageError("want one target: idle_core");
  if (verify::canonical_component(args.positional()[0]) != "idle_core")
    throw UsageError("unknown target '" + args.positional()[0] + "' (idle_core)");
  if (!args.has("threads")) throw UsageError("--threads is required");
  const std::string subject = args.get("subject").value_or("reference");
  if (subject != "reference" && subject != "idle_lock")
    throw UsageError("unknown subject '" + subject +
                     "': idle_core's subjects are reference and idle_lock (witnesses are tests)");

  idle_core::mc::CheckerOptions o;
  idle_core::Config& c = o.config;
  c.threads = static_cast<unsigned>(args.get_u64("threads", 4, 1, 8));
  c.subcores = static_cast<unsigned>(args.get_u64("subcores", 1, 1, 4));
  const std::string platform = args.get("platform").value_or("power8");
  if (platform == "power8") {
    c.platform = Platform::power8;
  } else if (platform == "power9") {
    c.platform = Platform::power9;
  } else {
    throw UsageError("--platform: '" + platform + "' (power8 or power9)");
  }
  c.fastsleep_workaround = !args.has("no-workaround");
  if (!c.valid()) {
    throw UsageError(strprintf(
        "not a valid core: %s threads %u subcores %u (POWER8: 1, 2, 4, 8 threads, 1, 2 or 4 "
        "subcores dividing them; POWER9: up to 4 threads, no split)",
        platform.c_str(), c.threads, c.subcores));
  }
  o.symmetry = !args.has("no-symmetry");
  o.por = !args.has("no-por");
  o.liveness = args.has("liveness");
  o.fair_environment = args.has("fair-environment");
  o.max_states = args.get_u64("max-states", 0);
  o.max_depth = static_cast<unsigned>(args.get_u64("max-depth", 0, 0, 1u << 30));
  o.time_limit = args.get_double("time-limit", 0);
  o.random_walks = args.get_u64("random-walks", 0);
  o.walk_length = static_cast<unsigned>(args.get_u64("walk-length", 200, 1, 1u << 24));
  o.seed = args.get_u64("seed", 1);
  o.stop_at_first = args.has("stop-at-first");
  o.progress = !args.has("quiet");

  const bool lkmm = args.has("lkmm");
  if (lkmm && (o.liveness || o.random_walks))
    throw UsageError("--lkmm checks safety and IDLE-10 only (no --liveness, --random-walks)");
  idle_core::mc::WeakOptions wo;
  wo.config = c;
  wo.history = static_cast<unsigned>(args.get_u64("history", 3, 0, 200));
  wo.races = !args.has("no-races");
  wo.symmetry = o.symmetry;
  wo.compact = !args.has("no-compaction");
  wo.max_states = o.max_states;
  wo.time_limit = o.time_limit;
  wo.stop_at_first = o.stop_at_first;
  wo.progress = o.progress;
  const auto search = [&](auto subject_tag) {
    using Subject = decltype(subject_tag);
    if (lkmm) return idle_core::mc::check_weak<Subject>(wo, ranks);
    if (!ranks) return idle_core::mc::check<Subject>(o);
    idle_core::mc::Checker<Subject> checker(o);
    return checker.run_distributed(*ranks);
  };
  const idle_core::mc::CheckerResult r =
      subject == "idle_lock" ? search(idle_core::IdleLock{}) : search(idle_core::Reference{});
  // Every rank returns the same exit status (rank 0 holds the violations).
  const uint64_t violated = ranks ? ranks->sum(r.violations.size()) : r.violations.size();
  const int status = violated ? 1 : r.error.empty() ? 0 : 2;
  if (!speaks) return status;
  if (!r.error.empty()) std::cerr << "idlespec model-check: " << r.error << "\n";

  if (args.has("json")) {
    JsonWriter w;
    w.begin_object();
    w.key("target").value("idle_core");
    w.key("config").value(r.config);
    w.key("subject").value(r.subject);
    w.key("symmetry").value(r.symmetry);
    w.key("por").value(r.por);
    w.key("por_states").value(r.por_states);
    w.key("ranks").value(r.ranks);
    w.key("max_rank_states").value(r.max_rank_states);
    w.key("bytes_sent").value(r.bytes_sent);
    w.key("max_rank_bytes_sent").value(r.max_rank_bytes_sent);
    w.key("max_rank_rss_kb").value(static_cast<int64_t>(r.max_rank_rss_kb));
    w.key("states").value(r.states);
    w.key("transitions").value(r.transitions);
    w.key("seconds").value(r.seconds);
    w.key("states_per_second")
        .value(r.seconds > 0 ? static_cast<double>(r.states) / r.seconds : 0.0);
    w.key("peak_rss_kb").value(static_cast<int64_t>(r.peak_rss_kb));
    w.key("complete").value(r.complete);
    w.key("incomplete_reason").value(r.incomplete_reason);
    w.key("depth").value(r.depth);
    w.key("walk_depth").value(r.walk_depth);
    w.key("local_views").value(r.local_views);
    w.key("liveness").value(r.liveness);
    w.key("error").value(r.error);
    w.key("violations").begin_array();
    for (const auto& v : r.violations) {
      w.begin_object();
      w.key("clause").value(v.clause);
      w.key("summary").value(v.summary);
      w.key("length").value(v.length);
      w.key("trace").value(v.trace);
      w.end_object();
    }
    w.end_array();
    w.end_object();
    std::cout << w.str() << "\n";
  } else {
    std::cout << strprintf(
        "model-check idle_core (%s, subject %s, symmetry %s, partial-order reduction %s%s): %llu "
        "states, %llu transitions, depth %u, %.2f s (%s states/s), peak RSS %ld kB, %s\n",
        r.config.c_str(), r.subject.c_str(), r.symmetry ? "on" : "off", r.por ? "on" : "off",
        o.liveness ? ", liveness" : "", static_cast<unsigned long long>(r.states),
        static_cast<unsigned long long>(r.transitions), r.depth, r.seconds,
        idle_core::mc::human_count(r.seconds > 0 ? static_cast<double>(r.states) / r.seconds : 0)
            .c_str(),
        r.peak_rss_kb,
        r.complete ? "complete" : ("INCOMPLETE (" + r.incomplete_reason + ")").c_str());
    if (ranks) {
      std::cout << strprintf(
          "  %u ranks: at most %llu states, %.1f MB sent and %ld kB peak RSS on one rank; %.1f MB "
          "sent in all\n",
          r.ranks, static_cast<unsigned long long>(r.max_rank_states),
          static_cast<double>(r.max_rank_bytes_sent) / 1e6, r.max_rank_rss_kb,
          static_cast<double>(r.bytes_sent) / 1e6);
    }
    if (o.random_walks) std::cout << "  random walks: longest " << r.walk_depth << " moves\n";
    if (o.liveness)
      std::cout << (r.liveness ? "  IDLE-8 cycle analysis: done\n"
                               : "  IDLE-8 cycle analysis: not run (exploration incomplete)\n");
    if (r.violations.empty()) {
      std::cout << "no violation\n";
    } else {
      for (const auto& v : r.violations) std::cout << "\n" << v.trace;
    }
  }
  return status;
}

}  // namespace idlespec::cli
