/*
 * What the cpuidle governor harnesses (harness_governor.c, harness_teo.c)
 * share: the driver and device they run a governor on, the state table and
 * the steps decoded from an input line, the scenario each step sets, and the
 * end of an input (its crash or hang, its kernel warnings, too many traps).
 *
 * Included by each, after harness_runtime.c, where the file under test has
 * the governor's select function (the harness is otherwise only its main()).
 * The input, one line each: "<id> <hz> <states> <steps> ...", where
 * states: comma-separated "<exit latency ns>:<target residency ns>:<flags>",
 * flags "-" or letters p (CPUIDLE_FLAG_POLLING, and a proposed patch's
 * CPUIDLE_FLAG_POLLING_SOFT: shims/cpuidle.h), d (disabled by the user:
 * states_usage[i].disable); steps: semicolon-separated
 *   <latency_req ns>/<sleep length ns>/<delta_tick ns>/<tick stopped 0|1>/
 *   <residency ns>/<tick woke 0|1>/<poll_time_limit 0|1>[/<entered 0|1>]
 * (seven numbers for TEO, eight for menu; the sleep length and delta_tick are
 * s64 bit patterns, decimal).
 */
#include <errno.h>

struct gov_step {
  unsigned long long latency_req, sleep_length, delta_tick, residency;
  int tick_stopped, got_tick, poll_time_limit, entered;
};

static struct cpuidle_driver drv;
static struct cpuidle_device dev;
static struct gov_step steps[MAX_STEPS];
static unsigned nsteps;
/* The WARN_ON/BUG_ON hits written so far in this input (the rest are
 * written at its end). */
static unsigned warns_emitted;

static unsigned long long number(char **p, const char *what) {
  char *end;
  errno = 0;
  const unsigned long long v = strtoull(*p, &end, 10);
  if (end == *p || errno) bad_input(what);
  *p = end;
  return v;
}

static void parse_states(char *s) {
  memset(&drv, 0, sizeof(drv));
  memset(&dev, 0, sizeof(dev));
  drv.name = "idlespec";
  int n = 0;
  char *save = NULL;
  for (char *tok = strtok_r(s, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
    if (n >= CPUIDLE_STATE_MAX) bad_input("more than CPUIDLE_STATE_MAX states");
    char *p = tok;
    const unsigned long long exit_ns = number(&p, "exit latency is not a number");
    if (*p++ != ':') bad_input("a state is <exit>:<target>:<flags>");
    const unsigned long long target_ns = number(&p, "target residency is not a number");
    if (*p++ != ':') bad_input("a state is <exit>:<target>:<flags>");
    struct cpuidle_state *st = &drv.states[n];
    snprintf(st->name, sizeof(st->name), "S%d", n);
    st->exit_latency_ns = (s64)exit_ns;
    st->target_residency_ns = (s64)target_ns;
    st->exit_latency = (unsigned int)(exit_ns / 1000);
    st->target_residency = (unsigned int)(target_ns / 1000);
    for (; *p; p++) {
      if (*p == 'p')
        st->flags |= CPUIDLE_FLAG_POLLING | CPUIDLE_FLAG_POLLING_SOFT;
      else if (*p == 'd')
        dev.states_usage[n].disable = CPUIDLE_STATE_DISABLED_BY_USER;
      else if (*p != '-')
        bad_input("state flags are '-' or the letters p, d");
    }
    n++;
  }
  if (n == 0) bad_input("no states");
  drv.state_count = n;
}

/* `fields`: 7 (no "entered": every state is entered) or 8. */
static void parse_steps(char *s, int fields) {
  const char *what = fields == 8 ? "a step is eight numbers separated by '/'"
                                 : "a step is seven numbers separated by '/'";
  nsteps = 0;
  char *save = NULL;
  for (char *tok = strtok_r(s, ";", &save); tok; tok = strtok_r(NULL, ";", &save)) {
    if (nsteps >= MAX_STEPS) bad_input("too many steps");
    unsigned long long v[8] = {0, 0, 0, 0, 0, 0, 0, 1};
    char *p = tok;
    for (int k = 0; k < fields; k++) {
      v[k] = number(&p, what);
      if (k < fields - 1 && *p++ != '/') bad_input(what);
    }
    if (*p) bad_input("trailing characters in a step");
    struct gov_step *st = &steps[nsteps++];
    st->latency_req = v[0];
    st->sleep_length = v[1];
    st->delta_tick = v[2];
    st->tick_stopped = v[3] != 0;
    st->residency = v[4];
    st->got_tick = v[5] != 0;
    st->poll_time_limit = v[6] != 0;
    st->entered = v[7] != 0;
  }
}

/* The scenario at the start of an input: the tick of `hz`, the device with
 * `last_state_idx` and nothing learned of a previous period, no warnings. */
static void gov_reset_input(unsigned hz, int last_state_idx) {
  memset(&gov_env, 0, sizeof(gov_env));
  gov_env.tick_nsec = (1000000000ULL + hz / 2) / hz;
  gov_env.tick_usec = (1000000ULL + hz / 2) / hz;
  dev.cpu = 0;
  dev.last_state_idx = last_state_idx;
  dev.last_residency_ns = 0;
  dev.last_residency = 0;
  dev.poll_time_limit = 0;
  nwarns = warns_emitted = 0;
  trap_sig = 0;
}

/* What the tick layer and PM QoS answer during a step's selection
 * (`latency_req` in the unit of the file's era). */
static void gov_set_step(const struct gov_step *st, s64 latency_req) {
  gov_env.latency_req = latency_req;
  gov_env.sleep_length_ns = (s64)st->sleep_length;
  gov_env.delta_tick_ns = (s64)st->delta_tick;
  gov_env.tick_stopped = st->tick_stopped;
}

/* The input in flight, for the hang backstop (harness_runtime.c): the HANG
 * line the signal watchdog would have written, from the backstop's thread. */
static long long inflight_id;
static volatile long *inflight_step;

static void backstop_hang_line(void) {
  emit("HANG %lld %ld", inflight_id, inflight_step ? *inflight_step : 0L);
  for (unsigned i = warns_emitted; i < nwarns; i++) emit("WARN %lld %s", inflight_id, warns[i]);
}

/* The end of an input stopped at `step` (all its steps, or a trap): the
 * crash or hang, the warnings not yet written, and the end of the harness
 * after MAX_TRAPS traps. */
static void gov_end_input(long long id, long step) {
  if (trap_sig != 0) {
    traps++;
    if (trap_sig > 0)
      emit("CRASH %lld %ld %d %s", id, step, (int)trap_sig, signal_name(trap_sig));
    else
      emit("HANG %lld %ld", id, step);
  }
  for (unsigned i = warns_emitted; i < nwarns; i++) emit("WARN %lld %s", id, warns[i]);
  if (traps >= MAX_TRAPS) {
    emit("ABORT too many crashes/hangs");
    flush_out();
    exit(3);
  }
}
