// Exhaustive check xcede_header_sweep (XCEDE-1, 2, 3, 4): every payload_size
// 0..65535 x record-size byte {9, 0, 8, 10, 255} x every buffer length from 0
// to 3 + 10 (capacity + 1) + 2, plus payload_size + 1 (no NUL) and
// payload_size + 2 (exact, and once more with a bad NUL), capacity 16; and
// capacities 0 and 4 at the boundary payload sizes. Every case runs the
// subject's decoder over the oracle's CheckedSource, then its frontend, and
// judges it by oracle/xcede.h:
//   - no read at an offset >= the buffer length            (XCEDE-1)
//   - count == min(declared, capacity, records in buffer)  (XCEDE-1..4)
//   - the error and the XCEDE-1..4 warnings name the right clauses, the
//     buffer-end offsets included
//
// With IDLESPEC_EXHAUSTIVE == 1 (release) every payload_size is swept, on two
// threads; otherwise (sanitizer builds) the boundary payload sizes and a
// sample seeded by RunOptions::seed, in seconds.
#pragma once

#include <cstdint>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <vector>

#include "impl/xcede.h"
#include "oracle/xcede.h"
#include "verify/registry.h"

namespace idlespec::props {

inline constexpr uint8_t kSweepRecordSizeBytes[] = {9, 0, 8, 10, 255};
inline constexpr uint32_t kSweepSampledPayloadSizes = 192;

// One (payload_size, capacity) pair: every record-size byte and length of it.
struct SweepJob {
  uint16_t payload_size = 0;
  uint32_t capacity = xcede::kDefaultCapacity;
};

std::vector<SweepJob> header_sweep_jobs(bool full, uint64_t seed);
// 0..3 + 10 (capacity + 1) + 2, then payload_size + 1 and + 2 when longer.
std::vector<size_t> header_sweep_lengths(uint16_t payload_size, uint32_t capacity);
// The buffer every case of a job is a prefix of: the header, records in a
// non-zero pattern, the NUL at payload_size + 1.
std::vector<uint8_t> header_sweep_buffer(uint16_t payload_size, uint8_t record_size_byte,
                                         size_t length);

// One case, judged by the oracle (oracle/xcede.h): the subject's decoder over
// the checked source (XCEDE-1), then the record count and the frontend's
// error and XCEDE-1..4 warnings (the first finding only).
template <class Decoder>
std::optional<xcede::oracle::Violation> check_header_case(std::span<const uint8_t> bytes,
                                                          uint32_t capacity) {
  const xcede::oracle::Probe p = xcede::oracle::probe_decode<Decoder>(bytes, capacity);
  if (auto v = xcede::oracle::judge_reads(p, bytes.size())) return v;
  return xcede::oracle::judge_header(
      xcede::oracle::expected_decode(bytes, capacity), p.records.size(),
      xcede::decode_using<Decoder>(bytes, capacity), bytes.size(), capacity);
}

// What one thread found over its share of the jobs.
struct SweepTally {
  uint64_t cases = 0;
  uint64_t violations = 0;
  std::set<std::string> violated;
  std::optional<size_t> first_job;  // index of the job of the first finding
  std::string first;                // that finding, with its buffer in hex
};

std::string describe_case(const xcede::oracle::Violation& f, std::span<const uint8_t> bytes,
                          uint32_t capacity);

template <class Decoder>
void sweep_job(const SweepJob& job, size_t index, SweepTally& tally) {
  const std::vector<size_t> lengths = header_sweep_lengths(job.payload_size, job.capacity);
  for (uint8_t size_byte : kSweepRecordSizeBytes) {
    std::vector<uint8_t> buffer = header_sweep_buffer(job.payload_size, size_byte, lengths.back());
    const auto run = [&](size_t length) {
      ++tally.cases;
      const std::span<const uint8_t> bytes(buffer.data(), length);
      const auto f = check_header_case<Decoder>(bytes, job.capacity);
      if (!f) return;
      ++tally.violations;
      tally.violated.insert(f->clause);
      if (!tally.first_job) {
        tally.first_job = index;
        tally.first = describe_case(*f, bytes, job.capacity);
      }
    };
    for (size_t length : lengths) run(length);
    // The exact payload once more, its NUL replaced by a non-zero byte.
    const size_t exact = size_t{job.payload_size} + 2;
    if (job.payload_size >= 2) {
      buffer[exact - 1] = 0xff;
      run(exact);
    }
  }
}

// Runs jobs[i] for i = first, first + stride, ... (one share of the threads).
template <class Decoder>
void sweep_share(const std::vector<SweepJob>& jobs, size_t first, size_t stride,
                 SweepTally& tally) {
  for (size_t i = first; i < jobs.size(); i += stride) sweep_job<Decoder>(jobs[i], i, tally);
}

using ShareRunner = void (*)(const std::vector<SweepJob>&, size_t, size_t, SweepTally&);
// Runs the shares on `threads` threads and merges the tallies into a verdict.
verify::CheckResult run_header_sweep(std::string_view subject, const verify::RunOptions& options,
                                     bool full, unsigned threads, ShareRunner share);

template <class S>
verify::CheckResult run_xcede_header_sweep(const verify::RunOptions& options,
                                           bool full = IDLESPEC_EXHAUSTIVE == 1) {
  return run_header_sweep(S::name, options, full, 2, &sweep_share<typename S::Decoder>);
}

}  // namespace idlespec::props
