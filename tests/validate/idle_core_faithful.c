// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * idlespec validate test input (tests/validate/run_idle_core.sh): the POWER9
 * deep-stop bookkeeping of arch/powerpc/platforms/powernv/idle.c, written
 * for this suite after spec/idle_core.md. The names and signatures are the
 * kernel's (power9_idle_stop(), the atomic_*_thread_idle() helpers, the
 * paca's idle_state word, deep_spr_loss_state, pnv_first_tb_loss_level);
 * the text is not. The "variant: NAME" markers are where run_idle_core.sh
 * injects one bug at a time with sed.
 */
#include <linux/types.h>
#include <asm/cpuidle.h>
#include <asm/opal.h>
#include <asm/cputhreads.h>

/* Stop levels from which SPRs, and then the timebase, are lost. */
static u64 pnv_first_tb_loss_level = 0xF + 1;
static u64 deep_spr_loss_state = 0xF + 1;

/* Clear the caller's bit: it is about to enter a state-loss stop. */
static inline void atomic_start_thread_idle(void)
{
	int cpu = raw_smp_processor_id();
	unsigned long *word = &paca_ptrs[cpu_first_thread_sibling(cpu)]->idle_state;

	clear_bit(cpu_thread_in_core(cpu), word);
}

/* Set the caller's bit again: it woke without losing state. */
static inline void atomic_stop_thread_idle(void)
{
	int cpu = raw_smp_processor_id();
	unsigned long *word = &paca_ptrs[cpu_first_thread_sibling(cpu)]->idle_state;

	set_bit(cpu_thread_in_core(cpu), word);
}

/* Spin until the core's lock bit is ours. */
static inline void atomic_lock_thread_idle(void)
{
	int cpu = raw_smp_processor_id();
	unsigned long *word = &paca_ptrs[cpu_first_thread_sibling(cpu)]->idle_state;

	while (unlikely(test_and_set_bit_lock(NR_PNV_CORE_IDLE_LOCK_BIT, word)))
		barrier();
}

/*
 * Drop the lock and mark the caller awake in one update. Other threads may
 * set or clear their bits without the lock meanwhile, so retry with what
 * the word holds until the exchange goes through.
 */
static inline void atomic_unlock_and_stop_thread_idle(void)
{
	int cpu = raw_smp_processor_id();
	unsigned long me = 1UL << cpu_thread_in_core(cpu);
	unsigned long *word = &paca_ptrs[cpu_first_thread_sibling(cpu)]->idle_state;
	u64 seen = READ_ONCE(*word);
	u64 want, got;

	BUG_ON(!(seen & PNV_CORE_IDLE_LOCK_BIT));
	BUG_ON(seen & me);

	for (;;) {
		want = (seen | me) & ~PNV_CORE_IDLE_LOCK_BIT;	/* variant: lost_bit */
		got = cmpxchg(word, seen, want);
		if (likely(got == seen))
			break;
		seen = got;
	}
}

/* What a deep stop loses and the thread keeps a copy of. */
struct p9_sprs {
	/* shared by the core's threads */
	u64 ptcr;
	u64 rpr;
	u64 tscr;
	u64 ldbar;

	/* the thread's own */
	u64 lpcr;
	u64 hfscr;
	u64 fscr;
	u64 pid;
	u64 purr;
	u64 spurr;
	u64 dscr;
	u64 ciabr;
	u64 mmcra;
	u32 mmcr0;
	u32 mmcr1;
	u64 mmcr2;

	/* lost even by the shallower state-loss stops */
	u64 amr;
	u64 iamr;
	u64 amor;
	u64 uamor;
};

static unsigned long power9_idle_stop(unsigned long psscr)
{
	int cpu = raw_smp_processor_id();
	unsigned long *word = &paca_ptrs[cpu_first_thread_sibling(cpu)]->idle_state;
	unsigned long all_threads = (1UL << threads_per_core) - 1;
	struct p9_sprs sprs = {};
	bool saved = false;
	unsigned long srr1, level, mmcra;
	bool first;

	if (!(psscr & (PSSCR_EC | PSSCR_ESL))) {
		/* No state loss possible: the thread wakes where it stopped. */
		srr1 = isa300_idle_stop_noloss(psscr);
		if (likely(!srr1))
			return 0;
		BUG_ON((srr1 & SRR1_WAKESTATE) != SRR1_WS_NOLOSS);
		goto out;
	}

	if ((psscr & PSSCR_RL_MASK) >= deep_spr_loss_state) {
		sprs.ptcr = mfspr(SPRN_PTCR);
		sprs.rpr = mfspr(SPRN_RPR);
		sprs.tscr = mfspr(SPRN_TSCR);
		sprs.ldbar = mfspr(SPRN_LDBAR);

		sprs.lpcr = mfspr(SPRN_LPCR);
		sprs.hfscr = mfspr(SPRN_HFSCR);
		sprs.fscr = mfspr(SPRN_FSCR);
		sprs.pid = mfspr(SPRN_PID);
		sprs.purr = mfspr(SPRN_PURR);
		sprs.spurr = mfspr(SPRN_SPURR);
		sprs.dscr = mfspr(SPRN_DSCR);
		sprs.ciabr = mfspr(SPRN_CIABR);
		sprs.mmcra = mfspr(SPRN_MMCRA);
		sprs.mmcr0 = mfspr(SPRN_MMCR0);
		sprs.mmcr1 = mfspr(SPRN_MMCR1);
		sprs.mmcr2 = mfspr(SPRN_MMCR2);
		saved = true;

		atomic_start_thread_idle();
	}

	sprs.amr = mfspr(SPRN_AMR);
	sprs.iamr = mfspr(SPRN_IAMR);
	sprs.amor = mfspr(SPRN_AMOR);
	sprs.uamor = mfspr(SPRN_UAMOR);

	srr1 = isa300_idle_stop_mayloss(psscr);
	psscr = mfspr(SPRN_PSSCR);

	WARN_ON_ONCE(!srr1);

	if ((srr1 & SRR1_WAKESTATE) != SRR1_WS_NOLOSS) {
		mtspr(SPRN_AMR, sprs.amr);
		mtspr(SPRN_IAMR, sprs.iamr);
		mtspr(SPRN_AMOR, sprs.amor);
		mtspr(SPRN_UAMOR, sprs.uamor);

		/* Kick the PMU: set and clear MMCRA bit 60. */
		mmcra = mfspr(SPRN_MMCRA);
		mtspr(SPRN_MMCRA, mmcra | PPC_BIT(60));
		mtspr(SPRN_MMCRA, mmcra & ~PPC_BIT(60));
	}

	/* SRR1 does not tell SPR loss apart reliably; PSSCR[PLS] does. */
	level = (psscr & PSSCR_PLS) >> PSSCR_PLS_SHIFT;
	if (likely(level < deep_spr_loss_state)) {
		if (saved)
			atomic_stop_thread_idle();
		goto out;
	}

	BUG_ON(!saved);

	/*
	 * The core lost state. Under the lock, the thread that finds no
	 * sibling awake restores what the core shares, and the timebase
	 * when that was lost too; the others wait for it on the lock.
	 */
	atomic_lock_thread_idle();				/* variant: no_lock */
	first = !(*word & all_threads);				/* variant: early_return */
	if (!first)
		goto core_restored;				/* variant: resync_every */

	mtspr(SPRN_PTCR, sprs.ptcr);
	mtspr(SPRN_RPR, sprs.rpr);
	mtspr(SPRN_TSCR, sprs.tscr);

timebase:
	if (level >= pnv_first_tb_loss_level) {
		if (opal_resync_timebase() != OPAL_SUCCESS)
			BUG();
	}
	isync();

core_restored:
	atomic_unlock_and_stop_thread_idle();			/* variant: early_return (the unlock) */

	/* The thread's own registers. */
	mtspr(SPRN_LPCR, sprs.lpcr);
	mtspr(SPRN_HFSCR, sprs.hfscr);
	mtspr(SPRN_FSCR, sprs.fscr);
	mtspr(SPRN_PID, sprs.pid);
	mtspr(SPRN_PURR, sprs.purr);
	mtspr(SPRN_SPURR, sprs.spurr);
	mtspr(SPRN_DSCR, sprs.dscr);
	mtspr(SPRN_CIABR, sprs.ciabr);
	mtspr(SPRN_MMCRA, sprs.mmcra);
	mtspr(SPRN_MMCR0, sprs.mmcr0);
	mtspr(SPRN_MMCR1, sprs.mmcr1);
	mtspr(SPRN_MMCR2, sprs.mmcr2);
	mtspr(SPRN_LDBAR, sprs.ldbar);
	mtspr(SPRN_SPRG3, local_paca->sprg_vdso);

	if (!radix_enabled())
		__slb_restore_bolted_realmode();
out:
	mtmsr(MSR_KERNEL);
	return srr1;
}
