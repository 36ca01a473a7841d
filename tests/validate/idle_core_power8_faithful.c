/*
 * Test input for tests/validate/run_idle_core.sh, written for idlespec from
 * spec/idle_core.md: how one hardware thread of a POWER8 core (up to eight
 * threads, possibly split into subcores) naps, sleeps or winkles, and how it
 * comes back when the whole core went down with it. Only what the harness
 * binds to keeps an outside name: the entry point power7_idle_insn(), the
 * paca's shared idle_state word and its subcore_sibling_mask, the word's
 * field macros and the OPAL calls. Lines tagged "variant: NAME" are where
 * the test script plants one bug at a time with sed.
 */

/* The firmware's fastsleep bug fix: set when the core may go down, cleared after. */
static bool fastsleep_fix_going_down = true;
static bool fastsleep_fix_coming_up = true;

/* --- registers a full winkle takes away, grouped by who shares them ---- */

/* One copy per core: written back by the first thread of the core to wake. */
static const int regs_of_core[] = { SPRN_TSCR, SPRN_WORC };

/* One copy per subcore: written back by the first thread of the subcore. */
static const int regs_of_subcore[] = { SPRN_SDR1, SPRN_RPR };

/* Every thread its own. */
static const int regs_of_thread[] = {
	SPRN_LPCR, SPRN_HFSCR, SPRN_FSCR,
	SPRN_PURR, SPRN_SPURR, SPRN_DSCR, SPRN_WORT,
};

/* Storage keys: gone after any wake-up that reports a loss. */
static const int regs_keys[] = { SPRN_AMR, SPRN_IAMR, SPRN_AMOR, SPRN_UAMOR };

struct winkle_kit {
	bool saved;
	unsigned long core[ARRAY_SIZE(regs_of_core)];
	unsigned long subcore[ARRAY_SIZE(regs_of_subcore)];
	unsigned long thread[ARRAY_SIZE(regs_of_thread)];
	unsigned long keys[ARRAY_SIZE(regs_keys)];
};

static void regs_read(const int *ids, unsigned long *vals, size_t n)
{
	for (size_t i = 0; i < n; i++)
		vals[i] = mfspr(ids[i]);
}

static void regs_write(const int *ids, const unsigned long *vals, size_t n)
{
	for (size_t i = 0; i < n; i++)
		mtspr(ids[i], vals[i]);
}

#define KEEP(ids, vals) regs_read((ids), (vals), ARRAY_SIZE(ids))
#define GIVE_BACK(ids, vals) regs_write((ids), (vals), ARRAY_SIZE(ids))

/* --- the per-core word: awake bits, winkle bookkeeping, a lock bit ----- */

#define ONE_WINKLER (1UL << PNV_CORE_IDLE_WINKLE_COUNT_SHIFT)

static unsigned long *core_word(void)
{
	return &paca_ptrs[cpu_first_thread_sibling(raw_smp_processor_id())]->idle_state;
}

static unsigned long my_bit(void)
{
	return 1UL << cpu_thread_in_core(raw_smp_processor_id());
}

static unsigned long every_thread(void)
{
	return (1UL << threads_per_core) - 1;
}

static int winklers(unsigned long word)
{
	return (int)((word & PNV_CORE_IDLE_WINKLE_COUNT_BITS) >> PNV_CORE_IDLE_WINKLE_COUNT_SHIFT);
}

/* Upstream's names and shapes (harness/framac_idle_core_wp.h holds their contracts). */
static void atomic_lock_thread_idle(void)
{
	unsigned long *word = core_word();

	while (unlikely(test_and_set_bit_lock(NR_PNV_CORE_IDLE_LOCK_BIT, word)))	/* variant: plain_lock */
		cpu_relax();
}

/* Going down: the bookkeeping is done, let the siblings at the word. */
static void atomic_unlock_thread_idle(void)
{
	unsigned long *word = core_word();

	BUG_ON(!test_bit(NR_PNV_CORE_IDLE_LOCK_BIT, word));
	clear_bit_unlock(NR_PNV_CORE_IDLE_LOCK_BIT, word);
}

/* Coming up: count this thread awake and free the lock in one swap. */
static void word_unlock_rejoin(unsigned long *word, unsigned long me)
{
	unsigned long now = READ_ONCE(*word), was;

	BUG_ON(!(now & PNV_CORE_IDLE_LOCK_BIT));
	BUG_ON(now & me);

	for (;;) {
		was = cmpxchg(word, now, (now | me) & ~PNV_CORE_IDLE_LOCK_BIT);	/* variant: unlock_unlocked */
		if (likely(was == now))				/* variant: unlock_unlocked (exit) */
			break;
		now = was;
	}
}

/*
 * Winkle bookkeeping, always under the lock. A thread that winkles adds
 * itself to the count; the one that makes it reach every thread marks all
 * winkle bits, so that whoever wakes from a loss with its bit still set knows
 * the loss was a full winkle and not just fastsleep. Leaving takes the thread
 * out of the count and clears its bit; the return value is what the bit said.
 */
static void winkle_join(unsigned long *word)
{
	*word += ONE_WINKLER;
	if (winklers(*word) == threads_per_core)
		*word |= PNV_CORE_IDLE_THREAD_WINKLE_BITS;
	WARN_ON(winklers(*word) == 0);
}

static bool winkle_leave(unsigned long *word, unsigned long me)
{
	const unsigned long my_mark = me << PNV_CORE_IDLE_THREAD_WINKLE_BITS_SHIFT;
	const bool marked = (*word & my_mark) != 0;

	WARN_ON(winklers(*word) == 0);
	*word -= ONE_WINKLER;
	*word &= ~my_mark;
	return marked;
}

/* --- pieces of the two directions ---------------------------------------- */

static void fastsleep_fix(unsigned long how)
{
	const s64 rc = opal_config_cpu_idle_state(OPAL_CONFIG_IDLE_FASTSLEEP, how);

	BUG_ON(rc != OPAL_SUCCESS);
}

static void clock_resync(void)
{
	const s64 rc = opal_resync_timebase();

	BUG_ON(rc != OPAL_SUCCESS);
}

/* Sleep and winkle only: leave the awake set, the last one sets the fix. */
static void going_down(unsigned long *word, unsigned long type, unsigned long me,
		       struct winkle_kit *kit)
{
	atomic_lock_thread_idle();					/* variant: no_lock */
	BUG_ON(!(*word & me));
	*word &= ~me;

	if (fastsleep_fix_going_down && (*word & every_thread()) == 0)
		fastsleep_fix(OPAL_CONFIG_IDLE_APPLY);		/* variant: fix_never_set */

	if (type == PNV_THREAD_WINKLE) {
		KEEP(regs_of_core, kit->core);
		KEEP(regs_of_subcore, kit->subcore);
		KEEP(regs_of_thread, kit->thread);
		kit->saved = true;
		winkle_join(word);
	}
	atomic_unlock_thread_idle();
}

/*
 * The core lost state while this thread slept or winkled. Under the lock,
 * the first thread of the core to get here does the core's share (shared
 * registers after a full winkle, the fastsleep fix, the clock); the first of
 * its subcore does the subcore's share. Returns whether it was a full winkle.
 */
static bool back_from_loss(unsigned long *word, unsigned long type, unsigned long me,
			   const struct winkle_kit *kit)
{
	bool full = false, first_up;

	atomic_lock_thread_idle();					/* variant: no_lock */
	if (type == PNV_THREAD_WINKLE)
		full = winkle_leave(word, me);
	BUG_ON(full && !kit->saved);
	WARN_ON(*word & me);

	first_up = (*word & every_thread()) == 0;
	if (first_up && full)
		GIVE_BACK(regs_of_core, kit->core);
	if (first_up && fastsleep_fix_coming_up)
		fastsleep_fix(OPAL_CONFIG_IDLE_UNDO);
	if (first_up)						/* variant: resync_every */
		clock_resync();					/* variant: no_resync */

	if (full && (*word & local_paca->subcore_sibling_mask) == 0)	/* variant: subcore_by_core */
		GIVE_BACK(regs_of_subcore, kit->subcore);

	isync();
	word_unlock_rejoin(word, me);
	return full;
}

static unsigned long power7_idle_insn(unsigned long type)
{
	struct winkle_kit kit = {};
	unsigned long *word = core_word();
	const unsigned long me = my_bit();
	const bool touches_word = type != PNV_THREAD_NAP;
	unsigned long wake;

	if (touches_word)
		going_down(word, type, me, &kit);
	KEEP(regs_keys, kit.keys);

	wake = isa206_idle_insn_mayloss(type);
	WARN_ON_ONCE(!wake);

	if ((wake & SRR1_WAKESTATE) != SRR1_WS_NOLOSS)
		GIVE_BACK(regs_keys, kit.keys);

	if ((wake & SRR1_WAKESTATE) != SRR1_WS_HVLOSS) {
		/* Nothing shared was lost: just rejoin (and stop counting as a winkler). */
		if (touches_word) {
			atomic_lock_thread_idle();			/* variant: no_lock */
			if (type == PNV_THREAD_WINKLE)
				winkle_leave(word, me);		/* variant: winkle_kept */
			word_unlock_rejoin(word, me);
		}
		return wake;
	}

	BUG_ON(!touches_word);
	if (back_from_loss(word, type, me, &kit)) {
		GIVE_BACK(regs_of_thread, kit.thread);
		mtspr(SPRN_SPRG3, local_paca->sprg_vdso);	/* the vDSO's per-thread register */
	}
	return wake;
}
