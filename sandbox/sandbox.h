// The sandbox of the code under test (issue 15, issue 35). Every harness that
// `idlespec validate` / `review` / `matrix` runs executes kernel text or a
// patch from mail, and every compiler that builds it reads that text, so
// process.cc starts both inside bubblewrap (bwrap) with:
//
//   - its own user, network, PID, IPC, UTS and mount namespaces: no network
//     at all, every process it forks dies with the run;
//   - a view that is deny-by-default: the toolchain and its libraries
//     read-only (/usr and the merged-/usr links, the loader's cache, Debian's
//     alternatives), the harness's own files and the paths its command line
//     names, the run's scratch directory (the only host directory it may
//     write), a private /tmp and /dev/shm, a /proc of its own PID namespace
//     and a minimal /dev. Nothing else of the host exists in it: no /etc
//     beyond the loader's files, no home, no checkout, no CI workspace;
//     /proc/self/root is the sandbox's root, so no spelling of a path
//     (symlinks, "..", /proc/self/root) reaches past the view;
//   - a fixed environment (PATH, LANG=C, HOME=/tmp, TMPDIR and the job's own
//     variables), never the caller's;
//   - as root the run drops to nobody (65534) first; no new privileges;
//     rlimits on processes, file size, core dumps and CPU time; output
//     through pipes the driver caps; /tmp and /dev/shm size-capped tmpfs,
//     as root the scratch directory too (quota_fs.h), and the scratch
//     directory, /tmp and /dev/shm together within the disk quota
//     (SandboxOptions::disk_quota_mb), watched by the driver;
//   - a seccomp filter (user notification) installed before bwrap whose
//     supervisor is the driver: every open, exec, connect/bind/send, signal
//     to another process, process creation beyond a bound of live
//     processes, ptrace, process_vm_*, mount, namespace, io_uring, bpf,
//     perf_event_open, userfaultfd and keyring call, and every system call
//     through another ABI (int $0x80, x32), of every process of the code
//     under test is judged against the policy in supervisor_policy.cc; one outside it
//     is an escape: it is denied, the run is stopped, and the attempt is
//     reported ("the code under test tried to open /etc/shadow for
//     reading"), never silent and never a pass. Once the harness runs no
//     process of the sandbox is exempt (bwrap's own set-up is, before).
//
// Compilers and linkers run in the same view and environment under the same
// supervisor, with a policy of their own: they may exec the toolchain's
// programs, and their probes of directories and of paths the host lacks
// too are answered by the view; a read of a host file the view withholds
// (an #include or an .incbin in the code under test) is an escape attempt.
// docs/security.md states what the sandbox promises, what it does not, and
// how it is tested.
#pragma once

#include <mutex>
#include <string>
#include <vector>

namespace idlespec::sandbox {

struct SandboxOptions {
  // false: `--no-sandbox` (or IDLESPEC_NO_SANDBOX=1): the code under test
  // runs with the caller's full rights; every report must say so
  // (sandbox_banner()).
  bool enabled = true;
  // Extra paths the code under test may read (e.g. a --candidate library
  // under a hidden directory such as $HOME), set by the driver from its own
  // command line. Paths named on a job's command line are exposed
  // automatically; nothing the code's text names ever is (issue 47).
  std::vector<std::string> expose;
  long max_processes = 64;  // processes a run may create (beyond the harness)
  // The scratch directory's growth, /tmp and /dev/shm together (MiB);
  // each tmpfs is also capped at it. --disk-quota, IDLESPEC_DISK_QUOTA_MB.
  long disk_quota_mb = 512;
  size_t stdout_cap = 1u << 20;      // the code's own stdout kept (the rest counted)
  size_t stderr_cap = 16u << 20;     // stderr kept (sanitizer reports, AT traces)
  size_t protocol_cap = 256u << 20;  // protocol output beyond this stops the run
};

// The process-wide options; IDLESPEC_NO_SANDBOX=1 in the environment turns
// the sandbox off at the first call.
SandboxOptions& sandbox_options();

// "" when runs can be sandboxed, else why not (bwrap missing, namespaces
// refused), with what to do about it. Probed once (about 20 ms). bwrap is
// $IDLESPEC_BWRAP, else the one on PATH.
std::string sandbox_unavailable();

// Whether PROGRAM can be started: a path that is executable, or a name
// found executable in PATH (the lookup the sandbox uses for bwrap). For the
// optional tools validate runs (cross compilers, qemu-user, Frama-C, why3).
bool executable_on_path(const std::string& program);

// The line every report prints while the sandbox is off; "" while it is on.
std::string sandbox_banner();

// What the sandbox saw during one part of a run (one component on one
// file): every escape attempt, one sentence each ("the code under test tried
// to open /etc/shadow for reading"), in order and without repeats, and what
// the code under test printed itself (output_summary() of each run that
// printed anything; a note, not an escape). Each part has its own log: the
// thread that runs a part's jobs opens a SandboxLog::Scope on it, and a
// helper thread that runs jobs for the same part (governor's ASan runs)
// opens a Scope on the same log. Jobs run with no scope open record
// into the process's own log (SandboxLog::current() then returns it).
class SandboxLog {
 public:
  class Scope {
   public:
    explicit Scope(SandboxLog& log);
    ~Scope();
    Scope(const Scope&) = delete;
    Scope& operator=(const Scope&) = delete;

   private:
    SandboxLog* previous_;
  };
  // The log of the innermost scope open on this thread, else the process's.
  static SandboxLog& current();

  bool add_finding(const std::string& finding);  // false: seen before
  void add_note(const std::string& note);
  std::vector<std::string> findings() const;
  std::vector<std::string> notes() const;

 private:
  mutable std::mutex mutex_;
  std::vector<std::string> findings_, notes_;
};

}  // namespace idlespec::sandbox
