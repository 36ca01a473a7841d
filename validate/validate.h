// `idlespec validate` (issue 6), first slice: check an unmodified
// kernel-style C file's RTAS busy-delay functions against spec/busy_delay.md.
//
// Clause mapping (what the harness, validate/harness_busy_delay.c, runs):
//
//   BUSY-4  rtas_busy_delay_time(), every 32-bit status (2^32 calls, plain
//           -O2 build): exactly -2 -> 1, 990n -> 10^n, anything else -> 0.
//   BUSY-1  rtas_busy_delay(), every 32-bit status, need_resched() false and
//           true, system_state SYSTEM_RUNNING (2 x 2^32 calls): retry exactly
//           for -2 and 9900..9905.
//   BUSY-2  same calls, status -2: no sleep or delay of any kind
//           (cond_resched() allowed).
//   BUSY-3  same calls, 990n: exactly one sleep (usleep_range, msleep, fsleep
//           or mdelay: the spec accepts either form) with min <= max,
//           max <= c*1000 us, min >= c*100 us, c = min(10^n, 1000) ms; no
//           cond_resched().
//   BUSY-5  same calls, any other status: no sleep, no cond_resched(), no
//           retry (might_sleep() is counted by no clause).
//   BUSY-7  rtas_busy_delay() with system_state SYSTEM_BOOTING (the early-boot
//           helper): 1000 consecutive extended delays retry with one
//           mdelay(1) each, the 1001st gives up; the count resets on giving
//           up, on -2 (which retries without delay) and on 8 other statuses
//           (which stop without delay).
//   BUSY-6  (loop bound) is not checked by validate yet.
//
// With --scan sampled the three 2^32 scans become -65536..65535 plus 2^24
// statuses spread over the rest (seconds -> tens of milliseconds); the
// coverage line says so.
//
// Every clause is also run on ~30 boundary statuses (and the BUSY-7
// sequences) in a -fsanitize=address,undefined build; a sanitizer report
// fails the clause of the status in flight.
//
// Verdicts: held (its runs finished, nothing found), failed (a finding: a
// wrong answer, a crash, a hang, a WARN_ON/BUG_ON, a sanitizer report),
// error (a run died or ran out of budget before covering the clause), absent
// (the function the clause needs is not in the file).
#pragma once

#include <string>
#include <vector>

#include "validate/extract.h"

namespace idlespec::validate {

struct Options {
  std::string source;                  // the C file
  std::vector<std::string> functions;  // empty: rtas_busy_delay_time and rtas_busy_delay
  double budget_seconds = 120;         // wall-clock limit per harness run
  bool sanitizers = true;              // also the ASan + UBSan boundary run
  std::string cc = "cc";               // the system C compiler
  std::string validate_dir;            // where harness_busy_delay.c and shims/ live
  bool keep_temp = false;              // keep the temp dir (its path is reported)
  bool sampled = false;                // scan -65536..65535 + 2^24 spread statuses, not all 2^32
};

struct ClauseVerdict {
  std::string id;                            // "BUSY-4"
  std::string function;                      // the function it is checked on
  std::string status;                        // held | failed | error | absent
  std::string coverage;                      // what the runs covered
  std::vector<std::string> counterexamples;  // "status 0x000026b2 (9906), need_resched=0: ..."
  std::string error;                         // for error
};

struct RunRecord {
  std::string build;  // plain | sanitizers
  std::string mode;   // scan-time, scan-policy 0, ...
  double seconds = 0;
  std::string outcome;  // finished | aborted | timed out | died (...)
};

struct Report {
  std::string source;
  std::vector<FoundFunction> functions;
  std::vector<std::string> prelude;
  std::vector<ClauseVerdict> clauses;
  std::vector<RunRecord> runs;
  std::vector<std::string> notes;
  std::string build_error;  // non-empty: the compiler's message (exit 2)
  std::string temp_dir;
  double seconds = 0;
  int exit_code = 0;  // 0 all held, 1 otherwise, 2 build error
};

// Extract, build, run, judge. Never throws for problems of the file under
// test; a file that cannot be read is a build_error.
Report validate(const Options& options);

std::string render_text(const Report& report);
std::string render_json(const Report& report);

}  // namespace idlespec::validate
