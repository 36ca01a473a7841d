/*
 * The idlespec candidate C ABI, version 1: how an implementation that is
 * not kernel source (a firmware team's decoder, a rewrite in another
 * language with a C interface, a prototype) is checked by
 * `idlespec validate --candidate LIB.so`.
 *
 * The library exports one symbol:
 *
 *     const struct idlespec_candidate_v1 *idlespec_candidate_v1(void);
 *
 * returning the functions it implements, with the kernel's signatures (NULL
 * for those it does not), and receives in init() the environment it may
 * call instead of the kernel's: sleeps and delays are recorded, never slept;
 * the firmware is idlespec's fake firmware serving the input under test.
 * Each component's harness is then the same one kernel text gets, built
 * without sanitizers (the library was built elsewhere; the report says so).
 *
 * The library must not keep state between calls other than what the kernel
 * keeps (the early-boot count of rtas_busy_delay, the xcede count and
 * buffer), which the harness resets through the pointers below.
 */
#ifndef IDLESPEC_CANDIDATE_ABI_H
#define IDLESPEC_CANDIDATE_ABI_H

#include <stdbool.h>
#include <stddef.h>

#define IDLESPEC_CANDIDATE_ABI_VERSION 1u

/* What the candidate may call. Every pointer is set. */
struct idlespec_env_v1 {
  unsigned abi_version; /* IDLESPEC_CANDIDATE_ABI_VERSION */
  /* Sleeps, delays and yields, as the kernel's (recorded, not slept). */
  void (*usleep_range)(unsigned long min_us, unsigned long max_us);
  void (*msleep)(unsigned int ms);
  void (*fsleep)(unsigned long us);
  void (*mdelay)(unsigned long ms);
  void (*udelay)(unsigned long us);
  void (*cond_resched)(void);
  void (*might_sleep)(void);
  bool (*need_resched)(void);
  /* true while the kernel could not yet sleep (system_state < SYSTEM_SCHEDULING) */
  bool (*early_boot)(void);
  /* ibm,get-system-parameter: fills buf (at most len bytes) on success and
   * returns the RTAS status (0, -2, 9900..9905, or an error). */
  int (*get_system_parameter)(unsigned int parameter, void* buf, size_t len);
  /* A log line (printk's text, without a level). */
  void (*log)(const char* line);
};

struct idlespec_candidate_v1 {
  unsigned abi_version; /* IDLESPEC_CANDIDATE_ABI_VERSION */
  const char* name;     /* shown in the report */
  /* Called once, before any function below. */
  void (*init)(const struct idlespec_env_v1* env);

  /* busy_delay (spec/busy_delay.md) */
  unsigned int (*rtas_busy_delay_time)(int status);
  bool (*rtas_busy_delay)(int status);

  /* xcede (spec/xcede.md): parse_cede_parameters() queries parameter 45
   * through env->get_system_parameter into xcede_buffer and sets
   * *nr_xcede_records; the buffer has the kernel's layout (payload_size,
   * record-size byte, 16 records of 10 bytes, NUL: 164 bytes). */
  int (*parse_cede_parameters)(void);
  unsigned int* nr_xcede_records;
  void* xcede_buffer;
  size_t xcede_buffer_size;
};

const struct idlespec_candidate_v1* idlespec_candidate_v1(void);

#endif /* IDLESPEC_CANDIDATE_ABI_H */
