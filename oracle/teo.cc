#include "oracle/teo.h"

#include <string>

namespace idlespec::teo::oracle {
namespace {

std::string u64s(uint64_t v) { return std::to_string(v); }

}  // namespace

bool table_is_ordered(std::span<const State<Concrete>> states) {
  for (size_t i = 1; i < states.size(); ++i) {
    if (states[i].exit_latency_ns.v < states[i - 1].exit_latency_ns.v) return false;
    if (states[i].target_residency_ns.v < states[i - 1].target_residency_ns.v) return false;
  }
  return true;
}

bool inputs_in_order(const ConcreteInputs& in) {
  return in.delta_tick_ns.v <= in.sleep_length_ns.v &&
         (in.tick_stopped || in.delta_tick_ns.v <= in.tick_ns.v);
}

Violations judge_selection(std::span<const State<Concrete>> states, const ConcreteInputs& in,
                           const ConcreteChoice& c) {
  Violations out;
  auto fail = [&](const char* clause, std::string why) { out.push_back({clause, std::move(why)}); };
  const size_t n = states.size();
  const uint64_t idx = c.idx.v;
  if (idx >= (n == 0 ? 1 : n)) {
    fail("TEO-1", "index " + u64s(idx) + " outside a table of " + u64s(n) + " states");
    return out;
  }
  if (n == 0) return out;
  const size_t first = first_enabled(states);
  const bool ordered = table_is_ordered(states);
  const bool choice = n >= 2 && first < n;  // neither a single state nor none enabled
  const State<Concrete>& s = states[idx];

  // TEO-1: enabled.
  if (choice && s.disabled) {
    fail("TEO-1", "state " + u64s(idx) + " is disabled (first enabled is " + u64s(first) + ")");
  }
  // TEO-2: within the PM QoS limit unless state 0 or the first enabled one.
  if (ordered && choice && idx != 0 && idx != first && s.exit_latency_ns.v > in.latency_req_ns.v) {
    fail("TEO-2", "state " + u64s(idx) + " exit latency " + u64s(s.exit_latency_ns.v) +
                      " ns > limit " + u64s(in.latency_req_ns.v) + " ns");
  }
  // TEO-3: a polling state never stops a running tick.
  if (s.polling && c.stop_tick && !in.tick_stopped) {
    fail("TEO-3", "polling state " + u64s(idx) + " chosen with stop_tick while the tick runs");
  }
  if (!inputs_in_order(in)) return out;
  const uint64_t tr = s.target_residency_ns.v;
  // TEO-4: the tick kept, a deeper-than-first state fits delta_next unless
  // it is shorter than RESIDENCY_THRESHOLD_NS.
  if (!in.tick_stopped && !c.stop_tick && idx > first && tr >= kResidencyThresholdNs &&
      tr > in.delta_tick_ns.v) {
    fail("TEO-4", "tick kept: state " + u64s(idx) + " target residency " + u64s(tr) +
                      " ns > delta_next " + u64s(in.delta_tick_ns.v) + " ns");
  }
  // TEO-5: the tick stopped and the timer beyond SAFE_TIMER_RANGE_NS: not
  // shallower than a tick while an allowed state of a tick or more fits.
  const unsigned __int128 safe = static_cast<unsigned __int128>(in.tick_ns.v) * 2;
  if (ordered && in.tick_stopped && in.sleep_length_ns.v > safe && tr < in.tick_ns.v) {
    for (size_t i = 0; i < n; ++i) {
      const State<Concrete>& d = states[i];
      if (!d.disabled && d.exit_latency_ns.v <= in.latency_req_ns.v &&
          d.target_residency_ns.v >= in.tick_ns.v &&
          d.target_residency_ns.v <= in.sleep_length_ns.v) {
        fail("TEO-5", "tick stopped, next timer in " + u64s(in.sleep_length_ns.v) + " ns: state " +
                          u64s(idx) + " target residency " + u64s(tr) + " ns < TICK_NSEC " +
                          u64s(in.tick_ns.v) + " ns although state " + u64s(i) + " (" +
                          u64s(d.target_residency_ns.v) + " ns) fits within the limit");
        break;
      }
    }
  }
  return out;
}

bool total_below_bins(size_t n, const ConcreteCpu& cpu) {
  uint64_t sum = 0;
  for (size_t i = 0; i < n && i < kMaxStates; ++i)
    sum += cpu.bins[i].hits.v + cpu.bins[i].intercepts.v;
  return cpu.total.v < sum;
}

Violations judge_metrics(size_t n, const ConcreteCpu& cpu, Era era) {
  idlespec::oracle::Collector out;
  const uint64_t bound = kMetricBound;
  uint64_t sum = 0;
  for (size_t i = 0; i < n && i < kMaxStates; ++i) {
    const Bin<Concrete>& b = cpu.bins[i];
    if (b.hits.v > bound) {
      out.add("TEO-6",
              [&] { return "bin " + u64s(i) + " hits " + u64s(b.hits.v) + " > " + u64s(bound); });
    }
    if (b.intercepts.v > bound) {
      out.add("TEO-6", [&] {
        return "bin " + u64s(i) + " intercepts " + u64s(b.intercepts.v) + " > " + u64s(bound);
      });
    }
    sum += b.hits.v + b.intercepts.v;
  }
  if (total_below_bins(n, cpu)) {
    out.add("TEO-6",
            [&] { return "total " + u64s(cpu.total.v) + " < the bins' sum " + u64s(sum); });
  }
  const uint64_t total_bound = (2 * n + 2) * bound;
  if (cpu.total.v > total_bound) {
    out.add("TEO-6", [&] { return "total " + u64s(cpu.total.v) + " > " + u64s(total_bound); });
  }
  const std::pair<const char*, uint64_t> singles[] = {{"tick_hits", cpu.tick_hits.v},
                                                      {"total_tick", cpu.total_tick.v},
                                                      {"tick_intercepts", cpu.tick_intercepts.v},
                                                      {"short_idles", cpu.short_idles.v}};
  for (const auto& single : singles) {
    const char* name = single.first;
    const uint64_t v = single.second;
    if (v > bound) {
      out.add("TEO-6", [&] { return std::string(name) + " " + u64s(v) + " > " + u64s(bound); });
    }
  }
  if (era == Era::k61) {
    if (cpu.next_recent_idx.v >= kNrRecent) {
      out.add("TEO-6", [&] {
        return "next_recent_idx " + u64s(cpu.next_recent_idx.v) + " outside the ring of " +
               u64s(kNrRecent);
      });
    }
    for (size_t j = 0; j < kNrRecent; ++j) {
      const uint64_t r = cpu.recent_idx[j].v;
      if (r != kNoIndex && r >= n) {
        out.add("TEO-6", [&] { return "recent slot " + u64s(j) + " names state " + u64s(r); });
      }
    }
    for (size_t b = 0; b < n && b < kMaxStates; ++b) {
      uint64_t count = 0;
      for (size_t j = 0; j < kNrRecent; ++j) count += cpu.recent_idx[j].v == b;
      if (cpu.bins[b].recent.v != count) {
        out.add("TEO-6", [&] {
          return "bin " + u64s(b) + " recent count " + u64s(cpu.bins[b].recent.v) + " but " +
                 u64s(count) + " slots name it";
        });
      }
    }
  }
  return out.take();
}

}  // namespace idlespec::teo::oracle
