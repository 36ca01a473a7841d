// Registers the properties layer's checks (properties/catalog.h) with verify,
// for the subjects of impl/subjects.h.
#include <string>

#include "impl/subjects.h"
#include "properties/catalog.h"
#include "verify/layers.h"

namespace idlespec::verify {
namespace {

void register_component(Registry& r, std::string_view component) {
  for (const props::CatalogEntry& e : props::catalog()) {
    if (e.component != component) continue;
    Check c;
    c.kind = e.kind;
    c.name = e.name;
    c.component = e.component;
    c.clauses = e.clauses;
    c.subjects = e.subjects;
    c.run = [kind = e.kind, name = e.name](const std::string& subject, const RunOptions& options) {
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
    r.add(std::move(c));
  }
}

}  // namespace

void register_xcede_properties(Registry& r) { register_component(r, "xcede"); }
void register_states_properties(Registry& r) { register_component(r, "states"); }

}  // namespace idlespec::verify
