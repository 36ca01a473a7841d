// TEMPORARY stubs, replaced by the proofs layer.
#include "verify/layers.h"
namespace idlespec::verify {
void register_xcede_proofs(Registry&) {}
void register_states_proofs(Registry&) {}
}  // namespace idlespec::verify
