#include "verify/layers.h"
#include "verify/registry.h"

namespace idlespec::verify {

Registry& builtin_registry() {
  static Registry registry = [] {
    Registry r;
    register_xcede_proofs(r);
    register_states_proofs(r);
    register_xcede_properties(r);
    register_states_properties(r);
    register_xcede_fuzz(r);
    register_busy_delay_proofs(r);
    register_busy_delay_properties(r);
    register_busy_delay_fuzz(r);
    register_idle_core_model_checks(r);
    register_idle_core_spin(r);
    register_idle_core_proofs(r);
    register_idle_core_properties(r);
    register_idle_core_fuzz(r);
    register_governor_proofs(r);
    register_governor_properties(r);
    register_governor_fuzz(r);
    return r;
  }();
  return registry;
}

}  // namespace idlespec::verify
