// What the sandbox's parts share (sandbox.cc, child_setup.cc, view.cc,
// seccomp_filter.cc, supervisor*.cc, process.cc): path helpers, the child's
// set-up before exec, the bwrap view and the seccomp filter. Not for
// callers outside sandbox/; their interface is sandbox.h and process.h.
#pragma once

#include <linux/audit.h>
#include <sys/resource.h>
#include <sys/types.h>

#include <string>
#include <utility>
#include <vector>

#include "sandbox/process.h"

// The seccomp filter's architecture, which the supervisor checks each call
// against (a call through another ABI is reported).
#if defined(__x86_64__)
#define IDLESPEC_AUDIT_ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define IDLESPEC_AUDIT_ARCH AUDIT_ARCH_AARCH64
#elif defined(__powerpc64__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define IDLESPEC_AUDIT_ARCH AUDIT_ARCH_PPC64LE
#elif defined(__powerpc64__)
#define IDLESPEC_AUDIT_ARCH AUDIT_ARCH_PPC64
#endif

namespace idlespec::sandbox {

constexpr uid_t kNobody = 65534;

// --- paths (sandbox.cc) ---
// `name` as PATH finds it; `name` itself when it has a '/' or is not found.
std::string resolve_in_path(const std::string& name);
// bwrap: $IDLESPEC_BWRAP, else from PATH.
std::string bwrap_path();
// Where make_temp_dir makes its directories: $IDLESPEC_TMPDIR or /tmp.
std::string temp_root();
// `path` is `dir` or below it (lexically).
bool under(const std::string& path, const std::string& dir);
// "/a/./b//c/../d" -> "/a/b/d" (lexically; symlinks are the sandbox's business).
std::string normalise(const std::string& path);

// --- the child before exec (child_setup.cc) ---
bool speaks_protocol_fd(const std::string& exe);
int pick_protocol_fd();
std::vector<std::string> sandbox_environment(
    const std::vector<std::pair<std::string, std::string>>& env);
std::vector<std::string> merged_environment(
    const std::vector<std::pair<std::string, std::string>>& env);
struct Limits {
  rlim_t nproc = RLIM_INFINITY, fsize = RLIM_INFINITY, cpu = RLIM_INFINITY;
  bool set = false;
};
Limits limits_for(const Job& job, bool sandboxed);
void apply_limits(const Limits& l);
bool drop_to_nobody();
void give_to_nobody(const std::string& dir);

// --- the view (view.cc) ---
// Under the toolchain's directories or the loader's files that every run sees.
bool in_system_view(const std::string& p);
std::vector<std::string> exposed_for(const std::vector<std::string>& argv,
                                     const std::vector<std::string>& reads,
                                     const std::string& scratch, bool binds);
std::vector<std::string> bwrap_command(const std::vector<std::string>& argv,
                                       const std::vector<std::string>& reads,
                                       const std::string& scratch, bool tool);

// --- the seccomp filter (seccomp_filter.cc) ---
bool install_supervised_filter(int sock);
int receive_fd(pid_t child, int sock, int timeout_ms);

}  // namespace idlespec::sandbox
