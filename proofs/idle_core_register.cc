// The idle_core proof as a check of the verify registry: `idle_core_induction`
// (kind proof, component idle_core), discharging IDLE-1, IDLE-2 and IDLE-5 as
// spec/idle_core.md's "- Checks:" lines pair them, for the reference subject.
//
// The check first binds the encoding to the code that runs (the differential
// check of proofs/idle_core_binding.h: POWER8 SMT1 and SMT2 exhaustively, SMT3
// too when IDLESPEC_EXHAUSTIVE), then runs the k-induction of
// proofs/idle_core_induction.h for N = 1, 2, 4, 8, all within the run's
// budget. A mismatch between the encoding and the code fails the check; a
// binding cut short by the budget, a timeout or a counterexample to induction
// that no bounded path reaches leaves it unknown, never pass.
#include <string>

#include "impl/idle_core.h"
#include "proofs/idle_core_induction.h"
#include "verify/layers.h"

namespace idlespec::verify {

void register_idle_core_proofs(Registry& r) {
  Check c;
  c.kind = CheckKind::proof;
  c.name = "idle_core_induction";
  c.component = "idle_core";
  c.clauses = {"IDLE-1", "IDLE-2", "IDLE-5"};
  c.subjects = {"reference"};
  c.run = [](const std::string& subject, const RunOptions& opts) {
    if (subject != idle_core::Reference::name) {
      CheckResult res;
      res.outcome = Outcome::unknown;
      res.detail = "proof idle_core_induction does not run against subject '" + subject +
                   "' (its subjects: reference)";
      return res;
    }
    return proofs::run_idle_core_check<idle_core::Reference>(opts, IDLESPEC_EXHAUSTIVE != 0).result;
  };
  r.add(std::move(c));
}

}  // namespace idlespec::verify
