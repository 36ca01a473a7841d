/*
 * menu_select() in the shape of v4.4 to v4.12 (after 9c4b2867ed7c, before
 * v4.13's "allow state 0 to be disabled"), written for this suite:
 * run_governor.sh appends it to the part of governor_us_era.c above its
 * menu_select() (the struct, the predictor, menu_update(), menu_reflect()).
 * The two-argument form of before v4.17: the idle loop has stopped the tick,
 * the limit comes from pm_qos_request(). With CPUIDLE_DRIVER_STATE_START at
 * 0 (no polling state at the front, as on POWER) the fall-back is state 0
 * and the walk starts after it, so state 0's disable flag is never read: a
 * disabled state 0 is returned when no deeper state fits. As written here
 * it has v4.13's answer (a disabled state 0 is passed over and the first
 * enabled state is the fall-back); the test's `v44_era` variant removes the
 * line marked `variant: first_enabled`, which makes it the v4.4 shape.
 */
static int menu_select(struct cpuidle_driver *drv, struct cpuidle_device *dev)
{
	struct menu_device *md = this_cpu_ptr(&menu_devices);
	int bound = pm_qos_request(PM_QOS_CPU_DMA_LATENCY);
	unsigned int expect, history;
	int pick, k;

	if (md->needs_update) {
		menu_update(drv, dev);
		md->needs_update = 0;
	}
	if (bound == 0)
		return 0;

	md->next_timer_us = ktime_to_us(tick_nohz_get_sleep_length());
	md->bucket = decade(md->next_timer_us);
	expect = DIV_ROUND_CLOSEST_ULL((u64)md->next_timer_us *
				       md->correction_factor[md->bucket],
				       RESOLUTION * DECAY);
	history = history_us(md);
	if (history > md->next_timer_us)
		history = md->next_timer_us;
	if (history < expect)
		expect = history;

	pick = CPUIDLE_DRIVER_STATE_START;
	k = pick + 1;
	if (off(drv, dev, pick)) { /* variant: first_enabled */
		pick = -1;
		k = 0;
	}
	for (; k < drv->state_count; k++) {
		struct cpuidle_state *st = &drv->states[k];

		if (off(drv, dev, k))
			continue;
		if (pick < 0) {
			pick = k;
			continue;
		}
		if (st->target_residency > expect || st->exit_latency > bound)
			continue;
		pick = k;
	}
	return pick < 0 ? 0 : pick;
}
