// Registers the busy_delay checks of the properties layer with verify, as
// spec/busy_delay.md lists them under "- Checks:":
//
//   exhaustive busy_delay_status_scan    BUSY-1..5  reference, early, legacy
//   property   busy_delay_single_status  BUSY-1, 2, 3, 5  reference, legacy
//   property   busy_delay_loop_bounded   BUSY-6     reference, legacy
//   property   busy_delay_early_sequence BUSY-7     early
//
// Each check judges a subject only by the clauses whose "- Subjects:" line
// names it (early: BUSY-4 of the scan).
#include "properties/busy_delay_properties.h"
#include "properties/busy_delay_status_scan.h"
#include "verify/layers.h"

namespace idlespec::verify {

void register_busy_delay_properties(Registry& r) {
  Check scan;
  scan.kind = CheckKind::exhaustive;
  scan.name = "busy_delay_status_scan";
  scan.component = "busy_delay";
  scan.clauses = {"BUSY-1", "BUSY-2", "BUSY-3", "BUSY-4", "BUSY-5"};
  scan.subjects = {"reference", "early", "legacy"};
  scan.run = [](const std::string& subject, const RunOptions& options) {
    return props::run_busy_delay_status_scan(subject, options);
  };
  r.add(std::move(scan));

  const auto property = [&r](std::string name, std::vector<std::string> clauses,
                             std::vector<std::string> subjects) {
    Check c;
    c.kind = CheckKind::property;
    c.name = name;
    c.component = "busy_delay";
    c.clauses = std::move(clauses);
    c.subjects = std::move(subjects);
    c.run = [name](const std::string& subject, const RunOptions& options) {
      return props::run_busy_delay_property(name, subject, options);
    };
    r.add(std::move(c));
  };
  property("busy_delay_single_status", {"BUSY-1", "BUSY-2", "BUSY-3", "BUSY-5"},
           {"reference", "legacy"});
  property("busy_delay_loop_bounded", {"BUSY-6"}, {"reference", "legacy"});
  property("busy_delay_early_sequence", {"BUSY-7"}, {"early"});
}

}  // namespace idlespec::verify
