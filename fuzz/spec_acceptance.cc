#include "fuzz/spec_acceptance.h"

#include "verify/spec_index.h"

namespace idlespec::fuzz {

bool spec_accepts(std::string_view clause, std::string_view subject) {
  static const verify::SpecIndex spec = verify::builtin_spec();  // parsed once per process
  const verify::Clause* c = spec.find(clause);
  return c != nullptr && c->acceptance_for(subject) != nullptr;
}

}  // namespace idlespec::fuzz
