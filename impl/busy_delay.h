// RTAS busy and extended-delay handling (spec/busy_delay.md).
//
// Many RTAS functions answer "busy" (-2: call again, firmware made progress)
// or "extended delay" (990n: firmware waits for an external event; call
// again in about 10^n ms). The caller loops
//
//     do { status = rtas_call(...); } while (policy(status));
//
// and the policy decides, per status, whether to call again and what to do
// in between. This file holds the three policies the spec compares, each
// written once over a value domain D (impl/domain.h) so that the Z3 proofs in
// proofs/ are about the code that runs:
//
//   reference  the runtime policy since Linux v5.17 (commit 38f7b7067dae),
//              in both forms upstream has had: usleep_range/msleep, and
//              fsleep (newer kernels)
//   early      the policy before the scheduler runs (early boot)
//   legacy     the runtime policy before v5.17
//
// A step reports what the policy asks of the kernel: whether to retry, a
// cond_resched(), and at most one sleep request (the primitive and its
// requested range in microseconds). It performs none of it: the callers (the
// simulator, the checks) decide what a request costs.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "impl/domain.h"

namespace idlespec::busy_delay {

inline constexpr int32_t kRtasBusy = -2;
inline constexpr int32_t kExtendedDelayMin = 9900;
inline constexpr int32_t kExtendedDelayMax = 9905;
inline constexpr uint32_t kMaxSleepMs = 1000;        // the clamp: poll at least once a second
inline constexpr uint32_t kUsleepRangeMaxMs = 20;    // timers-howto: usleep_range up to ~20 ms
inline constexpr uint32_t kEarlyGiveUpAfter = 1000;  // consecutive extended delays in early boot

// The sleep primitive a step requests (a D::U<8> code in generic code).
enum Primitive : uint8_t { kNoSleep = 0, kUsleepRange = 1, kMsleep = 2, kFsleep = 3, kMdelay = 4 };
std::string_view primitive_name(Primitive p);  // "none", "usleep_range", ...

template <class D>
struct Step {
  typename D::Bool retry;         // the caller should call RTAS again
  typename D::Bool cond_resched;  // the policy yields the CPU (no sleep)
  typename D::template U<8> primitive;
  typename D::template U<64> min_us;  // requested sleep, lower end (usleep_range's min)
  typename D::template U<64> max_us;  // requested sleep, upper end (the only one otherwise)
};

// What a policy may consult besides the status: the scheduler's
// need_resched() (legacy only) and the early-boot count of consecutive
// extended delays (early only; a static in the kernel, updated by the step).
template <class D>
struct Context {
  typename D::Bool need_resched;
  typename D::template U<32> consecutive;
};

template <class D>
typename D::Bool is_busy(typename D::template U<32> status) {
  return status == D::template lit<32>(static_cast<uint32_t>(kRtasBusy));
}

template <class D>
typename D::Bool is_extended_delay(typename D::template U<32> status) {
  return status >= D::template lit<32>(kExtendedDelayMin) &&
         status <= D::template lit<32>(kExtendedDelayMax);
}

// rtas_busy_delay_time(): 1 ms for busy (knowingly "wrong", kept for the
// callers that depend on it), 10^n ms for 990n, 0 for anything else. The
// status is the 32-bit RTAS return word, read as unsigned (-2 is 0xfffffffe).
template <class D>
typename D::template U<32> delay_time_ms(typename D::template U<32> status) {
  using U32 = typename D::template U<32>;
  U32 hint = D::template lit<32>(1);  // 9900
  uint32_t power = 1;
  for (int32_t n = kExtendedDelayMin + 1; n <= kExtendedDelayMax; ++n) {
    power *= 10;
    hint = D::ite(status == D::template lit<32>(n), D::template lit<32>(power), hint);
  }
  return D::ite(is_busy<D>(status), D::template lit<32>(1),
                D::ite(is_extended_delay<D>(status), hint, D::template lit<32>(0)));
}

template <class D>
Step<D> no_step() {
  return {D::truth(false), D::truth(false), D::template lit<8>(kNoSleep), D::template lit<64>(0),
          D::template lit<64>(0)};
}

// The runtime policy since v5.17. Extended delay: c = clamp(hint, 1, 1000)
// ms; c <= 20 -> usleep_range(c*100 us, c*1000 us) (the hint is an order of
// magnitude, not a minimum), else msleep(c); retry. Busy: cond_resched()
// only, retry at once. Anything else: nothing, no retry. With `fsleep` (newer
// kernels) an extended delay requests fsleep(c*1000 us) instead.
template <class D>
Step<D> reference_step(typename D::template U<32> status, bool fsleep) {
  using U64 = typename D::template U<64>;
  const auto ext = is_extended_delay<D>(status);
  const auto busy = is_busy<D>(status);
  const U64 hint = D::template zext<64>(delay_time_ms<D>(status));
  const U64 lo = D::template lit<64>(1);
  const U64 hi = D::template lit<64>(kMaxSleepMs);
  const U64 c = D::ite(hint < lo, lo, D::ite(hint > hi, hi, hint));
  const auto short_sleep = c <= D::template lit<64>(kUsleepRangeMaxMs);
  const U64 c_us = c * D::template lit<64>(1000);
  const U64 zero = D::template lit<64>(0);
  Step<D> s = no_step<D>();
  s.retry = ext || busy;
  s.cond_resched = busy;
  if (fsleep) {
    s.primitive = D::ite(ext, D::template lit<8>(kFsleep), D::template lit<8>(kNoSleep));
    s.min_us = D::ite(ext, c_us, zero);
  } else {
    s.primitive = D::ite(
        ext, D::ite(short_sleep, D::template lit<8>(kUsleepRange), D::template lit<8>(kMsleep)),
        D::template lit<8>(kNoSleep));
    s.min_us = D::ite(ext, D::ite(short_sleep, c * D::template lit<64>(100), c_us), zero);
  }
  s.max_us = D::ite(ext, c_us, zero);
  return s;
}

// The runtime policy before v5.17: ms = delay_time(status); msleep(ms) only
// if ms != 0 and need_resched(); retry iff ms != 0.
template <class D>
Step<D> legacy_step(typename D::template U<32> status, typename D::Bool need_resched) {
  using U64 = typename D::template U<64>;
  const U64 ms = D::template zext<64>(delay_time_ms<D>(status));
  const auto nonzero = ms != D::template lit<64>(0);
  const auto sleeps = nonzero && need_resched;
  Step<D> s = no_step<D>();
  s.retry = nonzero;
  s.primitive = D::ite(sleeps, D::template lit<8>(kMsleep), D::template lit<8>(kNoSleep));
  s.min_us = s.max_us = D::ite(sleeps, ms * D::template lit<64>(1000), D::template lit<64>(0));
  return s;
}

// The early-boot policy: no scheduler, so an extended delay means mdelay(1)
// and a count of consecutive extended delays; the 1001st in a row gives up
// (no retry) and resets the count, so that a later loop starts afresh. Busy
// retries and resets the count; anything else stops and resets it.
template <class D>
Step<D> early_step(typename D::template U<32> status, typename D::template U<32>& consecutive) {
  using U32 = typename D::template U<32>;
  const auto ext = is_extended_delay<D>(status);
  const auto busy = is_busy<D>(status);
  const U32 bumped = consecutive + D::template lit<32>(1);
  const auto give_up = ext && bumped > D::template lit<32>(kEarlyGiveUpAfter);
  Step<D> s = no_step<D>();
  s.retry = busy || (ext && !give_up);
  s.primitive = D::ite(ext, D::template lit<8>(kMdelay), D::template lit<8>(kNoSleep));
  s.min_us = s.max_us = D::ite(ext, D::template lit<64>(1000), D::template lit<64>(0));
  consecutive = D::ite(ext && !give_up, bumped, D::template lit<32>(0));
  return s;
}

// --- the subjects, as policies with one signature ---------------------------
//
// Each policy names its subject and form and steps through Context<D>. The
// checks are templates over a policy; witnesses (tests/witnesses/) have the
// same shape.

struct ReferencePolicy {
  static constexpr std::string_view subject = "reference";
  static constexpr std::string_view form = "usleep_range/msleep";
  template <class D>
  static Step<D> step(typename D::template U<32> status, Context<D>&) {
    return reference_step<D>(status, false);
  }
};

struct ReferenceFsleepPolicy {
  static constexpr std::string_view subject = "reference";
  static constexpr std::string_view form = "fsleep";
  template <class D>
  static Step<D> step(typename D::template U<32> status, Context<D>&) {
    return reference_step<D>(status, true);
  }
};

struct LegacyPolicy {
  static constexpr std::string_view subject = "legacy";
  static constexpr std::string_view form = "msleep if need_resched";
  template <class D>
  static Step<D> step(typename D::template U<32> status, Context<D>& ctx) {
    return legacy_step<D>(status, ctx.need_resched);
  }
};

struct EarlyPolicy {
  static constexpr std::string_view subject = "early";
  static constexpr std::string_view form = "mdelay, give up after 1000";
  template <class D>
  static Step<D> step(typename D::template U<32> status, Context<D>& ctx) {
    return early_step<D>(status, ctx.consecutive);
  }
};

// --- concrete use ------------------------------------------------------------

// One step's request with plain types.
struct Request {
  bool retry = false;
  bool cond_resched = false;
  Primitive primitive = kNoSleep;
  uint64_t min_us = 0;
  uint64_t max_us = 0;
  friend bool operator==(const Request&, const Request&) = default;
};

struct ConcreteContext {
  bool need_resched = false;
  uint32_t consecutive = 0;
};

template <class Policy>
Request concrete_step(uint32_t status, ConcreteContext& ctx) {
  Context<Concrete> c{ctx.need_resched, Word<32>(ctx.consecutive)};
  const Step<Concrete> s = Policy::template step<Concrete>(Word<32>(status), c);
  ctx.consecutive = c.consecutive.v;
  return {s.retry, s.cond_resched, static_cast<Primitive>(s.primitive.v), s.min_us.v, s.max_us.v};
}

// A policy with its type erased, for the CLI, the simulator and the checks
// that take a subject by name.
using StepFn = Request (*)(uint32_t status, ConcreteContext& ctx);
struct PolicyInfo {
  std::string_view subject;
  std::string_view form;
  StepFn step;
};
template <class Policy>
constexpr PolicyInfo policy_info() {
  return {Policy::subject, Policy::form, &concrete_step<Policy>};
}

// Every form of every subject: reference (both forms), legacy, early.
std::span<const PolicyInfo> policies();
// The forms of one subject; empty for an unknown name.
std::vector<PolicyInfo> policies_of(std::string_view subject);

// A retry loop: the firmware answers `statuses` in turn; the loop stops when
// the policy says not to retry, or when the statuses run out (the firmware
// then answers something final). need_resched() answers `need_resched` at
// every check.
struct LoopCall {
  uint32_t status = 0;
  Request request;
};
struct LoopTrace {
  std::vector<LoopCall> calls;     // one per status consumed
  bool stopped_by_policy = false;  // the last call's request said no retry
  uint64_t requested_max_us = 0;   // sum of the requests' upper ends
  uint32_t cond_resched_calls = 0;
};
LoopTrace drive(StepFn step, std::span<const uint32_t> statuses, bool need_resched,
                ConcreteContext& ctx);

std::string describe(const Request& r);  // "retry, usleep_range(100, 1000 us)"

}  // namespace idlespec::busy_delay
