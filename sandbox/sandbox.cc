// The sandbox's settings, its log of findings, the path helpers its parts
// share, and the probe that says whether the sandbox can run here (the
// sandbox itself: sandbox.h; its parts: internal.h).
#include "sandbox/sandbox.h"

#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>
#include <vector>

#include "sandbox/internal.h"
#include "sandbox/process.h"

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

bool executable_on_path(const std::string& program) {
  if (program.empty()) return false;
  return access(resolve_in_path(program).c_str(), X_OK) == 0;
}

std::string bwrap_path() {
  const char* b = getenv("IDLESPEC_BWRAP");
  return b && *b ? std::string(b) : resolve_in_path("bwrap");
}

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

namespace {

// Set while sandbox_unavailable() runs its own probe through the sandbox.
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
