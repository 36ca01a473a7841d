/*
 * The kernel as the validated code sees it (idlespec validate, issue 6).
 *
 * The driver compiles one translation unit: this header, the functions it
 * extracted from the file under test (with their #define and file-scope
 * dependencies, #includes dropped), then the harness. Everything here is
 * static: one harness process observes one copy of the code.
 *
 * Nothing the code asks of the kernel happens: sleeps, delays and yields
 * are recorded as requests (what the spec's clauses judge) and advance a
 * simulated clock; printk goes to a buffer; WARN_ON/BUG_ON become findings
 * the harness reports against the clause under check, and execution goes
 * on (a BUG() that returns is the harness's choice, not the kernel's).
 */
#ifndef IDLESPEC_VALIDATE_SHIM_KERNEL_H
#define IDLESPEC_VALIDATE_SHIM_KERNEL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* --- types ---------------------------------------------------------------- */
typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int8_t s8;
typedef int16_t s16;
typedef int32_t s32;
typedef int64_t s64;

/* --- sparse's address spaces and restricted types (issue 37) ---------------
 * As the kernel spells them (include/linux/compiler_types.h and
 * include/uapi/linux/types.h): under sparse (__CHECKER__) they are its
 * attributes, so `sparse` run on the extracted unit sees what it sees in a
 * kernel build (a __be16 read without be16_to_cpu(), a __user pointer
 * dereferenced); for the compiler they are nothing, or the plain attribute
 * the kernel gives gcc. Written for this project from their documented
 * meaning. */
#ifdef __CHECKER__
#define __kernel __attribute__((address_space(0)))
#define __user __attribute__((noderef, address_space(__user)))
#define __iomem __attribute__((noderef, address_space(__iomem)))
#define __percpu __attribute__((noderef, address_space(__percpu)))
#define __rcu __attribute__((noderef, address_space(__rcu)))
#define __force __attribute__((force))
#define __nocast __attribute__((nocast))
#define __safe __attribute__((safe))
#define __private __attribute__((noderef))
#define __bitwise __attribute__((bitwise))
#define __must_hold(x) __attribute__((context(x, 1, 1)))
#define __acquires(x) __attribute__((context(x, 0, 1)))
#define __releases(x) __attribute__((context(x, 1, 0)))
#define __acquire(x) __context__(x, 1)
#define __release(x) __context__(x, -1)
#define __cond_lock(x, c) ((c) ? ({ __acquire(x); 1; }) : 0)
#define ACCESS_PRIVATE(p, member) (*((__typeof__((p)->member) __force *)&(p)->member))
static inline void __chk_user_ptr(const volatile void __user *ptr) { (void)ptr; }
static inline void __chk_io_ptr(const volatile void __iomem *ptr) { (void)ptr; }
#else
#define __kernel
#define __user
#define __iomem
#define __percpu
#define __rcu
#define __force
#define __nocast
#define __safe
#define __private
#define __bitwise
#define __must_hold(x)
#define __acquires(x)
#define __releases(x)
#define __acquire(x) (void)0
#define __release(x) (void)0
#define __cond_lock(x, c) (c)
#define ACCESS_PRIVATE(p, member) ((p)->member)
#define __chk_user_ptr(x) (void)0
#define __chk_io_ptr(x) (void)0
#define __builtin_warning(x, ...) (1)
#endif
#define __bitwise__ __bitwise

/* The byte-order types: restricted (__bitwise) under sparse, so a field read
 * without its conversion is a diagnostic; plain integers for the compiler. */
typedef u16 __bitwise __le16;
typedef u16 __bitwise __be16;
typedef u32 __bitwise __le32;
typedef u32 __bitwise __be32;
typedef u64 __bitwise __le64;
typedef u64 __bitwise __be64;
typedef u16 __bitwise __sum16;
typedef u32 __bitwise __wsum;
typedef unsigned int __bitwise __poll_t;

/* --- byte order: the target's (__BYTE_ORDER__), the data's as named --------
 * The harness is built for the host and, for POWER, for big-endian ppc64 and
 * little-endian ppc64le (validate --targets): each conversion swaps exactly
 * where that target's order differs, as the kernel's
 * include/linux/byteorder/{big,little}_endian.h do. */
#ifdef __FRAMAC__
/* Frama-C has no model of GCC's __builtin_bswap*: the same swaps in plain C. */
static inline u16 shim_swab16(u16 x) { return (u16)((x >> 8) | ((x & 0xffu) << 8)); }
static inline u32 shim_swab32(u32 x) {
  return (x >> 24) | ((x >> 8) & 0xff00u) | ((x & 0xff00u) << 8) | ((x & 0xffu) << 24);
}
static inline u64 shim_swab64(u64 x) {
  return ((u64)shim_swab32((u32)x) << 32) | shim_swab32((u32)(x >> 32));
}
#define __swab16(x) shim_swab16((u16)(x))
#define __swab32(x) shim_swab32((u32)(x))
#define __swab64(x) shim_swab64((u64)(x))
#else
#define __swab16(x) ((u16)__builtin_bswap16((u16)(x)))
#define __swab32(x) ((u32)__builtin_bswap32((u32)(x)))
#define __swab64(x) ((u64)__builtin_bswap64((u64)(x)))
#endif
#define swab16 __swab16
#define swab32 __swab32
#define swab64 __swab64
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define __BIG_ENDIAN 4321
#define be16_to_cpu(x) ((__force u16)(__be16)(x))
#define be32_to_cpu(x) ((__force u32)(__be32)(x))
#define be64_to_cpu(x) ((__force u64)(__be64)(x))
#define cpu_to_be16(x) ((__force __be16)(u16)(x))
#define cpu_to_be32(x) ((__force __be32)(u32)(x))
#define cpu_to_be64(x) ((__force __be64)(u64)(x))
#define le16_to_cpu(x) __swab16((__force u16)(__le16)(x))
#define le32_to_cpu(x) __swab32((__force u32)(__le32)(x))
#define le64_to_cpu(x) __swab64((__force u64)(__le64)(x))
#define cpu_to_le16(x) ((__force __le16)__swab16((x)))
#define cpu_to_le32(x) ((__force __le32)__swab32((x)))
#define cpu_to_le64(x) ((__force __le64)__swab64((x)))
#else
#define __LITTLE_ENDIAN 1234
#define be16_to_cpu(x) __swab16((__force u16)(__be16)(x))
#define be32_to_cpu(x) __swab32((__force u32)(__be32)(x))
#define be64_to_cpu(x) __swab64((__force u64)(__be64)(x))
#define cpu_to_be16(x) ((__force __be16)__swab16((x)))
#define cpu_to_be32(x) ((__force __be32)__swab32((x)))
#define cpu_to_be64(x) ((__force __be64)__swab64((x)))
#define le16_to_cpu(x) ((__force u16)(__le16)(x))
#define le32_to_cpu(x) ((__force u32)(__le32)(x))
#define le64_to_cpu(x) ((__force u64)(__le64)(x))
#define cpu_to_le16(x) ((__force __le16)(u16)(x))
#define cpu_to_le32(x) ((__force __le32)(u32)(x))
#define cpu_to_le64(x) ((__force __le64)(u64)(x))
#endif
#define be16_to_cpup(p) be16_to_cpu(*(const __be16 *)(p))
#define be32_to_cpup(p) be32_to_cpu(*(const __be32 *)(p))
#define be64_to_cpup(p) be64_to_cpu(*(const __be64 *)(p))
#define le16_to_cpup(p) le16_to_cpu(*(const __le16 *)(p))
#define le32_to_cpup(p) le32_to_cpu(*(const __le32 *)(p))
#define le64_to_cpup(p) le64_to_cpu(*(const __le64 *)(p))
#define be16_add_cpu(p, v) (*(p) = cpu_to_be16(be16_to_cpu(*(p)) + (v)))
#define be32_add_cpu(p, v) (*(p) = cpu_to_be32(be32_to_cpu(*(p)) + (v)))
#define be64_add_cpu(p, v) (*(p) = cpu_to_be64(be64_to_cpu(*(p)) + (v)))
static inline u16 get_unaligned_be16(const void *p) { __be16 v; memcpy(&v, p, 2); return be16_to_cpu(v); }
static inline u32 get_unaligned_be32(const void *p) { __be32 v; memcpy(&v, p, 4); return be32_to_cpu(v); }
static inline u64 get_unaligned_be64(const void *p) { __be64 v; memcpy(&v, p, 8); return be64_to_cpu(v); }
static inline u16 get_unaligned_le16(const void *p) { __le16 v; memcpy(&v, p, 2); return le16_to_cpu(v); }
static inline u32 get_unaligned_le32(const void *p) { __le32 v; memcpy(&v, p, 4); return le32_to_cpu(v); }
static inline u64 get_unaligned_le64(const void *p) { __le64 v; memcpy(&v, p, 8); return le64_to_cpu(v); }
static inline void put_unaligned_be16(u16 x, void *p) { __be16 v = cpu_to_be16(x); memcpy(p, &v, 2); }
static inline void put_unaligned_be32(u32 x, void *p) { __be32 v = cpu_to_be32(x); memcpy(p, &v, 4); }
static inline void put_unaligned_be64(u64 x, void *p) { __be64 v = cpu_to_be64(x); memcpy(p, &v, 8); }

/* --- limits (include/linux/limits.h) ------------------------------------- */
#include <limits.h>
#define U8_MAX ((u8)~0U)
#define U16_MAX ((u16)~0U)
#define U32_MAX ((u32)~0U)
#define S32_MAX ((s32)(U32_MAX >> 1))
#define U64_MAX ((u64)~0ULL)
#define S64_MAX ((s64)(U64_MAX >> 1))
#define S64_MIN (-S64_MAX - 1)

/* --- the compiler's annotations (compiler_types.h, compiler_attributes.h,
 * init.h, cache.h): the attribute the kernel gives gcc where it changes how
 * the code compiles or what a diagnostic says; nothing where it only places
 * code or data in a section the harness has no use for. ------------------- */
#define __init
#define __initdata
#define __initconst
#define __ref
#define __refdata
#define __exit
#define __exitdata
#define __meminit
#define __meminitdata
#define __devinit
#define __devinitdata
#define __cpuinit
#define __cpuinitdata
#define noinstr
#define __cpuidle
#define notrace
#define __no_kcsan
#define __no_sanitize_address
#define __no_profile
#define __nocfi
#define __noscs
#define __no_stack_protector
#define __data_racy
#define __latent_entropy
#define __randomize_layout
#define __no_randomize_layout
#define randomized_struct_fields_start
#define randomized_struct_fields_end
#define __designated_init
#define __visible __attribute__((externally_visible))
#define __cold __attribute__((__cold__))
#define __hot __attribute__((__hot__))
#define __weak __attribute__((weak))
#undef __always_inline
#define __always_inline inline __attribute__((__always_inline__))
#define noinline __attribute__((__noinline__))
#define noinline_for_stack noinline
#define __noinline_for_stack noinline
#define __flatten __attribute__((__flatten__))
#define __noclone __attribute__((__noclone__))
#define __maybe_unused __attribute__((__unused__))
#define __always_unused __attribute__((__unused__))
#define __used __attribute__((__used__))
#define __must_check __attribute__((__warn_unused_result__))
#define __noreturn __attribute__((__noreturn__))
#define __pure __attribute__((__pure__))
#undef __attribute_const__
#define __attribute_const__ __attribute__((__const__))
#define __malloc __attribute__((__malloc__))
#define __mode(x) __attribute__((__mode__(x)))
#define __printf(a, b) __attribute__((__format__(printf, a, b)))
#define __scanf(a, b) __attribute__((__format__(scanf, a, b)))
#define __deprecated
#define __gnu_inline __attribute__((__gnu_inline__))
#define __nonstring __attribute__((__nonstring__))
#define __alloc_size(...) __attribute__((__alloc_size__(__VA_ARGS__)))
#define __realloc_size(...) __attribute__((__alloc_size__(__VA_ARGS__)))
#define __assume_aligned(...) __attribute__((__assume_aligned__(__VA_ARGS__)))
#define __copy(sym) __attribute__((__copy__(sym)))
#define __cleanup(func) __attribute__((__cleanup__(func)))
#define __section(s) __attribute__((__section__(s)))
#ifndef __packed
#define __packed __attribute__((__packed__))
#endif
#ifndef __aligned
#define __aligned(x) __attribute__((__aligned__(x)))
#endif
#define __aligned_largest __attribute__((__aligned__))
#define __counted_by(member)
#define __counted_by_le(member)
#define __counted_by_be(member)
#define __nocast_ok
/* Data the kernel places apart (read-mostly, read-only after boot): its
 * sections, writable here (nothing seals them after boot). */
#define __read_mostly __section(".data..read_mostly")
#define __ro_after_init __section(".data..ro_after_init")
#define __cacheline_aligned __aligned(128)
#define __cacheline_aligned_in_smp __aligned(128)
#define ____cacheline_aligned __aligned(128)
#define ____cacheline_aligned_in_smp __aligned(128)
#ifndef fallthrough
#define fallthrough __attribute__((__fallthrough__))
#endif
#define __inline_maybe_unused __maybe_unused
#define __same_type(a, b) __builtin_types_compatible_p(__typeof__(a), __typeof__(b))
#define EXPORT_SYMBOL(sym)
#define EXPORT_SYMBOL_GPL(sym)
#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)
#define barrier() __asm__ __volatile__("" ::: "memory")
#define cpu_relax() barrier()
#define READ_ONCE(x) (*(const volatile __typeof__(x) *)&(x))
#define WRITE_ONCE(x, v) (*(volatile __typeof__(x) *)&(x) = (v))
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* --- the memory limit the driver asks for (IDLESPEC_MEMORY_MB) -------------
 * Applied here, by the harness itself at start-up, so that the driver (which
 * may be an ASan build) never runs under RLIMIT_AS; an ASan harness gets
 * ASan's own limits (hard_rss_limit_mb, malloc_limit_mb) instead. */
#if defined(__SANITIZE_ADDRESS__)
#define SHIM_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SHIM_ASAN 1
#endif
#endif
#ifndef SHIM_ASAN
#include <sys/resource.h>
__attribute__((constructor)) static void shim_memory_limit(void) {
  const char *v = getenv("IDLESPEC_MEMORY_MB");
  const unsigned long long mb = v ? strtoull(v, NULL, 10) : 0;
  if (mb == 0) return;
  const struct rlimit lim = {(rlim_t)mb << 20, (rlim_t)mb << 20};
  setrlimit(RLIMIT_AS, &lim);
}
#endif

/* --- allocation: the C heap (the harness process has a memory limit) ------ */
typedef unsigned int gfp_t;
#define GFP_KERNEL 0u
#define GFP_ATOMIC 0u
#define GFP_NOWAIT 0u
#define __GFP_ZERO 1u
#define kmalloc(size, gfp) ((gfp) & __GFP_ZERO ? calloc(1, (size)) : malloc(size))
#define kzalloc(size, gfp) calloc(1, (size))
#define kcalloc(n, size, gfp) calloc((n), (size))
#define kmalloc_array(n, size, gfp) calloc((n), (size))
#define kfree(p) free((void *)(p))

/* --- min/max/clamp (GNU C statement expressions, single evaluation) ------- */
#define min(x, y) ({ __typeof__(x) _mn_x = (x); __typeof__(y) _mn_y = (y); _mn_x < _mn_y ? _mn_x : _mn_y; })
#define max(x, y) ({ __typeof__(x) _mx_x = (x); __typeof__(y) _mx_y = (y); _mx_x > _mx_y ? _mx_x : _mx_y; })
#define min_t(t, x, y) min((t)(x), (t)(y))
#define max_t(t, x, y) max((t)(x), (t)(y))
#define clamp(val, lo, hi) min((__typeof__(val))max(val, lo), hi)
#define clamp_t(t, val, lo, hi) clamp((t)(val), (t)(lo), (t)(hi))
#define clamp_val(val, lo, hi) clamp_t(__typeof__(val), val, lo, hi)

/* --- the RTAS names (arch/powerpc/include/asm/rtas.h) --------------------- */
#define RTAS_HARDWARE_ERROR (-1)
#define RTAS_BUSY (-2)
#define RTAS_INVALID_PARAMETER (-3)
#define RTAS_EXTENDED_DELAY_MIN 9900
#define RTAS_EXTENDED_DELAY_MAX 9905
#define RTAS_UNKNOWN_SERVICE (-1)

/* --- system_state (include/linux/kernel.h) -------------------------------- */
enum system_states {
  SYSTEM_BOOTING,
  SYSTEM_SCHEDULING,
  SYSTEM_FREEING_INITMEM,
  SYSTEM_RUNNING,
  SYSTEM_HALT,
  SYSTEM_POWER_OFF,
  SYSTEM_RESTART,
  SYSTEM_SUSPEND,
};
static enum system_states system_state = SYSTEM_RUNNING;

/* --- counters the shims keep: they stop at their type's maximum, never wrap
 * (a count is a shim's, not the code's: no clause reads a wrapped one, and
 * Frama-C's overflow alarms stay off the shims) ------------------------------ */
/* (unsigned counters only) */
#define SHIM_COUNT(c) ((void)((c) != (__typeof__(c))~(__typeof__(c))0 ? (c)++ : 0))

/* --- what the code requested: the harness reads and resets this ----------- */
enum shim_primitive {
  SHIM_NONE = 0, SHIM_USLEEP_RANGE, SHIM_MSLEEP, SHIM_FSLEEP, SHIM_MDELAY, SHIM_UDELAY,
  SHIM_SSLEEP, SHIM_NDELAY,
};
static const char *const shim_primitive_name[] = {
    "none", "usleep_range", "msleep", "fsleep", "mdelay", "udelay", "ssleep", "ndelay"};

struct shim_requests {
  unsigned events;         /* sleeps + delays + cond_resched calls */
  unsigned sleeps;         /* sleeps and delays of any kind */
  unsigned cond_resched;
  enum shim_primitive primitive; /* the last sleep or delay */
  unsigned long long min_us, max_us; /* its requested range (min = max but usleep_range) */
  unsigned might_sleep;    /* counted, judged by no clause (spec/busy_delay.md) */
};
static struct shim_requests shim_req;
static unsigned long long shim_clock_us; /* simulated: advanced by each request's lower end */
#define SHIM_CLOCK_MAX (1ull << 63)
static bool shim_need_resched;           /* what need_resched() answers */

static inline void shim_reset_requests(void) { memset(&shim_req, 0, sizeof(shim_req)); }

static inline void shim_sleep(enum shim_primitive p, unsigned long long min_us,
                              unsigned long long max_us) {
  SHIM_COUNT(shim_req.events);
  SHIM_COUNT(shim_req.sleeps);
  shim_req.primitive = p;
  shim_req.min_us = min_us;
  shim_req.max_us = max_us;
  /* stops at 2^63 µs: the sum never wraps */
  shim_clock_us = shim_clock_us < SHIM_CLOCK_MAX
                      ? shim_clock_us + (min_us < SHIM_CLOCK_MAX ? min_us : SHIM_CLOCK_MAX)
                      : SHIM_CLOCK_MAX;
}

static inline void usleep_range(unsigned long min, unsigned long max) { shim_sleep(SHIM_USLEEP_RANGE, min, max); }
static inline void msleep(unsigned int msecs) { shim_sleep(SHIM_MSLEEP, (unsigned long long)msecs * 1000, (unsigned long long)msecs * 1000); }
static inline void ssleep(unsigned int secs) { shim_sleep(SHIM_SSLEEP, (unsigned long long)secs * 1000000, (unsigned long long)secs * 1000000); }
static inline void fsleep(unsigned long usecs) { shim_sleep(SHIM_FSLEEP, usecs, usecs); }
static inline void mdelay(unsigned long msecs) { shim_sleep(SHIM_MDELAY, (unsigned long long)msecs * 1000, (unsigned long long)msecs * 1000); }
static inline void udelay(unsigned long usecs) { shim_sleep(SHIM_UDELAY, usecs, usecs); }
static inline void ndelay(unsigned long nsecs) { shim_sleep(SHIM_NDELAY, nsecs / 1000, nsecs / 1000); }
static inline int shim_cond_resched(void) {
  SHIM_COUNT(shim_req.events);
  SHIM_COUNT(shim_req.cond_resched);
  return 0;
}
#define cond_resched() shim_cond_resched()
#define might_sleep() SHIM_COUNT(shim_req.might_sleep)
#define might_sleep_if(c) do { if (c) might_sleep(); } while (0)
static inline bool need_resched(void) { return shim_need_resched; }

/* --- printk into a buffer --------------------------------------------------- */
#define KERN_SOH "\001"
#define KERN_EMERG KERN_SOH "0"
#define KERN_ALERT KERN_SOH "1"
#define KERN_CRIT KERN_SOH "2"
#define KERN_ERR KERN_SOH "3"
#define KERN_WARNING KERN_SOH "4"
#define KERN_NOTICE KERN_SOH "5"
#define KERN_INFO KERN_SOH "6"
#define KERN_DEBUG KERN_SOH "7"
#define KERN_CONT KERN_SOH "c"
static char shim_log[4096];
static size_t shim_log_len;
static unsigned long shim_log_lines;
#ifdef __FRAMAC__
/* Under Frama-C the log is no clause's: nothing is recorded. The result is
 * any value the harness's printk can return (vsnprintf's: -1 or the length
 * of the formatted text), so that code which reads it (a loop that ends on
 * it) is analysed on every path the harness can take (issue 48;
 * tests/validate/run_shims.sh compares the two). */
#include "__fc_builtin.h"
#define SHIM_PRINTK_MIN (-1)
#define SHIM_PRINTK_MAX 2147483647
__attribute__((format(printf, 1, 2))) static inline int printk(const char *fmt, ...) {
  (void)fmt;
  return Frama_C_interval(SHIM_PRINTK_MIN, SHIM_PRINTK_MAX);
}
#else
__attribute__((format(printf, 1, 2))) static inline int printk(const char *fmt, ...) {
  char line[256];
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(line, sizeof(line), fmt, ap);
  va_end(ap);
  const char *text = line[0] == '\001' && line[1] ? line + 2 : line;
  size_t len = strlen(text);
  if (shim_log_len + len >= sizeof(shim_log)) shim_log_len = 0; /* a ring, coarsely */
  memcpy(shim_log + shim_log_len, text, len + 1);
  shim_log_len += len;
  shim_log_lines++;
  return n;
}
#endif
#ifndef pr_fmt
#define pr_fmt(fmt) fmt
#endif
#define pr_emerg(fmt, ...) printk(KERN_EMERG pr_fmt(fmt), ##__VA_ARGS__)
#define pr_alert(fmt, ...) printk(KERN_ALERT pr_fmt(fmt), ##__VA_ARGS__)
#define pr_crit(fmt, ...) printk(KERN_CRIT pr_fmt(fmt), ##__VA_ARGS__)
#define pr_err(fmt, ...) printk(KERN_ERR pr_fmt(fmt), ##__VA_ARGS__)
#define pr_warn(fmt, ...) printk(KERN_WARNING pr_fmt(fmt), ##__VA_ARGS__)
#define pr_notice(fmt, ...) printk(KERN_NOTICE pr_fmt(fmt), ##__VA_ARGS__)
#define pr_info(fmt, ...) printk(KERN_INFO pr_fmt(fmt), ##__VA_ARGS__)
#define pr_debug(fmt, ...) ((void)0)
#define pr_err_ratelimited pr_err
#define pr_warn_ratelimited pr_warn
#define pr_warn_once pr_warn
static inline void dump_stack(void) {}

/* --- WARN/BUG: findings, reported by the harness (defined there) ---------- */
__attribute__((unused)) static void shim_kernel_finding(const char *what, const char *cond,
                                                     const char *file, int line);
#define WARN_ON(cond) ({ int _w = !!(cond); if (unlikely(_w)) shim_kernel_finding("WARN_ON", #cond, __FILE__, __LINE__); unlikely(_w); })
#define WARN_ON_ONCE(cond) WARN_ON(cond)
#define WARN(cond, ...) ({ int _w = !!(cond); if (unlikely(_w)) shim_kernel_finding("WARN", #cond, __FILE__, __LINE__); unlikely(_w); })
#define WARN_ONCE(cond, ...) WARN(cond, __VA_ARGS__)
#define BUG_ON(cond) do { if (unlikely(cond)) shim_kernel_finding("BUG_ON", #cond, __FILE__, __LINE__); } while (0)
#define BUG() shim_kernel_finding("BUG", "", __FILE__, __LINE__)

/* The body of a pulled-in function that does not compile with the shims
 * (extract/extract.h, drop_failing_items): it is not on the judged path, so
 * being called means the harness went where validate cannot judge. The
 * harness stops with a line that says so, never a verdict made up. */
__attribute__((unused, noreturn)) static void idlespec_dropped_function(const char *name) {
  fprintf(stderr, "idlespec: %s() was dropped (it does not compile with the shims) and was called\n",
          name);
  fflush(NULL);
  exit(125);
}

#endif /* IDLESPEC_VALIDATE_SHIM_KERNEL_H */
