// SPDX-License-Identifier: GPL-2.0-only
/*
 * idlespec test input (tests/validate/run_series.sh): the pseries cpuidle
 * driver before the extended CEDE series -- snooze and CEDE with fixed
 * latencies -- written for this suite in kernel style.
 */

/* --- the dedicated-LPAR idle states ------------------------------------------ */

static u64 snooze_timeout __read_mostly;	/* in timebase ticks */
static bool snooze_timeout_en __read_mostly;

/* Polls at low thread priority until there is work or the timeout passes. */
static int snooze_loop(struct cpuidle_device *dev, struct cpuidle_driver *drv,
		       int index)
{
	u64 give_up_at;

	set_thread_flag(TIF_POLLING_NRFLAG);
	raw_local_irq_enable();
	give_up_at = get_tb() + snooze_timeout;
	dev->poll_time_limit = false;

	for (;;) {
		if (need_resched())
			break;
		HMT_low();
		if (snooze_timeout_en && get_tb() > give_up_at) {
			dev->poll_time_limit = true;
			break;
		}
	}

	HMT_medium();
	clear_thread_flag(TIF_POLLING_NRFLAG);
	raw_local_irq_disable();
	return index;
}

/* Gives the processor back to the hypervisor until an interrupt arrives. */
static int dedicated_cede_loop(struct cpuidle_device *dev,
			       struct cpuidle_driver *drv, int index)
{
	struct lppaca *lp = get_lppaca();

	lp->donate_dedicated_cpu = 1;
	HMT_medium();
	if (prep_irq_for_idle())
		cede_processor();
	raw_local_irq_disable();
	lp->donate_dedicated_cpu = 0;
	return index;
}

#define NR_DEDICATED_STATES	2	/* snooze, then CEDE */

static struct cpuidle_state dedicated_states[NR_DEDICATED_STATES] = {
	[0] = {
		.name			= "snooze",
		.desc			= "snooze",
		.flags			= CPUIDLE_FLAG_POLLING,
		.exit_latency		= 0,
		.target_residency	= 0,
		.enter			= &snooze_loop,
	},
	[1] = {
		.name			= "CEDE",
		.desc			= "CEDE",
		.exit_latency		= 10,
		.target_residency	= 100,
		.enter			= &dedicated_cede_loop,
	},
};

/* --- the CEDE(0) fix-up ------------------------------------------------------- */

/* Cedes at once: on a shared LPAR the hypervisor can run another partition. */
static int shared_cede_loop(struct cpuidle_device *dev,
			    struct cpuidle_driver *drv, int index)
{
	HMT_medium();
	if (prep_irq_for_idle())
		cede_processor();
	raw_local_irq_disable();
	return index;
}

static struct cpuidle_state shared_states[] = {
	[0] = {
		.name			= "snooze",
		.desc			= "snooze",
		.flags			= CPUIDLE_FLAG_POLLING,
		.exit_latency		= 0,
		.target_residency	= 0,
		.enter			= &snooze_loop,
	},
	[1] = {
		.name			= "Shared Cede",
		.desc			= "Shared Cede",
		.exit_latency		= 10,
		.target_residency	= 100,
		.enter			= &shared_cede_loop,
	},
};

/* --- choosing the table --------------------------------------------------------- */

static struct cpuidle_state *cpuidle_state_table __read_mostly;
static int max_idle_state __read_mostly;

/*
 * Picks the states of this LPAR: none unless it runs under the hypervisor's
 * shared-processor support and cpuidle was left on; the shared table on a
 * shared LPAR, else the dedicated one, with CEDE(0) taken from firmware
 * where that is trusted. The snooze state gives up after CEDE's residency.
 */
static int pseries_idle_probe(void)
{
	if (cpuidle_disable != IDLE_NO_OVERRIDE)
		return -ENODEV;
	if (!firmware_has_feature(FW_FEATURE_SPLPAR))
		return -ENODEV;

	if (lppaca_shared_proc()) {
		cpuidle_state_table = shared_states;
		max_idle_state = ARRAY_SIZE(shared_states);
	} else {
		cpuidle_state_table = dedicated_states;
		max_idle_state = NR_DEDICATED_STATES;
	}

	if (max_idle_state > 1) {
		snooze_timeout_en = true;
		snooze_timeout = cpuidle_state_table[1].target_residency *
				 tb_ticks_per_usec;
	}
	return 0;
}

/* A CPU coming online gets its cpuidle device back. */
static int pseries_cpuidle_cpu_online(unsigned int cpu)
{
	struct cpuidle_device *dev = per_cpu(cpuidle_devices, cpu);

	if (dev && cpuidle_get_driver()) {
		cpuidle_pause_and_lock();
		cpuidle_enable_device(dev);
		cpuidle_resume_and_unlock();
	}
	return 0;
}
