// The sandbox of sandbox.h: the bwrap command line, the rlimits, the drop
// to nobody, the seccomp filter and its supervisor (the driver). Compiled
// as part of process.cc (#include), which calls the helpers below from
// start() and run_jobs().
//
// The supervisor. The child that will exec bwrap installs a seccomp filter
// whose listed system calls wait for the driver (SECCOMP_RET_USER_NOTIF)
// and sends the listener to the driver; the filter is inherited by bwrap,
// the harness and everything the harness starts, and cannot be removed.
// Until bwrap execs the harness every call goes on (bwrap sets up the
// namespaces); from then on each is judged by the policy here: what the
// harness needs (its libraries, /proc/self, its scratch directory, the
// sanitizer's symbolizer, libFuzzer's own fork mode) goes on, anything else
// is an escape. Reading a path or an address from the caller's memory
// (/proc/PID/mem) is only a detector, racy by nature: the namespaces, the
// read-only view and the unprivileged user are what stop the call if the
// detector is fooled, and the detector fails closed (a name it cannot read
// is an escape).
#include "sandbox/sandbox.h"

#include <arpa/inet.h>
#include <dirent.h>
#include <fcntl.h>
#include <grp.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/sched.h>
#include <linux/seccomp.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstddef>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <map>
#include <mutex>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "impl/text.h"
#include "sandbox/process.h"
#include "verify/build_paths.h"

extern char** environ;

namespace idlespec::sandbox {

namespace {

SandboxLog process_log;
thread_local SandboxLog* open_log = nullptr;

}  // namespace

SandboxOptions& sandbox_options() {
  static SandboxOptions o = [] {
    SandboxOptions x;
    const char* v = getenv("IDLESPEC_NO_SANDBOX");
    if (v && *v && strcmp(v, "0") != 0) x.enabled = false;
    if (const char* q = getenv("IDLESPEC_DISK_QUOTA_MB"); q && *q) {
      char* end = nullptr;
      const long mb = strtol(q, &end, 10);
      if (end && *end == 0 && mb > 0 && mb <= (1L << 20) && q[0] != '0') x.disk_quota_mb = mb;
    }
    return x;
  }();
  return o;
}

std::string sandbox_banner() {
  return sandbox_options().enabled
             ? ""
             : "SANDBOX OFF (--no-sandbox): the code under test ran with your full rights "
               "(files, network, processes); nothing it did was confined or detected";
}

SandboxLog::Scope::Scope(SandboxLog& log) : previous_(open_log) { open_log = &log; }
SandboxLog::Scope::~Scope() { open_log = previous_; }

SandboxLog& SandboxLog::current() { return open_log ? *open_log : process_log; }

bool SandboxLog::add_finding(const std::string& f) {
  std::lock_guard<std::mutex> lock(mutex_);
  for (const auto& g : findings_)
    if (g == f) return false;
  findings_.push_back(f);
  return true;
}

void SandboxLog::add_note(const std::string& n) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (notes_.size() < 3) fprintf(stderr, "idlespec: sandbox: %s\n", n.c_str());
  if (notes_.size() < 100) notes_.push_back(n);
}

std::vector<std::string> SandboxLog::findings() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return findings_;
}

std::vector<std::string> SandboxLog::notes() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return notes_;
}

namespace {

constexpr uid_t kNobody = 65534;

std::string resolve_in_path(const std::string& name) {
  if (name.empty() || name.find('/') != std::string::npos) return name;
  const char* path = getenv("PATH");
  std::string p = path ? path : "/usr/local/bin:/usr/bin:/bin";
  size_t start = 0;
  while (start <= p.size()) {
    size_t end = p.find(':', start);
    if (end == std::string::npos) end = p.size();
    const std::string dir = p.substr(start, end - start);
    const std::string cand = (dir.empty() ? "." : dir) + "/" + name;
    if (access(cand.c_str(), X_OK) == 0) return cand;
    start = end + 1;
  }
  return name;
}

}  // namespace

bool executable_on_path(const std::string& program) {
  if (program.empty()) return false;
  return access(resolve_in_path(program).c_str(), X_OK) == 0;
}

namespace {

// bwrap: $IDLESPEC_BWRAP, else from PATH.
std::string bwrap_path() {
  const char* b = getenv("IDLESPEC_BWRAP");
  return b && *b ? std::string(b) : resolve_in_path("bwrap");
}

// Where make_temp_dir makes its directories: $IDLESPEC_TMPDIR or /tmp.
std::string temp_root() {
  const char* t = getenv("IDLESPEC_TMPDIR");
  return t && *t == '/' ? std::string(t) : std::string("/tmp");
}

bool under(const std::string& path, const std::string& dir) {
  if (dir.empty()) return false;
  if (dir == "/") return true;
  return path == dir || (path.size() > dir.size() && path.compare(0, dir.size(), dir) == 0 &&
                         path[dir.size()] == '/');
}

// "/a/./b//c/../d" -> "/a/b/d" (lexically; symlinks are the sandbox's business).
std::string normalise(const std::string& path) {
  std::vector<std::string> parts;
  size_t i = 0;
  while (i <= path.size()) {
    size_t j = path.find('/', i);
    if (j == std::string::npos) j = path.size();
    const std::string seg = path.substr(i, j - i);
    if (seg == "..") {
      if (!parts.empty()) parts.pop_back();
    } else if (!seg.empty() && seg != ".") {
      parts.push_back(seg);
    }
    i = j + 1;
  }
  std::string out;
  for (const auto& s : parts) out += "/" + s;
  return out.empty() ? "/" : out;
}

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
struct Limits {
  rlim_t nproc = RLIM_INFINITY, fsize = RLIM_INFINITY, cpu = RLIM_INFINITY;
  bool set = false;
};

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

// --- the bwrap command line --------------------------------------------------------------
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

bool in_system_view(const std::string& p) {
  for (const char* d : kSystemDirs)
    if (under(p, d)) return true;
  for (const char* f : kSystemFiles)
    if (under(p, f)) return true;
  return false;
}

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

// --- the seccomp filter ---------------------------------------------------------------------
#if defined(__x86_64__)
#define IDLESPEC_AUDIT_ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define IDLESPEC_AUDIT_ARCH AUDIT_ARCH_AARCH64
#elif defined(__powerpc64__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define IDLESPEC_AUDIT_ARCH AUDIT_ARCH_PPC64LE
#elif defined(__powerpc64__)
#define IDLESPEC_AUDIT_ARCH AUDIT_ARCH_PPC64
#endif

// The calls the supervisor judges. ptrace among them: no harness traces
// (LeakSanitizer, which would, is off in every run: detect_leaks=0), and a
// trace of another process of the sandbox (bwrap's init, say) would let
// the code under test act through it.
const long kWatched[] = {
    SYS_ptrace,
#ifdef SYS_open
    SYS_open,
#endif
#ifdef SYS_creat
    SYS_creat,
#endif
    SYS_openat,
#ifdef SYS_openat2
    SYS_openat2,
#endif
    SYS_execve,
    SYS_execveat,
    SYS_connect,
    SYS_bind,
    SYS_sendto,
    SYS_sendmsg,
#ifdef SYS_sendmmsg
    SYS_sendmmsg,
#endif
    SYS_kill,
    SYS_tkill,
    SYS_tgkill,
    SYS_rt_sigqueueinfo,
    SYS_rt_tgsigqueueinfo,
#ifdef SYS_pidfd_send_signal
    SYS_pidfd_send_signal,
#endif
#ifdef SYS_fork
    SYS_fork,
#endif
#ifdef SYS_vfork
    SYS_vfork,
#endif
    SYS_clone,
#ifdef SYS_clone3
    SYS_clone3,
#endif
    SYS_process_vm_readv,
    SYS_process_vm_writev,
    SYS_mount,
    SYS_umount2,
    SYS_pivot_root,
    SYS_chroot,
    SYS_unshare,
    SYS_setns,
    SYS_init_module,
    SYS_finit_module,
    SYS_delete_module,
    SYS_kexec_load,
    SYS_reboot,
    SYS_bpf,
    SYS_perf_event_open,
    SYS_keyctl,
    SYS_add_key,
    SYS_request_key,
    SYS_name_to_handle_at,
    SYS_open_by_handle_at,
#ifdef SYS_io_uring_setup
    SYS_io_uring_setup,
#endif
#ifdef SYS_userfaultfd
    SYS_userfaultfd,
#endif
#ifdef SYS_mknod
    SYS_mknod,
#endif
    SYS_mknodat,
#ifdef SYS_symlink
    SYS_symlink,
#endif
    SYS_symlinkat,
#ifdef SYS_link
    SYS_link,
#endif
    SYS_linkat,
#ifdef SYS_rename
    SYS_rename,
#endif
    SYS_renameat,
#ifdef SYS_renameat2
    SYS_renameat2,
#endif
#ifdef SYS_unlink
    SYS_unlink,
#endif
    SYS_unlinkat,
#ifdef SYS_mkdir
    SYS_mkdir,
#endif
    SYS_mkdirat,
#ifdef SYS_rmdir
    SYS_rmdir,
#endif
#ifdef SYS_truncate
    SYS_truncate,
#endif
#ifdef SYS_chmod
    SYS_chmod,
#endif
    SYS_fchmodat,
#ifdef SYS_chown
    SYS_chown,
#endif
    SYS_fchownat,
};
constexpr size_t kNWatched = sizeof(kWatched) / sizeof(kWatched[0]);

// Build and install the filter, send its listener over `sock`. Called in the
// child between fork and exec: no allocation.
bool install_supervised_filter(int sock) {
#ifndef IDLESPEC_AUDIT_ARCH
  (void)sock;
  return false;
#else
  sock_filter prog[8 + 2 * kNWatched];
  size_t n = 0;
  prog[n++] = BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, arch));
  // A call through another ABI (int $0x80 on x86-64) goes to the
  // supervisor, which reports it: not for a harness, and a way around a
  // policy written for one table of call numbers.
  prog[n++] = BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, IDLESPEC_AUDIT_ARCH, 1, 0);
  prog[n++] = BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_USER_NOTIF);
  prog[n++] = BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, nr));
#if defined(__x86_64__)
  // x32 system calls (nr | 0x40000000): the same.
  prog[n++] = BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, 0x40000000u, 0, 1);
  prog[n++] = BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_USER_NOTIF);
#endif
  for (size_t i = 0; i < kNWatched; ++i) {
    prog[n++] = BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, static_cast<uint32_t>(kWatched[i]), 0, 1);
    prog[n++] = BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_USER_NOTIF);
  }
  prog[n++] = BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
  sock_fprog fprog{static_cast<unsigned short>(n), prog};
  if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) return false;
  const long fd =
      syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_NEW_LISTENER, &fprog);
  if (fd < 0) return false;
  // The driver takes the listener with pidfd_getfd (a sendmsg would wait
  // for the supervisor it is handing over): its number, then the ack.
  const int lfd = static_cast<int>(fd);
  const bool sent = write(sock, &lfd, sizeof(lfd)) == static_cast<ssize_t>(sizeof(lfd));
  char ack = 0;
  const bool acked = sent && read(sock, &ack, 1) == 1 && ack == 'K';
  close(lfd);  // the code under test must not hold its own supervisor
  close(sock);
  return acked;
#endif
}

int receive_fd(pid_t child, int sock, int timeout_ms) {
  pollfd p{sock, POLLIN, 0};
  if (poll(&p, 1, timeout_ms) <= 0) return -1;
  int num = -1;
  if (read(sock, &num, sizeof(num)) != static_cast<ssize_t>(sizeof(num)) || num < 0) return -1;
  const int pidfd = static_cast<int>(syscall(SYS_pidfd_open, child, 0));
  if (pidfd < 0) return -1;
  const int fd = static_cast<int>(syscall(SYS_pidfd_getfd, pidfd, num, 0));
  close(pidfd);
  if (fd < 0) return -1;
  fcntl(fd, F_SETFD, FD_CLOEXEC);
  const char ack = 'K';
  if (write(sock, &ack, 1) != 1) {
    close(fd);
    return -1;
  }
  return fd;
}

// --- the supervisor ---------------------------------------------------------------------------
std::string syscall_name(long nr) {
  static const std::map<long, const char*> names = {
      {SYS_ptrace, "ptrace"},
      {SYS_process_vm_readv, "process_vm_readv"},
      {SYS_process_vm_writev, "process_vm_writev"},
      {SYS_mount, "mount"},
      {SYS_umount2, "umount"},
      {SYS_pivot_root, "pivot_root"},
      {SYS_chroot, "chroot"},
      {SYS_unshare, "unshare"},
      {SYS_setns, "setns"},
      {SYS_init_module, "init_module"},
      {SYS_finit_module, "finit_module"},
      {SYS_delete_module, "delete_module"},
      {SYS_kexec_load, "kexec_load"},
      {SYS_reboot, "reboot"},
      {SYS_bpf, "bpf"},
      {SYS_perf_event_open, "perf_event_open"},
      {SYS_keyctl, "keyctl"},
      {SYS_add_key, "add_key"},
      {SYS_request_key, "request_key"},
      {SYS_name_to_handle_at, "name_to_handle_at"},
      {SYS_open_by_handle_at, "open_by_handle_at"},
#ifdef SYS_io_uring_setup
      {SYS_io_uring_setup, "io_uring_setup"},
#endif
#ifdef SYS_userfaultfd
      {SYS_userfaultfd, "userfaultfd"},
#endif
  };
  auto it = names.find(nr);
  return it == names.end() ? "system call " + std::to_string(nr) : it->second;
}

std::string abi_name(uint32_t arch) {
  switch (arch) {
    case AUDIT_ARCH_I386:
      return "32-bit x86, int $0x80";
    case AUDIT_ARCH_X86_64:
      return "x86-64";
    case AUDIT_ARCH_AARCH64:
      return "arm64";
    case AUDIT_ARCH_ARM:
      return "32-bit arm";
    default:
      return strprintf("audit arch 0x%x", arch);
  }
}

// A path the code under test named, as a report may show it.
std::string shown(const std::string& p) { return untrusted_text(p, 512); }

class Supervisor {
 public:
  int listener = -1;
  std::vector<std::string> escapes;

  // tool: a compiler or linker building the code under test (it may exec
  // the toolchain's programs; what it reads is judged like the code's own
  // reads, since the code's #include and .incbin make it read).
  void init(const Job& job, pid_t child, bool tool) {
    child_ = child;
    tool_ = tool;
    supervised_ = listener >= 0;
    armed_ = false;
    if (!job.argv.empty()) exe_ = normalise(resolve_in_path(job.argv[0]));
    scratch_ = normalise(job.scratch.empty() ? job.out.substr(0, job.out.rfind('/')) : job.scratch);
    for (const auto& a : job.argv)
      if (a.rfind("-fork=", 0) == 0 || a.rfind("-jobs=", 0) == 0) fuzz_ = true;
    exposed_ = exposed_for(job.argv, job.reads, scratch_, false);
    scratch_base_ = scratch_bytes();
    quota_checked_ = std::chrono::steady_clock::now();
  }

  // The disk quota: the scratch directory's growth since the job started,
  // with what the sandbox's /tmp and /dev/shm hold, against
  // SandboxOptions::disk_quota_mb. Looked at every 100 ms (each tmpfs is
  // capped on its own, as root the scratch directory too: quota_fs.h).
  void check_quota() {
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
  void over_quota() {
    const std::string f = "the code under test tried to write more than " +
                          std::to_string(sandbox_options().disk_quota_mb) +
                          " MiB to its scratch directory, /tmp and /dev/shm (the disk quota, "
                          "--disk-quota)";
    record(f);
  }

  // An escape attempt, once per job and once per part's log (said on
  // stderr the first time the log sees it).
  void record(const std::string& f) {
    if (std::find(escapes.begin(), escapes.end(), f) == escapes.end()) escapes.push_back(f);
    if (SandboxLog::current().add_finding(f)) fprintf(stderr, "idlespec: sandbox: %s\n", f.c_str());
  }
  bool supervised() const { return supervised_; }

  void serve() {
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

  void finish() {
    if (listener >= 0) close(listener);
    listener = -1;
  }

 private:
  pid_t child_ = -1;
  bool armed_ = false, fuzz_ = false, quiet_ = false;  // quiet_: refused, not reported
  bool unreadable_ = false;  // the call's path or address could not be read
  pid_t main_ = -1;          // the harness (the first process bwrap execs)
  std::set<pid_t> tools_;    // the symbolizer
  std::string exe_, scratch_;
  std::vector<std::string> exposed_;
  uint64_t scratch_base_ = 0;
  bool supervised_ = false, tool_ = false;
  std::chrono::steady_clock::time_point quota_checked_;

  // Bytes allocated under `dir`, not following links.
  uint64_t scratch_bytes() {  // its capped tmpfs's use as root (quota_fs.h), else a walk
    const long long capped = capped_usage(scratch_);
    return capped >= 0 ? static_cast<uint64_t>(capped) : bytes_under(scratch_);
  }
  static uint64_t bytes_under(const std::string& dir) {
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
  long live_processes(pid_t pid) {
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
  bool read_mem(pid_t pid, uint64_t addr, void* buf, size_t n) {
    if (addr == 0) return false;
    const int fd = open(("/proc/" + std::to_string(pid) + "/mem").c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return false;
    const ssize_t got = pread(fd, buf, n, static_cast<off_t>(addr));
    close(fd);
    return got == static_cast<ssize_t>(n);
  }
  bool read_string(pid_t pid, uint64_t addr, std::string& out) {
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
  std::string link(pid_t pid, const std::string& what) {
    char buf[4096];
    const ssize_t n =
        readlink(("/proc/" + std::to_string(pid) + "/" + what).c_str(), buf, sizeof(buf) - 1);
    return n > 0 ? std::string(buf, static_cast<size_t>(n)) : std::string();
  }
  // The path a call names, absolute; "" when it cannot be read.
  std::string path_arg(pid_t pid, int64_t dirfd, uint64_t addr) {
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
  long ns_tgid(pid_t pid) {
    const std::string s = slurp("/proc/" + std::to_string(pid) + "/status");
    const size_t at = s.find("NStgid:");
    if (at == std::string::npos) return -1;
    const std::string line = s.substr(at + 7, s.find('\n', at) - at - 7);
    std::istringstream in(line);
    long v = -1;
    for (long x; in >> x;) v = x;
    return v;
  }

  // /sys/devices/system/node: the NUMA nodes, as the CPUs; libnuma probes
  // them at start-up (qemu-user's, which runs a POWER target's harness:
  // emulation.h).
  bool readable(const std::string& p) {
    static const char* const system[] = {"/usr",
                                         "/lib",
                                         "/lib64",
                                         "/lib32",
                                         "/libx32",
                                         "/bin",
                                         "/sbin",
                                         "/etc/ld.so.cache",
                                         "/etc/ld.so.preload",
                                         "/etc/ld.so.conf",
                                         "/etc/ld.so.conf.d",
                                         "/etc/alternatives",
                                         "/etc/os-release",
                                         "/etc/lsb-release",
                                         "/etc/debian_version",
                                         "/proc/self",
                                         "/proc/thread-self",
                                         "/proc/sys",
                                         "/proc/meminfo",
                                         "/proc/cpuinfo",
                                         "/proc/stat",
                                         "/sys/devices/system/cpu",
                                         "/sys/devices/system/node",
                                         "/sys/kernel/mm/transparent_hugepage",
                                         "/dev/null",
                                         "/dev/zero",
                                         "/dev/urandom",
                                         "/dev/random",
                                         "/dev/full",
                                         "/dev/shm"};
    // A process's root or working directory through /proc is judged as the
    // path it names (the view holds nothing past it; the attempt is what
    // is reported).
    if (under(p, "/proc"))
      if (const std::string alias = through_proc(p); !alias.empty()) return readable(alias);
    for (const char* s : system)
      if (under(p, s)) return true;
    if (under(p, scratch_) || p == exe_) return true;
    if (distribution_probe(p)) return true;
    for (const auto& e : exposed_)
      if (under(p, e)) return true;
    // The sandbox's own /proc shows its own processes only.
    return under(p, "/proc");
  }
  // /etc/redhat-release, /etc/SuSE-release, /etc/debian_version: a compiler
  // (clang's distribution detection) looks for each; absent in the view
  // but for the Debian files kSystemFiles binds.
  static bool distribution_probe(const std::string& p) {
    if (p.rfind("/etc/", 0) != 0 || p.find('/', 5) != std::string::npos) return false;
    const std::string name = p.substr(5);
    const size_t sep = name.find_last_of("-_");
    if (sep == std::string::npos || sep == 0) return false;
    const std::string kind = name.substr(sep + 1);
    return (kind == "release" || kind == "version") &&
           name.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ") == sep;
  }

  // "/proc/self/root/etc/passwd" -> "/etc/passwd", "/proc/7/cwd/x" -> the
  // cwd of the caller + "/x" (any process's: the sandbox's processes share
  // one view); "" for any other /proc path.
  std::string through_proc(const std::string& p) {
    size_t at = 6;  // past "/proc/"
    if (p.size() <= at) return "";
    size_t end = p.find('/', at);
    if (end == std::string::npos) return "";
    const std::string who = p.substr(at, end - at);
    if (who != "self" && who != "thread-self" &&
        who.find_first_not_of("0123456789") != std::string::npos)
      return "";
    at = end + 1;
    if (p.compare(at, 5, "task/") == 0) {  // /proc/N/task/M/root
      end = p.find('/', at + 5);
      if (end == std::string::npos) return "";
      at = end + 1;
    }
    end = p.find('/', at);
    const std::string what = p.substr(at, end == std::string::npos ? std::string::npos : end - at);
    const std::string rest = end == std::string::npos ? "" : p.substr(end);
    if (what == "root") return rest.empty() ? "/" : rest;
    if (what == "cwd") return normalise(scratch_ + rest);
    return "";
  }
  // The private /tmp and /dev/shm (tmpfs, within the disk quota), the
  // scratch directory, the process's own /proc entries.
  bool writable(const std::string& p) {
    if (under(p, "/proc"))
      if (const std::string alias = through_proc(p); !alias.empty()) return writable(alias);
    return p == "/dev/null" || under(p, "/dev/shm") || under(p, "/tmp") || under(p, scratch_) ||
           under(p, "/proc/self");
  }

  std::string open_verdict(pid_t pid, int64_t dirfd, uint64_t addr, uint64_t flags, int& error) {
    const std::string p = path_arg(pid, dirfd, addr);
    error = EACCES;
    const bool write = (flags & O_ACCMODE) != O_RDONLY || (flags & (O_CREAT | O_TRUNC));
    if (p.empty()) return "open a file whose name the sandbox could not read";
    if (readable(p) && (!write || writable(p))) return "";
    // A compiler probes for installations and headers far and wide (clang
    // lists /opt, reads /etc/redhat-release): a directory, or a file the host
    // does not have either, is a probe the view answers with ENOENT. A file
    // the host has and the view withholds is an attempt (an #include or an
    // .incbin of it in the code under test).
    if (tool_ && !write) {
      struct stat sb {};
      const std::string alias = under(p, "/proc") ? through_proc(p) : "";
      const std::string host = alias.empty() ? p : alias;
      if ((flags & O_DIRECTORY) || lstat(host.c_str(), &sb) != 0 || S_ISDIR(sb.st_mode)) return "";
    }
    return "open " + shown(p) + (write ? " for writing" : " for reading");
  }

  std::string path_change(pid_t pid, const char* verb, int64_t dirfd, uint64_t addr, int& error) {
    const std::string p = path_arg(pid, dirfd, addr);
    error = EACCES;
    if (!p.empty() && writable(p)) return "";
    // In a libFuzzer campaign, fork-mode jobs remove their temporary files
    // as libFuzzer kills them: a path that cannot be resolved then is denied
    // but not reported (the kernel could not resolve it either).
    if (p.empty() && fuzz_) unreadable_ = true;
    return std::string(verb) + " " + (p.empty() ? "a path it hid" : shown(p));
  }

  // A link is judged by what it reaches for whoever follows it (issue 47):
  // only into the scratch directory (the sandbox's /tmp is not the driver's),
  // with no ".." and not through /proc (/proc/self/cwd is the driver's cwd).
  std::string link_verdict(pid_t pid, const char* verb, uint64_t target_addr, int64_t dirfd,
                           uint64_t link_addr, int& error) {
    const std::string where = path_arg(pid, dirfd, link_addr);
    error = EACCES;
    if (where.empty() || !writable(where))
      return std::string(verb) + " " + (where.empty() ? "a path it hid" : shown(where));
    std::string target;
    if (!read_string(pid, target_addr, target)) return std::string(verb) + " " + shown(where);
    const std::string at = under(where, "/proc") ? through_proc(where) : where;
    const std::string whole =
        target.rfind('/', 0) == 0 ? target : at.substr(0, at.rfind('/')) + "/" + target;
    const std::string resolved = normalise(whole);
    const bool dots = ("/" + whole + "/").find("/../") != std::string::npos;
    if (!dots && under(resolved, scratch_)) return "";
    return std::string(verb) + " " + shown(where) + " to " + shown(target);
  }

  std::string argv_text(pid_t pid, uint64_t argv, std::vector<std::string>* out = nullptr) {
    std::string text;
    for (int i = 0; i < 8; ++i) {
      uint64_t ptr = 0;
      if (!read_mem(pid, argv + 8 * static_cast<uint64_t>(i), &ptr, sizeof(ptr)) || ptr == 0) break;
      std::string a;
      read_string(pid, ptr, a);
      if (out) out->push_back(a);
      text += (i ? " " : "") + a;
    }
    std::string clean;
    for (char ch : text.substr(0, 120))
      clean += (static_cast<unsigned char>(ch) >= 0x20 && ch != 0x7f) ? ch : '?';
    return clean;
  }

  // Once the harness runs, the code under test execs nothing: the call is
  // refused, never continued, so no thread that rewrites the path after the
  // supervisor read it can run another program (issue 47; a continued call
  // would read the path again). Only a compiler (its toolchain) and a
  // libFuzzer campaign (its fork-mode shell and the harness, libFuzzer's
  // llvm-symbolizer) have execs continued, judged by the path they name.
  std::string exec_verdict(pid_t pid, int64_t dirfd, uint64_t addr, uint64_t argv, int& error) {
    const std::string p = path_arg(pid, dirfd, addr);
    error = EACCES;
    std::vector<std::string> args;
    const std::string text = argv_text(pid, argv, &args);
    const std::string base = p.substr(p.rfind('/') + 1);
    const bool symbolizer = !p.empty() &&
                            (base.rfind("llvm-symbolizer", 0) == 0 || base == "addr2line") &&
                            under(p, "/usr");
    if (!p.empty() && (tool_ || fuzz_)) {
      if (p == exe_) return "";
      // A compiler runs the toolchain's own programs (cc1, as, collect2, ld).
      if (tool_ && in_system_view(p)) return "";
      // The sanitizers' symbolizer: a tool of ours from then on (it reads
      // debug-info caches under $HOME, hidden anyway).
      if (symbolizer) {
        tools_.insert(pid);
        return "";
      }
      // libFuzzer's fork mode runs its jobs through system(): sh -c "<harness> ...".
      if (fuzz_ && (base == "sh" || base == "dash" || base == "bash") && args.size() >= 3 &&
          args[1] == "-c" && args[2].rfind(exe_ + " ", 0) == 0)
        return "";
    }
    // A sanitizer runtime looking for its symbolizer (clang's ASan) is
    // refused without a report: it prints the frames unsymbolised.
    if (symbolizer) quiet_ = true;
    return "execve " + (p.empty() ? std::string("a program it hid") : p) +
           (text.empty() ? "" : " (" + text + ")");
  }

  // A unix socket named by a plain file name: in the working directory, the
  // run's scratch directory (no '/', no abstract name). A tool may bind and
  // connect one: why3's prover server, which Frama-C's WP starts beside
  // itself (validate/framac.h), talks to WP through it. Nothing outside the
  // sandbox's view can be reached by such a name.
  bool local_unix_socket(pid_t pid, uint64_t addr, uint64_t len) {
    if (addr == 0) return false;
    unsigned char buf[112] = {};
    const size_t n = std::min<uint64_t>(len, sizeof(buf));
    if (n < 3 || !read_mem(pid, addr, buf, n)) return false;
    sa_family_t fam;
    memcpy(&fam, buf, sizeof(fam));
    if (fam != AF_UNIX || buf[2] == 0) return false;
    const std::string path(reinterpret_cast<const char*>(buf) + 2,
                           strnlen(reinterpret_cast<const char*>(buf) + 2, n - 2));
    return !path.empty() && path.find('/') == std::string::npos && path != "." && path != "..";
  }

  std::string address(pid_t pid, uint64_t addr, uint64_t len) {
    if (addr == 0) return "";
    unsigned char buf[128] = {};
    const size_t n = std::min<uint64_t>(len, sizeof(buf));
    if (n < 2 || !read_mem(pid, addr, buf, n)) return "an address it hid";
    sa_family_t fam;
    memcpy(&fam, buf, sizeof(fam));
    char text[INET6_ADDRSTRLEN] = {};
    if (fam == AF_INET && n >= sizeof(sockaddr_in)) {
      sockaddr_in a;
      memcpy(&a, buf, sizeof(a));
      inet_ntop(AF_INET, &a.sin_addr, text, sizeof(text));
      return std::string(text) + ":" + std::to_string(ntohs(a.sin_port));
    }
    if (fam == AF_INET6 && n >= sizeof(sockaddr_in6)) {
      sockaddr_in6 a;
      memcpy(&a, buf, sizeof(a));
      inet_ntop(AF_INET6, &a.sin6_addr, text, sizeof(text));
      return "[" + std::string(text) + "]:" + std::to_string(ntohs(a.sin6_port));
    }
    if (fam == AF_UNIX) {
      std::string path(reinterpret_cast<const char*>(buf) + 2, n - 2);
      if (!path.empty() && path[0] == 0)
        return "the abstract unix socket @" + shown(path.substr(1, path.find('\0', 1) - 1));
      return "the unix socket " + shown(path.substr(0, path.find('\0')));
    }
    return "an address of family " + std::to_string(fam);
  }

  std::string signal_verdict(pid_t pid, long target, long sig, int& error) {
    error = EPERM;
    if (sig == 0) return "";  // probing, no signal
    const long self = ns_tgid(pid);
    if (target == self) return "";
    // A tool (a prover's driver stopping the prover it started: why3 ends a
    // z3 past its time with SIGKILL) may signal one process of its own
    // sandbox: the sandbox has its own pid namespace, so a pid above 1 is
    // one of the tool's processes; bwrap's init, the group and -1 stay out.
    if (tool_ && target > 1) return "";
    const char* abbrev = sigabbrev_np(static_cast<int>(sig));
    const std::string sname =
        abbrev ? std::string("SIG") + abbrev : "signal " + std::to_string(sig);
    std::string whom = target == 1    ? "its parent (process 1 of the sandbox)"
                       : target == 0  ? "its whole process group"
                       : target == -1 ? "every process it can reach"
                                      : "process " + std::to_string(target);
    return "send " + sname + " to " + whom;
  }

  std::string judge(const seccomp_notif& req, int& error) {
    const pid_t pid = static_cast<pid_t>(req.pid);
    const long nr = req.data.nr;
    const auto* a = req.data.args;
    if (req.data.arch != IDLESPEC_AUDIT_ARCH) {
      error = ENOSYS;
      return "make a system call through another ABI (" + abi_name(req.data.arch) + ", call " +
             std::to_string(nr) + ")";
    }
#if defined(__x86_64__)
    if (nr & 0x40000000) {
      error = ENOSYS;
      return "make an x32-ABI system call (call " + std::to_string(nr & ~0x40000000L) + ")";
    }
#endif
    if (!armed_) {
      // bwrap's set-up; the first exec by anything but our child starts the harness.
      if ((nr == SYS_execve || nr == SYS_execveat) && pid != child_) {
        armed_ = true;
        main_ = pid;
        return "";
      }
      return "";
    }
    // From here on no process of the sandbox is exempt but the
    // symbolizer the sanitizers start (a tool of ours, under /usr) and the
    // outer bwrap (outside the sandbox's PID namespace: out of the code's
    // reach).
    if (pid == child_ || tools_.count(pid)) return "";
    switch (nr) {
      case SYS_ptrace:
        error = EPERM;
        return "call ptrace (request " + std::to_string(static_cast<long>(a[0])) + " on process " +
               std::to_string(static_cast<long>(a[1])) + ")";
#ifdef SYS_open
      case SYS_open:
        return open_verdict(pid, AT_FDCWD, a[0], a[1], error);
#endif
#ifdef SYS_creat
      case SYS_creat:
        return open_verdict(pid, AT_FDCWD, a[0], O_CREAT | O_WRONLY | O_TRUNC, error);
#endif
      case SYS_openat:
        return open_verdict(pid, static_cast<int64_t>(a[0]), a[1], a[2], error);
#ifdef SYS_openat2
      case SYS_openat2: {
        uint64_t flags = 0;
        if (!read_mem(pid, a[2], &flags, sizeof(flags))) {
          // An unreadable open_how: the kernel would answer EFAULT.
          error = EFAULT;
          unreadable_ = true;
          return "open a file with an unreadable open_how";
        }
        return open_verdict(pid, static_cast<int64_t>(a[0]), a[1], flags, error);
      }
#endif
      case SYS_execve:
        return exec_verdict(pid, AT_FDCWD, a[0], a[1], error);
      case SYS_execveat:
        return exec_verdict(pid, static_cast<int64_t>(a[0]), a[1], a[2], error);
      case SYS_connect:
        if (tool_ && local_unix_socket(pid, a[1], a[2])) return "";
        error = ECONNREFUSED;
        return "connect to " + address(pid, a[1], a[2]);
      case SYS_bind:
        if (tool_ && local_unix_socket(pid, a[1], a[2])) return "";
        error = EACCES;
        return "bind a socket to " + address(pid, a[1], a[2]);
      case SYS_sendto:
        if (a[4] == 0) return "";
        error = EPERM;
        return "send a datagram to " + address(pid, a[4], a[5]);
      case SYS_sendmsg: {
        msghdr m{};
        if (!read_mem(pid, a[1], &m, sizeof(m)) || m.msg_name == nullptr) return "";
        error = EPERM;
        return "send a message to " +
               address(pid, reinterpret_cast<uint64_t>(m.msg_name), m.msg_namelen);
      }
#ifdef SYS_sendmmsg
      case SYS_sendmmsg:
        error = EPERM;
        return "send messages with sendmmsg";
#endif
      case SYS_kill:
        return signal_verdict(pid, static_cast<int>(a[0]), static_cast<int>(a[1]), error);
      case SYS_tgkill:
        return signal_verdict(pid, static_cast<int>(a[0]), static_cast<int>(a[2]), error);
      case SYS_tkill: {
        // raise() and abort() use tgkill; a tkill of one of its own threads is fine.
        const std::string task = "/proc/" + std::to_string(pid) + "/task";
        (void)task;
        error = EPERM;
        const long self = ns_tgid(pid);
        if (static_cast<int>(a[0]) == self) return "";
        return signal_verdict(pid, static_cast<int>(a[0]), static_cast<int>(a[1]), error);
      }
      case SYS_rt_sigqueueinfo:
        return signal_verdict(pid, static_cast<int>(a[0]), static_cast<int>(a[1]), error);
      case SYS_rt_tgsigqueueinfo:
        return signal_verdict(pid, static_cast<int>(a[0]), static_cast<int>(a[2]), error);
#ifdef SYS_pidfd_send_signal
      case SYS_pidfd_send_signal:
        error = EPERM;
        return "send a signal through a pidfd";
#endif
#ifdef SYS_fork
      case SYS_fork:
#endif
#ifdef SYS_vfork
      case SYS_vfork:
#endif
      case SYS_clone:
#ifdef SYS_clone3
      case SYS_clone3:
#endif
      {
        uint64_t flags = 0;
        if (nr == SYS_clone) flags = a[0];
#ifdef SYS_clone3
        if (nr == SYS_clone3) read_mem(pid, a[0], &flags, sizeof(flags));
#endif
        // A new namespace in any form is an attempt, whatever the kernel
        // would answer (issue 47); unshare and setns are refused as such.
        // (clone's low byte is its exit signal; clone3's CLONE_NEWTIME.)
        const uint64_t new_namespace = CLONE_NEWNS | CLONE_NEWUSER | CLONE_NEWPID | CLONE_NEWNET |
                                       CLONE_NEWIPC | CLONE_NEWUTS | CLONE_NEWCGROUP |
                                       (nr == SYS_clone ? 0 : 0x80);
        if (flags & new_namespace) {
          error = EPERM;
          return std::string("create a namespace (") + (nr == SYS_clone ? "clone" : "clone3") +
                 " with flags 0x" + strprintf("%llx", static_cast<unsigned long long>(flags)) + ")";
        }
        if (flags & CLONE_THREAD) return "";
        // A bound on the processes alive at once in the sandbox (not on
        // those ever made: libFuzzer's fork mode starts a job after another,
        // each through a shell, for as long as its campaign runs).
        if (live_processes(pid) <= sandbox_options().max_processes) return "";
        error = EAGAIN;
        return "have more than " + std::to_string(sandbox_options().max_processes) +
               " processes alive at once (a fork bomb)";
      }
#ifdef SYS_mkdir
      case SYS_mkdir:
        return path_change(pid, "create the directory", AT_FDCWD, a[0], error);
#endif
      case SYS_mkdirat:
        return path_change(pid, "create the directory", static_cast<int64_t>(a[0]), a[1], error);
#ifdef SYS_mknod
      case SYS_mknod:
        return path_change(pid, "create the node", AT_FDCWD, a[0], error);
#endif
      case SYS_mknodat:
        return path_change(pid, "create the node", static_cast<int64_t>(a[0]), a[1], error);
#ifdef SYS_unlink
      case SYS_unlink:
        return path_change(pid, "delete", AT_FDCWD, a[0], error);
#endif
      case SYS_unlinkat:
        return path_change(pid, "delete", static_cast<int64_t>(a[0]), a[1], error);
#ifdef SYS_rmdir
      case SYS_rmdir:
        return path_change(pid, "delete the directory", AT_FDCWD, a[0], error);
#endif
#ifdef SYS_rename
      case SYS_rename:
        return path_change(pid, "rename", AT_FDCWD, a[0], error);
#endif
      case SYS_renameat:
#ifdef SYS_renameat2
      case SYS_renameat2:
#endif
        return path_change(pid, "rename", static_cast<int64_t>(a[0]), a[1], error);
#ifdef SYS_symlink
      case SYS_symlink:
        return link_verdict(pid, "create the symlink", a[0], AT_FDCWD, a[1], error);
#endif
      case SYS_symlinkat:
        return link_verdict(pid, "create the symlink", a[0], static_cast<int64_t>(a[1]), a[2],
                            error);
#ifdef SYS_link
      case SYS_link:
        return link_verdict(pid, "create the link", a[0], AT_FDCWD, a[1], error);
#endif
      case SYS_linkat:
        return link_verdict(pid, "create the link", a[1], static_cast<int64_t>(a[2]), a[3], error);
#ifdef SYS_truncate
      case SYS_truncate:
        return path_change(pid, "truncate", AT_FDCWD, a[0], error);
#endif
#ifdef SYS_chmod
      case SYS_chmod:
        return path_change(pid, "chmod", AT_FDCWD, a[0], error);
#endif
      case SYS_fchmodat:
        return path_change(pid, "chmod", static_cast<int64_t>(a[0]), a[1], error);
#ifdef SYS_chown
      case SYS_chown:
        return path_change(pid, "chown", AT_FDCWD, a[0], error);
#endif
      case SYS_fchownat:
        return path_change(pid, "chown", static_cast<int64_t>(a[0]), a[1], error);
      default:
        error = EPERM;
        return "call " + syscall_name(nr);
    }
  }
};

bool probing = false;

}  // namespace

std::string sandbox_unavailable() {
  if (probing) return "";  // the probe itself
  static std::once_flag once;
  static std::string why;
  std::call_once(once, [] {
    if (!sandbox_options().enabled) return;
    const std::string bwrap = bwrap_path();
    if (bwrap.find('/') == std::string::npos || access(bwrap.c_str(), X_OK) != 0) {
      why = "bwrap (bubblewrap) is not installed";
      return;
    }
#ifndef IDLESPEC_AUDIT_ARCH
    why = "the seccomp supervisor does not know this architecture";
    return;
#endif
    // A real run of /bin/true through the whole sandbox.
    const std::string dir = make_temp_dir("sandbox-probe");
    if (dir.empty()) {
      why = "cannot create a temporary directory";
      return;
    }
    Job j;
    // The system's own, as the sandbox's PATH finds it, not the caller's
    // PATH: a directory of the caller's (under its /tmp, say) is not in the
    // sandbox's view.
    j.argv = {access("/usr/bin/true", X_OK) == 0 ? std::string("/usr/bin/true")
                                                 : resolve_in_path("true")};
    j.out = dir + "/probe.out";
    j.err = dir + "/probe.err";
    j.timeout = 20;
    j.confine = Confine::code_under_test;
    probing = true;
    const JobResult r = run_jobs({j}, 1).front();
    probing = false;
    if (r.exit_code != 0 || !r.escapes.empty()) {
      std::string err = tail(slurp(j.err), 3);
      while (!err.empty() && err.back() == '\n') err.pop_back();
      why = !r.escapes.empty()         ? "its policy refused /bin/true: " + r.escapes.front()
            : !r.sandbox_error.empty() ? r.sandbox_error
            : err.empty()              ? "bwrap " + outcome(r, j.timeout)
                                       : "bwrap: " + err;
      why +=
          " (user namespaces must be available to this user: sysctl "
          "user.max_user_namespaces, kernel.unprivileged_userns_clone)";
    }
    remove_tree(dir);
  });
  return why.empty() ? ""
                     : "cannot sandbox the code under test: " + why +
                           "; install bubblewrap or pass --no-sandbox to run it with your full "
                           "rights";
}

}  // namespace idlespec::sandbox
