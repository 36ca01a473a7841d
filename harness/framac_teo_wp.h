/*
 * WP's contract for teo (validate/framac.h): ACSL on declarations, read
 * after the code extracted from the file under test (the contract names
 * the per-CPU teo_cpus, which the code defines); Frama-C merges a
 * declaration's contract into the definition's, and WP proves it with Z3
 * through why3. The -D flags are the unit's (TEO_HAVE_<member>).
 *
 * TEO-6 between updates: teo_reflect() leaves every metric as it was, so
 * the metrics change only in teo_update(), whose one step the EVA unit
 * (framac_teo.c) bounds.
 */

/* The shims teo_reflect() calls: what they read and write. */
/*@ assigns gov_env.got_tick_calls;
    ensures \result == gov_env.got_tick; */
static inline bool tick_nohz_idle_got_tick(void);
/*@ assigns \nothing;
    ensures \result == teo_env_clock_ns; */
static inline u64 local_clock(void);

/*@ requires \valid(dev);
    ensures TEO_6: \forall integer b; 0 <= b < CPUIDLE_STATE_MAX ==>
      teo_cpus.state_bins[b].hits == \old(teo_cpus.state_bins[b].hits) &&
      teo_cpus.state_bins[b].intercepts == \old(teo_cpus.state_bins[b].intercepts);
    ensures TEO_6: teo_cpus.total == \old(teo_cpus.total); */
static void teo_reflect(struct cpuidle_device *dev, int state);

#ifdef TEO_HAVE_RECENT
/*@ ensures TEO_6: \forall integer b; 0 <= b < CPUIDLE_STATE_MAX ==>
      teo_cpus.state_bins[b].recent == \old(teo_cpus.state_bins[b].recent);
    ensures TEO_6: teo_cpus.next_recent_idx == \old(teo_cpus.next_recent_idx);
    ensures TEO_6: \forall integer j; 0 <= j < ARRAY_SIZE(teo_cpus.recent_idx) ==>
      teo_cpus.recent_idx[j] == \old(teo_cpus.recent_idx[j]); */
static void teo_reflect(struct cpuidle_device *dev, int state);
#endif
#ifdef TEO_HAVE_TICK_HITS
/*@ ensures TEO_6: teo_cpus.tick_hits == \old(teo_cpus.tick_hits); */
static void teo_reflect(struct cpuidle_device *dev, int state);
#endif
#ifdef TEO_HAVE_TOTAL_TICK
/*@ ensures TEO_6: teo_cpus.total_tick == \old(teo_cpus.total_tick); */
static void teo_reflect(struct cpuidle_device *dev, int state);
#endif
#ifdef TEO_HAVE_TICK_INTERCEPTS
/*@ ensures TEO_6: teo_cpus.tick_intercepts == \old(teo_cpus.tick_intercepts); */
static void teo_reflect(struct cpuidle_device *dev, int state);
#endif
#ifdef TEO_HAVE_SHORT_IDLES
/*@ ensures TEO_6: teo_cpus.short_idles == \old(teo_cpus.short_idles); */
static void teo_reflect(struct cpuidle_device *dev, int state);
#endif
