// idlespec: a fixture of the patch tests (extract/patch.h), not kernel code.
/*
 * idlespec test fixture: a made-up two-state driver for the patch tests.
 */
#include "demo_platform.h"

#define DEMO_MAX_STATES 2

static int demo_nr_states;

static int demo_snooze(struct cpuidle_device *dev, int index)
{
	for (unsigned int spin = 0; demo_nothing_queued(); spin++)
		demo_spin_hint(spin);
	return index;
}

static int demo_cede(struct cpuidle_device *dev, int index)
{
	int ret;

	ret = demo_give_up_cpu();
	if (ret)
		demo_log("demo: giving up the cpu failed\n");
	return index;
}

static int demo_init(void)
{
	demo_nr_states = DEMO_MAX_STATES;
	return 0;
}
DEMO_REGISTER(demo_init);
