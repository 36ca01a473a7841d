/*
 * The candidate adapter of `idlespec validate --candidate` (see
 * candidate_abi.h): compiled in place of extracted kernel text, between the
 * shims and a component's harness, it loads the library, checks its ABI,
 * hands it the environment and defines the kernel names the harness calls
 * and reads as forwards to the library.
 *
 *   -DIDLESPEC_CANDIDATE_PATH="lib.so"   the library
 *   -DCANDIDATE_BUSY_DELAY / -DCANDIDATE_XCEDE   which component's names
 *
 * With IDLESPEC_CANDIDATE_PROBE set in the environment, any program built
 * with this adapter prints
 *   CANDIDATE abi=<n> functions=<names, each followed by a comma> name=<name>
 * (the name last, escaped: see cand_print_name)
 * and exits 0 before its main(); a library that cannot be loaded, lacks the symbol or speaks
 * another ABI version prints "CANDIDATE-ERROR <why>" and exits 2, whatever
 * the mode.
 */
#include <dlfcn.h>
#include <stdlib.h>

#include "candidate_abi.h"

static const struct idlespec_candidate_v1 *cand;

static void cand_usleep_range(unsigned long lo, unsigned long hi) { usleep_range(lo, hi); }
static void cand_msleep(unsigned int ms) { msleep(ms); }
static void cand_fsleep(unsigned long us) { fsleep(us); }
static void cand_mdelay(unsigned long ms) { mdelay(ms); }
static void cand_udelay(unsigned long us) { udelay(us); }
static void cand_cond_resched(void) { cond_resched(); }
static void cand_might_sleep(void) { might_sleep(); }
static bool cand_need_resched(void) { return need_resched(); }
static bool cand_early_boot(void) { return system_state < SYSTEM_SCHEDULING; }
static void cand_log(const char *line) { printk("%s\n", line); }
#ifdef CANDIDATE_XCEDE
static int cand_get_system_parameter(unsigned int parameter, void *buf, size_t len) {
  return rtas_call(rtas_token("ibm,get-system-parameter"), 3, 1, NULL, parameter, __pa(buf), len);
}
#else
static int cand_get_system_parameter(unsigned int parameter, void *buf, size_t len) {
  (void)parameter, (void)buf, (void)len;
  return -1;
}
#endif

static const struct idlespec_env_v1 cand_env = {
    IDLESPEC_CANDIDATE_ABI_VERSION, cand_usleep_range, cand_msleep,   cand_fsleep,
    cand_mdelay,                    cand_udelay,       cand_cond_resched, cand_might_sleep,
    cand_need_resched,              cand_early_boot,   cand_get_system_parameter, cand_log,
};

static void cand_fail(const char *fmt, const char *detail) {
  printf("CANDIDATE-ERROR ");
  printf(fmt, detail ? detail : "");
  printf("\n");
  fflush(stdout);
  exit(2);
}

/* The library's name, last on the probe's line: at most 200 bytes, and every
 * byte outside printable ASCII (a newline, a control character, UTF-8) or a
 * backslash as \xHH, so the line stays one line and nothing in the name can
 * read as another field. */
static void cand_print_name(const char *name) {
  if (!name) {
    printf("(unnamed)");
    return;
  }
  for (size_t i = 0; name[i]; ++i) {
    if (i == 200) {
      printf("...");
      break;
    }
    const unsigned char c = (unsigned char)name[i];
    if (c < 0x20 || c >= 0x7f || c == '\\')
      printf("\\x%02x", c);
    else
      putchar(c);
  }
}

__attribute__((constructor)) static void cand_load(void) {
  void *lib = dlopen(IDLESPEC_CANDIDATE_PATH, RTLD_NOW | RTLD_LOCAL);
  if (!lib) cand_fail("cannot load the library: %s", dlerror());
  const struct idlespec_candidate_v1 *(*entry)(void) =
      (const struct idlespec_candidate_v1 *(*)(void))dlsym(lib, "idlespec_candidate_v1");
  if (!entry) cand_fail("the library does not export idlespec_candidate_v1()%s", NULL);
  cand = entry();
  if (!cand) cand_fail("idlespec_candidate_v1() returned NULL%s", NULL);
  if (cand->abi_version != IDLESPEC_CANDIDATE_ABI_VERSION) {
    char v[32];
    snprintf(v, sizeof(v), "%u", cand->abi_version);
    cand_fail("the library speaks candidate ABI version %s; this idlespec speaks version 1", v);
  }
#ifdef CANDIDATE_XCEDE
  if (cand->parse_cede_parameters &&
      (!cand->nr_xcede_records || !cand->xcede_buffer || cand->xcede_buffer_size != 164))
    cand_fail("parse_cede_parameters needs nr_xcede_records and a 164-byte xcede_buffer%s", NULL);
#endif
  if (getenv("IDLESPEC_CANDIDATE_PROBE")) { /* what the library implements, then exit */
    printf("CANDIDATE abi=%u functions=%s%s%s name=", cand->abi_version,
           cand->rtas_busy_delay_time ? "rtas_busy_delay_time," : "",
           cand->rtas_busy_delay ? "rtas_busy_delay," : "",
           cand->parse_cede_parameters ? "parse_cede_parameters," : "");
    cand_print_name(cand->name);
    printf("\n");
    fflush(stdout);
    exit(0);
  }
  if (cand->init) cand->init(&cand_env);
}

#ifdef CANDIDATE_BUSY_DELAY
unsigned int rtas_busy_delay_time(int status) { return cand->rtas_busy_delay_time(status); }
bool rtas_busy_delay(int status) { return cand->rtas_busy_delay(status); }
#endif

#ifdef CANDIDATE_XCEDE
/* The kernel's layout of parameter 45 (PAPR): what the harness reads. */
struct xcede_latency_record {
  u8 hint;
  __be64 latency_ticks;
  u8 wake_on_irqs;
} __attribute__((packed));
struct xcede_latency_payload {
  u8 record_size;
  struct xcede_latency_record records[16];
} __attribute__((packed));
struct xcede_latency_parameter {
  __be16 payload_size;
  struct xcede_latency_payload payload;
  u8 null_char;
} __attribute__((packed));
#define nr_xcede_records (*cand->nr_xcede_records)
#define xcede_latency_parameter (*(struct xcede_latency_parameter *)cand->xcede_buffer)
static int parse_cede_parameters(void) { return cand->parse_cede_parameters(); }
#endif
