// Runs SPIN on spec/idle_core.pml, the Promela twin of impl/idle_core_model.h,
// and reads back what it found: shared by the `model-check idle_core_spin`
// check (modelcheck/idle_core_spin.cc) and its ctest
// (modelcheck/idle_core_spin_test.cc).
//
// One run: write the model into a fresh directory under `work_dir`, `spin -a`
// it with the configuration's -D switches, compile pan.c with the C compiler,
// run pan, parse its statistics; on an error, replay the trail (`spin -t`) and
// turn the model's "MOVE ..." lines into the moves of idle_core::describe()
// ("t0 begins sleep", "t0 step (entry_lock)", "core loses state (partial)").
// The directory is removed afterwards unless `keep` is set.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "impl/idle_core.h"

namespace idlespec::spin {

// The model's -D switches.
struct ModelConfig {
  unsigned threads = 2;  // N
  bool power9 = false;   // POWER9
  unsigned subcores = 1;
  bool workaround = true;
  std::vector<std::string> defines;  // further switches, e.g. WITNESS_SKIP_RESYNC

  static ModelConfig from(const idle_core::Config& c);
  std::vector<std::string> spin_flags() const;  // {"-DN=2", "-DSUBCORES=1", ...}
  std::string describe() const;                 // "power8 SMT2", "power8 SMT2 +WITNESS_..."
};

struct Options {
  // Partial-order reduction and statement merging. false: `spin -o3 -a` and
  // pan built with -DNOREDUCE, so that every reachable state is stored once.
  bool reduce = false;
  bool collapse = false;  // pan -DCOLLAPSE (state compression)
  unsigned max_depth = 1000000;
  unsigned hash_bits = 22;  // pan -w
  unsigned memlim_mb = 8192;
  // On an error, search again with pan -i (compiled with -DREACH) for the
  // shortest trail before replaying it.
  bool shortest_trail = true;
  double timeout_seconds = 0;  // the whole run; 0: none
  std::string work_dir;        // parent of the run's directory; empty: the system temp dir
  bool keep = false;           // keep the run's directory (pan.c, pan, the trail, the logs)
};

enum class Status {
  ok,           // pan finished, no error
  violation,    // pan reported an error (assertion, invalid end state): see trail
  incomplete,   // pan finished without error but did not search everything
  timeout,      // cut by Options::timeout_seconds
  unavailable,  // spin or the C compiler is missing
  error,        // anything else: spin rejected the model, cc failed, pan crashed
};
std::string_view status_name(Status s);

struct Result {
  Status status = Status::error;
  std::string message;  // one line: what went wrong, or the figures
  // pan's statistics
  uint64_t states_stored = 0;
  uint64_t states_matched = 0;
  uint64_t transitions = 0;  // pan's "transitions (= stored+matched)"
  uint64_t depth = 0;
  unsigned state_vector_bytes = 0;
  unsigned errors = 0;
  double pan_memory_mb = 0;  // pan's "total actual memory usage"
  double pan_seconds = 0;    // pan's "elapsed time"
  long max_rss_kb = 0;       // pan's peak resident set (the OS's figure)
  double seconds = 0;        // the whole run: spin, cc, pan, replay
  // On a violation:
  std::string assertion;             // "assertion violated tb_valid", "invalid end state"
  std::vector<std::string> clauses;  // clauses named by the model's VIOLATION line, or IDLE-1
                                     // for a deadlock
  std::vector<std::string> trail;    // the moves, then the VIOLATION line
  std::string pan_output;            // pan's full report
  std::string dir;                   // the run's directory (only when kept)
};

// The spin and C compiler executables (PATH lookup; $CC first for the
// compiler), or empty when missing.
std::string find_spin();
std::string find_cc();
// Empty when both are there, else why not.
std::string unavailable_reason();

// Runs the model text `pml` (the contents of spec/idle_core.pml, possibly
// edited) under `config`.
Result run(const std::string& pml, const ModelConfig& config, const Options& options);
// Reads a file whole; false when it cannot.
bool read_text(const std::string& path, std::string& out);

// Reachable states of impl/idle_core_model.h (Subject = Reference) under a
// plain breadth-first search, no symmetry: the figure SPIN's "states,
// stored" must equal with reductions off. `transitions` counts every
// enabled move of every state except a failing test-and-set of the lock
// (a self-loop in C++, a wait in the model), so that pan's transition count
// equals transitions + 1 (pan counts the initial state as one).
struct Reachable {
  uint64_t states = 0;
  uint64_t transitions = 0;
  std::string bug;  // a kernel assertion a move fired, if any
};
Reachable explore_reference(const idle_core::Config& c);

}  // namespace idlespec::spin
