/*
 * WP's contract for states (validate/framac.h): ACSL on a declaration of
 * pseries_idle_probe(), read after the code extracted from the file under
 * test (it names the file's tables and the globals the probe sets), so that
 * the contract is the project's and the kernel text stays as it is.
 *
 * STATES-5 where the probe succeeds: the table the probe chooses is one of
 * the file's two tables (the shared one or the dedicated one), the count it
 * gives the cpuidle driver (max_idle_state) is within that table, and it is
 * at most CPUIDLE_STATE_MAX. The probe is loop-free; the CEDE(0) fix-up it
 * calls has loops and no contract, so WP takes the call as writing
 * anything: what holds holds whatever the fix-up did, because the probe
 * chooses the table and its count after the call. Nothing is assumed of the
 * fix-up. Without -wp-rte no goal is about the probe's own arithmetic (the
 * snooze timeout), which EVA's unit and the tests judge.
 *
 * Not here, and why: which platforms call the fix-up (the probe's part of
 * STATES-6) needs a ghost count of the calls, and only the fix-up's own
 * contract could say that a call counts one; the fix-up's loops keep WP
 * from proving such a contract (no loop invariant goes into kernel text),
 * so it would be assumed, not proven. The harness judges STATES-6 on its
 * 80 platforms instead.
 *
 * Measured with Frama-C 25 and Z3 4.8.12 (why3 1.5.1): on this suite's
 * faithful probe and on Debian 6.1's and 6.12's, Qed proves both goals
 * (0.9 to 1.6 s with the parse); a dedicated count of 11 leaves both
 * unproven, a shared count one past its table (3) the TABLE goal.
 *
 * The note says "STATES-5 where the probe succeeds": a probe that fails
 * registers no table; the clause's verdict stays the tests'. Witnesses:
 * tests/validate/run_framac_states_wp.sh.
 */
#define FC_COUNT(t) ((int)(sizeof(t) / sizeof((t)[0])))
/*@ ensures STATES_5: \result == 0 ==> max_idle_state <= CPUIDLE_STATE_MAX;
    ensures TABLE: \result == 0 ==>
      (cpuidle_state_table == shared_states && max_idle_state <= FC_COUNT(shared_states)) ||
      (cpuidle_state_table == dedicated_states &&
       max_idle_state <= FC_COUNT(dedicated_states));
*/
static int pseries_idle_probe(void);
