// fuzz-replay governor_fuzz: the stored corpus judged per subject.
#include "verify/layers.h"

namespace idlespec::verify {

void register_governor_fuzz(Registry&) {}

}  // namespace idlespec::verify
