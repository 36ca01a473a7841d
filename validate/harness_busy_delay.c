/*
 * The busy_delay harness of `idlespec validate` (spec/busy_delay.md).
 *
 * Compiled in one translation unit after validate/shims/kernel.h and the
 * functions extracted from the file under test; the driver defines
 * HAVE_RTAS_BUSY_DELAY_TIME / HAVE_RTAS_BUSY_DELAY for those it found.
 *
 *   harness scan-time [LO HI | sampled]       BUSY-4: rtas_busy_delay_time, statuses LO..HI
 *                                             (default all 2^32; sampled: see sampled_status())
 *   harness scan-policy NR [LO HI | sampled]  BUSY-1,2,3,5: rtas_busy_delay, need_resched() = NR,
 *                                             system running
 *   harness early                    BUSY-7: rtas_busy_delay sequences, system_state booting
 *   harness boundary                 all of the above on boundary statuses only (the sanitizer build);
 *                                    writes "AT clause status" to stderr before each call
 *
 * Output, one line each (the driver parses it):
 *   FINDING <clause> 0x<status hex> <status dec> nr=<0|1> <what happened>
 *   CHECKED <clause> <calls> <what was covered>
 *   ABORT <clause> <why the mode stopped early>
 * A crash (SIGSEGV, SIGBUS, SIGFPE, SIGILL) or a call that does not return
 * within ~2 s is a finding against the clause the status belongs to; the
 * harness then goes on with the next status, up to MAX_TRAPS per run.
 */
#include <setjmp.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/time.h>
#include <unistd.h>

#define MAX_PRINTED_PER_CLAUSE 5
#define MAX_TRAPS 8

enum mode { MODE_TIME, MODE_POLICY, MODE_EARLY, MODE_BOUNDARY };
static enum mode mode;
static bool boundary_trace;             /* "AT" lines on stderr */
static volatile uint32_t cur_status;    /* the status of the call in progress */
static volatile unsigned long call_seq; /* bumped per call: the watchdog's pulse */
static volatile int in_time_call;       /* the call in progress is rtas_busy_delay_time */
static unsigned long findings[8], printed[8];
static sigjmp_buf recover;
static volatile int traps;

static void emit(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void emit(const char *fmt, ...) {
  char line[512];
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(line, sizeof(line) - 1, fmt, ap);
  va_end(ap);
  if (n < 0) return;
  if (n > (int)sizeof(line) - 2) n = (int)sizeof(line) - 2;
  line[n++] = '\n';
  ssize_t w = write(1, line, (size_t)n);
  (void)w;
}

static bool is_extended(uint32_t s) { return s - 9900u <= 5u; }
static bool is_busy(uint32_t s) { return s == 0xfffffffeu; }

/* The clause a status belongs to in the current mode. */
static int clause_of(uint32_t s) {
  if (mode == MODE_EARLY) return 7;
  if (in_time_call) return 4;
  return is_busy(s) ? 2 : is_extended(s) ? 3 : 5;
}

/* The sampled scan: every status in -65536..65535, then 2^24 statuses spread
 * over the rest (one per 256, the low byte varying). */
#define SAMPLED_SMALL 131072ull
#define SAMPLED_COUNT (SAMPLED_SMALL + (1ull << 24))
static uint32_t sampled_status(uint64_t i) {
  if (i < SAMPLED_SMALL) return (uint32_t)(i - 65536);
  const uint64_t k = i - SAMPLED_SMALL;
  return (uint32_t)((k << 8) | ((k * 37u) & 255u));
}
static volatile uint64_t cur_sample; /* the sampled scan's index in flight */

static void finding(int clause, uint32_t s, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void finding(int clause, uint32_t s, const char *fmt, ...) {
  findings[clause]++;
  if (printed[clause] >= MAX_PRINTED_PER_CLAUSE) return;
  printed[clause]++;
  char what[384];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(what, sizeof(what), fmt, ap);
  va_end(ap);
  emit("FINDING BUSY-%d 0x%08x %d nr=%d %s", clause, s, (int)s, shim_need_resched ? 1 : 0, what);
}

__attribute__((unused)) static void shim_kernel_finding(const char *what, const char *cond,
                                                     const char *file, int line) {
  finding(clause_of(cur_status), cur_status, "%s(%s) fired at %s:%d", what, cond, file, line);
}

static void describe_requests(char *out, size_t n) {
  if (shim_req.events == 0) { snprintf(out, n, "nothing"); return; }
  snprintf(out, n, "%u sleep(s), last %s(%llu..%llu us), %u cond_resched()", shim_req.sleeps,
           shim_primitive_name[shim_req.primitive], shim_req.min_us, shim_req.max_us,
           shim_req.cond_resched);
}

/* --- traps: crashes, abort(), exit() and hangs ------------------------------- */
/* Set while the code under test runs: an exit() then is the code's, not the
 * harness's own. */
static volatile int in_code_under_test;

static void on_crash(int sig) {
  in_code_under_test = 0;
  traps++;
  finding(clause_of(cur_status), cur_status, "crashed with signal %d (%s)", sig,
          sig == SIGSEGV   ? "SIGSEGV"
          : sig == SIGBUS  ? "SIGBUS"
          : sig == SIGFPE  ? "SIGFPE"
          : sig == SIGABRT ? "SIGABRT: abort() or a failed assertion"
                           : "SIGILL");
  siglongjmp(recover, 1);
}

/* exit() called by the code under test ends the harness: the status in flight
 * is the finding (the scan cannot go on past it, and says so). */
static void on_exit_call(void) {
  if (!in_code_under_test) return;
  in_code_under_test = 0;
  finding(clause_of(cur_status), cur_status,
          "called exit(): the process ended inside the function (the scan stops here)");
}

static void on_tick(int sig) {
  static unsigned long last_seq = (unsigned long)-1;
  static uint32_t last_status;
  static int stalled;
  (void)sig;
  /* The scans change cur_status at every call, the early sequences bump call_seq. */
  if (call_seq != last_seq || cur_status != last_status) {
    last_seq = call_seq;
    last_status = cur_status;
    stalled = 0;
    return;
  }
  if (++stalled < 2) return;
  stalled = 0;
  traps++;
  finding(clause_of(cur_status), cur_status, "did not return within 2 s (hang)");
  siglongjmp(recover, 1);
}

static void install_traps(void) {
  struct sigaction sa;
  memset(&sa, 0, sizeof(sa));
  sa.sa_handler = on_crash;
  sa.sa_flags = SA_NODEFER;
  sigaction(SIGSEGV, &sa, NULL);
  sigaction(SIGBUS, &sa, NULL);
  sigaction(SIGFPE, &sa, NULL);
  sigaction(SIGILL, &sa, NULL);
  sigaction(SIGABRT, &sa, NULL);
  atexit(on_exit_call);
  sa.sa_handler = on_tick;
  sigaction(SIGALRM, &sa, NULL);
  struct itimerval it = {{1, 0}, {1, 0}};
  setitimer(ITIMER_REAL, &it, NULL);
}

/* Called after a trap: stop the run if there were too many. */
static void after_trap(int clause) {
  if (traps >= MAX_TRAPS) {
    emit("ABORT BUSY-%d stopped after %d crashes/hangs", clause, traps);
    exit(3);
  }
}

static void checked(int clause, unsigned long long calls, const char *what) {
  if (findings[clause] > printed[clause])
    emit("NOTE BUSY-%d %lu more findings not printed", clause, findings[clause] - printed[clause]);
  emit("CHECKED BUSY-%d %llu %s", clause, calls, what);
}

static void trace_at(int clause, uint32_t s) {
  if (!boundary_trace) return;
  char line[96];
  int n = snprintf(line, sizeof(line), "AT BUSY-%d 0x%08x %d nr=%d\n", clause, s, (int)s,
                   shim_need_resched ? 1 : 0);
  ssize_t w = write(2, line, (size_t)n);
  (void)w;
}

/* --- BUSY-4 ----------------------------------------------------------------- */
#ifdef HAVE_RTAS_BUSY_DELAY_TIME
static unsigned expected_time(uint32_t s) {
  static const unsigned pow10[] = {1, 10, 100, 1000, 10000, 100000};
  return is_busy(s) ? 1 : is_extended(s) ? pow10[s - 9900u] : 0;
}

static void check_time(uint32_t s) {
  cur_status = s;
  trace_at(4, s);
  in_code_under_test = 1;
  unsigned got = rtas_busy_delay_time((int)s);
  in_code_under_test = 0;
  if (__builtin_expect(got != expected_time(s), 0))
    finding(4, s, "rtas_busy_delay_time returned %u, expected %u", got, expected_time(s));
}

static void scan_time(uint64_t lo, uint64_t hi) {
  static volatile uint64_t resume;
  in_time_call = 1;
  resume = lo;
  if (sigsetjmp(recover, 1)) { after_trap(4); resume = (uint64_t)cur_status + 1; }
  for (uint64_t i = resume; i <= hi; i++) check_time((uint32_t)i);
  in_time_call = 0;
  char what[96];
  snprintf(what, sizeof(what), "statuses 0x%08llx..0x%08llx", (unsigned long long)lo, (unsigned long long)hi);
  checked(4, hi - lo + 1, what);
}

static void scan_time_sampled(void) {
  static volatile uint64_t resume;
  in_time_call = 1;
  resume = 0;
  if (sigsetjmp(recover, 1)) { after_trap(4); resume = cur_sample + 1; }
  for (uint64_t i = resume; i < SAMPLED_COUNT; i++) { cur_sample = i; check_time(sampled_status(i)); }
  in_time_call = 0;
  checked(4, SAMPLED_COUNT, "sampled: statuses -65536..65535 and 2^24 spread over the rest");
}
#endif

/* --- BUSY-1, 2, 3, 5 -------------------------------------------------------- */
#ifdef HAVE_RTAS_BUSY_DELAY
/* BUSY-3: one sleep within [c*100 us, c*1000 us], c = min(10^n, 1000) ms. */
static void check_extended(uint32_t s) {
  static const unsigned long long c_ms[] = {1, 10, 100, 1000, 1000, 1000};
  const unsigned long long c = c_ms[s - 9900u];
  char req[160];
  describe_requests(req, sizeof(req));
  if (shim_req.sleeps != 1 || shim_req.cond_resched != 0) {
    finding(3, s, "requested %s; expected exactly one sleep within [%llu, %llu] us and no cond_resched()",
            req, c * 100, c * 1000);
    return;
  }
  const enum shim_primitive p = shim_req.primitive;
  if (p != SHIM_USLEEP_RANGE && p != SHIM_MSLEEP && p != SHIM_FSLEEP && p != SHIM_MDELAY)
    finding(3, s, "requested %s; expected usleep_range, msleep or fsleep", req);
  else if (shim_req.min_us > shim_req.max_us || shim_req.max_us > c * 1000 || shim_req.min_us < c * 100)
    finding(3, s, "requested %s; expected min <= max, max <= %llu us, min >= %llu us", req,
            c * 1000, c * 100);
}

static void check_policy(uint32_t s) {
  cur_status = s;
  shim_req.events = shim_req.sleeps = shim_req.cond_resched = 0; /* all the checks read */
  trace_at(is_busy(s) ? 2 : is_extended(s) ? 3 : 5, s);
  in_code_under_test = 1;
  const bool retry = rtas_busy_delay((int)s);
  in_code_under_test = 0;
  const bool want = is_busy(s) || is_extended(s);
  if (__builtin_expect(retry != want, 0))
    finding(1, s, "rtas_busy_delay returned %s, expected %s", retry ? "true (retry)" : "false",
            want ? "true (retry)" : "false");
  if (__builtin_expect(!want, 1)) {
    if (__builtin_expect(shim_req.events != 0 || retry, 0)) {
      char req[160];
      describe_requests(req, sizeof(req));
      finding(5, s, "requested %s%s; expected nothing and no retry", req, retry ? ", retry" : "");
    }
  } else if (is_busy(s)) {
    if (shim_req.sleeps != 0) {
      char req[160];
      describe_requests(req, sizeof(req));
      finding(2, s, "requested %s on busy; expected no sleep (cond_resched() only)", req);
    }
  } else {
    check_extended(s);
  }
}

static void scan_policy(uint64_t lo, uint64_t hi) {
  static volatile uint64_t resume;
  system_state = SYSTEM_RUNNING;
  resume = lo;
  if (sigsetjmp(recover, 1)) { after_trap(clause_of(cur_status)); resume = (uint64_t)cur_status + 1; }
  for (uint64_t i = resume; i <= hi; i++) check_policy((uint32_t)i);
  char what[128];
  snprintf(what, sizeof(what), "statuses 0x%08llx..0x%08llx need_resched=%d", (unsigned long long)lo,
           (unsigned long long)hi, shim_need_resched ? 1 : 0);
  checked(1, hi - lo + 1, what);
  checked(2, lo <= 0xfffffffeu && hi >= 0xfffffffeu, what);
  const uint64_t ext_lo = lo > 9900 ? lo : 9900, ext_hi = hi < 9905 ? hi : 9905;
  checked(3, ext_lo <= ext_hi ? ext_hi - ext_lo + 1 : 0, what);
  checked(5, hi - lo + 1, what);
}

static void scan_policy_sampled(void) {
  static volatile uint64_t resume;
  system_state = SYSTEM_RUNNING;
  resume = 0;
  if (sigsetjmp(recover, 1)) { after_trap(clause_of(cur_status)); resume = cur_sample + 1; }
  for (uint64_t i = resume; i < SAMPLED_COUNT; i++) { cur_sample = i; check_policy(sampled_status(i)); }
  char what[128];
  snprintf(what, sizeof(what), "sampled: statuses -65536..65535 and 2^24 spread over the rest, need_resched=%d",
           shim_need_resched ? 1 : 0);
  checked(1, SAMPLED_COUNT, what);
  checked(2, 1, what);
  checked(3, 6, what);
  checked(5, SAMPLED_COUNT - 7, what);
}

/* --- BUSY-7 ----------------------------------------------------------------- */
static unsigned long early_calls;
static bool early_phase_failed;

/* One call in early boot; false (and one finding) on the first mismatch of a phase. */
static bool early_call(uint32_t s, bool want_retry, bool want_mdelay, const char *phase, unsigned k) {
  cur_status = s;
  call_seq++;
  early_calls++;
  shim_reset_requests();
  trace_at(7, s);
  in_code_under_test = 1;
  const bool retry = rtas_busy_delay((int)s);
  in_code_under_test = 0;
  const bool delay_ok = want_mdelay ? (shim_req.events == 1 && shim_req.primitive == SHIM_MDELAY &&
                                       shim_req.min_us == 1000 && shim_req.max_us == 1000)
                                    : shim_req.events == 0;
  if (retry == want_retry && delay_ok) return true;
  char req[160];
  describe_requests(req, sizeof(req));
  finding(7, s, "%s, call %u: returned %s and requested %s; expected %s and %s", phase, k,
          retry ? "retry" : "no retry", req, want_retry ? "retry" : "no retry",
          want_mdelay ? "exactly one mdelay(1)" : "nothing");
  early_phase_failed = true;
  return false;
}

/* n extended statuses in a row, all expected to retry. */
static bool early_extended_run(unsigned n, const char *phase) {
  for (unsigned k = 1; k <= n; k++)
    if (!early_call(9900u + (k - 1) % 6u, true, true, phase, k)) return false;
  return true;
}

/* 1000 consecutive extended delays retry, the 1001st gives up. */
static bool early_full_run(const char *phase) {
  return early_extended_run(1000, phase) && early_call(9900u, false, true, phase, 1001);
}

static void early(void) {
  mode = MODE_EARLY;
  system_state = SYSTEM_BOOTING;
  shim_need_resched = false;
  if (sigsetjmp(recover, 1)) { after_trap(7); emit("ABORT BUSY-7 early sequence stopped by a trap"); return; }
  early_call(0, false, false, "start: status 0 stops and resets the count", 1);
  early_full_run("first loop of extended delays");
  early_full_run("loop after giving up (the count must reset on giving up)");
  if (early_extended_run(600, "600 extended delays before a busy") &&
      early_call(0xfffffffeu, true, false, "busy after 600 extended delays", 601))
    early_full_run("loop after a busy (the count must reset on busy)");
  static const uint32_t others[] = {0, 1, 0xffffffffu, 0xfffffffdu, 9899, 9906, 0x80000000u, 0x7fffffffu};
  for (size_t i = 0; i < ARRAY_SIZE(others); i++) {
    char phase[128];
    snprintf(phase, sizeof(phase), "status %d after 600 extended delays", (int)others[i]);
    if (early_extended_run(600, phase) && early_call(others[i], false, false, phase, 601)) {
      snprintf(phase, sizeof(phase), "loop after status %d (the count must reset on it)", (int)others[i]);
      early_full_run(phase);
    }
  }
  early_call(0xfffffffeu, true, false, "busy alone", 1);
  checked(7, early_calls, "early-boot sequences: 1000 retry + give-up, reset on give-up, busy and 8 other statuses");
}
#endif

/* --- boundary statuses (the sanitizer build) -------------------------------- */
static const uint32_t boundary_statuses[] = {
    0, 1, 2, 0xffffffffu, 0xfffffffeu, 0xfffffffdu, 9898, 9899, 9900, 9901, 9902, 9903, 9904,
    9905, 9906, 9907, 990, 9910, 99000, 99005, (uint32_t)-9900, (uint32_t)-9905, 0x7fffffffu,
    0x80000000u, 0x80000001u, 0x000026acu | 0x10000u, 0xffff26acu, 1000, 10000, 100000};

static void boundary(void) {
  boundary_trace = true;
#ifdef HAVE_RTAS_BUSY_DELAY_TIME
  for (size_t i = 0; i < ARRAY_SIZE(boundary_statuses); i++) {
    uint32_t s = boundary_statuses[i];
    scan_time(s, s);
  }
#endif
#ifdef HAVE_RTAS_BUSY_DELAY
  for (int nr = 0; nr <= 1; nr++) {
    shim_need_resched = nr;
    for (size_t i = 0; i < ARRAY_SIZE(boundary_statuses); i++) {
      uint32_t s = boundary_statuses[i];
      scan_policy(s, s);
    }
  }
  shim_need_resched = false;
  early();
#endif
}

static int usage(void) {
  fprintf(stderr, "usage: harness scan-time [LO HI | sampled] | scan-policy NR [LO HI | sampled] | early | boundary\n");
  return 2;
}

int main(int argc, char **argv) {
  if (argc < 2) return usage();
  const char *m = argv[1];
  uint64_t lo = 0, hi = 0xffffffffu;
  install_traps();
  if (!strcmp(m, "scan-time")) {
    mode = MODE_TIME;
    const bool sampled = argc >= 3 && !strcmp(argv[2], "sampled");
    if (argc >= 4) { lo = strtoull(argv[2], NULL, 0); hi = strtoull(argv[3], NULL, 0); }
#ifdef HAVE_RTAS_BUSY_DELAY_TIME
    if (sampled) scan_time_sampled();
    else scan_time(lo, hi);
#else
    emit("ABSENT rtas_busy_delay_time");
#endif
  } else if (!strcmp(m, "scan-policy") && argc >= 3) {
    mode = MODE_POLICY;
    shim_need_resched = atoi(argv[2]) != 0;
    const bool sampled = argc >= 4 && !strcmp(argv[3], "sampled");
    if (argc >= 5) { lo = strtoull(argv[3], NULL, 0); hi = strtoull(argv[4], NULL, 0); }
#ifdef HAVE_RTAS_BUSY_DELAY
    if (sampled) scan_policy_sampled();
    else scan_policy(lo, hi);
#else
    emit("ABSENT rtas_busy_delay");
#endif
  } else if (!strcmp(m, "early")) {
    mode = MODE_EARLY;
#ifdef HAVE_RTAS_BUSY_DELAY
    early();
#else
    emit("ABSENT rtas_busy_delay");
#endif
  } else if (!strcmp(m, "boundary")) {
    mode = MODE_POLICY;
    boundary();
  } else {
    return usage();
  }
  emit("DONE %s", m);
  return 0;
}
