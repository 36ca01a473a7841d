// Every check of the properties layer, as spec/xcede.md and spec/states.md
// list them under "- Checks:", and how to run each against a subject type.
// register.cc turns the catalogue into verify::Checks for the subjects of
// impl/subjects.h; the witness tests run the same entries against the broken
// subjects of tests/witnesses/.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "properties/run_property.h"
#include "properties/states_fixup_gate_sweep.h"
#include "properties/states_properties.h"
#include "properties/xcede_header_sweep.h"
#include "properties/xcede_properties.h"
#include "verify/registry.h"

namespace idlespec::props {

struct CatalogEntry {
  verify::CheckKind kind;
  std::string name;
  std::string component;
  std::vector<std::string> clauses;
  std::vector<std::string> subjects;
};

inline const std::vector<CatalogEntry>& catalog() {
  using verify::CheckKind;
  static const std::vector<CatalogEntry> entries = {
      {CheckKind::property, "xcede_never_overruns", "xcede", {"XCEDE-1"}, {"reference"}},
      {CheckKind::property, "xcede_rejects_bad_record_size", "xcede", {"XCEDE-2"}, {"reference"}},
      {CheckKind::property, "xcede_short_payload_warns", "xcede", {"XCEDE-3"}, {"reference"}},
      {CheckKind::property, "xcede_capacity_bound", "xcede", {"XCEDE-4"}, {"reference"}},
      {CheckKind::property, "xcede_roundtrip", "xcede", {"XCEDE-5"}, {"reference"}},
      {CheckKind::property, "xcede_query_failure", "xcede", {"XCEDE-6"}, {"reference"}},
      {CheckKind::property, "xcede_query_retries", "xcede", {"XCEDE-7"}, {"reference", "upstream"}},
      {CheckKind::property, "xcede_reads_big_endian", "xcede", {"XCEDE-8"}, {"reference"}},
      {CheckKind::exhaustive,
       "xcede_header_sweep",
       "xcede",
       {"XCEDE-1", "XCEDE-2", "XCEDE-3", "XCEDE-4"},
       {"reference"}},
      {CheckKind::property, "states_monotonic", "states", {"STATES-1", "STATES-2"}, {"reference"}},
      {CheckKind::property,
       "states_residency_covers_latency",
       "states",
       {"STATES-3"},
       {"reference"}},
      {CheckKind::property, "states_no_wrap", "states", {"STATES-4"}, {"reference"}},
      {CheckKind::property, "states_state_max", "states", {"STATES-5"}, {"reference"}},
      {CheckKind::property, "states_fixup_gate", "states", {"STATES-6"}, {"reference"}},
      {CheckKind::exhaustive, "states_fixup_gate", "states", {"STATES-6"}, {"reference"}},
      {CheckKind::property, "states_xcede_exposure", "states", {"STATES-7"}, {"reference"}},
  };
  return entries;
}

inline const CatalogEntry* find_entry(verify::CheckKind kind, std::string_view name) {
  for (const auto& e : catalog()) {
    if (e.kind == kind && e.name == name) return &e;
  }
  return nullptr;
}

// The body of the property `name` for subject S; empty if there is none.
template <class S>
PropertyBody property_body(std::string_view name) {
  if (name == "xcede_never_overruns") return &xcede_never_overruns<S>;
  if (name == "xcede_rejects_bad_record_size") return &xcede_rejects_bad_record_size<S>;
  if (name == "xcede_short_payload_warns") return &xcede_short_payload_warns<S>;
  if (name == "xcede_capacity_bound") return &xcede_capacity_bound<S>;
  if (name == "xcede_roundtrip") return &xcede_roundtrip<S>;
  if (name == "xcede_query_failure") return &xcede_query_failure<S>;
  if (name == "xcede_query_retries") return &xcede_query_retries<S>;
  if (name == "xcede_reads_big_endian") return &xcede_reads_big_endian<S>;
  if (name == "states_monotonic") return &states_monotonic<S>;
  if (name == "states_residency_covers_latency") return &states_residency_covers_latency<S>;
  if (name == "states_no_wrap") return &states_no_wrap<S>;
  if (name == "states_state_max") return &states_state_max<S>;
  if (name == "states_fixup_gate") return &states_fixup_gate<S>;
  if (name == "states_xcede_exposure") return &states_xcede_exposure<S>;
  return {};
}

inline verify::CheckResult no_such_check(std::string_view what) {
  verify::CheckResult r;
  r.outcome = verify::Outcome::unknown;
  r.detail = "the properties layer has no " + std::string(what);
  return r;
}

// Runs catalogue entry (kind, name) against subject type S. `full` chooses the
// header sweep's scope (see xcede_header_sweep.h).
template <class S>
verify::CheckResult run_check(verify::CheckKind kind, std::string_view name,
                              const verify::RunOptions& options,
                              bool full = IDLESPEC_EXHAUSTIVE == 1) {
  const CatalogEntry* entry = find_entry(kind, name);
  if (!entry) return no_such_check("check " + std::string(name));
  if (kind == verify::CheckKind::exhaustive) {
    if (name == "xcede_header_sweep") return run_xcede_header_sweep<S>(options, full);
    if (name == "states_fixup_gate") return run_states_fixup_gate_sweep<S>(options);
    return no_such_check("exhaustive check " + std::string(name));
  }
  const PropertyBody body = property_body<S>(name);
  if (!body) return no_such_check("property " + std::string(name));
  return run_property(name, S::name, entry->clauses, options, body);
}

}  // namespace idlespec::props
