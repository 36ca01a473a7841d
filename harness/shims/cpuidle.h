/*
 * include/linux/cpuidle.h as the validated code sees it (idlespec validate):
 * the fields the pseries driver and the menu governor use, in the 5.x and
 * the 6.x eras (microsecond and nanosecond fields side by side). Included
 * by xcede_env.h and governor_env.h.
 */
#ifndef IDLESPEC_VALIDATE_SHIM_CPUIDLE_H
#define IDLESPEC_VALIDATE_SHIM_CPUIDLE_H

#define CPUIDLE_STATE_MAX 10
#define CPUIDLE_NAME_LEN 16
#define CPUIDLE_DESC_LEN 32
#define CPUIDLE_FLAG_NONE (0x00)
#define CPUIDLE_FLAG_POLLING (1UL << 0)
#define CPUIDLE_FLAG_COUPLED (1UL << 1)
#define CPUIDLE_FLAG_TIMER_STOP (1UL << 2)
#define CPUIDLE_FLAG_UNUSABLE (1UL << 3)
#define CPUIDLE_FLAG_OFF (1UL << 4)
#define CPUIDLE_FLAG_TLB_FLUSHED (1UL << 5)
#define CPUIDLE_FLAG_RCU_IDLE (1UL << 6)
/* A proposed patch's flag (the v6.8 cycle's TIF_NR_POLLING series, not
 * merged): CPUIDLE_FLAG_POLLING renamed for the states that poll
 * need_resched() in software, beside a CPUIDLE_FLAG_POLLING_HARD. Its only
 * use is a test against a state's flags, so its value is a bit no other
 * flag here or upstream uses, and the governor and teo harnesses set it
 * with CPUIDLE_FLAG_POLLING on every state they make polling (the state
 * the patch gives it). A file that defines it keeps its value.
 * idlespec assumed: CPUIDLE_FLAG_POLLING_SOFT = 1 << 24 (a flag bit of its own, set with CPUIDLE_FLAG_POLLING on each polling state) */
#ifndef CPUIDLE_FLAG_POLLING_SOFT
#define CPUIDLE_FLAG_POLLING_SOFT (1UL << 24)
#endif
#define CPUIDLE_STATE_DISABLED_BY_USER (1ULL << 0)
#define CPUIDLE_STATE_DISABLED_BY_DRIVER (1ULL << 1)

struct cpuidle_device;
struct cpuidle_driver;

struct cpuidle_state {
  char name[CPUIDLE_NAME_LEN];
  char desc[CPUIDLE_DESC_LEN];
  s64 exit_latency_ns;
  s64 target_residency_ns;
  unsigned int flags;
  unsigned int exit_latency;     /* in us */
  int power_usage;               /* in mW */
  unsigned int target_residency; /* in us */
  bool disabled;                 /* v5.x: disabled by the driver */
  int (*enter)(struct cpuidle_device *dev, struct cpuidle_driver *drv, int index);
  int (*enter_dead)(struct cpuidle_device *dev, int index);
  int (*enter_s2idle)(struct cpuidle_device *dev, struct cpuidle_driver *drv, int index);
};

struct cpuidle_state_usage {
  unsigned long long disable;
  unsigned long long usage;
  u64 time_ns;
  unsigned long long above;
  unsigned long long below;
  unsigned long long rejected;
};

struct cpuidle_device {
  unsigned int registered : 1;
  unsigned int enabled : 1;
  unsigned int poll_time_limit : 1;
  unsigned int cpu;
  s64 next_hrtimer; /* ktime_t */
  /* RHEL 8 keeps these two in dev->rh_cpuidle_dev (its kABI extension); the
   * two names share their storage, so either era's text reads what the
   * harness wrote. */
  union {
    struct {
      int last_state_idx;
      u64 last_residency_ns;
    };
    struct {
      int last_state_idx;
      u64 last_residency_ns;
    } rh_cpuidle_dev;
  };
  int last_residency; /* v5.x: in us */
  u64 poll_limit_ns;
  u64 forced_idle_latency_limit_ns;
  struct cpuidle_state_usage states_usage[CPUIDLE_STATE_MAX];
};

struct cpuidle_driver {
  const char *name;
  void *owner;
  unsigned int refcnt;
  unsigned int bctimer : 1;
  struct cpuidle_state states[CPUIDLE_STATE_MAX];
  int state_count;
  int safe_state_index;
};

#endif /* IDLESPEC_VALIDATE_SHIM_CPUIDLE_H */
