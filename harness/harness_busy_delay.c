/*
 * The busy_delay harness of `idlespec validate` (spec/busy_delay.md).
 *
 * Compiled in one translation unit after harness/shims/kernel.h and the
 * functions extracted from the file under test; the driver defines
 * HAVE_RTAS_BUSY_DELAY_TIME / HAVE_RTAS_BUSY_DELAY for those it found.
 *
 * The harness calls the functions and reports what they did; it judges
 * nothing. The driver (validate/busy_delay_check.cc) judges every report
 * through the spec's one reading, oracle/busy_delay.h.
 *
 *   harness scan-time [LO HI]...         rtas_busy_delay_time on every status of each range
 *                                        (default: all 2^32)
 *   harness scan-policy NR [LO HI]...    rtas_busy_delay, need_resched() = NR, system running
 *   harness early                        rtas_busy_delay sequences, system_state booting
 *   harness boundary [N]                 all three on boundary statuses only (the sanitizer
 *                                        build); writes "AT <mode> <status> nr=<n>" to stderr
 *                                        before each call; N: skip the first N scans of a
 *                                        status (a resumed run)
 *
 * Protocol lines (on the descriptor of IDLESPEC_PROTOCOL_FD, else stdout;
 * statuses as 0x%08x):
 *   OBS time LO HI MS                     every status LO..HI: returned MS
 *   OBS policy NR LO HI RETRY SLEEPS YIELDS PRIM MIN MAX
 *                                         every status LO..HI: returned RETRY, requested
 *                                         SLEEPS sleeps (the last PRIM, MIN..MAX us) and
 *                                         YIELDS cond_resched() calls
 *   PHASE <words>                         the early-boot sequence the next calls belong to
 *   CALL STATUS RETRY SLEEPS YIELDS PRIM MIN MAX
 *                                         one early-boot call
 *   TRAP <mode> STATUS NR <what>          the call with STATUS crashed, hung, called exit()
 *                                         or fired a WARN_ON/BUG_ON
 *   SCANNED <mode> NR LO HI               every status of LO..HI was called
 *   COMPLETE <mode>                       every call of the mode's scans or sequences was made
 *   CUT <mode> NR STATUS                  more than MAX_RUNS different answers: the scan
 *                                         stopped before STATUS
 *   NOTE <words>  ABORT <why>  ABSENT <function>  DONE <mode>
 * OBS lines are the scan run-length encoded: consecutive statuses with the
 * same answer share a line. A crash or hang ends the run in flight, the scan
 * goes on with the next status, up to MAX_TRAPS per process. A hang the
 * signal watchdog cannot end (the code blocked or ignored SIGALRM) ends the
 * process after its TRAP line, exit HARNESS_EXIT_HUNG (harness_runtime.c):
 * the driver starts it again after that status.
 */
#include "harness_runtime.c"

#define MAX_RUNS 4096 /* OBS records per process; a faithful function needs about 20 */
#define MAX_WARN_RECORDS 64

enum mode { MODE_TIME, MODE_POLICY, MODE_EARLY };
static const char *const mode_name[] = {"time", "policy", "early"};
static enum mode mode;
static bool boundary_trace;             /* "AT" lines on stderr */
static volatile uint32_t cur_status;    /* the status of the call in progress */
static volatile unsigned long call_seq; /* bumped per call: the watchdog's pulse */
static unsigned long runs_emitted, warn_records, warns_dropped;

static void record(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void record(const char *fmt, ...) {
  char line[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(line, sizeof(line), fmt, ap);
  va_end(ap);
  emit("%s", line);
  flush_out();
}

static int nr_now(void) { return shim_need_resched ? 1 : 0; }

static void trap(uint32_t s, const char *what) {
  record("TRAP %s 0x%08x %d %s", mode_name[mode], s, nr_now(), what);
}

/* WARN_ON/BUG_ON fired in the call just made (harness_runtime.c collects them). */
static void report_warns(uint32_t s) {
  for (unsigned i = 0; i < nwarns; i++) {
    if (warn_records < MAX_WARN_RECORDS) {
      warn_records++;
      trap(s, warns[i]);
    } else {
      warns_dropped++;
    }
  }
  nwarns = 0;
}

/* --- traps: crashes, abort(), exit() and hangs ------------------------------- */
/* exit() called by the code under test ends the harness: the status in flight
 * is reported (the scan cannot go on past it, and says so). */
static void flush_run(uint64_t last);

static void on_exit_call(void) {
  if (!in_call) return;
  in_call = 0;
  flush_run((uint64_t)cur_status - 1);
  trap(cur_status, "called exit(): the process ended inside the function (the scan stops here)");
}

/* A periodic watchdog: a call that has not returned within ~2 s is a hang. */
static void on_tick(int sig) {
  static unsigned long last_seq = (unsigned long)-1;
  static uint32_t last_status;
  static int stalled;
  (void)sig;
  if (call_seq != last_seq || cur_status != last_status || !in_call) {
    last_seq = call_seq;
    last_status = cur_status;
    stalled = 0;
    return;
  }
  if (++stalled < WATCHDOG_SECONDS) return;
  stalled = 0;
  in_call = 0;
  trap_sig = -1;
  siglongjmp(recover, 1);
}

/* The hang backstop (harness_runtime.c): progress is a new status or a new
 * early-boot call; a call stuck past BACKSTOP_SECONDS gets the TRAP line the
 * tick above would have written, and the process ends (the driver resumes
 * the scan after that status, busy_delay_check.cc). */
static unsigned long busy_delay_pulse(void) { return call_seq * 2654435761UL + cur_status; }

static void busy_delay_backstop_report(void) {
  flush_run((uint64_t)cur_status - 1);
  char what[64];
  snprintf(what, sizeof(what), "did not return within %d s (hang)", WATCHDOG_SECONDS);
  trap(cur_status, what);
}

static void install_busy_delay_traps(void) {
  backstop_pulse = busy_delay_pulse;
  backstop_report = busy_delay_backstop_report;
  install_traps();
  struct sigaction sa;
  memset(&sa, 0, sizeof(sa));
  sa.sa_handler = on_crash;
  sa.sa_flags = SA_NODEFER;
  sigaction(SIGABRT, &sa, NULL);
  sa.sa_handler = on_tick;
  sigaction(SIGALRM, &sa, NULL);
  atexit(on_exit_call);
  struct itimerval it = {{1, 0}, {1, 0}};
  setitimer(ITIMER_REAL, &it, NULL);
}

/* After a trap: report it, and stop the process if there were too many. */
static void after_trap(void) {
  char what[96];
  if (trap_sig > 0)
    snprintf(what, sizeof(what), "crashed with signal %d (%s)", (int)trap_sig,
             trap_sig == SIGABRT ? "SIGABRT: abort() or a failed assertion" : signal_name(trap_sig));
  else
    snprintf(what, sizeof(what), "did not return within %d s (hang)", WATCHDOG_SECONDS);
  trap_sig = 0;
  trap(cur_status, what);
  if (++traps >= MAX_TRAPS) {
    record("ABORT stopped after %d crashes/hangs", traps);
    exit(3);
  }
}

static void trace_call(uint32_t s) {
  if (!boundary_trace) return;
  char line[96];
  const int n = snprintf(line, sizeof(line), "AT %s 0x%08x nr=%d\n", mode_name[mode], s, nr_now());
  const ssize_t w = write(2, line, (size_t)n);
  (void)w;
}

/* --- the run-length encoded scans ------------------------------------------- */
/* One answer: the time scan uses `ms` only. */
struct answer {
  unsigned ms;
  bool retry;
  unsigned sleeps, yields, primitive;
  unsigned long long min_us, max_us;
};
static struct answer run_answer;
static uint64_t run_lo; /* the run in flight starts here */
static bool run_open, scan_cut;

/* Report the run in flight, which ends at status `last`. */
static void flush_run(uint64_t last) {
  if (!run_open) return;
  run_open = false;
  runs_emitted++;
  const struct answer *a = &run_answer;
  if (mode == MODE_TIME)
    record("OBS time 0x%08llx 0x%08llx %u", (unsigned long long)run_lo, (unsigned long long)last,
           a->ms);
  else
    record("OBS policy %d 0x%08llx 0x%08llx %d %u %u %u %llu %llu", nr_now(),
           (unsigned long long)run_lo, (unsigned long long)last, a->retry ? 1 : 0, a->sleeps,
           a->yields, a->primitive, a->min_us, a->max_us);
}

/* Status s answered differently from the run in flight: start a new run.
 * False when the scan must stop (too many runs). */
static bool new_run(uint32_t s, const struct answer *a) {
  flush_run((uint64_t)s - 1);
  if (runs_emitted >= MAX_RUNS) {
    record("CUT %s %d 0x%08x", mode_name[mode], nr_now(), s);
    scan_cut = true;
    return false;
  }
  run_answer = *a;
  run_lo = s;
  run_open = true;
  return true;
}

static inline __attribute__((always_inline)) unsigned call_time(uint32_t s) {
  cur_status = s;
  if (boundary_trace) trace_call(s);
  unsigned ms = 0;
  in_call = 1;
#ifdef HAVE_RTAS_BUSY_DELAY_TIME
  ms = rtas_busy_delay_time((int)s);
#endif
  in_call = 0;
  return ms;
}

/* One rtas_busy_delay() call: returns its retry, the sleep and yield counts
 * in *sleeps and *yields (locals of the caller, kept in registers).
 * events = sleeps + yields: most calls request nothing, and reading the two
 * counters one by one keeps the compiler from loading them as one 8-byte
 * word just after two 4-byte stores (a stall on every call). */
static inline __attribute__((always_inline)) bool call_policy(uint32_t s, unsigned *sleeps,
                                                              unsigned *yields) {
  cur_status = s;
  shim_req.events = shim_req.sleeps = shim_req.cond_resched = 0; /* all the answer reads */
  if (boundary_trace) trace_call(s);
  in_call = 1;
#ifdef HAVE_RTAS_BUSY_DELAY
  const bool retry = rtas_busy_delay((int)s);
#else
  const bool retry = false;
#endif
  in_call = 0;
  *sleeps = *yields = 0;
  if (__builtin_expect(shim_req.events != 0, 0)) {
    *sleeps = *(volatile unsigned *)&shim_req.sleeps;
    *yields = *(volatile unsigned *)&shim_req.cond_resched;
  }
  return retry;
}

/* The whole answer of the call just made, stored once (only when a new run
 * starts, or per early-boot call). */
static void answer_of(struct answer *a, bool retry, unsigned sleeps, unsigned yields) {
  a->ms = 0;
  a->retry = retry;
  a->sleeps = sleeps;
  a->yields = yields;
  a->primitive = sleeps ? shim_req.primitive : 0;
  a->min_us = sleeps ? shim_req.min_us : 0;
  a->max_us = sleeps ? shim_req.max_us : 0;
}

/* The policy answer of status s equals the run in flight's. */
static inline __attribute__((always_inline)) bool policy_same(bool retry, unsigned sleeps,
                                                              unsigned yields) {
  return retry == run_answer.retry && sleeps == run_answer.sleeps && yields == run_answer.yields &&
         (sleeps == 0 || ((unsigned)shim_req.primitive == run_answer.primitive &&
                          shim_req.min_us == run_answer.min_us && shim_req.max_us == run_answer.max_us));
}

static void scan(uint64_t lo, uint64_t hi) {
  static volatile uint64_t resume;
  resume = lo;
  if (sigsetjmp(recover, 1)) {
    flush_run((uint64_t)cur_status - 1);
    after_trap();
    resume = (uint64_t)cur_status + 1;
  }
  struct answer a;
  memset(&a, 0, sizeof(a));
  for (uint64_t i = resume; i <= hi; i++) {
    const uint32_t s = (uint32_t)i;
    if (mode == MODE_TIME) {
      const unsigned ms = call_time(s);
      if (__builtin_expect(run_open && ms == run_answer.ms && nwarns == 0, 1)) continue;
      a.ms = ms;
    } else {
      unsigned sleeps, yields;
      const bool retry = call_policy(s, &sleeps, &yields);
      if (__builtin_expect(run_open && nwarns == 0 && policy_same(retry, sleeps, yields), 1)) continue;
      answer_of(&a, retry, sleeps, yields);
    }
    if (nwarns) {
      flush_run((uint64_t)s - 1);
      report_warns(s);
    }
    if (!new_run(s, &a)) return;
  }
  flush_run(hi);
  record("SCANNED %s %d 0x%08llx 0x%08llx", mode_name[mode], nr_now(), (unsigned long long)lo,
         (unsigned long long)hi);
}

/* "LO HI" pairs from argv (decimal or 0x hex); none: all 2^32. */
static int scan_ranges(int argc, char **argv) {
  if (argc == 0) {
    scan(0, 0xffffffffu);
    if (!scan_cut) record("COMPLETE %s", mode_name[mode]);
    return 0;
  }
  if (argc % 2) return 2;
  for (int i = 0; i < argc && !scan_cut; i += 2) {
    char *e1, *e2;
    const unsigned long long lo = strtoull(argv[i], &e1, 0), hi = strtoull(argv[i + 1], &e2, 0);
    if (*e1 || *e2 || lo > hi || hi > 0xffffffffull) return 2;
    scan(lo, hi);
  }
  if (!scan_cut) record("COMPLETE %s", mode_name[mode]);
  return 0;
}

/* --- early boot -------------------------------------------------------------- */
#ifdef HAVE_RTAS_BUSY_DELAY
static void early_call(uint32_t s) {
  struct answer a;
  unsigned sleeps, yields;
  call_seq++; /* the statuses repeat: the watchdog's pulse */
  const bool retry = call_policy(s, &sleeps, &yields);
  answer_of(&a, retry, sleeps, yields);
  record("CALL 0x%08x %d %u %u %u %llu %llu", s, a.retry ? 1 : 0, a.sleeps, a.yields, a.primitive,
         a.min_us, a.max_us);
  report_warns(s);
}

static void early_extended(unsigned n) {
  for (unsigned k = 0; k < n; k++) early_call(9900u + k % 6u);
}

/* The sequences: each a phase, the statuses fixed (the driver judges what
 * the function answered, whatever it answered). */
static void early(void) {
  system_state = SYSTEM_BOOTING;
  shim_need_resched = false;
  if (sigsetjmp(recover, 1)) {
    after_trap();
    record("ABORT early sequence stopped by a trap");
    return;
  }
  record("PHASE start: status 0 stops and resets the count");
  early_call(0);
  record("PHASE first loop of extended delays");
  early_extended(1001);
  record("PHASE loop after giving up (the count must reset on giving up)");
  early_extended(1001);
  record("PHASE 600 extended delays before a busy");
  early_extended(600);
  early_call(0xfffffffeu);
  record("PHASE loop after a busy (the count must reset on busy)");
  early_extended(1001);
  static const uint32_t others[] = {0, 1, 0xffffffffu, 0xfffffffdu, 9899, 9906, 0x80000000u, 0x7fffffffu};
  for (size_t i = 0; i < ARRAY_SIZE(others); i++) {
    record("PHASE status %d after 600 extended delays", (int)others[i]);
    early_extended(600);
    early_call(others[i]);
    record("PHASE loop after status %d (the count must reset on it)", (int)others[i]);
    early_extended(1001);
  }
  record("PHASE busy alone");
  early_call(0xfffffffeu);
  record("COMPLETE early");
}
#endif

/* --- boundary statuses (the sanitizer build) -------------------------------- */
/* "boundary N": the first N scans of one status skipped (the driver resumes
 * a run the hang backstop ended after the status it hung on). */
static unsigned long boundary_skip;

static void boundary_scan(uint32_t s) {
  if (boundary_skip) {
    boundary_skip--;
    return;
  }
  scan(s, s);
}

static const uint32_t boundary_statuses[] = {
    0, 1, 2, 0xffffffffu, 0xfffffffeu, 0xfffffffdu, 9898, 9899, 9900, 9901, 9902, 9903, 9904,
    9905, 9906, 9907, 990, 9910, 99000, 99005, (uint32_t)-9900, (uint32_t)-9905, 0x7fffffffu,
    0x80000000u, 0x80000001u, 0x000026acu | 0x10000u, 0xffff26acu, 1000, 10000, 100000};

static void boundary(void) {
  boundary_trace = true;
#ifdef HAVE_RTAS_BUSY_DELAY_TIME
  mode = MODE_TIME;
  for (size_t i = 0; i < ARRAY_SIZE(boundary_statuses); i++) boundary_scan(boundary_statuses[i]);
  if (!scan_cut) record("COMPLETE time");
#endif
#ifdef HAVE_RTAS_BUSY_DELAY
  mode = MODE_POLICY;
  system_state = SYSTEM_RUNNING;
  for (int nr = 0; nr <= 1; nr++) {
    shim_need_resched = nr;
    for (size_t i = 0; i < ARRAY_SIZE(boundary_statuses); i++) boundary_scan(boundary_statuses[i]);
  }
  if (!scan_cut) record("COMPLETE policy");
  shim_need_resched = false;
  mode = MODE_EARLY;
  early();
#endif
}

static int usage(void) {
  fprintf(stderr, "usage: harness scan-time [LO HI]... | scan-policy NR [LO HI]... | early | boundary [N]\n");
  return 2;
}

int main(int argc, char **argv) {
  if (argc < 2) return usage();
  const char *m = argv[1];
  install_busy_delay_traps();
  if (!strcmp(m, "scan-time")) {
    mode = MODE_TIME;
#ifdef HAVE_RTAS_BUSY_DELAY_TIME
    if (scan_ranges(argc - 2, argv + 2)) return usage();
#else
    record("ABSENT rtas_busy_delay_time");
#endif
  } else if (!strcmp(m, "scan-policy") && argc >= 3) {
    mode = MODE_POLICY;
    shim_need_resched = atoi(argv[2]) != 0;
    system_state = SYSTEM_RUNNING;
#ifdef HAVE_RTAS_BUSY_DELAY
    if (scan_ranges(argc - 3, argv + 3)) return usage();
#else
    record("ABSENT rtas_busy_delay");
#endif
  } else if (!strcmp(m, "early")) {
    mode = MODE_EARLY;
#ifdef HAVE_RTAS_BUSY_DELAY
    early();
#else
    record("ABSENT rtas_busy_delay");
#endif
  } else if (!strcmp(m, "boundary") && argc <= 3) {
    if (argc == 3) {
      char *end;
      boundary_skip = strtoul(argv[2], &end, 10);
      if (*end || end == argv[2]) return usage();
    }
    boundary();
  } else {
    return usage();
  }
  if (warns_dropped) record("NOTE %lu more WARN_ON/BUG_ON reports not recorded", warns_dropped);
  record("DONE %s", m);
  return 0;
}
