/*
 * The idle_core harness's ThreadSanitizer side: IDLE-10 (spec/idle_core.md),
 * no data race on the state word or the lock word, judged by TSan on the
 * kernel's own C as compiled (a plain `*state &= ~thread` is a load and a
 * store of its own).
 *
 * Built only with -fsanitize=thread (IC_TSAN, harness/shims/idle_env.h):
 * each hardware thread is a TSan fiber, created afresh for every schedule;
 * a switch from a thread to the scheduler synchronises (the scheduler
 * resets the next schedule after everything the threads did), a switch from
 * the scheduler to a thread does not, so the threads are ordered only by
 * what the code itself does: the shim's marked accesses with their memory
 * orders, and the core's state loss (every thread is in hardware idle and
 * the caches are gone: every access before it happens before every wake-up
 * with loss after it, as in the model checker's machine). The harness's own
 * code runs with the fiber's accesses ignored (IC_HOOK), the scheduler
 * always. A thread spinning on a held lock makes one failing
 * test_and_set_bit_lock per holding (a marked load of the word or lock),
 * where the plain build lets it wait: up to v6.4 that load races with the
 * holder's plain updates of the same word.
 *
 * TSan's report reaches the harness through the runtime's OnReport hook
 * (GCC's libtsan; a startup probe checks that it does, else the harness
 * stops), is not printed, and becomes an IDLE-10 finding of the schedule
 * when an access is to the state word or the lock word: both accesses,
 * their threads, kinds and lines. Reports on other memory are counted in
 * the result line (races_other=), not judged.
 *
 * A part of the idle_core harness, not a translation unit: harness_idle_core.c
 * includes it after idle_core_model.c; the parts share the harness's statics.
 */
#ifdef IC_TSAN
static int ic_loss_sync; /* the core's state loss (release by the scheduler, acquire on wake) */
static volatile unsigned long ic_probe; /* the startup probe's racy variable */
static int ic_probe_seen;
static unsigned long ic_races_word, ic_races_other;

const char* __tsan_default_options(void);
const char* __tsan_default_options(void) {
  /* Every schedule's race is reported (replays and shrinking need it again). */
  return "suppress_equal_stacks=0:suppress_equal_addresses=0:report_thread_leaks=0:"
         "report_signal_unsafe=0:exitcode=0";
}

int __tsan_get_report_data(void* report, const char** description, int* count, int* stack_count,
                           int* mop_count, int* loc_count, int* mutex_count, int* thread_count,
                           int* unique_tid_count, void** sleep_trace, unsigned long trace_size);
int __tsan_get_report_mop(void* report, unsigned long idx, int* tid, void** addr, int* size,
                          int* write, int* atomic, void** trace, unsigned long trace_size);
int __tsan_get_report_thread(void* report, unsigned long idx, int* tid, uint64_t* os_id,
                             int* running, const char** name, int* parent_tid, void** trace,
                             unsigned long trace_size);
void* __tsan_get_current_report(void);
void __sanitizer_symbolize_pc(void* pc, const char* fmt, char* out_buf, size_t out_buf_size);

/* Which idle word [addr, addr+size) touches: 1 the state word, 2 the lock word, 0 neither. */
static int ic_race_word(const void* addr, int size) {
  const char *a = (const char*)addr, *w = (const char*)ic_word(), *l = (const char*)ic_lockw();
  if (a < w + sizeof(unsigned long) && a + size > w) return 1;
  if (a < l + sizeof(unsigned long) && a + size > l) return 2;
  return 0;
}

/* The text of one symbolised field, letters, digits and '_' only (the code's names are data). */
static void ic_race_sym(void* pc, const char* fmt, char* out, size_t n) {
  char raw[160];
  raw[0] = 0;
  __sanitizer_symbolize_pc(pc, fmt, raw, sizeof raw);
  size_t k = 0;
  for (size_t i = 0; raw[i] && k + 1 < n && k < 48; i++) {
    const char c = raw[i];
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_')
      out[k++] = c;
  }
  out[k] = 0;
  if (!k) snprintf(out, n, "?");
}

_Bool ic_tsan_on_report(const void* rep,
                        _Bool suppressed) __asm__("_ZN6__tsan8OnReportEPKNS_10ReportDescEb");
__attribute__((no_sanitize_thread)) _Bool ic_tsan_on_report(const void* rep, _Bool suppressed) {
  IC_HOOK();
  (void)suppressed;
  void* r = __tsan_get_current_report();
  if (!r) r = (void*)rep;
  const char* desc = "";
  int count = 0, stacks = 0, mops = 0, locs = 0, mutexes = 0, threads = 0, tids = 0;
  void* sleep[1];
  if (!__tsan_get_report_data(r, &desc, &count, &stacks, &mops, &locs, &mutexes, &threads, &tids,
                              sleep, 1))
    return 1;
  struct {
    int tid, size, write, atomic, word;
    void *addr, *pc;
  } m[2];
  int nm = 0, word = 0;
  for (int i = 0; i < mops && nm < 2; i++, nm++) {
    void* trace[4] = {0};
    __tsan_get_report_mop(r, (unsigned long)i, &m[nm].tid, &m[nm].addr, &m[nm].size, &m[nm].write,
                          &m[nm].atomic, trace, 4);
    m[nm].pc = trace[0];
    if ((const void*)m[nm].addr == (const void*)&ic_probe) ic_probe_seen = 1;
    m[nm].word = ic_race_word(m[nm].addr, m[nm].size);
    if (m[nm].word && !word) word = m[nm].word;
  }
  if (strcmp(desc, "data-race") != 0 || !word) {
    ic_races_other++;
    return 1; /* not printed: the harness's report is the verdict's */
  }
  ic_races_word++;
  if (ic_found_mask & C(10)) return 1; /* this schedule's first race is its finding */
  char acc[2][200];
  int spinner = 0; /* the marked access is a thread's test_and_set_bit_lock on the state word */
  for (int i = 0; i < nm; i++) {
    const char* who = "?";
    for (int k = 0; k < threads; k++) {
      int tid = -1, running = 0, parent = 0;
      uint64_t os = 0;
      const char* name = NULL;
      void* tr[1];
      __tsan_get_report_thread(r, (unsigned long)k, &tid, &os, &running, &name, &parent, tr, 1);
      if (tid == m[i].tid && name && name[0] == 't' && name[1] >= '0' && name[1] <= '7' && !name[2])
        who = name;
    }
    if (who[0] == 't' && m[i].atomic) {
      const struct ic_thread* th = &ic_th[who[1] - '0'];
      if (th->pend_op == IC_OP_TAS_LOCK && th->pend_addr == ic_word()) spinner = 1;
    }
    char fn[64], line[16];
    ic_race_sym(m[i].pc, "%f", fn, sizeof fn);
    ic_race_sym(m[i].pc, "%l", line, sizeof line);
    snprintf(acc[i], sizeof acc[i], "%s's %s %s (%d bytes) at line %s in %s", who,
             m[i].atomic ? "marked" : "plain", m[i].write ? "write" : "read", m[i].size, line, fn);
  }
  const char* what =
      word == 1 ? "the state word (paca->idle_state)" : "the lock word (paca->idle_lock)";
  /* The race b0c5b4f1ee36 removed: a thread taking the lock in the state
   * word (its test_and_set_bit_lock there) against another's plain access
   * to it; not any race on the word while its lock bit is set (POWER9's
   * first-thread check races with a sibling's lock-free clear_bit in
   * either layout). */
  const int lock_in_word = word == 1 && spinner;
  ic_finding(C(10), "data race on %s: %s; %s before it; not ordered by happens-before%s", what,
             nm > 0 ? acc[0] : "?", nm > 1 ? acc[1] : "?",
             lock_in_word
                 ? " (the lock is the word's bit: its spinners race with the holder's plain "
                   "updates, the race b0c5b4f1ee36 \"powerpc: powernv: Fix KCSAN datarace "
                   "warnings on idle_state contention\" removed in v6.5)"
                 : "");
  return 1;
}

/* TSan stops a thread that ends with ignores in force: the scheduler's end them. */
static void ic_tsan_exit(void) {
  __atomic_store_n(&ic_on_fiber, IC_MAX_THREADS, __ATOMIC_RELAXED);
  if (__tsan_get_current_fiber() != ic_main_fiber) __tsan_switch_to_fiber(ic_main_fiber, 0);
  while (__atomic_load_n(&ic_ignores[IC_MAX_THREADS], __ATOMIC_RELAXED) > 0) ic_hook_out(NULL);
}

/* At startup, before the scheduler's accesses are ignored: a race TSan must
 * report through the hook, else no verdict of this build can be trusted. */
static void ic_tsan_init(void) {
  ic_main_fiber = __tsan_get_current_fiber();
  void* f = __tsan_create_fiber(0);
  __tsan_switch_to_fiber(f, 1);
  ic_probe = 1;
  __tsan_switch_to_fiber(ic_main_fiber, 1);
  ic_probe = 2;
  __tsan_destroy_fiber(f);
  if (!ic_probe_seen) {
    fprintf(stderr,
            "ThreadSanitizer's reports do not reach the harness (the runtime's OnReport hook)\n");
    emit("ABORT ThreadSanitizer's reports do not reach the harness");
    flush_out();
    exit(3);
  }
  ic_probe_seen = 0;
  ic_races_other = 0;
  (void)ic_hook_in(); /* the scheduler's own accesses are never judged */
  atexit(ic_tsan_exit);
}

/* A new schedule: fresh fibers, created by the scheduler after everything the last one did. */
static void ic_tsan_new_fibers(void) {
  for (int t = 0; t < IC_MAX_THREADS; t++) {
    if (!ic_fiber[t]) continue;
    /* A fiber stopped in the harness's part still ignores its accesses:
     * it ends that before it goes (TSan stops a process otherwise). */
    __tsan_switch_to_fiber(ic_fiber[t], 1);
    __atomic_store_n(&ic_on_fiber, t, __ATOMIC_RELAXED);
    while (__atomic_load_n(&ic_ignores[t], __ATOMIC_RELAXED) > 0) ic_hook_out(NULL);
    __atomic_store_n(&ic_on_fiber, IC_MAX_THREADS, __ATOMIC_RELAXED);
    __tsan_switch_to_fiber(ic_main_fiber, 1);
    __tsan_destroy_fiber(ic_fiber[t]);
    ic_fiber[t] = NULL;
  }
  static const char* const names[IC_MAX_THREADS] = {"t0", "t1", "t2", "t3", "t4", "t5", "t6", "t7"};
  for (int t = 0; t < ic_n; t++) {
    __atomic_store_n(&ic_ignores[t], 0, __ATOMIC_RELAXED);
    ic_fiber[t] = __tsan_create_fiber(0);
    __tsan_set_fiber_name(ic_fiber[t], names[t]);
  }
}
/* The running thread enters the code under test (its accesses are judged) and leaves it. */
#define IC_CODE_BEGIN() ic_hook_out(NULL)
#define IC_CODE_END() ((void)ic_hook_in())
#define IC_TSAN_LOSS() __tsan_release(&ic_loss_sync)
/* After a crash or hang left a thread by siglongjmp: the scheduler runs again. */
#define IC_TSAN_RECOVERED() \
  (__tsan_get_current_fiber() != ic_main_fiber ? (void)IC_TO_MAIN_FIBER() : (void)0)
#define IC_TSAN_WOKE(srr1) \
  ((((srr1)&SRR1_WAKESTATE) == SRR1_WS_HVLOSS) ? __tsan_acquire(&ic_loss_sync) : (void)0)
#else
#define IC_CODE_BEGIN() ((void)0)
#define IC_CODE_END() ((void)0)
#define IC_TSAN_LOSS() ((void)0)
#define IC_TSAN_RECOVERED() ((void)0)
#define IC_TSAN_WOKE(srr1) ((void)(srr1))
#endif
