// The pseries cpuidle state table, built from the decoded XCEDE records.
//
// Dedicated LPAR: snooze (polling) and CEDE (hint 0). Shared LPAR: snooze and
// "Shared Cede". On a dedicated LPAR with ISA 3.1 or a POWER10 PVR (STATES-6)
// CEDE's exit latency becomes the smallest non-zero XCEDE latency and its
// target residency ten times that: firmware does not advertise CEDE(0), but
// PAPR lists the hints in increasing latency, so CEDE(0) wakes no slower than
// the fastest extended state. Optionally (off by default, as upstream) the
// records that wake on interrupts are exposed as XCEDE<hint> states.
//
// build_raw() is written once over a value domain D (impl/domain.h), like
// xcede::decode_raw(); build() is the concrete front end.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "impl/domain.h"
#include "impl/platform.h"
#include "impl/xcede.h"

namespace idlespec::states {

inline constexpr uint32_t kCpuidleStateMax = 10;  // CPUIDLE_STATE_MAX
inline constexpr uint32_t kCedeExitLatencyUs = 10;
inline constexpr uint32_t kCedeTargetResidencyUs = 100;
inline constexpr uint32_t kResidencyFactor = 10;   // reside at least 10x the exit latency
inline constexpr uint32_t kTimerStopExtraUs = 10;  // IPI from the timer-offload CPU
inline constexpr uint8_t kXcede1Hint = 1;          // same hardware state as CEDE(0)
inline constexpr uint64_t kDefaultTbHz = 512000000;
// The timebase frequencies idlespec models: 1 Hz .. 2^42 Hz (POWER's is 512
// MHz). Above 2^42 the kernel's u64 snooze timeout, residency x ticks per us,
// could wrap (2^32 us x 2^42 / 10^6 ticks/us nears 2^64): inputs there are
// refused, not computed (STATES-4).
inline constexpr uint64_t kMinTbHz = 1;
inline constexpr uint64_t kMaxTbHz = uint64_t{1} << 42;
// The largest latency whose target residency (10x) fits cpuidle's unsigned int.
inline constexpr uint64_t kMaxLatencyUs = 0xffffffffull / kResidencyFactor;

enum class Kind : uint8_t { snooze, cede, shared_cede, xcede };

struct BuildConfig {
  bool dedicated = true;
  bool fixup = true;  // cede0_fixup_applies(lpar), decided by the caller
  bool expose_xcede = false;
  uint64_t tb_hz = kDefaultTbHz;  // kMinTbHz..kMaxTbHz
};

template <class D>
struct RawState {
  Kind kind = Kind::snooze;
  typename D::Bool present;
  typename D::template U<32> exit_latency_us;
  typename D::template U<32> target_residency_us;
  typename D::Bool polling;
  typename D::Bool timer_stop;
  typename D::template U<8> hint;
};

// What became of one XCEDE record.
template <class D>
struct RecordFate {
  typename D::template U<128> latency_us;  // exact, rounded up
  typename D::Bool zero_latency;           // skipped by the fix-up
  typename D::Bool too_large;              // refused: would not fit cpuidle's u32 (x10)
  typename D::Bool not_responsive;         // expose: does not wake on interrupts
  typename D::Bool blocked_xcede1;         // expose: adds nothing over CEDE
  typename D::Bool out_of_order;           // expose: shallower than the state before it
  typename D::Bool no_room;                // expose: CPUIDLE_STATE_MAX reached
};

template <class D>
struct RawTable {
  std::vector<RawState<D>> states;  // snooze, CEDE, then one slot per record
  std::vector<RecordFate<D>> fates;
  typename D::Bool fixed_up;
  typename D::template U<64> snooze_timeout_ticks;
};

// Latency in microseconds = ceil(ticks * 10^6 / tb_hz), computed exactly in
// 128 bits (ticks * 10^6 < 2^84, so nothing wraps).
template <class D>
typename D::template U<128> exact_latency_us(typename D::template U<64> ticks, uint64_t tb_hz) {
  const auto scaled = D::template zext<128>(ticks) * D::template lit<128>(1000000);
  return D::udiv(scaled + D::template lit<128>(tb_hz - 1), D::template lit<128>(tb_hz));
}

template <class D>
struct CedeLatency {
  typename D::Bool fixed_up;
  typename D::template U<32> exit_latency_us;
  typename D::template U<32> target_residency_us;
};

// The reference CEDE(0) fix-up: the smallest non-zero latency among the
// records, refusing latencies that would not fit; the defaults when there is
// none. No subtraction, so nothing can wrap (STATES-4).
struct ExactMinFixup {
  template <class D>
  static CedeLatency<D> compute(std::span<const xcede::RawRecord<D>> records,
                                std::span<const RecordFate<D>> fates) {
    auto found = D::truth(false);
    auto min_us = D::template lit<128>(0);
    for (size_t i = 0; i < records.size(); ++i) {
      const auto usable = records[i].present && !fates[i].zero_latency && !fates[i].too_large;
      const auto better = usable && (!found || fates[i].latency_us < min_us);
      min_us = D::ite(better, fates[i].latency_us, min_us);
      found = found || usable;
    }
    return {found,
            D::ite(found, D::template trunc<32>(min_us), D::template lit<32>(kCedeExitLatencyUs)),
            D::ite(found, D::template trunc<32>(min_us * D::template lit<128>(kResidencyFactor)),
                   D::template lit<32>(kCedeTargetResidencyUs))};
  }
};

// The table for records whose latencies, in microseconds, are already known
// (latency_us[i] for records[i]). build_raw() below converts and calls this;
// proofs call it directly with arbitrary latencies, which covers every value
// the conversion can produce (and more).
template <class D, class Fixup = ExactMinFixup>
RawTable<D> build_from_latencies(std::span<const xcede::RawRecord<D>> records,
                                 std::span<const typename D::template U<128>> latency_us,
                                 const BuildConfig& cfg) {
  using U32 = typename D::template U<32>;
  using U128 = typename D::template U<128>;
  const auto T = D::truth(true);
  const auto F = D::truth(false);
  RawTable<D> t{};
  t.fixed_up = F;

  for (size_t i = 0; i < records.size(); ++i) {
    const auto& r = records[i];
    RecordFate<D> f{};
    f.latency_us = latency_us[i];
    f.zero_latency = r.present && f.latency_us == D::template lit<128>(0);
    f.too_large = r.present && f.latency_us > D::template lit<128>(kMaxLatencyUs);
    f.not_responsive = f.blocked_xcede1 = f.out_of_order = f.no_room = F;
    t.fates.push_back(f);
  }

  t.states.push_back({Kind::snooze, T, D::template lit<32>(0), D::template lit<32>(0), T, F,
                      D::template lit<8>(0)});
  RawState<D> cede{cfg.dedicated ? Kind::cede : Kind::shared_cede,
                   T,
                   D::template lit<32>(kCedeExitLatencyUs),
                   D::template lit<32>(kCedeTargetResidencyUs),
                   F,
                   F,
                   D::template lit<8>(0)};
  if (cfg.dedicated && cfg.fixup) {
    const CedeLatency<D> c = Fixup::template compute<D>(records, t.fates);
    t.fixed_up = c.fixed_up;
    cede.exit_latency_us = c.exit_latency_us;
    cede.target_residency_us = c.target_residency_us;
  }
  t.states.push_back(cede);

  if (cfg.dedicated && cfg.expose_xcede) {
    // A record becomes a state only if it is at least as deep as the state
    // before it (STATES-1/2) and there is room (STATES-5); see spec/states.md
    // for why out-of-order records are dropped rather than sorted.
    U32 last_exit = cede.exit_latency_us;
    U32 last_residency = cede.target_residency_us;
    U32 n = D::template lit<32>(2);
    for (size_t i = 0; i < records.size(); ++i) {
      const auto& r = records[i];
      auto& f = t.fates[i];
      const auto deep = r.hint > D::template lit<8>(0);
      const U128 exit128 = f.latency_us + D::ite(deep, D::template lit<128>(kTimerStopExtraUs),
                                                 D::template lit<128>(0));
      const auto fits = exit128 <= D::template lit<128>(kMaxLatencyUs);
      f.not_responsive = r.present && r.wake_on_irqs == D::template lit<8>(0);
      f.blocked_xcede1 =
          r.present && !f.not_responsive && r.hint == D::template lit<8>(kXcede1Hint);
      const auto eligible = r.present && !f.not_responsive && !f.blocked_xcede1 && fits;
      const U32 exit = D::template trunc<32>(exit128);
      const U32 residency = D::template trunc<32>(exit128 * D::template lit<128>(kResidencyFactor));
      const auto in_order = exit >= last_exit && residency >= last_residency;
      const auto room = n < D::template lit<32>(kCpuidleStateMax);
      f.out_of_order = eligible && !in_order;
      f.no_room = eligible && in_order && !room;
      const auto keep = eligible && in_order && room;
      t.states.push_back({Kind::xcede, keep, exit, residency, F, deep, r.hint});
      last_exit = D::ite(keep, exit, last_exit);
      last_residency = D::ite(keep, residency, last_residency);
      n = n + D::ite(keep, D::template lit<32>(1), D::template lit<32>(0));
    }
  }

  // snooze_timeout = CEDE target residency in timebase ticks.
  t.snooze_timeout_ticks =
      D::template zext<64>(cede.target_residency_us) * D::template lit<64>(cfg.tb_hz / 1000000);
  return t;
}

template <class D, class Fixup = ExactMinFixup>
RawTable<D> build_raw(std::span<const xcede::RawRecord<D>> records, const BuildConfig& cfg) {
  std::vector<typename D::template U<128>> latency_us;
  latency_us.reserve(records.size());
  for (const auto& r : records)
    latency_us.push_back(exact_latency_us<D>(r.latency_ticks, cfg.tb_hz));
  return build_from_latencies<D, Fixup>(
      records, std::span<const typename D::template U<128>>(latency_us), cfg);
}

// ---- Concrete front end -------------------------------------------------

struct State {
  std::string name;
  uint32_t exit_latency_us = 0;
  uint32_t target_residency_us = 0;
  bool polling = false;
  bool timer_stop = false;
  uint8_t cede_hint = 0;
  friend bool operator==(const State&, const State&) = default;
};

struct Options {
  Lpar lpar;
  uint64_t tb_hz = kDefaultTbHz;
  bool expose_xcede = false;
};

struct Table {
  std::vector<State> states;
  bool cede0_fixup_gated_in = false;  // STATES-6 said yes for this LPAR
  bool cede0_fixed_up = false;        // and a usable record changed CEDE
  uint64_t snooze_timeout_ticks = 0;
  std::vector<std::string> notes;  // what the kernel would print, in order
};

// The reference builder and fix-up gate, as a type that build_using() and the
// checks take.
struct ReferenceBuilder {
  template <class D>
  static RawTable<D> run(std::span<const xcede::RawRecord<D>> records, const BuildConfig& cfg) {
    return build_raw<D>(records, cfg);
  }
  static bool fixup_applies(const Lpar& lpar) { return cede0_fixup_applies(lpar); }
};

template <class Builder>
Table build_using(std::span<const xcede::Record> records, const Options& options);

// Builds the table from the records the query returned; `records` is empty
// when the query failed (XCEDE-6: no fix-up then). Throws std::domain_error
// for a tb_hz outside kMinTbHz..kMaxTbHz.
Table build(std::span<const xcede::Record> records, const Options& options);

// The table as `cpupower idle-info` lists it.
std::vector<std::string> idle_info_lines(const Table& table);

}  // namespace idlespec::states

#include "impl/states_frontend.h"
