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
 * This file finds the moves, the states and the cycles; it judges nothing.
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

/* IC_ASAN, the contexts and IC_SWITCH: harness/shims/idle_env.h. */

#define IC_STACK_SIZE (256 * 1024)
#define IC_MAX_MOVES 1024    /* per schedule: beyond it the schedule is cut (a bound hit) */
#define IC_MAX_FIND 8        /* findings kept per schedule */
#define IC_NCLAUSES 10       /* bit c: IDLE-c */
#define IC_DEEP_LEVEL 4      /* deep_spr_loss_state (pnv_first_spr_loss_level before v5.12) */
#define IC_TB_LEVEL 6        /* pnv_first_tb_loss_level */
#define IC_HASH_BITS 22
#define IC_MAX_ENABLED (4 * IC_MAX_THREADS + 1) /* every kind for every thread, and the loss */
/* AMOR on wake-up: since 46f9caf1a246 ("powerpc/64s: Keep AMOR SPR a
 * constant ~0 at runtime") the kernel keeps AMOR at ~0 and writes ~0 back
 * after a state loss instead of a saved copy; before it, idle.c restored the
 * value it had saved. The harness seeds AMOR with the runtime constant, so
 * code of either era holds, and code that loses AMOR still fails. */
#define IC_AMOR_RUNTIME (~0UL)
#define C(n) (1u << (n))
/* The clauses a finding of IDLE-n is charged to on this platform, by the
 * oracle's rule (POWER9's IDLE-7 covers IDLE-1/2/3's parts; POWER8 has no
 * IDLE-7 and takes crashes and unclassified assertions as IDLE-1, a thread
 * that cannot go on). IC_P9C: what IDLE-1 or -2 takes along. */
#define IC_CHARGED(n) icx_charged(ic_oracle, (n))
#define IC_P9C (IC_CHARGED(1) & ~C(1))
#define IC_ANY IC_CHARGED(-1)

enum ic_status { ST_BEGIN, ST_PENDING, ST_HWIDLE, ST_DONE };

struct ic_move {
  char kind; /* 'b', 's' (step), 'w', 'L' */
  unsigned char t, k;
};

struct ic_thread {
  char *stack;
  enum ic_status st;
  int cycle, kind;       /* kind: index into ic_kind_letters */
  unsigned long psscr;   /* the request of the current cycle */
  int in_call;           /* inside power9_idle_stop */
  int woke;              /* woke in the current call (on the wake path) */
  int pend_op, pend_line;
  unsigned long pend_arg;
  const volatile unsigned long *pend_addr; /* the word or the lock the pending operation is on */
  int lost;              /* 0, 1 SPR loss, 2 timebase loss: while in hardware idle */
  int idle_mayloss;      /* the pending/current idle instruction may lose state */
  unsigned long srr1;    /* what the wake hands back */
  int holds_lock;
  int wcount;            /* POWER8: its net change of the winkle count in this call */
  int decided_set;
  unsigned long decided, last_seen;
  uint64_t hist;         /* hash of what the thread observed in this call */
  int ro_line, ro_op;    /* its last operation, if it only read the word or the lock */
  unsigned long ro_word;
  const volatile unsigned long *ro_addr;
  uint64_t fp;           /* its registers and stack where it stopped (ic_local_fp) */
  int fp_valid;          /* fp is taken since it last ran */
};

static struct ic_thread ic_th[IC_MAX_THREADS];
static int ic_n = 2, ic_cycles = 1;
static int ic_subcores = 1;  /* POWER8 split-core: 1, 2 or 4 */
static int ic_judge_wa = 0;  /* POWER8: the code has the fastsleep workaround (IDLE-4 judged) */
static unsigned long ic_core_mask = 3;
static char ic_kinds[8] = "dt";
static int ic_nkinds = 2;
static const char ic_kind_letters[] = IC_KIND_LETTERS;
#if IC_P8
static const char *const ic_kind_names[] = {"nap", "sleep", "winkle"};
#else
static const char *const ic_kind_names[] = {"stop EC=ESL=0", "stop ESL=1 shallow", "deep stop (SPR loss)",
                                            "deep stop (timebase loss)"};
#endif

/* The hardware. */
static unsigned long ic_spr[IC_MAX_THREADS][IC_NR_SPRS]; /* per-core ones live in [0], per-subcore
                                                            ones in the subcore's first thread */
static unsigned long ic_golden[IC_MAX_THREADS][IC_NR_SPRS];
static int ic_tb_valid;
static int ic_wa_applied;        /* POWER8: the fastsleep workaround is in effect */
static unsigned long ic_shadow;  /* the word as the last operation left it (plain stores show) */
static unsigned long ic_shadow_lock; /* the same for the separate lock (paca->idle_lock, v6.5+) */
static const char *const ic_spr_names[IC_NR_SPRS] = {
    "?",     "PTCR",  "RPR",   "TSCR",  "LDBAR", "LPCR",  "HFSCR", "FSCR", "PID",  "PURR",
    "SPURR", "DSCR",  "CIABR", "MMCRA", "MMCR0", "MMCR1", "MMCR2", "AMR",  "IAMR", "AMOR",
    "UAMOR", "SPRG3", "WORT",  "PSSCR", "HSPRG0", "HID0", "HMEER", "SDR1", "WORC"};
static const char *const ic_op_names[IC_OP_COUNT] = {
    "?", "clear_bit", "set_bit", "test_and_set_bit_lock", "clear_bit_unlock", "test_bit",
    "cmpxchg", "READ_ONCE", "WRITE_ONCE", IC_P8 ? "idle instruction" : "stop", "mtspr",
    "opal_resync_timebase", "opal_config_cpu_idle_state"};

/* Who shares an SPR: lost and judged by scope; the rest is neither lost nor judged. */
enum { SC_NONE, SC_THREAD, SC_SUBCORE, SC_CORE };
static unsigned char ic_scope[IC_NR_SPRS];
static int ic_nscope[4]; /* SPRs per scope */
static void ic_init_scopes(void) {
#if IC_P8
  static const int core[] = {SPRN_TSCR, SPRN_WORC}, sub[] = {SPRN_SDR1, SPRN_RPR},
                   thr[] = {SPRN_LPCR, SPRN_HFSCR, SPRN_FSCR, SPRN_PURR,
                            SPRN_SPURR, SPRN_DSCR, SPRN_WORT, SPRN_SPRG3};
  for (size_t i = 0; i < ARRAY_SIZE(core); i++) ic_scope[core[i]] = SC_CORE;
  for (size_t i = 0; i < ARRAY_SIZE(sub); i++) ic_scope[sub[i]] = SC_SUBCORE;
  for (size_t i = 0; i < ARRAY_SIZE(thr); i++) ic_scope[thr[i]] = SC_THREAD;
#else
  for (int s = SPRN_PTCR; s < IC_FIRST_THREAD_SPR; s++) ic_scope[s] = SC_CORE;
  for (int s = IC_FIRST_THREAD_SPR; s <= IC_LAST_CHECKED_SPR; s++) ic_scope[s] = SC_THREAD;
#endif
  for (int s = 1; s < IC_NR_SPRS; s++) ic_nscope[ic_scope[s]]++;
}
static int ic_subcore_of(int t) { return t / (ic_n / ic_subcores); }
/* The thread whose slot holds t's copy of the SPR. */
static int ic_home_of_scope(int t, int sc) {
  return sc == SC_CORE ? 0 : sc == SC_SUBCORE ? t - t % (ic_n / ic_subcores) : t;
}
static int ic_home(int t, int spr) {
  return ic_home_of_scope(t, ic_scope[spr]);
}

/* The word of the core (the first thread's paca). */
static unsigned long *ic_word(void) { return &paca_ptrs[0]->idle_state; }
/* The separate lock of v6.5+ (b0c5b4f1ee36); before it the lock bit is the word's. */
static unsigned long *ic_lockw(void) { return &paca_ptrs[0]->idle_lock; }
/* Is the lock held, wherever the code keeps it? */
static int ic_locked(void) { return ((*ic_word() | *ic_lockw()) & PNV_CORE_IDLE_LOCK_BIT) != 0; }

/* --- contexts ------------------------------------------------------------------ */
/* ic_main_ctx, ic_ctx and the switch from a thread (IC_SWITCH): idle_env.h. */
#ifdef IC_ASAN
static void *ic_main_fake;
#endif

/* A thread's last switch: its stack is not resumed (ASan forgets it). */
static void ic_finish_thread(void) {
#ifdef IC_ASAN
  __sanitizer_start_switch_fiber(NULL, ic_main_bottom, ic_main_size);
#endif
  IC_SWAP(&ic_ctx[ic_cur], &ic_main_ctx);
}

static void ic_to_thread(int t) {
  ic_cur = t;
#ifdef IC_ASAN
  __sanitizer_start_switch_fiber(&ic_main_fake, ic_th[t].stack, IC_STACK_SIZE);
#endif
  IC_SWAP(&ic_main_ctx, &ic_ctx[t]);
#ifdef IC_ASAN
  __sanitizer_finish_switch_fiber(ic_main_fake, NULL, NULL);
#endif
  ic_th[t].fp_valid = 0; /* taken when a repeat needs it (ic_global_fp) */
}

/* --- the schedule being run: moves, events, findings ---------------------------- */
struct ic_event {
  int t, op, line;
  unsigned long arg, before, after, ret;
  char on_lock; /* an operation on the separate lock (paca->idle_lock) */
  char held;    /* the separate lock (v6.5+) was held after it */
  char what; /* 'o' operation, 'b' begin, 'i' idle, 'w' wake, 'L' loss, 'r' return, 'm' core mtspr, 'y' resync,
                'x' blocked, 'a' workaround, 'p' plain store to the word */
};

static struct ic_move ic_moves[IC_MAX_MOVES];
static int ic_nmoves;
static struct ic_event ic_ev[4 * IC_MAX_MOVES];
static int ic_nev;
static struct {
  unsigned clauses;
  int move; /* the move after which it was seen */
  char text[480];
} ic_find[IC_MAX_FIND];
static int ic_nfind;
static unsigned ic_found_mask; /* clauses found in this schedule */

static void ic_event(char what, int t, int op, int line, unsigned long arg, unsigned long before,
                     unsigned long after, unsigned long ret) {
  if (ic_nev >= (int)(sizeof ic_ev / sizeof ic_ev[0])) return;
  struct ic_event *e = &ic_ev[ic_nev++];
  e->what = what, e->t = t, e->op = op, e->line = line;
  e->arg = arg, e->before = before, e->after = after, e->ret = ret;
  e->on_lock = 0, e->held = (char)((*ic_lockw() & PNV_CORE_IDLE_LOCK_BIT) != 0);
}

static void ic_finding(unsigned clauses, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void ic_finding(unsigned clauses, const char *fmt, ...) {
  if ((ic_found_mask & clauses) == clauses || ic_nfind >= IC_MAX_FIND) return;
  ic_found_mask |= clauses;
  ic_find[ic_nfind].clauses = clauses;
  ic_find[ic_nfind].move = ic_nmoves;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(ic_find[ic_nfind].text, sizeof ic_find[ic_nfind].text, fmt, ap);
  va_end(ap);
  ic_nfind++;
}


/* --- the judge: oracle/idle_core.h ------------------------------------------------
 * The harness observes; the oracle judges IDLE-2, -3, -4, -5, -6, -7 and -9
 * (the code every other layer's runs are judged by, linked in through
 * oracle/idle_core_c.h). Each observation is one oracle move: the move
 * itself ("bT", "wT", "L", a pending idle instruction), and within the run
 * of a thread to its next point each action the code took (a resync, the
 * fastsleep workaround, a kernel assertion, the return), with the word
 * (the lock bit set while the lock is held, wherever the code keeps it)
 * and the register file as they are then. What the oracle keeps is a
 * function of the harness's state (phases, kinds, losses, the timebase,
 * the workaround, which registers hold their values): the DFS's state
 * hash needs nothing of it. The harness also tells the oracle who holds the
 * lock (after every operation that changes the lock bit, every move and in
 * every observation: IDLE-1), the plain stores it sees (IDLE-2 and -5) and
 * a schedule that ends with no thread able to move (IDLE-1, and IDLE-8 for
 * a woken thread), and each cycle it finds (IDLE-8: icx_breaks_idle8). */
static struct icx_oracle *ic_oracle;
/* An SPR was written or lost since the oracle was last told which register
 * sets hold (the scans cost more than the rest of an observation). */
static int ic_regs_dirty = 1;
/* Per scope and home slot: how many of its SPRs differ from their values
 * (kept by ic_set_spr; ic_reset zeroes it). */
static int ic_bad[4][IC_MAX_THREADS];
/* The observer's own bookkeeping is not the code under test: the ASan+UBSan
 * build leaves it uninstrumented (it runs on every move). */
#if defined(__GNUC__)
#define IC_OBSERVER __attribute__((no_sanitize("address", "undefined")))
#else
#define IC_OBSERVER
#endif
IC_OBSERVER static void ic_set_spr(int h, int s, unsigned long v) {
  const int sc = ic_scope[s];
  ic_bad[sc][h] += (v != ic_golden[h][s]) - (ic_spr[h][s] != ic_golden[h][s]);
  ic_spr[h][s] = v;
  ic_regs_dirty = 1;
}

static uint32_t ic_logical_word(void) {
  return (uint32_t)(*ic_word() | (*ic_lockw() & PNV_CORE_IDLE_LOCK_BIT));
}

/* The first register of a set that does not hold its value (0: none). */
static int ic_lost_spr(int scope, int t) {
  const int h = ic_home_of_scope(t, scope);
  for (int s = 1; s < IC_NR_SPRS; s++)
    if (ic_scope[s] == scope && ic_spr[h][s] != ic_golden[h][s]) return s;
  return 0;
}

IC_OBSERVER static void ic_observe_registers(void) {
  if (!ic_regs_dirty) return;
  ic_regs_dirty = 0;
  uint32_t sub = 0, thr = 0;
  for (int k = 0; k < ic_subcores; k++)
    if (!ic_bad[SC_SUBCORE][k * (ic_n / ic_subcores)]) sub |= 1u << k;
  for (int t = 0; t < ic_n; t++)
    if (!ic_bad[SC_THREAD][t]) thr |= 1u << t;
  icx_registers(ic_oracle, !ic_bad[SC_CORE][0], sub, thr);
}

/* What the harness sees of a register verdict: the register, its value and
 * the one it held (the oracle's message says which set and since when). */
static void ic_registers_seen(int t, char *b, size_t n) {
  int s;
  b[0] = 0;
  if ((s = ic_lost_spr(SC_CORE, t)))
    snprintf(b, n, "; seen: t%d returned to running with the per-core %s lost (%#lx, not %#lx)", t,
             ic_spr_names[s], ic_spr[0][s], ic_golden[0][s]);
  else if ((s = ic_lost_spr(SC_SUBCORE, t)))
    snprintf(b, n, "; seen: t%d returned to running with the per-subcore %s of subcore %d lost (%#lx, not %#lx)",
             t, ic_spr_names[s], ic_subcore_of(t), ic_spr[ic_home(t, s)][s], ic_golden[ic_home(t, s)][s]);
  else if ((s = ic_lost_spr(SC_THREAD, t)))
    snprintf(b, n, "; seen: t%d returned to running with its own %s lost (%#lx, not %#lx)", t,
             ic_spr_names[s], ic_spr[t][s], ic_golden[t][s]);
}

/* The threads holding the lock (bit t: thread t), as the oracle's Seen.holders. */
static uint32_t ic_holders(void) {
  uint32_t h = 0;
  for (int t = 0; t < ic_n; t++)
    if (ic_th[t].holds_lock) h |= 1u << t;
  return h;
}

/* The oracle's violations as findings, each charged by the oracle's rule,
 * with what the harness saw (`seen`, may be empty) after the oracle's words. */
static void ic_report(const struct icx_found *f, int n, const char *seen) {
  for (int i = 0; i < n; i++)
    ic_finding(IC_CHARGED(f[i].clause), "%s%s%s", f[i].clause < 0 ? "the spec's model rejects the move: " : "",
               f[i].msg, seen);
}

/* The state now (the word, the lock's holders), judged by the oracle as the
 * state after a move: IDLE-1's lock part, and what it judges of the word. */
static void ic_judge_state(const char *seen) {
  static struct icx_found f[4]; /* static: no ASan frame to poison per call */
  ic_report(f, icx_state(ic_oracle, ic_logical_word(), ic_holders(), f, 4), seen);
}

/* One observation, judged. POWER9's IDLE-7 is the POWER9 form of IDLE-1's
 * lock part, IDLE-2 and IDLE-3 (spec/idle_core.md): a POWER9 failure of
 * those is IDLE-7's too, and any other POWER9 failure (a register, an
 * assertion) is IDLE-7's. The oracle's "model" (a move its model does not
 * allow, an assertion that guards no clause) is the platform's catch-all. */
IC_OBSERVER static void ic_observe(int move, int t, int event, int kind, int loss, int returned, const char *what,
                       int decided_known, unsigned long decided) {
  struct icx_obs o;
  memset(&o, 0, sizeof o);
  o.move = move, o.thread = (unsigned)(t < 0 ? 0 : t), o.event = event, o.kind = kind, o.loss = loss;
  o.returned = returned, o.what = what, o.decided_known = decided_known;
  o.decided = (uint32_t)decided;
  o.word_after = ic_logical_word();
  o.move_number = (unsigned long)(ic_nmoves > 0 ? ic_nmoves : 1);
  o.holders_known = 1, o.holders = ic_holders();
  ic_observe_registers();
  static char msg[400], seen[200]; /* static: no ASan frame to poison per call */
  const int c = icx_observe(ic_oracle, &o, msg, sizeof msg);
  if (c == 0) return;
  const unsigned mask = IC_CHARGED(c);
  seen[0] = 0;
  if (returned && c > 0 && (c == 5 || c == 6 || c == 7)) ic_registers_seen(t, seen, sizeof seen);
  ic_finding(mask, "%s%s%s", c < 0 ? "the spec's model rejects the move: " : "", msg, seen);
}

/* The oracle's kind for the harness's kind letter. */
static int ic_oracle_kind(int k) {
#if IC_P8
  return ICX_P8_NAP + k; /* n, s, w */
#else
  return ic_kind_letters[k] == 'd' ? ICX_P9_DEEP : ic_kind_letters[k] == 't' ? ICX_P9_TB_LOSS : ICX_P9_SHALLOW;
#endif
}

static int ic_is_word(const volatile void *addr) {
  for (int t = 0; t < ic_n; t += threads_per_core)
    if (addr == (const volatile void *)&paca_ptrs[t]->idle_state ||
        addr == (const volatile void *)&paca_ptrs[t]->idle_lock)
      return 1;
  return 0;
}

static uint64_t ic_mix(uint64_t h, uint64_t v) {
  h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
  h *= 0xff51afd7ed558ccdull;
  return h ^ (h >> 33);
}

/* --- the hooks the shim calls ------------------------------------------------------ */
/* t's operation (not a successful test_and_set_bit_lock) may have changed
 * the lock bit: a clear by the holder releases the lock; then the oracle
 * judges the lock against its holders (a set without taking the lock, a
 * clear by another thread: IDLE-1). After a clear nobody holds the lock any
 * more, whoever held it (the finding is made, the run goes on). */
static void ic_lock_track(int t, const char *what, unsigned long before, unsigned long after) {
  struct ic_thread *th = &ic_th[t];
  const int had = (before & PNV_CORE_IDLE_LOCK_BIT) != 0, has = (after & PNV_CORE_IDLE_LOCK_BIT) != 0;
  if (had == has) return;
  if (had && th->holds_lock) th->holds_lock = 0;
  static char seen[120];
  snprintf(seen, sizeof seen, " (seen: t%d's %s %s the lock bit)", t, what, has ? "set" : "cleared");
  ic_judge_state(seen);
  if (had)
    for (int u = 0; u < ic_n; u++) ic_th[u].holds_lock = 0;
}

#define IC_WCOUNT(w) ((int)(((w) & PNV_CORE_IDLE_WINKLE_COUNT_BITS) >> PNV_CORE_IDLE_WINKLE_COUNT_SHIFT))

/* Did the running thread store to the word since its last operation (plain
 * C: POWER8's updates under the lock)? Judged here, at its next point. */
static void ic_plain_check(int line) {
  const int t = ic_cur;
  struct ic_thread *th = &ic_th[t];
  if (*ic_lockw() != ic_shadow_lock) { /* a plain store to the separate lock */
    const unsigned long before = ic_shadow_lock;
    ic_shadow_lock = *ic_lockw();
    ic_lock_track(t, "plain store to idle_lock", before, ic_shadow_lock);
  }
  const unsigned long w = *ic_word(), before = ic_shadow;
  if (w == before) return;
  ic_shadow = w;
  ic_event('p', t, 0, line, (unsigned long)th->pend_line, before, w, 0);
  th->hist = ic_mix(th->hist, w);
  th->last_seen = w;
  const int cb = IC_WCOUNT(before), ca = IC_WCOUNT(w);
  if (ca != cb) {
    int d = ca - cb;
    if (d > 8) d -= 16;
    if (d < -8) d += 16;
    th->wcount += d; /* part of the state (the count itself is judged by the oracle) */
  }
  static struct icx_found f[4];
  ic_report(f, icx_store(ic_oracle, (unsigned)t, (uint32_t)before, (uint32_t)w, ic_holders(), f, 4), "");
  ic_lock_track(t, "plain store", before, w);
}

/* The bookkeeping of a scheduling point (ic_point in idle_env.h switches after it). */
static void ic_pending(int op, int line, const volatile void *addr, unsigned long arg) {
  struct ic_thread *th = &ic_th[ic_cur];
  ic_plain_check(line);
  th->st = ST_PENDING;
  th->pend_op = op, th->pend_line = line, th->pend_arg = arg;
  th->pend_addr = (const volatile unsigned long *)addr;
}

static void ic_did(int op, int line, unsigned long arg, unsigned long before, unsigned long after,
                   unsigned long ret) {
  const int t = ic_cur;
  struct ic_thread *th = &ic_th[t];
  const int on_lock = th->pend_addr == ic_lockw();
  ic_event('o', t, op, line, arg, before, after, ret);
  ic_ev[ic_nev - 1].on_lock = (char)on_lock;
  th->hist = ic_mix(ic_mix(th->hist, (uint64_t)op << 32 | (uint64_t)line << 1 | (uint64_t)on_lock),
                    after ^ (ret << 40));
  if (!on_lock) th->last_seen = after;
  const int readonly = before == after && (op == IC_OP_READ || op == IC_OP_TEST_BIT ||
                                           op == IC_OP_TAS_LOCK || op == IC_OP_CMPXCHG);
  th->ro_op = readonly ? op : 0, th->ro_line = line, th->ro_word = after, th->ro_addr = th->pend_addr;
  if (on_lock)
    ic_shadow_lock = after;
  else
    ic_shadow = after;
  if (op == IC_OP_TAS_LOCK && arg == NR_PNV_CORE_IDLE_LOCK_BIT && ret == 0) {
    th->holds_lock = 1;
    th->decided = *ic_word(), th->decided_set = 1; /* the word it decides on, with the lock */
  } else {
    ic_lock_track(t, ic_op_names[op], before, after);
  }
}

static unsigned long ic_mfspr(int spr) {
  if (spr <= 0 || spr >= IC_NR_SPRS) return 0;
  const unsigned long v = ic_spr[ic_home(ic_cur, spr)][spr];
  ic_th[ic_cur].hist = ic_mix(ic_th[ic_cur].hist, v);
  return v;
}

static void ic_mtspr(int spr, unsigned long v, int line) {
  if (spr <= 0 || spr >= IC_NR_SPRS) return;
  if (ic_scope[spr] == SC_CORE || ic_scope[spr] == SC_SUBCORE) {
    ic_point(IC_OP_MTSPR_CORE, line, NULL, (unsigned long)spr);
    const int h = ic_home(ic_cur, spr);
    ic_event('m', ic_cur, IC_OP_MTSPR_CORE, line, (unsigned long)spr, ic_spr[h][spr], v, 0);
    ic_set_spr(h, spr, v);
  } else {
    ic_set_spr(ic_cur, spr, v);
  }
}

__attribute__((unused)) static void ic_workaround(unsigned long what, unsigned long how, int line) {
  ic_point(IC_OP_WORKAROUND, line, NULL, how);
  ic_event('a', ic_cur, IC_OP_WORKAROUND, line, how, (unsigned long)ic_wa_applied, what, 0);
  if (what == OPAL_CONFIG_IDLE_FASTSLEEP) {
    ic_wa_applied = how == OPAL_CONFIG_IDLE_APPLY;
    ic_observe(ICX_STEP, ic_cur, ic_wa_applied ? ICX_EV_APPLY_WA : ICX_EV_UNDO_WA, 0, 0, 0, NULL, 0, 0);
  }
  ic_th[ic_cur].hist = ic_mix(ic_th[ic_cur].hist, how + 7);
}

static void ic_resync(int line) {
  const int t = ic_cur;
  struct ic_thread *th = &ic_th[t];
  ic_point(IC_OP_RESYNC, line, NULL, 0);
  const unsigned long seen = th->decided_set ? th->decided : th->last_seen;
  ic_event('y', t, IC_OP_RESYNC, line, seen, (unsigned long)ic_tb_valid, 1, 0);
  ic_tb_valid = 1;
  ic_observe(ICX_STEP, t, ICX_EV_RESYNC_TB, 0, 0, 0, NULL, 1, seen);
}

static unsigned long ic_idle(unsigned long psscr, int mayloss, int line) {
  struct ic_thread *th = &ic_th[ic_cur];
  th->idle_mayloss = mayloss;
  ic_point(IC_OP_IDLE, line, NULL, psscr);
  /* Resumed by a wake: the scheduler set srr1 and PSSCR. */
  th->hist = ic_mix(th->hist, th->srr1 ^ (ic_spr[ic_cur][SPRN_PSSCR] << 1));
  th->woke = 1;
  return th->srr1;
}

/* --- the threads -------------------------------------------------------------------- */
static unsigned long ic_psscr_of(int kind) {
#if IC_P8 /* the type: PNV_THREAD_NAP, _SLEEP, _WINKLE */
  return ic_kind_letters[kind] == 'n' ? PNV_THREAD_NAP : ic_kind_letters[kind] == 's' ? PNV_THREAD_SLEEP
                                                                                       : PNV_THREAD_WINKLE;
#endif
  switch (ic_kind_letters[kind]) {
    case 's': return 0x2UL | PSSCR_MTL_MASK;                       /* stop2, EC=ESL=0 */
    case 'l': return PSSCR_EC | PSSCR_ESL | 0x2UL | PSSCR_MTL_MASK; /* stop2, ESL=1 */
    case 'd': return PSSCR_EC | PSSCR_ESL | (unsigned long)IC_DEEP_LEVEL | PSSCR_MTL_MASK;
    default: return PSSCR_EC | PSSCR_ESL | (unsigned long)IC_TB_LEVEL | PSSCR_MTL_MASK;
  }
}

static int ic_deep_request(const struct ic_thread *th) {
  if (IC_P8) return th->idle_mayloss && th->psscr >= PNV_THREAD_SLEEP;
  return th->idle_mayloss && (th->psscr & (PSSCR_EC | PSSCR_ESL)) &&
         (th->psscr & PSSCR_RL_MASK) >= IC_DEEP_LEVEL;
}

static void ic_check_return(int t, unsigned long ret) {
  struct ic_thread *th = &ic_th[t];
  ic_plain_check(0);
  ic_event('r', t, 0, 0, 0, *ic_word(), *ic_word(), ret);
  /* The lock, the timebase, the registers and the winkle count: the oracle's. */
  ic_observe(ICX_STEP, t, ICX_EV_NONE, 0, 0, 1, NULL, 0, 0);
}

#if !IC_P8
/* power9_idle_stop(psscr) since v5.12; power9_idle_stop(psscr, mmu_on) from
 * v5.2 (the C idle code) to v5.11, where the idle loop passes mmu_on = true
 * (false is CPU offline, which the harness does not model). The signature
 * picks the call: each branch casts to its own type, the one that matches
 * is the only one evaluated. */
#define IC_POWER9_IDLE_STOP(psscr)                                                         \
  _Generic(&power9_idle_stop,                                                             \
      unsigned long (*)(unsigned long, bool):                                             \
          ((unsigned long (*)(unsigned long, bool))(void (*)(void))power9_idle_stop)(psscr, true), \
      default: ((unsigned long (*)(unsigned long))(void (*)(void))power9_idle_stop)(psscr))
#endif

static void ic_thread_main(void) {
  const int t = ic_cur;
  struct ic_thread *th = &ic_th[t];
#ifdef IC_ASAN
  __sanitizer_finish_switch_fiber(NULL, &ic_main_bottom, &ic_main_size);
#endif
  for (th->cycle = 0; th->cycle < ic_cycles; th->cycle++) {
    th->st = ST_BEGIN;
    th->pend_addr = NULL;
    IC_SWITCH();
    th->psscr = ic_psscr_of(th->kind);
    th->in_call = 1, th->woke = 0, th->decided_set = 0, th->hist = (uint64_t)th->kind + 1;
#if IC_P8
    th->idle_mayloss = 1;
    const unsigned long r = power7_idle_insn(th->psscr);
#else
    th->idle_mayloss = (th->psscr & (PSSCR_EC | PSSCR_ESL)) != 0;
    const unsigned long r = IC_POWER9_IDLE_STOP(th->psscr);
#endif
    th->in_call = 0, th->woke = 0, th->hist = 0;
    ic_check_return(t, r);
  }
  th->st = ST_DONE;
  ic_finish_thread();
  abort(); /* never resumed */
}

/* --- one schedule --------------------------------------------------------------------- */
static void ic_lasso_reset(void);
static void ic_note_enabled(const struct ic_move *en, int ne);
static int ic_after_move(const struct ic_move *m, int scan);
static void ic_reset(void) {
  memset(ic_pacas, 0, sizeof ic_pacas);
  const int tps = ic_n / ic_subcores;
  for (int t = 0; t < ic_n; t++) {
    paca_ptrs[t]->sprg_vdso = 0x5e5e0000UL + (unsigned long)t;
    paca_ptrs[t]->subcore_sibling_mask = (u8)(((1UL << tps) - 1) << (t - t % tps));
  }
  paca_ptrs[0]->idle_state = ic_shadow = ic_core_mask;
  ic_shadow_lock = 0;
  for (int t = 0; t < ic_n; t++)
    for (int s = 1; s < IC_NR_SPRS; s++)
      ic_spr[t][s] = ic_golden[t][s] =
          s == SPRN_SPRG3  ? paca_ptrs[t]->sprg_vdso
          : s == SPRN_AMOR ? IC_AMOR_RUNTIME
                           : (ic_home(t, s) != t ? 0 : 0x1000UL * (unsigned long)s + (unsigned long)t + 1);
  ic_tb_valid = 1;
  ic_wa_applied = 0;
  icx_reset(ic_oracle);
  memset(ic_bad, 0, sizeof ic_bad); /* every SPR holds its value */
  ic_regs_dirty = 1;
  ic_nmoves = ic_nev = ic_nfind = 0;
  ic_found_mask = 0;
  nwarns = 0;
  for (int t = 0; t < ic_n; t++) {
    struct ic_thread *th = &ic_th[t];
    char *stack = th->stack;
    memset(th, 0, sizeof *th);
    th->stack = stack;
#ifdef IC_ASAN
    ASAN_UNPOISON_MEMORY_REGION(stack, IC_STACK_SIZE);
#endif
#ifdef IC_FAST_SWITCH
    /* The first switch "returns" into ic_thread_main as if it had been
     * called: six zero registers for ic_ctx_switch to pop, its address, and
     * a return address it never uses (the stack aligned as at a call). */
    uint64_t *top = (uint64_t *)(((uintptr_t)stack + IC_STACK_SIZE) & ~(uintptr_t)15) - 2;
    top[1] = 0;
    top[0] = (uint64_t)(uintptr_t)ic_thread_main;
    for (int i = 1; i <= 6; i++) top[-i] = 0;
    ic_ctx[t].sp = top - 6;
#else
    ucontext_t *ctx = &ic_ctx[t].uc;
    getcontext(ctx);
    ctx->uc_stack.ss_sp = stack;
    ctx->uc_stack.ss_size = IC_STACK_SIZE;
    ctx->uc_link = NULL;
    makecontext(ctx, ic_thread_main, 0);
#endif
    th->st = ST_PENDING; /* runs to its first point (the BEGIN) on the first switch */
    ic_to_thread(t);
  }
  ic_nev = 0;
  ic_lasso_reset();
}

/* A thread spinning without effect: its pending operation would read what
 * it read last time at the same place, or fail to take a held lock. */
static int ic_blocked(const struct ic_thread *th) {
  if (th->st != ST_PENDING || !th->pend_addr) return 0;
  const unsigned long w = *th->pend_addr; /* the word or the lock */
  if (th->pend_op == IC_OP_TAS_LOCK && ((w >> th->pend_arg) & 1)) return 1;
  if ((th->pend_op == IC_OP_READ || th->pend_op == IC_OP_TEST_BIT) && th->ro_op == th->pend_op &&
      th->ro_line == th->pend_line && th->ro_addr == th->pend_addr && th->ro_word == w)
    return 1;
  return 0;
}

static int ic_loss_level(void) {
  int all_tb = 1, need = 0;
  for (int t = 0; t < ic_n; t++) {
    const struct ic_thread *th = &ic_th[t];
    if (th->st != ST_HWIDLE || !ic_deep_request(th)) return 0;
    if (IC_P8 ? th->psscr != PNV_THREAD_WINKLE : (th->psscr & PSSCR_RL_MASK) < IC_TB_LEVEL) all_tb = 0;
  }
  const int level = all_tb ? 2 : 1;
  for (int t = 0; t < ic_n; t++) need |= ic_th[t].lost < level;
  return need ? level : 0;
}

static int ic_enabled(struct ic_move *out) {
  int n = 0;
  for (int t = 0; t < ic_n; t++) {
    const struct ic_thread *th = &ic_th[t];
    if (th->st == ST_BEGIN) {
      for (int k = 0; k < ic_nkinds; k++) {
        out[n].kind = 'b', out[n].t = (unsigned char)t;
        out[n++].k = (unsigned char)(strchr(ic_kind_letters, ic_kinds[k]) - ic_kind_letters);
      }
    } else if (th->st == ST_PENDING && !ic_blocked(th)) {
      out[n].kind = 's', out[n].t = (unsigned char)t, out[n++].k = 0;
    } else if (th->st == ST_HWIDLE) {
      out[n].kind = 'w', out[n].t = (unsigned char)t, out[n++].k = 0;
    }
  }
  if (ic_loss_level()) out[n].kind = 'L', out[n].t = 0, out[n++].k = 0;
  return n;
}

/* After every move, reported to the oracle or not. */
static void ic_check_state(void) { ic_judge_state(""); }

static void ic_check_warns(int t) {
  /* Charged by the oracle to the clause whose invariant the assertion guards. */
  for (unsigned i = 0; i < nwarns; i++) ic_observe(ICX_STEP, t, ICX_EV_BUG, 0, 0, 0, warns[i], 0, 0);
  nwarns = 0;
}

/* Hangs: a thread that runs without reaching a scheduling point. An
 * interval timer checks that moves keep being made. */
static volatile unsigned long ic_progress, ic_progress_seen;
static void ic_on_alarm(int sig) {
  (void)sig;
  if (!in_call) return;
  if (ic_progress != ic_progress_seen) {
    ic_progress_seen = ic_progress;
    return;
  }
  in_call = 0;
  trap_sig = -1;
  siglongjmp(recover, 1);
}
static void ic_watchdog(int on) {
  struct itimerval it;
  memset(&it, 0, sizeof(it));
  it.it_value.tv_sec = it.it_interval.tv_sec = on ? WATCHDOG_SECONDS : 0;
  setitimer(ITIMER_REAL, &it, NULL);
}

/* Perform one move. */
static void ic_apply(const struct ic_move *m) {
  ic_progress++;
  if (ic_nmoves < IC_MAX_MOVES) ic_moves[ic_nmoves++] = *m;
  if (m->kind == 'L') {
    const int level = ic_loss_level();
    ic_event('L', -1, 0, 0, (unsigned long)level, (unsigned long)ic_wa_applied, 0, 0);
    for (int t = 0; t < ic_n; t++)
      if (ic_th[t].lost < level) ic_th[t].lost = level;
    /* POWER9: SPRs at every deep loss, the timebase at the deepest; POWER8:
     * the timebase at every loss (fastsleep), SPRs when every thread winkled. */
    if (!IC_P8 || level >= 2)
      for (int t = 0; t < ic_n; t++)
        for (int s = 1; s < IC_NR_SPRS; s++)
          if (ic_scope[s] != SC_NONE && ic_home(t, s) == t) ic_spr[t][s] = 0xdead0000UL + (unsigned long)s;
    if (!IC_P8 || level >= 2) { /* every SPR of every slot lost: no value is 0xdead.... */
      for (int t = 0; t < ic_n; t++)
        for (int sc = SC_THREAD; sc <= SC_CORE; sc++) ic_bad[sc][t] = ic_home_of_scope(t, sc) == t ? ic_nscope[sc] : 0;
      ic_regs_dirty = 1;
    }
    if (IC_P8 || level >= 2) ic_tb_valid = 0;
    ic_observe(ICX_CORE_LOSS, -1, ICX_EV_NONE, 0, level, 0, NULL, 0, 0); /* IDLE-4: the oracle's */
    return;
  }
  const int t = m->t;
  struct ic_thread *th = &ic_th[t];
  if (m->kind == 'b') {
    th->kind = m->k;
    ic_event('b', t, 0, 0, (unsigned long)m->k, th->cycle, 0, ic_psscr_of(m->k));
    ic_observe(ICX_BEGIN_IDLE, t, ICX_EV_NONE, ic_oracle_kind(m->k), 0, 0, NULL, 0, 0);
  } else if (m->kind == 'w') {
    unsigned long pls;
    if (IC_P8) {
      th->srr1 = (th->lost ? SRR1_WS_HVLOSS : SRR1_WS_NOLOSS) | SRR1_WAKEDEC;
      th->hist = ic_mix(th->hist, *ic_word()); /* its plain reads after the wake see this */
      th->last_seen = *ic_word();
      ic_event('w', t, 0, 0, th->srr1, (unsigned long)th->lost, 0, 0);
      th->lost = 0;
      ic_observe(ICX_WAKE, t, ICX_EV_WOKE, 0, 0, 0, NULL, 0, 0);
      ic_to_thread(t);
      ic_check_warns(t);
      return;
    }
    if (!th->idle_mayloss) {
      th->srr1 = 0, pls = 0; /* EC=ESL=0: a synchronous wake-up */
    } else if (th->lost) {
      th->srr1 = SRR1_WS_HVLOSS | SRR1_WAKEDEC;
      pls = th->lost >= 2 ? IC_TB_LEVEL : IC_DEEP_LEVEL;
    } else {
      const unsigned long rl = th->psscr & PSSCR_RL_MASK;
      th->srr1 = SRR1_WS_NOLOSS | SRR1_WAKEDEC;
      pls = rl < IC_DEEP_LEVEL ? rl : IC_DEEP_LEVEL - 1;
    }
    ic_set_spr(t, SPRN_PSSCR, (pls << PSSCR_PLS_SHIFT) | (th->psscr & ~PSSCR_PLS));
    th->last_seen = *ic_word(); /* what a plain read right after the wake-up sees */
    ic_event('w', t, 0, 0, th->srr1, (unsigned long)th->lost, pls, 0);
    th->lost = 0;
    ic_observe(ICX_WAKE, t, ICX_EV_WOKE, 0, 0, 0, NULL, 0, 0);
  } else if (th->pend_op == IC_OP_IDLE) {
    ic_event('i', t, IC_OP_IDLE, th->pend_line, th->pend_arg, *ic_word(), *ic_word(), 0);
    th->st = ST_HWIDLE;
    th->lost = 0;
    ic_observe(ICX_STEP, t, ICX_EV_ENTER_HW_IDLE, 0, 0, 0, NULL, 0, 0);
    return;
  }
  ic_to_thread(t);
  ic_check_warns(t);
}

/* --- timelines ------------------------------------------------------------------- */
/* The word; `held`: the separate lock is held (the lock bit of the v6.5+ layout). */
static void ic_word_text(char *b, size_t n, unsigned long w, int held) {
  int k = snprintf(b, n, "%#lx", w);
  if (k < 0 || (size_t)k >= n) return;
  k += snprintf(b + k, n - (size_t)k, " [%s", (w & PNV_CORE_IDLE_LOCK_BIT) || held ? "lock" : "free");
  for (int t = 0; t < ic_n && (size_t)k < n; t++)
    k += snprintf(b + k, n - (size_t)k, " %c%d", ((w >> t) & 1) ? '+' : '-', t);
  if (IC_P8 && (size_t)k < n)
    k += snprintf(b + k, n - (size_t)k, " winkle count %d bits %#lx", IC_WCOUNT(w),
                  (w & PNV_CORE_IDLE_THREAD_WINKLE_BITS) >> PNV_CORE_IDLE_THREAD_WINKLE_BITS_SHIFT);
  if ((size_t)k < n) snprintf(b + k, n - (size_t)k, "]");
}

static void ic_event_text(const struct ic_event *e, char *b, size_t n) {
  char w1[96], w2[96];
  switch (e->what) {
    case 'b':
      if (IC_P8 && ic_subcores > 1)
        snprintf(b, n, "t%d (subcore %d): cycle %lu: " IC_FN_NAME "(%#lx), %s", e->t, ic_subcore_of(e->t),
                 e->before + 1, e->ret, ic_kind_names[e->arg]);
      else
        snprintf(b, n, "t%d: cycle %lu: " IC_FN_NAME "(%#lx), %s", e->t, e->before + 1, e->ret,
                 ic_kind_names[e->arg]);
      break;
    case 'i':
      snprintf(b, n, "t%d: %s instruction (line %d): in hardware idle", e->t, IC_P8 ? "idle" : "stop", e->line);
      break;
    case 'a':
      snprintf(b, n, "t%d: opal_config_cpu_idle_state (line %d): fastsleep workaround %s", e->t, e->line,
               e->arg == OPAL_CONFIG_IDLE_APPLY ? "applied" : "undone");
      break;
    case 'p':
      ic_word_text(w1, sizeof w1, e->before, e->held);
      ic_word_text(w2, sizeof w2, e->after, e->held);
      snprintf(b, n, "t%d: plain store to the word (after line %lu): %s -> %s", e->t, e->arg, w1, w2);
      break;
    case 'w':
      if (IC_P8) {
        snprintf(b, n, "t%d: woken, %s", e->t,
                 (e->arg & SRR1_WAKESTATE) == SRR1_WS_NOLOSS ? "SRR1 no loss"
                 : e->before >= 2 ? "SRR1 state loss (full winkle: timebase and SPRs lost)"
                                  : "SRR1 state loss (fastsleep: timebase lost)");
        break;
      }
      snprintf(b, n, "t%d: woken, %s, PSSCR[PLS]=%lu", e->t,
               e->arg == 0 ? "synchronously (SRR1 0)"
               : (e->arg & SRR1_WAKESTATE) == SRR1_WS_NOLOSS ? "SRR1 no loss"
                                                             : "SRR1 state loss",
               e->after);
      break;
    case 'L':
      if (IC_P8)
        snprintf(b, n, "hw: every thread in sleep/winkle: %s (fastsleep workaround %s)",
                 e->arg >= 2 ? "every thread winkled, the core loses the timebase and its SPRs"
                             : "the core enters fastsleep and loses the timebase",
                 e->before ? "applied" : "not applied");
      else
        snprintf(b, n, "hw: every thread stopped deep: the core loses SPRs%s",
                 e->arg >= 2 ? " and the timebase" : "");
      break;
    case 'r':
      ic_word_text(w1, sizeof w1, e->before, e->held);
      snprintf(b, n, "t%d: " IC_FN_NAME " returns %#lx: running (word %s)", e->t, e->ret, w1);
      break;
    case 'm': {
      const int spr = e->arg < IC_NR_SPRS ? (int)e->arg : 0;
      char scope[32] = "per-core";
      if (ic_scope[spr] == SC_SUBCORE) snprintf(scope, sizeof scope, "per-subcore (subcore %d)", ic_subcore_of(e->t));
      snprintf(b, n, "t%d: mtspr(%s) (line %d): %s register %s", e->t, ic_spr_names[spr], e->line, scope,
               e->after == e->before ? "written" : "restored");
      break;
    }
    case 'y':
      ic_word_text(w1, sizeof w1, e->arg, e->held);
      snprintf(b, n, "t%d: opal_resync_timebase() (line %d), having found word %s", e->t, e->line, w1);
      break;
    case 'x':
      snprintf(b, n, "t%d: spins forever at %s (line %d)", e->t, ic_op_names[e->op], e->line);
      break;
    default:
      if (e->on_lock) { /* the separate lock: only its bit matters */
        snprintf(b, n, "t%d: %s(%lu) on idle_lock (line %d)%s: %s -> %s", e->t, ic_op_names[e->op],
                 e->op == IC_OP_READ ? 0UL : e->arg, e->line,
                 e->op == IC_OP_TAS_LOCK || e->op == IC_OP_TEST_BIT ? (e->ret ? " = 1" : " = 0") : "",
                 e->before & PNV_CORE_IDLE_LOCK_BIT ? "lock" : "free",
                 e->after & PNV_CORE_IDLE_LOCK_BIT ? "lock" : "free");
        break;
      }
      ic_word_text(w1, sizeof w1, e->before, e->held);
      ic_word_text(w2, sizeof w2, e->after, e->held);
      if (e->op == IC_OP_CMPXCHG)
        snprintf(b, n, "t%d: cmpxchg(expect %#lx) (line %d) = %#lx %s: %s -> %s", e->t, e->arg, e->line,
                 e->ret, e->ret == e->arg ? "ok" : "failed", w1, w2);
      else if (e->op == IC_OP_READ)
        snprintf(b, n, "t%d: READ_ONCE (line %d) = %s", e->t, e->line, w1);
      else
        snprintf(b, n, "t%d: %s(%lu) (line %d)%s: %s -> %s", e->t, ic_op_names[e->op], e->arg, e->line,
                 e->op == IC_OP_TAS_LOCK || e->op == IC_OP_TEST_BIT ? (e->ret ? " = 1" : " = 0") : "",
                 w1, w2);
  }
}

static void ic_moves_text(const struct ic_move *mv, int n, char *b, size_t cap) {
  size_t k = 0;
  b[0] = 0;
  for (int i = 0; i < n && k + 8 < cap; i++) {
    int w;
    if (mv[i].kind == 'b')
      w = snprintf(b + k, cap - k, "%sb%d%c", i ? "," : "", mv[i].t, ic_kind_letters[mv[i].k]);
    else if (mv[i].kind == 'w')
      w = snprintf(b + k, cap - k, "%sw%d", i ? "," : "", mv[i].t);
    else if (mv[i].kind == 'L')
      w = snprintf(b + k, cap - k, "%sL", i ? "," : "");
    else
      w = snprintf(b + k, cap - k, "%s%d", i ? "," : "", mv[i].t);
    if (w < 0) break;
    k += (size_t)w;
  }
}

static int ic_parse_moves(const char *s, struct ic_move *mv) {
  int n = 0;
  if (!strcmp(s, "-")) return 0;
  while (*s && n < IC_MAX_MOVES) {
    struct ic_move m = {0, 0, 0};
    if (*s == 'b') {
      m.kind = 'b', m.t = (unsigned char)(s[1] - '0');
      const char *p = s[1] && s[2] ? strchr(ic_kind_letters, s[2]) : NULL;
      if (!p || m.t >= IC_MAX_THREADS) bad_input("bad begin move");
      m.k = (unsigned char)(p - ic_kind_letters);
      s += 3;
    } else if (*s == 'w') {
      m.kind = 'w', m.t = (unsigned char)(s[1] - '0');
      s += 2;
    } else if (*s == 'L') {
      m.kind = 'L';
      s += 1;
    } else if (*s >= '0' && *s <= '9') {
      m.kind = 's', m.t = (unsigned char)(*s - '0');
      s += 1;
    } else {
      bad_input("bad move");
    }
    if (m.t >= IC_MAX_THREADS) bad_input("bad thread in a move");
    mv[n++] = m;
    if (*s == ',') s++;
  }
  return n;
}

static int ic_same_move(const struct ic_move *a, const struct ic_move *b) {
  return a->kind == b->kind && a->t == b->t && (a->kind != 'b' || a->k == b->k);
}

/* Runs a fixed schedule; moves that are not enabled are skipped. Returns the
 * clauses found. With `finish_deadlock`, a schedule that ends with no move
 * enabled is judged for deadlock. */
static void ic_judge_leaf(void);
static unsigned ic_replay(const struct ic_move *mv, int n) {
  struct ic_move en[IC_MAX_ENABLED];
  ic_reset();
  for (int i = 0; i < n && ic_nmoves < IC_MAX_MOVES; i++) {
    const int ne = ic_enabled(en);
    int ok = 0;
    for (int j = 0; j < ne && !ok; j++) ok = ic_same_move(&en[j], &mv[i]);
    if (!ok) continue;
    ic_note_enabled(en, ne);
    ic_apply(&mv[i]);
    ic_check_state();
    if (ic_after_move(&mv[i], 1) == 2) return ic_found_mask; /* a fair cycle: the run goes on forever */
  }
  if (ic_enabled(en) == 0) ic_judge_leaf();
  return ic_found_mask;
}

static void ic_judge_leaf(void) {
  int stuck = 0;
  for (int t = 0; t < ic_n; t++) stuck += ic_th[t].st != ST_DONE;
  if (!stuck) return;
  static char seen[400];
  int k = 0;
  seen[0] = 0;
  for (int t = 0; t < ic_n && k < (int)sizeof seen - 80; t++) {
    const struct ic_thread *th = &ic_th[t];
    if (th->st != ST_DONE)
      k += snprintf(seen + k, sizeof seen - (size_t)k, "%s t%d spins at %s (line %d)", k ? ";" : "; seen:", t,
                    ic_op_names[th->pend_op], th->pend_line);
  }
  if (k < (int)sizeof seen - 30) snprintf(seen + k, sizeof seen - (size_t)k, ", word %#lx", *ic_word());
  for (int t = 0; t < ic_n; t++)
    if (ic_th[t].st != ST_DONE) ic_event('x', t, ic_th[t].pend_op, ic_th[t].pend_line, 0, 0, 0, 0);
  static struct icx_found f[IC_MAX_THREADS + 1];
  ic_report(f, icx_stuck(ic_oracle, f, IC_MAX_THREADS + 1), seen);
}

/* --- livelock: a fair cycle on the schedule (IDLE-8) ------------------------------------
 *
 * The criterion. The state of the core after a move is: every thread's
 * harness status (begun, pending at which operation on which word, in
 * hardware idle, done; its cycle, kind and PSSCR request, what it lost, its
 * wake-up's SRR1, whether it holds the lock, what it last read), its CPU
 * registers and its whole stack from its saved stack pointer up (the code's
 * locals and spilled values: a thread switches to the scheduler from the
 * frame of the code under test, idle_env.h), and the shared state: the
 * word, the lock, every paca, every SPR, the timebase and the fastsleep
 * workaround. Not the history of how it got there. The code under test is
 * deterministic given that state, so if one schedule reaches the same state
 * after move i and after move d, the moves i+1..d can repeat forever: an
 * infinite run. It is a livelock when that run is fair (strong fairness per
 * hardware thread, the hardware's wake-up of a thread counted as that
 * thread's move): every thread that can move in some state of the cycle
 * moves in the cycle. No thread returns in the cycle (a return advances
 * its cycle count, which is part of the state), so a thread inside the
 * function in the cycle never returns: IDLE-8 fails. The core's state loss
 * is the hardware's option and owes nothing to fairness. A repeat that is
 * not fair (a thread could move and never does) is no finding: the DFS
 * prunes it (every continuation from that state is explored from its first
 * visit), PCT gives the threads that moved in it the lowest priority, as
 * the other threads of a real core would get to run.
 *
 * Assumptions: the code's file-scope variables do not change while a
 * thread spins (they are not in the state; upstream's are set at boot);
 * 64-bit fingerprints do not collide within one schedule (at most 1024
 * states); x86-64, where the switch leaves a thread's registers on its own
 * stack (ic_ctx_switch; elsewhere no fingerprint is taken and IDLE-8 is judged on deadlocks
 * only). Under those the criterion is sound: a reported cycle is an infinite
 * fair run of the code. It is bounded: a cycle is seen only on a schedule
 * the exploration runs, and a leftover byte on a stack can hide a repeat
 * (never make one up).
 */
/* Where a stopped thread resumes: the return address ic_ctx_switch left
 * above the six callee-saved registers it pushed (x86-64). */
#ifdef IC_FAST_SWITCH
#define IC_RESUME_AT(t) (((const uint64_t *)ic_ctx[t].sp)[6])
#endif

/* The thread's own state where it stopped: 0 if it cannot be taken. */
#ifdef IC_ASAN
__attribute__((no_sanitize_address)) /* the stack's redzones are read too */
#endif
static uint64_t ic_local_fp(int t) {
  const struct ic_thread *th = &ic_th[t];
  if (th->st == ST_DONE) return 1;
#ifdef IC_FAST_SWITCH
  /* The saved stack pointer: below it nothing is live; from it up, the
   * callee-saved registers the switch pushed, where it resumes, and the
   * frames of the code under test and of ic_thread_main. The caller-saved
   * registers are dead across the call to the switch. */
  uint64_t a = 0x243f6a8885a308d3ull, b = 0x13198a2e03707344ull;
  const uintptr_t sp = (uintptr_t)ic_ctx[t].sp, lo = (uintptr_t)th->stack, hi = lo + IC_STACK_SIZE;
  if (sp < lo || sp >= hi) return 0;
  for (const volatile uint64_t *p = (const volatile uint64_t *)(sp & ~(uintptr_t)7); (uintptr_t)p < hi; p++) {
    const uint64_t v = *p;
    a = (a ^ v) * 0x9e3779b97f4a7c15ull, a ^= a >> 29;
    b = (b + v) * 0xc2b2ae3d27d4eb4full, b ^= b >> 31;
  }
  return ic_mix(a, b) | 1;
#else
  (void)t;
  return 0;
#endif
}

/* The whole state (see above): 0 if some thread's could not be taken. */
static uint64_t ic_global_fp(void) {
  uint64_t h = ic_mix(0x452821e638d01377ull, (uint64_t)ic_tb_valid << 1 | (uint64_t)ic_wa_applied);
  h = ic_mix(ic_mix(h, ic_shadow), ic_shadow_lock);
  const unsigned char *pb = (const unsigned char *)ic_pacas;
  for (size_t i = 0; i + 8 <= sizeof(struct paca_struct) * (size_t)ic_n; i += 8) {
    uint64_t v;
    memcpy(&v, pb + i, 8);
    h = ic_mix(h, v);
  }
  for (int t = 0; t < ic_n; t++) {
    struct ic_thread *th = &ic_th[t];
    if (!th->fp_valid) th->fp = ic_local_fp(t), th->fp_valid = 1;
    if (!th->fp) return 0;
    for (int s = 1; s < IC_NR_SPRS; s++) h = ic_mix(h, ic_spr[t][s]);
    h = ic_mix(h, th->fp);
    h = ic_mix(h, (uint64_t)th->st | (uint64_t)th->cycle << 4 | (uint64_t)th->kind << 12 |
                      (uint64_t)th->lost << 16 | (uint64_t)th->pend_op << 20 | (uint64_t)th->holds_lock << 28 |
                      (uint64_t)th->in_call << 29 | (uint64_t)th->woke << 30 |
                      (uint64_t)th->idle_mayloss << 31 | (uint64_t)th->pend_line << 32);
    h = ic_mix(ic_mix(ic_mix(h, th->pend_arg), (uint64_t)(uintptr_t)th->pend_addr), th->psscr);
    h = ic_mix(ic_mix(h, th->srr1), (uint64_t)th->ro_op << 32 | (uint32_t)th->ro_line);
    h = ic_mix(ic_mix(h, th->ro_word), (uint64_t)(uintptr_t)th->ro_addr);
    h = ic_mix(h, (uint64_t)(th->wcount + 16) | (uint64_t)th->decided_set << 8);
    h = ic_mix(ic_mix(h, th->decided), th->last_seen);
  }
  return h | 1;
}

/* A part of the state that is cheap to take: equal states have equal
 * signatures, so the whole state is taken only where a signature repeats. */
static uint64_t ic_signature(void) {
  const uint64_t k = 0x9e3779b97f4a7c15ull;
  uint64_t h = (*ic_word() * k + *ic_lockw()) * k + (uint64_t)ic_tb_valid;
  for (int t = 0; t < ic_n; t++) {
    const struct ic_thread *th = &ic_th[t];
    h = h * k + ((uint64_t)th->st | (uint64_t)th->cycle << 4 | (uint64_t)th->pend_op << 12 |
                 (uint64_t)th->woke << 20 | (uint64_t)th->pend_line << 32);
    h = h * k + th->ro_word;
#ifdef IC_FAST_SWITCH
    if (th->st != ST_DONE) h = h * k + IC_RESUME_AT(t);
#endif
  }
  return h ^ (h >> 29);
}

/* The schedule's states: after move d (0: after the reset). */
static uint64_t ic_lsig[IC_MAX_MOVES + 1];
static uint64_t ic_lfp[IC_MAX_MOVES + 1]; /* 0: not taken */
static int ic_lprog[IC_MAX_MOVES + 1];           /* returns and finished threads so far */
static int ic_lev[IC_MAX_MOVES + 1];             /* events so far */
static unsigned char ic_lcan[IC_MAX_MOVES + 1];  /* threads with a move in that state */
static unsigned char ic_lmover[IC_MAX_MOVES + 1]; /* the thread of move d+1 (0: the core's loss) */
static unsigned short ic_lactor[IC_MAX_MOVES + 1]; /* its PCT actor (the hardware: ic_n) */
static int ic_lasso_from = -1, ic_lasso_to;      /* the fair cycle found: after these moves */
static unsigned ic_lasso_actors;                 /* the actors of the last repeat */

static int ic_progress_count(void) {
  int p = 0;
  for (int t = 0; t < ic_n; t++) p += 2 * ic_th[t].cycle + (ic_th[t].st == ST_DONE);
  return p;
}

static void ic_lasso_reset(void) {
  ic_lsig[0] = ic_signature();
  ic_lfp[0] = 0;
  ic_lprog[0] = ic_progress_count();
  ic_lev[0] = 0;
  ic_lasso_from = -1;
}

/* Before a move: who can move now. */
static void ic_note_enabled(const struct ic_move *en, int ne) {
  unsigned m = 0;
  for (int j = 0; j < ne; j++)
    if (en[j].kind != 'L') m |= 1u << en[j].t;
  if (ic_nmoves <= IC_MAX_MOVES) ic_lcan[ic_nmoves] = (unsigned char)m;
}

/* After a move: 0, or 1 the state repeats an earlier one of this schedule
 * in a cycle that is not fair, or 2 a fair cycle (an IDLE-8 finding).
 * Without `scan` nothing is recorded: a DFS replaying the prefix of its
 * last schedule reaches the same states, whose records (signature, whole
 * state where taken) are still those of the last schedule. */
static int ic_after_move(const struct ic_move *m, int scan) {
  const int d = ic_nmoves;
  if (d <= 0 || d > IC_MAX_MOVES) return 0;
  ic_lmover[d - 1] = m->kind == 'L' ? 0 : (unsigned char)(1u << m->t);
  ic_lactor[d - 1] = (unsigned short)(1u << (m->kind == 'L' || m->kind == 'w' ? ic_n : m->t));
  if (!scan) return 0;
  ic_lev[d] = ic_nev;
  const uint64_t sig = ic_signature();
  const int prog = ic_progress_count();
  ic_lsig[d] = sig, ic_lfp[d] = 0, ic_lprog[d] = prog;
  uint64_t fp = 0;
  for (int i = d - 1; i >= 0 && ic_lprog[i] == prog; i--) {
    if (ic_lsig[i] != sig) continue;
    /* The signature repeats: the whole state is taken here (and compared
     * with an earlier one taken the same way: a cycle shows at its third
     * visit, the second one's whole state being the first taken). */
    if (!fp) fp = ic_lfp[d] = ic_global_fp();
    if (!fp) return 0;
    if (ic_lfp[i] != fp) continue;
    unsigned can = 0, did = 0, inside = 0;
    ic_lasso_actors = 0;
    for (int j = i; j < d; j++) can |= ic_lcan[j], did |= ic_lmover[j], ic_lasso_actors |= ic_lactor[j];
    for (int t = 0; t < ic_n; t++) inside |= (unsigned)(ic_th[t].in_call != 0) << t;
    if (!icx_breaks_idle8(can, did, inside)) return 1; /* the oracle's judgement of the cycle */
    char who[320];
    int k = 0;
    who[0] = 0;
    for (int t = 0; t < ic_n && k < (int)sizeof who - 60; t++) {
      const struct ic_thread *th = &ic_th[t];
      if (!th->in_call) continue;
      k += snprintf(who + k, sizeof who - (size_t)k, "%st%d %s at %s (line %d)", k ? "; " : "", t,
                    th->woke ? "woke and never returns:" : "never reaches its idle instruction:",
                    th->st == ST_HWIDLE ? "the idle instruction" : ic_op_names[th->pend_op], th->pend_line);
    }
    ic_finding(C(8), "livelock: the state after move %d recurs after move %d and every thread that could move "
                     "moved, so the cycle repeats forever: %s",
               i, d, who);
    ic_lasso_from = i, ic_lasso_to = d;
    return 2;
  }
  return 0;
}

/* One table cell: an event in a few words. */
static void ic_cell(const struct ic_event *e, char *b, size_t n) {
  const char *on = e->on_lock ? "idle_lock" : "word";
  switch (e->what) {
    case 'o':
      if (e->op == IC_OP_CMPXCHG)
        snprintf(b, n, "cmpxchg(%#lx) l%d = %#lx: %s", e->arg, e->line, e->ret, e->ret == e->arg ? "ok" : "fails");
      else if (e->op == IC_OP_READ)
        snprintf(b, n, "READ_ONCE(%s) l%d = %#lx", on, e->line, e->before);
      else if (e->op == IC_OP_TAS_LOCK || e->op == IC_OP_TEST_BIT)
        snprintf(b, n, "%s(%lu, %s) l%d = %lu", e->op == IC_OP_TAS_LOCK ? "test_and_set_bit_lock" : "test_bit",
                 e->arg, on, e->line, e->ret);
      else
        snprintf(b, n, "%s(%lu, %s) l%d: %#lx -> %#lx", ic_op_names[e->op], e->arg, on, e->line, e->before,
                 e->after);
      return;
    case 'b': snprintf(b, n, "begins cycle %lu: %s", e->before + 1, ic_kind_names[e->arg]); return;
    case 'i': snprintf(b, n, "%s l%d: in hardware idle", IC_P8 ? "idle instruction" : "stop", e->line); return;
    case 'w':
      snprintf(b, n, "woken: %s", (e->arg & SRR1_WAKESTATE) == SRR1_WS_NOLOSS ? "no loss"
                                  : e->arg == 0                               ? "synchronously"
                                                                              : "state loss");
      return;
    case 'r': snprintf(b, n, "returns %#lx: running (word %#lx)", e->ret, e->before); return;
    case 'm': snprintf(b, n, "mtspr(%s) l%d", ic_spr_names[e->arg < IC_NR_SPRS ? e->arg : 0], e->line); return;
    case 'y': snprintf(b, n, "opal_resync_timebase() l%d", e->line); return;
    case 'p': snprintf(b, n, "plain store: word %#lx -> %#lx", e->before, e->after); return;
    default: break;
  }
  char full[400];
  ic_event_text(e, full, sizeof full);
  const char *p = full;
  if (e->t >= 0 && full[0] == 't' && strchr(full, ':')) p = strchr(full, ':') + 2;
  snprintf(b, n, "%s", p);
}

/* The schedule of a fair cycle as a thread timeline: one column per
 * hardware thread, one row per atomic step; the cycle between two rules. */
static void ic_emit_table(long long id, int c) {
  enum { W = 46 };
  char line[1024], cell[W + 1];
  int k = snprintf(line, sizeof line, "step |");
  for (int t = 0; t < ic_n; t++) {
    snprintf(cell, sizeof cell, "t%d", t);
    k += snprintf(line + k, sizeof line - (size_t)k, " %-*s|", W, cell);
  }
  emit("TL %lld IDLE-%d %s", id, c, line);
  const int from = ic_lev[ic_lasso_from], to = ic_lev[ic_lasso_to];
  int start = to - 150 > 0 ? to - 150 : 0;
  if (start > from) start = from;
  if (start > 0) emit("TL %lld IDLE-%d  ... (%d earlier steps)", id, c, start);
  for (int i = start; i < to && i < ic_nev; i++) {
    if (i == from)
      emit("TL %lld IDLE-%d ----- the cycle: from here the steps repeat forever (the state after move %d "
           "recurs after move %d) -----", id, c, ic_lasso_from, ic_lasso_to);
    const struct ic_event *e = &ic_ev[i];
    char text[400];
    ic_cell(e, text, sizeof text);
    if (e->t < 0) {
      emit("TL %lld IDLE-%d %4d | core: %s", id, c, i + 1, text);
      continue;
    }
    k = snprintf(line, sizeof line, "%4d |", i + 1);
    for (int t = 0; t < ic_n && k < (int)sizeof line - W - 4; t++) {
      snprintf(cell, sizeof cell, "%s", t == e->t ? text : "");
      k += snprintf(line + k, sizeof line - (size_t)k, " %-*s|", W, cell);
    }
    emit("TL %lld IDLE-%d %s", id, c, line);
  }
  emit("TL %lld IDLE-%d ----- back to the state after move %d -----", id, c, ic_lasso_from);
}

/* --- the job's findings: one per clause, the shortest schedule, shrunk ------------------ */
static struct {
  int count;
  int n; /* moves */
  struct ic_move mv[IC_MAX_MOVES];
  char text[480];
} ic_best[IC_NCLAUSES];

static void ic_record_findings(void) {
  for (int i = 0; i < ic_nfind; i++)
    for (int c = 1; c < IC_NCLAUSES; c++) {
      if (!(ic_find[i].clauses & C(c))) continue;
      ic_best[c].count++;
      const int n = ic_find[i].move;
      if (ic_best[c].count == 1 || n < ic_best[c].n) {
        ic_best[c].n = n;
        memcpy(ic_best[c].mv, ic_moves, sizeof(struct ic_move) * (size_t)n);
        snprintf(ic_best[c].text, sizeof ic_best[c].text, "%s", ic_find[i].text);
      }
    }
}

static void ic_shrink_and_emit(long long id) {
  static struct ic_move cand[IC_MAX_MOVES];
  static char buf[IC_MAX_MOVES * 5];
  for (int c = 1; c < IC_NCLAUSES; c++) {
    if (!ic_best[c].count) continue;
    int n = ic_best[c].n;
    struct ic_move *mv = ic_best[c].mv;
    for (int progress = 1; progress;) { /* drop one move at a time while the clause still fails */
      progress = 0;
      for (int i = n - 1; i >= 0; i--) {
        memcpy(cand, mv, sizeof(struct ic_move) * (size_t)i);
        memcpy(cand + i, mv + i + 1, sizeof(struct ic_move) * (size_t)(n - i - 1));
        if (ic_replay(cand, n - 1) & C(c)) {
          memcpy(mv, cand, sizeof(struct ic_move) * (size_t)(n - 1));
          n--, progress = 1;
        }
      }
    }
    ic_replay(mv, n);
    /* The moves actually taken, up to the finding. */
    int upto = ic_nmoves;
    const char *text = ic_best[c].text;
    for (int i = 0; i < ic_nfind; i++)
      if (ic_find[i].clauses & C(c)) upto = ic_find[i].move, text = ic_find[i].text;
    ic_moves_text(ic_moves, upto, buf, sizeof buf);
    emit("FINDING %lld IDLE-%d count=%d moves=%d schedule=%s :: %s", id, c, ic_best[c].count, upto,
         buf[0] ? buf : "-", text);
    char line[400];
    if (c == 8 && ic_lasso_from >= 0) {
      ic_emit_table(id, c);
    } else {
      for (int i = 0; i < ic_nev && i < 200; i++) {
        ic_event_text(&ic_ev[i], line, sizeof line);
        emit("TL %lld IDLE-%d %s", id, c, line);
      }
    }
    ic_best[c].n = 0;
  }
}

/* --- exploration -------------------------------------------------------------------------- */
static uint64_t *ic_seen_key;
static unsigned char *ic_seen_pre; /* preemptions used to reach it (bounded mode) */
static unsigned long ic_states;

static uint64_t ic_state_hash(int last) {
  uint64_t h = ic_mix(ic_mix(*ic_word(), *ic_lockw()), (uint64_t)ic_tb_valid);
  for (int s = 1; s < IC_NR_SPRS; s++)
    if (ic_scope[s] == SC_CORE) h = ic_mix(h, ic_spr[0][s]);
  if (IC_P8) {
    h = ic_mix(h, (uint64_t)ic_wa_applied);
    for (int t = 0; t < ic_n; t++)
      for (int s = 1; s < IC_NR_SPRS; s++)
        if (ic_scope[s] == SC_SUBCORE && ic_home(t, s) == t) h = ic_mix(h, ic_spr[t][s]);
  }
  for (int t = 0; t < ic_n; t++) {
    const struct ic_thread *th = &ic_th[t];
    h = ic_mix(h, (uint64_t)th->st | (uint64_t)th->cycle << 4 | (uint64_t)th->kind << 12 |
                      (uint64_t)th->lost << 16 | (uint64_t)th->pend_op << 20 | (uint64_t)th->holds_lock << 28 |
                      (uint64_t)th->in_call << 29 | (uint64_t)th->woke << 30 |
                      (uint64_t)th->pend_line << 32);
    h = ic_mix(h, th->hist);
    h = ic_mix(h, th->decided_set ? th->decided : 0xffff);
    h = ic_mix(h, (uint64_t)th->ro_op << 32 | (uint64_t)th->ro_line);
    for (int s = 1; s < IC_NR_SPRS; s++)
      if (ic_scope[s] == SC_THREAD) h = ic_mix(h, ic_spr[t][s]);
    if (IC_P8) h = ic_mix(h, (uint64_t)(th->wcount + 16));
  }
  h = ic_mix(h, (uint64_t)(last + 1));
  return h ? h : 1;
}

/* Returns 1 if the state is new (or reached with fewer preemptions). */
static int ic_visit(uint64_t key, int pre) {
  const size_t mask = ((size_t)1 << IC_HASH_BITS) - 1;
  for (size_t i = (size_t)key & mask;; i = (i + 1) & mask) {
    if (ic_seen_key[i] == 0) {
      if (ic_states >= mask - (mask >> 3)) return 1; /* full: no more pruning */
      ic_seen_key[i] = key, ic_seen_pre[i] = (unsigned char)pre;
      ic_states++;
      return 1;
    }
    if (ic_seen_key[i] == key) {
      if (pre < ic_seen_pre[i]) {
        ic_seen_pre[i] = (unsigned char)pre;
        return 1;
      }
      return 0;
    }
  }
}

static int ic_stepper(const struct ic_move *m) { return m->kind == 'b' || m->kind == 's'; }

/* Is choosing m a preemption of `last` (the thread that moved last)? */
static int ic_preempts(const struct ic_move *m, const struct ic_move *en, int ne, int last) {
  if (!ic_stepper(m) || last < 0 || m->t == last) return 0;
  for (int j = 0; j < ne; j++)
    if (ic_stepper(&en[j]) && en[j].t == last) return 1;
  return 0;
}

struct ic_stats {
  unsigned long schedules, transitions, bound_hits, max_depth, failing;
  int complete, failcap;
};
/* A DFS job stops after this many failing schedules: a broken variant's
 * state space may not end (a winkle count that only grows), and the
 * counterexamples it has are enough. */
#define IC_FAIL_CAP 20000

/* Stateless DFS with replay from the start, pruned by visited states (and,
 * bounded, by the number of preemptions: choosing another thread's step
 * while the thread that stepped last could step too; wakes and the core's
 * loss are the hardware's and free). */
static void ic_dfs(int bound, unsigned long max_schedules, struct ic_stats *st) {
  static int choice[IC_MAX_MOVES], nchoice[IC_MAX_MOVES];
  struct ic_move en[IC_MAX_ENABLED];
  int depth_fixed = 0; /* choices [0, depth_fixed) are replayed */
  st->complete = 0;
  for (;;) {
    if (st->schedules >= max_schedules) return;
    ic_reset();
    int last = -1, pre = 0, d = 0, counted = 1;
    const int start = depth_fixed > 0 ? depth_fixed - 1 : 0; /* the first new transition */
    for (;; d++) {
      const int ne = ic_enabled(en);
      if (ne == 0) {
        ic_judge_leaf();
        break;
      }
      if (d >= IC_MAX_MOVES - 1) {
        st->bound_hits++;
        break;
      }
      int c;
      if (d < depth_fixed) {
        c = choice[d];
        if (bound >= 0 && pre + ic_preempts(&en[c], en, ne, last) > bound) { /* over the bound */
          d++, counted = 0;
          break;
        }
      } else {
        for (c = 0; c < ne; c++) /* the first choice within the bound */
          if (bound < 0 || pre + ic_preempts(&en[c], en, ne, last) <= bound) break;
        if (c == ne) break;
        choice[d] = c, nchoice[d] = ne;
      }
      pre += ic_preempts(&en[c], en, ne, last);
      if (ic_stepper(&en[c])) last = en[c].t;
      ic_note_enabled(en, ne);
      ic_apply(&en[c]);
      ic_check_state();
      /* A state this schedule had before: a fair cycle is a finding and ends
       * it; any other repeat is pruned (its continuations start at the first visit). */
      if (ic_after_move(&en[c], d >= start)) {
        st->transitions++;
        d++;
        break;
      }
      if (d >= start) {
        st->transitions++;
        if (!ic_visit(ic_state_hash(bound >= 0 ? last : -1), pre)) {
          d++;
          break;
        }
      }
    }
    if (counted) {
      st->schedules++;
      if ((unsigned long)d > st->max_depth) st->max_depth = (unsigned long)d;
      ic_record_findings();
      if (ic_nfind > 0 && ++st->failing >= IC_FAIL_CAP) {
        st->failcap = 1;
        return;
      }
    }
    int k = d - 1; /* the deepest choice with an untried alternative */
    while (k >= 0 && choice[k] + 1 >= nchoice[k]) k--;
    if (k < 0) {
      st->complete = 1;
      return;
    }
    choice[k]++;
    depth_fixed = k + 1;
  }
}

/* PCT: random thread priorities, depth-1 priority change points. */
static uint64_t ic_rng;
static uint64_t ic_rand(void) {
  ic_rng ^= ic_rng << 13, ic_rng ^= ic_rng >> 7, ic_rng ^= ic_rng << 17;
  return ic_rng;
}

/* Whose move: a thread's steps and begins are its own; wakes and the loss the hardware's. */
#define IC_ACTOR(m) ((m).kind == 'L' || (m).kind == 'w' ? ic_n : (m).t)

static void ic_pct(uint64_t seed, unsigned long runs, int depth, struct ic_stats *st) {
  struct ic_move en[IC_MAX_ENABLED];
  ic_rng = seed * 0x9e3779b97f4a7c15ull + 1;
  const int est = 14 * ic_cycles * ic_n + 8; /* expected moves per schedule */
  for (unsigned long r = 0; r < runs; r++) {
    int prio[IC_MAX_THREADS + 1], change[8];
    const int actors = ic_n + 1; /* the threads and the hardware */
    for (int a = 0; a < actors; a++) prio[a] = depth + a;
    for (int a = actors - 1; a > 0; a--) { /* shuffle */
      const int j = (int)(ic_rand() % (uint64_t)(a + 1)), x = prio[a];
      prio[a] = prio[j], prio[j] = x;
    }
    for (int i = 0; i < depth - 1 && i < 8; i++) change[i] = 1 + (int)(ic_rand() % (uint64_t)est);
    int lowest = 0; /* below every priority: for the threads of a repeat */
    ic_reset();
    int d = 0;
    for (;; d++) {
      const int ne = ic_enabled(en);
      if (ne == 0) {
        ic_judge_leaf();
        break;
      }
      if (d >= IC_MAX_MOVES - 1) {
        st->bound_hits++;
        break;
      }
      int best = -1, bp = INT_MIN; /* priorities go below 0 (the threads of a repeat) */
      for (int j = 0; j < ne; j++) {
        const int a = IC_ACTOR(en[j]);
        if (prio[a] > bp) bp = prio[a], best = j;
      }
      if (IC_ACTOR(en[best]) == ic_n) { /* the hardware: one of its moves at random */
        int hw = 0;
        for (int j = 0; j < ne; j++) hw += IC_ACTOR(en[j]) == ic_n;
        int pick = (int)(ic_rand() % (uint64_t)hw);
        for (int j = 0; j < ne; j++)
          if (IC_ACTOR(en[j]) == ic_n && pick-- == 0) best = j;
      }
      /* Several moves of one thread (the kinds of a begin): pick one at random. */
      int same = 0;
      for (int j = 0; j < ne; j++) same += en[j].kind == 'b' && en[best].kind == 'b' && en[j].t == en[best].t;
      if (same > 1) best += (int)(ic_rand() % (uint64_t)same);
      const int a = IC_ACTOR(en[best]);
      ic_note_enabled(en, ne);
      ic_apply(&en[best]);
      ic_check_state();
      st->transitions++;
      const int lasso = ic_after_move(&en[best], 1);
      if (lasso == 2) { /* a fair cycle: the run would go on forever */
        d++;
        break;
      }
      if (lasso == 1) /* a repeat some thread could leave: the ones that moved in it yield */
        for (int b = 0; b <= ic_n; b++)
          if (ic_lasso_actors & (1u << b)) prio[b] = --lowest;
      for (int i = 0; i < depth - 1 && i < 8; i++)
        if (change[i] == d) prio[a] = depth - 1 - i; /* drop below every initial priority */
    }
    st->schedules++;
    if ((unsigned long)d > st->max_depth) st->max_depth = (unsigned long)d;
    ic_record_findings();
  }
  st->complete = 1;
}

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
  /* The shrinking replays: under the watchdog too. */
  if (sigsetjmp(recover, 1) == 0) {
    in_call = 1;
    ic_watchdog(1);
    ic_shrink_and_emit(id);
    in_call = 0;
    ic_watchdog(0);
  } else {
    ic_watchdog(0);
  }
  emit("R %lld mode=%s schedules=%lu states=%lu transitions=%lu max_depth=%lu bound_hits=%lu complete=%d "
       "findings=%d failcap=%d",
       id, mode, st.schedules, ic_states, st.transitions, st.max_depth, st.bound_hits, st.complete, nfound,
       st.failcap);
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
