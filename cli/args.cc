#include "cli/args.h"

#include <cerrno>
#include <cstdlib>
#include <sstream>

namespace idlespec::cli {

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

uint64_t Args::get_u64(const std::string& name, uint64_t fallback, uint64_t min,
                       uint64_t max) const {
  const auto v = get(name);
  if (!v) return fallback;
  errno = 0;
  char* end = nullptr;
  const unsigned long long n = std::strtoull(v->c_str(), &end, 0);
  if (v->empty() || *end != '\0' || errno == ERANGE || (*v)[0] == '-' || n < min || n > max) {
    throw UsageError("--" + name + " wants a whole number from " + std::to_string(min) + " to " +
                     std::to_string(max) + ", not '" + *v + "'");
  }
  return n;
}

double Args::get_double(const std::string& name, double fallback) const {
  const auto v = get(name);
  if (!v) return fallback;
  char* end = nullptr;
  const double d = std::strtod(v->c_str(), &end);
  if (v->empty() || *end != '\0' || !(d > 0)) {
    throw UsageError("--" + name + " wants a positive number, not '" + *v + "'");
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
