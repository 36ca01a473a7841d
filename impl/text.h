// printf-style formatting into a std::string (libstdc++ 12 has no <format>).
#pragma once

#include <cstdio>
#include <string>

namespace idlespec {

template <class... Args>
std::string strprintf(const char* fmt, Args... args) {
  const int n = std::snprintf(nullptr, 0, fmt, args...);
  std::string out(n > 0 ? static_cast<size_t>(n) : 0, '\0');
  if (n > 0) std::snprintf(out.data(), out.size() + 1, fmt, args...);
  return out;
}

}  // namespace idlespec
