// TEO-6: teo_update() keeps the metrics bounded and never wraps them
// (spec/teo.md), proved as an induction step.
//
// For n = 1..kTeoMaxProofStates: a symbolic per-CPU state in the invariant
//   every hits, intercepts, tick_hits, total_tick, tick_intercepts and
//   short_idles <= 8 * PULSE + 7; Σ(hits + intercepts) <= total <=
//   (2n + 2) * (8 * PULSE + 7); 6.1: next_recent_idx < NR_RECENT, every
//   recent slot -1 or a state index, every bin's recent count the number of
//   slots naming it
// and a symbolic period (last state, residency, polling timeout, tick
// wake-up, elapsed time) and sleep length; after learn<S, Z3Domain> the
// invariant holds again. A fresh CPU (all zero, slots -1) satisfies it.
#include "proofs/teo_proofs.h"

namespace idlespec::proofs {
namespace {

z3::expr u32(uint64_t v) { return current_context().bv_val(v, 32); }
z3::expr u64(uint64_t v) { return current_context().bv_val(v, 64); }

std::vector<Failure> invariant(const TeoCpu& cpu, size_t n, teo::Era era, const std::string& when) {
  std::vector<Failure> f;
  z3::context& ctx = current_context();
  const z3::expr bound = u32(teo::kMetricBound);
  z3::expr sum = ctx.bv_val(0, 64);
  for (size_t i = 0; i < n; ++i) {
    const std::string b = std::to_string(i);
    f.push_back({"TEO-6", when + "bin " + b + "'s hits exceed the bound",
                 z3::ugt(cpu.bins[i].hits.e, bound)});
    f.push_back({"TEO-6", when + "bin " + b + "'s intercepts exceed the bound",
                 z3::ugt(cpu.bins[i].intercepts.e, bound)});
    sum = sum + z3::zext(cpu.bins[i].hits.e, 32) + z3::zext(cpu.bins[i].intercepts.e, 32);
  }
  f.push_back({"TEO-6", when + "total is below the sum of the bins",
               z3::ult(z3::zext(cpu.total.e, 32), sum)});
  f.push_back({"TEO-6", when + "total exceeds its bound",
               z3::ugt(cpu.total.e, u32((2 * n + 2) * teo::kMetricBound))});
  f.push_back({"TEO-6", when + "tick_hits exceed the bound", z3::ugt(cpu.tick_hits.e, bound)});
  f.push_back({"TEO-6", when + "total_tick exceeds the bound", z3::ugt(cpu.total_tick.e, bound)});
  f.push_back(
      {"TEO-6", when + "tick_intercepts exceed the bound", z3::ugt(cpu.tick_intercepts.e, bound)});
  f.push_back({"TEO-6", when + "short_idles exceed the bound", z3::ugt(cpu.short_idles.e, bound)});
  if (era == teo::Era::k61) {
    f.push_back({"TEO-6", when + "next_recent_idx is outside the ring",
                 z3::uge(cpu.next_recent_idx.e, u32(teo::kNrRecent))});
    for (size_t j = 0; j < teo::kNrRecent; ++j) {
      f.push_back(
          {"TEO-6", when + "recent slot " + std::to_string(j) + " names no state",
           cpu.recent_idx[j].e != u32(teo::kNoIndex) && z3::uge(cpu.recent_idx[j].e, u32(n))});
    }
    for (size_t b = 0; b < n; ++b) {
      z3::expr count = u32(0);
      for (size_t j = 0; j < teo::kNrRecent; ++j) {
        count = count + z3::ite(cpu.recent_idx[j].e == u32(b), u32(1), u32(0));
      }
      f.push_back({"TEO-6",
                   when + "bin " + std::to_string(b) + "'s recent count is not its slot count",
                   cpu.bins[b].recent.e != count});
    }
  }
  return f;
}

z3::expr holds(const std::vector<Failure>& fs) {
  z3::expr e = current_context().bool_val(true);
  for (const Failure& f : fs) e = e && !f.cond;
  return e;
}

}  // namespace

ProofResult prove_teo_metrics_bounded(const TeoSubject& subject, const ProofOptions& options) {
  Prover prover("teo_metrics_bounded", options);
  z3::context ctx;
  for (size_t n = 1; n <= kTeoMaxProofStates; ++n) {
    Z3Scope scope(ctx);
    std::vector<TeoState> states;
    TeoCpu cpu = teo::fresh_cpu<Z3Domain>();
    z3::expr d = ctx.bool_val(true);
    for (size_t i = 0; i < n; ++i) {
      const std::string k = std::to_string(i);
      TeoState s;
      s.exit_latency_ns = fresh<64>("exit" + k);
      s.target_residency_ns = fresh<64>("residency" + k);
      s.polling = fresh_bool("polling" + k);
      s.timer_stop = fresh_bool("timer_stop" + k);
      s.disabled = fresh_bool("disabled" + k);
      d = d && z3::ult(s.exit_latency_ns.e, u64(1ULL << 40)) &&
          z3::ult(s.target_residency_ns.e, u64(1ULL << 40));
      states.push_back(s);
      cpu.bins[i].hits = fresh<32>("hits" + k);
      cpu.bins[i].intercepts = fresh<32>("intercepts" + k);
      cpu.bins[i].recent = fresh<32>("recent" + k);
    }
    cpu.total = fresh<32>("total");
    cpu.tick_hits = fresh<32>("tick_hits");
    cpu.total_tick = fresh<32>("total_tick");
    cpu.tick_intercepts = fresh<32>("tick_intercepts");
    cpu.short_idles = fresh<32>("short_idles");
    cpu.tick_wakeup = fresh_bool("tick_wakeup");
    cpu.next_recent_idx = fresh<32>("next_recent_idx");
    for (size_t j = 0; j < teo::kNrRecent; ++j) {
      cpu.recent_idx[j] = fresh<32>("recent_idx" + std::to_string(j));
    }
    cpu.sleep_length_ns = fresh<64>("sleep_length");
    cpu.time_span_ns = fresh<64>("time_span");
    d = d && (z3::ult(cpu.sleep_length_ns.e, u64(1ULL << 42)) ||
              cpu.sleep_length_ns.e == u64(teo::kKtimeMax));
    TeoPeriod p;
    p.last_state_idx = fresh<32>("last_state_idx");
    p.last_residency_ns = fresh<64>("last_residency");
    p.poll_time_limit = fresh_bool("poll_time_limit");
    p.got_tick = fresh_bool("got_tick");
    p.elapsed_ns = fresh<64>("elapsed");
    d = d && z3::ult(p.last_state_idx.e, u32(n)) &&
        z3::ult(p.last_residency_ns.e, u64(1ULL << 42)) && z3::ult(p.elapsed_ns.e, u64(1ULL << 42));
    const Sym<64> tick = fresh<64>("tick_ns");
    d = d && (tick.e == u64(10000000) || tick.e == u64(4000000) || tick.e == u64(1000000));

    const z3::expr before = holds(invariant(cpu, n, subject.era, ""));
    TeoCpu after = cpu;
    subject.learn(states, after, p, tick);
    Obligation ob(ctx);
    ob.label = subject.name + ", n = " + std::to_string(n);
    ob.assumptions = d && before;
    ob.failures = invariant(after, n, subject.era, "after one update: ");
    ob.describe = [&, n](const z3::model& m) {
      std::string s;
      for (size_t i = 0; i < n; ++i) {
        s += "bin " + std::to_string(i) + " before: hits " +
             std::to_string(model_u64(m, cpu.bins[i].hits.e)) + ", intercepts " +
             std::to_string(model_u64(m, cpu.bins[i].intercepts.e)) + "; after: hits " +
             std::to_string(model_u64(m, after.bins[i].hits.e)) + ", intercepts " +
             std::to_string(model_u64(m, after.bins[i].intercepts.e)) + "\n";
      }
      s += "total " + std::to_string(model_u64(m, cpu.total.e)) + " -> " +
           std::to_string(model_u64(m, after.total.e)) + "\n";
      return s;
    };
    if (!prover.decide(scope, ob)) break;
  }
  return prover.finish(
      "one update keeps every metric within 8 * PULSE + 7 and total within "
      "its bounds (tables of 1.." +
      std::to_string(kTeoMaxProofStates) + " states)");
}

}  // namespace idlespec::proofs
