// printf-style formatting into a std::string (libstdc++ 12 has no <format>).
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>

namespace idlespec {

template <class... Args>
std::string strprintf(const char* fmt, Args... args) {
  const int n = std::snprintf(nullptr, 0, fmt, args...);
  std::string out(n > 0 ? static_cast<size_t>(n) : 0, '\0');
  if (n > 0) std::snprintf(out.data(), out.size() + 1, fmt, args...);
  return out;
}

}  // namespace idlespec

namespace idlespec {

// Text that the code under test chose (what it printed, a path it tried, a
// line of its source quoted by a compiler), made safe to show anywhere a
// person or a program reads it: the terminal, a CI log, JSON, Markdown,
// HTML. The result is valid UTF-8 with every control character visible
// (\n \r \t \e as such, other C0, DEL and C1 controls as \xNN), invalid
// UTF-8 bytes as \xNN, the bidirectional overrides and isolates that can
// reorder what a reader sees (U+202A-U+202E, U+2066-U+2069) as \u{NNNN},
// and a backslash doubled, so that no two inputs read alike. At most
// `max_bytes` of the input are shown; the rest is counted ("... (N more
// bytes)"). keep_newlines: a line break stays a line break (a compiler's
// many-line message), every other character as above.
std::string untrusted_text(std::string_view raw, size_t max_bytes = 4096,
                           bool keep_newlines = false);

// A report's own text, which may carry the code's bytes inside it (a
// compiler's message quoting a source line, a counterexample with what a
// function printed): the same neutralising as untrusted_text, but line
// breaks, tabs and backslashes stay as they are (the report's own layout).
std::string report_text(std::string_view text, size_t max_bytes = 64 * 1024);

}  // namespace idlespec
