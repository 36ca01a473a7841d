// idlespec: verify the POWER Linux idle and firmware-interface logic against
// its spec.
#include <exception>
#include <iostream>
#include <string>
#include <vector>

#include "cli/args.h"
#include "cli/commands.h"

namespace {

constexpr const char* kUsage = R"(usage: idlespec COMMAND [options]

commands:
  verify    run every check and report each clause's verdict
  check     run one check: idlespec check KIND NAME [--subject S] [--seed N]
  clauses   list the spec's clauses with their subjects and checks
  decode    decode a firmware buffer: idlespec decode xcede [FILE|-] [options]
  simulate  run a policy against a model: idlespec simulate busy_delay|governor
            [options]
  model-check  explore every interleaving: idlespec model-check idle_core --threads N
  validate  check kernel-style C against the spec: idlespec validate
            (--source FILE.c | --kernel-tree DIR) [--component NAME...]
  review    the clauses a patch changes: idlespec review PATCH --kernel-tree DIR
  matrix    a release x clause table: idlespec matrix [LABEL=]TREE|FILE...
            [--format text|markdown|json]
  help      this text; 'idlespec COMMAND --help' for a command's options

components: xcede, states, busy_delay, idle_core, governor, teo

exit codes (verify, check, validate, review, matrix):
  0  every judged clause held (accepted, n/a and absent allowed)
  1  a clause failed or is uncovered (dominates everything else)
  2  bad command line or unreadable input
  3  nothing failed, but something could not be judged (unknown, error,
     budget spent); --allow-unknown makes it 0
)";

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty() || args[0] == "help" || args[0] == "--help" || args[0] == "-h") {
    std::cout << kUsage;
    return args.empty() ? 2 : 0;
  }
  if (args[0] == "--version") {
    std::cout << "idlespec 0.1.0\n";
    return 0;
  }
  const std::string command = args[0];
  args.erase(args.begin());
  try {
    if (command == "verify") return idlespec::cli::verify_command(args);
    if (command == "check") return idlespec::cli::check_command(args);
    if (command == "clauses") return idlespec::cli::clauses_command(args);
    if (command == "decode") return idlespec::cli::decode_command(args);
    if (command == "simulate") return idlespec::cli::simulate_command(args);
    if (command == "model-check") return idlespec::cli::model_check_command(args);
    if (command == "validate") return idlespec::cli::validate_command(args);
    if (command == "review") return idlespec::cli::review_command(args);
    if (command == "matrix") return idlespec::cli::matrix_command(args);
    std::cerr << "idlespec: unknown command '" << command << "'\n\n" << kUsage;
    return 2;
  } catch (const idlespec::cli::UsageError& e) {
    return idlespec::cli::report_error(command, e.what(), idlespec::cli::wants_json(args));
  } catch (const std::exception& e) {
    return idlespec::cli::report_error(command, std::string("internal error: ") + e.what(),
                                       idlespec::cli::wants_json(args), false);
  }
}
