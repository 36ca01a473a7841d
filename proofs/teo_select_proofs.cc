// TEO-1..TEO-5: what one teo_select() may choose (spec/teo.md).
//
// For n = 1..kTeoMaxProofStates, select<S, Z3Domain> over n symbolic states
// and symbolic inputs and metrics (proofs/teo_proofs.h). Each clause is
// asked as "some input breaks it"; unsat for every n is held:
//
//   TEO-1  idx >= n, or n >= 2, some state enabled and state idx disabled
//   TEO-2  (ordered) idx is neither 0 nor the first enabled state and its
//          exit latency exceeds the limit (n >= 2, some state enabled)
//   TEO-3  tick running, state idx polls, stop_tick
//   TEO-4  tick running, !stop_tick, idx deeper than the first enabled
//          state, target residency >= RESIDENCY_THRESHOLD_NS and > delta_next
//   TEO-5  (ordered) tick stopped, sleep length > 2 * TICK_NSEC, target
//          residency < TICK_NSEC although an enabled state within the limit
//          has TICK_NSEC <= target residency <= sleep length
#include <functional>

#include "proofs/teo_proofs.h"

namespace idlespec::proofs {
namespace {

constexpr uint64_t kTickNsec[] = {10000000, 4000000, 1000000};  // HZ 100, 250, 1000

struct SelectSetup {
  size_t n;
  std::vector<TeoState> states;
  TeoCpu cpu;
  TeoInputs in;

  explicit SelectSetup(size_t n_states) : n(n_states), cpu(teo::fresh_cpu<Z3Domain>()) {
    for (size_t i = 0; i < n; ++i) {
      const std::string k = std::to_string(i);
      TeoState s;
      s.exit_latency_ns = fresh<64>("exit" + k);
      s.target_residency_ns = fresh<64>("residency" + k);
      s.polling = fresh_bool("polling" + k);
      s.timer_stop = fresh_bool("timer_stop" + k);
      s.disabled = fresh_bool("disabled" + k);
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
    in.latency_req_ns = fresh<64>("latency_req");
    in.sleep_length_ns = fresh<64>("sleep_length");
    in.delta_tick_ns = fresh<64>("delta_tick");
    in.tick_stopped = fresh_bool("tick_stopped");
    in.tick_ns = fresh<64>("tick_ns");
  }

  z3::context& ctx() const { return current_context(); }
  z3::expr u64(uint64_t v) const { return ctx().bv_val(v, 64); }
  z3::expr u32(uint64_t v) const { return ctx().bv_val(v, 32); }

  z3::expr domain() const {
    z3::expr d = ctx().bool_val(true);
    const z3::expr big = u64(1ULL << 40);
    for (const TeoState& s : states) {
      d = d && z3::ult(s.exit_latency_ns.e, big) && z3::ult(s.target_residency_ns.e, big);
    }
    d = d && z3::ult(in.latency_req_ns.e, u64(1ULL << 42));
    d = d && z3::ult(in.sleep_length_ns.e, u64(1ULL << 42));
    d = d && z3::ule(in.delta_tick_ns.e, in.sleep_length_ns.e);
    d = d && (in.tick_stopped.e || z3::ule(in.delta_tick_ns.e, in.tick_ns.e));
    z3::expr hz = ctx().bool_val(false);
    for (uint64_t t : kTickNsec) hz = hz || in.tick_ns.e == u64(t);
    d = d && hz;
    // TEO-6's invariant on the metrics.
    const z3::expr bound = u32(teo::kMetricBound);
    z3::expr sum = ctx().bv_val(0, 64);
    for (size_t i = 0; i < n; ++i) {
      d = d && z3::ule(cpu.bins[i].hits.e, bound) && z3::ule(cpu.bins[i].intercepts.e, bound) &&
          z3::ule(cpu.bins[i].recent.e, u32(teo::kNrRecent));
      sum = sum + z3::zext(cpu.bins[i].hits.e, 32) + z3::zext(cpu.bins[i].intercepts.e, 32);
    }
    d = d && z3::uge(z3::zext(cpu.total.e, 32), sum) &&
        z3::ule(cpu.total.e, u32((2 * n + 2) * teo::kMetricBound));
    for (const Sym<32>* m :
         {&cpu.tick_hits, &cpu.total_tick, &cpu.tick_intercepts, &cpu.short_idles}) {
      d = d && z3::ule(m->e, bound);
    }
    return d;
  }

  // Exit latencies and target residencies non-decreasing.
  z3::expr ordered() const {
    z3::expr d = ctx().bool_val(true);
    for (size_t i = 1; i < n; ++i) {
      d = d && z3::ule(states[i - 1].exit_latency_ns.e, states[i].exit_latency_ns.e) &&
          z3::ule(states[i - 1].target_residency_ns.e, states[i].target_residency_ns.e);
    }
    return d;
  }

  template <class Get>
  z3::expr at(const Sym<32>& idx, Get get) const {
    z3::expr r = get(0);
    for (size_t i = 1; i < n; ++i) r = z3::ite(idx.e == u32(i), get(i), r);
    return r;
  }
  z3::expr in_range(const Sym<32>& idx) const { return z3::ult(idx.e, u32(n)); }
  z3::expr any_enabled() const {
    z3::expr e = ctx().bool_val(false);
    for (const TeoState& s : states) e = e || !s.disabled.e;
    return e;
  }
  // The first enabled state, n if none.
  z3::expr first_enabled() const {
    z3::expr f = u32(n);
    for (size_t i = n; i-- > 0;) f = z3::ite(!states[i].disabled.e, u32(i), f);
    return f;
  }

  std::string describe(const z3::model& m, const TeoChoice& c) const {
    std::string s;
    for (size_t i = 0; i < n; ++i) {
      const TeoState& st = states[i];
      s += "state " + std::to_string(i) + ": exit " +
           std::to_string(model_u64(m, st.exit_latency_ns.e)) + " ns, residency " +
           std::to_string(model_u64(m, st.target_residency_ns.e)) + " ns" +
           (model_true(m, st.polling.e) ? ", POLLING" : "") +
           (model_true(m, st.disabled.e) ? ", disabled" : "") + "; hits " +
           std::to_string(model_u64(m, cpu.bins[i].hits.e)) + ", intercepts " +
           std::to_string(model_u64(m, cpu.bins[i].intercepts.e)) + ", recent " +
           std::to_string(model_u64(m, cpu.bins[i].recent.e)) + "\n";
    }
    s += "total " + std::to_string(model_u64(m, cpu.total.e)) + ", short_idles " +
         std::to_string(model_u64(m, cpu.short_idles.e)) + ", tick_intercepts " +
         std::to_string(model_u64(m, cpu.tick_intercepts.e)) + "\n";
    s += "latency limit " + std::to_string(model_u64(m, in.latency_req_ns.e)) +
         " ns, sleep length " + std::to_string(model_u64(m, in.sleep_length_ns.e)) +
         " ns, delta_next " + std::to_string(model_u64(m, in.delta_tick_ns.e)) + " ns, TICK_NSEC " +
         std::to_string(model_u64(m, in.tick_ns.e)) +
         (model_true(m, in.tick_stopped.e) ? ", tick stopped" : ", tick running") + "\n";
    s += "chosen: state " + std::to_string(model_u64(m, c.idx.e)) +
         (model_true(m, c.stop_tick.e) ? ", stop the tick" : ", keep the tick") + "\n";
    return s;
  }
};

using Failures = std::function<std::vector<Failure>(const SelectSetup&, const TeoChoice&)>;

ProofResult prove_select(const std::string& name, const TeoSubject& subject,
                         const ProofOptions& options, bool ordered, const Failures& failures,
                         const std::string& statement) {
  Prover prover(name, options);
  z3::context ctx;
  for (size_t n = 1; n <= kTeoMaxProofStates; ++n) {
    Z3Scope scope(ctx);
    SelectSetup setup(n);
    TeoCpu cpu = setup.cpu;
    const TeoChoice c = subject.select(setup.states, cpu, setup.in);
    Obligation ob(ctx);
    ob.label = subject.name + ", n = " + std::to_string(n) + (ordered ? ", ordered table" : "");
    ob.assumptions = setup.domain();
    if (ordered) ob.assumptions = ob.assumptions && setup.ordered();
    ob.failures = failures(setup, c);
    ob.describe = [&setup, &c](const z3::model& m) { return setup.describe(m, c); };
    if (!prover.decide(scope, ob)) break;
  }
  return prover.finish(statement + " (tables of 1.." + std::to_string(kTeoMaxProofStates) +
                       " states)");
}

z3::expr tr_of(const SelectSetup& s, const Sym<32>& idx) {
  return s.at(idx, [&](size_t i) { return s.states[i].target_residency_ns.e; });
}

}  // namespace

ProofResult prove_teo_chosen_enabled(const TeoSubject& subject, const ProofOptions& o) {
  return prove_select(
      "teo_chosen_enabled", subject, o, false,
      [](const SelectSetup& s, const TeoChoice& c) {
        const z3::expr dis = s.at(c.idx, [&](size_t i) { return s.states[i].disabled.e; });
        return std::vector<Failure>{
            {"TEO-1", "the chosen index is outside the table", !s.in_range(c.idx)},
            {"TEO-1", "the chosen state is disabled",
             s.in_range(c.idx) && s.ctx().bool_val(s.n >= 2) && s.any_enabled() && dis}};
      },
      "the chosen state is enabled");
}

ProofResult prove_teo_latency_limit(const TeoSubject& subject, const ProofOptions& o) {
  return prove_select(
      "teo_latency_limit", subject, o, true,
      [](const SelectSetup& s, const TeoChoice& c) {
        const z3::expr exit = s.at(c.idx, [&](size_t i) { return s.states[i].exit_latency_ns.e; });
        return std::vector<Failure>{
            {"TEO-2", "the chosen state's exit latency exceeds the PM QoS limit",
             s.in_range(c.idx) && s.ctx().bool_val(s.n >= 2) && s.any_enabled() &&
                 c.idx.e != s.u32(0) && c.idx.e != s.first_enabled() &&
                 z3::ugt(exit, s.in.latency_req_ns.e)}};
      },
      "the chosen state's exit latency is within the limit (ordered tables)");
}

ProofResult prove_teo_polling_tick(const TeoSubject& subject, const ProofOptions& o) {
  return prove_select(
      "teo_polling_tick", subject, o, false,
      [](const SelectSetup& s, const TeoChoice& c) {
        const z3::expr poll = s.at(c.idx, [&](size_t i) { return s.states[i].polling.e; });
        return std::vector<Failure>{
            {"TEO-3", "a polling state is chosen with stop_tick while the tick runs",
             s.in_range(c.idx) && poll && c.stop_tick.e && !s.in.tick_stopped.e}};
      },
      "a polling state never stops a running tick");
}

ProofResult prove_teo_tick_kept_fits(const TeoSubject& subject, const ProofOptions& o) {
  return prove_select(
      "teo_tick_kept_fits", subject, o, false,
      [](const SelectSetup& s, const TeoChoice& c) {
        const z3::expr tr = tr_of(s, c.idx);
        return std::vector<Failure>{
            {"TEO-4",
             "with the tick kept, a state deeper than the first enabled one outlasts delta_next",
             s.in_range(c.idx) && !s.in.tick_stopped.e && !c.stop_tick.e &&
                 z3::ugt(c.idx.e, s.first_enabled()) &&
                 z3::uge(tr, s.u64(teo::kResidencyThresholdNs)) &&
                 z3::ugt(tr, s.in.delta_tick_ns.e)}};
      },
      "with the tick kept, a deeper-than-first state fits the time to the next tick");
}

ProofResult prove_teo_stopped_far_timer(const TeoSubject& subject, const ProofOptions& o) {
  return prove_select(
      "teo_stopped_far_timer", subject, o, true,
      [](const SelectSetup& s, const TeoChoice& c) {
        z3::expr deeper_fits = s.ctx().bool_val(false);
        for (const TeoState& st : s.states) {
          deeper_fits = deeper_fits ||
                        (!st.disabled.e && z3::ule(st.exit_latency_ns.e, s.in.latency_req_ns.e) &&
                         z3::uge(st.target_residency_ns.e, s.in.tick_ns.e) &&
                         z3::ule(st.target_residency_ns.e, s.in.sleep_length_ns.e));
        }
        return std::vector<Failure>{
            {"TEO-5",
             "tick stopped, the timer far: a state shallower than a tick although a deeper "
             "allowed one fits",
             s.in_range(c.idx) && s.in.tick_stopped.e &&
                 z3::ugt(s.in.sleep_length_ns.e, s.in.tick_ns.e * s.u64(2)) &&
                 z3::ult(tr_of(s, c.idx), s.in.tick_ns.e) && deeper_fits}};
      },
      "with the tick stopped and a far timer, no shallow state when a deeper allowed one fits "
      "(ordered tables)");
}

}  // namespace idlespec::proofs
