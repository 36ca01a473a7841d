// Writes the hand-made seeds of fuzz/corpus/busy_delay_fuzz/ (one file per
// seed, named seed-<what>), built with the checker's own input layout
// (busy_delay_fuzz::encode) so that the seeds follow it if it changes:
//
//   cmake --build BUILD --target busy_delay_fuzz_seeds
//   BUILD/busy_delay_fuzz_seeds fuzz/corpus/busy_delay_fuzz
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

#include "fuzz/busy_delay_input.h"

namespace {

namespace bf = idlespec::busy_delay_fuzz;
using bf::Config;
using bf::Form;
using bf::Run;
using Bytes = std::vector<uint8_t>;

constexpr uint32_t kBusy = 0xfffffffeu;  // -2
constexpr uint32_t kMinus1 = 0xffffffffu;
constexpr uint32_t kMinus3 = 0xfffffffdu;
constexpr uint32_t kMinus4 = 0xfffffffcu;

Config config(Form form, bool need_resched = false, uint32_t start_count = 0,
              bool little_endian = false) {
  return {form, need_resched, start_count, little_endian};
}

const Config kRef = config(Form::reference_usleep);
const Config kFsleep = config(Form::reference_fsleep);
const Config kEarly = config(Form::early);
const Config kLegacy = config(Form::legacy);

std::vector<uint32_t> expand(const std::vector<Run>& runs) {
  std::vector<uint32_t> out;
  for (const Run& r : runs) out.insert(out.end(), r.count, r.status);
  if (out.size() > bf::kMaxStatuses) out.resize(bf::kMaxStatuses);
  return out;
}

// Every status a literal token (op 0 + 4 bytes in the config's byte order),
// named or not: the seeds that exercise both byte orders.
Bytes literals(const Config& c, const std::vector<uint32_t>& statuses) {
  Bytes b = bf::encode(c, {});
  for (uint32_t s : statuses) {
    b.push_back(0);
    for (unsigned k = 0; k < 4; ++k) {
      b.push_back(static_cast<uint8_t>(s >> (c.little_endian ? 8 * k : 8 * (3 - k))));
    }
  }
  return b;
}

// `loops` times the runs of one loop.
std::vector<Run> repeated(const std::vector<Run>& loop, size_t loops) {
  std::vector<Run> out;
  for (size_t i = 0; i < loops; ++i) out.insert(out.end(), loop.begin(), loop.end());
  return out;
}

const std::vector<Run> kEveryClass = {{9900, 1}, {9901, 1}, {9902, 1},  {9903, 1},
                                      {9904, 1}, {9905, 1}, {kBusy, 1}, {0, 1}};

std::vector<std::pair<std::string, Bytes>> seeds() {
  std::vector<std::pair<std::string, Bytes>> out;
  auto add_bytes = [&](const std::string& name, const Config& c, const Bytes& bytes,
                       const std::vector<uint32_t>& want) {
    // The bytes must parse to exactly this config and these statuses.
    const bf::Input back = bf::parse_input(bytes);
    if (!(back.config == c) || back.statuses != want) {
      throw std::logic_error("seed-" + name + ": the bytes parse to " + bf::describe(back.config) +
                             "; " + bf::describe_statuses(back.statuses) + ", not " +
                             bf::describe(c) + "; " + bf::describe_statuses(want));
    }
    out.emplace_back("seed-" + name, bytes);
  };
  auto add = [&](const std::string& name, const Config& c, const std::vector<Run>& runs) {
    add_bytes(name, c, bf::encode(c, runs), expand(runs));
  };

  // Every status class, in one loop, for each form.
  add("success", kRef, {{0, 1}});
  add("every-class-usleep", kRef, kEveryClass);
  add("every-class-fsleep", kFsleep, kEveryClass);
  add("every-class-early", kEarly, kEveryClass);
  add("every-class-legacy", kLegacy, kEveryClass);
  // need_resched: legacy sleeps only then (9905: msleep(100000)); without it
  // legacy requests no sleep at all for an extended delay.
  add("every-class-need-resched", config(Form::reference_usleep, true), kEveryClass);
  add("every-class-legacy-need-resched", config(Form::legacy, true), kEveryClass);
  add("9905-need-resched", config(Form::reference_fsleep, true), {{9905, 1}, {0, 1}});
  add("9905-run-need-resched", config(Form::reference_usleep, true), {{9905, 2000}, {0, 1}});
  add("9904-run-idle", kRef, {{9904, 100}, {0, 1}});
  // Boundaries of the extended range and other final statuses, one loop each.
  add("boundaries", kRef,
      {{9899, 1},
       {9906, 1},
       {kMinus1, 1},
       {kMinus3, 1},
       {9900, 1},
       {9899, 1},
       {9905, 1},
       {9906, 1}});
  add("boundaries-early", kEarly,
      {{9900, 1},
       {9899, 1},
       {9905, 1},
       {9906, 1},
       {kBusy, 1},
       {kMinus1, 1},
       {9900, 3},
       {kMinus3, 1}});
  add("other-statuses", kFsleep,
      {{1, 1},
       {2, 1},
       {0x80000000u, 1},
       {0x7fffffffu, 1},
       {0xffffdcd8u, 1},
       {9898, 1},
       {9907, 1},
       {990, 1},
       {99000, 1},
       {0xac260000u, 1},
       {kMinus4, 1},
       {0, 1}});
  const std::vector<uint32_t> literal_statuses = {9900, 9901, 9902, 9903, 9904,        9905, kBusy,
                                                  9899, 9906, 9898, 9907, 0xac260000u, 0};
  const Config big = kRef;
  const Config little = config(Form::reference_usleep, false, 0, true);
  add_bytes("literals-big-endian", big, literals(big, literal_statuses), literal_statuses);
  add_bytes("literals-little-endian", little, literals(little, literal_statuses), literal_statuses);
  const Config little_early = config(Form::early, false, 0, true);
  add_bytes("literals-little-endian-early", little_early, literals(little_early, literal_statuses),
            literal_statuses);
  // Busy, then final.
  add("busy-then-final", kRef, {{kBusy, 50}, {0, 1}});
  add("busy-then-error", kFsleep, {{kBusy, 3}, {kMinus1, 1}});
  add("busy-extended-interleaved", kRef,
      {{kBusy, 1}, {9900, 1}, {kBusy, 1}, {9901, 1}, {kBusy, 2}, {9902, 1}, {0, 1}});
  add("busy-then-final-early", kEarly, {{kBusy, 50}, {0, 1}});
  // Early boot: long extended runs across the 1000/1001 boundary.
  add("early-1000-extended", kEarly, {{9900, 1000}, {0, 1}});
  add("early-1001-extended-twice", kEarly, {{9900, 1001}, {9900, 1001}, {0, 1}});
  add("early-1002-extended", kEarly, {{9901, 1002}, {0, 1}});
  add("early-busy-resets", kEarly, {{9900, 999}, {kBusy, 1}, {9900, 1000}, {9900, 1}, {0, 1}});
  add("early-final-resets", kEarly, {{9900, 500}, {0, 1}, {9900, 1001}, {0, 1}});
  add("early-mixed-extended-1001", kEarly, {{9900, 400}, {9903, 400}, {9905, 201}, {9900, 1}});
  add("early-start-1000", config(Form::early, false, 1000), {{9900, 2}, {0, 1}});
  add("early-start-999", config(Form::early, false, 999), {{9900, 3}});
  add("early-start-998", config(Form::early, true, 998), {{9905, 3}});
  add("early-start-500-busy", config(Form::early, false, 500), {{kBusy, 1}, {9902, 1001}});
  // DLPAR-shaped traces (seed 003): mostly busy, or mostly 9900/9901.
  const std::vector<Run> dlpar_busy = {{kBusy, 200}, {9900, 1}, {kBusy, 50}, {0, 1}};
  const std::vector<Run> dlpar_extended = {{9900, 20}, {9901, 5}, {kBusy, 1}, {9900, 10}, {0, 1}};
  add("dlpar-busy", kRef, repeated(dlpar_busy, 8));
  add("dlpar-busy-early", kEarly, repeated(dlpar_busy, 8));
  add("dlpar-extended", config(Form::reference_usleep, true), repeated(dlpar_extended, 10));
  add("dlpar-extended-fsleep", kFsleep, repeated(dlpar_extended, 10));
  add("dlpar-extended-early", kEarly, repeated(dlpar_extended, 40));
  // Edges of the layout: nothing, an incomplete literal, a repeat before any
  // status, more statuses than kMaxStatuses.
  add("empty", kRef, {});
  add("empty-early-start-1000", config(Form::early, false, 1000), {});
  Bytes incomplete = bf::encode(kRef, std::vector<Run>{{9900, 1}});
  incomplete.insert(incomplete.end(), {0x00, 0x00, 0x00, 0x26});
  add_bytes("incomplete-literal", kRef, incomplete, {9900});
  Bytes repeat_first = bf::encode(kRef, {});
  repeat_first.insert(repeat_first.end(), {0x01, 0xfe});
  const Bytes rest = bf::encode(kRef, std::vector<Run>{{0, 1}});
  repeat_first.insert(repeat_first.end(), rest.begin() + 1, rest.end());
  add_bytes("repeat-before-status", kRef, repeat_first, {0});
  add("over-max-statuses", kRef, {{9900, 5000}});
  add("over-max-statuses-early", kEarly, {{9900, 5000}});
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
