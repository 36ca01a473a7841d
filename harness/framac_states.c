/*
 * The Frama-C unit of the CEDE(0) fix-up (spec/states.md; validate/framac.h).
 *
 * Read by Frama-C (EVA) in place of harness_states.c: after shims/kernel.h,
 * shims/states_env.h and the code extracted from the file under test
 * (fixup_cede0_latency(), with parse_cede_parameters() and the tables it
 * needs), on xcede_env.h's platform (a dedicated POWER10 LPAR at 512 MHz).
 * First the abstract inputs of framac_xcede.c: every payload byte, every
 * payload_size, a script of FC_STATUSES answers, each any int; there
 * STATES-4 (no arithmetic wraps) is EVA's own overflow alarms in the code,
 * with the signed and unsigned overflow alarms on, and its assertion that
 * EVA reached the fix-up's return. Then fc_exact(): one record at a time,
 * latencies where the exact value, a floor and a wrapped store differ, each
 * asserted as STATES-4's exact value (KD-1's kernel rounding allowed). In
 * that order: the concrete runs first made the abstract one three times
 * slower (1.7 s of CPU instead of 0.55 s). Then fc_snooze(), when the file
 * has pseries_idle_probe() (validate/framac.cc adds it to this unit, and
 * -DHAVE_PSERIES_IDLE_PROBE): the probe on a dedicated LPAR whose CEDE
 * residency the driver sets, the firmware refusing the fix-up's query so
 * that the residency stays the driver's, on every residency (the overflow
 * alarms) and on residencies where the exact snooze timeout, a 32-bit one
 * and a wrapped one differ, each asserted as STATES-4's exact value
 * (residency x ticks per us, in ACSL's unbounded integers), at 512 MHz and
 * at 2^42 Hz, the top of KD-2's timebase domain; the overflow run on every
 * platform the probe's harness runs (shared, no SPLPAR, cpuidle off, each
 * processor and mode), and the shared table's timeout exact. Not here: the exact
 * minimum over several records (beyond EVA's non-relational domains; the
 * harness checks it), and the fix-up's conversion at frequencies other than
 * 512 MHz (KD-1's allowance is stated at 512 MHz, and the harness runs
 * there). Whatever EVA cannot prove keeps the clause at "tested".
 */
#include "framac_driver.h"

/* Answers in the script: as many as the harness's longest script. */
#define FC_STATUSES XCEDE_FW_MAX_STATUSES
static u8 fc_payload[4096];

#ifdef HAVE_FIXUP_CEDE0_LATENCY
/* One record of `ticks`, a query that succeeds, CEDE at its 10/100 us. */
static void fc_one_record(u64 ticks) {
  const unsigned rec = sizeof(struct xcede_latency_record);
  const unsigned size = 1 + rec + 1; /* the record-size byte, the record, the NUL */
  u8* latency = fc_payload + 3 + offsetof(struct xcede_latency_record, latency_ticks);
  unsigned i;
  memset(fc_payload, 0, sizeof fc_payload);
  fc_payload[0] = (u8)(size >> 8); /* big-endian */
  fc_payload[1] = (u8)size;
  fc_payload[2] = (u8)(rec - 1);
  for (i = 0; i < 8; i++) latency[i] = (u8)(ticks >> (56 - 8 * i));
  xcede_fw_reset();
  xcede_fw.payload = fc_payload;
  xcede_fw.payload_len = sizeof fc_payload;
  xcede_fw.nstatuses = 1;
  xcede_fw.statuses[0] = 0;
  nr_xcede_records = 0;
  memset(&xcede_latency_parameter, 0, sizeof xcede_latency_parameter);
  dedicated_states[1].exit_latency = 10;
  dedicated_states[1].target_residency = 100;
  fixup_cede0_latency();
}

/* STATES-4's exact values at the spec's platform frequency (512 MHz,
 * xcede_env.h's timebase): CEDE's exit latency is the record's latency in
 * us rounded up, its residency ten times that, a record that does not fit
 * an unsigned int (or ten times it) refused. KD-1: the value may be the
 * one the kernel's tb_to_ns() gives (2 * floor(ticks * 125 / 128) ns at
 * 512 MHz); a record of 1 tick, 0 ns that way, may be skipped. */
#define FC_MOST_US 429496729ull /* UINT_MAX / 10 */
static void fc_exact(void) {
  fc_one_record(512); /* 1 us */
  /*@ assert STATES_4: dedicated_states[1].exit_latency == 1 &&
        dedicated_states[1].target_residency == 10; */
  fc_one_record(768); /* 1.5 us: 2, a floor would say 1 */
  /*@ assert STATES_4: dedicated_states[1].exit_latency == 2 &&
        dedicated_states[1].target_residency == 20; */
  fc_one_record(5120); /* 10 us */
  /*@ assert STATES_4: dedicated_states[1].exit_latency == 10 &&
        dedicated_states[1].target_residency == 100; */
  fc_one_record(1); /* 1 us exactly, 0 us the kernel's way: skipped */
  /*@ assert STATES_4: (dedicated_states[1].exit_latency == 1 &&
          dedicated_states[1].target_residency == 10) ||
        (dedicated_states[1].exit_latency == 10 && dedicated_states[1].target_residency == 100); */
  fc_one_record(FC_MOST_US * 512); /* the largest that fits: 10 x it is 4294967290 */
  /*@ assert STATES_4: dedicated_states[1].exit_latency == FC_MOST_US &&
        dedicated_states[1].target_residency == 10 * FC_MOST_US; */
  fc_one_record((FC_MOST_US + 1) * 512); /* one us more: refused */
  /*@ assert STATES_4: dedicated_states[1].exit_latency == 10 &&
        dedicated_states[1].target_residency == 100; */
  fc_one_record((1ull << 33) * 512); /* 2^33 us: refused, never stored wrapped */
  /*@ assert STATES_4: dedicated_states[1].exit_latency == 10 &&
        dedicated_states[1].target_residency == 100; */
  fc_one_record(0); /* a placeholder: skipped */
  /*@ assert STATES_4: dedicated_states[1].exit_latency == 10 &&
        dedicated_states[1].target_residency == 100; */
}

#ifdef HAVE_PSERIES_IDLE_PROBE
/* Every platform the probe's harness runs (harness_probe.c parse_platform()
 * and more): any processor POWER8..11, any set of the ISA 3.0 and 3.1
 * features, SPLPAR or not, shared or dedicated, cpuidle on or off, so that
 * no branch of the probe the harness runs is dead for EVA
 * (validate/framac_dead.h). */
static void fc_any_platform(void) {
  xcede_platform.cpu_features = CPU_FTR_ARCH_206 | CPU_FTR_ARCH_207S |
                                (Frama_C_nondet(0, 1) ? CPU_FTR_ARCH_300 : 0) |
                                (Frama_C_nondet(0, 1) ? CPU_FTR_ARCH_31 : 0);
  xcede_platform.fw_features = FW_FEATURE_LPAR | (Frama_C_nondet(0, 1) ? FW_FEATURE_SPLPAR : 0);
  xcede_platform.pvr_version = Frama_C_nondet(0, 1) ? Frama_C_nondet(PVR_POWER8, PVR_POWER9)
                                                    : Frama_C_nondet(PVR_POWER10, PVR_POWER11);
  xcede_platform.shared_proc = Frama_C_nondet(0, 1);
  cpuidle_disable = Frama_C_nondet(IDLE_NO_OVERRIDE, IDLE_NO_OVERRIDE + 1);
}

/* The probe on a dedicated POWER10 LPAR (the spec's fix-up platform), or on
 * any platform (`any`), whose CEDE residency is `residency`, at
 * `ticks_per_us` timebase ticks per us: the fix-up's query answers a
 * hardware error, so the fix-up, run or not, leaves the residency as it is. */
static void fc_probe_on(unsigned int residency, unsigned long ticks_per_us, int any) {
  xcede_fw_reset();
  xcede_fw.nstatuses = 1;
  xcede_fw.statuses[0] = -3;
  nr_xcede_records = 0;
  memset(&xcede_latency_parameter, 0, sizeof xcede_latency_parameter);
  xcede_platform.cpu_features =
      CPU_FTR_ARCH_206 | CPU_FTR_ARCH_207S | CPU_FTR_ARCH_300 | CPU_FTR_ARCH_31;
  xcede_platform.fw_features = FW_FEATURE_LPAR | FW_FEATURE_SPLPAR;
  xcede_platform.pvr_version = PVR_POWER10;
  xcede_platform.shared_proc = false;
  cpuidle_disable = IDLE_NO_OVERRIDE;
  if (any) fc_any_platform();
  tb_ticks_per_usec = ticks_per_us;
  tb_ticks_per_sec = ticks_per_us * 1000000ul;
  dedicated_states[1].exit_latency = 1;
  dedicated_states[1].target_residency = residency;
  snooze_timeout = 0;
  pseries_idle_probe();
}
static void fc_probe(unsigned int residency, unsigned long ticks_per_us) {
  fc_probe_on(residency, ticks_per_us, 0);
}

/* STATES-4's snooze timeout: CEDE's target residency x timebase ticks per
 * us (the kernel's tb_ticks_per_usec, an integer), exactly. At 512 MHz:
 * 100 us (CEDE's own), 2^23 us (the first whose timeout needs 33 bits: a
 * 32-bit product is 0), the largest residency the fix-up gives, and the
 * largest an unsigned int holds; at 2^42 Hz (4398046 ticks per us, KD-2's
 * top) the largest. */
#define FC_TICKS_2_42 4398046ul /* 2^42 / 10^6, rounded down as the kernel does */
static void fc_snooze(void) {
  fc_probe_on(Frama_C_unsigned_int_interval(0, 4294967295u), 512, 1);
  /*@ assert STATES_4: snooze_timeout <= 4294967295 * 512; */
  /* A shared LPAR: the shared table's CEDE residency x ticks per us. */
  fc_probe(100, 512);
  xcede_platform.shared_proc = true;
  snooze_timeout = 0;
  pseries_idle_probe();
  /*@ assert STATES_4: snooze_timeout == cpuidle_state_table[1].target_residency * 512; */
  fc_probe(100, 512);
  /*@ assert STATES_4: snooze_timeout == 100 * 512 &&
        dedicated_states[1].target_residency == 100; */
  fc_probe(1u << 23, 512);
  /*@ assert STATES_4: snooze_timeout == 8388608 * 512; */
  fc_probe(10 * FC_MOST_US, 512);
  /*@ assert STATES_4: snooze_timeout == 4294967290 * 512; */
  fc_probe(4294967295u, 512);
  /*@ assert STATES_4: snooze_timeout == 4294967295 * 512; */
  fc_probe(4294967295u, FC_TICKS_2_42);
  /*@ assert STATES_4: snooze_timeout == 4294967295 * 4398046; */
}
#else
static void fc_snooze(void) {}
#endif

int main(void) {
  Frama_C_make_unknown((char*)fc_payload, sizeof fc_payload);
  xcede_fw_reset();
  xcede_fw.payload = fc_payload;
  xcede_fw.payload_len = sizeof fc_payload;
  xcede_fw.nstatuses = FC_STATUSES;
  /* every answer any int: the script's bytes unknown (one builtin, not 4096 steps) */
  Frama_C_make_unknown((char*)xcede_fw.statuses, sizeof xcede_fw.statuses);
  nr_xcede_records = 0;
  memset(&xcede_latency_parameter, 0, sizeof xcede_latency_parameter);
  fixup_cede0_latency();
  /* STATES-4: EVA's overflow alarms in the fix-up; the assertion says that
   * EVA reached its return. */
  /*@ assert STATES_4: \true; */
  fc_exact();
  fc_snooze();
  /*@ assert FC_END: \true; */
  return 0;
}
#else
int main(void) { return 0; }
#endif
