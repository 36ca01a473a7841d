// Review's after side judged in a child process beside the before side:
// the child runs validate() on each changed component and sends its runs
// back whole (run_text), the driver reads them when it reaches that side.
#include "validate/review_parallel.h"

#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <iostream>

#include "sandbox/process.h"

namespace idlespec::validate {
namespace {

void put(std::string& out, const std::string& s) { out += std::to_string(s.size()) + ":" + s; }

bool get(const std::string& in, size_t& at, std::string& s) {
  size_t len = 0, p = at;
  while (p < in.size() && p - at < 12 && in[p] >= '0' && in[p] <= '9')
    len = len * 10 + static_cast<size_t>(in[p++] - '0');
  if (p == at || p >= in.size() || in[p] != ':' || len > in.size() - p - 1) return false;
  s = in.substr(p + 1, len);
  at = p + 1 + len;
  return true;
}

}  // namespace

bool AfterSide::start(const Options& options, const std::vector<std::string>& components) {
  if (components.empty() || pid_ > 0) return false;
  int fds[2];
  if (pipe(fds) != 0) return false;
  std::cout.flush();
  std::cerr.flush();
  std::fflush(nullptr);
  const pid_t pid = fork();
  if (pid < 0) {
    close(fds[0]), close(fds[1]);
    return false;
  }
  if (pid == 0) {
    // The child: judge, send, and leave without the driver's exit handlers
    // (the driver's temporary directories are the driver's to remove).
    close(fds[0]);
    std::string out;
    for (const auto& c : components) {
      if (sandbox::interrupted()) break;
      Options o = options;
      o.components = {c};
      const Report r = validate(o);
      CachedRun run;
      if (!r.parts.empty()) run.part = r.parts.front();
      run.notes = r.notes;
      put(out, c);
      put(out, r.parts.size() == 1 ? "0" : "1");
      put(out, run_text(run));
    }
    size_t done = 0;
    while (done < out.size()) {
      const ssize_t n = write(fds[1], out.data() + done, out.size() - done);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) break;
      done += static_cast<size_t>(n);
    }
    close(fds[1]);
    _exit(done == out.size() ? 0 : 1);
  }
  close(fds[1]);
  pid_ = pid, fd_ = fds[0];
  return true;
}

void AfterSide::collect() {
  if (pid_ <= 0) return;
  std::string in;
  char buf[1 << 16];
  for (;;) {
    const ssize_t n = read(fd_, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    in.append(buf, static_cast<size_t>(n));
  }
  close(fd_);
  int status = 0;
  while (waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
  }
  pid_ = -1, fd_ = -1;
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) return;  // nothing trusted
  size_t at = 0;
  std::string c, refused, text;
  while (at < in.size()) {
    CachedRun run;
    if (!get(in, at, c) || !get(in, at, refused) || !get(in, at, text) || !run_from_text(text, run))
      return;
    runs_[c] = {refused == "1", std::move(run)};
  }
}

bool AfterSide::take(const std::string& component, CachedRun& run, bool& refused) {
  collect();
  const auto it = runs_.find(component);
  if (it == runs_.end()) return false;
  refused = it->second.first;
  run = std::move(it->second.second);
  runs_.erase(it);
  return true;
}

AfterSide::~AfterSide() { collect(); }

}  // namespace idlespec::validate
