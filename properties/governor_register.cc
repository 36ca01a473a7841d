// The governor properties as checks of the verify registry.
#include "verify/layers.h"

namespace idlespec::verify {

void register_governor_properties(Registry&) {}

}  // namespace idlespec::verify
