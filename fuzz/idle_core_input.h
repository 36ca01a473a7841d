// The idle_core_fuzz driver: one fuzz input -> a core configuration and a
// schedule -> the implementation (impl/idle_core_model.h apply<Subject>) run
// move by move -> every move judged by the oracle (oracle/idle_core.h),
// which is written from spec/idle_core.md and shares no code with the step
// function.
//
// Discharges, for the inputs it is given, IDLE-3, IDLE-4, IDLE-5, IDLE-6 and
// IDLE-9 (the oracle also judges IDLE-2 and the kernel assertions; the
// libFuzzer target aborts on any of them). fuzz/idle_core_fuzz.cc aborts on
// the first violation of the reference; `fuzz-replay idle_core_fuzz`
// (fuzz/idle_core_corpus_check.cc) replays the stored corpus.
//
// Input layout. Byte 0 is the configuration (a missing byte reads as 0):
//   bits 0-3  kConfigs[index]: POWER8 SMT1/2/4/8, split 2x1, 2x2, 4x1, 2x4,
//             4x2; POWER9 SMT1/2/4; then SMT2, SMT4, POWER9 SMT2 and 2x2 again
//   bit  4    POWER8: the fastsleep workaround off (POWER9 has none)
//   bits 5-7  ignored
// then one op per byte:
//   0xf8..0xff  the core loses state, at the level the threads' kinds give
//               (skipped when it cannot: a thread awake or in nap / a shallow
//               stop, or nothing more to lose)
//   otherwise   thread (b & 7) % threads moves, by the oracle's view of it:
//     running           begins to idle with kind (b >> 3) & 3: 0 nap /
//                       shallow stop, 1 sleep / deep stop, 2 and 3 winkle /
//                       timebase-loss stop
//     in hardware idle  the hardware wakes it
//     entering, waking  1 + ((b >> 5) & 3) steps
//   and with bit 7 set, the thread then steps on until it rests (in hardware
//   idle or running) or spins on the lock (it waits for another thread).
// Ops past kMaxMoves moves are dropped. Every choice is valid but the loss,
// so a mutated input is still a schedule.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "impl/idle_core.h"
#include "impl/idle_core_model.h"
#include "oracle/idle_core.h"
#include "oracle/violation.h"

namespace idlespec::idle_core_fuzz {

using idle_core::Config;
using idle_core::Kind;

inline constexpr size_t kMaxMoves = 4096;
inline constexpr uint8_t kLossOp = 0xff;

// The configurations byte 0 selects (bits 0-3).
const std::array<Config, 16>& configurations();

struct Input {
  Config config;
  std::vector<uint8_t> ops;
};
Input parse_input(std::span<const uint8_t> data);
// Byte 0 for `c` (the first index of kConfigs with its shape; bit 4 when the
// POWER8 workaround is off). Throws std::invalid_argument for a shape the
// table does not hold.
uint8_t config_byte(const Config& c);

// Op bytes, for seeds and tests. `run`: then step on until it rests or spins.
uint8_t op_begin(unsigned t, Kind k, bool run = true);
uint8_t op_wake(unsigned t, bool run = true);
uint8_t op_step(unsigned t, unsigned steps = 1);  // 1..4 steps
uint8_t op_run(unsigned t);                       // step until it rests or spins

struct Outcome {
  idle_core::oracle::Verdict verdict;        // the first violation; ok() if none
  size_t violation_move = 0;                 // its move (1-based)
  size_t moves = 0;                          // moves made
  std::vector<idle_core::oracle::Row> rows;  // one per move, when kept
  size_t ops = 0;                            // ops run
  size_t skipped = 0;                        // loss ops skipped (the core could not lose state)
  bool ok() const { return verdict.ok(); }
};

// Whether run() keeps a row per move (for the timeline) or only counts them:
// the libFuzzer target counts, and runs a failing input again to report it.
enum class Rows { kept, counted };

// Runs the schedule against `Subject` and judges every move; stops at the
// first violation.
template <class Subject = idle_core::Reference>
Outcome run(const Input& in, Rows rows) {
  using namespace idle_core;
  Outcome out;
  idle_core::oracle::Oracle o(in.config);
  CoreState s = initial_state(in.config);
  if (rows == Rows::kept) out.rows.reserve(64);
  const auto move = [&](const Move& m) {
    const Transition tr = apply<Subject>(in.config, s, m);
    ++out.moves;
    if (rows == Rows::kept) out.rows.push_back({tr, s.word});
    idle_core::oracle::Verdict v = o.observe(tr, s.word);
    if (!v.ok() && out.verdict.ok()) {
      out.verdict = std::move(v);
      out.violation_move = out.moves;
    }
    return tr;
  };
  const auto stepping = [&](unsigned t) { return o.may_step(t); };
  for (const uint8_t b : in.ops) {
    if (!out.verdict.ok() || out.moves >= kMaxMoves) break;
    ++out.ops;
    if (b >= 0xf8) {
      if (o.loss_possible() == Loss::none) {
        ++out.skipped;
      } else {
        move({MoveKind::core_loss, 0, Kind::none});
      }
      continue;
    }
    const auto t = static_cast<uint8_t>((b & 7) % in.config.threads);
    const bool run_on = b & 0x80;
    unsigned steps = 0;  // steps left after the first move
    if (o.may_begin_idle(t)) {
      const unsigned sel = (b >> 3) & 3;
      move({MoveKind::begin_idle, t, o.kinds()[sel < 2 ? sel : 2]});
    } else if (o.may_wake(t)) {
      move({MoveKind::wake, t, Kind::none});
    } else {
      steps = 1 + ((b >> 5) & 3);
    }
    if (run_on) steps = kMaxMoves;
    bool spun = false;
    while (steps-- > 0 && stepping(t) && !spun && out.verdict.ok() && out.moves < kMaxMoves) {
      spun = move({MoveKind::step, t, Kind::none}).result.event == Event::spin && run_on;
    }
  }
  return out;
}
template <class Subject = idle_core::Reference>
Outcome run(const Input& in) {
  return run<Subject>(in, Rows::kept);
}

// The libFuzzer target's check: the reference, every move judged; the rows
// are kept only with Rows::kept (report_and_abort runs the input again).
Outcome check_fuzz_input(std::span<const uint8_t> data, Rows rows = Rows::kept);

// "power8 SMT4 2x2; 17 ops"
std::string describe(const Input& in);
using oracle::hex;
// The timeline of the outcome, the violating move marked.
std::string timeline(const Config& c, const Outcome& out, size_t max_rows = 200);

// Prints "==TARGET== IDLE-n violated: ...", the config, the input in hex and
// the schedule as a timeline to stderr and aborts, so that libFuzzer saves
// the input. An outcome without its rows is run again to have them.
[[noreturn]] void report_and_abort(const char* target, std::span<const uint8_t> data,
                                   const Outcome& out);

}  // namespace idlespec::idle_core_fuzz
