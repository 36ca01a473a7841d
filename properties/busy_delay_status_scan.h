// Exhaustive check busy_delay_status_scan (BUSY-1..5): every 32-bit RTAS
// status through a subject's policy, each request judged against
// oracle/busy_delay.h:
//   BUSY-1  retry exactly for -2 and 9900..9905
//   BUSY-2  busy: no sleep of any kind (a yield is allowed)
//   BUSY-3  extended: exactly one sleep within [c/10, c] ms, c = min(h, 1000)
//   BUSY-4  the subject's delay time is the spec's table
//   BUSY-5  anything else: no sleep, no yield, no retry
// Each subject is judged by the clauses whose "- Subjects:" line names it:
// reference all five (both forms: usleep_range/msleep and fsleep), legacy
// BUSY-1..4 (need_resched() false and true), early BUSY-4 only. The delay
// time depends on the status alone and the passes of a subject share it, so
// BUSY-4 is judged in a subject's first pass only.
//
// With IDLESPEC_EXHAUSTIVE == 1 (release) all 2^32 statuses are scanned per
// pass, split over std::thread::hardware_concurrency() threads; otherwise
// (sanitizer builds) the boundaries (every status within +-16 of 0, -2,
// 9900..9905, INT32_MIN, INT32_MAX, UINT32_MAX; powers of two +-1) and
// kStatusScanSample statuses drawn with RunOptions::seed.
//
// The scan does not stop at a violation: it counts the violating statuses
// per clause, keeps the first counterexample of each, and sets
// CheckResult::violated to exactly the clauses broken.
//
// Speed: the scan is a template over the policy type and its clause mask, so
// the policy's step and the model's predicates inline into one loop; the
// 2^32 - 7 statuses the spec calls "anything else" go through the model's
// quiet_answer_holds() (the whole answer the spec fixes for them) block by
// block, and a block that holds a busy or extended status, or whose quiet
// check fails, is judged status by status with every predicate.
//
// Where the CPU has AVX2 or AVX-512, the quiet check runs the policy in
// LaneConcrete (impl/lanes_domain.h: Concrete with ite a masked select), so
// that the loop over a block has no branch and gcc vectorises it. That loop
// is compiled once per instruction set (ScanIsa) and the scan runs the best
// the CPU has. Every copy runs the policy's own step (impl/busy_delay.h) and
// the model's quiet answer on every status of the block, and a flagged block
// is judged status by status in Concrete as before: verdicts,
// counterexamples and counts do not depend on the copy.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "impl/busy_delay.h"
#include "impl/lanes_domain.h"
#include "oracle/busy_delay.h"
#include "verify/registry.h"

namespace idlespec::props {

inline constexpr size_t kStatusScanSample = 4'000'000;
inline constexpr uint64_t kStatusScanBlock = 4096;

// A subject's delay time (rtas_busy_delay_time()) in the domain D (Concrete
// or LaneConcrete): the policy's own when it brings one (a static member
// template delay_time<D>(U<32>)), otherwise the shared
// busy_delay::delay_time_ms every subject of the spec uses.
template <class Policy, class D = Concrete>
inline uint32_t subject_delay_time_ms(uint32_t status) {
  const auto s = D::template lit<32>(status);
  if constexpr (requires { Policy::template delay_time<D>(s); }) {
    return Policy::template delay_time<D>(s).v;
  } else {
    return busy_delay::delay_time_ms<D>(s).v;
  }
}

// The policy's request for `status` in the domain D (Concrete or
// LaneConcrete), from a fresh context (need_resched() as given, no earlier
// extended delays): busy_delay::concrete_step's for Concrete.
template <class Policy, class D>
inline busy_delay::Request request_in(uint32_t status, bool need_resched) {
  busy_delay::Context<D> ctx{D::truth(need_resched), D::template lit<32>(0)};
  const busy_delay::Step<D> s = Policy::template step<D>(D::template lit<32>(status), ctx);
  return {s.retry, s.cond_resched, static_cast<busy_delay::Primitive>(s.primitive.v), s.min_us.v,
          s.max_us.v};
}

// The first violation of one clause: in pass order, then in scan order.
struct ScanFinding {
  bool found = false;
  uint64_t order = 0;  // pass << 40 | position in the pass
  uint32_t pass = 0;
  uint32_t status = 0;
  busy_delay::Request request;
  uint32_t delay_time_ms = 0;
};

// What one thread found over its share of one or more passes.
struct ScanTally {
  uint64_t statuses = 0;
  uint64_t violations[busy_delay::oracle::kClauseCount] = {};
  ScanFinding first[busy_delay::oracle::kClauseCount];
  void merge(const ScanTally& other);
};

// Records `violated` (a clause mask) for one status; out of the hot loop.
[[gnu::noinline, gnu::cold]] void record_violation(ScanTally& t, unsigned violated, uint32_t pass,
                                                   uint64_t position, uint32_t status,
                                                   const busy_delay::Request& r,
                                                   uint32_t delay_time_ms);

// One status through the policy (a fresh context: need_resched() as given,
// no earlier extended delays) and the model: the clauses of Mask it breaks.
template <class Policy, unsigned Mask>
[[gnu::always_inline]] inline unsigned judge_status(uint32_t status, bool need_resched,
                                                    busy_delay::Request& r, uint32_t& delay) {
  using namespace busy_delay::oracle;
  r = busy_delay::Request{};
  if constexpr ((Mask & kStepClauses) != 0) {
    busy_delay::ConcreteContext ctx{need_resched, 0};
    r = busy_delay::concrete_step<Policy>(status, ctx);
  }
  delay = 0;
  if constexpr ((Mask & kBusy4) != 0) delay = subject_delay_time_ms<Policy>(status);
  unsigned v = step_violations(status, r, Mask);
  if ((Mask & kBusy4) && !busy4_holds(status, delay)) v |= kBusy4;
  return v;
}

// Statuses [begin, end) status by status, every predicate.
template <class Policy, unsigned Mask>
[[gnu::flatten, gnu::noinline]] void judge_each(uint64_t begin, uint64_t end, bool need_resched,
                                                uint32_t pass, ScanTally& t) {
  for (uint64_t s = begin; s < end; ++s) {
    busy_delay::Request r;
    uint32_t delay;
    const unsigned v = judge_status<Policy, Mask>(static_cast<uint32_t>(s), need_resched, r, delay);
    if (v != 0) [[unlikely]] {
      record_violation(t, v, pass, s, static_cast<uint32_t>(s), r, delay);
    }
  }
}

// busy_delay::oracle::quiet_deviation() or-accumulated over the requests of a block,
// each field at its own width (a vectorised loop need not widen the flags and
// the delay time to 64 bits): value() is zero exactly when quiet_deviation()
// is zero for every request added (the same fields under the same clauses).
struct QuietDeviation {
  uint8_t flags = 0;      // retry; cond_resched and primitive (BUSY-5)
  uint32_t delay_ms = 0;  // the delay time (BUSY-4)
  uint64_t sleep_us = 0;  // min_us | max_us (BUSY-5)

  [[gnu::always_inline]] void add(const busy_delay::Request& r, uint32_t delay_time_ms,
                                  unsigned mask) {
    using namespace busy_delay::oracle;
    if (mask & (kBusy1 | kBusy5)) flags |= uint8_t(r.retry);
    if (mask & kBusy5) {
      flags |= uint8_t(uint8_t(r.cond_resched) | uint8_t(r.primitive));
      sleep_us |= r.min_us | r.max_us;
    }
    if (mask & kBusy4) delay_ms |= delay_time_ms;
  }
  uint64_t value() const { return flags | delay_ms | sleep_us; }
};

// The vectorisable quiet check of [first, first + count): block_deviation's
// verdict (zero or not), with the policy in LaneConcrete (no branch in the
// loop) and the deviation accumulated by QuietDeviation. The body of the
// copies per instruction set below.
template <class Policy, unsigned Mask>
inline uint64_t block_deviation_lanes(uint32_t first, uint32_t count, bool need_resched) {
  QuietDeviation acc;
  for (uint32_t i = 0; i < count; ++i) {
    const uint32_t status = first + i;
    busy_delay::Request r;
    uint32_t delay = 0;
    if constexpr ((Mask & busy_delay::oracle::kStepClauses) != 0) {
      r = request_in<Policy, LaneConcrete>(status, need_resched);
    }
    if constexpr ((Mask & busy_delay::oracle::kBusy4) != 0) {
      delay = subject_delay_time_ms<Policy, LaneConcrete>(status);
    }
    acc.add(r, delay, Mask);
  }
  return acc.value();
}

// The instruction sets the quiet check is compiled for.
enum class ScanIsa : uint8_t {
  baseline,  // the build's target (x86-64: SSE2)
  avx2,      // x86-64 with AVX2
  avx512,    // x86-64 with AVX-512 F, BW, DQ and VL
};
// "baseline", "avx2", "avx512"
std::string_view scan_isa_name(ScanIsa isa);
// Whether this CPU (and build) runs `isa`.
bool scan_isa_supported(ScanIsa isa);
// The instruction set scan_range uses, chosen once: the best this CPU runs,
// unless the environment variable IDLESPEC_SCAN_ISA names another supported
// one (for comparisons: the verdicts are the same whichever runs).
ScanIsa scan_isa();

// Zero when every status of [first, first + count) gets the quiet answer,
// assuming none is busy or extended: an or-reduction, the policy in Concrete
// as judge_status runs it. Flattened: the policy's step is inlined into the
// loop whatever the compiler's inlining budget says (gcc keeps
// reference_step<Concrete> out of line otherwise, a call per status). The
// scan's quiet check where the CPU has neither AVX2 nor AVX-512.
template <class Policy, unsigned Mask>
[[gnu::flatten, gnu::noinline]] uint64_t block_deviation(uint32_t first, uint32_t count,
                                                         bool need_resched) {
  uint64_t acc = 0;
  for (uint32_t i = 0; i < count; ++i) {
    const uint32_t status = first + i;
    busy_delay::Request r;
    uint32_t delay = 0;
    if constexpr ((Mask & busy_delay::oracle::kStepClauses) != 0) {
      busy_delay::ConcreteContext ctx{need_resched, 0};
      r = busy_delay::concrete_step<Policy>(status, ctx);
    }
    if constexpr ((Mask & busy_delay::oracle::kBusy4) != 0)
      delay = subject_delay_time_ms<Policy>(status);
    acc |= busy_delay::oracle::quiet_deviation(r, delay, Mask);
  }
  return acc;
}

#if defined(__x86_64__) && defined(__GNUC__)
#define IDLESPEC_SCAN_MULTIVERSIONED 1
// block_deviation_lanes, vectorised for AVX2 and for AVX-512 (called only
// where scan_isa_supported() says the CPU has them). Only scalar types cross
// these functions' boundaries, so a callee the compiler keeps out of line is
// called with the same ABI as from baseline code.
template <class Policy, unsigned Mask>
[[gnu::flatten, gnu::noinline, gnu::target("avx2")]] uint64_t block_deviation_avx2(
    uint32_t first, uint32_t count, bool need_resched) {
  return block_deviation_lanes<Policy, Mask>(first, count, need_resched);
}
template <class Policy, unsigned Mask>
[[gnu::flatten, gnu::noinline, gnu::target("avx2,avx512f,avx512bw,avx512dq,avx512vl")]] uint64_t
block_deviation_avx512(uint32_t first, uint32_t count, bool need_resched) {
  return block_deviation_lanes<Policy, Mask>(first, count, need_resched);
}
#else
#define IDLESPEC_SCAN_MULTIVERSIONED 0
#endif

// The quiet check for `isa`, which must be supported: block_deviation for
// the baseline, block_deviation_lanes otherwise.
template <class Policy, unsigned Mask>
uint64_t block_deviation_on(ScanIsa isa, uint32_t first, uint32_t count, bool need_resched) {
#if IDLESPEC_SCAN_MULTIVERSIONED
  if (isa == ScanIsa::avx512)
    return block_deviation_avx512<Policy, Mask>(first, count, need_resched);
  if (isa == ScanIsa::avx2) return block_deviation_avx2<Policy, Mask>(first, count, need_resched);
#else
  (void)isa;
#endif
  return block_deviation<Policy, Mask>(first, count, need_resched);
}

// Does [begin, end) hold a status that is busy or extended?
inline bool block_has_special(uint64_t begin, uint64_t end) {
  const auto in = [&](uint64_t s) { return s >= begin && s < end; };
  return in(busy_delay::oracle::kSpecBusy) || (busy_delay::oracle::kSpecExtendedFirst < end &&
                                               busy_delay::oracle::kSpecExtendedLast >= begin);
}

// The pass over [begin, end) (end <= 2^32), the quiet check compiled for `isa`.
template <class Policy, unsigned Mask>
void scan_range_on(ScanIsa isa, uint64_t begin, uint64_t end, bool need_resched, uint32_t pass,
                   ScanTally& t) {
  for (uint64_t b = begin; b < end; b += kStatusScanBlock) {
    const uint64_t e = b + kStatusScanBlock < end ? b + kStatusScanBlock : end;
    if (block_has_special(b, e) ||
        block_deviation_on<Policy, Mask>(isa, static_cast<uint32_t>(b),
                                         static_cast<uint32_t>(e - b), need_resched) != 0) {
      judge_each<Policy, Mask>(b, e, need_resched, pass, t);
    }
  }
  t.statuses += end - begin;
}

// The pass over [begin, end) (end <= 2^32): the full scan's share of a thread.
template <class Policy, unsigned Mask>
void scan_range(uint64_t begin, uint64_t end, bool need_resched, uint32_t pass, ScanTally& t) {
  scan_range_on<Policy, Mask>(scan_isa(), begin, end, need_resched, pass, t);
}

// The pass over a list of statuses (the sampled scan).
template <class Policy, unsigned Mask>
[[gnu::flatten]] void scan_list(std::span<const uint32_t> statuses, uint64_t first_position,
                                bool need_resched, uint32_t pass, ScanTally& t) {
  for (size_t i = 0; i < statuses.size(); ++i) {
    busy_delay::Request r;
    uint32_t delay;
    const unsigned v = judge_status<Policy, Mask>(statuses[i], need_resched, r, delay);
    if (v != 0) [[unlikely]] {
      record_violation(t, v, pass, first_position + i, statuses[i], r, delay);
    }
  }
  t.statuses += statuses.size();
}

// One pass: a policy (one form of a subject) with need_resched() fixed.
struct ScanPass {
  std::string form;
  bool need_resched = false;
  unsigned mask = 0;  // the clauses this pass judges
  void (*range)(uint64_t, uint64_t, bool, uint32_t, ScanTally&) = nullptr;
  void (*list)(std::span<const uint32_t>, uint64_t, bool, uint32_t, ScanTally&) = nullptr;
};

template <class Policy, unsigned Mask>
ScanPass scan_pass(bool need_resched) {
  return {std::string(Policy::form), need_resched, Mask, &scan_range<Policy, Mask>,
          &scan_list<Policy, Mask>};
}

// The sampled scan's statuses: the boundaries, then `n` drawn with `seed`.
std::vector<uint32_t> status_scan_boundaries();
std::vector<uint32_t> status_scan_statuses(uint64_t seed, size_t n = kStatusScanSample);

// Runs the passes (in order; each split over `threads`, 0 meaning
// hardware_concurrency()) and turns the tallies into a verdict on the clauses
// of `mask`, each of which some pass must judge (unknown otherwise).
verify::CheckResult run_status_scan(std::string_view subject, unsigned mask,
                                    const std::vector<ScanPass>& passes,
                                    const verify::RunOptions& options, bool full,
                                    unsigned threads = 0);

// The check as verify runs it, for the subjects reference, legacy and early.
verify::CheckResult run_busy_delay_status_scan(std::string_view subject,
                                               const verify::RunOptions& options,
                                               bool full = IDLESPEC_EXHAUSTIVE == 1);

// The check against a policy type of its own (the witnesses of
// tests/witnesses/busy_delay_witnesses.h): the clauses of Mask, need_resched()
// false and true (BUSY-4 in the first pass).
template <class Policy, unsigned Mask = busy_delay::oracle::kAllStatusClauses>
verify::CheckResult run_status_scan_of(const verify::RunOptions& options,
                                       bool full = IDLESPEC_EXHAUSTIVE == 1) {
  constexpr unsigned kSecond = Mask & ~busy_delay::oracle::kBusy4;
  if constexpr (kSecond == 0) {
    return run_status_scan(Policy::subject, Mask, {scan_pass<Policy, Mask>(false)}, options, full);
  } else {
    return run_status_scan(Policy::subject, Mask,
                           {scan_pass<Policy, Mask>(false), scan_pass<Policy, kSecond>(true)},
                           options, full);
  }
}

}  // namespace idlespec::props
