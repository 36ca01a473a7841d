// Writes the hand-made seeds of fuzz/corpus/xcede_fuzz/ (one file per seed,
// named seed-<what>), built with the checker's own input layout
// (fuzz::config_bytes) so that the seeds follow it if it changes:
//
//   cmake --build BUILD --target xcede_fuzz_seeds
//   BUILD/xcede_fuzz_seeds fuzz/corpus/xcede_fuzz
//
// The campaign finds (sha1-named files) are kept beside them after a
// `-merge=1` (scripts/fuzz.sh says how).
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "fuzz/xcede_input.h"
#include "impl/xcede.h"

namespace {

using idlespec::Platform;
using idlespec::fuzz::FuzzConfig;
using idlespec::xcede::Record;
using Bytes = std::vector<uint8_t>;

constexpr uint64_t kTicksPerUs = 512;  // at the default 512 MHz timebase

FuzzConfig lpar(Platform processor, Platform compat, bool shared = false, bool expose = false) {
  FuzzConfig c;
  c.lpar.processor = processor;
  c.lpar.compat = compat;
  c.lpar.shared_processor = shared;
  c.expose_xcede = expose;
  return c;
}

const FuzzConfig kP10 = lpar(Platform::power10, Platform::power10);
const FuzzConfig kP10Expose = lpar(Platform::power10, Platform::power10, false, true);
const FuzzConfig kP9 = lpar(Platform::power9, Platform::power9);

Bytes payload(const std::vector<Record>& records) { return idlespec::xcede::encode(records); }

// A payload whose header says `payload_size` and whose body is `body`.
Bytes raw(uint16_t payload_size, uint8_t record_size_byte, Bytes body = {}) {
  Bytes b{static_cast<uint8_t>(payload_size >> 8), static_cast<uint8_t>(payload_size),
          record_size_byte};
  b.insert(b.end(), body.begin(), body.end());
  return b;
}

// The POWER9 example from seed 000 (the 2020 RFC): XCEDE1 at 0x400 ticks
// (2 us) waking on interrupts, XCEDE2 at 0x3e8000 ticks (8 ms) not waking.
const std::vector<Record> kPower9MailingList = {{1, 0x400, 1}, {2, 0x3e8000, 0}};
// Illustrative POWER10-like values (not firmware data): three deepening
// hints, the deepest not waking on interrupts.
const std::vector<Record> kPower10Like = {
    {1, 4 * kTicksPerUs, 1}, {2, 200 * kTicksPerUs, 1}, {3, 1000 * kTicksPerUs, 0}};

std::vector<Record> increasing(size_t n) {
  std::vector<Record> r;
  for (size_t i = 0; i < n; ++i) {
    r.push_back({static_cast<uint8_t>(i + 2), (i + 1) * 50 * kTicksPerUs, 1});
  }
  return r;
}

std::vector<std::pair<std::string, Bytes>> seeds() {
  using idlespec::fuzz::config_bytes;
  std::vector<std::pair<std::string, Bytes>> out;
  auto add = [&](const std::string& name, const FuzzConfig& c, const Bytes& buffer) {
    Bytes b = config_bytes(c);
    // The bytes must select exactly this config (the layout and config_bytes agree).
    const FuzzConfig back = idlespec::fuzz::split_input(b).config;
    if (back.lpar.processor != c.lpar.processor || back.lpar.compat != c.lpar.compat ||
        back.lpar.shared_processor != c.lpar.shared_processor ||
        back.expose_xcede != c.expose_xcede || back.capacity != c.capacity ||
        back.tb_hz != c.tb_hz) {
      throw std::logic_error("seed-" + name + ": no config bytes select " +
                             idlespec::fuzz::describe(c));
    }
    b.insert(b.end(), buffer.begin(), buffer.end());
    out.emplace_back("seed-" + name, std::move(b));
  };
  // Platforms and options over the mailing-list records.
  add("power9-mailing-list", kP9, payload(kPower9MailingList));
  add("power9-mailing-list-expose", lpar(Platform::power9, Platform::power9, false, true),
      payload(kPower9MailingList));
  add("power10-in-power9-mode", lpar(Platform::power10, Platform::power9),
      payload(kPower9MailingList));
  add("power11-in-power9-mode", lpar(Platform::power11, Platform::power9),
      payload(kPower9MailingList));
  add("power8", lpar(Platform::power8, Platform::power8), payload(kPower9MailingList));
  add("power10-like", kP10, payload(kPower10Like));
  add("power10-like-expose", kP10Expose, payload(kPower10Like));
  add("power10-shared-lpar", lpar(Platform::power10, Platform::power10, true, true),
      payload(kPower10Like));
  // Latencies: zero (a firmware placeholder), out of order, huge, boundaries.
  add("zero-latencies", kP10Expose, payload({{1, 0, 1}, {2, 0, 1}}));
  add("zero-then-three-us", kP10, payload({{1, 0, 1}, {2, 3 * kTicksPerUs, 1}}));
  add("out-of-order-expose", kP10Expose,
      payload({{2, 100 * kTicksPerUs, 1}, {3, 10 * kTicksPerUs, 1}, {4, 500 * kTicksPerUs, 1}}));
  add("huge-latency", kP10Expose, payload({{2, ~0ull, 1}, {3, ~0ull, 1}}));
  const uint64_t max_fit = idlespec::states::kMaxLatencyUs * kTicksPerUs;  // 10x still fits
  add("latency-at-u32-limit", kP10Expose, payload({{0, max_fit, 1}, {2, max_fit - 1, 1}}));
  add("latency-over-u32-limit", kP10Expose, payload({{0, max_fit + 1, 1}}));
  add("ticks-not-whole-us", kP10Expose, payload({{2, 513, 1}, {3, 1025, 1}}));
  // Record counts: the kernel's 16, one too many, more states than cpuidle has.
  add("16-records", kP10Expose, payload(increasing(16)));
  add("17-records", kP10Expose, payload(increasing(17)));
  FuzzConfig rfc = kP10Expose;
  rfc.capacity = 4;  // the 2020 RFC's buffer
  add("rfc-capacity-4-5-records", rfc, payload(increasing(5)));
  FuzzConfig no_capacity = kP10;
  no_capacity.capacity = 0;
  add("capacity-0", no_capacity, payload(increasing(1)));
  FuzzConfig big = kP10Expose;
  big.capacity = idlespec::xcede::kMaxCapacity;
  add("capacity-max-20-records", big, payload(increasing(20)));
  // Timebases.
  FuzzConfig one_hz = kP10Expose;
  one_hz.tb_hz = 1;
  add("tb-1hz", one_hz, payload({{2, 1, 1}, {3, 4294, 1}}));
  FuzzConfig odd_tb = kP10Expose;
  odd_tb.tb_hz = 999999;
  add("tb-999999hz", odd_tb, payload({{2, 999999, 1}, {3, 1000000, 1}}));
  // Malformed buffers.
  add("empty-buffer", kP10, {});
  add("one-byte-buffer", kP10, {0x00});
  add("two-byte-buffer", kP10, {0x00, 0x0c});
  add("header-only", kP10, raw(0x000c, 9));
  add("bad-record-size-10", kP10, raw(0x000c, 10, payload({{1, 0x400, 1}})));
  add("bad-record-size-0-short-payload", kP10, raw(0x0000, 0));
  add("bad-record-size-ff", kP10, raw(0xffff, 0xff));
  add("payload-size-0", kP10, raw(0x0000, 9, {0x00}));
  add("payload-size-1", kP10, raw(0x0001, 9, {0x00}));
  add("payload-size-2-no-records", kP10, raw(0x0002, 9, {0x00}));
  add("payload-size-ffff-short-buffer", kP10, raw(0xffff, 9, {1, 0, 0, 0, 0, 0, 0, 4, 0, 1}));
  Bytes truncated = payload(increasing(4));
  truncated.resize(3 + 25);  // two and a half of the four records it declares
  add("truncated", kP10Expose, truncated);
  Bytes partial = payload(increasing(2));
  partial[1] += 3;  // payload_size 25: two records and 3 stray bytes
  partial.insert(partial.end() - 1, {0, 0, 0});
  add("partial-record", kP10, partial);
  Bytes no_nul = payload(kPower9MailingList);
  no_nul.pop_back();
  add("nul-missing", kP10, no_nul);
  Bytes bad_nul = payload(kPower9MailingList);
  bad_nul.back() = 0x2a;
  add("nul-not-zero", kP10, bad_nul);
  Bytes trailing = payload(kPower9MailingList);
  trailing.insert(trailing.end(), {0xde, 0xad, 0xbe, 0xef});
  add("trailing-bytes", kP10, trailing);
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s OUTPUT_DIR\n", argv[0]);
    return 2;
  }
  const std::filesystem::path dir(argv[1]);
  std::filesystem::create_directories(dir);
  size_t n = 0;
  for (const auto& [name, bytes] : seeds()) {
    std::ofstream f(dir / name, std::ios::binary | std::ios::trunc);
    f.write(reinterpret_cast<const char*>(bytes.data()),
            static_cast<std::streamsize>(bytes.size()));
    if (!f) {
      std::fprintf(stderr, "cannot write %s\n", (dir / name).c_str());
      return 1;
    }
    ++n;
  }
  std::printf("wrote %zu seeds to %s\n", n, dir.c_str());
  return 0;
}
