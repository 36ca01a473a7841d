/*
 * The idle_core harness of `idlespec validate` (spec/idle_core.md): a
 * file's power9_idle_stop() run by the threads of one POWER9 core (SMT2 or
 * SMT4; built with HAVE_POWER9_IDLE_STOP), or its power7_idle_insn() run by
 * the threads of one POWER8 core (SMT2, SMT4 or SMT8, whole or split into 2
 * or 4 subcores; built with HAVE_POWER7_IDLE_INSN), one ucontext per
 * hardware thread, under a scheduler that decides
 * at every scheduling point (harness/shims/idle_env.h) which thread moves,
 * when the hardware wakes a thread from its idle instruction, and when the
 * core loses state. The harness observes and the idle_core oracle judges
 * (oracle/idle_core.h, linked in through oracle/idle_core_c.h: the code
 * that judges the model checker's, RapidCheck's and the fuzz target's
 * runs). Per move the oracle is told what the code did (began idle, the
 * idle instruction, a wake-up, a resync with the word the thread decided
 * on, the fastsleep workaround, a kernel assertion, the return), the word
 * after it (the lock bit set while the lock is held, wherever the code
 * keeps it) and which register sets hold their values; it judges
 *
 *   IDLE-2  while the lock is free, the bits of the threads certainly awake
 *           are set and those of threads in hardware idle in sleep, winkle
 *           or a deep stop are clear; assertions on a thread bit
 *   IDLE-3  no thread returns to running while the timebase is invalid
 *   IDLE-4  POWER8 with the workaround: no loss without it applied
 *   IDLE-5  POWER8: the winkle count lies between the winkle threads in
 *           hardware idle and those not running; no thread returns before
 *           the per-core and (after a full winkle) its own registers hold
 *           their values; assertions on the count or the saved registers
 *   IDLE-6  POWER8: no thread returns before its subcore's registers hold
 *   IDLE-7  POWER9: no thread returns before the per-core and its own
 *           registers hold their values
 *   IDLE-9  a resync only by a thread whose word had no other thread's bit
 *
 *   IDLE-1  the lock bit (the word's, or paca->idle_lock's since v6.5) is
 *           set exactly while one thread holds it; no thread returns to
 *           running holding it; no reachable state leaves every unfinished
 *           thread unable to move; assertions on the lock (the harness says
 *           who holds the lock: a thread from its successful
 *           test_and_set_bit_lock to the operation that clears the bit)
 *   IDLE-2, -5  POWER8: no plain store changes the thread bits or the
 *           winkle fields without the lock (the harness sees a plain store
 *           at the thread's next scheduling point: the word differs from
 *           what the last operation left)
 *
 *   IDLE-8  a thread that woke returns: at a deadlock (no move left) every
 *           woken thread fails it; a cycle this file finds on a schedule
 *           (the same whole state again: what it takes is stated at
 *           ic_after_move) fails it when it is strongly fair with a thread
 *           inside the function throughout (oracle breaks_idle8, the
 *           judgement the model checker makes of its SCCs); bounded: on the
 *           explored schedules
 *
 * This harness finds the moves, the states and the cycles; it judges nothing.
 * This file holds the job loop and main(); its parts, included below in
 * order, the rest: idle_core_model.c (the core, its threads and SPRs, the
 * schedule's record), idle_core_observe.c (the hooks and what the oracle is
 * told), idle_core_schedule.c (the threads' contexts on POWER8 and POWER9,
 * one schedule's moves), idle_core_text.c (timelines, moves as text),
 * idle_core_livelock.c (IDLE-8's fair cycles) and idle_core_explore.c
 * (replay, shrinking, DFS and PCT); idle_core_races.c, after the model, is
 * the ThreadSanitizer build's (IDLE-10: no data race on the idle words).
 *
 * POWER9's IDLE-7 is the POWER9 form of IDLE-1's lock part, IDLE-2 and
 * IDLE-3: a POWER9 failure of those is IDLE-7's too, and any other POWER9
 * failure (an assertion, a crash) IDLE-7's. POWER8 takes crashes and
 * assertions that guard no clause as IDLE-1 (a thread that cannot go on).
 * A POWER8 loss ("L", every thread in sleep or winkle) always takes the
 * timebase (fastsleep), and every thread's SPRs when every thread winkles.
 *
 * Moves: "bTK" thread T begins an idle cycle of kind K (s: EC=ESL=0, l:
 * ESL=1 below the SPR-loss level, d: SPR loss, t: timebase loss; POWER8: n
 * nap, s sleep, w winkle); "T" thread
 * T performs its pending operation and runs to its next scheduling point
 * (the idle instruction: enters hardware idle); "wT" the hardware wakes T
 * (SRR1 and PSSCR[PLS] from what the core lost while T was stopped); "L"
 * the core loses state (enabled when every thread is in hardware idle in a
 * deep stop; timebase too when all are at the timebase-loss level).
 *
 * Input, one job per line (<threads>: 1, 2, 4; POWER8 also 8, "<n>s<k>" for
 * k subcores, and a suffix f when the code has the fastsleep workaround):
 *   <id> <threads> dfs <cycles> <kinds> <preemption bound, -1: none> <max schedules>
 *   <id> <threads> pct <cycles> <kinds> <seed> <runs> <depth>
 *   <id> <threads> replay <cycles> <kinds> <move,move,...>
 * Output per job:
 *   FINDING <id> <clause> count=<schedules> moves=<n> schedule=<moves> :: <what>
 *   LOST <id> <clause> other=<0|1> regs=<SPR,...|->   over the explored schedules: the
 *       registers some thread returned with lost; other=1: a failure not a register's
 *   TL <id> <clause> <step>: <thread>: <action>          the shrunk schedule's timeline
 *       (a livelock's: a table, one column per thread, one row per step, the cycle marked)
 *   R <id> mode=<m> schedules=<n> states=<n> transitions=<n> max_depth=<n>
 *       bound_hits=<n> complete=<0|1> findings=<n> failcap=<0|1 a DFS stopped after
 *       IC_FAIL_CAP failing schedules>
 * or CRASH <id> <signal> <name> / HANG <id>; after all jobs DONE <jobs>.
 * With argument "trace", "AT <id>" goes to stderr before each job.
 */
#include <ucontext.h>

#include "harness_runtime.c"
#include "oracle/idle_core_c.h"

/* Which function this build runs: POWER8's power7_idle_insn or POWER9's power9_idle_stop. */
#ifdef HAVE_POWER7_IDLE_INSN
#define IC_P8 1
#define IC_FN_NAME "power7_idle_insn"
#define IC_KIND_LETTERS "nsw"
#else
#define IC_P8 0
#define IC_FN_NAME "power9_idle_stop"
#define IC_KIND_LETTERS "sldt"
#endif
#if defined(HAVE_POWER7_IDLE_INSN) || defined(HAVE_POWER9_IDLE_STOP)
#define IC_HAVE_FN 1
#endif

/* The harness's parts, in this order (one translation unit: each part uses
 * what the ones before it define). */
#include "idle_core_model.c"
#include "idle_core_races.c"
#include "idle_core_observe.c"
#include "idle_core_schedule.c"
#include "idle_core_text.c"
#include "idle_core_livelock.c"
#include "idle_core_explore.c"

/* --- the job loop ------------------------------------------------------------------------------ */
static void ic_setup_core(int threads, int cycles, const char *kinds) {
  ic_n = threads, ic_cycles = cycles;
  threads_per_core = threads;
  if (ic_oracle) icx_free(ic_oracle);
  ic_oracle = icx_new(!IC_P8, (unsigned)threads, (unsigned)ic_subcores, ic_judge_wa);
  if (!ic_oracle) bad_input("threads: a core the spec's model does not know");
  threads_shift = threads == 8 ? 3 : threads == 4 ? 2 : threads == 2 ? 1 : 0;
  ic_core_mask = (1UL << threads) - 1;
  snprintf(ic_kinds, sizeof ic_kinds, "%s", kinds);
  ic_nkinds = (int)strlen(ic_kinds);
  for (int i = 0; i < ic_nkinds; i++)
    if (!strchr(ic_kind_letters, ic_kinds[i])) bad_input("kinds: letters of " IC_KIND_LETTERS);
#if !IC_P8
  /* The first level that loses the full SPR state: deep_spr_loss_state
   * since v5.12, pnv_first_spr_loss_level before. */
#if defined(IDLESPEC_HAVE_pnv_first_spr_loss_level) && !defined(IDLESPEC_HAVE_deep_spr_loss_state)
  pnv_first_spr_loss_level = IC_DEEP_LEVEL;
#else
  deep_spr_loss_state = IC_DEEP_LEVEL;
#endif
  pnv_first_tb_loss_level = IC_TB_LEVEL;
#endif
}

/* "<threads>[s<subcores>][f]": POWER8 split-core, IDLE-4 judged (the code has the workaround). */
static int ic_parse_threads(const char *f) {
  char *end;
  const long threads = strtol(f, &end, 10);
  ic_subcores = 1, ic_judge_wa = 0;
  while (*end) {
    if (*end == 's' && IC_P8) {
      ic_subcores = (int)strtol(end + 1, &end, 10);
    } else if (*end == 'f' && IC_P8) {
      ic_judge_wa = 1, end++;
    } else {
      bad_input("threads: <n>, POWER8 also <n>s<subcores> and a suffix f (the fastsleep workaround)");
    }
  }
  if (IC_P8 ? threads != 1 && threads != 2 && threads != 4 && threads != 8
            : threads != 1 && threads != 2 && threads != 4)
    bad_input(IC_P8 ? "threads: 1, 2, 4 or 8" : "threads: 1, 2 or 4 (POWER9: SMT4 at most)");
  if ((ic_subcores != 1 && ic_subcores != 2 && ic_subcores != 4) || ic_subcores > threads)
    bad_input("subcores: 1, 2 or 4, at most the threads");
  return (int)threads;
}

/* The hang backstop (harness_runtime.c): progress is a move; a thread stuck
 * past BACKSTOP_SECONDS gets the HANG line the alarm above would have
 * written, with the schedule so far, and the process ends (the driver
 * resumes after this job). */
static long long ic_inflight_id;
static unsigned long ic_pulse(void) { return ic_progress; }
static void ic_backstop_report(void) {
  static char sched[IC_MAX_MOVES * 5];
  ic_moves_text(ic_moves, ic_nmoves, sched, sizeof sched);
  emit("HANG %lld schedule=%s", ic_inflight_id, sched);
  for (unsigned i = 0; i < nwarns; i++) emit("WARN %lld %s", ic_inflight_id, warns[i]);
}

static void ic_job(long long id, char **f, int nf, int trace) {
  static struct ic_move mv[IC_MAX_MOVES];
  struct ic_stats st;
  memset(&st, 0, sizeof st);
  memset(ic_best, 0, sizeof ic_best);
  memset(ic_lost_reg, 0, sizeof ic_lost_reg);
  memset(ic_lost_other, 0, sizeof ic_lost_other);
  const int threads = ic_parse_threads(f[0]);
  const char *mode = f[1];
  const int cycles = atoi(f[2]);
  if (cycles < 1 || cycles > 8) bad_input("cycles: 1..8");
  ic_setup_core(threads, cycles, f[3]);
  memset(ic_seen_key, 0, sizeof(uint64_t) << IC_HASH_BITS);
  ic_states = 0;
  ic_inflight_id = id;
  trace_at(trace, id);
  trap_sig = 0;
  if (sigsetjmp(recover, 1) == 0) {
    in_call = 1;
    ic_watchdog(1);
    if (!strcmp(mode, "dfs")) {
      if (nf != 6) bad_input("dfs: <threads> dfs <cycles> <kinds> <bound> <max schedules>");
      ic_dfs(atoi(f[4]), strtoul(f[5], NULL, 10), &st);
    } else if (!strcmp(mode, "pct")) {
      if (nf != 7) bad_input("pct: <threads> pct <cycles> <kinds> <seed> <runs> <depth>");
      const int depth = atoi(f[6]);
      if (depth < 1 || depth > 8) bad_input("pct depth: 1..8");
      ic_pct(strtoull(f[4], NULL, 10), strtoul(f[5], NULL, 10), depth, &st);
    } else if (!strcmp(mode, "replay")) {
      if (nf != 5) bad_input("replay: <threads> replay <cycles> <kinds> <moves>");
      const int n = ic_parse_moves(f[4], mv);
      ic_replay(mv, n);
      st.schedules = 1, st.transitions = (unsigned long)ic_nmoves, st.complete = 1;
      st.max_depth = (unsigned long)ic_nmoves;
      ic_record_findings();
    } else {
      bad_input("mode: dfs, pct or replay");
    }
    in_call = 0;
    ic_watchdog(0);
  } else {
    ic_watchdog(0);
    IC_TSAN_RECOVERED();
    char sched[IC_MAX_MOVES * 5];
    ic_moves_text(ic_moves, ic_nmoves, sched, sizeof sched);
    if (trap_sig > 0)
      emit("CRASH %lld %d %s schedule=%s", id, (int)trap_sig, signal_name((int)trap_sig), sched);
    else
      emit("HANG %lld schedule=%s", id, sched);
    for (unsigned i = 0; i < nwarns; i++) emit("WARN %lld %s", id, warns[i]);
    if (++traps >= MAX_TRAPS) {
      emit("ABORT too many crashes/hangs");
      flush_out();
      exit(3);
    }
    return;
  }
  int nfound = 0;
  for (int c = 1; c < IC_NCLAUSES; c++) nfound += ic_best[c].count > 0;
  ic_emit_lost(id);
  /* The shrinking replays: under the watchdog too. */
  if (sigsetjmp(recover, 1) == 0) {
    in_call = 1;
    ic_watchdog(1);
    ic_shrink_and_emit(id);
    in_call = 0;
    ic_watchdog(0);
  } else {
    ic_watchdog(0);
    IC_TSAN_RECOVERED();
  }
#ifdef IC_TSAN
  emit("R %lld mode=%s schedules=%lu states=%lu transitions=%lu max_depth=%lu bound_hits=%lu complete=%d "
       "findings=%d failcap=%d tsan=1 races_word=%lu races_other=%lu",
       id, mode, st.schedules, ic_states, st.transitions, st.max_depth, st.bound_hits, st.complete, nfound,
       st.failcap, ic_races_word, ic_races_other);
  ic_races_word = ic_races_other = 0;
#else
  emit("R %lld mode=%s schedules=%lu states=%lu transitions=%lu max_depth=%lu bound_hits=%lu complete=%d "
       "findings=%d failcap=%d",
       id, mode, st.schedules, ic_states, st.transitions, st.max_depth, st.bound_hits, st.complete, nfound,
       st.failcap);
#endif
}

#ifdef IC_HAVE_FN
static void idle_input(long long id, char **f, int nf, bool trace) { ic_job(id, f, nf, trace); }
#endif

int main(int argc, char **argv) {
  const int trace = argc == 2 && !strcmp(argv[1], "trace");
  if (argc > 2 || (argc == 2 && !trace)) {
    fprintf(stderr, "usage: %s [trace]  (jobs on stdin, see harness_idle_core.c)\n", argv[0]);
    return 2;
  }
#ifndef IC_HAVE_FN
  emit("ABSENT power9_idle_stop power7_idle_insn");
  emit("DONE 0");
  flush_out();
  return 0;
#else
#ifdef IC_TSAN
  ic_tsan_init();
#endif
  for (int t = 0; t < IC_MAX_THREADS; t++) {
    ic_th[t].stack = (char *)malloc(IC_STACK_SIZE);
    if (!ic_th[t].stack) return 3;
  }
  ic_seen_key = (uint64_t *)calloc((size_t)1 << IC_HASH_BITS, sizeof(uint64_t));
  ic_seen_pre = (unsigned char *)calloc((size_t)1 << IC_HASH_BITS, 1);
  if (!ic_seen_key || !ic_seen_pre) return 3;
  ic_init_scopes();
  /* Crashes may happen on a thread's stack: handle them on their own. */
  static char altstack[1 << 16];
  stack_t ss;
  memset(&ss, 0, sizeof ss);
  ss.ss_sp = altstack, ss.ss_size = sizeof altstack;
  sigaltstack(&ss, NULL);
  struct sigaction sa;
  memset(&sa, 0, sizeof(sa));
  sa.sa_handler = on_crash;
  sa.sa_flags = SA_NODEFER | SA_ONSTACK;
  sigaction(SIGSEGV, &sa, NULL);
  sigaction(SIGBUS, &sa, NULL);
  sigaction(SIGFPE, &sa, NULL);
  sigaction(SIGILL, &sa, NULL);
  sa.sa_handler = ic_on_alarm;
  sigaction(SIGALRM, &sa, NULL);
  backstop_pulse = ic_pulse;
  backstop_report = ic_backstop_report;
  start_backstop();

  return harness_input_loop(idle_input, 5, 8, "expected <id> <threads> <mode> <cycles> <kinds> ...",
                            trace);
#endif
}
