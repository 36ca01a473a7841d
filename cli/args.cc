#include "cli/args.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <iostream>
#include <sstream>

#include "verify/report_format.h"

namespace idlespec::cli {

bool wants_json(const std::vector<std::string>& argv) {
  for (const auto& a : argv)
    if (a == "--json") return true;
  return false;
}

int report_error(const std::string& command, const std::string& message, bool json, bool usage) {
  std::cerr << "idlespec " << command << ": " << message;
  if (usage) std::cerr << "\n(see 'idlespec " << command << " --help')";
  std::cerr << "\n";
  if (json) std::cout << verify::json_error(message, 2);
  return 2;
}

Args& Args::flag(const std::string& name, const std::string& help) {
  order_.push_back(name);
  specs_[name] = Spec{"", help, false};
  return *this;
}

Args& Args::option(const std::string& name, const std::string& metavar, const std::string& help,
                   bool repeat) {
  order_.push_back(name);
  specs_[name] = Spec{metavar, help, repeat};
  return *this;
}

void Args::parse(const std::vector<std::string>& argv) {
  for (size_t i = 0; i < argv.size(); ++i) {
    const std::string& a = argv[i];
    if (a == "-h" || a == "--help") {
      help_ = true;
      continue;
    }
    if (a.size() > 2 && a.rfind("--", 0) == 0) {
      std::string name = a.substr(2);
      std::optional<std::string> inline_value;
      if (const auto eq = name.find('='); eq != std::string::npos) {
        inline_value = name.substr(eq + 1);
        name = name.substr(0, eq);
      }
      const auto it = specs_.find(name);
      if (it == specs_.end()) throw UsageError("unknown option --" + name);
      if (it->second.metavar.empty()) {
        if (inline_value) throw UsageError("--" + name + " takes no value");
        values_[name].push_back("");
        continue;
      }
      std::string value;
      if (inline_value) {
        value = *inline_value;
      } else {
        if (i + 1 >= argv.size())
          throw UsageError("--" + name + " needs a value (" + it->second.metavar + ")");
        value = argv[++i];
      }
      if (!it->second.repeat && values_.count(name)) throw UsageError("--" + name + " given twice");
      values_[name].push_back(value);
      continue;
    }
    positional_.push_back(a);
  }
}

bool Args::has(const std::string& name) const { return values_.count(name) > 0; }

std::optional<std::string> Args::get(const std::string& name) const {
  const auto it = values_.find(name);
  if (it == values_.end() || it->second.empty()) return std::nullopt;
  return it->second.back();
}

std::vector<std::string> Args::all(const std::string& name) const {
  const auto it = values_.find(name);
  return it == values_.end() ? std::vector<std::string>{} : it->second;
}

namespace {

// A plain decimal number: digits only (no sign, no white space, no 0x), and
// no leading zero (010 is neither read as octal nor silently as ten).
bool plain_decimal(const std::string& v) {
  if (v.empty() || (v.size() > 1 && v[0] == '0')) return false;
  for (char c : v)
    if (c < '0' || c > '9') return false;
  return true;
}

// A plain decimal number with an optional fraction: 2, 0.5, 10.25, .5.
bool plain_decimal_fraction(const std::string& v) {
  const size_t dot = v.find('.');
  const std::string whole = v.substr(0, dot);
  const std::string frac = dot == std::string::npos ? "" : v.substr(dot + 1);
  if (whole.empty() && frac.empty()) return false;
  if (!whole.empty() && !plain_decimal(whole)) return false;
  for (char c : frac)
    if (c < '0' || c > '9') return false;
  return true;
}

}  // namespace

uint64_t Args::get_u64(const std::string& name, uint64_t fallback, uint64_t min,
                       uint64_t max) const {
  const auto v = get(name);
  if (!v) return fallback;
  errno = 0;
  const unsigned long long n = plain_decimal(*v) ? std::strtoull(v->c_str(), nullptr, 10) : 0;
  if (!plain_decimal(*v) || errno == ERANGE || n < min || n > max) {
    throw UsageError("--" + name + " wants a whole number from " + std::to_string(min) + " to " +
                     std::to_string(max) + ", in plain decimal (no sign, spaces or leading " +
                     "zeros), not '" + *v + "'");
  }
  return n;
}

double Args::get_double(const std::string& name, double fallback) const {
  const auto v = get(name);
  if (!v) return fallback;
  const double d = plain_decimal_fraction(*v) ? std::strtod(v->c_str(), nullptr) : 0;
  if (!plain_decimal_fraction(*v) || !(d > 0) || !std::isfinite(d)) {
    throw UsageError("--" + name +
                     " wants a positive number, in plain decimal (no sign, spaces or leading "
                     "zeros), not '" +
                     *v + "'");
  }
  return d;
}

std::string Args::help() const {
  std::ostringstream out;
  out << "usage: idlespec " << command_ << " " << synopsis_ << "\n\noptions:\n";
  for (const auto& name : order_) {
    const Spec& s = specs_.at(name);
    std::string left = "  --" + name + (s.metavar.empty() ? "" : " " + s.metavar);
    if (left.size() < 28)
      left.resize(28, ' ');
    else
      left += "\n" + std::string(28, ' ');
    out << left << s.help << "\n";
  }
  out << "  -h, --help                this text\n";
  return out.str();
}

}  // namespace idlespec::cli
