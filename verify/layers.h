// Registration entry points of the layers. verify/builtin_registry.cc calls
// them all, in the order of its table.
#pragma once

#include "verify/registry.h"

namespace idlespec::verify {

// One per layer, every component in one table each.
void register_properties(Registry& r);    // properties/register.cc (properties, exhaustive scans)
void register_fuzz_replays(Registry& r);  // fuzz/replays.cc (the stored corpora)

// The proof and model-check layers register per component.
void register_xcede_proofs(Registry& r);            // proofs/register.cc
void register_states_proofs(Registry& r);           // proofs/register.cc
void register_busy_delay_proofs(Registry& r);       // proofs/busy_delay_register.cc
void register_idle_core_proofs(Registry& r);        // proofs/idle_core_register.cc
void register_governor_proofs(Registry& r);         // proofs/governor_register.cc
void register_teo_proofs(Registry& r);              // proofs/teo_register.cc
void register_idle_core_model_checks(Registry& r);  // modelcheck/idle_core_register.cc
void register_idle_core_spin(Registry& r);          // modelcheck/idle_core_spin.cc

}  // namespace idlespec::verify
