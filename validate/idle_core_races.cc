// The ThreadSanitizer build of the idle_core harness and its runs (IDLE-10,
// spec/idle_core.md): what validate/idle_core_check.cc judges a file's
// power7_idle_insn() by for data races on the state word and the lock word.
#include "validate/idle_core_races.h"

#include <algorithm>
#include <chrono>

#include "validate/job_retry.h"

namespace idlespec::validate {

std::vector<RaceJob> race_jobs_power8(bool workaround) {
  const std::string f = workaround ? "f" : "";
  // The race needs two threads in their critical sections or one spinning
  // on the lock while another holds it: SMT2 reaches every such pair of
  // POWER8's paths; SMT4 adds a third thread between them.
  return {
      {"2" + f + " dfs 2 nsw -1 4000",
       "SMT2, DFS, 2 idle cycles per thread (kinds nap, sleep, winkle), at most 4000 schedules"},
      {"4" + f + " dfs 1 sw 1 1500",
       "SMT4, <= 1 preemption, 1 cycle (kinds sleep, winkle), at most 1500 schedules"},
  };
}

std::vector<RaceJob> race_jobs_power9() {
  // A race on POWER9's path needs a thread under the lock after a loss while
  // a sibling, back from the same loss, runs and enters its next deep stop
  // (the lock-free bit flips): two cycles of the deep kinds reach it.
  return {
      {"2 dfs 2 dt -1 4000",
       "SMT2, DFS, 2 idle cycles per thread (kinds d, t: SPR and timebase loss), at most 4000 "
       "schedules"},
      {"4 dfs 1 ldt 1 1500",
       "SMT4, <= 1 preemption, 1 cycle (kinds l, d, t), at most 1500 schedules"},
  };
}

std::string race_accesses_in(const std::string& report, const std::string& file) {
  // "... at line 251 in atomic_lock_thread_idle ..." -> "... at idle.c:251 in ...".
  std::string out;
  size_t from = 0;
  for (size_t at; (at = report.find(" at line ", from)) != std::string::npos;) {
    const size_t digits = at + 9;
    size_t end = digits;
    while (end < report.size() && report[end] >= '0' && report[end] <= '9') ++end;
    out += report.substr(from, at - from);
    if (end > digits && report.compare(end, 4, " in ") == 0)
      out += " at " + file + ":" + report.substr(digits, end - digits);
    else
      out += report.substr(at, end - at);
    from = end;
  }
  return out + report.substr(from);
}

std::string race_note_for(const std::string& status, const std::string& era) {
  std::string note =
      "ThreadSanitizer on the code as compiled, each hardware thread a fiber, the shim's marked "
      "accesses atomics of their memory order; the explored schedules only";
  if (status == "failed" && !era.empty())
    note += "; the lock is a bit of the state word in this text (no paca->idle_lock)";
  return note;
}

std::string race_power9_context() {
  return "POWER9: every text to 6.12 reads the state word plainly under the lock for the "
         "first-thread check while a sibling flips its own bit with the lock-free "
         "clear_bit/set_bit, an LKMM data race open upstream (spec/idle_core.md, IDLE-10; "
         "docs/findings/idle-10-power9-first-thread-check.md): harmless on the hardware, removed "
         "by READ_ONCE; where the accesses above are that read and that flip, this is it";
}

RaceRun run_race_jobs(const HarnessBuild& hb, const std::string& dir,
                      const std::vector<RaceJob>& jobs, double budget) {
  RaceRun rr;
  const auto t0 = std::chrono::steady_clock::now();
  auto left = [&] {
    return budget - std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  };
  if (left() < 1) {
    rr.error = "no time left of the budget for the ThreadSanitizer build";
    return rr;
  }
  if (hb.plain_argv.size() < 3) {
    rr.error = "the plain build's command line is not known";
    return rr;
  }
  // The plain build's command line, its code generation flags exchanged:
  // -O1 -g (the report's lines) and -fsanitize=thread.
  const std::string bin = dir + "/harness_tsan";
  Job j;
  for (size_t i = 0; i < hb.plain_argv.size(); ++i) {
    const std::string& a = hb.plain_argv[i];
    if (a == "-O3" || a.rfind("-falign-", 0) == 0) continue;
    if (a == "-o" && i + 1 < hb.plain_argv.size()) {
      j.argv.insert(j.argv.end(), {"-O1", "-g", "-fsanitize=thread", "-o", bin});
      ++i;
      continue;
    }
    j.argv.push_back(a);
  }
  if (!hb.source_label.empty()) j.quiet_refusals = {hb.source_label};
  j.out = bin + ".build.out";
  j.err = bin + ".build.err";
  j.timeout = std::max(1.0, left());
  j.memory_mb = 0;  // the compiler is trusted
  const JobResult built = run_jobs_retrying({j}, 1, left(), /*tool_jobs=*/true).front();
  if (built.exit_code != 0) {
    rr.error = built.exec_failed ? "cannot run the C compiler: " + start_failure(built)
               : built.timed_out || built.skipped
                   ? std::string("the ThreadSanitizer build did not finish within the budget")
                   : "the ThreadSanitizer build failed: " + tail(slurp(j.err), 3);
    return rr;
  }
  std::vector<std::string> lines;
  for (const auto& job : jobs) lines.push_back(job.line);
  // As a sanitizer build: ASan's options are inert here, and no RLIMIT_AS
  // (TSan maps its shadow memory at start-up).
  HarnessBatch b = run_harness_inputs(bin, true, lines, dir, "tsan", std::max(1.0, left()));
  if (!b.errors.empty()) rr.error = "the ThreadSanitizer build's run: " + b.errors.front();
  rr.outcomes = std::move(b.outcomes);
  for (size_t i = 0; rr.error.empty() && i < rr.outcomes.size(); ++i) {
    const HarnessOutcome& o = rr.outcomes[i];
    if (!o.reported)
      rr.error = "the ThreadSanitizer build reported nothing on " + jobs[i].what;
    else if (o.field("tsan") != 1 && !o.crashed && !o.hung)
      rr.error = "the ThreadSanitizer build's result has no race count on " + jobs[i].what;
  }
  rr.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return rr;
}

}  // namespace idlespec::validate
