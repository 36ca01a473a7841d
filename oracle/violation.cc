#include "oracle/violation.h"

namespace idlespec::oracle {

std::set<std::string> clauses_of(const Violations& v) {
  std::set<std::string> out;
  for (const Violation& x : v) out.insert(x.clause);
  return out;
}

std::string summary(const Violations& v) {
  if (v.empty()) return {};
  std::string s = v[0].clause + ": " + v[0].message;
  if (v.size() > 1) s += " (and " + std::to_string(v.size() - 1) + " more)";
  return s;
}

std::string hex(std::span<const uint8_t> bytes) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string s;
  s.reserve(bytes.size() * 2);
  for (uint8_t b : bytes) {
    s.push_back(kDigits[b >> 4]);
    s.push_back(kDigits[b & 15]);
  }
  return s;
}

std::string dec(unsigned __int128 v) {
  std::string s;
  do {
    s.insert(s.begin(), static_cast<char>('0' + static_cast<int>(v % 10)));
    v /= 10;
  } while (v != 0);
  return s;
}

}  // namespace idlespec::oracle
