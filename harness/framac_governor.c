/*
 * The Frama-C unit of the menu governor (spec/governor.md; validate/framac.h).
 *
 * Read by Frama-C (EVA) in place of harness_governor.c: after
 * shims/kernel.h, shims/governor_env.h and the code extracted from the file
 * under test (menu_select(), menu_update(), menu_reflect() where the file
 * has it, struct menu_device, the per-CPU menu_devices and the helpers).
 * Frama-C cannot parse the harness's _Generic, so the era comes in as -D
 * flags from the harness's own reading of the file (validate/governor_check.cc,
 * governor_defines()): HAVE_MENU_SELECT, HAVE_MENU_REFLECT,
 * MENU_NEXT_TIMER_US (struct menu_device keeps next_timer_us, v5.6 and
 * before, in microseconds) and MENU_SELECT_STOP_TICK (menu_select() takes
 * bool *stop_tick, v4.17 on).
 *
 * The abstract inputs are spec/governor.md's "Value ranges":
 *   - the table: every count of 1 .. CPUIDLE_STATE_MAX states, one
 *     analysis per count (GOV-7's bound is relational: the index against the
 *     count), each state with any exit latency and target residency below
 *     2^40 ns (in any order: GOV-7 is for every table), any flags, any
 *     disable flags;
 *   - the PM QoS limit 0 .. S32_MAX us (in ns, or in us for the us era), the
 *     time to the next timer and to the next tick below 2^40 ns (and down to
 *     -2^40 ns: the tick layer returns a negative time for an overdue event;
 *     the us era had none), the tick stopped or not, HZ 100 .. 1000, the
 *     tick woke the CPU or not, a polling state timed out or not, iowaiters
 *     0 .. PID_MAX_LIMIT (the 4.x .. 6.14 iowait weighting);
 *   - the per-CPU menu_device as any history leaves it: an update due or
 *     not, the last state any index of the table, the last residency below
 *     2^40 ns, the time to the next timer below 2^40 ns or KTIME_MAX (not
 *     consulted), any bucket, every correction factor 1 .. RESOLUTION * DECAY
 *     (the factor update keeps it there: spec/governor.md, GOV-5), every
 *     ring entry below 2^40 ns in us or UINT_MAX (a rejected entry's mark),
 *     any ring position.
 * Then menu_select() (which runs menu_update() when an update is due),
 * menu_reflect() with that choice and a second menu_select(): the second
 * learns from the first's own choice and time to the next timer.
 *
 * GOV-5 (no arithmetic in the predictor or menu_update() wraps, nothing
 * divides by zero) is EVA's own alarms in the code, with the signed and
 * unsigned overflow alarms on; GOV-7 (for every table: the index is within
 * it, GOV-1 and GOV-4 hold) is the assertion GOV_7: after each selection
 * the index and GOV-4 (no tick stopped for a polling state unless it was),
 * and GOV-1 (the state enabled) on tables of 3 states under every pattern
 * of disable flags that leaves a state enabled (fc_gov1(), one analysis per
 * pattern: 7). GOV-1 is not asserted with the flags abstract: "the flag of
 * the state at the chosen index is clear" relates the index to the flags,
 * which EVA's non-relational domains lose (the index an interval, each
 * flag 0 or any), so such an assertion stays unproven on every text, a
 * right one too; with the pattern concrete, the set of indices the code can
 * compute is a small set EVA keeps exactly, and the assertion is that the
 * pattern's bit of each is set. Not covered: tables of other sizes (2^10
 * patterns at 10 states, each a selection's analysis), and a driver flag
 * that disagrees with the user's (the core folds the driver's into the
 * user's from v5.5 on). Whatever EVA cannot prove keeps the clause at
 * "tested".
 */
#include "framac_driver.h"

#ifdef HAVE_MENU_SELECT
#define FC_RANGE_NS ((1LL << 40) - 1)    /* times, latencies, residencies: below 2^40 ns */
#define FC_RANGE_US (FC_RANGE_NS / 1000) /* ... in us: the ring's samples */
#define FC_LIMIT_US 2147483647LL         /* S32_MAX us: "no constraint" */
#define FC_PID_MAX_LIMIT 4194304UL       /* iowaiters: at most every task */
#define FC_RESOLUTION 1024               /* spec/governor.md: the correction factor's unit */
#define FC_DECAY 8                       /* ... and its decay */

static struct cpuidle_driver fc_drv;
static struct cpuidle_device fc_dev;

/* Any table of `count` states, in any order. */
static void fc_table(int count) {
  int i;
  fc_drv.state_count = count;
  for (i = 0; i < CPUIDLE_STATE_MAX; i++) {
    struct cpuidle_state* s = &fc_drv.states[i];
    s->exit_latency_ns = Frama_C_long_long_interval(0, FC_RANGE_NS);
    s->target_residency_ns = Frama_C_long_long_interval(0, FC_RANGE_NS);
    s->exit_latency = (unsigned int)(s->exit_latency_ns / 1000);
    s->target_residency = (unsigned int)(s->target_residency_ns / 1000);
    s->flags = Frama_C_unsigned_int_interval(0, UINT_MAX);
    s->disabled = Frama_C_interval(0, 1);
    fc_dev.states_usage[i].disable = Frama_C_unsigned_long_long_interval(0, ULLONG_MAX);
  }
}

/* The world of one selection: the limit, the tick layer, the scheduler. */
static void fc_world(void) {
#ifdef MENU_NEXT_TIMER_US
  gov_env.latency_req = Frama_C_long_long_interval(0, FC_LIMIT_US);
  gov_env.sleep_length_ns = Frama_C_long_long_interval(0, FC_RANGE_NS);
  gov_env.delta_tick_ns = Frama_C_long_long_interval(0, FC_RANGE_NS);
#else
  gov_env.latency_req = Frama_C_long_long_interval(0, FC_LIMIT_US * 1000);
  gov_env.sleep_length_ns = Frama_C_long_long_interval(-FC_RANGE_NS, FC_RANGE_NS);
  gov_env.delta_tick_ns = Frama_C_long_long_interval(-FC_RANGE_NS, FC_RANGE_NS);
#endif
  gov_env.tick_stopped = Frama_C_interval(0, 1);
  gov_env.got_tick = Frama_C_interval(0, 1);
  gov_env.iowaiters = Frama_C_unsigned_long_interval(0, FC_PID_MAX_LIMIT);
  /* HZ 100 .. 1000 */
  gov_env.tick_nsec = Frama_C_unsigned_long_long_interval(1000000, 10000000);
  gov_env.tick_usec = gov_env.tick_nsec / 1000;
}

/* The idle period just ended: its residency and how it ended. */
static void fc_period(void) {
  const long long ns = Frama_C_long_long_interval(0, FC_RANGE_NS);
  fc_dev.last_residency_ns = (u64)ns;
  fc_dev.last_residency = (int)(ns / 1000);
  fc_dev.poll_time_limit = Frama_C_interval(0, 1);
}

/* struct menu_device as any history leaves it. */
static void fc_history(int count) {
  unsigned i;
  struct menu_device* data = &menu_devices;
  data->needs_update = Frama_C_interval(0, 1);
  data->tick_wakeup = Frama_C_interval(0, 1);
#ifdef MENU_NEXT_TIMER_US
  data->next_timer_us = Frama_C_unsigned_int_interval(0, (unsigned int)FC_RANGE_US);
#else
  data->next_timer_ns =
      Frama_C_nondet(0, 1) ? (u64)KTIME_MAX : Frama_C_unsigned_long_long_interval(0, FC_RANGE_NS);
#endif
  data->bucket = Frama_C_unsigned_int_interval(0, ARRAY_SIZE(data->correction_factor) - 1);
  for (i = 0; i < ARRAY_SIZE(data->correction_factor); i++)
    data->correction_factor[i] = Frama_C_unsigned_int_interval(1, FC_RESOLUTION * FC_DECAY);
  for (i = 0; i < ARRAY_SIZE(data->intervals); i++)
    data->intervals[i] = Frama_C_nondet(0, 1)
                             ? UINT_MAX
                             : Frama_C_unsigned_int_interval(0, (unsigned int)FC_RANGE_US);
  data->interval_ptr = Frama_C_interval(0, (int)ARRAY_SIZE(data->intervals) - 1);
  fc_dev.cpu = 0;
  fc_dev.last_state_idx = Frama_C_interval(0, count - 1);
  fc_period();
}

/* What the selection asked of the tick (v4.17 on): GOV-4's. */
static bool fc_stop_tick;

static int fc_select(void) {
  int idx;
#ifdef MENU_SELECT_STOP_TICK
  bool stop_tick = true;
  idx = menu_select(&fc_drv, &fc_dev, &stop_tick);
  fc_stop_tick = stop_tick;
#else
  idx = menu_select(&fc_drv, &fc_dev);
#endif
  return idx;
}

/* One table size: a selection from any history, the period, the next. */
static void fc_tables_of(int count) {
  int idx;
  fc_table(count);
  fc_history(count);
  fc_world();
  idx = fc_select();
  /*@ assert GOV_7: 0 <= idx < fc_drv.state_count; */
  /*@ assert GOV_7: !(fc_drv.states[idx].flags & CPUIDLE_FLAG_POLLING) || !fc_stop_tick ||
        gov_env.tick_stopped; */
  /*@ assert GOV_5: \true; */
  fc_period();
  gov_env.got_tick = Frama_C_interval(0, 1);
  (void)GOV_REFLECT(&fc_dev, idx);
  fc_world();
  idx = fc_select();
  /*@ assert GOV_7: 0 <= idx < fc_drv.state_count; */
  /*@ assert GOV_7: !(fc_drv.states[idx].flags & CPUIDLE_FLAG_POLLING) || !fc_stop_tick ||
        gov_env.tick_stopped; */
  /*@ assert GOV_5: \true; */
}

/* GOV-1 where EVA can decide it: a table of FC_GOV1_STATES states (the
 * unit unrolls the walk's loop that far, validate/framac.cc) whose enabled
 * states are the set bits of `mask`, not 0 (the user's flag and the
 * driver's agree: the core folds the driver's into the user's from v5.5 on,
 * and older menu_select()s read both; a disabled state's flag any value
 * but 0), a latency limit above 0, from any history in any world
 * otherwise: none of GOV-1's exceptions applies (a state is enabled, the
 * limit is not 0, the table has more than one state), so the choice is an
 * enabled state. */
#define FC_GOV1_STATES 3
#define FC_GOV1_MASKS (1 << FC_GOV1_STATES)
static void fc_gov1(int mask) {
  int i, idx;
  fc_table(FC_GOV1_STATES);
  for (i = 0; i < FC_GOV1_STATES; i++) {
    const int enabled = (mask >> i) & 1;
    fc_drv.states[i].disabled = !enabled;
    fc_dev.states_usage[i].disable =
        enabled ? 0 : Frama_C_unsigned_long_long_interval(1, ULLONG_MAX);
  }
  fc_history(FC_GOV1_STATES);
  fc_world();
#ifdef MENU_NEXT_TIMER_US
  gov_env.latency_req = Frama_C_long_long_interval(1, FC_LIMIT_US);
#else
  gov_env.latency_req = Frama_C_long_long_interval(1, FC_LIMIT_US * 1000);
#endif
  idx = fc_select();
  if ((mask & (mask - 1)) == 0) {
    /* One enabled state: that state. */
    /*@ assert GOV_7: 0 <= idx < FC_GOV1_STATES && (1 << idx) == mask; */
  } else {
    /* Several: one of them. EVA proves this where the walk and the
     * tick-kept step back are one function (upstream's menu_select()); where
     * they are helpers (this suite's faithful file) EVA joins the walk's
     * picks at the call of the step back, and the index that step computes
     * from the join is any of the three: unproven on right code there. */
    /*@ assert GOV_7: 0 <= idx < FC_GOV1_STATES && ((mask >> idx) & 1) == 1; */
  }
}

int main(void) {
  int count, mask;
  for (count = 1; count <= CPUIDLE_STATE_MAX; count++) fc_tables_of(count);
  /*@ loop unroll FC_GOV1_MASKS; */
  for (mask = 1; mask < FC_GOV1_MASKS; mask++) fc_gov1(mask);
  /*@ assert FC_END: \true; */
  return 0;
}
#else
int main(void) { return 0; }
#endif
