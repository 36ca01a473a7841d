#include "impl/busy_delay_sim.h"

#include <cerrno>
#include <cstdlib>

#include "impl/text.h"

namespace idlespec::busy_delay::sim {

std::string_view cpu_name(Cpu c) { return c == Cpu::idle ? "idle" : "busy"; }

std::string_view workload_name(WorkloadKind w) {
  return w == WorkloadKind::dlpar_add ? "dlpar-add" : "dlpar-remove";
}

std::optional<Cpu> parse_cpu(std::string_view s) {
  if (s == "idle") return Cpu::idle;
  if (s == "busy") return Cpu::busy;
  return std::nullopt;
}

std::optional<WorkloadKind> parse_workload(std::string_view s) {
  if (s == "dlpar-add") return WorkloadKind::dlpar_add;
  if (s == "dlpar-remove") return WorkloadKind::dlpar_remove;
  return std::nullopt;
}

bool valid_hz(unsigned hz) { return hz == 100 || hz == 250 || hz == 1000; }

// --- the clock ---------------------------------------------------------------

uint64_t jiffy_us(unsigned hz) { return 1000000 / hz; }

uint64_t msecs_to_jiffies(uint64_t ms, unsigned hz) {
  const uint64_t ms_per_jiffy = 1000 / hz;  // HZ divides 1000 for 100, 250, 1000
  return (ms + ms_per_jiffy - 1) / ms_per_jiffy;
}

uint64_t msleep_us(uint64_t ms, unsigned hz) {
  return (msecs_to_jiffies(ms, hz) + 1) * jiffy_us(hz);
}

uint64_t usleep_range_us(uint64_t min_us, uint64_t max_us) {
  const uint64_t t = min_us + kHrtimerSlackUs;
  return t < max_us ? t : (max_us > min_us ? max_us : min_us);
}

uint64_t fsleep_us(uint64_t us, unsigned hz) {
  if (us <= 10) return us;  // udelay
  if (us <= 20000) return usleep_range_us(us, 2 * us);
  return msleep_us((us + 999) / 1000, hz);
}

uint64_t yield_us(unsigned hz) { return jiffy_us(hz); }

uint64_t sleep_wall_us(const Request& r, unsigned hz, bool* spins) {
  if (spins) *spins = false;
  switch (r.primitive) {
    case kNoSleep:
      return 0;
    case kUsleepRange:
      return usleep_range_us(r.min_us, r.max_us);
    case kMsleep:
      return msleep_us(r.max_us / 1000, hz);
    case kFsleep: {
      if (r.max_us <= 10 && spins) *spins = true;  // fsleep's udelay
      return fsleep_us(r.max_us, hz);
    }
    case kMdelay:
      if (spins) *spins = true;
      return r.max_us;
  }
  return r.max_us;
}

// --- the firmware --------------------------------------------------------------

namespace {

// splitmix64: the same sequence on every platform (std distributions are not).
struct Rng {
  uint64_t s;
  uint64_t next() {
    uint64_t z = (s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  uint64_t uniform(uint64_t lo, uint64_t hi) { return lo + next() % (hi - lo + 1); }
};

Phase work(Rng& rng, uint32_t min_calls, uint32_t max_calls) {
  Phase p;
  p.kind = Phase::kWork;
  p.calls = static_cast<uint32_t>(rng.uniform(min_calls, max_calls));
  p.slice_cpu_us = rng.uniform(50, 1000);
  return p;
}

Phase wait(Rng& rng, int32_t status, uint64_t min_us, uint64_t max_us) {
  Phase p;
  p.kind = Phase::kWait;
  p.status = status;
  p.wait_us = rng.uniform(min_us, max_us);
  return p;
}

}  // namespace

Workload make_workload(WorkloadKind kind, uint64_t seed) {
  Rng rng{seed};
  Workload w;
  w.name = std::string(workload_name(kind));
  for (uint32_t lmb = 0; lmb < kLmbCount; ++lmb) {
    const std::string prefix = strprintf("lmb %u ", lmb);
    if (kind == WorkloadKind::dlpar_add) {
      w.operations.push_back({prefix + "get-sensor-state dr-entity-sense", {}});
      w.operations.push_back({prefix + "set-indicator allocation usable", {work(rng, 20, 60)}});
      Operation unisolate{prefix + "set-indicator isolation unisolate", {}};
      if (rng.uniform(0, 9) == 0) unisolate.phases.push_back(wait(rng, 9900, 500, 2000));
      unisolate.phases.push_back(work(rng, 1, 10));
      w.operations.push_back(std::move(unisolate));
    } else {
      w.operations.push_back({prefix + "set-indicator isolation isolate",
                              {work(rng, 1, 4), wait(rng, 9901, 2000, 8000)}});
      Operation unusable{prefix + "set-indicator allocation unusable", {}};
      unusable.phases.push_back(wait(rng, 9900, 1000, 4000));
      unusable.phases.push_back(work(rng, 1, 4));
      w.operations.push_back(std::move(unusable));
    }
  }
  return w;
}

std::optional<std::vector<uint32_t>> parse_trace(std::string_view text, std::string& error) {
  std::vector<uint32_t> out;
  size_t line_no = 0;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(pos, end - pos);
    pos = end + 1;
    ++line_no;
    if (const auto hash = line.find('#'); hash != std::string_view::npos)
      line = line.substr(0, hash);
    const auto first = line.find_first_not_of(" \t\r");
    if (first == std::string_view::npos) continue;
    line = line.substr(first, line.find_last_not_of(" \t\r") - first + 1);
    const std::string word(line);
    errno = 0;
    char* stop = nullptr;
    const long long v = std::strtoll(word.c_str(), &stop, 10);
    if (*stop != '\0' || errno == ERANGE || v < INT32_MIN ||
        v > static_cast<long long>(UINT32_MAX)) {
      error = strprintf("line %zu: not a 32-bit decimal status: '%s'", line_no, word.c_str());
      return std::nullopt;
    }
    out.push_back(static_cast<uint32_t>(v));
  }
  if (out.empty()) {
    error = "no statuses (one decimal status per line, e.g. -2 or 9901)";
    return std::nullopt;
  }
  return out;
}

// --- a run -----------------------------------------------------------------------

std::string label_of(const PolicyInfo& policy) {
  std::string label(policy.subject);
  if (policy.subject == "reference" && policy.form == ReferenceFsleepPolicy::form)
    label += " (fsleep)";
  return label;
}

namespace {

struct Answer {
  uint32_t status;
  uint64_t cpu_us;
};

// One operation's firmware state.
class OperationModel {
 public:
  explicit OperationModel(const Operation& op) : op_(op) {}

  Answer call(uint64_t now) {
    if (phase_ == op_.phases.size()) return {0, kAnswerCpuUs};
    const Phase& p = op_.phases[phase_];
    if (p.kind == Phase::kWork) {
      if (++done_ < p.calls) return {static_cast<uint32_t>(kRtasBusy), p.slice_cpu_us};
      return {advance(now + p.slice_cpu_us), p.slice_cpu_us};
    }
    if (!started_) {  // an operation that starts with a wait
      started_ = true;
      wait_until_ = now + p.wait_us;
    }
    if (now < wait_until_) return {static_cast<uint32_t>(p.status), kAnswerCpuUs};
    return {advance(now + kAnswerCpuUs), kAnswerCpuUs};
  }

 private:
  // The current phase is done at `end` (the end of this call): answer what
  // comes next.
  uint32_t advance(uint64_t end) {
    ++phase_;
    done_ = 0;
    started_ = false;
    if (phase_ == op_.phases.size()) return 0;
    const Phase& next = op_.phases[phase_];
    if (next.kind == Phase::kWork) return static_cast<uint32_t>(kRtasBusy);
    started_ = true;
    wait_until_ = end + next.wait_us;
    return static_cast<uint32_t>(next.status);
  }

  const Operation& op_;
  size_t phase_ = 0;
  uint32_t done_ = 0;
  bool started_ = false;
  uint64_t wait_until_ = 0;
};

class Runner {
 public:
  Runner(const PolicyInfo& policy, const Config& config) : policy_(policy), config_(config) {
    r_.subject = std::string(policy.subject);
    r_.form = std::string(policy.form);
    r_.label = label_of(policy);
  }

  // One RTAS call answered `a`, then the policy's step; returns retry.
  bool step(const Answer& a) {
    r_.rtas_calls++;
    r_.cpu_us += a.cpu_us;
    r_.elapsed_us += a.cpu_us;
    if (a.status == static_cast<uint32_t>(kRtasBusy)) r_.busy_answers++;
    const auto s = static_cast<int32_t>(a.status);
    if (s >= kExtendedDelayMin && s <= kExtendedDelayMax) r_.extended_answers++;

    ctx_.need_resched = config_.cpu == Cpu::busy;
    const Request req = policy_.step(a.status, ctx_);
    if (req.cond_resched) {
      r_.cond_resched++;
      if (ctx_.need_resched) {
        r_.yields++;
        r_.yield_us += yield_us(config_.hz);
        r_.elapsed_us += yield_us(config_.hz);
      }
    }
    if (req.primitive != kNoSleep) {
      bool spins = false;
      const uint64_t t = sleep_wall_us(req, config_.hz, &spins);
      r_.sleeps++;
      r_.sleep_us += t;
      r_.elapsed_us += t;
      if (spins) {
        r_.spin_us += t;
        r_.cpu_us += t;
      }
    }
    if (!req.retry) {
      r_.loops++;
      const bool busy_or_extended = a.status == static_cast<uint32_t>(kRtasBusy) ||
                                    (s >= kExtendedDelayMin && s <= kExtendedDelayMax);
      if (busy_or_extended) r_.gave_up++;
    }
    return req.retry;
  }

  uint64_t now() const { return r_.elapsed_us; }
  Result& result() { return r_; }

 private:
  const PolicyInfo& policy_;
  Config config_;
  ConcreteContext ctx_;  // persists across loops, as the kernel's early-boot counter does
  Result r_;
};

}  // namespace

Result run_workload(const PolicyInfo& policy, const Workload& workload, const Config& config) {
  Runner run(policy, config);
  for (const Operation& op : workload.operations) {
    OperationModel fw(op);
    while (run.step(fw.call(run.now()))) {
    }
  }
  return run.result();
}

Result run_trace(const PolicyInfo& policy, std::span<const uint32_t> trace, const Config& config) {
  Runner run(policy, config);
  bool in_loop = false;
  for (uint32_t status : trace) {
    in_loop = run.step({status, kAnswerCpuUs});
  }
  if (in_loop) run.result().loops++;  // the trace ended inside a loop
  return run.result();
}

}  // namespace idlespec::busy_delay::sim
