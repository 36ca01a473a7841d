// The idlespec subcommands. Each returns the process exit status: 0 every
// judged clause held, 1 a clause or check failed, 2 usage or input error,
// 3 nothing failed but something could not be judged.
#pragma once

#include <string>
#include <vector>

namespace idlespec::cli {

int verify_command(const std::vector<std::string>& argv);
int check_command(const std::vector<std::string>& argv);
int clauses_command(const std::vector<std::string>& argv);
int decode_command(const std::vector<std::string>& argv);
int simulate_command(const std::vector<std::string>& argv);
int model_check_command(const std::vector<std::string>& argv);
}  // namespace idlespec::cli
namespace idlespec::idle_core::mc {
class Exchange;
}
namespace idlespec::cli {
// model-check over the ranks of a distributed search (idlespec-mc-mpi), or
// in one process (ranks == nullptr: model_check_command).
int model_check_with(const std::vector<std::string>& argv, idle_core::mc::Exchange* ranks);
int validate_command(const std::vector<std::string>& argv);
int review_command(const std::vector<std::string>& argv);
int matrix_command(const std::vector<std::string>& argv);

}  // namespace idlespec::cli
