// What the state table must contain, from spec/states.md, computed with
// arithmetic of its own (128-bit quotient and remainder, no rounding-up
// addend), independent of impl/states.h's templates; and the STATES-6 fix-up
// table spelled out as data.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

#include "impl/platform.h"
#include "impl/xcede.h"

namespace idlespec::props {

using u128 = unsigned __int128;

// ceil(ticks * 10^6 / tb_hz), exactly.
u128 exact_us(uint64_t ticks, uint64_t tb_hz);

// cpuidle keeps microseconds in an unsigned int, and the target residency is
// ten times the exit latency: the largest latency it can hold.
inline constexpr u128 kLargestKeptUs = 0xffffffffu / 10;

// The smallest non-zero record latency that cpuidle can hold: what the CEDE(0)
// fix-up sets CEDE's exit latency to. None when no record qualifies.
std::optional<uint64_t> cede0_latency_us(std::span<const xcede::Record> records, uint64_t tb_hz);

// The kernel's tb_ticks_per_usec (ppc_tb_freq / 1000000, an integer): the
// snooze timeout is CEDE's target residency times this.
inline uint64_t tb_ticks_per_usec(uint64_t tb_hz) { return tb_hz / 1000000; }

// STATES-6 as spec/states.md states it, one row per processor and
// compatibility mode: does a *dedicated* LPAR get the CEDE(0) fix-up? A
// shared LPAR never does.
struct FixupGateRow {
  Platform processor;
  Platform compat;
  bool dedicated_fixed_up;
  std::string_view why;
};

inline constexpr FixupGateRow kSpecFixupGate[] = {
    {Platform::power8, Platform::power8, false, "POWER9 and older never"},
    {Platform::power9, Platform::power8, false, "POWER9 and older never"},
    {Platform::power9, Platform::power9, false, "POWER9 and older never"},
    {Platform::power10, Platform::power8, true, "a POWER10 PVR, whatever the mode"},
    {Platform::power10, Platform::power9, true, "a POWER10 in POWER9 mode gets it"},
    {Platform::power10, Platform::power10, true, "a POWER10 PVR, whatever the mode"},
    {Platform::power11, Platform::power8, false, "POWER11 below POWER10 mode: no ISA 3.1"},
    {Platform::power11, Platform::power9, false, "a POWER11 in POWER9 mode does not"},
    {Platform::power11, Platform::power10, true, "ISA 3.1 (POWER10 mode)"},
    {Platform::power11, Platform::power11, true, "ISA 3.1 (POWER11 mode)"},
};

// The row for an LPAR's processor and mode; null when the table lacks it.
const FixupGateRow* spec_fixup_row(const Lpar& lpar);
// Whether the spec says this LPAR gets the fix-up (false when the table lacks it).
bool spec_fixup_expected(const Lpar& lpar);

}  // namespace idlespec::props
