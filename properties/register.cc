// TEMPORARY stubs, replaced by the properties layer.
#include "verify/layers.h"
namespace idlespec::verify {
void register_xcede_properties(Registry&) {}
void register_states_properties(Registry&) {}
}  // namespace idlespec::verify
