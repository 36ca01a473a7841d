// cpuidle governor selection: the menu governor (spec/governor.md).
//
// Given the state table a driver registers (component `states`), the menu
// governor picks an idle state for each idle period: menu_select() predicts
// the idle duration from the time to the next timer, a per-bucket correction
// factor and the recent intervals, then walks the table; menu_update() (run
// at the next selection after menu_reflect()) learns from what happened.
//
// Everything here is written once over a value domain D (impl/domain.h):
// production and the simulator run it on concrete words, the Z3 proofs on
// bit-vectors, so every proof is about the code that runs. Generic code never
// branches on a D::Bool; loops over the table are unrolled with "still
// walking" flags, exactly following the kernel's break/continue/return.
//
// The subjects are types (V614, SeedV2, SeedThreshold, Reference, V619,
// Mainline) whose
// static members select the rules of one kernel; witnesses in
// tests/witnesses/ derive from them and override one member.
//
// Value ranges. The kernel's exit latencies, target residencies, latency
// limit and time-to-timer are s64 nanoseconds; the model keeps them as
// unsigned 64-bit words and the spec's kernel range keeps them below 2^63,
// where signed and unsigned comparisons agree. The one signed input is the
// sleep length, which the kernel clamps at 0 when negative; the model reads
// a word >= 2^63 as negative.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "impl/domain.h"

namespace idlespec::governor {

inline constexpr uint64_t kNsecPerUsec = 1000;
inline constexpr uint64_t kNsecPerSec = 1000000000;
inline constexpr uint64_t kResidencyThresholdNs = 15 * kNsecPerUsec;  // gov.h
inline constexpr uint64_t kSafeTimerRangeTicks = 2;  // gov.h: SAFE_TIMER_RANGE_NS = 2 x TICK_NSEC
inline constexpr unsigned kBuckets = 6;
inline constexpr unsigned kIntervalShift = 3;
inline constexpr unsigned kIntervals = 1u << kIntervalShift;
inline constexpr uint64_t kResolution = 1024;
inline constexpr uint64_t kDecay = 8;
inline constexpr uint64_t kMaxInterestingNs = 50000 * kNsecPerUsec;
inline constexpr uint64_t kKtimeMax = 0x7fffffffffffffffULL;
inline constexpr uint32_t kUintMax = 0xffffffffu;
inline constexpr uint32_t kIntMax = 0x7fffffffu;
inline constexpr unsigned kMaxStates = 10;  // CPUIDLE_STATE_MAX
// The correction factor a fresh device starts with (menu_enable_device):
// RESOLUTION * DECAY, "1.0" in the fixed point the predictor uses.
inline constexpr uint32_t kUnityFactor = kResolution * kDecay;

// TICK_NSEC for a given HZ: (NSEC_PER_SEC + HZ/2) / HZ.
constexpr uint64_t tick_nsec(unsigned hz) { return (kNsecPerSec + hz / 2) / hz; }

// Which code path decided the returned index (Choice::path). GOV-3 names its
// exceptions by these.
enum Path : uint8_t {
  kTrivial = 0,               // the early return of state 0 before the walk
  kNoneEnabled = 1,           // no enabled state: 0
  kFirstEnabled = 2,          // the walk kept the first enabled state (the fall-back)
  kResidencyFits = 3,         // the deepest state whose target residency fits the prediction
  kPollingRule = 4,           // the polling rule promoted the next state
  kTickStoppedPromotion = 5,  // tick stopped: the next state fits the time to the tick/timer
  kTickRetained = 6,          // tick kept: moved to a shallower state fitting delta_tick
};
inline constexpr unsigned kPathCount = 7;
std::string_view path_name(uint8_t p);

enum class PollingRule : uint8_t {
  kNone,            // seed-v2: removed
  kAnyResidency,    // v6.14 and reference: any state may replace the polling one
  kBelowThreshold,  // seed-threshold, v6.19: only if its target residency < 15 us
};
enum class Predictor : uint8_t {
  kTwoPass,   // get_typical_interval() up to v6.14: outliers above only, two loops
  kBothEnds,  // since v6.15: one loop, outliers on both ends (8de7606f0fe2 et al.)
};

template <class D>
struct State {
  typename D::template U<64> exit_latency_ns;
  typename D::template U<64> target_residency_ns;
  typename D::Bool polling;     // CPUIDLE_FLAG_POLLING
  typename D::Bool timer_stop;  // CPUIDLE_FLAG_TIMER_STOP (the governor does not consult it)
  typename D::Bool disabled;    // dev->states_usage[i].disable
};

// struct menu_device: the per-CPU history.
template <class D>
struct History {
  typename D::Bool needs_update;
  typename D::Bool tick_wakeup;
  typename D::template U<64> next_timer_ns;
  typename D::template U<32> bucket;
  std::array<typename D::template U<32>, kBuckets> correction_factor;
  std::array<typename D::template U<32>, kIntervals> intervals;
  typename D::template U<32> interval_ptr;
};

// What one call of menu_select() sees besides the history: the QoS limit,
// the tick layer's answers and, for the update, what the cpuidle core
// recorded about the previous idle period.
template <class D>
struct Inputs {
  typename D::template U<64> latency_req_ns;   // cpuidle_governor_latency_req()
  typename D::template U<64> sleep_length_ns;  // tick_nohz_get_sleep_length() (s64 bits)
  typename D::template U<64> delta_tick_ns;    // ... and its *delta_next output
  typename D::Bool tick_stopped;               // tick_nohz_tick_stopped()
  typename D::template U<64> tick_ns;          // TICK_NSEC
  // The previous idle period (dev->last_state_idx, dev->last_residency_ns,
  // dev->poll_time_limit).
  typename D::template U<32> last_state_idx;
  typename D::template U<64> last_residency_ns;
  typename D::Bool poll_time_limit;
};

// The predictor's result, as the state walk starts.
template <class D>
struct Prediction {
  typename D::template U<64> predicted_ns;    // after the tick-stopped adjustment
  typename D::template U<64> latency_req_ns;  // the limit the walk uses (v6.14 lowers it)
  typename D::template U<64> next_timer_ns;
  typename D::template U<64> delta_tick_ns;
};

template <class D>
struct Choice {
  typename D::template U<32> idx;
  typename D::Bool stop_tick;  // the caller's default is true
  typename D::template U<8> path;
  typename D::template U<64> predicted_ns;  // the prediction as the walk started (GOV-3)
};

// --- the subjects -----------------------------------------------------------

// v6.14: the kernel seed 004 measured, after commit 38f83090f515 ("cpuidle:
// menu: Remove iowait influence"). With the tick running the latency limit is
// lowered to the prediction; the latency check follows the residency block;
// the polling rule checks the exit latency against the (lowered) limit.
struct V614 {
  static constexpr std::string_view name = "v6.14";
  static constexpr bool lowers_limit_to_prediction = true;
  static constexpr bool limit_check_first = false;
  static constexpr PollingRule polling_rule = PollingRule::kAnyResidency;
  static constexpr bool polling_rule_exit_within_prediction = false;
  static constexpr Predictor predictor = Predictor::kTwoPass;
  static constexpr bool rejected_period_invalidates = false;
  // 80606f4eb8d7: with the tick stopped the timer is consulted whatever the
  // typical interval (before it, a typical interval <= 15 us skipped it and
  // left next_timer_ns at KTIME_MAX, which the tick-stopped adjustment then
  // took as the prediction).
  static constexpr bool consults_timer_when_stopped = false;
  // e57c2bf2e89d: the tick-stopped adjustment only when the next timer is
  // beyond SAFE_TIMER_RANGE_NS (2 x TICK_NSEC).
  static constexpr bool safe_timer_range = false;
  // Hooks that only witnesses change.
  static constexpr bool honours_disabled = true;
  static constexpr unsigned timer_product_bits = 64;
  // The repair spec/governor.md proposes for GOV-8: a polling timeout that
  // finds no timer consulted (next_timer_ns = KTIME_MAX) stores UINT_MAX,
  // the mark the predictor skips, instead of ktime_to_us(KTIME_MAX).
  static constexpr bool marks_unknown_poll_timeout = false;
};

// Seed 004's v2 patch on v6.14: the polling rule removed.
struct SeedV2 : V614 {
  static constexpr std::string_view name = "seed-v2";
  static constexpr PollingRule polling_rule = PollingRule::kNone;
};

// The seed reviewer's idea on v6.14: the rule only for a state whose target
// residency is below RESIDENCY_THRESHOLD_NS.
struct SeedThreshold : V614 {
  static constexpr std::string_view name = "seed-threshold";
  static constexpr PollingRule polling_rule = PollingRule::kBelowThreshold;
};

// Upstream after 779b1a1cb13a ("cpuidle: governors: menu: Avoid selecting
// states with too much latency": the limit is no longer lowered, its check
// moves ahead of the residency block) and db86f55bf81a ("... Select polling
// state in some more cases": the rule also needs exit latency <= the
// prediction), with the v6.15 predictor (13982929fb08, 60256e458e1c,
// 8de7606f0fe2) and fa3fa55de0d6 (a rejected period records UINT_MAX).
struct Reference : V614 {
  static constexpr std::string_view name = "reference";
  static constexpr bool lowers_limit_to_prediction = false;
  static constexpr bool limit_check_first = true;
  static constexpr bool polling_rule_exit_within_prediction = true;
  static constexpr Predictor predictor = Predictor::kBothEnds;
  static constexpr bool rejected_period_invalidates = true;
};

// Reference plus "cpuidle: menu: Use residency threshold in polling state
// override decisions" (seed 004's author, v4, applied for v6.19): the
// reviewer's threshold on top of today's rule.
struct V619 : Reference {
  static constexpr std::string_view name = "v6.19";
  static constexpr PollingRule polling_rule = PollingRule::kBelowThreshold;
};

// 2026 mainline: v6.19 plus 80606f4eb8d7 ("cpuidle: governors: menu: Always
// check timers with tick stopped", Fixes: 5484e31bbbff) and e57c2bf2e89d
// ("cpuidle: governors: menu: Refine stopped tick handling"). pm-7.0's
// removal of the single-state return changes no answer: the cpuidle core
// then skips the governor, and menu_select() on one state still returns 0.
struct Mainline : V619 {
  static constexpr std::string_view name = "mainline";
  static constexpr bool consults_timer_when_stopped = true;
  static constexpr bool safe_timer_range = true;
};

// --- helpers ----------------------------------------------------------------

template <class D, unsigned W>
typename D::template U<W> umin(typename D::template U<W> a, typename D::template U<W> b) {
  return D::ite(a < b, a, b);
}

// x / d for a divisor known to lie in 1..8 (do_div by the sample count):
// constant divisions only, which the symbolic domain encodes cheaply.
template <class D>
typename D::template U<64> div_by_count(typename D::template U<64> x,
                                        typename D::template U<32> d) {
  auto r = x;  // d == 1
  for (uint32_t k = 2; k <= kIntervals; ++k) {
    r = D::ite(d == D::template lit<32>(k), D::udiv(x, D::template lit<64>(k)), r);
  }
  return r;
}

// states[idx].field for a symbolic idx < n.
template <class D, class Get>
auto pick(typename D::template U<32> idx, size_t n, Get get) {
  auto r = get(size_t{0});
  for (size_t i = 1; i < n; ++i) r = D::ite(idx == D::template lit<32>(i), get(i), r);
  return r;
}

template <class D>
typename D::template U<32> which_bucket(typename D::template U<64> duration_ns) {
  using U32 = typename D::template U<32>;
  U32 b = D::template lit<32>(kBuckets - 1);
  uint64_t limit = 100000ULL * kNsecPerUsec;
  for (int k = static_cast<int>(kBuckets) - 2; k >= 0; --k) {
    b = D::ite(duration_ns < D::template lit<64>(limit), D::template lit<32>(k), b);
    limit /= 10;
  }
  return b;
}

template <class D>
void update_intervals(History<D>& h, typename D::template U<32> interval_us) {
  for (unsigned i = 0; i < kIntervals; ++i) {
    h.intervals[i] = D::ite(h.interval_ptr == D::template lit<32>(i), interval_us, h.intervals[i]);
  }
  const auto next = h.interval_ptr + D::template lit<32>(1);
  h.interval_ptr = D::ite(next >= D::template lit<32>(kIntervals), D::template lit<32>(0), next);
}

// What the GOV-5 proofs observe of one pass of the typical-interval loop:
// whether it runs, which samples it counts and the 64-bit words it forms.
// Recording (a non-null trace) changes nothing the function computes.
template <class D>
struct IntervalPass {
  typename D::Bool runs;     // no earlier pass returned
  typename D::Bool divides;  // ... and this one counted a non-zero sample
  std::array<typename D::Bool, kIntervals> counted;
  typename D::template U<64> sum;  // the counted samples' sum
  // Two-pass: the sum of the squared differences; both-ends: of the squares.
  typename D::template U<64> square_sum;
  typename D::template U<64> avg;          // the average after the division
  typename D::template U<64> mean_square;  // both-ends: square_sum after the division
  typename D::template U<64> avg_sq;       // avg * avg
  typename D::template U<64> variance;     // as compared with U64_MAX / 36
  typename D::Bool small_var;              // variance <= U64_MAX / 36
};
template <class D>
struct IntervalTrace {
  std::array<IntervalPass<D>, 3> pass;
};

// get_typical_interval() up to v6.14. Samples above `thresh` (INT_MAX at
// first) are left out; average, then variance from a second loop over the
// differences; accept the average if the spread is small, else drop the
// largest samples and try again while more than 3/4 of them remain. Three
// passes suffice: each pass drops at least one sample and the loop stops
// once at most 6 remain.
template <class D>
typename D::template U<32> typical_interval_two_pass(
    const std::array<typename D::template U<32>, kIntervals>& iv,
    IntervalTrace<D>* trace = nullptr) {
  using U32 = typename D::template U<32>;
  using U64 = typename D::template U<64>;
  using B = typename D::Bool;
  U32 result = D::template lit<32>(kUintMax);
  B done = D::truth(false);
  U32 thresh = D::template lit<32>(kIntMax);
  for (int pass = 0; pass < 3; ++pass) {
    U64 sum = D::template lit<64>(0);
    U32 divisor = D::template lit<32>(0);
    U32 max = D::template lit<32>(0);
    if (trace) trace->pass[pass].runs = !done;
    for (unsigned i = 0; i < kIntervals; ++i) {
      const B in = iv[i] <= thresh;
      if (trace) trace->pass[pass].counted[i] = in;
      sum = D::ite(in, sum + D::template zext<64>(iv[i]), sum);
      divisor = D::ite(in, divisor + D::template lit<32>(1), divisor);
      max = D::ite(in && iv[i] > max, iv[i], max);
    }
    const B none = max == D::template lit<32>(0);
    result = D::ite(!done && none, D::template lit<32>(kUintMax), result);
    done = done || none;
    const B all = divisor == D::template lit<32>(kIntervals);
    const U32 avg =
        D::template trunc<32>(D::ite(all, sum >> kIntervalShift, div_by_count<D>(sum, divisor)));
    const U64 avg64 = D::template zext<64>(avg);
    U64 variance = D::template lit<64>(0);
    for (unsigned i = 0; i < kIntervals; ++i) {
      const U64 v = D::template zext<64>(iv[i]);
      // (int64_t)value - avg, squared as int64_t: the square of |diff| in
      // two's complement is the same word either way round.
      const U64 diff = D::ite(v >= avg64, v - avg64, avg64 - v);
      variance = D::ite(iv[i] <= thresh, variance + diff * diff, variance);
    }
    if (trace) {
      IntervalPass<D>& t = trace->pass[pass];
      t.divides = !done;
      t.sum = sum;
      t.square_sum = variance;
      t.avg = avg64;
      t.mean_square = D::template lit<64>(0);
      t.avg_sq = avg64 * avg64;
    }
    variance = D::ite(all, variance >> kIntervalShift, div_by_count<D>(variance, divisor));
    const U64 divisor64 = D::template zext<64>(divisor);
    const B small_var = variance <= D::template lit<64>(~0ULL / 36);
    if (trace) {
      trace->pass[pass].variance = variance;
      trace->pass[pass].small_var = small_var;
    }
    const B accept =
        small_var && ((avg64 * avg64 > variance * D::template lit<64>(36) &&
                       divisor64 * D::template lit<64>(4) >= D::template lit<64>(kIntervals * 3)) ||
                      variance <= D::template lit<64>(400));
    result = D::ite(!done && accept, avg, result);
    done = done || accept;
    const B few = divisor64 * D::template lit<64>(4) <= D::template lit<64>(kIntervals * 3);
    result = D::ite(!done && few, D::template lit<32>(kUintMax), result);
    done = done || few;
    thresh = max - D::template lit<32>(1);
  }
  return result;
}

// get_typical_interval() since v6.15: one loop computes the sum and the sum
// of squares; outliers are dropped at whichever end lies farther from the
// average. Samples at UINT_MAX (a rejected period) never count. The same
// three-pass bound holds.
template <class D>
typename D::template U<32> typical_interval_both_ends(
    const std::array<typename D::template U<32>, kIntervals>& iv,
    IntervalTrace<D>* trace = nullptr) {
  using U32 = typename D::template U<32>;
  using U64 = typename D::template U<64>;
  using B = typename D::Bool;
  U32 result = D::template lit<32>(kUintMax);
  B done = D::truth(false);
  // min_thresh starts at -1: no lower cut. has_min says whether one is set.
  B has_min = D::truth(false);
  U32 min_thresh = D::template lit<32>(0);
  U32 max_thresh = D::template lit<32>(kUintMax);
  for (int pass = 0; pass < 3; ++pass) {
    U64 avg = D::template lit<64>(0);
    U64 variance = D::template lit<64>(0);
    U32 divisor = D::template lit<32>(0);
    U32 max = D::template lit<32>(0);
    U32 min = D::template lit<32>(kUintMax);
    if (trace) trace->pass[pass].runs = !done;
    for (unsigned i = 0; i < kIntervals; ++i) {
      const B in = !(has_min && iv[i] <= min_thresh) && iv[i] < max_thresh;
      if (trace) trace->pass[pass].counted[i] = in;
      const U64 v = D::template zext<64>(iv[i]);
      avg = D::ite(in, avg + v, avg);
      variance = D::ite(in, variance + v * v, variance);
      divisor = D::ite(in, divisor + D::template lit<32>(1), divisor);
      max = D::ite(in && iv[i] > max, iv[i], max);
      min = D::ite(in && iv[i] < min, iv[i], min);
    }
    const B none = max == D::template lit<32>(0);
    result = D::ite(!done && none, D::template lit<32>(kUintMax), result);
    done = done || none;
    const B all = divisor == D::template lit<32>(kIntervals);
    if (trace) {
      trace->pass[pass].divides = !done;
      trace->pass[pass].sum = avg;
      trace->pass[pass].square_sum = variance;
    }
    avg = D::ite(all, avg >> kIntervalShift, div_by_count<D>(avg, divisor));
    variance = D::ite(all, variance >> kIntervalShift, div_by_count<D>(variance, divisor));
    const U64 avg_sq = avg * avg;
    if (trace) {
      trace->pass[pass].avg = avg;
      trace->pass[pass].mean_square = variance;
      trace->pass[pass].avg_sq = avg_sq;
    }
    variance = variance - avg_sq;
    const U64 divisor64 = D::template zext<64>(divisor);
    const B small_var = variance <= D::template lit<64>(~0ULL / 36);
    if (trace) {
      trace->pass[pass].variance = variance;
      trace->pass[pass].small_var = small_var;
    }
    const B accept =
        small_var && ((avg_sq > variance * D::template lit<64>(36) &&
                       divisor64 * D::template lit<64>(4) >= D::template lit<64>(kIntervals * 3)) ||
                      variance <= D::template lit<64>(400));
    result = D::ite(!done && accept, D::template trunc<32>(avg), result);
    done = done || accept;
    const B few = divisor64 * D::template lit<64>(4) <= D::template lit<64>(kIntervals * 3);
    result = D::ite(!done && few, D::template lit<32>(kUintMax), result);
    done = done || few;
    const U64 min64 = D::template zext<64>(min);
    const U64 max64 = D::template zext<64>(max);
    const B cut_low = avg - min64 > max64 - avg;
    min_thresh = D::ite(cut_low, min, min_thresh);
    has_min = has_min || cut_low;
    max_thresh = D::ite(cut_low, max_thresh, max);
  }
  return result;
}

template <class S, class D>
typename D::template U<32> typical_interval(const History<D>& h,
                                            IntervalTrace<D>* trace = nullptr) {
  if constexpr (S::predictor == Predictor::kTwoPass) {
    return typical_interval_two_pass<D>(h.intervals, trace);
  } else {
    return typical_interval_both_ends<D>(h.intervals, trace);
  }
}

// What the GOV-5 proofs observe of menu_update(): the words it forms.
// Recording (a non-null trace) changes nothing the function computes.
template <class D>
struct UpdateTrace {
  typename D::template U<64> last_exit_ns;   // the last state's exit latency
  typename D::template U<64> twice_exit_ns;  // 2 * last_exit_ns
  typename D::Bool deducts;                  // residency > 2 * exit: the exit latency is deducted
  typename D::template U<64> measured_ns;    // after the clamp to next_timer_ns
  typename D::Bool learn;                    // next_timer_ns > 0 && measured < MAX_INTERESTING
  typename D::template U<64> scaled;         // RESOLUTION * measured_ns
  typename D::template U<64> ratio;          // scaled / next_timer_ns
  typename D::template U<32> kept;           // the old factor less its decay
  typename D::template U<32> factor;         // the new factor
  typename D::template U<64> interval_us;    // measured_ns in us, before the unsigned int
};

// menu_update(): what the last idle period teaches. Learns a measured
// duration (the tick-wakeup and polling-timeout guesses as the kernel makes
// them), folds it into the bucket's correction factor and the interval ring.
template <class S, class D>
void menu_update(std::span<const State<D>> states, History<D>& h, const Inputs<D>& in,
                 UpdateTrace<D>* trace = nullptr) {
  using U64 = typename D::template U<64>;
  using U32 = typename D::template U<32>;
  const size_t n = states.size();
  const auto& last = in.last_state_idx;
  const U64 last_exit = pick<D>(last, n, [&](size_t i) { return states[i].exit_latency_ns; });
  const auto last_polling = pick<D>(last, n, [&](size_t i) { return states[i].polling; });

  const U64 residency = in.last_residency_ns;
  const U64 deducted = D::ite(residency > last_exit * D::template lit<64>(2), residency - last_exit,
                              D::udiv(residency, D::template lit<64>(2)));
  U64 measured = D::ite(h.tick_wakeup && h.next_timer_ns > in.tick_ns,
                        D::template lit<64>(9 * kMaxInterestingNs / 10),
                        D::ite(last_polling && in.poll_time_limit, h.next_timer_ns, deducted));
  measured = umin<D, 64>(measured, h.next_timer_ns);

  U32 factor = pick<D>(h.bucket, kBuckets, [&](size_t i) { return h.correction_factor[i]; });
  factor = factor - D::udiv(factor, D::template lit<32>(kDecay));
  const auto learn =
      h.next_timer_ns > D::template lit<64>(0) && measured < D::template lit<64>(kMaxInterestingNs);
  // div64_u64(RESOLUTION * measured_ns, next_timer_ns), added to an unsigned int.
  const U64 scaled = D::template lit<64>(kResolution) * measured;
  const U64 ratio = D::udiv(scaled, h.next_timer_ns);
  if (trace) {
    trace->last_exit_ns = last_exit;
    trace->twice_exit_ns = last_exit * D::template lit<64>(2);
    trace->deducts = residency > last_exit * D::template lit<64>(2);
    trace->measured_ns = measured;
    trace->learn = learn;
    trace->scaled = scaled;
    trace->ratio = ratio;
    trace->kept = factor;
  }
  factor = factor + D::ite(learn, D::template trunc<32>(ratio), D::template lit<32>(kResolution));
  for (unsigned b = 0; b < kBuckets; ++b) {
    h.correction_factor[b] =
        D::ite(h.bucket == D::template lit<32>(b), factor, h.correction_factor[b]);
  }
  // ktime_to_us(measured_ns) passed as an unsigned int.
  U64 interval_us = D::udiv(measured, D::template lit<64>(kNsecPerUsec));
  if constexpr (S::marks_unknown_poll_timeout) {
    const auto unknown = !(h.tick_wakeup && h.next_timer_ns > in.tick_ns) && last_polling &&
                         in.poll_time_limit && h.next_timer_ns == D::template lit<64>(kKtimeMax);
    interval_us = D::ite(unknown, D::template lit<64>(kUintMax), interval_us);
  }
  if (trace) {
    trace->factor = factor;
    trace->interval_us = interval_us;
  }
  update_intervals<D>(h, D::template trunc<32>(interval_us));
}

// The time to the next timer scaled by the bucket's correction factor and
// rounded to microseconds (menu_select()'s timer_us), with the words it
// forms on the way (GOV-5).
template <class D>
struct TimerEstimate {
  typename D::template U<64> product;   // delta * factor (as the subject forms it)
  typename D::template U<64> rounded;   // half + product
  typename D::template U<64> quotient;  // rounded / scale, before the unsigned int
  typename D::template U<32> timer_us;
};

template <class S, class D>
TimerEstimate<D> timer_estimate(typename D::template U<64> delta,
                                typename D::template U<32> factor) {
  const auto half = D::template lit<64>(kResolution * kDecay * kNsecPerUsec / 2);
  const auto scale = D::template lit<64>(kResolution * kDecay * kNsecPerUsec);
  TimerEstimate<D> t;
  if constexpr (S::timer_product_bits == 64) {
    t.product = delta * D::template zext<64>(factor);
  } else {
    static_assert(S::timer_product_bits == 32);
    t.product = D::template zext<64>(D::template trunc<32>(delta) * factor);
  }
  t.rounded = half + t.product;
  t.quotient = D::udiv(t.rounded, scale);
  // timer_us is an unsigned int.
  t.timer_us = D::template trunc<32>(t.quotient);
  return t;
}

template <class S, class D>
Prediction<D> predict_from_typical(History<D>& h, const Inputs<D>& in,
                                   typename D::template U<32> typical_us);

// The first half of menu_select(): learn from the last period, predict.
template <class S, class D>
Prediction<D> predict(std::span<const State<D>> states, History<D>& h, const Inputs<D>& in) {
  // menu_update() runs only when a period was reflected; the core always
  // reflects before the next selection, except after a rejected entry.
  if (!D::known_false(h.needs_update)) {
    History<D> updated = h;
    menu_update<S, D>(states, updated, in);
    const auto u = h.needs_update;
    for (unsigned b = 0; b < kBuckets; ++b)
      h.correction_factor[b] = D::ite(u, updated.correction_factor[b], h.correction_factor[b]);
    for (unsigned i = 0; i < kIntervals; ++i)
      h.intervals[i] = D::ite(u, updated.intervals[i], h.intervals[i]);
    h.interval_ptr = D::ite(u, updated.interval_ptr, h.interval_ptr);
  }
  if constexpr (S::rejected_period_invalidates) {
    const auto rejected = !h.needs_update && in.last_residency_ns == D::template lit<64>(0);
    if (!D::known_false(rejected)) {
      History<D> marked = h;
      update_intervals<D>(marked, D::template lit<32>(kUintMax));
      for (unsigned i = 0; i < kIntervals; ++i)
        h.intervals[i] = D::ite(rejected, marked.intervals[i], h.intervals[i]);
      h.interval_ptr = D::ite(rejected, marked.interval_ptr, h.interval_ptr);
    }
  }
  h.needs_update = D::truth(false);
  return predict_from_typical<S, D>(h, in, typical_interval<S, D>(h));
}

// The rest of the prediction, from the typical interval (us, UINT_MAX:
// none): whether to consult the timer, the timer estimate, the bucket and
// next_timer_ns it records, the tick-stopped handling's inputs. predict()
// calls it; the GOV-9 proof calls it with a symbolic typical interval.
template <class S, class D>
Prediction<D> predict_from_typical(History<D>& h, const Inputs<D>& in,
                                   typename D::template U<32> typical_us) {
  using U64 = typename D::template U<64>;
  using U32 = typename D::template U<32>;
  U64 predicted = D::template zext<64>(typical_us) * D::template lit<64>(kNsecPerUsec);
  typename D::Bool consult_timer = predicted > D::template lit<64>(kResidencyThresholdNs);
  if constexpr (S::consults_timer_when_stopped) consult_timer = consult_timer || in.tick_stopped;

  const auto negative = in.sleep_length_ns > D::template lit<64>(kKtimeMax);
  const U64 delta = D::ite(negative, D::template lit<64>(0), in.sleep_length_ns);
  const U64 delta_tick_t = D::ite(negative, D::template lit<64>(0), in.delta_tick_ns);
  const U32 bucket_t = which_bucket<D>(delta);
  const U32 factor = pick<D>(bucket_t, kBuckets, [&](size_t i) { return h.correction_factor[i]; });
  const U32 timer_us = timer_estimate<S, D>(delta, factor).timer_us;
  const U64 timer_pred =
      umin<D, 64>(D::template zext<64>(timer_us) * D::template lit<64>(kNsecPerUsec), predicted);

  h.next_timer_ns = D::ite(consult_timer, delta, D::template lit<64>(kKtimeMax));
  h.bucket = D::ite(consult_timer, bucket_t, D::template lit<32>(kBuckets - 1));
  predicted = D::ite(consult_timer, timer_pred, predicted);

  Prediction<D> p;
  p.predicted_ns = predicted;
  p.next_timer_ns = h.next_timer_ns;
  p.delta_tick_ns =
      D::ite(consult_timer, delta_tick_t, D::udiv(in.tick_ns, D::template lit<64>(2)));
  p.latency_req_ns = in.latency_req_ns;
  return p;
}

// The second half of menu_select(): the trivial cases, the tick-stopped
// adjustment, the walk over the table, the tick decision. Takes the
// prediction as an input, so that the proofs can make it symbolic.
template <class S, class D>
Choice<D> walk(std::span<const State<D>> states, const Prediction<D>& p, const Inputs<D>& in) {
  using U64 = typename D::template U<64>;
  using U32 = typename D::template U<32>;
  using U8 = typename D::template U<8>;
  using B = typename D::Bool;
  const size_t n = states.size();
  auto lit64 = [](uint64_t v) { return D::template lit<64>(v); };
  auto lit32 = [](uint64_t v) { return D::template lit<32>(v); };
  auto path = [](Path v) { return D::template lit<8>(v); };
  // "target residency <= delta_tick", compared as the kernel compares them:
  // both are s64 there, so a negative delta_tick (the clock event overdue at
  // idle entry, while the sleep length is not negative) is above no target
  // residency. Residencies are below 2^63 (the kernel's range is 2^40).
  const B tick_negative = p.delta_tick_ns > lit64(kKtimeMax);
  auto within_tick = [&](const U64& residency) -> B {
    return !tick_negative && residency <= p.delta_tick_ns;
  };
  auto disabled = [&](size_t i) -> B {
    if constexpr (S::honours_disabled) {
      return states[i].disabled;
    } else {
      return D::truth(false);
    }
  };

  Choice<D> c;
  c.stop_tick = D::truth(true);
  c.predicted_ns = p.predicted_ns;

  // State 0 at once: a single state, no latency allowed, or state 1 cannot
  // pay off (timer too close, limit too tight) while state 0 is usable.
  B trivial = D::truth(n <= 1) || p.latency_req_ns == lit64(0);
  if (n >= 2) {
    trivial = trivial || ((p.next_timer_ns < states[1].target_residency_ns ||
                           p.latency_req_ns < states[1].exit_latency_ns) &&
                          !disabled(0));
  }

  U64 predicted = p.predicted_ns;
  U64 latency_req = p.latency_req_ns;
  B short_pred = predicted < in.tick_ns;
  if constexpr (S::safe_timer_range) {
    short_pred = short_pred && p.next_timer_ns > in.tick_ns * lit64(kSafeTimerRangeTicks);
  }
  predicted = D::ite(in.tick_stopped && short_pred, p.next_timer_ns, predicted);
  if constexpr (S::lowers_limit_to_prediction) {
    latency_req = D::ite(!in.tick_stopped && latency_req > predicted, predicted, latency_req);
  }
  c.predicted_ns = predicted;

  B walking = D::truth(true);
  B returned = D::truth(false);  // the tick-stopped return inside the loop
  B have_idx = D::truth(false);
  U32 idx = lit32(0);
  U8 why = path(kNoneEnabled);
  auto tr_of = [&](const U32& k, size_t upto) {
    return pick<D>(k, upto, [&](size_t j) { return states[j].target_residency_ns; });
  };
  auto polling_of = [&](const U32& k, size_t upto) {
    return pick<D>(k, upto, [&](size_t j) { return states[j].polling; });
  };
  auto set = [&](const B& when, size_t i, Path reason) {
    idx = D::ite(when, lit32(i), idx);
    why = D::ite(when, path(reason), why);
  };

  for (size_t i = 0; i < n; ++i) {
    const State<D>& s = states[i];
    const B live = walking && !disabled(i);
    set(live && !have_idx, i, kFirstEnabled);
    have_idx = have_idx || live;

    B over;  // enters the "target residency > prediction" block
    if constexpr (S::limit_check_first) {
      const B too_slow = live && s.exit_latency_ns > latency_req;
      walking = walking && !too_slow;
      const B l2 = live && !too_slow;
      const B fits = l2 && s.target_residency_ns <= predicted;
      set(fits, i, kResidencyFits);
      over = l2 && !fits;
    } else {
      over = live && s.target_residency_ns > predicted;
    }

    // The polling rule: the state kept so far polls and this one does not
    // fit the prediction; take it anyway if the subject's conditions hold.
    B rule = D::truth(false);
    if constexpr (S::polling_rule != PollingRule::kNone) {
      rule = over && polling_of(idx, i + 1) && s.target_residency_ns <= p.next_timer_ns;
      if constexpr (S::polling_rule == PollingRule::kBelowThreshold) {
        rule = rule && s.target_residency_ns < lit64(kResidencyThresholdNs);
      }
      if constexpr (!S::limit_check_first) {
        rule = rule && s.exit_latency_ns <= latency_req;
      }
      if constexpr (S::polling_rule_exit_within_prediction) {
        rule = rule && s.exit_latency_ns <= predicted;
      }
    }
    predicted = D::ite(rule, s.target_residency_ns, predicted);
    set(rule, i, kPollingRule);
    const B o2 = over && !rule;
    const B short_break = o2 && predicted < in.tick_ns;
    const B o3 = o2 && !short_break;
    const B keep_tick = o3 && !in.tick_stopped;
    predicted = D::ite(keep_tick, tr_of(idx, i + 1), predicted);
    const B stopped = o3 && in.tick_stopped;
    const B promote =
        stopped && tr_of(idx, i + 1) < in.tick_ns && within_tick(s.target_residency_ns);
    set(promote, i, kTickStoppedPromotion);
    returned = returned || stopped;
    walking = walking && !over;

    if constexpr (!S::limit_check_first) {
      const B under = live && !over;
      const B too_slow = under && s.exit_latency_ns > latency_req;
      walking = walking && !too_slow;
      set(under && !too_slow, i, kResidencyFits);
    }
  }
  // The final tick decision (skipped by the tick-stopped return).
  const B final_block =
      !returned && (polling_of(idx, n) || predicted < in.tick_ns) && !in.tick_stopped;
  c.stop_tick = D::ite(final_block, D::truth(false), c.stop_tick);
  const B correct = final_block && idx > lit32(0) && !within_tick(tr_of(idx, n));
  B scanning = correct;
  const U32 idx0 = idx;
  for (size_t j = n; j-- > 0;) {
    const B live = scanning && lit32(j) < idx0 && !disabled(j);
    set(live, j, kTickRetained);
    scanning = scanning && !(live && within_tick(states[j].target_residency_ns));
  }

  c.idx = D::ite(trivial, lit32(0), idx);
  c.path = D::ite(trivial, path(kTrivial), why);
  B stop = c.stop_tick;
  c.stop_tick = D::ite(trivial, !states[0].polling, stop);
  return c;
}

// menu_select(): update, predict, walk.
template <class S, class D>
Choice<D> select(std::span<const State<D>> states, History<D>& h, const Inputs<D>& in) {
  const Prediction<D> p = predict<S, D>(states, h, in);
  return walk<S, D>(states, p, in);
}

// menu_reflect(): record that an update is due and whether the tick woke us.
template <class D>
void reflect(History<D>& h, typename D::Bool got_tick) {
  h.needs_update = D::truth(true);
  h.tick_wakeup = got_tick;
}

// menu_enable_device(): a fresh history.
template <class D>
History<D> fresh_history() {
  History<D> h;
  h.needs_update = D::truth(false);
  h.tick_wakeup = D::truth(false);
  h.next_timer_ns = D::template lit<64>(0);
  h.bucket = D::template lit<32>(0);
  for (auto& f : h.correction_factor) f = D::template lit<32>(kUnityFactor);
  for (auto& v : h.intervals) v = D::template lit<32>(0);
  h.interval_ptr = D::template lit<32>(0);
  return h;
}

// --- concrete use -------------------------------------------------------------

// One row of a state table as people write it (names and µs or ns).
struct TableEntry {
  std::string name;
  uint64_t exit_latency_ns = 0;
  uint64_t target_residency_ns = 0;
  bool polling = false;
  bool timer_stop = false;
  bool disabled = false;
};

std::vector<State<Concrete>> to_states(std::span<const TableEntry> table);

// The pseries POWER10 shared-processor table of seed 004: snooze (polling)
// 0/0 and CEDE with exit latency 12 us and target residency 120 us.
std::vector<TableEntry> pseries_p10_table();

using ConcreteChoice = Choice<Concrete>;
using ConcreteHistory = History<Concrete>;
using ConcreteInputs = Inputs<Concrete>;
using SelectFn = ConcreteChoice (*)(std::span<const State<Concrete>>, ConcreteHistory&,
                                    const ConcreteInputs&);
using WalkFn = ConcreteChoice (*)(std::span<const State<Concrete>>, const Prediction<Concrete>&,
                                  const ConcreteInputs&);

// A subject, type-erased for the command line, the simulator and the fuzz
// target.
struct SubjectOps {
  std::string_view name;
  std::string_view summary;  // one line: what it is, pinned to commits
  SelectFn select;
  WalkFn walk;
};

template <class S>
SubjectOps ops_of(std::string_view summary) {
  return SubjectOps{S::name, summary, &select<S, Concrete>, &walk<S, Concrete>};
}

// v6.14, seed-v2, seed-threshold, reference, v6.19.
std::span<const SubjectOps> subjects();
const SubjectOps* find_subject(std::string_view name);

// A readable one-line rendering of a choice ("idx 1 (CEDE) path polling-rule, tick kept").
std::string describe(const ConcreteChoice& c, std::span<const TableEntry> table);

}  // namespace idlespec::governor
