#include "impl/query.h"

#include <string>

namespace idlespec::xcede {

RetryStep minimal_busy_policy(int32_t status) {
  if (status == kRtasBusy) return {true, 0, true};
  if (status >= kRtasExtendedDelayMin && status <= kRtasExtendedDelayMax) {
    uint32_t ms = 1;
    for (int32_t n = kRtasExtendedDelayMin; n < status; ++n) ms *= 10;
    return {true, ms > 1000 ? 1000u : ms, false};
  }
  return {};
}

RetryStep single_call_policy(int32_t) { return {}; }

QueryResult query(std::span<const int32_t> scripted, std::span<const uint8_t> buffer,
                  uint32_t capacity, RetryPolicy policy) {
  QueryResult q;
  for (size_t call = 0;; ++call) {
    const int32_t status = call < scripted.size() ? scripted[call] : kRtasSuccess;
    q.statuses.push_back(status);
    if (status == kRtasSuccess) break;
    const RetryStep step = policy(status);
    if (!step.retry) {
      q.final_status = status;
      q.decoded.error = Diagnostic{"XCEDE-6", 0,
                                   "xcede: Error parsing CEDE_LATENCY_TOKEN (RTAS status " +
                                       std::to_string(status) + "): no records, no fix-up"};
      return q;
    }
    q.requested_sleep_ms += step.sleep_ms;
    q.yields += step.yielded;
  }
  q.decoded = decode(buffer, capacity);
  return q;
}

}  // namespace idlespec::xcede
