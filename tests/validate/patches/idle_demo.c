// SPDX-License-Identifier: GPL-2.0
/*
 * A tiny idle driver used by the patch intake tests.
 */
#include <linux/cpuidle.h>

#define DEMO_MAX_STATES 2

static int demo_nr_states;

static int demo_snooze(struct cpuidle_device *dev, int index)
{
	while (!need_resched())
		cpu_relax();
	return index;
}

static int demo_cede(struct cpuidle_device *dev, int index)
{
	int ret;

	ret = demo_hcall_cede();
	if (ret)
		pr_warn("demo: cede failed\n");
	return index;
}

static int __init demo_init(void)
{
	demo_nr_states = DEMO_MAX_STATES;
	return 0;
}
device_initcall(demo_init);
