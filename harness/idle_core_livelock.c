/*
 * The idle_core harness's livelock search (IDLE-8): a state of the core that
 * recurs on one schedule in a strongly fair cycle, and the cycle's table.
 *
 * A part of the idle_core harness, not a translation unit: harness_idle_core.c
 * includes it after idle_core_text.c; the parts share the harness's statics.
 */

/* --- livelock: a fair cycle on the schedule (IDLE-8) ------------------------------------
 *
 * The criterion. The state of the core after a move is: every thread's
 * harness status (begun, pending at which operation on which word, in
 * hardware idle, done; its cycle, kind and PSSCR request, what it lost, its
 * wake-up's SRR1, whether it holds the lock, what it last read), its CPU
 * registers and its whole stack from its saved stack pointer up (the code's
 * locals and spilled values: a thread switches to the scheduler from the
 * frame of the code under test, idle_env.h), and the shared state: the
 * word, the lock, every paca, every SPR, the timebase and the fastsleep
 * workaround. Not the history of how it got there. The code under test is
 * deterministic given that state, so if one schedule reaches the same state
 * after move i and after move d, the moves i+1..d can repeat forever: an
 * infinite run. It is a livelock when that run is fair (strong fairness per
 * hardware thread, the hardware's wake-up of a thread counted as that
 * thread's move): every thread that can move in some state of the cycle
 * moves in the cycle. No thread returns in the cycle (a return advances
 * its cycle count, which is part of the state), so a thread inside the
 * function in the cycle never returns: IDLE-8 fails. The core's state loss
 * is the hardware's option and owes nothing to fairness. A repeat that is
 * not fair (a thread could move and never does) is no finding: the DFS
 * prunes it (every continuation from that state is explored from its first
 * visit), PCT gives the threads that moved in it the lowest priority, as
 * the other threads of a real core would get to run.
 *
 * Assumptions: the code's file-scope variables do not change while a
 * thread spins (they are not in the state; upstream's are set at boot);
 * 64-bit fingerprints do not collide within one schedule (at most 1024
 * states); x86-64, where the switch leaves a thread's registers on its own
 * stack (ic_ctx_switch; elsewhere no fingerprint is taken and IDLE-8 is judged on deadlocks
 * only). Under those the criterion is sound: a reported cycle is an infinite
 * fair run of the code. It is bounded: a cycle is seen only on a schedule
 * the exploration runs, and a leftover byte on a stack can hide a repeat
 * (never make one up).
 */
/* Where a stopped thread resumes: the return address ic_ctx_switch left
 * above the six callee-saved registers it pushed (x86-64). */
#ifdef IC_FAST_SWITCH
#define IC_RESUME_AT(t) (((const uint64_t *)ic_ctx[t].sp)[6])
#endif

/* The thread's own state where it stopped: 0 if it cannot be taken. */
#ifdef IC_ASAN
__attribute__((no_sanitize_address)) /* the stack's redzones are read too */
#endif
static uint64_t ic_local_fp(int t) {
  const struct ic_thread *th = &ic_th[t];
  if (th->st == ST_DONE) return 1;
#ifdef IC_FAST_SWITCH
  /* The saved stack pointer: below it nothing is live; from it up, the
   * callee-saved registers the switch pushed, where it resumes, and the
   * frames of the code under test and of ic_thread_main. The caller-saved
   * registers are dead across the call to the switch. */
  uint64_t a = 0x243f6a8885a308d3ull, b = 0x13198a2e03707344ull;
  const uintptr_t sp = (uintptr_t)ic_ctx[t].sp, lo = (uintptr_t)th->stack, hi = lo + IC_STACK_SIZE;
  if (sp < lo || sp >= hi) return 0;
  for (const volatile uint64_t *p = (const volatile uint64_t *)(sp & ~(uintptr_t)7); (uintptr_t)p < hi; p++) {
    const uint64_t v = *p;
    a = (a ^ v) * 0x9e3779b97f4a7c15ull, a ^= a >> 29;
    b = (b + v) * 0xc2b2ae3d27d4eb4full, b ^= b >> 31;
  }
  return ic_mix(a, b) | 1;
#else
  (void)t;
  return 0;
#endif
}

/* The whole state (see above): 0 if some thread's could not be taken. */
static uint64_t ic_global_fp(void) {
  uint64_t h = ic_mix(0x452821e638d01377ull, (uint64_t)ic_tb_valid << 1 | (uint64_t)ic_wa_applied);
  h = ic_mix(ic_mix(h, ic_shadow), ic_shadow_lock);
  const unsigned char *pb = (const unsigned char *)ic_pacas;
  for (size_t i = 0; i + 8 <= sizeof(struct paca_struct) * (size_t)ic_n; i += 8) {
    uint64_t v;
    memcpy(&v, pb + i, 8);
    h = ic_mix(h, v);
  }
  for (int t = 0; t < ic_n; t++) {
    struct ic_thread *th = &ic_th[t];
    if (!th->fp_valid) th->fp = ic_local_fp(t), th->fp_valid = 1;
    if (!th->fp) return 0;
    for (int s = 1; s < IC_NR_SPRS; s++) h = ic_mix(h, ic_spr[t][s]);
    h = ic_mix(h, th->fp);
    h = ic_mix(h, (uint64_t)th->st | (uint64_t)th->cycle << 4 | (uint64_t)th->kind << 12 |
                      (uint64_t)th->lost << 16 | (uint64_t)th->pend_op << 20 | (uint64_t)th->holds_lock << 28 |
                      (uint64_t)th->in_call << 29 | (uint64_t)th->woke << 30 |
                      (uint64_t)th->idle_mayloss << 31 | (uint64_t)th->pend_line << 32);
    h = ic_mix(ic_mix(ic_mix(h, th->pend_arg), (uint64_t)(uintptr_t)th->pend_addr), th->psscr);
    h = ic_mix(ic_mix(h, th->srr1), (uint64_t)th->ro_op << 32 | (uint32_t)th->ro_line);
    h = ic_mix(ic_mix(h, th->ro_word), (uint64_t)(uintptr_t)th->ro_addr);
    h = ic_mix(h, (uint64_t)(th->wcount + 16) | (uint64_t)th->decided_set << 8);
    h = ic_mix(ic_mix(h, th->decided), th->last_seen);
  }
  return h | 1;
}

/* A part of the state that is cheap to take: equal states have equal
 * signatures, so the whole state is taken only where a signature repeats. */
static uint64_t ic_signature(void) {
  const uint64_t k = 0x9e3779b97f4a7c15ull;
  uint64_t h = (*ic_word() * k + *ic_lockw()) * k + (uint64_t)ic_tb_valid;
  for (int t = 0; t < ic_n; t++) {
    const struct ic_thread *th = &ic_th[t];
    h = h * k + ((uint64_t)th->st | (uint64_t)th->cycle << 4 | (uint64_t)th->pend_op << 12 |
                 (uint64_t)th->woke << 20 | (uint64_t)th->pend_line << 32);
    h = h * k + th->ro_word;
#ifdef IC_FAST_SWITCH
    if (th->st != ST_DONE) h = h * k + IC_RESUME_AT(t);
#endif
  }
  return h ^ (h >> 29);
}

/* The schedule's states: after move d (0: after the reset). */
static uint64_t ic_lsig[IC_MAX_MOVES + 1];
static uint64_t ic_lfp[IC_MAX_MOVES + 1]; /* 0: not taken */
static int ic_lprog[IC_MAX_MOVES + 1];           /* returns and finished threads so far */
static int ic_lev[IC_MAX_MOVES + 1];             /* events so far */
static unsigned char ic_lcan[IC_MAX_MOVES + 1];  /* threads with a move in that state */
static unsigned char ic_lmover[IC_MAX_MOVES + 1]; /* the thread of move d+1 (0: the core's loss) */
static unsigned short ic_lactor[IC_MAX_MOVES + 1]; /* its PCT actor (the hardware: ic_n) */
static int ic_lasso_from = -1, ic_lasso_to;      /* the fair cycle found: after these moves */
static unsigned ic_lasso_actors;                 /* the actors of the last repeat */

static int ic_progress_count(void) {
  int p = 0;
  for (int t = 0; t < ic_n; t++) p += 2 * ic_th[t].cycle + (ic_th[t].st == ST_DONE);
  return p;
}

static void ic_lasso_reset(void) {
  ic_lsig[0] = ic_signature();
  ic_lfp[0] = 0;
  ic_lprog[0] = ic_progress_count();
  ic_lev[0] = 0;
  ic_lasso_from = -1;
}

/* Before a move: who can move now. */
static void ic_note_enabled(const struct ic_move *en, int ne) {
  unsigned m = 0;
  for (int j = 0; j < ne; j++)
    if (en[j].kind != 'L') m |= 1u << en[j].t;
  if (ic_nmoves <= IC_MAX_MOVES) ic_lcan[ic_nmoves] = (unsigned char)m;
}

/* After a move: 0, or 1 the state repeats an earlier one of this schedule
 * in a cycle that is not fair, or 2 a fair cycle (an IDLE-8 finding).
 * Without `scan` nothing is recorded: a DFS replaying the prefix of its
 * last schedule reaches the same states, whose records (signature, whole
 * state where taken) are still those of the last schedule. */
static int ic_after_move(const struct ic_move *m, int scan) {
  const int d = ic_nmoves;
  if (d <= 0 || d > IC_MAX_MOVES) return 0;
  ic_lmover[d - 1] = m->kind == 'L' ? 0 : (unsigned char)(1u << m->t);
  ic_lactor[d - 1] = (unsigned short)(1u << (m->kind == 'L' || m->kind == 'w' ? ic_n : m->t));
  if (!scan) return 0;
  ic_lev[d] = ic_nev;
  const uint64_t sig = ic_signature();
  const int prog = ic_progress_count();
  ic_lsig[d] = sig, ic_lfp[d] = 0, ic_lprog[d] = prog;
  uint64_t fp = 0;
  for (int i = d - 1; i >= 0 && ic_lprog[i] == prog; i--) {
    if (ic_lsig[i] != sig) continue;
    /* The signature repeats: the whole state is taken here (and compared
     * with an earlier one taken the same way: a cycle shows at its third
     * visit, the second one's whole state being the first taken). */
    if (!fp) fp = ic_lfp[d] = ic_global_fp();
    if (!fp) return 0;
    if (ic_lfp[i] != fp) continue;
    unsigned can = 0, did = 0, inside = 0;
    ic_lasso_actors = 0;
    for (int j = i; j < d; j++) can |= ic_lcan[j], did |= ic_lmover[j], ic_lasso_actors |= ic_lactor[j];
    for (int t = 0; t < ic_n; t++) inside |= (unsigned)(ic_th[t].in_call != 0) << t;
    if (!icx_breaks_idle8(can, did, inside)) return 1; /* the oracle's judgement of the cycle */
    char who[320];
    int k = 0;
    who[0] = 0;
    for (int t = 0; t < ic_n && k < (int)sizeof who - 60; t++) {
      const struct ic_thread *th = &ic_th[t];
      if (!th->in_call) continue;
      k += snprintf(who + k, sizeof who - (size_t)k, "%st%d %s at %s (line %d)", k ? "; " : "", t,
                    th->woke ? "woke and never returns:" : "never reaches its idle instruction:",
                    th->st == ST_HWIDLE ? "the idle instruction" : ic_op_names[th->pend_op], th->pend_line);
    }
    ic_finding(C(8), "livelock: the state after move %d recurs after move %d and every thread that could move "
                     "moved, so the cycle repeats forever: %s",
               i, d, who);
    ic_lasso_from = i, ic_lasso_to = d;
    return 2;
  }
  return 0;
}

/* One table cell: an event in a few words. */
static void ic_cell(const struct ic_event *e, char *b, size_t n) {
  const char *on = e->on_lock ? "idle_lock" : "word";
  switch (e->what) {
    case 'o':
      if (e->op == IC_OP_CMPXCHG)
        snprintf(b, n, "cmpxchg(%#lx) l%d = %#lx: %s", e->arg, e->line, e->ret, e->ret == e->arg ? "ok" : "fails");
      else if (e->op == IC_OP_READ)
        snprintf(b, n, "READ_ONCE(%s) l%d = %#lx", on, e->line, e->before);
      else if (e->op == IC_OP_TAS_LOCK || e->op == IC_OP_TEST_BIT)
        snprintf(b, n, "%s(%lu, %s) l%d = %lu", e->op == IC_OP_TAS_LOCK ? "test_and_set_bit_lock" : "test_bit",
                 e->arg, on, e->line, e->ret);
      else
        snprintf(b, n, "%s(%lu, %s) l%d: %#lx -> %#lx", ic_op_names[e->op], e->arg, on, e->line, e->before,
                 e->after);
      return;
    case 'b': snprintf(b, n, "begins cycle %lu: %s", e->before + 1, ic_kind_names[e->arg]); return;
    case 'i': snprintf(b, n, "%s l%d: in hardware idle", IC_P8 ? "idle instruction" : "stop", e->line); return;
    case 'w':
      snprintf(b, n, "woken: %s", (e->arg & SRR1_WAKESTATE) == SRR1_WS_NOLOSS ? "no loss"
                                  : e->arg == 0                               ? "synchronously"
                                                                              : "state loss");
      return;
    case 'r': snprintf(b, n, "returns %#lx: running (word %#lx)", e->ret, e->before); return;
    case 'm': snprintf(b, n, "mtspr(%s) l%d", ic_spr_names[e->arg < IC_NR_SPRS ? e->arg : 0], e->line); return;
    case 'y': snprintf(b, n, "opal_resync_timebase() l%d", e->line); return;
    case 'p': snprintf(b, n, "plain store: word %#lx -> %#lx", e->before, e->after); return;
    default: break;
  }
  char full[400];
  ic_event_text(e, full, sizeof full);
  const char *p = full;
  if (e->t >= 0 && full[0] == 't' && strchr(full, ':')) p = strchr(full, ':') + 2;
  snprintf(b, n, "%s", p);
}

/* The schedule of a fair cycle as a thread timeline: one column per
 * hardware thread, one row per atomic step; the cycle between two rules. */
static void ic_emit_table(long long id, int c) {
  enum { W = 46 };
  char line[1024], cell[W + 1];
  int k = snprintf(line, sizeof line, "step |");
  for (int t = 0; t < ic_n; t++) {
    snprintf(cell, sizeof cell, "t%d", t);
    k += snprintf(line + k, sizeof line - (size_t)k, " %-*s|", W, cell);
  }
  emit("TL %lld IDLE-%d %s", id, c, line);
  const int from = ic_lev[ic_lasso_from], to = ic_lev[ic_lasso_to];
  int start = to - 150 > 0 ? to - 150 : 0;
  if (start > from) start = from;
  if (start > 0) emit("TL %lld IDLE-%d  ... (%d earlier steps)", id, c, start);
  for (int i = start; i < to && i < ic_nev; i++) {
    if (i == from)
      emit("TL %lld IDLE-%d ----- the cycle: from here the steps repeat forever (the state after move %d "
           "recurs after move %d) -----", id, c, ic_lasso_from, ic_lasso_to);
    const struct ic_event *e = &ic_ev[i];
    char text[400];
    ic_cell(e, text, sizeof text);
    if (e->t < 0) {
      emit("TL %lld IDLE-%d %4d | core: %s", id, c, i + 1, text);
      continue;
    }
    k = snprintf(line, sizeof line, "%4d |", i + 1);
    for (int t = 0; t < ic_n && k < (int)sizeof line - W - 4; t++) {
      snprintf(cell, sizeof cell, "%s", t == e->t ? text : "");
      k += snprintf(line + k, sizeof line - (size_t)k, " %-*s|", W, cell);
    }
    emit("TL %lld IDLE-%d %s", id, c, line);
  }
  emit("TL %lld IDLE-%d ----- back to the state after move %d -----", id, c, ic_lasso_from);
}
