// How a counterexample is shown: its rows on concrete states rendered as a
// timeline, one column per thread.
#pragma once

#include <string>
#include <vector>

#include "impl/idle_core.h"
#include "impl/idle_core_model.h"

namespace idlespec::idle_core::mc {

// One row of a counterexample, on concrete states.
struct TraceRow {
  Move move;
  Pc pc_before = Pc::running;
  Pc pc_after = Pc::running;
  Kind kind = Kind::none;  // the thread's kind during the move
  StepResult result;
  Loss loss = Loss::none;
  uint32_t word_after = 0;
  Ghost ghost_after;
  std::string note;  // e.g. "<- IDLE-3: ..." on the last row, "cycle starts"
};
// The timeline people read: one column per thread (the action the thread
// took, the program point it reached), the word and the hardware after each
// move.
std::string render_timeline(const Config& c, const std::vector<TraceRow>& rows,
                            const CoreState& final_state, const std::string& headline,
                            unsigned max_rows);

}  // namespace idlespec::idle_core::mc
