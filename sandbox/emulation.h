// Programs built for another architecture than the driver's (issue 37): a
// harness cross-compiled for big-endian ppc64 or for ppc64le runs under
// qemu-user (qemu-ppc64, qemu-ppc64le), inside the same sandbox and
// supervisor as a native one. run_jobs (process.cc) looks at each code
// under test's ELF header and starts the emulator with the program as its
// argument; nothing else of a job changes.
//
// qemu-user ignores the guest's setrlimit(RLIMIT_AS) (it pretends success),
// so the harness's own memory limit (IDLESPEC_MEMORY_MB, harness/shims/
// kernel.h) does not bind under it: the limit is put on the emulator's
// process instead, as the job's limit plus what qemu itself needs
// (kEmulatorOverheadMb: its 128 MiB JIT buffer, its heap, the guest stack;
// measured: qemu-ppc64 7.2 cannot start a static harness within 200 MiB,
// and does within 400 MiB).
#pragma once

#include <string>

namespace idlespec::sandbox {

struct Emulation {
  std::string arch;      // "ppc64" (big-endian), "ppc64le"; "" native or not an ELF program
  std::string emulator;  // "qemu-ppc64", "qemu-ppc64le"
};

// What runs `exe`: {} for a program of the driver's own machine and byte
// order (or a file that is not a 64-bit ELF program), else the qemu-user
// emulator for its machine.
Emulation emulation_for(const std::string& exe);

constexpr long kEmulatorOverheadMb = 512;

}  // namespace idlespec::sandbox
