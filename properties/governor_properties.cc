#include "properties/governor_properties.h"

#include <algorithm>
#include <sstream>

namespace idlespec::props::gov {
namespace {

using governor::oracle::u128;

std::string join(const std::vector<std::string>& parts, const char* sep) {
  std::string out;
  for (size_t i = 0; i < parts.size(); ++i) out += (i ? sep : "") + parts[i];
  return out;
}

std::string u64s(uint64_t v) { return std::to_string(v); }

constexpr u128 kUintMax = governor::kUintMax;

}  // namespace

std::string show_choice(const ConcreteChoice& c) {
  return "state " + u64s(c.idx.v) + ", path " + std::string(governor::path_name(c.path.v)) +
         (c.stop_tick ? ", stop tick" : ", keep tick") + ", predicted " + u64s(c.predicted_ns.v) +
         " ns";
}

std::string clause_failure(const governor::oracle::Violations& v, const std::string& clause,
                           const Table& states) {
  std::vector<std::string> clauses = {clause};
  if (clause == "GOV-7" && !governor::oracle::table_is_ordered(states)) {
    clauses.push_back("GOV-1");
    clauses.push_back("GOV-4");
  }
  std::vector<std::string> lines;
  for (const auto& x : v) {
    for (const std::string& c : clauses) {
      if (x.clause == c) {
        lines.push_back(c == clause ? x.message : "unordered table, " + c + ": " + x.message);
      }
    }
  }
  return join(lines, "; ");
}

const std::vector<std::string>& selection_clauses() {
  static const std::vector<std::string> c = {"GOV-1", "GOV-2", "GOV-3", "GOV-4", "GOV-7"};
  return c;
}

const std::vector<std::string>& sequence_clauses() {
  static const std::vector<std::string> c = {"GOV-1", "GOV-2", "GOV-3", "GOV-4",
                                             "GOV-5", "GOV-8", "GOV-9"};
  return c;
}

const std::vector<std::string>& exact_parts() {
  static const std::vector<std::string> p = {"timer_us", "sum_of_squares", "other"};
  return p;
}

std::vector<Discrepancy> update_discrepancies(std::span<const ConcreteState> states,
                                              const ConcreteHistory& h, const ConcreteInputs& in,
                                              const ConcreteHistory& updated) {
  std::vector<Discrepancy> out;
  const governor::oracle::Update e = governor::oracle::menu_update(states, h, in);
  const unsigned b = h.bucket.v;
  const unsigned ptr = h.interval_ptr.v;
  const std::string what = "menu_update() of state " + u64s(in.last_state_idx.v) +
                           " (exit latency " + u64s(states[in.last_state_idx.v].exit_latency_ns.v) +
                           " ns), residency " + u64s(in.last_residency_ns.v) + " ns, next_timer " +
                           u64s(h.next_timer_ns.v) + " ns, bucket " + u64s(b) + " factor " +
                           u64s(h.correction_factor[b].v) + ": exact measured " +
                           idlespec::oracle::dec(e.measured_ns) + " ns";
  if (updated.correction_factor[b].v != e.factor) {
    out.push_back({"GOV-5", "other",
                   what + ", new factor " + u64s(updated.correction_factor[b].v) + ", exact " +
                       idlespec::oracle::dec(e.factor)});
  }
  if (updated.intervals[ptr].v != e.interval_us) {
    out.push_back({"GOV-8", e.interval_us > kUintMax ? "interval_us" : "other",
                   what + ", interval recorded " + u64s(updated.intervals[ptr].v) + " us, exact " +
                       idlespec::oracle::dec(e.interval_us) + " us" +
                       (e.interval_us > kUintMax ? " (beyond an unsigned int)" : "")});
  }
  const unsigned next_ptr = (ptr + 1) % governor::kIntervals;
  if (updated.interval_ptr.v != next_ptr) {
    out.push_back({"GOV-5", "other",
                   what + ", ring pointer " + u64s(updated.interval_ptr.v) +
                       " after the update, exact " + u64s(next_ptr)});
  }
  if (e.divides_by_zero) out.push_back({"GOV-5", "other", what + ": divides by zero"});
  return out;
}

std::vector<Discrepancy> predict_discrepancies(governor::Predictor predictor,
                                               bool consults_when_stopped, bool mark_rejected,
                                               const ConcreteHistory& ring_source,
                                               const ConcreteInputs& in,
                                               const ConcretePrediction& p,
                                               const ConcreteHistory& after) {
  std::vector<Discrepancy> out;
  const governor::oracle::Predict e =
      governor::oracle::predict(predictor, consults_when_stopped, mark_rejected, ring_source, in);
  std::string part = "other";
  if (e.consult_timer && e.timer_us > kUintMax) {
    part = "timer_us";
  } else if (e.typical.accumulator_beyond_64) {
    part = "sum_of_squares";
  }
  std::string what = "predict(): sleep length " + u64s(in.sleep_length_ns.v) + " ns";
  if (e.consult_timer) {
    what += ", bucket " + u64s(e.bucket) + " factor " +
            u64s(ring_source.correction_factor[e.bucket].v) + ", exact timer_us " +
            idlespec::oracle::dec(e.timer_us) +
            (e.timer_us > kUintMax ? " (beyond an unsigned int)" : "");
  }
  what += ", exact typical interval " +
          (e.typical.us == kUintMax ? std::string("none")
                                    : idlespec::oracle::dec(e.typical.us) + " us") +
          (e.typical.accumulator_beyond_64 ? " (a sum of squares reached 2^64)" : "") +
          (mark_rejected ? " after marking the rejected period" : "");
  std::vector<std::string> diffs;
  if (p.predicted_ns.v != e.predicted_ns) {
    diffs.push_back("predicted_ns " + u64s(p.predicted_ns.v) + ", exact " +
                    idlespec::oracle::dec(e.predicted_ns));
  }
  if (after.next_timer_ns.v != e.next_timer_ns || p.next_timer_ns.v != e.next_timer_ns) {
    diffs.push_back("next_timer_ns " + u64s(after.next_timer_ns.v) + ", exact " +
                    idlespec::oracle::dec(e.next_timer_ns));
  }
  if (after.bucket.v != e.bucket) {
    diffs.push_back("bucket " + u64s(after.bucket.v) + ", exact " + u64s(e.bucket));
  }
  if (p.delta_tick_ns.v != e.delta_tick_ns) {
    diffs.push_back("delta_tick " + u64s(p.delta_tick_ns.v) + ", exact " +
                    idlespec::oracle::dec(e.delta_tick_ns));
  }
  if (e.typical.divides_by_zero) diffs.push_back("the typical interval did not settle");
  bool in_range = true;
  for (const auto& v : ring_source.intervals) {
    in_range = in_range && (v.v <= kKernelRingMaxUs || v.v == governor::kUintMax);
  }
  if (!diffs.empty()) out.push_back({"GOV-5", part, what + ": " + join(diffs, ", "), in_range});
  return out;
}

verify::CheckResult merge_exact(verify::CheckResult in_range, const verify::CheckResult& beyond) {
  std::string note;
  switch (beyond.outcome) {
    case verify::Outcome::pass:
      note = "beyond the GOV-5 ranges (2^42 ns, any ring entry) nothing differs either";
      break;
    case verify::Outcome::fail:
      note = "beyond the GOV-5 ranges (2^42 ns, any ring entry; recorded, not a violation): " +
             beyond.detail + " [" + beyond.counterexample + "]";
      break;
    case verify::Outcome::unknown:
      note = "beyond the GOV-5 ranges not decided: " + beyond.detail;
      break;
  }
  in_range.detail = "in the GOV-5 ranges: " + in_range.detail + " || " + note;
  return in_range;
}

std::string history_invariant_failure(const ConcreteHistory& h) {
  std::vector<std::string> bad;
  for (unsigned b = 0; b < governor::kBuckets; ++b) {
    const uint32_t f = h.correction_factor[b].v;
    if (f < 1 || f > kMaxFactor) {
      bad.push_back("correction factor " + u64s(f) + " of bucket " + u64s(b) + " outside 1..8192");
    }
  }
  if (h.interval_ptr.v >= governor::kIntervals) {
    bad.push_back("ring pointer " + u64s(h.interval_ptr.v) + " >= 8");
  }
  return join(bad, "; ");
}

std::vector<uint64_t> monotonic_points(const MonotonicCase& c) {
  std::vector<uint64_t> points = {c.low, c.high, 0};
  const auto add = [&](uint64_t v) {
    points.push_back(v);
    if (v > 0) points.push_back(v - 1);
  };
  for (const ConcreteState& s : c.states) {
    add(c.kind == MonotonicCase::kLimit ? s.exit_latency_ns.v : s.target_residency_ns.v);
  }
  if (c.kind == MonotonicCase::kPrediction) {
    add(c.inputs.tick_ns.v);
    add(c.prediction.next_timer_ns.v);
  }
  std::vector<uint64_t> out;
  for (uint64_t v : points) {
    if (v < c.top) out.push_back(v);
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

const std::vector<std::string>& governor_property_names() {
  static const std::vector<std::string> n = {"governor_selection", "governor_wakeup_sequence",
                                             "governor_predictor_exact", "governor_monotonic"};
  return n;
}

verify::CheckResult run_governor_property(std::string_view name, std::string_view subject,
                                          const verify::RunOptions& options) {
  if (name == "governor_selection") {
    return with_subject(subject,
                        [&](auto s) { return run_selection<decltype(s)>(subject, options); });
  }
  if (name == "governor_wakeup_sequence") {
    return with_subject(subject,
                        [&](auto s) { return run_wakeup_sequence<decltype(s)>(subject, options); });
  }
  if (name == "governor_predictor_exact") {
    return with_subject(subject,
                        [&](auto s) { return run_predictor_exact<decltype(s)>(subject, options); });
  }
  if (name == "governor_monotonic") {
    return with_subject(subject,
                        [&](auto s) { return run_monotonic<decltype(s)>(subject, options); });
  }
  verify::CheckResult none;
  none.detail = "the governor properties have no check named '" + std::string(name) + "'";
  return none;
}

}  // namespace idlespec::props::gov
