// What the governor proofs share (proofs/governor_proofs.h): the shipped
// subjects, the symbols of one state walk and the clause's view of them, the
// counterexample text and the merge of a proof's independent parts.
#include <algorithm>
#include <cstdio>
#include <string>

#include "proofs/governor_proofs.h"

namespace idlespec::proofs {

namespace g = governor;

std::optional<GovernorSubject> governor_subject(std::string_view name) {
  if (name == g::V614::name) return governor_subject_of<g::V614>();
  if (name == g::SeedV2::name) return governor_subject_of<g::SeedV2>();
  if (name == g::SeedThreshold::name) return governor_subject_of<g::SeedThreshold>();
  if (name == g::Reference::name) return governor_subject_of<g::Reference>();
  if (name == g::V619::name) return governor_subject_of<g::V619>();
  if (name == g::Mainline::name) return governor_subject_of<g::Mainline>();
  return std::nullopt;
}

const std::vector<std::string>& governor_subject_names() {
  static const std::vector<std::string> names = {
      std::string(g::V614::name),          std::string(g::SeedV2::name),
      std::string(g::SeedThreshold::name), std::string(g::Reference::name),
      std::string(g::V619::name),          std::string(g::Mainline::name)};
  return names;
}

GovWalkInputs::GovWalkInputs(size_t count, const std::string& tag) : n(count) {
  auto name = [&](const std::string& base) { return base + tag; };
  states.resize(n);
  for (size_t i = 0; i < n; ++i) {
    std::string s = "s";
    s += std::to_string(i);
    s += '_';
    states[i].exit_latency_ns = fresh<64>(name(s + "exit_ns"));
    states[i].target_residency_ns = fresh<64>(name(s + "residency_ns"));
    states[i].polling = fresh_bool(name(s + "polling"));
    states[i].timer_stop = fresh_bool(name(s + "timer_stop"));
    states[i].disabled = fresh_bool(name(s + "disabled"));
  }
  inputs.latency_req_ns = fresh<64>(name("latency_req_ns"));
  inputs.tick_stopped = fresh_bool(name("tick_stopped"));
  inputs.tick_ns = fresh<64>(name("tick_ns"));
  // The walk reads none of these; they stay fixed.
  inputs.sleep_length_ns = Z3Domain::lit<64>(0);
  inputs.delta_tick_ns = Z3Domain::lit<64>(0);
  inputs.last_state_idx = Z3Domain::lit<32>(0);
  inputs.last_residency_ns = Z3Domain::lit<64>(0);
  inputs.poll_time_limit = Z3Domain::truth(false);
  prediction.predicted_ns = fresh<64>(name("predicted_ns"));
  prediction.latency_req_ns = inputs.latency_req_ns;  // predict() passes it on
  prediction.next_timer_ns = fresh<64>(name("next_timer_ns"));
  prediction.delta_tick_ns = fresh<64>(name("pred_delta_tick_ns"));
}

namespace {

z3::expr below_2_63(const Sym<64>& v) {
  return z3::ult(v.e, v.e.ctx().bv_val(uint64_t{1} << 63, 64));
}

}  // namespace

z3::expr GovWalkInputs::domain() const {
  z3::context& ctx = current_context();
  z3::expr d = ctx.bool_val(true);
  for (const GovState& s : states) {
    d = d && below_2_63(s.exit_latency_ns) && below_2_63(s.target_residency_ns);
  }
  d = d && below_2_63(inputs.latency_req_ns) && below_2_63(prediction.predicted_ns) &&
      below_2_63(prediction.next_timer_ns) && below_2_63(prediction.delta_tick_ns);
  const z3::expr t = inputs.tick_ns.e;
  d = d && (t == ctx.bv_val(g::tick_nsec(100), 64) || t == ctx.bv_val(g::tick_nsec(250), 64) ||
            t == ctx.bv_val(g::tick_nsec(1000), 64));
  return d;
}

z3::expr GovWalkInputs::ordered() const {
  z3::expr d = current_context().bool_val(true);
  for (size_t i = 0; i < n; ++i) {
    d = d && z3::uge(states[i].target_residency_ns.e, states[i].exit_latency_ns.e);
    if (i == 0) continue;
    d = d && z3::uge(states[i].exit_latency_ns.e, states[i - 1].exit_latency_ns.e) &&
        z3::uge(states[i].target_residency_ns.e, states[i - 1].target_residency_ns.e);
  }
  return d;
}

z3::expr GovWalkInputs::any_enabled() const {
  z3::expr d = current_context().bool_val(false);
  for (const GovState& s : states) d = d || !s.disabled.e;
  return d;
}

Sym<32> GovWalkInputs::first_enabled() const {
  z3::context& ctx = current_context();
  z3::expr f = ctx.bv_val(static_cast<uint64_t>(n), 32);
  for (size_t i = n; i-- > 0;) {
    f = z3::ite(!states[i].disabled.e, ctx.bv_val(static_cast<uint64_t>(i), 32), f);
  }
  return Sym<32>(f);
}

z3::expr GovWalkInputs::gov1_exception() const {
  z3::context& ctx = current_context();
  return !any_enabled() || inputs.latency_req_ns.e == ctx.bv_val(0, 64) || ctx.bool_val(n <= 1);
}

z3::expr GovWalkInputs::in_range(const Sym<32>& idx) const {
  return z3::ult(idx.e, current_context().bv_val(static_cast<uint64_t>(n), 32));
}

namespace {

template <class Get>
z3::expr field_at(const Sym<32>& idx, size_t n, Get get) {
  z3::expr r = get(0);
  for (size_t i = 1; i < n; ++i) {
    r = z3::ite(idx.e == idx.e.ctx().bv_val(static_cast<uint64_t>(i), 32), get(i), r);
  }
  return r;
}

}  // namespace

z3::expr GovWalkInputs::disabled_at(const Sym<32>& idx) const {
  return field_at(idx, n, [&](size_t i) { return states[i].disabled.e; });
}
z3::expr GovWalkInputs::polling_at(const Sym<32>& idx) const {
  return field_at(idx, n, [&](size_t i) { return states[i].polling.e; });
}
Sym<64> GovWalkInputs::exit_at(const Sym<32>& idx) const {
  return Sym<64>(field_at(idx, n, [&](size_t i) { return states[i].exit_latency_ns.e; }));
}
Sym<64> GovWalkInputs::residency_at(const Sym<32>& idx) const {
  return Sym<64>(field_at(idx, n, [&](size_t i) { return states[i].target_residency_ns.e; }));
}

z3::expr GovWalkInputs::fallback(const Sym<32>& idx) const {
  const z3::expr zero = current_context().bv_val(0, 32);
  return idx.e == first_enabled().e || (gov1_exception() && idx.e == zero);
}

std::vector<z3::expr> GovWalkInputs::preferences() const {
  z3::context& ctx = current_context();
  // Values people can read: at most 100 ms, in whole microseconds.
  z3::expr small = ctx.bool_val(true);
  z3::expr round = ctx.bool_val(true);
  auto add = [&](const Sym<64>& v) {
    small = small && z3::ule(v.e, ctx.bv_val(100000000, 64));
    round = round && z3::urem(v.e, ctx.bv_val(1000, 64)) == ctx.bv_val(0, 64);
  };
  z3::expr quiet = ctx.bool_val(true);
  z3::expr enabled = ctx.bool_val(true);
  for (const GovState& s : states) {
    add(s.exit_latency_ns);
    add(s.target_residency_ns);
    quiet = quiet && !s.timer_stop.e;
    enabled = enabled && !s.disabled.e;
  }
  add(inputs.latency_req_ns);
  add(prediction.predicted_ns);
  add(prediction.next_timer_ns);
  add(prediction.delta_tick_ns);
  return {small, round, enabled, quiet};
}

std::string tick_text(uint64_t tick_ns) {
  for (unsigned hz : {100u, 250u, 1000u}) {
    if (tick_ns == g::tick_nsec(hz)) {
      return std::to_string(tick_ns) + " (HZ=" + std::to_string(hz) + ")";
    }
  }
  return std::to_string(tick_ns);
}

std::string GovWalkInputs::describe(const z3::model& m) const {
  std::string s = "table (" + std::to_string(n) + (n == 1 ? " state" : " states") + "):\n";
  for (size_t i = 0; i < n; ++i) {
    const GovState& st = states[i];
    std::string flags;
    auto flag = [&](const SymBool& b, const char* text) {
      if (model_true(m, b.e)) flags += flags.empty() ? text : std::string(",") + text;
    };
    flag(st.polling, "polling");
    flag(st.timer_stop, "timer-stop");
    flag(st.disabled, "disabled");
    s += "  state " + std::to_string(i) + ": exit_latency_ns " +
         model_decimal(m, st.exit_latency_ns.e) + ", target_residency_ns " +
         model_decimal(m, st.target_residency_ns.e) + ", flags " +
         (flags.empty() ? std::string("-") : flags) + "\n";
  }
  s += "prediction: predicted_ns " + model_decimal(m, prediction.predicted_ns.e) +
       ", next_timer_ns " + model_decimal(m, prediction.next_timer_ns.e) + ", delta_tick_ns " +
       model_decimal(m, prediction.delta_tick_ns.e) + "\n";
  s += "inputs: latency_req_ns " + model_decimal(m, inputs.latency_req_ns.e) + ", tick_stopped " +
       (model_true(m, inputs.tick_stopped.e) ? "true" : "false") + ", tick_ns " +
       tick_text(model_u64(m, inputs.tick_ns.e)) + "\n";
  return s;
}

std::string describe_choice(const z3::model& m, const GovChoice& c) {
  const uint64_t path = model_u64(m, c.path.e);
  return "choice: idx " + model_decimal(m, c.idx.e) + " (path " +
         std::string(g::path_name(static_cast<uint8_t>(path))) + "), stop_tick " +
         (model_true(m, c.stop_tick.e) ? "true" : "false") + ", predicted_ns " +
         model_decimal(m, c.predicted_ns.e) + "\n";
}

GovWalkCase GovWalkInputs::concrete(const z3::model& m, const GovChoice& c) const {
  GovWalkCase k;
  for (const GovState& st : states) {
    g::State<Concrete> s;
    s.exit_latency_ns = Word<64>(model_u64(m, st.exit_latency_ns.e));
    s.target_residency_ns = Word<64>(model_u64(m, st.target_residency_ns.e));
    s.polling = model_true(m, st.polling.e);
    s.timer_stop = model_true(m, st.timer_stop.e);
    s.disabled = model_true(m, st.disabled.e);
    k.states.push_back(s);
  }
  k.prediction.predicted_ns = Word<64>(model_u64(m, prediction.predicted_ns.e));
  k.prediction.latency_req_ns = Word<64>(model_u64(m, prediction.latency_req_ns.e));
  k.prediction.next_timer_ns = Word<64>(model_u64(m, prediction.next_timer_ns.e));
  k.prediction.delta_tick_ns = Word<64>(model_u64(m, prediction.delta_tick_ns.e));
  k.inputs.latency_req_ns = Word<64>(model_u64(m, inputs.latency_req_ns.e));
  k.inputs.sleep_length_ns = Word<64>(model_u64(m, inputs.sleep_length_ns.e));
  k.inputs.delta_tick_ns = Word<64>(model_u64(m, inputs.delta_tick_ns.e));
  k.inputs.tick_stopped = model_true(m, inputs.tick_stopped.e);
  k.inputs.tick_ns = Word<64>(model_u64(m, inputs.tick_ns.e));
  k.inputs.last_state_idx = Word<32>(0);
  k.inputs.last_residency_ns = Word<64>(0);
  k.inputs.poll_time_limit = false;
  k.choice.idx = Word<32>(static_cast<uint32_t>(model_u64(m, c.idx.e)));
  k.choice.stop_tick = model_true(m, c.stop_tick.e);
  k.choice.path = Word<8>(static_cast<uint8_t>(model_u64(m, c.path.e)));
  k.choice.predicted_ns = Word<64>(model_u64(m, c.predicted_ns.e));
  return k;
}

ProofResult merge_parts(const std::string& name, std::vector<ProofResult> parts,
                        const std::string& statement) {
  ProofResult r;
  r.name = name;
  std::vector<Query> held_queries, violated_queries;
  bool any_unknown = false;
  std::string unknown_detail;
  for (ProofResult& p : parts) {
    r.seconds += p.seconds;
    auto& into = p.verdict == Verdict::violated ? violated_queries : held_queries;
    for (Query& q : p.queries) into.push_back(std::move(q));
    if (p.verdict == Verdict::violated) {
      r.verdict = Verdict::violated;
      r.detail += (r.detail.empty() ? "" : "; ") + p.detail;
      r.counterexample += p.counterexample;
      r.violated.insert(p.violated.begin(), p.violated.end());
    } else if (p.verdict == Verdict::unknown && !any_unknown) {
      any_unknown = true;
      unknown_detail = p.detail;
    }
  }
  r.queries = std::move(held_queries);
  for (Query& q : violated_queries) r.queries.push_back(std::move(q));
  if (r.verdict == Verdict::violated) return r;
  if (any_unknown || r.queries.empty()) {
    r.verdict = Verdict::unknown;
    r.detail = any_unknown ? unknown_detail : "unknown: no query was asked";
    return r;
  }
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f s", r.seconds);
  r.verdict = Verdict::held;
  r.detail = "proved for every input, " + std::to_string(r.queries.size()) + " queries, " + buf +
             ": " + statement;
  return r;
}

}  // namespace idlespec::proofs
