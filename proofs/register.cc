// The proofs as checks of the verify registry: one verify::Check per proof,
// kind proof, named and paired with clauses exactly as spec/xcede.md and
// spec/states.md list them, for the reference subject.
#include <string_view>

#include "impl/subjects.h"
#include "proofs/catalog.h"
#include "proofs/states_proofs.h"
#include "proofs/xcede_proofs.h"
#include "verify/layers.h"

namespace idlespec::proofs {

const std::vector<ProofEntry>& proof_catalog() {
  static const std::vector<ProofEntry> catalog = {
      {"xcede_no_overrun",
       "xcede",
       {"XCEDE-1"},
       [](const ProofOptions& o) { return prove_xcede_no_overrun<ReferenceSubject>(o); }},
      {"xcede_record_size_gate",
       "xcede",
       {"XCEDE-2"},
       [](const ProofOptions& o) { return prove_xcede_record_size_gate<ReferenceSubject>(o); }},
      {"xcede_short_payload",
       "xcede",
       {"XCEDE-3"},
       [](const ProofOptions& o) { return prove_xcede_short_payload<ReferenceSubject>(o); }},
      {"xcede_capacity_bound",
       "xcede",
       {"XCEDE-4"},
       [](const ProofOptions& o) { return prove_xcede_capacity_bound<ReferenceSubject>(o); }},
      {"xcede_roundtrip",
       "xcede",
       {"XCEDE-5"},
       [](const ProofOptions& o) { return prove_xcede_roundtrip<ReferenceSubject>(o); }},
      {"states_monotonic",
       "states",
       {"STATES-1", "STATES-2"},
       [](const ProofOptions& o) { return prove_states_monotonic(o); }},
      {"states_residency_covers_latency",
       "states",
       {"STATES-3"},
       [](const ProofOptions& o) { return prove_states_residency_covers_latency(o); }},
      {"states_no_wrap",
       "states",
       {"STATES-4"},
       [](const ProofOptions& o) { return prove_states_no_wrap(o); }},
      {"states_latency_conversion",
       "states",
       {"STATES-4"},
       [](const ProofOptions& o) { return prove_states_latency_conversion(o); }},
      {"states_state_max",
       "states",
       {"STATES-5"},
       [](const ProofOptions& o) { return prove_states_state_max(o); }},
      {"states_xcede_exposure",
       "states",
       {"STATES-7"},
       [](const ProofOptions& o) { return prove_states_xcede_exposure(o); }},
  };
  return catalog;
}

const ProofEntry* find_proof(const std::string& name) {
  for (const ProofEntry& p : proof_catalog()) {
    if (p.name == name) return &p;
  }
  return nullptr;
}

}  // namespace idlespec::proofs

namespace idlespec::verify {
namespace {

void register_component(Registry& r, std::string_view component) {
  for (const proofs::ProofEntry& p : proofs::proof_catalog()) {
    if (p.component != component) continue;
    Check c;
    c.kind = CheckKind::proof;
    c.name = p.name;
    c.component = p.component;
    c.clauses = p.clauses;
    c.subjects = {std::string(ReferenceSubject::name)};
    auto prove = p.prove;
    std::string name = p.name;
    c.run = [prove, name](const std::string& subject, const RunOptions& opts) {
      if (subject != ReferenceSubject::name) {
        CheckResult r;
        r.outcome = Outcome::unknown;
        r.detail = "proof " + name + " runs only against the reference subject, not " + subject;
        return r;
      }
      return proofs::to_check_result(prove(proofs::proof_options(opts)), subject);
    };
    r.add(std::move(c));
  }
}

}  // namespace

void register_xcede_proofs(Registry& r) { register_component(r, "xcede"); }
void register_states_proofs(Registry& r) { register_component(r, "states"); }

}  // namespace idlespec::verify
