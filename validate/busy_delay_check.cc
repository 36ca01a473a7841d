// The `idlespec validate` driver (see validate.h for the clause mapping).
#include "validate/validate.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

namespace idlespec::validate {
namespace {

using Clock = std::chrono::steady_clock;
constexpr const char* kTime = "rtas_busy_delay_time";
constexpr const char* kDelay = "rtas_busy_delay";
constexpr size_t kMaxCounterexamples = 5;

// --- child processes with a wall-clock limit --------------------------------

struct Job {
  std::vector<std::string> argv;
  std::vector<std::pair<std::string, std::string>> env;
  std::string out, err;  // files for stdout and stderr
  double timeout = 60;
};
struct JobResult {
  int exit_code = -1;  // when exited
  int signal = 0;      // when killed by a signal
  bool timed_out = false;
  bool exec_failed = false;
  double seconds = 0;
};

pid_t start(const Job& job) {
  const pid_t pid = fork();
  if (pid != 0) return pid;
  setpgid(0, 0);  // its own group: a timeout kills the harness and anything it forked
  const int out = open(job.out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  const int err = open(job.err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (out < 0 || err < 0) _exit(127);
  dup2(out, 1);
  dup2(err, 2);
  for (const auto& [k, v] : job.env) setenv(k.c_str(), v.c_str(), 1);
  std::vector<char*> argv;
  for (const auto& a : job.argv) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  execvp(argv[0], argv.data());
  _exit(127);
}

// Run the jobs, at most `parallel` at a time; poll waitpid, kill on timeout.
std::vector<JobResult> run_jobs(const std::vector<Job>& jobs, unsigned parallel) {
  std::vector<JobResult> results(jobs.size());
  struct Running {
    size_t index;
    pid_t pid;
    Clock::time_point t0;
  };
  std::vector<Running> running;
  size_t next = 0;
  while (next < jobs.size() || !running.empty()) {
    while (next < jobs.size() && running.size() < std::max(1u, parallel)) {
      const pid_t pid = start(jobs[next]);
      if (pid < 0) {
        results[next].exec_failed = true;
        ++next;
        continue;
      }
      running.push_back({next++, pid, Clock::now()});
    }
    for (auto it = running.begin(); it != running.end();) {
      JobResult& r = results[it->index];
      const double t = std::chrono::duration<double>(Clock::now() - it->t0).count();
      int status = 0;
      pid_t w = waitpid(it->pid, &status, WNOHANG);
      if (w == 0 && t > jobs[it->index].timeout) {
        kill(-it->pid, SIGKILL);
        kill(it->pid, SIGKILL);
        w = waitpid(it->pid, &status, 0);
        r.timed_out = true;
      }
      if (w == it->pid) {
        r.seconds = t;
        if (WIFEXITED(status)) r.exit_code = WEXITSTATUS(status);
        if (WIFSIGNALED(status)) r.signal = WTERMSIG(status);
        if (r.exit_code == 127) r.exec_failed = true;
        it = running.erase(it);
      } else {
        ++it;
      }
    }
    if (!running.empty()) usleep(5000);
  }
  return results;
}

std::string slurp(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

bool spit(const std::string& path, const std::string& text) {
  std::ofstream f(path, std::ios::binary);
  f << text;
  return static_cast<bool>(f);
}

std::string tail(const std::string& text, size_t max_lines) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) lines.push_back(l);
  std::string out;
  for (size_t i = lines.size() > max_lines ? lines.size() - max_lines : 0; i < lines.size(); ++i)
    out += lines[i] + "\n";
  return out;
}

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
};

}  // namespace

Report validate(const Options& opt) {
  const auto t0 = Clock::now();
  Report rep;
  rep.source = opt.source;
  std::ifstream probe(opt.source, std::ios::binary);
  if (!probe) {
    rep.build_error = "cannot read the file";
    rep.exit_code = 2;
    return rep;
  }
  const std::string source = slurp(opt.source);
  std::vector<std::string> names = opt.functions;
  if (names.empty()) names = {kTime, kDelay};

  Extraction ex = extract(source, names, opt.source);
  rep.functions = ex.functions;
  rep.prelude = ex.prelude;
  auto found = [&](const std::string& n) {
    return std::any_of(ex.functions.begin(), ex.functions.end(),
                       [&](const FoundFunction& f) { return f.name == n && f.found; });
  };
  auto requested = [&](const std::string& n) {
    return std::find(names.begin(), names.end(), n) != names.end();
  };
  for (const auto& n : names)
    if (n != kTime && n != kDelay)
      rep.notes.push_back("no busy_delay clause is checked on " + n + " (extracted only)");

  // The clauses, in spec order, with the function each needs.
  const std::vector<std::pair<std::string, std::string>> clause_fn = {
      {"BUSY-1", kDelay}, {"BUSY-2", kDelay}, {"BUSY-3", kDelay},
      {"BUSY-4", kTime},  {"BUSY-5", kDelay}, {"BUSY-7", kDelay}};
  std::map<std::string, ClauseEvidence> ev;
  const bool have_time = requested(kTime) && found(kTime);
  const bool have_delay = requested(kDelay) && found(kDelay);

  std::vector<Run> runs;
  const std::string scan = opt.sampled ? " sampled" : "";
  auto scan_args = [&](std::vector<std::string> a) {
    if (opt.sampled) a.push_back("sampled");
    return a;
  };
  if (have_time)
    runs.push_back({"plain", "scan-time" + scan, scan_args({"scan-time"}), {"BUSY-4"}});
  if (have_delay) {
    runs.push_back({"plain",
                    "scan-policy 0" + scan,
                    scan_args({"scan-policy", "0"}),
                    {"BUSY-1", "BUSY-2", "BUSY-3", "BUSY-5"}});
    runs.push_back({"plain",
                    "scan-policy 1" + scan,
                    scan_args({"scan-policy", "1"}),
                    {"BUSY-1", "BUSY-2", "BUSY-3", "BUSY-5"}});
    runs.push_back({"plain", "early", {"early"}, {"BUSY-7"}});
  }

  if (have_time || have_delay) {
    char tmpl[] = "/tmp/idlespec-validate-XXXXXX";
    const char* dir = mkdtemp(tmpl);
    if (!dir) {
      rep.build_error = "cannot create a temporary directory";
      rep.exit_code = 2;
      return rep;
    }
    rep.temp_dir = dir;
    const std::string tu = rep.temp_dir + "/validate_busy_delay.c";
    spit(tu, "#include \"kernel.h\"\n" + ex.code + "#include \"" + opt.validate_dir +
                 "/harness_busy_delay.c\"\n");
    std::vector<std::string> defs;
    if (have_time) defs.push_back("-DHAVE_RTAS_BUSY_DELAY_TIME");
    if (have_delay) defs.push_back("-DHAVE_RTAS_BUSY_DELAY");
    auto compile = [&](const std::string& out, std::vector<std::string> flags) {
      Job j;
      // The kernel's own code-generation flags: a NULL dereference stays a
      // dereference (not a trap the optimiser made up), overflow wraps.
      j.argv = {opt.cc,
                "-std=gnu11",
                "-w",
                "-fno-strict-aliasing",
                "-fno-strict-overflow",
                "-fno-delete-null-pointer-checks",
                "-I" + opt.validate_dir + "/shims"};
      j.argv.insert(j.argv.end(), flags.begin(), flags.end());
      j.argv.insert(j.argv.end(), defs.begin(), defs.end());
      j.argv.insert(j.argv.end(), {tu, "-o", out});
      j.out = out + ".build.out";
      j.err = out + ".build.err";
      j.timeout = 120;
      return j;
    };
    const std::string plain = rep.temp_dir + "/harness", san = rep.temp_dir + "/harness_san";
    std::vector<Job> builds = {compile(plain, {"-O3"})};
    if (opt.sanitizers)
      builds.push_back(
          compile(san, {"-O1", "-g", "-fno-omit-frame-pointer", "-fsanitize=address,undefined"}));
    const auto built = run_jobs(builds, 2);
    if (built[0].exit_code != 0) {
      rep.build_error = built[0].exec_failed ? "cannot run the C compiler '" + opt.cc + "'"
                        : built[0].timed_out
                            ? "the C compiler ran out of time"
                            : "the harness does not compile:\n" + tail(slurp(builds[0].err), 30);
      rep.exit_code = 2;
      rep.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
      std::error_code ec;
      if (!opt.keep_temp) std::filesystem::remove_all(rep.temp_dir, ec);
      return rep;
    }
    if (opt.sanitizers && built[1].exit_code == 0) {
      std::vector<std::string> sc;
      if (have_time) sc.push_back("BUSY-4");
      if (have_delay) sc.insert(sc.end(), {"BUSY-1", "BUSY-2", "BUSY-3", "BUSY-5", "BUSY-7"});
      runs.push_back({"sanitizers", "boundary", {"boundary"}, sc});
    } else if (opt.sanitizers) {
      rep.notes.push_back("the ASan+UBSan build failed, boundary run skipped: " +
                          tail(slurp(builds[1].err), 3));
    }

    std::vector<Job> jobs;
    for (size_t i = 0; i < runs.size(); ++i) {
      Job j;
      j.argv = {runs[i].build == "plain" ? plain : san};
      j.argv.insert(j.argv.end(), runs[i].args.begin(), runs[i].args.end());
      j.out = rep.temp_dir + "/run" + std::to_string(i) + ".out";
      j.err = rep.temp_dir + "/run" + std::to_string(i) + ".err";
      j.timeout = opt.budget_seconds;
      if (runs[i].build == "sanitizers")
        j.env = {{"ASAN_OPTIONS", "handle_segv=0:allow_user_segv_handler=1:detect_leaks=0"},
                 {"UBSAN_OPTIONS", "print_stacktrace=0"}};
      jobs.push_back(j);
    }
    const unsigned cpus = std::max(1u, static_cast<unsigned>(sysconf(_SC_NPROCESSORS_ONLN)));
    const auto results = run_jobs(jobs, cpus);

    for (size_t i = 0; i < runs.size(); ++i) {
      const Run& run = runs[i];
      const JobResult& r = results[i];
      const std::string label = run.build + " " + run.mode;
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
      rep.runs.push_back(rec);
      for (const auto& c : run.clauses) {
        ev[c].covered.insert(label);
        if (!checked.count(c)) ev[c].errors.push_back(label + " " + rec.outcome);
      }
    }
    if (!opt.keep_temp) {
      std::error_code ec;
      std::filesystem::remove_all(rep.temp_dir, ec);
      if (!ec) rep.temp_dir.clear();
    }
  }

  rep.exit_code = 0;
  for (const auto& [id, fn] : clause_fn) {
    if (!requested(fn)) continue;
    ClauseVerdict v;
    v.id = id;
    v.function = fn;
    const auto& e = ev[id];
    if (!found(fn)) {
      v.status = "absent";
    } else if (e.findings_total > 0) {
      v.status = "failed";
      v.counterexamples.assign(
          e.findings.begin(),
          e.findings.begin() + std::min(e.findings.size(), kMaxCounterexamples));
      if (e.findings_total > v.counterexamples.size())
        v.coverage = std::to_string(e.findings_total) + " findings; ";
    } else if (!e.errors.empty()) {
      v.status = "error";
      for (const auto& s : e.errors) v.error += (v.error.empty() ? "" : "; ") + s;
    } else {
      v.status = "held";
    }
    v.coverage += std::to_string(e.calls) + " calls";
    for (const auto& c : e.covered) v.coverage += ", " + c;
    if (v.status != "held") rep.exit_code = 1;
    rep.clauses.push_back(v);
  }
  rep.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
  return rep;
}

std::string render_text(const Report& rep) {
  std::ostringstream o;
  o << "idlespec validate: " << rep.source << " (busy_delay)\n";
  for (const auto& f : rep.functions) {
    if (f.found)
      o << "  " << f.name << "  lines " << f.first_line << "-" << f.last_line << "\n";
    else
      o << "  " << f.name << "  not in the file\n";
  }
  if (!rep.prelude.empty()) {
    o << "  with:";
    for (const auto& p : rep.prelude) o << " " << p << ";";
    o << "\n";
  }
  if (!rep.build_error.empty()) {
    o << "error: " << rep.build_error << "\n";
    return o.str();
  }
  for (const auto& r : rep.runs) {
    char line[160];
    std::snprintf(line, sizeof(line), "  run %-10s %-22s %7.2fs  %s\n", r.build.c_str(),
                  r.mode.c_str(), r.seconds, r.outcome.c_str());
    o << line;
  }
  for (const auto& v : rep.clauses) {
    o << v.id << " [" << v.function << "] " << v.status;
    if (v.status != "absent") o << "  (" << v.coverage << ")";
    o << "\n";
    for (const auto& c : v.counterexamples) o << "    " << c << "\n";
    if (!v.error.empty()) o << "    " << v.error << "\n";
  }
  for (const auto& n : rep.notes) o << "note: " << n << "\n";
  if (!rep.temp_dir.empty()) o << "note: harness files kept in " << rep.temp_dir << "\n";
  size_t held = 0, failed = 0;
  for (const auto& v : rep.clauses) held += v.status == "held", failed += v.status == "failed";
  char sum[160];
  std::snprintf(sum, sizeof(sum), "%zu held, %zu failed, %zu other, %.1fs\n", held, failed,
                rep.clauses.size() - held - failed, rep.seconds);
  o << sum;
  return o.str();
}

namespace {
std::string js(const std::string& s) {
  std::string o = "\"";
  for (const unsigned char c : s) {
    if (c == '"' || c == '\\') {
      o += '\\';
      o += static_cast<char>(c);
    } else if (c == '\n')
      o += "\\n";
    else if (c < 0x20) {
      char b[8];
      std::snprintf(b, sizeof(b), "\\u%04x", c);
      o += b;
    } else
      o += static_cast<char>(c);
  }
  return o + "\"";
}
}  // namespace

std::string render_json(const Report& rep) {
  std::ostringstream o;
  o << "{\"source\":" << js(rep.source) << ",\"component\":\"busy_delay\",\"functions\":[";
  for (size_t i = 0; i < rep.functions.size(); ++i) {
    const auto& f = rep.functions[i];
    o << (i ? "," : "") << "{\"name\":" << js(f.name)
      << ",\"found\":" << (f.found ? "true" : "false") << ",\"first_line\":" << f.first_line
      << ",\"last_line\":" << f.last_line << "}";
  }
  o << "],\"build_error\":" << js(rep.build_error) << ",\"runs\":[";
  for (size_t i = 0; i < rep.runs.size(); ++i) {
    const auto& r = rep.runs[i];
    char secs[32];
    std::snprintf(secs, sizeof(secs), "%.3f", r.seconds);
    o << (i ? "," : "") << "{\"build\":" << js(r.build) << ",\"mode\":" << js(r.mode)
      << ",\"seconds\":" << secs << ",\"outcome\":" << js(r.outcome) << "}";
  }
  o << "],\"clauses\":[";
  for (size_t i = 0; i < rep.clauses.size(); ++i) {
    const auto& v = rep.clauses[i];
    o << (i ? "," : "") << "{\"id\":" << js(v.id) << ",\"function\":" << js(v.function)
      << ",\"status\":" << js(v.status) << ",\"coverage\":" << js(v.coverage)
      << ",\"error\":" << js(v.error) << ",\"counterexamples\":[";
    for (size_t k = 0; k < v.counterexamples.size(); ++k)
      o << (k ? "," : "") << js(v.counterexamples[k]);
    o << "]}";
  }
  o << "],\"notes\":[";
  for (size_t i = 0; i < rep.notes.size(); ++i) o << (i ? "," : "") << js(rep.notes[i]);
  o << "],\"exit_code\":" << rep.exit_code << "}\n";
  return o.str();
}

}  // namespace idlespec::validate
