// Registration entry points, one per layer and component. Each layer's
// library defines its own; verify/builtin_registry.cc calls them all.
#pragma once

#include "verify/registry.h"

namespace idlespec::verify {

void register_xcede_proofs(Registry& r);       // proofs/xcede_*.cc
void register_states_proofs(Registry& r);      // proofs/states_*.cc
void register_xcede_properties(Registry& r);   // properties/xcede_*.cc
void register_states_properties(Registry& r);  // properties/states_*.cc
void register_xcede_fuzz(Registry& r);         // fuzz/xcede_corpus_check.cc (corpus replay)

}  // namespace idlespec::verify
