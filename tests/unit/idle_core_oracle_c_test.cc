// The idle_core oracle's C interface (oracle/idle_core_c.h), as validate's
// harness calls it: observations of a POWER9 and a POWER8 core, each judged
// as the C++ oracle judges the same moves, the harness's move numbers in the
// messages, the decided word for IDLE-9, and register sets that stop or
// start holding their values. Each clause's case has a twin that differs in
// the one observation the verdict turns on.
#include <gtest/gtest.h>

#include <string>

#include "oracle/idle_core_c.h"

namespace {

struct Core {
  icx_oracle* o;
  Core(int power9, unsigned threads, unsigned subcores = 1, int wa = 0)
      : o(icx_new(power9, threads, subcores, wa)) {}
  ~Core() { icx_free(o); }
  Core(const Core&) = delete;
  Core& operator=(const Core&) = delete;
  unsigned long move = 0;
  std::string msg;

  int obs(int move_kind, unsigned t, int event, uint32_t word, int kind = 0, int loss = 0,
          int returned = 0, int decided_known = 0, uint32_t decided = 0,
          const char* what = nullptr) {
    icx_obs x{};
    x.move = move_kind, x.thread = t, x.event = event, x.kind = kind, x.loss = loss;
    x.returned = returned, x.what = what, x.decided_known = decided_known, x.decided = decided;
    x.word_after = word, x.move_number = ++move;
    char buf[400] = "";
    const int c = icx_observe(o, &x, buf, sizeof buf);
    msg = buf;
    return c;
  }
};

constexpr uint32_t kLock = 1u << 28;

// Two POWER9 threads into the timebase-loss stop, the core loses it, t0
// wakes and takes the lock: the word as the harness would show it.
void both_lose_timebase(Core& c) {
  ASSERT_EQ(c.obs(ICX_BEGIN_IDLE, 0, ICX_EV_NONE, 0x3, ICX_P9_TB_LOSS), 0);
  ASSERT_EQ(c.obs(ICX_STEP, 0, ICX_EV_NONE, 0x2), 0);  // clears its bit
  ASSERT_EQ(c.obs(ICX_STEP, 0, ICX_EV_ENTER_HW_IDLE, 0x2), 0);
  ASSERT_EQ(c.obs(ICX_BEGIN_IDLE, 1, ICX_EV_NONE, 0x2, ICX_P9_TB_LOSS), 0);
  ASSERT_EQ(c.obs(ICX_STEP, 1, ICX_EV_NONE, 0x0), 0);
  ASSERT_EQ(c.obs(ICX_STEP, 1, ICX_EV_ENTER_HW_IDLE, 0x0), 0);
  icx_registers(c.o, 0, 0, 0);  // the loss takes every SPR
  ASSERT_EQ(c.obs(ICX_CORE_LOSS, 0, ICX_EV_NONE, 0x0, 0, ICX_LOSS_FULL), 0) << c.msg;
  ASSERT_EQ(c.obs(ICX_WAKE, 0, ICX_EV_WOKE, 0x0), 0);
  ASSERT_EQ(c.obs(ICX_STEP, 0, ICX_EV_NONE, 0x1 | kLock), 0);  // sets its bit, takes the lock
}

TEST(IdleCoreOracleC, RejectsCoresTheSpecDoesNotKnow) {
  EXPECT_EQ(icx_new(1, 8, 1, 0), nullptr);  // POWER9: SMT4 at most
  EXPECT_EQ(icx_new(0, 3, 1, 0), nullptr);
  icx_oracle* o = icx_new(0, 8, 4, 1);
  EXPECT_NE(o, nullptr);
  icx_free(o);
}

TEST(IdleCoreOracleC, ReturnWithTheTimebaseInvalidIsIdle3) {
  Core c(1, 2);
  both_lose_timebase(c);
  icx_registers(c.o, 1, 0, 0x3);  // the SPRs restored
  EXPECT_EQ(c.obs(ICX_STEP, 0, ICX_EV_NONE, 0x1, 0, 0, /*returned=*/1), 3);
  EXPECT_NE(c.msg.find("t0 returned to running with the timebase invalid (lost at move 7"),
            std::string::npos)
      << c.msg;
  EXPECT_EQ(c.msg.find("move 11:"), std::string::npos) << "the oracle's own prefix: " << c.msg;

  Core d(1, 2);  // twin: the resync before the return
  both_lose_timebase(d);
  icx_registers(d.o, 1, 0, 0x3);
  EXPECT_EQ(d.obs(ICX_STEP, 0, ICX_EV_RESYNC_TB, 0x1 | kLock, 0, 0, 0, 1, 0x0), 0) << d.msg;
  EXPECT_EQ(d.obs(ICX_STEP, 0, ICX_EV_NONE, 0x1, 0, 0, 1), 0) << d.msg;
}

TEST(IdleCoreOracleC, RegistersThatDoNotHoldAreIdle7OnPower9) {
  Core c(1, 2);
  both_lose_timebase(c);
  ASSERT_EQ(c.obs(ICX_STEP, 0, ICX_EV_RESYNC_TB, 0x1 | kLock, 0, 0, 0, 1, 0x0), 0) << c.msg;
  icx_registers(c.o, 1, 0, 0x2);  // t0's own set still lost
  EXPECT_EQ(c.obs(ICX_STEP, 0, ICX_EV_NONE, 0x1, 0, 0, 1), 7);
  EXPECT_NE(c.msg.find("without restoring its per-thread registers"), std::string::npos) << c.msg;

  Core d(1, 2);
  both_lose_timebase(d);
  ASSERT_EQ(d.obs(ICX_STEP, 0, ICX_EV_RESYNC_TB, 0x1 | kLock, 0, 0, 0, 1, 0x0), 0);
  icx_registers(d.o, 0, 0, 0x3);                                // the per-core set lost instead
  EXPECT_EQ(d.obs(ICX_STEP, 0, ICX_EV_NONE, 0x1, 0, 0, 1), 5);  // the oracle's clause for it
  EXPECT_NE(d.msg.find("per-core registers"), std::string::npos) << d.msg;
}

TEST(IdleCoreOracleC, Idle9ReadsTheDecidedWord) {
  Core c(1, 2);
  both_lose_timebase(c);
  // Decided on a word with t1's bit set: it found t1 awake.
  EXPECT_EQ(c.obs(ICX_STEP, 0, ICX_EV_RESYNC_TB, 0x1 | kLock, 0, 0, 0, 1, 0x2), 9);
  EXPECT_NE(c.msg.find("having found other threads awake (it decided on the word 0x2)"),
            std::string::npos)
      << c.msg;
  Core d(1, 2);  // twin: its own bit only
  both_lose_timebase(d);
  EXPECT_EQ(d.obs(ICX_STEP, 0, ICX_EV_RESYNC_TB, 0x1 | kLock, 0, 0, 0, 1, 0x1), 0) << d.msg;
}

TEST(IdleCoreOracleC, ThreadBitsWhileTheLockIsFreeAreIdle2) {
  Core c(1, 2);
  // t0 running with its bit clear and the lock free.
  EXPECT_EQ(c.obs(ICX_STEP, 1, ICX_EV_BUG, 0x2, 0, 0, 0, 0, 0, "WARN_ON(!(s & thread))"), 2);
  Core d(1, 2);
  EXPECT_EQ(d.obs(ICX_BEGIN_IDLE, 1, ICX_EV_NONE, 0x2, ICX_P9_DEEP), 2);
  EXPECT_NE(d.msg.find("t0's bit is clear, but t0 is running"), std::string::npos) << d.msg;
  Core e(1, 2);  // twin: the same word with the lock held
  EXPECT_EQ(e.obs(ICX_BEGIN_IDLE, 1, ICX_EV_NONE, 0x2 | kLock, ICX_P9_DEEP), 0) << e.msg;
}

TEST(IdleCoreOracleC, Power8LossWithoutTheWorkaroundIsIdle4) {
  for (int applied = 0; applied <= 1; ++applied) {
    Core c(0, 1, 1, /*wa=*/1);
    ASSERT_EQ(c.obs(ICX_BEGIN_IDLE, 0, ICX_EV_NONE, 0x1, ICX_P8_SLEEP), 0);
    ASSERT_EQ(c.obs(ICX_STEP, 0, ICX_EV_NONE, 0x0 | kLock), 0);
    if (applied) {
      ASSERT_EQ(c.obs(ICX_STEP, 0, ICX_EV_APPLY_WA, 0x0 | kLock), 0);
    }
    ASSERT_EQ(c.obs(ICX_STEP, 0, ICX_EV_NONE, 0x0), 0);
    ASSERT_EQ(c.obs(ICX_STEP, 0, ICX_EV_ENTER_HW_IDLE, 0x0), 0);
    EXPECT_EQ(c.obs(ICX_CORE_LOSS, 0, ICX_EV_NONE, 0x0, 0, ICX_LOSS_PARTIAL), applied ? 0 : 4)
        << c.msg;
  }
}

// The lock's holders, as the harness tracks them (IDLE-1): the bit set
// exactly while one thread holds the lock, no return holding it.
TEST(IdleCoreOracleC, TheLockAgainstItsHoldersIsIdle1) {
  icx_found f[4];
  Core c(1, 2);
  EXPECT_EQ(icx_state(c.o, 0x3 | kLock, 0x1, f, 4), 0);  // t0 holds it, the bit set
  EXPECT_EQ(icx_state(c.o, 0x3, 0x0, f, 4), 0);          // released
  ASSERT_EQ(icx_state(c.o, 0x3 | kLock, 0x0, f, 4), 1);  // set without taking it
  EXPECT_EQ(f[0].clause, 1);
  EXPECT_NE(std::string(f[0].msg).find("no thread holds the lock"), std::string::npos) << f[0].msg;
  ASSERT_EQ(icx_state(c.o, 0x3, 0x2, f, 4), 1);  // cleared by another while t1 holds it
  EXPECT_EQ(f[0].clause, 1);
  EXPECT_NE(std::string(f[0].msg).find("t1 holds the lock"), std::string::npos) << f[0].msg;
  ASSERT_EQ(icx_state(c.o, 0x3 | kLock, 0x3, f, 4), 1);
  EXPECT_NE(std::string(f[0].msg).find("more than one thread"), std::string::npos) << f[0].msg;
  EXPECT_EQ(icx_state(c.o, 0x3 | kLock, 0x3, f, 0), 0) << "room for none: none reported";

  // A return while holding the lock, and its twin that released it first.
  for (int holding = 0; holding <= 1; ++holding) {
    Core d(1, 1);  // one shallow stop: in, woken, back
    ASSERT_EQ(d.obs(ICX_BEGIN_IDLE, 0, ICX_EV_NONE, 0x1, ICX_P9_SHALLOW), 0) << d.msg;
    ASSERT_EQ(d.obs(ICX_STEP, 0, ICX_EV_ENTER_HW_IDLE, 0x1), 0) << d.msg;
    ASSERT_EQ(d.obs(ICX_WAKE, 0, ICX_EV_WOKE, 0x1), 0) << d.msg;
    icx_obs x{};
    x.move = ICX_STEP, x.thread = 0, x.event = ICX_EV_NONE, x.returned = 1;
    x.word_after = 0x1 | (holding ? kLock : 0), x.move_number = 4;
    x.holders_known = 1, x.holders = holding ? 0x1 : 0x0;
    char buf[400] = "";
    EXPECT_EQ(icx_observe(d.o, &x, buf, sizeof buf), holding ? 1 : 0) << buf;
    if (holding) {
      EXPECT_NE(std::string(buf).find("t0 returned to running holding the lock"), std::string::npos)
          << buf;
    }
  }
}

// A plain store outside the lock (POWER8's read-modify-writes): a change to
// the thread bits is IDLE-2, to the winkle count or bits IDLE-5; the holder's
// store and a store that changes nothing judged are no finding.
TEST(IdleCoreOracleC, PlainStoresWithoutTheLockAreIdle2And5) {
  icx_found f[4];
  Core c(0, 2);
  ASSERT_EQ(icx_store(c.o, 0, 0x3, 0x2, 0x0, f, 4), 1);
  EXPECT_EQ(f[0].clause, 2);
  EXPECT_NE(std::string(f[0].msg).find("the thread bits"), std::string::npos) << f[0].msg;
  EXPECT_EQ(icx_store(c.o, 0, 0x3, 0x2, 0x1, f, 4), 0) << "t0 holds the lock";
  ASSERT_EQ(icx_store(c.o, 1, 0x3, 0x3 | (1u << 16) | (1u << 9), 0x1, f, 4), 1);
  EXPECT_EQ(f[0].clause, 5);
  ASSERT_EQ(icx_store(c.o, 1, 0x3, 0x2 | (1u << 16), 0x0, f, 4), 2);
  EXPECT_EQ(f[0].clause + f[1].clause, 7);
  Core p9(1, 2);  // POWER9 has no winkle fields: only the thread bits are judged
  EXPECT_EQ(icx_store(p9.o, 1, 0x3, 0x3 | (1u << 16), 0x0, f, 4), 0);
  EXPECT_EQ(icx_store(p9.o, 1, 0x3, 0x1, 0x0, f, 4), 1);
}

TEST(IdleCoreOracleC, NoThreadAbleToMoveIsIdle1) {
  icx_found f[2];
  Core c(1, 2);
  ASSERT_EQ(c.obs(ICX_BEGIN_IDLE, 0, ICX_EV_NONE, 0x3, ICX_P9_DEEP), 0);
  ASSERT_EQ(icx_stuck(c.o, f, 2), 1);
  EXPECT_EQ(f[0].clause, 1);
  EXPECT_NE(std::string(f[0].msg).find("every thread is stuck: t0"), std::string::npos) << f[0].msg;
}

TEST(IdleCoreOracleC, AssertionsAreChargedToTheInvariantTheyGuard) {
  const struct {
    const char* what;
    int clause;
  } cases[] = {{"BUG_ON(!(seen & PNV_CORE_IDLE_LOCK_BIT)) fired at idle.c:1", 1},
               {"WARN_ON(winkles == 0) fired at idle.c:2", 5},
               {"BUG_ON(!sprs_saved) fired at idle.c:3", 5},
               {"BUG_ON(s & me) fired at idle.c:4", 2},
               {"WARN_ON(psscr == 0) fired at idle.c:5", -1}};
  for (const auto& k : cases) {
    Core c(0, 2);
    EXPECT_EQ(c.obs(ICX_STEP, 0, ICX_EV_BUG, 0x3, 0, 0, 0, 0, 0, k.what), k.clause) << k.what;
    EXPECT_NE(c.msg.find(k.what), std::string::npos) << c.msg;
  }
}

}  // namespace
