// The disk quota as a hard limit (issue 47).
//
// A run's scratch directory is the only host directory the code under test
// may write. Run as root (as CI runs), the driver mounts a tmpfs of a fixed
// size on it as soon as make_temp_dir() makes it, so no write, fallocate or
// file count of the code can take more than that from the host: the kernel
// answers ENOSPC past the cap, whatever the supervisor's 100 ms look at the
// disk use saw. The cap is the disk quota (SandboxOptions::disk_quota_mb)
// and a margin for the driver's own files (the harness binaries it builds
// there), so that going past the quota stays the finding it is. Without
// root (or where mount(2) is refused), and with --keep-temp (whose files
// must outlive the process, so a tmpfs would stay mounted for good), the
// quota is the supervisor's look and RLIMIT_FSIZE, as docs/security.md says.
#pragma once

#include <string>

namespace idlespec::sandbox {

// The margin beyond the quota for the driver's own files (MiB).
constexpr long kQuotaMarginMb = 128;

// Mount the capped tmpfs on the empty directory `dir`; false when not
// root, the sandbox is off, or the mount is refused (nothing changes then).
bool cap_directory(const std::string& dir);

// The bytes in use on the tmpfs cap_directory mounted on `dir` (what the
// code's unlinked but open files hold too, which no walk of the directory
// sees), or -1 when `dir` is no mount point of its own.
long long capped_usage(const std::string& dir);

// Undo cap_directory before `dir` is removed (a lazy unmount: a process
// still in it keeps what it has open). Async-signal-safe; harmless on a
// directory that was never capped.
void uncap_directory(const char* dir);

}  // namespace idlespec::sandbox
