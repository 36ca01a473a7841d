/*
 * WP's contracts for busy_delay (validate/framac.h): ACSL on declarations,
 * read before the code extracted from the file under test, so that the
 * contract is the project's and the kernel text stays as it is. Frama-C
 * merges a declaration's contract into the definition's; WP proves it with
 * Z3 through why3.
 *
 * BUSY-1 at run time (the scheduler up): retry exactly for -2 and
 * 9900..9905, for every int status.
 */
/*@ requires system_state >= SYSTEM_SCHEDULING;
    ensures BUSY_1: \result != 0 <==> (status == -2 || (9900 <= status <= 9905));
*/
bool rtas_busy_delay(int status);
