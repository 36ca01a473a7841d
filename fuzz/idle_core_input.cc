// The idle_core_fuzz input layout and reports (fuzz/idle_core_input.h); the
// judging is the oracle's (oracle/idle_core.h).
#include "fuzz/idle_core_input.h"

#include <cstdio>
#include <cstdlib>
#include <stdexcept>

#include "impl/text.h"

namespace idlespec::idle_core_fuzz {
namespace {

unsigned kind_selector(Kind k) {
  switch (k) {
    case Kind::p8_nap:
    case Kind::p9_shallow:
      return 0;
    case Kind::p8_sleep:
    case Kind::p9_deep:
      return 1;
    default:
      return 2;
  }
}

}  // namespace

const std::array<Config, 16>& configurations() {
  static const std::array<Config, 16> table = {
      Config::of(Platform::power8, 1),
      Config::of(Platform::power8, 2),
      Config::of(Platform::power8, 4),
      Config::of(Platform::power8, 8),
      Config::of(Platform::power8, 2, 2),
      Config::of(Platform::power8, 4, 2),
      Config::of(Platform::power8, 4, 4),
      Config::of(Platform::power8, 8, 2),
      Config::of(Platform::power8, 8, 4),
      Config::of(Platform::power9, 1),
      Config::of(Platform::power9, 2),
      Config::of(Platform::power9, 4),
      // the common shapes again, so that mutations land on them more often
      Config::of(Platform::power8, 2),
      Config::of(Platform::power8, 4),
      Config::of(Platform::power9, 2),
      Config::of(Platform::power8, 4, 2),
  };
  return table;
}

Input parse_input(std::span<const uint8_t> data) {
  Input in;
  const uint8_t b0 = data.empty() ? 0 : data[0];
  in.config = configurations()[b0 & 15];
  if (!in.config.power9() && (b0 & 0x10)) in.config.fastsleep_workaround = false;
  if (data.size() > 1) in.ops.assign(data.begin() + 1, data.end());
  return in;
}

uint8_t config_byte(const Config& c) {
  const auto& table = configurations();
  for (size_t i = 0; i < table.size(); ++i) {
    const Config& x = table[i];
    if (x.platform == c.platform && x.threads == c.threads && x.subcores == c.subcores) {
      const bool off = !c.power9() && !c.fastsleep_workaround;
      return static_cast<uint8_t>(i | (off ? 0x10 : 0));
    }
  }
  throw std::invalid_argument("idle_core_fuzz has no configuration " + c.describe());
}

uint8_t op_begin(unsigned t, Kind k, bool run) {
  return static_cast<uint8_t>((t & 7) | kind_selector(k) << 3 | (run ? 0x80 : 0));
}
uint8_t op_wake(unsigned t, bool run) { return static_cast<uint8_t>((t & 7) | (run ? 0x80 : 0)); }
uint8_t op_step(unsigned t, unsigned steps) {
  if (steps < 1 || steps > 4) throw std::invalid_argument("op_step: 1..4 steps");
  return static_cast<uint8_t>((t & 7) | (steps - 1) << 5);
}
uint8_t op_run(unsigned t) { return static_cast<uint8_t>((t & 7) | 0x80); }

Outcome check_fuzz_input(std::span<const uint8_t> data, Rows rows) {
  return run<idle_core::Reference>(parse_input(data), rows);
}

std::string describe(const Input& in) {
  return strprintf("%s; %zu ops", in.config.describe().c_str(), in.ops.size());
}

std::string timeline(const Config& c, const Outcome& out, size_t max_rows) {
  return idle_core::oracle::render_timeline(
      c, out.rows, out.violation_move, out.ok() ? "" : out.verdict.clause + " violated", max_rows);
}

void report_and_abort(const char* target, std::span<const uint8_t> data, const Outcome& counted) {
  const Input in = parse_input(data);
  const Outcome out = counted.rows.size() == counted.moves ? counted : run(in, Rows::kept);
  std::fprintf(stderr, "==%s== %s violated: %s\n", target, out.verdict.clause.c_str(),
               out.verdict.message.c_str());
  std::fprintf(stderr, "==%s== config: %s (%zu moves, %zu loss ops skipped)\n", target,
               describe(in).c_str(), out.moves, out.skipped);
  std::fprintf(stderr, "==%s== input (%zu bytes): %s\n", target, data.size(), hex(data).c_str());
  std::fprintf(stderr, "==%s== timeline:\n%s", target, timeline(in.config, out).c_str());
  std::fflush(stderr);
  std::abort();
}

}  // namespace idlespec::idle_core_fuzz
