/*
 * idle_core.pml -- the powernv per-core idle word protocol (spec/idle_core.md)
 * in Promela, step for step the transition system of impl/idle_core_model.h
 * with Subject = Reference (impl/idle_core.h).
 *
 * Parameters (spin -D...):
 *   N=1|2|4|8          threads per core (default 2)
 *   POWER9             POWER9 (deep stop) instead of POWER8 (sleep/winkle);
 *                      N <= 4, no split core
 *   SUBCORES=1|2|4     POWER8 split-core mode (default 1)
 *   WORKAROUND=0|1     the POWER8 fastsleep workaround (default 1)
 * Witnesses (one bug each; SPIN must report the assertion named):
 *   WITNESS_SKIP_RESYNC            the first thread awake skips the resync (IDLE-3)
 *   WITNESS_UNLOCK_BEFORE_RESYNC   it resyncs after releasing the lock (IDLE-3)
 * and, by replacing the statement on a line marked "MARK name" with `skip`
 * (modelcheck/idle_core_spin_test.cc does it on a copy):
 *   MARK entry_unlock   the entry never releases the lock (IDLE-1)
 *   MARK p9_clear_bit   POWER9 entry leaves its bit set (IDLE-2)
 *   MARK apply_wa       the last thread does not apply the workaround (IDLE-4)
 *   MARK resync_tb      the resync does not make the timebase valid (IDLE-3)
 *
 * How the Promela state corresponds to the C++ CoreState
 * -------------------------------------------------------
 * Every piece of CoreState is a global here: the word, per thread its Pc and
 * locals (kind, lost, sprs_saved, full_winkle, first, sibling_awake, seen),
 * and the ghost state. Each process (one per hardware thread, `thread`, and
 * the hardware's core-loss environment, `core`) is one `do` loop whose every
 * option is ONE d_step: the guard (is this C++ move enabled?) followed by the
 * whole move. A d_step is a single SPIN transition with no intermediate
 * state, and after it the process is back at its loop head, so every
 * process's program counter is the same in every reachable state. The
 * processes are `active`, so the initial state already has all of them
 * (no `run` states from an init process). Temporaries live in `hidden`
 * globals, which are not part of the state vector. Hence a SPIN state
 * vector is exactly a CoreState (plus constant process counters), and with
 * every reduction off (spin -o3 -a; cc -DNOREDUCE -DSAFETY) SPIN's
 * "states, stored" equals the number of CoreStates a plain BFS of
 * impl/idle_core_model.h reaches (modelcheck/idle_core_spin_test.cc checks
 * it), with no offset: POWER8 SMT1 54, SMT2 2580, SMT2 2x1 2622, SMT2
 * without the workaround 1667, SMT4 3148464; POWER9 SMT1 26, SMT2 1135,
 * SMT4 1358887. So do the transitions: pan's "transitions" is the C++'s
 * enabled moves minus the failing test-and-sets (below), plus one (pan
 * counts the initial state).
 *
 * Every d_step reads and writes the shared globals, so SPIN's partial-order
 * reduction finds nothing to prune here: with it on (the default) the state
 * count is the same. -DCOLLAPSE only compresses the stored vectors.
 *
 * Two deliberate differences in the transitions, neither changing the
 * states:
 *   - A failing test-and-set of the lock is, in C++, an enabled move that
 *     changes nothing (a self-loop). Here the lock steps wait for the lock
 *     to be free instead, so a state in which nothing but spinning is
 *     possible is a SPIN deadlock ("invalid end state"): the second half of
 *     IDLE-1. (The failing cmpxchg does change `seen`, so it stays a move.)
 *   - Kernel BUG_ON/WARN_ON conditions, which the C++ reports as
 *     Event::bug, are assertions here.
 *
 * Assertions (each preceded by a printf naming the clause, visible when a
 * trail is replayed with spin -t):
 *   IDLE-1  at most one thread holds the lock, and the lock bit is set iff
 *           one does; no deadlock (SPIN's invalid-end-state check)
 *   IDLE-2  while the lock is free, the thread bits are exactly the threads
 *           not between "clear own bit" and "set own bit"
 *   IDLE-3  no thread returns to running with the timebase invalid
 *   IDLE-4  with the workaround on, no POWER8 core loss without it applied
 * IDLE-1 and IDLE-2 are state invariants, checked at the end of every
 * d_step (the initial state satisfies them by construction).
 */

#ifndef N
#define N 2
#endif
#ifndef SUBCORES
#define SUBCORES 1
#endif
#ifndef WORKAROUND
#define WORKAROUND 1
#endif
#ifdef POWER9
#define P9 1
#else
#define P9 0
#endif
#if P9 && (N > 4 || SUBCORES != 1)
#error "POWER9: at most 4 threads per core, no split core"
#endif
#if SUBCORES != 1 && SUBCORES != 2 && SUBCORES != 4
#error "SUBCORES must be 1, 2 or 4"
#endif
#if N % SUBCORES != 0
#error "N must be a multiple of SUBCORES"
#endif

/* --- the word (impl/idle_core.h) ---------------------------------------- */
#define LOCK (1 << 28)             /* kLock */
#define WINKLE_BITS_SHIFT 8        /* kWinkleBitsShift */
#define WINKLE_COUNT_ONE (1 << 16) /* kWinkleCountOne */
#define WINKLE_COUNT(s) (((s) >> 16) & 15)
#define CORE_MASK ((1 << N) - 1)   /* Config::core_thread_mask() */
#define PER_SUBCORE (N / SUBCORES)
/* Config::subcore_sibling_mask(t) */
#define SIBLING_MASK(t) (((1 << PER_SUBCORE) - 1) << (((t) / PER_SUBCORE) * PER_SUBCORE))

/* --- enum class Kind ------------------------------------------------------- */
#define K_NONE 0
#define K_NAP 1     /* p8_nap */
#define K_SLEEP 2   /* p8_sleep */
#define K_WINKLE 3  /* p8_winkle */
#define K_SHALLOW 4 /* p9_shallow */
#define K_DEEP 5    /* p9_deep */
#define K_TBLOSS 6  /* p9_tb_loss */

/* --- enum class Loss ------------------------------------------------------- */
#define L_NONE 0
#define L_PARTIAL 1
#define L_FULL 2

/* --- enum class Pc: the same numbers as the C++ ---------------------------- */
#define RUNNING 0
#define P8_ENTRY_LOCK 1
#define P8_ENTRY_LOAD 2
#define P8_ENTRY_STORE 3
#define P8_ENTRY_APPLY_WA 4
#define P8_ENTRY_WINKLE 5
#define P8_ENTRY_UNLOCK 6
#define P9_ENTRY_CLEAR 7
#define IDLE_INSN 8
#define HW_IDLE 9
#define P8_WAKE_LOCK 10
#define P8_WAKE_WINKLE 11
#define P9_WAKE_SET 12
#define LOSS_LOCK 13
#define P8_LOSS_WINKLE 14
#define LOSS_CHECK 15
#define RESTORE_CORE 16
#define P8_UNDO_WA 17
#define RESYNC_TB 18
#define RESTORE_SUBCORE 19
#define UNLOCK_LOAD 20
#define UNLOCK_CMPXCHG 21
#define RESYNC_TB_LATE 22
#define RESTORE_THREAD 23

/* --- CoreState ------------------------------------------------------------- */
int word = CORE_MASK;       /* CoreState::word: all threads running */
/* ThreadState, one entry per thread; dead locals are kept zero exactly
 * where the C++ keeps them zero (finish_wake resets the whole thread). */
byte pc[N];                 /* Pc */
byte kind[N];               /* Kind: the idle kind chosen, until running */
byte lost[N];               /* Loss: what the core inflicted meanwhile */
bool sprs_saved[N];
bool full_winkle[N];
bool first[N];
bool sibling_awake[N];
int seen[N];                /* the word as last read, when live */
/* Ghost */
bool tb_valid = 1;
bool wa_applied = 0;
bool core_regs_valid = 1;
byte subcore_regs_valid = (1 << SUBCORES) - 1;
byte thread_regs_valid = CORE_MASK;

/* Temporaries of a d_step: not in the state vector. */
hidden int s;
hidden int old;
hidden byte np;
hidden byte i;
hidden byte holders;
hidden byte applies;

/* --- predicates over every thread (cpp expands them for 0..N-1) ------------ */
#if N == 1
#define ALL(P) (P(0))
#define ANY(P) (P(0))
#elif N == 2
#define ALL(P) (P(0) && P(1))
#define ANY(P) (P(0) || P(1))
#elif N == 4
#define ALL(P) (P(0) && P(1) && P(2) && P(3))
#define ANY(P) (P(0) || P(1) || P(2) || P(3))
#elif N == 8
#define ALL(P) (P(0) && P(1) && P(2) && P(3) && P(4) && P(5) && P(6) && P(7))
#define ANY(P) (P(0) || P(1) || P(2) || P(3) || P(4) || P(5) || P(6) || P(7))
#else
#error "N must be 1, 2, 4 or 8"
#endif

/* core_loss_level(): every thread in hardware idle in a state-loss kind;
 * full when every one is in the deepest kind (winkle, tb-loss stop); enabled
 * only when some thread has lost less than that. */
#define IN_LOSS_KIND(t) (pc[t] == HW_IDLE && (kind[t] == K_SLEEP || kind[t] == K_WINKLE || \
                                              kind[t] == K_DEEP || kind[t] == K_TBLOSS))
#define FULL_KIND(t) (kind[t] == K_WINKLE || kind[t] == K_TBLOSS)
#define LOSS_LEVEL (ALL(FULL_KIND) -> L_FULL : L_PARTIAL)
#define BELOW_LEVEL(t) (lost[t] < LOSS_LEVEL)
#define CORE_LOSS_ENABLED (ALL(IN_LOSS_KIND) && ANY(BELOW_LEVEL))

/* Pcs at which a thread holds the lock: from a successful test-and-set to
 * the unlock (entry) or the successful cmpxchg (wake). */
#define HOLDS_LOCK(t) ((pc[t] >= P8_ENTRY_LOAD && pc[t] <= P8_ENTRY_UNLOCK) || \
                       pc[t] == P8_WAKE_WINKLE || \
                       (pc[t] >= P8_LOSS_WINKLE && pc[t] <= UNLOCK_CMPXCHG))
/* Pcs between "clear own bit" (entry store / clear_bit) and "set own bit"
 * (wake cmpxchg / set_bit), for the kinds that touch the word. */
#define BIT_CLEARED(t) ((kind[t] == K_SLEEP || kind[t] == K_WINKLE || kind[t] == K_DEEP || \
                         kind[t] == K_TBLOSS) && \
                        ((pc[t] >= P8_ENTRY_APPLY_WA && pc[t] <= P8_ENTRY_UNLOCK) || \
                         (pc[t] >= IDLE_INSN && pc[t] <= UNLOCK_CMPXCHG)))

/* A lock step waits for the lock (see the header). */
#define LOCK_PC(p) ((p) == P8_ENTRY_LOCK || (p) == P8_WAKE_LOCK || (p) == LOSS_LOCK)
#define STEP_ENABLED(t) (pc[t] != RUNNING && pc[t] != HW_IDLE && \
                         (!LOCK_PC(pc[t]) || (word & LOCK) == 0))

/* IDLE-1 and IDLE-2, checked in every state reached. */
inline check_invariants() {
  holders = 0;
  s = 0;
  i = 0;
  do
  :: i < N ->
     if
     :: HOLDS_LOCK(i) -> holders++
     :: else -> skip
     fi;
     if
     :: !BIT_CLEARED(i) -> s = s | (1 << i)
     :: else -> skip
     fi;
     i++
  :: else -> break
  od;
  if
  :: !(holders <= 1 && (holders == 1) == ((word & LOCK) != 0)) ->
     printf("VIOLATION IDLE-1: %d lock holders, lock bit %d\n", holders, (word & LOCK) != 0)
  :: else -> skip
  fi;
  assert(holders <= 1 && (holders == 1) == ((word & LOCK) != 0));
  if
  :: !((word & LOCK) != 0 || (word & CORE_MASK) == s) ->
     printf("VIOLATION IDLE-2: thread bits %d, expected %d\n", word & CORE_MASK, s)
  :: else -> skip
  fi;
  assert((word & LOCK) != 0 || (word & CORE_MASK) == s)
}

/* --- duty_applies<Reference>() and next_pc() ------------------------------- */
#define LOSS(t) (lost[t] != L_NONE)
#if P9
#define TB_LOST(t) (lost[t] == L_FULL)
#else
#define TB_LOST(t) (lost[t] != L_NONE)
#endif
#ifdef WITNESS_SKIP_RESYNC
#define FIRST_RESYNCS 0
#else
#define FIRST_RESYNCS 1
#endif
#ifdef WITNESS_UNLOCK_BEFORE_RESYNC
#define RESYNC_BEFORE_UNLOCK 0
#else
#define RESYNC_BEFORE_UNLOCK 1
#endif

inline duty_applies(t, p) {
  if
  :: p == RESTORE_CORE -> applies = LOSS(t) && first[t] && (P9 || full_winkle[t])
  :: p == P8_UNDO_WA -> applies = LOSS(t) && first[t] && !P9 && WORKAROUND
  :: p == RESYNC_TB -> applies = TB_LOST(t) && first[t] && FIRST_RESYNCS && RESYNC_BEFORE_UNLOCK
  :: p == RESTORE_SUBCORE -> applies = LOSS(t) && !P9 && full_winkle[t] && !sibling_awake[t]
  :: p == UNLOCK_LOAD || p == UNLOCK_CMPXCHG -> applies = 1
  :: p == RESYNC_TB_LATE -> applies = TB_LOST(t) && first[t] && FIRST_RESYNCS && !RESYNC_BEFORE_UNLOCK
  :: p == RESTORE_THREAD -> applies = LOSS(t) && (P9 -> sprs_saved[t] : full_winkle[t])
  :: else -> applies = 0
  fi
}

/* detail::finish_wake: back to running, every local zero (ThreadState{}).
 * IDLE-3 is judged here, on the return to running. */
inline finish_wake(t) {
  if
  :: !tb_valid -> printf("VIOLATION IDLE-3: t%d returns to running, timebase invalid\n", t)
  :: else -> skip
  fi;
  assert(tb_valid);
  pc[t] = RUNNING;
  kind[t] = K_NONE;
  lost[t] = L_NONE;
  sprs_saved[t] = 0;
  full_winkle[t] = 0;
  first[t] = 0;
  sibling_awake[t] = 0;
  seen[t] = 0
}

/* step()'s `advance`: the next duty after `from` that applies, or running. */
inline advance(t, from) {
  np = from + 1;
  do
  :: np > RESTORE_THREAD -> np = RUNNING; break
  :: else ->
     duty_applies(t, np);
     if
     :: applies -> break
     :: else -> np++
     fi
  od;
  pc[t] = np;
  if
  :: np == RUNNING -> finish_wake(t)
  :: else -> skip
  fi
}

/* BUG_ON / WARN_ON of the kernel code (Event::bug in C++). */
inline kernel_assert(cond) {
  if
  :: !(cond) -> printf("VIOLATION BUG_ON: pc %d\n", pc[_pid])
  :: else -> skip
  fi;
  assert(cond)
}

/* begin_idle<Reference>(): one step, no action on the word yet. */
inline begin_idle(t, k) {
  kind[t] = k;
  if
  :: k == K_SLEEP || k == K_WINKLE -> pc[t] = P8_ENTRY_LOCK  /* clear_under_lock */
  :: k == K_DEEP || k == K_TBLOSS -> sprs_saved[t] = 1; pc[t] = P9_ENTRY_CLEAR
  :: else -> pc[t] = IDLE_INSN  /* nap, shallow stop */
  fi
}

/* wake<Reference>(): the hardware wakes thread t from hardware idle. */
inline wake(t) {
  if
  :: kind[t] == K_SLEEP || kind[t] == K_WINKLE ->
     pc[t] = (LOSS(t) -> LOSS_LOCK : P8_WAKE_LOCK)
  :: kind[t] == K_DEEP || kind[t] == K_TBLOSS ->
     pc[t] = (LOSS(t) -> LOSS_LOCK : P9_WAKE_SET)
  :: else ->
     kernel_assert(!LOSS(t));  /* BUG_ON: state loss after nap / shallow stop */
     finish_wake(t)
  fi
}

/* step<Reference>(): one atomic action at the thread's Pc. Each branch is
 * the C++ `case Pc::...` of the same name. */
inline step(t) {
  if
  /* --- POWER8 entry --- */
  :: pc[t] == P8_ENTRY_LOCK ->     /* test_and_set_bit_lock (the guard waited) */
     word = word | LOCK;
     pc[t] = P8_ENTRY_LOAD
  :: pc[t] == P8_ENTRY_LOAD ->     /* s = *state */
     s = word;
     seen[t] = s;
     pc[t] = P8_ENTRY_STORE;
     kernel_assert((s & (1 << t)) != 0)
  :: pc[t] == P8_ENTRY_STORE ->    /* *state = s & ~thread; after_clear() */
     s = seen[t] & ~(1 << t);
     word = s;
     if
     :: WORKAROUND && (s & CORE_MASK) == 0 -> pc[t] = P8_ENTRY_APPLY_WA
     :: else -> pc[t] = (kind[t] == K_WINKLE -> P8_ENTRY_WINKLE : P8_ENTRY_UNLOCK)
     fi;
     seen[t] = 0
  :: pc[t] == P8_ENTRY_APPLY_WA -> /* the last thread: the fastsleep workaround */
     wa_applied = 1;                  /* MARK apply_wa */
     pc[t] = (kind[t] == K_WINKLE -> P8_ENTRY_WINKLE : P8_ENTRY_UNLOCK)
  :: pc[t] == P8_ENTRY_WINKLE ->   /* count += 1; all winkle bits at count == N */
     s = word + WINKLE_COUNT_ONE;
     if
     :: WINKLE_COUNT(s) == N -> s = s | (CORE_MASK << WINKLE_BITS_SHIFT)
     :: else -> skip
     fi;
     word = s;
     sprs_saved[t] = 1;
     pc[t] = P8_ENTRY_UNLOCK;
     kernel_assert(WINKLE_COUNT(s) != 0)
  :: pc[t] == P8_ENTRY_UNLOCK ->   /* clear_bit_unlock(lock) */
     word = word & ~LOCK;             /* MARK entry_unlock */
     pc[t] = IDLE_INSN
  /* --- POWER9 entry --- */
  :: pc[t] == P9_ENTRY_CLEAR ->    /* clear_bit(thread) */
     word = word & ~(1 << t);         /* MARK p9_clear_bit */
     pc[t] = IDLE_INSN
  :: pc[t] == IDLE_INSN ->         /* from now on in hardware idle */
     pc[t] = HW_IDLE
  /* --- wake without loss --- */
  :: pc[t] == P8_WAKE_LOCK ->      /* test_and_set_bit_lock */
     word = word | LOCK;
     pc[t] = (kind[t] == K_WINKLE -> P8_WAKE_WINKLE : UNLOCK_LOAD)
  :: pc[t] == P8_WAKE_WINKLE ->    /* count -= 1, clear own winkle bit */
     s = word;
     old = WINKLE_COUNT(s);        /* had_count */
     s = s - WINKLE_COUNT_ONE;
     s = s & ~((1 << t) << WINKLE_BITS_SHIFT);
     word = s;
     pc[t] = UNLOCK_LOAD;
     kernel_assert(old != 0)
  :: pc[t] == P9_WAKE_SET ->       /* set_bit(thread) */
     word = word | (1 << t);
     finish_wake(t)
  /* --- wake with loss --- */
  :: pc[t] == LOSS_LOCK ->         /* test_and_set_bit_lock */
     word = word | LOCK;
     pc[t] = (kind[t] == K_WINKLE -> P8_LOSS_WINKLE : LOSS_CHECK)
  :: pc[t] == P8_LOSS_WINKLE ->    /* count -= 1; own winkle bit => full winkle */
     s = word;
     old = WINKLE_COUNT(s);
     s = s - WINKLE_COUNT_ONE;
     if
     :: (s & ((1 << t) << WINKLE_BITS_SHIFT)) != 0 ->
        s = s & ~((1 << t) << WINKLE_BITS_SHIFT);
        full_winkle[t] = 1
     :: else -> skip
     fi;
     word = s;
     pc[t] = LOSS_CHECK;
     kernel_assert(old != 0);
     kernel_assert(!full_winkle[t] || sprs_saved[t])
  :: pc[t] == LOSS_CHECK ->        /* s = *state: first awake? sibling awake? */
     s = word;
     first[t] = ((s & CORE_MASK) == 0);
     sibling_awake[t] = (!P9 && (s & SIBLING_MASK(t)) != 0);
     kernel_assert((s & (1 << t)) == 0);
     advance(t, LOSS_CHECK)
  :: pc[t] == RESTORE_CORE ->
     core_regs_valid = 1;
     advance(t, RESTORE_CORE)
  :: pc[t] == P8_UNDO_WA ->
     wa_applied = 0;
     advance(t, P8_UNDO_WA)
  :: pc[t] == RESYNC_TB || pc[t] == RESYNC_TB_LATE ->  /* opal_resync_timebase() */
     tb_valid = 1;                    /* MARK resync_tb */
     advance(t, pc[t])
  :: pc[t] == RESTORE_SUBCORE ->
     subcore_regs_valid = subcore_regs_valid | (1 << (t / PER_SUBCORE));
     advance(t, RESTORE_SUBCORE)
  /* --- set own bit and release the lock: one cmpxchg loop --- */
  :: pc[t] == UNLOCK_LOAD ->       /* s = READ_ONCE(*state) */
     s = word;
     seen[t] = s;
     pc[t] = UNLOCK_CMPXCHG;
     kernel_assert((s & LOCK) != 0);
     kernel_assert((s & (1 << t)) == 0)
  :: pc[t] == UNLOCK_CMPXCHG ->    /* cmpxchg(state, s, (s | thread) & ~lock) */
     s = seen[t];
     old = word;
     if
     :: old == s ->
        word = (s | (1 << t)) & ~LOCK;
        seen[t] = 0;
        advance(t, UNLOCK_CMPXCHG)
     :: else ->
        seen[t] = old              /* retry with what it saw */
     fi
  :: pc[t] == RESTORE_THREAD ->
     thread_regs_valid = thread_regs_valid | (1 << t);
     advance(t, RESTORE_THREAD)
  :: else ->
     kernel_assert(false)          /* running / hw_idle move otherwise */
  fi
}

/* One hardware thread: its moves of enabled_moves(), each one d_step. */
active [N] proctype thread() {
  do
#if P9
  :: d_step { pc[_pid] == RUNNING ->
              printf("MOVE t%d begins stop-shallow\n", _pid);
              begin_idle(_pid, K_SHALLOW); check_invariants() }
  :: d_step { pc[_pid] == RUNNING ->
              printf("MOVE t%d begins stop-deep\n", _pid);
              begin_idle(_pid, K_DEEP); check_invariants() }
  :: d_step { pc[_pid] == RUNNING ->
              printf("MOVE t%d begins stop-tb-loss\n", _pid);
              begin_idle(_pid, K_TBLOSS); check_invariants() }
#else
  :: d_step { pc[_pid] == RUNNING ->
              printf("MOVE t%d begins nap\n", _pid);
              begin_idle(_pid, K_NAP); check_invariants() }
  :: d_step { pc[_pid] == RUNNING ->
              printf("MOVE t%d begins sleep\n", _pid);
              begin_idle(_pid, K_SLEEP); check_invariants() }
  :: d_step { pc[_pid] == RUNNING ->
              printf("MOVE t%d begins winkle\n", _pid);
              begin_idle(_pid, K_WINKLE); check_invariants() }
#endif
  :: d_step { pc[_pid] == HW_IDLE ->
              printf("MOVE t%d wakes\n", _pid);
              wake(_pid); check_invariants() }
  :: d_step { STEP_ENABLED(_pid) ->
              printf("MOVE t%d step %d\n", _pid, pc[_pid]);
              step(_pid); check_invariants() }
  od
}

/* The hardware: the core enters its state-loss state (core_loss in
 * apply()). IDLE-4 is judged here. */
active proctype core() {
  do
  :: d_step { CORE_LOSS_ENABLED ->
              printf("MOVE core loses state %d\n", LOSS_LEVEL);
              if
              :: !P9 && WORKAROUND && !wa_applied ->
                 printf("VIOLATION IDLE-4: core loss without the fastsleep workaround\n")
              :: else -> skip
              fi;
              assert(P9 || !WORKAROUND || wa_applied);
              np = LOSS_LEVEL;
              i = 0;
              do
              :: i < N ->
                 if
                 :: lost[i] < np -> lost[i] = np
                 :: else -> skip
                 fi;
                 i++
              :: else -> break
              od;
              if
              :: P9 ->
                 core_regs_valid = 0;
                 thread_regs_valid = 0;
                 if
                 :: np == L_FULL -> tb_valid = 0
                 :: else -> skip
                 fi
              :: else ->
                 tb_valid = 0;
                 if
                 :: np == L_FULL ->
                    core_regs_valid = 0;
                    subcore_regs_valid = 0;
                    thread_regs_valid = 0
                 :: else -> skip
                 fi
              fi;
              check_invariants() }
  od
}
