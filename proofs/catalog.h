// Every proof idlespec ships, with the clauses it discharges, run against the
// reference subject. proofs/register.cc turns each into a verify::Check; the
// tests (proofs/*_test.cc) iterate over the same list.
#pragma once

#include <string>
#include <vector>

#include "proofs/proof.h"

namespace idlespec::proofs {

struct ProofEntry {
  std::string name;                           // the check name, as spec/*.md lists it
  std::string component;                      // xcede, states
  std::vector<std::string> clauses;           // as the spec's "- Checks:" lines pair them
  ProofResult (*prove)(const ProofOptions&);  // the proof, for the reference subject
};

const std::vector<ProofEntry>& proof_catalog();
const ProofEntry* find_proof(const std::string& name);

}  // namespace idlespec::proofs
