/*
 * The idle_core harness's text: an event and the word as a timeline line,
 * a schedule's moves written and parsed.
 *
 * A part of the idle_core harness, not a translation unit: harness_idle_core.c
 * includes it after idle_core_schedule.c; the parts share the harness's statics.
 */

/* --- timelines ------------------------------------------------------------------- */
/* The word; `held`: the separate lock is held (the lock bit of the v6.5+ layout). */
static void ic_word_text(char *b, size_t n, unsigned long w, int held) {
  int k = snprintf(b, n, "%#lx", w);
  if (k < 0 || (size_t)k >= n) return;
  k += snprintf(b + k, n - (size_t)k, " [%s", (w & PNV_CORE_IDLE_LOCK_BIT) || held ? "lock" : "free");
  for (int t = 0; t < ic_n && (size_t)k < n; t++)
    k += snprintf(b + k, n - (size_t)k, " %c%d", ((w >> t) & 1) ? '+' : '-', t);
  if (IC_P8 && (size_t)k < n)
    k += snprintf(b + k, n - (size_t)k, " winkle count %d bits %#lx", IC_WCOUNT(w),
                  (w & PNV_CORE_IDLE_THREAD_WINKLE_BITS) >> PNV_CORE_IDLE_THREAD_WINKLE_BITS_SHIFT);
  if ((size_t)k < n) snprintf(b + k, n - (size_t)k, "]");
}

static void ic_event_text(const struct ic_event *e, char *b, size_t n) {
  char w1[96], w2[96];
  switch (e->what) {
    case 'b':
      if (IC_P8 && ic_subcores > 1)
        snprintf(b, n, "t%d (subcore %d): cycle %lu: " IC_FN_NAME "(%#lx), %s", e->t, ic_subcore_of(e->t),
                 e->before + 1, e->ret, ic_kind_names[e->arg]);
      else
        snprintf(b, n, "t%d: cycle %lu: " IC_FN_NAME "(%#lx), %s", e->t, e->before + 1, e->ret,
                 ic_kind_names[e->arg]);
      break;
    case 'i':
      snprintf(b, n, "t%d: %s instruction (line %d): in hardware idle", e->t, IC_P8 ? "idle" : "stop", e->line);
      break;
    case 'a':
      snprintf(b, n, "t%d: opal_config_cpu_idle_state (line %d): fastsleep workaround %s", e->t, e->line,
               e->arg == OPAL_CONFIG_IDLE_APPLY ? "applied" : "undone");
      break;
    case 'p':
      ic_word_text(w1, sizeof w1, e->before, e->held);
      ic_word_text(w2, sizeof w2, e->after, e->held);
      snprintf(b, n, "t%d: plain store to the word (after line %lu): %s -> %s", e->t, e->arg, w1, w2);
      break;
    case 'w':
      if (IC_P8) {
        snprintf(b, n, "t%d: woken, %s", e->t,
                 (e->arg & SRR1_WAKESTATE) == SRR1_WS_NOLOSS ? "SRR1 no loss"
                 : e->before >= 2 ? "SRR1 state loss (full winkle: timebase and SPRs lost)"
                                  : "SRR1 state loss (fastsleep: timebase lost)");
        break;
      }
      snprintf(b, n, "t%d: woken, %s, PSSCR[PLS]=%lu", e->t,
               e->arg == 0 ? "synchronously (SRR1 0)"
               : (e->arg & SRR1_WAKESTATE) == SRR1_WS_NOLOSS ? "SRR1 no loss"
                                                             : "SRR1 state loss",
               e->after);
      break;
    case 'L':
      if (IC_P8)
        snprintf(b, n, "hw: every thread in sleep/winkle: %s (fastsleep workaround %s)",
                 e->arg >= 2 ? "every thread winkled, the core loses the timebase and its SPRs"
                             : "the core enters fastsleep and loses the timebase",
                 e->before ? "applied" : "not applied");
      else
        snprintf(b, n, "hw: every thread stopped deep: the core loses SPRs%s",
                 e->arg >= 2 ? " and the timebase" : "");
      break;
    case 'r':
      ic_word_text(w1, sizeof w1, e->before, e->held);
      snprintf(b, n, "t%d: " IC_FN_NAME " returns %#lx: running (word %s)", e->t, e->ret, w1);
      break;
    case 'm': {
      const int spr = e->arg < IC_NR_SPRS ? (int)e->arg : 0;
      char scope[32] = "per-core";
      if (ic_scope[spr] == SC_SUBCORE) snprintf(scope, sizeof scope, "per-subcore (subcore %d)", ic_subcore_of(e->t));
      snprintf(b, n, "t%d: mtspr(%s) (line %d): %s register %s", e->t, ic_spr_names[spr], e->line, scope,
               e->after == e->before ? "written" : "restored");
      break;
    }
    case 'y':
      ic_word_text(w1, sizeof w1, e->arg, e->held);
      snprintf(b, n, "t%d: opal_resync_timebase() (line %d), having found word %s", e->t, e->line, w1);
      break;
    case 'x':
      snprintf(b, n, "t%d: spins forever at %s (line %d)", e->t, ic_op_names[e->op], e->line);
      break;
    default:
      if (e->on_lock) { /* the separate lock: only its bit matters */
        snprintf(b, n, "t%d: %s(%lu) on idle_lock (line %d)%s: %s -> %s", e->t, ic_op_names[e->op],
                 e->op == IC_OP_READ ? 0UL : e->arg, e->line,
                 e->op == IC_OP_TAS_LOCK || e->op == IC_OP_TEST_BIT ? (e->ret ? " = 1" : " = 0") : "",
                 e->before & PNV_CORE_IDLE_LOCK_BIT ? "lock" : "free",
                 e->after & PNV_CORE_IDLE_LOCK_BIT ? "lock" : "free");
        break;
      }
      ic_word_text(w1, sizeof w1, e->before, e->held);
      ic_word_text(w2, sizeof w2, e->after, e->held);
      if (e->op == IC_OP_CMPXCHG)
        snprintf(b, n, "t%d: cmpxchg(expect %#lx) (line %d) = %#lx %s: %s -> %s", e->t, e->arg, e->line,
                 e->ret, e->ret == e->arg ? "ok" : "failed", w1, w2);
      else if (e->op == IC_OP_READ)
        snprintf(b, n, "t%d: READ_ONCE (line %d) = %s", e->t, e->line, w1);
      else
        snprintf(b, n, "t%d: %s(%lu) (line %d)%s: %s -> %s", e->t, ic_op_names[e->op], e->arg, e->line,
                 e->op == IC_OP_TAS_LOCK || e->op == IC_OP_TEST_BIT ? (e->ret ? " = 1" : " = 0") : "",
                 w1, w2);
  }
}

static void ic_moves_text(const struct ic_move *mv, int n, char *b, size_t cap) {
  size_t k = 0;
  b[0] = 0;
  for (int i = 0; i < n && k + 8 < cap; i++) {
    int w;
    if (mv[i].kind == 'b')
      w = snprintf(b + k, cap - k, "%sb%d%c", i ? "," : "", mv[i].t, ic_kind_letters[mv[i].k]);
    else if (mv[i].kind == 'w')
      w = snprintf(b + k, cap - k, "%sw%d", i ? "," : "", mv[i].t);
    else if (mv[i].kind == 'L')
      w = snprintf(b + k, cap - k, "%sL", i ? "," : "");
    else
      w = snprintf(b + k, cap - k, "%s%d", i ? "," : "", mv[i].t);
    if (w < 0) break;
    k += (size_t)w;
  }
}

static int ic_parse_moves(const char *s, struct ic_move *mv) {
  int n = 0;
  if (!strcmp(s, "-")) return 0;
  while (*s && n < IC_MAX_MOVES) {
    struct ic_move m = {0, 0, 0};
    if (*s == 'b') {
      m.kind = 'b', m.t = (unsigned char)(s[1] - '0');
      const char *p = s[1] && s[2] ? strchr(ic_kind_letters, s[2]) : NULL;
      if (!p || m.t >= IC_MAX_THREADS) bad_input("bad begin move");
      m.k = (unsigned char)(p - ic_kind_letters);
      s += 3;
    } else if (*s == 'w') {
      m.kind = 'w', m.t = (unsigned char)(s[1] - '0');
      s += 2;
    } else if (*s == 'L') {
      m.kind = 'L';
      s += 1;
    } else if (*s >= '0' && *s <= '9') {
      m.kind = 's', m.t = (unsigned char)(*s - '0');
      s += 1;
    } else {
      bad_input("bad move");
    }
    if (m.t >= IC_MAX_THREADS) bad_input("bad thread in a move");
    mv[n++] = m;
    if (*s == ',') s++;
  }
  return n;
}

static int ic_same_move(const struct ic_move *a, const struct ic_move *b) {
  return a->kind == b->kind && a->t == b->t && (a->kind != 'b' || a->k == b->k);
}
