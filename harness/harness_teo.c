/*
 * The TEO harness of `idlespec validate` (spec/teo.md).
 *
 * Compiled in one translation unit after harness/shims/kernel.h,
 * harness/shims/teo_env.h and the code extracted from the file under test
 * (teo_select(), teo_reflect(), teo_update() with struct teo_cpu, struct
 * teo_bin, the per-CPU teo_cpus and the helpers). The driver defines
 * HAVE_TEO_SELECT when it found teo_select(), and one TEO_HAVE_<field> per
 * member of struct teo_cpu / struct teo_bin the file's struct has
 * (TEO_HAVE_RECENT: bins' recent and the recent_idx ring of 6.1;
 * TEO_HAVE_TICK_HITS: 6.12; TEO_HAVE_TOTAL_TICK, TEO_HAVE_TICK_INTERCEPTS,
 * TEO_HAVE_SHORT_IDLES, TEO_HAVE_TICK_WAKEUP: v6.19 and later;
 * TEO_HAVE_TIME_SPAN: 6.1, 6.12; TEO_HAVE_UTIL_THRESHOLD: v6.3 to v6.10's
 * util-awareness).
 *
 *   harness_teo [trace]   inputs on stdin, results on stdout
 *
 * Input, one line each (blank lines are skipped):
 *   <id> <hz> <states> <steps> [util=<sched_cpu_util()>]
 * states: comma-separated "<exit latency ns>:<target residency ns>:<flags>",
 * flags "-" or letters p (CPUIDLE_FLAG_POLLING and CPUIDLE_FLAG_POLLING_SOFT),
 * d (states_usage[i].disable);
 * steps: semicolon-separated
 *   <latency_req ns>/<sleep length ns>/<delta_tick ns>/<tick stopped 0|1>/
 *   <residency ns>/<tick woke 0|1>/<poll_time_limit 0|1>
 *
 * The table and the steps are read, the scenario set and an input ended by
 * harness_cpuidle.c (what this harness shares with the other governor's).
 *
 * Per input the per-CPU struct teo_cpu starts as teo_enable_device() leaves
 * it (zeroed; 6.1's recent slots -1; util_threshold as v6.3's sets it,
 * the capacity shifted by the file's UTIL_THRESHOLD_SHIFT; sched_cpu_util()
 * answers the input's util, 0 when not given) and dev->last_state_idx = -1 (nothing
 * to learn at the first selection). Per step: the scenario is set,
 * teo_select(drv, dev, &stop_tick) runs (stop_tick preset true, the core's
 * default; teo_update() of the previous period runs inside it, as in the
 * kernel), then the idle period: local_clock() advances by the residency,
 * dev->last_residency_ns and dev->poll_time_limit are set and
 * teo_reflect(dev, idx) runs with tick_nohz_idle_got_tick() answering the
 * step's "tick woke".
 *
 * Output, per input:
 *   S <id> <step> idx=<i> stop_tick=<0|1> timer=<0|1>   each selection
 *   M <id> <step> <metrics>     struct teo_cpu after that selection:
 *       sl=<sleep_length_ns> total=<t> h=<hits,...> i=<intercepts,...>
 *       [r=<recent,...> nri=<next_recent_idx> ri=<recent_idx,...>]
 *       [tick_hits=] [total_tick=] [tick_intercepts=] [short_idles=]
 *       [tick_wakeup=]  (the members the file's struct has)
 *   WARN <id> step <k> in <function>: <text>   a WARN_ON/BUG_ON hit in that
 *       step's teo_select() or teo_reflect() (or "WARN <id> <text>" when
 *       the step is not known: a hit before a crash)
 *   CRASH <id> <step> <signal> <name> | HANG <id> <step>
 * After all inputs: DONE <inputs run>.
 */
#include <errno.h>

#define MAX_STEPS 256

#include "harness_runtime.c"

#ifdef HAVE_TEO_SELECT
#include "harness_cpuidle.c"

/* --- the per-CPU metrics -------------------------------------------------------- */
static void emit_metrics(long long id, long step) {
  const struct teo_cpu *c = &teo_cpus;
  char h[512], in[512];
  size_t hl = 0, il = 0;
  h[0] = in[0] = 0;
  for (int b = 0; b < drv.state_count; b++) {
    hl += (size_t)snprintf(h + hl, sizeof(h) - hl, "%s%u", b ? "," : "", (unsigned)c->state_bins[b].hits);
    il += (size_t)snprintf(in + il, sizeof(in) - il, "%s%u", b ? "," : "",
                           (unsigned)c->state_bins[b].intercepts);
  }
  char extra[1024];
  size_t el = 0;
  extra[0] = 0;
#ifdef TEO_HAVE_RECENT
  el += (size_t)snprintf(extra + el, sizeof(extra) - el, " r=");
  for (int b = 0; b < drv.state_count; b++)
    el += (size_t)snprintf(extra + el, sizeof(extra) - el, "%s%u", b ? "," : "", (unsigned)c->state_bins[b].recent);
  el += (size_t)snprintf(extra + el, sizeof(extra) - el, " nri=%d ri=", (int)c->next_recent_idx);
  for (unsigned j = 0; j < ARRAY_SIZE(c->recent_idx); j++)
    el += (size_t)snprintf(extra + el, sizeof(extra) - el, "%s%d", j ? "," : "", (int)c->recent_idx[j]);
#endif
#ifdef TEO_HAVE_TICK_HITS
  el += (size_t)snprintf(extra + el, sizeof(extra) - el, " tick_hits=%u", (unsigned)c->tick_hits);
#endif
#ifdef TEO_HAVE_TOTAL_TICK
  el += (size_t)snprintf(extra + el, sizeof(extra) - el, " total_tick=%u", (unsigned)c->total_tick);
#endif
#ifdef TEO_HAVE_TICK_INTERCEPTS
  el += (size_t)snprintf(extra + el, sizeof(extra) - el, " tick_intercepts=%u", (unsigned)c->tick_intercepts);
#endif
#ifdef TEO_HAVE_SHORT_IDLES
  el += (size_t)snprintf(extra + el, sizeof(extra) - el, " short_idles=%u", (unsigned)c->short_idles);
#endif
#ifdef TEO_HAVE_TICK_WAKEUP
  el += (size_t)snprintf(extra + el, sizeof(extra) - el, " tick_wakeup=%d", c->tick_wakeup ? 1 : 0);
#endif
  (void)el;
  emit("M %lld %ld sl=%lld total=%u h=%s i=%s%s", id, step, (long long)c->sleep_length_ns,
       (unsigned)c->total, h, in, extra);
}

/* --- one input ----------------------------------------------------------------- */
/* The WARN_ON/BUG_ON hits of the call that just returned, with its step and
 * name: "WARN <id> step <k> in teo_select(): <text>". */
static void emit_warns(long long id, long step, const char *where) {
  for (; warns_emitted < nwarns; warns_emitted++)
    emit("WARN %lld step %ld in %s: %s", id, step, where, warns[warns_emitted]);
}

static void run_input(long long id, bool trace, unsigned hz) {
  static volatile long step;
  static volatile int idx;

  memset(&teo_cpus, 0, sizeof(teo_cpus));
#ifdef TEO_HAVE_RECENT
  for (unsigned j = 0; j < ARRAY_SIZE(teo_cpus.recent_idx); j++) teo_cpus.recent_idx[j] = -1;
#endif
#if defined(TEO_HAVE_UTIL_THRESHOLD) && defined(UTIL_THRESHOLD_SHIFT)
  teo_cpus.util_threshold = arch_scale_cpu_capacity(0) >> UTIL_THRESHOLD_SHIFT;
#endif
  gov_reset_input(hz, -1);
  teo_env_clock_ns = 1000000000ULL;

  inflight_id = id;
  inflight_step = &step;
  trace_at(trace, id);
  step = 0;
  if (sigsetjmp(recover, 1) == 0) {
    watchdog(WATCHDOG_SECONDS);
    for (step = 0; step < (long)nsteps; step++) {
      const struct gov_step *st = &steps[step];
      gov_set_step(st, (s64)st->latency_req);
      const unsigned calls_before = gov_env.sleep_length_calls;
      bool stop = true;
      in_call = 1;
      idx = teo_select(&drv, &dev, &stop);
      in_call = 0;
      emit_warns(id, step, "teo_select()");
      emit("S %lld %ld idx=%d stop_tick=%d timer=%d", id, step, idx, stop ? 1 : 0,
           gov_env.sleep_length_calls != calls_before ? 1 : 0);
      emit_metrics(id, step);
      /* The idle period. */
      teo_env_clock_ns += st->residency;
      dev.last_residency_ns = st->residency;
      dev.poll_time_limit = st->poll_time_limit ? 1 : 0;
      gov_env.got_tick = st->got_tick;
      in_call = 1;
      teo_reflect(&dev, idx);
      in_call = 0;
      emit_warns(id, step, "teo_reflect() or the update");
    }
    watchdog(0);
  } else {
    watchdog(0);
  }
  gov_end_input(id, step);
}

static void teo_input(long long id, char **f, int nf, bool trace) {
  char *end;
  teo_env_util = 0;
  if (nf > 3) {
    if (strncmp(f[3], "util=", 5)) bad_input("the fourth field is not util=<value>");
    errno = 0;
    teo_env_util = strtoul(f[3] + 5, &end, 10);
    if (end == f[3] + 5 || *end || errno) bad_input("util is not a number");
  }
  const long hz = strtol(f[0], &end, 10);
  if (end == f[0] || *end || hz < 1 || hz > 100000) bad_input("hz is not a number in 1..100000");
  parse_states(f[1]);
  parse_steps(f[2], 7);
  run_input(id, trace, (unsigned)hz);
}
#endif

static int usage(void) {
  fprintf(stderr, "usage: harness_teo [trace]  (inputs on stdin: <id> <hz> <states> <steps>)\n");
  return 2;
}

int main(int argc, char **argv) {
  bool trace = false;
  if (argc > 2) return usage();
  if (argc == 2) {
    if (strcmp(argv[1], "trace") && strcmp(argv[1], "boundary")) return usage();
    trace = true;
  }
#ifndef HAVE_TEO_SELECT
  (void)trace;
  emit("ABSENT teo_select");
  emit("DONE 0");
  flush_out();
  return 0;
#else
  backstop_report = backstop_hang_line;
  install_traps();
  return harness_input_loop(teo_input, 3, 4,
                            "expected four or five fields: <id> <hz> <states> <steps> [util=N]",
                            trace);
#endif
}
