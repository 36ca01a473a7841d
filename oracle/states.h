// spec/states.md as an executable reading: what the cpuidle state table must
// contain for a set of XCEDE records and an LPAR, computed with arithmetic of
// its own (128-bit quotient and remainder), never with impl/states.h's
// templates (only its value types and the spec's constants, which impl/
// names); the STATES-6 fix-up table spelled out as data; and the judge of a
// built table. Every layer judges STATES-1..7 here: the properties and the
// fix-up sweep (properties/), the fuzz target and corpus replay
// (fuzz/states_fuzz), validate's states component.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "impl/platform.h"
#include "impl/states.h"
#include "impl/xcede.h"
#include "oracle/violation.h"

namespace idlespec::states::oracle {

using Violation = idlespec::oracle::Violation;
using Violations = idlespec::oracle::Violations;
using u128 = unsigned __int128;

// ceil(ticks * 10^6 / tb_hz), exactly ("Latency").
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

// STATES-4's snooze timeout in timebase ticks: CEDE's target residency times
// tb_ticks_per_usec, exactly (no wrap, no 32-bit product). What judge_table
// demands of a built table and validate's probe judge of the file's probe.
inline u128 snooze_timeout_ticks(u128 residency_us, uint64_t tb_hz) {
  return residency_us * tb_ticks_per_usec(tb_hz);
}

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

// CEDE's exact exit latency and target residency (STATES-4): 10/100 us,
// unless the fix-up applies (`fixup_gate`, on a dedicated LPAR) and finds a
// record latency cpuidle can hold: then that latency and ten times it.
struct CedeValues {
  u128 exit_us = kCedeExitLatencyUs;
  u128 residency_us = kCedeTargetResidencyUs;
};
CedeValues expected_cede(std::span<const xcede::Record> records, uint64_t tb_hz, bool dedicated,
                         bool fixup_gate);
// The fix-up's values from the records' latencies in us, however converted
// (validate's KD-1 takes the kernel's conversion for some records): the
// smallest non-zero latency cpuidle can hold and ten times it; 10/100 when
// none qualifies.
CedeValues cede_from_latencies(std::span<const u128> latency_us);

// STATES-1, 2, 3, 4, 5 and 7 for a table built from `records` on `options`.
// `fixup_gate` is whether the fix-up applies to this LPAR *by the subject's
// own gate* (STATES-6, judged by judge_fixup_gate, is kept apart so that the
// exact values of STATES-4 are judged for every subject).
void judge_table(const Options& options, std::span<const xcede::Record> records, const Table& table,
                 bool fixup_gate, Violations& out);

// STATES-6 for a table built from `records` on `options`: the CEDE(0) fix-up
// happened exactly where the spec's table says (and a record was usable),
// and CEDE holds the values that follow (expected_cede under the spec's gate).
std::optional<Violation> judge_fixup(const Options& options, std::span<const xcede::Record> records,
                                     const Table& table);

// "snooze 0/0, CEDE 10/100, XCEDE2 30/300 (TIMER_STOP)"
std::string show_table(const Table& t);

}  // namespace idlespec::states::oracle
