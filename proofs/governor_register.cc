// The governor proofs as checks of the verify registry (filled in by the
// governor proofs).
#include "verify/layers.h"

namespace idlespec::verify {

void register_governor_proofs(Registry&) {}

}  // namespace idlespec::verify
