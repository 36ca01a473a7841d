/*
 * The probe harness of `idlespec validate` (spec/states.md STATES-1, -2,
 * -5, -6): pseries_idle_probe() on a chosen platform.
 *
 * Compiled in one translation unit after harness/shims/kernel.h,
 * harness/shims/states_env.h and the code extracted from the file under
 * test (pseries_idle_probe() with the state tables, the fix-up and the
 * parse it calls); the driver defines HAVE_PSERIES_IDLE_PROBE when it found
 * the function. One input per line:
 *
 *   <id> <platform> <statuses> <payloadhex>
 *
 * platform = <pvr>,<mode>,<shared>,<splpar>,<disabled>: the processor
 * (8, 9, 10, 11) and its architected mode (the same or older: mode 10 or
 * newer has CPU_FTR_ARCH_31), a shared-processor LPAR (1) or dedicated (0),
 * FW_FEATURE_SPLPAR (1/0), cpuidle_disable other than IDLE_NO_OVERRIDE
 * (1/0). The statuses and payload are what the firmware answers the
 * fix-up's query with (harness_firmware.c). The result:
 *
 *   R <id> ret=<int> queries=<firmware calls> max=<max_idle_state>
 *          table=<dedicated|shared|other|none> [snooze=<snooze_timeout>]
 *   ST <id> <i> <exit_latency> <target_residency>   i < max_idle_state, within the table
 *
 * or CRASH/HANG with the same fields. Before each input the probe's state
 * is reset: both tables back to the file's initial ones, no table chosen,
 * the fix-up's own state as at boot.
 */
#include "harness_firmware.c"

#ifdef HAVE_PSERIES_IDLE_PROBE
/*
 * The file's own globals differ by era (extract/extract.h defines
 * IDLESPEC_HAVE_<name> for each one the extracted code has): a probe before
 * the XCEDE parse (v5.10) has no nr_xcede_records or xcede_latency_parameter,
 * one before the snooze timeout (v3.14) no snooze_timeout; the harness
 * resets and reports only what the era has (an absent one reads as 0 / none;
 * an era without snooze_timeout has no snooze= field, so that the driver
 * judges STATES-4's snooze timeout only where the text keeps one).
 */
#ifdef IDLESPEC_HAVE_dedicated_states
static struct cpuidle_state probe_dedicated0[ARRAY_SIZE(dedicated_states)];
#define PROBE_DEDICATED dedicated_states
#define PROBE_DEDICATED_N ((int)ARRAY_SIZE(dedicated_states))
#else
#define PROBE_DEDICATED ((struct cpuidle_state*)NULL)
#define PROBE_DEDICATED_N 0
#endif
#ifdef IDLESPEC_HAVE_shared_states
static struct cpuidle_state probe_shared0[ARRAY_SIZE(shared_states)];
#define PROBE_SHARED shared_states
#define PROBE_SHARED_N ((int)ARRAY_SIZE(shared_states))
#else
#define PROBE_SHARED ((struct cpuidle_state*)NULL)
#define PROBE_SHARED_N 0
#endif

static void probe_setup(void) {
#ifdef IDLESPEC_HAVE_dedicated_states
  memcpy(probe_dedicated0, dedicated_states, sizeof probe_dedicated0);
#endif
#ifdef IDLESPEC_HAVE_shared_states
  memcpy(probe_shared0, shared_states, sizeof probe_shared0);
#endif
}

static void probe_reset(void) {
#ifdef IDLESPEC_HAVE_nr_xcede_records
  nr_xcede_records = 0;
#endif
#ifdef IDLESPEC_HAVE_xcede_latency_parameter
  memset(&xcede_latency_parameter, 0, sizeof xcede_latency_parameter);
#endif
#ifdef IDLESPEC_HAVE_dedicated_states
  memcpy(dedicated_states, probe_dedicated0, sizeof dedicated_states);
#endif
#ifdef IDLESPEC_HAVE_shared_states
  memcpy(shared_states, probe_shared0, sizeof shared_states);
#endif
#ifdef IDLESPEC_HAVE_cpuidle_state_table
  cpuidle_state_table = NULL;
#endif
#ifdef IDLESPEC_HAVE_max_idle_state
  max_idle_state = 0;
#endif
#ifdef IDLESPEC_HAVE_snooze_timeout
  snooze_timeout = 0;
#endif
#ifdef IDLESPEC_HAVE_snooze_timeout_en
  snooze_timeout_en = false;
#endif
}

static int probe_call(void) { return pseries_idle_probe(); }

static void probe_report(long long id, int ret, int trap) {
  char head[64];
  result_head(head, sizeof(head), "R", id, trap);
#ifdef IDLESPEC_HAVE_cpuidle_state_table
  const struct cpuidle_state* t = cpuidle_state_table;
#else
  const struct cpuidle_state* t = NULL;
#endif
#ifdef IDLESPEC_HAVE_max_idle_state
  const int max = (int)max_idle_state;
#else
  const int max = 0;
#endif
#ifdef IDLESPEC_HAVE_snooze_timeout
  char snooze[40];
  snprintf(snooze, sizeof(snooze), " snooze=%llu", (unsigned long long)snooze_timeout);
#else
  const char* snooze = "";
#endif
  const char* name = t == NULL              ? "none"
                     : t == PROBE_DEDICATED ? "dedicated"
                     : t == PROBE_SHARED    ? "shared"
                                            : "other";
  const int size = t == NULL              ? 0
                   : t == PROBE_DEDICATED ? PROBE_DEDICATED_N
                   : t == PROBE_SHARED    ? PROBE_SHARED_N
                                          : 0;
  emit("%s ret=%d queries=%u max=%d table=%s%s", head, trap ? 0 : ret, xcede_fw.calls, max, name,
       snooze);
  for (int i = 0; i < max && i < size; i++)
    emit("ST %lld %d %u %u", id, i, (unsigned)t[i].exit_latency, (unsigned)t[i].target_residency);
}

static const struct harness_component probe = {"harness_probe", "pseries_idle_probe", true,
                                               probe_setup,     probe_reset,          probe_call,
                                               probe_report};
#else
static const struct harness_component probe = {
    "harness_probe", "pseries_idle_probe", false, NULL, NULL, NULL, NULL};
#endif

/* "10,9,0,1,0" -> the platform the shims answer with. */
static void parse_platform(const char* f) {
  int pvr, mode, shared, splpar, disabled;
  char end;
  if (sscanf(f, "%d,%d,%d,%d,%d%c", &pvr, &mode, &shared, &splpar, &disabled, &end) != 5 ||
      pvr < 8 || pvr > 11 || mode < 8 || mode > pvr)
    bad_input("platform is <pvr 8..11>,<mode 8..pvr>,<shared>,<splpar>,<disabled>");
  static const unsigned pvrs[] = {PVR_POWER8, PVR_POWER9, PVR_POWER10, PVR_POWER11};
  xcede_platform.pvr_version = pvrs[pvr - 8];
  xcede_platform.cpu_features = CPU_FTR_ARCH_206 | CPU_FTR_ARCH_207S;
  if (mode >= 9) xcede_platform.cpu_features |= CPU_FTR_ARCH_300;
  if (mode >= 10) xcede_platform.cpu_features |= CPU_FTR_ARCH_31;
  xcede_platform.fw_features = FW_FEATURE_LPAR | (splpar ? FW_FEATURE_SPLPAR : 0);
  xcede_platform.shared_proc = shared != 0;
  cpuidle_disable = disabled ? IDLE_NO_OVERRIDE + 1 : IDLE_NO_OVERRIDE;
}

static void probe_input(long long id, char** f, int nf, bool trace) {
  parse_platform(f[0]);
  firmware_input(id, f + 1, nf - 1, trace);
}

int main(int argc, char** argv) {
  return harness_run_fields(argc, argv, &probe, probe_input, 3,
                            "<platform> <statuses> <payloadhex>");
}
