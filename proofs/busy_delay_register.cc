// The busy_delay proofs as checks of the verify registry: one verify::Check
// per proof, kind proof, component busy_delay, paired with clauses as
// spec/busy_delay.md's "- Checks:" lines pair them and run against the
// subjects of those clauses' "- Subjects:" lines. A subject runs every form
// it has (reference: usleep_range/msleep and fsleep); an unknown subject is
// unknown, never a pass.
#include <algorithm>
#include <string_view>

#include "proofs/busy_delay_proofs.h"
#include "verify/layers.h"

namespace idlespec::proofs {

const std::vector<BusyDelayProofEntry>& busy_delay_proof_catalog() {
  static const std::vector<BusyDelayProofEntry> catalog = {
      {"busy_delay_retry_set", {"BUSY-1"}, {"reference", "legacy"}, &prove_busy_delay_retry_set},
      {"busy_delay_busy_yields",
       {"BUSY-2"},
       {"reference", "legacy"},
       &prove_busy_delay_busy_yields},
      {"busy_delay_sleep_bounds",
       {"BUSY-3"},
       {"reference", "legacy"},
       &prove_busy_delay_sleep_bounds},
      {"busy_delay_time_table",
       {"BUSY-4"},
       {"reference", "early", "legacy"},
       &prove_busy_delay_time_table},
      {"busy_delay_other_quiet", {"BUSY-5"}, {"reference"}, &prove_busy_delay_other_quiet},
      {"busy_delay_early_counter", {"BUSY-7"}, {"early"}, &prove_busy_delay_early_counter},
  };
  return catalog;
}

const BusyDelayProofEntry* find_busy_delay_proof(std::string_view name) {
  for (const BusyDelayProofEntry& p : busy_delay_proof_catalog()) {
    if (p.name == name) return &p;
  }
  return nullptr;
}

}  // namespace idlespec::proofs

namespace idlespec::verify {

void register_busy_delay_proofs(Registry& r) {
  for (const proofs::BusyDelayProofEntry& p : proofs::busy_delay_proof_catalog()) {
    Check c;
    c.kind = CheckKind::proof;
    c.name = p.name;
    c.component = "busy_delay";
    c.clauses = p.clauses;
    c.subjects = p.subjects;
    c.run = [entry = p](const std::string& subject, const RunOptions& opts) {
      const bool listed =
          std::find(entry.subjects.begin(), entry.subjects.end(), subject) != entry.subjects.end();
      const std::optional<proofs::BusySubject> s = proofs::busy_subject(subject);
      if (!listed || !s) {
        CheckResult res;
        res.outcome = Outcome::unknown;
        res.detail = "proof " + entry.name + " does not run against subject '" + subject +
                     "' (its subjects: ";
        for (size_t i = 0; i < entry.subjects.size(); ++i) {
          res.detail += (i ? ", " : "") + entry.subjects[i];
        }
        res.detail += ")";
        return res;
      }
      return proofs::to_check_result(entry.prove(*s, proofs::proof_options(opts)), subject);
    };
    r.add(std::move(c));
  }
}

}  // namespace idlespec::verify
