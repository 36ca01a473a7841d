// oracle/idle_core_c.h: the idle_core oracle behind a C interface.
#include "oracle/idle_core_c.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>
#include <string>

#include "oracle/idle_core.h"

namespace oc = idlespec::idle_core::oracle;
namespace ic = idlespec::idle_core;

static_assert(ICX_BEGIN_IDLE == int(ic::MoveKind::begin_idle) &&
              ICX_STEP == int(ic::MoveKind::step) && ICX_WAKE == int(ic::MoveKind::wake) &&
              ICX_CORE_LOSS == int(ic::MoveKind::core_loss));
static_assert(ICX_P8_NAP == int(ic::Kind::p8_nap) && ICX_P8_SLEEP == int(ic::Kind::p8_sleep) &&
              ICX_P8_WINKLE == int(ic::Kind::p8_winkle) &&
              ICX_P9_SHALLOW == int(ic::Kind::p9_shallow) &&
              ICX_P9_DEEP == int(ic::Kind::p9_deep) && ICX_P9_TB_LOSS == int(ic::Kind::p9_tb_loss));
static_assert(ICX_LOSS_PARTIAL == int(ic::Loss::partial) && ICX_LOSS_FULL == int(ic::Loss::full));
static_assert(ICX_EV_SPIN == int(ic::Event::spin) && ICX_EV_APPLY_WA == int(ic::Event::apply_wa) &&
              ICX_EV_UNDO_WA == int(ic::Event::undo_wa) &&
              ICX_EV_RESYNC_TB == int(ic::Event::resync_tb) &&
              ICX_EV_ENTER_HW_IDLE == int(ic::Event::enter_hw_idle) &&
              ICX_EV_WOKE == int(ic::Event::woke) && ICX_EV_BUG == int(ic::Event::bug));

struct icx_oracle {
  explicit icx_oracle(const ic::Config& c) : oracle(c) {}
  oc::Oracle oracle;
  oc::Violations found;  // reused: judging allocates nothing while it holds
};

namespace {
// The message without the oracle's "move N: " (the harness numbers its own).
void message_to(const oc::Verdict& v, char* msg, size_t cap) {
  std::string text = v.message;
  if (text.compare(0, 5, "move ") == 0) {
    if (const size_t colon = text.find(": "); colon != std::string::npos) text.erase(0, colon + 2);
  }
  if (cap > 0) std::snprintf(msg, cap, "%s", text.c_str());
}
int clause_number(const oc::Verdict& v) {
  if (v.clause.compare(0, 5, "IDLE-") == 0) return std::atoi(v.clause.c_str() + 5);
  return -1;
}
int report(oc::Violations& found, icx_found* out, int max) {
  int n = 0;
  for (const oc::Verdict& v : found) {
    if (n >= max) break;
    out[n].clause = clause_number(v);
    message_to(v, out[n].msg, sizeof out[n].msg);
    ++n;
  }
  found.clear();
  return n;
}
}  // namespace

extern "C" {

icx_oracle* icx_new(int power9, unsigned threads, unsigned subcores, int fastsleep_workaround) {
  const ic::Config c =
      ic::Config::of(power9 ? idlespec::Platform::power9 : idlespec::Platform::power8, threads,
                     subcores ? subcores : 1, fastsleep_workaround != 0);
  if (!c.valid()) return nullptr;
  return new (std::nothrow) icx_oracle(c);
}

void icx_free(icx_oracle* o) { delete o; }

void icx_reset(icx_oracle* o) {
  o->oracle = oc::Oracle(o->oracle.config());
  o->found.clear();
}

void icx_registers(icx_oracle* o, int core, uint32_t subcore_mask, uint32_t thread_mask) {
  o->oracle.observe_registers(core != 0, subcore_mask, thread_mask);
}

int icx_observe(icx_oracle* o, const icx_obs* obs, char* msg, size_t cap) {
  ic::Transition tr;
  tr.move.kind = static_cast<ic::MoveKind>(obs->move);
  tr.move.thread = static_cast<uint8_t>(obs->thread);
  tr.move.idle = static_cast<ic::Kind>(obs->kind);
  tr.result.event = static_cast<ic::Event>(obs->event);
  tr.result.returned = obs->returned != 0;
  tr.result.what = obs->what;
  tr.loss = static_cast<ic::Loss>(obs->loss);
  oc::Oracle::Seen seen;
  seen.decided_known = obs->decided_known != 0;
  seen.decided = obs->decided;
  seen.move_number = obs->move_number;
  seen.holders_known = obs->holders_known != 0;
  seen.holders = obs->holders;
  const oc::Verdict v = o->oracle.observe(tr, obs->word_after, seen);
  if (v.ok()) return 0;
  message_to(v, msg, cap);
  return clause_number(v);
}

int icx_state(icx_oracle* o, uint32_t word, uint32_t holders, icx_found* out, int max) {
  oc::Oracle::Seen seen;
  seen.holders_known = true;
  seen.holders = holders;
  o->oracle.judge_state(word, seen, o->found);
  return report(o->found, out, max);
}

int icx_store(icx_oracle* o, unsigned t, uint32_t before, uint32_t after, uint32_t holders,
              icx_found* out, int max) {
  o->oracle.observe_store(t, before, after, holders, o->found);
  return report(o->found, out, max);
}

int icx_stuck(icx_oracle* o, icx_found* out, int max) {
  o->oracle.stuck_all(o->found);
  return report(o->found, out, max);
}

int icx_breaks_idle8(uint32_t enabled, uint32_t taken, uint32_t inside) {
  oc::Obligations e, t;
  e.w[0] = enabled;
  t.w[0] = taken;
  return oc::breaks_idle8(e, t, inside) ? 1 : 0;
}

unsigned icx_charged(const icx_oracle* o, int clause) {
  if (!o) return clause >= 1 && clause <= 9 ? 1u << clause : 1u << 1;
  const oc::Verdict v(clause >= 1 && clause <= 9 ? "IDLE-" + std::to_string(clause) : "model", "");
  return oc::charged_clauses(o->oracle.config(), v);
}

}  // extern "C"
