// The TEO properties (spec/teo.md), RapidCheck bodies run through
// props::run_parts (verify's --seed, --cases and --budget apply, a failure
// carries a replay command), templates over the subject type so that the
// witnesses of tests/witnesses/teo_witnesses.h run through the same code:
//
//   teo_selection        TEO-1..5: a generated table (ordered four times in
//                        five), per-CPU metrics anywhere in TEO-6's
//                        invariant and the inputs of one call, through
//                        select(), judged by oracle/teo.h.
//   teo_wakeup_sequence  TEO-1..6: selections from a fresh CPU, each
//                        followed by a generated idle period (residency,
//                        tick wake-up, polling time-out) and the update;
//                        every selection judged, and the metrics after
//                        every update (TEO-6).
//
// One RapidCheck run per clause, merged, so that a verdict names every
// clause that breaks (TEO-1 breaks for every subject: spec/teo.md's
// finding).
#pragma once

#include <rapidcheck.h>

#include <cstdint>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "impl/teo.h"
#include "oracle/teo.h"
#include "properties/governor_gen.h"
#include "properties/run_property.h"
#include "verify/registry.h"

namespace idlespec::props::teo_props {

using Table = gov::Table;

// One teo_select() call.
struct SelectionCase {
  Table states;
  unsigned hz = 1000;
  teo::ConcreteCpu cpu;
  teo::ConcreteInputs inputs;
};

// One selection and the idle period after it.
struct Step {
  uint64_t latency_req_ns = 0;
  uint64_t sleep_length_ns = 0;
  uint64_t delta_tick_ns = 0;
  bool tick_stopped = false;
  uint64_t residency_ns = 0;  // how long the CPU stayed in the chosen state
  bool got_tick = false;
  bool poll_time_limit = false;  // applies when the chosen state polls
};

struct SequenceCase {
  Table states;
  unsigned hz = 1000;
  std::vector<Step> steps;
};

void showValue(const SelectionCase& c, std::ostream& os);
void showValue(const SequenceCase& c, std::ostream& os);

namespace gen {
rc::Gen<SelectionCase> selection_case();
rc::Gen<SequenceCase> sequence_case();
}  // namespace gen

teo::ConcreteInputs inputs_of(const Step& s, unsigned hz);
// "state 2, stop the tick"
std::string show_choice(const teo::ConcreteChoice& c);
// The message of the violation of `clause` in `v`, "" if none.
std::string failure_of(const teo::oracle::Violations& v, const std::string& clause);

const std::vector<std::string>& selection_clauses();  // TEO-1..5
const std::vector<std::string>& sequence_clauses();   // TEO-1..6

template <class S>
void selection_body(const std::string& clause) {
  SelectionCase c = *gen::selection_case();
  const teo::ConcreteChoice chosen = teo::select<S, Concrete>(c.states, c.cpu, c.inputs);
  const std::string why =
      failure_of(teo::oracle::judge_selection(c.states, c.inputs, chosen), clause);
  if (!why.empty()) RC_FAIL(clause + ": select() chose " + show_choice(chosen) + ": " + why);
}

template <class S>
void sequence_body(const std::string& clause) {
  const SequenceCase c = *gen::sequence_case();
  teo::ConcreteCpu cpu = teo::fresh_cpu<Concrete>();
  const Word<64> tick = Concrete::lit<64>(1000000000ULL / c.hz);
  for (size_t k = 0; k < c.steps.size(); ++k) {
    const Step& st = c.steps[k];
    const teo::ConcreteInputs in = inputs_of(st, c.hz);
    const teo::ConcreteChoice chosen = teo::select<S, Concrete>(c.states, cpu, in);
    std::string why = failure_of(teo::oracle::judge_selection(c.states, in, chosen), clause);
    if (!why.empty()) {
      RC_FAIL(clause + ": selection " + std::to_string(k) + " chose " + show_choice(chosen) + ": " +
              why);
    }
    teo::ConcretePeriod p;
    p.last_state_idx = chosen.idx;
    p.last_residency_ns = Concrete::lit<64>(st.residency_ns);
    p.poll_time_limit =
        st.poll_time_limit && chosen.idx.v < c.states.size() && c.states[chosen.idx.v].polling;
    p.got_tick = st.got_tick;
    p.elapsed_ns = Concrete::lit<64>(st.residency_ns);
    teo::learn<S, Concrete>(c.states, cpu, p, tick);
    why = failure_of(teo::oracle::judge_metrics(c.states.size(), cpu, S::era), clause);
    if (!why.empty()) {
      RC_FAIL(clause + ": after update " + std::to_string(k) + " (chose " + show_choice(chosen) +
              ", stayed " + std::to_string(st.residency_ns) + " ns): " + why);
    }
  }
}

template <class S>
verify::CheckResult run_selection(std::string_view subject, const verify::RunOptions& options) {
  std::vector<Part> parts;
  for (const std::string& clause : selection_clauses()) {
    parts.push_back({clause, {clause}, [clause] { selection_body<S>(clause); }});
  }
  return run_parts("teo_selection", subject, parts, options);
}

template <class S>
verify::CheckResult run_wakeup_sequence(std::string_view subject,
                                        const verify::RunOptions& options) {
  std::vector<Part> parts;
  for (const std::string& clause : sequence_clauses()) {
    parts.push_back({clause, {clause}, [clause] { sequence_body<S>(clause); }});
  }
  return run_parts("teo_wakeup_sequence", subject, parts, options);
}

// teo_selection or teo_wakeup_sequence for a subject of impl/teo.h by name;
// unknown for a name that is none.
verify::CheckResult run_teo_property(std::string_view check, std::string_view subject,
                                     const verify::RunOptions& options);

}  // namespace idlespec::props::teo_props
