// The governor proofs (spec/governor.md, GOV-1..8) and what they share: the
// subjects as symbolic functions, the symbolic inputs of one state walk, and
// the counterexample text.
//
// A subject is one of impl/governor.h's subject types (or a witness derived
// from one), its walk(), menu_update(), typical interval and timer estimate
// instantiated with Z3Domain, so every proof is about the code that runs.
//
// The walk proofs (GOV-1..4, 6, 7) ask one query per table size n = 1..8
// (n concrete, every field of every state symbolic): a symbolic Prediction
// and symbolic Inputs, every 64-bit value below 2^63 (the kernel's s64
// range), tick_ns one of TICK_NSEC for HZ 100, 250 and 1000. The
// prediction's latency limit is the inputs' one (predict() passes it on
// unchanged), everything else in the prediction is free. GOV-2, GOV-3 and
// GOV-6 assume tables keeping STATES-1..3; GOV-1, GOV-4 and GOV-7 assume
// nothing of the table.
//
// The clauses are stated here from the spec's prose over the raw state
// fields (first enabled state, the exceptions of GOV-1), never through
// impl/governor.h's helpers; a counterexample is also replayed on the
// concrete walk so that tests can judge it with oracle/governor.h.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "impl/governor.h"
#include "proofs/proof.h"
#include "proofs/z3_domain.h"

namespace idlespec::proofs {

using GovState = governor::State<Z3Domain>;
using GovHistory = governor::History<Z3Domain>;
using GovInputs = governor::Inputs<Z3Domain>;
using GovPrediction = governor::Prediction<Z3Domain>;
using GovChoice = governor::Choice<Z3Domain>;

using GovWalkFn = GovChoice (*)(std::span<const GovState>, const GovPrediction&, const GovInputs&);
using GovUpdateFn = void (*)(std::span<const GovState>, GovHistory&, const GovInputs&,
                             governor::UpdateTrace<Z3Domain>*);
using GovTypicalFn = Sym<32> (*)(const GovHistory&, governor::IntervalTrace<Z3Domain>*);
using GovTimerFn = governor::TimerEstimate<Z3Domain> (*)(Sym<64>, Sym<32>);
using GovPredictTypicalFn = GovPrediction (*)(GovHistory&, const GovInputs&, Sym<32>);

// One subject, symbolic and concrete.
struct GovernorSubject {
  std::string name;
  GovWalkFn walk;
  GovUpdateFn update;
  GovTypicalFn typical;
  GovTimerFn timer;
  governor::Predictor predictor;
  governor::WalkFn concrete_walk;
  GovPredictTypicalFn predict_typical;  // predict() after the typical interval
};

template <class S>
GovChoice symbolic_walk(std::span<const GovState> states, const GovPrediction& p,
                        const GovInputs& in) {
  return governor::walk<S, Z3Domain>(states, p, in);
}
template <class S>
void symbolic_update(std::span<const GovState> states, GovHistory& h, const GovInputs& in,
                     governor::UpdateTrace<Z3Domain>* trace) {
  governor::menu_update<S, Z3Domain>(states, h, in, trace);
}
template <class S>
Sym<32> symbolic_typical(const GovHistory& h, governor::IntervalTrace<Z3Domain>* trace) {
  return governor::typical_interval<S, Z3Domain>(h, trace);
}
template <class S>
governor::TimerEstimate<Z3Domain> symbolic_timer(Sym<64> delta, Sym<32> factor) {
  return governor::timer_estimate<S, Z3Domain>(delta, factor);
}

template <class S>
GovPrediction symbolic_predict_typical(GovHistory& h, const GovInputs& in, Sym<32> typical_us) {
  return governor::predict_from_typical<S, Z3Domain>(h, in, typical_us);
}
template <class S>
GovernorSubject governor_subject_of() {
  return {std::string(S::name),         &symbolic_walk<S>,           &symbolic_update<S>,
          &symbolic_typical<S>,         &symbolic_timer<S>,          S::predictor,
          &governor::walk<S, Concrete>, &symbolic_predict_typical<S>};
}

// The shipped subjects by name (v6.14, seed-v2, seed-threshold, reference,
// v6.19, mainline); nullopt for any other.
std::optional<GovernorSubject> governor_subject(std::string_view name);
const std::vector<std::string>& governor_subject_names();

// ---- The kernel's ranges (GOV-5) --------------------------------------------

// Exit latencies, target residencies, the time to the next timer and to the
// next tick, last_residency_ns: below 2^40 ns (spec/governor.md, Value
// ranges).
inline constexpr uint64_t kGovTimeLimitNs = uint64_t{1} << 40;
// Interval ring entries: what menu_update() stores for a period below 2^40
// ns, in us (at most (2^40 - 1) / 1000 = 1099511627), or UINT_MAX.
inline constexpr uint32_t kGovMaxRingUs =
    static_cast<uint32_t>((kGovTimeLimitNs - 1) / governor::kNsecPerUsec);
// Correction factors: 1 .. 8192.
inline constexpr uint32_t kGovMinFactor = 1;
inline constexpr uint32_t kGovMaxFactor = governor::kUnityFactor;  // 8192

// ---- One state walk -----------------------------------------------------------

// A concrete walk as a model gives it: the table, the prediction, the inputs
// and the choice the symbolic walk made.
struct GovWalkCase {
  std::vector<governor::State<Concrete>> states;
  governor::Prediction<Concrete> prediction;
  governor::ConcreteInputs inputs;
  governor::ConcreteChoice choice;
};

// Which walks a query covers; the checks use the defaults.
struct GovWalkScope {
  size_t min_states = 1;
  size_t max_states = 8;
  // Restricts tick_stopped when set (tests: "only with the tick stopped").
  std::optional<bool> tick_stopped;
  // Filled with the counterexample, when there is one.
  GovWalkCase* counterexample = nullptr;
};

// The symbols of one walk over a table of n states. Needs a Z3Scope.
struct GovWalkInputs {
  size_t n = 0;
  std::vector<GovState> states;
  GovPrediction prediction;
  GovInputs inputs;

  // Fresh symbols, names suffixed by `tag`.
  GovWalkInputs(size_t n, const std::string& tag = "");

  // Every 64-bit value below 2^63, tick_ns one of the three TICK_NSEC.
  z3::expr domain() const;
  // STATES-1..3: exit latencies and target residencies non-decreasing, each
  // residency at least its exit latency.
  z3::expr ordered() const;

  // The clause's view of the table, from the raw fields.
  z3::expr any_enabled() const;
  Sym<32> first_enabled() const;  // n when none is enabled
  z3::expr gov1_exception() const;
  z3::expr in_range(const Sym<32>& idx) const;
  z3::expr disabled_at(const Sym<32>& idx) const;
  z3::expr polling_at(const Sym<32>& idx) const;
  Sym<64> exit_at(const Sym<32>& idx) const;
  Sym<64> residency_at(const Sym<32>& idx) const;
  // The chosen state is the fall-back: the first enabled one, or state 0 in
  // a GOV-1 exception.
  z3::expr fallback(const Sym<32>& idx) const;

  // Preferences for a readable counterexample.
  std::vector<z3::expr> preferences() const;

  // The table, prediction and inputs under the model (multi-line).
  std::string describe(const z3::model& m) const;
  GovWalkCase concrete(const z3::model& m, const GovChoice& c) const;
};

// "choice: idx 2 (path tick-stopped-promotion), stop_tick true, predicted_ns 50000000"
std::string describe_choice(const z3::model& m, const GovChoice& c);
// "1000000 (HZ=1000)"
std::string tick_text(uint64_t tick_ns);

// Runs `parts` (each a complete proof) and merges them into one result:
// violated if any part is (every violated part's counterexample listed, and
// its queries last), else unknown if any part is, else held.
ProofResult merge_parts(const std::string& name, std::vector<ProofResult> parts,
                        const std::string& statement);

// ---- The proofs ---------------------------------------------------------------

ProofResult prove_governor_chosen_enabled(const GovernorSubject& s, const ProofOptions& o,
                                          const GovWalkScope& scope = {});  // GOV-1
ProofResult prove_governor_latency_limit(const GovernorSubject& s, const ProofOptions& o,
                                         const GovWalkScope& scope = {});  // GOV-2
ProofResult prove_governor_residency_fits(const GovernorSubject& s, const ProofOptions& o,
                                          const GovWalkScope& scope = {});  // GOV-3
ProofResult prove_governor_tick_polling(const GovernorSubject& s, const ProofOptions& o,
                                        const GovWalkScope& scope = {});  // GOV-4
ProofResult prove_governor_any_table(const GovernorSubject& s, const ProofOptions& o,
                                     const GovWalkScope& scope = {});  // GOV-7
ProofResult prove_governor_monotonic(const GovernorSubject& s, const ProofOptions& o,
                                     const GovWalkScope& scope = {});  // GOV-6
ProofResult prove_governor_no_overflow(const GovernorSubject& s, const ProofOptions& o,
                                       const GovWalkScope& scope = {});  // GOV-5, GOV-8
ProofResult prove_governor_timer_fits(const GovernorSubject& s, const ProofOptions& o,
                                      const GovWalkScope& scope = {});  // GOV-9

// ---- The catalog ----------------------------------------------------------------

using GovProofFn = ProofResult (*)(const GovernorSubject&, const ProofOptions&,
                                   const GovWalkScope&);

struct GovernorProofEntry {
  std::string name;
  std::vector<std::string> clauses;
  std::vector<std::string> subjects;
  GovProofFn prove;
};

const std::vector<GovernorProofEntry>& governor_proof_catalog();
const GovernorProofEntry* find_governor_proof(std::string_view name);

}  // namespace idlespec::proofs
