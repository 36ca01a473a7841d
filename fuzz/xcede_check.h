// The xcede_fuzz invariant checker: one fuzz input -> the spec clauses it
// breaks, for any subject of ReferenceSubject's shape (impl/subjects.h).
//
// Discharges XCEDE-1, 2, 4, 5 and STATES-1, 2, 3, 4, 5, 7 (spec/xcede.md,
// spec/states.md) for the inputs it is given: the libFuzzer target
// fuzz/xcede_fuzz.cc aborts on any violation, the replay binary and the
// `fuzz-replay xcede_fuzz` check run the stored corpus through it.
//
// Input layout (kConfigBytes leading bytes, missing ones read as 0; all-zero
// is the common case, a dedicated POWER10 LPAR with the default options):
//   byte 0  bits 0-1 processor (PVR):  POWER10, POWER9, POWER11, POWER8
//           bits 2-3 compat mode, same order, clamped to the processor
//           bit  4   shared-processor LPAR
//           bit  5   expose XCEDE states (--expose-xcede)
//   byte 1  bits 0-2 capacity: 16, 4, 1, 0, 10, 17, 32, 6553 (kMaxCapacity)
//           bits 3-5 tb_hz choice (kTbChoices)
//   then    the raw parameter-45 buffer, as RTAS would hand it over.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "impl/platform.h"
#include "impl/states.h"
#include "impl/xcede.h"

namespace idlespec::fuzz {

inline constexpr size_t kConfigBytes = 2;

inline constexpr Platform kPlatformChoices[] = {Platform::power10, Platform::power9,
                                                Platform::power11, Platform::power8};
inline constexpr uint32_t kCapacityChoices[] = {xcede::kDefaultCapacity, 4, 1, 0, 10, 17, 32,
                                                xcede::kMaxCapacity};
// Timebase frequencies: the POWER 512 MHz, degenerate low ones (1 Hz makes
// every tick a second), values that are not whole MHz, and the largest the
// spec models (states::kMaxTbHz, 2^42 Hz: above it the u64 snooze timeout
// could wrap, so the table builder refuses such inputs).
inline constexpr uint64_t kTbChoices[] = {
    states::kDefaultTbHz, 1, 7, 999999, 1000000, 1000000000, 0xffffffffull, states::kMaxTbHz};

struct FuzzConfig {
  Lpar lpar;
  bool expose_xcede = false;
  uint32_t capacity = xcede::kDefaultCapacity;
  uint64_t tb_hz = states::kDefaultTbHz;
};

struct FuzzInput {
  FuzzConfig config;
  std::span<const uint8_t> buffer;  // the parameter buffer (data past the config bytes)
};

FuzzInput split_input(std::span<const uint8_t> data);

// The config bytes that select `config` (inverse of split_input; the seed
// generator and tests build inputs with it).
std::vector<uint8_t> config_bytes(const FuzzConfig& config);

// "POWER10 in POWER9 mode, dedicated, expose off, capacity 16, tb 512000000 Hz"
std::string describe(const FuzzConfig& config);

struct Violation {
  std::string clause;  // e.g. "XCEDE-1"
  std::string message;
};
using Violations = std::vector<Violation>;

// A byte source for decode_raw() that serves in-range reads from the buffer
// and records, instead of performing, every read outside it (XCEDE-1). A read
// whose guard is false is no read at all, as in the production source.
class CheckedSource {
 public:
  explicit CheckedSource(std::span<const uint8_t> bytes) : bytes_(bytes) {}

  Word<32> length() const {
    return Word<32>(bytes_.size() > 0xffffffffu ? 0xffffffffu : uint32_t(bytes_.size()));
  }
  Word<8> read(bool guard, Word<32> offset) {
    if (!guard) return Word<8>(0);
    if (offset.v >= bytes_.size()) {
      if (out_of_range_ == 0) first_out_of_range_ = offset.v;
      ++out_of_range_;
      return Word<8>(0);
    }
    return Word<8>(bytes_[offset.v]);
  }

  uint64_t out_of_range_reads() const { return out_of_range_; }
  uint32_t first_out_of_range() const { return first_out_of_range_; }

 private:
  std::span<const uint8_t> bytes_;
  uint64_t out_of_range_ = 0;
  uint32_t first_out_of_range_ = 0;
};

// The subject-independent halves of the check, against an oracle computed
// from the bytes (never from decode_raw or build_raw): the decoder's output
// for `in.buffer`, then the table built from the decoded records.
// `fixup_gate` is the subject's own CEDE(0) gate (STATES-6 is not checked here).
void check_decoded(const FuzzInput& in, const xcede::Decoded& decoded, Violations& out);
void check_table(const FuzzInput& in, std::span<const xcede::Record> records,
                 const states::Table& table, bool fixup_gate, Violations& out);

// Every violation `Subject` commits on one fuzz input; empty when none.
template <class Subject>
Violations check_xcede_input(std::span<const uint8_t> data) {
  Violations out;
  const FuzzInput in = split_input(data);

  // XCEDE-1 first, through the checked source: a decoder that asks for a byte
  // outside the buffer is not run on the real buffer at all.
  CheckedSource src(in.buffer);
  Subject::Decoder::template run<Concrete>(src, in.config.capacity,
                                           [](uint32_t, const xcede::RawRecord<Concrete>&) {});
  if (src.out_of_range_reads() != 0) {
    out.push_back({"XCEDE-1", "decoder read " + std::to_string(src.out_of_range_reads()) +
                                  " byte(s) outside the " + std::to_string(in.buffer.size()) +
                                  "-byte buffer, first at offset " +
                                  std::to_string(src.first_out_of_range())});
    return out;
  }

  const xcede::Decoded decoded =
      xcede::decode_using<typename Subject::Decoder>(in.buffer, in.config.capacity);
  check_decoded(in, decoded, out);

  states::Options options;
  options.lpar = in.config.lpar;
  options.tb_hz = in.config.tb_hz;
  options.expose_xcede = in.config.expose_xcede;
  const states::Table table =
      states::build_using<typename Subject::Builder>(decoded.records, options);
  check_table(in, decoded.records, table, Subject::Builder::fixup_applies(in.config.lpar), out);
  return out;
}

std::string hex(std::span<const uint8_t> bytes);

// Prints what a reviewer needs (target, config, every violation, the input
// in hex) to stderr and aborts, so that libFuzzer saves the input.
[[noreturn]] void report_and_abort(const char* target, std::span<const uint8_t> data,
                                   const Violations& violations);

}  // namespace idlespec::fuzz
