/*
 * idlespec test input (tests/validate): the decoder of PAPR system parameter
 * 45, "cede latency settings information", as spec/xcede.md states it
 * (XCEDE-1..7), written in kernel style for this suite with the names and
 * signatures the pseries cpuidle driver uses. The broken variants are
 * derived from this file with sed, at the lines marked "variant:".
 */

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
	} while (rtas_busy_delay(status));	/* variant: no_retry */

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

	if (payload->record_size + 1 != sizeof(struct xcede_latency_record)) {	/* variant: no_gate */
		pr_err("xcede: record size %u, only %zu is known; no records\n",
		       payload->record_size + 1, sizeof(struct xcede_latency_record));
		return -EINVAL;
	}

	payload_size = be16_to_cpu(xcede_latency_parameter.payload_size);
	if (payload_size < 2) {	/* variant: wraps */
		pr_warn("xcede: payload size %u has no room for records\n", payload_size);
		return 0;
	}

	/* payload_size counts the record-size byte and the NUL. */
	body = payload_size - 2;
	declared = body / sizeof(struct xcede_latency_record);
	count = min_t(u32, declared, ARRAY_SIZE(payload->records));	/* variant: unbounded */
	if (declared > count)
		pr_warn("xcede: %u records declared, the table holds %u; decoding %u\n",
			declared, (unsigned int)ARRAY_SIZE(payload->records), count);

	if (body % sizeof(struct xcede_latency_record))
		pr_warn("xcede: payload ends in a partial record (%u bytes)\n",
			(unsigned int)(body % sizeof(struct xcede_latency_record)));
	else if (declared == count && 1 + payload_size < sizeof(xcede_latency_parameter) &&
		 raw[1 + payload_size] != 0)
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

	nr_xcede_records = 0;	/* variant: keeps_count_on_error */

	status = xcede_query();
	if (status) {
		pr_err("xcede: ibm,get-system-parameter(%d) failed with status %d\n",
		       CEDE_LATENCY_TOKEN, status);
		return status;
	}

	return xcede_decode();
}
