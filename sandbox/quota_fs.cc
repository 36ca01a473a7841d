#include "sandbox/quota_fs.h"

#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
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

long long capped_usage(const std::string& dir) {
  struct stat self {
  }, parent{};
  struct statvfs fs {};
  if (stat(dir.c_str(), &self) != 0 || stat((dir + "/..").c_str(), &parent) != 0 ||
      self.st_dev == parent.st_dev || statvfs(dir.c_str(), &fs) != 0 || fs.f_blocks < fs.f_bfree)
    return -1;
  return static_cast<long long>((fs.f_blocks - fs.f_bfree) * fs.f_frsize);
}

void uncap_directory(const char* dir) { umount2(dir, MNT_DETACH | UMOUNT_NOFOLLOW); }

}  // namespace idlespec::sandbox
