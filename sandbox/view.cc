// The sandbox's view and the bwrap command line that builds it: the
// toolchain read-only, the job's scratch directory and the paths the driver
// chose, nothing else of the host.
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <string>
#include <vector>

#include "sandbox/internal.h"
#include "sandbox/safe_open.h"
#include "sandbox/sandbox.h"
#include "verify/build_paths.h"

namespace idlespec::sandbox {

// The paths a command line names (arguments, "-I/x", "--opt=/x"), to expose.
namespace {

// The paths a command line names (arguments, "-I/x", "--opt=/x"), to expose.
std::vector<std::string> named_paths(const std::vector<std::string>& argv) {
  std::vector<std::string> out;
  for (const auto& a : argv) {
    std::string p;
    if (!a.empty() && a[0] == '/')
      p = a;
    else if (a.rfind("-I/", 0) == 0 || a.rfind("-L/", 0) == 0)
      p = a.substr(2);
    else if (const size_t eq = a.find("=/"); eq != std::string::npos)
      p = a.substr(eq + 1);
    if (p.empty()) continue;
    while (p.size() > 1 && p.back() == '/') p.pop_back();
    if (access(p.c_str(), F_OK) == 0) out.push_back(normalise(p));
  }
  return out;
}

// --- the view ------------------------------------------------------------------------
// Deny by default: the sandbox's root is empty but for what is bound here.
// The toolchain and its libraries (read-only), the few files the dynamic
// loader and Debian's alternatives need, a /proc of the sandbox's own PID
// namespace, a minimal /dev, a private /tmp and /dev/shm, the job's
// scratch directory and the paths it names (sandbox.h). Anything else of
// the host is not hidden but absent, whatever its spelling: /etc/passwd,
// /proc/self/root/etc/passwd, a symlink to /home and a path with ".." all
// name nothing.
const char* const kSystemDirs[] = {"/usr", "/bin", "/sbin", "/lib", "/lib64", "/lib32", "/libx32"};
const char* const kSystemFiles[] = {"/etc/ld.so.cache",   "/etc/ld.so.conf", "/etc/ld.so.conf.d",
                                    "/etc/alternatives",  "/etc/os-release", "/etc/lsb-release",
                                    "/etc/debian_version"};

}  // namespace

bool in_system_view(const std::string& p) {
  for (const char* d : kSystemDirs)
    if (under(p, d)) return true;
  for (const char* f : kSystemFiles)
    if (under(p, f)) return true;
  return false;
}

namespace {

// Directories of the caller's inside the system view (a checkout under
// /usr/local/src, a home under /usr): covered by an empty tmpfs.
std::vector<std::string> private_under_system() {
  std::vector<std::string> candidates;
  if (const char* h = getenv("HOME"); h && *h == '/') candidates.push_back(normalise(h));
  char cwd[4096];
  if (getcwd(cwd, sizeof(cwd))) candidates.push_back(normalise(cwd));
  candidates.push_back(normalise(build::source_dir()));
  std::vector<std::string> out;
  for (const auto& c : candidates) {
    // Only below /usr/<dir>/<dir>: never a directory of the toolchain itself.
    if (!under(c, "/usr") || std::count(c.begin(), c.end(), '/') < 3) continue;
    bool toolchain = false;
    for (const char* t : {"/usr/bin", "/usr/sbin", "/usr/lib", "/usr/lib32", "/usr/lib64",
                          "/usr/libx32", "/usr/libexec", "/usr/include", "/usr/share"})
      toolchain = toolchain || under(c, t);
    if (!toolchain && std::find(out.begin(), out.end(), c) == out.end()) out.push_back(c);
  }
  return out;
}

bool is_dir(const std::string& p) {
  struct stat sb {};
  return stat(p.c_str(), &sb) == 0 && S_ISDIR(sb.st_mode);
}

}  // namespace

// The paths a job may read beyond the system's, all the driver's choice
// (issue 47): named on its command line, Job::reads, SandboxOptions::expose.
// `binds`: only those the view hides (they need a bind of their own).
std::vector<std::string> exposed_for(const std::vector<std::string>& argv,
                                     const std::vector<std::string>& reads,
                                     const std::string& scratch, bool binds) {
  std::vector<std::string> ex = named_paths(argv);
  for (const auto& r : reads)
    if (!r.empty() && r[0] == '/') ex.push_back(normalise(r));
  if (!argv.empty()) {
    const std::string exe = resolve_in_path(argv[0]);
    if (!exe.empty() && exe[0] == '/') ex.push_back(normalise(exe));
  }
  for (const auto& e : sandbox_options().expose)
    if (!e.empty() && e[0] == '/') ex.push_back(normalise(e));
  // Only what the view lacks needs a bind of its own.
  auto hidden = [](const std::string& p) {
    if (!in_system_view(p)) return true;
    for (const auto& d : private_under_system())
      if (under(p, d)) return true;
    return false;
  };
  std::vector<std::string> out;
  for (const auto& p : ex) {
    if (under(p, scratch) || (binds && !hidden(p)) || access(p.c_str(), F_OK) != 0) continue;
    if (std::find(out.begin(), out.end(), p) == out.end()) out.push_back(p);
  }
  return out;
}

namespace {

// Every directory above `p` searchable by anyone, `p` readable by anyone.
bool reachable_by_others(const std::string& p) {
  std::string dir;
  size_t i = 1;
  for (;;) {
    const size_t j = p.find('/', i);
    dir = j == std::string::npos ? p : p.substr(0, j);
    struct stat sb {};
    if (stat(dir.c_str(), &sb) != 0) return false;
    const bool last = j == std::string::npos;
    if (!(sb.st_mode & (last ? S_IROTH : S_IXOTH)) && sb.st_uid != kNobody) return false;
    if (last) return true;
    i = j + 1;
  }
}

}  // namespace

std::vector<std::string> bwrap_command(const std::vector<std::string>& argv,
                                       const std::vector<std::string>& reads,
                                       const std::string& scratch, bool tool) {
  const SandboxOptions& so = sandbox_options();
  std::vector<std::string> c = {bwrap_path(),           "--unshare-user",    "--unshare-ipc",
                                "--unshare-pid",        "--unshare-net",     "--unshare-uts",
                                "--unshare-cgroup-try", "--die-with-parent", "--new-session",
                                "--hostname",           "idlespec-sandbox"};
  // The system: a directory as itself, a merged-/usr link (/bin -> usr/bin)
  // as the same link.
  for (const char* d : kSystemDirs) {
    struct stat sb {};
    if (lstat(d, &sb) != 0) continue;
    if (S_ISLNK(sb.st_mode)) {
      char target[4096];
      const ssize_t n = readlink(d, target, sizeof(target) - 1);
      if (n > 0) c.insert(c.end(), {"--symlink", std::string(target, static_cast<size_t>(n)), d});
    } else if (S_ISDIR(sb.st_mode)) {
      c.insert(c.end(), {"--ro-bind", d, d});
    }
  }
  for (const char* f : kSystemFiles)
    if (access(f, F_OK) == 0) c.insert(c.end(), {"--ro-bind", f, f});
  for (const auto& d : private_under_system())
    if (is_dir(d)) c.insert(c.end(), {"--tmpfs", d});
  // /tmp and /dev/shm: private, each at most the disk quota (the driver
  // also counts them with the scratch directory against the same quota).
  const std::string quota = std::to_string(static_cast<long long>(so.disk_quota_mb) << 20);
  c.insert(c.end(), {"--proc", "/proc", "--dev", "/dev", "--size", quota, "--tmpfs", "/tmp",
                     "--size", quota, "--tmpfs", "/dev/shm"});
  for (const auto& p : exposed_for(argv, reads, scratch, true)) {
    if (geteuid() == 0 && !is_dir(p)) {
      // As root the run is nobody, who may not reach the file (a --candidate
      // library in root's 0700 directory): a copy in a directory of the
      // driver's that the code cannot write (never the scratch directory,
      // where the code could plant a link under the copy's name), bound at
      // the file's own path.
      if (const std::string copy = exposed_copy(p); !copy.empty()) {
        c.insert(c.end(), {"--ro-bind", copy, p});
        continue;
      }
    }
    if (geteuid() == 0 && !reachable_by_others(p)) continue;  // bwrap (nobody) could not bind it
    c.insert(c.end(), {"--ro-bind", p, p});
  }
  if (is_dir(scratch)) c.insert(c.end(), {"--bind", scratch, scratch, "--chdir", scratch});
  if (!tool) c.push_back("--disable-userns");
  c.push_back("--");
  c.insert(c.end(), argv.begin(), argv.end());
  return c;
}

}  // namespace idlespec::sandbox
