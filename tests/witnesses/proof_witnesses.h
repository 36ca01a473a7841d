// Witnesses for the Z3 proofs (proofs/): decoders, table builders and
// conversions with one deliberate bug each, generic over the value domain
// like the code they imitate. tests/witnesses/proof_witness_test.cc runs
// every proof against one of these (or against the shared witnesses in
// xcede_witnesses.h) and expects the violation. Near-copies of impl/ code are
// marked as such; they live only here.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>
#include <utility>

#include "impl/states.h"
#include "impl/subjects.h"
#include "impl/xcede.h"

namespace idlespec::witness {

// ---- xcede ------------------------------------------------------------------

// XCEDE-2: a source that reads byte 2 as 9 whatever it holds, i.e. a decoder
// that never checks the record size.
template <class D, class Source>
struct RecordSizeNineSource {
  Source& real;
  auto length() const { return real.length(); }
  typename D::template U<8> read(typename D::Bool guard, typename D::template U<32> offset) {
    const auto byte = real.read(guard, offset);
    return D::ite(offset == D::template lit<32>(2), D::template lit<8>(xcede::kRecordSizeByte),
                  byte);
  }
};

struct SkipsRecordSizeCheckDecoder {
  template <class D, class Source, class Sink>
  static xcede::RawDecode<D> run(Source& src, uint32_t capacity, Sink&& sink) {
    RecordSizeNineSource<D, Source> nine{src};
    return xcede::decode_raw<D>(nine, capacity, std::forward<Sink>(sink));
  }
};

struct SkipsRecordSizeCheckSubject : ReferenceSubject {
  static constexpr std::string_view name = "witness-skips-record-size-check";
  using Decoder = SkipsRecordSizeCheckDecoder;
};

// XCEDE-3: upstream's record count, (payload_size - 2) / 10 in u32, which
// wraps for payload_size 0 and 1. A near-copy of xcede::decode_raw with that
// one change (and so no short-payload warning).
struct WrapsShortPayloadDecoder {
  template <class D, class Source, class Sink>
  static xcede::RawDecode<D> run(Source& src, uint32_t capacity, Sink&& sink) {
    using U32 = typename D::template U<32>;
    using U64 = typename D::template U<64>;
    auto lit32 = [](uint64_t v) { return D::template lit<32>(v); };
    xcede::RawDecode<D> out{};
    const U32 len = src.length();
    out.header_ok = len >= lit32(xcede::kHeaderSize);
    const auto hi = src.read(out.header_ok, lit32(0));
    const auto lo = src.read(out.header_ok, lit32(1));
    out.record_size_byte = src.read(out.header_ok, lit32(2));
    out.payload_size = (D::template zext<16>(hi) << 8) | D::template zext<16>(lo);
    out.size_ok =
        out.header_ok && out.record_size_byte == D::template lit<8>(xcede::kRecordSizeByte);
    const U32 size32 = D::template zext<32>(out.payload_size);
    const U32 body = size32 - lit32(2);  // the bug: wraps below 2
    out.short_payload = D::truth(false);
    out.declared = D::ite(out.size_ok, D::udiv(body, lit32(xcede::kRecordSize)), lit32(0));
    out.partial_record =
        out.size_ok && (body - out.declared * lit32(xcede::kRecordSize)) != lit32(0);
    out.in_buffer = D::ite(
        out.size_ok, D::udiv(len - lit32(xcede::kHeaderSize), lit32(xcede::kRecordSize)), lit32(0));
    const U32 cap = lit32(capacity);
    out.over_capacity = out.size_ok && out.declared > cap;
    const U32 wanted = D::ite(out.over_capacity, cap, out.declared);
    out.truncated = out.size_ok && wanted > out.in_buffer;
    out.count = D::ite(out.truncated, out.in_buffer, wanted);
    out.nul_missing = D::truth(false);
    for (uint32_t i = 0; i < capacity; ++i) {
      const auto present = lit32(i) < out.count;
      if (D::known_false(present)) break;
      const uint32_t base = xcede::kHeaderSize + i * xcede::kRecordSize;
      xcede::RawRecord<D> rec{};
      rec.present = present;
      rec.hint = src.read(present, lit32(base));
      U64 ticks = D::template lit<64>(0);
      for (uint32_t b = 0; b < 8; ++b) {
        ticks = (ticks << 8) | D::template zext<64>(src.read(present, lit32(base + 1 + b)));
      }
      rec.latency_ticks = ticks;
      rec.wake_on_irqs = src.read(present, lit32(base + 9));
      sink(i, rec);
    }
    return out;
  }
};

struct WrapsShortPayloadSubject : ReferenceSubject {
  static constexpr std::string_view name = "witness-wraps-short-payload";
  using Decoder = WrapsShortPayloadDecoder;
};

// XCEDE-4: a decoder with its own 32-record buffer, ignoring the capacity it
// was given.
struct IgnoresCapacityDecoder {
  static constexpr uint32_t kOwnCapacity = 2 * xcede::kDefaultCapacity;
  template <class D, class Source, class Sink>
  static xcede::RawDecode<D> run(Source& src, uint32_t, Sink&& sink) {
    return xcede::decode_raw<D>(src, kOwnCapacity, std::forward<Sink>(sink));
  }
};

struct IgnoresCapacitySubject : ReferenceSubject {
  static constexpr std::string_view name = "witness-ignores-capacity";
  using Decoder = IgnoresCapacityDecoder;
};

// XCEDE-5: a decoder that normalises wake-on-irq to 0/1 (what a `bool`
// field would do), so a firmware byte of 2 does not survive the round trip.
struct NormalisesWakeDecoder {
  template <class D, class Source, class Sink>
  static xcede::RawDecode<D> run(Source& src, uint32_t capacity, Sink&& sink) {
    auto normalising = [&sink](uint32_t i, const xcede::RawRecord<D>& r) {
      xcede::RawRecord<D> c = r;
      c.wake_on_irqs = D::ite(r.wake_on_irqs == D::template lit<8>(0), D::template lit<8>(0),
                              D::template lit<8>(1));
      sink(i, c);
    };
    return xcede::decode_raw<D>(src, capacity, normalising);
  }
};

struct NormalisesWakeSubject : ReferenceSubject {
  static constexpr std::string_view name = "witness-normalises-wake";
  using Decoder = NormalisesWakeDecoder;
};

// ---- states -----------------------------------------------------------------

enum class TableBug {
  keeps_out_of_order,    // STATES-1/2: no order check when exposing XCEDE states
  no_room_check,         // STATES-5: exposes every eligible record
  exposes_unresponsive,  // STATES-7: ignores wake-on-irq
  timer_stop_for_all,    // STATES-7: TIMER_STOP on hint 0 too
  residency_in_u32,      // STATES-4: checks exit fits u32, computes 10x in u32
};

// A near-copy of states::build_from_latencies (ExactMinFixup) with one bug.
template <TableBug Bug>
struct BrokenTable {
  template <class D>
  static states::RawTable<D> build(std::span<const xcede::RawRecord<D>> records,
                                   std::span<const typename D::template U<128>> latency_us,
                                   const states::BuildConfig& cfg) {
    using U32 = typename D::template U<32>;
    using U128 = typename D::template U<128>;
    const auto T = D::truth(true);
    const auto F = D::truth(false);
    states::RawTable<D> t{};
    t.fixed_up = F;
    for (size_t i = 0; i < records.size(); ++i) {
      states::RecordFate<D> f{};
      f.latency_us = latency_us[i];
      f.zero_latency = records[i].present && f.latency_us == D::template lit<128>(0);
      f.too_large =
          records[i].present && f.latency_us > D::template lit<128>(states::kMaxLatencyUs);
      f.not_responsive = f.blocked_xcede1 = f.out_of_order = f.no_room = F;
      t.fates.push_back(f);
    }
    t.states.push_back({states::Kind::snooze, T, D::template lit<32>(0), D::template lit<32>(0), T,
                        F, D::template lit<8>(0)});
    states::RawState<D> cede{cfg.dedicated ? states::Kind::cede : states::Kind::shared_cede,
                             T,
                             D::template lit<32>(states::kCedeExitLatencyUs),
                             D::template lit<32>(states::kCedeTargetResidencyUs),
                             F,
                             F,
                             D::template lit<8>(0)};
    if (cfg.dedicated && cfg.fixup) {
      const auto c = states::ExactMinFixup::compute<D>(records, t.fates);
      t.fixed_up = c.fixed_up;
      cede.exit_latency_us = c.exit_latency_us;
      cede.target_residency_us = c.target_residency_us;
    }
    t.states.push_back(cede);
    if (cfg.dedicated && cfg.expose_xcede) {
      U32 last_exit = cede.exit_latency_us;
      U32 last_residency = cede.target_residency_us;
      U32 n = D::template lit<32>(2);
      for (size_t i = 0; i < records.size(); ++i) {
        const auto& r = records[i];
        const auto deep = r.hint > D::template lit<8>(0);
        const U128 exit128 =
            latency_us[i] +
            D::ite(deep, D::template lit<128>(states::kTimerStopExtraUs), D::template lit<128>(0));
        const uint64_t limit =
            Bug == TableBug::residency_in_u32 ? 0xffffffffull : states::kMaxLatencyUs;
        const auto fits = exit128 <= D::template lit<128>(limit);
        const auto responsive =
            Bug == TableBug::exposes_unresponsive ? T : !(r.wake_on_irqs == D::template lit<8>(0));
        const auto eligible =
            r.present && responsive && !(r.hint == D::template lit<8>(states::kXcede1Hint)) && fits;
        const U32 exit = D::template trunc<32>(exit128);
        const U32 residency =
            Bug == TableBug::residency_in_u32
                ? exit * D::template lit<32>(states::kResidencyFactor)
                : D::template trunc<32>(exit128 * D::template lit<128>(states::kResidencyFactor));
        const auto in_order = Bug == TableBug::keeps_out_of_order
                                  ? T
                                  : (exit >= last_exit && residency >= last_residency);
        const auto room =
            Bug == TableBug::no_room_check ? T : n < D::template lit<32>(states::kCpuidleStateMax);
        const auto keep = eligible && in_order && room;
        const auto timer_stop = Bug == TableBug::timer_stop_for_all ? T : deep;
        t.states.push_back({states::Kind::xcede, keep, exit, residency, F, timer_stop, r.hint});
        last_exit = D::ite(keep, exit, last_exit);
        last_residency = D::ite(keep, residency, last_residency);
        n = n + D::ite(keep, D::template lit<32>(1), D::template lit<32>(0));
      }
    }
    t.snooze_timeout_ticks =
        D::template zext<64>(cede.target_residency_us) * D::template lit<64>(cfg.tb_hz / 1000000);
    return t;
  }
};

// ---- the tick-to-us conversion (STATES-4) --------------------------------------

// Rounds down instead of up: understates every latency that is not a whole
// number of microseconds.
template <class D>
typename D::template U<128> truncating_latency_us(typename D::template U<64> ticks,
                                                  uint64_t tb_hz) {
  return D::udiv(D::template zext<128>(ticks) * D::template lit<128>(1000000),
                 D::template lit<128>(tb_hz));
}

// Multiplies in 64 bits: ticks * 10^6 wraps from 2^64 / 10^6 ticks on.
template <class D>
typename D::template U<128> multiply64_latency_us(typename D::template U<64> ticks,
                                                  uint64_t tb_hz) {
  const auto scaled = D::template zext<128>(ticks * D::template lit<64>(1000000));
  return D::udiv(scaled + D::template lit<128>(tb_hz - 1), D::template lit<128>(tb_hz));
}

}  // namespace idlespec::witness
