// Deliberately broken busy-delay policies: each check of spec/busy_delay.md
// must catch the ones its clauses name (tests/witnesses/*_test.cc). Each is
// the reference (or early) policy with one change, written over the value
// domain so that the proofs, the exhaustive scan, the properties and the
// fuzz target all run against the same broken code.
#pragma once

#include <string_view>

#include "impl/busy_delay.h"

namespace idlespec::busy_delay::witness {

// Early boot without the reset on giving up: after the first give-up every
// later loop gives up on its first extended delay (BUSY-7).
struct NoResetOnGiveUpPolicy {
  static constexpr std::string_view subject = "witness-no-reset-on-give-up";
  static constexpr std::string_view form = "mdelay";
  template <class D>
  static Step<D> step(typename D::template U<32> status, Context<D>& ctx) {
    using U32 = typename D::template U<32>;
    const auto ext = is_extended_delay<D>(status);
    const auto busy = is_busy<D>(status);
    const U32 bumped = ctx.consecutive + D::template lit<32>(1);
    const auto give_up = ext && bumped > D::template lit<32>(kEarlyGiveUpAfter);
    Step<D> s = no_step<D>();
    s.retry = busy || (ext && !give_up);
    s.primitive = D::ite(ext, D::template lit<8>(kMdelay), D::template lit<8>(kNoSleep));
    s.min_us = s.max_us = D::ite(ext, D::template lit<64>(1000), D::template lit<64>(0));
    // The change: giving up keeps the count (and saturates it there).
    ctx.consecutive = D::ite(ext, D::ite(give_up, ctx.consecutive, bumped), D::template lit<32>(0));
    return s;
  }
};

// Early boot giving up on the 1000th consecutive extended delay instead of
// the 1001st (BUSY-7).
struct GiveUpOn1000thPolicy {
  static constexpr std::string_view subject = "witness-give-up-on-1000th";
  static constexpr std::string_view form = "mdelay";
  template <class D>
  static Step<D> step(typename D::template U<32> status, Context<D>& ctx) {
    using U32 = typename D::template U<32>;
    const auto ext = is_extended_delay<D>(status);
    const auto busy = is_busy<D>(status);
    const U32 bumped = ctx.consecutive + D::template lit<32>(1);
    // The change: >= instead of >.
    const auto give_up = ext && bumped >= D::template lit<32>(kEarlyGiveUpAfter);
    Step<D> s = no_step<D>();
    s.retry = busy || (ext && !give_up);
    s.primitive = D::ite(ext, D::template lit<8>(kMdelay), D::template lit<8>(kNoSleep));
    s.min_us = s.max_us = D::ite(ext, D::template lit<64>(1000), D::template lit<64>(0));
    ctx.consecutive = D::ite(ext && !give_up, bumped, D::template lit<32>(0));
    return s;
  }
};

// The reference policy with the clamp at 100 s instead of 1 s (BUSY-3, BUSY-6).
struct Clamp100sPolicy {
  static constexpr std::string_view subject = "witness-clamp-100s";
  static constexpr std::string_view form = "usleep_range/msleep";
  template <class D>
  static Step<D> step(typename D::template U<32> status, Context<D>&) {
    using U64 = typename D::template U<64>;
    const auto ext = is_extended_delay<D>(status);
    const auto busy = is_busy<D>(status);
    const U64 hint = D::template zext<64>(delay_time_ms<D>(status));
    const U64 lo = D::template lit<64>(1);
    const U64 hi = D::template lit<64>(100000);  // the change
    const U64 c = D::ite(hint < lo, lo, D::ite(hint > hi, hi, hint));
    const auto short_sleep = c <= D::template lit<64>(kUsleepRangeMaxMs);
    const U64 c_us = c * D::template lit<64>(1000);
    const U64 zero = D::template lit<64>(0);
    Step<D> s = no_step<D>();
    s.retry = ext || busy;
    s.cond_resched = busy;
    s.primitive = D::ite(
        ext, D::ite(short_sleep, D::template lit<8>(kUsleepRange), D::template lit<8>(kMsleep)),
        D::template lit<8>(kNoSleep));
    s.min_us = D::ite(ext, D::ite(short_sleep, c * D::template lit<64>(100), c_us), zero);
    s.max_us = D::ite(ext, c_us, zero);
    return s;
  }
};

// The reference policy whose extended-delay range ends at 9906 (BUSY-1, and
// BUSY-5 for 9906, which now retries).
struct Accepts9906Policy {
  static constexpr std::string_view subject = "witness-accepts-9906";
  static constexpr std::string_view form = "usleep_range/msleep";
  template <class D>
  static Step<D> step(typename D::template U<32> status, Context<D>& ctx) {
    const auto is9906 = status == D::template lit<32>(9906);
    Step<D> s = reference_step<D>(status, false);
    // The change: 9906 treated as an extended delay (clamped hint 1 s).
    s.retry = s.retry || is9906;
    s.primitive = D::ite(is9906, D::template lit<8>(kMsleep), s.primitive);
    s.min_us = D::ite(is9906, D::template lit<64>(1000000), s.min_us);
    s.max_us = D::ite(is9906, D::template lit<64>(1000000), s.max_us);
    (void)ctx;
    return s;
  }
};

// The reference policy calling usleep_range(max, min) (BUSY-3).
struct SwappedRangePolicy {
  static constexpr std::string_view subject = "witness-swapped-range";
  static constexpr std::string_view form = "usleep_range/msleep";
  template <class D>
  static Step<D> step(typename D::template U<32> status, Context<D>&) {
    Step<D> s = reference_step<D>(status, false);
    const auto lo = s.min_us;
    s.min_us = s.max_us;  // the change
    s.max_us = lo;
    return s;
  }
};

// The fsleep form given c where c * 1000 us were meant: fsleep takes
// microseconds (BUSY-3).
struct FsleepMillisecondsPolicy {
  static constexpr std::string_view subject = "witness-fsleep-milliseconds";
  static constexpr std::string_view form = "fsleep";
  template <class D>
  static Step<D> step(typename D::template U<32> status, Context<D>&) {
    Step<D> s = reference_step<D>(status, true);
    const auto ext = is_extended_delay<D>(status);
    const auto thousand = D::template lit<64>(1000);
    // The change: the request in the unit of the hint (ms), read as us.
    s.min_us = D::ite(ext, D::udiv(s.min_us, thousand), s.min_us);
    s.max_us = D::ite(ext, D::udiv(s.max_us, thousand), s.max_us);
    return s;
  }
};

}  // namespace idlespec::busy_delay::witness
