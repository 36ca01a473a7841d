/*
 * The idle_core oracle (oracle/idle_core.h) behind a C interface, for the
 * harness `idlespec validate` builds around a kernel's power9_idle_stop() or
 * power7_idle_insn() (harness/harness_idle_core.c). The harness observes
 * the real C (every move of the schedule, what the code did in it, the word
 * and the register file after it) and the oracle judges: IDLE-2..7 and
 * IDLE-9 are decided by the same code that judges the model checker's,
 * RapidCheck's and the fuzz target's runs.
 *
 * The values of the enumerations are those of impl/idle_core.h (Kind, Loss,
 * Event) and impl/idle_core_model.h (MoveKind); oracle/idle_core_c.cc
 * asserts that they agree.
 */
#ifndef IDLESPEC_ORACLE_IDLE_CORE_C_H
#define IDLESPEC_ORACLE_IDLE_CORE_C_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

enum icx_move { ICX_BEGIN_IDLE = 0, ICX_STEP = 1, ICX_WAKE = 2, ICX_CORE_LOSS = 3 };
enum icx_kind {
  ICX_NONE = 0,
  ICX_P8_NAP = 1,
  ICX_P8_SLEEP = 2,
  ICX_P8_WINKLE = 3,
  ICX_P9_SHALLOW = 4,
  ICX_P9_DEEP = 5,
  ICX_P9_TB_LOSS = 6
};
enum icx_loss { ICX_LOSS_NONE = 0, ICX_LOSS_PARTIAL = 1, ICX_LOSS_FULL = 2 };
enum icx_event {
  ICX_EV_NONE = 0,
  ICX_EV_SPIN = 1,
  ICX_EV_APPLY_WA = 2,
  ICX_EV_UNDO_WA = 3,
  ICX_EV_RESYNC_TB = 4,
  ICX_EV_ENTER_HW_IDLE = 8,
  ICX_EV_WOKE = 9,
  ICX_EV_BUG = 10
};

/* One observed move. `kind`: the kind a begin_idle chose; `loss`: the level
 * a core loss inflicted; `returned`: the thread left the wake path in this
 * move; `what`: a kernel assertion's text (ICX_EV_BUG); `decided`: for a
 * resync, the word the thread decided on (decided_known 1). `word_after`:
 * the word after the move, with the lock bit set while the lock is held,
 * wherever the code keeps it. `move_number`: the harness's number of the
 * move (from 1), which the oracle's messages use. `holders` (bit t: thread
 * t; holders_known 1): the threads holding the lock after the move, each
 * from its successful test_and_set_bit_lock until it writes the lock bit
 * clear (oracle Seen.holders: IDLE-1). */
struct icx_obs {
  int move, event, kind, loss, returned;
  unsigned thread;
  const char* what;
  int decided_known;
  uint32_t decided;
  uint32_t word_after;
  unsigned long move_number;
  int holders_known;
  uint32_t holders;
};

/* One violation: the clause's number (1..9, or -1 for the oracle's "model")
 * and the oracle's message without its move number. */
struct icx_found {
  int clause;
  char msg[400];
};

struct icx_oracle;

/* A core of `threads` threads (in `subcores` subcores; POWER8), judged for
 * IDLE-4 when `fastsleep_workaround` (the code has the workaround). NULL
 * when out of memory or the core is not one the spec knows. */
struct icx_oracle* icx_new(int power9, unsigned threads, unsigned subcores,
                           int fastsleep_workaround);
void icx_free(struct icx_oracle* o);
/* Back to the initial state: every thread running, everything held. */
void icx_reset(struct icx_oracle* o);
/* Which register sets hold their values now (oracle observe_registers). */
void icx_registers(struct icx_oracle* o, int core, uint32_t subcore_mask, uint32_t thread_mask);
/* Judges one move: 0 if the spec allows it; else the clause's number (1..9)
 * or -1 (the oracle's "model": the move contradicts the spec's model, or a
 * kernel assertion that guards no clause's invariant), with the oracle's
 * message (without its move number) in msg. */
int icx_observe(struct icx_oracle* o, const struct icx_obs* obs, char* msg, size_t cap);
/* The state after a move the harness does not report (the word, the
 * lock's holders), judged as the state after one it does (oracle
 * judge_state). Up to `max` violations in `out`; returns how many. */
int icx_state(struct icx_oracle* o, uint32_t word, uint32_t holders, struct icx_found* out,
              int max);
/* Thread t's plain store changed the word from `before` to `after` (oracle
 * observe_store: IDLE-2, and IDLE-5 on POWER8, when t does not hold the
 * lock). As icx_state. */
int icx_store(struct icx_oracle* o, unsigned t, uint32_t before, uint32_t after, uint32_t holders,
              struct icx_found* out, int max);
/* Every thread is stuck: no move is left and some thread is not running
 * (oracle stuck_all: IDLE-1, and IDLE-8 for each thread on its wake path).
 * As icx_state. */
int icx_stuck(struct icx_oracle* o, struct icx_found* out, int max);
/* A cycle of one schedule (oracle breaks_idle8, with a thread's moves as
 * its obligation, bit t): `enabled` the threads that can move in some state
 * of the cycle, `taken` those that move in it, `inside` those inside the
 * function throughout. 1: the cycle is strongly fair and a thread stays
 * inside (IDLE-8). */
int icx_breaks_idle8(uint32_t enabled, uint32_t taken, uint32_t inside);
/* The clauses a verdict of clause `clause` (1..9, or -1: the oracle's
 * "model") is charged to on this core: bit n is IDLE-n (oracle
 * charged_clauses: POWER9's IDLE-7 takes IDLE-1..3 along and every other
 * POWER9 verdict but IDLE-9's; "model" is POWER8's IDLE-1, POWER9's IDLE-7). */
unsigned icx_charged(const struct icx_oracle* o, int clause);

#ifdef __cplusplus
}
#endif

#endif /* IDLESPEC_ORACLE_IDLE_CORE_C_H */
