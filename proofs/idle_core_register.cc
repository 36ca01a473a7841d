// PLACEHOLDER (being written): registers nothing yet.
#include "verify/layers.h"

namespace idlespec::verify {

void register_idle_core_proofs(Registry&) {}

}  // namespace idlespec::verify
