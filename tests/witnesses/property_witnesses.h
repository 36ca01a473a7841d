// Witnesses for the property and exhaustive checks of properties/: subjects
// with one deliberate bug each, in the shape of ReferenceSubject
// (impl/subjects.h), beside the shared ones in xcede_witnesses.h. Each is a
// small wrapper around the reference (a source, a sink or a table edited on
// the way), so the bug is the only difference. They run on concrete values
// only.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>
#include <type_traits>

#include "impl/subjects.h"

namespace idlespec::witness {

// ---- decoders -------------------------------------------------------------

// A source that answers 9 for the record-size byte, whatever the buffer says.
template <class D, class Source>
struct AnySizeIsTenSource {
  Source& real;
  typename D::template U<32> length() const { return real.length(); }
  typename D::template U<8> read(typename D::Bool guard, typename D::template U<32> offset) {
    return D::ite(offset == D::template lit<32>(2), D::template lit<8>(xcede::kRecordSizeByte),
                  real.read(guard, offset));
  }
};

// Decodes every record size as if it were 10: XCEDE-2.
struct LenientRecordSizeDecoder {
  template <class D, class Source, class Sink>
  static xcede::RawDecode<D> run(Source& src, uint32_t capacity, Sink&& sink) {
    AnySizeIsTenSource<D, Source> lenient{src};
    return xcede::decode_raw<D>(lenient, capacity, sink);
  }
};

// A source that presents payload_size as 0xffff.
template <class Source>
struct AllOnesSizeSource {
  Source& real;
  Word<32> length() const { return real.length(); }
  Word<8> read(bool guard, Word<32> offset) {
    return offset.v < 2 ? Word<8>(guard ? 0xff : 0) : real.read(guard, offset);
  }
};

// Computes payload_size - 2 in u32 without looking at it first: 0 and 1
// wrap to ~4.3 * 10^9 bytes, 429496729 records, which only the capacity and
// the buffer then bound (XCEDE-3).
struct WrappingShortPayloadDecoder {
  template <class D, class Source, class Sink>
  static xcede::RawDecode<D> run(Source& src, uint32_t capacity, Sink&& sink) {
    static_assert(std::is_same_v<D, Concrete>, "a concrete-only witness");
    const bool header = src.length().v >= xcede::kHeaderSize;
    const uint32_t size =
        header ? (uint32_t{src.read(true, Word<32>(0)).v} << 8) | src.read(true, Word<32>(1)).v : 2;
    if (size >= 2) return xcede::decode_raw<D>(src, capacity, sink);
    AllOnesSizeSource<Source> wrapped{src};
    xcede::RawDecode<D> raw = xcede::decode_raw<D>(wrapped, capacity, sink);
    raw.payload_size = Word<16>(static_cast<uint16_t>(size));
    raw.declared = Word<32>((size - 2u) / xcede::kRecordSize);
    return raw;
  }
};

// A source that hands over payload_size's two bytes exchanged: what a
// decoder sees that loads the __be16 field as a host integer on a
// little-endian host (no be16_to_cpu).
template <class Source>
struct HostOrderSizeSource {
  Source& real;
  Word<32> length() const { return real.length(); }
  Word<8> read(bool guard, Word<32> offset) {
    return offset.v < 2 ? real.read(guard, Word<32>(offset.v ^ 1u)) : real.read(guard, offset);
  }
};

// Reads payload_size in the little-endian host's order: XCEDE-8.
struct HostOrderSizeDecoder {
  template <class D, class Source, class Sink>
  static xcede::RawDecode<D> run(Source& src, uint32_t capacity, Sink&& sink) {
    static_assert(std::is_same_v<D, Concrete>, "a concrete-only witness");
    HostOrderSizeSource<Source> host{src};
    return xcede::decode_raw<D>(host, capacity, sink);
  }
};

// Lets one record more than the capacity through: XCEDE-4.
struct CapacityPlusOneDecoder {
  template <class D, class Source, class Sink>
  static xcede::RawDecode<D> run(Source& src, uint32_t capacity, Sink&& sink) {
    return xcede::decode_raw<D>(src, capacity + 1, sink);
  }
};

// Reduces wake-on-irq to 0 or 1, as a bool field would: XCEDE-5.
struct BooleanWakeDecoder {
  template <class D, class Source, class Sink>
  static xcede::RawDecode<D> run(Source& src, uint32_t capacity, Sink&& sink) {
    return xcede::decode_raw<D>(src, capacity, [&](uint32_t i, xcede::RawRecord<D> r) {
      r.wake_on_irqs = D::ite(r.wake_on_irqs == D::template lit<8>(0), D::template lit<8>(0),
                              D::template lit<8>(1));
      sink(i, r);
    });
  }
};

// Decodes what fits but does not say that the buffer ended early: the
// XCEDE-1 warning is missing.
struct SilentTruncationDecoder {
  template <class D, class Source, class Sink>
  static xcede::RawDecode<D> run(Source& src, uint32_t capacity, Sink&& sink) {
    xcede::RawDecode<D> raw = xcede::decode_raw<D>(src, capacity, sink);
    raw.truncated = D::truth(false);
    return raw;
  }
};

// ---- table builders -------------------------------------------------------

// The reference builder, except that records it dropped for `Fate` become
// states all the same (the fate's state slot is filled in either way).
template <bool states::RecordFate<Concrete>::*Fate>
struct KeepsDroppedBuilder : states::ReferenceBuilder {
  template <class D>
  static states::RawTable<D> run(std::span<const xcede::RawRecord<D>> records,
                                 const states::BuildConfig& cfg) {
    static_assert(std::is_same_v<D, Concrete>, "a concrete-only witness");
    states::RawTable<D> t = states::build_raw<D>(records, cfg);
    if (t.states.size() == 2 + t.fates.size()) {
      for (size_t i = 0; i < t.fates.size(); ++i) {
        t.states[2 + i].present = t.states[2 + i].present || t.fates[i].*Fate;
      }
    }
    return t;
  }
};

// ---- subjects -------------------------------------------------------------

struct LenientRecordSizeSubject : ReferenceSubject {
  static constexpr std::string_view name = "witness-lenient-record-size";
  using Decoder = LenientRecordSizeDecoder;
};

struct WrappingShortPayloadSubject : ReferenceSubject {
  static constexpr std::string_view name = "witness-wrapping-short-payload";
  using Decoder = WrappingShortPayloadDecoder;
};

struct HostOrderSizeSubject : ReferenceSubject {
  static constexpr std::string_view name = "witness-host-order-size";
  using Decoder = HostOrderSizeDecoder;
};

struct CapacityPlusOneSubject : ReferenceSubject {
  static constexpr std::string_view name = "witness-capacity-plus-one";
  using Decoder = CapacityPlusOneDecoder;
};

struct BooleanWakeSubject : ReferenceSubject {
  static constexpr std::string_view name = "witness-boolean-wake";
  using Decoder = BooleanWakeDecoder;
};

struct SilentTruncationSubject : ReferenceSubject {
  static constexpr std::string_view name = "witness-silent-truncation";
  using Decoder = SilentTruncationDecoder;
};

// Retries every non-zero RTAS status, hardware errors included, until the
// firmware answers success: a failed query then yields records (XCEDE-6).
struct RetryEverythingSubject : ReferenceSubject {
  static constexpr std::string_view name = "witness-retry-everything";
  static busy_delay::Request retry_everything(uint32_t status, busy_delay::ConcreteContext&) {
    return {status != xcede::kRtasSuccess, true, busy_delay::kNoSleep, 0, 0};
  }
  static constexpr xcede::RetryPolicy query_policy = &retry_everything;
};

// Exposes records that are shallower than the state before them (sorting
// neither): STATES-1 and STATES-2.
struct KeepsOutOfOrderSubject : ReferenceSubject {
  static constexpr std::string_view name = "witness-keeps-out-of-order";
  using Builder = KeepsDroppedBuilder<&states::RecordFate<Concrete>::out_of_order>;
};

// Exposes every eligible record, past CPUIDLE_STATE_MAX: STATES-5.
struct NoStateMaxSubject : ReferenceSubject {
  static constexpr std::string_view name = "witness-no-state-max";
  using Builder = KeepsDroppedBuilder<&states::RecordFate<Concrete>::no_room>;
};

// Exposes XCEDE1, which adds nothing over CEDE: STATES-7.
struct ExposesXcede1Subject : ReferenceSubject {
  static constexpr std::string_view name = "witness-exposes-xcede1";
  using Builder = KeepsDroppedBuilder<&states::RecordFate<Concrete>::blocked_xcede1>;
};

// Exposes records that do not wake on interrupts: STATES-7.
struct IgnoresWakeSubject : ReferenceSubject {
  static constexpr std::string_view name = "witness-ignores-wake";
  using Builder = KeepsDroppedBuilder<&states::RecordFate<Concrete>::not_responsive>;
};

}  // namespace idlespec::witness
