// Internal to validate/: inputs chosen by Z3 at the boundaries of every
// branch of the spec model, for the input-driven components.
//
// The spec model is impl/'s code instantiated with proofs/z3_domain.h (the
// same templates production runs with concrete integers). A branch is one
// valuation of the model's decision flags (for xcede: header_ok, size_ok,
// short_payload, partial_record, over_capacity, truncated, nul_missing; for
// states: each record's zero_latency / too_large fate and the order of the
// two latencies); every valuation is asked of Z3, and each satisfiable one
// gives the inputs at its edges: the smallest and the largest value of the
// branch's defining quantity (payload_size; a record's tick count), each
// with the shortest buffer. Infeasible valuations are counted, not
// reported. The inputs then go through the kernel code like every other
// input, so a branch the kernel code gets wrong at its edge fails there.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace idlespec::validate {

struct BoundaryInput {
  std::vector<uint8_t> payload;  // xcede: the parameter buffer as firmware hands it over
  std::vector<uint64_t> ticks;   // states: record latencies in timebase ticks
  std::vector<int> statuses;     // xcede: the RTAS status script (last one final)
  std::string branch;            // "size_ok partial_record, payload_size min"
};

struct Boundaries {
  std::vector<BoundaryInput> inputs;
  unsigned valuations = 0;  // flag valuations asked
  unsigned feasible = 0;    // of them satisfiable: the model's branches
  unsigned unknown = 0;     // Z3 gave no answer within its time limit
  unsigned not_asked = 0;   // questions (valuations, extremes) left when the time ran out
  double seconds = 0;
  std::string error;        // Z3 failed outright (the other inputs still run)
  std::string cached_from;  // states: Z3's answers read from this table (re-checked)
  bool shipped = false;     // ... the one built into idlespec
  bool reused = false;      // xcede: the answer already asked for in this process

  // "Z3: 26 boundary inputs for 13 feasible branches of 128 flag valuations (0.4 s)"
  std::string summary() const;
};

// The xcede decoder's branches for buffers of at most `max_len` bytes, with
// the kernel's `capacity` records; each payload with status script "0", and
// the status scripts at the edges of the busy-delay model's retried and
// failing branches (with a valid payload). Within `seconds`: no question
// is asked after them and none runs past them (the rest are counted as
// not asked), so the stage keeps to its share of the part's --budget.
Boundaries xcede_boundaries(uint32_t capacity, uint32_t max_len, double seconds = 1e18);

// The CEDE(0) fix-up's branches for two records at `tb_hz`: each record's
// latency zero, usable or too large for cpuidle, and their order. Z3's
// answers come from the table built into idlespec when it describes this
// build's model at `tb_hz` (and `use_shipped`), else from this executable's
// cache, else from Z3 (validate/boundaries.cc: what is kept, how it is
// re-checked).
Boundaries states_boundaries(uint64_t tb_hz, bool use_shipped = true);

// The table of states' edges as Z3 answers now for this build's model at
// `tb_hz` (about 10 s), in the format of validate/states_edges.txt; "" and
// `error` set when Z3 failed or gave no answer to a query.
std::string states_edges_from_z3(uint64_t tb_hz, std::string& error);
// The table built into idlespec (validate/states_edges.txt as it was at
// configure time).
const char* shipped_states_edges();
// Whether `table` (a states edges table's text) is one states_boundaries()
// would believe for `tb_hz`: this build's model, every edge re-checked.
bool states_edges_believed(const std::string& table, uint64_t tb_hz);

// idlespec's cache directory: $IDLESPEC_CACHE_DIR ("off" or empty: none),
// else $XDG_CACHE_HOME/idlespec, else $HOME/.cache/idlespec.
std::string cache_dir();

// Where states_boundaries() keeps Z3's answers for `tb_hz` for the next run
// of this executable, "" when nowhere (IDLESPEC_CACHE_DIR "off" or empty, no
// home). validate/boundaries.cc says what is kept and how it is re-checked.
std::string states_cache_path(uint64_t tb_hz);

}  // namespace idlespec::validate
