// `idlespec validate` and `idlespec review`: the front ends live in
// validate/validate.cc (shared with the standalone idlespec-validate).
#include "cli/commands.h"
#include "validate/validate.h"

#ifndef IDLESPEC_VALIDATE_DIR
#define IDLESPEC_VALIDATE_DIR "validate"
#endif

namespace idlespec::cli {

int validate_command(const std::vector<std::string>& argv) {
  return validate::validate_main(argv, IDLESPEC_VALIDATE_DIR);
}

int review_command(const std::vector<std::string>& argv) {
  return validate::review_main(argv, IDLESPEC_VALIDATE_DIR);
}

}  // namespace idlespec::cli
