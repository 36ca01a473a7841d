// The states proofs (spec/states.md, STATES-1..5, 7) and what they share:
// symbolic records, the table built from them, and the loop over every build
// configuration.
//
// The table is states::build_from_latencies<Z3Domain, Fixup>, the function
// build_raw() calls after converting ticks to microseconds, given FRESH
// symbolic latencies, one per record. That over-approximates every latency
// the conversion can produce, so a proof that holds for them holds for the
// table build_raw() builds; the conversion itself is proved separately
// (states_latency_conversion). Running build_raw() itself would put sixteen
// 128-bit divisions into every query, which the solver does not finish.
//
// The proofs are templates over the Fixup (reference: states::ExactMinFixup;
// witness: MinMinusOneFixup) and take any table builder of
// build_from_latencies' shape, so witnesses can be broken builders.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "impl/states.h"
#include "proofs/proof.h"
#include "proofs/z3_domain.h"

namespace idlespec::proofs {

// Records per proof: as many as the decoder hands over at the kernel's capacity.
inline constexpr uint32_t kProofRecords = xcede::kDefaultCapacity;

using Latency = Sym<128>;
using StatesTable = states::RawTable<Z3Domain>;

// Records as decode_raw hands them over: every field symbolic, present flags
// a prefix (present_i => present_(i-1)); a fresh latency in microseconds for
// each, at most (2^64 - 1) * 10^6, the largest value exact_latency_us
// returns for any tb_hz >= 1.
struct SymbolicRecords {
  std::vector<xcede::RawRecord<Z3Domain>> records;
  std::vector<Latency> latency_us;
  z3::expr assumptions;

  explicit SymbolicRecords(uint32_t n);  // needs a Z3Scope
  std::span<const xcede::RawRecord<Z3Domain>> record_span() const { return records; }
  std::span<const Latency> latency_span() const { return latency_us; }
  // The present records among the first `count`, one line each.
  std::string describe(const z3::model& m, size_t count = SIZE_MAX) const;
};

using TableFn = StatesTable (*)(std::span<const xcede::RawRecord<Z3Domain>>,
                                std::span<const Latency>, const states::BuildConfig&);

template <class Fixup>
TableFn table_with_fixup() {
  return &states::build_from_latencies<Z3Domain, Fixup>;
}

// The table `build` makes of the first k records (as with a k-record
// capacity: the other records do not exist).
StatesTable build_prefix(TableFn build, const SymbolicRecords& recs, size_t k,
                         const states::BuildConfig& cfg);

// Every configuration the builder distinguishes: dedicated/shared x fix-up
// gated in/out x XCEDE exposed or not (tb_hz only scales the snooze timeout).
std::vector<states::BuildConfig> all_build_configs(uint64_t tb_hz = states::kDefaultTbHz);
std::string config_label(const states::BuildConfig& cfg);

// The present states as cpupower idle-info would list them, and the snooze
// timeout.
std::string describe_table(const z3::model& m, const StatesTable& t);
std::string state_name(const z3::model& m, const states::RawState<Z3Domain>& s);
std::string state_ref(size_t index, const states::RawState<Z3Domain>& s);  // "state 3 (XCEDE)"

// The failures of one configuration's obligation, given its inputs and table.
using StatesObligation = std::function<void(const SymbolicRecords&, const StatesTable&,
                                            const states::BuildConfig&, std::vector<Failure>&)>;

// Builds the table for each configuration (fresh records each time) and
// decides the obligation for it; stops at the first counterexample.
ProofResult prove_over_configs(const std::string& name, TableFn build, const ProofOptions& options,
                               const std::vector<states::BuildConfig>& configs,
                               const StatesObligation& obligation, const std::string& statement);

// ---- The proofs ---------------------------------------------------------

ProofResult prove_states_monotonic(TableFn build, const ProofOptions& options);  // STATES-1, 2
ProofResult prove_states_residency_covers_latency(TableFn build,
                                                  const ProofOptions& options);       // STATES-3
ProofResult prove_states_no_wrap(TableFn build, const ProofOptions& options);         // STATES-4
ProofResult prove_states_state_max(TableFn build, const ProofOptions& options);       // STATES-5
ProofResult prove_states_xcede_exposure(TableFn build, const ProofOptions& options);  // STATES-7

template <class Fixup = states::ExactMinFixup>
ProofResult prove_states_monotonic(const ProofOptions& options) {
  return prove_states_monotonic(table_with_fixup<Fixup>(), options);
}
template <class Fixup = states::ExactMinFixup>
ProofResult prove_states_residency_covers_latency(const ProofOptions& options) {
  return prove_states_residency_covers_latency(table_with_fixup<Fixup>(), options);
}
template <class Fixup = states::ExactMinFixup>
ProofResult prove_states_no_wrap(const ProofOptions& options) {
  return prove_states_no_wrap(table_with_fixup<Fixup>(), options);
}
template <class Fixup = states::ExactMinFixup>
ProofResult prove_states_state_max(const ProofOptions& options) {
  return prove_states_state_max(table_with_fixup<Fixup>(), options);
}
template <class Fixup = states::ExactMinFixup>
ProofResult prove_states_xcede_exposure(const ProofOptions& options) {
  return prove_states_xcede_exposure(table_with_fixup<Fixup>(), options);
}

// STATES-4, the conversion: a ticks-to-microseconds conversion of
// exact_latency_us' shape.
using ConversionFn = Latency (*)(Sym<64> ticks, uint64_t tb_hz);
ProofResult prove_states_latency_conversion(ConversionFn convert, const ProofOptions& options);
inline ProofResult prove_states_latency_conversion(const ProofOptions& options) {
  return prove_states_latency_conversion(&states::exact_latency_us<Z3Domain>, options);
}
// The timebase frequencies the conversion proof covers.
std::vector<uint64_t> conversion_tb_hz();

}  // namespace idlespec::proofs
