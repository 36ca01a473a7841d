#include "oracle/governor.h"

#include <algorithm>

#include "impl/text.h"

namespace idlespec::governor::oracle {
namespace {

using idlespec::oracle::dec;

std::string u64s(uint64_t v) { return std::to_string(v); }

constexpr u128 k2To64 = u128{1} << 64;

// The acceptance rule both predictors share.
bool accept(u128 avg_sq, u128 variance, u128 divisor) {
  if (variance > ~uint64_t{0} / 36) return false;
  return (avg_sq > variance * 36 && divisor * 4 >= kIntervals * 3) || variance <= 400;
}

void push_interval(ExactHistory& e, u128 v) {
  e.intervals[e.ptr] = v;
  e.ptr = (e.ptr + 1) % kIntervals;
}

Ring widen_ring(const std::array<uint32_t, kIntervals>& iv) {
  Ring r{};
  for (size_t i = 0; i < kIntervals; ++i) r[i] = iv[i];
  return r;
}

}  // namespace

bool table_is_ordered(std::span<const State<Concrete>> states) {
  for (size_t i = 0; i < states.size(); ++i) {
    if (states[i].target_residency_ns.v < states[i].exit_latency_ns.v) return false;
    if (i == 0) continue;
    if (states[i].exit_latency_ns.v < states[i - 1].exit_latency_ns.v) return false;
    if (states[i].target_residency_ns.v < states[i - 1].target_residency_ns.v) return false;
  }
  return true;
}

size_t first_enabled(std::span<const State<Concrete>> states) {
  for (size_t i = 0; i < states.size(); ++i) {
    if (!states[i].disabled) return i;
  }
  return states.size();
}

Violations judge_selection(std::span<const State<Concrete>> states, const ConcreteInputs& in,
                           const ConcreteChoice& c) {
  Violations out;
  auto fail = [&](const char* clause, std::string why) { out.push_back({clause, std::move(why)}); };
  const size_t n = states.size();
  const uint64_t idx = c.idx.v;
  const size_t first = first_enabled(states);
  const bool ordered = table_is_ordered(states);

  if (idx >= (n == 0 ? 1 : n)) {
    fail("GOV-7", "index " + u64s(idx) + " outside a table of " + u64s(n) + " states");
    return out;
  }
  // GOV-1: enabled, except no state enabled, latency limit 0 or a single
  // state (state 0 whatever its flag).
  const bool gov1_exception = first == n || in.latency_req_ns.v == 0 || n <= 1;
  if (n > 0 && states[idx].disabled && !(gov1_exception && idx == 0)) {
    fail("GOV-1", "state " + u64s(idx) + " is disabled (first enabled is " + u64s(first) + ")");
  }
  if (n == 0) return out;
  const bool fallback = idx == first || (gov1_exception && idx == 0);
  // GOV-2 and GOV-3 are promised for tables that keep STATES-1..3 only
  // (GOV-7).
  // GOV-2: exit latency within the PM QoS limit unless the fall-back.
  if (ordered && !fallback && states[idx].exit_latency_ns.v > in.latency_req_ns.v) {
    fail("GOV-2", "state " + u64s(idx) + " exit latency " + u64s(states[idx].exit_latency_ns.v) +
                      " ns > limit " + u64s(in.latency_req_ns.v) + " ns (path " +
                      std::string(path_name(c.path.v)) + ")");
  }
  // GOV-3: target residency within the prediction, except the named paths.
  const bool gov3_exempt =
      fallback || c.path.v == kPollingRule || c.path.v == kTickStoppedPromotion;
  if (ordered && !gov3_exempt && states[idx].target_residency_ns.v > c.predicted_ns.v) {
    fail("GOV-3", "state " + u64s(idx) + " target residency " +
                      u64s(states[idx].target_residency_ns.v) + " ns > prediction " +
                      u64s(c.predicted_ns.v) + " ns (path " + std::string(path_name(c.path.v)) +
                      ")");
  }
  // GOV-9: with the tick stopped, a target residency within the time to the
  // next timer (a negative sleep length counts as 0), give or take the
  // half microsecond timer_us rounds to; for tick inputs in their order
  // (delta_next <= the sleep length) and ordered tables.
  if (ordered && !fallback && in.tick_stopped) {
    const uint64_t t = in.sleep_length_ns.v > kKtimeMax ? 0 : in.sleep_length_ns.v;
    const uint64_t dt = in.delta_tick_ns.v > kKtimeMax ? 0 : in.delta_tick_ns.v;
    const uint64_t tr = states[idx].target_residency_ns.v;
    if (dt <= t && u128{tr} > u128{t} + kTimerRoundingNs) {
      fail("GOV-9", "tick stopped: state " + u64s(idx) + " target residency " + u64s(tr) +
                        " ns > the time to the next timer " + u64s(t) + " ns (path " +
                        std::string(path_name(c.path.v)) + ", prediction " +
                        u64s(c.predicted_ns.v) + " ns)");
    }
  }
  // GOV-4: never stop the tick for a polling state, unless already stopped.
  if (states[idx].polling && c.stop_tick && !in.tick_stopped) {
    fail("GOV-4", "polling state " + u64s(idx) + " chosen with stop_tick while the tick runs");
  }
  return out;
}

bool judged_on_choice(std::string_view clause) {
  for (const SelectionClause& c : kSelectionClauses)
    if (clause == c.id) return !c.reads_prediction;
  return false;
}

ExactHistory widen(const ConcreteHistory& h) {
  ExactHistory e;
  e.needs_update = h.needs_update;
  e.tick_wakeup = h.tick_wakeup;
  e.next_timer_ns = h.next_timer_ns.v;
  e.bucket = h.bucket.v;
  for (size_t i = 0; i < e.factor.size(); ++i) e.factor[i] = h.correction_factor[i].v;
  for (size_t i = 0; i < e.intervals.size(); ++i) e.intervals[i] = h.intervals[i].v;
  e.ptr = h.interval_ptr.v;
  return e;
}

unsigned bucket_of(u128 duration_ns) {
  u128 limit = 10 * kNsecPerUsec;
  for (unsigned b = 0; b + 1 < kBuckets; ++b, limit *= 10) {
    if (duration_ns < limit) return b;
  }
  return kBuckets - 1;
}

UpdateSteps update_steps(const UpdateIn& in, Widths& w) {
  UpdateSteps x;
  const u128 max_interesting = kMaxInterestingNs / in.unit;
  const u128 twice = w.fits(in.exit_latency * 2, 64, "2 x exit latency of the last state");
  x.deducted = in.residency > twice ? in.residency - in.exit_latency : in.residency / 2;
  x.tick_guess = in.tick_wakeup && in.next_timer > in.tick;
  x.poll_timeout = !x.tick_guess && in.polling && in.poll_time_limit;
  if (x.tick_guess) {
    x.measured = 9 * max_interesting / 10;
  } else if (x.poll_timeout) {
    x.measured = in.next_timer;
  } else {
    x.measured = x.deducted;
  }
  x.measured = std::min(x.measured, in.next_timer);
  x.kept = in.factor - in.factor / kDecay;
  x.learns = in.next_timer > 0 && x.measured < max_interesting;
  if (x.learns) {
    const u128 scaled = w.fits(kResolution * x.measured, 64, "RESOLUTION x measured_ns");
    x.ratio = w.fits(scaled / in.next_timer, 32, "the correction added (an unsigned int)");
  } else {
    x.ratio = kResolution;
  }
  x.factor = w.fits(x.kept + x.ratio, 32, "the correction factor (an unsigned int)");
  x.interval_us = w.fits(x.measured * in.unit / kNsecPerUsec, 32, kStoredInterval);
  return x;
}

Update menu_update(std::span<const State<Concrete>> states, ExactHistory& e,
                   const ConcreteInputs& in, Widths& w) {
  const State<Concrete>& last = states[in.last_state_idx.v];
  UpdateIn ui;
  ui.exit_latency = last.exit_latency_ns.v;
  ui.residency = in.last_residency_ns.v;
  ui.next_timer = e.next_timer_ns;
  ui.tick = in.tick_ns.v;
  ui.tick_wakeup = e.tick_wakeup;
  ui.polling = last.polling;
  ui.poll_time_limit = in.poll_time_limit;
  ui.factor = e.factor[e.bucket];
  const UpdateSteps x = update_steps(ui, w);
  Update u;
  u.measured_ns = x.measured;
  u.factor = x.factor;
  e.factor[e.bucket] = u.factor;
  u.interval_us = x.interval_us;
  push_interval(e, u.interval_us);
  return u;
}

UpdateJudgement judge_update(const UpdateIn& in, const UpdateSeen& seen) {
  UpdateJudgement j;
  Widths w;
  j.exact = update_steps(in, w);
  const UpdateSteps& x = j.exact;
  const u128 unit = in.unit;
  const char* u = unit == 1 ? " ns" : " us";
  auto t = [&](u128 v) { return dec(v) + u; };
  const u128 max_interesting = kMaxInterestingNs / unit;
  // The most any branch's duration is when nothing wraps: a deduction from
  // the residency, or half of it, never exceeds the residency; the tick's
  // guess when the tick woke the period, the time to the timer after a poll
  // time-out; then at most the time to the timer. (Any guard of the
  // deduction, and either guess or none, keeps within this.)
  u128 most = in.residency;
  if (in.tick_wakeup) most = std::max(most, 9 * max_interesting / 10);
  if (in.polling && in.poll_time_limit) most = std::max(most, in.next_timer);
  const u128 bound = std::min(most, in.next_timer);
  const u128 got_f = seen.factor;
  // The least duration the stored interval shows (it holds the duration in
  // us, rounded down), in the file's unit.
  const u128 stored_least = u128{seen.stored} * kNsecPerUsec / unit;

  if (got_f != x.factor) {
    // The least duration the file's factor shows: the ratio it added is
    // RESOLUTION x measured / next timer (rounded down), or RESOLUTION when
    // the duration reached the timer or MAX_INTERESTING.
    const bool ratio_ok = got_f >= x.kept && got_f - x.kept <= kResolution && in.next_timer > 0;
    const u128 r = ratio_ok ? got_f - x.kept : 0;
    const u128 shown = !ratio_ok          ? 0
                       : r == kResolution ? std::min(in.next_timer, max_interesting)
                                          : (r * in.next_timer + kResolution - 1) / kResolution;
    const bool out_of_unity = got_f < 1 || got_f > kUnityFactor;
    const u128 ratio32 = in.next_timer > 0
                             ? u128{static_cast<uint32_t>(kResolution * x.measured)} / in.next_timer
                             : 0;
    const std::string text = "menu_update() left the correction factor at " + dec(got_f) +
                             ", exact arithmetic gives " + dec(x.factor);
    if (stored_least > bound && (ratio_ok ? shown > bound : out_of_unity)) {
      std::string why =
          "the exit latency deduction wrapped: the file learned at least " +
          t(ratio_ok ? std::min(shown, stored_least) : stored_least) + " (its stored interval " +
          dec(seen.stored) + " us" + (ratio_ok ? ", and its factor" : "") +
          " shows it), more than the " +
          (bound == in.next_timer && bound < most ? "time to the next timer " : "residency ") +
          t(bound) + " that any deduction " + (bound == in.residency ? "from it" : "or guess") +
          " gives; the residency " + t(in.residency) + " less the exit latency " +
          t(in.exit_latency);
      why += in.residency < in.exit_latency ? " is negative"
                                            : " is " + t(in.residency - in.exit_latency);
      why += " (exact arithmetic: " +
             std::string(x.tick_guess     ? "the tick's guess"
                         : x.poll_timeout ? "the time to the timer"
                         : in.residency > 2 * in.exit_latency
                             ? "the residency less the exit latency"
                             : "half the residency, as it is at most twice the exit latency") +
             ", " + t(x.measured) + " learned, factor " + dec(x.factor) + ")";
      j.gov5 = why;
    } else if (x.learns && got_f == x.kept + ratio32) {
      j.gov5 = text +
               ": the ratio formed in 32 bits (the division by the time to the next "
               "timer of RESOLUTION x " +
               t(x.measured) + " wrapped)";
    } else if (out_of_unity) {
      j.gov5 = text +
               ": outside 1..8192, which exact arithmetic never leaves (the factor update "
               "wrapped)";
    } else {
      j.differs = text;
    }
  }

  // GOV-8 in the era before v3.16: the slot holds the measured residency in
  // us, whatever the factor learned (a rule of its own, `differs` above).
  const uint32_t got = seen.stored;
  if (in.ring_holds_residency) {
    const u128 residency_us = w.fits(in.residency * unit / kNsecPerUsec, 32, kStoredInterval);
    if (u128{got} != residency_us)
      j.gov8 = "menu_update() stored " + dec(u128{got}) + " us for a measured residency of " +
               dec(residency_us) + " us (the ring of that era holds the residency)";
    j.gov8_follows = !j.gov8.empty() && !j.gov5.empty();
    return j;
  }
  // GOV-8: the slot menu_update() wrote holds the learned duration in us.
  const u128 stored = x.interval_us;
  const std::string text8 =
      "menu_update() stored " + dec(u128{got}) + " us for a learned " + dec(stored) + " us";
  if (stored > kUintMax) {
    j.gov8_accepted =
        x.poll_timeout && in.next_timer * unit == kKtimeMax && got == static_cast<uint32_t>(stored);
    if (!j.gov8_accepted) j.gov8 = text8;
  } else if (got != stored) {
    // The durations the file's own factor shows it learned (every kernel
    // clamps the duration at the time to the timer): a stored interval
    // within them is another learning rule's, stored faithfully (the
    // differential's); one outside is GOV-8.
    const bool ratio_ok = got_f >= x.kept && got_f - x.kept <= kResolution && in.next_timer > 0;
    u128 lo = 0, hi = 0;
    if (ratio_ok) {
      const u128 r = got_f - x.kept;
      // RESOLUTION: the duration reached the timer (a duration below
      // MAX_INTERESTING, clamped there), or MAX_INTERESTING where a period
      // that long could be learned.
      lo = r != kResolution          ? r * in.next_timer / kResolution
           : most >= max_interesting ? std::min(in.next_timer, max_interesting)
                                     : in.next_timer;
      hi = r == kResolution ? in.next_timer
                            : ((r + 1) * in.next_timer + kResolution - 1) / kResolution;
    }
    const u128 g = u128{got} * kNsecPerUsec;  // ns
    const u128 slack = kNsecPerUsec * unit;
    const bool consistent = ratio_ok && g + slack >= lo * unit && g <= hi * unit + slack;
    // The measured residency, told apart from any deduction of the exit
    // latency from it (or half of it) only where they differ in us.
    const u128 residency_us = in.residency * unit / kNsecPerUsec;
    const u128 less_exit_us = in.residency > in.exit_latency
                                  ? (in.residency - in.exit_latency) * unit / kNsecPerUsec
                                  : residency_us + 1;
    const u128 half_us = in.residency / 2 * unit / kNsecPerUsec;
    // (A residency below the exit latency, or one the timer clamps to, says
    // nothing of the era: any rule's duration may equal it.)
    const u128 timer_us = in.next_timer * unit / kNsecPerUsec;
    if (in.ns_era && in.residency > in.exit_latency && u128{got} == residency_us &&
        residency_us != less_exit_us && residency_us != half_us && residency_us != timer_us) {
      j.gov8 = text8 + ": the measured residency, which only the ring of before v3.16 held (" +
               "this text is of the v5.7-on era: its struct menu_device keeps next_timer_ns; " +
               "that era's ring holds the learned duration, the residency less the exit " +
               "latency)";
    } else if (consistent) {
      if (j.differs.empty() && j.gov5.empty())
        j.differs = text8 + ", a duration its own correction factor " + dec(got_f) +
                    " shows (another learning rule)";
    } else if (got_f == x.factor) {
      j.gov8 =
          text8 +
          (got == static_cast<uint32_t>(x.measured * unit) ? ": the duration in ns, not us" : "");
    } else if (ratio_ok) {
      j.gov8 = "menu_update() stored " + dec(u128{got}) + " us, where its own correction factor " +
               dec(got_f) + " shows a learned duration of " + dec(lo) + ".." + dec(hi) + u;
    }
  }
  j.gov8_follows = !j.gov8.empty() && !j.gov5.empty();
  return j;
}

Update menu_update(std::span<const State<Concrete>> states, const ConcreteHistory& h,
                   const ConcreteInputs& in) {
  ExactHistory e = widen(h);
  Widths w;
  return menu_update(states, e, in, w);
}

namespace {

// An accumulator of `bits` bits (128: exact).
u128 in_bits(u128 v, unsigned bits) { return bits >= 128 ? v : v & ((u128{1} << bits) - 1); }

}  // namespace

// The predictors with their sum and their sum of squares (or of squared
// differences) kept in words of `sum_bits` and `square_bits`: 128 is the
// exact reading; fewer is what a kernel with narrower words computes, for
// naming the accumulator that wrapped (judge_typical()).
Typical typical_two_pass_in(const Ring& iv, Widths& w, unsigned sum_bits, unsigned square_bits) {
  Typical t;
  u128 thresh = kIntMax;
  // Every pass drops at least one sample; 8 passes cannot be exceeded.
  for (unsigned pass = 0; pass <= kIntervals; ++pass) {
    u128 sum = 0;
    u128 divisor = 0;
    u128 max = 0;
    for (u128 v : iv) {
      if (v > thresh) continue;
      sum = in_bits(sum + v, sum_bits);
      ++divisor;
      max = std::max(max, v);
    }
    w.fits(sum, 64, "the sum of the intervals");
    if (max == 0) {
      t.us = kUintMax;
      return t;
    }
    const u128 avg = w.fits(sum / divisor, 32, "the average interval (an unsigned int)");
    u128 variance = 0;
    for (u128 v : iv) {
      if (v > thresh) continue;
      const u128 diff = v >= avg ? v - avg : avg - v;
      variance = in_bits(variance + diff * diff, square_bits);
    }
    w.fits(variance, 64, "the sum of squared differences");
    t.accumulator_beyond_64 = t.accumulator_beyond_64 || variance >= k2To64;
    variance /= divisor;
    if (accept(w.fits(avg * avg, 64, "avg x avg"), variance, divisor)) {
      t.us = avg;
      return t;
    }
    if (divisor * 4 <= kIntervals * 3) {
      t.us = kUintMax;
      return t;
    }
    thresh = max - 1;
  }
  t.divides_by_zero = true;  // unreachable: reported rather than hidden
  return t;
}

Typical typical_two_pass(const std::array<uint32_t, kIntervals>& iv) {
  Widths w;
  return typical_two_pass(widen_ring(iv), w);
}

Typical typical_two_pass(const Ring& iv, Widths& w) { return typical_two_pass_in(iv, w, 128, 128); }

Typical typical_both_ends_in(const Ring& iv, Widths& w, unsigned sum_bits, unsigned square_bits) {
  Typical t;
  i128 min_thresh = -1;
  i128 max_thresh = static_cast<i128>(kUintMax);
  for (unsigned pass = 0; pass <= kIntervals; ++pass) {
    u128 sum = 0;
    u128 squares = 0;
    u128 divisor = 0;
    u128 max = 0;
    u128 min = kUintMax;
    for (u128 v : iv) {
      const i128 value = static_cast<i128>(v);
      if (value <= min_thresh || value >= max_thresh) continue;
      ++divisor;
      sum = in_bits(sum + v, sum_bits);
      squares = in_bits(squares + v * v, square_bits);
      max = std::max(max, v);
      min = std::min(min, v);
    }
    w.fits(sum, 64, "the sum of the intervals");
    w.fits(squares, 64, "the sum of the squared intervals");
    if (max == 0) {
      t.us = kUintMax;
      return t;
    }
    t.accumulator_beyond_64 = t.accumulator_beyond_64 || squares >= k2To64;
    const u128 avg = sum / divisor;
    const u128 avg_sq = w.fits(avg * avg, 64, "avg x avg");
    // The mean square is at least the squared (floored) average.
    const u128 variance = squares / divisor - avg_sq;
    if (accept(avg_sq, variance, divisor)) {
      t.us = w.fits(avg, 32, "the typical interval");
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

Typical typical_both_ends(const Ring& iv, Widths& w) {
  return typical_both_ends_in(iv, w, 128, 128);
}

Typical typical_both_ends(const std::array<uint32_t, kIntervals>& iv) {
  Widths w;
  return typical_both_ends(widen_ring(iv), w);
}

u128 timer_us_exact(u128 sleep_ns, u128 factor, Widths& w) {
  const u128 product = w.fits(sleep_ns * factor, 64, "sleep length x correction factor");
  const u128 half = u128{kResolution} * kDecay * kNsecPerUsec / 2;
  const u128 sum = w.fits(half + product, 64, "the rounded product");
  return w.fits(sum / (2 * half), 32, "timer_us (an unsigned int)");
}

u128 timer_us_exact(u128 sleep_ns, u128 factor) {
  Widths w;
  return timer_us_exact(sleep_ns, factor, w);
}

TypicalJudgement judge_typical(const std::array<uint32_t, kIntervals>& ring, uint32_t got) {
  TypicalJudgement j;
  j.two_pass = typical_two_pass(ring).us;
  j.both_ends = typical_both_ends(ring).us;
  if (got == j.two_pass || got == j.both_ends) return j;
  uint32_t lo = kUintMax, hi = 0;
  bool any = false;
  for (uint32_t v : ring) {
    if (v == kUintMax) continue;
    any = true;
    lo = std::min(lo, v);
    hi = std::max(hi, v);
  }
  if (any && got != kUintMax && (got < lo || got > hi)) {
    j.gov5 = "the predictor's sums wrapped: get_typical_interval() answered " + dec(u128{got}) +
             " us, " +
             (got < lo ? "below the smallest sample " + dec(u128{lo})
                       : "above the largest sample " + dec(u128{hi})) +
             " us of the ring, where no average of its samples lies (exact arithmetic: " +
             dec(j.two_pass) + " us by the two-pass predictor, " + dec(j.both_ends) +
             " us by the both-ends one; " + dec(u128{kUintMax}) + ": none)";
    return j;
  }
  // The accumulators in 32 bits, each predictor, each accumulator alone.
  const Ring r = widen_ring(ring);
  struct Narrow {
    const char* predictor;
    bool two_pass;
    unsigned sum_bits, square_bits;
    const char* what;
  };
  static constexpr Narrow kNarrow[] = {
      {"two-pass", true, 32, 128, "the sum of the intervals"},
      {"two-pass", true, 128, 32, "the sum of the squared differences"},
      {"both-ends", false, 32, 128, "the sum of the intervals"},
      {"both-ends", false, 128, 32, "the sum of the squared intervals"},
  };
  std::string which;
  for (const Narrow& n : kNarrow) {
    Widths w;
    const u128 narrow = n.two_pass ? typical_two_pass_in(r, w, n.sum_bits, n.square_bits).us
                                   : typical_both_ends_in(r, w, n.sum_bits, n.square_bits).us;
    const u128 exact = n.two_pass ? j.two_pass : j.both_ends;
    if (narrow != got || narrow == exact) continue;
    which += std::string(which.empty() ? "" : ", or ") + "the " + n.predictor + " predictor with " +
             n.what + " in 32 bits (exact: " + dec(exact) + " us)";
  }
  if (!which.empty()) {
    j.gov5 = "the predictor's sums wrapped: get_typical_interval() answered " + dec(u128{got}) +
             " us, which " + which + " gives (" + dec(u128{kUintMax}) + ": none)";
    return j;
  }
  j.differs = true;
  return j;
}

Predict predict_from(Predictor predictor, bool consults_when_stopped, ExactHistory& e,
                     const ConcreteInputs& in, Widths& w) {
  Predict p;
  p.typical = predictor == Predictor::kTwoPass ? typical_two_pass(e.intervals, w)
                                               : typical_both_ends(e.intervals, w);
  const u128 typical_ns = p.typical.us * kNsecPerUsec;
  p.consult_timer =
      typical_ns > kResidencyThresholdNs || (consults_when_stopped && in.tick_stopped);
  if (!p.consult_timer) {
    p.predicted_ns = typical_ns;
    e.next_timer_ns = kKtimeMax;
    e.bucket = kBuckets - 1;
    p.next_timer_ns = e.next_timer_ns;
    p.bucket = e.bucket;
    p.delta_tick_ns = in.tick_ns.v / 2;
    return p;
  }
  const bool negative = in.sleep_length_ns.v > kKtimeMax;
  const u128 delta = negative ? 0 : in.sleep_length_ns.v;
  p.delta_tick_ns = negative ? 0 : in.delta_tick_ns.v;
  e.bucket = bucket_of(delta);
  p.timer_us = timer_us_exact(delta, e.factor[e.bucket], w);
  p.predicted_ns = std::min(p.timer_us * kNsecPerUsec, typical_ns);
  e.next_timer_ns = delta;
  p.next_timer_ns = delta;
  p.bucket = e.bucket;
  return p;
}

Predict predict(Predictor predictor, bool consults_when_stopped, bool mark_rejected,
                const ConcreteHistory& h, const ConcreteInputs& in) {
  ExactHistory e = widen(h);
  e.ptr %= kIntervals;
  if (mark_rejected) push_interval(e, kUintMax);
  Widths w;
  return predict_from(predictor, consults_when_stopped, e, in, w);
}

Predict select_prediction(Predictor predictor, bool consults_when_stopped,
                          bool rejected_period_invalidates, std::span<const State<Concrete>> states,
                          ExactHistory& e, const ConcreteInputs& in, Widths& w) {
  const bool update_due = e.needs_update;
  if (update_due) menu_update(states, e, in, w);
  if (rejected_period_invalidates && !update_due && in.last_residency_ns.v == 0) {
    push_interval(e, kUintMax);
  }
  e.needs_update = false;
  return predict_from(predictor, consults_when_stopped, e, in, w);
}

std::string intervals_text(const ConcreteHistory& h) {
  std::string s = "[";
  for (size_t i = 0; i < h.intervals.size(); ++i) {
    s += i ? " " : "";
    s += dec(h.intervals[i].v);
  }
  return s + "] us, next slot " + std::to_string(h.interval_ptr.v);
}

void judge_prediction(Predictor predictor, bool consults_when_stopped,
                      bool rejected_period_invalidates, std::span<const State<Concrete>> states,
                      const ConcreteHistory& before, const ConcreteHistory& after,
                      const ConcreteInputs& in, const Prediction<Concrete>& p,
                      const std::function<std::string()>& where, Collector& out) {
  ExactHistory e = widen(before);
  Widths x;
  const Predict want = select_prediction(predictor, consults_when_stopped,
                                         rejected_period_invalidates, states, e, in, x);
  // The interval menu_update() stores is GOV-8's business (an unsigned int
  // holding a duration that does not fit it); everything else is GOV-5's.
  std::string why;
  std::string why8;
  auto note = [](std::string& to, const std::string& what) {
    to += to.empty() ? "" : "; ";
    to += what;
  };
  // A GOV-8 truncation puts a value beyond GOV-5's ring range into the ring
  // in this very selection: the rest of the prediction is then outside
  // GOV-5's ranges, as it is on the next selections.
  bool stored_out_of_range = false;
  for (const Overflow& o : x.overflows()) stored_out_of_range |= o.what == kStoredInterval;
  for (const Overflow& o : x.overflows()) {
    if (stored_out_of_range && o.what != kStoredInterval) continue;
    std::string& to = o.what == kStoredInterval ? why8 : why;
    note(to, std::string(o.what) + " is " + dec(o.exact) + ", beyond " + std::to_string(o.bits) +
                 " bits");
  }
  auto differ = [&](const char* what, u128 exact, u128 got) {
    if (exact == got || stored_out_of_range) return;
    note(why, std::string(what) + " is " + dec(got) + ", exact arithmetic gives " + dec(exact));
  };
  differ("the prediction (ns)", want.predicted_ns, p.predicted_ns.v);
  differ("next_timer_ns", want.next_timer_ns, p.next_timer_ns.v);
  differ("delta_tick (ns)", want.delta_tick_ns, p.delta_tick_ns.v);
  differ("the bucket", e.bucket, after.bucket.v);
  for (size_t b = 0; b < e.factor.size(); ++b) {
    differ(b == e.bucket ? "the correction factor of the bucket" : "a correction factor",
           e.factor[b], after.correction_factor[b].v);
  }
  for (size_t i = 0; i < e.intervals.size(); ++i) {
    // A stored interval beyond 32 bits is already GOV-8's overflow above.
    if (e.intervals[i] > kUintMax) continue;
    differ("an interval of the ring (us)", e.intervals[i], after.intervals[i].v);
  }
  differ("the ring pointer", e.ptr, after.interval_ptr.v);
  if (!why8.empty()) {
    out.add("GOV-8", [&] {
      return where() + ": " + why8 + " (ring before: " + intervals_text(before) + ")";
    });
  }
  if (why.empty()) return;
  out.add("GOV-5",
          [&] { return where() + ": " + why + " (ring before: " + intervals_text(before) + ")"; });
}

}  // namespace idlespec::governor::oracle
