// The busy-delay simulator (spec/busy_delay.md, "The simulator"): what the
// policies' requests cost. Each subject's policy (impl/busy_delay.h) runs in
// the caller's retry loop
//
//     do { status = rtas_call(...); } while (policy(status));
//
// against a firmware model, on a modelled clock and scheduler, and the run
// reports wall time, CPU time and RTAS calls. It is not a check: the clauses
// judge requests; this shows what they cost. Pure library: no I/O besides
// parsing a trace from a string.
//
// THE MODEL
//
// Firmware. One RTAS *operation* (one retry loop, e.g. one
// ibm,set-indicator call) is a list of phases; it answers success (0) on the
// call after its last phase is done.
//   - work phase (answers -2): the operation needs `calls` calls' worth of
//     work. Each call performs one slice of it, costing `slice_cpu_us` of CPU
//     (firmware runs on the caller's CPU), and answers -2 until the work is
//     done; the call doing the last slice answers what comes next. "Busy"
//     means firmware progresses only while it is called: waiting between
//     calls gains nothing.
//   - wait phase (answers 990x): firmware waits for an external event that
//     completes `wait_us` of wall time after the phase starts, whatever the
//     caller does. Calls before then answer the phase's 990x and cost
//     kAnswerCpuUs each; the first call after it answers what comes next.
//   "What comes next" is success after the last phase, else the next phase's
//   status (a wait starts its clock at that call; a work phase's slices start
//   at the following call).
// A DLPAR request such as "memory remove count 20" is a sequence of per-LMB
// operations, as pseries' hotplug-memory.c issues them: add =
// dlpar_acquire_drc (get-sensor-state, set-indicator allocation-state usable,
// set-indicator isolation-state unisolate), remove = dlpar_release_drc
// (set-indicator isolation-state isolate, set-indicator allocation-state
// unusable). make_workload() draws the phases from a seeded generator
// (deterministic for a seed):
//   dlpar-add     allocate: work 20..60 calls; unisolate: work 1..10 calls,
//                 in one LMB of ten preceded by a 9900 wait of 0.5..2 ms.
//                 Mostly -2: the hypervisor hands the LMB over while called.
//   dlpar-remove  isolate: work 1..4 calls, then a 9901 wait of 2..8 ms;
//                 unusable: a 9900 wait of 1..4 ms, then work 1..4 calls.
//                 Mostly 9900/9901: firmware waits for the LMB to be
//                 released, a few ms per operation.
//   Work slices cost 50..1000 us of CPU each (drawn per phase): the
//   "tens of us to ~1 ms" that firmware takes per call in practice, PAPR's
//   "a few tens of microseconds" being a target that long operations miss.
// A trace (parse_trace) replaces the firmware: its statuses are answered in
// order, each call costing kAnswerCpuUs; a loop that ends starts the next one
// at the next status. Time then advances only by calls and the policy.
//
// Clock.
//   - msleep(n): (msecs_to_jiffies(n) + 1) jiffies of wall time (the timeout
//     is rounded up to jiffies and one more jiffy guarantees "at least n ms"):
//     msleep(1) = 20 ms at HZ=100, 8 ms at HZ=250, 2 ms at HZ=1000.
//   - usleep_range(min, max): min + kHrtimerSlackUs (capped at max), the
//     spec's "lower end plus timer slack"; 50 us is a normal task's default
//     timer_slack_ns.
//   - fsleep(us): the kernel's fsleep(): <= 20 ms -> usleep_range(us, 2*us),
//     else msleep(DIV_ROUND_UP(us, 1000)).
//   - mdelay(ms): spins: ms of wall time and ms of CPU time.
//   CPU time counts RTAS calls (firmware runs on our CPU) and spinning;
//   sleeping and waiting for the CPU cost us none.
//
// Scheduler (a non-preemptible kernel: our task leaves the CPU only when it
// sleeps or in cond_resched()).
//   - idle: need_resched() is never true; cond_resched() returns at once and
//     costs nothing.
//   - busy: every CPU runs a CPU-bound task (stress-ng --cpu N).
//     need_resched() is true at every check (the spec's rule). cond_resched()
//     then gives the CPU away for one jiffy (yield_us()): the hog never
//     sleeps, so the CPU comes back to us only when a scheduler tick finds the
//     hog has used its slice; the default slice (0.75 ms x (1 + log2 CPUs),
//     3 ms with 8 CPUs or more) is below a jiffy at HZ=100 and HZ=250, so the
//     first tick, one jiffy, is the typical wait. A task waking from a sleep
//     preempts the hog at once (wakeup preemption favours sleepers), so
//     sleeps cost only their own length.
//
// KNOWN LIMITS (compared with seed 003's measurements; the model reproduces
// its qualitative shape at HZ=100, see tests/unit/busy_delay_sim_test.cc):
//   - "need_resched() at every check" overstates a busy CPU. In the kernel
//     the tick sets TIF_NEED_RESCHED once our task has used its slice, and
//     schedule() clears it: we run a slice of calls between yields. Hence
//     busy-CPU elapsed times here are several times the idle ones, and
//     legacy on a busy dlpar-remove makes fewer RTAS calls than the
//     reference (it sleeps on every 990x), where the seed measured more.
//   - An "idle" system is not quiet: per-CPU kworkers woken during hotplug
//     set need_resched() now and then, each costing legacy a jiffy-rounded
//     msleep; the seed's idle-system elapsed gains come from that and are
//     absent here.
//   - usleep_range() really wakes at the upper end unless another timer
//     interrupt (e.g. a tick) falls inside the range; the lower end plus
//     slack (the spec's rule) gives the reference more calls on 9900.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "impl/busy_delay.h"

namespace idlespec::busy_delay::sim {

inline constexpr uint64_t kAnswerCpuUs = 50;     // a call that does no work slice
inline constexpr uint64_t kHrtimerSlackUs = 50;  // usleep_range wakes at min + this
inline constexpr uint32_t kLmbCount = 20;        // "memory add/remove count 20"

enum class Cpu { idle, busy };
enum class WorkloadKind { dlpar_add, dlpar_remove };

std::string_view cpu_name(Cpu c);                  // "idle", "busy"
std::string_view workload_name(WorkloadKind w);    // "dlpar-add", ...
std::optional<Cpu> parse_cpu(std::string_view s);  // nullopt if unknown
std::optional<WorkloadKind> parse_workload(std::string_view s);
bool valid_hz(unsigned hz);  // 100, 250 or 1000

// --- the clock ---------------------------------------------------------------

uint64_t jiffy_us(unsigned hz);
uint64_t msecs_to_jiffies(uint64_t ms, unsigned hz);  // rounded up, as the kernel's
uint64_t msleep_us(uint64_t ms, unsigned hz);         // wall time of msleep(ms)
uint64_t usleep_range_us(uint64_t min_us, uint64_t max_us);
uint64_t fsleep_us(uint64_t us, unsigned hz);
uint64_t yield_us(unsigned hz);  // cond_resched() on a busy CPU

// The wall time a request's sleep lasts (0 for none); `spins` is set for
// mdelay, whose wall time is also CPU time.
uint64_t sleep_wall_us(const Request& r, unsigned hz, bool* spins = nullptr);

// --- the firmware --------------------------------------------------------------

struct Phase {
  enum Kind { kWork, kWait } kind = kWork;
  uint32_t calls = 0;                  // work: calls' worth of work (>= 1)
  uint64_t slice_cpu_us = 0;           // work: CPU per call
  int32_t status = kExtendedDelayMin;  // wait: the 990x answered meanwhile
  uint64_t wait_us = 0;                // wait: the event completes this long after the phase starts
};

struct Operation {
  std::string name;  // e.g. "lmb 3 set-indicator isolate"
  std::vector<Phase> phases;
};

struct Workload {
  std::string name;
  std::vector<Operation> operations;
};

Workload make_workload(WorkloadKind kind, uint64_t seed);

// A trace file: one status per line, decimal (-2, 9901, 0 ...); '#' starts a
// comment; blank lines are skipped. On a bad line returns nullopt and sets
// `error` to "line N: ..." (N from 1).
std::optional<std::vector<uint32_t>> parse_trace(std::string_view text, std::string& error);

// --- a run -----------------------------------------------------------------------

struct Config {
  unsigned hz = 100;
  Cpu cpu = Cpu::idle;
};

struct Result {
  std::string subject;
  std::string form;
  std::string label;  // "reference", "reference (fsleep)", "legacy", "early"
  uint64_t elapsed_us = 0;
  uint64_t cpu_us = 0;
  uint64_t rtas_calls = 0;
  uint64_t busy_answers = 0;      // calls answered -2
  uint64_t extended_answers = 0;  // calls answered 9900..9905
  uint64_t loops = 0;             // retry loops run (operations, or trace loops)
  uint64_t gave_up = 0;           // loops the policy ended on a busy/extended status
  uint64_t sleeps = 0;            // sleep requests (usleep_range, msleep, fsleep, mdelay)
  uint64_t sleep_us = 0;          // wall time in them (mdelay included)
  uint64_t spin_us = 0;           // of which spinning (mdelay): CPU time too
  uint64_t cond_resched = 0;      // cond_resched() calls
  uint64_t yields = 0;            // of which gave the CPU away
  uint64_t yield_us = 0;          // wall time without the CPU because of them
};

Result run_workload(const PolicyInfo& policy, const Workload& workload, const Config& config);
Result run_trace(const PolicyInfo& policy, std::span<const uint32_t> trace, const Config& config);

// "reference" for the usleep_range/msleep form, "reference (fsleep)", ...
std::string label_of(const PolicyInfo& policy);

}  // namespace idlespec::busy_delay::sim
