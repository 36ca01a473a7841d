#include "impl/query.h"

#include <string>

namespace idlespec::xcede {

busy_delay::Request single_call_policy(uint32_t, busy_delay::ConcreteContext&) { return {}; }

QueryResult query(std::span<const int32_t> scripted, std::span<const uint8_t> buffer,
                  uint32_t capacity, RetryPolicy policy) {
  QueryResult q;
  busy_delay::ConcreteContext ctx;
  for (size_t call = 0;; ++call) {
    const int32_t status = call < scripted.size() ? scripted[call] : kRtasSuccess;
    q.statuses.push_back(status);
    if (status == kRtasSuccess) break;
    const busy_delay::Request step = policy(static_cast<uint32_t>(status), ctx);
    if (!step.retry) {
      q.final_status = status;
      q.decoded.error = Diagnostic{"XCEDE-6", 0,
                                   "xcede: Error parsing CEDE_LATENCY_TOKEN (RTAS status " +
                                       std::to_string(status) + "): no records, no fix-up"};
      return q;
    }
    q.requested_sleep_us += step.max_us;
    q.yields += step.cond_resched;
  }
  q.decoded = decode(buffer, capacity);
  return q;
}

}  // namespace idlespec::xcede
