// IDLE-8, the checker's liveness clause: the unreduced state graph the
// search records, and the search for a strongly fair cycle on it on which
// a woken thread never returns to running.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "impl/idle_core.h"

namespace idlespec::idle_core::mc {

// The unreduced state graph for the liveness analysis (CSR, in store order).
struct Graph {
  std::vector<uint64_t> offsets{0};  // edges of state i: [offsets[i], offsets[i+1])
  std::vector<uint32_t> targets;
  std::vector<uint8_t> labels;  // pack_move | 0x80 when the step spun
  std::vector<uint8_t> waking;  // bit t: thread t on its wake path
};
// IDLE-8: a reachable strongly fair cycle on which thread `thread` stays on
// its wake path. Returns false if none; else the cycle's first state (prefix:
// parents in the store) and the cycle as (label, target) edges back to it.
struct Lasso {
  unsigned thread = 0;
  uint32_t entry = 0;
  std::vector<std::pair<uint8_t, uint32_t>> cycle;
  uint64_t scc_size = 0;
};
bool analyse_liveness(const Config& c, const Graph& g, bool fair_environment, Lasso& out,
                      uint64_t* sccs_examined);

}  // namespace idlespec::idle_core::mc
