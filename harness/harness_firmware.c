/*
 * The runtime the fake-firmware harnesses of `idlespec validate` share
 * (harness_xcede.c, harness_states.c): the line protocol, output, crash and
 * hang recovery, and the loop over inputs. Included once, after the shims
 * (kernel.h, xcede_env.h) and the code under test; the harness then defines
 * a struct harness_component and calls harness_run() from main().
 *
 * Input, one line each (blank lines are skipped):
 *   <id> <statuses> <payloadhex>
 * id: a decimal integer; statuses: comma-separated decimal RTAS statuses,
 * one per rtas_call() ("-" for none: every call finds the script exhausted);
 * payloadhex: the bytes a successful ibm,get-system-parameter hands over
 * ("-" for none).
 *
 * Output, per input (one write per input): the component's result line (or
 * CRASH <id> <signal> <name> ... / HANG <id> ... with the component's fields
 * at that moment), then
 *   LOG <id> <text>          each printk line, up to 20
 *   WARN <id> <text>         WARN_ON/BUG_ON hits (and rtas_data_buf_lock misuse)
 * and after all inputs DONE <inputs run>. The run stops early with "ABORT
 * too many crashes/hangs" (exit 3) after 8 crashes/hangs, "ABORT bad input
 * line N: why" (exit 2) on a malformed line. With argument "trace" (or
 * "boundary") "AT <id>" goes to stderr before each input, to attribute
 * sanitizer reports.
 */
#include "harness_runtime.c"

/* A variable another file of the kernel defines, which the file only
 * declares `extern` (the extractor's IDLESPEC_EXTERN_<name>): a pseries
 * development branch reads cede_latency_override, an override of CEDE's
 * latency set elsewhere. The harness defines it, of the type the file
 * declares, as 0: no override, the table spec/states.md describes (the
 * spec has no override, so no other value is in its range).
 * idlespec assumed: cede_latency_override = 0 (defined in another file of the kernel; no override: the table spec/states.md describes) */
#ifdef IDLESPEC_EXTERN_cede_latency_override
__typeof__(cede_latency_override) cede_latency_override;
#endif

static int hex_digit(int c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

static u8 *payload;
static size_t payload_cap;

/* Decodes the payload field into `payload`; returns its length. */
static size_t parse_payload(const char *hex) {
  if (!strcmp(hex, "-")) return 0;
  const size_t digits = strlen(hex);
  if (digits % 2) bad_input("payload has an odd number of hex digits");
  const size_t n = digits / 2;
  if (n > payload_cap) {
    u8 *p = (u8 *)realloc(payload, n);
    if (!p) bad_input("payload too large");
    payload = p;
    payload_cap = n;
  }
  for (size_t i = 0; i < n; i++) {
    const int hi = hex_digit((unsigned char)hex[2 * i]), lo = hex_digit((unsigned char)hex[2 * i + 1]);
    if (hi < 0 || lo < 0) bad_input("payload is not hex");
    payload[i] = (u8)(hi << 4 | lo);
  }
  return n;
}

/* Fills the fake firmware's script from "s1,s2,...". Statuses outside int32
 * but within u32 (e.g. 4294967294) are taken as their 32-bit pattern. */
static void parse_statuses(char *list) {
  xcede_fw.nstatuses = 0;
  if (!strcmp(list, "-")) return;
  char *p = list;
  for (;;) {
    char *end;
    const long long v = strtoll(p, &end, 10);
    if (end == p || (*end != ',' && *end != 0)) bad_input("statuses are not a comma-separated list of integers");
    if (v < -2147483648LL || v > 4294967295LL) bad_input("status out of 32-bit range");
    if (xcede_fw.nstatuses >= XCEDE_FW_MAX_STATUSES) bad_input("too many statuses");
    xcede_fw.statuses[xcede_fw.nstatuses++] = (int)(int32_t)(uint32_t)(v & 0xffffffffLL);
    if (*end == 0) break;
    p = end + 1;
  }
}


/* --- the loop ------------------------------------------------------------- */
struct harness_component {
  const char *name;     /* "harness_xcede" */
  const char *function; /* the function under test */
  bool present;         /* it was found (else: ABSENT) */
  void (*setup)(void);  /* once, before the first input (may be NULL) */
  void (*reset)(void);  /* the state the function keeps, as at boot */
  int (*call)(void);    /* the call under test */
  /* The result line: trap 0 (returned), > 0 (crashed with that signal) or
   * -1 (hung); ret is meaningful only for trap 0. */
  void (*report)(long long id, int ret, int trap);
};

/* The head of a result line: "<tag> <id>" when the call returned, else
 * "CRASH <id> <signal> <name>" or "HANG <id>". */
__attribute__((unused)) static void result_head(char *head, size_t size, const char *tag,
                                                long long id, int trap) {
  if (trap > 0)
    snprintf(head, size, "CRASH %lld %d %s", id, trap, signal_name(trap));
  else if (trap < 0)
    snprintf(head, size, "HANG %lld", id);
  else
    snprintf(head, size, "%s %lld", tag, id);
}

static void emit_log_and_warns(long long id) {
  for (unsigned i = 0; i < xcede_log.n; i++) emit("LOG %lld %s", id, xcede_log.line[i]);
  for (unsigned i = 0; i < nwarns; i++) emit("WARN %lld %s", id, warns[i]);
}

/* The state every input starts from: the function's own, the firmware's,
 * the shims', the findings. */
static void reset_for_input(const struct harness_component *c) {
  c->reset();
  memset(rtas_data_buf, 0, sizeof rtas_data_buf);
  rtas_data_buf_lock.held = 0;
  shim_reset_requests();
  shim_clock_us = 0;
  xcede_log_reset();
  nwarns = 0;
}

/* The input in flight, for the hang backstop (harness_runtime.c): the line
 * the signal watchdog would have written, from the backstop's thread. */
static const struct harness_component *inflight_component;
static long long inflight_id;

static void firmware_backstop_report(void) {
  if (!inflight_component) return;
  inflight_component->report(inflight_id, 0, -1);
  emit_log_and_warns(inflight_id);
}

static void run_input(const struct harness_component *c, long long id, bool trace) {
  static volatile int ret;
  inflight_component = c;
  inflight_id = id;
  reset_for_input(c);
  ret = 0;
  trap_sig = 0;

  trace_at(trace, id);
  if (sigsetjmp(recover, 1) == 0) {
    watchdog(WATCHDOG_SECONDS);
    in_call = 1;
    ret = c->call();
    in_call = 0;
    watchdog(0);
  } else {
    watchdog(0);
  }

  if (trap_sig != 0) {
    traps++;
    c->report(id, 0, (int)trap_sig);
    emit_log_and_warns(id);
    if (traps >= MAX_TRAPS) {
      emit("ABORT too many crashes/hangs");
      flush_out();
      exit(3);
    }
    return;
  }
  if (xcede_fw.lock_misuse)
    add_warn("rtas_data_buf_lock: %u recursive lock(s) or unlock(s) of a free lock", xcede_fw.lock_misuse);
  if (rtas_data_buf_lock.held) add_warn("rtas_data_buf_lock still held on return");
  c->report(id, ret, 0);
  emit_log_and_warns(id);
}

static const struct harness_component *harness_current;

static void firmware_input(long long id, char **f, int nf, bool trace) {
  (void)nf;
  xcede_fw_reset();
  parse_statuses(f[0]);
  xcede_fw.payload_len = parse_payload(f[1]);
  xcede_fw.payload = payload;
  run_input(harness_current, id, trace);
}

/* The main loop of a harness whose inputs are "<id>" and `nfields` fields
 * (`fields` names them for the messages), each run by `each`. */
static int harness_run_fields(int argc, char **argv, const struct harness_component *c,
                              harness_input_fn each, int nfields, const char *fields) {
  if (argc > 2 || (argc == 2 && strcmp(argv[1], "trace") && strcmp(argv[1], "boundary"))) {
    fprintf(stderr, "usage: %s [trace]  (inputs on stdin: <id> %s)\n", c->name, fields);
    return 2;
  }
  if (!c->present) {
    emit("ABSENT %s", c->function);
    emit("DONE 0");
    flush_out();
    return 0;
  }
  if (c->setup) c->setup();
  backstop_report = firmware_backstop_report;
  install_traps();
  harness_current = c;
  static const char *const count[] = {"one", "two", "three", "four", "five"};
  char expect[160];
  snprintf(expect, sizeof(expect), "expected %s fields: <id> %s", count[nfields], fields);
  return harness_input_loop(each, nfields, nfields, expect, argc == 2);
}

__attribute__((unused)) static int harness_run(int argc, char **argv,
                                               const struct harness_component *c) {
  return harness_run_fields(argc, argv, c, firmware_input, 2, "<statuses> <payloadhex>");
}

/* --- the fuzz campaign's entry (built with -fsanitize=fuzzer) ----------------
 * libFuzzer's bytes as a firmware script; validate/input_check.cc
 * (fuzz_script) reads them the same way to judge the corpus:
 *   byte 0   bits 0-1: retried statuses before the last (0..3), each from
 *            the next byte (FUZZ_RETRIED[b % 7]); bit 2: the last status
 *            fails (FUZZ_FAILING[bits 3-5]), else it is 0
 *   the rest the payload.
 * With `records_only` every byte is record data: whole 10-byte records (at
 * most 16), wrapped in a valid header and NUL; the status is 0.
 * Crashes, sanitizer reports and hangs are libFuzzer's to catch: no traps,
 * no watchdog; the output is dropped. */
#ifdef IDLESPEC_LIBFUZZER
static const int FUZZ_RETRIED[7] = {-2, 9900, 9901, 9902, 9903, 9904, 9905};
static const int FUZZ_FAILING[8] = {-1, -3, 9906, 1, -9999, 9899, (-2147483647 - 1), 2147483647};
static u8 fuzz_payload[4096];

static void fuzz_firmware_input(const struct harness_component *c, bool records_only,
                                const uint8_t *data, size_t size) {
  static bool set_up;
  if (!c->present) return;
  if (!set_up) {
    if (c->setup) c->setup();
    set_up = true;
  }
  xcede_fw_reset();
  size_t at = 0;
  const unsigned head = size > 0 && !records_only ? data[at++] : 0;
  for (unsigned i = 0; i < (head & 3); i++)
    xcede_fw.statuses[xcede_fw.nstatuses++] = FUZZ_RETRIED[(at < size ? data[at++] : 0) % 7];
  xcede_fw.statuses[xcede_fw.nstatuses++] = (head & 4) ? FUZZ_FAILING[(head >> 3) & 7] : 0;
  size_t n = size - at;
  if (records_only) {
    size_t records = n / 10 > 16 ? 16 : n / 10;
    const unsigned ps = (unsigned)(2 + 10 * records);
    fuzz_payload[0] = (u8)(ps >> 8), fuzz_payload[1] = (u8)ps, fuzz_payload[2] = 9;
    memcpy(fuzz_payload + 3, data + at, 10 * records);
    fuzz_payload[3 + 10 * records] = 0;
    n = 4 + 10 * records;
  } else {
    if (n > sizeof fuzz_payload) n = sizeof fuzz_payload;
    memcpy(fuzz_payload, data + at, n);
  }
  xcede_fw.payload = fuzz_payload;
  xcede_fw.payload_len = n;
  reset_for_input(c);
  c->call();
  out_len = 0;
}

#define HARNESS_FUZZ_ENTRY(component, records_only)                         \
  int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);             \
  int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {            \
    fuzz_firmware_input((component), (records_only), data, size);           \
    return 0;                                                               \
  }
#endif
