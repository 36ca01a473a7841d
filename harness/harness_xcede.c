/*
 * The xcede harness of `idlespec validate` (spec/xcede.md).
 *
 * Compiled in one translation unit after harness/shims/kernel.h,
 * harness/shims/xcede_env.h and the code extracted from the file under test
 * (parse_cede_parameters() with the xcede structs, nr_xcede_records and the
 * xcede_latency_parameter buffer); the driver defines
 * HAVE_PARSE_CEDE_PARAMETERS when it found the function. The protocol is
 * harness_firmware.c's; the result line per input is
 *
 *   R <id> ret=<int> calls=<n> nr=<u> buflen=<len|-1> bufsize=<sizeof buffer> busy_delays=<n>
 *   REC <id> <i> <hint> 0x<latency ticks, 16 hex digits> <wake_on_irqs>   i < min(nr, ARRAY_SIZE(records))
 *
 * or CRASH <id> <signal> <name> / HANG <id>, followed by nr= calls= buflen=
 * bufsize= as the code left them (a count set before the loop that crashed
 * still tells which clause the input broke), handed= (payloads the firmware
 * copied) and in_firmware= (1: the trap hit while the firmware wrote the
 * code's buffer): a trap in the query is not blamed on the decoding.
 *
 * Before each input the state parse_cede_parameters() keeps is reset:
 * nr_xcede_records = 0, the static xcede_latency_parameter zeroed, the fake
 * firmware (xcede_env.h) rearmed with the input's script and payload.
 */
#include "harness_firmware.c"

#ifdef HAVE_PARSE_CEDE_PARAMETERS
static void xcede_reset(void) {
  nr_xcede_records = 0;
  memset(&xcede_latency_parameter, 0, sizeof xcede_latency_parameter);
}

static int xcede_call(void) { return parse_cede_parameters(); }

static void xcede_report(long long id, int ret, int trap) {
  const unsigned nr = (unsigned)nr_xcede_records;
  if (trap != 0) {
    char head[64];
    if (trap > 0)
      snprintf(head, sizeof(head), "CRASH %lld %d %s", id, trap, signal_name(trap));
    else
      snprintf(head, sizeof(head), "HANG %lld", id);
    /* handed=: payloads the firmware copied before the trap; in_firmware=1:
     * the trap hit while the firmware wrote the code's buffer (the query,
     * not the decoding). */
    emit("%s nr=%u calls=%u buflen=%ld bufsize=%zu handed=%u in_firmware=%d", head, nr,
         xcede_fw.calls, xcede_fw.last_buflen, sizeof xcede_latency_parameter,
         xcede_fw.handed_over, xcede_fw.in_firmware);
    return;
  }
  emit("R %lld ret=%d calls=%u nr=%u buflen=%ld bufsize=%zu busy_delays=%u", id, ret,
       xcede_fw.calls, nr, xcede_fw.last_buflen, sizeof xcede_latency_parameter,
       xcede_fw.busy_delays);
  const unsigned cap = (unsigned)ARRAY_SIZE(xcede_latency_parameter.payload.records);
  for (unsigned i = 0; i < nr && i < cap; i++)
    emit("REC %lld %u %u 0x%016llx %u", id, i,
         (unsigned)xcede_latency_parameter.payload.records[i].hint,
         (unsigned long long)be64_to_cpu(xcede_latency_parameter.payload.records[i].latency_ticks),
         (unsigned)xcede_latency_parameter.payload.records[i].wake_on_irqs);
}

static const struct harness_component xcede = {"harness_xcede", "parse_cede_parameters", true,
                                               NULL, xcede_reset, xcede_call, xcede_report};
#else
static const struct harness_component xcede = {"harness_xcede", "parse_cede_parameters", false,
                                               NULL, NULL, NULL, NULL};
#endif

#ifdef IDLESPEC_LIBFUZZER
HARNESS_FUZZ_ENTRY(&xcede, false)
#else
int main(int argc, char **argv) { return harness_run(argc, argv, &xcede); }
#endif
