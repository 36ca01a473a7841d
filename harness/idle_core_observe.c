/*
 * The idle_core harness's protocol checks: what the code under test does is
 * observed through the hooks harness/shims/idle_env.h calls (atomics, plain
 * stores, SPRs, the idle instruction, the resync, the workaround) and told to
 * the idle_core oracle, which judges it.
 *
 * A part of the idle_core harness, not a translation unit: harness_idle_core.c
 * includes it after idle_core_model.c; the parts share the harness's statics.
 */


/* --- the judge: oracle/idle_core.h ------------------------------------------------
 * The harness observes; the oracle judges IDLE-2, -3, -4, -5, -6, -7 and -9
 * (the code every other layer's runs are judged by, linked in through
 * oracle/idle_core_c.h). Each observation is one oracle move: the move
 * itself ("bT", "wT", "L", a pending idle instruction), and within the run
 * of a thread to its next point each action the code took (a resync, the
 * fastsleep workaround, a kernel assertion, the return), with the word
 * (the lock bit set while the lock is held, wherever the code keeps it)
 * and the register file as they are then. What the oracle keeps is a
 * function of the harness's state (phases, kinds, losses, the timebase,
 * the workaround, which registers hold their values): the DFS's state
 * hash needs nothing of it. The harness also tells the oracle who holds the
 * lock (after every operation that changes the lock bit, every move and in
 * every observation: IDLE-1), the plain stores it sees (IDLE-2 and -5) and
 * a schedule that ends with no thread able to move (IDLE-1, and IDLE-8 for
 * a woken thread), and each cycle it finds (IDLE-8: icx_breaks_idle8). */
static struct icx_oracle *ic_oracle;
/* An SPR was written or lost since the oracle was last told which register
 * sets hold (the scans cost more than the rest of an observation). */
static int ic_regs_dirty = 1;
/* Per scope and home slot: how many of its SPRs differ from their values
 * (kept by ic_set_spr; ic_reset zeroes it). */
static int ic_bad[4][IC_MAX_THREADS];
/* The observer's own bookkeeping is not the code under test: the ASan+UBSan
 * build leaves it uninstrumented (it runs on every move). */
#if defined(__GNUC__)
#define IC_OBSERVER __attribute__((no_sanitize("address", "undefined")))
#else
#define IC_OBSERVER
#endif
IC_OBSERVER static void ic_set_spr(int h, int s, unsigned long v) {
  const int sc = ic_scope[s];
  ic_bad[sc][h] += (v != ic_golden[h][s]) - (ic_spr[h][s] != ic_golden[h][s]);
  ic_spr[h][s] = v;
  ic_regs_dirty = 1;
}

static uint32_t ic_logical_word(void) {
  return (uint32_t)(*ic_word() | (*ic_lockw() & PNV_CORE_IDLE_LOCK_BIT));
}

/* The first register of a set that does not hold its value (0: none). */
static int ic_lost_spr(int scope, int t) {
  const int h = ic_home_of_scope(t, scope);
  for (int s = 1; s < IC_NR_SPRS; s++)
    if (ic_scope[s] == scope && ic_spr[h][s] != ic_golden[h][s]) return s;
  return 0;
}

IC_OBSERVER static void ic_observe_registers(void) {
  if (!ic_regs_dirty) return;
  ic_regs_dirty = 0;
  uint32_t sub = 0, thr = 0;
  for (int k = 0; k < ic_subcores; k++)
    if (!ic_bad[SC_SUBCORE][k * (ic_n / ic_subcores)]) sub |= 1u << k;
  for (int t = 0; t < ic_n; t++)
    if (!ic_bad[SC_THREAD][t]) thr |= 1u << t;
  icx_registers(ic_oracle, !ic_bad[SC_CORE][0], sub, thr);
}

/* Every register thread t returned to running with lost, noted for the
 * clauses of `mask` (ic_lost_reg); how many. */
static int ic_note_lost(unsigned mask, int t) {
  int n = 0;
  for (int s = 1; s < IC_NR_SPRS; s++) {
    if (ic_scope[s] == SC_NONE) continue;
    const int h = ic_home_of_scope(t, ic_scope[s]);
    if (ic_spr[h][s] == ic_golden[h][s]) continue;
    for (int c = 1; c < IC_NCLAUSES; c++)
      if (mask & (1u << c)) ic_lost_reg[c][s] = 1;
    n++;
  }
  return n;
}

/* What the harness sees of a register verdict: the register, its value and
 * the one it held (the oracle's message says which set and since when). */
static void ic_registers_seen(int t, char *b, size_t n) {
  int s;
  b[0] = 0;
  if ((s = ic_lost_spr(SC_CORE, t)))
    snprintf(b, n, "; seen: t%d returned to running with the per-core %s lost (%#lx, not %#lx)", t,
             ic_spr_names[s], ic_spr[0][s], ic_golden[0][s]);
  else if ((s = ic_lost_spr(SC_SUBCORE, t)))
    snprintf(b, n, "; seen: t%d returned to running with the per-subcore %s of subcore %d lost (%#lx, not %#lx)",
             t, ic_spr_names[s], ic_subcore_of(t), ic_spr[ic_home(t, s)][s], ic_golden[ic_home(t, s)][s]);
  else if ((s = ic_lost_spr(SC_THREAD, t)))
    snprintf(b, n, "; seen: t%d returned to running with its own %s lost (%#lx, not %#lx)", t,
             ic_spr_names[s], ic_spr[t][s], ic_golden[t][s]);
}

/* The threads holding the lock (bit t: thread t), as the oracle's Seen.holders. */
static uint32_t ic_holders(void) {
  uint32_t h = 0;
  for (int t = 0; t < ic_n; t++)
    if (ic_th[t].holds_lock) h |= 1u << t;
  return h;
}

/* The oracle's violations as findings, each charged by the oracle's rule,
 * with what the harness saw (`seen`, may be empty) after the oracle's words. */
static void ic_report(const struct icx_found *f, int n, const char *seen) {
  for (int i = 0; i < n; i++)
    ic_finding(IC_CHARGED(f[i].clause), "%s%s%s", f[i].clause < 0 ? "the spec's model rejects the move: " : "",
               f[i].msg, seen);
}

/* The state now (the word, the lock's holders), judged by the oracle as the
 * state after a move: IDLE-1's lock part, and what it judges of the word. */
static void ic_judge_state(const char *seen) {
  static struct icx_found f[4]; /* static: no ASan frame to poison per call */
  ic_report(f, icx_state(ic_oracle, ic_logical_word(), ic_holders(), f, 4), seen);
}

/* One observation, judged. POWER9's IDLE-7 is the POWER9 form of IDLE-1's
 * lock part, IDLE-2 and IDLE-3 (spec/idle_core.md): a POWER9 failure of
 * those is IDLE-7's too, and any other POWER9 failure (a register, an
 * assertion) is IDLE-7's. The oracle's "model" (a move its model does not
 * allow, an assertion that guards no clause) is the platform's catch-all. */
IC_OBSERVER static void ic_observe(int move, int t, int event, int kind, int loss, int returned, const char *what,
                       int decided_known, unsigned long decided) {
  struct icx_obs o;
  memset(&o, 0, sizeof o);
  o.move = move, o.thread = (unsigned)(t < 0 ? 0 : t), o.event = event, o.kind = kind, o.loss = loss;
  o.returned = returned, o.what = what, o.decided_known = decided_known;
  o.decided = (uint32_t)decided;
  o.word_after = ic_logical_word();
  o.move_number = (unsigned long)(ic_nmoves > 0 ? ic_nmoves : 1);
  o.holders_known = 1, o.holders = ic_holders();
  ic_observe_registers();
  static char msg[400], seen[200]; /* static: no ASan frame to poison per call */
  const int c = icx_observe(ic_oracle, &o, msg, sizeof msg);
  if (c == 0) return;
  const unsigned mask = IC_CHARGED(c);
  seen[0] = 0;
  if (returned && c > 0 && (c == 5 || c == 6 || c == 7)) ic_registers_seen(t, seen, sizeof seen);
  ic_finding_is_register = seen[0] != 0 && ic_note_lost(mask, t);
  ic_finding(mask, "%s%s%s", c < 0 ? "the spec's model rejects the move: " : "", msg, seen);
  ic_finding_is_register = 0;
}

/* The job's LOST lines (harness_idle_core.c's output), then cleared: per
 * clause, every register some explored schedule returned a thread with lost,
 * and other=1 when some failure of the clause was not a lost register. */
static void ic_emit_lost(long long id) {
  for (int c = 1; c < IC_NCLAUSES; c++) {
    char regs[IC_NR_SPRS * 8] = "";
    size_t used = 0;
    for (int s = 1; s < IC_NR_SPRS; s++)
      if (ic_lost_reg[c][s] && used + strlen(ic_spr_names[s]) + 2 < sizeof regs)
        used += (size_t)snprintf(regs + used, sizeof regs - used, "%s%s", used ? "," : "",
                                 ic_spr_names[s]);
    if (used || ic_lost_other[c])
      emit("LOST %lld IDLE-%d other=%d regs=%s", id, c, ic_lost_other[c], used ? regs : "-");
  }
  memset(ic_lost_reg, 0, sizeof ic_lost_reg);
  memset(ic_lost_other, 0, sizeof ic_lost_other);
}

/* The oracle's kind for the harness's kind letter. */
static int ic_oracle_kind(int k) {
#if IC_P8
  return ICX_P8_NAP + k; /* n, s, w */
#else
  return ic_kind_letters[k] == 'd' ? ICX_P9_DEEP : ic_kind_letters[k] == 't' ? ICX_P9_TB_LOSS : ICX_P9_SHALLOW;
#endif
}

static int ic_is_word(const volatile void *addr) {
  IC_HOOK();
  for (int t = 0; t < ic_n; t += threads_per_core)
    if (addr == (const volatile void *)&paca_ptrs[t]->idle_state ||
        addr == (const volatile void *)&paca_ptrs[t]->idle_lock)
      return 1;
  return 0;
}

static uint64_t ic_mix(uint64_t h, uint64_t v) {
  h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
  h *= 0xff51afd7ed558ccdull;
  return h ^ (h >> 33);
}

/* --- the hooks the shim calls ------------------------------------------------------ */
/* t's operation (not a successful test_and_set_bit_lock) may have changed
 * the lock bit: a clear by the holder releases the lock; then the oracle
 * judges the lock against its holders (a set without taking the lock, a
 * clear by another thread: IDLE-1). After a clear nobody holds the lock any
 * more, whoever held it (the finding is made, the run goes on). */
static void ic_lock_track(int t, const char *what, unsigned long before, unsigned long after) {
  struct ic_thread *th = &ic_th[t];
  const int had = (before & PNV_CORE_IDLE_LOCK_BIT) != 0, has = (after & PNV_CORE_IDLE_LOCK_BIT) != 0;
  if (had == has) return;
  if (had && th->holds_lock) th->holds_lock = 0;
  static char seen[120];
  snprintf(seen, sizeof seen, " (seen: t%d's %s %s the lock bit)", t, what, has ? "set" : "cleared");
  ic_judge_state(seen);
  if (had)
    for (int u = 0; u < ic_n; u++) ic_th[u].holds_lock = 0;
}

#define IC_WCOUNT(w) ((int)(((w) & PNV_CORE_IDLE_WINKLE_COUNT_BITS) >> PNV_CORE_IDLE_WINKLE_COUNT_SHIFT))

/* Did the running thread store to the word since its last operation (plain
 * C: POWER8's updates under the lock)? Judged here, at its next point. */
static void ic_plain_check(int line) {
  const int t = ic_cur;
  struct ic_thread *th = &ic_th[t];
  if (*ic_lockw() != ic_shadow_lock) { /* a plain store to the separate lock */
    const unsigned long before = ic_shadow_lock;
    ic_shadow_lock = *ic_lockw();
    ic_lock_track(t, "plain store to idle_lock", before, ic_shadow_lock);
  }
  const unsigned long w = *ic_word(), before = ic_shadow;
  if (w == before) return;
  ic_shadow = w;
  ic_event('p', t, 0, line, (unsigned long)th->pend_line, before, w, 0);
  th->hist = ic_mix(th->hist, w);
  th->last_seen = w;
  const int cb = IC_WCOUNT(before), ca = IC_WCOUNT(w);
  if (ca != cb) {
    int d = ca - cb;
    if (d > 8) d -= 16;
    if (d < -8) d += 16;
    th->wcount += d; /* part of the state (the count itself is judged by the oracle) */
  }
  static struct icx_found f[4];
  ic_report(f, icx_store(ic_oracle, (unsigned)t, (uint32_t)before, (uint32_t)w, ic_holders(), f, 4), "");
  ic_lock_track(t, "plain store", before, w);
}

/* The bookkeeping of a scheduling point (ic_point in idle_env.h switches after it). */
static void ic_pending(int op, int line, const volatile void *addr, unsigned long arg) {
  IC_HOOK();
  struct ic_thread *th = &ic_th[ic_cur];
  ic_plain_check(line);
  th->st = ST_PENDING;
  th->pend_op = op, th->pend_line = line, th->pend_arg = arg;
  th->pend_addr = (const volatile unsigned long *)addr;
}

static void ic_did(int op, int line, unsigned long arg, unsigned long before, unsigned long after,
                   unsigned long ret) {
  IC_HOOK();
  const int t = ic_cur;
  struct ic_thread *th = &ic_th[t];
  const int on_lock = th->pend_addr == ic_lockw();
  ic_event('o', t, op, line, arg, before, after, ret);
  ic_ev[ic_nev - 1].on_lock = (char)on_lock;
  th->hist = ic_mix(ic_mix(th->hist, (uint64_t)op << 32 | (uint64_t)line << 1 | (uint64_t)on_lock),
                    after ^ (ret << 40));
  if (!on_lock) th->last_seen = after;
  const int readonly = before == after && (op == IC_OP_READ || op == IC_OP_TEST_BIT ||
                                           op == IC_OP_TAS_LOCK || op == IC_OP_CMPXCHG);
  th->ro_op = readonly ? op : 0, th->ro_line = line, th->ro_word = after, th->ro_addr = th->pend_addr;
  if (on_lock)
    ic_shadow_lock = after;
  else
    ic_shadow = after;
  if (op == IC_OP_TAS_LOCK && ret) th->spun = 1; /* waits for the next holding (ic_blocked) */
  if (op == IC_OP_TAS_LOCK && arg == NR_PNV_CORE_IDLE_LOCK_BIT && ret == 0) {
    for (int u = 0; u < ic_n; u++) ic_th[u].spun = 0;
    th->holds_lock = 1;
    th->decided = *ic_word(), th->decided_set = 1; /* the word it decides on, with the lock */
  } else {
    ic_lock_track(t, ic_op_names[op], before, after);
  }
}

static unsigned long ic_mfspr(int spr) {
  IC_HOOK();
  if (spr <= 0 || spr >= IC_NR_SPRS) return 0;
  const unsigned long v = ic_spr[ic_home(ic_cur, spr)][spr];
  ic_th[ic_cur].hist = ic_mix(ic_th[ic_cur].hist, v);
  return v;
}

static void ic_mtspr(int spr, unsigned long v, int line) {
  IC_HOOK();
  if (spr <= 0 || spr >= IC_NR_SPRS) return;
  if (ic_scope[spr] == SC_CORE || ic_scope[spr] == SC_SUBCORE) {
    ic_point(IC_OP_MTSPR_CORE, line, NULL, (unsigned long)spr);
    const int h = ic_home(ic_cur, spr);
    ic_event('m', ic_cur, IC_OP_MTSPR_CORE, line, (unsigned long)spr, ic_spr[h][spr], v, 0);
    ic_set_spr(h, spr, v);
  } else {
    ic_set_spr(ic_cur, spr, v);
  }
}

__attribute__((unused)) static void ic_workaround(unsigned long what, unsigned long how, int line) {
  IC_HOOK();
  ic_point(IC_OP_WORKAROUND, line, NULL, how);
  ic_event('a', ic_cur, IC_OP_WORKAROUND, line, how, (unsigned long)ic_wa_applied, what, 0);
  if (what == OPAL_CONFIG_IDLE_FASTSLEEP) {
    ic_wa_applied = how == OPAL_CONFIG_IDLE_APPLY;
    ic_observe(ICX_STEP, ic_cur, ic_wa_applied ? ICX_EV_APPLY_WA : ICX_EV_UNDO_WA, 0, 0, 0, NULL, 0, 0);
  }
  ic_th[ic_cur].hist = ic_mix(ic_th[ic_cur].hist, how + 7);
}

static void ic_resync(int line) {
  IC_HOOK();
  const int t = ic_cur;
  struct ic_thread *th = &ic_th[t];
  ic_point(IC_OP_RESYNC, line, NULL, 0);
  const unsigned long seen = th->decided_set ? th->decided : th->last_seen;
  ic_event('y', t, IC_OP_RESYNC, line, seen, (unsigned long)ic_tb_valid, 1, 0);
  ic_tb_valid = 1;
  ic_observe(ICX_STEP, t, ICX_EV_RESYNC_TB, 0, 0, 0, NULL, 1, seen);
}

static unsigned long ic_idle(unsigned long psscr, int mayloss, int line) {
  IC_HOOK();
  struct ic_thread *th = &ic_th[ic_cur];
  th->idle_mayloss = mayloss;
  ic_point(IC_OP_IDLE, line, NULL, psscr);
  /* Resumed by a wake: the scheduler set srr1 and PSSCR. */
  th->hist = ic_mix(th->hist, th->srr1 ^ (ic_spr[ic_cur][SPRN_PSSCR] << 1));
  th->woke = 1;
  IC_TSAN_WOKE(th->srr1);
  return th->srr1;
}
