// The supervisor of a sandboxed job: the driver's side of the seccomp
// filter (seccomp_filter.cc), which answers every watched system call of
// the code under test and records each attempt past the policy as a
// finding. Its life cycle and the reading of the caller's memory are in
// supervisor.cc; the policy, what each call may do, in supervisor_policy.cc.
//
// The child that will exec bwrap installs a seccomp filter whose listed
// system calls wait for the driver (SECCOMP_RET_USER_NOTIF) and sends the
// listener to the driver; the filter is inherited by bwrap, the harness and
// everything the harness starts, and cannot be removed. Until bwrap execs
// the harness every call goes on (bwrap sets up the namespaces); from then
// on each is judged by the policy: what the harness needs (its libraries,
// /proc/self, its scratch directory, the sanitizer's symbolizer,
// libFuzzer's own fork mode) goes on, anything else is an escape. Reading a
// path or an address from the caller's memory (/proc/PID/mem) is only a
// detector, racy by nature: the namespaces, the read-only view and the
// unprivileged user are what stop the call if the detector is fooled, and
// the detector fails closed (a name it cannot read is an escape).
#pragma once

#include <linux/seccomp.h>
#include <sys/types.h>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "sandbox/process.h"

namespace idlespec::sandbox {

class Supervisor {
 public:
  int listener = -1;                 // the filter's listener (receive_fd), -1 when none
  std::vector<std::string> escapes;  // this job's findings, each once

  // Before the job's first call: what it runs, where, and whether it is a tool.
  void init(const Job& job, pid_t child, bool tool);
  // The disk quota, looked at every 100 ms; over_quota() records its finding.
  void check_quota();
  void over_quota();
  // One finding, once per job and once per part's log.
  void record(const std::string& f);
  bool supervised() const { return supervised_; }
  // Answer every notification waiting now; finish() closes the listener.
  void serve();
  void finish();

 private:
  pid_t child_ = -1;
  bool armed_ = false, fuzz_ = false, quiet_ = false;  // quiet_: refused, not reported
  bool unreadable_ = false;  // the call's path or address could not be read
  pid_t main_ = -1;          // the harness (the first process bwrap execs)
  std::set<pid_t> tools_;    // the symbolizer
  std::string exe_, scratch_;
  std::vector<std::string> exposed_;
  std::vector<std::string> quiet_refusals_;  // Job::quiet_refusals, normalised
  uint64_t scratch_base_ = 0;
  bool supervised_ = false, tool_ = false;
  std::chrono::steady_clock::time_point quota_checked_;

  // The scratch directory's use; the caller's memory, paths and processes.
  uint64_t scratch_bytes();  // its capped tmpfs's use as root (quota_fs.h), else a walk
  static uint64_t bytes_under(const std::string& dir);
  long live_processes(pid_t pid);
  bool read_mem(pid_t pid, uint64_t addr, void* buf, size_t n);
  bool read_string(pid_t pid, uint64_t addr, std::string& out);
  std::string link(pid_t pid, const std::string& what);
  std::string path_arg(pid_t pid, int64_t dirfd, uint64_t addr);
  long ns_tgid(pid_t pid);

  // The policy (supervisor_policy.cc): "" when the call goes on, else what
  // the code tried, with `error` the errno it gets.
  bool readable(const std::string& p);
  static bool distribution_probe(const std::string& p);
  std::string through_proc(const std::string& p);
  bool writable(const std::string& p);
  std::string open_verdict(pid_t pid, int64_t dirfd, uint64_t addr, uint64_t flags, int& error);
  std::string path_change(pid_t pid, const char* verb, int64_t dirfd, uint64_t addr, int& error);
  std::string link_verdict(pid_t pid, const char* verb, uint64_t target_addr, int64_t dirfd,
                           uint64_t link_addr, int& error);
  std::string argv_text(pid_t pid, uint64_t argv, std::vector<std::string>* out = nullptr);
  std::string exec_verdict(pid_t pid, int64_t dirfd, uint64_t addr, uint64_t argv, int& error);
  bool local_unix_socket(pid_t pid, uint64_t addr, uint64_t len);
  std::string address(pid_t pid, uint64_t addr, uint64_t len);
  std::string signal_verdict(pid_t pid, long target, long sig, int& error);
  std::string judge(const seccomp_notif& req, int& error);
};

}  // namespace idlespec::sandbox
