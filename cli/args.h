// A small command-line parser: options are declared with their help text, so
// that parsing, errors and `--help` come from one table.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace idlespec::cli {

// A usage error: printed with the command's usage line, exit status 2.
struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Whether the command line asks for JSON output (--json).
bool wants_json(const std::vector<std::string>& argv);

// Prints an error that ends a command before it ran: on stderr as
// "idlespec COMMAND: MESSAGE" (a usage error adds the pointer to --help) and,
// when `json`, also on stdout as {"error":"MESSAGE","exit_code":2} (the shape
// of validate's and review's usage errors), so that a script reading stdout
// gets JSON. Returns 2, the exit status.
int report_error(const std::string& command, const std::string& message, bool json,
                 bool usage = true);

class Args {
 public:
  Args(std::string command, std::string synopsis)
      : command_(std::move(command)), synopsis_(std::move(synopsis)) {}

  // Declares --name (a flag) or --name VALUE (repeatable if `repeat`).
  Args& flag(const std::string& name, const std::string& help);
  Args& option(const std::string& name, const std::string& metavar, const std::string& help,
               bool repeat = false);

  // Parses argv; positional arguments are collected in order. Throws UsageError.
  void parse(const std::vector<std::string>& argv);

  bool has(const std::string& name) const;
  std::optional<std::string> get(const std::string& name) const;
  std::vector<std::string> all(const std::string& name) const;
  const std::vector<std::string>& positional() const { return positional_; }

  // Typed getters; throw UsageError naming the option on a bad value.
  uint64_t get_u64(const std::string& name, uint64_t fallback, uint64_t min = 0,
                   uint64_t max = UINT64_MAX) const;
  double get_double(const std::string& name, double fallback) const;

  std::string help() const;
  bool wants_help() const { return help_; }

 private:
  struct Spec {
    std::string metavar;  // empty: a flag
    std::string help;
    bool repeat = false;
  };
  std::string command_;
  std::string synopsis_;
  std::vector<std::string> order_;
  std::map<std::string, Spec> specs_;
  std::map<std::string, std::vector<std::string>> values_;
  std::vector<std::string> positional_;
  bool help_ = false;
};

}  // namespace idlespec::cli
