// Witnesses for the xcede and states checks: subjects with one deliberate
// bug each, in the shape of ReferenceSubject (impl/subjects.h). Every check
// that discharges a clause has a test that runs it against one of these and
// expects the violation.
#pragma once

#include <cstdint>
#include <string_view>

#include "impl/subjects.h"

namespace idlespec::witness {

// A source that claims the buffer is as long as anything payload_size could
// declare, and forwards every read to the real source.
template <class D, class Source>
struct TrustingSource {
  Source& real;
  typename D::template U<32> length() const { return D::template lit<32>(0xffffu + 3u); }
  typename D::template U<8> read(typename D::Bool guard, typename D::template U<32> offset) {
    return real.read(guard, offset);
  }
};

// The decoder that derives the record count from payload_size without
// bounding it by the buffer it was given (what upstream does): XCEDE-1.
struct UnboundedDecoder {
  template <class D, class Source, class Sink>
  static xcede::RawDecode<D> run(Source& src, uint32_t capacity, Sink&& sink) {
    TrustingSource<D, Source> trusting{src};
    return xcede::decode_raw<D>(trusting, capacity, sink);
  }
};

struct UnboundedDecoderSubject : ReferenceSubject {
  static constexpr std::string_view name = "witness-unbounded-decoder";
  using Decoder = UnboundedDecoder;
};

// The July 2020 RFC fix-up: start from CEDE's 10 us, take the smallest
// latency (zero included) and, if below 10 us, use min - 1 in u64, falling
// back to min when that is "<= 0". With a zero latency min - 1 wraps to
// 2^64 - 1 and the table gets 0xffffffff us: STATES-4 (and STATES-3).
struct MinMinusOneFixup {
  template <class D>
  static states::CedeLatency<D> compute(std::span<const xcede::RawRecord<D>> records,
                                        std::span<const states::RecordFate<D>> fates) {
    using U64 = typename D::template U<64>;
    U64 min_us = D::template lit<64>(states::kCedeExitLatencyUs);
    for (size_t i = 0; i < records.size(); ++i) {
      const U64 us = D::template trunc<64>(fates[i].latency_us);
      min_us = D::ite(records[i].present && us < min_us, us, min_us);
    }
    const auto fix = min_us < D::template lit<64>(states::kCedeExitLatencyUs);
    U64 cede0 = min_us - D::template lit<64>(1);
    cede0 = D::ite(cede0 == D::template lit<64>(0), min_us, cede0);
    return {
        fix,
        D::ite(fix, D::template trunc<32>(cede0), D::template lit<32>(states::kCedeExitLatencyUs)),
        D::ite(fix, D::template trunc<32>(cede0 * D::template lit<64>(states::kResidencyFactor)),
               D::template lit<32>(states::kCedeTargetResidencyUs))};
  }
};

struct MinMinusOneBuilder : states::ReferenceBuilder {
  template <class D>
  static states::RawTable<D> run(std::span<const xcede::RawRecord<D>> records,
                                 const states::BuildConfig& cfg) {
    return states::build_raw<D, MinMinusOneFixup>(records, cfg);
  }
};

struct MinMinusOneSubject : ReferenceSubject {
  static constexpr std::string_view name = "witness-min-minus-one";
  using Builder = MinMinusOneBuilder;
};

// The fix-up gated on "POWER9 or later" instead of ISA 3.1 / POWER10 PVR:
// POWER9 gets the fix-up that the 2021 change took away from it (STATES-6).
struct Power9OrLaterBuilder : states::ReferenceBuilder {
  static bool fixup_applies(const Lpar& lpar) {
    return !lpar.shared_processor && lpar.processor >= Platform::power9;
  }
};

struct Power9OrLaterSubject : ReferenceSubject {
  static constexpr std::string_view name = "witness-power9-or-later";
  using Builder = Power9OrLaterBuilder;
};

}  // namespace idlespec::witness
