#include "cli/input.h"

#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "sandbox/process.h"

namespace idlespec::cli {

std::string read_input(const std::string& path, std::string& out) {
  out.clear();
  if (path != "-") return sandbox::read_input_file(path, kInputLimit, out);
  // stdin may be a pipe or a terminal: read_input_file refuses those, so
  // it is read here, never past the limit.
  std::string buf(kInputLimit + 1, '\0');
  size_t got = 0;
  while (got < buf.size()) {
    const ssize_t n = read(0, buf.data() + got, buf.size() - got);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return std::string("cannot read stdin: ") + std::strerror(errno);
    if (n == 0) break;
    got += static_cast<size_t>(n);
  }
  if (got > kInputLimit)
    return "stdin is larger than the " + std::to_string(kInputLimit >> 20) + " MiB input limit";
  buf.resize(got);
  out = std::move(buf);
  return "";
}

std::string escape_input_text(std::string_view text) {
  std::string out;
  const auto hex = [&](unsigned char c) {
    static const char digits[] = "0123456789abcdef";
    out += "\\x";
    out += digits[c >> 4];
    out += digits[c & 15];
  };
  for (size_t i = 0; i < text.size();) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c == '\\') {
      out += "\\\\";
      ++i;
      continue;
    }
    if (c < 0x20 || c == 0x7f) {
      hex(c);
      ++i;
      continue;
    }
    if (c < 0x80) {
      out += static_cast<char>(c);
      ++i;
      continue;
    }
    // A UTF-8 sequence: its length from the lead byte, continuation bytes
    // 10xxxxxx, no overlong form, no surrogate, nothing past U+10FFFF.
    const size_t len = c >= 0xc2 && c <= 0xdf   ? 2
                       : c >= 0xe0 && c <= 0xef ? 3
                       : c >= 0xf0 && c <= 0xf4 ? 4
                                                : 0;
    bool ok = len > 0 && i + len <= text.size();
    for (size_t k = 1; ok && k < len; ++k)
      ok = (static_cast<unsigned char>(text[i + k]) & 0xc0) == 0x80;
    if (ok && len >= 3) {
      const auto c1 = static_cast<unsigned char>(text[i + 1]);
      if ((c == 0xe0 && c1 < 0xa0) || (c == 0xed && c1 >= 0xa0) || (c == 0xf0 && c1 < 0x90) ||
          (c == 0xf4 && c1 >= 0x90))
        ok = false;
    }
    if (!ok) {
      hex(c);
      ++i;
      continue;
    }
    out.append(text.substr(i, len));
    i += len;
  }
  return out;
}

}  // namespace idlespec::cli
