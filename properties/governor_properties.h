// The governor properties (spec/governor.md), RapidCheck bodies run through
// props::run_property (so verify's --seed, --cases and --budget apply and a
// failure carries a replay command), each a template over the subject type,
// so that the witnesses of tests/witnesses/governor_witnesses.h run through
// the same code:
//
//   governor_selection        GOV-1, 2, 3, 4, 7: a generated table, history
//                             and inputs through select(), and the same table
//                             and inputs with a generated prediction through
//                             walk(), judged by oracle/governor.h. One
//                             RapidCheck run per clause, merged, so that the
//                             verdict names every clause that breaks.
//   governor_wakeup_sequence  GOV-1..5, 8: selections from one history, with
//                             menu_reflect() and generated wake-ups (or
//                             rejected entries) between them; each selection
//                             judged, the arithmetic of each compared with the
//                             exact recompute (GOV-5; the interval recorded:
//                             GOV-8), the history's invariants kept
//                             (correction factors 1..8192, ring pointer < 8).
//   governor_predictor_exact  GOV-5: predict() and menu_update() against
//                             properties/governor_exact.h for inputs in the
//                             kernel ranges. One run per way the kernel words
//                             can lose a value (timer_us beyond 32 bits, a sum
//                             of squares beyond 64 bits, anything else),
//                             merged; the same runs beyond the ranges are
//                             recorded in the detail.
//   governor_monotonic        GOV-6: walk() on an ordered table, all else
//                             equal, at ascending limits, resp. predictions
//                             (two generated ones and the table's boundary
//                             values): never a shallower state.
#pragma once

#include <rapidcheck.h>

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "impl/governor.h"
#include "impl/text.h"
#include "oracle/governor.h"
#include "properties/governor_gen.h"
#include "properties/run_property.h"
#include "verify/registry.h"

namespace idlespec::props::gov {

// Several RapidCheck runs as one check: props::Part, props::run_parts
// (properties/run_property.h).
using props::Part;
using props::run_parts;

// --- judging ------------------------------------------------------------------

// "state 2, path tick-stopped-promotion, stop tick, predicted 1000000 ns"
std::string show_choice(const ConcreteChoice& c);

// The line of the judgement about `clause` ("" if it holds). For GOV-7 also
// GOV-1 and GOV-4 on a table breaking STATES-1..3 (GOV-7 asks for them on
// every table).
std::string clause_failure(const governor::oracle::Violations& v, const std::string& clause,
                           const Table& states);

// --- governor_selection ---------------------------------------------------------

template <class S>
void selection_body(const std::string& clause) {
  const SelectionCase c = *gen::selection_case(kSelectionRange);
  ConcreteHistory h = c.history;
  const ConcreteChoice chosen = governor::select<S, Concrete>(c.states, h, c.inputs);
  std::string why = clause_failure(governor::oracle::judge_selection(c.states, c.inputs, chosen),
                                   clause, c.states);
  if (!why.empty()) {
    RC_FAIL(clause + ": select() chose " + show_choice(chosen) + ": " + why);
  }
  const ConcreteChoice walked = governor::walk<S, Concrete>(c.states, c.prediction, c.inputs);
  why = clause_failure(governor::oracle::judge_selection(c.states, c.inputs, walked), clause,
                       c.states);
  if (!why.empty()) {
    RC_FAIL(clause + ": walk() with " + show_prediction(c.prediction) + " chose " +
            show_choice(walked) + ": " + why);
  }
}

const std::vector<std::string>& selection_clauses();  // GOV-1, 2, 3, 4, 7

template <class S>
verify::CheckResult run_selection(std::string_view subject, const verify::RunOptions& options) {
  std::vector<Part> parts;
  for (const std::string& clause : selection_clauses()) {
    parts.push_back({clause, {clause}, [clause] { selection_body<S>(clause); }});
  }
  return run_parts("governor_selection", subject, parts, options);
}

// --- the exact recompute (GOV-5, GOV-8) ---------------------------------------------

// Where predict() or menu_update() differs from the exact recompute.
// `clause`: GOV-8 for the interval recorded, GOV-5 for everything else.
// `part`: "timer_us" (the exact timer_us exceeds an unsigned int),
// "interval_us" (the exact interval recorded exceeds one),
// "sum_of_squares" (a variance accumulator of the typical interval reached
// 2^64 in the case), "other". `ring_in_range`: the ring predict() read held
// only entries of GOV-5's range (below 2^40 ns in us, or UINT_MAX).
struct Discrepancy {
  std::string clause;
  std::string part;
  std::string message;
  bool ring_in_range = true;
};

// menu_update() (when an update is due) against governor::oracle::menu_update().
std::vector<Discrepancy> update_discrepancies(std::span<const ConcreteState> states,
                                              const ConcreteHistory& h, const ConcreteInputs& in,
                                              const ConcreteHistory& updated);
// predict() (its result `p`, the history `after` it left) against
// governor::oracle::predict() from `ring_source`: the history with the update
// already applied by the model, so that a difference there is reported once.
std::vector<Discrepancy> predict_discrepancies(governor::Predictor predictor,
                                               bool consults_when_stopped, bool mark_rejected,
                                               const ConcreteHistory& ring_source,
                                               const ConcreteInputs& in,
                                               const ConcretePrediction& p,
                                               const ConcreteHistory& after);

template <class S>
std::vector<Discrepancy> exact_discrepancies(std::span<const ConcreteState> states,
                                             const ConcreteHistory& h, const ConcreteInputs& in) {
  ConcreteHistory updated = h;
  std::vector<Discrepancy> out;
  if (h.needs_update) {
    governor::menu_update<S, Concrete>(states, updated, in);
    out = update_discrepancies(states, h, in, updated);
  }
  ConcreteHistory after = h;
  const ConcretePrediction p = governor::predict<S, Concrete>(states, after, in);
  const bool mark =
      S::rejected_period_invalidates && !h.needs_update && in.last_residency_ns.v == 0;
  for (Discrepancy& d : predict_discrepancies(S::predictor, S::consults_timer_when_stopped, mark,
                                              updated, in, p, after)) {
    out.push_back(std::move(d));
  }
  return out;
}

// --- governor_predictor_exact -----------------------------------------------------

const std::vector<std::string>& exact_parts();  // timer_us, sum_of_squares, other

template <class S>
void predictor_exact_body(const std::string& part, const Range& range) {
  const SelectionCase c = *gen::selection_case(range);
  for (const Discrepancy& d : exact_discrepancies<S>(c.states, c.history, c.inputs)) {
    if (d.clause == "GOV-5" && d.part == part) RC_FAIL("GOV-5: " + d.message);
  }
}

// The verdict of the parts run in GOV-5's ranges, and in its detail what the
// same parts find beyond them (recorded, not a violation).
verify::CheckResult merge_exact(verify::CheckResult in_range, const verify::CheckResult& beyond);

template <class S>
verify::CheckResult run_predictor_exact(std::string_view subject,
                                        const verify::RunOptions& options) {
  verify::RunOptions half = options;
  half.budget_seconds = options.budget_seconds / 2;
  std::vector<Part> in_range;
  std::vector<Part> beyond;
  for (const std::string& part : exact_parts()) {
    in_range.push_back({part, {"GOV-5"}, [part] { predictor_exact_body<S>(part, kKernelRange); }});
    beyond.push_back({part, {"GOV-5"}, [part] { predictor_exact_body<S>(part, kBeyondRange); }});
  }
  return merge_exact(run_parts("governor_predictor_exact", subject, in_range, half),
                     run_parts("governor_predictor_exact", subject, beyond, half));
}

// --- governor_wakeup_sequence -------------------------------------------------------

// The history invariants menu_update() keeps: every correction factor in
// 1..8192, the ring pointer below 8 ("" if they hold).
std::string history_invariant_failure(const ConcreteHistory& h);

const std::vector<std::string>& sequence_clauses();  // GOV-1..5, GOV-8, GOV-9

template <class S>
void sequence_body(const std::string& clause) {
  const SequenceCase c = *gen::sequence_case();
  const size_t n = c.states.size();
  const bool exact = clause == "GOV-5" || clause == "GOV-8";
  ConcreteHistory h = c.start;
  ConcreteInputs in;
  in.tick_ns = Concrete::lit<64>(governor::tick_nsec(c.hz));
  in.last_state_idx = Concrete::lit<32>(0);
  in.last_residency_ns = Concrete::lit<64>(0);
  in.poll_time_limit = false;
  for (size_t k = 0; k < c.steps.size(); ++k) {
    const WakeStep& s = c.steps[k];
    const std::string where = strprintf("selection %zu of %zu: ", k + 1, c.steps.size());
    in.latency_req_ns = Concrete::lit<64>(s.latency_req_ns);
    in.sleep_length_ns = Concrete::lit<64>(s.sleep_length_ns);
    in.delta_tick_ns = Concrete::lit<64>(s.delta_tick_ns);
    in.tick_stopped = s.tick_stopped;
    if (exact) {
      // GOV-5 is promised for a ring of entries in its range; an entry
      // outside it comes from a GOV-8 violation, reported there.
      for (const Discrepancy& d : exact_discrepancies<S>(c.states, h, in)) {
        if (d.clause != clause || !d.ring_in_range) continue;
        RC_FAIL(clause + ": " + where + "(" + d.part + ") " + d.message + "; " + show_history(h) +
                "; " + show_inputs(in, c.hz, h.needs_update));
      }
    }
    const ConcreteChoice chosen = governor::select<S, Concrete>(c.states, h, in);
    if (chosen.idx.v >= n) {
      RC_FAIL(clause + ": " + where + "index " + std::to_string(chosen.idx.v) +
              " outside the table");
    }
    if (clause == "GOV-5") {
      const std::string bad = history_invariant_failure(h);
      if (!bad.empty()) RC_FAIL("GOV-5: " + where + bad + "; " + show_history(h));
    } else if (!exact) {
      const std::string why =
          clause_failure(governor::oracle::judge_selection(c.states, in, chosen), clause, c.states);
      if (!why.empty()) {
        RC_FAIL(clause + ": " + where + show_inputs(in, c.hz, true) + ": chose " +
                show_choice(chosen) + ": " + why);
      }
    }
    // The wake-up: what the cpuidle core records for the next selection.
    in.last_state_idx = chosen.idx;
    if (s.rejected) {
      in.last_residency_ns = Concrete::lit<64>(0);
      in.poll_time_limit = false;
    } else {
      in.last_residency_ns = Concrete::lit<64>(s.residency_ns);
      in.poll_time_limit = s.poll_time_limit && c.states[chosen.idx.v].polling;
      governor::reflect<Concrete>(h, s.got_tick && !s.tick_stopped);
    }
  }
}

template <class S>
verify::CheckResult run_wakeup_sequence(std::string_view subject,
                                        const verify::RunOptions& options) {
  std::vector<Part> parts;
  for (const std::string& clause : sequence_clauses()) {
    parts.push_back({clause, {clause}, [clause] { sequence_body<S>(clause); }});
  }
  return run_parts("governor_wakeup_sequence", subject, parts, options);
}

// --- governor_monotonic -------------------------------------------------------------

// The values a monotonic case walks at, ascending: `low`, `high`, 0, and
// each exit latency (limit) or target residency (prediction), the tick and
// the time to the timer, each also one less, all below `top`.
std::vector<uint64_t> monotonic_points(const MonotonicCase& c);

template <class S>
void monotonic_body(MonotonicCase::Kind kind) {
  const MonotonicCase c = *gen::monotonic_case(kind);
  const char* what = kind == MonotonicCase::kLimit ? "limit" : "prediction";
  bool first = true;
  uint64_t last_value = 0;
  ConcreteChoice last;
  for (uint64_t v : monotonic_points(c)) {
    ConcreteInputs in = c.inputs;
    ConcretePrediction p = c.prediction;
    if (kind == MonotonicCase::kLimit) {
      in.latency_req_ns = p.latency_req_ns = Concrete::lit<64>(v);
    } else {
      p.predicted_ns = Concrete::lit<64>(v);
    }
    const ConcreteChoice now = governor::walk<S, Concrete>(c.states, p, in);
    if (!first && now.idx.v < last.idx.v) {
      RC_FAIL(
          strprintf("GOV-6: %s %llu ns chose ", what, static_cast<unsigned long long>(last_value)) +
          show_choice(last) +
          strprintf("; the larger %s %llu ns chose ", what, static_cast<unsigned long long>(v)) +
          show_choice(now));
    }
    first = false;
    last_value = v;
    last = now;
  }
}

template <class S>
verify::CheckResult run_monotonic(std::string_view subject, const verify::RunOptions& options) {
  return run_parts(
      "governor_monotonic", subject,
      {{"limit", {"GOV-6"}, [] { monotonic_body<S>(MonotonicCase::kLimit); }},
       {"prediction", {"GOV-6"}, [] { monotonic_body<S>(MonotonicCase::kPrediction); }}},
      options);
}

// --- the checks as verify runs them ---------------------------------------------------

// Calls f(S{}) for the subject type named `subject` (v6.14, seed-v2,
// seed-threshold, reference, v6.19, mainline); an unknown verdict naming the subject
// otherwise.
template <class F>
verify::CheckResult with_subject(std::string_view subject, F&& f) {
  using namespace governor;
  if (subject == V614::name) return f(V614{});
  if (subject == SeedV2::name) return f(SeedV2{});
  if (subject == SeedThreshold::name) return f(SeedThreshold{});
  if (subject == Reference::name) return f(Reference{});
  if (subject == V619::name) return f(V619{});
  if (subject == Mainline::name) return f(Mainline{});
  verify::CheckResult none;
  none.detail = "the governor properties have no subject named '" + std::string(subject) + "'";
  return none;
}

// governor_selection, governor_wakeup_sequence, governor_predictor_exact,
// governor_monotonic for a subject.
verify::CheckResult run_governor_property(std::string_view name, std::string_view subject,
                                          const verify::RunOptions& options);

// The names of the four checks.
const std::vector<std::string>& governor_property_names();

}  // namespace idlespec::props::gov
