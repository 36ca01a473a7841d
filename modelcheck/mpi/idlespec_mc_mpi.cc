// idlespec-mc-mpi: `idlespec model-check` distributed over the ranks of an
// MPI job (Open MPI from Debian: `make mpi-check`, scripts/mpi-check.sh).
// The search is modelcheck/idle_core_distributed.h's Checker::run_distributed;
// this file gives it MPI's collectives. Built only where CMake finds MPI.
//
//   mpirun -np 2 idlespec-mc-mpi idle_core --threads 8 [model-check options]
#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <exception>
#include <iostream>
#include <string>
#include <vector>

#include "cli/args.h"
#include "cli/commands.h"
#include "modelcheck/idle_core_exchange.h"

namespace {

using idlespec::idle_core::mc::Exchange;

class MpiExchange final : public Exchange {
 public:
  MpiExchange() {
    int r = 0, n = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &r);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    rank_ = static_cast<unsigned>(r);
    ranks_ = static_cast<unsigned>(n);
  }
  unsigned rank() const override { return rank_; }
  unsigned ranks() const override { return ranks_; }

  // MPI_Alltoallv counts in int: a large exchange goes in rounds of at most
  // kChunk bytes per pair of ranks.
  void all_to_all(const std::vector<std::vector<uint8_t>>& out,
                  std::vector<std::vector<uint8_t>>& in) override {
    const int n = static_cast<int>(ranks_);
    std::vector<uint64_t> send_sizes(ranks_), recv_sizes(ranks_);
    for (unsigned r = 0; r < ranks_; ++r) send_sizes[r] = out[r].size();
    MPI_Alltoall(send_sizes.data(), 1, MPI_UINT64_T, recv_sizes.data(), 1, MPI_UINT64_T,
                 MPI_COMM_WORLD);
    in.assign(ranks_, {});
    uint64_t largest = 0;
    for (unsigned r = 0; r < ranks_; ++r) {
      in[r].resize(recv_sizes[r]);
      largest = std::max({largest, send_sizes[r], recv_sizes[r]});
    }
    uint64_t rounds = (largest + kChunk - 1) / kChunk;
    MPI_Allreduce(MPI_IN_PLACE, &rounds, 1, MPI_UINT64_T, MPI_MAX, MPI_COMM_WORLD);
    std::vector<int> sc(ranks_), sd(ranks_), rc(ranks_), rd(ranks_);
    std::vector<uint8_t> sbuf, rbuf;
    for (uint64_t k = 0; k < rounds; ++k) {
      const uint64_t from = k * kChunk;
      sbuf.clear();
      int total_r = 0;
      for (int r = 0; r < n; ++r) {
        const uint64_t s_len = send_sizes[r] > from ? std::min(kChunk, send_sizes[r] - from) : 0;
        const uint64_t r_len = recv_sizes[r] > from ? std::min(kChunk, recv_sizes[r] - from) : 0;
        sd[r] = static_cast<int>(sbuf.size());
        sc[r] = static_cast<int>(s_len);
        sbuf.insert(sbuf.end(), out[r].begin() + static_cast<long>(from),
                    out[r].begin() + static_cast<long>(from + s_len));
        rd[r] = total_r;
        rc[r] = static_cast<int>(r_len);
        total_r += rc[r];
      }
      rbuf.resize(static_cast<size_t>(total_r));
      MPI_Alltoallv(sbuf.data(), sc.data(), sd.data(), MPI_BYTE, rbuf.data(), rc.data(), rd.data(),
                    MPI_BYTE, MPI_COMM_WORLD);
      for (int r = 0; r < n; ++r)
        std::copy(rbuf.begin() + rd[r], rbuf.begin() + rd[r] + rc[r],
                  in[r].begin() + static_cast<long>(from));
    }
  }
  uint64_t sum(uint64_t v) override {
    MPI_Allreduce(MPI_IN_PLACE, &v, 1, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
    return v;
  }
  uint64_t max(uint64_t v) override {
    MPI_Allreduce(MPI_IN_PLACE, &v, 1, MPI_UINT64_T, MPI_MAX, MPI_COMM_WORLD);
    return v;
  }

 private:
  static constexpr uint64_t kChunk = uint64_t{1} << 30;
  unsigned rank_ = 0, ranks_ = 1;
};

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int status = 0;
  {
    MpiExchange x;
    std::vector<std::string> args(argv + 1, argv + argc);
    try {
      status = idlespec::cli::model_check_with(args, &x);
    } catch (const idlespec::cli::UsageError& e) {
      if (x.rank() == 0) std::cerr << "idlespec-mc-mpi: " << e.what() << "\n";
      status = 2;
    } catch (const std::exception& e) {
      std::cerr << "idlespec-mc-mpi (rank " << x.rank() << "): " << e.what() << "\n";
      MPI_Abort(MPI_COMM_WORLD, 2);
    }
  }
  MPI_Finalize();
  return status;
}
