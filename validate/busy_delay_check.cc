// The busy_delay component of `idlespec validate`: rtas_busy_delay_time()
// and rtas_busy_delay() (with its early-boot helper) against
// spec/busy_delay.md.
//
// Clause mapping (what the harness, harness/harness_busy_delay.c, runs):
//
//   BUSY-4  rtas_busy_delay_time(), every 32-bit status (2^32 calls, plain
//           -O3 build): exactly -2 -> 1, 990n -> 10^n, anything else -> 0.
//   BUSY-1  rtas_busy_delay(), every 32-bit status, need_resched() false and
//           true, system_state SYSTEM_RUNNING (2 x 2^32 calls): retry exactly
//           for -2 and 9900..9905.
//   BUSY-2  same calls, status -2: no sleep or delay of any kind
//           (cond_resched() allowed).
//   BUSY-3  same calls, 990n: exactly one sleep (usleep_range, msleep, fsleep
//           or mdelay: the spec accepts either form) with min <= max,
//           max <= c*1000 us, min >= c*100 us, c = min(10^n, 1000) ms; no
//           cond_resched().
//   BUSY-5  same calls, any other status: no sleep, no cond_resched(), no
//           retry (might_sleep() is counted by no clause).
//   BUSY-7  rtas_busy_delay() with system_state SYSTEM_BOOTING (the early-boot
//           helper): 1000 consecutive extended delays retry with one
//           mdelay(1) each, the 1001st gives up; the count resets on giving
//           up, on -2 (which retries without delay) and on 8 other statuses
//           (which stop without delay).
//   BUSY-6  (loop bound) is a property of the callers' loops: not named by
//           validate; a loop breaks it only through a call that fails
//           BUSY-1, -2, -3 or -5, which the scans judge (spec/busy_delay.md).
//
// The harness reports what the functions answered, run-length encoded over
// the statuses; every clause is judged here through oracle/busy_delay.h (the
// status classes, the delay-time table, the sleep bounds, the early-boot
// count), the same reading the properties and busy_delay_fuzz judge by.
//
// With --scan sampled the three 2^32 scans become -65536..65535 plus 256
// blocks of 65536 statuses spread over the rest; the coverage line says so. Every clause is
// also run on ~30 boundary statuses (and the BUSY-7 sequences) in the
// ASan+UBSan build; a sanitizer report fails the clause of the status in
// flight.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <iterator>
#include <map>
#include <set>
#include <sstream>

#include "impl/busy_delay.h"
#include "oracle/busy_delay.h"
#include "sandbox/process.h"
#include "validate/component.h"
#include "validate/input_check.h"
#include "validate/job_retry.h"

namespace idlespec::validate {
namespace {

using Clock = std::chrono::steady_clock;
constexpr const char* kTime = "rtas_busy_delay_time";
constexpr const char* kDelay = "rtas_busy_delay";
constexpr size_t kMaxCounterexamples = 5;

// --- what the harness said, judged by the spec's one reading -----------------
// The harness reports answers (harness/harness_busy_delay.c); every verdict
// below comes from oracle/busy_delay.h.

namespace bo = busy_delay::oracle;

std::string hex32(uint64_t v) {
  char b[24];
  std::snprintf(b, sizeof(b), "0x%08llx", static_cast<unsigned long long>(v));
  return b;
}

struct ClauseEvidence {
  std::vector<std::string> findings;  // formatted counterexamples
  unsigned long long findings_total = 0;
  unsigned long long calls = 0;
  std::set<std::string> covered;    // "plain scan-policy 0", ...
  std::vector<std::string> errors;  // runs that did not finish
  // The policy calls that broke the clause (status, need_resched), for the
  // comparison with the spec's subjects (subjects_sharing); `foreign` when a
  // finding is no answer at all (a crash, a hang, a sanitizer report, a
  // finding of the early-boot or delay-time runs), which no subject shares.
  std::vector<std::pair<uint32_t, bool>> cases;
  bool foreign = false;
  // The failing inputs for review (ClauseVerdict::failing_inputs): the
  // status (each one of a small group, the range of a large one) and
  // need_resched, or the early-boot step and what it expected; never the
  // answer, so that a patch that fails one input otherwise is no change.
  std::map<std::string, std::string> inputs;
};
using Evidence = std::map<std::string, ClauseEvidence>;

// At most this many distinct failing calls per clause are kept for the
// comparison with the subjects (a faithful function's answers change about
// 20 times over the 2^32 statuses; the scan stops far below this).
constexpr size_t kMaxCases = 4096;

void add_finding(Evidence& ev, const std::string& clause, const std::string& text,
                 unsigned long long times = 1, const std::pair<uint32_t, bool>* call = nullptr,
                 const std::vector<std::string>& keys = {}) {
  auto& e = ev[clause];
  for (const std::string& k : keys.empty() ? std::vector<std::string>{text} : keys)
    if (e.inputs.size() < kMaxFailingInputs) e.inputs.emplace(k, text);
  if (!call)
    e.foreign = true;
  else if (e.cases.size() < kMaxCases &&
           std::find(e.cases.begin(), e.cases.end(), *call) == e.cases.end())
    e.cases.push_back(*call);
  e.findings_total += times;
  if (std::find(e.findings.begin(), e.findings.end(), text) == e.findings.end())
    e.findings.push_back(text);
}

// One call's answer as the harness saw it.
struct Answer {
  bool retry = false;
  unsigned sleeps = 0, yields = 0, primitive = 0;
  unsigned long long min_us = 0, max_us = 0;
};

bool read_answer(std::istream& in, Answer& a) {
  int retry = 0;
  if (!(in >> retry >> a.sleeps >> a.yields >> a.primitive >> a.min_us >> a.max_us)) return false;
  a.retry = retry != 0;
  return true;
}

// The answer in the oracle's terms: the last sleep, or kSeveralSleeps.
busy_delay::Request as_request(const Answer& a) {
  busy_delay::Request r;
  r.retry = a.retry;
  r.cond_resched = a.yields > 0;
  if (a.sleeps > 1) r.primitive = bo::kSeveralSleeps;
  if (a.sleeps == 1) r.primitive = static_cast<busy_delay::Primitive>(a.primitive);
  if (a.sleeps > 0) r.min_us = a.min_us, r.max_us = a.max_us;
  return r;
}

// "1 sleep(s), last msleep(20000..20000 us), 0 cond_resched()", "nothing"
std::string describe_answer(const Answer& a) {
  // The shim's primitives (harness/shims/kernel.h, enum shim_primitive).
  static const char* const names[] = {"none",   "usleep_range", "msleep", "fsleep",
                                      "mdelay", "udelay",       "ssleep", "ndelay"};
  if (a.sleeps == 0 && a.yields == 0) return "nothing";
  char b[200];
  std::snprintf(b, sizeof(b), "%u sleep(s), last %s(%llu..%llu us), %u cond_resched()", a.sleeps,
                a.primitive < std::size(names) ? names[a.primitive] : "?", a.min_us, a.max_us,
                a.yields);
  return b;
}

std::string status_prefix(uint32_t s, const std::string& mode, int nr) {
  char b[96];
  std::snprintf(b, sizeof(b), "status 0x%08x (%d), ", s, static_cast<int>(s));
  return b + (mode == "early" ? std::string("early boot") : "need_resched=" + std::to_string(nr));
}

// The clauses each of the harness's modes judges.
const std::vector<std::string>& mode_clauses(const std::string& mode) {
  static const std::vector<std::string> time = {"BUSY-4"}, early = {"BUSY-7"},
                                        policy = {"BUSY-1", "BUSY-2", "BUSY-3", "BUSY-5"}, none;
  return mode == "time" ? time : mode == "early" ? early : mode == "policy" ? policy : none;
}

// The clause a crash, hang or sanitizer report during a call belongs to.
std::string owner_clause(const std::string& mode, uint32_t s) {
  if (mode == "time") return "BUSY-4";
  if (mode == "early") return "BUSY-7";
  return bo::clause_id(static_cast<unsigned>(__builtin_ctz(bo::step_owner(s))));
}

// " (and N more statuses answered alike in LO..HI)" for a group of several.
std::string group_suffix(const bo::StatusGroup& g) {
  if (g.count <= 1) return "";
  char b[96];
  std::snprintf(b, sizeof(b), " (the same answer for %llu statuses, 0x%08x..0x%08llx)",
                static_cast<unsigned long long>(g.count), g.first,
                static_cast<unsigned long long>(g.first + g.count - 1));
  return b;
}

// The failing inputs of a group (Evidence::inputs): each status of a small
// group, the range of a large one (a class of statuses answered alike).
std::vector<std::string> input_keys(const bo::StatusGroup& g, const std::string& how) {
  std::vector<std::string> k;
  char b[64];
  if (g.count <= 64) {
    for (uint64_t s = g.first; s < uint64_t{g.first} + g.count; ++s) {
      std::snprintf(b, sizeof(b), "status 0x%08llx, ", static_cast<unsigned long long>(s));
      k.push_back(b + how);
    }
  } else {
    std::snprintf(b, sizeof(b), "statuses 0x%08x..0x%08llx, ", g.first,
                  static_cast<unsigned long long>(g.first + g.count - 1));
    k.push_back(b + how);
  }
  return k;
}

// OBS time LO HI MS: BUSY-4 on each group.
void judge_time_run(Evidence& ev, uint32_t lo, uint32_t hi, uint32_t ms) {
  for (const bo::StatusGroup& g : bo::status_groups(lo, hi)) {
    if (bo::busy4_holds(g.first, ms)) continue;
    char b[96];
    std::snprintf(b, sizeof(b), ": rtas_busy_delay_time returned %u, expected %u", ms,
                  bo::spec_delay_time_ms(g.first));
    add_finding(ev, "BUSY-4", status_prefix(g.first, "time", 0) + b + group_suffix(g), g.count,
                nullptr, input_keys(g, "time"));
  }
}

// OBS policy NR LO HI answer: BUSY-1, 2, 3, 5 on each group.
void judge_policy_run(Evidence& ev, int nr, uint32_t lo, uint32_t hi, const Answer& a) {
  const busy_delay::Request r = as_request(a);
  for (const bo::StatusGroup& g : bo::status_groups(lo, hi)) {
    const unsigned v = bo::step_violations(g.first, r, bo::kStepClauses);
    for (unsigned i = 0; i < bo::kClauseCount; ++i) {
      if (!(v & (1u << i))) continue;
      std::string what;
      if ((1u << i) == bo::kBusy1)
        what = std::string("rtas_busy_delay returned ") + (a.retry ? "true (retry)" : "false") +
               ", expected " + (bo::spec_retries(g.first) ? "true (retry)" : "false");
      else
        what = "requested " + describe_answer(a) + (a.retry ? ", retry" : "") + "; expected " +
               bo::spec_expectation(i, g.first);
      const std::pair<uint32_t, bool> call{g.first, nr != 0};
      add_finding(ev, bo::clause_id(i),
                  status_prefix(g.first, "policy", nr) + ": " + what + group_suffix(g), g.count,
                  &call, input_keys(g, "need_resched=" + std::to_string(nr)));
    }
  }
}

// SCANNED: the calls each clause judged.
void count_scanned(Evidence& ev, const std::string& mode, uint32_t lo, uint32_t hi) {
  const unsigned long long n = uint64_t{hi} - lo + 1;
  if (mode == "time") {
    ev["BUSY-4"].calls += n;
    return;
  }
  ev["BUSY-1"].calls += n;
  for (const bo::StatusGroup& g : bo::status_groups(lo, hi))
    ev[g.kind == bo::StatusClass::busy       ? "BUSY-2"
       : g.kind == bo::StatusClass::extended ? "BUSY-3"
                                             : "BUSY-5"]
        .calls += g.count;
}

// The early-boot calls of one run: BUSY-7 by judge_early_calls, each
// violation placed in its phase.
void judge_early(Evidence& ev, const std::vector<bo::Call>& calls,
                 const std::vector<std::pair<size_t, std::string>>& phases,
                 const std::vector<Answer>& answers) {
  if (calls.empty()) return;
  ev["BUSY-7"].calls += calls.size();
  idlespec::oracle::Collector out;
  bo::judge_early_calls(calls, 0, out);
  for (const auto& v : out.violations()) {
    size_t step = 0;
    std::sscanf(v.message.c_str(), "step %zu", &step);
    std::string where;
    if (step >= 1 && step <= calls.size()) {
      const std::string* in_phase = nullptr;  // the last phase that began at or before the step
      for (const auto& [first, phase] : phases)
        if (first <= step - 1) in_phase = &phase;
      where = status_prefix(calls[step - 1].status, "early", 0) + ": " +
              (in_phase ? *in_phase + ": " : "") + "answered " +
              describe_answer(answers[step - 1]) +
              (answers[step - 1].retry ? ", retry" : ", no retry") + "; ";
    }
    // The input: the phase, the step and what the spec expected there
    // (the message's "requested ..." is the answer, left out).
    std::string expected = v.message;
    const size_t req = expected.find(": requested ");
    if (req != std::string::npos) {
      const size_t semi = expected.find("; ", req);
      expected.erase(req, semi == std::string::npos ? std::string::npos : semi - req);
    }
    // The loop and call numbers follow the answers (a retry continues a
    // loop): the step alone names the input.
    const size_t loop_at = expected.find(" (loop ");
    const size_t loop_end = loop_at == std::string::npos ? loop_at : expected.find(')', loop_at);
    if (loop_end != std::string::npos) expected.erase(loop_at, loop_end + 1 - loop_at);
    std::string phase;
    if (step >= 1 && step <= calls.size())
      for (const auto& [first, p] : phases)
        if (first <= step - 1) phase = p;
    // How it failed, in the spec's early-boot terms (before the scheduler
    // runs, a sleep is another failure than no delay at all): after a tab,
    // so that review tells an input failing another way from one that
    // failed the same way (validate/review.cc).
    std::string how;
    if (step >= 1 && step <= calls.size()) {
      const Answer& a = answers[step - 1];
      // The shim's primitives: 4 mdelay, 5 udelay, 7 ndelay busy-wait; the others sleep.
      const bool busy_wait = a.primitive == 4 || a.primitive == 5 || a.primitive == 7;
      how = a.sleeps == 0 ? (a.yields ? "a yield, no delay" : "no delay")
            : busy_wait   ? "a busy-wait delay"
                          : "a sleep (the scheduler's)";
    }
    add_finding(ev, v.clause, where + v.message, v.occurrences, nullptr,
                {"early boot, " + (phase.empty() ? "" : phase + ", ") + expected + "\t" + how});
  }
}

// One run's protocol: judged into `ev`. Returns the run's "DONE" and "ABORT"
// state; CUT lines become errors of the clauses in `clauses`.
struct RunState {
  bool done = false, aborted = false;
  std::set<std::string> complete;  // the clauses whose calls all ran
  std::vector<std::string> notes;
};

RunState judge_run_output(Evidence& ev, const std::string& out,
                          const std::vector<std::string>& clauses) {
  RunState st;
  std::vector<bo::Call> calls;
  std::vector<Answer> answers;
  std::vector<std::pair<size_t, std::string>> phases;
  std::istringstream in(out);
  for (std::string line; std::getline(in, line);) {
    std::istringstream l(line);
    std::string tag, mode;
    l >> tag;
    if (tag == "OBS") {
      l >> mode;
      int nr = 0;
      unsigned long long lo = 0, hi = 0;
      if (mode == "policy") l >> nr;
      l >> std::hex >> lo >> hi >> std::dec;
      if (!l || lo > hi || hi > 0xffffffffull) continue;
      if (mode == "time") {
        unsigned long long ms = 0;
        if (l >> ms) judge_time_run(ev, lo, hi, static_cast<uint32_t>(ms));
      } else {
        Answer a;
        if (read_answer(l, a)) judge_policy_run(ev, nr, lo, hi, a);
      }
    } else if (tag == "CALL") {
      unsigned long long s = 0;
      Answer a;
      if (!(l >> std::hex >> s >> std::dec) || !read_answer(l, a)) continue;
      calls.push_back({static_cast<uint32_t>(s), as_request(a)});
      answers.push_back(a);
    } else if (tag == "PHASE") {
      std::string phase;
      std::getline(l, phase);
      phases.emplace_back(calls.size(), phase.empty() ? phase : phase.substr(1));
    } else if (tag == "TRAP") {
      unsigned long long s = 0;
      int nr = 0;
      std::string what;
      l >> mode >> std::hex >> s >> std::dec >> nr;
      std::getline(l, what);
      if (!what.empty() && what[0] == ' ') what.erase(0, 1);
      add_finding(ev, owner_clause(mode, static_cast<uint32_t>(s)),
                  status_prefix(static_cast<uint32_t>(s), mode, nr) + ": " + what);
    } else if (tag == "SCANNED") {
      int nr = 0;
      unsigned long long lo = 0, hi = 0;
      l >> mode >> nr >> std::hex >> lo >> hi;
      if (l && lo <= hi && hi <= 0xffffffffull) count_scanned(ev, mode, lo, hi);
    } else if (tag == "CUT") {
      int nr = 0;
      unsigned long long at = 0;
      l >> mode >> nr >> std::hex >> at;
      const std::string why = "the " + mode + " scan stopped before status " + hex32(at) +
                              ": more different answers than the harness records (a faithful "
                              "function gives about 20); the later statuses were not called";
      st.notes.push_back(why);
      for (const auto& c : clauses) ev[c].errors.push_back(why);
    } else if (tag == "COMPLETE") {
      l >> mode;
      for (const auto& c : mode_clauses(mode)) st.complete.insert(c);
    } else if (tag == "NOTE") {
      st.notes.push_back(line.substr(5));
    } else if (tag == "ABORT") {
      st.aborted = true;
      st.notes.push_back(line.substr(6));
    } else if (tag == "DONE") {
      st.done = true;
    }
  }
  judge_early(ev, calls, phases, answers);
  return st;
}

// The subjects that break `clause` on every call the file broke it on: each
// form of each subject of impl/busy_delay.h answers the same status with the
// same need_resched(), judged by the same oracle clause. A subject with
// several forms shares the failure when one of its forms does. None shares a
// finding that is no answer (ClauseEvidence::foreign).
std::vector<std::string> subjects_sharing(const std::string& clause, const ClauseEvidence& e) {
  std::vector<std::string> out;
  const unsigned bit = bo::clause_mask({clause});
  if (e.foreign || e.cases.empty() || !(bit & bo::kStepClauses)) return out;
  for (const busy_delay::PolicyInfo& p : busy_delay::policies()) {
    const std::string subject(p.subject);
    if (std::find(out.begin(), out.end(), subject) != out.end()) continue;
    const bool every = std::all_of(e.cases.begin(), e.cases.end(), [&](const auto& c) {
      busy_delay::ConcreteContext ctx;
      ctx.need_resched = c.second;
      return (bo::step_violations(c.first, p.step(c.first, ctx), bit) & bit) != 0;
    });
    if (every) out.push_back(subject);
  }
  return out;
}

struct Run {
  std::string build, mode;
  std::vector<std::string> args;
  std::vector<std::string> clauses;  // what it covers
  std::string scan;                  // for a chunk of an exhaustive scan: the scan it belongs to
  unsigned chunk = 0;                // ... and which chunk
};

// "0x30000000..0xffffffff, ...": the chunks in `cut`, contiguous ones merged.
std::string ranges(std::vector<unsigned> cut);

// The exhaustive scans run as chunks of 2^28 statuses, after the sampled
// scans, so that a budget that cannot hold all 2^32 statuses cuts whole
// chunks and the report can say which.
constexpr unsigned kChunks = 16;
constexpr uint64_t kChunkSize = (uint64_t{1} << 32) / kChunks;

// The sampled scan, as "LO HI" arguments: every status in -65536..65535,
// then 256 blocks of 65536 consecutive statuses, one in each 2^24, at an
// offset that varies from block to block (2^17 + 2^24 statuses in all).
std::vector<std::string> sampled_ranges() {
  std::vector<std::string> out = {hex32(0xffff0000u), hex32(0xffffffffu), hex32(0), hex32(0xffff)};
  for (uint64_t k = 0; k < 256; ++k) {
    const uint64_t lo = (k << 24) | (((k * 167 + 1) & 0xff) << 16);
    out.push_back(hex32(lo));
    out.push_back(hex32(lo + 0xffff));
  }
  return out;
}

std::string ranges(std::vector<unsigned> cut) {
  std::sort(cut.begin(), cut.end());
  std::string out;
  for (size_t i = 0; i < cut.size();) {
    size_t j = i;
    while (j + 1 < cut.size() && cut[j + 1] == cut[j] + 1) ++j;
    out += (out.empty() ? "" : ", ") + hex32(cut[i] * kChunkSize) + ".." +
           hex32((cut[j] + 1) * kChunkSize - 1);
    i = j + 1;
  }
  return out;
}

// A run its hang backstop ended (harness/harness_runtime.c): the code under
// test hung on a status with the watchdog's signal blocked or ignored, the
// harness wrote that status's TRAP line and exited kHarnessExitHung. The
// arguments that go on after that status: the scan's remaining ranges, or
// the boundary run with the scans of one status it made skipped; none for
// the early-boot sequences (one sequence, which the hang ended: BUSY-7
// fails on it) or when nothing is left. `out`: this process's output.
std::vector<std::string> resume_args(const std::vector<std::string>& args, const std::string& out) {
  unsigned long long hung = 0, scanned = 0;
  std::string hung_mode;
  std::istringstream in(out);
  for (std::string line; std::getline(in, line);) {
    std::istringstream l(line);
    std::string tag;
    l >> tag;
    if (tag == "SCANNED") ++scanned;
    if (tag == "TRAP") l >> hung_mode >> std::hex >> hung;
  }
  if (hung_mode.empty() || hung_mode == "early" || args.empty()) return {};
  if (args[0] == "boundary") {
    const unsigned long long skipped =
        args.size() > 1 ? std::strtoull(args[1].c_str(), nullptr, 10) : 0;
    return {"boundary", std::to_string(skipped + scanned + 1)};
  }
  const size_t head = args[0] == "scan-policy" ? 2 : 1;
  if (args.size() < head) return {};
  std::vector<std::pair<unsigned long long, unsigned long long>> ranges;
  for (size_t i = head; i + 1 < args.size(); i += 2)
    ranges.emplace_back(std::strtoull(args[i].c_str(), nullptr, 0),
                        std::strtoull(args[i + 1].c_str(), nullptr, 0));
  if (ranges.empty()) ranges.emplace_back(0, 0xffffffffull);  // no ranges: all 2^32
  // The scan goes through the ranges in order, one SCANNED line each: the
  // hang is in the first range without one.
  if (scanned >= ranges.size()) return {};
  std::vector<std::string> next(args.begin(), args.begin() + static_cast<long>(head));
  const auto [lo, hi] = ranges[scanned];
  if (hung >= lo && hung < hi) next.push_back(hex32(hung + 1)), next.push_back(hex32(hi));
  for (size_t k = scanned + 1; k < ranges.size(); ++k)
    next.push_back(hex32(ranges[k].first)), next.push_back(hex32(ranges[k].second));
  return next.size() > head ? next : std::vector<std::string>{};
}

constexpr int kResumes = 8;  // per run: a function that hangs on more statuses is an error

}  // namespace

Part check_busy_delay(const Options& opt, const Target& target) {
  const auto t0 = Clock::now();
  const Component& component = *find_component("busy_delay");
  Part rep;
  rep.component = component.name;
  rep.file = target.display;
  const std::vector<std::string>& names = target.functions;

  Extraction ex = target.candidate.empty()
                      ? extract(target.text, names, target.path)
                      : candidate_extraction(opt, target, "CANDIDATE_BUSY_DELAY");
  rep.functions = ex.functions;
  rep.prelude = ex.prelude;
  auto found = [&](const std::string& n) {
    return std::any_of(ex.functions.begin(), ex.functions.end(),
                       [&](const FoundFunction& f) { return f.name == n && f.found; });
  };
  auto requested = [&](const std::string& n) {
    return std::find(names.begin(), names.end(), n) != names.end();
  };

  std::map<std::string, ClauseEvidence> ev;
  const bool have_time = requested(kTime) && found(kTime);
  const bool have_delay = requested(kDelay) && found(kDelay);

  // First the sampled scans (every status in -65536..65535 and 2^24 spread
  // over the rest: well under a second) and the early-boot sequences; then,
  // unless --scan sampled, the exhaustive scans in chunks, within --budget.
  std::vector<Run> runs;
  const std::vector<std::string>& policy = mode_clauses("policy");
  const std::vector<std::string> sample = sampled_ranges();
  auto with_sample = [&](std::vector<std::string> args) {
    args.insert(args.end(), sample.begin(), sample.end());
    return args;
  };
  if (have_time)
    runs.push_back(
        {"plain", "scan-time sampled", with_sample({"scan-time"}), mode_clauses("time"), ""});
  if (have_delay) {
    runs.push_back(
        {"plain", "scan-policy 0 sampled", with_sample({"scan-policy", "0"}), policy, ""});
    runs.push_back(
        {"plain", "scan-policy 1 sampled", with_sample({"scan-policy", "1"}), policy, ""});
    runs.push_back({"plain", "early", {"early"}, mode_clauses("early"), ""});
  }
  std::vector<Run> chunks;
  if (!opt.sampled)
    for (unsigned k = 0; k < kChunks; ++k) {
      const std::string lo = hex32(k * kChunkSize), hi = hex32((k + 1) * kChunkSize - 1);
      const std::string range = " " + lo + ".." + hi;
      if (have_time)
        chunks.push_back({"plain",
                          "scan-time" + range,
                          {"scan-time", lo, hi},
                          mode_clauses("time"),
                          "scan-time",
                          k});
      if (have_delay)
        for (const char* nr : {"0", "1"})
          chunks.push_back({"plain",
                            std::string("scan-policy ") + nr + range,
                            {"scan-policy", nr, lo, hi},
                            policy,
                            std::string("scan-policy ") + nr,
                            k});
    }

  if (have_time || have_delay) {
    rep.temp_dir = make_temp_dir("validate");
    if (rep.temp_dir.empty()) {
      fill_verdicts(component, target, rep, "error", "cannot create a temporary directory");
      return rep;
    }
    std::vector<std::string> defs;
    if (have_time) defs.push_back("-DHAVE_RTAS_BUSY_DELAY_TIME");
    if (have_delay) defs.push_back("-DHAVE_RTAS_BUSY_DELAY");
    const HarnessBuild hb =
        build_harness(opt, rep.temp_dir, "", ex.code, "harness_busy_delay.c", defs);
    rep.notes.insert(rep.notes.end(), hb.notes.begin(), hb.notes.end());
    if (!hb.error.empty()) {
      rep.build_error = hb.error;
      fill_verdicts(component, target, rep, "error", hb.verdict_reason);
      rep.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
      if (!opt.keep_temp) remove_tree(rep.temp_dir), rep.temp_dir.clear();
      return rep;
    }
    const std::string& plain = hb.plain;
    const std::string& san = hb.san;
    if (!san.empty()) {
      std::vector<std::string> sc;
      for (const char* mode : {"time", "policy", "early"}) {
        if (std::string(mode) == "time" ? !have_time : !have_delay) continue;
        sc.insert(sc.end(), mode_clauses(mode).begin(), mode_clauses(mode).end());
      }
      runs.push_back({"sanitizers", "boundary", {"boundary"}, sc, ""});
    } else if (opt.sanitizers) {
      rep.notes.push_back("the ASan+UBSan build failed, boundary run skipped: " + hb.san_note);
    }
    runs.insert(runs.end(), chunks.begin(), chunks.end());

    std::vector<Job> jobs;
    for (size_t i = 0; i < runs.size(); ++i) {
      Job j;
      j.argv = {runs[i].build == "plain" ? plain : san};
      j.argv.insert(j.argv.end(), runs[i].args.begin(), runs[i].args.end());
      j.out = rep.temp_dir + "/run" + std::to_string(i) + ".out";
      j.err = rep.temp_dir + "/run" + std::to_string(i) + ".err";
      j.timeout = opt.budget_seconds;
      if (runs[i].build == "sanitizers") j.env = sanitizer_env();
      jobs.push_back(j);
    }
    auto results = run_jobs_retrying(jobs, cpu_count(), as_deadline(budget_left(opt, t0)));
    // Each run's output; a run the hang backstop ended goes on after the
    // status it hung on, in a new process, its output appended.
    std::vector<std::string> outs, errs;
    std::vector<std::vector<std::string>> args_now;
    for (size_t i = 0; i < runs.size(); ++i) {
      outs.push_back(slurp(jobs[i].out));
      errs.push_back(slurp(jobs[i].err));
      args_now.push_back(runs[i].args);
    }
    std::vector<std::string> last_out = outs;  // the latest process's output of each run
    std::vector<int> resumed(runs.size(), 0);
    for (int round = 0; round < kResumes; ++round) {
      std::vector<size_t> which;
      std::vector<Job> again;
      for (size_t i = 0; i < runs.size(); ++i) {
        const JobResult& r = results[i];
        if (r.timed_out || r.skipped || r.signal || r.exit_code != kHarnessExitHung) continue;
        const std::vector<std::string> next = resume_args(args_now[i], last_out[i]);
        if (next.empty()) continue;
        Job j = jobs[i];
        j.argv.resize(1);
        j.argv.insert(j.argv.end(), next.begin(), next.end());
        j.out = jobs[i].out + ".resumed" + std::to_string(round);
        j.err = jobs[i].err + ".resumed" + std::to_string(round);
        args_now[i] = next;
        ++resumed[i];
        which.push_back(i);
        again.push_back(j);
      }
      if (again.empty()) break;
      const auto more = run_jobs_retrying(again, cpu_count(), as_deadline(budget_left(opt, t0)));
      for (size_t k = 0; k < which.size(); ++k) {
        const size_t i = which[k];
        const double before = results[i].seconds;
        results[i] = more[k];
        results[i].seconds += before;
        last_out[i] = slurp(again[k].out);
        outs[i] += last_out[i];
        errs[i] += slurp(again[k].err);
      }
    }
    // Per exhaustive scan: the chunks that finished, and the ranges the budget cut.
    std::map<std::string, std::pair<unsigned, std::vector<unsigned>>> scans;

    for (size_t i = 0; i < runs.size(); ++i) {
      const Run& run = runs[i];
      const JobResult& r = results[i];
      const std::string label = run.build + " " + run.mode;
      if (!run.scan.empty() && (r.skipped || r.timed_out)) {  // cut by the budget
        scans[run.scan].second.push_back(run.chunk);
        continue;
      }
      const std::string &out = outs[i], &err = errs[i];
      const RunState st = judge_run_output(ev, out, run.clauses);
      const bool done = st.done, aborted = st.aborted;
      for (const auto& n : st.notes) rep.notes.push_back(label + ": " + n);
      if (resumed[i] > 0)
        rep.notes.push_back(label + ": " + kHungRunOutcome + " " + std::to_string(resumed[i]) +
                            " time(s); the run went on after the status it hung on");
      // Sanitizer reports: blame the status in flight ("AT mode status" lines).
      if (run.build == "sanitizers") {
        std::istringstream es(err);
        std::string at_clause, at_text;
        for (std::string line; std::getline(es, line);) {
          if (line.rfind("AT ", 0) == 0) {
            std::istringstream l(line);
            std::string tag, at_mode, nr;
            unsigned long long s = 0;
            l >> tag >> at_mode >> std::hex >> s >> nr;
            at_clause = owner_clause(at_mode, static_cast<uint32_t>(s));
            at_text = status_prefix(static_cast<uint32_t>(s), at_mode,
                                    nr.size() > 3 ? std::atoi(nr.c_str() + 3) : 0);
            continue;
          }
          const bool ubsan = line.find("runtime error:") != std::string::npos;
          const bool asan = line.find("ERROR: AddressSanitizer") != std::string::npos;
          if ((ubsan || asan) && !at_clause.empty()) {
            const size_t p = line.find(ubsan ? "runtime error:" : "ERROR:");
            add_finding(ev, at_clause, at_text + ": " + (ubsan ? "UBSan " : "") + line.substr(p));
          }
        }
      }
      RunRecord rec{run.build, run.mode, r.seconds, "finished"};
      if (r.skipped)
        rec.outcome = r.interrupted ? "not started: the run was interrupted"
                                    : "not started: the budget ran out before it";
      else if (r.timed_out)
        rec.outcome = timed_out_text(r.seconds);
      else if (r.signal)
        rec.outcome = outcome(r, 0);  // "died of signal 31 (SIGSYS)"
      else if (!done && r.exit_code == kHarnessExitHung)
        rec.outcome = kHungRunOutcome;
      else if (aborted)
        rec.outcome = "aborted (too many crashes/hangs)";
      else if (!done && r.exit_code == 0)  // the harness returns 0 only after its end
        rec.outcome = "exit(0) from the code under test in the middle of the run";
      else if (!done)
        rec.outcome = "exited " + std::to_string(r.exit_code) + " without finishing";
      if (!run.scan.empty()) {  // one chunk: counted, not listed
        if (done && !aborted) scans[run.scan].first++;
      } else {
        rep.runs.push_back(rec);
      }
      for (const auto& c : run.clauses) {
        // Evidence is a run that finished: a killed, cut or exited one is not.
        if (run.scan.empty() && rec.outcome == "finished") ev[c].covered.insert(label);
        if (!st.complete.count(c)) ev[c].errors.push_back(label + " " + rec.outcome);
      }
    }
    // The exhaustive scans, one line each: complete, or what the budget cut.
    for (const auto& [scan, state] : scans) {
      const unsigned finished = state.first;
      const std::string cut = ranges(state.second);
      RunRecord rec{"plain", scan + " all 2^32", 0,
                    std::to_string(finished) + "/" + std::to_string(kChunks) + " chunks"};
      for (size_t i = 0; i < runs.size(); ++i)
        if (runs[i].scan == scan) rec.seconds += results[i].seconds;
      if (!cut.empty()) rec.outcome += ", the budget cut " + cut;
      rep.runs.push_back(rec);
      const std::string label = "plain " + scan +
                                (cut.empty() ? " all 2^32"
                                             : " " + std::to_string(finished) + "/" +
                                                   std::to_string(kChunks) + " chunks");
      for (const auto& run : runs)
        if (run.scan == scan)
          for (const auto& c : run.clauses) ev[c].covered.insert(label);
      if (!cut.empty())
        rep.notes.push_back(budget_words(opt) + " cut the exhaustive " + scan + ": statuses " +
                            cut + " were covered by the sampled scan only");
    }
    if (!opt.keep_temp) remove_tree(rep.temp_dir), rep.temp_dir.clear();
  }

  for (const auto& [id, fn] : component.clauses) {
    if (!requested(fn)) continue;
    ClauseVerdict v = clause_verdict(component, target, ex.functions, id, fn);
    const auto& e = ev[id];
    if (!found(fn)) {
      mark_not_found(v, target.text);
    } else if (e.findings_total > 0) {
      v.status = "failed";
      // Which subjects break the clause where the file does: an acceptance
      // covers the failure only for them (spec_judgement.cc).
      if (bo::clause_mask({id}) & bo::kStepClauses) {
        v.subjects_compared = true;
        v.fails_like = subjects_sharing(id, e);
      }
      v.counterexamples.assign(
          e.findings.begin(),
          e.findings.begin() + std::min(e.findings.size(), kMaxCounterexamples));
      v.failing_inputs.assign(e.inputs.begin(), e.inputs.end());
      if (e.findings_total > v.counterexamples.size())
        v.coverage = std::to_string(e.findings_total) + " findings; ";
      // Replay: the kept harness (--keep-temp) on the first status alone.
      char hex[16] = {};
      int nr = 0;
      const std::string& first = v.counterexamples.front();
      if (id == "BUSY-7")
        v.replay = "harness early";
      else if (std::sscanf(first.c_str(), "status %11s (%*d), need_resched=%d", hex, &nr) == 2)
        v.replay = id == "BUSY-4"
                       ? std::string("harness scan-time ") + hex + " " + hex
                       : "harness scan-policy " + std::to_string(nr) + " " + hex + " " + hex;
    } else if (!e.errors.empty()) {
      v.status = "error";
      for (const auto& s : e.errors) v.error += (v.error.empty() ? "" : "; ") + s;
    } else {
      v.status = "held";
    }
    v.coverage += std::to_string(e.calls) + " calls";
    for (const auto& c : e.covered) v.coverage += ", " + c;
    rep.clauses.push_back(v);
  }
  rep.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
  return rep;
}

}  // namespace idlespec::validate
