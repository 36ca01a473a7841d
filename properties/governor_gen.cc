#include "properties/governor_gen.h"

#include <algorithm>
#include <utility>

#include "impl/text.h"

namespace idlespec::props::gov {
namespace {

using governor::kBuckets;
using governor::kIntervals;
using governor::kKtimeMax;
using governor::kUintMax;

std::string u64s(uint64_t v) { return std::to_string(v); }

std::string ns_text(uint64_t v) {
  if (v == kKtimeMax) return "KTIME_MAX";
  if (v > kKtimeMax) return strprintf("%lld (negative)", static_cast<long long>(v));
  return u64s(v);
}

}  // namespace

std::string show_table(const Table& t) {
  std::string out = "[";
  for (size_t i = 0; i < t.size(); ++i) {
    if (i) out += ", ";
    out += u64s(i) + (t[i].polling ? " poll " : " ") + u64s(t[i].exit_latency_ns.v) + "/" +
           u64s(t[i].target_residency_ns.v) + (t[i].disabled ? " disabled" : "");
  }
  return out + "]";
}

std::string show_history(const ConcreteHistory& h) {
  std::string out = "history {factors [";
  for (size_t i = 0; i < kBuckets; ++i) {
    if (i) out += " ";
    out += u64s(h.correction_factor[i].v);
  }
  out += "], intervals [";
  for (size_t i = 0; i < kIntervals; ++i) {
    if (i) out += " ";
    out += h.intervals[i].v == kUintMax ? std::string("UINT_MAX") : u64s(h.intervals[i].v);
  }
  out += "] ptr " + u64s(h.interval_ptr.v) + ", bucket " + u64s(h.bucket.v) + ", next_timer " +
         ns_text(h.next_timer_ns.v) + (h.needs_update ? ", needs_update" : "") +
         (h.tick_wakeup ? ", tick_wakeup" : "") + "}";
  return out;
}

std::string show_inputs(const ConcreteInputs& in, unsigned hz, bool update) {
  std::string out = "limit " + u64s(in.latency_req_ns.v) + " ns, sleep length " +
                    ns_text(in.sleep_length_ns.v) + " ns, delta_tick " +
                    ns_text(in.delta_tick_ns.v) + " ns, tick " +
                    (in.tick_stopped ? "stopped" : "running") + ", HZ " + u64s(hz);
  if (update) {
    out += ", last state " + u64s(in.last_state_idx.v) + " residency " +
           u64s(in.last_residency_ns.v) + " ns" + (in.poll_time_limit ? " poll_time_limit" : "");
  }
  return out;
}

std::string show_prediction(const ConcretePrediction& p) {
  return "prediction {predicted " + ns_text(p.predicted_ns.v) + ", next_timer " +
         ns_text(p.next_timer_ns.v) + ", delta_tick " + ns_text(p.delta_tick_ns.v) + "}";
}

std::string show_step(const WakeStep& s) {
  std::string out = "limit " + u64s(s.latency_req_ns) + ", sleep " + u64s(s.sleep_length_ns) +
                    ", delta_tick " + u64s(s.delta_tick_ns) +
                    (s.tick_stopped ? ", tick stopped" : "") + " -> ";
  if (s.rejected) return out + "rejected";
  return out + "idle " + u64s(s.residency_ns) + " ns" + (s.got_tick ? ", tick woke" : "") +
         (s.poll_time_limit ? ", poll_time_limit" : "");
}

void showValue(const SelectionCase& c, std::ostream& os) {
  os << "states " << show_table(c.states) << "; " << show_inputs(c.inputs, c.hz, true) << "; "
     << show_history(c.history) << "; walk " << show_prediction(c.prediction);
}

void showValue(const SequenceCase& c, std::ostream& os) {
  os << "states " << show_table(c.states) << ", HZ " << c.hz << "; start " << show_history(c.start)
     << "; " << c.steps.size() << " steps [";
  for (size_t i = 0; i < c.steps.size(); ++i) os << (i ? "; " : "") << show_step(c.steps[i]);
  os << "]";
}

void showValue(const MonotonicCase& c, std::ostream& os) {
  os << "states " << show_table(c.states) << "; " << show_inputs(c.inputs, c.hz, false) << "; "
     << show_prediction(c.prediction) << "; "
     << (c.kind == MonotonicCase::kLimit ? "limits " : "predictions ") << c.low << ", " << c.high
     << " and the table's";
}

namespace gen {
namespace {

// One of `choices`, by weight; shrinks towards the first.
template <class T>
rc::Gen<T> weighted(std::vector<std::pair<size_t, rc::Gen<T>>> choices) {
  size_t total = 0;
  for (const auto& c : choices) total += c.first;
  return rc::gen::mapcat(uniform_in<size_t>(0, total), [choices](size_t pick) {
    for (const auto& [weight, g] : choices) {
      if (pick < weight) return g;
      pick -= weight;
    }
    return choices.back().second;
  });
}

template <class... Ts>
rc::Gen<uint64_t> values(Ts... vs) {
  return rc::gen::elementOf(std::vector<uint64_t>{static_cast<uint64_t>(vs)...});
}

}  // namespace

rc::Gen<uint64_t> ns_value(uint64_t tick_ns, uint64_t max_excl, bool far) {
  std::vector<std::pair<size_t, rc::Gen<uint64_t>>> choices = {
      {2, rc::gen::just(uint64_t{0})},
      {3, values(tick_ns, tick_ns - 1, tick_ns + 1)},
      {2, values(governor::kResidencyThresholdNs, governor::kResidencyThresholdNs - 1,
                 governor::kResidencyThresholdNs + 1)},
      {3, uniform_in<uint64_t>(1, 2000)},
      {3, uniform_in<uint64_t>(2000, 200000)},
      {3, uniform_in<uint64_t>(200000, 20000000)},
      {2, uniform_in<uint64_t>(20000000, 2000000000)},
      {1, uniform_in<uint64_t>(0, max_excl)},
  };
  if (far) {
    choices.push_back(
        {3, uniform_in<uint64_t>(max_excl - std::min<uint64_t>(max_excl, 1000000), max_excl)});
    choices.push_back({2, uniform_in<uint64_t>(max_excl / 4, max_excl)});
    if (max_excl > kUintUsNs + 1000000) {
      choices.push_back({3, uniform_in<uint64_t>(kUintUsNs - 1000000, kUintUsNs + 1000000)});
    }
  }
  return rc::gen::map(weighted(std::move(choices)),
                      [max_excl](uint64_t v) { return v < max_excl ? v : max_excl - 1; });
}

rc::Gen<unsigned> hz() { return rc::gen::elementOf(std::vector<unsigned>{1000, 250, 100}); }

rc::Gen<Table> table(uint64_t tick_ns, bool ordered_only, const Range& r) {
  return rc::gen::exec([=] {
    const size_t n = *uniform_in<size_t>(1, governor::kMaxStates + 1);
    const bool ordered = ordered_only || *rc::gen::weightedElement<bool>({{4, true}, {1, false}});
    std::vector<std::pair<uint64_t, uint64_t>> pairs;
    for (size_t i = 0; i < n; ++i) {
      if (i > 0 && *rc::gen::weightedElement<bool>({{5, false}, {1, true}})) {
        pairs.push_back(pairs.back());  // equal neighbours
        continue;
      }
      const uint64_t a = *ns_value(tick_ns, r.ns_excl, r.far);
      const uint64_t b = *rc::gen::weightedOneOf<uint64_t>(
          {{1, rc::gen::just(a)}, {4, ns_value(tick_ns, r.ns_excl, r.far)}});
      pairs.push_back({a, b});
    }
    std::vector<uint64_t> exit(n);
    std::vector<uint64_t> residency(n);
    for (size_t i = 0; i < n; ++i) {
      exit[i] = ordered ? std::min(pairs[i].first, pairs[i].second) : pairs[i].first;
      residency[i] = ordered ? std::max(pairs[i].first, pairs[i].second) : pairs[i].second;
    }
    if (ordered) {
      // The k-th smallest exit latency is at most the k-th smallest
      // residency, as each pair had exit <= residency.
      std::sort(exit.begin(), exit.end());
      std::sort(residency.begin(), residency.end());
    }
    Table t(n);
    for (size_t i = 0; i < n; ++i) {
      t[i].exit_latency_ns = Concrete::lit<64>(exit[i]);
      t[i].target_residency_ns = Concrete::lit<64>(residency[i]);
      t[i].polling = false;
      t[i].timer_stop = i > 0;
      t[i].disabled = false;
    }
    const int polling = *rc::gen::weightedElement<int>({{6, 0}, {2, 1}, {2, -1}});
    if (polling == 0) {
      t[0].polling = true;
      if (*rc::gen::weightedElement<bool>({{2, true}, {1, false}})) {
        t[0].exit_latency_ns = Concrete::lit<64>(0);
        t[0].target_residency_ns = Concrete::lit<64>(0);
      }
    } else if (polling == 1) {
      t[*uniform_in<size_t>(0, n)].polling = true;
    }
    const int disabled = *rc::gen::weightedElement<int>({{6, 0}, {3, 1}, {1, 2}});
    for (size_t i = 0; i < n; ++i) {
      t[i].disabled = disabled == 2 ||
                      (disabled == 1 && *rc::gen::weightedElement<bool>({{3, false}, {1, true}}));
    }
    return t;
  });
}

rc::Gen<ConcreteHistory> history(uint64_t tick_ns, const Range& r) {
  return rc::gen::exec([=] {
    ConcreteHistory h = governor::fresh_history<Concrete>();
    for (auto& f : h.correction_factor) {
      f = Concrete::lit<32>(*rc::gen::weightedOneOf<uint32_t>({
          {3, rc::gen::just(uint32_t{kMaxFactor})},
          {1, rc::gen::just(uint32_t{1})},
          {1, rc::gen::just(uint32_t{1024})},
          {3, uniform_in<uint32_t>(1, kMaxFactor + 1)},
      }));
    }
    const int ring = r.far ? *rc::gen::weightedElement<int>({{3, 0}, {2, 1}, {3, 2}, {3, 3}})
                           : *rc::gen::weightedElement<int>({{3, 0}, {2, 1}, {3, 2}});
    if (ring == 3) {
      // A tight cluster of long intervals: the sum of their squares passes
      // 2^64 from about 2^30.5 us on.
      const uint32_t base = *uniform_in<uint32_t>(r.ring_max_us / 2, r.ring_max_us - 3);
      for (auto& v : h.intervals) v = Concrete::lit<32>(base + *uniform_in<uint32_t>(0, 4));
    }
    if (ring == 1) {
      // Clusters: a base and a small jitter, so that an average is accepted.
      const uint32_t base = *rc::gen::weightedOneOf<uint32_t>({
          {3, uniform_in<uint32_t>(0, 100000)},
          {2, uniform_in<uint32_t>(r.ring_max_us / 2, r.ring_max_us - 100)},
      });
      for (auto& v : h.intervals) {
        v = Concrete::lit<32>(*rc::gen::weightedOneOf<uint32_t>({
            {6,
             rc::gen::map(uniform_in<uint32_t>(0, 100), [base](uint32_t d) { return base + d; })},
            {1, rc::gen::just(kUintMax)},
            {1, uniform_in<uint32_t>(0, r.ring_max_us)},
        }));
      }
    } else if (ring == 2) {
      for (auto& v : h.intervals) {
        v = Concrete::lit<32>(*rc::gen::weightedOneOf<uint32_t>({
            {2, rc::gen::just(uint32_t{0})},
            {1, rc::gen::just(kUintMax)},
            {3, uniform_in<uint32_t>(0, 100000)},
            {2, uniform_in<uint32_t>(0, r.ring_max_us)},
        }));
      }
    }
    h.interval_ptr = Concrete::lit<32>(*uniform_in<uint32_t>(0, kIntervals));
    h.bucket = Concrete::lit<32>(*uniform_in<uint32_t>(0, kBuckets));
    h.next_timer_ns = Concrete::lit<64>(*rc::gen::weightedOneOf<uint64_t>({
        {4, ns_value(tick_ns, r.ns_excl, r.far)},
        {1, rc::gen::just(uint64_t{0})},
        {2, rc::gen::just(kKtimeMax)},
    }));
    h.needs_update = *rc::gen::arbitrary<bool>();
    h.tick_wakeup = *rc::gen::arbitrary<bool>();
    return h;
  });
}

namespace {

// A value of the table (exit latency or target residency of some state), or
// one off it.
rc::Gen<uint64_t> table_value(const Table& t, bool exit) {
  return rc::gen::map(rc::gen::pair(uniform_in<size_t>(0, t.size()),
                                    rc::gen::elementOf(std::vector<int>{0, -1, 1})),
                      [t, exit](const std::pair<size_t, int>& p) {
                        const uint64_t v =
                            exit ? t[p.first].exit_latency_ns.v : t[p.first].target_residency_ns.v;
                        return v + static_cast<uint64_t>(static_cast<int64_t>(p.second));
                      });
}

uint64_t clamp_below(uint64_t v, uint64_t max_excl) { return v < max_excl ? v : max_excl - 1; }

}  // namespace

rc::Gen<ConcreteInputs> inputs(const Table& t, uint64_t tick_ns, const Range& r) {
  return rc::gen::exec([=] {
    ConcreteInputs in;
    in.tick_ns = Concrete::lit<64>(tick_ns);
    in.latency_req_ns =
        Concrete::lit<64>(clamp_below(*rc::gen::weightedOneOf<uint64_t>({
                                          {1, rc::gen::just(uint64_t{0})},
                                          {2, uniform_in<uint64_t>(1, 50000)},
                                          {2, rc::gen::just(kMaxLatencyReqNs)},
                                          {4, table_value(t, true)},
                                          {2, ns_value(tick_ns, kMaxLatencyReqNs + 1, false)},
                                      }),
                                      kMaxLatencyReqNs + 1));
    std::vector<std::pair<size_t, rc::Gen<uint64_t>>> sleep = {
        {4, table_value(t, false)},
        {2, values(tick_ns, tick_ns - 1, tick_ns + 1, 2 * tick_ns)},
        {3, ns_value(tick_ns, r.ns_excl, r.far)},
        {1, uniform_in<uint64_t>(49000000, 51000000)},
    };
    if (r.negative_sleep) sleep.push_back({1, rc::gen::just(~uint64_t{0} - 999)});
    in.sleep_length_ns = Concrete::lit<64>(*weighted(std::move(sleep)));
    if (!r.negative_sleep) in.sleep_length_ns.v = clamp_below(in.sleep_length_ns.v, r.ns_excl);
    const uint64_t s = in.sleep_length_ns.v > kKtimeMax ? 0 : in.sleep_length_ns.v;
    in.delta_tick_ns = Concrete::lit<64>(clamp_below(*rc::gen::weightedOneOf<uint64_t>({
                                                         {3, rc::gen::just(s)},
                                                         {2, uniform_in<uint64_t>(0, s + 1)},
                                                         {1, values(tick_ns, tick_ns / 2)},
                                                         {2, table_value(t, false)},
                                                         // The tick running: its next
                                                         // event within a tick.
                                                         {3, uniform_in<uint64_t>(0, tick_ns + 1)},
                                                     }),
                                                     r.ns_excl));
    in.tick_stopped = *rc::gen::arbitrary<bool>();
    in.last_state_idx =
        Concrete::lit<32>(*uniform_in<uint32_t>(0, static_cast<uint32_t>(t.size())));
    in.last_residency_ns = Concrete::lit<64>(*rc::gen::weightedOneOf<uint64_t>({
        {4, ns_value(tick_ns, r.ns_excl, r.far)},
        {1, uniform_in<uint64_t>(0, s + 1)},
        {2, uniform_in<uint64_t>(0, 20000)},
    }));
    in.poll_time_limit = t[in.last_state_idx.v].polling && *rc::gen::arbitrary<bool>();
    return in;
  });
}

rc::Gen<ConcretePrediction> prediction(const Table& t, const ConcreteInputs& in) {
  return rc::gen::exec([=] {
    ConcretePrediction p;
    p.latency_req_ns = in.latency_req_ns;
    const uint64_t tick_ns = in.tick_ns.v;
    const bool negative = in.sleep_length_ns.v > kKtimeMax;
    if (*rc::gen::weightedElement<bool>({{5, true}, {1, false}})) {
      // The timer consulted: next_timer_ns is the sleep length; the
      // prediction at most about it (timer_us rounds to the microsecond).
      const uint64_t next = negative ? 0 : in.sleep_length_ns.v;
      p.next_timer_ns = Concrete::lit<64>(next);
      p.delta_tick_ns = Concrete::lit<64>(negative ? 0 : in.delta_tick_ns.v);
      p.predicted_ns =
          Concrete::lit<64>(clamp_below(*rc::gen::weightedOneOf<uint64_t>({
                                            {3, values(tick_ns, tick_ns - 1, tick_ns + 1)},
                                            {3, table_value(t, false)},
                                            {2, rc::gen::just(next)},
                                            {2, uniform_in<uint64_t>(0, next + 1)},
                                            {1, ns_value(tick_ns, kWideNs, false)},
                                        }),
                                        next + 500));
    } else {
      p.next_timer_ns = Concrete::lit<64>(kKtimeMax);
      p.delta_tick_ns = Concrete::lit<64>(tick_ns / 2);
      p.predicted_ns = Concrete::lit<64>(*rc::gen::weightedOneOf<uint64_t>({
          {1, rc::gen::just(governor::kResidencyThresholdNs)},
          {3, uniform_in<uint64_t>(0, 16)},
          {3, rc::gen::map(uniform_in<uint64_t>(0, 16),
                           [](uint64_t us) { return us * governor::kNsecPerUsec; })},
      }));
    }
    return p;
  });
}

rc::Gen<SelectionCase> selection_case(const Range& r) {
  return rc::gen::exec([=] {
    SelectionCase c;
    c.hz = *hz();
    const uint64_t tick_ns = governor::tick_nsec(c.hz);
    c.states = *table(tick_ns, false, r);
    c.history = *history(tick_ns, r);
    c.inputs = *inputs(c.states, tick_ns, r);
    c.prediction = *prediction(c.states, c.inputs);
    return c;
  });
}

rc::Gen<SequenceCase> sequence_case() {
  return rc::gen::exec([] {
    SequenceCase c;
    c.hz = *hz();
    const uint64_t tick_ns = governor::tick_nsec(c.hz);
    c.states = *table(tick_ns, false, kSequenceRange);
    if (*rc::gen::weightedElement<bool>({{1, true}, {1, false}})) {
      c.start = governor::fresh_history<Concrete>();
    } else {
      c.start = *history(tick_ns, kSequenceRange);
      c.start.needs_update = false;  // no previous period to learn from
      c.start.tick_wakeup = false;
    }
    const size_t n = *uniform_in<size_t>(1, 31);
    for (size_t i = 0; i < n; ++i) {
      const ConcreteInputs in = *inputs(c.states, tick_ns, kSequenceRange);
      WakeStep s;
      s.latency_req_ns = in.latency_req_ns.v;
      s.sleep_length_ns = in.sleep_length_ns.v;
      s.delta_tick_ns = in.delta_tick_ns.v;
      s.tick_stopped = in.tick_stopped;
      s.residency_ns =
          clamp_below(*rc::gen::weightedOneOf<uint64_t>({
                          {3, uniform_in<uint64_t>(0, s.sleep_length_ns + 1)},
                          {2, rc::gen::just(s.sleep_length_ns)},
                          {1, rc::gen::map(uniform_in<uint64_t>(1, 100000),
                                           [s](uint64_t d) { return s.sleep_length_ns + d; })},
                          {2, ns_value(tick_ns, kKernelNs, false)},
                          {3, uniform_in<uint64_t>(0, 20000)},
                      }),
                      kKernelNs);
      s.got_tick = *rc::gen::weightedElement<bool>({{3, false}, {1, true}});
      s.poll_time_limit = *rc::gen::arbitrary<bool>();
      s.rejected = *rc::gen::weightedElement<bool>({{9, false}, {1, true}});
      c.steps.push_back(s);
    }
    return c;
  });
}

rc::Gen<MonotonicCase> monotonic_case(MonotonicCase::Kind kind) {
  return rc::gen::exec([kind] {
    MonotonicCase c;
    c.kind = kind;
    c.hz = *hz();
    const uint64_t tick_ns = governor::tick_nsec(c.hz);
    c.states = *table(tick_ns, true, kSelectionRange);
    c.inputs = *inputs(c.states, tick_ns, kSelectionRange);
    // The tick running more often: then the walk may keep the tick and
    // correct towards shallower states, which a raised limit can trigger.
    if (kind == MonotonicCase::kLimit) {
      c.inputs.tick_stopped = *rc::gen::weightedElement<bool>({{3, false}, {1, true}});
    }
    c.prediction = *prediction(c.states, c.inputs);
    // Two values, one of them often a table value or the tick, the other
    // raised by a little or a lot.
    // The range predict() returns: up to the sleep length (and the half
    // microsecond timer_us rounds up) when the timer is consulted, up to
    // 15 us when not.
    const uint64_t next = c.prediction.next_timer_ns.v;
    const uint64_t top = kind == MonotonicCase::kLimit ? kMaxLatencyReqNs + 1
                         : next == kKtimeMax           ? governor::kResidencyThresholdNs + 1
                                                       : next + 500;
    const uint64_t a = clamp_below(*rc::gen::weightedOneOf<uint64_t>({
                                       {3, table_value(c.states, kind == MonotonicCase::kLimit)},
                                       {2, values(tick_ns, tick_ns - 1, 0)},
                                       {3, ns_value(tick_ns, top, false)},
                                   }),
                                   top);
    const uint64_t b = clamp_below(
        *rc::gen::weightedOneOf<uint64_t>({
            {2, rc::gen::map(uniform_in<uint64_t>(1, 3), [a](uint64_t d) { return a + d; })},
            {3, table_value(c.states, kind == MonotonicCase::kLimit)},
            {3, ns_value(tick_ns, top, false)},
        }),
        top);
    c.low = std::min(a, b);
    c.high = std::max(a, b);
    c.top = top;
    return c;
  });
}

}  // namespace gen
}  // namespace idlespec::props::gov
