/*
 * WP's contract for xcede (validate/framac.h): ACSL on declarations, read
 * after the code extracted from the file under test (the contract names
 * nr_xcede_records, which the code defines); Frama-C merges a declaration's
 * contract into the definition's, and WP proves it with Z3 through why3.
 *
 * XCEDE-6 on a query whose first answer is final: when the fake firmware's
 * next status is neither success nor busy (-2, 9900..9905),
 * parse_cede_parameters() returns non-zero and leaves no records. The
 * records loop is reached only after a successful query, so its havoc
 * (no loop invariant can go into kernel text) is on a path the contract
 * excludes; a retry loop (this suite's faithful text) is unrolled once
 * (-ulevel 1) and its rest is reached only on a busy answer.
 *
 * The shims the code calls have contracts here too, and WP proves them on
 * their bodies in the same run (the unit's `shims`): nothing the caller
 * relies on is assumed.
 */

/*@ predicate xcede_busy(integer s) =
      s == RTAS_BUSY || (RTAS_EXTENDED_DELAY_MIN <= s <= RTAS_EXTENDED_DELAY_MAX); */

/* The name test and rtas_token() read the name's 25 bytes and write nothing. */
/*@ requires \valid_read(s + (0 .. 24));
    assigns \nothing; */
static inline bool xcede_fw_is_sysparm_name(const char *s);
/*@ requires \valid_read(service + (0 .. 24));
    assigns \nothing; */
static inline int rtas_token(const char *service);

/* A call whose answer is not success: the firmware's own record and
 * nothing else changes (no buffer is written), and the answer is the
 * script's next status, or -1 (an unknown token, or the script ran out). */
/*@ requires outputs == \null;
    requires xcede_fw.next <= xcede_fw.nstatuses <= XCEDE_FW_MAX_STATUSES;
    requires xcede_fw.next == xcede_fw.nstatuses || xcede_fw.statuses[xcede_fw.next] != 0;
    assigns xcede_fw;
    ensures \result == -1 || \result == \old(xcede_fw.statuses[xcede_fw.next]); */
static int shim_rtas_call(int token, int nargs, int nret, int *outputs, const unsigned long *args);

/* The busy-delay policy on an answer that is not busy: no retry. */
/*@ requires !xcede_busy(status);
    assigns xcede_fw.busy_delays;
    ensures \result == 0; */
static bool rtas_busy_delay(int status);

/* printk under Frama-C records nothing; its result is any the harness's
 * can be (Frama-C's builtin Frama_C_interval, whose contract is Frama-C's). */
/*@ assigns Frama_C_entropy_source; */
static int xcede_printk(const char *fmt, ...);

/*@ requires nr_xcede_records == 0;
    requires xcede_fw.next < xcede_fw.nstatuses <= XCEDE_FW_MAX_STATUSES;
    requires xcede_fw.statuses[xcede_fw.next] != 0 && !xcede_busy(xcede_fw.statuses[xcede_fw.next]);
    ensures XCEDE_6: \result != 0 && nr_xcede_records == 0; */
static int parse_cede_parameters(void);
