// idlespec-validate: the standalone front end of `idlespec validate` (the
// same options; see validate/validate.h). `idlespec-validate review ...`
// is `idlespec review ...`.
#include <string>
#include <vector>

#include "validate/validate.h"

#ifndef IDLESPEC_VALIDATE_DIR
#define IDLESPEC_VALIDATE_DIR "validate"
#endif

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  if (!args.empty() && args[0] == "review") {
    args.erase(args.begin());
    return idlespec::validate::review_main(args, IDLESPEC_VALIDATE_DIR);
  }
  return idlespec::validate::validate_main(args, IDLESPEC_VALIDATE_DIR);
}
