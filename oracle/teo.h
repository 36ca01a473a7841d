// spec/teo.md as an executable reading: the clause judge of one TEO
// selection (TEO-1..TEO-5) and of the per-CPU metrics after an update
// (TEO-6). Every concrete layer judges here: the properties
// (properties/teo_properties.h), teo_fuzz and its corpus replay, and the
// proofs' witness tests when they replay a counterexample. It reads
// impl/teo.h's value types and the kernel's constants only, never its
// select() or learn().
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "impl/teo.h"
#include "oracle/governor.h"
#include "oracle/violation.h"

namespace idlespec::teo::oracle {

using Violation = idlespec::oracle::Violation;
using Violations = idlespec::oracle::Violations;

// Exit latencies and target residencies non-decreasing with the index (the
// order TEO-2 and TEO-5 are stated for).
bool table_is_ordered(std::span<const State<Concrete>> states);
// The index of the first enabled state, states.size() if none (the same
// table type as menu's: one definition, in oracle/governor.h).
using governor::oracle::first_enabled;
// The inputs as the kernel hands them over: delta_next at most the sleep
// length, and within a tick while the tick runs. TEO-4 and TEO-5 speak of
// such inputs only.
bool inputs_in_order(const ConcreteInputs& in);

// TEO-1..TEO-5 for one teo_select() that returned `c` on `states` and `in`.
// An index outside the table is reported as TEO-1. TEO-2 and TEO-5 are
// judged on ordered tables only, TEO-4 and TEO-5 on inputs in order. One
// violation per broken clause.
Violations judge_selection(std::span<const State<Concrete>> states, const ConcreteInputs& in,
                           const ConcreteChoice& c);

// TEO-6 for the per-CPU data of a table of `n` states after an update:
// every hits, intercepts, tick_hits, total_tick, tick_intercepts and
// short_idles at most kMetricBound; total between the sum of the bins' hits
// and intercepts and (2n + 2) x kMetricBound; for 6.1 the recent ring's
// cursor inside the ring, every slot -1 or a state index and each bin's
// recent count the number of slots naming it.
Violations judge_metrics(size_t n, const ConcreteCpu& cpu, Era era);

// TEO-6's lower bound on `total` broken: it is below the sum of the first `n`
// bins' hits and intercepts (so `total - idx_hit_sum` can wrap). The
// defect of the era that decays `total` on its own (spec/teo.md, TEO-6);
// judge_metrics() reports it as one of TEO-6's violations.
bool total_below_bins(size_t n, const ConcreteCpu& cpu);

}  // namespace idlespec::teo::oracle
