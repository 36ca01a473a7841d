/*
 * What the xcede code (spec/xcede.md) needs of the kernel beyond
 * harness/shims/kernel.h: included right after it, before the extracted
 * parse_cede_parameters() (and fixup_cede0_latency(), its later user).
 *
 * Firmware is fake and scripted by the harness (harness/harness_xcede.c):
 * every rtas_call() takes the next status of the input's status script; a
 * success of ibm,get-system-parameter(45) hands over the input's payload.
 * Everything the code asked for is recorded in xcede_fw, for the harness to
 * report. rtas_busy_delay() is the busy_delay component's reference policy
 * (spec/busy_delay.md), with its sleeps recorded, never slept.
 *
 * Covers both ways the kernel has asked: rtas_call(rtas_token(name), ...)
 * and rtas_call(rtas_function_token(RTAS_FN_...), ...), into the caller's
 * buffer or into rtas_data_buf under rtas_data_buf_lock, and
 * papr_sysparm_get(). The byte-order types and conversions are kernel.h's.
 * Everything is static; names the kernel shim might one day define are
 * guarded.
 */
#ifndef IDLESPEC_VALIDATE_SHIM_XCEDE_ENV_H
#define IDLESPEC_VALIDATE_SHIM_XCEDE_ENV_H

#include <stdlib.h>

/* --- types ------------------------------------------------------------------ */
typedef uint8_t __u8;
typedef uint16_t __u16;
typedef uint32_t __u32;
typedef uint64_t __u64;
typedef int32_t __s32;
typedef int64_t __s64;
typedef unsigned long phys_addr_t;

/* --- annotations ------------------------------------------------------------ */
#ifndef __packed
#define __packed __attribute__((packed))
#endif
#ifndef __aligned
#define __aligned(x) __attribute__((aligned(x)))
#endif
#ifndef __read_mostly
#define __read_mostly
#endif
#ifndef __ro_after_init
#define __ro_after_init
#endif
#ifndef fallthrough
#define fallthrough __attribute__((fallthrough))
#endif

/* --- errno (the kernel's values, the same as Linux userspace's) ------------- */
#ifndef EPERM
#define EPERM 1
#endif
#ifndef ENOENT
#define ENOENT 2
#endif
#ifndef EIO
#define EIO 5
#endif
#ifndef EAGAIN
#define EAGAIN 11
#endif
#ifndef ENOMEM
#define ENOMEM 12
#endif
#ifndef EFAULT
#define EFAULT 14
#endif
#ifndef EBUSY
#define EBUSY 16
#endif
#ifndef ENODEV
#define ENODEV 19
#endif
#ifndef EINVAL
#define EINVAL 22
#endif
#ifndef ENOSPC
#define ENOSPC 28
#endif
#ifndef ERANGE
#define ERANGE 34
#endif
#ifndef ENODATA
#define ENODATA 61
#endif
#ifndef EOPNOTSUPP
#define EOPNOTSUPP 95
#endif
#ifndef ETIMEDOUT
#define ETIMEDOUT 110
#endif

/* --- byte order: kernel.h's conversions, for the target's order -------------- */

/* --- addresses: real mode is identity here ----------------------------------- */
#ifndef __pa
#define __pa(x) ((unsigned long)(x))
#define __va(x) ((void *)(unsigned long)(x))
#endif

/* --- arithmetic -------------------------------------------------------------- */
#ifndef NSEC_PER_USEC
#define NSEC_PER_USEC 1000L
#define NSEC_PER_MSEC 1000000L
#define USEC_PER_MSEC 1000L
#define USEC_PER_SEC 1000000L
#define MSEC_PER_SEC 1000L
#define NSEC_PER_SEC 1000000000L
#endif
#ifndef do_div
/* The kernel's do_div: divides n (a u64 lvalue) in place, returns the remainder. */
#define do_div(n, base) ({ uint32_t _dd_base = (base); uint32_t _dd_rem = (uint32_t)((uint64_t)(n) % _dd_base); \
                           (n) = (uint64_t)(n) / _dd_base; _dd_rem; })
#endif
#ifndef DIV_ROUND_UP
#define DIV_ROUND_UP(n, d) (((n) + (d) - 1) / (d))
#endif
#ifndef DIV_ROUND_DOWN_ULL
#define DIV_ROUND_DOWN_ULL(ll, d) ({ unsigned long long _rd_tmp = (ll); do_div(_rd_tmp, d); _rd_tmp; })
#endif
#ifndef DIV_ROUND_UP_ULL
/* As the kernel writes it: ll + d - 1 may wrap, and does there too. */
#define DIV_ROUND_UP_ULL(ll, d) DIV_ROUND_DOWN_ULL((unsigned long long)(ll) + (d) - 1, (d))
#endif
#ifndef div_u64
static inline u64 xcede_div_u64(u64 dividend, u32 divisor) { return dividend / divisor; }
#define div_u64(a, b) xcede_div_u64(a, b)
#endif

/* --- the timebase (spec/states.md KD-1; impl/timebase.h is the model) -------- */
/* 512 MHz by default; the harness may set another frequency (ticks per µs follows). */
__attribute__((unused)) static unsigned long tb_ticks_per_sec = 512000000ul;
__attribute__((unused)) static unsigned long tb_ticks_per_usec = 512ul;
__attribute__((unused)) static unsigned long tb_ticks_per_jiffy = 512000000ul / 250;

/* The kernel's scale: 10^9 * 2^64 / tb_hz, shifted right until it fits 64 bits.
 * In 64-bit halves (no unsigned __int128, which Frama-C does not read): the
 * quotient's high word is 10^9 / hz, its low word the long division of the
 * remainder * 2^64 by hz, a bit at a time; no step wraps. */
static inline void xcede_tb_scale(u64 *scale, unsigned *shift) {
  const u64 num_high = 1000000000u;
  const u64 hz = tb_ticks_per_sec ? tb_ticks_per_sec : 1;
  const u64 low63 = ~0ull >> 1; /* a word's bits below its top one */
  u64 high = num_high / hz;
  u64 rem = num_high % hz; /* < hz */
  u64 low = 0;
  unsigned s;
  for (int i = 0; i < 64; i++) { /* shifts drop the top bit by mask, never by overflow */
    const u64 carry = rem >> 63;
    rem = (rem & low63) << 1;
    low = (low & low63) << 1;
    if (carry || rem >= hz) { /* the true remainder 2^64*carry + rem is >= hz */
      rem = carry ? rem + ~hz + 1 : rem - hz; /* < hz, so neither sum wraps */
      low |= 1;
    }
  }
  for (s = 0; s < 64 && high != 0; s++) {
    low = (low >> 1) | ((high & 1) << 63);
    high >>= 1;
  }
  *scale = low;
  *shift = s;
}
/* The high 64 bits of a * b, from 32-bit halves. */
static inline u64 xcede_mul_high(u64 a, u64 b) {
  const u64 a_lo = (u32)a, a_hi = a >> 32, b_lo = (u32)b, b_hi = b >> 32;
  const u64 lo_lo = a_lo * b_lo, lo_hi = a_lo * b_hi, hi_lo = a_hi * b_lo, hi_hi = a_hi * b_hi;
  const u64 mid = (lo_lo >> 32) + (u32)lo_hi + (u32)hi_lo; /* < 3 * 2^32 */
  return hi_hi + (lo_hi >> 32) + (hi_lo >> 32) + (mid >> 32);
}
/* tb_to_ns(): the high 64 bits of ticks * scale, shifted left by shift. */
static inline u64 tb_to_ns(u64 ticks) {
  u64 scale;
  unsigned shift;
  xcede_tb_scale(&scale, &shift);
  return xcede_mul_high(ticks, scale) << shift;
}
static inline u64 xcede_get_tb(void) { return 0; }
#ifndef get_tb
#define get_tb() xcede_get_tb()
#endif

/* --- the platform under test (the harness sets it) ---------------------------- */
#define CPU_FTR_ARCH_206 0x0000000000000100ull
#define CPU_FTR_ARCH_207S 0x0000000000000200ull
#define CPU_FTR_ARCH_300 0x0000000000000400ull
#define CPU_FTR_ARCH_31 0x0000000000000800ull
#define FW_FEATURE_LPAR 0x0000000000400000ull
#define FW_FEATURE_SPLPAR 0x0000000000100000ull
#define PVR_POWER7 0x003F
#define PVR_POWER7p 0x004A
#define PVR_POWER8E 0x004B
#define PVR_POWER8NVL 0x004C
#define PVR_POWER8 0x004D
#define PVR_POWER9 0x004E
#define PVR_POWER10 0x0080
#define PVR_POWER11 0x0082

struct xcede_platform {
  u64 cpu_features;      /* cpu_has_feature() */
  u64 fw_features;       /* firmware_has_feature() */
  unsigned pvr_version;  /* pvr_version_is() */
  bool shared_proc;      /* lppaca_shared_proc() */
};
/* Default: a dedicated-processor POWER10 LPAR. */
static struct xcede_platform xcede_platform = {CPU_FTR_ARCH_206 | CPU_FTR_ARCH_207S | CPU_FTR_ARCH_300 | CPU_FTR_ARCH_31,
                                               FW_FEATURE_LPAR | FW_FEATURE_SPLPAR, PVR_POWER10, false};

static inline bool cpu_has_feature(u64 feature) { return (xcede_platform.cpu_features & feature) == feature; }
static inline bool firmware_has_feature(u64 feature) { return (xcede_platform.fw_features & feature) == feature; }
static inline bool pvr_version_is(unsigned pvr) { return xcede_platform.pvr_version == pvr; }
#define PVR_VER(pvr) (((pvr) >> 16) & 0xFFFF)

/* lppaca/paca: enough for get_lppaca()->field and local_paca->lppaca_ptr. */
struct lppaca {
  u8 idle, donate_dedicated_cpu, cede_latency_hint, shared_proc;
  __be64 wait_state_cycles;
};
struct paca_struct {
  struct lppaca *lppaca_ptr;
};
static struct lppaca xcede_lppaca;
__attribute__((unused)) static struct paca_struct xcede_paca = {&xcede_lppaca};
#define local_paca (&xcede_paca)
#define get_paca() (&xcede_paca)
static inline struct lppaca *get_lppaca(void) { return &xcede_lppaca; }
/* Older kernels pass the lppaca, newer ones nothing: any arguments, never evaluated. */
#define lppaca_shared_proc(...) (xcede_platform.shared_proc)

/* --- what the rest of cpuidle-pseries.c mentions, for fixup_cede0_latency() and
 * the state tables it pulls in: types and harmless no-ops ------------------------ */
#include "cpuidle.h"
#define THIS_MODULE ((void *)0)
#define IDLE_NO_OVERRIDE 0
__attribute__((unused)) static int cpuidle_disable = IDLE_NO_OVERRIDE;
#define TIF_POLLING_NRFLAG 3
#define MSR_EE 0x8000ul
static inline void set_thread_flag(int flag) { (void)flag; }
static inline void clear_thread_flag(int flag) { (void)flag; }
static inline bool current_clr_polling_and_test(void) { return false; }
static inline void local_irq_enable(void) {}
static inline void local_irq_disable(void) {}
static inline void raw_local_irq_enable(void) {}
static inline void raw_local_irq_disable(void) {}
static inline bool irqs_disabled(void) { return false; }
static inline void __hard_irq_enable(void) {}
static inline void smp_mb(void) { __sync_synchronize(); }
static inline void HMT_low(void) {}
static inline void HMT_very_low(void) {}
static inline void HMT_medium(void) {}
static inline unsigned long mfmsr(void) { return MSR_EE; }
static inline bool prep_irq_for_idle(void) { return true; }
static inline void cede_processor(void) {}
static inline void pseries_idle_prolog(void) {}
static inline void pseries_idle_epilog(void) {}
static inline void ppc64_runlatch_off(void) {}
static inline void ppc64_runlatch_on(void) {}
static inline bool dedicated_cpu_idle_prolog_ok(void) { return true; }

/* --- what earlier eras of the idle loops mention (v3.13..v5.x) --------------------
 * The loops before v5.9 account idle time with the PURR around each cede
 * (idle_loop_prolog/epilog: mfspr(SPRN_PURR)); the tables before v4.1 flag
 * each state CPUIDLE_FLAG_TIME_VALID (gone since). None is on a judged path:
 * the register reads 0, the flag is a value of its own. */
#ifndef SPRN_PURR
#define SPRN_PURR 0x135
#endif
#ifndef SPRN_SPURR
#define SPRN_SPURR 0x134
#endif
#ifndef mfspr
static inline unsigned long xcede_mfspr(int spr) { (void)spr; return 0; }
#define mfspr(spr) xcede_mfspr(spr)
#endif
#ifndef mtspr
#define mtspr(spr, val) ((void)(spr), (void)(val))
#endif
#ifndef CPUIDLE_FLAG_TIME_VALID
#define CPUIDLE_FLAG_TIME_VALID (1UL << 15)
#endif

/* --- RTAS: a scripted fake firmware ------------------------------------------- */
#ifndef RTAS_DATA_BUF_SIZE
#define RTAS_DATA_BUF_SIZE 4096
#endif
#define RTAS_NOT_SUSPENDABLE (-9004)
#define RTAS_THREADS_ACTIVE (-9005)
#define RTAS_OUTSTANDING_COPROC (-9006)
#define XCEDE_FW_TOKEN_GET_SYSPARM 0x2d01 /* what rtas_token("ibm,get-system-parameter") answers */
#define XCEDE_FW_PARAM_CEDE_LATENCY 45
#define XCEDE_FW_MAX_STATUSES 4096

struct xcede_fw {
  /* the script, set by the harness per input */
  int statuses[XCEDE_FW_MAX_STATUSES];
  unsigned nstatuses, next;      /* statuses in the script, the next one to hand out */
  const u8 *payload;             /* what a success hands over */
  size_t payload_len;
  bool token_missing;            /* rtas_token("ibm,get-system-parameter") is unknown */
  /* what the code did */
  unsigned calls;                /* rtas_call()s, every token */
  unsigned exhausted;            /* calls made after the script ran out (answered -1) */
  unsigned unknown_token_calls;  /* calls with RTAS_UNKNOWN_SERVICE or a token not handed out */
  unsigned sysparm_calls;        /* ibm,get-system-parameter calls */
  unsigned handed_over;          /* successes that copied the payload */
  volatile int in_firmware;      /* writing the caller's buffer: a crash now is the query's */
  long last_buflen;              /* the length argument of the last get-system-parameter, -1: none */
  unsigned long last_buf;        /* its buffer argument */
  int last_param;                /* its parameter argument */
  int last_nargs, last_nret;
  unsigned busy_delays;          /* rtas_busy_delay() calls */
  unsigned busy_delay_times;     /* rtas_busy_delay_time() calls */
  int lock_depth;                /* rtas_data_buf_lock */
  unsigned lock_misuse;          /* recursive lock or unlock of a free lock */
};
static struct xcede_fw xcede_fw;

static inline void xcede_fw_reset(void) {
  xcede_fw.nstatuses = xcede_fw.next = 0;
  xcede_fw.payload = NULL;
  xcede_fw.payload_len = 0;
  xcede_fw.calls = xcede_fw.exhausted = xcede_fw.unknown_token_calls = 0;
  xcede_fw.sysparm_calls = xcede_fw.handed_over = 0;
  xcede_fw.in_firmware = 0;
  xcede_fw.last_buflen = -1;
  xcede_fw.last_buf = 0;
  xcede_fw.last_param = 0;
  xcede_fw.last_nargs = xcede_fw.last_nret = 0;
  xcede_fw.busy_delays = xcede_fw.busy_delay_times = 0;
  xcede_fw.lock_depth = 0;
  xcede_fw.lock_misuse = 0;
}

/* Whether service is "ibm,get-system-parameter": a character at a time, up to
 * the first difference (a shorter name differs at its NUL), without a loop
 * or strcmp(), so that Frama-C's WP proves rtas_token()'s contract
 * (framac_xcede_wp.h) from the name's 25 bytes alone. */
#define XCEDE_FW_SYSPARM_NAME "ibm,get-system-parameter"
#define XCEDE_FW_NAME_AT(s, i) ((s)[i] == XCEDE_FW_SYSPARM_NAME[i])
static inline bool xcede_fw_is_sysparm_name(const char *s) {
  return XCEDE_FW_NAME_AT(s, 0) && XCEDE_FW_NAME_AT(s, 1) && XCEDE_FW_NAME_AT(s, 2) && XCEDE_FW_NAME_AT(s, 3) &&
         XCEDE_FW_NAME_AT(s, 4) && XCEDE_FW_NAME_AT(s, 5) && XCEDE_FW_NAME_AT(s, 6) && XCEDE_FW_NAME_AT(s, 7) &&
         XCEDE_FW_NAME_AT(s, 8) && XCEDE_FW_NAME_AT(s, 9) && XCEDE_FW_NAME_AT(s, 10) && XCEDE_FW_NAME_AT(s, 11) &&
         XCEDE_FW_NAME_AT(s, 12) && XCEDE_FW_NAME_AT(s, 13) && XCEDE_FW_NAME_AT(s, 14) && XCEDE_FW_NAME_AT(s, 15) &&
         XCEDE_FW_NAME_AT(s, 16) && XCEDE_FW_NAME_AT(s, 17) && XCEDE_FW_NAME_AT(s, 18) && XCEDE_FW_NAME_AT(s, 19) &&
         XCEDE_FW_NAME_AT(s, 20) && XCEDE_FW_NAME_AT(s, 21) && XCEDE_FW_NAME_AT(s, 22) && XCEDE_FW_NAME_AT(s, 23) &&
         XCEDE_FW_NAME_AT(s, 24);
}
static inline int rtas_token(const char *service) {
  if (service && xcede_fw_is_sysparm_name(service))
    return xcede_fw.token_missing ? RTAS_UNKNOWN_SERVICE : XCEDE_FW_TOKEN_GET_SYSPARM;
  return RTAS_UNKNOWN_SERVICE;
}

/* The function-handle API (arch/powerpc/include/asm/rtas.h, 6.5 on). */
typedef struct {
  const char *name;
} rtas_fn_handle_t;
#define rtas_fn_handle(n) ((const rtas_fn_handle_t){.name = (n)})
#define RTAS_FN_IBM_GET_SYSTEM_PARAMETER rtas_fn_handle("ibm,get-system-parameter")
#define RTAS_FN_IBM_SET_SYSTEM_PARAMETER rtas_fn_handle("ibm,set-system-parameter")
static inline int rtas_function_token(const rtas_fn_handle_t handle) { return rtas_token(handle.name); }
static inline bool rtas_function_implemented(const rtas_fn_handle_t handle) {
  return rtas_function_token(handle) != RTAS_UNKNOWN_SERVICE;
}
static inline bool rtas_service_present(const char *service) { return rtas_token(service) != RTAS_UNKNOWN_SERVICE; }

/* One call into the fake firmware. rtas_call() is a macro: every argument
 * after `outputs` is converted to unsigned long as it initialises the array
 * the fake reads (an int keeps its value modulo 2^64, read back in its low
 * 32 bits; the buffer address keeps all 64 bits, since __pa() is the
 * identity), so no argument is read through va_arg() as a type it was not
 * passed as. */
#define rtas_call(token, nargs, nret, outputs, ...) \
  shim_rtas_call((token), (nargs), (nret), (outputs), \
                 (const unsigned long[SHIM_RTAS_MAX_ARGS + 1]){0, ##__VA_ARGS__} + 1)
#define SHIM_RTAS_MAX_ARGS 16
__attribute__((unused)) static int shim_rtas_call(int token, int nargs, int nret, int *outputs,
                                                  const unsigned long *args) {
  SHIM_COUNT(xcede_fw.calls);
  if (outputs)
    for (int i = 0; i + 1 < nret; i++) outputs[i] = 0;
  if (token == RTAS_UNKNOWN_SERVICE || token != XCEDE_FW_TOKEN_GET_SYSPARM) {
    SHIM_COUNT(xcede_fw.unknown_token_calls);
    return -1; /* as the kernel's rtas_call() answers an unknown service */
  }
  SHIM_COUNT(xcede_fw.sysparm_calls);
  xcede_fw.last_nargs = nargs;
  xcede_fw.last_nret = nret;
  xcede_fw.last_param = nargs >= 1 ? (int)(u32)args[0] : -1;
  xcede_fw.last_buf = nargs >= 2 ? args[1] : 0;
  xcede_fw.last_buflen = nargs >= 3 ? (long)(u32)args[2] : -1;
  if (xcede_fw.next >= xcede_fw.nstatuses) {
    SHIM_COUNT(xcede_fw.exhausted);
    return -1;
  }
  const int status = xcede_fw.statuses[xcede_fw.next++];
  if (status != 0) return status;
  if (nargs < 3 || xcede_fw.last_param != XCEDE_FW_PARAM_CEDE_LATENCY || xcede_fw.last_buf == 0)
    return RTAS_INVALID_PARAMETER; /* not parameter 45, or nowhere to put it */
  /* Success: the payload, cut at the length the code gave, zeros after it up to that length. */
  u8 *buf = (u8 *)xcede_fw.last_buf;
  const size_t len = (size_t)(u32)args[2];
  xcede_fw.in_firmware = 1;
  const size_t n = xcede_fw.payload_len < len ? xcede_fw.payload_len : len;
  if (len) memset(buf, 0, len);
  if (n) memcpy(buf, xcede_fw.payload, n);
  xcede_fw.in_firmware = 0;
  SHIM_COUNT(xcede_fw.handed_over);
  return 0;
}

/* The data buffer and its lock, for code that borrows RTAS's buffer. */
typedef struct {
  int held;
} spinlock_t;
#ifndef DEFINE_SPINLOCK
#define DEFINE_SPINLOCK(x) spinlock_t x = {0}
#endif
__attribute__((unused)) static char rtas_data_buf[RTAS_DATA_BUF_SIZE] __attribute__((aligned(8)));
__attribute__((unused)) static spinlock_t rtas_data_buf_lock;
static inline void xcede_lock(spinlock_t *l) {
  if (l->held) SHIM_COUNT(xcede_fw.lock_misuse);
  l->held++;
  if (l == &rtas_data_buf_lock) xcede_fw.lock_depth = l->held;
}
static inline void xcede_unlock(spinlock_t *l) {
  if (!l->held) SHIM_COUNT(xcede_fw.lock_misuse);
  else l->held--;
  if (l == &rtas_data_buf_lock) xcede_fw.lock_depth = l->held;
}
#define spin_lock(l) xcede_lock(l)
#define spin_unlock(l) xcede_unlock(l)
#define spin_lock_irq(l) xcede_lock(l)
#define spin_unlock_irq(l) xcede_unlock(l)
#define spin_lock_irqsave(l, flags) do { (flags) = 0; xcede_lock(l); } while (0)
#define spin_unlock_irqrestore(l, flags) do { (void)(flags); xcede_unlock(l); } while (0)
#define spin_lock_init(l) ((l)->held = 0)

/* papr_sysparm_get() (arch/powerpc/platforms/pseries/papr-sysparm.c, 6.3 on):
 * the kernel's helper retries busy and extended-delay statuses itself. */
#define PAPR_SYSPARM_MAX_INPUT 1024
#define PAPR_SYSPARM_MAX_OUTPUT 4000
typedef struct {
  u32 token;
} papr_sysparm_t;
#define mk_papr_sysparm(x_) ((papr_sysparm_t){.token = (x_)})
#define PAPR_SYSPARM_CEDE_LATENCY_INFO mk_papr_sysparm(45)
struct papr_sysparm_buf {
  __be16 len;
  u8 val[PAPR_SYSPARM_MAX_OUTPUT];
};

/* --- the busy-delay policy: spec/busy_delay.md's reference, recorded, never slept */
#if !defined(HAVE_RTAS_BUSY_DELAY_TIME)
__attribute__((unused)) static unsigned int rtas_busy_delay_time(int status) {
  static const unsigned int ms[] = {1, 10, 100, 1000, 10000, 100000};
  SHIM_COUNT(xcede_fw.busy_delay_times);
  if (status == RTAS_BUSY) return 1;
  if (status >= RTAS_EXTENDED_DELAY_MIN && status <= RTAS_EXTENDED_DELAY_MAX) return ms[status - RTAS_EXTENDED_DELAY_MIN];
  return 0;
}
#endif
#if !defined(HAVE_RTAS_BUSY_DELAY)
__attribute__((unused)) static bool rtas_busy_delay(int status) {
  static const unsigned int ms[] = {1, 10, 100, 1000, 1000, 1000};
  SHIM_COUNT(xcede_fw.busy_delays);
  if (status == RTAS_BUSY) {
    cond_resched();
    return true;
  }
  if (status < RTAS_EXTENDED_DELAY_MIN || status > RTAS_EXTENDED_DELAY_MAX) return false;
  const unsigned int wait = ms[status - RTAS_EXTENDED_DELAY_MIN];
  if (wait > 20) msleep(wait);
  else usleep_range(wait * 100, wait * 1000);
  return true;
}
#endif

static inline struct papr_sysparm_buf *papr_sysparm_buf_alloc(void) {
  return (struct papr_sysparm_buf *)calloc(1, sizeof(struct papr_sysparm_buf));
}
static inline void papr_sysparm_buf_free(struct papr_sysparm_buf *buf) { free(buf); }
static inline int papr_sysparm_get(papr_sysparm_t param, struct papr_sysparm_buf *buf) {
  const int token = rtas_function_token(RTAS_FN_IBM_GET_SYSTEM_PARAMETER);
  int fwrc;
  if (WARN_ON(!buf)) return -EFAULT;
  if (token == RTAS_UNKNOWN_SERVICE) return -ENOENT;
  do {
    fwrc = rtas_call(token, 3, 1, NULL, param.token, __pa(buf), sizeof(*buf));
  } while (rtas_busy_delay(fwrc));
  switch (fwrc) {
  case 0: return 0;
  case -3: return -EOPNOTSUPP; /* parameter not supported */
  case -9002: return -EPERM;   /* not authorized */
  case -9999: return -EINVAL;  /* parameter error */
  default: return -EIO;
  }
}

/* --- printk, one line per call: the harness reports each (LOG lines) --------
 * kernel.h's printk keeps a coarse ring; here every line is kept apart, up to
 * XCEDE_LOG_MAX lines per input. A KERN_CONT piece continues the last line. */
#define XCEDE_LOG_MAX 20
#define XCEDE_LOG_WIDTH 256
struct xcede_log {
  char line[XCEDE_LOG_MAX][XCEDE_LOG_WIDTH];
  unsigned n;          /* lines kept */
  unsigned long total; /* lines printed, kept or not */
  bool open;           /* the last line printed has no newline yet */
};
static struct xcede_log xcede_log;
static inline void xcede_log_reset(void) {
  xcede_log.n = 0;
  xcede_log.total = 0;
  xcede_log.open = false;
}

/* One line, or (append) the continuation of the last one if it was kept. */
static inline void xcede_log_piece(const char *text, size_t len, bool append) {
  if (append) {
    if (xcede_log.total != xcede_log.n || xcede_log.n == 0) return; /* its line was dropped */
    char *l = xcede_log.line[xcede_log.n - 1];
    const size_t have = strlen(l), room = XCEDE_LOG_WIDTH - 1 - have;
    if (len > room) len = room;
    memcpy(l + have, text, len);
    l[have + len] = 0;
    return;
  }
  xcede_log.total++;
  if (xcede_log.n >= XCEDE_LOG_MAX) return;
  if (len > XCEDE_LOG_WIDTH - 1) len = XCEDE_LOG_WIDTH - 1;
  memcpy(xcede_log.line[xcede_log.n], text, len);
  xcede_log.line[xcede_log.n][len] = 0;
  xcede_log.n++;
}

#ifdef __FRAMAC__
/* Under Frama-C the log is no clause's: printk evaluates its arguments (the
 * call does) and records nothing; its result is any the harness's can be
 * (kernel.h's printk). */
__attribute__((format(printf, 1, 2), unused)) static int xcede_printk(const char *fmt, ...) {
  (void)fmt;
  return Frama_C_interval(SHIM_PRINTK_MIN, SHIM_PRINTK_MAX);
}
#else
__attribute__((format(printf, 1, 2), unused)) static int xcede_printk(const char *fmt, ...) {
  char buf[1024];
  va_list ap;
  va_start(ap, fmt);
  const int n = vsnprintf(buf, sizeof(buf), fmt, ap);
  va_end(ap);
  const char *p = buf;
  bool cont = false;
  while (p[0] == '\001' && p[1]) { /* KERN_<level> and KERN_CONT prefixes */
    if (p[1] == 'c') cont = true;
    p += 2;
  }
  bool append = cont && xcede_log.open; /* only the first piece can continue a line */
  while (*p) {
    const char *nl = strchr(p, '\n');
    const size_t len = nl ? (size_t)(nl - p) : strlen(p);
    if (len || append) xcede_log_piece(p, len, append);
    xcede_log.open = !nl && (len || append);
    append = false;
    if (!nl) break;
    p = nl + 1;
  }
  return n;
}
#endif
#define printk xcede_printk
#undef pr_cont
#define pr_cont(fmt, ...) printk(KERN_CONT fmt, ##__VA_ARGS__)

#endif /* IDLESPEC_VALIDATE_SHIM_XCEDE_ENV_H */
