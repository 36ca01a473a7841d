// STATES-4 (safety): no arithmetic wraps: every exit latency, target
// residency and the snooze timeout equal their exact mathematical values
// (the tick-to-us conversion is proof states_latency_conversion).
//
// Assumptions: 16 records with every field symbolic and present flags a
// prefix; a fresh latency per record, any value up to (2^64 - 1) * 10^6 us,
// zero and values too large for cpuidle's unsigned int included. Every build
// configuration (proofs/states_proofs.h). The snooze timeout at tb_hz 512 MHz
// (the POWER timebase), 1 GHz, and 1 Hz and 2^42 Hz, the ends of the
// timebase domain idlespec models (spec/states.md KD-2).
//
// Obligation, every exact value computed in 128 bits, where nothing can wrap
// (latencies < 2^84; 32- and 64-bit fields zero-extended):
//   - snooze is 0/0 us;
//   - CEDE, when the fix-up is gated in and some record is usable (present,
//     latency non-zero, 10 x latency fits 32 bits, i.e. latency <=
//     floor((2^32 - 1) / 10)): exit = the smallest usable latency, residency
//     = 10 x that; otherwise 10/100 us;
//   - each exposed XCEDE state from record i: exit = latency_i + 10 if its
//     hint > 0 (TIMER_STOP), latency_i otherwise; residency = 10 x exit;
//   - snooze timeout = CEDE's target residency x ticks per us, the kernel's
//     integer tb_ticks_per_usec = tb_hz / 10^6.
//
// How: "smallest" is min(l_0..l_k) = min(min(l_0..l_(k-1)), l_k), from
// +infinity (2^128 - 1). Asked in one query, the solver rediscovers the
// transitivity of 128-bit comparisons along the fix-up's whole loop and does
// not finish; so with the fix-up gated in, CEDE is proved by induction over
// the records: query k proves that CEDE of the table of the first k records
// is exact, assuming (as proved by query k - 1) that it is for the first
// k - 1. The table of the first k records is the one build_from_latencies
// makes of k records. A last query proves the other states and the snooze
// timeout of the whole table.
//
// Verdict: held, or the records, the table and the value that is not exact.
#include "proofs/states_proofs.h"

namespace idlespec::proofs {
namespace {

// The POWER timebase, the ends of the modelled domain (spec/states.md KD-2)
// and 1 GHz.
const uint64_t kTbHz[] = {states::kDefaultTbHz, states::kMinTbHz, 1000000000, states::kMaxTbHz};
// The kernel's tb_ticks_per_usec: ppc_tb_freq / 1000000, an integer.
uint64_t ticks_per_us(uint64_t tb_hz) { return tb_hz / 1000000; }
constexpr const char* kInfinity = "340282366920938463463374607431768211455";  // 2^128 - 1
constexpr uint64_t kMaxUsableUs = 0xffffffffull / states::kResidencyFactor;

z3::expr w128(uint64_t v) { return current_context().bv_val(v, 128); }
z3::expr wide(const z3::expr& x) { return z3::zext(x, 128 - x.get_sort().bv_size()); }

// CEDE of `t`, the table of the first k records, is exact.
void cede_failures(const SymbolicRecords& recs, size_t k, const StatesTable& t,
                   const states::BuildConfig& cfg, std::vector<Failure>& out) {
  z3::context& ctx = current_context();
  const auto& cede = t.states.at(1);
  const z3::expr exit = wide(cede.exit_latency_us.e);
  const z3::expr residency = wide(cede.target_residency_us.e);
  const z3::expr default_values =
      exit == w128(states::kCedeExitLatencyUs) && residency == w128(states::kCedeTargetResidencyUs);
  if (!(cfg.dedicated && cfg.fixup)) {
    out.push_back({"STATES-4", "CEDE is not the 10/100 us default (fix-up gated out)",
                   cede.present.e && !default_values});
    return;
  }
  z3::expr any = ctx.bool_val(false);
  z3::expr min = ctx.bv_val(kInfinity, 128);
  for (size_t i = 0; i < k; ++i) {
    const z3::expr& lat = recs.latency_us[i].e;
    const z3::expr usable =
        recs.records[i].present.e && lat != w128(0) && z3::ule(lat, w128(kMaxUsableUs));
    any = any || usable;
    min = z3::ite(usable && z3::ult(lat, min), lat, min);
  }
  const std::string among = "records 0.." + std::to_string(k) + "-1";
  out.push_back({"STATES-4", "CEDE's exit latency is not the smallest usable latency of " + among,
                 cede.present.e && any && exit != min});
  out.push_back({"STATES-4", "CEDE's target residency is not 10 x the smallest usable latency",
                 cede.present.e && any && residency != min * w128(states::kResidencyFactor)});
  out.push_back({"STATES-4", "CEDE is not the 10/100 us default though no record is usable",
                 cede.present.e && !any && !default_values});
}

// Snooze, the XCEDE states and the snooze timeout of the whole table, built
// once per frequency (tables[j] at kTbHz[j]).
void other_failures(const SymbolicRecords& recs, const std::vector<StatesTable>& tables,
                    std::vector<Failure>& out) {
  z3::context& ctx = current_context();
  const StatesTable& t = tables.front();
  const auto& snooze = t.states.at(0);
  out.push_back({"STATES-4", "snooze is not 0/0 us",
                 snooze.present.e && (snooze.exit_latency_us.e != ctx.bv_val(0, 32) ||
                                      snooze.target_residency_us.e != ctx.bv_val(0, 32))});
  const size_t n = recs.records.size();
  for (size_t k = 2; k < t.states.size(); ++k) {
    const auto& s = t.states[k];
    if (s.kind != states::Kind::xcede || k - 2 >= n) continue;
    const size_t i = k - 2;
    const z3::expr deep = z3::ugt(recs.records[i].hint.e, ctx.bv_val(0, 8));
    const z3::expr exact_exit =
        recs.latency_us[i].e + z3::ite(deep, w128(states::kTimerStopExtraUs), w128(0));
    const std::string st = state_ref(k, s);
    out.push_back({"STATES-4",
                   st + "'s exit latency is not record " + std::to_string(i) +
                       "'s latency (+10 us with TIMER_STOP)",
                   s.present.e && wide(s.exit_latency_us.e) != exact_exit});
    out.push_back({"STATES-4", st + "'s target residency is not exactly 10 x its exit latency",
                   s.present.e && wide(s.target_residency_us.e) !=
                                      exact_exit * w128(states::kResidencyFactor)});
  }
  for (size_t j = 0; j < tables.size(); ++j) {
    const auto& cede = tables[j].states.at(1);
    out.push_back(
        {"STATES-4",
         "snooze timeout at tb_hz " + std::to_string(kTbHz[j]) +
             " is not CEDE's target residency in ticks",
         cede.present.e && wide(tables[j].snooze_timeout_ticks.e) !=
                               wide(cede.target_residency_us.e) * w128(ticks_per_us(kTbHz[j]))});
  }
}

}  // namespace

ProofResult prove_states_no_wrap(TableFn build, const ProofOptions& options) {
  Prover prover("states_no_wrap", options);
  const std::string statement = "every latency, residency and the snooze timeout exact (128-bit)";
  for (const states::BuildConfig& cfg : all_build_configs()) {
    if (cfg.dedicated && cfg.fixup) {
      for (size_t k = 0; k <= kProofRecords; ++k) {
        z3::context ctx;
        Z3Scope scope(ctx);
        const SymbolicRecords recs(kProofRecords);
        Obligation ob(ctx);
        ob.label = config_label(cfg) + ", CEDE of the first " + std::to_string(k) + " records";
        ob.assumptions = recs.assumptions;
        if (k > 0) {  // the induction hypothesis, proved by the previous query
          std::vector<Failure> hypothesis;
          cede_failures(recs, k - 1, build_prefix(build, recs, k - 1, cfg), cfg, hypothesis);
          for (const Failure& f : hypothesis) ob.hypotheses = ob.hypotheses && !f.cond;
        }
        const StatesTable table = build_prefix(build, recs, k, cfg);
        cede_failures(recs, k, table, cfg, ob.failures);
        ob.describe = [&](const z3::model& m) {
          return recs.describe(m, k) + describe_table(m, table);
        };
        if (!prover.decide(scope, ob)) return prover.finish(statement);
      }
    }
    z3::context ctx;
    Z3Scope scope(ctx);
    const SymbolicRecords recs(kProofRecords);
    std::vector<StatesTable> tables;
    for (uint64_t tb : kTbHz) {
      states::BuildConfig at = cfg;
      at.tb_hz = tb;
      tables.push_back(build(recs.record_span(), recs.latency_span(), at));
    }
    Obligation ob(ctx);
    ob.label = config_label(cfg) + " (snooze timeout also at 1 Hz, 1 GHz, 2^42 Hz), " +
               std::to_string(kProofRecords) + " records";
    ob.assumptions = recs.assumptions;
    if (!(cfg.dedicated && cfg.fixup)) {
      cede_failures(recs, kProofRecords, tables[0], cfg, ob.failures);
    }
    other_failures(recs, tables, ob.failures);
    ob.describe = [&](const z3::model& m) {
      std::string out = recs.describe(m) + describe_table(m, tables[0]);
      for (size_t j = 1; j < tables.size(); ++j) {
        out += "  snooze timeout at tb_hz " + std::to_string(kTbHz[j]) + ": " +
               std::to_string(model_u64(m, tables[j].snooze_timeout_ticks.e)) + " ticks\n";
      }
      return out;
    };
    if (!prover.decide(scope, ob)) break;
  }
  return prover.finish(statement);
}

}  // namespace idlespec::proofs
