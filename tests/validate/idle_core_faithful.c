/*
 * Test input for tests/validate/run_idle_core.sh, written for idlespec from
 * spec/idle_core.md: how one hardware thread of a POWER9 core goes into a
 * stop state that may lose register state, and how it comes back. Only what
 * the harness binds to keeps an outside name: the entry point
 * power9_idle_stop(), the two level thresholds and the paca's shared
 * idle_state word. Lines tagged "variant: NAME" are where the test script
 * plants one bug at a time with sed.
 */

/*
 * PSSCR levels (the harness sets both): a stop this deep costs the thread
 * its registers; one at least as deep as the second also stops the clock.
 */
static u64 pnv_first_tb_loss_level = 0xF + 1;
static u64 deep_spr_loss_state = 0xF + 1;

/* --- registers to carry over a stop, grouped by who writes them back ---- */

/* Shared by the core: written back once, by the first thread to wake. */
static const int spr_core_once[] = { SPRN_PTCR, SPRN_RPR, SPRN_TSCR };

/* Written back by every thread after a deep wake-up (LDBAR included). */
static const int spr_each_thread[] = {
	SPRN_MMCR0, SPRN_MMCR1, SPRN_MMCR2, SPRN_MMCRA,
	SPRN_PURR, SPRN_SPURR,
	SPRN_LPCR, SPRN_HFSCR, SPRN_FSCR, SPRN_PID, SPRN_DSCR, SPRN_CIABR,
	SPRN_LDBAR,
};

/*
 * Storage keys: gone after any stop that loses state, shallow ones too.
 * AMOR is the hypervisor's mask and holds ~0 all the time the kernel runs;
 * writing that constant back instead of a saved copy (variant amor_const)
 * comes to the same.
 */
static const int spr_keys[] = { SPRN_AMR, SPRN_IAMR, SPRN_AMOR, SPRN_UAMOR };	/* variant: amor_const, amor_lost */

struct stop_snapshot {
	unsigned long core_once[ARRAY_SIZE(spr_core_once)];
	unsigned long each_thread[ARRAY_SIZE(spr_each_thread)];
	unsigned long keys[ARRAY_SIZE(spr_keys)];
};

static void snap_sprs(const int *ids, unsigned long *vals, size_t n)
{
	for (size_t i = 0; i < n; i++)
		vals[i] = mfspr(ids[i]);
}

static void load_sprs(const int *ids, const unsigned long *vals, size_t n)
{
	for (size_t i = 0; i < n; i++)
		mtspr(ids[i], vals[i]);
}

#define SNAP(ids, vals) snap_sprs((ids), (vals), ARRAY_SIZE(ids))
#define LOAD(ids, vals) load_sprs((ids), (vals), ARRAY_SIZE(ids))

/* --- the per-core word: one awake bit per thread plus a lock bit -------- */

static unsigned long *core_word(void)
{
	return &paca_ptrs[cpu_first_thread_sibling(raw_smp_processor_id())]->idle_state;
}

static unsigned int my_slot(void)
{
	return cpu_thread_in_core(raw_smp_processor_id());
}

/* Going down deep: no longer counted among the awake threads. */
static void word_leave(unsigned long *word)
{
	clear_bit(my_slot(), word);
}

/* Back up with nothing lost: counted awake again, no lock needed. */
static void word_rejoin(unsigned long *word)
{
	set_bit(my_slot(), word);
}

/*
 * Where the lock bit lives: in the word itself, or (the layout since v6.5,
 * which the run script's lock_apart variant selects) in a word of its own
 * beside it, so that taking the lock no longer races with the lock-free bit
 * flips on the word.
 */
static unsigned long *lock_of(unsigned long *word)
{
	return word;					/* variant: lock_apart */
}

/* Upstream's name and shape (harness/framac_idle_core_wp.h holds its contract). */
static void atomic_lock_thread_idle(void)
{
	unsigned long *word = core_word();

	while (unlikely(test_and_set_bit_lock(NR_PNV_CORE_IDLE_LOCK_BIT, lock_of(word))))
		cpu_relax();
}

/*
 * Release the lock and count this thread awake with a single compare and
 * swap. Siblings keep flipping their own bits without taking the lock, so
 * the swap can miss; try again against the value it found.
 */
static void word_unlock_rejoin(unsigned long *word)
{
	const unsigned long mine = 1UL << my_slot();
	unsigned long seen, expected, next;

	seen = READ_ONCE(*word);
	BUG_ON(!(seen & PNV_CORE_IDLE_LOCK_BIT));		/* variant: lock_apart (held) */
	BUG_ON(seen & mine);

	for (expected = seen;; expected = seen) {		/* variant: stale_retry */
		next = (expected & ~PNV_CORE_IDLE_LOCK_BIT) | mine;	/* variant: lost_bit, no_unlock, lock_apart */
		seen = cmpxchg(word, expected, next);
		if (likely(seen == expected))
			break;
	}							/* variant: lock_apart (release) */
}

/* --- pieces of the wake-up path ----------------------------------------- */

/* ESL and EC both clear: the stop cannot lose anything. */
static unsigned long stop_keeping_state(unsigned long psscr)
{
	unsigned long wake = isa300_idle_stop_noloss(psscr);

	if (wake) {
		BUG_ON((wake & SRR1_WAKESTATE) != SRR1_WS_NOLOSS);
		mtmsr(MSR_KERNEL);
	}
	return wake;
}

/* Toggle MMCRA bit 60 once so that the PMU counts again after a loss. */
static void pmu_restart(void)
{
	const unsigned long mmcra_now = mfspr(SPRN_MMCRA);

	mtspr(SPRN_MMCRA, mmcra_now | PPC_BIT(60));
	mtspr(SPRN_MMCRA, mmcra_now & ~PPC_BIT(60));
}

static void clock_resync(void)
{
	const s64 rc = opal_resync_timebase();

	BUG_ON(rc != OPAL_SUCCESS);
}

/*
 * The whole core went down and its registers are garbage. With the word
 * locked, a thread that sees no sibling counted awake is the first one up:
 * it writes back the shared registers, and the clock if that stopped too.
 * Later threads only pass through the lock, which is enough to keep them
 * from running ahead of that write-back.
 */
static void recover_core(unsigned long *word, const struct stop_snapshot *snap,
			 unsigned long pls)
{
	const unsigned long all_slots = (1UL << threads_per_core) - 1;
	bool first_up;

	atomic_lock_thread_idle();				/* variant: no_lock */
	first_up = (*word & all_slots) == 0;			/* variant: early_return */
	if (first_up)
		LOAD(spr_core_once, snap->core_once);
	if (first_up && pls >= pnv_first_tb_loss_level)		/* variant: resync_every */
		clock_resync();
	isync();
	word_unlock_rejoin(word);				/* variant: early_return (the unlock) */

	LOAD(spr_each_thread, snap->each_thread);
	mtspr(SPRN_SPRG3, local_paca->sprg_vdso);	/* the vDSO's per-thread register */
}

static unsigned long power9_idle_stop(unsigned long psscr)
{
	struct stop_snapshot snap = {};
	unsigned long *word;
	unsigned long wake, pls;
	bool went_deep;

	if (!(psscr & (PSSCR_EC | PSSCR_ESL)))
		return stop_keeping_state(psscr);

	word = core_word();
	went_deep = (psscr & PSSCR_RL_MASK) >= deep_spr_loss_state;

	SNAP(spr_keys, snap.keys);
	if (went_deep) {
		SNAP(spr_core_once, snap.core_once);
		SNAP(spr_each_thread, snap.each_thread);
		word_leave(word);
	}

	wake = isa300_idle_stop_mayloss(psscr);
	/* How deep the core really went is in PSSCR[PLS], not in SRR1. */
	pls = (mfspr(SPRN_PSSCR) & PSSCR_PLS) >> PSSCR_PLS_SHIFT;
	WARN_ON_ONCE(!wake);

	if ((wake & SRR1_WAKESTATE) != SRR1_WS_NOLOSS) {
		pmu_restart();
		LOAD(spr_keys, snap.keys);			/* variant: amor_const */
	}

	if (pls >= deep_spr_loss_state) {
		BUG_ON(!went_deep);
		recover_core(word, &snap, pls);
	} else if (went_deep) {
		word_rejoin(word);
	}

	mtmsr(MSR_KERNEL);
	return wake;
}
