// Registers the idle_core checks of the properties layer with verify, as
// spec/idle_core.md lists them under "- Checks:":
//
//   property idle_core_state_machine  IDLE-2, 3, 4, 5, 6, 9  reference
//
// (properties/idle_core_state_machine.h: the RapidCheck state machine against
// the oracle of fuzz/idle_core_oracle.h, per configuration.)
#include "properties/idle_core_state_machine.h"
#include "verify/layers.h"

namespace idlespec::verify {

void register_idle_core_properties(Registry& r) {
  Check c;
  c.kind = CheckKind::property;
  c.name = "idle_core_state_machine";
  c.component = "idle_core";
  c.clauses = props::idle_core_sm::state_machine_clauses();
  c.subjects = {"reference"};
  c.run = [](const std::string& subject, const RunOptions& options) {
    return props::idle_core_sm::run_idle_core_state_machine(subject, options);
  };
  r.add(std::move(c));
}

}  // namespace idlespec::verify
