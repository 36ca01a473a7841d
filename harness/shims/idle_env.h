/*
 * The POWER8 or POWER9 core as powernv's idle.c sees it, for the idle_core
 * harness (harness/harness_idle_core.c, spec/idle_core.md). The build for
 * power7_idle_insn (HAVE_POWER7_IDLE_INSN) is a POWER8 core (SMT8 at most,
 * split-core: subcore_sibling_mask); the one for power9_idle_stop a POWER9
 * core (SMT4 at most).
 *
 * One context per hardware thread of one core. The
 * code under test runs unmodified; what it does to the shared per-core word
 * (paca_ptrs[first]->idle_state) goes through the operations below, and each
 * of them is a scheduling point: the thread stops *before* the operation and
 * the harness's scheduler decides who moves next. So is the idle instruction
 * (isa300_idle_stop_mayloss/noloss, POWER8's isa206_idle_insn_mayloss: the
 * thread then stays in hardware idle until the scheduler wakes it, with the
 * SRR1 wake state and PSSCR[PLS] the core's history gives), a write of a
 * per-core or per-subcore SPR (POWER9: PTCR, RPR, TSCR; POWER8: TSCR,
 * WORC per core, SDR1, RPR per subcore: the restores others may not run
 * ahead of), opal_resync_timebase() and the fastsleep workaround's OPAL call
 * (opal_config_cpu_idle_state).
 * Plain loads of the word (`*state & core_thread_mask`) are not points: they
 * happen atomically with the thread's preceding operation, which is exact for
 * the code at hand (the preceding operation is a test-and-set of the lock
 * bit, which commutes with every other thread's bit operation). POWER8's
 * code also writes the word with plain stores under the lock (its own bit,
 * the winkle count and bits): the harness sees such a store at the thread's
 * next scheduling point (the word differs from what the last operation
 * left) and judges it then (made without the lock: IDLE-2 / IDLE-5).
 *
 * SPRs are a register file: per core (PTCR, RPR, TSCR) and per thread
 * (the rest, LDBAR among them). A core state loss overwrites them with garbage, so that a
 * thread that returns to running before they are restored is seen doing so.
 *
 * The lock: until v6.4 a bit of the word itself; since b0c5b4f1ee36
 * ("powerpc: powernv: Fix KCSAN datarace warnings on idle_state
 * contention", v6.5) the same bit in a word of its own, the first thread's
 * paca->idle_lock. Both are scheduling points, so both eras compile and run.
 *
 * A scheduling point on the word or the lock switches to the scheduler from
 * the frame of the code under test itself (IC_SWITCH, inlined there): the
 * thread's saved registers and the stack above its saved stack pointer are
 * then exactly the code's own state at that point, which is what the
 * harness's livelock criterion compares (harness_idle_core.c, IDLE-8).
 *
 * The hooks (ic_pending, ic_did, ic_idle, ic_spr_*, ic_resync) are defined by
 * the harness, which is compiled after the code under test.
 */
#ifndef IDLESPEC_VALIDATE_SHIM_IDLE_ENV_H
#define IDLESPEC_VALIDATE_SHIM_IDLE_ENV_H

#define IC_MAX_THREADS 8

/* Barriers order nothing here: every context runs sequentially consistent
 * (and under Frama-C there is one thread); barrier() is each branch's own. */
#define smp_mb() barrier()
#define smp_rmb() barrier()
#define smp_wmb() barrier()
#define mb() barrier()
#define isync() barrier()

typedef struct {
  int counter;
} atomic_t;

#ifndef __FRAMAC__
#include <ucontext.h>

#if defined(__SANITIZE_ADDRESS__)
#define IC_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define IC_ASAN 1
#endif
#endif
#ifdef IC_ASAN
#include <sanitizer/asan_interface.h>
#include <sanitizer/common_interface_defs.h>
#endif
/* The ThreadSanitizer build (IDLE-10, harness/idle_core_races.c): each
 * hardware thread a TSan fiber, the marked accesses __atomic builtins of
 * their memory order, the harness's own code outside the race detector
 * (IC_HOOK: its hooks run with the fiber's reads and writes ignored). */
#if defined(__SANITIZE_THREAD__)
#define IC_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define IC_TSAN 1
#endif
#endif
#ifdef IC_TSAN
#include <sanitizer/tsan_interface.h>
void AnnotateIgnoreReadsBegin(const char* file, int line);
void AnnotateIgnoreReadsEnd(const char* file, int line);
void AnnotateIgnoreWritesBegin(const char* file, int line);
void AnnotateIgnoreWritesEnd(const char* file, int line);
static void* ic_main_fiber;
/* The ignores in force on each fiber (the scheduler's last): a fiber must
 * end them before it is destroyed (ic_tsan_new_fibers). Relaxed atomics,
 * so that they never race themselves (their accesses are the harness's). */
static int ic_ignores[IC_MAX_THREADS + 1];
static int ic_on_fiber = IC_MAX_THREADS;
static inline int ic_hook_in(void) {
  AnnotateIgnoreReadsBegin("", 0);
  AnnotateIgnoreWritesBegin("", 0);
  __atomic_fetch_add(&ic_ignores[__atomic_load_n(&ic_on_fiber, __ATOMIC_RELAXED)], 1, __ATOMIC_RELAXED);
  return 0;
}
static inline void ic_hook_out(int* unused) {
  (void)unused;
  __atomic_fetch_sub(&ic_ignores[__atomic_load_n(&ic_on_fiber, __ATOMIC_RELAXED)], 1, __ATOMIC_RELAXED);
  AnnotateIgnoreWritesEnd("", 0);
  AnnotateIgnoreReadsEnd("", 0);
}
/* At the top of a hook: the rest of it, every return included, is ignored. */
#define IC_HOOK() __attribute__((cleanup(ic_hook_out), unused)) int _ic_hook = ic_hook_in()
/* A switch to the scheduler synchronises the scheduler with the thread
 * (it resets the next schedule after everything a thread did); the
 * scheduler's switch to a thread does not (ic_to_thread). */
#define IC_TO_MAIN_FIBER() \
  (__atomic_store_n(&ic_on_fiber, IC_MAX_THREADS, __ATOMIC_RELAXED), __tsan_switch_to_fiber(ic_main_fiber, 0))
#else
#define IC_HOOK() ((void)0)
#define IC_TO_MAIN_FIBER() ((void)0)
#endif

/* --- the operations that are scheduling points --------------------------- */
enum ic_op {
  IC_OP_NONE = 0,
  IC_OP_CLEAR_BIT,        /* clear_bit */
  IC_OP_SET_BIT,          /* set_bit */
  IC_OP_TAS_LOCK,         /* test_and_set_bit_lock (and test_and_set_bit) */
  IC_OP_CLEAR_BIT_UNLOCK, /* clear_bit_unlock */
  IC_OP_TEST_BIT,         /* test_bit */
  IC_OP_CMPXCHG,          /* cmpxchg */
  IC_OP_READ,             /* READ_ONCE */
  IC_OP_WRITE,            /* WRITE_ONCE */
  IC_OP_IDLE,             /* isa300_idle_stop_mayloss / _noloss */
  IC_OP_MTSPR_CORE,       /* mtspr of a per-core SPR */
  IC_OP_RESYNC,           /* opal_resync_timebase() */
  IC_OP_WORKAROUND,       /* opal_config_cpu_idle_state(): the fastsleep workaround */
  IC_OP_COUNT
};

/* The harness's side (harness/harness_idle_core.c). */
static int ic_cur;                                /* the thread running */
static int ic_is_word(const volatile void* addr); /* a core's idle_state or idle_lock */
static void ic_pending(int op, int line, const volatile void* addr, unsigned long arg);
/* The contexts. On x86-64 a switch saves the callee-saved registers on the
 * thread's own stack and keeps only the stack pointer (ic_ctx_switch below:
 * no system call, unlike swapcontext's signal-mask save, which was most of
 * the harness's time); the thread's state is then exactly its stack from the
 * saved pointer up. Elsewhere: swapcontext. */
#if defined(__x86_64__)
#define IC_FAST_SWITCH 1
struct ic_context {
  void* sp;
};
void ic_ctx_switch(struct ic_context* from, const struct ic_context* to) __asm__("ic_ctx_switch")
    __attribute__((visibility("hidden")));
__asm__(
    ".text\n"
    ".p2align 4\n"
    ".type ic_ctx_switch, @function\n"
    "ic_ctx_switch:\n"
    "  pushq %rbp\n"
    "  pushq %rbx\n"
    "  pushq %r12\n"
    "  pushq %r13\n"
    "  pushq %r14\n"
    "  pushq %r15\n"
    "  movq %rsp, (%rdi)\n"
    "  movq (%rsi), %rsp\n"
    "  popq %r15\n"
    "  popq %r14\n"
    "  popq %r13\n"
    "  popq %r12\n"
    "  popq %rbx\n"
    "  popq %rbp\n"
    "  ret\n"
    ".size ic_ctx_switch, .-ic_ctx_switch\n");
#define IC_SWAP(from, to) ic_ctx_switch((from), (to))
#else
struct ic_context {
  ucontext_t uc;
};
#define IC_SWAP(from, to) ((void)swapcontext(&(from)->uc, &(to)->uc))
#endif
static struct ic_context ic_main_ctx;            /* the scheduler */
static struct ic_context ic_ctx[IC_MAX_THREADS]; /* each hardware thread where it stopped */
#ifdef IC_ASAN                                   /* ASan follows the switches between stacks */
static void* ic_fake[IC_MAX_THREADS];
static const void* ic_main_bottom;
static size_t ic_main_size;
#define IC_SWITCH()                                                                   \
  do {                                                                                \
    __sanitizer_start_switch_fiber(&ic_fake[ic_cur], ic_main_bottom, ic_main_size);   \
    IC_SWAP(&ic_ctx[ic_cur], &ic_main_ctx);                                           \
    __sanitizer_finish_switch_fiber(ic_fake[ic_cur], &ic_main_bottom, &ic_main_size); \
  } while (0)
#else
#define IC_SWITCH()                        \
  do {                                     \
    IC_TO_MAIN_FIBER();                    \
    IC_SWAP(&ic_ctx[ic_cur], &ic_main_ctx); \
  } while (0)
#endif
/* A scheduling point: the thread stops before the operation, in its own frame. */
#define ic_point(op, line, addr, arg)                       \
  do {                                                      \
    ic_pending((op), (line), (addr), (unsigned long)(arg)); \
    IC_SWITCH();                                            \
  } while (0)
static void ic_did(int op, int line, unsigned long arg, unsigned long before, unsigned long after,
                   unsigned long ret);
static unsigned long ic_idle(unsigned long psscr, int mayloss, int line);
static unsigned long ic_mfspr(int spr);
static void ic_mtspr(int spr, unsigned long v, int line);
static void ic_resync(int line);
static void ic_workaround(unsigned long what, unsigned long how, int line);

/* One atomic read-modify-write of an unsigned long, a point when it is the word. */
#ifdef IC_TSAN
/* Under ThreadSanitizer each operation is the access LKMM makes it: a
 * marked load for READ_ONCE, test_bit, a cmpxchg that fails and a
 * test_and_set_bit_lock that finds the bit set; a marked store for
 * WRITE_ONCE; otherwise a read-modify-write, relaxed for clear_bit and
 * set_bit, acquire for test_and_set_bit_lock, release for
 * clear_bit_unlock, fully ordered for cmpxchg. (One real thread runs at a
 * time: the load and the exchange see the same value.) */
#define IC_ORDER(op)                                     \
  ((op) == IC_OP_TAS_LOCK           ? __ATOMIC_ACQUIRE \
   : (op) == IC_OP_CLEAR_BIT_UNLOCK ? __ATOMIC_RELEASE \
   : (op) == IC_OP_CMPXCHG          ? __ATOMIC_SEQ_CST \
                                    : __ATOMIC_RELAXED)
#define IC_RMW(op, line, addr, arg, expr_new, ret_expr)                                        \
  ({                                                                                           \
    volatile unsigned long* _a = (volatile unsigned long*)(addr);                              \
    const int _w = ic_is_word(_a);                                                             \
    if (_w) ic_point((op), (line), _a, (unsigned long)(arg));                                  \
    const unsigned long _old = __atomic_load_n(_a, __ATOMIC_RELAXED);                          \
    const unsigned long _new = (expr_new);                                                     \
    if ((op) == IC_OP_WRITE)                                                                   \
      __atomic_store_n(_a, _new, __ATOMIC_RELAXED);                                            \
    else if ((op) != IC_OP_READ && (op) != IC_OP_TEST_BIT &&                                   \
             !((op) == IC_OP_CMPXCHG && _old != (unsigned long)(arg)) &&                       \
             !((op) == IC_OP_TAS_LOCK && ((_old >> (unsigned long)(arg)) & 1UL))) {            \
      /* TSan checks an atomic RMW's write before its acquire: the read's                      \
       * acquire first, as LKMM orders it (else a plain access released to                     \
       * this RMW, on its own word, would be reported as racing with it). */                   \
      if ((op) == IC_OP_TAS_LOCK || (op) == IC_OP_CMPXCHG)                                     \
        (void)__atomic_load_n(_a, __ATOMIC_ACQUIRE);                                           \
      (void)__atomic_exchange_n(_a, _new, IC_ORDER(op));                                       \
    }                                                                                          \
    const unsigned long _ret = (ret_expr);                                                     \
    if (_w) ic_did((op), (line), (unsigned long)(arg), _old, _new, _ret);                      \
    _ret;                                                                                      \
  })
#else
#define IC_RMW(op, line, addr, arg, expr_new, ret_expr)                   \
  ({                                                                      \
    volatile unsigned long* _a = (volatile unsigned long*)(addr);         \
    const int _w = ic_is_word(_a);                                        \
    if (_w) ic_point((op), (line), _a, (unsigned long)(arg));             \
    const unsigned long _old = *_a;                                       \
    const unsigned long _new = (expr_new);                                \
    *_a = _new;                                                           \
    const unsigned long _ret = (ret_expr);                                \
    if (_w) ic_did((op), (line), (unsigned long)(arg), _old, _new, _ret); \
    _ret;                                                                 \
  })
#endif

#define clear_bit(nr, addr) \
  ((void)IC_RMW(IC_OP_CLEAR_BIT, __LINE__, (addr), (nr), _old & ~(1UL << (nr)), 0UL))
#define set_bit(nr, addr) \
  ((void)IC_RMW(IC_OP_SET_BIT, __LINE__, (addr), (nr), _old | (1UL << (nr)), 0UL))
#define test_and_set_bit_lock(nr, addr) \
  ((int)IC_RMW(IC_OP_TAS_LOCK, __LINE__, (addr), (nr), _old | (1UL << (nr)), (_old >> (nr)) & 1UL))
#define test_and_set_bit(nr, addr) test_and_set_bit_lock(nr, addr)
#define clear_bit_unlock(nr, addr) \
  ((void)IC_RMW(IC_OP_CLEAR_BIT_UNLOCK, __LINE__, (addr), (nr), _old & ~(1UL << (nr)), 0UL))
#define __clear_bit_unlock(nr, addr) clear_bit_unlock(nr, addr)
#define test_bit(nr, addr) \
  ((int)IC_RMW(IC_OP_TEST_BIT, __LINE__, (addr), (nr), _old, (_old >> (nr)) & 1UL))
#define cmpxchg(ptr, o, n)                                                      \
  ({                                                                            \
    const unsigned long _cx_o = (unsigned long)(o), _cx_n = (unsigned long)(n); \
    (__typeof__(*(ptr)))IC_RMW(IC_OP_CMPXCHG, __LINE__, (ptr), _cx_o,           \
                               _old == _cx_o ? _cx_n : _old, _old);             \
  })
#define cmpxchg_relaxed cmpxchg
#define cmpxchg_acquire cmpxchg
#define cmpxchg_release cmpxchg

/* READ_ONCE / WRITE_ONCE: points on the word, plain volatile accesses elsewhere. */
#undef READ_ONCE
#undef WRITE_ONCE
#define READ_ONCE(x)                                                            \
  ({                                                                            \
    __typeof__(x) _ro_v;                                                        \
    if (sizeof(x) == sizeof(unsigned long) && ic_is_word(&(x))) {               \
      _ro_v = (__typeof__(x))IC_RMW(IC_OP_READ, __LINE__, &(x), 0, _old, _old); \
    } else {                                                                    \
      _ro_v = *(const volatile __typeof__(x)*)&(x);                             \
    }                                                                           \
    _ro_v;                                                                      \
  })
#define WRITE_ONCE(x, v)                                            \
  do {                                                              \
    if (sizeof(x) == sizeof(unsigned long) && ic_is_word(&(x))) {   \
      const unsigned long _wo_v = (unsigned long)(v);               \
      (void)IC_RMW(IC_OP_WRITE, __LINE__, &(x), _wo_v, _wo_v, 0UL); \
    } else {                                                        \
      *(volatile __typeof__(x)*)&(x) = (v);                         \
    }                                                               \
  } while (0)

#define atomic_read(v) READ_ONCE((v)->counter)
#define atomic_set(v, i) WRITE_ONCE((v)->counter, (i))
#define atomic_inc(v) ((void)__atomic_add_fetch(&(v)->counter, 1, __ATOMIC_SEQ_CST))
#define atomic_dec(v) ((void)__atomic_sub_fetch(&(v)->counter, 1, __ATOMIC_SEQ_CST))
#else /* __FRAMAC__ */
/* Frama-C (validate/framac.h: WP on the word's helpers, one thread at a
 * time): each operation is its plain sequential effect, with no scheduling
 * point, no context switch, no volatile access (WP would read a volatile as
 * an unknown value) and no GCC builtin. An operation's atomicity is what the
 * harness's scheduler explores; WP states what one step does to the word. */
static int ic_cur; /* the thread running */
static unsigned long ic_idle(unsigned long psscr, int mayloss, int line);
static unsigned long ic_mfspr(int spr);
static void ic_mtspr(int spr, unsigned long v, int line);
static void ic_resync(int line);
static void ic_workaround(unsigned long what, unsigned long how, int line);
/* Clearing is (word | bit) ^ bit: the same value as word & ~bit, in a form
 * Z3 reasons about through why3 (it gives up on the complement of a
 * shifted bit). */
#define clear_bit(nr, addr) ((void)(*(addr) = (*(addr) | (1UL << (nr))) ^ (1UL << (nr))))
#define set_bit(nr, addr) ((void)(*(addr) |= 1UL << (nr)))
#define test_and_set_bit_lock(nr, addr)                 \
  ({                                                    \
    unsigned long* _a = (addr);                         \
    const unsigned long _old = *_a;                     \
    *_a = _old | (1UL << (nr));                         \
    (int)((_old >> (nr)) & 1UL);                        \
  })
#define test_and_set_bit(nr, addr) test_and_set_bit_lock(nr, addr)
#define clear_bit_unlock(nr, addr) clear_bit(nr, addr)
#define __clear_bit_unlock(nr, addr) clear_bit(nr, addr)
#define test_bit(nr, addr) ((int)((*(addr) >> (nr)) & 1UL))
#define cmpxchg(ptr, o, n)                                                      \
  ({                                                                            \
    __typeof__(*(ptr))* _cx_p = (ptr);                                          \
    const __typeof__(*(ptr)) _cx_o = (o), _cx_n = (n), _cx_old = *_cx_p;        \
    if (_cx_old == _cx_o) *_cx_p = _cx_n;                                       \
    _cx_old;                                                                    \
  })
#define cmpxchg_relaxed cmpxchg
#define cmpxchg_acquire cmpxchg
#define cmpxchg_release cmpxchg
#undef READ_ONCE
#undef WRITE_ONCE
#define READ_ONCE(x) (x)
#define WRITE_ONCE(x, v) ((x) = (v))
#undef barrier
#undef cpu_relax
#undef unlikely
#undef likely
#define barrier() ((void)0)
#define cpu_relax() ((void)0)
#define unlikely(x) (x)
#define likely(x) (x)
#define atomic_read(v) ((v)->counter)
#define atomic_set(v, i) ((v)->counter = (i))
#define atomic_inc(v) ((void)++(v)->counter)
#define atomic_dec(v) ((void)--(v)->counter)
#endif /* __FRAMAC__ */

/* --- the word's layout (arch/powerpc/include/asm/cpuidle.h) --------------- */
#define PNV_THREAD_RUNNING 0
#define PNV_THREAD_NAP 1
#define PNV_THREAD_SLEEP 2
#define PNV_THREAD_WINKLE 3
#define PNV_CORE_IDLE_LOCK_BIT 0x10000000UL
#define NR_PNV_CORE_IDLE_LOCK_BIT 28
#define PNV_CORE_IDLE_WINKLE_COUNT 0x00010000UL
#define PNV_CORE_IDLE_WINKLE_COUNT_ALL_BIT 0x00080000UL
#define PNV_CORE_IDLE_WINKLE_COUNT_BITS 0x000F0000UL
#define PNV_CORE_IDLE_WINKLE_COUNT_SHIFT 16
#define PNV_CORE_IDLE_THREAD_WINKLE_BITS 0x0000FF00UL
#define PNV_CORE_IDLE_THREAD_WINKLE_BITS_SHIFT 8
#define PNV_CORE_IDLE_THREAD_BITS 0x000000FFUL

/* --- PSSCR and SRR1 (arch/powerpc/include/asm/reg.h) ---------------------- */
#define PSSCR_RL_MASK 0x0000000FUL
/* The greatest stop level (Power ISA v3.0, Book III 4.3.x: PSSCR's RL,
 * MTL and PSLL fields are 4 bits, levels 0 to 15). Upstream's idle.c
 * defines it itself (0xF since v4.6), a derivative's in a header of its
 * own; a file that defines it keeps its value.
 * idlespec assumed: MAX_STOP_STATE = 0xF (the Power ISA's greatest stop level: PSSCR[RL] is 4 bits) */
#ifndef MAX_STOP_STATE
#define MAX_STOP_STATE 0xF
#endif
#define PSSCR_MTL_MASK 0x000000F0UL
#define PSSCR_TR_MASK 0x00000300UL
#define PSSCR_PSLL_MASK 0x000F0000UL
#define PSSCR_EC 0x00100000UL
#define PSSCR_ESL 0x00200000UL
#define PSSCR_SD 0x00400000UL
#define PSSCR_PLS 0xf000000000000000UL
#define PSSCR_PLS_SHIFT 60
#define SRR1_WAKESTATE 0x00030000UL
#define SRR1_WS_HVLOSS 0x00030000UL
#define SRR1_WS_GPRLOSS 0x00020000UL
#define SRR1_WS_NOLOSS 0x00010000UL
#define SRR1_WAKEMASK_P8 0x003c0000UL
#define SRR1_WAKEHMI 0x00280000UL
#define SRR1_WAKEDEC 0x00180000UL
#define PPC_BIT(bit) (1UL << (63 - (bit)))
/* The ERAT flush of the POWER9 DD2.0 workaround (PPC_INVALIDATE_ERAT up to
 * v5.2): no state the harness models, an empty asm. */
#define PPC_ISA_3_0_INVALIDATE_ERAT ""
#define PPC_INVALIDATE_ERAT ""
#define MSR_IR 0x20UL
#define MSR_DR 0x10UL
#define MSR_ME 0x1000UL
#define MSR_HV (1UL << 60)
#define MSR_SF (1UL << 63)
#define MSR_KERNEL (MSR_SF | MSR_HV | MSR_ME | MSR_IR | MSR_DR)
#define MSR_IDLE (MSR_SF | MSR_HV | MSR_ME)
static inline unsigned long mfmsr(void) { return MSR_IDLE; /* idle code runs in real mode */ }
static inline void mtmsr(unsigned long msr) { (void)msr; }
#define __mtmsrd(msr, l) mtmsr(msr)

/* --- SPRs: a register file (the harness keeps the values) ------------------ */
enum {
  SPRN_PTCR = 1, /* per core */
  SPRN_RPR,
  SPRN_TSCR,
  /* Per thread from here. LDBAR is a thread's own (spec/idle_core.md,
   * IDLE-7): upstream writes it back on every thread with the per-thread
   * registers, and a restore by the core's first thread alone loses the
   * others'. Its value stays 4 (the harness's name table). */
  SPRN_LDBAR,
  IC_FIRST_THREAD_SPR = SPRN_LDBAR,
  SPRN_LPCR, /* per thread */
  SPRN_HFSCR,
  SPRN_FSCR,
  SPRN_PID,
  SPRN_PURR,
  SPRN_SPURR,
  SPRN_DSCR,
  SPRN_CIABR,
  SPRN_MMCRA,
  SPRN_MMCR0,
  SPRN_MMCR1,
  SPRN_MMCR2,
  SPRN_AMR,
  SPRN_IAMR,
  SPRN_AMOR,
  SPRN_UAMOR,
  SPRN_SPRG3,
  IC_LAST_CHECKED_SPR = SPRN_SPRG3,
  SPRN_WORT,  /* not lost by a POWER9 stop: neither saved nor judged */
  SPRN_PSSCR, /* set by the hardware on wake-up */
  SPRN_HSPRG0,
  SPRN_HID0,
  SPRN_HMEER,
  SPRN_SDR1, /* POWER8: per subcore (with RPR) */
  SPRN_WORC, /* POWER8: per core (with TSCR) */
  IC_NR_SPRS
};
#define mfspr(n) ic_mfspr(n)
#define mtspr(n, v) ic_mtspr((n), (unsigned long)(v), __LINE__)

/* --- the core's threads ----------------------------------------------------- */
struct lppaca;
struct paca_struct {
  unsigned long idle_state; /* the word, in the first thread's paca */
  unsigned long idle_lock;  /* since v6.5 (b0c5b4f1ee36): the lock bit, in a word of its own */
  u8 thread_idle_state;
  u8 subcore_sibling_mask;
  unsigned long requested_psscr;
  atomic_t dont_stop;
  u64 sprg_vdso;
  u16 hw_cpu_id;
  u64 saved_r1;
  void* idle_stack_ptr;
};
static struct paca_struct ic_pacas[IC_MAX_THREADS];
static struct paca_struct* paca_ptrs[IC_MAX_THREADS] = {&ic_pacas[0], &ic_pacas[1], &ic_pacas[2],
                                                        &ic_pacas[3], &ic_pacas[4], &ic_pacas[5],
                                                        &ic_pacas[6], &ic_pacas[7]};
static int threads_per_core = 2;
static int threads_shift = 1;
#define local_paca (paca_ptrs[ic_cur])
#define get_paca() local_paca
#define raw_smp_processor_id() (ic_cur)
#define smp_processor_id() (ic_cur)
#define get_hard_smp_processor_id(cpu) (cpu)
#ifdef __FRAMAC__ /* expressions, not calls: WP sees them in the helper's own text */
#define cpu_first_thread_sibling(cpu) ((cpu) & ~(threads_per_core - 1))
#define cpu_thread_in_core(cpu) ((cpu) & (threads_per_core - 1))
#define cpu_last_thread_sibling(cpu) ((cpu) | (threads_per_core - 1))
#else
static inline int cpu_first_thread_sibling(int cpu) { return cpu & ~(threads_per_core - 1); }
static inline int cpu_thread_in_core(int cpu) { return cpu & (threads_per_core - 1); }
static inline int cpu_last_thread_sibling(int cpu) { return cpu | (threads_per_core - 1); }
#endif

/* --- features: a POWER9 DD2.2+ bare-metal host, hash or radix --------------- */
#define CPU_FTR_ARCH_206 0x0000000000000100ull
#define CPU_FTR_ARCH_207S 0x0000000000000200ull
#define CPU_FTR_ARCH_300 0x0000000000000400ull
#define CPU_FTR_ARCH_31 0x0000000000000800ull
#define CPU_FTR_POWER9_DD2_1 0x0000000000001000ull
#define CPU_FTR_P9_TM_XER_SO_BUG 0x0000000000002000ull
#define CPU_FTR_HVMODE 0x0000000000004000ull
#define FW_FEATURE_ULTRAVISOR 0x0000000000001000ull
#define FW_FEATURE_OPAL 0x0000000000002000ull
#ifdef HAVE_POWER7_IDLE_INSN /* a POWER8 bare-metal host, hash MMU */
static unsigned long long ic_cpu_features = CPU_FTR_ARCH_206 | CPU_FTR_ARCH_207S | CPU_FTR_HVMODE;
#else
static unsigned long long ic_cpu_features =
    CPU_FTR_ARCH_206 | CPU_FTR_ARCH_207S | CPU_FTR_ARCH_300 | CPU_FTR_POWER9_DD2_1 | CPU_FTR_HVMODE;
#endif
static unsigned long long ic_fw_features = FW_FEATURE_OPAL;
static inline bool cpu_has_feature(unsigned long long f) { return (ic_cpu_features & f) == f; }
static inline bool firmware_has_feature(unsigned long long f) { return (ic_fw_features & f) == f; }
static inline bool radix_enabled(void) { return true; }
static inline void __slb_restore_bolted_realmode(void) {}
struct pt_regs;
static inline long hmi_exception_realmode(struct pt_regs* regs) {
  (void)regs;
  return 0;
}
static inline void __ppc64_runlatch_off(void) {}
static inline void __ppc64_runlatch_on(void) {}

/* --- the idle instruction and OPAL ----------------------------------------- */
#define isa300_idle_stop_mayloss(psscr) ic_idle((psscr), 1, __LINE__)
#define isa300_idle_stop_noloss(psscr) ic_idle((psscr), 0, __LINE__)
#define OPAL_SUCCESS 0
#define OPAL_CONFIG_IDLE_FASTSLEEP 1
#define OPAL_CONFIG_IDLE_UNDO 0
#define OPAL_CONFIG_IDLE_APPLY 1
#define opal_resync_timebase() (ic_resync(__LINE__), (s64)OPAL_SUCCESS)
/* POWER8: nap, sleep, winkle by PNV_THREAD_*; SRR1 says whether hypervisor
 * state was lost (fastsleep and winkle alike: the winkle bits tell them apart). */
#define isa206_idle_insn_mayloss(type) ic_idle((unsigned long)(type), 1, __LINE__)
/* The fastsleep workaround: APPLY by the last thread in, UNDO by the first out. */
#define opal_config_cpu_idle_state(what, how) \
  (ic_workaround((unsigned long)(what), (unsigned long)(how), __LINE__), (s64)OPAL_SUCCESS)

#endif /* IDLESPEC_VALIDATE_SHIM_IDLE_ENV_H */
