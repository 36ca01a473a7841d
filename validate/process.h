// Child processes, files and temporary directories for `idlespec validate`:
// every harness (and every compiler) runs in its own process group with a
// wall-clock limit, so a candidate that crashes, hangs or forks cannot take
// the driver with it.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace idlespec::validate {

struct Job {
  std::vector<std::string> argv;
  std::vector<std::pair<std::string, std::string>> env;
  std::string in;        // file for stdin ("" = /dev/null)
  std::string out, err;  // files for stdout and stderr
  double timeout = 60;
  // Memory limit in MiB: -1 the process-wide default (set_memory_limit), 0
  // none. A job whose env sets ASAN_OPTIONS gets ASan's own limits
  // (hard_rss_limit_mb, malloc_limit_mb): ASan reserves terabytes of address
  // space, so RLIMIT_AS would stop it before it starts. Any other job gets
  // IDLESPEC_MEMORY_MB, which the harness applies to itself as RLIMIT_AS
  // (validate/shims/kernel.h).
  long memory_mb = -1;
};

// The default memory limit of jobs (MiB, 0 = none).
void set_memory_limit(long mb);

struct JobResult {
  int exit_code = -1;  // when exited
  int signal = 0;      // when killed by a signal
  bool timed_out = false;
  bool exec_failed = false;
  bool skipped = false;  // not started: the deadline had passed
  double seconds = 0;
};

// Run the jobs in order, at most `parallel` at a time; a job over its
// timeout is killed with its whole process group. With a deadline (seconds
// from the call, 0 none), jobs still running then are killed (timed_out)
// and jobs not yet started are skipped.
std::vector<JobResult> run_jobs(const std::vector<Job>& jobs, unsigned parallel,
                                double deadline = 0);

// The number of online CPUs (at least 1).
unsigned cpu_count();

std::string slurp(const std::string& path);
bool spit(const std::string& path, const std::string& text);
// The last `max_lines` lines of `text`.
std::string tail(const std::string& text, size_t max_lines);
// A fresh directory /tmp/idlespec-<tag>-XXXXXX; "" when it cannot be made.
std::string make_temp_dir(const std::string& tag);
void remove_tree(const std::string& path);

// A one-line description of how a job ended: "finished", "timed out after
// 30 s", "died of signal 11", "exited 3".
std::string outcome(const JobResult& r, double timeout);

}  // namespace idlespec::validate
