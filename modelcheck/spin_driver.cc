#include "modelcheck/spin_driver.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <regex>
#include <sstream>
#include <thread>
#include <unordered_set>

#include "impl/idle_core_model.h"

namespace idlespec::spin {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

constexpr const char* kModelFile = "idle_core.pml";

double since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

std::string find_in_path(const std::string& name) {
  if (name.empty()) return {};
  if (name.find('/') != std::string::npos) return access(name.c_str(), X_OK) == 0 ? name : "";
  const char* path = std::getenv("PATH");
  std::stringstream dirs(path ? path : "/usr/local/bin:/usr/bin:/bin");
  std::string dir;
  while (std::getline(dirs, dir, ':')) {
    if (dir.empty()) continue;
    const std::string candidate = dir + "/" + name;
    struct stat st {};
    if (stat(candidate.c_str(), &st) == 0 && S_ISREG(st.st_mode) &&
        access(candidate.c_str(), X_OK) == 0) {
      return candidate;
    }
  }
  return {};
}

// A child process's end.
struct Exit {
  bool started = false;
  bool timed_out = false;
  int code = -1;  // exit status, or -signal
  long max_rss_kb = 0;
};

// Runs argv in `cwd` with stdout and stderr to `log`, until it exits or
// `deadline` passes (then it is killed: that one process, by its id).
Exit run_process(const std::vector<std::string>& argv, const std::string& cwd,
                 const std::string& log, std::optional<Clock::time_point> deadline) {
  Exit e;
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  const pid_t pid = fork();
  if (pid < 0) return e;
  if (pid == 0) {
    const int fd = open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0 || chdir(cwd.c_str()) != 0) _exit(126);
    dup2(fd, 1);
    dup2(fd, 2);
    close(fd);
    const int null = open("/dev/null", O_RDONLY);
    if (null >= 0) dup2(null, 0);
    execv(args[0], args.data());
    _exit(127);
  }
  e.started = true;
  int status = 0;
  struct rusage ru {};
  auto pause = std::chrono::milliseconds(1);
  for (;;) {
    const pid_t r = wait4(pid, &status, WNOHANG, &ru);
    if (r == pid) break;
    if (r < 0 && errno != EINTR) return e;
    if (deadline && Clock::now() > *deadline) {
      kill(pid, SIGKILL);
      wait4(pid, &status, 0, &ru);
      e.timed_out = true;
      break;
    }
    std::this_thread::sleep_for(pause);
    if (pause < std::chrono::milliseconds(20)) pause *= 2;
  }
  e.max_rss_kb = ru.ru_maxrss;
  e.code = WIFEXITED(status) ? WEXITSTATUS(status) : -WTERMSIG(status);
  return e;
}

bool write_text(const std::string& path, const std::string& text) {
  std::ofstream f(path, std::ios::binary);
  f << text;
  return static_cast<bool>(f);
}

std::string last_lines(const std::string& text, size_t n) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (!line.empty()) lines.push_back(line);
  }
  std::string out;
  for (size_t i = lines.size() > n ? lines.size() - n : 0; i < lines.size(); ++i) {
    out += lines[i] + "\n";
  }
  return out;
}

std::string one_line(std::string s) {
  for (char& ch : s) {
    if (ch == '\n' || ch == '\t') ch = ' ';
  }
  while (!s.empty() && s.back() == ' ') s.pop_back();
  return s;
}

template <class T>
bool match_number(const std::string& text, const std::regex& re, T& out) {
  std::smatch m;
  if (!std::regex_search(text, m, re)) return false;
  std::istringstream in(m[1].str());
  in >> out;
  return true;
}

void parse_pan(const std::string& out, Result& r) {
  static const std::regex vector_re(R"(State-vector (\d+) byte)");
  static const std::regex depth_re(R"(depth reached (\d+))");
  static const std::regex errors_re(R"(errors: (\d+))");
  static const std::regex stored_re(R"((\d+) states, stored)");
  static const std::regex matched_re(R"((\d+) states, matched)");
  static const std::regex trans_re(R"((\d+) transitions \(= )");
  static const std::regex memory_re(R"(([0-9.]+)\s+total actual memory usage)");
  static const std::regex elapsed_re(R"(pan: elapsed time ([0-9.e+]+) seconds)");
  static const std::regex error_re(R"(pan:\d+: ([^\n]*?)(?: \(at depth \d+\))?\n)");
  match_number(out, vector_re, r.state_vector_bytes);
  match_number(out, depth_re, r.depth);
  match_number(out, errors_re, r.errors);
  match_number(out, stored_re, r.states_stored);
  match_number(out, matched_re, r.states_matched);
  match_number(out, trans_re, r.transitions);
  match_number(out, memory_re, r.pan_memory_mb);
  match_number(out, elapsed_re, r.pan_seconds);
  std::smatch m;
  if (std::regex_search(out, m, error_re)) r.assertion = m[1].str();
}

// pan's flags for a search.
std::vector<std::string> pan_args(const Options& o) {
  return {"./pan", "-m" + std::to_string(o.max_depth), "-w" + std::to_string(o.hash_bits)};
}

}  // namespace

std::string_view status_name(Status s) {
  switch (s) {
    case Status::ok:
      return "ok";
    case Status::violation:
      return "violation";
    case Status::incomplete:
      return "incomplete";
    case Status::timeout:
      return "timeout";
    case Status::unavailable:
      return "unavailable";
    case Status::error:
      return "error";
  }
  return "?";
}

ModelConfig ModelConfig::from(const idle_core::Config& c) {
  ModelConfig m;
  m.threads = c.threads;
  m.power9 = c.power9();
  m.subcores = c.subcores;
  m.workaround = c.fastsleep_workaround;
  return m;
}

std::vector<std::string> ModelConfig::spin_flags() const {
  std::vector<std::string> f = {"-DN=" + std::to_string(threads),
                                "-DSUBCORES=" + std::to_string(subcores),
                                std::string("-DWORKAROUND=") + (workaround ? "1" : "0")};
  if (power9) f.push_back("-DPOWER9");
  for (const std::string& d : defines) f.push_back("-D" + d);
  return f;
}

std::string ModelConfig::describe() const {
  std::string s = std::string(power9 ? "power9" : "power8") + " SMT" + std::to_string(threads);
  if (subcores > 1) s += " " + std::to_string(subcores) + "x" + std::to_string(threads / subcores);
  if (!power9 && !workaround) s += " (no fastsleep workaround)";
  for (const std::string& d : defines) s += " +" + d;
  return s;
}

std::string find_spin() { return find_in_path("spin"); }

std::string find_cc() {
  if (const char* cc = std::getenv("CC"); cc && *cc) {
    if (std::string p = find_in_path(cc); !p.empty()) return p;
  }
  for (const char* name : {"cc", "gcc", "clang"}) {
    if (std::string p = find_in_path(name); !p.empty()) return p;
  }
  return {};
}

std::string unavailable_reason() {
  if (find_spin().empty()) return "spin is not installed (scripts/setup.sh installs it)";
  if (find_cc().empty()) return "no C compiler (cc, gcc, clang) to build SPIN's pan.c";
  return {};
}

bool read_text(const std::string& path, std::string& out) {
  std::ifstream f(path, std::ios::binary);
  if (!f) return false;
  out.assign(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
  return !f.bad();
}

Result run(const std::string& pml, const ModelConfig& config, const Options& options) {
  Result r;
  const auto t0 = Clock::now();
  std::optional<Clock::time_point> deadline;
  if (options.timeout_seconds > 0) {
    deadline = t0 + std::chrono::duration_cast<Clock::duration>(
                        std::chrono::duration<double>(options.timeout_seconds));
  }
  const std::string spin = find_spin();
  const std::string cc = find_cc();
  if (spin.empty() || cc.empty()) {
    r.status = Status::unavailable;
    r.message = unavailable_reason();
    return r;
  }

  // A fresh directory for this run.
  std::error_code ec;
  fs::path parent =
      options.work_dir.empty() ? fs::temp_directory_path(ec) : fs::path(options.work_dir);
  fs::create_directories(parent, ec);
  std::string templ = (parent / "idlespec-spin-XXXXXX").string();
  if (!mkdtemp(templ.data())) {
    r.message = "cannot create a directory under " + parent.string() + ": " + strerror(errno);
    return r;
  }
  const std::string dir = templ;
  struct Cleanup {
    const std::string& dir;
    bool keep;
    ~Cleanup() {
      std::error_code e;
      if (!keep) fs::remove_all(dir, e);
    }
  } cleanup{dir, options.keep};
  if (options.keep) r.dir = dir;

  const auto finish = [&](Status s, std::string message) {
    r.status = s;
    r.message = std::move(message);
    r.seconds = since(t0);
    return r;
  };
  // Runs one step; false (and r filled) when it did not exit 0.
  const auto step = [&](const std::vector<std::string>& argv, const std::string& log_name,
                        std::string& output, bool zero_exit_required) -> bool {
    const Exit e = run_process(argv, dir, dir + "/" + log_name, deadline);
    read_text(dir + "/" + log_name, output);
    if (argv[0] == "./pan") r.max_rss_kb = std::max(r.max_rss_kb, e.max_rss_kb);
    if (!e.started) {
      finish(Status::error, "cannot start " + argv[0]);
      return false;
    }
    if (e.timed_out) {
      finish(Status::timeout,
             argv[0] + " cut after " + std::to_string(options.timeout_seconds) + " s (the budget)");
      return false;
    }
    if (zero_exit_required && e.code != 0) {
      finish(Status::error, argv[0] + " " + (argv.size() > 1 ? argv[1] : "") + " failed (exit " +
                                std::to_string(e.code) + "): " + one_line(last_lines(output, 6)));
      return false;
    }
    return true;
  };

  if (!write_text(dir + "/" + kModelFile, pml)) {
    return finish(Status::error, "cannot write the model into " + dir);
  }
  const std::vector<std::string> flags = config.spin_flags();
  std::vector<std::string> spin_a = {spin};
  if (!options.reduce) spin_a.push_back("-o3");  // no statement merging
  spin_a.insert(spin_a.end(), flags.begin(), flags.end());
  spin_a.insert(spin_a.end(), {"-a", kModelFile});
  std::string out;
  if (!step(spin_a, "spin-a.log", out, true)) return r;

  const auto compile = [&](bool reach) {
    std::vector<std::string> argv = {cc, "-w", "-O2", "-DSAFETY",
                                     "-DMEMLIM=" + std::to_string(options.memlim_mb)};
    if (!options.reduce) argv.push_back("-DNOREDUCE");
    if (options.collapse) argv.push_back("-DCOLLAPSE");
    if (reach) argv.push_back("-DREACH");
    argv.insert(argv.end(), {"-o", "pan", "pan.c"});
    std::string log;
    return step(argv, "cc.log", log, true);
  };
  if (!compile(false)) return r;
  if (!step(pan_args(options), "pan.log", r.pan_output, false)) return r;
  parse_pan(r.pan_output, r);

  const bool depth_short = r.pan_output.find("max search depth too small") != std::string::npos;
  const bool out_of_memory = r.pan_output.find("out of memory") != std::string::npos;
  if (r.errors == 0) {
    if (r.states_stored == 0) {
      return finish(Status::error,
                    "pan printed no statistics: " + one_line(last_lines(r.pan_output, 6)));
    }
    if (depth_short || out_of_memory ||
        r.pan_output.find("Search not completed") != std::string::npos) {
      return finish(Status::incomplete,
                    std::string("pan did not search everything: ") +
                        (depth_short     ? "max search depth too small (raise max_depth)"
                         : out_of_memory ? "out of memory"
                                         : "search not completed"));
    }
    return finish(Status::ok, std::to_string(r.states_stored) + " states, " +
                                  std::to_string(r.transitions) + " transitions, no error");
  }

  // An error: find the shortest trail (optional), then replay it.
  if (options.shortest_trail) {
    std::string shortest;
    if (!compile(true)) return r;
    std::vector<std::string> argv = pan_args(options);
    argv.push_back("-i");
    if (!step(argv, "pan-i.log", shortest, false)) return r;
  }
  std::vector<std::string> replay = {spin, "-t"};
  replay.insert(replay.end(), flags.begin(), flags.end());
  replay.push_back(kModelFile);
  std::string trail;
  if (!step(replay, "trail.log", trail, false)) return r;
  std::istringstream lines(trail);
  std::string line;
  static const std::regex move_re(R"(MOVE t(\d+) (begins \S+|wakes|step (\d+)))");
  static const std::regex loss_re(R"(MOVE core loses state (\d+))");
  static const std::regex violation_re(R"(VIOLATION (IDLE-\d+|BUG_ON)?:?\s*(.*))");
  static const std::regex failed_re(R"(text of failed assertion: (.*))");
  while (std::getline(lines, line)) {
    std::smatch m;
    if (std::regex_search(line, m, move_re)) {
      std::string move = "t" + m[1].str() + " ";
      if (m[3].matched) {
        const auto pc = static_cast<idle_core::Pc>(std::stoi(m[3].str()));
        move += "step (" + std::string(idle_core::pc_name(pc)) + ")";
      } else {
        move += m[2].str();
      }
      r.trail.push_back(move);
    } else if (std::regex_search(line, m, loss_re)) {
      r.trail.push_back(std::string("core loses state (") +
                        (m[1].str() == "2" ? "full" : "partial") + ")");
    } else if (std::regex_search(line, m, violation_re)) {
      if (m[1].matched && m[1].str() != "BUG_ON") r.clauses.push_back(m[1].str());
      r.trail.push_back("VIOLATION " + m[1].str() + ": " + m[2].str());
    } else if (std::regex_search(line, m, failed_re)) {
      r.assertion = "assertion violated: " + m[1].str();
    }
  }
  if (r.assertion.find("invalid end state") != std::string::npos) {
    r.clauses.push_back("IDLE-1");  // a state from which nothing can move
    r.trail.push_back("DEADLOCK: no move enabled (invalid end state)");
  }
  return finish(Status::violation, r.assertion.empty()
                                       ? "pan reported " + std::to_string(r.errors) + " error(s)"
                                       : r.assertion);
}

// --- the reference's state space -------------------------------------------------

namespace {

using Key = std::array<uint64_t, 1 + idle_core::kMaxThreads>;

Key key_of(const idle_core::CoreState& s) {
  Key k{};
  const idle_core::Ghost& g = s.ghost;
  k[0] = uint64_t{s.word} | uint64_t{g.tb_valid} << 32 | uint64_t{g.wa_applied} << 33 |
         uint64_t{g.core_regs_valid} << 34 | uint64_t{g.subcore_regs_valid} << 40 |
         uint64_t{g.thread_regs_valid} << 48;
  for (unsigned t = 0; t < idle_core::kMaxThreads; ++t) {
    const idle_core::ThreadState& th = s.th[t];
    k[1 + t] = uint64_t{th.seen} | uint64_t(th.pc) << 32 | uint64_t(th.kind) << 40 |
               uint64_t(th.lost) << 48 | uint64_t{th.sprs_saved} << 56 |
               uint64_t{th.full_winkle} << 57 | uint64_t{th.first} << 58 |
               uint64_t{th.sibling_awake} << 59;
  }
  return k;
}

struct KeyHash {
  size_t operator()(const Key& k) const {
    uint64_t h = 0x9e3779b97f4a7c15ull;
    for (uint64_t v : k) {
      h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
      h *= 0xff51afd7ed558ccdull;
      h ^= h >> 33;
    }
    return static_cast<size_t>(h);
  }
};

}  // namespace

Reachable explore_reference(const idle_core::Config& c) {
  using namespace idle_core;
  Reachable out;
  std::unordered_set<Key, KeyHash> seen;
  std::deque<CoreState> queue;
  const CoreState init = initial_state(c);
  seen.insert(key_of(init));
  queue.push_back(init);
  std::vector<Move> moves;
  while (!queue.empty()) {
    const CoreState s = queue.front();
    queue.pop_front();
    enabled_moves(c, s, moves);
    for (const Move& m : moves) {
      CoreState n = s;
      const Transition tr = apply(c, n, m);
      if (tr.result.event == Event::bug && out.bug.empty()) {
        out.bug = std::string(tr.result.what) + " on " + describe(m);
      }
      if (tr.result.event == Event::spin && n == s) continue;  // a failing test-and-set
      ++out.transitions;
      if (seen.insert(key_of(n)).second) queue.push_back(n);
    }
  }
  out.states = seen.size();
  return out;
}

}  // namespace idlespec::spin
