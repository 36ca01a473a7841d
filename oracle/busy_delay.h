// spec/busy_delay.md as an executable reading, clause by clause, written
// from the spec's text: the status classes, the delay-time table as a
// switch, the sleep bounds of BUSY-3, one predicate per clause that judges a
// policy's busy_delay::Request for one status, and the judges of retry loops
// (BUSY-1, 3, 6 for the runtime policies, BUSY-7 for the early-boot one).
// Nothing here calls impl/busy_delay.h's step functions or its constants
// (is_busy, is_extended_delay, delay_time_ms, kMaxSleepMs ...): the checks
// compare the implementation's requests with this reading, so that a slip
// in one is not repeated in the other. Only the Request and Primitive data
// types are shared. Every layer judges here: the status scan and the
// properties (properties/), busy_delay_fuzz and its corpus replay.
//
// The predicates are constexpr and branch-light: the exhaustive scan
// (properties/busy_delay_status_scan.h) inlines them into its 2^32-status
// loop.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "impl/busy_delay.h"
#include "oracle/violation.h"

namespace idlespec::busy_delay::oracle {

using Violation = idlespec::oracle::Violation;
using Violations = idlespec::oracle::Violations;
using busy_delay::Primitive;
using busy_delay::Request;
using idlespec::oracle::Collector;

// The clauses judged per status, as bits (a check's clause mask).
enum ClauseBit : unsigned {
  kBusy1 = 1u << 0,  // retry exactly for -2 and 9900..9905
  kBusy2 = 1u << 1,  // busy: no sleep of any kind (a yield is allowed)
  kBusy3 = 1u << 2,  // extended: exactly one sleep within [c/10, c] ms, no yield
  kBusy4 = 1u << 3,  // the delay-time table
  kBusy5 = 1u << 4,  // anything else: no sleep, no yield, no retry
};
inline constexpr unsigned kAllStatusClauses = kBusy1 | kBusy2 | kBusy3 | kBusy4 | kBusy5;
// The clauses a policy's step is judged by (BUSY-4 judges the delay time).
inline constexpr unsigned kStepClauses = kBusy1 | kBusy2 | kBusy3 | kBusy5;
inline constexpr unsigned kClauseCount = 5;

// "BUSY-1" for kBusy1 ...; index i in 0..4 is clause BUSY-(i+1).
std::string clause_id(unsigned index);
// The mask of the per-status clauses among `ids` ("BUSY-1" ...); others are ignored.
unsigned clause_mask(std::initializer_list<std::string_view> ids);

// --- the spec's vocabulary -----------------------------------------------

// "busy (-2)": the 32-bit RTAS word 0xfffffffe.
inline constexpr uint32_t kSpecBusy = 0xfffffffeu;
// "extended delay (9900..9905)"
inline constexpr uint32_t kSpecExtendedFirst = 9900;
inline constexpr uint32_t kSpecExtendedLast = 9905;
// BUSY-3: "c = min(h, 1000) ms"
inline constexpr uint64_t kSpecClampMs = 1000;
// BUSY-6: "at most k x 1000 ms of sleep in total"
inline constexpr uint64_t kSpecLoopBudgetUsPerStatus = 1000 * 1000;
// BUSY-7: "the first 1000 consecutive extended statuses retry and the 1001st gives up"
inline constexpr uint32_t kSpecEarlyRetries = 1000;
// BUSY-7: "mdelay(1)"
inline constexpr uint64_t kSpecEarlyDelayUs = 1000;

enum class StatusClass : uint8_t { busy, extended, other };

constexpr StatusClass classify(uint32_t status) {
  if (status == kSpecBusy) return StatusClass::busy;
  if (status >= kSpecExtendedFirst && status <= kSpecExtendedLast) return StatusClass::extended;
  return StatusClass::other;
}

// BUSY-4: "-2 -> 1; 990n -> 10^n for n = 0..5; any other status -> 0".
constexpr uint32_t spec_delay_time_ms(uint32_t status) {
  switch (status) {
    case kSpecBusy:
      return 1;
    case 9900:
      return 1;
    case 9901:
      return 10;
    case 9902:
      return 100;
    case 9903:
      return 1000;
    case 9904:
      return 10000;
    case 9905:
      return 100000;
    default:
      return 0;
  }
}

// BUSY-1: the statuses for which the policy must retry (and no others).
constexpr bool spec_retries(uint32_t status) { return classify(status) != StatusClass::other; }

// BUSY-3's bounds for an extended status with hint h: c = min(h, 1000) ms,
// the requested range within [c * 100 us, c * 1000 us]. In 64 bits: no
// product here can overflow.
struct SleepBounds {
  uint64_t min_us_at_least = 0;
  uint64_t max_us_at_most = 0;
};
constexpr SleepBounds spec_sleep_bounds(uint32_t extended_status) {
  const uint64_t h = spec_delay_time_ms(extended_status);
  const uint64_t c = h < kSpecClampMs ? h : kSpecClampMs;
  return {c * 100, c * 1000};
}

// A primitive that sleeps (or delays): usleep_range, msleep, fsleep, mdelay.
constexpr bool is_sleep_primitive(Primitive p) {
  return p == busy_delay::kUsleepRange || p == busy_delay::kMsleep || p == busy_delay::kFsleep ||
         p == busy_delay::kMdelay;
}

// "requests no sleep": no primitive and no duration.
constexpr bool requests_no_sleep(const Request& r) {
  return r.primitive == busy_delay::kNoSleep && r.min_us == 0 && r.max_us == 0;
}

// --- the clauses, one predicate each (true: the request is allowed) ------

// BUSY-1: retry exactly for busy and extended.
constexpr bool busy1_holds(uint32_t status, const Request& r) {
  return r.retry == spec_retries(status);
}

// BUSY-2: on busy, no sleep of any kind; cond_resched() is allowed.
constexpr bool busy2_holds(uint32_t status, const Request& r) {
  return classify(status) != StatusClass::busy || requests_no_sleep(r);
}

// BUSY-3: on an extended delay, exactly one sleep with min <= max,
// max <= c * 1000 us, min >= c * 100 us; one duration (min = max) for
// msleep, fsleep and mdelay; no cond_resched().
constexpr bool busy3_holds(uint32_t status, const Request& r) {
  if (classify(status) != StatusClass::extended) return true;
  const SleepBounds b = spec_sleep_bounds(status);
  return is_sleep_primitive(r.primitive) && !r.cond_resched && r.min_us <= r.max_us &&
         r.max_us <= b.max_us_at_most && r.min_us >= b.min_us_at_least &&
         (r.primitive == busy_delay::kUsleepRange || r.min_us == r.max_us);
}

// BUSY-4: the subject's delay time for `status` is the table's.
constexpr bool busy4_holds(uint32_t status, uint32_t delay_time_ms) {
  return delay_time_ms == spec_delay_time_ms(status);
}

// BUSY-5: anything neither busy nor extended: no sleep, no yield, no retry.
constexpr bool busy5_holds(uint32_t status, const Request& r) {
  return classify(status) != StatusClass::other ||
         (!r.retry && !r.cond_resched && requests_no_sleep(r));
}

// The clauses of `mask` that the step's request breaks (BUSY-4 excluded).
constexpr unsigned step_violations(uint32_t status, const Request& r, unsigned mask) {
  unsigned v = 0;
  if ((mask & kBusy1) && !busy1_holds(status, r)) v |= kBusy1;
  if ((mask & kBusy2) && !busy2_holds(status, r)) v |= kBusy2;
  if ((mask & kBusy3) && !busy3_holds(status, r)) v |= kBusy3;
  if ((mask & kBusy5) && !busy5_holds(status, r)) v |= kBusy5;
  return v;
}

// For a status of class `other` the spec fixes the whole answer: no retry
// (BUSY-1), no request at all (BUSY-5, where judged), delay time 0 (BUSY-4).
// quiet_deviation() is zero exactly when `r` and `delay_time_ms` are that
// answer for the clauses of `mask` (an or of the fields that must be zero, so
// that the scan's fast path over the 2^32 - 7 such statuses is an
// or-reduction); quiet_answer_holds() says the same as a truth value.
constexpr uint64_t quiet_deviation(const Request& r, uint32_t delay_time_ms, unsigned mask) {
  uint64_t v = 0;
  if (mask & (kBusy1 | kBusy5)) v |= uint64_t{r.retry};
  if (mask & kBusy5) {
    v |= uint64_t{r.cond_resched} | uint64_t{r.primitive} | r.min_us | r.max_us;
  }
  if (mask & kBusy4) v |= delay_time_ms;
  return v;
}
constexpr bool quiet_answer_holds(const Request& r, uint32_t delay_time_ms, unsigned mask) {
  return quiet_deviation(r, delay_time_ms, mask) == 0;
}

// An answer of more than one sleep in one call, as the kernel harness of
// validate observes it (harness/harness_busy_delay.c counts the sleeps): no
// clause allows it (BUSY-2 and BUSY-5 allow none, BUSY-3 and BUSY-7 exactly
// one). Not a primitive of impl/, so that no subject can produce it.
inline constexpr Primitive kSeveralSleeps = static_cast<Primitive>(0xff);

// The per-status clause whose status a step crashed or hung on: BUSY-2 for
// busy, BUSY-3 for an extended delay, BUSY-5 for any other status (a step
// that does not return has not answered at all).
constexpr ClauseBit step_owner(uint32_t status) {
  switch (classify(status)) {
    case StatusClass::busy:
      return kBusy2;
    case StatusClass::extended:
      return kBusy3;
    case StatusClass::other:
      break;
  }
  return kBusy5;
}

// The statuses of lo..hi that the spec judges alike, in order: each busy or
// extended status alone, and each maximal stretch of other statuses as one
// group (`first` stands for all `count` of them: for a status of class
// other every clause asks the same). One answer judged on each group's
// first status judges the whole range (validate's run-length encoded scans).
struct StatusGroup {
  uint32_t first = 0;
  uint64_t count = 0;
  StatusClass kind = StatusClass::other;
};
std::vector<StatusGroup> status_groups(uint32_t lo, uint32_t hi);

// What the spec asks of `status` under the clause with index i (0..4), in
// words: "stop (neither busy nor extended)", "one sleep within [100, 1000] us" ...
std::string spec_expectation(unsigned index, uint32_t status);

// "status -2 (0xfffffffe)", "status 9906 (0x00002606)"
std::string show_status(uint32_t status);

// --- retry loops ---------------------------------------------------------------

// One call of a retry loop: the status the firmware answered and what the
// policy requested for it.
struct Call {
  uint32_t status = 0;
  Request request;
};

// "9900 x1001, -2, 0" (statuses as the kernel prints them: signed; long
// sequences as runs)
std::string describe_statuses(std::span<const uint32_t> statuses);

// BUSY-1, BUSY-3 (where `mask` has them) and BUSY-6 for one retry loop of
// the runtime policy: `calls` in order; the loop ended by the policy (its
// last request does not retry) or because the statuses ran out. `loop`
// numbers the loop and `first_step` its first call among the caller's
// statuses, for the messages ("step 7 (loop 2, call 3)").
void judge_runtime_loop(std::span<const Call> calls, size_t loop, size_t first_step, unsigned mask,
                        Collector& out);

// BUSY-7 for the early-boot policy: every call of every loop, in order, one
// count of consecutive extended statuses across loops (the kernel's is a
// static), starting at `start_count`. A loop ends where a request does not
// retry.
void judge_early_calls(std::span<const Call> calls, uint32_t start_count, Collector& out);

}  // namespace idlespec::busy_delay::oracle
