// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * idlespec test input (tests/validate): the dedicated-LPAR state table and
 * the CEDE(0) fix-up as spec/states.md states them (STATES-3, STATES-4),
 * written in kernel style for this suite with the names and signatures the
 * pseries cpuidle driver uses. parse_cede_parameters() is this suite's own
 * (tests/validate/xcede_faithful.c). The broken variants are derived from
 * this file with sed, at the lines marked "variant:".
 */
#include <linux/init.h>
#include <linux/kernel.h>
#include <linux/cpuidle.h>
#include <asm/rtas.h>
#include <asm/time.h>

#define CEDE_LATENCY_TOKEN	45	/* the parameter number (PAPR 7.3.16) */

/* One cede latency setting; PAPR defines only this 10-byte layout. */
struct xcede_latency_record {
	u8	hint;
	__be64	latency_ticks;
	u8	wake_on_irqs;
} __packed;

/* The record-size byte (size - 1) and room for 16 records. */
struct xcede_latency_payload {
	u8	record_size;
	struct xcede_latency_record records[16];
} __packed;

/* What firmware writes: the payload's length, the payload, its NUL. */
struct xcede_latency_parameter {
	__be16	payload_size;
	struct xcede_latency_payload payload;
	u8	null_char;
} __packed;

static unsigned int nr_xcede_records;
static struct xcede_latency_parameter xcede_latency_parameter __initdata;

/* Reads parameter 45 into the buffer; busy and 990x are asked again. */
static int __init xcede_query(void)
{
	int token = rtas_token("ibm,get-system-parameter");
	int status;

	do {
		status = rtas_call(token, 3, 1, NULL, CEDE_LATENCY_TOKEN,
				   __pa(&xcede_latency_parameter),
				   sizeof(xcede_latency_parameter));
	} while (rtas_busy_delay(status));

	return status;
}

/*
 * Decodes what firmware handed over: the record size first, then as many
 * whole records as payload_size declares, the buffer holds and fit the
 * table. Sets nr_xcede_records; 0 or -EINVAL.
 */
static int __init xcede_decode(void)
{
	const struct xcede_latency_payload *payload = &xcede_latency_parameter.payload;
	const u8 *raw = (const u8 *)&xcede_latency_parameter;
	unsigned int declared, count, i;
	u16 payload_size;
	u32 body;

	nr_xcede_records = 0;

	if (payload->record_size + 1 != sizeof(struct xcede_latency_record)) {
		pr_err("xcede: record size %u, only %zu is known; no records\n",
		       payload->record_size + 1, sizeof(struct xcede_latency_record));
		return -EINVAL;
	}

	payload_size = be16_to_cpu(xcede_latency_parameter.payload_size);
	if (payload_size < 2) {
		pr_warn("xcede: payload size %u has no room for records\n", payload_size);
		return 0;
	}

	/* payload_size counts the record-size byte and the NUL. */
	body = payload_size - 2;
	declared = body / sizeof(struct xcede_latency_record);
	count = min_t(u32, declared, ARRAY_SIZE(payload->records));
	if (declared > count)
		pr_warn("xcede: %u records declared, the table holds %u; decoding %u\n",
			declared, (unsigned int)ARRAY_SIZE(payload->records), count);

	if (body % sizeof(struct xcede_latency_record))
		pr_warn("xcede: payload ends in a partial record (%u bytes)\n",
			(unsigned int)(body % sizeof(struct xcede_latency_record)));
	else if (declared == count && raw[1 + payload_size] != 0)
		pr_warn("xcede: no NUL after the last record (offset %u)\n",
			1 + payload_size);

	for (i = 0; i < count; i++) {
		const struct xcede_latency_record *r = &payload->records[i];

		pr_info("xcede: record %u: hint %u, wakeup %llu tb ticks, wakes on irq %u\n",
			i, r->hint, (unsigned long long)be64_to_cpu(r->latency_ticks),
			r->wake_on_irqs);
	}

	nr_xcede_records = count;
	return 0;
}

static int __init parse_cede_parameters(void)
{
	int status;

	nr_xcede_records = 0;

	status = xcede_query();
	if (status) {
		pr_err("xcede: ibm,get-system-parameter(%d) failed with status %d\n",
		       CEDE_LATENCY_TOKEN, status);
		return status;
	}

	return xcede_decode();
}

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
