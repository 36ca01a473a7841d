#include "properties/governor_exact.h"

#include <algorithm>

namespace idlespec::props::gov_exact {
namespace {

using governor::kIntervals;

constexpr u128 kNsPerUs = 1000;
constexpr u128 kThresholdNs = 15 * kNsPerUs;
constexpr u128 kResolution = 1024;
constexpr u128 kDecay = 8;
constexpr u128 kMaxInterestingNs = 50 * 1000 * kNsPerUs;
constexpr u128 kKtimeMax = (u128{1} << 63) - 1;
constexpr u128 kUintMax = 0xffffffffu;
constexpr u128 kU64Max = ~uint64_t{0};
constexpr u128 k2To64 = u128{1} << 64;

// The acceptance rule both predictors share.
bool accept(u128 avg_sq, u128 variance, u128 divisor) {
  if (variance > kU64Max / 36) return false;
  return (avg_sq > variance * 36 && divisor * 4 >= kIntervals * 3) || variance <= 400;
}

}  // namespace

std::string u128s(u128 v) {
  if (v == 0) return "0";
  std::string s;
  while (v) {
    s.insert(s.begin(), static_cast<char>('0' + static_cast<int>(v % 10)));
    v /= 10;
  }
  return s;
}

unsigned bucket_of(u128 duration_ns) {
  u128 limit = 10 * kNsPerUs;
  for (unsigned b = 0; b + 1 < governor::kBuckets; ++b, limit *= 10) {
    if (duration_ns < limit) return b;
  }
  return governor::kBuckets - 1;
}

Update menu_update(std::span<const governor::State<Concrete>> states,
                   const governor::ConcreteHistory& h, const governor::ConcreteInputs& in) {
  Update u;
  const governor::State<Concrete>& last = states[in.last_state_idx.v];
  const u128 exit = last.exit_latency_ns.v;
  const u128 residency = in.last_residency_ns.v;
  const u128 next_timer = h.next_timer_ns.v;
  if (h.tick_wakeup && next_timer > in.tick_ns.v) {
    u.measured_ns = 9 * kMaxInterestingNs / 10;
  } else if (last.polling && in.poll_time_limit) {
    u.measured_ns = next_timer;
  } else {
    u.measured_ns = residency > 2 * exit ? residency - exit : residency / 2;
  }
  u.measured_ns = std::min(u.measured_ns, next_timer);
  u128 factor = h.correction_factor[h.bucket.v].v;
  factor -= factor / kDecay;
  if (next_timer > 0 && u.measured_ns < kMaxInterestingNs) {
    factor += kResolution * u.measured_ns / next_timer;
  } else {
    factor += kResolution;
  }
  u.factor = factor;
  u.interval_us = u.measured_ns / kNsPerUs;
  return u;
}

Typical typical_two_pass(const std::array<uint32_t, governor::kIntervals>& iv) {
  Typical t;
  u128 thresh = 0x7fffffff;
  // Every pass drops at least one sample; 8 passes cannot be exceeded.
  for (unsigned pass = 0; pass <= kIntervals; ++pass) {
    u128 sum = 0;
    u128 divisor = 0;
    u128 max = 0;
    for (uint32_t v : iv) {
      if (v > thresh) continue;
      sum += v;
      ++divisor;
      max = std::max<u128>(max, v);
    }
    if (max == 0) {
      t.us = kUintMax;
      return t;
    }
    const u128 avg = sum / divisor;
    u128 variance = 0;
    for (uint32_t v : iv) {
      if (v > thresh) continue;
      const u128 diff = v >= avg ? v - avg : avg - v;
      variance += diff * diff;
    }
    const bool beyond = variance >= k2To64;
    variance /= divisor;
    if (accept(avg * avg, variance, divisor)) {
      t.us = avg;
      t.accumulator_beyond_64 = t.accumulator_beyond_64 || beyond;
      return t;
    }
    t.accumulator_beyond_64 = t.accumulator_beyond_64 || beyond;
    if (divisor * 4 <= kIntervals * 3) {
      t.us = kUintMax;
      return t;
    }
    thresh = max - 1;
  }
  t.divides_by_zero = true;  // unreachable: reported rather than hidden
  return t;
}

Typical typical_both_ends(const std::array<uint32_t, governor::kIntervals>& iv) {
  Typical t;
  i128 min_thresh = -1;
  i128 max_thresh = static_cast<i128>(kUintMax);
  for (unsigned pass = 0; pass <= kIntervals; ++pass) {
    u128 sum = 0;
    u128 squares = 0;
    u128 divisor = 0;
    u128 max = 0;
    u128 min = kUintMax;
    for (uint32_t v : iv) {
      const i128 value = v;
      if (value <= min_thresh || value >= max_thresh) continue;
      ++divisor;
      sum += v;
      squares += u128{v} * v;
      max = std::max<u128>(max, v);
      min = std::min<u128>(min, v);
    }
    if (max == 0) {
      t.us = kUintMax;
      return t;
    }
    t.accumulator_beyond_64 = t.accumulator_beyond_64 || squares >= k2To64;
    const u128 avg = sum / divisor;
    const u128 avg_sq = avg * avg;
    // The mean square is at least the squared (floored) average.
    const u128 variance = squares / divisor - avg_sq;
    if (accept(avg_sq, variance, divisor)) {
      t.us = avg;
      return t;
    }
    if (divisor * 4 <= kIntervals * 3) {
      t.us = kUintMax;
      return t;
    }
    if (avg - min > max - avg) {
      min_thresh = static_cast<i128>(min);
    } else {
      max_thresh = static_cast<i128>(max);
    }
  }
  t.divides_by_zero = true;
  return t;
}

Predict predict(governor::Predictor predictor, bool mark_rejected,
                const governor::ConcreteHistory& h, const governor::ConcreteInputs& in) {
  Predict p;
  std::array<uint32_t, kIntervals> ring;
  for (unsigned i = 0; i < kIntervals; ++i) ring[i] = h.intervals[i].v;
  if (mark_rejected) ring[h.interval_ptr.v % kIntervals] = governor::kUintMax;
  p.typical =
      predictor == governor::Predictor::kTwoPass ? typical_two_pass(ring) : typical_both_ends(ring);
  const u128 typical_ns = p.typical.us * kNsPerUs;
  p.consult_timer = typical_ns > kThresholdNs;
  if (!p.consult_timer) {
    p.predicted_ns = typical_ns;
    p.next_timer_ns = kKtimeMax;
    p.bucket = governor::kBuckets - 1;
    p.delta_tick_ns = in.tick_ns.v / 2;
    return p;
  }
  const bool negative = in.sleep_length_ns.v > kKtimeMax;
  const u128 delta = negative ? 0 : in.sleep_length_ns.v;
  p.next_timer_ns = delta;
  p.delta_tick_ns = negative ? 0 : in.delta_tick_ns.v;
  p.bucket = bucket_of(delta);
  const u128 factor = h.correction_factor[p.bucket].v;
  const u128 scale = kResolution * kDecay * kNsPerUs;
  p.timer_us = (scale / 2 + delta * factor) / scale;
  p.predicted_ns = std::min(p.timer_us * kNsPerUs, typical_ns);
  return p;
}

}  // namespace idlespec::props::gov_exact
