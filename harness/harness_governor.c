/*
 * The governor harness of `idlespec validate` (spec/governor.md).
 *
 * Compiled in one translation unit after harness/shims/kernel.h,
 * harness/shims/governor_env.h and the code extracted from the file under
 * test (menu_select(), menu_update(), menu_reflect() when the file has it,
 * with struct menu_device, the per-CPU menu_devices and the helpers). The
 * driver defines HAVE_MENU_SELECT when it found menu_select(),
 * HAVE_MENU_REFLECT when it found menu_reflect() (else the harness does what
 * it does: last_state_idx, needs_update, tick_wakeup), and
 * MENU_NEXT_TIMER_US when struct menu_device keeps next_timer_us (v5.x, in
 * microseconds; else next_timer_ns).
 *
 *   harness_governor [trace]   inputs on stdin, results on stdout; "trace"
 *                              writes "AT <id>" to stderr before each input
 *
 * Input, one line each (blank lines are skipped):
 *   <id> <hz> <states> <steps>
 * states: comma-separated "<exit latency ns>:<target residency ns>:<flags>",
 * flags "-" or letters p (CPUIDLE_FLAG_POLLING, and a proposed patch's
 * CPUIDLE_FLAG_POLLING_SOFT: shims/cpuidle.h), d (disabled by the user:
 * states_usage[i].disable); steps: semicolon-separated
 *   <latency_req ns>/<sleep length ns>/<delta_tick ns>/<tick stopped 0|1>/
 *   <residency ns>/<tick woke 0|1>/<poll_time_limit 0|1>/<entered 0|1>
 * (the sleep length and delta_tick are s64 bit patterns, decimal).
 *
 * The table and the steps are read, the scenario set and an input ended by
 * harness_cpuidle.c (what this harness shares with the other governor's).
 *
 * Per input the per-CPU struct menu_device starts as menu_enable_device()
 * leaves it (zeroed, every correction factor RESOLUTION * DECAY), and
 * dev->last_residency_ns = 0, as at boot. Per step: the scenario is set,
 * menu_select(drv, dev, &stop_tick) runs (stop_tick preset true, the core's
 * default), then the idle period: when entered, dev->last_residency_ns (and
 * v5.x's last_residency in us) and poll_time_limit are set and
 * menu_reflect(dev, idx) runs with tick_nohz_idle_got_tick() answering the
 * step's "tick woke"; when not entered (the driver rejected the state),
 * last_residency_ns = 0 and no reflect, as cpuidle_enter_state() does. The
 * learning happens in the next menu_select() (menu_update()).
 *
 * Output, per input:
 *   I <id> <state>                        the device before the first step
 *   S <id> <step> idx=<i> stop_tick=<0|1> timer=<0|1>  each selection; timer=1
 *                                         when it asked tick_nohz_get_sleep_length()
 *   U <id> <step> <state>                 the device after that selection
 *   T <id> <step> typical=<us>            what the file's get_typical_interval()
 *                                         answers on that ring (HAVE_TYPICAL_INTERVAL,
 *                                         a form that returns it)
 *   WARN <id> <text>                      WARN_ON/BUG_ON hits
 *   CRASH <id> <step> <signal> <name> | HANG <id> <step>   (the input stops there)
 * where <state> is "ptr=<interval_ptr> bucket=<b> next_timer=<v> unit=<ns|us>
 * f=<factor>,... iv=<interval>,..." (the first 6 correction factors: the
 * buckets without iowaiters). After all inputs: DONE <inputs run>. After 8
 * crashes/hangs "ABORT too many crashes/hangs" (exit 3); on a malformed
 * line "ABORT bad input line N: why" (exit 2).
 */
#include <errno.h>

#define MAX_STEPS 256

#include "harness_runtime.c"

#ifdef HAVE_MENU_SELECT
#include "harness_cpuidle.c"

/* menu_select(drv, dev, &stop_tick) since v4.17; menu_select(drv, dev)
 * before it, when the idle loop had stopped the tick already (stop_tick
 * stays true: that is what happened). The function's type picks the call;
 * each branch casts to its own type, only the matching one is evaluated. */
#define GOV_MENU_SELECT(drv, dev, stop)                                                           \
  _Generic(&menu_select,                                                                          \
      int (*)(struct cpuidle_driver *, struct cpuidle_device *):                                  \
          ((int (*)(struct cpuidle_driver *, struct cpuidle_device *))(void (*)(void))menu_select)( \
              drv, dev),                                                                          \
      default: ((int (*)(struct cpuidle_driver *, struct cpuidle_device *, bool *))(void (*)(void)) \
                    menu_select)(drv, dev, stop))
#define GOV_SELECT_HAS_STOP_TICK \
  _Generic(&menu_select, int (*)(struct cpuidle_driver *, struct cpuidle_device *): 0, default: 1)

#ifdef HAVE_TYPICAL_INTERVAL
/* get_typical_interval(data) since v6.15, get_typical_interval(data,
 * predicted_us) before it (UINT_MAX: no timer estimate cuts it short); a
 * void one (v4.x, which stored its result) is not called. The predictor
 * read the ring as menu_select() left it (the update and the rejected
 * entry's mark come before it), so calling it again on that ring gives the
 * typical interval the selection used; it changes nothing. -1: not probed. */
#define GOV_TYPICAL_INTERVAL(data)                                                                  \
  _Generic(&get_typical_interval,                                                                   \
      unsigned int (*)(struct menu_device *):                                                       \
          (long long)((unsigned int (*)(struct menu_device *))(void (*)(void))get_typical_interval)( \
              data),                                                                                \
      unsigned int (*)(const struct menu_device *):                                                 \
          (long long)((unsigned int (*)(const struct menu_device *))(void (*)(void))                \
                          get_typical_interval)(data),                                              \
      unsigned int (*)(struct menu_device *, unsigned int):                                         \
          (long long)((unsigned int (*)(struct menu_device *, unsigned int))(void (*)(void))         \
                          get_typical_interval)(data, UINT_MAX),                                    \
      default: -1LL)
#endif

/* --- the device's learned state ---------------------------------------------------- */
static void emit_device(const char *tag, long long id, long step) {
  const struct menu_device *data = &menu_devices;
  char f[256], iv[256];
  size_t fl = 0, il = 0;
  f[0] = iv[0] = 0;
  for (unsigned b = 0; b < 6 && b < ARRAY_SIZE(data->correction_factor); b++)
    fl += (size_t)snprintf(f + fl, sizeof(f) - fl, "%s%u", b ? "," : "", (unsigned)data->correction_factor[b]);
  for (unsigned i = 0; i < ARRAY_SIZE(data->intervals); i++)
    il += (size_t)snprintf(iv + il, sizeof(iv) - il, "%s%u", i ? "," : "", (unsigned)data->intervals[i]);
#ifdef MENU_NEXT_TIMER_US
  const unsigned long long next_timer = (unsigned long long)data->next_timer_us;
  const char *unit = "us";
#else
  const unsigned long long next_timer = (unsigned long long)data->next_timer_ns;
  const char *unit = "ns";
#endif
  if (step < 0)
    emit("%s %lld ptr=%d bucket=%u next_timer=%llu unit=%s f=%s iv=%s", tag, id, (int)data->interval_ptr,
         (unsigned)data->bucket, next_timer, unit, f, iv);
  else
    emit("%s %lld %ld ptr=%d bucket=%u next_timer=%llu unit=%s f=%s iv=%s", tag, id, step,
         (int)data->interval_ptr, (unsigned)data->bucket, next_timer, unit, f, iv);
}

/* --- one input ----------------------------------------------------------------- */
static void run_input(long long id, bool trace, unsigned hz) {
  static volatile long step;
  static volatile int idx;
  static volatile bool stop_tick;

  memset(&menu_devices, 0, sizeof(menu_devices));
  for (unsigned b = 0; b < ARRAY_SIZE(menu_devices.correction_factor); b++)
    menu_devices.correction_factor[b] = RESOLUTION * DECAY;
  gov_reset_input(hz, 0);

  inflight_id = id;
  inflight_step = &step;
  trace_at(trace, id);
  emit_device("I", id, -1);
  step = 0;
  if (sigsetjmp(recover, 1) == 0) {
    watchdog(WATCHDOG_SECONDS);
    for (step = 0; step < (long)nsteps; step++) {
      const struct gov_step *st = &steps[step];
#ifdef MENU_NEXT_TIMER_US
      gov_set_step(st, (s64)(st->latency_req / 1000)); /* v5.x: microseconds */
#else
      gov_set_step(st, (s64)st->latency_req);
#endif
      stop_tick = true;
      const unsigned calls_before = gov_env.sleep_length_calls;
      in_call = 1;
      bool stop = true;
      idx = GOV_MENU_SELECT(&drv, &dev, &stop);
      in_call = 0;
      stop_tick = stop;
      emit("S %lld %ld idx=%d stop_tick=%d timer=%d", id, step, idx, stop_tick ? 1 : 0,
           gov_env.sleep_length_calls != calls_before ? 1 : 0);
      emit_device("U", id, step);
#ifdef HAVE_TYPICAL_INTERVAL
      {
        in_call = 1;
        const long long typical = GOV_TYPICAL_INTERVAL(&menu_devices);
        in_call = 0;
        if (typical >= 0) emit("T %lld %ld typical=%lld", id, step, typical);
      }
#endif
      /* Before v4.4 a negative index meant "no state": the cpuidle core ran
       * the architecture's default idle and reflected nothing. The input
       * ends there (the driver judges the selections before it). */
      if (idx < 0 && !GOV_SELECT_HAS_STOP_TICK) break;
      /* The idle period. */
      if (st->entered) {
        dev.last_residency_ns = st->residency;
        dev.last_residency = (int)(st->residency / 1000);
        dev.poll_time_limit = st->poll_time_limit ? 1 : 0;
        gov_env.got_tick = st->got_tick;
        in_call = 1;
        (void)GOV_REFLECT(&dev, idx);
        in_call = 0;
      } else {
        dev.last_state_idx = idx;
        dev.last_residency_ns = 0;
        dev.last_residency = 0;
        dev.poll_time_limit = 0;
      }
    }
    watchdog(0);
  } else {
    watchdog(0);
  }
  gov_end_input(id, step);
}
#endif

static int usage(void) {
  fprintf(stderr, "usage: harness_governor [trace]  (inputs on stdin: <id> <hz> <states> <steps>)\n");
  return 2;
}

#ifdef HAVE_MENU_SELECT
static void governor_input(long long id, char **f, int nf, bool trace) {
  (void)nf;
  char *end;
  const long hz = strtol(f[0], &end, 10);
  if (end == f[0] || *end || hz < 1 || hz > 100000) bad_input("hz is not a number in 1..100000");
  parse_states(f[1]);
  parse_steps(f[2], 8);
  run_input(id, trace, (unsigned)hz);
}
#endif

int main(int argc, char **argv) {
  bool trace = false;
  if (argc > 2) return usage();
  if (argc == 2) {
    if (strcmp(argv[1], "trace") && strcmp(argv[1], "boundary")) return usage();
    trace = true;
  }
#ifndef HAVE_MENU_SELECT
  (void)trace;
  emit("ABSENT menu_select");
  emit("DONE 0");
  flush_out();
  return 0;
#else
  backstop_report = backstop_hang_line;
  install_traps();
  return harness_input_loop(governor_input, 3, 3, "expected four fields: <id> <hz> <states> <steps>",
                            trace);
#endif
}
