/*
 * The idle_core harness's model of one core: its threads, the SPRs and who
 * shares them, the idle word and lock, the context switch to a thread, and the
 * record of the schedule being run (its moves, events and findings).
 *
 * A part of the idle_core harness, not a translation unit: harness_idle_core.c
 * includes it first; the parts share the harness's statics.
 */

/* IC_ASAN, the contexts and IC_SWITCH: harness/shims/idle_env.h. */

#define IC_STACK_SIZE (256 * 1024)
#define IC_MAX_MOVES 1024    /* per schedule: beyond it the schedule is cut (a bound hit) */
#define IC_MAX_FIND 8        /* findings kept per schedule */
#define IC_NCLAUSES 11       /* bit c: IDLE-c */
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
  int spun;              /* ThreadSanitizer build: made a failing test-and-set while the lock was held */
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
#ifdef IC_TSAN
static void *ic_fiber[IC_MAX_THREADS]; /* each hardware thread's TSan fiber (idle_core_races.c) */
#endif
/* ic_main_ctx, ic_ctx and the switch from a thread (IC_SWITCH): idle_env.h. */
#ifdef IC_ASAN
static void *ic_main_fake;
#endif

/* A thread's last switch: its stack is not resumed (ASan forgets it). */
static void ic_finish_thread(void) {
#ifdef IC_ASAN
  __sanitizer_start_switch_fiber(NULL, ic_main_bottom, ic_main_size);
#endif
  IC_TO_MAIN_FIBER();
  IC_SWAP(&ic_ctx[ic_cur], &ic_main_ctx);
}

static void ic_to_thread(int t) {
  ic_cur = t;
#ifdef IC_TSAN
  __atomic_store_n(&ic_on_fiber, t, __ATOMIC_RELAXED);
  __tsan_switch_to_fiber(ic_fiber[t], 1); /* no synchronisation: the threads order themselves */
#endif
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

/* For review's comparison of a clause failed before and after a patch
 * (validate/idle_core_check.cc): per clause, over every schedule a job
 * explores, the registers some thread returned to running with lost
 * (ic_lost_reg[c][s]: SPR s), and whether some failure of the clause was not
 * a lost register (ic_lost_other[c]). Emitted per job as LOST lines. */
static unsigned char ic_lost_reg[IC_NCLAUSES][IC_NR_SPRS];
static unsigned char ic_lost_other[IC_NCLAUSES];
static int ic_finding_is_register; /* the finding being made is a lost register's */

static void ic_finding(unsigned clauses, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void ic_finding(unsigned clauses, const char *fmt, ...) {
  if (!ic_finding_is_register)
    for (int c = 1; c < IC_NCLAUSES; c++)
      if (clauses & (1u << c)) ic_lost_other[c] = 1;
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
