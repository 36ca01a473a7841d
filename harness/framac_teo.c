/*
 * The Frama-C unit of teo (spec/teo.md, TEO-6; validate/framac.h).
 *
 * Read by Frama-C (EVA) in place of harness_teo.c: after shims/kernel.h,
 * shims/teo_env.h and the code extracted from the file under test
 * (teo_select(), teo_reflect(), teo_update(), their helpers and the per-CPU
 * teo_cpus). The era's members come as harness_teo.c's TEO_HAVE_<member>
 * flags, from the same reading of the file's struct teo_cpu.
 *
 * The abstract inputs are spec/teo.md's "Value ranges": a table of 1 to
 * CPUIDLE_STATE_MAX states (one partition per size), each exit latency and
 * target residency any value below 2^62 ns, any POLLING and disable flags;
 * a PM QoS limit, sleep length, delta_next and residency below 2^62 ns, the
 * tick stopped or not, woken by the tick or not, a polling time-out or not;
 * TICK_NSEC of HZ = 100, 250 or 1000. The metrics start in TEO-6's state,
 * built so: every metric any value in 0..8199 (8 x PULSE + 7), `total` any
 * value from the bins' sum to (2n + 2) x 8199; 6.1's ring any slots in
 * -1..n-1 with each bin's recent count the number of slots naming it.
 *
 * main() runs one period as the kernel does: teo_select() (no update: the
 * metrics as they are), the idle period (the clock advances by the
 * residency), teo_reflect() with the entered state, then teo_select() again,
 * which runs teo_update() first. After it, "assert TEO_6:" states the
 * bounds; the overflow alarms EVA raises in the code (`total - idx_hit_sum`,
 * the doubled sums) are the rest of the clause. What EVA cannot prove keeps
 * TEO-6 at "tested" with the alarm named: its domains are non-relational, so
 * `total`'s lower bound (the bins' sum) and `total - idx_hit_sum` are beyond
 * them (docs/validate.md).
 */
#include "framac_driver.h"

#define FC_METRIC_MAX 8199u         /* 8 x PULSE + 7 */
#define FC_NS_MAX ((1LL << 62) - 1) /* spec/teo.md: times and table values below 2^62 */

#if defined(HAVE_TEO_SELECT) && defined(HAVE_TEO_REFLECT)
static struct cpuidle_driver fc_drv;
static struct cpuidle_device fc_dev;

static unsigned fc_metric(void) { return Frama_C_unsigned_int_interval(0, FC_METRIC_MAX); }

/* One selection's scenario: the limit, the tick layer, TICK_NSEC. */
static void fc_scenario(void) {
  gov_env.latency_req = Frama_C_long_long_interval(0, FC_NS_MAX);
  gov_env.sleep_length_ns = Frama_C_long_long_interval(0, FC_NS_MAX);
  gov_env.delta_tick_ns = Frama_C_long_long_interval(0, FC_NS_MAX);
  gov_env.tick_stopped = Frama_C_interval(0, 1);
}

/* The bins' hits and intercepts of the first n bins. */
static unsigned fc_bins_sum(int n) {
  unsigned sum = 0;
  int b;
  for (b = 0; b < n; b++) sum += teo_cpus.state_bins[b].hits + teo_cpus.state_bins[b].intercepts;
  return sum;
}

int main(void) {
  const unsigned hz[3] = {100, 250, 1000};
  int n, b, idx;
  unsigned k;

  n = Frama_C_interval(1, CPUIDLE_STATE_MAX);
  /*@ split n; */
  k = Frama_C_unsigned_int_interval(0, 2);
  gov_env.tick_nsec = (1000000000ULL + hz[k] / 2) / hz[k];
  gov_env.tick_usec = (1000000ULL + hz[k] / 2) / hz[k];

  /* The table. */
  fc_drv.state_count = n;
  for (b = 0; b < n; b++) {
    struct cpuidle_state* st = &fc_drv.states[b];
    st->exit_latency_ns = Frama_C_long_long_interval(0, FC_NS_MAX);
    st->target_residency_ns = Frama_C_long_long_interval(0, FC_NS_MAX);
    st->flags = Frama_C_interval(0, 1) ? CPUIDLE_FLAG_POLLING : 0;
    fc_dev.states_usage[b].disable = Frama_C_interval(0, 1) ? CPUIDLE_STATE_DISABLED_BY_USER : 0;
  }
  fc_dev.cpu = 0;

  /* TEO-6's state: every metric at most 8199, total from the bins' sum to
   * (2n + 2) x 8199. */
  for (b = 0; b < n; b++) {
    teo_cpus.state_bins[b].hits = fc_metric();
    teo_cpus.state_bins[b].intercepts = fc_metric();
  }
  teo_cpus.total = Frama_C_unsigned_int_interval(fc_bins_sum(n), (2u * n + 2) * FC_METRIC_MAX);
#ifdef TEO_HAVE_TICK_HITS
  teo_cpus.tick_hits = fc_metric();
#endif
#ifdef TEO_HAVE_TOTAL_TICK
  teo_cpus.total_tick = fc_metric();
#endif
#ifdef TEO_HAVE_TICK_INTERCEPTS
  teo_cpus.tick_intercepts = fc_metric();
#endif
#ifdef TEO_HAVE_SHORT_IDLES
  teo_cpus.short_idles = fc_metric();
#endif
#ifdef TEO_HAVE_TICK_WAKEUP
  teo_cpus.tick_wakeup = Frama_C_interval(0, 1);
#endif
#ifdef TEO_HAVE_RECENT
  {
    unsigned j;
    teo_cpus.next_recent_idx = Frama_C_interval(0, (int)ARRAY_SIZE(teo_cpus.recent_idx) - 1);
    for (j = 0; j < ARRAY_SIZE(teo_cpus.recent_idx); j++) {
      teo_cpus.recent_idx[j] = Frama_C_interval(-1, n - 1);
      if (teo_cpus.recent_idx[j] >= 0) teo_cpus.state_bins[teo_cpus.recent_idx[j]].recent++;
    }
  }
#endif
  teo_env_clock_ns = 1000000000ULL; /* the start does not matter: only differences are read */

  /* A selection from that state, no update before it. */
  {
    bool stop = true;
    fc_dev.last_state_idx = -1;
    fc_scenario();
    idx = teo_select(&fc_drv, &fc_dev, &stop);
  }

  /* The idle period in the state entered, and its reflection. */
  {
    const s64 residency = Frama_C_long_long_interval(0, FC_NS_MAX);
    teo_env_clock_ns += (u64)residency;
    fc_dev.last_residency_ns = residency;
    fc_dev.poll_time_limit = Frama_C_interval(0, 1);
    gov_env.got_tick = Frama_C_interval(0, 1);
    teo_reflect(&fc_dev, idx);
  }

  /* The next selection: teo_update() first, then the sums over the metrics
   * it left. */
  {
    bool stop = true;
    fc_scenario();
    idx = teo_select(&fc_drv, &fc_dev, &stop);
    (void)idx;
  }

  for (b = 0; b < n; b++) {
    /*@ assert TEO_6: teo_cpus.state_bins[b].hits <= FC_METRIC_MAX; */
    /*@ assert TEO_6: teo_cpus.state_bins[b].intercepts <= FC_METRIC_MAX; */
  }
#ifdef TEO_HAVE_TICK_HITS
  /*@ assert TEO_6: teo_cpus.tick_hits <= FC_METRIC_MAX; */
#endif
#ifdef TEO_HAVE_TOTAL_TICK
  /*@ assert TEO_6: teo_cpus.total_tick <= FC_METRIC_MAX; */
#endif
#ifdef TEO_HAVE_TICK_INTERCEPTS
  /*@ assert TEO_6: teo_cpus.tick_intercepts <= FC_METRIC_MAX; */
#endif
#ifdef TEO_HAVE_SHORT_IDLES
  /*@ assert TEO_6: teo_cpus.short_idles <= FC_METRIC_MAX; */
#endif
  /*@ assert TEO_6: teo_cpus.total <= (2 * n + 2) * FC_METRIC_MAX; */
  {
    const unsigned sum = fc_bins_sum(n);
    /*@ assert TEO_6: sum <= teo_cpus.total; */
  }
#ifdef TEO_HAVE_RECENT
  {
    unsigned j;
    unsigned count[CPUIDLE_STATE_MAX] = {0};
    /*@ assert TEO_6: 0 <= teo_cpus.next_recent_idx < ARRAY_SIZE(teo_cpus.recent_idx); */
    for (j = 0; j < ARRAY_SIZE(teo_cpus.recent_idx); j++) {
      /*@ assert TEO_6: -1 <= teo_cpus.recent_idx[j] < n; */
      if (teo_cpus.recent_idx[j] >= 0) count[teo_cpus.recent_idx[j]]++;
    }
    for (b = 0; b < n; b++) {
      /*@ assert TEO_6: teo_cpus.state_bins[b].recent == count[b]; */
    }
  }
#endif
  /*@ assert FC_END: \true; */
  return 0;
}
#else
int main(void) { return 0; }
#endif
