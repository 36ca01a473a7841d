#include "sandbox/quota_fs.h"

#include <sys/mount.h>
#include <unistd.h>

#include "sandbox/sandbox.h"

namespace idlespec::sandbox {

bool cap_directory(const std::string& dir) {
  if (geteuid() != 0 || !sandbox_options().enabled) return false;
  const long long bytes = (static_cast<long long>(sandbox_options().disk_quota_mb) + kQuotaMarginMb)
                          << 20;
  const std::string data = "size=" + std::to_string(bytes) + ",mode=0700";
  return mount("idlespec-scratch", dir.c_str(), "tmpfs", MS_NOSUID | MS_NODEV, data.c_str()) == 0;
}

void uncap_directory(const char* dir) { umount2(dir, MNT_DETACH | UMOUNT_NOFOLLOW); }

}  // namespace idlespec::sandbox
