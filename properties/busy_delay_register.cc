// PLACEHOLDER (being written): registers nothing yet.
#include "verify/layers.h"

namespace idlespec::verify {

void register_busy_delay_properties(Registry&) {}

}  // namespace idlespec::verify
