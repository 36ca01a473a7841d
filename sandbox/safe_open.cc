#include "sandbox/safe_open.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <map>
#include <mutex>

#include "sandbox/process.h"

namespace idlespec::sandbox {

int open_untrusted(const std::string& path, int flags, mode_t mode) {
  const std::string root = untrusted_root(path);
  if (root.empty()) return open(path.c_str(), flags | O_CLOEXEC, mode);
  // The run's directory itself: made by the driver in a directory the code
  // cannot write, so it is what the driver made (a directory, not a link).
  int fd = open(root.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) return -1;
  std::string rest = path.substr(root.size());
  for (;;) {
    while (!rest.empty() && rest[0] == '/') rest.erase(0, 1);
    const size_t slash = rest.find('/');
    const std::string name = rest.substr(0, slash);
    if (name.empty() || name == "." || name == "..") {
      close(fd);
      errno = EINVAL;
      return -1;
    }
    if (slash == std::string::npos || rest.find_first_not_of('/', slash) == std::string::npos) {
      const int file =
          openat(fd, name.c_str(), flags | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC, mode);
      const int saved = errno;
      close(fd);
      if (file < 0) {
        errno = saved;
        return -1;
      }
      struct stat sb {};
      if (fstat(file, &sb) != 0 || !S_ISREG(sb.st_mode) || sb.st_nlink > 1) {
        const bool regular = S_ISREG(sb.st_mode);
        close(file);
        errno = regular ? EMLINK : EINVAL;
        return -1;
      }
      if (!(flags & O_NONBLOCK)) fcntl(file, F_SETFL, fcntl(file, F_GETFL) & ~O_NONBLOCK);
      return file;
    }
    const int next = openat(fd, name.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    close(fd);
    if (next < 0) return -1;
    fd = next;
    rest = rest.substr(slash + 1);
  }
}

// Both go through open_untrusted(): in a run's directory the driver follows
// nothing the code under test made there.
std::string slurp(const std::string& path) {
  const int fd = open_untrusted(path, O_RDONLY);
  if (fd < 0) return "";
  std::string out;
  char buf[65536];
  for (ssize_t n; (n = read(fd, buf, sizeof(buf))) != 0;) {
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) break;
    out.append(buf, static_cast<size_t>(n));
  }
  close(fd);
  return out;
}

bool spit(const std::string& path, const std::string& text) {
  const int fd = open_untrusted(path, O_WRONLY | O_CREAT | O_TRUNC);
  if (fd < 0) return false;
  size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    done += static_cast<size_t>(n);
  }
  return close(fd) == 0 && done == text.size();
}

std::string exposed_copy(const std::string& file) {
  static std::mutex mutex;
  static std::string dir;
  static std::map<std::string, std::string> made;
  const std::lock_guard<std::mutex> lock(mutex);
  if (const auto it = made.find(file); it != made.end()) return it->second;
  if (dir.empty()) {
    dir = make_temp_dir("exposed");
    // The copies go with the process (with --keep-temp too: they are only
    // copies of the caller's files).
    if (!dir.empty()) std::atexit([] { remove_tree(dir); });
    // Searchable, not listable or writable, by the sandbox's user.
    if (dir.empty() || chmod(dir.c_str(), 0711) != 0) {
      dir.clear();
      return "";
    }
  }
  const std::string copy = dir + "/" + std::to_string(made.size());
  const int in = open(file.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  struct stat sb {};
  if (in < 0) return "";
  const int out = open(copy.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0444);
  bool ok = out >= 0 && fstat(in, &sb) == 0 && S_ISREG(sb.st_mode);
  char buf[65536];
  for (ssize_t n; ok && (n = read(in, buf, sizeof(buf))) != 0;)
    ok = n > 0 && write(out, buf, static_cast<size_t>(n)) == n;
  close(in);
  if (out >= 0) close(out);
  if (!ok) {
    unlink(copy.c_str());
    return "";
  }
  return made[file] = copy;
}

}  // namespace idlespec::sandbox
