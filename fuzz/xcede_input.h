// The input layout of xcede_fuzz and states_fuzz (one layout, two targets:
// the decoder's clauses and the table's), and the drivers that run a subject
// of ReferenceSubject's shape (impl/subjects.h) on one input and judge it
// through the oracle (oracle/xcede.h, oracle/states.h).
//
// xcede_fuzz judges XCEDE-1..5 (spec/xcede.md), states_fuzz STATES-1, 2, 3,
// 4, 5 and 7 (spec/states.md; STATES-6 is the fix-up sweep's): the libFuzzer
// targets abort on any violation, the replay binaries and the `fuzz-replay
// xcede_fuzz` / `fuzz-replay states_fuzz` checks run the stored corpora.
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

#include "fuzz/judging.h"
#include "impl/platform.h"
#include "impl/states.h"
#include "impl/xcede.h"
#include "oracle/states.h"
#include "oracle/xcede.h"

namespace idlespec::fuzz {

using oracle::Violation;
using oracle::Violations;

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
// The config, then the buffer in hex: a violation's input summary.
std::string describe_input(std::span<const uint8_t> data);

states::Options table_options(const FuzzConfig& config);

// xcede_fuzz: every XCEDE violation `Subject`'s decoder commits on one input
// (Judging::subject_only: the decode alone, judged by nothing; the
// benchmark's baseline, fuzz/judging.h).
template <class Subject>
Violations check_xcede_input(std::span<const uint8_t> data, Judging judging = Judging::every_step) {
  const FuzzInput in = split_input(data);
  if (judging == Judging::subject_only) {
    (void)xcede::decode_using<typename Subject::Decoder>(in.buffer, in.config.capacity);
    return {};
  }
  return xcede::oracle::judge_decoder<typename Subject::Decoder>(in.buffer, in.config.capacity);
}

// states_fuzz: every STATES violation of the table `Subject`'s builder makes
// from the records its decoder gives (a decoder that reads outside the
// buffer is xcede_fuzz's finding: the input is then not judged here).
// Judging::subject_only: the decode and the table alone, judged by nothing.
template <class Subject>
Violations check_states_input(std::span<const uint8_t> data,
                              Judging judging = Judging::every_step) {
  const FuzzInput in = split_input(data);
  const bool judged = judging == Judging::every_step;
  if (judged &&
      xcede::oracle::probe_decode<typename Subject::Decoder>(in.buffer, in.config.capacity)
              .out_of_range_reads != 0) {
    return {};
  }
  const xcede::Decoded decoded =
      xcede::decode_using<typename Subject::Decoder>(in.buffer, in.config.capacity);
  const states::Options options = table_options(in.config);
  const states::Table table =
      states::build_using<typename Subject::Builder>(decoded.records, options);
  if (!judged) return {};
  Violations out;
  states::oracle::judge_table(options, decoded.records, table,
                              Subject::Builder::fixup_applies(in.config.lpar), out);
  return out;
}

// Prints what a reviewer needs (target, config, every violation, the input
// in hex) to stderr and aborts, so that libFuzzer saves the input.
[[noreturn]] void report_and_abort(const char* target, std::span<const uint8_t> data,
                                   const Violations& violations);

}  // namespace idlespec::fuzz
