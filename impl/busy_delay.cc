#include "impl/busy_delay.h"

#include "impl/text.h"

namespace idlespec::busy_delay {

std::string_view primitive_name(Primitive p) {
  switch (p) {
    case kNoSleep:
      return "none";
    case kUsleepRange:
      return "usleep_range";
    case kMsleep:
      return "msleep";
    case kFsleep:
      return "fsleep";
    case kMdelay:
      return "mdelay";
  }
  return "unknown";
}

std::span<const PolicyInfo> policies() {
  static constexpr PolicyInfo all[] = {
      policy_info<ReferencePolicy>(),
      policy_info<ReferenceFsleepPolicy>(),
      policy_info<LegacyPolicy>(),
      policy_info<EarlyPolicy>(),
  };
  return all;
}

std::vector<PolicyInfo> policies_of(std::string_view subject) {
  std::vector<PolicyInfo> out;
  for (const PolicyInfo& p : policies()) {
    if (p.subject == subject) out.push_back(p);
  }
  return out;
}

LoopTrace drive(StepFn step, std::span<const uint32_t> statuses, bool need_resched,
                ConcreteContext& ctx) {
  LoopTrace t;
  for (uint32_t status : statuses) {
    ctx.need_resched = need_resched;
    const Request r = step(status, ctx);
    t.calls.push_back({status, r});
    t.requested_max_us += r.max_us;
    t.cond_resched_calls += r.cond_resched;
    if (!r.retry) {
      t.stopped_by_policy = true;
      break;
    }
  }
  return t;
}

std::string describe(const Request& r) {
  std::string s = r.retry ? "retry" : "stop";
  if (r.cond_resched) s += ", cond_resched()";
  switch (r.primitive) {
    case kNoSleep:
      break;
    case kUsleepRange:
      s += strprintf(", usleep_range(%llu, %llu us)", static_cast<unsigned long long>(r.min_us),
                     static_cast<unsigned long long>(r.max_us));
      break;
    case kMsleep:
      s += strprintf(", msleep(%llu ms)", static_cast<unsigned long long>(r.max_us / 1000));
      break;
    case kFsleep:
      s += strprintf(", fsleep(%llu us)", static_cast<unsigned long long>(r.max_us));
      break;
    case kMdelay:
      s += strprintf(", mdelay(%llu ms)", static_cast<unsigned long long>(r.max_us / 1000));
      break;
    default:
      s += strprintf(", primitive %u (%llu..%llu us)", static_cast<unsigned>(r.primitive),
                     static_cast<unsigned long long>(r.min_us),
                     static_cast<unsigned long long>(r.max_us));
  }
  return s;
}

}  // namespace idlespec::busy_delay
