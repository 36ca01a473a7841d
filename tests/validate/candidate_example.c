/*
 * idlespec test input (tests/validate/run_candidate.sh): a candidate
 * library for `idlespec validate --candidate`, written against
 * harness/candidate_abi.h as a firmware team might write one: plain C, no
 * kernel headers, every kernel service through the environment it is given.
 *
 *   cc -shared -fPIC -I harness tests/validate/candidate_example.c -o libcand.so
 *
 * -DTRUST_PAYLOAD_SIZE: the record count is taken from payload_size alone
 * (XCEDE-4 fails). -DABI_VERSION=N: claim another ABI version. -DNO_XCEDE:
 * implement the busy_delay functions only.
 */
#include <stdint.h>
#include <string.h>

#include "candidate_abi.h"

#ifndef ABI_VERSION
#define ABI_VERSION IDLESPEC_CANDIDATE_ABI_VERSION
#endif

static const struct idlespec_env_v1 *env;
static void init(const struct idlespec_env_v1 *e) { env = e; }

static int is_extended(int status) { return status >= 9900 && status <= 9905; }

static unsigned int delay_time(int status) {
  unsigned int ms = 1;
  if (status == -2) return 1;
  if (!is_extended(status)) return 0;
  for (int n = status - 9900; n > 0; n--) ms *= 10;
  return ms;
}

static unsigned int early_waits;

static bool busy_delay(int status) {
  if (env->early_boot()) {
    if (status == -2 || !is_extended(status)) {
      early_waits = 0;
      return status == -2;
    }
    env->mdelay(1);
    if (++early_waits <= 1000) return true;
    early_waits = 0;
    return false;
  }
  if (status == -2) {
    env->cond_resched();
    return true;
  }
  if (!is_extended(status)) return false;
  unsigned int ms = delay_time(status);
  if (ms > 1000) ms = 1000;
  if (ms <= 20)
    env->usleep_range(ms * 100u, ms * 1000u);
  else
    env->msleep(ms);
  return true;
}

static uint8_t buffer[164];
static unsigned int count;

static int parse(void) {
  int status;
  count = 0;
  do
    status = env->get_system_parameter(45, buffer, sizeof(buffer));
  while (busy_delay(status));
  if (status) return status;
  if (buffer[2] != 9) return -22;
  const unsigned int payload_size = (unsigned int)buffer[0] << 8 | buffer[1];
  if (payload_size < 2) return 0;
  unsigned int n = (payload_size - 2) / 10;
#ifndef TRUST_PAYLOAD_SIZE
  if (n > 16) n = 16;
#endif
  count = n;
  return 0;
}

static const struct idlespec_candidate_v1 candidate = {
    .abi_version = ABI_VERSION,
    .name = "tests/validate/candidate_example.c",
    .init = init,
    .rtas_busy_delay_time = delay_time,
    .rtas_busy_delay = busy_delay,
#ifndef NO_XCEDE
    .parse_cede_parameters = parse,
    .nr_xcede_records = &count,
    .xcede_buffer = buffer,
    .xcede_buffer_size = sizeof(buffer),
#endif
};

const struct idlespec_candidate_v1 *idlespec_candidate_v1(void) { return &candidate; }
