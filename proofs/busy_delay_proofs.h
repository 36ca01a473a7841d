// The busy_delay proofs (spec/busy_delay.md, BUSY-1..5, 7) and what they
// share: the subjects as symbolic policies, the symbolic inputs of one step,
// and the counterexample text.
//
// A subject is one or more forms, each a policy of impl/busy_delay.h's shape
// (`template <class D> static Step<D> step(U32 status, Context<D>& ctx)`)
// instantiated with Z3Domain, so every proof is about the policy that runs.
// `reference` has two forms (ReferencePolicy, ReferenceFsleepPolicy) and
// holds a clause only if both do; `legacy` and `early` have one each.
// Witnesses (tests/witnesses/) are subjects made of broken policies.
//
// The delay time (BUSY-4) is part of a form: a policy may bring its own
// rtas_busy_delay_time() as
//   template <class D> static typename D::template U<32> delay_time(typename D::template U<32>);
// otherwise the form's delay time is busy_delay::delay_time_ms, the function
// every shipped subject shares. A witness with its own table is thereby
// checked against the table, not silently replaced by the shared one.
//
// The proofs themselves live in proofs/busy_delay_<name>.cc, each opening
// with the clause it discharges; the catalog below pairs them with clauses
// and subjects as the spec's "- Checks:" and "- Subjects:" lines do, and
// proofs/busy_delay_register.cc turns each into a verify::Check.
#pragma once

#include <concepts>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "impl/busy_delay.h"
#include "proofs/proof.h"
#include "proofs/z3_domain.h"

namespace idlespec::proofs {

using BusyStep = busy_delay::Step<Z3Domain>;
using BusyContext = busy_delay::Context<Z3Domain>;
using BusyStepFn = BusyStep (*)(Sym<32> status, BusyContext& ctx);
using DelayTimeFn = Sym<32> (*)(Sym<32> status);

// A policy that brings its own delay time.
template <class Policy>
concept HasOwnDelayTime = requires(Sym<32> s) {
  { Policy::template delay_time<Z3Domain>(s) } -> std::same_as<Sym<32>>;
};

template <class Policy>
BusyStep symbolic_step(Sym<32> status, BusyContext& ctx) {
  return Policy::template step<Z3Domain>(status, ctx);
}

template <class Policy>
Sym<32> symbolic_delay_time(Sym<32> status) {
  if constexpr (HasOwnDelayTime<Policy>) {
    return Policy::template delay_time<Z3Domain>(status);
  } else {
    return busy_delay::delay_time_ms<Z3Domain>(status);
  }
}

// One form of a subject.
struct BusyForm {
  std::string form;  // e.g. "usleep_range/msleep", "fsleep"
  BusyStepFn step;
  DelayTimeFn delay_time;
  bool own_delay_time = false;  // the policy brings its own delay time
};

struct BusySubject {
  std::string name;  // reference, legacy, early, or a witness's subject name
  std::vector<BusyForm> forms;
};

template <class Policy>
BusyForm busy_form_of() {
  return {std::string(Policy::form), &symbolic_step<Policy>, &symbolic_delay_time<Policy>,
          HasOwnDelayTime<Policy>};
}

// A subject made of the given policies; its name is the first one's subject.
template <class Policy, class... More>
BusySubject busy_subject_of() {
  return {std::string(Policy::subject), {busy_form_of<Policy>(), busy_form_of<More>()...}};
}

// The shipped subjects: reference (both forms), legacy, early; nullopt for
// any other name.
std::optional<BusySubject> busy_subject(std::string_view name);

// ---- What the proofs share ---------------------------------------------

// The inputs of one step: every 32-bit status, either need_resched(), any
// consecutive count (the proofs that care constrain it by assumptions), and
// the step of one form on them. Needs a Z3Scope.
struct BusyStepRun {
  Sym<32> status;
  SymBool need_resched;
  Sym<32> consecutive;  // the count before the step
  Sym<32> next_count;   // the count after it (Context::consecutive as the step left it)
  BusyStep step;
  Sym<32> delay_time_ms;  // the form's delay time of `status` (BUSY-4)
  bool own_delay_time = false;

  explicit BusyStepRun(const BusyForm& form);

  // "status 4294967294 (0xfffffffe, -2), need_resched true, consecutive 0"
  // and "request: retry, usleep_range(100, 1000 us) [primitive 1, min_us 100,
  // max_us 1000, cond_resched false]" under the model.
  std::string describe(const z3::model& m, bool show_count = false) const;
  busy_delay::Request request(const z3::model& m) const;
  // Preferences for a short counterexample: need_resched false, consecutive 0.
  std::vector<z3::expr> preferences() const;
};

// The clause's view of a status, stated over raw bit-vectors (never through
// impl/'s is_busy / is_extended_delay, which are code under proof).
z3::expr status_is_busy(const Sym<32>& status);      // status = 0xfffffffe
z3::expr status_is_extended(const Sym<32>& status);  // 9900 <= status <= 9905
// The delay-time table of BUSY-4: -2 -> 1, 990n -> 10^n, else 0 (BV32).
z3::expr expected_delay_time(const Sym<32>& status);
// "9903 (0x26af)", "4294967294 (0xfffffffe, -2)".
std::string status_text(uint32_t status);
// The query label of one form: "reference (fsleep)".
std::string form_label(const BusySubject& subject, const BusyForm& form);

// Decides `obligation` for every form of the subject (a fresh Z3Scope and
// fresh inputs per form); stops at the first counterexample.
using BusyObligation = std::function<void(const BusyStepRun&, Obligation&)>;
ProofResult prove_over_forms(const std::string& name, const BusySubject& subject,
                             const ProofOptions& options, const BusyObligation& obligation,
                             const std::string& statement);

// ---- The proofs ---------------------------------------------------------

using BusyProofFn = ProofResult (*)(const BusySubject&, const ProofOptions&);

ProofResult prove_busy_delay_retry_set(const BusySubject& s, const ProofOptions& o);     // BUSY-1
ProofResult prove_busy_delay_busy_yields(const BusySubject& s, const ProofOptions& o);   // BUSY-2
ProofResult prove_busy_delay_sleep_bounds(const BusySubject& s, const ProofOptions& o);  // BUSY-3
ProofResult prove_busy_delay_time_table(const BusySubject& s, const ProofOptions& o);    // BUSY-4
ProofResult prove_busy_delay_other_quiet(const BusySubject& s, const ProofOptions& o);   // BUSY-5
ProofResult prove_busy_delay_early_counter(const BusySubject& s,
                                           const ProofOptions& o);  // BUSY-7

// ---- The catalog --------------------------------------------------------
//
// proofs/catalog.h's ProofEntry runs a proof against the reference only;
// these run against any subject, so they have a catalog of their own.

struct BusyDelayProofEntry {
  std::string name;                   // as spec/busy_delay.md lists it
  std::vector<std::string> clauses;   // as the "- Checks:" lines pair them
  std::vector<std::string> subjects;  // the "- Subjects:" of those clauses
  BusyProofFn prove;
};

const std::vector<BusyDelayProofEntry>& busy_delay_proof_catalog();
const BusyDelayProofEntry* find_busy_delay_proof(std::string_view name);

}  // namespace idlespec::proofs
