// Child processes, files and temporary directories for `idlespec validate`:
// every harness (and every compiler) runs in its own process group with a
// wall-clock limit, inside the sandbox of sandbox.h, so a candidate that
// crashes, hangs, forks, floods its output or tries to escape cannot take
// the driver (or the machine) with it.
//
// Output: a harness built with harness/harness_runtime.c writes its
// protocol lines to a dedicated pipe (the fd in IDLESPEC_PROTOCOL_FD, which
// the runtime takes out of the environment before the code under test
// runs); that pipe goes to Job::out. The code's own stdout then goes to
// `<out>.stdout`, capped (SandboxOptions::stdout_cap) and summarised in
// JobResult. Any other program (a compiler, a harness that writes its lines
// to fd 1) has its stdout in Job::out. stderr goes to Job::err, capped.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "sandbox/sandbox.h"

namespace idlespec::sandbox {

// How a job is confined (sandbox.h). automatic: a job whose command line
// compiles something (-o and a .c file) is a tool, any other is code under
// test.
enum class Confine { automatic, code_under_test, tool, none };

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
  // (harness/shims/kernel.h).
  long memory_mb = -1;
  Confine confine = Confine::automatic;
  // The directory the job may write ("" = the directory of `out`).
  std::string scratch;
  // Files the job may read beyond what its command line names (bound
  // read-only at their own paths): the driver's own choice (Frama-C's
  // shims and share), never a path read from the code's text or its
  // scratch directory (issue 47).
  std::vector<std::string> reads;
  // Files a tool (a compiler) may try to read and is refused without a
  // finding (ENOENT): the file the driver's own #line markers name. GCC
  // opens that file for some syntax errors (to place a fix-it hint), what
  // no diagnostic flag turns off; the driver chose the name, the text is
  // the one being compiled, and the refusal costs only the hint. A file a
  // #line of the code's own text names is still a finding (issue 47).
  std::vector<std::string> quiet_refusals;
};

// The default memory limit of jobs (MiB, 0 = none).
void set_memory_limit(long mb);

struct JobResult {
  int exit_code = -1;  // when exited
  int signal = 0;      // when killed by a signal
  bool timed_out = false;
  bool exec_failed = false;
  bool skipped = false;      // not started: the deadline had passed (or an interrupt)
  bool interrupted = false;  // stopped by SIGINT/SIGTERM
  double seconds = 0;
  // What the sandbox saw. An escape attempt stops the run (signal = SIGSYS).
  std::vector<std::string> escapes;
  std::string sandbox_error;  // the job could not be sandboxed (exec_failed)
  bool unsandboxed = false;   // ran with --no-sandbox
  uint64_t stdout_bytes = 0;  // the code's own stdout (protocol harnesses)
  uint64_t stderr_bytes = 0;
  uint64_t protocol_bytes = 0;
  std::string stdout_head;  // its first lines, printable
  bool stderr_capped = false;
  bool protocol_flooded = false;  // stopped: over SandboxOptions::protocol_cap
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
// A fresh directory /tmp/idlespec-<tag>-XXXXXX ($IDLESPEC_TMPDIR instead of
// /tmp when set); "" when it cannot be made (or after an interrupt).
std::string make_temp_dir(const std::string& tag);
void remove_tree(const std::string& path);

// A one-line description of how a job ended: "finished", "timed out after
// 30 s", "died of signal 11", "exited 3".
std::string outcome(const JobResult& r, double timeout);
// "timed out after 0.6 s" (tenths under 10 s), "timed out after 30 s".
std::string timed_out_text(double seconds);

// "" or a sentence on what the code under test printed itself: "the code
// under test printed 812 MB to stdout; first lines: ..." (and a capped
// stderr).
std::string output_summary(const JobResult& r);

// --- inputs --------------------------------------------------------------------
// Read `path` into `out` if it is a regular file of at most `max_bytes`;
// else return why not ("... is a FIFO, not a regular file", "... is larger
// than the 8 MiB input limit"). Never blocks on a FIFO or a device.
std::string read_input_file(const std::string& path, size_t max_bytes, std::string& out);

// "" when TREE/REL is inside TREE: no component of REL is a symlink that
// leads out of it (read_input_file then refuses a FIFO, a device or a
// socket); else why not ("drivers/x.c is a symlink to /etc/passwd, outside
// the tree"). A tree or a patch comes from a stranger: the driver follows
// nothing out of it.
std::string inside_tree(const std::string& tree, const std::string& rel);

// --- signals -------------------------------------------------------------------
// SIGINT/SIGTERM: every live job's process group is killed at once, no new
// job starts (run_jobs returns them `skipped`/`interrupted`), and
// interrupted() turns non-zero so the driver can print what it judged and
// call cleanup_temp_dirs(). A second signal removes every temporary
// directory (unless keep_temp) and exits 128 + signal at once.
void install_interrupt_handlers(bool keep_temp);
// The signal that interrupted the run, or 0.
int interrupted();
// Remove every directory make_temp_dir made that is still there (not with
// keep_temp as given to install_interrupt_handlers).
void cleanup_temp_dirs();

}  // namespace idlespec::sandbox
