#include "properties/busy_delay_model.h"

#include "impl/text.h"

namespace idlespec::props::bd_model {

std::string clause_id(unsigned index) { return "BUSY-" + std::to_string(index + 1); }

unsigned clause_mask(std::initializer_list<std::string_view> ids) {
  unsigned mask = 0;
  for (std::string_view id : ids) {
    for (unsigned i = 0; i < kClauseCount; ++i) {
      if (id == clause_id(i)) mask |= 1u << i;
    }
  }
  return mask;
}

std::string show_status(uint32_t status) {
  return strprintf("status %d (0x%08x)", static_cast<int32_t>(status), status);
}

std::string spec_expectation(unsigned index, uint32_t status) {
  const StatusClass k = classify(status);
  switch (1u << index) {
    case kBusy1:
      return k == StatusClass::other ? "stop (neither busy nor extended)"
                                     : "retry (busy or extended)";
    case kBusy2:
      return "busy: no sleep of any kind, cond_resched() allowed";
    case kBusy3: {
      const SleepBounds b = spec_sleep_bounds(status);
      return strprintf(
          "extended, hint %u ms: exactly one sleep with %llu us <= min <= max <= %llu us "
          "(min = max unless usleep_range), no cond_resched()",
          spec_delay_time_ms(status), static_cast<unsigned long long>(b.min_us_at_least),
          static_cast<unsigned long long>(b.max_us_at_most));
    }
    case kBusy4:
      return strprintf("delay time %u ms", spec_delay_time_ms(status));
    case kBusy5:
      return "neither busy nor extended: no sleep, no cond_resched(), no retry";
  }
  return "?";
}

}  // namespace idlespec::props::bd_model
