// idlespec-validate: the standalone front end of `idlespec validate` (the
// same options; see validate/command_line.h). `idlespec-validate review ...`
// is `idlespec review ...`.
#include <string>
#include <vector>

#include "validate/command_line.h"
#include "verify/build_paths.h"

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  if (!args.empty() && args[0] == "review") {
    args.erase(args.begin());
    return idlespec::validate::review_main(args, idlespec::build::harness_dir());
  }
  return idlespec::validate::validate_main(args, idlespec::build::harness_dir());
}
