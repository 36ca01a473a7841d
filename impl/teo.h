// cpuidle governor selection: the TEO ("timer events oriented") governor
// (spec/teo.md).
//
// TEO keeps, per CPU and per state of the driver's table, two decaying
// metrics: "hits" (the CPU slept into the bin the next timer pointed at) and
// "intercepts" (something else woke it earlier, into a shallower bin).
// teo_select() takes the deepest candidate the table and the timers allow,
// moves to a shallower one when the intercepts below it dominate, applies
// the PM QoS latency limit and decides about the tick; teo_update() (run at
// the next selection, after teo_reflect()) learns from the period.
//
// Written once over a value domain D (impl/domain.h), exactly as
// impl/governor.h: concrete words for the simulator, the properties and the
// fuzz target, Z3 bit-vectors for the proofs. Loops over the table are
// unrolled with "still walking" flags following the kernel's break,
// continue and goto; no D::Bool is branched on.
//
// Subjects (types with static members, one rule set each):
//   V61       Debian's 6.1 tree: the sleep length first, bins with "recent"
//             intercepts, the alternative search over bin middles.
//   V612      Debian's 6.12 tree: the sleep length only when needed,
//             teo_state_ok(), the extra tick bin ("tick_hits").
//   V619      the v6.19 rework: teo_decay(), short idles, tick wakeups
//             counted (total_tick), tick intercepts, the min_idx search.
//   V70       v7.0: v6.19 plus the v7.0 merge window's teo commits:
//             a971f984b845 (the search bounded by the bin with the most
//             intercepts, and its shortcut to min_idx), 4bd2221f231d (no
//             state with a zero-size bin), f36de72673ad (a hit only when
//             the sleep length exceeds the measured time by less than half
//             the exit latency), 60836533b4c7 (a tick wake-up a hit unless
//             tick intercepts dominate), 475ca3470b37 (keep the tick at
//             2/3 tick intercepts).
//   Mainline  v7.1 (2026 mainline): v7.0 with 106a2662e655 ("cpuidle:
//             governors: teo: Rearrange stopped tick handling"), which
//             drops min_idx, the zero-size-bin test and the shortcut.
//
// Values: latencies, residencies, the limit and the sleep length are the
// kernel's s64 nanoseconds kept as unsigned 64-bit words below 2^62 (the
// spec's range), where signed and unsigned comparisons agree and the sum of
// two residencies cannot wrap. The metrics are the kernel's unsigned ints.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "impl/domain.h"
#include "impl/governor.h"

namespace idlespec::teo {

using governor::State;  // exit latency, target residency, POLLING, disable

inline constexpr unsigned kMaxStates = governor::kMaxStates;  // CPUIDLE_STATE_MAX
inline constexpr uint32_t kPulse = 1024;                      // PULSE
inline constexpr unsigned kDecayShift = 3;                    // DECAY_SHIFT
inline constexpr unsigned kNrRecent = 9;                      // NR_RECENT (6.1)
inline constexpr uint64_t kResidencyThresholdNs = governor::kResidencyThresholdNs;  // gov.h
inline constexpr uint64_t kLatencyThresholdNs = kResidencyThresholdNs / 2;          // v6.19 teo.c
inline constexpr uint64_t kKtimeMax = governor::kKtimeMax;
inline constexpr uint32_t kNoIndex = 0xffffffffu;  // an int index of -1
// The bound every metric keeps (spec TEO-6): x - x/8 + PULSE <= 8 * PULSE + 7.
inline constexpr uint32_t kMetricBound = 8 * kPulse + 7;

enum class Era : uint8_t { k61, k612, k619, k70, kMainline };

// The v6.19 rework's metrics (teo_decay(), short idles, tick wake-ups and
// intercepts): v6.19, v7.0 and mainline.
constexpr bool has_v619_metrics(Era e) {
  return e == Era::k619 || e == Era::k70 || e == Era::kMainline;
}
// The v7.0 merge window's commits (f36de72673ad, 60836533b4c7,
// 475ca3470b37, a971f984b845's bound): v7.0 and mainline.
constexpr bool has_v70_rules(Era e) { return e == Era::k70 || e == Era::kMainline; }

struct V61 {
  static constexpr std::string_view name = "v6.1";
  static constexpr Era era = Era::k61;
  // Hooks only witnesses change.
  static constexpr bool applies_constraint = true;      // "if (idx > constraint_idx)"
  static constexpr bool corrects_for_tick = true;       // the final delta_tick correction
  static constexpr bool decays = true;                  // metrics decay at each update
  static constexpr bool polling_keeps_tick = true;      // the end block's POLLING test
  static constexpr bool stopped_tick_promotion = true;  // 106a2662e655's step (mainline)
  static constexpr bool min_idx_shortcut = true;        // a971f984b845's shortcut (v7.0)
  // The fix spec/teo.md proposes for its TEO-1 finding (no subject has it):
  // constraint_idx never names a state before the first enabled one.
  static constexpr bool constraint_from_first = false;
};
struct V612 : V61 {
  static constexpr std::string_view name = "v6.12";
  static constexpr Era era = Era::k612;
};
struct V619 : V61 {
  static constexpr std::string_view name = "v6.19";
  static constexpr Era era = Era::k619;
};
struct V70 : V61 {
  static constexpr std::string_view name = "v7.0";
  static constexpr Era era = Era::k70;
};
struct Mainline : V61 {
  static constexpr std::string_view name = "mainline";
  static constexpr Era era = Era::kMainline;
};

// struct teo_bin.
template <class D>
struct Bin {
  typename D::template U<32> intercepts;
  typename D::template U<32> hits;
  typename D::template U<32> recent;  // 6.1 only
};

// struct teo_cpu, with what the cpuidle device keeps for the governor.
template <class D>
struct CpuData {
  typename D::template U<64> time_span_ns;     // 6.1, 6.12
  typename D::template U<64> sleep_length_ns;  // as of the last selection
  std::array<Bin<D>, kMaxStates> bins;
  typename D::template U<32> total;
  typename D::template U<32> tick_hits;                          // 6.12
  typename D::template U<32> total_tick;                         // v6.19 and later
  typename D::template U<32> tick_intercepts;                    // v6.19 and later
  typename D::template U<32> short_idles;                        // v6.19 and later
  typename D::Bool tick_wakeup;                                  // v6.19 and later
  typename D::template U<32> next_recent_idx;                    // 6.1
  std::array<typename D::template U<32>, kNrRecent> recent_idx;  // 6.1, kNoIndex = -1
};

// One call of teo_select() besides the per-CPU data.
template <class D>
struct Inputs {
  typename D::template U<64> latency_req_ns;   // cpuidle_governor_latency_req()
  typename D::template U<64> sleep_length_ns;  // tick_nohz_get_sleep_length()
  typename D::template U<64> delta_tick_ns;    // ... and its *delta_next output
  typename D::Bool tick_stopped;               // tick_nohz_tick_stopped()
  typename D::template U<64> tick_ns;          // TICK_NSEC
};

// What the cpuidle core recorded about the previous idle period (reflect
// and the device fields teo_update() reads).
template <class D>
struct Period {
  typename D::template U<32> last_state_idx;
  typename D::template U<64> last_residency_ns;
  typename D::Bool poll_time_limit;       // a polling state timed out
  typename D::Bool got_tick;              // tick_nohz_idle_got_tick()
  typename D::template U<64> elapsed_ns;  // local_clock() since the selection
};

template <class D>
struct Choice {
  typename D::template U<32> idx;
  typename D::Bool stop_tick;              // the caller's default is true
  typename D::template U<32> idx0;         // the first enabled state (0 if none)
  typename D::Bool queried;                // the sleep length was consulted
  typename D::template U<64> duration_ns;  // the expected idle duration at the end
};

// --- helpers -----------------------------------------------------------------

template <class D>
using U32 = typename D::template U<32>;
template <class D>
using U64 = typename D::template U<64>;

template <class D, class Get>
auto at(const U32<D>& idx, size_t n, Get get) {
  return governor::pick<D>(idx, n, get);
}

template <class D>
U32<D> decay(const U32<D>& m, Era era) {
  const U32<D> delta = m >> kDecayShift;
  if (has_v619_metrics(era)) {
    // teo_decay(): a metric below 2^DECAY_SHIFT drops to 0.
    return D::ite(delta == D::template lit<32>(0), D::template lit<32>(0), m - delta);
  }
  return m - delta;
}

// teo_find_shallower_state(): from state_idx down, the first enabled state
// whose target residency fits duration (or the last enabled one tried).
template <class D>
U32<D> find_shallower(std::span<const State<D>> states, const U32<D>& state_idx,
                      const U64<D>& duration_ns) {
  U32<D> r = state_idx;
  typename D::Bool walking = D::truth(true);
  for (size_t i = states.size(); i-- > 0;) {
    const auto take = walking && D::template lit<32>(i) < state_idx && !states[i].disabled;
    r = D::ite(take, D::template lit<32>(i), r);
    walking = walking && !(take && states[i].target_residency_ns <= duration_ns);
  }
  return r;
}

// --- teo_update() with teo_reflect() -------------------------------------------

// What the last period teaches; `reflect` is the period teo_reflect() saw.
template <class S, class D>
void learn(std::span<const State<D>> states, CpuData<D>& cpu, const Period<D>& p,
           const U64<D>& tick_ns) {
  using B = typename D::Bool;
  constexpr Era era = S::era;
  const size_t n = states.size();
  auto lit32 = [](uint64_t v) { return D::template lit<32>(v); };
  auto lit64 = [](uint64_t v) { return D::template lit<64>(v); };
  const U32<D> pulse = lit32(kPulse);
  const U64<D> lat =
      at<D>(p.last_state_idx, n, [&](size_t i) { return states[i].exit_latency_ns; });
  const U64<D> res = p.last_residency_ns;
  const B covers = res >= lat;
  const U64<D> deducted = D::ite(covers, res - D::udiv(lat, lit64(2)), D::udiv(res, lit64(2)));
  U64<D> measured;
  if constexpr (era == Era::k61 || era == Era::k612) {
    // teo_reflect(): a safety net (polling timeout, a tick with a far timer)
    // makes the period span the whole sleep length, which discards it.
    const B net = p.poll_time_limit || (p.got_tick && cpu.sleep_length_ns > tick_ns);
    cpu.time_span_ns = D::ite(net, cpu.sleep_length_ns, p.elapsed_ns);
    measured = D::ite(cpu.time_span_ns >= cpu.sleep_length_ns, lit64(~0ULL), deducted);
  } else {
    cpu.tick_wakeup = p.got_tick;
    cpu.short_idles = decay<D>(cpu.short_idles, era);
    measured = D::ite(p.poll_time_limit, lit64(kKtimeMax), deducted);
    const B short_idle = !p.poll_time_limit && (!covers || deducted < lit64(kResidencyThresholdNs));
    cpu.short_idles = D::ite(short_idle, cpu.short_idles + pulse, cpu.short_idles);
  }

  U32<D> total = lit32(0);
  U32<D> idx_timer = lit32(0);
  U32<D> idx_duration = lit32(0);
  for (size_t i = 0; i < n; ++i) {
    Bin<D>& bin = cpu.bins[i];
    if (S::decays) {
      bin.hits = decay<D>(bin.hits, era);
      bin.intercepts = decay<D>(bin.intercepts, era);
    }
    total = total + bin.hits + bin.intercepts;
    const U64<D> tr = states[i].target_residency_ns;
    const B timer = tr <= cpu.sleep_length_ns;
    idx_timer = D::ite(timer, lit32(i), idx_timer);
    idx_duration = D::ite(timer && tr <= measured, lit32(i), idx_duration);
  }

  B done = D::truth(false);  // an early return / goto end
  if constexpr (era == Era::k61) {
    const U32<D> slot = cpu.next_recent_idx;
    const U32<D> next = slot + lit32(1);
    cpu.next_recent_idx = D::ite(next >= lit32(kNrRecent), lit32(0), next);
    const U32<D> old = at<D>(slot, kNrRecent, [&](size_t j) { return cpu.recent_idx[j]; });
    for (size_t b = 0; b < n; ++b) {
      cpu.bins[b].recent =
          D::ite(old == lit32(b), cpu.bins[b].recent - lit32(1), cpu.bins[b].recent);
    }
    const B hit = idx_timer == idx_duration;
    for (size_t j = 0; j < kNrRecent; ++j) {
      cpu.recent_idx[j] =
          D::ite(slot == lit32(j), D::ite(hit, lit32(kNoIndex), idx_duration), cpu.recent_idx[j]);
    }
    for (size_t b = 0; b < n; ++b) {
      cpu.bins[b].recent = D::ite(!hit && idx_duration == lit32(b), cpu.bins[b].recent + lit32(1),
                                  cpu.bins[b].recent);
    }
  }
  if constexpr (era == Era::k612) {
    // The extra hits-only bin beyond the deepest state, when that state's
    // target residency is below the tick.
    const B tick_bin = states[n - 1].target_residency_ns < tick_ns;
    cpu.tick_hits = D::ite(tick_bin, decay<D>(cpu.tick_hits, era), cpu.tick_hits);
    total = D::ite(tick_bin, total + cpu.tick_hits, total);
    const B beyond = tick_bin && tick_ns <= cpu.sleep_length_ns;
    idx_timer = D::ite(beyond, lit32(n), idx_timer);
    const B tick_hit = beyond && tick_ns <= measured;
    cpu.tick_hits = D::ite(tick_hit, cpu.tick_hits + pulse, cpu.tick_hits);
    done = tick_hit;
  }
  if constexpr (has_v619_metrics(era)) {
    cpu.total = total + pulse;
    cpu.tick_intercepts = decay<D>(cpu.tick_intercepts, era);
    cpu.total_tick = decay<D>(cpu.total_tick, era);
    cpu.total_tick = D::ite(cpu.tick_wakeup, cpu.total_tick + pulse, cpu.total_tick);
    // Tick wakeups dominate: a hit on the deepest state.
    const B dominated = cpu.tick_wakeup && cpu.total_tick * lit32(3) > cpu.total * lit32(2);
    cpu.bins[n - 1].hits = D::ite(dominated, cpu.bins[n - 1].hits + pulse, cpu.bins[n - 1].hits);
    done = dominated;
  }
  B same_bin = idx_timer == idx_duration;
  if constexpr (has_v70_rules(era)) {
    // f36de72673ad: a hit also needs sleep_length_ns - measured_ns <
    // lat_ns / 2 in s64. Both are in [0, KTIME_MAX], so the difference does
    // not overflow; sleep < measured + lat / 2 is the same test on words
    // (the sum stays below 2^64).
    same_bin = same_bin && cpu.sleep_length_ns < measured + D::udiv(lat, lit64(2));
  }
  B hit = !done && same_bin;
  B intercept = !done && !same_bin;
  if constexpr (has_v70_rules(era)) {
    // 60836533b4c7: a tick wake-up while intercepts within a tick are
    // below 2/3 of the bins' sum (before PULSE) is a hit on the timer's
    // bin: the tick likely stood in for an expected intercept. It ends the
    // update as a hit does, so it credits idx_timer in the hit's step (the
    // kernel's early return gives the same result; one step instead of two
    // keeps teo_metrics_bounded at seconds, spec/teo.md).
    const B tick_hit =
        !done && cpu.tick_wakeup && cpu.tick_intercepts * lit32(3) < total * lit32(2);
    hit = hit || tick_hit;
    intercept = intercept && !tick_hit;
  }
  for (size_t b = 0; b < n; ++b) {
    Bin<D>& bin = cpu.bins[b];
    bin.hits = D::ite(hit && idx_timer == lit32(b), bin.hits + pulse, bin.hits);
    bin.intercepts =
        D::ite(intercept && idx_duration == lit32(b), bin.intercepts + pulse, bin.intercepts);
  }
  if constexpr (has_v619_metrics(era)) {
    cpu.tick_intercepts =
        D::ite(intercept && measured <= tick_ns, cpu.tick_intercepts + pulse, cpu.tick_intercepts);
  } else {
    cpu.total = total + pulse;
  }
}

// --- teo_select() -------------------------------------------------------------

template <class S, class D>
Choice<D> select(std::span<const State<D>> states, CpuData<D>& cpu, const Inputs<D>& in);

// teo_enable_device(): the per-CPU data cleared.
template <class D>
CpuData<D> fresh_cpu() {
  CpuData<D> c;
  c.time_span_ns = D::template lit<64>(0);
  c.sleep_length_ns = D::template lit<64>(0);
  for (Bin<D>& b : c.bins) {
    b.intercepts = D::template lit<32>(0);
    b.hits = D::template lit<32>(0);
    b.recent = D::template lit<32>(0);
  }
  c.total = c.tick_hits = c.total_tick = c.tick_intercepts = c.short_idles = D::template lit<32>(0);
  c.tick_wakeup = D::truth(false);
  c.next_recent_idx = D::template lit<32>(0);
  for (auto& r : c.recent_idx) r = D::template lit<32>(kNoIndex);
  return c;
}

}  // namespace idlespec::teo

#include "impl/teo_select.h"
