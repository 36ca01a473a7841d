// RapidCheck generators for the state table (spec/states.md): LPAR
// configurations (platform x compatibility mode <= processor x shared x
// expose), timebase frequencies, and record lists the way firmware writes
// them (ordered ladders, POWER9/POWER10-like tables, zero placeholders,
// out-of-order and arbitrary records).
#pragma once

#include <rapidcheck.h>

#include <cstdint>
#include <ostream>
#include <vector>

#include "impl/platform.h"
#include "impl/states.h"
#include "impl/xcede.h"

namespace idlespec::props {

// Everything build() takes.
struct TableInput {
  std::vector<xcede::Record> records;
  Lpar lpar;
  bool expose_xcede = false;
  uint64_t tb_hz = states::kDefaultTbHz;

  states::Options options() const { return states::Options{lpar, tb_hz, expose_xcede}; }
};

void showValue(const TableInput& in, std::ostream& os);

namespace gen {

// Any processor, any compatibility mode up to it, shared or dedicated.
rc::Gen<Lpar> lpar();
// The fastest timebase generated. Beyond about 4.3 * 10^15 Hz the snooze
// timeout (a u32 residency times ticks per us) no longer fits 64 bits and the
// reference wraps it (e.g. tb 2^63 Hz, one record of 2^64 - 1 ticks on a
// dedicated POWER10): a STATES-4 finding for timebases no POWER has, left to
// the spec (domain of --tb-freq) rather than hidden in a generator default.
inline constexpr uint64_t kFastestTbHz = uint64_t{1} << 42;

// 512 MHz (every POWER since POWER6) most often; also 1 MHz, 1 GHz, odd
// frequencies and anything from 1 Hz to kFastestTbHz.
rc::Gen<uint64_t> tb_hz();
// 0..16 records: arbitrary, an ordered ladder of 6..16 waking states,
// POWER9/POWER10-like tables, or ordered records with one moved out of place.
rc::Gen<std::vector<xcede::Record>> firmware_records();
// Records, LPAR, expose (on more often than not) and timebase.
rc::Gen<TableInput> table_input();
// A table input whose records include one with a usable non-zero latency
// (the fix-up has something to set CEDE to).
rc::Gen<TableInput> probing_input();

}  // namespace gen
}  // namespace idlespec::props
