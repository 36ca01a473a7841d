/*
 * The idle_core harness's exploration: a fixed schedule replayed, a stuck end
 * judged, each clause's shortest failing schedule shrunk and written, and the
 * schedules searched by a bounded stateless DFS or by PCT.
 *
 * A part of the idle_core harness, not a translation unit: harness_idle_core.c
 * includes it after idle_core_livelock.c; the parts share the harness's statics.
 */

/* Runs a fixed schedule; moves that are not enabled are skipped. Returns the
 * clauses found. With `finish_deadlock`, a schedule that ends with no move
 * enabled is judged for deadlock. */
static void ic_judge_leaf(void);
static unsigned ic_replay(const struct ic_move *mv, int n) {
  struct ic_move en[IC_MAX_ENABLED];
  ic_reset();
  for (int i = 0; i < n && ic_nmoves < IC_MAX_MOVES; i++) {
    const int ne = ic_enabled(en);
    int ok = 0;
    for (int j = 0; j < ne && !ok; j++) ok = ic_same_move(&en[j], &mv[i]);
    if (!ok) continue;
    ic_note_enabled(en, ne);
    ic_apply(&mv[i]);
    ic_check_state();
    if (ic_after_move(&mv[i], 1) == 2) return ic_found_mask; /* a fair cycle: the run goes on forever */
  }
  if (ic_enabled(en) == 0) ic_judge_leaf();
  return ic_found_mask;
}

static void ic_judge_leaf(void) {
  int stuck = 0;
  for (int t = 0; t < ic_n; t++) stuck += ic_th[t].st != ST_DONE;
  if (!stuck) return;
  static char seen[400];
  int k = 0;
  seen[0] = 0;
  for (int t = 0; t < ic_n && k < (int)sizeof seen - 80; t++) {
    const struct ic_thread *th = &ic_th[t];
    if (th->st != ST_DONE)
      k += snprintf(seen + k, sizeof seen - (size_t)k, "%s t%d spins at %s (line %d)", k ? ";" : "; seen:", t,
                    ic_op_names[th->pend_op], th->pend_line);
  }
  if (k < (int)sizeof seen - 30) snprintf(seen + k, sizeof seen - (size_t)k, ", word %#lx", *ic_word());
  for (int t = 0; t < ic_n; t++)
    if (ic_th[t].st != ST_DONE) ic_event('x', t, ic_th[t].pend_op, ic_th[t].pend_line, 0, 0, 0, 0);
  static struct icx_found f[IC_MAX_THREADS + 1];
  ic_report(f, icx_stuck(ic_oracle, f, IC_MAX_THREADS + 1), seen);
}

/* --- the job's findings: one per clause, the shortest schedule, shrunk ------------------ */
static struct {
  int count;
  int n; /* moves */
  struct ic_move mv[IC_MAX_MOVES];
  char text[480];
} ic_best[IC_NCLAUSES];

static void ic_record_findings(void) {
  for (int i = 0; i < ic_nfind; i++)
    for (int c = 1; c < IC_NCLAUSES; c++) {
      if (!(ic_find[i].clauses & C(c))) continue;
      ic_best[c].count++;
      const int n = ic_find[i].move;
      if (ic_best[c].count == 1 || n < ic_best[c].n) {
        ic_best[c].n = n;
        memcpy(ic_best[c].mv, ic_moves, sizeof(struct ic_move) * (size_t)n);
        snprintf(ic_best[c].text, sizeof ic_best[c].text, "%s", ic_find[i].text);
      }
    }
}

static void ic_shrink_and_emit(long long id) {
  static struct ic_move cand[IC_MAX_MOVES];
  static char buf[IC_MAX_MOVES * 5];
  for (int c = 1; c < IC_NCLAUSES; c++) {
    if (!ic_best[c].count) continue;
    int n = ic_best[c].n;
    struct ic_move *mv = ic_best[c].mv;
    for (int progress = 1; progress;) { /* drop one move at a time while the clause still fails */
      progress = 0;
      for (int i = n - 1; i >= 0; i--) {
        memcpy(cand, mv, sizeof(struct ic_move) * (size_t)i);
        memcpy(cand + i, mv + i + 1, sizeof(struct ic_move) * (size_t)(n - i - 1));
        if (ic_replay(cand, n - 1) & C(c)) {
          memcpy(mv, cand, sizeof(struct ic_move) * (size_t)(n - 1));
          n--, progress = 1;
        }
      }
    }
    ic_replay(mv, n);
    /* The moves actually taken, up to the finding. */
    int upto = ic_nmoves;
    const char *text = ic_best[c].text;
    for (int i = 0; i < ic_nfind; i++)
      if (ic_find[i].clauses & C(c)) upto = ic_find[i].move, text = ic_find[i].text;
    ic_moves_text(ic_moves, upto, buf, sizeof buf);
    emit("FINDING %lld IDLE-%d count=%d moves=%d schedule=%s :: %s", id, c, ic_best[c].count, upto,
         buf[0] ? buf : "-", text);
    char line[400];
    if (c == 8 && ic_lasso_from >= 0) {
      ic_emit_table(id, c);
    } else {
      for (int i = 0; i < ic_nev && i < 200; i++) {
        ic_event_text(&ic_ev[i], line, sizeof line);
        emit("TL %lld IDLE-%d %s", id, c, line);
      }
    }
    ic_best[c].n = 0;
  }
}

/* --- exploration -------------------------------------------------------------------------- */
static uint64_t *ic_seen_key;
static unsigned char *ic_seen_pre; /* preemptions used to reach it (bounded mode) */
static unsigned long ic_states;

static uint64_t ic_state_hash(int last) {
  uint64_t h = ic_mix(ic_mix(*ic_word(), *ic_lockw()), (uint64_t)ic_tb_valid);
  for (int s = 1; s < IC_NR_SPRS; s++)
    if (ic_scope[s] == SC_CORE) h = ic_mix(h, ic_spr[0][s]);
  if (IC_P8) {
    h = ic_mix(h, (uint64_t)ic_wa_applied);
    for (int t = 0; t < ic_n; t++)
      for (int s = 1; s < IC_NR_SPRS; s++)
        if (ic_scope[s] == SC_SUBCORE && ic_home(t, s) == t) h = ic_mix(h, ic_spr[t][s]);
  }
  for (int t = 0; t < ic_n; t++) {
    const struct ic_thread *th = &ic_th[t];
    h = ic_mix(h, (uint64_t)th->st | (uint64_t)th->cycle << 4 | (uint64_t)th->kind << 12 |
                      (uint64_t)th->lost << 16 | (uint64_t)th->pend_op << 20 | (uint64_t)th->holds_lock << 28 |
                      (uint64_t)th->in_call << 29 | (uint64_t)th->woke << 30 |
                      (uint64_t)th->pend_line << 32);
    h = ic_mix(h, th->hist);
    h = ic_mix(h, th->decided_set ? th->decided : 0xffff);
    h = ic_mix(h, (uint64_t)th->ro_op << 32 | (uint64_t)th->ro_line);
    for (int s = 1; s < IC_NR_SPRS; s++)
      if (ic_scope[s] == SC_THREAD) h = ic_mix(h, ic_spr[t][s]);
    if (IC_P8) h = ic_mix(h, (uint64_t)(th->wcount + 16));
  }
  h = ic_mix(h, (uint64_t)(last + 1));
  return h ? h : 1;
}

/* Returns 1 if the state is new (or reached with fewer preemptions). */
static int ic_visit(uint64_t key, int pre) {
  const size_t mask = ((size_t)1 << IC_HASH_BITS) - 1;
  for (size_t i = (size_t)key & mask;; i = (i + 1) & mask) {
    if (ic_seen_key[i] == 0) {
      if (ic_states >= mask - (mask >> 3)) return 1; /* full: no more pruning */
      ic_seen_key[i] = key, ic_seen_pre[i] = (unsigned char)pre;
      ic_states++;
      return 1;
    }
    if (ic_seen_key[i] == key) {
      if (pre < ic_seen_pre[i]) {
        ic_seen_pre[i] = (unsigned char)pre;
        return 1;
      }
      return 0;
    }
  }
}

static int ic_stepper(const struct ic_move *m) { return m->kind == 'b' || m->kind == 's'; }

/* Is choosing m a preemption of `last` (the thread that moved last)? */
static int ic_preempts(const struct ic_move *m, const struct ic_move *en, int ne, int last) {
  if (!ic_stepper(m) || last < 0 || m->t == last) return 0;
  for (int j = 0; j < ne; j++)
    if (ic_stepper(&en[j]) && en[j].t == last) return 1;
  return 0;
}

struct ic_stats {
  unsigned long schedules, transitions, bound_hits, max_depth, failing;
  int complete, failcap;
};
/* A DFS job stops after this many failing schedules: a broken variant's
 * state space may not end (a winkle count that only grows), and the
 * counterexamples it has are enough. */
#define IC_FAIL_CAP 20000

/* Does the schedule end before move d+1, with `ne` moves enabled: none
 * left (the end judged: ic_judge_leaf) or the move bound hit? */
static int ic_schedule_ends(int ne, int d, struct ic_stats *st) {
  if (ne == 0) {
    ic_judge_leaf();
    return 1;
  }
  if (d >= IC_MAX_MOVES - 1) {
    st->bound_hits++;
    return 1;
  }
  return 0;
}

/* Stateless DFS with replay from the start, pruned by visited states (and,
 * bounded, by the number of preemptions: choosing another thread's step
 * while the thread that stepped last could step too; wakes and the core's
 * loss are the hardware's and free). */
static void ic_dfs(int bound, unsigned long max_schedules, struct ic_stats *st) {
  static int choice[IC_MAX_MOVES], nchoice[IC_MAX_MOVES];
  struct ic_move en[IC_MAX_ENABLED];
  int depth_fixed = 0; /* choices [0, depth_fixed) are replayed */
  st->complete = 0;
  for (;;) {
    if (st->schedules >= max_schedules) return;
    ic_reset();
    int last = -1, pre = 0, d = 0, counted = 1;
    const int start = depth_fixed > 0 ? depth_fixed - 1 : 0; /* the first new transition */
    for (;; d++) {
      const int ne = ic_enabled(en);
      if (ic_schedule_ends(ne, d, st)) break;
      int c;
      if (d < depth_fixed) {
        c = choice[d];
        if (bound >= 0 && pre + ic_preempts(&en[c], en, ne, last) > bound) { /* over the bound */
          d++, counted = 0;
          break;
        }
      } else {
        for (c = 0; c < ne; c++) /* the first choice within the bound */
          if (bound < 0 || pre + ic_preempts(&en[c], en, ne, last) <= bound) break;
        if (c == ne) break;
        choice[d] = c, nchoice[d] = ne;
      }
      pre += ic_preempts(&en[c], en, ne, last);
      if (ic_stepper(&en[c])) last = en[c].t;
      ic_note_enabled(en, ne);
      ic_apply(&en[c]);
      ic_check_state();
      /* A state this schedule had before: a fair cycle is a finding and ends
       * it; any other repeat is pruned (its continuations start at the first visit). */
      if (ic_after_move(&en[c], d >= start)) {
        st->transitions++;
        d++;
        break;
      }
      if (d >= start) {
        st->transitions++;
        if (!ic_visit(ic_state_hash(bound >= 0 ? last : -1), pre)) {
          d++;
          break;
        }
      }
    }
    if (counted) {
      st->schedules++;
      if ((unsigned long)d > st->max_depth) st->max_depth = (unsigned long)d;
      ic_record_findings();
      if (ic_nfind > 0 && ++st->failing >= IC_FAIL_CAP) {
        st->failcap = 1;
        return;
      }
    }
    int k = d - 1; /* the deepest choice with an untried alternative */
    while (k >= 0 && choice[k] + 1 >= nchoice[k]) k--;
    if (k < 0) {
      st->complete = 1;
      return;
    }
    choice[k]++;
    depth_fixed = k + 1;
  }
}

/* PCT: random thread priorities, depth-1 priority change points. */
static uint64_t ic_rng;
static uint64_t ic_rand(void) {
  ic_rng ^= ic_rng << 13, ic_rng ^= ic_rng >> 7, ic_rng ^= ic_rng << 17;
  return ic_rng;
}

/* Whose move: a thread's steps and begins are its own; wakes and the loss the hardware's. */
#define IC_ACTOR(m) ((m).kind == 'L' || (m).kind == 'w' ? ic_n : (m).t)

static void ic_pct(uint64_t seed, unsigned long runs, int depth, struct ic_stats *st) {
  struct ic_move en[IC_MAX_ENABLED];
  ic_rng = seed * 0x9e3779b97f4a7c15ull + 1;
  const int est = 14 * ic_cycles * ic_n + 8; /* expected moves per schedule */
  for (unsigned long r = 0; r < runs; r++) {
    int prio[IC_MAX_THREADS + 1], change[8];
    const int actors = ic_n + 1; /* the threads and the hardware */
    for (int a = 0; a < actors; a++) prio[a] = depth + a;
    for (int a = actors - 1; a > 0; a--) { /* shuffle */
      const int j = (int)(ic_rand() % (uint64_t)(a + 1)), x = prio[a];
      prio[a] = prio[j], prio[j] = x;
    }
    for (int i = 0; i < depth - 1 && i < 8; i++) change[i] = 1 + (int)(ic_rand() % (uint64_t)est);
    int lowest = 0; /* below every priority: for the threads of a repeat */
    ic_reset();
    int d = 0;
    for (;; d++) {
      const int ne = ic_enabled(en);
      if (ic_schedule_ends(ne, d, st)) break;
      int best = -1, bp = INT_MIN; /* priorities go below 0 (the threads of a repeat) */
      for (int j = 0; j < ne; j++) {
        const int a = IC_ACTOR(en[j]);
        if (prio[a] > bp) bp = prio[a], best = j;
      }
      if (IC_ACTOR(en[best]) == ic_n) { /* the hardware: one of its moves at random */
        int hw = 0;
        for (int j = 0; j < ne; j++) hw += IC_ACTOR(en[j]) == ic_n;
        int pick = (int)(ic_rand() % (uint64_t)hw);
        for (int j = 0; j < ne; j++)
          if (IC_ACTOR(en[j]) == ic_n && pick-- == 0) best = j;
      }
      /* Several moves of one thread (the kinds of a begin): pick one at random. */
      int same = 0;
      for (int j = 0; j < ne; j++) same += en[j].kind == 'b' && en[best].kind == 'b' && en[j].t == en[best].t;
      if (same > 1) best += (int)(ic_rand() % (uint64_t)same);
      const int a = IC_ACTOR(en[best]);
      ic_note_enabled(en, ne);
      ic_apply(&en[best]);
      ic_check_state();
      st->transitions++;
      const int lasso = ic_after_move(&en[best], 1);
      if (lasso == 2) { /* a fair cycle: the run would go on forever */
        d++;
        break;
      }
      if (lasso == 1) /* a repeat some thread could leave: the ones that moved in it yield */
        for (int b = 0; b <= ic_n; b++)
          if (ic_lasso_actors & (1u << b)) prio[b] = --lowest;
      for (int i = 0; i < depth - 1 && i < 8; i++)
        if (change[i] == d) prio[a] = depth - 1 - i; /* drop below every initial priority */
    }
    st->schedules++;
    if ((unsigned long)d > st->max_depth) st->max_depth = (unsigned long)d;
    ic_record_findings();
  }
  st->complete = 1;
}
