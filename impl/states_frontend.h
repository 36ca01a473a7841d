// Concrete front end over any table builder with the shape of
// ReferenceBuilder (witnesses in tests/ plug broken ones in here). Included
// by impl/states.h.
#pragma once

#include <cinttypes>
#include <cstdio>
#include <stdexcept>

#include "impl/text.h"

namespace idlespec::states {
namespace detail {

inline std::string state_name(Kind kind, uint8_t hint) {
  switch (kind) {
    case Kind::snooze:
      return "snooze";
    case Kind::cede:
      return "CEDE";
    case Kind::shared_cede:
      return "Shared Cede";
    case Kind::xcede:
      return "XCEDE" + std::to_string(hint);
  }
  return "?";
}

inline uint64_t saturate64(unsigned __int128 v) {
  return v > UINT64_MAX ? UINT64_MAX : uint64_t(v);
}

}  // namespace detail

template <class Builder>
Table build_using(std::span<const xcede::Record> records, const Options& options) {
  if (options.tb_hz < kMinTbHz || options.tb_hz > kMaxTbHz) {
    throw std::domain_error(strprintf("timebase frequency %llu Hz is outside 1..2^42 Hz",
                                      static_cast<unsigned long long>(options.tb_hz)));
  }
  std::vector<xcede::RawRecord<Concrete>> raw;
  raw.reserve(records.size());
  for (const auto& r : records) {
    raw.push_back({true, Word<8>(r.hint), Word<64>(r.latency_ticks), Word<8>(r.wake_on_irqs)});
  }
  BuildConfig cfg;
  cfg.dedicated = !options.lpar.shared_processor;
  cfg.fixup = Builder::fixup_applies(options.lpar);
  cfg.expose_xcede = options.expose_xcede;
  cfg.tb_hz = options.tb_hz;
  const RawTable<Concrete> t =
      Builder::template run<Concrete>(std::span<const xcede::RawRecord<Concrete>>(raw), cfg);

  Table out;
  out.cede0_fixup_gated_in = cfg.fixup;
  out.cede0_fixed_up = t.fixed_up;
  out.snooze_timeout_ticks = t.snooze_timeout_ticks.v;
  for (size_t i = 0; i < records.size(); ++i) {
    const auto& f = t.fates[i];
    const unsigned hint = records[i].hint;
    if (cfg.fixup && f.zero_latency) {
      out.notes.push_back(
          strprintf("cpuidle: Skipping xcede record %zu [hint=%u]. Exit latency = 0us", i, hint));
    }
    if (f.too_large) {
      out.notes.push_back(strprintf("cpuidle: Refusing xcede record %zu [hint=%u]: latency %" PRIu64
                                    " us does not fit (10x must stay below 2^32 us)",
                                    i, hint, detail::saturate64(f.latency_us.v)));
    }
    if (f.not_responsive) {
      out.notes.push_back(strprintf("cpuidle: Skipping XCEDE%u. Not responsive to IRQs", hint));
    }
    if (f.blocked_xcede1) {
      out.notes.push_back(strprintf("cpuidle: Blocking XCEDE%u. No value over CEDE", hint));
    }
    if (f.out_of_order) {
      out.notes.push_back(
          strprintf("cpuidle: Dropping XCEDE%u: shallower than the state before it", hint));
    }
    if (f.no_room) {
      out.notes.push_back(
          strprintf("cpuidle: Dropping XCEDE%u: already %u states", hint, kCpuidleStateMax));
    }
  }
  for (const RawState<Concrete>& s : t.states) {
    if (!s.present) continue;
    out.states.push_back(State{detail::state_name(s.kind, s.hint.v), s.exit_latency_us.v,
                               s.target_residency_us.v, s.polling, s.timer_stop, s.hint.v});
  }
  if (out.cede0_fixed_up) {
    out.notes.push_back(
        strprintf("cpuidle: Fixed up CEDE exit latency to %u us", out.states[1].exit_latency_us));
  }
  return out;
}

}  // namespace idlespec::states
