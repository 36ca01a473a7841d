// The wake-up sweep simulator (spec/governor.md): what the menu governor's
// selections cost on a CPU that is woken at a fixed interval, counted the way
// the kernel's cpuidle sysfs counters count them (usage, above, below, time),
// so that the rows read like seed 004's tables. It is not a check: the
// clauses judge single selections; this shows their effect over time. Pure
// library: no I/O besides parsing a table from a string and rendering plots
// into strings.
//
// THE MODEL
//
// One wakee CPU and a waker. Per wake-up ("idle period") the wakee has just
// run a task, so the period starts with the tick running; the waker's event
// ends it `interval` after it starts:
//   --wake ipi    an IPI at the interval. The wakee has no timer of its own
//                 nearby: the next (non-tick) timer is kFarTimerNs after the
//                 period starts, and every kFarTimerNs after that.
//   --wake timer  the wakee's own hrtimer at the interval (nanosleep-like);
//                 it is the next timer.
// The tick runs every TICK_NSEC (HZ 100, 250, 1000) with a phase drawn
// uniformly per period from a seeded generator (the first tick comes 1 ns to
// TICK_NSEC after the period starts); every subject sees the same phases.
//
// The cpuidle core's loop, once per selection, until the period ends:
//   select   the subject's menu_select() with Inputs:
//              sleep_length  time to the next non-tick timer
//                            (tick_nohz_get_sleep_length()'s return value);
//              delta_tick    time to the next clock event: the next tick or
//                            timer while the tick runs, the next timer once
//                            the tick is stopped (its *delta_next output);
//              tick_stopped  false unless a previous selection of the same
//                            period stopped it; the period's end restarts it;
//              latency limit kNoLatencyLimitNs (no PM QoS request: the CPU
//                            latency QoS default, 2000 s);
//              last_state_idx, last_residency_ns, poll_time_limit from the
//                            previous entry (the previous period's last one
//                            for the first selection of a period).
//            stop_tick (or a tick already stopped) stops the tick, unless
//            the next timer comes before the next tick anyway
//            (tick_nohz_idle_stop_tick() then keeps it).
//   enter    a polling state polls until the period's end event or its
//            timeout, whichever is first; the timeout is the target residency
//            of the first non-polling state of the table (cpuidle-pseries'
//            snooze_timeout; at least 1 ns); a timeout sets poll_time_limit.
//            Ticks and other timers do not end polling (no need_resched), but
//            a tick during it is reported (got_tick).
//            A non-polling state is left at the first of: the period's end
//            event, the next tick while it runs (got_tick), the next
//            non-tick timer. Leaving costs the state's exit latency, which
//            is part of the time the core measures.
//   account  cpuidle_enter_state(): residency = time from entry to the return
//            of the state (exit latency included); usage++, time += residency;
//            above++ if residency < the state's target residency and an
//            enabled shallower state exists; else, if residency > exit
//            latency, below++ if residency - exit latency >= the target
//            residency of the next deeper enabled state.
//   reflect  menu_reflect(): needs_update, tick_wakeup = got_tick.
//   again    if the period's end event has not come yet (a tick, a timer or
//            a polling timeout ended the state) the core selects again for
//            the rest of the period; otherwise the period ends.
//
// TEO (`--governor teo`) runs the same loop: select is teo_select() with the
// same inputs, and reflect records the entry (state, residency, got_tick,
// polling time-out) that teo_update() learns from at the start of the next
// selection, as teo_select() calls it in the kernel.
//
// Each (subject, interval) starts from a fresh history (menu_enable_device)
// and runs kWarmupWakeups periods that are not counted, then the counted
// ones; percentages are of selections (entries), as seed 004's "Above %".
//
// KNOWN LIMITS (compared with seed 004's measurements on a POWER10 LPAR):
//   - The interval is exact and the whole interval is idle: the real wakee
//     runs a little after each wake-up, the waker's IPI is late by a variable
//     amount, and other interrupts come now and then. Boundaries are sharp
//     here (a row is 0 % or 100 %) where the seed's rows blur.
//   - The declared exit latency (CEDE: 12 us) is paid in full on every exit.
//     A real CEDE exit is usually faster, so the residency the kernel
//     measures is shorter, which moves the boundaries: e.g. v6.14 stops
//     counting "above" here once interval + 12 us >= 120 us (108 us), in the
//     seed at ~125 us.
//   - No other task, no other CPU, no QoS request, no cpufreq.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "impl/governor.h"
#include "impl/teo.h"

namespace idlespec::governor::sim {

inline constexpr uint64_t kFarTimerNs = 10 * 1000 * kNsecPerUsec;  // --wake ipi: next timer
inline constexpr uint64_t kWarmupWakeups = 300;
// PM_QOS_CPU_LATENCY_DEFAULT_VALUE (2000 s) in ns: cpuidle_governor_latency_req()
// with no QoS request.
inline constexpr uint64_t kNoLatencyLimitNs = 2000ULL * kNsecPerSec;
inline constexpr uint64_t kMaxIntervalUs = 1000000;  // 1 s
// A period that needs more selections than this is ended by force and counted
// in Row::truncated (a table whose polling timeout is tiny can spin).
inline constexpr uint64_t kMaxSelectionsPerPeriod = 100000;

enum class Wake { ipi, timer };
std::string_view wake_name(Wake w);
std::optional<Wake> parse_wake(std::string_view s);
bool valid_hz(unsigned hz);  // 100, 250 or 1000

// Seed 004's 27 sleep intervals: 2, 5, 7, 12, 22, 32, ..., 152 (step 10),
// 202, 302, ..., 1002 us.
std::vector<uint64_t> default_intervals_us();

// "2,5,22" -> {2, 5, 22}: whole microseconds 1..kMaxIntervalUs. On a bad list
// returns nullopt and sets `error`.
std::optional<std::vector<uint64_t>> parse_intervals(std::string_view list, std::string& error);

// The JSON that `idlespec decode xcede --json` prints: an object whose
// "states" array holds {"name", "exit_latency_us", "target_residency_us",
// "flags": ["POLLING", "TIMER_STOP"]} (an optional "disabled": true disables
// a state). A top-level array of such states is accepted too. On bad input
// returns nullopt and sets `error` to "offset N: ..." (syntax) or
// "$.states[i].field: ..." (content).
std::optional<std::vector<TableEntry>> parse_table_json(std::string_view text, std::string& error);

struct Config {
  Wake wake = Wake::ipi;
  unsigned hz = 100;
  uint64_t wakeups = 100000;  // counted periods per (subject, interval)
  uint64_t warmup = kWarmupWakeups;
  uint64_t seed = 1;
  uint64_t latency_req_ns = kNoLatencyLimitNs;
};

struct Row {
  std::string subject;
  uint64_t interval_us = 0;
  uint64_t wakeups = 0;     // counted periods
  uint64_t selections = 0;  // entries (the sum of usage)
  uint64_t above = 0;
  uint64_t below = 0;
  std::vector<uint64_t> usage;  // per state
  uint64_t poll_time_ns = 0;    // time in polling states
  uint64_t idle_time_ns = 0;    // time in all states (exit latencies included)
  uint64_t tick_wakeups = 0;    // entries that reported got_tick
  uint64_t truncated = 0;       // periods ended by kMaxSelectionsPerPeriod

  double above_pct() const;
  double below_pct() const;
};

// One (subject, interval) run.
Row run_interval(const SubjectOps& subject, std::span<const TableEntry> table, uint64_t interval_us,
                 const Config& config);

// Every subject over every interval, subject-major.
std::vector<Row> sweep(std::span<const SubjectOps* const> subjects,
                       std::span<const TableEntry> table, std::span<const uint64_t> intervals_us,
                       const Config& config);

// The same loop with TEO (impl/teo.h) as the governor: teo_select() for each
// selection, teo_update() for the previous entry's period at the start of
// the next one, as the kernel runs it. Rows are named "teo-<subject>".
Row run_interval(const teo::SubjectOps& subject, std::span<const TableEntry> table,
                 uint64_t interval_us, const Config& config);
std::vector<Row> sweep(std::span<const teo::SubjectOps* const> subjects,
                       std::span<const TableEntry> table, std::span<const uint64_t> intervals_us,
                       const Config& config);

// --- output -------------------------------------------------------------------

// "snooze 0/0 us POLLING, CEDE 12/120 us"
std::string describe_table(std::span<const TableEntry> table);

// CSV with a header: subject,interval_us,wakeups,selections,above,below,
// above_pct,below_pct,poll_time_us,idle_time_us,tick_wakeups,usage_<state>...
std::string to_csv(std::span<const Row> rows, std::span<const TableEntry> table);

// Above % and below % against the interval (log scale), two panels stacked,
// one <path class="above|below" data-subject="NAME"> per subject and panel,
// a legend. `title` goes on top.
std::string plot_svg(std::span<const Row> rows, std::span<const std::string> subjects,
                     const std::string& title);

// A gnuplot script that draws the same two panels into `png_path`, with the
// data inline.
std::string gnuplot_script(std::span<const Row> rows, std::span<const std::string> subjects,
                           const std::string& title, const std::string& png_path);

}  // namespace idlespec::governor::sim
