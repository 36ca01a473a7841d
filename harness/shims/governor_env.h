/*
 * What the menu governor (spec/governor.md) needs of the kernel beyond
 * harness/shims/kernel.h: included right after it, before the extracted
 * menu_select(), menu_update() and their helpers (get_typical_interval(),
 * which_bucket(), menu_reflect(), struct menu_device, ...).
 *
 * One CPU, one driver, one device. Everything the governor asks of the rest
 * of the kernel (the PM QoS limit, the tick layer's sleep length and tick
 * state, whether the tick woke the CPU, iowaiters) answers from gov_env,
 * which the harness (harness/harness_governor.c) sets before each call.
 *
 * Covers the menu.c of v5.x (microseconds: exit_latency, target_residency,
 * last_residency, TICK_USEC, s->disabled) and of v6.x (nanoseconds:
 * exit_latency_ns, target_residency_ns, last_residency_ns, TICK_NSEC,
 * gov.h's RESIDENCY_THRESHOLD_NS); both sets of fields exist and the harness
 * fills both. Names the kernel shim might one day define are guarded.
 */
#ifndef IDLESPEC_VALIDATE_SHIM_GOVERNOR_ENV_H
#define IDLESPEC_VALIDATE_SHIM_GOVERNOR_ENV_H



/* --- limits and units ---------------------------------------------------------- */
#ifndef NSEC_PER_USEC
#define NSEC_PER_USEC 1000L
#endif
#ifndef NSEC_PER_MSEC
#define NSEC_PER_MSEC 1000000L
#endif
#ifndef USEC_PER_MSEC
#define USEC_PER_MSEC 1000L
#endif
#ifndef USEC_PER_SEC
#define USEC_PER_SEC 1000000L
#endif
#ifndef NSEC_PER_SEC
#define NSEC_PER_SEC 1000000000L
#endif
#ifndef __read_mostly
#define __read_mostly
#endif
#ifndef fallthrough
#define fallthrough __attribute__((fallthrough))
#endif
typedef uint64_t __u64;
typedef int64_t __s64;

/* --- what the harness scripts ----------------------------------------------------- */
struct gov_env_state {
  s64 latency_req;          /* what cpuidle_governor_latency_req() returns (ns; us for v5.x) */
  s64 sleep_length_ns;      /* tick_nohz_get_sleep_length()'s return */
  s64 delta_tick_ns;        /* ... and its *delta_next */
  bool tick_stopped;        /* tick_nohz_tick_stopped() */
  bool got_tick;            /* tick_nohz_idle_got_tick() */
  unsigned long iowaiters;  /* nr_iowait_cpu() */
  u64 tick_nsec, tick_usec; /* TICK_NSEC, TICK_USEC for the input's HZ */
  unsigned sleep_length_calls, got_tick_calls;
};
static struct gov_env_state gov_env = {0, 0, 0, false, false, 0, 1000000, 1000, 0, 0};

/* --- time --------------------------------------------------------------------------- */
typedef s64 ktime_t;
#ifndef KTIME_MAX
#define KTIME_MAX ((s64) ~((u64)1 << 63))
#endif
#ifndef KTIME_MIN
#define KTIME_MIN (-KTIME_MAX - 1)
#endif
#ifndef KTIME_SEC_MAX
#define KTIME_SEC_MAX (KTIME_MAX / NSEC_PER_SEC)
#endif
#define TICK_NSEC (gov_env.tick_nsec)
#define TICK_USEC (gov_env.tick_usec)
static inline s64 ktime_to_ns(const ktime_t kt) { return kt; }
static inline s64 ktime_to_us(const ktime_t kt) { return kt / NSEC_PER_USEC; }
static inline ktime_t ns_to_ktime(u64 ns) { return (ktime_t)ns; }
static inline ktime_t us_to_ktime(u64 us) { return (ktime_t)(us * NSEC_PER_USEC); }
static inline ktime_t ktime_get(void) { return 0; }
static inline s64 ktime_us_delta(ktime_t later, ktime_t earlier) { return (later - earlier) / NSEC_PER_USEC; }
#define ktime_sub(a, b) ((a) - (b))
#define ktime_add(a, b) ((a) + (b))
#define ktime_before(a, b) ((a) < (b))
#define ktime_after(a, b) ((a) > (b))

/* --- 64-bit division (include/linux/math64.h) --------------------------------------- */
static inline u64 div_u64(u64 dividend, u32 divisor) { return dividend / divisor; }
static inline u64 div_u64_rem(u64 dividend, u32 divisor, u32 *remainder) {
  *remainder = (u32)(dividend % divisor);
  return dividend / divisor;
}
static inline u64 div64_u64(u64 dividend, u64 divisor) { return dividend / divisor; }
static inline s64 div_s64(s64 dividend, s32 divisor) { return dividend / divisor; }
static inline s64 div64_s64(s64 dividend, s64 divisor) { return dividend / divisor; }
static inline u64 div64_ul(u64 dividend, unsigned long divisor) { return dividend / divisor; }
#ifndef do_div
#define do_div(n, base) ({ u32 _dd_b = (base); u32 _dd_r = (u32)((u64)(n) % _dd_b); (n) = (u64)(n) / _dd_b; _dd_r; })
#endif
#ifndef DIV_ROUND_UP
#define DIV_ROUND_UP(n, d) (((n) + (d) - 1) / (d))
#endif
#ifndef DIV_ROUND_CLOSEST_ULL
#define DIV_ROUND_CLOSEST_ULL(x, divisor) ({ __typeof__(divisor) _dr_d = (divisor); unsigned long long _dr_x = (x) + _dr_d / 2; _dr_x / _dr_d; })
#endif
#ifndef DIV_ROUND_CLOSEST
#define DIV_ROUND_CLOSEST(x, divisor) (((x) + ((divisor) / 2)) / (divisor))
#endif
static inline unsigned long int_sqrt(unsigned long x) {
  unsigned long r = 0, b = 1UL << (sizeof(long) * 8 - 2);
  while (b > x) b >>= 2;
  while (b) {
    if (x >= r + b) {
      x -= r + b;
      r = (r >> 1) + b;
    } else {
      r >>= 1;
    }
    b >>= 2;
  }
  return r;
}

/* --- per-CPU data: one CPU ---------------------------------------------------------- */
#define DEFINE_PER_CPU(type, name) type name
#define DECLARE_PER_CPU(type, name) extern type name
#define per_cpu(var, cpu) (*((void)(cpu), &(var)))
#define per_cpu_ptr(ptr, cpu) ((void)(cpu), (ptr))
#define this_cpu_ptr(ptr) (ptr)
#define raw_cpu_ptr(ptr) (ptr)
#define smp_processor_id() 0

/* --- cpuidle (include/linux/cpuidle.h) ------------------------------------------------ */
#include "cpuidle.h"

struct cpuidle_governor {
  char name[CPUIDLE_NAME_LEN];
  unsigned int rating;
  int (*enable)(struct cpuidle_driver *drv, struct cpuidle_device *dev);
  void (*disable)(struct cpuidle_driver *drv, struct cpuidle_device *dev);
  int (*select)(struct cpuidle_driver *drv, struct cpuidle_device *dev, bool *stop_tick);
  void (*reflect)(struct cpuidle_device *dev, int index);
};

static inline int cpuidle_register_governor(struct cpuidle_governor *gov) { (void)gov; return 0; }
#define postcore_initcall(fn) static __attribute__((unused)) int (*const gov_initcall_##fn)(void) = fn

/* include/linux/cpuidle.h, drivers/cpuidle/governor.c: the PM QoS limit */
static inline s64 cpuidle_governor_latency_req(unsigned int cpu) {
  (void)cpu;
  return gov_env.latency_req;
}

/* Before v4.17 (the idle loop rework): pm_qos_request(PM_QOS_CPU_DMA_LATENCY)
 * for the limit (microseconds in that era, as the harness scripts it) and a
 * per-device resume latency read through get_cpu_device(). The device adds
 * no limit: S32_MAX reads as none in both encodings of the era (4.14 and
 * before: 0 or a value above the limit means none; 4.15 and 4.16:
 * PM_QOS_RESUME_LATENCY_NO_CONSTRAINT, S32_MAX). */
#ifndef PM_QOS_RESUME_LATENCY_NO_CONSTRAINT
#define PM_QOS_RESUME_LATENCY_NO_CONSTRAINT S32_MAX
#endif
#ifndef PM_QOS_CPU_DMA_LATENCY
#define PM_QOS_CPU_DMA_LATENCY 1
#endif
static inline int pm_qos_request(int pm_qos_class) {
  (void)pm_qos_class;
  return (int)gov_env.latency_req;
}
struct device;
static inline struct device *get_cpu_device(unsigned int cpu) { (void)cpu; return NULL; }
static inline s32 dev_pm_qos_raw_read_value(struct device *dev) { (void)dev; return S32_MAX; }
static inline s32 dev_pm_qos_read_value(struct device *dev) { (void)dev; return S32_MAX; }
/* The first state the governor may pick besides polling: 1 where state 0 is
 * the architecture's polling loop (CONFIG_ARCH_HAS_CPU_RELAX, x86), 0
 * elsewhere; POWER is elsewhere. Gone since v4.17's CPUIDLE_FLAG_POLLING. */
#ifndef CPUIDLE_DRIVER_STATE_START
#define CPUIDLE_DRIVER_STATE_START 0
#endif

/* --- the tick layer (include/linux/tick.h) --------------------------------------------- */
/* tick_nohz_get_sleep_length(&delta_next) since v4.17; before it the
 * function had no argument and the tick was already stopped when the
 * governor ran (the time to the next timer). Both forms reach one shim: an
 * absent argument becomes a null pointer. */
static inline ktime_t shim_tick_nohz_get_sleep_length(ktime_t *delta_next) {
  gov_env.sleep_length_calls++;
  if (delta_next) *delta_next = gov_env.delta_tick_ns;
  return gov_env.sleep_length_ns;
}
#define tick_nohz_get_sleep_length(...) shim_tick_nohz_get_sleep_length(__VA_ARGS__ + 0)
static inline bool tick_nohz_tick_stopped(void) { return gov_env.tick_stopped; }
static inline bool tick_nohz_idle_got_tick(void) {
  gov_env.got_tick_calls++;
  return gov_env.got_tick;
}

/* --- the scheduler ----------------------------------------------------------------- */
static inline unsigned long nr_iowait_cpu(int cpu) {
  (void)cpu;
  return gov_env.iowaiters;
}
static inline void get_iowait_load(unsigned long *nr_waiters, unsigned long *load) {
  *nr_waiters = gov_env.iowaiters;
  *load = 0;
}

/* --- the 4.x era: the load average in the performance multiplier ------------
 * (include/linux/sched/loadavg.h); one idle CPU, no load. */
#ifndef FSHIFT
#define FSHIFT 11
#define FIXED_1 (1 << FSHIFT)
#define LOAD_INT(x) ((x) >> FSHIFT)
#define LOAD_FRAC(x) LOAD_INT(((x) & (FIXED_1 - 1)) * 100)
#endif
static inline unsigned long this_cpu_load(void) { return 0; }
static inline int cpuidle_get_last_residency(struct cpuidle_device *dev) {
  return dev->last_residency;
}

/* --- drivers/cpuidle/governors/gov.h ------------------------------------------------ */
#ifndef RESIDENCY_THRESHOLD_NS
#define RESIDENCY_THRESHOLD_NS (15 * NSEC_PER_USEC)
#endif
#ifndef SAFE_TIMER_RANGE_NS /* e57c2bf2e89d */
#define SAFE_TIMER_RANGE_NS (2 * TICK_NSEC)
#endif

/* The end of an idle period as the cpuidle core reports it: the file's
 * menu_reflect() (HAVE_MENU_REFLECT), else what menu_reflect() does, on the
 * per-CPU record: the harness and the Frama-C unit both call this. */
#ifdef HAVE_MENU_REFLECT
#define GOV_REFLECT(dev, idx) menu_reflect((dev), (idx))
#else
#define GOV_REFLECT(dev, idx)                                                   \
  ((dev)->last_state_idx = (idx), menu_devices.needs_update = 1,              \
   menu_devices.tick_wakeup = tick_nohz_idle_got_tick())
#endif

#endif /* IDLESPEC_VALIDATE_SHIM_GOVERNOR_ENV_H */
