/*
 * menu_select() in the shape of v4.17 to v4.19 (after the idle loop rework
 * that gave it stop_tick, before the early return of state 0 that later
 * menu.c has), written for this suite: run_governor.sh appends it to the
 * part of governor_us_era.c above its menu_select() (the struct, the
 * predictor, menu_update(), menu_reflect()).
 *
 * What it does, as the kernels of that time did:
 *   - no early return of state 0 when state 1 cannot pay off: only a limit
 *     of 0 returns at once; a polling state 0 is passed over from the start
 *     when the timer is far enough away (beyond 20 us and beyond state 1's
 *     target residency) and state 1 is enabled and allowed by the limit;
 *   - the prediction is the smaller of the timer guess and the history;
 *   - with the tick stopped a prediction under one tick becomes the time to
 *     the next tick event; with it running the limit is lowered to the
 *     prediction;
 *   - the walk tests the residency first: a state that does not fit, with
 *     the tick stopped and a prediction of at least a tick, is taken when
 *     the state kept so far is shorter than a tick and the next tick event
 *     leaves room for it, and returned at once, its exit latency never
 *     compared with the limit (the tick-stopped promotion of 5ef499cd571c,
 *     GOV-2 as spec/governor.md's v6.14 family, fixed upstream by
 *     779b1a1cb13a). The limit is tested after the residency.
 */
static int menu_select(struct cpuidle_driver *drv, struct cpuidle_device *dev,
		       bool *stop_tick)
{
	struct menu_device *md = this_cpu_ptr(&menu_devices);
	int bound = cpuidle_governor_latency_req(dev->cpu);
	unsigned int expect, history, settle, tick_us, edge;
	ktime_t tick_left;
	int pick = -1, from = 0, k;

	if (md->needs_update) {
		menu_update(drv, dev);
		md->needs_update = 0;
	}
	if (bound == 0) {
		*stop_tick = false;
		return 0;
	}

	md->next_timer_us = ktime_to_us(tick_nohz_get_sleep_length(&tick_left));
	md->bucket = decade(md->next_timer_us);
	tick_us = ktime_to_us(tick_left);

	expect = DIV_ROUND_CLOSEST_ULL((u64)md->next_timer_us *
				       md->correction_factor[md->bucket],
				       RESOLUTION * DECAY);
	history = history_us(md);
	if (history > md->next_timer_us)
		history = md->next_timer_us;

	if (drv->state_count > 1 && (drv->states[0].flags & CPUIDLE_FLAG_POLLING)) {
		edge = drv->states[1].target_residency;
		if (edge < 20)
			edge = 20;
		if (md->next_timer_us > edge && bound > drv->states[1].exit_latency &&
		    !off(drv, dev, 1))
			from = 1;
	}

	if (history < expect)
		expect = history;
	if (tick_nohz_tick_stopped()) {
		if (expect < TICK_USEC)
			expect = tick_us;
	} else if (bound > expect) {
		bound = expect;
	}

	settle = expect;
	for (k = from; k < drv->state_count; k++) {
		struct cpuidle_state *st = &drv->states[k];

		if (off(drv, dev, k))
			continue;
		if (pick < 0)
			pick = k;
		if (st->target_residency > expect) {
			if (expect < TICK_USEC)
				break;
			if (!tick_nohz_tick_stopped()) {
				settle = drv->states[pick].target_residency;
				break;
			}
			if (drv->states[pick].target_residency < TICK_USEC &&
			    st->target_residency <= tick_us)
				pick = k;
			return pick;
		}
		if (st->exit_latency > bound) {
			settle = drv->states[pick].target_residency;
			break;
		}
		pick = k;
	}
	if (pick < 0)
		pick = 0;

	if (((drv->states[pick].flags & CPUIDLE_FLAG_POLLING) || settle < TICK_USEC) &&
	    !tick_nohz_tick_stopped()) {
		*stop_tick = false;
		if (pick > 0 && drv->states[pick].target_residency > tick_us) {
			for (k = pick - 1; k >= 0; k--) {
				if (off(drv, dev, k))
					continue;
				pick = k;
				if (drv->states[k].target_residency <= tick_us)
					break;
			}
		}
	}
	return pick;
}
