// teo_select() for the five subjects of impl/teo.h, over a value domain D.
// Included by impl/teo.h only.
//
// The kernel's control flow (break, continue, goto end / out_tick, return)
// is kept with flags: `open` is "no goto or return taken yet", and each
// step changes idx, duration_ns or stop_tick only while it is open.
#pragma once

#include "impl/teo.h"

namespace idlespec::teo {

template <class S, class D>
Choice<D> select(std::span<const State<D>> states, CpuData<D>& cpu, const Inputs<D>& in) {
  using B = typename D::Bool;
  constexpr Era era = S::era;
  const size_t n = states.size();
  auto lit32 = [](uint64_t v) { return D::template lit<32>(v); };
  auto lit64 = [](uint64_t v) { return D::template lit<64>(v); };
  auto tr_at = [&](const U32<D>& k) {
    return at<D>(k, n, [&](size_t j) { return states[j].target_residency_ns; });
  };
  auto polling_at = [&](const U32<D>& k) {
    return at<D>(k, n, [&](size_t j) { return states[j].polling; });
  };
  const U64<D> tick = in.tick_ns;
  const U64<D> half_tick = D::udiv(tick, lit64(2));

  Choice<D> c;
  c.stop_tick = D::truth(true);
  c.queried = D::truth(era == Era::k61);
  c.idx0 = lit32(0);

  // 6.1 asks for the sleep length first; later kernels only when needed and
  // start from "infinity" and half a tick.
  U64<D> duration = D::ite(c.queried, in.sleep_length_ns, lit64(0));
  U64<D> delta_tick = D::ite(c.queried, in.delta_tick_ns, half_tick);
  cpu.sleep_length_ns = D::ite(c.queried, in.sleep_length_ns, lit64(kKtimeMax));
  auto query = [&](const B& when) {
    duration = D::ite(when, in.sleep_length_ns, duration);
    delta_tick = D::ite(when, in.delta_tick_ns, delta_tick);
    cpu.sleep_length_ns = D::ite(when, in.sleep_length_ns, cpu.sleep_length_ns);
    c.queried = c.queried || when;
  };

  if (n < 2) {
    // "Check if there is any choice in the first place."
    c.idx = lit32(0);
    if constexpr (era == Era::k61) {
      c.stop_tick = !((states[0].polling || duration < tick) && !in.tick_stopped);
    } else {
      c.stop_tick = D::truth(false);
    }
    c.duration_ns = duration;
    return c;
  }

  // open: still in the main flow. to_end: a goto end; to_out: goto out_tick.
  B open = D::truth(true);
  B to_end = D::truth(false);
  B to_out = D::truth(false);
  B returned = D::truth(false);  // mainline's stopped-tick return

  B have = !states[0].disabled;  // idx >= 0
  U32<D> idx = lit32(0);
  U32<D> idx0 = lit32(0);
  if constexpr (era == Era::k61) {
    // State 0 at once when state 1 cannot pay off before the timer.
    const B early = have && states[1].target_residency_ns > duration;
    to_end = early;
    open = !early;
  }

  // The first walk: the candidate, constraint_idx and the metric sums.
  U32<D> constraint = lit32(0);
  U32<D> isum = lit32(0), hsum = lit32(0), rsum = lit32(0);
  U32<D> idx_isum = lit32(0), idx_hsum = lit32(0), idx_rsum = lit32(0);
  U32<D> imax = lit32(0), imax_idx = lit32(kNoIndex);
  B walking = open;
  for (size_t i = 1; i < n; ++i) {
    const State<D>& s = states[i];
    const Bin<D>& prev = cpu.bins[i - 1];
    isum = isum + prev.intercepts;
    hsum = hsum + prev.hits;
    rsum = rsum + prev.recent;
    if constexpr (has_v70_rules(era)) {
      const B more = prev.intercepts >= imax;
      imax = D::ite(more, prev.intercepts, imax);
      imax_idx = D::ite(more, lit32(i - 1), imax_idx);
    }
    const B live = walking && !s.disabled;
    idx0 = D::ite(live && !have, lit32(i), idx0);
    if constexpr (era == Era::k61) {
      idx = D::ite(live && !have, lit32(i), idx);
      have = have || live;
      const B over = live && s.target_residency_ns > duration;
      walking = walking && !over;
      const B fits = live && !over;
      idx = D::ite(fits, lit32(i), idx);
      constraint = D::ite(fits && s.exit_latency_ns <= in.latency_req_ns, lit32(i), constraint);
      idx_isum = D::ite(fits, isum, idx_isum);
      idx_hsum = D::ite(fits, hsum, idx_hsum);
      idx_rsum = D::ite(fits, rsum, idx_rsum);
    } else {
      have = have || live;
      idx = D::ite(live, lit32(i), idx);
      constraint = D::ite(live && s.exit_latency_ns <= in.latency_req_ns, lit32(i), constraint);
      idx_isum = D::ite(live, isum, idx_isum);
      idx_hsum = D::ite(live, hsum, idx_hsum);
    }
  }
  c.idx0 = idx0;
  if constexpr (S::constraint_from_first) constraint = D::ite(constraint < idx0, idx0, constraint);

  // No state enabled: 0. The first enabled state is the only candidate: use
  // it (later kernels: do not stop the tick if it is shallow).
  const B none = open && !have;
  idx = D::ite(none, lit32(0), idx);
  if constexpr (era == Era::k61) {
    to_end = to_end || none;
  } else {
    to_out = to_out || none;
  }
  open = open && !none;
  const B single = open && idx == idx0;
  if constexpr (era != Era::k61) duration = D::ite(single, tr_at(idx), duration);
  to_end = to_end || single;
  open = open && !single;

  const U32<D> total = cpu.total;
  const B alt_int = open && idx_isum * lit32(2) > total - idx_hsum;
  const U32<D> cand = idx;

  if constexpr (era == Era::k61) {
    const B alt_rec = open && idx_rsum > lit32(kNrRecent / 2);
    const B alt = alt_int || alt_rec;
    U64<D> fss = duration;
    U32<D> fsi = idx;
    U32<D> is2 = lit32(0), rs2 = lit32(0);
    B w = alt;
    for (size_t i = n - 1; i-- > 0;) {
      const B act = w && lit32(i) < cand;
      is2 = is2 + D::ite(act, cpu.bins[i].intercepts, lit32(0));
      rs2 = rs2 + D::ite(act, cpu.bins[i].recent, lit32(0));
      const U64<D> span =
          D::udiv(states[i].target_residency_ns + states[i + 1].target_residency_ns, lit64(2));
      const B time_ok = !in.tick_stopped || span >= tick;
      const B cond =
          act && (!alt_rec || rs2 * lit32(2) > idx_rsum) && (!alt_int || is2 * lit32(2) > idx_isum);
      const B take = cond && time_ok && !states[i].disabled;
      idx = D::ite(take, lit32(i), D::ite(cond, fsi, idx));
      duration = D::ite(take, span, D::ite(cond, fss, duration));
      w = w && !cond;
      const B en = act && !cond && !states[i].disabled;
      // Too shallow: go on if an alternative was found already, else stop.
      w = w && !(en && !time_ok && fsi == cand);
      const B suit = en && time_ok;
      fss = D::ite(suit, span, fss);
      fsi = D::ite(suit, lit32(i), fsi);
    }
  } else if constexpr (era == Era::k612) {
    U32<D> fsi = idx;
    U32<D> is2 = lit32(0);
    B w = alt_int;
    for (size_t i = n - 1; i-- > 0;) {
      const B act = w && lit32(i) < cand;
      is2 = is2 + D::ite(act, cpu.bins[i].intercepts, lit32(0));
      const B state_ok = !in.tick_stopped || states[i].target_residency_ns >= tick;
      const B cond = act && is2 * lit32(2) > idx_isum;
      const B take = cond && state_ok && !states[i].disabled;
      idx = D::ite(take, lit32(i), D::ite(cond, fsi, idx));
      w = w && !cond;
      const B en = act && !cond && !states[i].disabled;
      w = w && !(en && !state_ok && fsi == cand);
      fsi = D::ite(en && state_ok, lit32(i), fsi);
    }
    // Intercepts took state 0: query the sleep length only to learn.
    const B zero = open && idx == lit32(0) && !(cand == lit32(0));
    query(zero);
    to_out = to_out || zero;
    open = open && !zero;
  } else {
    // v6.19 and v7.0: with the tick stopped, start no shallower than the
    // first state whose target residency reaches the tick. Mainline: no
    // lower bound but the first enabled state. v7.0 and mainline
    // (a971f984b845): stop only at or below the bin with the most
    // intercepts.
    U32<D> min_idx = idx0;
    B w = alt_int;
    if constexpr (era == Era::k619 || era == Era::k70) {
      B adv = alt_int && in.tick_stopped;
      for (size_t k = 0; k < n; ++k) {
        adv = adv && min_idx < cand && tr_at(min_idx) < tick;
        min_idx = D::ite(adv, min_idx + lit32(1), min_idx);
      }
    }
    if constexpr (era == Era::k70) {
      // 4bd2221f231d: min_idx with the candidate's target residency (a bin
      // of size 0 between them): keep the candidate ("goto constraint").
      const B zero_bin = w && in.tick_stopped && tr_at(min_idx) == tr_at(cand);
      w = w && !zero_bin;
      // a971f984b845's shortcut: min_idx at or past the bin with the most
      // intercepts and enabled: take it (the walk below would end there too).
      const B disabled_min = at<D>(min_idx, n, [&](size_t j) { return states[j].disabled; });
      const B shortcut = w && D::truth(S::min_idx_shortcut) && min_idx >= imax_idx && !disabled_min;
      idx = D::ite(shortcut, min_idx, idx);
      w = w && !shortcut;
    }
    U32<D> is2 = lit32(0);
    for (size_t i = n - 1; i-- > 0;) {
      const B act = w && lit32(i) < cand && lit32(i) >= min_idx;
      is2 = is2 + D::ite(act, cpu.bins[i].intercepts, lit32(0));
      const B en = act && !states[i].disabled;
      idx = D::ite(en, lit32(i), idx);
      B stop = en && is2 * lit32(2) > idx_isum;
      if constexpr (has_v70_rules(era)) stop = stop && lit32(i) <= imax_idx;
      w = w && !stop;
    }
  }

  // The latency constraint (constraint_idx starts at 0).
  if (S::applies_constraint) idx = D::ite(open && idx > constraint, constraint, idx);

  if constexpr (era == Era::k612) {
    const B zero = open && idx == lit32(0);
    to_out = to_out || zero;
    open = open && !zero;
    const B quick = open && states[0].polling && tr_at(idx) < lit64(kResidencyThresholdNs);
    to_out = to_out || quick;
    open = open && !quick;
  } else if constexpr (era != Era::k61) {
    B quick =
        open && (idx == lit32(0) || tr_at(idx) < lit64(kResidencyThresholdNs)) &&
        (cpu.short_idles * lit32(2) >= total || in.latency_req_ns < lit64(kLatencyThresholdNs));
    if constexpr (era == Era::kMainline) quick = quick && !in.tick_stopped;
    to_out = to_out || quick;
    open = open && !quick;
  }
  if constexpr (era != Era::k61) {
    query(open);
    if constexpr (era == Era::kMainline) {
      // 106a2662e655: tick stopped, the timer far: from constraint_idx down,
      // the deepest enabled state fitting the sleep length; return.
      const B far = open && D::truth(S::stopped_tick_promotion) && in.tick_stopped &&
                    duration > tick * lit64(2) && tr_at(idx) < tick;
      B w = far;
      const U32<D> from = idx;
      for (size_t i = n; i-- > 1;) {
        const B act = w && lit32(i) <= constraint && lit32(i) > from && !states[i].disabled;
        const B fit = act && states[i].target_residency_ns <= duration;
        idx = D::ite(fit, lit32(i), idx);
        w = w && !fit;
      }
      returned = far;
      open = open && !far;
    }
    if constexpr (era != Era::k612) {
      const B zero = open && idx == lit32(0);
      to_out = to_out || zero;
      open = open && !zero;
    }
    const B too_long = open && tr_at(idx) > duration;
    idx = D::ite(too_long, find_shallower<D>(states, idx, duration), idx);
    U32<D> tick_int = cpu.tick_intercepts;
    if constexpr (era == Era::k612) {
      tick_int = isum + cpu.bins[n - 1].intercepts;  // tick_intercept_sum
    }
    // Tick intercepts dominate: keep the tick. 475ca3470b37 (v7.0) made the
    // share 2/3 (3 x tick_intercepts >= 2 x total) instead of over 5/8.
    B dominate;
    if constexpr (has_v70_rules(era)) {
      dominate = tick_int * lit32(3) >= total * lit32(2);
    } else {
      dominate = tick_int > D::udiv(total, lit32(2)) + D::udiv(total, lit32(8));
    }
    const B keep = open && tr_at(idx) < tick && dominate;
    duration = D::ite(keep, half_tick, duration);
  }

  // end: the tick decision and the correction to the time to the tick.
  const B at_end = (open || to_end) && !returned && !to_out;
  const B polling = polling_at(idx) && D::truth(S::polling_keeps_tick);
  B keeps_tick;
  if constexpr (era == Era::k61) {
    keeps_tick = at_end && (polling || duration < tick) && !in.tick_stopped;
  } else {
    keeps_tick = at_end && !((!polling && duration >= tick) || in.tick_stopped);
  }
  const B correct =
      keeps_tick && D::truth(S::corrects_for_tick) && idx > idx0 && tr_at(idx) > delta_tick;
  idx = D::ite(correct, find_shallower<D>(states, idx, delta_tick), idx);
  c.stop_tick = !(keeps_tick || to_out);
  c.idx = idx;
  c.duration_ns = duration;
  return c;
}

// --- concrete use -------------------------------------------------------------

using ConcreteChoice = Choice<Concrete>;
using ConcreteCpu = CpuData<Concrete>;
using ConcreteInputs = Inputs<Concrete>;
using ConcretePeriod = Period<Concrete>;
using SelectFn = ConcreteChoice (*)(std::span<const State<Concrete>>, ConcreteCpu&,
                                    const ConcreteInputs&);
using LearnFn = void (*)(std::span<const State<Concrete>>, ConcreteCpu&, const ConcretePeriod&,
                         const Word<64>&);

// A subject, type-erased for the command line, the simulator, the
// properties and the fuzz target.
struct SubjectOps {
  std::string_view name;
  std::string_view summary;
  SelectFn select;
  LearnFn learn;
};

// v6.1, v6.12, v6.19, v7.0, mainline.
std::span<const SubjectOps> subjects();
const SubjectOps* find_subject(std::string_view name);

}  // namespace idlespec::teo
