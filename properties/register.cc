// Registers every check of the properties layer with verify, one table for
// the six components, as spec/*.md list them under "- Checks:". The xcede
// and states rows come from properties/catalog.h (templates over a subject
// type, run for the subjects of impl/subjects.h; the witness tests run the
// same entries against the broken subjects of tests/witnesses/); the others
// run a subject by name.
//
//   busy_delay  exhaustive busy_delay_status_scan    BUSY-1..5        reference, early, legacy
//               property   busy_delay_single_status  BUSY-1, 2, 3, 5  reference, legacy
//               property   busy_delay_loop_bounded   BUSY-6           reference, legacy
//               property   busy_delay_early_sequence BUSY-7           early
//   governor    property   governor_selection        GOV-1, 2, 3, 4, 7     every subject
//               property   governor_wakeup_sequence  GOV-1, 2, 3, 4, 5, 8  every subject
//               property   governor_predictor_exact  GOV-5                 every subject
//               property   governor_monotonic        GOV-6                 every subject
//   idle_core   property   idle_core_state_machine   IDLE-2, 3, 4, 5, 6, 9 reference
//   teo         property   teo_selection             TEO-1..5              v6.1, v6.12, v6.19,
//   v7.0, mainline
//               property   teo_wakeup_sequence       TEO-1..6              v6.1, v6.12, v6.19,
//               v7.0, mainline
//
// Each check judges a subject only by the clauses whose "- Subjects:" line
// names it (early: BUSY-4 of the scan).
#include <string>

#include "impl/subjects.h"
#include "properties/busy_delay_properties.h"
#include "properties/busy_delay_status_scan.h"
#include "properties/catalog.h"
#include "properties/governor_properties.h"
#include "properties/idle_core_state_machine.h"
#include "properties/teo_properties.h"
#include "verify/layers.h"

namespace idlespec::verify {
namespace {

using Run = std::function<CheckResult(const std::string& subject, const RunOptions&)>;

struct Row {
  CheckKind kind;
  std::string name;
  std::string component;
  std::vector<std::string> clauses;
  std::vector<std::string> subjects;
  Run run;
};

Run busy_delay_property(std::string name) {
  return [name](const std::string& subject, const RunOptions& options) {
    return props::run_busy_delay_property(name, subject, options);
  };
}

Run governor_property(std::string name) {
  return [name](const std::string& subject, const RunOptions& options) {
    return props::gov::run_governor_property(name, subject, options);
  };
}

// A catalogue entry (xcede, states) for the subject types of impl/subjects.h.
Run catalogued(CheckKind kind, std::string name) {
  return [kind, name](const std::string& subject, const RunOptions& options) {
    if (subject == ReferenceSubject::name) {
      return props::run_check<ReferenceSubject>(kind, name, options);
    }
    if (subject == UpstreamQuerySubject::name) {
      return props::run_check<UpstreamQuerySubject>(kind, name, options);
    }
    CheckResult unknown;
    unknown.detail = "no subject named '" + subject + "'";
    return unknown;
  };
}

std::vector<Row> rows() {
  std::vector<Row> r;
  for (const props::CatalogEntry& e : props::catalog()) {
    r.push_back({e.kind, e.name, e.component, e.clauses, e.subjects, catalogued(e.kind, e.name)});
  }
  r.push_back({CheckKind::exhaustive,
               "busy_delay_status_scan",
               "busy_delay",
               {"BUSY-1", "BUSY-2", "BUSY-3", "BUSY-4", "BUSY-5"},
               {"reference", "early", "legacy"},
               [](const std::string& subject, const RunOptions& options) {
                 return props::run_busy_delay_status_scan(subject, options);
               }});
  r.push_back({CheckKind::property,
               "busy_delay_single_status",
               "busy_delay",
               {"BUSY-1", "BUSY-2", "BUSY-3", "BUSY-5"},
               {"reference", "legacy"},
               busy_delay_property("busy_delay_single_status")});
  r.push_back({CheckKind::property,
               "busy_delay_loop_bounded",
               "busy_delay",
               {"BUSY-6"},
               {"reference", "legacy"},
               busy_delay_property("busy_delay_loop_bounded")});
  r.push_back({CheckKind::property,
               "busy_delay_early_sequence",
               "busy_delay",
               {"BUSY-7"},
               {"early"},
               busy_delay_property("busy_delay_early_sequence")});
  const std::vector<std::string> governors = {"v6.14",     "seed-v2", "seed-threshold",
                                              "reference", "v6.19",   "mainline"};
  r.push_back({CheckKind::property,
               "governor_selection",
               "governor",
               {"GOV-1", "GOV-2", "GOV-3", "GOV-4", "GOV-7"},
               governors,
               governor_property("governor_selection")});
  r.push_back({CheckKind::property,
               "governor_wakeup_sequence",
               "governor",
               {"GOV-1", "GOV-2", "GOV-3", "GOV-4", "GOV-5", "GOV-8", "GOV-9"},
               governors,
               governor_property("governor_wakeup_sequence")});
  r.push_back({CheckKind::property,
               "governor_predictor_exact",
               "governor",
               {"GOV-5"},
               governors,
               governor_property("governor_predictor_exact")});
  r.push_back({CheckKind::property,
               "governor_monotonic",
               "governor",
               {"GOV-6"},
               governors,
               governor_property("governor_monotonic")});
  const std::vector<std::string> teos = {"v6.1", "v6.12", "v6.19", "v7.0", "mainline"};
  r.push_back({CheckKind::property, "teo_selection", "teo", props::teo_props::selection_clauses(),
               teos, [](const std::string& subject, const RunOptions& options) {
                 return props::teo_props::run_teo_property("teo_selection", subject, options);
               }});
  r.push_back({CheckKind::property, "teo_wakeup_sequence", "teo",
               props::teo_props::sequence_clauses(), teos,
               [](const std::string& subject, const RunOptions& options) {
                 return props::teo_props::run_teo_property("teo_wakeup_sequence", subject, options);
               }});
  r.push_back({CheckKind::property,
               "idle_core_state_machine",
               "idle_core",
               props::idle_core_sm::state_machine_clauses(),
               {"reference"},
               [](const std::string& subject, const RunOptions& options) {
                 return props::idle_core_sm::run_idle_core_state_machine(subject, options);
               }});
  return r;
}

}  // namespace

void register_properties(Registry& registry) {
  for (Row& row : rows()) {
    Check c;
    c.kind = row.kind;
    c.name = std::move(row.name);
    c.component = std::move(row.component);
    c.clauses = std::move(row.clauses);
    c.subjects = std::move(row.subjects);
    c.run = std::move(row.run);
    registry.add(std::move(c));
  }
}

}  // namespace idlespec::verify
