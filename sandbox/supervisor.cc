// The supervisor's life cycle (supervisor.h): its start with a job, the
// loop that answers the filter's notifications, the disk quota, and the
// reading of the caller's memory, paths and processes its policy needs.
#include "sandbox/supervisor.h"

#include <dirent.h>
#include <fcntl.h>
#include <poll.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <sstream>

#include "sandbox/internal.h"
#include "sandbox/quota_fs.h"
#include "sandbox/sandbox.h"

namespace idlespec::sandbox {

// tool: a compiler or linker building the code under test (it may exec
// the toolchain's programs; what it reads is judged like the code's own
// reads, since the code's #include and .incbin make it read).
void Supervisor::init(const Job& job, pid_t child, bool tool) {
  child_ = child;
  tool_ = tool;
  supervised_ = listener >= 0;
  armed_ = false;
  if (!job.argv.empty()) exe_ = normalise(resolve_in_path(job.argv[0]));
  scratch_ = normalise(job.scratch.empty() ? job.out.substr(0, job.out.rfind('/')) : job.scratch);
  for (const auto& a : job.argv)
    if (a.rfind("-fork=", 0) == 0 || a.rfind("-jobs=", 0) == 0) fuzz_ = true;
  exposed_ = exposed_for(job.argv, job.reads, scratch_, false);
  quiet_refusals_.clear();
  for (const auto& q : job.quiet_refusals)
    if (!q.empty() && q[0] == '/') quiet_refusals_.push_back(normalise(q));
  scratch_base_ = scratch_bytes();
  quota_checked_ = std::chrono::steady_clock::now();
}

// The disk quota: the scratch directory's growth since the job started,
// with what the sandbox's /tmp and /dev/shm hold, against
// SandboxOptions::disk_quota_mb. Looked at every 100 ms (each tmpfs is
// capped on its own, as root the scratch directory too: quota_fs.h).
void Supervisor::check_quota() {
  const auto now = std::chrono::steady_clock::now();
  if (listener < 0 || now - quota_checked_ < std::chrono::milliseconds(100)) return;
  quota_checked_ = now;
  const uint64_t quota = static_cast<uint64_t>(sandbox_options().disk_quota_mb) << 20;
  const uint64_t scratch_now = scratch_bytes();
  uint64_t used = scratch_now > scratch_base_ ? scratch_now - scratch_base_ : 0;
  if (armed_ && main_ > 0)
    for (const char* mount : {"/tmp", "/dev/shm"}) {
      struct statvfs fs {};
      const std::string at = "/proc/" + std::to_string(main_) + "/root" + mount;
      if (statvfs(at.c_str(), &fs) == 0 && fs.f_blocks >= fs.f_bfree)
        used += static_cast<uint64_t>(fs.f_blocks - fs.f_bfree) * fs.f_frsize;
    }
  if (used > quota) over_quota();
}

// The disk quota's finding: seen by check_quota, or the code died of
// SIGXFSZ (one file past the quota).
void Supervisor::over_quota() {
  const std::string f = "the code under test tried to write more than " +
                        std::to_string(sandbox_options().disk_quota_mb) +
                        " MiB to its scratch directory, /tmp and /dev/shm (the disk quota, "
                        "--disk-quota)";
  record(f);
}

// An escape attempt, once per job and once per part's log (said on
// stderr the first time the log sees it).
void Supervisor::record(const std::string& f) {
  if (std::find(escapes.begin(), escapes.end(), f) == escapes.end()) escapes.push_back(f);
  if (SandboxLog::current().add_finding(f)) fprintf(stderr, "idlespec: sandbox: %s\n", f.c_str());
}

void Supervisor::serve() {
  for (int round = 0; round < 256 && listener >= 0; ++round) {
    pollfd p{listener, POLLIN, 0};
    if (poll(&p, 1, 0) <= 0) return;
    if (p.revents & (POLLHUP | POLLERR | POLLNVAL)) {
      if (!(p.revents & POLLIN)) {
        close(listener);
        listener = -1;
        return;
      }
    }
    seccomp_notif req;
    memset(&req, 0, sizeof(req));
    if (ioctl(listener, SECCOMP_IOCTL_NOTIF_RECV, &req) != 0) {
      if (errno == EINTR || errno == ENOENT) continue;
      return;
    }
    seccomp_notif_resp resp;
    memset(&resp, 0, sizeof(resp));
    resp.id = req.id;
    int error = 0;
    unreadable_ = quiet_ = false;
    const std::string why = judge(req, error);
    if (why.empty()) {
      resp.flags = SECCOMP_USER_NOTIF_FLAG_CONTINUE;
    } else if (unreadable_ || quiet_) {
      // Its path or address could not be read: the process is gone
      // (killed while the call waited: libFuzzer ends its fork-mode jobs
      // so) or the pointer is unmapped, when the kernel would refuse the
      // call too (EFAULT). Denied, and no attempt to report.
      resp.error = -error;
    } else {
      resp.error = -error;
      const std::string f = std::string(tool_ ? "the compiler, building the code under test, "
                                                "tried to "
                                              : "the code under test tried to ") +
                            why;
      record(f);
    }
    ioctl(listener, SECCOMP_IOCTL_NOTIF_SEND, &resp);
  }
}

void Supervisor::finish() {
  if (listener >= 0) close(listener);
  listener = -1;
}

// Bytes allocated under `dir`, not following links.
uint64_t Supervisor::scratch_bytes() {  // its capped tmpfs's use as root (quota_fs.h), else a walk
  const long long capped = capped_usage(scratch_);
  return capped >= 0 ? static_cast<uint64_t>(capped) : bytes_under(scratch_);
}

uint64_t Supervisor::bytes_under(const std::string& dir) {
  uint64_t total = 0;
  std::error_code ec;
  for (auto it = std::filesystem::recursive_directory_iterator(
           dir, std::filesystem::directory_options::skip_permission_denied, ec);
       !ec && it != std::filesystem::recursive_directory_iterator(); it.increment(ec)) {
    struct stat sb {};
    if (lstat(it->path().c_str(), &sb) == 0) total += static_cast<uint64_t>(sb.st_blocks) * 512;
  }
  return total;
}

// The processes of the sandbox alive now, bwrap's init and the harness
// among them: every process of the PID namespace of `pid`.
long Supervisor::live_processes(pid_t pid) {
  char mine[64] = {}, theirs[64];
  const std::string link_of_pid = "/proc/" + std::to_string(pid) + "/ns/pid";
  if (readlink(link_of_pid.c_str(), mine, sizeof(mine) - 1) <= 0) return 0;
  long n = 0;
  DIR* d = opendir("/proc");
  if (!d) return 0;
  while (dirent* e = readdir(d)) {
    if (e->d_name[0] < '0' || e->d_name[0] > '9') continue;
    const std::string link = std::string("/proc/") + e->d_name + "/ns/pid";
    const ssize_t k = readlink(link.c_str(), theirs, sizeof(theirs) - 1);
    if (k > 0 && static_cast<size_t>(k) == strlen(mine) && memcmp(mine, theirs, k) == 0) ++n;
  }
  closedir(d);
  return n;
}

// The caller's memory.
bool Supervisor::read_mem(pid_t pid, uint64_t addr, void* buf, size_t n) {
  if (addr == 0) return false;
  const int fd = open(("/proc/" + std::to_string(pid) + "/mem").c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  const ssize_t got = pread(fd, buf, n, static_cast<off_t>(addr));
  close(fd);
  return got == static_cast<ssize_t>(n);
}

bool Supervisor::read_string(pid_t pid, uint64_t addr, std::string& out) {
  out.clear();
  unreadable_ = true;  // until read
  if (addr == 0) return false;
  const int fd = open(("/proc/" + std::to_string(pid) + "/mem").c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  char buf[256];
  bool ok = false;
  while (out.size() < 4096) {
    const ssize_t got = pread(fd, buf, sizeof(buf), static_cast<off_t>(addr + out.size()));
    if (got <= 0) break;
    const void* nul = memchr(buf, 0, static_cast<size_t>(got));
    if (nul) {
      out.append(buf, static_cast<const char*>(nul) - buf);
      ok = true;
      break;
    }
    out.append(buf, static_cast<size_t>(got));
  }
  close(fd);
  if (ok) unreadable_ = false;
  return ok;
}

std::string Supervisor::link(pid_t pid, const std::string& what) {
  char buf[4096];
  const ssize_t n =
      readlink(("/proc/" + std::to_string(pid) + "/" + what).c_str(), buf, sizeof(buf) - 1);
  return n > 0 ? std::string(buf, static_cast<size_t>(n)) : std::string();
}

// The path a call names, absolute; "" when it cannot be read.
std::string Supervisor::path_arg(pid_t pid, int64_t dirfd, uint64_t addr) {
  std::string p;
  if (!read_string(pid, addr, p)) return "";
  if (p.empty()) return "";
  if (p[0] != '/') {
    const std::string base = static_cast<int>(dirfd) == AT_FDCWD
                                 ? link(pid, "cwd")
                                 : link(pid, "fd/" + std::to_string(static_cast<int>(dirfd)));
    if (base.empty()) unreadable_ = true;  // its cwd or fd is gone with it
    if (base.empty() || base[0] != '/') return "";
    p = base + "/" + p;
  }
  return normalise(p);
}

// The caller's own pid as it sees it (its PID namespace).
long Supervisor::ns_tgid(pid_t pid) {
  const std::string s = slurp("/proc/" + std::to_string(pid) + "/status");
  const size_t at = s.find("NStgid:");
  if (at == std::string::npos) return -1;
  const std::string line = s.substr(at + 7, s.find('\n', at) - at - 7);
  std::istringstream in(line);
  long v = -1;
  for (long x; in >> x;) v = x;
  return v;
}

}  // namespace idlespec::sandbox
