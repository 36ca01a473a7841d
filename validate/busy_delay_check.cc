// The busy_delay component of `idlespec validate`: rtas_busy_delay_time()
// and rtas_busy_delay() (with its early-boot helper) against
// spec/busy_delay.md.
//
// Clause mapping (what the harness, validate/harness_busy_delay.c, runs):
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
//   BUSY-6  (loop bound) is a property of the callers' loops, not of these
//           two functions: not checked by validate.
//
// With --scan sampled the three 2^32 scans become -65536..65535 plus 2^24
// statuses spread over the rest; the coverage line says so. Every clause is
// also run on ~30 boundary statuses (and the BUSY-7 sequences) in the
// ASan+UBSan build; a sanitizer report fails the clause of the status in
// flight.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <map>
#include <set>
#include <sstream>

#include "validate/component.h"
#include "validate/process.h"

namespace idlespec::validate {
namespace {

using Clock = std::chrono::steady_clock;
constexpr const char* kTime = "rtas_busy_delay_time";
constexpr const char* kDelay = "rtas_busy_delay";
constexpr size_t kMaxCounterexamples = 5;

// --- what the harness said ----------------------------------------------------

struct ClauseEvidence {
  std::vector<std::string> findings;  // formatted counterexamples
  unsigned long long findings_total = 0;
  unsigned long long calls = 0;
  std::set<std::string> covered;    // "plain scan-policy 0", ...
  std::vector<std::string> errors;  // runs that did not finish
};

// "FINDING BUSY-3 0x000026ad 9901 nr=0 what" -> clause, "status 0x000026ad (9901), need_resched=0:
// what"
bool parse_finding(const std::string& line, std::string& clause, std::string& text) {
  std::istringstream in(line);
  std::string tag, hex, dec, nr;
  if (!(in >> tag >> clause >> hex >> dec >> nr) || tag != "FINDING") return false;
  std::string what;
  std::getline(in, what);
  if (!what.empty() && what[0] == ' ') what.erase(0, 1);
  const bool early = clause == "BUSY-7";
  text = "status " + hex + " (" + dec + ")" +
         (early ? std::string(", early boot") : ", need_resched=" + nr.substr(3)) + ": " + what;
  return true;
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

std::string hex32(uint64_t v) {
  char b[24];
  std::snprintf(b, sizeof(b), "0x%08llx", static_cast<unsigned long long>(v));
  return b;
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
  const std::vector<std::string> policy = {"BUSY-1", "BUSY-2", "BUSY-3", "BUSY-5"};
  if (have_time)
    runs.push_back({"plain", "scan-time sampled", {"scan-time", "sampled"}, {"BUSY-4"}, ""});
  if (have_delay) {
    runs.push_back({"plain", "scan-policy 0 sampled", {"scan-policy", "0", "sampled"}, policy, ""});
    runs.push_back({"plain", "scan-policy 1 sampled", {"scan-policy", "1", "sampled"}, policy, ""});
    runs.push_back({"plain", "early", {"early"}, {"BUSY-7"}, ""});
  }
  std::vector<Run> chunks;
  if (!opt.sampled)
    for (unsigned k = 0; k < kChunks; ++k) {
      const std::string lo = hex32(k * kChunkSize), hi = hex32((k + 1) * kChunkSize - 1);
      const std::string range = " " + lo + ".." + hi;
      if (have_time)
        chunks.push_back(
            {"plain", "scan-time" + range, {"scan-time", lo, hi}, {"BUSY-4"}, "scan-time", k});
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
    if (!hb.error.empty()) {
      rep.build_error = hb.error;
      fill_verdicts(component, target, rep, "error", "the harness does not compile");
      rep.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
      if (!opt.keep_temp) remove_tree(rep.temp_dir), rep.temp_dir.clear();
      return rep;
    }
    const std::string& plain = hb.plain;
    const std::string& san = hb.san;
    if (!san.empty()) {
      std::vector<std::string> sc;
      if (have_time) sc.push_back("BUSY-4");
      if (have_delay) sc.insert(sc.end(), {"BUSY-1", "BUSY-2", "BUSY-3", "BUSY-5", "BUSY-7"});
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
    const double left =
        opt.budget_seconds - std::chrono::duration<double>(Clock::now() - t0).count();
    const auto results = run_jobs(jobs, cpu_count(), std::max(left, 1.0));
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
      const std::string out = slurp(jobs[i].out), err = slurp(jobs[i].err);
      bool done = false, aborted = false;
      std::set<std::string> checked;
      std::istringstream in(out);
      for (std::string line; std::getline(in, line);) {
        std::string clause, text;
        if (parse_finding(line, clause, text)) {
          auto& e = ev[clause];
          e.findings_total++;
          if (std::find(e.findings.begin(), e.findings.end(), text) == e.findings.end())
            e.findings.push_back(text);
        } else if (line.rfind("CHECKED ", 0) == 0) {
          std::istringstream l(line);
          std::string tag, c;
          unsigned long long n = 0;
          l >> tag >> c >> n;
          ev[c].calls += n;
          checked.insert(c);
        } else if (line.rfind("NOTE ", 0) == 0) {
          std::istringstream l(line);
          std::string tag, c;
          unsigned long long more = 0;
          l >> tag >> c >> more;
          ev[c].findings_total += more;
        } else if (line.rfind("ABORT ", 0) == 0) {
          aborted = true;
          rep.notes.push_back(label + ": " + line.substr(6));
        } else if (line.rfind("DONE", 0) == 0) {
          done = true;
        }
      }
      // Sanitizer reports: blame the status in flight ("AT clause status" lines).
      if (run.build == "sanitizers") {
        std::istringstream es(err);
        std::string at_clause, at_text;
        for (std::string line; std::getline(es, line);) {
          if (line.rfind("AT ", 0) == 0) {
            std::istringstream l(line);
            std::string tag, c, hex, dec, nr;
            l >> tag >> at_clause >> hex >> dec >> nr;
            at_text = "status " + hex + " (" + dec + ")" +
                      (at_clause == "BUSY-7" ? std::string(", early boot")
                                             : ", need_resched=" + nr.substr(3));
            continue;
          }
          const bool ubsan = line.find("runtime error:") != std::string::npos;
          const bool asan = line.find("ERROR: AddressSanitizer") != std::string::npos;
          if ((ubsan || asan) && !at_clause.empty()) {
            const size_t p = line.find(ubsan ? "runtime error:" : "ERROR:");
            auto& e = ev[at_clause];
            e.findings_total++;
            e.findings.push_back(at_text + ": " + (ubsan ? "UBSan " : "") + line.substr(p));
          }
        }
      }
      RunRecord rec{run.build, run.mode, r.seconds, "finished"};
      if (r.timed_out)
        rec.outcome =
            "timed out after " + std::to_string(static_cast<int>(opt.budget_seconds)) + " s";
      else if (r.signal)
        rec.outcome = "died of signal " + std::to_string(r.signal);
      else if (aborted)
        rec.outcome = "aborted (too many crashes/hangs)";
      else if (!done)
        rec.outcome = "exited " + std::to_string(r.exit_code) + " without finishing";
      if (!run.scan.empty()) {  // one chunk: counted, not listed
        if (done && !aborted) scans[run.scan].first++;
      } else {
        rep.runs.push_back(rec);
      }
      for (const auto& c : run.clauses) {
        if (run.scan.empty()) ev[c].covered.insert(label);
        if (!checked.count(c)) ev[c].errors.push_back(label + " " + rec.outcome);
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
        rep.notes.push_back("--budget " + std::to_string(static_cast<int>(opt.budget_seconds)) +
                            " s cut the exhaustive " + scan + ": statuses " + cut +
                            " were covered by the sampled scan only");
    }
    if (!opt.keep_temp) remove_tree(rep.temp_dir), rep.temp_dir.clear();
  }

  for (const auto& [id, fn] : component.clauses) {
    if (!requested(fn)) continue;
    ClauseVerdict v;
    v.id = id;
    v.component = component.name;
    v.function = fn;
    v.file = target.display;
    for (const auto& f : ex.functions)
      if (f.name == fn && f.found) v.line = f.first_line;
    const auto& e = ev[id];
    if (!found(fn)) {
      mark_not_found(v, target.text);
    } else if (e.findings_total > 0) {
      v.status = "failed";
      v.counterexamples.assign(
          e.findings.begin(),
          e.findings.begin() + std::min(e.findings.size(), kMaxCounterexamples));
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
