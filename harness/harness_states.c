/*
 * The states harness of `idlespec validate` (spec/states.md: the CEDE(0)
 * fix-up, STATES-3 and STATES-4).
 *
 * Compiled in one translation unit after harness/shims/kernel.h,
 * harness/shims/states_env.h and the code extracted from the file under
 * test (fixup_cede0_latency() with what it needs: parse_cede_parameters(),
 * nr_xcede_records, the xcede_latency_parameter buffer and the
 * dedicated_states[] table); the driver defines HAVE_FIXUP_CEDE0_LATENCY
 * when it found the function. The platform is xcede_env.h's default, a
 * dedicated-processor POWER10 LPAR at 512 MHz, where the fix-up applies.
 * The protocol is harness_firmware.c's; the result line per input is
 *
 *   S <id> exit=<u> residency=<u> nr=<u>   dedicated_states[1] (CEDE) after
 *                            the fix-up, and the records parse_cede_parameters() kept
 *
 * or CRASH <id> <signal> <name> / HANG <id>, followed by the same fields at
 * the time of the crash or hang.
 *
 * Before each input the state the fix-up keeps is reset: nr_xcede_records =
 * 0, the static xcede_latency_parameter zeroed, dedicated_states[] back to
 * the file's initial table (a copy taken at start), the fake firmware
 * (xcede_env.h) rearmed with the input's script and payload.
 */
#include "harness_firmware.c"

#ifdef HAVE_FIXUP_CEDE0_LATENCY
/* The table as the file defines it, taken before the first input. */
static struct cpuidle_state states_initial[ARRAY_SIZE(dedicated_states)];

static void states_setup(void) { memcpy(states_initial, dedicated_states, sizeof states_initial); }

static void states_reset(void) {
  nr_xcede_records = 0;
  memset(&xcede_latency_parameter, 0, sizeof xcede_latency_parameter);
  memcpy(dedicated_states, states_initial, sizeof dedicated_states);
}

static int states_call(void) {
  fixup_cede0_latency();
  return 0;
}

static void states_report(long long id, int ret, int trap) {
  (void)ret;
  char head[64];
  result_head(head, sizeof(head), "S", id, trap);
  emit("%s exit=%u residency=%u nr=%u", head, (unsigned)dedicated_states[1].exit_latency,
       (unsigned)dedicated_states[1].target_residency, (unsigned)nr_xcede_records);
}

static const struct harness_component states = {"harness_states", "fixup_cede0_latency", true,
                                                states_setup, states_reset, states_call,
                                                states_report};
#else
static const struct harness_component states = {"harness_states", "fixup_cede0_latency", false,
                                                NULL, NULL, NULL, NULL};
#endif

#ifdef IDLESPEC_LIBFUZZER
HARNESS_FUZZ_ENTRY(&states, true)
#else
int main(int argc, char **argv) { return harness_run(argc, argv, &states); }
#endif
