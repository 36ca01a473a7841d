// The command lines of `idlespec validate` and `idlespec review` (and of the
// standalone `idlespec-validate`), and the options matrix shares with them.
#pragma once

#include <string>
#include <vector>

#include "validate/validate.h"

namespace idlespec::validate {

// The options validate, review and matrix share, as parsed.
struct CommandLine {
  Options opt;
  bool json = false, help = false;
  std::string junit, sarif, markdown, html, error;
};
// Parses them (positional arguments go to `positional`), checks --junit and
// --sarif paths, prints `usage` for --help. Returns -1 to go on, else the
// exit status (0 after --help, 2 with the message on stderr, and as JSON on
// stdout under --json).
int parse_front_end(const std::vector<std::string>& args, const std::string& harness_dir,
                    const std::string& prog, const char* usage, CommandLine& parsed,
                    std::vector<std::string>& positional);

// The command-line front ends (`idlespec validate ...`, `idlespec review
// ...`, and the standalone `idlespec-validate`). `harness_dir` is the
// default for --harness-dir.
int validate_main(const std::vector<std::string>& args, const std::string& harness_dir);
int review_main(const std::vector<std::string>& args, const std::string& harness_dir);

}  // namespace idlespec::validate
