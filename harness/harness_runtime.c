/*
 * The runtime every line-protocol harness of `idlespec validate` shares
 * (harness_firmware.c for xcede and states, harness_governor.c): buffered
 * output one line per record, WARN_ON/BUG_ON findings, crash and hang
 * recovery around the call under test (sigsetjmp and a watchdog), bad-input
 * aborts, and the "AT <id>" trace that attributes sanitizer reports.
 * Included once, after the shims and the code under test.
 */
#include <fcntl.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#define MAX_TRAPS 8
#define MAX_WARNS 20
#define WATCHDOG_SECONDS 2
/* The hang backstop (below): a call stuck this long with no progress, longer
 * than any signal watchdog here takes (busy_delay's and idle_core's periodic
 * ones: at most 2 x WATCHDOG_SECONDS). */
#define BACKSTOP_SECONDS (2 * WATCHDOG_SECONDS + 2)
/* The exit status of a harness the backstop ended (validate/input_check.h
 * kHarnessExitHung). */
#define HARNESS_EXIT_HUNG 5

/* --- the protocol channel ------------------------------------------------------
 * The driver (validate/process.cc) gives the harness a pipe of its own for
 * its protocol lines, at the descriptor named by IDLESPEC_PROTOCOL_FD, and
 * keeps the code's own stdout apart (capped, summarised): a printf in the
 * code under test cannot forge or flood a result line. The descriptor is
 * taken out of the environment before anything else runs (the earliest
 * constructor priority) and is not inherited by a program the code execs.
 * Without the variable (a harness run by hand) the protocol is stdout. */
static int protocol_fd = 1;

__attribute__((constructor(101))) static void harness_protocol_fd(void) {
  const char *v = getenv("IDLESPEC_PROTOCOL_FD");
  if (!v) return;
  char *end;
  const long fd = strtol(v, &end, 10);
  if (end != v && !*end && fd > 2 && fd < 65536 && fcntl((int)fd, F_GETFD) >= 0) {
    fcntl((int)fd, F_SETFD, FD_CLOEXEC);
    protocol_fd = (int)fd;
  }
  unsetenv("IDLESPEC_PROTOCOL_FD");
}

/* --- output: buffered per input, written with write(2) ---------------------- */
static char out_buf[1 << 17];
static size_t out_len;

__attribute__((unused)) static void flush_out(void) {
  size_t off = 0;
  while (off < out_len) {
    const ssize_t w = write(protocol_fd, out_buf + off, out_len - off);
    if (w <= 0) break;
    off += (size_t)w;
  }
  out_len = 0;
}

static void emit(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void emit(const char *fmt, ...) {
  char line[1024];
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(line, sizeof(line) - 1, fmt, ap);
  va_end(ap);
  if (n < 0) return;
  if (n > (int)sizeof(line) - 2) n = (int)sizeof(line) - 2;
  for (int i = 0; i < n; i++)
    if (line[i] == '\n' || line[i] == '\r') line[i] = ' '; /* one line per record, always */
  line[n++] = '\n';
  if (out_len + (size_t)n > sizeof(out_buf)) flush_out();
  memcpy(out_buf + out_len, line, (size_t)n);
  out_len += (size_t)n;
}

/* --- findings the kernel code raises (WARN_ON, BUG_ON: kernel.h) ------------ */
static char warns[MAX_WARNS][320];
static unsigned nwarns;

static void add_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
__attribute__((unused)) static void add_warn(const char *fmt, ...) {
  if (nwarns >= MAX_WARNS) return;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(warns[nwarns], sizeof(warns[nwarns]), fmt, ap);
  va_end(ap);
  nwarns++;
}

__attribute__((unused)) static void shim_kernel_finding(const char *what, const char *cond,
                                                     const char *file, int line) {
  add_warn("%s(%s) fired at %s:%d", what, cond, file, line);
}

/* --- traps: crashes and hangs ------------------------------------------------- */
static sigjmp_buf recover;
static volatile sig_atomic_t in_call; /* the code under test is running */
static volatile sig_atomic_t trap_sig; /* > 0: the signal it crashed with; -1: hang */
static int traps;

static void on_crash(int sig) {
  if (!in_call) { /* the harness itself: do not hide it */
    signal(sig, SIG_DFL);
    raise(sig);
    return;
  }
  in_call = 0;
  trap_sig = sig;
  siglongjmp(recover, 1);
}

static void on_alarm(int sig) {
  (void)sig;
  if (!in_call) return;
  in_call = 0;
  trap_sig = -1;
  siglongjmp(recover, 1);
}

/* --- the hang backstop ----------------------------------------------------------
 * The watchdogs of the harnesses are signals (SIGALRM from setitimer, caught
 * on the main thread, which siglongjmps out of the call), and the code under
 * test can take signals away: sigprocmask / pthread_sigmask / a raw
 * rt_sigprocmask with every signal blocked, or SIGALRM set to SIG_IGN, then
 * a loop that never ends. The main thread then cannot be brought back, and a
 * driver that only sees the process end at its wall-clock limit has no input
 * to blame: an `error`, and the rest of the budget gone.
 *
 * The backstop is a thread of the harness, started with every signal blocked
 * before the first input. Why a thread rather than the driver's wall clock
 * alone: a signal mask is per thread (the code's sigprocmask changes the
 * calling thread's only), a disposition does not matter to a thread that
 * waits with clock_nanosleep and is never signalled, so nothing the code
 * does with signals reaches it; and the thread sees what the driver cannot:
 * the harness's progress (busy_delay's status in flight, idle_core's moves,
 * which keep a long exploration from looking like a hang) and the state of
 * the input in flight, so the hang line it writes is the one the signal
 * watchdog would have written (the harness's backstop_report), and the
 * driver judges a hang in the one place it already does, whichever watchdog
 * saw it.
 *
 * It acts only when the signal watchdog had its chance: `in_call` set and
 * the pulse (backstop_pulse(): the harness's measure of progress, by default
 * watchdog_pulse, bumped each time a watchdog is armed) unchanged for
 * BACKSTOP_SECONDS. The main thread is inside the code under test then, so
 * the thread writes the hang line of the input in flight and ends the
 * process with HARNESS_EXIT_HUNG; the driver resumes after that input as
 * after a crash. (The main thread does not touch the output buffer while
 * in_call is set, so the thread may use it; a call that returns in the very
 * instant the thread decides is still one that ran for BACKSTOP_SECONDS.)
 * A process the code forks has no backstop thread: the driver's wall clock
 * is the last resort there. */
static volatile unsigned long watchdog_pulse;
static unsigned long (*backstop_pulse)(void);
static void (*backstop_report)(void);

static double backstop_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void *backstop_main(void *arg) {
  (void)arg;
  unsigned long seen = 0;
  int stuck = 0; /* in_call and the same pulse at the last look */
  double since = 0;
  const struct timespec tick = {0, 100 * 1000 * 1000};
  for (;;) {
    clock_nanosleep(CLOCK_MONOTONIC, 0, &tick, NULL);
    const unsigned long pulse = backstop_pulse ? backstop_pulse() : watchdog_pulse;
    if (!in_call || !stuck || pulse != seen) {
      seen = pulse;
      stuck = in_call != 0;
      since = backstop_now();
      continue;
    }
    if (backstop_now() - since < BACKSTOP_SECONDS) continue;
    if (backstop_report) backstop_report();
    flush_out();
    _exit(HARNESS_EXIT_HUNG);
  }
  return NULL;
}

/* Once per process, before the first input: every signal blocked in the
 * thread (a process-directed SIGALRM must reach the main thread's handler,
 * never this one). A harness that cannot start it says so and stops: it
 * would be one that a signal mask can hang. */
static void start_backstop(void) {
  static int started;
  if (started) return;
  sigset_t all, old;
  sigfillset(&all);
  pthread_sigmask(SIG_SETMASK, &all, &old);
  pthread_t t;
  const int err = pthread_create(&t, NULL, backstop_main, NULL);
  pthread_sigmask(SIG_SETMASK, &old, NULL);
  if (err) {
    emit("ABORT cannot start the hang backstop thread: %s", strerror(err));
    flush_out();
    exit(3);
  }
  pthread_detach(t);
  started = 1;
}

__attribute__((unused)) static void install_traps(void) {
  struct sigaction sa;
  memset(&sa, 0, sizeof(sa));
  sa.sa_handler = on_crash;
  sa.sa_flags = SA_NODEFER;
  sigaction(SIGSEGV, &sa, NULL);
  sigaction(SIGBUS, &sa, NULL);
  sigaction(SIGFPE, &sa, NULL);
  sigaction(SIGILL, &sa, NULL);
  sa.sa_handler = on_alarm;
  sigaction(SIGALRM, &sa, NULL);
  start_backstop();
}

__attribute__((unused)) static void watchdog(int seconds) {
  watchdog_pulse++;
  struct itimerval it;
  memset(&it, 0, sizeof(it));
  it.it_value.tv_sec = seconds;
  setitimer(ITIMER_REAL, &it, NULL);
}

__attribute__((unused)) static const char *signal_name(int sig) {
  return sig == SIGSEGV ? "SIGSEGV" : sig == SIGBUS ? "SIGBUS" : sig == SIGFPE ? "SIGFPE"
                                                                : sig == SIGILL ? "SIGILL" : "signal";
}

/* --- input ------------------------------------------------------------------- */
static unsigned long line_no;

__attribute__((noreturn)) static void bad_input(const char *why) {
  emit("ABORT bad input line %lu: %s", line_no, why);
  flush_out();
  exit(2);
}


__attribute__((unused)) static void trace_at(bool trace, long long id) {
  if (!trace) return;
  char line[48];
  const int n = snprintf(line, sizeof(line), "AT %lld\n", id);
  const ssize_t w = write(2, line, (size_t)n);
  (void)w;
}

/* --- the input loop ------------------------------------------------------------ */
/* One input per line: "<id> <field>..." (blank lines skipped). A line with
 * fewer than min_fields or more than max_fields fields after the id aborts
 * with `expect`. `each` runs the input; its output is flushed after it.
 * Ends with "DONE <inputs run>". */
typedef void (*harness_input_fn)(long long id, char **fields, int nfields, bool trace);

__attribute__((unused)) static int harness_input_loop(harness_input_fn each, int min_fields,
                                                     int max_fields, const char *expect,
                                                     bool trace) {
  char *line = NULL;
  size_t cap = 0;
  ssize_t len;
  unsigned long count = 0;
  while ((len = getline(&line, &cap, stdin)) >= 0) {
    line_no++;
    while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r' || line[len - 1] == ' ')) line[--len] = 0;
    char *save = NULL, *fields[16];
    char *f_id = strtok_r(line, " \t", &save);
    if (!f_id) continue; /* blank */
    int nf = 0;
    for (char *x; (x = strtok_r(NULL, " \t", &save));) {
      if (nf >= max_fields || nf >= 16) bad_input(expect);
      fields[nf++] = x;
    }
    if (nf < min_fields) bad_input(expect);
    char *end;
    const long long id = strtoll(f_id, &end, 10);
    if (end == f_id || *end) bad_input("id is not a decimal integer");
    each(id, fields, nf, trace);
    count++;
    flush_out();
  }
  free(line);
  emit("DONE %lu", count);
  flush_out();
  return 0;
}
