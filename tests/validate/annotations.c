/*
 * idlespec test input (tests/validate, issue 37): every annotation of the
 * kernel's compiler_types.h / compiler_attributes.h set (and the few of
 * init.h, cache.h and types.h kernel C carries), each used once the way
 * kernel code uses it, in this suite's own words. run_annotations.sh
 * compiles it through harness/shims/ for the host, ppc64 and ppc64le, runs
 * it, and runs sparse on it; each ANNOTATION line below is also compiled on
 * its own (one test per annotation).
 *
 * Lines "ANNOTATION name: code" are the per-annotation snippets; the rest
 * uses them all at once and checks what the compiler makes of the ones that
 * change code (layout, alignment, sections, unused results).
 */

/* ANNOTATION __force: static u16 t_force(__be16 v) { return (__force u16)v; } */
/* ANNOTATION __bitwise: typedef u32 __bitwise t_flags_t; static t_flags_t t_bw = (__force t_flags_t)1; */
/* ANNOTATION __user: static long t_user(const char __user *p) { __chk_user_ptr(p); return p != NULL; } */
/* ANNOTATION __iomem: static long t_iomem(void __iomem *p) { __chk_io_ptr(p); return p != NULL; } */
/* ANNOTATION __rcu: struct t_rcu { int __rcu *ptr; }; static struct t_rcu t_r; */
/* ANNOTATION __percpu: static int __percpu *t_pcpu; */
/* ANNOTATION __nocast: typedef long __nocast t_nocast_t; static t_nocast_t t_nc; */
/* ANNOTATION __safe: struct t_safe { int *__safe p; }; static struct t_safe t_sf; */
/* ANNOTATION __private: struct t_priv { int __private v; }; static int t_priv_get(struct t_priv *p) { return ACCESS_PRIVATE(p, v); } */
/* ANNOTATION __kernel: static int __kernel *t_kptr; */
/* ANNOTATION __must_check: static int __must_check t_mc(void) { return 1; } */
/* ANNOTATION __cold: static void __cold t_cold(void) {} */
/* ANNOTATION __hot: static void __hot t_hot(void) {} */
/* ANNOTATION __always_inline: static __always_inline int t_ai(int x) { return x + 1; } */
/* ANNOTATION noinline: static noinline int t_ni(int x) { return x + 1; } */
/* ANNOTATION noinline_for_stack: static noinline_for_stack int t_nfs(int x) { return x + 1; } */
/* ANNOTATION __maybe_unused: static int __maybe_unused t_mu; */
/* ANNOTATION __always_unused: static void t_au(int __always_unused x) {} */
/* ANNOTATION __used: static int __used t_used; */
/* ANNOTATION __ro_after_init: static int t_roai __ro_after_init = 1; */
/* ANNOTATION __read_mostly: static int t_rm __read_mostly; */
/* ANNOTATION __init: static int __init t_init(void) { return 0; } */
/* ANNOTATION __initdata: static int t_initdata __initdata = 1; */
/* ANNOTATION __initconst: static const int t_initconst __initconst = 1; */
/* ANNOTATION __exit: static void __exit t_exit(void) {} */
/* ANNOTATION __ref: static int __ref t_ref(void) { return 0; } */
/* ANNOTATION __refdata: static int t_refdata __refdata; */
/* ANNOTATION __meminit: static int __meminit t_meminit(void) { return 0; } */
/* ANNOTATION __cpuidle: static void __cpuidle t_cpuidle(void) {} */
/* ANNOTATION noinstr: static noinstr void t_noinstr(void) {} */
/* ANNOTATION notrace: static notrace void t_notrace(void) {} */
/* ANNOTATION __no_kcsan: static __no_kcsan void t_nokcsan(void) {} */
/* ANNOTATION __no_sanitize_address: static __no_sanitize_address void t_nosan(void) {} */
/* ANNOTATION __no_profile: static __no_profile void t_noprof(void) {} */
/* ANNOTATION __nocfi: static __nocfi void t_nocfi(void) {} */
/* ANNOTATION __noscs: static __noscs void t_noscs(void) {} */
/* ANNOTATION __no_stack_protector: static __no_stack_protector void t_nosp(void) {} */
/* ANNOTATION __data_racy: static int __data_racy t_racy; */
/* ANNOTATION __latent_entropy: static int __latent_entropy t_le(void) { return 0; } */
/* ANNOTATION __randomize_layout: struct t_rl { int a, b; } __randomize_layout; */
/* ANNOTATION __no_randomize_layout: struct t_nrl { int a, b; } __no_randomize_layout; */
/* ANNOTATION __designated_init: struct t_di { int a; } __designated_init; */
/* ANNOTATION __visible: __visible int t_visible; */
/* ANNOTATION __weak: int __weak t_weak(void) { return 0; } */
/* ANNOTATION __flatten: static __flatten int t_flat(void) { return 0; } */
/* ANNOTATION __noclone: static __noclone int t_noclone(void) { return 0; } */
/* ANNOTATION __noreturn: static void __noreturn t_noret(void) { exit(0); } */
/* ANNOTATION __pure: static int __pure t_pure(const int *p) { return *p; } */
/* ANNOTATION __attribute_const__: static int __attribute_const__ t_const(int x) { return x * 2; } */
/* ANNOTATION __malloc: static void *__malloc t_malloc(size_t n) { return malloc(n); } */
/* ANNOTATION __alloc_size: static void *__alloc_size(1) t_alloc(size_t n) { return malloc(n); } */
/* ANNOTATION __realloc_size: static void *__realloc_size(2) t_ralloc(void *p, size_t n) { return realloc(p, n); } */
/* ANNOTATION __assume_aligned: static void *__assume_aligned(8) t_aa(void) { return malloc(8); } */
/* ANNOTATION __printf: static __printf(1, 2) int t_pf(const char *f, ...) { return 0; } */
/* ANNOTATION __scanf: static __scanf(1, 2) int t_sf(const char *f, ...) { return 0; } */
/* ANNOTATION __mode: typedef int t_mode_t __mode(DI); */
/* ANNOTATION __gnu_inline: extern inline __gnu_inline int t_gi(void) { return 0; } */
/* ANNOTATION __nonstring: struct t_ns { char name[4] __nonstring; }; */
/* ANNOTATION __copy: static void t_src(void) {} static __copy(t_src) void t_dst(void) {} */
/* ANNOTATION __cleanup: static void t_free(int **p) { free(*p); } static void t_cl(void) { int *p __cleanup(t_free) = NULL; } */
/* ANNOTATION __section: static int t_sect __section(".data.idlespec_test") = 1; */
/* ANNOTATION __packed: struct t_pk { u8 a; u32 b; } __packed; */
/* ANNOTATION __aligned: static int t_al __aligned(16); */
/* ANNOTATION __aligned_largest: static int t_all __aligned_largest; */
/* ANNOTATION __counted_by: struct t_cb { int n; int v[] __counted_by(n); }; */
/* ANNOTATION __counted_by_be: struct t_cbb { __be32 n; int v[] __counted_by_be(n); }; */
/* ANNOTATION __counted_by_le: struct t_cbl { __le32 n; int v[] __counted_by_le(n); }; */
/* ANNOTATION __cacheline_aligned: static int t_cla __cacheline_aligned; */
/* ANNOTATION ____cacheline_aligned: struct t_cla2 { int a; } ____cacheline_aligned; */
/* ANNOTATION __cacheline_aligned_in_smp: static int t_clas __cacheline_aligned_in_smp; */
/* ANNOTATION fallthrough: static int t_ft(int x) { switch (x) { case 0: x++; fallthrough; default: return x; } } */
/* ANNOTATION __acquires: static void t_acq(int *l) __acquires(l); */
/* ANNOTATION __releases: static void t_rel(int *l) __releases(l); */
/* ANNOTATION __must_hold: static void t_mh(int *l) __must_hold(l); */
/* ANNOTATION __acquire: static void t_acq2(int *l) { __acquire(l); __release(l); } */
/* ANNOTATION __cond_lock: static int t_cond(int *l) { return __cond_lock(l, *l != 0); } */
/* ANNOTATION __same_type: _Static_assert(__same_type(int, int), "same type"); */
/* ANNOTATION __le16: static u16 t_le16(__le16 v) { return le16_to_cpu(v); } */
/* ANNOTATION __be64: static u64 t_be64(__be64 v) { return be64_to_cpu(v); } */

/* --- all at once ------------------------------------------------------------ */

/* A big-endian record as firmware writes it: 2 + 8 + 1 bytes, packed. */
struct t_record {
	__be16	size;
	__be64	value;
	u8	flag;
} __packed;

static int t_boot_value __ro_after_init = 7;
static int t_hot_count __read_mostly;
static struct t_record t_table[2] __initdata;
static int t_cache __cacheline_aligned;

static u64 __must_check __cold t_value(const struct t_record *r)
{
	return be64_to_cpu(r->value);
}

static __always_inline u16 t_size(const struct t_record *r)
{
	return be16_to_cpu(r->size);
}

/* The kernel's own idiom for a field it knows to be in CPU order. */
static u16 __maybe_unused t_raw_size(const struct t_record *r)
{
	return (__force u16)r->size;
}

static noinline int t_check(void)
{
	const u8 bytes[11] = {0x01, 0x02, 0, 0, 0, 0, 0, 0, 0x03, 0x04, 0x80};
	struct t_record r;

	memcpy(&r, bytes, sizeof(r));
	if (sizeof(struct t_record) != 11)
		return 1;	/* __packed */
	if (t_size(&r) != 0x0102)
		return 2;	/* be16_to_cpu */
	if (t_value(&r) != 0x0304)
		return 3;	/* be64_to_cpu */
	if (((unsigned long)&t_cache) % 128)
		return 4;	/* __cacheline_aligned */
	if (get_unaligned_be16(bytes) != 0x0102 || get_unaligned_be64(bytes + 2) != 0x0304)
		return 5;	/* get_unaligned_be* */
	if (cpu_to_be16(0x0102) != r.size)
		return 6;	/* cpu_to_be16 */
	t_table[0] = r;
	t_hot_count++;
	return t_boot_value == 7 ? 0 : 7;
}

int main(void)
{
	const int rc = t_check();

	printf("annotations: %s (%d), char is %s, %s-endian\n", rc ? "wrong" : "right", rc,
	       (char)-1 < 0 ? "signed" : "unsigned",
	       __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__ ? "big" : "little");
	return rc;
}
