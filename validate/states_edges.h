// Internal to validate/boundaries.cc: the table of states' Z3 edges built
// into idlespec (validate/states_edges.txt, embedded by CMake from
// validate/states_edges.cc.in) and the hash of the model sources this build
// was compiled from (CMakeLists.txt: IDLESPEC_STATES_MODEL_FILES). The table
// is used only when its own "model" line names this hash.
#pragma once

namespace idlespec::validate {

extern const char* const kShippedStatesEdges;
extern const char* const kStatesModelHash;

}  // namespace idlespec::validate
