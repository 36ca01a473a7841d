// What a sandboxed process gets before it execs: its environment, the
// descriptor its harness writes the protocol to, its rlimits and, as root,
// the drop to nobody.
#include <dirent.h>
#include <fcntl.h>
#include <grp.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <map>
#include <mutex>
#include <random>
#include <string>
#include <vector>

#include "sandbox/internal.h"
#include "sandbox/sandbox.h"

extern char** environ;

namespace idlespec::sandbox {

// --- does a harness write its protocol to IDLESPEC_PROTOCOL_FD? ----------------------
// harness_runtime.c names the variable; a harness without it (or any other
// program) writes its lines to stdout.
bool speaks_protocol_fd(const std::string& exe) {
  static std::mutex m;
  static std::map<std::string, std::pair<std::pair<int64_t, int64_t>, bool>> cache;
  struct stat sb {};
  if (stat(exe.c_str(), &sb) != 0 || !S_ISREG(sb.st_mode)) return false;
  const std::pair<int64_t, int64_t> key{sb.st_mtim.tv_sec * 1000000000ll + sb.st_mtim.tv_nsec,
                                        sb.st_size};
  {
    std::lock_guard<std::mutex> lock(m);
    auto it = cache.find(exe);
    if (it != cache.end() && it->second.first == key) return it->second.second;
  }
  static const char marker[] = "IDLESPEC_PROTOCOL_FD";
  bool found = false;
  const int fd = open(exe.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd >= 0) {
    std::string buf(1 << 20, '\0');
    std::string carry;
    for (;;) {
      const ssize_t n = read(fd, buf.data(), buf.size());
      if (n <= 0) break;
      const std::string chunk = carry + buf.substr(0, static_cast<size_t>(n));
      if (chunk.find(marker) != std::string::npos) {
        found = true;
        break;
      }
      carry = chunk.substr(chunk.size() > sizeof(marker) ? chunk.size() - sizeof(marker) : 0);
    }
    close(fd);
  }
  std::lock_guard<std::mutex> lock(m);
  cache[exe] = {key, found};
  return found;
}

// A descriptor number the code under test has no reason to know.
int pick_protocol_fd() {
  static std::mt19937 rng(std::random_device{}());
  return 100 + static_cast<int>(rng() % 800);
}

// --- the environment -----------------------------------------------------------------
// A sandboxed process gets this environment and the job's own variables,
// never the caller's (whose variables hold tokens, paths and the CI's
// secrets). docs/security.md lists it.
std::vector<std::string> sandbox_environment(
    const std::vector<std::pair<std::string, std::string>>& env) {
  std::vector<std::string> out = {"PATH=/usr/local/bin:/usr/bin:/bin", "LANG=C", "LC_ALL=C",
                                  "HOME=/tmp", "TMPDIR=/tmp"};
  for (const auto& [k, v] : env) {
    const std::string prefix = k + "=";
    out.erase(std::remove_if(out.begin(), out.end(),
                             [&](const std::string& e) { return e.rfind(prefix, 0) == 0; }),
              out.end());
    out.push_back(prefix + v);
  }
  return out;
}

// --no-sandbox: the caller's environment with the job's variables (the
// code under test runs with the caller's rights anyway).
std::vector<std::string> merged_environment(
    const std::vector<std::pair<std::string, std::string>>& env) {
  std::vector<std::string> out;
  for (char** e = environ; e && *e; ++e) {
    const std::string s = *e;
    const std::string key = s.substr(0, s.find('='));
    bool overridden = key == "IDLESPEC_PROTOCOL_FD";
    for (const auto& [k, v] : env) overridden = overridden || k == key;
    if (!overridden) out.push_back(s);
  }
  for (const auto& [k, v] : env) out.push_back(k + "=" + v);
  return out;
}

// --- rlimits (applied in the child: setrlimit only) -------------------------------------
namespace {

long processes_of(uid_t uid) {
  long n = 0;
  DIR* d = opendir("/proc");
  if (!d) return 0;
  while (dirent* e = readdir(d)) {
    if (e->d_name[0] < '0' || e->d_name[0] > '9') continue;
    struct stat sb {};
    if (fstatat(dirfd(d), e->d_name, &sb, 0) == 0 && sb.st_uid == uid) ++n;
  }
  closedir(d);
  return n;
}

}  // namespace

Limits limits_for(const Job& job, bool sandboxed) {
  Limits l;
  if (!sandboxed) return l;
  const SandboxOptions& so = sandbox_options();
  l.set = true;
  const uid_t uid = geteuid() == 0 ? kNobody : geteuid();
  // RLIMIT_NPROC counts every process of the user: the ones it has now, plus
  // bwrap's two, plus the run's own allowance.
  l.nproc = static_cast<rlim_t>(processes_of(uid) + 2 + so.max_processes);
  // One file no larger than the disk quota (its death by SIGXFSZ is the
  // quota's finding: Supervisor::over_quota).
  l.fsize = static_cast<rlim_t>(so.disk_quota_mb) << 20;
  if (job.timeout > 0 && job.timeout < 1e6) l.cpu = static_cast<rlim_t>(job.timeout * 2 + 10);
  return l;
}

void apply_limits(const Limits& l) {
  const rlimit core{0, 0};
  setrlimit(RLIMIT_CORE, &core);
  if (!l.set) return;
  const rlimit nproc{l.nproc, l.nproc}, fsize{l.fsize, l.fsize}, cpu{l.cpu, l.cpu};
  setrlimit(RLIMIT_NPROC, &nproc);
  setrlimit(RLIMIT_FSIZE, &fsize);
  setrlimit(RLIMIT_CPU, &cpu);
}

bool drop_to_nobody() {
  if (setgroups(0, nullptr) != 0) return false;
  if (setresgid(kNobody, kNobody, kNobody) != 0) return false;
  if (setresuid(kNobody, kNobody, kNobody) != 0) return false;
  return geteuid() == kNobody;
}

// As root the run is nobody: its scratch directory must be nobody's.
void give_to_nobody(const std::string& dir) {
  if (dir.empty() || dir == "/" || !under(dir, temp_root())) return;
  std::error_code ec;
  if (lchown(dir.c_str(), kNobody, kNobody) != 0) return;
  for (auto it = std::filesystem::recursive_directory_iterator(dir, ec);
       !ec && it != std::filesystem::recursive_directory_iterator(); it.increment(ec))
    if (lchown(it->path().c_str(), kNobody, kNobody) != 0) break;
}

}  // namespace idlespec::sandbox
