/*
 * The idle_core harness's ucontext scheduler and per-platform drivers: each
 * hardware thread runs power7_idle_insn() (POWER8) or power9_idle_stop()
 * (POWER9) on its own context, and one schedule is reset, offered its
 * enabled moves and applied move by move (a wake-up, the core's state loss).
 *
 * A part of the idle_core harness, not a translation unit: harness_idle_core.c
 * includes it after idle_core_observe.c; the parts share the harness's statics.
 */

/* --- the threads -------------------------------------------------------------------- */
static unsigned long ic_psscr_of(int kind) {
#if IC_P8 /* the type: PNV_THREAD_NAP, _SLEEP, _WINKLE */
  return ic_kind_letters[kind] == 'n' ? PNV_THREAD_NAP : ic_kind_letters[kind] == 's' ? PNV_THREAD_SLEEP
                                                                                       : PNV_THREAD_WINKLE;
#endif
  switch (ic_kind_letters[kind]) {
    case 's': return 0x2UL | PSSCR_MTL_MASK;                       /* stop2, EC=ESL=0 */
    case 'l': return PSSCR_EC | PSSCR_ESL | 0x2UL | PSSCR_MTL_MASK; /* stop2, ESL=1 */
    case 'd': return PSSCR_EC | PSSCR_ESL | (unsigned long)IC_DEEP_LEVEL | PSSCR_MTL_MASK;
    default: return PSSCR_EC | PSSCR_ESL | (unsigned long)IC_TB_LEVEL | PSSCR_MTL_MASK;
  }
}

static int ic_deep_request(const struct ic_thread *th) {
  if (IC_P8) return th->idle_mayloss && th->psscr >= PNV_THREAD_SLEEP;
  return th->idle_mayloss && (th->psscr & (PSSCR_EC | PSSCR_ESL)) &&
         (th->psscr & PSSCR_RL_MASK) >= IC_DEEP_LEVEL;
}

static void ic_check_return(int t, unsigned long ret) {
  struct ic_thread *th = &ic_th[t];
  ic_plain_check(0);
  ic_event('r', t, 0, 0, 0, *ic_word(), *ic_word(), ret);
  /* The lock, the timebase, the registers and the winkle count: the oracle's. */
  ic_observe(ICX_STEP, t, ICX_EV_NONE, 0, 0, 1, NULL, 0, 0);
}

#if !IC_P8
/* power9_idle_stop(psscr) since v5.12; power9_idle_stop(psscr, mmu_on) from
 * v5.2 (the C idle code) to v5.11, where the idle loop passes mmu_on = true
 * (false is CPU offline, which the harness does not model). The signature
 * picks the call: each branch casts to its own type, the one that matches
 * is the only one evaluated. */
#define IC_POWER9_IDLE_STOP(psscr)                                                         \
  _Generic(&power9_idle_stop,                                                             \
      unsigned long (*)(unsigned long, bool):                                             \
          ((unsigned long (*)(unsigned long, bool))(void (*)(void))power9_idle_stop)(psscr, true), \
      default: ((unsigned long (*)(unsigned long))(void (*)(void))power9_idle_stop)(psscr))
#endif

static void ic_thread_main(void) {
  const int t = ic_cur;
  struct ic_thread *th = &ic_th[t];
#ifdef IC_ASAN
  __sanitizer_finish_switch_fiber(NULL, &ic_main_bottom, &ic_main_size);
#endif
  IC_CODE_END(); /* the harness's part of the thread: not judged by ThreadSanitizer */
  for (th->cycle = 0; th->cycle < ic_cycles; th->cycle++) {
    th->st = ST_BEGIN;
    th->pend_addr = NULL;
    IC_SWITCH();
    th->psscr = ic_psscr_of(th->kind);
    th->in_call = 1, th->woke = 0, th->decided_set = 0, th->hist = (uint64_t)th->kind + 1;
#if IC_P8
    th->idle_mayloss = 1;
    IC_CODE_BEGIN();
    const unsigned long r = power7_idle_insn(th->psscr);
    IC_CODE_END();
#else
    th->idle_mayloss = (th->psscr & (PSSCR_EC | PSSCR_ESL)) != 0;
    IC_CODE_BEGIN();
    const unsigned long r = IC_POWER9_IDLE_STOP(th->psscr);
    IC_CODE_END();
#endif
    th->in_call = 0, th->woke = 0, th->hist = 0;
    ic_check_return(t, r);
  }
  th->st = ST_DONE;
  ic_finish_thread();
  abort(); /* never resumed */
}

/* --- one schedule --------------------------------------------------------------------- */
static void ic_lasso_reset(void);
static void ic_note_enabled(const struct ic_move *en, int ne);
static int ic_after_move(const struct ic_move *m, int scan);
static void ic_reset(void) {
#ifdef IC_TSAN
  ic_tsan_new_fibers();
#endif
  memset(ic_pacas, 0, sizeof ic_pacas);
  const int tps = ic_n / ic_subcores;
  for (int t = 0; t < ic_n; t++) {
    paca_ptrs[t]->sprg_vdso = 0x5e5e0000UL + (unsigned long)t;
    paca_ptrs[t]->subcore_sibling_mask = (u8)(((1UL << tps) - 1) << (t - t % tps));
  }
  paca_ptrs[0]->idle_state = ic_shadow = ic_core_mask;
  ic_shadow_lock = 0;
  for (int t = 0; t < ic_n; t++)
    for (int s = 1; s < IC_NR_SPRS; s++)
      ic_spr[t][s] = ic_golden[t][s] =
          s == SPRN_SPRG3  ? paca_ptrs[t]->sprg_vdso
          : s == SPRN_AMOR ? IC_AMOR_RUNTIME
                           : (ic_home(t, s) != t ? 0 : 0x1000UL * (unsigned long)s + (unsigned long)t + 1);
  ic_tb_valid = 1;
  ic_wa_applied = 0;
  icx_reset(ic_oracle);
  memset(ic_bad, 0, sizeof ic_bad); /* every SPR holds its value */
  ic_regs_dirty = 1;
  ic_nmoves = ic_nev = ic_nfind = 0;
  ic_found_mask = 0;
  nwarns = 0;
  for (int t = 0; t < ic_n; t++) {
    struct ic_thread *th = &ic_th[t];
    char *stack = th->stack;
    memset(th, 0, sizeof *th);
    th->stack = stack;
#ifdef IC_ASAN
    ASAN_UNPOISON_MEMORY_REGION(stack, IC_STACK_SIZE);
#endif
#ifdef IC_FAST_SWITCH
    /* The first switch "returns" into ic_thread_main as if it had been
     * called: six zero registers for ic_ctx_switch to pop, its address, and
     * a return address it never uses (the stack aligned as at a call). */
    uint64_t *top = (uint64_t *)(((uintptr_t)stack + IC_STACK_SIZE) & ~(uintptr_t)15) - 2;
    top[1] = 0;
    top[0] = (uint64_t)(uintptr_t)ic_thread_main;
    for (int i = 1; i <= 6; i++) top[-i] = 0;
    ic_ctx[t].sp = top - 6;
#else
    ucontext_t *ctx = &ic_ctx[t].uc;
    getcontext(ctx);
    ctx->uc_stack.ss_sp = stack;
    ctx->uc_stack.ss_size = IC_STACK_SIZE;
    ctx->uc_link = NULL;
    makecontext(ctx, ic_thread_main, 0);
#endif
    th->st = ST_PENDING; /* runs to its first point (the BEGIN) on the first switch */
    ic_to_thread(t);
  }
  ic_nev = 0;
  ic_lasso_reset();
}

/* A thread spinning without effect: its pending operation would read what
 * it read last time at the same place, or fail to take a held lock. */
static int ic_blocked(const struct ic_thread *th) {
  if (th->st != ST_PENDING || !th->pend_addr) return 0;
  const unsigned long w = *th->pend_addr; /* the word or the lock */
#ifdef IC_TSAN /* one failing test-and-set per holding: its marked load is an access (IDLE-10) */
  if (th->pend_op == IC_OP_TAS_LOCK && ((w >> th->pend_arg) & 1)) return th->spun;
#else
  if (th->pend_op == IC_OP_TAS_LOCK && ((w >> th->pend_arg) & 1)) return 1;
#endif
  if ((th->pend_op == IC_OP_READ || th->pend_op == IC_OP_TEST_BIT) && th->ro_op == th->pend_op &&
      th->ro_line == th->pend_line && th->ro_addr == th->pend_addr && th->ro_word == w)
    return 1;
  return 0;
}

static int ic_loss_level(void) {
  int all_tb = 1, need = 0;
  for (int t = 0; t < ic_n; t++) {
    const struct ic_thread *th = &ic_th[t];
    if (th->st != ST_HWIDLE || !ic_deep_request(th)) return 0;
    if (IC_P8 ? th->psscr != PNV_THREAD_WINKLE : (th->psscr & PSSCR_RL_MASK) < IC_TB_LEVEL) all_tb = 0;
  }
  const int level = all_tb ? 2 : 1;
  for (int t = 0; t < ic_n; t++) need |= ic_th[t].lost < level;
  return need ? level : 0;
}

static int ic_enabled(struct ic_move *out) {
  int n = 0;
  for (int t = 0; t < ic_n; t++) {
    const struct ic_thread *th = &ic_th[t];
    if (th->st == ST_BEGIN) {
      for (int k = 0; k < ic_nkinds; k++) {
        out[n].kind = 'b', out[n].t = (unsigned char)t;
        out[n++].k = (unsigned char)(strchr(ic_kind_letters, ic_kinds[k]) - ic_kind_letters);
      }
    } else if (th->st == ST_PENDING && !ic_blocked(th)) {
      out[n].kind = 's', out[n].t = (unsigned char)t, out[n++].k = 0;
    } else if (th->st == ST_HWIDLE) {
      out[n].kind = 'w', out[n].t = (unsigned char)t, out[n++].k = 0;
    }
  }
  if (ic_loss_level()) out[n].kind = 'L', out[n].t = 0, out[n++].k = 0;
  return n;
}

/* After every move, reported to the oracle or not. */
static void ic_check_state(void) { ic_judge_state(""); }

static void ic_check_warns(int t) {
  /* Charged by the oracle to the clause whose invariant the assertion guards. */
  for (unsigned i = 0; i < nwarns; i++) ic_observe(ICX_STEP, t, ICX_EV_BUG, 0, 0, 0, warns[i], 0, 0);
  nwarns = 0;
}

/* Hangs: a thread that runs without reaching a scheduling point. An
 * interval timer checks that moves keep being made. */
static volatile unsigned long ic_progress, ic_progress_seen;
static void ic_on_alarm(int sig) {
  (void)sig;
  if (!in_call) return;
  if (ic_progress != ic_progress_seen) {
    ic_progress_seen = ic_progress;
    return;
  }
  in_call = 0;
  trap_sig = -1;
  siglongjmp(recover, 1);
}
static void ic_watchdog(int on) {
  struct itimerval it;
  memset(&it, 0, sizeof(it));
  it.it_value.tv_sec = it.it_interval.tv_sec = on ? WATCHDOG_SECONDS : 0;
  setitimer(ITIMER_REAL, &it, NULL);
}

/* Perform one move. */
static void ic_apply(const struct ic_move *m) {
  ic_progress++;
  if (ic_nmoves < IC_MAX_MOVES) ic_moves[ic_nmoves++] = *m;
  if (m->kind == 'L') {
    const int level = ic_loss_level();
    IC_TSAN_LOSS(); /* every access so far happens before every wake-up with loss */
    ic_event('L', -1, 0, 0, (unsigned long)level, (unsigned long)ic_wa_applied, 0, 0);
    for (int t = 0; t < ic_n; t++)
      if (ic_th[t].lost < level) ic_th[t].lost = level;
    /* POWER9: SPRs at every deep loss, the timebase at the deepest; POWER8:
     * the timebase at every loss (fastsleep), SPRs when every thread winkled. */
    if (!IC_P8 || level >= 2)
      for (int t = 0; t < ic_n; t++)
        for (int s = 1; s < IC_NR_SPRS; s++)
          if (ic_scope[s] != SC_NONE && ic_home(t, s) == t) ic_spr[t][s] = 0xdead0000UL + (unsigned long)s;
    if (!IC_P8 || level >= 2) { /* every SPR of every slot lost: no value is 0xdead.... */
      for (int t = 0; t < ic_n; t++)
        for (int sc = SC_THREAD; sc <= SC_CORE; sc++) ic_bad[sc][t] = ic_home_of_scope(t, sc) == t ? ic_nscope[sc] : 0;
      ic_regs_dirty = 1;
    }
    if (IC_P8 || level >= 2) ic_tb_valid = 0;
    ic_observe(ICX_CORE_LOSS, -1, ICX_EV_NONE, 0, level, 0, NULL, 0, 0); /* IDLE-4: the oracle's */
    return;
  }
  const int t = m->t;
  struct ic_thread *th = &ic_th[t];
  if (m->kind == 'b') {
    th->kind = m->k;
    ic_event('b', t, 0, 0, (unsigned long)m->k, th->cycle, 0, ic_psscr_of(m->k));
    ic_observe(ICX_BEGIN_IDLE, t, ICX_EV_NONE, ic_oracle_kind(m->k), 0, 0, NULL, 0, 0);
  } else if (m->kind == 'w') {
    unsigned long pls;
    if (IC_P8) {
      th->srr1 = (th->lost ? SRR1_WS_HVLOSS : SRR1_WS_NOLOSS) | SRR1_WAKEDEC;
      th->hist = ic_mix(th->hist, *ic_word()); /* its plain reads after the wake see this */
      th->last_seen = *ic_word();
      ic_event('w', t, 0, 0, th->srr1, (unsigned long)th->lost, 0, 0);
      th->lost = 0;
      ic_observe(ICX_WAKE, t, ICX_EV_WOKE, 0, 0, 0, NULL, 0, 0);
      ic_to_thread(t);
      ic_check_warns(t);
      return;
    }
    if (!th->idle_mayloss) {
      th->srr1 = 0, pls = 0; /* EC=ESL=0: a synchronous wake-up */
    } else if (th->lost) {
      th->srr1 = SRR1_WS_HVLOSS | SRR1_WAKEDEC;
      pls = th->lost >= 2 ? IC_TB_LEVEL : IC_DEEP_LEVEL;
    } else {
      const unsigned long rl = th->psscr & PSSCR_RL_MASK;
      th->srr1 = SRR1_WS_NOLOSS | SRR1_WAKEDEC;
      pls = rl < IC_DEEP_LEVEL ? rl : IC_DEEP_LEVEL - 1;
    }
    ic_set_spr(t, SPRN_PSSCR, (pls << PSSCR_PLS_SHIFT) | (th->psscr & ~PSSCR_PLS));
    th->last_seen = *ic_word(); /* what a plain read right after the wake-up sees */
    ic_event('w', t, 0, 0, th->srr1, (unsigned long)th->lost, pls, 0);
    th->lost = 0;
    ic_observe(ICX_WAKE, t, ICX_EV_WOKE, 0, 0, 0, NULL, 0, 0);
  } else if (th->pend_op == IC_OP_IDLE) {
    ic_event('i', t, IC_OP_IDLE, th->pend_line, th->pend_arg, *ic_word(), *ic_word(), 0);
    th->st = ST_HWIDLE;
    th->lost = 0;
    ic_observe(ICX_STEP, t, ICX_EV_ENTER_HW_IDLE, 0, 0, 0, NULL, 0, 0);
    return;
  }
  ic_to_thread(t);
  ic_check_warns(t);
}
