/*
 * The Frama-C unit of xcede (spec/xcede.md; validate/framac.h).
 *
 * Read by Frama-C (EVA) in place of harness_xcede.c: after shims/kernel.h,
 * shims/xcede_env.h and the code extracted from the file under test
 * (parse_cede_parameters(), nr_xcede_records, xcede_latency_parameter).
 * The abstract inputs are the spec's ranges: every byte of the payload the
 * fake firmware (xcede_env.h) hands over (a shorter payload followed by
 * zeros is one of them), every payload_size 0..65535 (split at 2, where
 * XCEDE-3's case begins), every record-size byte, and a script of
 * FC_STATUSES answers, each any int. After the call each clause's
 * post-condition is an assertion named after it ("assert XCEDE_4:"),
 * which validate/framac.cc reads; XCEDE-1 is EVA's own memory alarms in the
 * code, and its assertion that the call returned. XCEDE-4's bound is the
 * spec's capacity and the file's own buffer, whichever is smaller. The
 * warnings XCEDE-3 and -4 name are the reference decoder's report, not part
 * of either clause on kernel text (spec/xcede.md says why): not asserted.
 * Whatever EVA cannot prove keeps the clause at "tested"; FC_END, at the end
 * of main(), says that EVA reached it (validate/framac.cc requires it).
 */
#include "framac_driver.h"

/* Answers in the script: as many as the harness's longest script
 * (XCEDE_FW_MAX_STATUSES), after which the fake firmware answers -1. */
#define FC_STATUSES XCEDE_FW_MAX_STATUSES
#define FC_CAPACITY 16 /* spec/xcede.md: the capacity, default 16 records */
static u8 fc_payload[4096];

#ifdef HAVE_PARSE_CEDE_PARAMETERS
int main(void) {
  unsigned short_payload, payload_size;
  Frama_C_make_unknown((char*)fc_payload, sizeof fc_payload);
  short_payload = Frama_C_unsigned_int_interval(0, 1);
  /*@ split short_payload; */
  payload_size =
      short_payload ? Frama_C_unsigned_int_interval(0, 1) : Frama_C_unsigned_int_interval(2, 65535);
  fc_payload[0] = (u8)(payload_size >> 8); /* big-endian */
  fc_payload[1] = (u8)payload_size;
  xcede_fw_reset();
  xcede_fw.payload = fc_payload;
  xcede_fw.payload_len = sizeof fc_payload; /* cut at the length the code gives */
  xcede_fw.nstatuses = FC_STATUSES;
  /* every answer any int: the script's bytes unknown (one builtin, not 4096 steps) */
  Frama_C_make_unknown((char*)xcede_fw.statuses, sizeof xcede_fw.statuses);
  nr_xcede_records = 0;
  memset(&xcede_latency_parameter, 0, sizeof xcede_latency_parameter);
  (void)parse_cede_parameters();
  /* XCEDE-1: EVA's memory alarms in the code; the assertion says that EVA
   * reached the call's return. */
  /*@ assert XCEDE_1: \true; */
  /*@ assert XCEDE_4: nr_xcede_records <= FC_CAPACITY &&
        nr_xcede_records <= sizeof(xcede_latency_parameter.payload.records) /
                            sizeof(xcede_latency_parameter.payload.records[0]); */
  /*@ assert XCEDE_3: payload_size < 2 ==> nr_xcede_records == 0; */
  /*@ assert FC_END: \true; */
  return 0;
}
#else
int main(void) { return 0; }
#endif
