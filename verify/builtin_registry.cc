#include "verify/layers.h"
#include "verify/registry.h"

namespace idlespec::verify {

Registry& builtin_registry() {
  static Registry registry = [] {
    static constexpr void (*kLayers[])(Registry&) = {
        register_xcede_proofs,           register_states_proofs,   register_busy_delay_proofs,
        register_idle_core_proofs,       register_governor_proofs, register_teo_proofs,
        register_idle_core_model_checks, register_idle_core_spin,  register_properties,
        register_fuzz_replays,
    };
    Registry r;
    for (const auto add : kLayers) add(r);
    return r;
  }();
  return registry;
}

}  // namespace idlespec::verify
