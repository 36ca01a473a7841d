// The idle_core component of `idlespec validate`: a file's power9_idle_stop()
// (and the atomic_*_thread_idle helpers it calls) against spec/idle_core.md,
// run by the hardware threads of one POWER9 core under a controlled
// scheduler.
//
// The harness (validate/harness_idle_core.c) runs one context per hardware
// thread; every operation on the per-core word, the idle instruction, a
// per-core SPR write and the timebase resync is a scheduling point
// (validate/shims/idle_env.h), and the hardware's wake-ups and the core's
// state loss are moves too, constrained by the spec's model (the core loses
// state only while every thread is in hardware idle in a deep stop). Each
// input line is an exploration job: exhaustive (SMT2), preemption-bounded
// (SMT4), or PCT (randomised priorities, SMT4 and SMT2). The harness judges
// the clauses in C on every move and reports, per clause, the shortest
// failing schedule it found, shrunk (moves dropped while the clause still
// fails), with its thread timeline. The driver turns those into verdicts,
// each with a replay job for the harness.
//
// Clauses on power9_idle_stop: IDLE-1 (lock part, deadlock), IDLE-2,
// IDLE-3, IDLE-7 (POWER9's own), IDLE-8 (bounded), IDLE-9 are judged;
// IDLE-4, IDLE-5, IDLE-6 are POWER8's (power7_idle_insn) and n/a here.
#include <algorithm>
#include <chrono>
#include <map>
#include <memory>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "validate/component.h"
#include "validate/input_check.h"

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
};

std::vector<Job> make_jobs(uint64_t seed) {
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

Findings judge(Shared& sh, const Job& job, const HarnessOutcome& h) {
  Findings f;
  if (!h.reported) return f;
  for (const auto& s : h.sanitizer) f.emplace("IDLE-7", s + " (" + job.what + ")");
  if (h.crashed) f.emplace("IDLE-7", "crashed: " + h.crash + " (" + h.result + ")");
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
  return f;
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
           (field(r, "complete") == "1" ? ", complete" : ", cut at the schedule limit");
  }
  return s;
}

}  // namespace

Part check_idle_core(const Options& opt, const Target& target) {
  const auto t0 = std::chrono::steady_clock::now();
  const Component& component = *find_component("idle_core");
  Part part;
  if (!target.candidate.empty()) {
    part.component = component.name;
    part.file = target.display;
    fill_verdicts(component, target, part, "unknown",
                  "a candidate library cannot be run by the idle_core harness (its scheduler "
                  "needs the code's atomic operations as scheduling points)");
    return part;
  }
  // power9_idle_stop is the function the clauses are checked on: extract it
  // alone (power7_idle_insn, POWER8's, is not checked by this slice).
  Target t = target;
  t.functions.clear();
  for (const auto& f : target.functions)
    if (f == "power9_idle_stop") t.functions.push_back(f);
  HarnessBuild hb;
  int line = 0;
  if (!t.functions.empty() &&
      prepare_part(opt, component, t, "idle_env.h", "harness_idle_core.c",
                   "-DHAVE_POWER9_IDLE_STOP", "CANDIDATE_IDLE_CORE", part, hb, line)) {
    auto sh = std::make_shared<Shared>();
    const std::vector<Job> jobs = make_jobs(opt.seed);
    InputChecker<Job> c;
    c.line = [](const Job& j) { return j.line; };
    c.judge = [sh](const Job& j, const HarnessOutcome& h) { return judge(*sh, j, h); };
    c.shrink = [sh](const Job& j) {
      std::vector<Job> out;
      if (j.replay) return out;  // the harness shrank it already
      for (const auto& rl : sh->replays[j.line]) {
        std::istringstream is(rl);
        std::string threads;
        is >> threads;
        out.push_back({rl, "SMT" + threads + " schedule", 0, true});
      }
      return out;
    };
    c.describe = [](const Job& j) { return j.what; };
    c.weight = [](const Job& j) { return j.weight; };
    c.failure_notes["IDLE-9"] =
        "efficiency clause: the timebase was resynced by a thread that had found another "
        "thread awake";
    c.failure_notes["IDLE-8"] =
        "liveness, bounded: a thread that woke can never return within the explored schedule "
        "(every other thread finished or blocked)";
    c.shrink_rounds = 2;
    check_inputs(opt, hb, component, t, line, jobs, c, part);

    long long total = 0;
    const std::string per_job = coverage_of(*sh, jobs, total);
    const std::string cov = std::to_string(jobs.size()) + " exploration jobs, " +
                            std::to_string(total) + " schedules per build";
    for (auto& v : part.clauses) {
      if (v.id == "IDLE-4" || v.id == "IDLE-5" || v.id == "IDLE-6") {
        v.status = "n/a";
        v.coverage.clear();
        v.counterexamples.clear();
        v.replay.clear();
        v.note = v.id == "IDLE-4" ? "POWER8 only: the fastsleep workaround (power7_idle_insn); "
                                    "POWER9 stop has none"
                 : v.id == "IDLE-5"
                     ? "POWER8 only: the winkle count and bits (power7_idle_insn); POWER9 "
                       "deep stop restores per-thread SPRs on every state loss (IDLE-7)"
                     : "POWER8 only: split-core subcores (power7_idle_insn); POWER9 has no "
                       "split-core mode";
        continue;
      }
      if (v.status == "held") {
        v.coverage = cov;
        if (v.id == "IDLE-8")
          v.note =
              "bounded: no explored schedule ends with a woken thread unable to return; not "
              "the fair-cycle analysis of the model checker";
        if (v.id == "IDLE-1")
          v.note = "the lock part and deadlock freedom within the explored schedules";
      }
    }
    part.notes.push_back("explored (plain build; the ASan+UBSan build runs the same jobs):" +
                         per_job);
    part.notes.push_back(
        "POWER9 (SMT4 at most); SMT8 applies to POWER8's power7_idle_insn, which validate does "
        "not check yet");
  } else if (t.functions.empty()) {
    part.component = component.name;
    part.file = target.display;
  }
  finish_part(opt, part, t0);
  return part;
}

}  // namespace idlespec::validate
