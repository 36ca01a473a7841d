// The simulated ibm,get-system-parameter query for parameter 45.
//
// The firmware answers a scripted list of RTAS statuses in turn; once the
// list is exhausted it answers success and hands over the parameter buffer.
// Busy (-2) and extended-delay (9900..9905) answers are not final: the
// query retries through a busy-delay policy (XCEDE-7), by default the
// busy_delay component's reference policy. Any other non-zero
// status ends the query with no records and no fix-up (XCEDE-6).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "impl/busy_delay.h"
#include "impl/xcede.h"

namespace idlespec::xcede {

inline constexpr int32_t kRtasSuccess = 0;

// The busy-delay policy the query retries through (spec/busy_delay.md).
using RetryPolicy = busy_delay::StepFn;

// The kernel's rtas_busy_delay() since v5.17: the busy_delay component's
// reference subject.
inline constexpr RetryPolicy kReferenceRetryPolicy =
    &busy_delay::concrete_step<busy_delay::ReferencePolicy>;
// What upstream's parse_cede_parameters() does: one call, no retry.
busy_delay::Request single_call_policy(uint32_t status, busy_delay::ConcreteContext& ctx);

struct QueryResult {
  std::vector<int32_t> statuses;    // every status the firmware answered, in order
  uint64_t requested_sleep_us = 0;  // sum of the sleep requests' upper ends
  uint32_t yields = 0;              // cond_resched() calls
  int32_t final_status = kRtasSuccess;
  Decoded decoded;  // empty when final_status != 0
  bool succeeded() const { return final_status == kRtasSuccess; }
};

QueryResult query(std::span<const int32_t> scripted_statuses, std::span<const uint8_t> buffer,
                  uint32_t capacity = kDefaultCapacity, RetryPolicy policy = kReferenceRetryPolicy);

}  // namespace idlespec::xcede
