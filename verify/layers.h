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
void register_busy_delay_proofs(Registry& r);      // proofs/busy_delay_*.cc
void register_busy_delay_properties(Registry& r);  // properties/busy_delay_*.cc (+ exhaustive)
void register_busy_delay_fuzz(Registry& r);        // fuzz/busy_delay_corpus_check.cc
void register_idle_core_model_checks(Registry& r);  // modelcheck/idle_core_register.cc
void register_idle_core_spin(Registry& r);          // modelcheck/idle_core_spin.cc
void register_idle_core_proofs(Registry& r);        // proofs/idle_core_*.cc
void register_idle_core_properties(Registry& r);    // properties/idle_core_*.cc
void register_idle_core_fuzz(Registry& r);          // fuzz/idle_core_corpus_check.cc
void register_governor_proofs(Registry& r);         // proofs/governor_register.cc
void register_governor_properties(Registry& r);     // properties/governor_register.cc
void register_governor_fuzz(Registry& r);           // fuzz/governor_corpus_check.cc

}  // namespace idlespec::verify
