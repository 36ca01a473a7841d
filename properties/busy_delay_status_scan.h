// Exhaustive check busy_delay_status_scan (BUSY-1..5): every 32-bit RTAS
// status through a subject's policy, each request judged against
// properties/busy_delay_model.h:
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
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "impl/busy_delay.h"
#include "properties/busy_delay_model.h"
#include "verify/registry.h"

namespace idlespec::props {

inline constexpr size_t kStatusScanSample = 4'000'000;
inline constexpr uint64_t kStatusScanBlock = 4096;

// A subject's delay time (rtas_busy_delay_time()): the policy's own when it
// brings one (a static member template delay_time<D>(U<32>)), otherwise the
// shared busy_delay::delay_time_ms every subject of the spec uses.
template <class Policy>
inline uint32_t subject_delay_time_ms(uint32_t status) {
  if constexpr (requires { Policy::template delay_time<Concrete>(Word<32>(status)); }) {
    return Policy::template delay_time<Concrete>(Word<32>(status)).v;
  } else {
    return busy_delay::delay_time_ms<Concrete>(Word<32>(status)).v;
  }
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
  uint64_t violations[bd_model::kClauseCount] = {};
  ScanFinding first[bd_model::kClauseCount];
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
  using namespace bd_model;
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

// Zero when every status of [first, first + count) gets the quiet answer,
// assuming none is busy or extended: an or-reduction the compiler may
// vectorise. Flattened: the policy's step is inlined into the loop whatever
// the compiler's inlining budget says (gcc keeps reference_step<Concrete>
// out of line otherwise, a call per status).
template <class Policy, unsigned Mask>
[[gnu::flatten, gnu::noinline]] uint64_t block_deviation(uint32_t first, uint32_t count,
                                                         bool need_resched) {
  uint64_t acc = 0;
  for (uint32_t i = 0; i < count; ++i) {
    const uint32_t status = first + i;
    busy_delay::Request r;
    uint32_t delay = 0;
    if constexpr ((Mask & bd_model::kStepClauses) != 0) {
      busy_delay::ConcreteContext ctx{need_resched, 0};
      r = busy_delay::concrete_step<Policy>(status, ctx);
    }
    if constexpr ((Mask & bd_model::kBusy4) != 0) delay = subject_delay_time_ms<Policy>(status);
    acc |= bd_model::quiet_deviation(r, delay, Mask);
  }
  return acc;
}

// Does [begin, end) hold a status that is busy or extended?
inline bool block_has_special(uint64_t begin, uint64_t end) {
  const auto in = [&](uint64_t s) { return s >= begin && s < end; };
  return in(bd_model::kSpecBusy) ||
         (bd_model::kSpecExtendedFirst < end && bd_model::kSpecExtendedLast >= begin);
}

// The pass over [begin, end) (end <= 2^32): the full scan's share of a thread.
template <class Policy, unsigned Mask>
void scan_range(uint64_t begin, uint64_t end, bool need_resched, uint32_t pass, ScanTally& t) {
  for (uint64_t b = begin; b < end; b += kStatusScanBlock) {
    const uint64_t e = b + kStatusScanBlock < end ? b + kStatusScanBlock : end;
    if (block_has_special(b, e) ||
        block_deviation<Policy, Mask>(static_cast<uint32_t>(b), static_cast<uint32_t>(e - b),
                                      need_resched) != 0) {
      judge_each<Policy, Mask>(b, e, need_resched, pass, t);
    }
  }
  t.statuses += end - begin;
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
template <class Policy, unsigned Mask = bd_model::kAllStatusClauses>
verify::CheckResult run_status_scan_of(const verify::RunOptions& options,
                                       bool full = IDLESPEC_EXHAUSTIVE == 1) {
  constexpr unsigned kSecond = Mask & ~bd_model::kBusy4;
  if constexpr (kSecond == 0) {
    return run_status_scan(Policy::subject, Mask, {scan_pass<Policy, Mask>(false)}, options, full);
  } else {
    return run_status_scan(Policy::subject, Mask,
                           {scan_pass<Policy, Mask>(false), scan_pass<Policy, kSecond>(true)},
                           options, full);
  }
}

}  // namespace idlespec::props
