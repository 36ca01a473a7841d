/*
 * The Frama-C unit of the CEDE(0) fix-up (spec/states.md; validate/framac.h).
 *
 * Read by Frama-C (EVA) in place of harness_states.c: after shims/kernel.h,
 * shims/states_env.h and the code extracted from the file under test
 * (fixup_cede0_latency(), with parse_cede_parameters() and the tables it
 * needs), on xcede_env.h's platform (a dedicated POWER10 LPAR at 512 MHz).
 * The abstract inputs are those of framac_xcede.c: every payload byte, every
 * payload_size, a script of FC_STATUSES answers, each any int. STATES-4
 * (no arithmetic wraps) is EVA's own overflow alarms in the code, with the
 * signed and unsigned overflow alarms on; whatever EVA cannot prove keeps
 * the clause at "tested".
 */
#include "framac_driver.h"

#define FC_STATUSES 4 /* answers in the script: the query may be retried 3 times */
static u8 fc_payload[4096];

#ifdef HAVE_FIXUP_CEDE0_LATENCY
int main(void) {
  unsigned i;
  Frama_C_make_unknown((char *)fc_payload, sizeof fc_payload);
  xcede_fw_reset();
  xcede_fw.payload = fc_payload;
  xcede_fw.payload_len = sizeof fc_payload;
  xcede_fw.nstatuses = FC_STATUSES;
  for (i = 0; i < FC_STATUSES; i++) xcede_fw.statuses[i] = Frama_C_interval(INT_MIN, INT_MAX);
  nr_xcede_records = 0;
  memset(&xcede_latency_parameter, 0, sizeof xcede_latency_parameter);
  fixup_cede0_latency();
  return 0;
}
#else
int main(void) { return 0; }
#endif
