/*
 * The Frama-C unit of busy_delay (spec/busy_delay.md; validate/framac.h).
 *
 * Read by Frama-C (EVA) in place of harness_busy_delay.c: after
 * shims/kernel.h and the code extracted from the file under test. main()
 * calls the file's rtas_busy_delay_time() and rtas_busy_delay() over every
 * 32-bit status, split where the spec's table changes (below -2, -2, -1 ..
 * 9899, each 9900 + n, above 9905), with need_resched() either way (and
 * rtas_busy_delay() before SYSTEM_SCHEDULING too, asserting nothing), and
 * states each clause's post-condition as an assertion named after it
 * ("assert BUSY_4:"): validate/framac.cc reads the names. An unproven
 * assertion blocks the clauses whose assertions come after it in this file
 * (EVA goes on from the states that satisfy it), so each clause's calls come
 * in the order main() makes them. Whatever EVA cannot
 * prove (an assertion left unknown, an alarm in the code or the shims)
 * keeps the clause at "tested".
 */
#include "framac_driver.h"

#define FC_BUSY (-2)      /* spec/busy_delay.md: busy */
#define FC_DELAY_MIN 9900 /* ... the extended delays 9900..9905 */
#define FC_DELAY_MAX 9905

#ifdef HAVE_RTAS_BUSY_DELAY
/* BUSY-1: retry exactly for -2 and 9900..9905, at run time (every
 * system_state from SYSTEM_SCHEDULING on: spec/busy_delay.md), whatever
 * need_resched() says. The statuses are the spec's numbers, not the shims'
 * macros: no macro of the file reaches this text (framac_text.h). */
static void fc_run_time(void) {
  system_state = (enum system_states)Frama_C_interval(SYSTEM_SCHEDULING, SYSTEM_SUSPEND);
  shim_need_resched = Frama_C_interval(0, 1);
}
static void fc_policy(void) {
  int status, n;
  bool retry;
  fc_run_time();
  retry = rtas_busy_delay(FC_BUSY);
  /*@ assert BUSY_1: retry; */
  for (n = 0; n <= 5; n++) {
    fc_run_time();
    retry = rtas_busy_delay(FC_DELAY_MIN + n);
    /*@ assert BUSY_1: retry; */
  }
  fc_run_time();
  status = Frama_C_interval(INT_MIN, FC_BUSY - 1);
  retry = rtas_busy_delay(status);
  /*@ assert BUSY_1: !retry; */
  fc_run_time();
  status = Frama_C_interval(FC_BUSY + 1, FC_DELAY_MIN - 1);
  retry = rtas_busy_delay(status);
  /*@ assert BUSY_1: !retry; */
  fc_run_time();
  status = Frama_C_interval(FC_DELAY_MAX + 1, INT_MAX);
  retry = rtas_busy_delay(status);
  /*@ assert BUSY_1: !retry; */
}

/* Before SYSTEM_SCHEDULING, every status, need_resched() either way: the
 * early-boot policy is BUSY-7's (the tests'), so nothing is asserted here,
 * but the harness runs that branch of rtas_busy_delay() and EVA must reach
 * it too (no statement of the function under test dead, validate/
 * framac_dead.h), and an alarm on the way keeps the clauses at tested. */
static void fc_early(void) {
  system_state = (enum system_states)Frama_C_interval(SYSTEM_BOOTING, SYSTEM_SCHEDULING - 1);
  shim_need_resched = Frama_C_interval(0, 1);
  (void)rtas_busy_delay(Frama_C_interval(INT_MIN, INT_MAX));
}
#endif

#ifdef HAVE_RTAS_BUSY_DELAY_TIME
/* BUSY-4: -2 -> 1; 990n -> 10^n; any other status -> 0. */
static void fc_time(void) {
  int status;
  unsigned int ms;
  ms = rtas_busy_delay_time(FC_BUSY);
  /*@ assert BUSY_4: ms == 1; */
  ms = rtas_busy_delay_time(9900);
  /*@ assert BUSY_4: ms == 1; */
  ms = rtas_busy_delay_time(9901);
  /*@ assert BUSY_4: ms == 10; */
  ms = rtas_busy_delay_time(9902);
  /*@ assert BUSY_4: ms == 100; */
  ms = rtas_busy_delay_time(9903);
  /*@ assert BUSY_4: ms == 1000; */
  ms = rtas_busy_delay_time(9904);
  /*@ assert BUSY_4: ms == 10000; */
  ms = rtas_busy_delay_time(9905);
  /*@ assert BUSY_4: ms == 100000; */
  status = Frama_C_interval(INT_MIN, FC_BUSY - 1);
  ms = rtas_busy_delay_time(status);
  /*@ assert BUSY_4: ms == 0; */
  status = Frama_C_interval(FC_BUSY + 1, FC_DELAY_MIN - 1);
  ms = rtas_busy_delay_time(status);
  /*@ assert BUSY_4: ms == 0; */
  status = Frama_C_interval(FC_DELAY_MAX + 1, INT_MAX);
  ms = rtas_busy_delay_time(status);
  /*@ assert BUSY_4: ms == 0; */
}
#endif

int main(void) {
#ifdef HAVE_RTAS_BUSY_DELAY
  fc_early(); /* first: an assertion EVA finds false ends its paths */
  fc_policy();
#endif
#ifdef HAVE_RTAS_BUSY_DELAY_TIME
  fc_time();
#endif
  /*@ assert FC_END: \true; */
  return 0;
}
