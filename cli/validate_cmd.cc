// `idlespec validate` and `idlespec review`: the front ends live in
// validate/command_line.cc (shared with the standalone idlespec-validate).
#include "cli/commands.h"
#include "validate/command_line.h"
#include "verify/build_paths.h"

namespace idlespec::cli {

int validate_command(const std::vector<std::string>& argv) {
  return validate::validate_main(argv, idlespec::build::harness_dir());
}

int review_command(const std::vector<std::string>& argv) {
  return validate::review_main(argv, idlespec::build::harness_dir());
}

}  // namespace idlespec::cli
