// TEMPORARY stub, replaced by the fuzz layer.
#include "verify/layers.h"
namespace idlespec::verify {
void register_xcede_fuzz(Registry&) {}
}  // namespace idlespec::verify
