// Registers the governor checks of the properties layer with verify, as
// spec/governor.md lists them under "- Checks:", each for every subject
// (v6.14, seed-v2, seed-threshold, reference, v6.19):
//
//   property governor_selection        GOV-1, 2, 3, 4, 7
//   property governor_wakeup_sequence  GOV-1, 2, 3, 4, 5, 8
//   property governor_predictor_exact  GOV-5
//   property governor_monotonic        GOV-6
#include "properties/governor_properties.h"
#include "verify/layers.h"

namespace idlespec::verify {

void register_governor_properties(Registry& r) {
  const std::vector<std::string> subjects = {"v6.14", "seed-v2", "seed-threshold", "reference",
                                             "v6.19"};
  const auto property = [&](std::string name, std::vector<std::string> clauses) {
    Check c;
    c.kind = CheckKind::property;
    c.name = name;
    c.component = "governor";
    c.clauses = std::move(clauses);
    c.subjects = subjects;
    c.run = [name](const std::string& subject, const RunOptions& options) {
      return props::gov::run_governor_property(name, subject, options);
    };
    r.add(std::move(c));
  };
  property("governor_selection", {"GOV-1", "GOV-2", "GOV-3", "GOV-4", "GOV-7"});
  property("governor_wakeup_sequence", {"GOV-1", "GOV-2", "GOV-3", "GOV-4", "GOV-5", "GOV-8"});
  property("governor_predictor_exact", {"GOV-5"});
  property("governor_monotonic", {"GOV-6"});
}

}  // namespace idlespec::verify
