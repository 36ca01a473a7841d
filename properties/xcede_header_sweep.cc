#include "properties/xcede_header_sweep.h"

#include <algorithm>
#include <chrono>
#include <iterator>
#include <random>
#include <thread>

#include "impl/text.h"
#include "properties/run_property.h"
#include "properties/xcede_gen.h"

namespace idlespec::props {
namespace {

// payload_size values where something changes for this capacity: below 2,
// around every whole record up to two past the capacity, around the longest
// swept buffer, and at the top of the u16 range.
std::vector<uint16_t> boundary_payload_sizes(uint32_t capacity) {
  std::set<uint32_t> sizes = {0,   1,     2,     3,     4,     11,    12,    13,    255,  256,
                              257, 32767, 32768, 65530, 65531, 65532, 65533, 65534, 65535};
  for (uint32_t k = 0; k <= capacity + 2; ++k) {
    const uint32_t whole = 2 + 10 * k;
    for (uint32_t ps = whole - 1; ps <= whole + 1; ++ps) sizes.insert(ps);
  }
  const uint32_t longest = 3 + 10 * (capacity + 1) + 2;
  for (uint32_t ps = longest - 3; ps <= longest + 1; ++ps) sizes.insert(ps);
  return {sizes.begin(), sizes.end()};
}

}  // namespace

std::vector<SweepJob> header_sweep_jobs(bool full, uint64_t seed) {
  std::vector<SweepJob> jobs;
  if (full) {
    for (uint32_t ps = 0; ps <= 0xffff; ++ps) {
      jobs.push_back({static_cast<uint16_t>(ps), xcede::kDefaultCapacity});
    }
  } else {
    std::set<uint16_t> sizes;
    for (uint16_t ps : boundary_payload_sizes(xcede::kDefaultCapacity)) sizes.insert(ps);
    std::mt19937_64 rng(seed);
    std::uniform_int_distribution<uint32_t> any(0, 0xffff);
    while (sizes.size() <
           boundary_payload_sizes(xcede::kDefaultCapacity).size() + kSweepSampledPayloadSizes) {
      sizes.insert(static_cast<uint16_t>(any(rng)));
    }
    for (uint16_t ps : sizes) jobs.push_back({ps, xcede::kDefaultCapacity});
  }
  // Smaller capacities (the 2020 RFC held 4 records; 0 holds none).
  for (uint32_t capacity : {0u, 4u}) {
    for (uint16_t ps : boundary_payload_sizes(capacity)) jobs.push_back({ps, capacity});
  }
  return jobs;
}

std::vector<size_t> header_sweep_lengths(uint16_t payload_size, uint32_t capacity) {
  const size_t longest = 3 + 10 * (size_t{capacity} + 1) + 2;
  std::vector<size_t> lengths;
  for (size_t len = 0; len <= longest; ++len) lengths.push_back(len);
  for (size_t len : {size_t{payload_size} + 1, size_t{payload_size} + 2}) {
    if (len > longest) lengths.push_back(len);
  }
  return lengths;
}

std::vector<uint8_t> header_sweep_buffer(uint16_t payload_size, uint8_t record_size_byte,
                                         size_t length) {
  std::vector<uint8_t> b(std::max<size_t>(length, 3));
  for (size_t i = 3; i < b.size(); ++i) b[i] = static_cast<uint8_t>(0x11 + 7 * i) | 1;
  set_payload_size(b, payload_size);
  b[2] = record_size_byte;
  const size_t nul_at = size_t{payload_size} + 1;
  if (nul_at >= 3 && nul_at < b.size()) b[nul_at] = 0;
  return b;
}

std::string describe_case(const xcede::oracle::Violation& f, std::span<const uint8_t> bytes,
                          uint32_t capacity) {
  std::string out = f.clause + ": " + f.message + "; ";
  if (bytes.size() >= 3) {
    out +=
        strprintf("payload_size %u, record-size byte %u, ", (bytes[0] << 8) | bytes[1], bytes[2]);
  }
  return out + strprintf("buffer of %zu bytes, capacity %u: ", bytes.size(), capacity) +
         hex(bytes, 48);
}

verify::CheckResult run_header_sweep(std::string_view subject, const verify::RunOptions& options,
                                     bool full, unsigned threads, ShareRunner share) {
  const auto t0 = std::chrono::steady_clock::now();
  const std::vector<SweepJob> jobs = header_sweep_jobs(full, options.seed);
  std::vector<SweepTally> tallies(threads);
  std::vector<std::thread> workers;
  for (unsigned t = 1; t < threads; ++t) {
    workers.emplace_back([&, t] { share(jobs, t, threads, tallies[t]); });
  }
  share(jobs, 0, threads, tallies[0]);
  for (auto& w : workers) w.join();

  SweepTally all;
  for (const SweepTally& t : tallies) {
    all.cases += t.cases;
    all.violations += t.violations;
    all.violated.insert(t.violated.begin(), t.violated.end());
    if (t.first_job && (!all.first_job || *t.first_job < *all.first_job)) {
      all.first_job = t.first_job;
      all.first = t.first;
    }
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const std::string scope =
      full ? "every payload_size"
           : strprintf("boundary and %u sampled payload sizes (seed %llu)",
                       kSweepSampledPayloadSizes, static_cast<unsigned long long>(options.seed));
  verify::CheckResult r;
  if (all.violations == 0) {
    r.outcome = verify::Outcome::pass;
    r.detail = strprintf(
        "%llu buffers, %s x 5 record-size bytes x all lengths: no violation "
        "(%.1f s)",
        static_cast<unsigned long long>(all.cases), scope.c_str(), seconds);
    return r;
  }
  r.outcome = verify::Outcome::fail;
  r.detail = strprintf("%llu of %llu buffers (%s) violate ",
                       static_cast<unsigned long long>(all.violations),
                       static_cast<unsigned long long>(all.cases), scope.c_str());
  for (const auto& c : all.violated) r.detail += c + (c == *all.violated.rbegin() ? "" : ", ");
  r.counterexample = all.first;
  r.violated = all.violated;
  r.replay = replay_command("exhaustive", "xcede_header_sweep", subject, options);
  return r;
}

}  // namespace idlespec::props
