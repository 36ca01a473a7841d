/*
 * WP's contracts for idle_core (validate/framac.h): ACSL on declarations of
 * powernv idle.c's helpers that move the core's idle-state word (the
 * thread bits 0..7, the lock bit 28), read before the code extracted from
 * the file under test, so that the contract is the project's and the kernel
 * text stays as it is. The atomic operations are their sequential effect
 * under Frama-C (shims/idle_env.h): each contract states what one step of
 * the protocol does to the word, the steps spec/idle_core.md's IDLE-1,
 * IDLE-2 and IDLE-7 are built from. It does not prove those clauses, which
 * are about every interleaving of the threads' steps (the harness explores
 * those); it proves that each step is the one the model's step function
 * takes.
 *
 * Measured with Frama-C 25 and Z3 4.8.12 (why3 1.5.1) on Debian 6.1's and
 * 6.12's idle.c: both contracts below prove every goal (6 of 6, 4 of 4,
 * about 1.2 s each); a lock that sets bit 27 or an unlock that clears bit 0
 * leaves LOCK_TAKEN / LOCK_FREED unproven. Not here yet, and why:
 *   - atomic_start_thread_idle / atomic_stop_thread_idle (this thread's bit
 *     cleared / set, every other bit kept): Z3 answers "unknown error" on
 *     a shift by cpu & (threads_per_core - 1) and on a 64-bit "every other
 *     bit kept" about a word reached through paca_ptrs[]; the same goals
 *     with a plain shift amount prove (0.5 s).
 *   - atomic_unlock_and_stop_thread_idle: its retry is a backward goto,
 *     which WP rejects ("Non natural loop detected"); no annotation can go
 *     into the kernel's text to help it.
 *   - "every other bit kept" for the lock contracts: the same Z3 failure;
 *     for the separate lock (v6.5+) the assigns clause proves that the
 *     thread bits are not written at all.
 *
 * The lock bit is in the word up to v6.4 and in the first thread's
 * paca->idle_lock since b0c5b4f1ee36 (v6.5): validate/framac.cc passes
 * -DIC_LOCK_APART when the file's text has idle_lock. It runs each contract
 * whose function the file has (asked for or pulled in as a helper) and
 * reports it as a note, "a step of IDLE-1": the clause's verdict is the
 * harness's, with no proof level from a step. Witnesses:
 * tests/validate/run_framac_idle_core.sh.
 */
/* The core's first thread's paca, this thread's bit, the word and the lock
 * word, as idle.c computes them (macros: WP's simplifier sees through them,
 * not through logic functions). */
#define FC_FIRST_NR (ic_cur & ~(threads_per_core - 1))
#define FC_FIRST (paca_ptrs[FC_FIRST_NR])
#define FC_T (ic_cur & (threads_per_core - 1)) /* this thread's bit number */
#define FC_L NR_PNV_CORE_IDLE_LOCK_BIT /* the lock's bit number */
#define FC_BIT(w, b) (((w) >> (b)) & 1)
#define FC_STATE (FC_FIRST->idle_state)
#ifdef IC_LOCK_APART
#define FC_LOCK (FC_FIRST->idle_lock)
#else
#define FC_LOCK (FC_FIRST->idle_state)
#endif
/*@ predicate fc_core_ok =
      0 <= ic_cur < IC_MAX_THREADS &&
      (threads_per_core == 1 || threads_per_core == 2 || threads_per_core == 4 ||
       threads_per_core == 8) &&
      \valid(FC_FIRST);
*/

/* Taking the lock when it is free: the lock bit set, nothing but the lock's
 * word written (for the separate lock: the thread bits untouched). A step of
 * IDLE-1. Its wait loop needs -ulevel 1: the first test-and-set finds the
 * lock free, and WP sees that the loop is not entered again. */
/*@ requires fc_core_ok;
    requires LOCK_FREE: FC_BIT(FC_LOCK, FC_L) == 0;
    assigns FC_LOCK;
    ensures LOCK_TAKEN: FC_BIT(FC_LOCK, FC_L) == 1;
*/
static inline void atomic_lock_thread_idle(void);

/* Leaving the lock (POWER8's entry, after the bookkeeping): the lock bit
 * cleared, nothing but the lock's word written. A step of IDLE-1. */
/*@ requires fc_core_ok;
    assigns FC_LOCK;
    ensures LOCK_FREED: FC_BIT(FC_LOCK, FC_L) == 0;
*/
static inline void atomic_unlock_thread_idle(void);

/* A BUG_ON that fires is a finding of the harness's, not a stop: WP proves
 * the contracts on that path too. */
/*@ assigns \nothing; */
static void shim_kernel_finding(const char *what, const char *cond, const char *file, int line);
