// The simulated ibm,get-system-parameter query for parameter 45.
//
// The firmware answers a scripted list of RTAS statuses in turn; once the
// list is exhausted it answers success and hands over the parameter buffer.
// Busy (-2) and extended-delay (9900..9905) answers are not final: the
// query retries through a busy-delay policy (XCEDE-7). Any other non-zero
// status ends the query with no records and no fix-up (XCEDE-6).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "impl/xcede.h"

namespace idlespec::xcede {

inline constexpr int32_t kRtasSuccess = 0;
inline constexpr int32_t kRtasBusy = -2;
inline constexpr int32_t kRtasExtendedDelayMin = 9900;
inline constexpr int32_t kRtasExtendedDelayMax = 9905;

// What a busy-delay policy decides for one status.
struct RetryStep {
  bool retry = false;
  uint32_t sleep_ms = 0;  // requested sleep before the next call
  bool yielded = false;   // cond_resched() before the next call
};
using RetryPolicy = RetryStep (*)(int32_t status);

// Retry on busy (yield) and on extended delay (sleep 10^n ms, at most 1 s);
// stop on anything else. A minimal stand-in for the busy_delay component.
RetryStep minimal_busy_policy(int32_t status);
// What upstream's parse_cede_parameters() does: one call, no retry.
RetryStep single_call_policy(int32_t status);

struct QueryResult {
  std::vector<int32_t> statuses;  // every status the firmware answered, in order
  uint64_t requested_sleep_ms = 0;
  uint32_t yields = 0;
  int32_t final_status = kRtasSuccess;
  Decoded decoded;  // empty when final_status != 0
  bool succeeded() const { return final_status == kRtasSuccess; }
};

QueryResult query(std::span<const int32_t> scripted_statuses, std::span<const uint8_t> buffer,
                  uint32_t capacity = kDefaultCapacity, RetryPolicy policy = minimal_busy_policy);

}  // namespace idlespec::xcede
