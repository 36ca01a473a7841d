// STATES-7 (safety): with XCEDE states exposed, every XCEDE state comes from a
// record that wakes on external interrupts and whose hint is not 1, and it
// has TIMER_STOP exactly when its hint is above 0.
//
// Assumptions: 16 records with every field symbolic (any hint, any
// wake-on-irq byte) and present flags a prefix; a fresh latency per record,
// any value up to (2^64 - 1) * 10^6 us. Every build configuration
// (proofs/states_proofs.h): with XCEDE hidden the obligation says there is
// no XCEDE state that breaks it, i.e. none that is not allowed.
//
// Obligation: the table has snooze, CEDE, then one slot per record
// (states::RawTable); every present state of kind XCEDE in slot 2 + i comes
// from record i: record i is present, its wake-on-irq byte is non-zero, its
// hint is not 1 and is the state's hint, and TIMER_STOP <=> hint > 0.
//
// Verdict: held, or the records, the table and the state that breaks it.
#include "proofs/states_proofs.h"

namespace idlespec::proofs {

ProofResult prove_states_xcede_exposure(TableFn build, const ProofOptions& options) {
  auto obligation = [](const SymbolicRecords& recs, const StatesTable& t,
                       const states::BuildConfig&, std::vector<Failure>& failures) {
    z3::context& ctx = current_context();
    constexpr size_t kFirstXcede = 2;  // snooze, CEDE
    for (size_t k = 0; k < t.states.size(); ++k) {
      const auto& s = t.states[k];
      if (s.kind != states::Kind::xcede) continue;
      const std::string st = state_ref(k, s);
      if (k < kFirstXcede || k - kFirstXcede >= recs.records.size()) {
        failures.push_back({"STATES-7", st + " has no record slot", s.present.e});
        continue;
      }
      const size_t i = k - kFirstXcede;
      const auto& r = recs.records[i];
      const std::string rec = "record " + std::to_string(i);
      failures.push_back({"STATES-7", st + " comes from " + rec + ", which was not decoded",
                          s.present.e && !r.present.e});
      failures.push_back({"STATES-7",
                          st + " comes from " + rec + ", which does not wake on interrupts",
                          s.present.e && r.wake_on_irqs.e == ctx.bv_val(0, 8)});
      failures.push_back({"STATES-7", st + " comes from " + rec + ", whose hint is 1",
                          s.present.e && r.hint.e == ctx.bv_val(states::kXcede1Hint, 8)});
      failures.push_back(
          {"STATES-7", st + "'s hint is not " + rec + "'s", s.present.e && s.hint.e != r.hint.e});
      failures.push_back({"STATES-7", st + " has TIMER_STOP other than exactly when its hint > 0",
                          s.present.e && (s.timer_stop.e != z3::ugt(r.hint.e, ctx.bv_val(0, 8)))});
    }
  };
  return prove_over_configs("states_xcede_exposure", build, options, all_build_configs(),
                            obligation,
                            "every XCEDE state from a present, interrupt-waking record with hint "
                            "!= 1; TIMER_STOP <=> hint > 0");
}

}  // namespace idlespec::proofs
