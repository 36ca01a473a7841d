// Opening files in directories the code under test can write (issue 47).
//
// The driver runs outside the sandbox, as root in CI, and reads and writes
// files in each run's scratch directory: the jobs' output files, fuzz
// corpora, artifacts, Frama-C's units and reports, what --keep-temp keeps.
// The code under test can write there too, so any name in it may be a
// symlink (to /etc/cron.d/x, to /proc/self/cwd/..., to a root-only file), a
// hard link, a FIFO or a directory by the time the driver opens it. Every
// such open goes through open_untrusted(): from the run's directory (the one
// make_temp_dir made, a child of the temp root the code cannot write), one
// component at a time with O_NOFOLLOW on a directory fd, so no component is
// a symlink (a magic link of /proc is one) and nothing resolves outside that
// directory; what it opens is a regular file with one link, or nothing.
#pragma once

#include <sys/types.h>

#include <string>

namespace idlespec::sandbox {

// The directory made by make_temp_dir that holds `path` (a run's scratch
// area, which the code under test may write), or "" when `path` is outside
// every such directory (the caller's own files: reports, trees, patches).
std::string untrusted_root(const std::string& path);

// open(2) for a file the driver reads or writes. Inside untrusted_root():
// no symlink in any component, no "..", a regular file with a single link
// (else -1 with errno ELOOP / EINVAL / EMLINK); never blocks on a FIFO. A
// path outside every run directory is opened as given. Always O_CLOEXEC.
int open_untrusted(const std::string& path, int flags, mode_t mode = 0644);

// A copy of `file` (the driver's own choice, such as a --candidate library)
// in a directory of the driver's that the code under test cannot write,
// readable by the sandbox's unprivileged user; made once per process and
// file. "" when it cannot be made.
std::string exposed_copy(const std::string& file);

}  // namespace idlespec::sandbox
