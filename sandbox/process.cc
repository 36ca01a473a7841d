#include "sandbox/process.h"

#include <dirent.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <limits>
#include <mutex>
#include <sstream>

#include "impl/text.h"
#include "sandbox/emulation.h"
#include "sandbox/internal.h"
#include "sandbox/quota_fs.h"
#include "sandbox/safe_open.h"
#include "sandbox/sandbox.h"
#include "sandbox/supervisor.h"

namespace idlespec::sandbox {
namespace {

using Clock = std::chrono::steady_clock;

// Held around every fork() of start() (see there).
std::mutex& fork_lock() {
  static std::mutex m;
  return m;
}

long default_memory_mb = 0;

// --- the registry of live process groups and temporary directories ------------
// Fixed-size and lock-free: the signal handler reads it.
constexpr int kMaxLive = 256;
std::atomic<pid_t> live_groups[kMaxLive];
constexpr int kMaxTemp = 128;
constexpr size_t kTempLen = 256;
char temp_dirs[kMaxTemp][kTempLen];
std::atomic<bool> temp_used[kMaxTemp];
volatile sig_atomic_t got_signal = 0;
volatile sig_atomic_t keep_temp_dirs = 0;

void register_group(pid_t pg) {
  for (auto& slot : live_groups) {
    pid_t zero = 0;
    if (slot.compare_exchange_strong(zero, pg)) return;
  }
}
void unregister_group(pid_t pg) {
  for (auto& slot : live_groups) {
    pid_t want = pg;
    if (slot.compare_exchange_strong(want, 0)) return;
  }
}
void kill_all_groups() {
  for (auto& slot : live_groups) {
    const pid_t pg = slot.load();
    if (pg > 0) kill(-pg, SIGKILL), kill(pg, SIGKILL);
  }
}

void register_temp(const std::string& path) {
  if (path.size() >= kTempLen) return;
  for (int i = 0; i < kMaxTemp; ++i) {
    if (temp_used[i].load()) continue;
    memcpy(temp_dirs[i], path.c_str(), path.size() + 1);
    bool no = false;
    if (temp_used[i].compare_exchange_strong(no, true)) return;
  }
}
void unregister_temp(const std::string& path) {
  for (int i = 0; i < kMaxTemp; ++i)
    if (temp_used[i].load() && path == temp_dirs[i]) temp_used[i].store(false);
}

// rm -r with system calls only (async-signal-safe): for the second signal.
void raw_remove(int parent, const char* name, int depth) {
  if (depth > 32) return;
  if (unlinkat(parent, name, 0) == 0) return;
  const int fd = openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) return;
  struct Dirent64 {
    uint64_t ino;
    int64_t off;
    unsigned short reclen;
    unsigned char type;
    char name[1];
  };
  alignas(8) char buf[4096];
  for (int pass = 0; pass < 4; ++pass) {
    lseek(fd, 0, SEEK_SET);
    bool any = false;
    for (long n; (n = syscall(SYS_getdents64, fd, buf, sizeof(buf))) > 0;)
      for (long off = 0; off < n;) {
        const auto* d = reinterpret_cast<const Dirent64*>(buf + off);
        off += d->reclen;
        if (strcmp(d->name, ".") == 0 || strcmp(d->name, "..") == 0) continue;
        any = true;
        raw_remove(fd, d->name, depth + 1);
      }
    if (!any) break;
  }
  close(fd);
  unlinkat(parent, name, AT_REMOVEDIR);
}

void on_interrupt(int sig) {
  kill_all_groups();
  if (got_signal) {  // the second one: clean up and go
    if (!keep_temp_dirs)
      for (int i = 0; i < kMaxTemp; ++i)
        if (temp_used[i].load())
          uncap_directory(temp_dirs[i]), raw_remove(AT_FDCWD, temp_dirs[i], 0);
    _exit(128 + sig);
  }
  got_signal = sig;
}

bool handlers_installed = false;

void install_handler(int sig) {
  struct sigaction sa {};
  sa.sa_handler = on_interrupt;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = SA_RESTART;
  sigaction(sig, &sa, nullptr);
}

// --- starting a job ----------------------------------------------------------------
struct Started {
  pid_t pid = -1;
  int proto = -1, out = -1, err = -1;  // pipes (read ends)
  int listener = -1;                   // seccomp notifications
  std::string why;                     // not started: why
  bool unsandboxed = false;
  bool tool = false;  // a compiler or linker (Confine::tool)
};

bool is_compile(const Job& job) {
  bool o = false, c = false;
  for (const auto& a : job.argv) {
    if (a == "-o") o = true;
    if (a.size() > 2 && (a.ends_with(".c") || a.ends_with(".cc"))) c = true;
  }
  return o && c;
}

std::string dir_of(const std::string& path) {
  const size_t s = path.rfind('/');
  return s == std::string::npos ? "." : s == 0 ? "/" : path.substr(0, s);
}

void close_fd(int& fd) {
  if (fd >= 0) close(fd);
  fd = -1;
}

Started start(const Job& job) {
  Started st;
  const long mb = job.memory_mb < 0 ? default_memory_mb : job.memory_mb;
  std::vector<std::pair<std::string, std::string>> env = job.env;  // prepared before fork
  bool asan = false;
  for (auto& [k, v] : env)
    if (k == "ASAN_OPTIONS") {
      asan = true;
      if (mb > 0)
        v += ":hard_rss_limit_mb=" + std::to_string(mb) + ":malloc_limit_mb=" + std::to_string(mb);
    }
  // The plain harness applies RLIMIT_AS to itself (harness/shims/kernel.h,
  // at start-up): set here, between fork and exec, it would bind this
  // process too, and when the driver is itself an ASan build the runtime
  // dies of it before the exec.
  if (mb > 0 && !asan) env.push_back({"IDLESPEC_MEMORY_MB", std::to_string(mb)});

  const SandboxOptions& so = sandbox_options();
  const Confine confine = job.confine != Confine::automatic ? job.confine
                          : is_compile(job)                 ? Confine::tool
                                                            : Confine::code_under_test;
  const bool sandboxed = confine != Confine::none && so.enabled;
  const bool protocol =
      confine == Confine::code_under_test && !job.argv.empty() && speaks_protocol_fd(job.argv[0]);
  const int proto_fd = protocol ? pick_protocol_fd() : -1;
  if (protocol) env.push_back({"IDLESPEC_PROTOCOL_FD", std::to_string(proto_fd)});

  std::string scratch = job.scratch.empty() ? dir_of(job.out) : job.scratch;
  // A harness built for a POWER target runs under qemu-user (emulation.h);
  // its memory limit binds the emulator's process, which ignores the guest's.
  std::vector<std::string> run_argv = job.argv;
  rlim_t emulated_as = RLIM_INFINITY;
  if (confine == Confine::code_under_test && !job.argv.empty())
    if (const Emulation em = emulation_for(job.argv[0]); !em.emulator.empty()) {
      run_argv.insert(run_argv.begin(), resolve_in_path(em.emulator));
      if (mb > 0) emulated_as = static_cast<rlim_t>(mb + kEmulatorOverheadMb) << 20;
    }
  std::vector<std::string> argv;
  if (sandboxed) {
    st.why = sandbox_unavailable();
    if (!st.why.empty()) {
      static std::once_flag said;
      std::call_once(said, [&] { fprintf(stderr, "idlespec: %s\n", st.why.c_str()); });
      return st;
    }
    argv = bwrap_command(run_argv, job.reads, scratch, confine == Confine::tool);
    env.push_back({"TMPDIR", scratch});  // libFuzzer's fork mode, the compiler
    if (geteuid() == 0) give_to_nobody(scratch);
  } else {
    argv = run_argv;
    st.unsandboxed = confine == Confine::code_under_test;
  }
  std::vector<std::string> env_strings =
      sandboxed ? sandbox_environment(env) : merged_environment(env);
  std::vector<char*> cargv, cenv;
  for (auto& a : argv) cargv.push_back(a.data());
  cargv.push_back(nullptr);
  for (auto& e : env_strings) cenv.push_back(e.data());
  cenv.push_back(nullptr);
  const std::string exe = resolve_in_path(argv.empty() ? "" : argv[0]);
  // Every sandboxed process is supervised: the code under test and the
  // compilers that read its text (Supervisor::init's `tool`).
  const bool supervise = sandboxed;
  st.tool = confine == Confine::tool;
  const Limits lim = limits_for(job, sandboxed);

  int p_proto[2] = {-1, -1}, p_out[2] = {-1, -1}, p_err[2] = {-1, -1}, sock[2] = {-1, -1};
  if ((protocol && pipe2(p_proto, O_CLOEXEC) != 0) || pipe2(p_out, O_CLOEXEC) != 0 ||
      pipe2(p_err, O_CLOEXEC) != 0 ||
      (supervise && socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sock) != 0)) {
    for (int fd :
         {p_proto[0], p_proto[1], p_out[0], p_out[1], p_err[0], p_err[1], sock[0], sock[1]})
      if (fd >= 0) close(fd);
    st.why = std::string("cannot create pipes: ") + strerror(errno);
    return st;
  }
  const int in = open(job.in.empty() ? "/dev/null" : job.in.c_str(), O_RDONLY | O_CLOEXEC);
  const bool drop = sandboxed && geteuid() == 0;

  // One fork() at a time in this process: several threads start jobs at once
  // (a part's plain and sanitizer builds; idle_core's two functions), and
  // libraries' fork handlers need not be safe against themselves. libz3
  // 4.8's handler stops its timer threads and loops until it has joined as
  // many as were started, so two forks running it together could each wait
  // for workers the other one took. The lock is held for the fork alone;
  // the child never touches it.
  fork_lock().lock();
  const pid_t pid = fork();
  if (pid != 0) fork_lock().unlock();
  if (pid == 0) {
    // The child: async-signal-safe calls only from here to the exec.
    setpgid(0, 0);  // its own group: a timeout kills the harness and anything it forked
    struct sigaction dfl {};
    dfl.sa_handler = SIG_DFL;
    for (int s : {SIGINT, SIGTERM, SIGPIPE, SIGHUP, SIGQUIT}) sigaction(s, &dfl, nullptr);
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, nullptr);
    prctl(PR_SET_PDEATHSIG, SIGKILL);  // the driver dies: so does the job
    if (in < 0) _exit(127);
    dup2(in, 0);
    dup2(p_out[1], 1);
    dup2(p_err[1], 2);
    if (protocol) dup2(p_proto[1], proto_fd);
    apply_limits(lim);
    if (drop && !drop_to_nobody()) _exit(126);
    if (supervise && !install_supervised_filter(sock[1])) _exit(125);
    if (emulated_as != RLIM_INFINITY) {
      const rlimit as{emulated_as, emulated_as};
      setrlimit(RLIMIT_AS, &as);
    }
    execve(exe.c_str(), cargv.data(), cenv.data());
    _exit(127);
  }
  if (in >= 0) close(in);
  close_fd(p_proto[1]);
  close_fd(p_out[1]);
  close_fd(p_err[1]);
  close_fd(sock[1]);
  if (pid < 0) {
    close_fd(p_proto[0]), close_fd(p_out[0]), close_fd(p_err[0]), close_fd(sock[0]);
    st.why = std::string("cannot fork: ") + strerror(errno);
    return st;
  }
  register_group(pid);
  st.pid = pid;
  st.proto = protocol ? p_proto[0] : p_out[0];
  st.out = protocol ? p_out[0] : -1;
  if (!protocol) p_out[0] = -1;
  st.err = p_err[0];
  if (supervise) {
    st.listener = receive_fd(pid, sock[0], 5000);
    close_fd(sock[0]);
    if (st.listener < 0) {
      // The child failed before its filter (or died): its exit code says which.
      st.why = "";
    }
  }
  return st;
}

// Kill a job's group and wait until it is gone, with the PID namespace bwrap
// made for it: the namespace's init (bwrap's child) dies of bwrap's death,
// and with it, asynchronously, everything in the namespace; waiting on it
// means no process of the run outlives run_jobs.
void kill_and_reap(pid_t pid, int& status) {
  std::vector<int> inits;
  std::istringstream kids(
      slurp("/proc/" + std::to_string(pid) + "/task/" + std::to_string(pid) + "/children"));
  for (long k; kids >> k;) {
    const int fd = static_cast<int>(syscall(SYS_pidfd_open, static_cast<pid_t>(k), 0));
    if (fd >= 0) inits.push_back(fd);
    kill(static_cast<pid_t>(k), SIGKILL);
  }
  kill(-pid, SIGKILL);
  kill(pid, SIGKILL);
  waitpid(pid, &status, 0);
  for (int fd : inits) {
    pollfd p{fd, POLLIN, 0};
    poll(&p, 1, 3000);
    close(fd);
  }
}

// One output stream of a running job into its file, capped.
struct Sink {
  int fd = -1;     // the pipe's read end
  int file = -1;   // where it goes
  size_t cap = 0;  // bytes written to the file at most
  uint64_t total = 0;
  std::string head;  // the first bytes (for the stdout summary)
  bool keep_head = false;
  bool stayed_full = false;  // a write waited out ENOSPC in vain: no more waits
};

bool drain(Sink& s) {  // false at EOF
  char buf[65536];
  const ssize_t n = read(s.fd, buf, sizeof(buf));
  if (n < 0) return errno == EAGAIN || errno == EINTR;
  if (n == 0) return false;
  if (s.total < s.cap && s.file >= 0) {
    const size_t take = std::min<uint64_t>(static_cast<uint64_t>(n), s.cap - s.total);
    // The scratch directory is a capped tmpfs the code under test shares:
    // a fallocate of the code's that the cap refuses holds the pages it got
    // for an instant before the kernel undoes it, and a write of ours then
    // fails with ENOSPC. Retried for up to about a second, so that the
    // code's refused allocation costs no line of the job's protocol (a lost
    // line would read as the harness ending mid-run: an `error`). A disk
    // that stays full (the code holding the cap: the quota's finding stops
    // it) is waited for once per stream, not once per read.
    int full_retries = s.stayed_full ? 1000 : 0;
    for (size_t off = 0; off < take;) {
      const ssize_t w = write(s.file, buf + off, take - off);
      if (w < 0 && errno == EINTR) continue;
      if (w < 0 && errno == ENOSPC && full_retries++ < 1000) {
        const timespec pause{0, 1000000};  // 1 ms
        nanosleep(&pause, nullptr);
        continue;
      }
      if (w < 0 && errno == ENOSPC) s.stayed_full = true;
      if (w <= 0) break;
      off += static_cast<size_t>(w);
    }
  }
  if (s.keep_head && s.head.size() < 4096)
    s.head.append(buf, std::min<size_t>(static_cast<size_t>(n), 4096 - s.head.size()));
  s.total += static_cast<uint64_t>(n);
  return true;
}

// The first `lines` lines of what the code printed, at most `chars` bytes,
// as untrusted_text shows it (line breaks as \n).
std::string printable_head(const std::string& text, size_t lines, size_t chars) {
  size_t end = 0;
  for (size_t seen = 0; end < text.size() && seen < lines; ++end)
    if (text[end] == '\n' && ++seen == lines) break;
  return untrusted_text(std::string_view(text).substr(0, end), chars);
}

std::string human_bytes(uint64_t n) {
  if (n >= (1ull << 30))
    return std::to_string(n >> 20 >> 10) + "." + std::to_string(((n >> 20) % 1024) * 10 / 1024) +
           " GB";
  if (n >= (1ull << 20)) return std::to_string(n >> 20) + " MB";
  if (n >= 1024) return std::to_string(n >> 10) + " KB";
  return std::to_string(n) + " bytes";
}

}  // namespace

std::vector<JobResult> run_jobs(const std::vector<Job>& jobs, unsigned parallel, double deadline) {
  // Until the driver installs them itself (with its --keep-temp), Ctrl-C
  // still ends every job: the handlers go in at the first job, unless the
  // program has its own.
  static std::once_flag handlers;
  std::call_once(handlers, [] {
    if (handlers_installed) return;
    for (int sig : {SIGINT, SIGTERM}) {
      struct sigaction old {};
      if (sigaction(sig, nullptr, &old) == 0 && old.sa_handler == SIG_DFL) install_handler(sig);
    }
  });
  const auto t_start = Clock::now();
  auto past_deadline = [&] {
    if (got_signal) return true;
    return deadline > 0 &&
           std::chrono::duration<double>(Clock::now() - t_start).count() >= deadline;
  };
  std::vector<JobResult> results(jobs.size());
  struct Running {
    size_t index;
    Started st;
    Clock::time_point t0;
    Sink proto, out, err;
    Supervisor sup;
    bool exited = false;
    int status = 0;
    bool killed = false;
  };
  std::vector<Running> running;
  running.reserve(std::max(1u, parallel));
  size_t next = 0;
  const SandboxOptions& so = sandbox_options();
  while (next < jobs.size() || !running.empty()) {
    while (next < jobs.size() && running.size() < std::max(1u, parallel)) {
      if (past_deadline()) {
        results[next].interrupted = got_signal != 0;
        results[next++].skipped = true;
        continue;
      }
      const Job& job = jobs[next];
      Started st = start(job);
      if (st.pid < 0) {
        results[next].exec_failed = true;
        results[next].sandbox_error = st.why;
        ++next;
        continue;
      }
      Running r{next++, st, Clock::now(), {}, {}, {}, {}, false, 0, false};
      results[r.index].unsandboxed = st.unsandboxed;
      // Nothing the code planted in its directory is followed (safe_open.h).
      const int mode = O_WRONLY | O_CREAT | O_TRUNC;
      r.proto.fd = st.proto;
      r.proto.file = open_untrusted(job.out, mode);
      r.proto.cap = so.protocol_cap;
      if (st.out >= 0) {
        r.out.fd = st.out;
        r.out.file = open_untrusted(job.out + ".stdout", mode);
        r.out.cap = so.stdout_cap;
        r.out.keep_head = true;
      }
      r.err.fd = st.err;
      r.err.file = open_untrusted(job.err, mode);
      r.err.cap = so.stderr_cap;
      r.sup.listener = st.listener;
      r.sup.init(job, r.st.pid, st.tool);
      running.push_back(std::move(r));
    }
    // Wait for output, a notification or 2 ms.
    std::vector<pollfd> fds;
    for (auto& r : running)
      for (int fd : {r.proto.fd, r.out.fd, r.err.fd, r.sup.listener})
        if (fd >= 0) fds.push_back({fd, POLLIN, 0});
    if (!fds.empty()) poll(fds.data(), fds.size(), 2);
    for (auto it = running.begin(); it != running.end();) {
      Running& r = *it;
      JobResult& res = results[r.index];
      const Job& job = jobs[r.index];
      if (r.sup.listener >= 0) r.sup.serve();
      r.sup.check_quota();
      for (Sink* s : {&r.proto, &r.out, &r.err})
        while (s->fd >= 0) {
          pollfd p{s->fd, POLLIN, 0};
          if (poll(&p, 1, 0) <= 0) break;
          if (!drain(*s)) {
            close_fd(s->fd);
            break;
          }
          if (s->total > (s == &r.proto ? so.protocol_cap
                          : s == &r.err ? so.stderr_cap
                                        : UINT64_MAX))
            break;  // read more next round, after the others
        }
      const double t = std::chrono::duration<double>(Clock::now() - r.t0).count();
      if (!r.exited) {
        const pid_t w = waitpid(r.st.pid, &r.status, WNOHANG);
        if (w == r.st.pid) r.exited = true;
      }
      const bool escaped = !r.sup.escapes.empty();
      const bool flooded = r.proto.total > so.protocol_cap;
      if (!r.exited && !r.killed && (t > job.timeout || past_deadline() || escaped || flooded)) {
        kill_and_reap(r.st.pid, r.status);
        r.exited = true;
        r.killed = true;
        if (escaped) {
          res.signal = SIGSYS;
        } else if (flooded) {
          res.protocol_flooded = true;
        } else if (got_signal) {
          res.interrupted = true;
        } else {
          res.timed_out = true;
        }
      }
      if (r.killed && !r.exited) {
        waitpid(r.st.pid, &r.status, 0);
        r.exited = true;
      }
      // Done when the process is gone and its pipes are drained (or, killed,
      // closed: a grandchild outside the group cannot hold the driver).
      const bool pipes_open = r.proto.fd >= 0 || r.out.fd >= 0 || r.err.fd >= 0;
      if (r.exited && (!pipes_open || r.killed || t > job.timeout + 1)) {
        for (Sink* s : {&r.proto, &r.out, &r.err}) {
          if (s->fd >= 0) {
            fcntl(s->fd, F_SETFL, O_NONBLOCK);
            while (drain(*s) && s->total < s->cap + (64u << 20)) {
              pollfd p{s->fd, POLLIN, 0};
              if (poll(&p, 1, 0) <= 0) break;
            }
          }
          close_fd(s->fd);
          close_fd(s->file);
        }
        if (r.sup.listener >= 0) r.sup.serve();
        r.sup.finish();
        res.seconds = t;
        if (!res.signal && !res.timed_out && !res.interrupted && !res.protocol_flooded) {
          if (WIFEXITED(r.status)) res.exit_code = WEXITSTATUS(r.status);
          if (WIFSIGNALED(r.status)) res.signal = WTERMSIG(r.status);
          if (res.exit_code == 127) res.exec_failed = true;
          if (res.exit_code == 125 || res.exit_code == 126) {
            res.exec_failed = true;
            res.sandbox_error = res.exit_code == 125
                                    ? "the seccomp filter of the sandbox could not be installed"
                                    : "could not drop to the unprivileged user nobody";
          }
          // bwrap's own failures (namespaces refused) exit 1 with its message.
        }
        if (r.sup.supervised() &&
            (res.signal == SIGXFSZ || (!r.killed && res.exit_code == 128 + SIGXFSZ)))
          r.sup.over_quota();
        res.escapes = r.sup.escapes;
        res.stdout_bytes = r.out.total;
        res.stdout_head = printable_head(r.out.head, 3, 300);
        res.stderr_bytes = r.err.total;
        res.stderr_capped = r.err.total > so.stderr_cap;
        res.protocol_bytes = r.proto.total;
        if (const std::string note = output_summary(res); !note.empty())
          SandboxLog::current().add_note(note + " (" +
                                         job.argv[0].substr(job.argv[0].rfind('/') + 1) + ")");
        unregister_group(r.st.pid);
        it = running.erase(it);
      } else {
        ++it;
      }
    }
  }
  return results;
}

void set_memory_limit(long mb) { default_memory_mb = std::max(0L, mb); }

unsigned cpu_count() { return std::max(1u, static_cast<unsigned>(sysconf(_SC_NPROCESSORS_ONLN))); }

std::string tail(const std::string& text, size_t max_lines) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) lines.push_back(l);
  std::string out;
  for (size_t i = lines.size() > max_lines ? lines.size() - max_lines : 0; i < lines.size(); ++i)
    out += lines[i] + "\n";
  return out;
}

std::string untrusted_root(const std::string& path) {
  for (int i = 0; i < kMaxTemp; ++i)
    if (temp_used[i].load() && under(path, temp_dirs[i])) return temp_dirs[i];
  return "";
}

std::string make_temp_dir(const std::string& tag) {
  if (got_signal) return "";  // interrupted: nothing new
  std::string tmpl = temp_root() + "/idlespec-" + tag + "-XXXXXX";
  if (!mkdtemp(tmpl.data())) return "";
  if (!keep_temp_dirs) cap_directory(tmpl);  // as root: a tmpfs of the quota (quota_fs.h)
  register_temp(tmpl);
  return tmpl;
}

void remove_tree(const std::string& path) {
  std::error_code ec;
  if (path.empty()) return;
  if (untrusted_root(path) == path) uncap_directory(path.c_str());
  std::filesystem::remove_all(path, ec);
  unregister_temp(path);
}

std::string timed_out_text(double seconds) {
  // A limit cut to what is left of a budget is often under a second.
  char text[48];
  std::snprintf(text, sizeof(text),
                seconds < 10 ? "timed out after %.1f s" : "timed out after %.0f s", seconds);
  return text;
}

std::string outcome(const JobResult& r, double timeout) {
  if (!r.escapes.empty()) return "was stopped by the sandbox: " + r.escapes.front();
  if (r.exec_failed)
    return r.sandbox_error.empty() ? "could not be started"
                                   : "could not be started: " + r.sandbox_error;
  if (r.skipped && r.interrupted) return "was not started: the run was interrupted";
  if (r.skipped) return "was not started: the budget ran out before it";
  if (r.interrupted) return "was interrupted (SIGINT/SIGTERM)";
  if (r.protocol_flooded)
    return "was stopped: its output passed the " +
           std::to_string(sandbox_options().protocol_cap >> 20) + " MiB limit";
  if (r.timed_out) return timed_out_text(timeout);
  const char* name = r.signal ? sigabbrev_np(r.signal) : nullptr;  // "died of signal 31 (SIGSYS)"
  if (r.signal)
    return "died of signal " + std::to_string(r.signal) +
           (name ? " (SIG" + std::string(name) + ")" : "");
  if (r.exit_code != 0) return "exited " + std::to_string(r.exit_code);
  return "finished";
}

std::string output_summary(const JobResult& r) {
  std::string s;
  if (r.stdout_bytes > 0)
    s = "the code under test printed " + human_bytes(r.stdout_bytes) + " to stdout" +
        (r.stdout_bytes > sandbox_options().stdout_cap
             ? " (" + human_bytes(sandbox_options().stdout_cap) + " kept)"
             : std::string()) +
        "; its first lines, quoted: \u00ab" + r.stdout_head + "\u00bb";
  if (r.stderr_capped)
    s += std::string(s.empty() ? "" : "; ") + "stderr was " + human_bytes(r.stderr_bytes) +
         ", the first " + human_bytes(sandbox_options().stderr_cap) + " kept";
  return s;
}

std::string read_input_file(const std::string& path, size_t max_bytes, std::string& out) {
  out.clear();
  // O_NONBLOCK: opening a FIFO must not wait for a writer.
  const int fd = open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
  if (fd < 0) return "cannot open " + path + ": " + strerror(errno);
  struct stat sb {};
  if (fstat(fd, &sb) != 0) {
    const int e = errno;
    close(fd);
    return "cannot stat " + path + ": " + strerror(e);
  }
  if (!S_ISREG(sb.st_mode)) {
    close(fd);
    const char* kind = S_ISFIFO(sb.st_mode)   ? "a FIFO"
                       : S_ISCHR(sb.st_mode)  ? "a character device"
                       : S_ISBLK(sb.st_mode)  ? "a block device"
                       : S_ISDIR(sb.st_mode)  ? "a directory"
                       : S_ISSOCK(sb.st_mode) ? "a socket"
                                              : "not a regular file";
    return path + " is " + kind + ", not a regular file (inputs must be regular files)";
  }
  auto limit_text = [&] {
    return max_bytes >= (1u << 20) && max_bytes % (1u << 20) == 0
               ? std::to_string(max_bytes >> 20) + " MiB"
               : std::to_string(max_bytes) + " bytes";
  };
  if (static_cast<uint64_t>(sb.st_size) > max_bytes) {
    close(fd);
    return path + " is " + std::to_string(sb.st_size) + " bytes, larger than the " + limit_text() +
           " input limit";
  }
  fcntl(fd, F_SETFL, 0);
  // Read at most max_bytes + 1: a file that grows while read is still bounded.
  std::string buf;
  buf.resize(std::min<size_t>(max_bytes + 1, static_cast<size_t>(sb.st_size) + 4096));
  size_t got = 0;
  for (;;) {
    if (got == buf.size()) {
      if (buf.size() > max_bytes) break;
      buf.resize(std::min<size_t>(max_bytes + 1, buf.size() * 2));
    }
    const ssize_t n = read(fd, buf.data() + got, buf.size() - got);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      const int e = errno;
      close(fd);
      return "cannot read " + path + ": " + strerror(e);
    }
    if (n == 0) break;
    got += static_cast<size_t>(n);
  }
  close(fd);
  if (got > max_bytes) return path + " grew past the " + limit_text() + " input limit while read";
  buf.resize(got);
  out = std::move(buf);
  return "";
}

std::string inside_tree(const std::string& tree, const std::string& rel) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::path root = fs::canonical(tree, ec);
  if (ec) return "cannot resolve the tree " + tree + ": " + ec.message();
  const fs::path full = fs::path(tree) / rel;
  const fs::path real = fs::weakly_canonical(full, ec);
  if (ec) return rel + ": cannot resolve it in " + tree + ": " + ec.message();
  const std::string r = real.string(), t = root.string();
  if (!(r.size() > t.size() && r.compare(0, t.size(), t) == 0 && r[t.size()] == '/')) {
    std::string target;
    for (fs::path p = full; !p.empty() && p != p.parent_path(); p = p.parent_path())
      if (fs::is_symlink(p, ec)) {
        target = " (" + untrusted_text(p.lexically_relative(tree).string(), 256) +
                 " is a symlink to " + untrusted_text(fs::read_symlink(p, ec).string(), 256) + ")";
        break;
      }
    return untrusted_text(rel, 256) + " leads out of the tree" + target +
           ": the driver follows no symlink out of a tree";
  }
  return "";  // what kind of file it is, the reader says (read_input_file)
}

void install_interrupt_handlers(bool keep_temp) {
  keep_temp_dirs = keep_temp;
  handlers_installed = true;
  install_handler(SIGINT);
  install_handler(SIGTERM);
}

int interrupted() { return got_signal; }

void cleanup_temp_dirs() {
  if (keep_temp_dirs) return;
  for (int i = 0; i < kMaxTemp; ++i)
    if (temp_used[i].load()) {
      const std::string path = temp_dirs[i];
      std::error_code ec;
      uncap_directory(path.c_str());
      std::filesystem::remove_all(path, ec);
      temp_used[i].store(false);
    }
}

}  // namespace idlespec::sandbox
