// The idle_core_fuzz driver and oracle (fuzz/idle_core_input.h,
// oracle/idle_core.h) on their own: the input layout, the oracle on
// hand-made event sequences, the reference on every stored corpus input, each
// witness of tests/witnesses/idle_core_witnesses.h on a hand-made schedule,
// and the registered `fuzz-replay idle_core_fuzz` check.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "fuzz/idle_core_input.h"
#include "tests/witnesses/idle_core_witnesses.h"
#include "verify/build_paths.h"
#include "verify/registry.h"

namespace idlespec::idle_core_fuzz {
namespace {

namespace fs = std::filesystem;
namespace w = idle_core::witness;
using idle_core::Event;
using idle_core::Loss;
using idle_core::Move;
using idle_core::MoveKind;
using idle_core::Transition;
using idle_core::oracle::Oracle;
using Bytes = std::vector<uint8_t>;

Bytes schedule(const Config& c, std::initializer_list<uint8_t> ops) {
  Bytes b;  // (not Bytes{byte} + insert: gcc 12's -Warray-bounds false positive)
  b.reserve(1 + ops.size());
  b.push_back(config_byte(c));
  for (uint8_t op : ops) b.push_back(op);
  return b;
}

std::vector<std::pair<std::string, Bytes>> corpus() {
  std::vector<std::pair<std::string, Bytes>> out;
  const fs::path dir = fs::path(idlespec::build::source_dir()) / "fuzz/corpus/idle_core_fuzz";
  for (const auto& entry : fs::directory_iterator(dir)) {
    std::ifstream f(entry.path(), std::ios::binary);
    out.emplace_back(entry.path().filename().string(),
                     Bytes{std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()});
  }
  std::sort(out.begin(), out.end());
  return out;
}

const Config kSmt2 = Config::of(Platform::power8, 2);
const uint8_t kLoss = kLossOp;

// Both threads sleep, the core loses the timebase, t0 and then t1 wake.
Bytes fastsleep_smt2() {
  return schedule(kSmt2, {op_begin(0, Kind::p8_sleep), op_begin(1, Kind::p8_sleep), kLoss,
                          op_wake(0), op_wake(1)});
}

TEST(IdleCoreFuzzLayout, ConfigByteAndOps) {
  EXPECT_EQ(parse_input(Bytes{}).config.describe(), "power8 SMT1");
  const Input in = parse_input(Bytes{0x15, 0x88, 0xff});  // SMT4 2x2, no workaround
  EXPECT_EQ(in.config.describe(), "power8 SMT4 2x2 (no fastsleep workaround)");
  EXPECT_EQ(in.ops, (Bytes{0x88, 0xff}));
  EXPECT_EQ(parse_input(Bytes{0x1a}).config.describe(), "power9 SMT2");  // bit 4: P8 only
  for (const Config& c : configurations()) {
    EXPECT_TRUE(c.valid()) << c.describe();
    const Config back = parse_input(Bytes{config_byte(c)}).config;
    EXPECT_EQ(back.describe(), c.describe());
  }
  EXPECT_EQ(op_begin(1, Kind::p8_winkle), 0x91);
  EXPECT_EQ(op_wake(3), 0x83);
  EXPECT_EQ(op_step(2, 4), 0x62);
  EXPECT_THROW(config_byte(Config::of(Platform::power9, 8)), std::invalid_argument);
}

TEST(IdleCoreFuzzLayout, ALossOpIsSkippedUnlessEveryThreadIsInAStateLossIdle) {
  const Outcome o = check_fuzz_input(
      schedule(kSmt2, {kLoss, op_begin(0, Kind::p8_nap), op_begin(1, Kind::p8_sleep), kLoss,
                       op_wake(0), op_begin(0, Kind::p8_sleep), kLoss}));
  EXPECT_TRUE(o.ok()) << o.verdict.message;
  EXPECT_EQ(o.skipped, 2u);
  EXPECT_EQ(o.rows.back().tr.move.kind, MoveKind::core_loss);
  EXPECT_EQ(o.rows.back().tr.loss, Loss::partial);
}

// The oracle judges events, whatever produced them.
TEST(IdleCoreOracle, JudgesHandMadeEvents) {
  const Config c = Config::of(Platform::power8, 1);
  const auto tr = [](MoveKind k, Event e, bool returned = false, Kind idle = Kind::none,
                     Loss loss = Loss::none) {
    Transition t;
    t.move = Move{k, 0, idle};
    t.result.event = e;
    t.result.returned = returned;
    t.loss = loss;
    return t;
  };
  {  // A loss without the workaround applied.
    Oracle o(c);
    EXPECT_TRUE(o.observe(tr(MoveKind::begin_idle, Event::none, false, Kind::p8_sleep), 1).ok());
    EXPECT_TRUE(o.observe(tr(MoveKind::step, Event::enter_hw_idle), 0).ok());
    EXPECT_EQ(o.loss_possible(), Loss::partial);
    EXPECT_EQ(
        o.observe(tr(MoveKind::core_loss, Event::none, false, Kind::none, Loss::partial), 0).clause,
        "IDLE-4");
  }
  {  // The workaround applied; the thread returns without a resync.
    Oracle o(c);
    o.observe(tr(MoveKind::begin_idle, Event::none, false, Kind::p8_sleep), 1);
    o.observe(tr(MoveKind::step, Event::apply_wa), 0);
    o.observe(tr(MoveKind::step, Event::enter_hw_idle), 0);
    EXPECT_TRUE(
        o.observe(tr(MoveKind::core_loss, Event::none, false, Kind::none, Loss::partial), 0).ok());
    EXPECT_TRUE(o.observe(tr(MoveKind::wake, Event::woke), 0).ok());
    EXPECT_TRUE(o.observe(tr(MoveKind::step, Event::undo_wa), 0).ok());
    const auto v = o.observe(tr(MoveKind::step, Event::none, true), 1);
    EXPECT_EQ(v.clause, "IDLE-3");
    EXPECT_EQ(v.message,
              "move 7: t0 returned to running with the timebase invalid (lost at move "
              "4, no resync since)");
  }
  {  // A step of a running thread, a bit of a running thread clear.
    Oracle o(c);
    EXPECT_EQ(o.observe(tr(MoveKind::step, Event::none), 1).clause, "model");
    Oracle p(c);
    EXPECT_EQ(p.observe(tr(MoveKind::begin_idle, Event::none, false, Kind::p8_nap), 0).clause,
              "IDLE-2");
  }
}

TEST(IdleCoreFuzzCorpus, TheReferenceHoldsOnEveryStoredInput) {
  const auto files = corpus();
  ASSERT_GE(files.size(), 20u);
  EXPECT_LE(files.size(), 160u);
  size_t losses = 0;
  size_t full = 0;
  for (const auto& [name, bytes] : files) {
    const Outcome o = check_fuzz_input(bytes);
    EXPECT_TRUE(o.ok()) << name << ": " << o.verdict.clause << ": " << o.verdict.message << "\n"
                        << timeline(parse_input(bytes).config, o);
    for (const auto& row : o.rows) {
      losses += row.tr.move.kind == MoveKind::core_loss;
      full += row.tr.move.kind == MoveKind::core_loss && row.tr.loss == Loss::full;
    }
  }
  EXPECT_GT(losses, files.size() / 2);
  EXPECT_GT(full, 10u);
}

struct WitnessCase {
  std::string name;
  std::string clause;
  std::string message_has;
  Bytes input;
  Outcome (*run)(const Input&);
};

TEST(IdleCoreFuzzWitness, EachWitnessIsCaughtOnAHandMadeSchedule) {
  const std::vector<WitnessCase> cases = {
      {"FirstSkipsResync", "IDLE-3", "t0 returned to running with the timebase invalid",
       fastsleep_smt2(), &run<w::FirstSkipsResync>},
      {"EveryThreadResyncs", "IDLE-9", "t1 resynced the timebase, but no state of the word",
       fastsleep_smt2(), &run<w::EveryThreadResyncs>},
      // t0 releases the lock and stops before its late resync; t1 wakes, finds
      // t0's bit and leaves with the timebase invalid.
      {"UnlockBeforeResync", "IDLE-3", "t1 returned to running with the timebase invalid",
       schedule(kSmt2, {op_begin(0, Kind::p8_sleep), op_begin(1, Kind::p8_sleep), kLoss,
                        op_wake(0, false), op_step(0, 4), op_step(0, 1), op_wake(1)}),
       &run<w::UnlockBeforeResync>},
      {"NoWinkleDecOnNoLoss", "IDLE-5", "the winkle count is 1",
       schedule(kSmt2, {op_begin(0, Kind::p8_winkle), op_wake(0)}), &run<w::NoWinkleDecOnNoLoss>},
      // Both entries load the word before either stores: t1's store puts
      // t0's bit back.
      {"ClearOutsideLock", "IDLE-2", "t0's bit is set, but t0 is in hardware idle",
       schedule(kSmt2, {op_begin(0, Kind::p8_sleep, false), op_begin(1, Kind::p8_sleep, false),
                        op_step(0), op_step(1), op_step(0), op_step(1), op_run(0)}),
       &run<w::ClearOutsideLock>},
      {"CoreMaskFor4", "IDLE-9", "t0 resynced the timebase",
       schedule(Config::of(Platform::power8, 8, 2),
                {op_begin(0, Kind::p8_winkle), op_begin(1, Kind::p8_winkle),
                 op_begin(2, Kind::p8_winkle), op_begin(3, Kind::p8_winkle),
                 op_begin(4, Kind::p8_winkle), op_begin(5, Kind::p8_winkle),
                 op_begin(6, Kind::p8_winkle), op_begin(7, Kind::p8_winkle), kLoss, op_wake(5),
                 op_wake(0)}),
       &run<w::CoreMaskFor4>},
  };
  for (const WitnessCase& c : cases) {
    SCOPED_TRACE(c.name);
    const Input in = parse_input(c.input);
    const Outcome ref = run<idle_core::Reference>(in);
    EXPECT_TRUE(ref.ok()) << ref.verdict.message;
    const Outcome o = c.run(in);
    ASSERT_FALSE(o.ok());
    EXPECT_EQ(o.verdict.clause, c.clause) << o.verdict.message;
    EXPECT_NE(o.verdict.message.find(c.message_has), std::string::npos) << o.verdict.message;
    const std::string tl = timeline(in.config, o);
    EXPECT_NE(tl.find("<== " + c.clause + " violated"), std::string::npos) << tl;
  }
}

// The libFuzzer target counts the moves instead of keeping a row per move:
// the same verdict at the same move, on the stored corpus and on a witness.
TEST(IdleCoreFuzzRows, CountedJudgesAsKept) {
  namespace w = idle_core::witness;
  for (const auto& [name, bytes] : corpus()) {
    const Outcome kept = check_fuzz_input(bytes);
    const Outcome counted = check_fuzz_input(bytes, Rows::counted);
    EXPECT_EQ(counted.verdict.clause, kept.verdict.clause) << name;
    EXPECT_EQ(counted.moves, kept.rows.size()) << name;
    EXPECT_TRUE(counted.rows.empty()) << name;
  }
  const Input in = parse_input(
      schedule(kSmt2, {op_begin(0, Kind::p8_sleep, false), op_begin(1, Kind::p8_sleep, false),
                       op_step(0), op_step(1), op_step(0), op_step(1), op_run(0)}));
  const Outcome kept = run<w::ClearOutsideLock>(in);
  const Outcome counted = run<w::ClearOutsideLock>(in, Rows::counted);
  ASSERT_FALSE(kept.ok());
  EXPECT_EQ(counted.verdict.clause, kept.verdict.clause);
  EXPECT_EQ(counted.verdict.message, kept.verdict.message);
  EXPECT_EQ(counted.violation_move, kept.violation_move);
  EXPECT_EQ(counted.moves, kept.rows.size());
}

TEST(IdleCoreFuzzReplayCheck, RegisteredForTheReferenceAndPasses) {
  const verify::Check* check =
      verify::builtin_registry().find(verify::CheckKind::fuzz_replay, "idle_core_fuzz");
  ASSERT_NE(check, nullptr);
  EXPECT_EQ(check->component, "idle_core");
  EXPECT_EQ(check->clauses,
            (std::vector<std::string>{"IDLE-3", "IDLE-4", "IDLE-5", "IDLE-6", "IDLE-9"}));
  EXPECT_EQ(check->subjects, std::vector<std::string>{"reference"});
  const verify::CheckResult r = check->run("reference", verify::RunOptions::unhurried());
  EXPECT_EQ(r.outcome, verify::Outcome::pass) << r.detail << "\n" << r.counterexample;
  EXPECT_EQ(check->run("upstream", verify::RunOptions::unhurried()).outcome,
            verify::Outcome::unknown);
}

}  // namespace
}  // namespace idlespec::idle_core_fuzz
