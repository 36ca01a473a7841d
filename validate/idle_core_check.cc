// The idle_core component of `idlespec validate`: a file's power9_idle_stop()
// and power7_idle_insn() (each with the atomic_*_thread_idle-style helpers it
// calls) against spec/idle_core.md, run by the hardware threads of one core
// under a controlled scheduler. Each function the file has is checked on its
// own harness build: POWER9 (SMT4 at most) for power9_idle_stop, POWER8 (up
// to SMT8, whole or split-core) for power7_idle_insn.
//
// The harness (harness/harness_idle_core.c) runs one context per hardware
// thread; every operation on the per-core word, the idle instruction, a
// per-core or per-subcore SPR write, the timebase resync and the fastsleep
// workaround's OPAL call is a scheduling point (harness/shims/idle_env.h),
// and the hardware's wake-ups and the core's state loss are moves too,
// constrained by the spec's model (the core loses state only while every
// thread is in hardware idle in a state-loss kind). Each input line is an
// exploration job: exhaustive (SMT2), preemption-bounded (SMT4), or PCT
// (randomised priorities; POWER8's SMT8 and split-core jobs). The harness
// judges the clauses in C on every move and reports, per clause, the
// shortest failing schedule it found, shrunk (moves dropped while the clause
// still fails), with its thread timeline. The driver turns those into
// verdicts, each with a replay job for the harness.
//
// IDLE-8 (liveness) is judged on the explored schedules in two forms: a
// deadlock (no move left, a woken thread not returned) and a livelock, a
// fair cycle: a schedule that reaches the same whole state twice (every
// thread's registers and stack, the word, the lock, the pacas, the SPRs)
// with every thread that can move in the cycle moving in it, so that it
// repeats forever and a thread inside the function never returns (the
// criterion is stated in harness_idle_core.c and spec/idle_core.md). The
// lock may be the word's bit (up to v6.4) or paca->idle_lock (v6.5+,
// b0c5b4f1ee36); both layouts are run as they are.
//
// Clauses on power9_idle_stop: IDLE-1 (lock part, deadlock), IDLE-2,
// IDLE-3, IDLE-7 (POWER9's own), IDLE-8 (bounded), IDLE-9 are judged;
// IDLE-4, IDLE-5, IDLE-6 are POWER8's and n/a there. On power7_idle_insn:
// IDLE-1, -2, -3, -4 (n/a when the function's path has no fastsleep
// workaround), -5, -6 (split-core jobs), -8 (bounded), -9; IDLE-7 is n/a.
#include <algorithm>
#include <chrono>
#include <map>
#include <memory>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "extract/extract.h"
#include "sandbox/sandbox.h"
#include "validate/component.h"
#include "validate/idle_core_races.h"
#include "validate/input_check.h"
#include "validate/targets.h"
#include "verify/build_paths.h"

namespace idlespec::validate {
namespace {

struct Job {
  std::string line;  // the harness line without the id
  std::string what;  // for people
  size_t weight = 0;
  bool replay = false;
};

// What the exploration jobs covered and which replays reproduce what they found.
struct Shared {
  std::map<std::string, std::string> stats;                 // job line -> its R fields
  std::map<std::string, std::vector<std::string>> replays;  // job line -> replay lines
  // Per exploration job and clause it failed (review's failing inputs): the
  // registers some explored schedule returned a thread with lost, whether
  // some failure was not a register's, and the job's counterexample.
  struct Failed {
    std::set<std::string> registers;
    bool other = false;
    std::string text;
  };
  std::map<std::string, std::map<std::string, Failed>> failed;  // job line -> clause -> ...
};

// "IDLE-7 other=0 regs=CIABR,LDBAR" (a LOST line, its id dropped) into `sh`.
void parse_lost(Shared& sh, const Job& job, const std::string& rest) {
  std::istringstream is(rest);
  std::string clause, other, regs;
  if (!(is >> clause >> other >> regs) || other.rfind("other=", 0) != 0 ||
      regs.rfind("regs=", 0) != 0)
    return;
  Shared::Failed& f = sh.failed[job.line][clause];
  f.other = f.other || other == "other=1";
  std::istringstream rs(regs.substr(5));
  for (std::string r; std::getline(rs, r, ',');)
    if (!r.empty() && r != "-") f.registers.insert(r);
}

// A failed clause's inputs for review (ClauseVerdict::failing_inputs): per
// exploration job that failed it, one per register the clause expected a
// returning thread to hold and some explored schedule lost ("LDBAR restored"),
// and one for its failures that are not a register's. The key names the job
// and what the clause expected, never what the code did, so a patch that
// restores one more register shows as a repaired input though the clause
// stays failed on another register (f5a9e488d623 on v5.2: LDBAR repaired,
// CIABR still lost).
void set_failing_inputs(const Shared& sh, const std::vector<Job>& jobs, ClauseVerdict& v) {
  v.failing_inputs.clear();
  for (const auto& j : jobs) {
    const auto jt = sh.failed.find(j.line);
    if (jt == sh.failed.end()) continue;
    const auto ct = jt->second.find(v.id);
    if (ct == jt->second.end() || ct->second.text.empty()) continue;
    const Shared::Failed& f = ct->second;
    for (const auto& r : f.registers)
      v.failing_inputs.emplace_back(
          j.what + ": every returning thread holds its " + r + " as before the state loss",
          j.what + ": some explored schedule returned a thread with " + r +
              " lost; the job's counterexample: " + f.text);
    if (f.other || f.registers.empty())
      v.failing_inputs.emplace_back(j.what + ": " + v.id + " (other than a lost register)",
                                    j.what + ": " + f.text);
  }
}

std::vector<Job> make_jobs_power9(uint64_t seed) {
  const std::string s1 = std::to_string(seed), s2 = std::to_string(seed + 1),
                    s3 = std::to_string(seed + 2);
  return {
      {"2 dfs 2 ldt -1 2000000", "SMT2, exhaustive, 2 idle cycles per thread (kinds l,d,t)", 1},
      {"2 dfs 3 dt -1 2000000", "SMT2, exhaustive, 3 idle cycles per thread (kinds d,t)", 2},
      {"4 dfs 1 t 2 300000",
       "SMT4, <= 2 preemptions, 1 cycle, every thread at the timebase-loss level", 3},
      {"4 dfs 1 d 1 300000", "SMT4, <= 1 preemption, 1 cycle, every thread at the SPR-loss level",
       4},
      {"4 pct 2 ldt " + s1 + " 10000 3", "SMT4, PCT depth 3, 10000 runs, 2 cycles, seed " + s1, 5},
      {"4 pct 3 sldt " + s2 + " 5000 3", "SMT4, PCT depth 3, 5000 runs, 3 cycles, seed " + s2, 6},
      {"2 pct 4 ldt " + s3 + " 5000 3", "SMT2, PCT depth 3, 5000 runs, 4 cycles, seed " + s3, 7},
  };
}

// POWER8: kinds n (nap), s (sleep), w (winkle); "<threads>s<subcores>" is
// split-core; the suffix f judges IDLE-4 (the code has the workaround).
std::vector<Job> make_jobs_power8(uint64_t seed, bool workaround) {
  const std::string f = workaround ? "f" : "";
  const std::string s1 = std::to_string(seed), s2 = std::to_string(seed + 1),
                    s3 = std::to_string(seed + 2), s4 = std::to_string(seed + 3);
  return {
      {"2" + f + " dfs 2 nsw -1 2000000",
       "SMT2, exhaustive, 2 idle cycles per thread (kinds nap, sleep, winkle)", 1},
      {"2" + f + " dfs 3 w -1 2000000", "SMT2, exhaustive, 3 idle cycles per thread (winkle)", 2},
      {"2s2" + f + " dfs 2 sw -1 2000000",
       "SMT2 as 2 subcores of 1 (scaled down), exhaustive, 2 idle cycles (sleep, winkle)", 3},
      {"4" + f + " dfs 1 sw 1 30000", "SMT4, <= 1 preemption, 1 cycle (kinds sleep, winkle)", 4},
      {"4s2" + f + " dfs 1 w 1 30000",
       "SMT4 as 2 subcores of 2 (scaled down), <= 1 preemption, 1 cycle, every thread winkles", 5},
      {"8" + f + " pct 2 nsw " + s1 + " 3000 3",
       "SMT8, PCT depth 3, 3000 runs, 2 cycles (nap, sleep, winkle), seed " + s1, 6},
      {"8s2" + f + " pct 2 sw " + s2 + " 3000 3",
       "SMT8 as 2 subcores of 4, PCT depth 3, 3000 runs, 2 cycles (sleep, winkle), seed " + s2, 7},
      {"8s2" + f + " pct 1 w " + s3 + " 3000 3",
       "SMT8 as 2 subcores of 4, PCT depth 3, 3000 runs, 1 cycle, every thread winkles, seed " + s3,
       8},
      {"8s4" + f + " pct 2 w " + s4 + " 3000 3",
       "SMT8 as 4 subcores of 2, PCT depth 3, 3000 runs, 2 cycles, every thread winkles, seed " +
           s4,
       9},
  };
}

// "IDLE-7 count=3 moves=12 schedule=b0d,0 :: text" -> its parts.
struct Reported {
  std::string clause, schedule, text;
  long count = 0, moves = 0;
};

bool parse_finding(const std::string& rest, Reported& r) {
  std::istringstream is(rest);
  if (!(is >> r.clause)) return false;
  std::string word;
  while (is >> word && word != "::") {
    if (word.rfind("count=", 0) == 0) r.count = std::atol(word.c_str() + 6);
    if (word.rfind("moves=", 0) == 0) r.moves = std::atol(word.c_str() + 6);
    if (word.rfind("schedule=", 0) == 0) r.schedule = word.substr(9);
  }
  std::getline(is, r.text);
  if (!r.text.empty() && r.text[0] == ' ') r.text.erase(0, 1);
  return !r.clause.empty();
}

// "<threads> <mode> <cycles> <kinds> ..." -> the replay line for a schedule.
std::string replay_line(const std::string& job, const std::string& schedule) {
  std::istringstream is(job);
  std::string threads, mode, cycles, kinds;
  is >> threads >> mode >> cycles >> kinds;
  return threads + " replay " + cycles + " " + kinds + " " + schedule;
}

// `any`: the clause a crash or a sanitizer report fails (POWER9: IDLE-7;
// POWER8, which has no IDLE-7: IDLE-1, a thread that cannot go on).
Findings judge(Shared& sh, const Job& job, const HarnessOutcome& h, const std::string& any) {
  Findings f;
  if (!h.reported) return f;
  for (const auto& s : h.sanitizer) f.emplace(any, s + " (" + job.what + ")");
  if (h.crashed) f.emplace(any, "crashed: " + h.crash + " (" + h.result + ")");
  if (h.hung)
    f.emplace("IDLE-8",
              "a thread ran for 2 s without reaching a scheduling point (a loop without an "
              "atomic operation on the word): " +
                  h.result);
  std::map<std::string, std::vector<std::string>> timeline;
  std::vector<Reported> found;
  for (const auto& l : h.lines) {
    if (l.rfind("TL ", 0) == 0) {
      const size_t sp = l.find(' ', 3);
      if (sp != std::string::npos) timeline[l.substr(3, sp - 3)].push_back(l.substr(sp + 1));
    } else if (l.rfind("FINDING ", 0) == 0) {
      Reported r;
      if (parse_finding(l.substr(8), r)) found.push_back(r);
    } else if (l.rfind("R ", 0) == 0) {
      sh.stats[job.line] = l.substr(2);
    } else if (l.rfind("LOST ", 0) == 0 && !job.replay) {
      parse_lost(sh, job, l.substr(5));
    }
  }
  auto& replays = sh.replays[job.line];
  for (const auto& r : found) {
    std::string text = r.text;
    if (!job.replay) text += " [" + std::to_string(r.count) + " failing schedule(s) in this job]";
    text += "\n      schedule (" + std::to_string(r.moves) + " moves): " + r.schedule;
    for (const auto& e : timeline[r.clause]) text += "\n        " + e;
    f.emplace(r.clause, text);
    const std::string rl = replay_line(job.line, r.schedule);
    if (!job.replay && std::find(replays.begin(), replays.end(), rl) == replays.end())
      replays.push_back(rl);
  }
  if (!job.replay)
    for (const auto& [clause, text] : f) {
      Shared::Failed& x = sh.failed[job.line][clause];
      if (x.text.empty()) x.text = text.substr(0, text.find('\n'));
    }
  return f;
}

// A job's threads field for people: "8s2f" -> "SMT8 as 2 subcores".
std::string config_text(const std::string& threads) {
  const size_t digits = threads.find_first_not_of("0123456789");
  std::string text = "SMT" + threads.substr(0, digits);
  const size_t sub = threads.find('s');
  if (sub != std::string::npos)
    text += " as " +
            threads.substr(sub + 1, threads.find_first_not_of("0123456789", sub + 1) - sub - 1) +
            " subcores";
  return text;
}

// "mode=dfs schedules=12 states=5 ..." -> "12 schedules, 5 states".
std::string field(const std::string& r, const std::string& key) {
  const size_t p = r.find(key + "=");
  if (p == std::string::npos) return "?";
  const size_t e = r.find(' ', p);
  return r.substr(p + key.size() + 1,
                  e == std::string::npos ? std::string::npos : e - p - key.size() - 1);
}

// One line per job for the part's notes, and the total for the verdicts.
std::string coverage_of(const Shared& sh, const std::vector<Job>& jobs, long long& total) {
  std::string s;
  total = 0;
  for (const auto& j : jobs) {
    const auto it = sh.stats.find(j.line);
    if (it == sh.stats.end()) continue;
    const std::string& r = it->second;
    total += std::atoll(field(r, "schedules").c_str());
    s += "\n  " + j.what + ": " + field(r, "schedules") + " schedules";
    if (field(r, "mode") == "dfs")
      s += ", " + field(r, "states") + " states, " + field(r, "transitions") + " transitions" +
           (field(r, "complete") == "1"  ? ", complete"
            : field(r, "failcap") == "1" ? ", stopped after 20000 failing schedules"
                                         : ", cut at the schedule limit");
  }
  return s;
}

}  // namespace

namespace {

// One function's check: its own harness build (POWER8 or POWER9), jobs and
// verdicts, every clause reported on that function.
Part check_function(const Options& opt, const Component& base, const Target& target,
                    const std::string& fn) {
  const auto t0 = std::chrono::steady_clock::now();
  const bool p8 = fn == "power7_idle_insn";
  Component component = base;
  for (auto& c : component.clauses) c.second = fn;
  Target t = target;
  t.functions = {fn};
  Part part;
  HarnessBuild hb;
  int line = 0;
  // IDLE-4 is judged when the function's path has the fastsleep workaround
  // (the OPAL call that applies and undoes it, in the function or a helper).
  const Extraction ex = extract(target.text, t.functions, target.path);
  const bool workaround = p8 && ex.code.find("opal_config_cpu_idle_state") != std::string::npos;
  if (!prepare_part(opt, component, t, "idle_env.h", "harness_idle_core.c",
                    p8 ? "-DHAVE_POWER7_IDLE_INSN" : "-DHAVE_POWER9_IDLE_STOP",
                    "CANDIDATE_IDLE_CORE", part, hb, line, false,
                    {std::string("-I") + idlespec::build::source_dir(),
                     idlespec::build::harness_oracle(), "-lstdc++", "-lm"})) {
    finish_part(opt, part, t0);
    return part;
  }
  auto sh = std::make_shared<Shared>();
  const std::vector<Job> jobs =
      p8 ? make_jobs_power8(opt.seed, workaround) : make_jobs_power9(opt.seed);
  const std::string any = p8 ? "IDLE-1" : "IDLE-7";
  InputChecker<Job> c;
  c.start = t0;  // the budget is the part's
  c.line = [](const Job& j) { return j.line; };
  c.judge = [sh, any](const Job& j, const HarnessOutcome& h) { return judge(*sh, j, h, any); };
  c.shrink = [sh](const Job& j) {
    std::vector<Job> out;
    if (j.replay) return out;  // the harness shrank it already
    for (const auto& rl : sh->replays[j.line]) {
      std::istringstream is(rl);
      std::string threads;
      is >> threads;
      out.push_back({rl, config_text(threads) + " schedule", 0, true});
    }
    return out;
  };
  c.describe = [](const Job& j) { return j.what; };
  c.weight = [](const Job& j) { return j.weight; };
  c.failure_notes["IDLE-9"] =
      "efficiency clause: the timebase was resynced by a thread that had found another "
      "thread awake";
  c.failure_notes["IDLE-8"] =
      "liveness: a thread that woke never returns: no thread can move (a deadlock), or the "
      "schedule closes a fair cycle (a livelock: the same whole state again, every thread that "
      "could move moved, so the cycle repeats forever)";
  c.shrink_rounds = 2;
  // The ASan+UBSan build explores the same schedules at several times the
  // plain build's cost. In one process it ran on one CPU long after the
  // plain build and the other function's were done; in one per job the
  // longest job waited for CPU behind the others. Three slices of about
  // equal cost, measured on Debian 6.12's idle.c: POWER9 the two SMT2 jobs,
  // the SMT4 <= 2-preemption job alone, the rest; POWER8 three jobs each.
  c.san_slices = p8 ? std::vector<size_t>{3, 6} : std::vector<size_t>{2, 3};
  check_inputs(opt, hb, component, t, line, jobs, c, part);
  for (auto& v : part.clauses)
    if (v.status == "failed") set_failing_inputs(*sh, jobs, v);

  // IDLE-10 (no data race on the idle words): the ThreadSanitizer build of
  // the same function (validate/idle_core_races.h), on the host. Judged
  // nowhere else: the plain and ASan builds never report it.
  std::string race_verdict = "n/a", race_text, race_note, race_error, race_cov, race_replay,
              race_era;
  // Only for a subject the clause belongs to (the spec post-pass makes it
  // n/a for any other; the subject as validate/spec_judgement.cc picks it):
  // a run against another subject spends nothing on it.
  const verify::SpecIndex& idx = spec();
  const std::string subject = judged_subject(opt, "idle_core");
  const verify::Clause* idle10 = idx.find("IDLE-10");
  const bool races_judged =
      idle10 && idle10->applies_to(subject, idx.modes_of("idle_core", subject));
  // The text's own marker of its layout: the lock in paca->idle_lock (v6.5+)
  // or a bit of the state word (up to v6.4).
  const bool lock_in_word = ex.code.find("idle_lock") == std::string::npos;
  if (!races_judged) {
    race_note = "not a clause of the subject judged (IDLE-10's: idle_lock, validate's default)";
  } else if (!target_has_asan(opt)) {
    race_note = "ThreadSanitizer runs on the host target only (judged there)";
  } else if (!hb.plain.empty()) {
    const std::vector<RaceJob> rj = p8 ? race_jobs_power8(workaround) : race_jobs_power9();
    const double spent =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const RaceRun rr = run_race_jobs(hb, part.temp_dir, rj, opt.budget_seconds - spent);
    if (!rr.error.empty()) {
      race_verdict = "error", race_error = rr.error;
    } else {
      Shared rs;
      long long schedules = 0;
      race_verdict = "held";
      for (size_t i = 0; i < rj.size() && i < rr.outcomes.size(); ++i) {
        const Job j{rj[i].line, rj[i].what, 0, false};
        const Findings f = judge(rs, j, rr.outcomes[i], "");
        schedules += rr.outcomes[i].field("schedules");
        race_cov += (race_cov.empty() ? "" : "; ") + rj[i].what;
        const auto it = f.find("IDLE-10");
        if (it != f.end() && race_text.empty()) {
          race_verdict = "failed";
          race_text = race_accesses_in(it->second, target.display) + " (" + rj[i].what + "; " +
                      std::to_string(rr.outcomes[i].field("races_word")) +
                      " reports on the idle words in the job)";
          if (!p8) race_text += "\n      " + race_power9_context();
          // The harness's shrunk schedule, replayed alone by the same build.
          const auto& rl = rs.replays[j.line];
          if (!rl.empty()) race_replay = "printf '0 " + rl.front() + "\\n' | harness_tsan";
          // Text that keeps the lock in the word, failing by the race the
          // harness names as the lock bit's (on the finding's own line, the
          // harness's words): the era the spec explains.
          if (lock_in_word &&
              it->second.substr(0, it->second.find('\n')).find(kLockBitRace) != std::string::npos)
            race_era = "lock-in-word";
        }
      }
      race_cov =
          std::to_string(schedules) + " schedules of the ThreadSanitizer build (" + race_cov + ")";
      // A run the code crashed or hung stopped early: no race there is not
      // a verdict (the crash is the plain build's finding).
      for (const auto& o : rr.outcomes)
        if ((o.crashed || o.hung) && race_verdict == "held") race_verdict = "unknown";
    }
  }
  long long total = 0;
  const std::string per_job = coverage_of(*sh, jobs, total);
  const std::string cov = std::to_string(jobs.size()) + " exploration jobs, " +
                          std::to_string(total) + " schedules per build";
  auto not_applicable = [](ClauseVerdict& v, const std::string& why) {
    v.status = "n/a";
    v.coverage.clear();
    v.error.clear();
    v.counterexamples.clear();
    v.replay.clear();
    v.note = why;
  };
  for (auto& v : part.clauses) {
    if (v.id == "IDLE-10" && v.status != "error") {
      if (race_verdict == "n/a") {
        not_applicable(v, race_note);
      } else {
        v.status = race_verdict;
        v.coverage = race_cov;
        v.error = race_error;
        v.counterexamples.clear();
        v.replay = race_replay;
        v.era = race_era;
        if (!race_text.empty()) v.counterexamples.push_back(race_text);
        v.note = race_verdict == "unknown"
                     ? "the ThreadSanitizer build's exploration stopped early (the code crashed "
                       "or hung there; the plain build's verdicts say how)"
                     : race_note_for(race_verdict, race_era);
      }
      continue;
    }
    if (!p8 && (v.id == "IDLE-4" || v.id == "IDLE-5" || v.id == "IDLE-6")) {
      not_applicable(v, v.id == "IDLE-4"
                            ? "POWER8 only: the fastsleep workaround (power7_idle_insn); "
                              "POWER9 stop has none"
                        : v.id == "IDLE-5"
                            ? "POWER8 only: the winkle count and bits (power7_idle_insn); POWER9 "
                              "deep stop restores per-thread SPRs on every state loss (IDLE-7)"
                            : "POWER8 only: split-core subcores (power7_idle_insn); POWER9 has no "
                              "split-core mode");
      continue;
    }
    if (p8 && v.id == "IDLE-7") {
      not_applicable(v,
                     "POWER9 only (power9_idle_stop's deep stop); POWER8's forms are IDLE-1, "
                     "-2, -3, -5, -6");
      continue;
    }
    if (p8 && v.id == "IDLE-4" && !workaround) {
      not_applicable(v,
                     "the function's path has no fastsleep workaround "
                     "(opal_config_cpu_idle_state is not called)");
      continue;
    }
    if (v.status == "held") {
      v.coverage = cov;
      if (v.id == "IDLE-8")
        v.note =
            "bounded: no explored schedule ends with a woken thread unable to return or closes "
            "a fair cycle (a livelock); cycles are seen on the explored schedules only, not by "
            "the model checker's analysis of the whole state graph";
      if (v.id == "IDLE-1")
        v.note = "the lock part and deadlock freedom within the explored schedules";
      if (p8 && v.id == "IDLE-9")
        v.note =
            "POWER8: the stronger form (no other thread bit set at a resync) is judged; two "
            "resyncs after one loss stay allowed, as the spec says";
      if (p8 && v.id == "IDLE-6")
        v.note = "judged in the split-core jobs (subcore_sibling_mask per subcore)";
    }
  }
  part.notes.push_back(
      fn + " explored (plain build; the ASan+UBSan build runs the same jobs):" + per_job);
  part.notes.push_back(
      fn + ": " +
      (ex.code.find("idle_lock") != std::string::npos
           ? "the lock is paca->idle_lock, apart from the word (the layout since v6.5, "
             "b0c5b4f1ee36)"
           : "the lock is the word's own bit (the layout up to v6.4)"));
  if (p8)
    part.notes.push_back(
        "power7_idle_insn: a POWER8 core; the word's plain stores under the lock are judged at "
        "the thread's next scheduling point; the SMT8 jobs are PCT (random), the exhaustive and "
        "bounded ones SMT2/SMT4");
  else
    part.notes.push_back("power9_idle_stop: a POWER9 core (SMT4 at most, no split-core)");
  finish_part(opt, part, t0);
  return part;
}

}  // namespace

Part check_idle_core(const Options& opt, const Target& target) {
  const auto t0 = std::chrono::steady_clock::now();
  const Component& component = *find_component("idle_core");
  Part part;
  part.component = component.name;
  part.file = target.display;
  if (!target.candidate.empty()) {
    fill_verdicts(component, target, part, "unknown",
                  "a candidate library cannot be run by the idle_core harness (its scheduler "
                  "needs the code's atomic operations as scheduling points)");
    return part;
  }
  // Each function the file has is checked on its own build: POWER9's
  // power9_idle_stop and POWER8's power7_idle_insn (a file may have both).
  const Extraction ex = extract(target.text, target.functions, target.path);
  part.functions = ex.functions;
  std::vector<std::string> present;
  for (const std::string fn : {"power9_idle_stop", "power7_idle_insn"})
    for (const auto& f : ex.functions)
      if (f.name == fn && f.found) present.push_back(fn);
  if (present.empty()) {
    fill_verdicts(component, target, part, "absent", "");
    finish_part(opt, part, t0);
    return part;
  }
  // --budget caps each function's runs. A file with both checks them at
  // once, one thread each (each runs its plain and sanitizer builds at once
  // too): POWER9's sanitizer runs take about as long as all of POWER8's, so
  // the two overlap on two cores. The results are merged in a fixed order.
  std::vector<Part> checked(present.size());
  {
    std::thread other;
    SandboxLog& log = SandboxLog::current();  // both functions' runs are this part's
    if (present.size() > 1)
      other = std::thread([&] {
        SandboxLog::Scope scope(log);
        checked[1] = check_function(opt, component, target, present[1]);
      });
    checked[0] = check_function(opt, component, target, present[0]);
    if (other.joinable()) other.join();
  }
  for (size_t i = 0; i < present.size(); ++i) {
    const std::string& fn = present[i];
    Part& p = checked[i];
    part.prelude.insert(part.prelude.end(), p.prelude.begin(), p.prelude.end());
    if (!p.build_error.empty())
      part.build_error += (part.build_error.empty() ? "" : "\n") + fn + ": " + p.build_error;
    for (auto& r : p.runs) r.mode = (fn == "power7_idle_insn" ? "P8 " : "P9 ") + r.mode;
    part.runs.insert(part.runs.end(), p.runs.begin(), p.runs.end());
    part.clauses.insert(part.clauses.end(), p.clauses.begin(), p.clauses.end());
    part.notes.insert(part.notes.end(), p.notes.begin(), p.notes.end());
    if (!p.temp_dir.empty()) {
      if (part.temp_dir.empty())
        part.temp_dir = p.temp_dir;
      else
        part.notes.push_back("harness files of " + fn + " kept in " + p.temp_dir);
    }
  }
  part.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return part;
}

}  // namespace idlespec::validate
