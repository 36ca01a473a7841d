// The supervisor's policy (supervisor.h): for each system call the filter
// hands over, whether it goes on or is refused, and the words a report
// shows for an attempt (the paths and addresses it names are the code
// under test's, shown escaped).
#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "impl/text.h"
#include "sandbox/internal.h"
#include "sandbox/supervisor.h"

namespace idlespec::sandbox {

namespace {

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

}  // namespace

// /sys/devices/system/node: the NUMA nodes, as the CPUs; libnuma probes
// them at start-up (qemu-user's, which runs a POWER target's harness:
// emulation.h).
bool Supervisor::readable(const std::string& p) {
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
bool Supervisor::distribution_probe(const std::string& p) {
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
std::string Supervisor::through_proc(const std::string& p) {
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
bool Supervisor::writable(const std::string& p) {
  if (under(p, "/proc"))
    if (const std::string alias = through_proc(p); !alias.empty()) return writable(alias);
  return p == "/dev/null" || under(p, "/dev/shm") || under(p, "/tmp") || under(p, scratch_) ||
         under(p, "/proc/self");
}

std::string Supervisor::open_verdict(pid_t pid, int64_t dirfd, uint64_t addr, uint64_t flags,
                                     int& error) {
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
  if (tool_ && !write &&
      std::find(quiet_refusals_.begin(), quiet_refusals_.end(), p) != quiet_refusals_.end()) {
    error = ENOENT;
    quiet_ = true;
    return "open " + shown(p) + " for reading";
  }
  if (tool_ && !write) {
    struct stat sb {};
    const std::string alias = under(p, "/proc") ? through_proc(p) : "";
    const std::string host = alias.empty() ? p : alias;
    if ((flags & O_DIRECTORY) || lstat(host.c_str(), &sb) != 0 || S_ISDIR(sb.st_mode)) return "";
  }
  return "open " + shown(p) + (write ? " for writing" : " for reading");
}

std::string Supervisor::path_change(pid_t pid, const char* verb, int64_t dirfd, uint64_t addr,
                                    int& error) {
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
std::string Supervisor::link_verdict(pid_t pid, const char* verb, uint64_t target_addr,
                                     int64_t dirfd, uint64_t link_addr, int& error) {
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

std::string Supervisor::argv_text(pid_t pid, uint64_t argv, std::vector<std::string>* out) {
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
std::string Supervisor::exec_verdict(pid_t pid, int64_t dirfd, uint64_t addr, uint64_t argv,
                                     int& error) {
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
bool Supervisor::local_unix_socket(pid_t pid, uint64_t addr, uint64_t len) {
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

std::string Supervisor::address(pid_t pid, uint64_t addr, uint64_t len) {
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
    // Appended, not "[" + std::string(text): GCC 12's -Wrestrict misreads
    // that operator+ once this function is inlined at -O3.
    std::string out = "[";
    out.append(text).append("]:").append(std::to_string(ntohs(a.sin6_port)));
    return out;
  }
  if (fam == AF_UNIX) {
    std::string path(reinterpret_cast<const char*>(buf) + 2, n - 2);
    if (!path.empty() && path[0] == 0)
      return "the abstract unix socket @" + shown(path.substr(1, path.find('\0', 1) - 1));
    return "the unix socket " + shown(path.substr(0, path.find('\0')));
  }
  return "an address of family " + std::to_string(fam);
}

std::string Supervisor::signal_verdict(pid_t pid, long target, long sig, int& error) {
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
  const std::string sname = abbrev ? std::string("SIG") + abbrev : "signal " + std::to_string(sig);
  std::string whom = target == 1    ? "its parent (process 1 of the sandbox)"
                     : target == 0  ? "its whole process group"
                     : target == -1 ? "every process it can reach"
                                    : "process " + std::to_string(target);
  return "send " + sname + " to " + whom;
}

std::string Supervisor::judge(const seccomp_notif& req, int& error) {
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
      return link_verdict(pid, "create the symlink", a[0], static_cast<int64_t>(a[1]), a[2], error);
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

}  // namespace idlespec::sandbox
