#include "verify/registry.h"

#include <stdexcept>

namespace idlespec::verify {

std::string_view check_kind_name(CheckKind k) {
  switch (k) {
    case CheckKind::proof:
      return "proof";
    case CheckKind::exhaustive:
      return "exhaustive";
    case CheckKind::property:
      return "property";
    case CheckKind::fuzz_replay:
      return "fuzz-replay";
    case CheckKind::model_check:
      return "model-check";
  }
  return "?";
}

std::string_view outcome_name(Outcome o) {
  switch (o) {
    case Outcome::pass:
      return "pass";
    case Outcome::fail:
      return "fail";
    case Outcome::unknown:
      return "unknown";
  }
  return "?";
}

void Registry::add(Check check) {
  if (find(check.kind, check.name)) {
    throw std::logic_error("check registered twice: " + check.name);
  }
  checks_.push_back(std::move(check));
}

const Check* Registry::find(CheckKind kind, std::string_view name) const {
  for (const Check& c : checks_) {
    if (c.kind == kind && c.name == name) return &c;
  }
  return nullptr;
}

}  // namespace idlespec::verify
