// The idle_core protocol by hand: the scenarios a reader checks against
// powernv/idle.c before trusting the model checker, and a small breadth-first
// walk that every reachable move of the reference is free of kernel
// assertions.
#include "impl/idle_core.h"

#include <gtest/gtest.h>

#include <cstring>
#include <deque>
#include <string>
#include <unordered_set>
#include <vector>

#include "impl/idle_core_model.h"

namespace idlespec::idle_core {
namespace {

Config p8(unsigned threads, unsigned subcores = 1) {
  Config c;
  c.platform = Platform::power8;
  c.threads = threads;
  c.subcores = subcores;
  return c;
}

Config p9(unsigned threads) {
  Config c;
  c.platform = Platform::power9;
  c.threads = threads;
  return c;
}

// Runs thread t until it reaches `until` (or running), asserting no bug.
void run_until(const Config& c, CoreState& s, unsigned t, Pc until) {
  for (int i = 0; i < 64 && s.th[t].pc != until && s.th[t].pc != Pc::running; ++i) {
    const Transition tr = apply(c, s, Move{MoveKind::step, static_cast<uint8_t>(t)});
    ASSERT_NE(tr.result.event, Event::bug) << tr.result.what;
  }
}

void enter(const Config& c, CoreState& s, unsigned t, Kind k) {
  apply(c, s, Move{MoveKind::begin_idle, static_cast<uint8_t>(t), k});
  run_until(c, s, t, Pc::hw_idle);
  ASSERT_EQ(s.th[t].pc, Pc::hw_idle);
}

std::vector<Event> wake_and_run(const Config& c, CoreState& s, unsigned t) {
  std::vector<Event> events;
  Transition tr = apply(c, s, Move{MoveKind::wake, static_cast<uint8_t>(t)});
  events.push_back(tr.result.event);
  while (!tr.result.returned) {
    tr = apply(c, s, Move{MoveKind::step, static_cast<uint8_t>(t)});
    EXPECT_NE(tr.result.event, Event::bug) << tr.result.what;
    if (tr.result.event == Event::bug) break;
    events.push_back(tr.result.event);
  }
  return events;
}

bool has(const std::vector<Event>& v, Event e) {
  return std::find(v.begin(), v.end(), e) != v.end();
}

TEST(IdleCore, LastThreadAppliesTheWorkaroundFirstThreadResyncsAndUndoes) {
  const Config c = p8(2);
  CoreState s = initial_state(c);
  enter(c, s, 0, Kind::p8_sleep);
  EXPECT_FALSE(s.ghost.wa_applied);
  EXPECT_EQ(s.word, 0b10u);
  enter(c, s, 1, Kind::p8_sleep);
  EXPECT_TRUE(s.ghost.wa_applied);
  EXPECT_EQ(s.word, 0u);
  ASSERT_EQ(core_loss_level(c, s), Loss::partial);
  apply(c, s, Move{MoveKind::core_loss});
  EXPECT_FALSE(s.ghost.tb_valid);
  const auto first = wake_and_run(c, s, 1);
  EXPECT_TRUE(has(first, Event::undo_wa));
  EXPECT_TRUE(has(first, Event::resync_tb));
  EXPECT_TRUE(s.ghost.tb_valid);
  EXPECT_FALSE(s.ghost.wa_applied);
  const auto second = wake_and_run(c, s, 0);
  EXPECT_FALSE(has(second, Event::resync_tb));
  EXPECT_EQ(s.word, 0b11u);
}

TEST(IdleCore, FullWinkleRestoresCoreSubcoreAndThreadRegisters) {
  const Config c = p8(4, 2);
  CoreState s = initial_state(c);
  for (unsigned t = 0; t < 4; ++t) enter(c, s, t, Kind::p8_winkle);
  EXPECT_EQ(detail::winkle_count(s.word), 4u);
  EXPECT_EQ((s.word >> kWinkleBitsShift) & 0xf, 0xfu);
  ASSERT_EQ(core_loss_level(c, s), Loss::full);
  apply(c, s, Move{MoveKind::core_loss});
  const auto t0 = wake_and_run(c, s, 0);
  EXPECT_TRUE(has(t0, Event::restore_core));
  EXPECT_TRUE(has(t0, Event::restore_subcore));
  EXPECT_TRUE(has(t0, Event::restore_thread));
  EXPECT_EQ(s.ghost.subcore_regs_valid, 0b01);
  const auto t1 = wake_and_run(c, s, 1);  // same subcore, t0 awake
  EXPECT_FALSE(has(t1, Event::restore_subcore));
  EXPECT_TRUE(has(t1, Event::restore_thread));
  const auto t2 = wake_and_run(c, s, 2);  // other subcore, none of it awake
  EXPECT_TRUE(has(t2, Event::restore_subcore));
  EXPECT_FALSE(has(t2, Event::restore_core));
  EXPECT_EQ(s.ghost.subcore_regs_valid, 0b11);
  EXPECT_EQ(detail::winkle_count(s.word), 1u);
}

TEST(IdleCore, Power9DeepStopFirstThreadRestoresAndResyncs) {
  const Config c = p9(2);
  CoreState s = initial_state(c);
  enter(c, s, 0, Kind::p9_tb_loss);
  enter(c, s, 1, Kind::p9_tb_loss);
  EXPECT_EQ(s.word, 0u);
  apply(c, s, Move{MoveKind::core_loss});
  const auto first = wake_and_run(c, s, 0);
  EXPECT_TRUE(has(first, Event::restore_core));
  EXPECT_TRUE(has(first, Event::resync_tb));
  EXPECT_TRUE(has(first, Event::restore_thread));
  const auto second = wake_and_run(c, s, 1);
  EXPECT_FALSE(has(second, Event::resync_tb));
  EXPECT_TRUE(has(second, Event::restore_thread));
  EXPECT_EQ(s.word, 0b11u);
}

TEST(IdleCore, NapBlocksTheCoreLoss) {
  const Config c = p8(2);
  CoreState s = initial_state(c);
  enter(c, s, 0, Kind::p8_nap);
  enter(c, s, 1, Kind::p8_winkle);
  EXPECT_EQ(core_loss_level(c, s), Loss::none);
  EXPECT_EQ(s.word & c.core_thread_mask(), 0b01u);  // nap never touches the word
  EXPECT_EQ(detail::winkle_count(s.word), 1u);
}

TEST(IdleCore, AtomicWordRunsTheSameSteps) {
  const Config c = p8(2);
  std::atomic<uint64_t> word{c.core_thread_mask()};
  AtomicWord w{&word};
  Ghost g;
  GhostEnv env{c, g};
  ThreadState th;
  ASSERT_EQ(begin_idle(c, th, Kind::p8_sleep).event, Event::none);
  while (th.pc != Pc::hw_idle) ASSERT_NE(step(c, 0, th, w, env).event, Event::bug);
  EXPECT_EQ(word.load(), 0b10u);
  ASSERT_EQ(wake(c, 0, th, env).event, Event::woke);
  StepResult r;
  while (!r.returned) {
    r = step(c, 0, th, w, env);
    ASSERT_NE(r.event, Event::bug);
  }
  EXPECT_EQ(word.load(), 0b11u);
}

// Breadth-first over every reachable state of small cores: no move of the
// reference fires a kernel assertion.
std::string key(const CoreState& s) {
  std::string k(reinterpret_cast<const char*>(&s.word), sizeof s.word);
  for (const ThreadState& th : s.th) {
    k += {static_cast<char>(th.pc), static_cast<char>(th.kind), static_cast<char>(th.lost),
          static_cast<char>(th.sprs_saved | th.full_winkle << 1 | th.first << 2 |
                            th.sibling_awake << 3)};
    k.append(reinterpret_cast<const char*>(&th.seen), sizeof th.seen);
  }
  const Ghost& g = s.ghost;
  k += {static_cast<char>(g.tb_valid | g.wa_applied << 1 | g.core_regs_valid << 2),
        static_cast<char>(g.subcore_regs_valid), static_cast<char>(g.thread_regs_valid)};
  return k;
}

size_t explore(const Config& c) {
  std::unordered_set<std::string> seen;
  std::deque<CoreState> queue;
  const CoreState init = initial_state(c);
  seen.insert(key(init));
  queue.push_back(init);
  std::vector<Move> moves;
  while (!queue.empty()) {
    const CoreState s = queue.front();
    queue.pop_front();
    enabled_moves(c, s, moves);
    EXPECT_FALSE(moves.empty()) << describe_state(c, s);
    for (const Move& m : moves) {
      CoreState n = s;
      const Transition tr = apply(c, n, m);
      if (tr.result.event == Event::bug) {
        ADD_FAILURE() << c.describe() << ": " << tr.result.what << " on " << describe(m) << "\n"
                      << describe_state(c, s);
        return seen.size();
      }
      if (seen.insert(key(n)).second) queue.push_back(n);
    }
  }
  return seen.size();
}

TEST(IdleCore, NoKernelAssertionIsReachableOnSmallCores) {
  for (const Config& c : {p8(1), p8(2), p8(2, 2), p9(1), p9(2)}) {
    const size_t n = explore(c);
    EXPECT_GT(n, c.threads * 10u) << c.describe();
    RecordProperty(c.describe(), std::to_string(n));
  }
}

}  // namespace
}  // namespace idlespec::idle_core
