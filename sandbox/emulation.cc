// Foreign programs under qemu-user: emulation.h.
#include "sandbox/emulation.h"

#include <elf.h>
#include <fcntl.h>
#include <unistd.h>

#include <cstring>

namespace idlespec::sandbox {

namespace {

// The machine and byte order of a 64-bit ELF file (false: not one).
bool elf_machine(const std::string& path, unsigned& machine, unsigned char& data) {
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  unsigned char h[sizeof(Elf64_Ehdr)];
  const ssize_t n = read(fd, h, sizeof h);
  close(fd);
  if (n != static_cast<ssize_t>(sizeof h) || std::memcmp(h, ELFMAG, SELFMAG) != 0 ||
      h[EI_CLASS] != ELFCLASS64)
    return false;
  data = h[EI_DATA];
  // e_machine, in the file's own byte order.
  const unsigned lo = h[18], hi = h[19];
  machine = data == ELFDATA2MSB ? (lo << 8 | hi) : (hi << 8 | lo);
  return true;
}

}  // namespace

Emulation emulation_for(const std::string& exe) {
  static const auto self = [] {
    std::pair<unsigned, unsigned char> m{0, 0};
    elf_machine("/proc/self/exe", m.first, m.second);
    return m;
  }();
  unsigned machine = 0;
  unsigned char data = 0;
  if (!elf_machine(exe, machine, data)) return {};
  if (machine == self.first && data == self.second) return {};
  if (machine == EM_PPC64 && data == ELFDATA2MSB) return {"ppc64", "qemu-ppc64"};
  if (machine == EM_PPC64 && data == ELFDATA2LSB) return {"ppc64le", "qemu-ppc64le"};
  return {};
}

}  // namespace idlespec::sandbox
