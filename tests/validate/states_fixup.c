/*
 * idlespec test input (tests/validate): the dedicated-LPAR state table and
 * the CEDE(0) fix-up as spec/states.md states them (STATES-3, STATES-4),
 * written in kernel style for this suite with the names and signatures the
 * pseries cpuidle driver uses. It follows tests/validate/xcede_faithful.c
 * (this suite's parse_cede_parameters()): the test scripts concatenate the
 * two into one cpuidle-pseries.c. The broken variants are derived with sed,
 * at the lines marked "variant:".
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

/* cpuidle wants the target residency at least ten exit latencies. */
#define CEDE0_RESIDENCY_FACTOR	10

/*
 * One record's wake-up latency in microseconds, rounded up. cpuidle keeps
 * latencies and residencies in unsigned ints, and the residency is ten
 * times the latency: a record whose latency cannot be kept that way is
 * refused (false), before tb_to_ns() could overflow on it.
 */
static bool __init xcede_latency_us(const struct xcede_latency_record *rec,
				    u64 *latency_us)
{
	const u64 most_us = UINT_MAX / CEDE0_RESIDENCY_FACTOR;
	u64 ticks = be64_to_cpu(rec->latency_ticks);
	u64 ns;

	if (ticks > most_us * tb_ticks_per_usec)
		return false;

	ns = tb_to_ns(ticks);
	*latency_us = DIV_ROUND_UP_ULL(ns, NSEC_PER_USEC);	/* variant: truncating_conversion */
	return *latency_us <= most_us;
}

/*
 * Firmware does not advertise CEDE(0), but it lists the extended CEDE
 * states in increasing latency, so CEDE(0) wakes no slower than the
 * fastest of them: CEDE's exit latency becomes the smallest non-zero record
 * latency, its target residency ten times that. A latency of 0 is a
 * placeholder (waking takes time) and is skipped. Without a usable record
 * CEDE keeps its 10/100 us.
 */
static void __init fixup_cede0_latency(void)
{
	const struct xcede_latency_payload *payload = &xcede_latency_parameter.payload;
	u64 lowest_us = 0;	/* 0: no usable record yet */
	unsigned int i;

	if (parse_cede_parameters())
		return;

	for (i = 0; i < nr_xcede_records; i++) {
		const struct xcede_latency_record *rec = &payload->records[i];
		u64 us;

		if (!xcede_latency_us(rec, &us)) {
			pr_warn("cpuidle: Refusing xcede record %u [hint=%u]: its latency does not fit\n",
				i, rec->hint);
			continue;
		}
		if (us == 0) {
			pr_warn("cpuidle: Skipping xcede record %u [hint=%u]. Exit latency = 0us\n",
				i, rec->hint);
			continue;
		}
		if (lowest_us == 0 || us < lowest_us)
			lowest_us = us;
	}

	if (lowest_us == 0)
		return;

	dedicated_states[1].exit_latency = lowest_us;	/* variant: min_minus_one */
	dedicated_states[1].target_residency = CEDE0_RESIDENCY_FACTOR * lowest_us;	/* variant: residency_not_scaled */
	pr_info("cpuidle: Fixed up CEDE exit latency to %llu us\n",
		(unsigned long long)lowest_us);
}

/* --- the shared-LPAR idle states ---------------------------------------------- */

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
		.exit_latency		= 0,	/* variant: shared_unordered */
		.target_residency	= 0,	/* variant: shared_residency_unordered */
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
 * Firmware's latencies are trusted from POWER10 on: an LPAR in ISA 3.1
 * mode, or a POWER10 running in an older compatibility mode (STATES-6).
 */
static bool cede0_latency_from_firmware(void)
{
	return cpu_has_feature(CPU_FTR_ARCH_31) ||	/* variant: arch31_only */
	       pvr_version_is(PVR_POWER10);
}

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
		max_idle_state = ARRAY_SIZE(shared_states);	/* variant: too_many_states */
	} else {
		if (cede0_latency_from_firmware())	/* variant: no_gate */
			fixup_cede0_latency();
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
