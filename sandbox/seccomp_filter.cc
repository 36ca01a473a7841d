// The seccomp filter every sandboxed process runs under: the system calls
// it hands to the supervisor (supervisor.h), its installation in the child,
// and the hand-over of its listener to the driver.
#include <fcntl.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <poll.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>

#include "sandbox/internal.h"

namespace idlespec::sandbox {

// The calls the supervisor judges. ptrace among them: no harness traces
// (LeakSanitizer, which would, is off in every run: detect_leaks=0), and a
// trace of another process of the sandbox (bwrap's init, say) would let
// the code under test act through it.
namespace {

const long kWatched[] = {
    SYS_ptrace,
#ifdef SYS_open
    SYS_open,
#endif
#ifdef SYS_creat
    SYS_creat,
#endif
    SYS_openat,
#ifdef SYS_openat2
    SYS_openat2,
#endif
    SYS_execve,
    SYS_execveat,
    SYS_connect,
    SYS_bind,
    SYS_sendto,
    SYS_sendmsg,
#ifdef SYS_sendmmsg
    SYS_sendmmsg,
#endif
    SYS_kill,
    SYS_tkill,
    SYS_tgkill,
    SYS_rt_sigqueueinfo,
    SYS_rt_tgsigqueueinfo,
#ifdef SYS_pidfd_send_signal
    SYS_pidfd_send_signal,
#endif
#ifdef SYS_fork
    SYS_fork,
#endif
#ifdef SYS_vfork
    SYS_vfork,
#endif
    SYS_clone,
#ifdef SYS_clone3
    SYS_clone3,
#endif
    SYS_process_vm_readv,
    SYS_process_vm_writev,
    SYS_mount,
    SYS_umount2,
    SYS_pivot_root,
    SYS_chroot,
    SYS_unshare,
    SYS_setns,
    SYS_init_module,
    SYS_finit_module,
    SYS_delete_module,
    SYS_kexec_load,
    SYS_reboot,
    SYS_bpf,
    SYS_perf_event_open,
    SYS_keyctl,
    SYS_add_key,
    SYS_request_key,
    SYS_name_to_handle_at,
    SYS_open_by_handle_at,
#ifdef SYS_io_uring_setup
    SYS_io_uring_setup,
#endif
#ifdef SYS_userfaultfd
    SYS_userfaultfd,
#endif
#ifdef SYS_mknod
    SYS_mknod,
#endif
    SYS_mknodat,
#ifdef SYS_symlink
    SYS_symlink,
#endif
    SYS_symlinkat,
#ifdef SYS_link
    SYS_link,
#endif
    SYS_linkat,
#ifdef SYS_rename
    SYS_rename,
#endif
    SYS_renameat,
#ifdef SYS_renameat2
    SYS_renameat2,
#endif
#ifdef SYS_unlink
    SYS_unlink,
#endif
    SYS_unlinkat,
#ifdef SYS_mkdir
    SYS_mkdir,
#endif
    SYS_mkdirat,
#ifdef SYS_rmdir
    SYS_rmdir,
#endif
#ifdef SYS_truncate
    SYS_truncate,
#endif
#ifdef SYS_chmod
    SYS_chmod,
#endif
    SYS_fchmodat,
#ifdef SYS_chown
    SYS_chown,
#endif
    SYS_fchownat,
};
constexpr size_t kNWatched = sizeof(kWatched) / sizeof(kWatched[0]);

}  // namespace

// Build and install the filter, send its listener over `sock`. Called in the
// child between fork and exec: no allocation.
bool install_supervised_filter(int sock) {
#ifndef IDLESPEC_AUDIT_ARCH
  (void)sock;
  return false;
#else
  sock_filter prog[8 + 2 * kNWatched];
  size_t n = 0;
  prog[n++] = BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, arch));
  // A call through another ABI (int $0x80 on x86-64) goes to the
  // supervisor, which reports it: not for a harness, and a way around a
  // policy written for one table of call numbers.
  prog[n++] = BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, IDLESPEC_AUDIT_ARCH, 1, 0);
  prog[n++] = BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_USER_NOTIF);
  prog[n++] = BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, nr));
#if defined(__x86_64__)
  // x32 system calls (nr | 0x40000000): the same.
  prog[n++] = BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, 0x40000000u, 0, 1);
  prog[n++] = BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_USER_NOTIF);
#endif
  for (size_t i = 0; i < kNWatched; ++i) {
    prog[n++] = BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, static_cast<uint32_t>(kWatched[i]), 0, 1);
    prog[n++] = BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_USER_NOTIF);
  }
  prog[n++] = BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
  sock_fprog fprog{static_cast<unsigned short>(n), prog};
  if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) return false;
  const long fd =
      syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_NEW_LISTENER, &fprog);
  if (fd < 0) return false;
  // The driver takes the listener with pidfd_getfd (a sendmsg would wait
  // for the supervisor it is handing over): its number, then the ack.
  const int lfd = static_cast<int>(fd);
  const bool sent = write(sock, &lfd, sizeof(lfd)) == static_cast<ssize_t>(sizeof(lfd));
  char ack = 0;
  const bool acked = sent && read(sock, &ack, 1) == 1 && ack == 'K';
  close(lfd);  // the code under test must not hold its own supervisor
  close(sock);
  return acked;
#endif
}

int receive_fd(pid_t child, int sock, int timeout_ms) {
  pollfd p{sock, POLLIN, 0};
  if (poll(&p, 1, timeout_ms) <= 0) return -1;
  int num = -1;
  if (read(sock, &num, sizeof(num)) != static_cast<ssize_t>(sizeof(num)) || num < 0) return -1;
  const int pidfd = static_cast<int>(syscall(SYS_pidfd_open, child, 0));
  if (pidfd < 0) return -1;
  const int fd = static_cast<int>(syscall(SYS_pidfd_getfd, pidfd, num, 0));
  close(pidfd);
  if (fd < 0) return -1;
  fcntl(fd, F_SETFD, FD_CLOEXEC);
  const char ack = 'K';
  if (write(sock, &ack, 1) != 1) {
    close(fd);
    return -1;
  }
  return fd;
}

}  // namespace idlespec::sandbox
