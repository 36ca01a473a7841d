// Symbolic records, table descriptions and the per-configuration proof loop
// shared by the states proofs (proofs/states_proofs.h).
#include "proofs/states_proofs.h"

namespace idlespec::proofs {
namespace {

// (2^64 - 1) * 10^6: exact_latency_us(2^64 - 1 ticks, 1 Hz), the largest
// latency any conversion at tb_hz >= 1 yields.
constexpr const char* kMaxConvertedLatency = "18446744073709551615000000";
constexpr unsigned kLatencyBits = 84;  // 2^84 > (2^64 - 1) * 10^6

const char* kind_name(states::Kind k) {
  switch (k) {
    case states::Kind::snooze:
      return "snooze";
    case states::Kind::cede:
      return "CEDE";
    case states::Kind::shared_cede:
      return "Shared Cede";
    case states::Kind::xcede:
      return "XCEDE";
  }
  return "?";
}

}  // namespace

SymbolicRecords::SymbolicRecords(uint32_t n) : assumptions(current_context().bool_val(true)) {
  z3::context& ctx = current_context();
  const z3::expr max_latency = ctx.bv_val(kMaxConvertedLatency, 128);
  for (uint32_t i = 0; i < n; ++i) {
    const std::string s = std::to_string(i);
    xcede::RawRecord<Z3Domain> r;
    r.present = fresh_bool("present_" + s);
    r.hint = fresh<8>("hint_" + s);
    r.latency_ticks = fresh<64>("ticks_" + s);
    r.wake_on_irqs = fresh<8>("wake_" + s);
    // 84 bits hold (2^64 - 1) * 10^6; the zero upper bits let the solver
    // compare latencies at 84 bits rather than 128.
    const Sym<kLatencyBits> narrow = fresh<kLatencyBits>("latency_us_" + s);
    latency_us.push_back(Z3Domain::zext<128>(narrow));
    assumptions = assumptions && z3::ule(latency_us.back().e, max_latency);
    if (i > 0) assumptions = assumptions && z3::implies(r.present.e, records.back().present.e);
    records.push_back(r);
  }
}

std::string SymbolicRecords::describe(const z3::model& m, size_t count) const {
  std::string out;
  size_t present = 0;
  for (size_t i = 0; i < records.size() && i < count; ++i) {
    const auto& r = records[i];
    if (!model_true(m, r.present.e)) continue;
    ++present;
    out += "record " + std::to_string(i) + " : hint = " + std::to_string(model_u64(m, r.hint.e)) +
           ", latency = " + model_decimal(m, latency_us[i].e) +
           " us, Wake-on-irq = " + std::to_string(model_u64(m, r.wake_on_irqs.e)) + "\n";
  }
  if (present == 0) out += "no records\n";
  return out;
}

StatesTable build_prefix(TableFn build, const SymbolicRecords& recs, size_t k,
                         const states::BuildConfig& cfg) {
  return build(recs.record_span().first(k), recs.latency_span().first(k), cfg);
}

std::vector<states::BuildConfig> all_build_configs(uint64_t tb_hz) {
  std::vector<states::BuildConfig> out;
  for (bool dedicated : {true, false}) {
    for (bool fixup : {true, false}) {
      for (bool expose : {false, true}) {
        states::BuildConfig c;
        c.dedicated = dedicated;
        c.fixup = fixup;
        c.expose_xcede = expose;
        c.tb_hz = tb_hz;
        out.push_back(c);
      }
    }
  }
  return out;
}

std::string config_label(const states::BuildConfig& cfg) {
  return std::string(cfg.dedicated ? "dedicated" : "shared") +
         (cfg.fixup ? ", fix-up gated in" : ", fix-up gated out") +
         (cfg.expose_xcede ? ", XCEDE exposed" : ", XCEDE hidden") + ", tb_hz " +
         std::to_string(cfg.tb_hz);
}

std::string state_name(const z3::model& m, const states::RawState<Z3Domain>& s) {
  std::string name = kind_name(s.kind);
  if (s.kind == states::Kind::xcede) name += std::to_string(model_u64(m, s.hint.e));
  return name;
}

std::string state_ref(size_t index, const states::RawState<Z3Domain>& s) {
  return "state " + std::to_string(index) + " (" + kind_name(s.kind) + ")";
}

std::string describe_table(const z3::model& m, const StatesTable& t) {
  std::string out = "table:\n";
  for (size_t i = 0; i < t.states.size(); ++i) {
    const auto& s = t.states[i];
    if (!model_true(m, s.present.e)) continue;
    out += "  state " + std::to_string(i) + " " + state_name(m, s) + ": exit latency " +
           std::to_string(model_u64(m, s.exit_latency_us.e)) + " us, target residency " +
           std::to_string(model_u64(m, s.target_residency_us.e)) + " us" +
           (model_true(m, s.polling.e) ? ", POLLING" : "") +
           (model_true(m, s.timer_stop.e) ? ", TIMER_STOP" : "") + "\n";
  }
  out += "  CEDE fixed up: " + std::string(model_true(m, t.fixed_up.e) ? "yes" : "no") +
         "; snooze timeout " + std::to_string(model_u64(m, t.snooze_timeout_ticks.e)) + " ticks\n";
  return out;
}

ProofResult prove_over_configs(const std::string& name, TableFn build, const ProofOptions& options,
                               const std::vector<states::BuildConfig>& configs,
                               const StatesObligation& obligation, const std::string& statement) {
  Prover prover(name, options);
  for (const states::BuildConfig& cfg : configs) {
    z3::context ctx;
    Z3Scope scope(ctx);
    const SymbolicRecords recs(kProofRecords);
    const StatesTable table = build(recs.record_span(), recs.latency_span(), cfg);
    Obligation ob(ctx);
    ob.label = config_label(cfg) + ", " + std::to_string(kProofRecords) + " records";
    ob.assumptions = recs.assumptions;
    obligation(recs, table, cfg, ob.failures);
    ob.describe = [&](const z3::model& m) { return recs.describe(m) + describe_table(m, table); };
    if (!prover.decide(scope, ob)) break;
  }
  return prover.finish(statement);
}

}  // namespace idlespec::proofs
