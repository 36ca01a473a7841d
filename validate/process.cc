#include "validate/process.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace idlespec::validate {
namespace {

using Clock = std::chrono::steady_clock;

long default_memory_mb = 0;

pid_t start(const Job& job) {
  const long mb = job.memory_mb < 0 ? default_memory_mb : job.memory_mb;
  auto env = job.env;  // prepared before fork: the child only execs
  bool asan = false;
  for (auto& [k, v] : env)
    if (k == "ASAN_OPTIONS") {
      asan = true;
      if (mb > 0)
        v += ":hard_rss_limit_mb=" + std::to_string(mb) + ":malloc_limit_mb=" + std::to_string(mb);
    }
  const pid_t pid = fork();
  if (pid != 0) return pid;
  setpgid(0, 0);  // its own group: a timeout kills the harness and anything it forked
  const int in = open(job.in.empty() ? "/dev/null" : job.in.c_str(), O_RDONLY);
  const int out = open(job.out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  const int err = open(job.err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (in < 0 || out < 0 || err < 0) _exit(127);
  dup2(in, 0);
  dup2(out, 1);
  dup2(err, 2);
  for (const auto& [k, v] : env) setenv(k.c_str(), v.c_str(), 1);
  // The plain harness applies RLIMIT_AS to itself (validate/shims/kernel.h,
  // at start-up): set here, between fork and exec, it would bind this
  // process too, and when the driver is itself an ASan build the runtime
  // dies of it before the exec.
  if (mb > 0 && !asan) setenv("IDLESPEC_MEMORY_MB", std::to_string(mb).c_str(), 1);
  std::vector<char*> argv;
  for (const auto& a : job.argv) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  execvp(argv[0], argv.data());
  _exit(127);
}

}  // namespace

std::vector<JobResult> run_jobs(const std::vector<Job>& jobs, unsigned parallel, double deadline) {
  const auto t_start = Clock::now();
  auto past_deadline = [&] {
    return deadline > 0 &&
           std::chrono::duration<double>(Clock::now() - t_start).count() >= deadline;
  };
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
      if (past_deadline()) {
        results[next++].skipped = true;
        continue;
      }
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
      if (w == 0 && (t > jobs[it->index].timeout || past_deadline())) {
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
    if (!running.empty()) usleep(2000);
  }
  return results;
}

void set_memory_limit(long mb) { default_memory_mb = std::max(0L, mb); }

unsigned cpu_count() { return std::max(1u, static_cast<unsigned>(sysconf(_SC_NPROCESSORS_ONLN))); }

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

std::string make_temp_dir(const std::string& tag) {
  std::string tmpl = "/tmp/idlespec-" + tag + "-XXXXXX";
  return mkdtemp(tmpl.data()) ? tmpl : std::string();
}

void remove_tree(const std::string& path) {
  std::error_code ec;
  if (!path.empty()) std::filesystem::remove_all(path, ec);
}

std::string outcome(const JobResult& r, double timeout) {
  if (r.exec_failed) return "could not be started";
  if (r.timed_out) return "timed out after " + std::to_string(static_cast<int>(timeout)) + " s";
  if (r.signal) return "died of signal " + std::to_string(r.signal);
  if (r.exit_code != 0) return "exited " + std::to_string(r.exit_code);
  return "finished";
}

}  // namespace idlespec::validate
