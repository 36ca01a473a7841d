// The idle_core oracle's exact forms (oracle/idle_core.h, Oracle::Seen):
// what an observer of the program points tells it, and what it judges from
// that; restart() from a snapshot; the platform's charging of a verdict; the
// quiet mode. Each case is a broken observation the oracle must catch beside
// the faithful one it must let through.
#include <gtest/gtest.h>

#include "oracle/idle_core.h"
#include "oracle/idle_core_c.h"

namespace idlespec::idle_core::oracle {
namespace {

constexpr uint32_t kLock = uint32_t{1} << 28;

Transition step(unsigned t, Event e = Event::none, bool returned = false) {
  Transition tr;
  tr.move = Move{MoveKind::step, static_cast<uint8_t>(t), Kind::none};
  tr.result.event = e;
  tr.result.returned = returned;
  return tr;
}

// Two POWER8 threads: t0 entering sleep, t1 running.
Oracle::Snapshot entering_and_running() {
  Oracle::Snapshot s;
  s.phase[0] = Phase::entering;
  s.kind[0] = Kind::p8_sleep;
  return s;
}

Verdict judge(const Config& c, const Oracle::Snapshot& s, const Transition& tr, uint32_t word,
              const Oracle::Seen& seen, Violations* all = nullptr) {
  Oracle o(c);
  o.restart(s, 5);
  Violations out;
  o.observe_all(tr, word, seen, out);
  if (all) *all = out;
  return out.empty() ? Verdict{} : out.front();
}

const Config p8 = Config::of(Platform::power8, 2);
const Config p9 = Config::of(Platform::power9, 2);

TEST(IdleCoreOracleSeen, LockHoldersAndTheLockBit) {
  Oracle::Seen seen;
  seen.holders_known = true;
  seen.holders = 0b01;
  EXPECT_TRUE(judge(p8, entering_and_running(), step(0), kLock | 0b11, seen).ok());
  seen.holders = 0b11;
  const Verdict two = judge(p8, entering_and_running(), step(0), kLock | 0b11, seen);
  EXPECT_EQ(two.clause, "IDLE-1");
  EXPECT_EQ(two.message, "move 5: the lock is held by more than one thread: t0 t1");
  seen.holders = 0;
  EXPECT_EQ(judge(p8, entering_and_running(), step(0), kLock | 0b11, seen).message,
            "move 5: the lock bit is set and no thread holds the lock");
  seen.holders = 0b01;
  EXPECT_EQ(judge(p8, entering_and_running(), step(0), 0b11, seen).clause, "IDLE-1");
}

// An observer that could not read the word (word_known false): the move is
// judged, the word is not. Its twin with the word read catches the word.
TEST(IdleCoreOracleSeen, AWordNotReadIsNotJudged) {
  Oracle::Seen seen;
  // t1 is running and its bit is clear with the lock free: IDLE-2 when read.
  EXPECT_EQ(judge(p8, entering_and_running(), step(0), 0b00, seen).clause, "IDLE-2");
  seen.word_known = false;
  EXPECT_TRUE(judge(p8, entering_and_running(), step(0), 0b00, seen).ok());
  // ... but the move itself still is: a return from the entry path.
  EXPECT_EQ(judge(p8, entering_and_running(), step(0, Event::none, true), 0b11, seen).clause,
            "model");
  // A thread that returns holding the lock is judged without the word.
  Oracle::Snapshot s = entering_and_running();
  s.phase[0] = Phase::waking;
  seen.holders_known = true;
  seen.holders = 0b01;
  EXPECT_EQ(judge(p8, s, step(0, Event::none, true), 0, seen).clause, "IDLE-1");
}

// IDLE-8 on a cycle an explorer found: strongly fair (every obligation
// enabled in it taken in it) with a thread inside throughout. Each broken
// cycle beside the fair one it differs from.
TEST(IdleCoreOracleSeen, FairCyclesWithAThreadInsideBreakIdle8) {
  Obligations enabled, taken;
  enabled.set(3);
  enabled.set(200);  // labels beyond the first word count too
  taken.set(3);
  EXPECT_FALSE(breaks_idle8(enabled, taken, 0b1)) << "label 200 is enabled and never taken";
  EXPECT_TRUE(unmet(enabled, taken).test(200));
  EXPECT_FALSE(unmet(enabled, taken).test(3));
  taken.set(200);
  EXPECT_TRUE(breaks_idle8(enabled, taken, 0b1));
  EXPECT_FALSE(unmet(enabled, taken).any());
  EXPECT_FALSE(breaks_idle8(enabled, taken, 0)) << "no thread stays inside: it returns";
  taken.set(7);  // taken but never needed: still fair
  EXPECT_TRUE(breaks_idle8(enabled, taken, 0b10));
  // The C interface, a thread's moves as its obligation.
  EXPECT_EQ(icx_breaks_idle8(0b11, 0b11, 0b01), 1);
  EXPECT_EQ(icx_breaks_idle8(0b11, 0b01, 0b01), 0);
}

// A deadlock: every thread stuck is IDLE-1; a woken one among them can never
// return, IDLE-8 too.
TEST(IdleCoreOracleSeen, StuckWithAWokenThreadIsIdle1And8) {
  Oracle::Snapshot s = entering_and_running();
  Oracle o(p8);
  o.restart(s, 5);
  Violations out;
  o.stuck_all(out);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].clause, "IDLE-1");
  s.phase[1] = Phase::waking;
  s.kind[1] = Kind::p8_sleep;
  o.restart(s, 5);
  out.clear();
  o.stuck_all(out);
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[1].clause, "IDLE-8");
  EXPECT_NE(out[1].message.find("t1 woke at move"), std::string::npos) << out[1].message;
}

TEST(IdleCoreOracleSeen, ExactThreadBitsWhileTheLockIsFree) {
  Oracle::Seen seen;
  seen.cleared_known = true;
  seen.cleared = 0b01;  // t0 between "clear own bit" and "set own bit"
  EXPECT_TRUE(judge(p8, entering_and_running(), step(0), 0b10, seen).ok());
  const Verdict v = judge(p8, entering_and_running(), step(0), 0b11, seen);
  EXPECT_EQ(v.clause, "IDLE-2");
  EXPECT_NE(v.message.find("the thread bits are 11, but the threads not between"),
            std::string::npos)
      << v.message;
  // The lock held: the bits are not judged.
  EXPECT_TRUE(judge(p8, entering_and_running(), step(0), kLock | 0b11, seen).ok());
}

TEST(IdleCoreOracleSeen, ExactWinkleCount) {
  Oracle::Snapshot s = entering_and_running();
  s.kind[0] = Kind::p8_winkle;
  Oracle::Seen seen;
  seen.counted_known = true;
  seen.counted = 1;
  const uint32_t one = uint32_t{1} << 16;
  EXPECT_TRUE(judge(p8, s, step(0), kLock | one | 0b10, seen).ok());
  seen.counted = 0;
  const Verdict v = judge(p8, s, step(0), kLock | one | 0b10, seen);
  EXPECT_EQ(v.clause, "IDLE-5");
  EXPECT_NE(v.message.find("the winkle count is 1 but 0 thread(s)"), std::string::npos);
  // POWER9 has no winkle count.
  Oracle::Snapshot s9;
  s9.phase[0] = Phase::entering;
  s9.kind[0] = Kind::p9_deep;
  EXPECT_TRUE(judge(p9, s9, step(0), one | 0b11, seen).ok());
}

TEST(IdleCoreOracleSeen, ResyncAndRestoreByWhatTheThreadSaw) {
  Oracle::Snapshot s;
  s.phase[0] = Phase::waking;
  s.kind[0] = Kind::p8_sleep;
  s.phase[1] = Phase::hw_idle;
  s.kind[1] = Kind::p8_sleep;
  s.tb_valid = false;
  Oracle::Seen seen;
  seen.found_known = true;
  EXPECT_TRUE(judge(p8, s, step(0, Event::resync_tb), kLock, seen).ok());
  seen.found_awake = true;
  const Verdict v = judge(p8, s, step(0, Event::resync_tb), kLock, seen);
  EXPECT_EQ(v.clause, "IDLE-9");
  EXPECT_NE(v.message.find("not the first awake"), std::string::npos);
  // The word it decided on shows t1 awake, whatever it made of it.
  seen.found_awake = false;
  seen.decided_known = true;
  seen.decided = kLock | 0b10;
  EXPECT_EQ(judge(p8, s, step(0, Event::resync_tb), kLock | 0b10, seen).clause, "IDLE-9");

  Oracle::Seen restore;
  restore.saved_known = true;
  restore.saved = true;
  EXPECT_TRUE(judge(p8, s, step(0, Event::restore_thread), kLock, restore).ok());
  restore.saved = false;
  EXPECT_EQ(judge(p8, s, step(0, Event::restore_thread), kLock, restore).clause, "IDLE-5");
  EXPECT_EQ(judge(p9, s, step(0, Event::restore_thread), kLock, restore).clause, "IDLE-7");
}

TEST(IdleCoreOracleSeen, RestartCarriesTheCoreAndEveryViolationIsReported) {
  Oracle::Snapshot s;
  s.phase[0] = Phase::waking;
  s.kind[0] = Kind::p8_sleep;
  s.tb_valid = false;
  Oracle::Seen seen;
  seen.holders_known = true;
  seen.holders = 0;
  Violations all;
  // t0 returns with the timebase invalid and leaves the lock bit set behind.
  const Verdict v = judge(p8, s, step(0, Event::none, true), kLock | 0b11, seen, &all);
  EXPECT_EQ(v.clause, "IDLE-3");
  ASSERT_EQ(all.size(), 2u);
  EXPECT_EQ(all[1].clause, "IDLE-1");
  s.tb_valid = true;
  EXPECT_TRUE(judge(p8, s, step(0, Event::none, true), 0b11, seen).ok());
}

TEST(IdleCoreOracleSeen, QuietVerdictsNameTheClauseOnly) {
  Oracle o(p8);
  o.restart(Oracle::Snapshot{}, 1);
  o.set_quiet(true);
  Violations out;
  o.observe_all(step(0), 0b11, Oracle::Seen{}, out);  // a step of a running thread
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].clause, "model");
  EXPECT_TRUE(out[0].message.empty());
}

TEST(IdleCoreOracleSeen, ChargedClausesByPlatform) {
  const auto bits = [](const Config& c, const char* clause) {
    return charged_clauses(c, Verdict(clause, "x"));
  };
  EXPECT_EQ(bits(p8, "IDLE-3"), 1u << 3);
  EXPECT_EQ(bits(p8, "model"), 1u << 1);
  EXPECT_EQ(bits(p9, "IDLE-3"), (1u << 3) | (1u << 7));
  EXPECT_EQ(bits(p9, "IDLE-1"), (1u << 1) | (1u << 7));
  EXPECT_EQ(bits(p9, "IDLE-9"), 1u << 9);
  EXPECT_EQ(bits(p9, "IDLE-8"), 1u << 8);  // a woken thread's deadlock, not a register
  EXPECT_EQ(bits(p9, "IDLE-5"), 1u << 7);
  EXPECT_EQ(bits(p9, "model"), 1u << 7);
  EXPECT_EQ(charged_clauses(p9, Verdict{}), 0u);
  // The C interface the validate harness charges its findings with.
  icx_oracle* o9 = icx_new(1, 2, 1, 0);
  icx_oracle* o8 = icx_new(0, 2, 1, 1);
  ASSERT_NE(o9, nullptr);
  ASSERT_NE(o8, nullptr);
  EXPECT_EQ(icx_charged(o9, 2), (1u << 2) | (1u << 7));
  EXPECT_EQ(icx_charged(o9, -1), 1u << 7);
  EXPECT_EQ(icx_charged(o8, -1), 1u << 1);
  EXPECT_EQ(icx_charged(o8, 6), 1u << 6);
  icx_free(o9);
  icx_free(o8);
}

}  // namespace
}  // namespace idlespec::idle_core::oracle
