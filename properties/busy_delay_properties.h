// The busy_delay properties (spec/busy_delay.md), RapidCheck bodies run
// through props::run_property (so verify's --seed, --cases and --budget
// apply and a failure carries a replay command), each a template over the
// policy types of a subject (its forms), so that the witnesses of
// tests/witnesses/busy_delay_witnesses.h run through the same code:
//
//   busy_delay_single_status   BUSY-1, 2, 3, 5: one status (biased to -2,
//                              9898..9907, 0, small negatives, any u32),
//                              need_resched() either way, judged against
//                              oracle/busy_delay.h. One RapidCheck
//                              run per clause, merged: RapidCheck stops at
//                              the first failure, and the verdict must name
//                              every clause that breaks (legacy: BUSY-2 and
//                              BUSY-3).
//   busy_delay_loop_bounded    BUSY-6: a status sequence (mostly busy and
//                              extended) through busy_delay::drive: at most
//                              k x 1000 ms of sleep for the k statuses
//                              consumed, and the loop stops exactly at the
//                              first status that is neither busy nor extended.
//   busy_delay_early_sequence  BUSY-7: runs of extended (990..1010 long, so
//                              that the give-up boundary is hit), busy and
//                              other statuses through one ConcreteContext,
//                              loop after loop as the kernel's static count
//                              lives on, judged by oracle/busy_delay.h.
#pragma once

#include <rapidcheck.h>

#include <array>
#include <cstdint>
#include <functional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "impl/busy_delay.h"
#include "impl/text.h"
#include "oracle/busy_delay.h"
#include "properties/run_property.h"
#include "verify/registry.h"

namespace idlespec::props {

// --- inputs ------------------------------------------------------------------

// One status for one form of a subject.
struct StatusCase {
  uint32_t status = 0;
  bool need_resched = false;
  std::string_view form;
  size_t form_index = 0;
};
void showValue(const StatusCase& c, std::ostream& os);

// A retry loop's firmware answers.
struct LoopCase {
  std::vector<uint32_t> statuses;
  bool need_resched = false;
  std::string_view form;
  size_t form_index = 0;
};
void showValue(const LoopCase& c, std::ostream& os);

// `repeat` times the same status.
struct StatusRun {
  uint32_t status = 0;
  uint32_t repeat = 1;
};
// Statuses for the early-boot policy, as runs (expanded by the property).
struct EarlySequence {
  std::vector<StatusRun> runs;
  size_t length() const;
};
void showValue(const EarlySequence& s, std::ostream& os);

// "-2", "9906", "0x80000000" (large magnitudes in hex)
std::string show_rtas_status(uint32_t status);

namespace gen {

// RapidCheck's inRange scales its range with the size (small sizes give the
// lower end); resized to the nominal size 100 it covers the whole range.
template <class T>
rc::Gen<T> uniform_in(T min, T max_exclusive) {
  return rc::gen::resize(100, rc::gen::inRange<T>(min, max_exclusive));
}

// Biased: -2, 9898..9907, 0, small negatives, small and arbitrary u32.
rc::Gen<uint32_t> busy_delay_status();
// A status that is neither busy nor extended (for the model: "anything else").
rc::Gen<uint32_t> final_status();
// Mostly busy and extended, now and then a final status (0..24 statuses).
rc::Gen<std::vector<uint32_t>> loop_statuses();
// 1..12 runs: long extended runs (990..1010), short extended runs, busy, other.
rc::Gen<EarlySequence> early_sequence();

}  // namespace gen

// --- busy_delay_single_status -------------------------------------------------

// The clause with bit `clause` (busy_delay::oracle::kBusy1 ...) for one status of one of
// the forms: RC_FAIL("BUSY-n: ...") when the request breaks it.
template <class... Policies>
void single_status_body(unsigned clause) {
  static constexpr std::array<busy_delay::PolicyInfo, sizeof...(Policies)> forms = {
      busy_delay::policy_info<Policies>()...};
  const StatusCase c = *rc::gen::exec([] {
    StatusCase s;
    s.status = *gen::busy_delay_status();
    s.need_resched = *rc::gen::arbitrary<bool>();
    s.form_index = forms.size() == 1 ? 0 : *gen::uniform_in<size_t>(0, forms.size());
    s.form = forms[s.form_index].form;
    return s;
  });
  busy_delay::ConcreteContext ctx{c.need_resched, 0};
  const busy_delay::Request r = forms[c.form_index].step(c.status, ctx);
  if (busy_delay::oracle::step_violations(c.status, r, clause) != 0) {
    unsigned index = 0;
    while (!(clause & (1u << index))) ++index;
    RC_FAIL(busy_delay::oracle::clause_id(index) + ": " +
            busy_delay::oracle::show_status(c.status) + " (" + std::string(c.form) +
            ", need_resched " + (c.need_resched ? "true" : "false") +
            "): " + busy_delay::describe(r) +
            "; the spec: " + busy_delay::oracle::spec_expectation(index, c.status));
  }
}

// Runs `body(clause)` as its own RapidCheck property for each clause of
// `clauses` (the time budget shared out) and merges the verdicts: fail with
// violated = the clauses that failed, each with its counterexample; unknown
// if a clause neither passed nor failed.
verify::CheckResult run_per_clause(std::string_view name, std::string_view subject,
                                   const std::vector<std::string>& clauses,
                                   const verify::RunOptions& options,
                                   const std::function<PropertyBody(unsigned clause)>& body);

template <class... Policies>
verify::CheckResult run_single_status(std::string_view subject,
                                      const std::vector<std::string>& clauses,
                                      const verify::RunOptions& options) {
  return run_per_clause("busy_delay_single_status", subject, clauses, options,
                        [](unsigned clause) -> PropertyBody {
                          return [clause] { single_status_body<Policies...>(clause); };
                        });
}

// --- busy_delay_loop_bounded --------------------------------------------------

// BUSY-6 for one loop driven through busy_delay::drive, judged by
// oracle/busy_delay.h (judge_runtime_loop); RC_FAIL on a violation.
void check_loop(const LoopCase& c, const busy_delay::LoopTrace& t);

template <class... Policies>
void loop_bounded_body() {
  static constexpr std::array<busy_delay::PolicyInfo, sizeof...(Policies)> forms = {
      busy_delay::policy_info<Policies>()...};
  const LoopCase c = *rc::gen::exec([] {
    LoopCase l;
    l.statuses = *gen::loop_statuses();
    l.need_resched = *rc::gen::arbitrary<bool>();
    l.form_index = forms.size() == 1 ? 0 : *gen::uniform_in<size_t>(0, forms.size());
    l.form = forms[l.form_index].form;
    return l;
  });
  busy_delay::ConcreteContext ctx;
  check_loop(c, busy_delay::drive(forms[c.form_index].step, c.statuses, c.need_resched, ctx));
}

template <class... Policies>
verify::CheckResult run_loop_bounded(std::string_view subject, const verify::RunOptions& options) {
  return run_property("busy_delay_loop_bounded", subject, {"BUSY-6"}, options,
                      &loop_bounded_body<Policies...>);
}

// --- busy_delay_early_sequence ------------------------------------------------

// BUSY-7 for the calls of an early sequence, judged by oracle/busy_delay.h
// (judge_early_calls); RC_FAIL on a violation.
void check_early(const std::vector<busy_delay::oracle::Call>& calls);

template <class Policy>
void early_sequence_body() {
  const EarlySequence seq = *gen::early_sequence();
  busy_delay::ConcreteContext ctx;  // the kernel's static: lives across loops
  std::vector<busy_delay::oracle::Call> calls;
  for (const StatusRun& run : seq.runs) {
    for (uint32_t i = 0; i < run.repeat; ++i) {
      // The caller's loop ends where a request does not retry; the next
      // status starts the next loop.
      calls.push_back({run.status, busy_delay::concrete_step<Policy>(run.status, ctx)});
    }
  }
  check_early(calls);
}

template <class Policy>
verify::CheckResult run_early_sequence(std::string_view subject,
                                       const verify::RunOptions& options) {
  return run_property("busy_delay_early_sequence", subject, {"BUSY-7"}, options,
                      &early_sequence_body<Policy>);
}

// --- the checks as verify runs them -------------------------------------------

// busy_delay_single_status, busy_delay_loop_bounded, busy_delay_early_sequence
// for the subjects reference (both forms), legacy and early.
verify::CheckResult run_busy_delay_property(std::string_view name, std::string_view subject,
                                            const verify::RunOptions& options);

}  // namespace idlespec::props
