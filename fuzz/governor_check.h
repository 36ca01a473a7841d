// The governor clause judge: one selection (table, inputs, the choice made)
// -> the clauses of spec/governor.md it breaks. Written from the spec's
// prose: it reads the table, the inputs and the choice, never the selection
// code of impl/governor.h. The properties, the fuzz target and the corpus
// replay all judge with it.
#pragma once

#include <set>
#include <span>
#include <string>

#include "impl/governor.h"

namespace idlespec::governor {

struct Judgement {
  std::set<std::string> violated;  // clause IDs
  std::string detail;              // one line per violation, for people
};

// True iff the table satisfies STATES-1..3: exit latencies and target
// residencies non-decreasing, each residency at least its exit latency.
bool table_is_ordered(std::span<const State<Concrete>> states);

// The index of the first enabled state, or states.size() if none.
size_t first_enabled(std::span<const State<Concrete>> states);

// GOV-1, GOV-2, GOV-3 and GOV-4 for one selection. `latency_req_ns` is the
// PM QoS limit as the governor received it; `predicted_ns` the prediction as
// the walk started (Choice::predicted_ns: the governor reports it, the judge
// only compares against it). GOV-2 and GOV-3 are judged only on tables that
// keep STATES-1..3 (GOV-7); GOV-1, GOV-4 and the index bound (reported as
// GOV-7) on every table.
Judgement judge_selection(std::span<const State<Concrete>> states, const ConcreteInputs& in,
                          const ConcreteChoice& c);

}  // namespace idlespec::governor
