// The sandbox of the code under test (issue 15). Every harness that
// `idlespec validate` / `review` runs executes kernel text or a patch from
// mail, so process.cc starts it inside bubblewrap (bwrap) with:
//
//   - its own user, network, PID, IPC, UTS and mount namespaces: no network
//     at all, every process it forks dies with the run;
//   - a read-only view of the system (`/`), a private /tmp, /home, /root,
//     /run, /mnt, /media, /srv, /var/tmp and the caller's $HOME hidden,
//     /etc/shadow and /etc/gshadow masked, only the run's scratch directory
//     writable; as root the run drops to nobody (65534) first, so files of
//     root are as out of reach as anyone's;
//   - no new privileges, rlimits on processes, file size, core dumps and
//     CPU time, output through pipes the driver caps;
//   - a seccomp filter (user notification) installed before bwrap whose
//     supervisor is the driver: every open, exec, connect/bind/send, signal
//     to another process, fork beyond a bound, ptrace, mount, namespace or
//     io_uring call of the code under test is checked against the policy in
//     sandbox.cc; one outside it is an escape: it is denied, the run is
//     stopped, and the attempt is reported ("the code under test tried to
//     connect to 127.0.0.1:15000"), never silent and never a pass.
//
// Compilers run in the same namespaces and view without the seccomp
// supervisor (they fork and exec their own tools).
#pragma once

#include <mutex>
#include <string>
#include <vector>

namespace idlespec::validate {

struct SandboxOptions {
  // false: `--no-sandbox` (or IDLESPEC_NO_SANDBOX=1): the code under test
  // runs with the caller's full rights; every report must say so
  // (sandbox_banner()).
  bool enabled = true;
  // Extra paths the code under test may read (e.g. a --candidate library
  // under a hidden directory such as $HOME). Paths named on a job's command
  // line are exposed automatically.
  std::vector<std::string> expose;
  long max_processes = 64;           // processes a run may create (beyond the harness)
  long file_size_mb = 256;           // RLIMIT_FSIZE
  long tmp_size_mb = 64;             // the private /tmp of the run
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

}  // namespace idlespec::validate
