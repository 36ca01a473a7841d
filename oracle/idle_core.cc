// The idle_core oracle (oracle/idle_core.h): spec/idle_core.md's
// clauses over the observable events of a run. Named *_check.cc so that the
// fuzz-check library's glob compiles it; the properties layer uses it too.
#include "oracle/idle_core.h"

#include <algorithm>
#include <cstring>

#include "impl/text.h"

namespace idlespec::idle_core::oracle {
namespace {

// The word's fields, as spec/idle_core.md's table lays them out (written out
// again here on purpose).
constexpr uint32_t kSpecLockBit = uint32_t{1} << 28;
constexpr unsigned kSpecCountShift = 16;
constexpr uint32_t kSpecCountMask = 0xf;
constexpr uint32_t kSpecThreadBits = 0xff;
constexpr uint32_t kSpecWinkleBits = 0xffu << 8;

const char* loss_text(const Config& c, Loss l) {
  if (l == Loss::none) return "no loss";
  if (c.power9()) return l == Loss::full ? "deep stop with timebase loss" : "deep stop";
  return l == Loss::full ? "full winkle" : "fastsleep";
}

}  // namespace

const char* phase_name(Phase p) {
  switch (p) {
    case Phase::running:
      return "running";
    case Phase::entering:
      return "entering idle";
    case Phase::hw_idle:
      return "in hardware idle";
    case Phase::waking:
      return "on the wake path";
  }
  return "?";
}

Oracle::Oracle(const Config& c) : config_(c) {
  for (unsigned k = 0; k < kMaxThreads; ++k) {
    core_.subcore_regs[k] = true;
    core_.thread_regs[k] = true;
  }
}

std::array<Kind, 3> Oracle::kinds() const {
  if (config_.power9()) return {Kind::p9_shallow, Kind::p9_deep, Kind::p9_tb_loss};
  return {Kind::p8_nap, Kind::p8_sleep, Kind::p8_winkle};
}

bool Oracle::word_kind(Kind k) const {
  return config_.power9() ? (k == Kind::p9_deep || k == Kind::p9_tb_loss)
                          : (k == Kind::p8_sleep || k == Kind::p8_winkle);
}

bool Oracle::deepest_kind(Kind k) const {
  return config_.power9() ? k == Kind::p9_tb_loss : k == Kind::p8_winkle;
}

bool Oracle::certainly_awake(unsigned t) const {
  const ThreadView& v = th_[t];
  return v.phase == Phase::running || !word_kind(v.kind);
}

unsigned Oracle::subcore(unsigned t) const {
  // Split-core mode: `subcores` equal, contiguous groups of threads.
  const unsigned per = config_.threads / (config_.subcores ? config_.subcores : 1);
  return per ? t / per : 0;
}

Loss Oracle::loss_possible() const {
  bool all_deepest = true;
  for (unsigned t = 0; t < config_.threads; ++t) {
    const ThreadView& v = th_[t];
    if (v.phase != Phase::hw_idle || !word_kind(v.kind)) return Loss::none;
    all_deepest = all_deepest && deepest_kind(v.kind);
  }
  const Loss level = all_deepest ? Loss::full : Loss::partial;
  for (unsigned t = 0; t < config_.threads; ++t) {
    if (th_[t].lost < level) return level;
  }
  return Loss::none;
}

Verdict Oracle::violation_text(const char* clause, std::string message) const {
  return {clause, strprintf("move %zu: ", n_) + message};
}

Verdict Oracle::observe(const Transition& tr, uint32_t word_after) {
  return observe(tr, word_after, Seen{});
}

void Oracle::observe_registers(bool core, uint32_t subcore_mask, uint32_t thread_mask) {
  if (core_.core_regs && !core) core_.core_lost_at = n_;
  core_.core_regs = core;
  for (unsigned k = 0; k < config_.subcores && k < kMaxThreads; ++k) {
    const bool holds = (subcore_mask >> k) & 1;
    if (core_.subcore_regs[k] && !holds) core_.regs_lost_at = n_;
    core_.subcore_regs[k] = holds;
  }
  for (unsigned t = 0; t < config_.threads; ++t) {
    const bool holds = (thread_mask >> t) & 1;
    if (core_.thread_regs[t] && !holds) core_.regs_lost_at = n_;
    core_.thread_regs[t] = holds;
  }
}

Verdict Oracle::observe(const Transition& tr, uint32_t word_after, const Seen& seen) {
  Violations all;
  observe_all(tr, word_after, seen, all);
  return all.empty() ? Verdict{} : std::move(all.front());
}

void Oracle::observe_all(const Transition& tr, uint32_t word_after, const Seen& seen,
                         Violations& out) {
  n_ = seen.move_number ? seen.move_number : n_ + 1;
  const size_t before = out.size();
  Verdict v = tr.move.kind == MoveKind::core_loss ? judge_loss(tr) : judge_thread(tr, seen);
  if (!v.ok()) out.push_back(std::move(v));
  if (tr.move.kind != MoveKind::core_loss && tr.result.returned && seen.holders_known &&
      ((seen.holders >> tr.move.thread) & 1)) {
    out.push_back(violation("IDLE-1", [&] {
      return strprintf("t%u returned to running holding the lock", unsigned{tr.move.thread});
    }));
  }
  if (seen.word_known) {
    judge_state(word_after, seen, out);
    // What the threads on the wake path may have read (IDLE-9).
    const uint32_t bits = word_after & static_cast<uint32_t>((1u << config_.threads) - 1);
    for (unsigned t = 0; t < config_.threads; ++t) {
      if (th_[t].phase != Phase::waking) continue;
      th_[t].never_empty = th_[t].never_empty && bits != 0;
      th_[t].set_throughout &= bits;
    }
  }
  if (out.size() > before && first_.ok()) {
    first_ = out[before];
    first_at_ = n_;
  }
}

void Oracle::judge_state(uint32_t word, const Seen& seen, Violations& out) const {
  judge_lock(word, seen, out);
  judge_bits(word, seen, out);
  judge_count(word, seen, out);
}

Verdict Oracle::stuck() const {
  std::string who;
  for (unsigned t = 0; t < config_.threads; ++t) {
    if (th_[t].phase != Phase::running) {
      who += strprintf(" t%u (%s)", t, phase_name(th_[t].phase));
    }
  }
  return violation("IDLE-1", [&] {
    return std::string("no enabled move changes the state: every thread is stuck:" + who);
  });
}

void Oracle::stuck_all(Violations& out) const {
  if (Verdict v = stuck(); !v.ok()) out.push_back(std::move(v));
  for (unsigned t = 0; t < config_.threads; ++t) {
    if (th_[t].phase != Phase::waking) continue;
    out.push_back(violation("IDLE-8", [&] {
      return strprintf("t%u woke at move %zu and can never return: no move is left", t,
                       th_[t].woke_at);
    }));
  }
}

Obligations unmet(const Obligations& enabled, const Obligations& taken) {
  Obligations u;
  for (unsigned i = 0; i < 4; ++i) u.w[i] = enabled.w[i] & ~taken.w[i];
  return u;
}

bool breaks_idle8(const Obligations& enabled, const Obligations& taken, uint32_t inside) {
  return inside != 0 && !unmet(enabled, taken).any();
}

void Oracle::restart(const Snapshot& s, size_t move_number) {
  for (unsigned t = 0; t < config_.threads; ++t) {
    ThreadView& v = th_[t];
    v.phase = s.phase[t];
    v.kind = s.kind[t];
    v.lost = s.lost[t];
    v.woke_at = 0;
    v.never_empty = false;  // unknown: the observer says what the thread found
    v.set_throughout = 0;
  }
  core_.tb_valid = s.tb_valid;
  core_.wa_applied = s.wa_applied;
  core_.core_regs = s.core_regs;
  for (unsigned k = 0; k < config_.threads; ++k) {
    core_.subcore_regs[k] = (s.subcore_regs >> k) & 1;
    core_.thread_regs[k] = (s.thread_regs >> k) & 1;
  }
  core_.tb_lost_at = core_.core_lost_at = core_.regs_lost_at = 0;
  n_ = move_number ? move_number - 1 : 0;
  if (!first_.ok()) first_ = {};
  first_at_ = 0;
}

uint32_t charged_clauses(const Config& c, const Verdict& v) {
  if (v.ok()) return 0;
  unsigned n = 0;
  if (v.clause.size() >= 6 && v.clause.size() <= 7 && v.clause.compare(0, 5, "IDLE-") == 0) {
    for (size_t i = 5; i < v.clause.size(); ++i) {
      if (v.clause[i] < '0' || v.clause[i] > '9') {
        n = 0;
        break;
      }
      n = n * 10 + static_cast<unsigned>(v.clause[i] - '0');
    }
    if (n > 10) n = 0;
  }
  if (!c.power9()) return 1u << (n ? n : 1);
  // liveness, efficiency and data races: their own on POWER9 too
  if (n == 8 || n == 9 || n == 10) return 1u << n;
  if (n >= 1 && n <= 3) return (1u << n) | (1u << 7);
  return 1u << 7;
}

Verdict Oracle::judge_loss(const Transition& tr) {
  const Loss expected = loss_possible();
  if (expected == Loss::none || tr.loss != expected) {
    return violation("model", [&] {
      return std::string(strprintf(
          "the core lost state (%s) where the spec's model allows %s", loss_text(config_, tr.loss),
          expected == Loss::none ? "no loss" : loss_text(config_, expected)));
    });
  }
  Verdict v;
  if (!config_.power9() && config_.fastsleep_workaround && !core_.wa_applied) {
    v = violation("IDLE-4", [&] {
      return std::string(std::string("the core entered its state-loss state (") +
                         loss_text(config_, tr.loss) +
                         ") without the fastsleep workaround applied");
    });
  }
  for (unsigned t = 0; t < config_.threads; ++t) th_[t].lost = std::max(th_[t].lost, tr.loss);
  const bool full = tr.loss == Loss::full;
  // POWER8: fastsleep and winkle both lose the timebase; a full winkle the
  // registers too. POWER9: deep stop loses the SPRs (per-core, per-thread),
  // the timebase-loss level the timebase too.
  const bool tb = config_.power9() ? full : true;
  const bool core = config_.power9() ? true : full;
  if (tb) {
    core_.tb_valid = false;
    core_.tb_lost_at = n_;
  }
  if (core) {
    core_.core_regs = false;
    core_.core_lost_at = n_;
    core_.regs_lost_at = n_;
    for (unsigned t = 0; t < config_.threads; ++t) core_.thread_regs[t] = false;
    if (!config_.power9()) {
      for (unsigned k = 0; k < config_.subcores; ++k) core_.subcore_regs[k] = false;
    }
  }
  return v;
}

Verdict Oracle::judge_thread(const Transition& tr, const Seen& seen) {
  const unsigned t = tr.move.thread;
  if (t >= config_.threads)
    return violation("model",
                     [&] { return std::string(strprintf("no thread t%u on this core", t)); });
  ThreadView& me = th_[t];
  const Event e = tr.result.event;
  if (e == Event::bug) {
    const char* what = tr.result.what ? tr.result.what : "?";
    const std::string text =
        strprintf("t%u (%s) hit a kernel assertion: %s", t, phase_name(me.phase), what);
    // Charged to the invariant the assertion guards: the lock bit, the
    // winkle count or the saved registers, a thread bit (the kernel's
    // assertions test `s & thread`, `s & me`, `seen & ...`).
    if (std::strstr(what, "LOCK")) return violation("IDLE-1", [&] { return std::string(text); });
    if (std::strstr(what, "winkle") || std::strstr(what, "WINKLE") || std::strstr(what, "saved")) {
      return violation("IDLE-5", [&] { return std::string(text); });
    }
    for (const char* bit : {"thread", "& me", "(s & ", "seen & "}) {
      if (std::strstr(what, bit)) return violation("IDLE-2", [&] { return std::string(text); });
    }
    return violation("model", [&] { return std::string(text); });
  }
  switch (tr.move.kind) {
    case MoveKind::begin_idle: {
      if (me.phase != Phase::running) {
        return violation("model", [&] {
          return std::string(strprintf("t%u began idle while %s", t, phase_name(me.phase)));
        });
      }
      const auto ks = kinds();
      if (std::find(ks.begin(), ks.end(), tr.move.idle) == ks.end()) {
        return violation("model", [&] {
          return std::string(strprintf("t%u began %s, not a kind of this platform", t,
                                       std::string(kind_name(tr.move.idle)).c_str()));
        });
      }
      me.phase = Phase::entering;
      me.kind = tr.move.idle;
      me.lost = Loss::none;
      return {};
    }
    case MoveKind::wake:
      if (me.phase != Phase::hw_idle) {
        return violation("model", [&] {
          return std::string(strprintf("t%u woken while %s", t, phase_name(me.phase)));
        });
      }
      me.phase = Phase::waking;
      me.woke_at = n_;
      me.never_empty = true;
      me.set_throughout = 0xff;
      if (tr.result.returned) return judge_return(t);
      if (e != Event::woke) {
        return violation(
            "model", [&] { return std::string(strprintf("t%u's wake-up reported no wake", t)); });
      }
      return {};
    case MoveKind::step:
      break;
    case MoveKind::core_loss:
      return {};
  }
  if (me.phase != Phase::entering && me.phase != Phase::waking) {
    return violation("model", [&] {
      return std::string(strprintf("t%u stepped while %s", t, phase_name(me.phase)));
    });
  }
  switch (e) {
    case Event::none:
    case Event::spin:
      break;
    case Event::apply_wa:
      core_.wa_applied = true;
      break;
    case Event::undo_wa:
      core_.wa_applied = false;
      break;
    case Event::resync_tb: {
      if (seen.found_known && seen.found_awake) {
        return violation("IDLE-9", [&] {
          return std::string(
              strprintf("t%u resynced the timebase although it had found a thread bit "
                        "set: it is not the first awake",
                        t));
        });
      }
      if (seen.decided_known) {
        // IDLE-9 on the word it decided on: another thread's bit set there
        // means it found that thread awake.
        const uint32_t mask = static_cast<uint32_t>((1u << config_.threads) - 1);
        const uint32_t others = seen.decided & mask & ~(1u << t);
        core_.tb_valid = true;
        if (others) {
          return violation("IDLE-9", [&] {
            return std::string(
                strprintf("t%u resynced the timebase having found other threads awake "
                          "(it decided on the word %#x): it is not the first awake",
                          t, seen.decided));
          });
        }
        break;
      }
      if (seen.found_known) {
        core_.tb_valid = true;
        break;
      }
      // IDLE-9: only a thread that found no thread bit set resyncs. Whenever
      // this one read the word, it was one of the states since it woke: if
      // none of them had every thread bit clear, it found a bit set.
      if (me.never_empty) {
        std::string who;
        for (unsigned u = 0; u < config_.threads; ++u) {
          if ((me.set_throughout >> u) & 1) who += strprintf("%st%u", who.empty() ? "" : ", ", u);
        }
        return violation("IDLE-9", [&] {
          return std::string(strprintf(
              "t%u resynced the timebase, but no state of the word since it woke at move "
              "%zu had every thread bit clear (%s): it found a bit set, it is not the "
              "first awake",
              t, me.woke_at,
              who.empty() ? "some bit was set in each" : ("set throughout: " + who).c_str()));
        });
      }
      core_.tb_valid = true;
      break;
    }
    case Event::restore_core:
      core_.core_regs = true;
      break;
    case Event::restore_subcore:
      core_.subcore_regs[subcore(t)] = true;
      break;
    case Event::restore_thread:
      if (seen.saved_known && !seen.saved) {
        return violation(config_.power9() ? "IDLE-7" : "IDLE-5", [&] {
          return std::string(strprintf("t%u restored per-thread registers it had never saved", t));
        });
      }
      core_.thread_regs[t] = true;
      break;
    case Event::enter_hw_idle:
      if (me.phase != Phase::entering) {
        return violation("model", [&] {
          return std::string(
              strprintf("t%u executed the idle instruction while %s", t, phase_name(me.phase)));
        });
      }
      me.phase = Phase::hw_idle;
      me.lost = Loss::none;
      break;
    case Event::woke:
    case Event::bug:
      return violation(
          "model", [&] { return std::string(strprintf("t%u reported a wake-up on a step", t)); });
  }
  if (tr.result.returned) {
    if (me.phase != Phase::waking) {
      return violation("model", [&] {
        return std::string(strprintf("t%u returned to running while %s", t, phase_name(me.phase)));
      });
    }
    return judge_return(t);
  }
  return {};
}

Verdict Oracle::judge_return(unsigned t) {
  ThreadView& me = th_[t];
  me.phase = Phase::running;
  me.kind = Kind::none;
  me.lost = Loss::none;
  if (!core_.tb_valid) {
    return violation("IDLE-3", [&] {
      return std::string(
          strprintf("t%u returned to running with the timebase invalid (lost at move "
                    "%zu, no resync since)",
                    t, core_.tb_lost_at));
    });
  }
  if (!core_.core_regs) {
    return violation("IDLE-5", [&] {
      return std::string(
          strprintf("t%u returned to running before the per-core registers were "
                    "restored (lost at move %zu)",
                    t, core_.core_lost_at));
    });
  }
  if (!config_.power9() && !core_.subcore_regs[subcore(t)]) {
    return violation("IDLE-6", [&] {
      return std::string(
          strprintf("t%u returned to running before the registers of its subcore %u "
                    "were restored (lost by the full winkle at move %zu)",
                    t, subcore(t), core_.regs_lost_at));
    });
  }
  if (!core_.thread_regs[t]) {
    return violation(config_.power9() ? "IDLE-7" : "IDLE-5", [&] {
      return std::string(
          strprintf("t%u returned to running without restoring its per-thread registers (lost by "
                    "the %s at move %zu)",
                    t, config_.power9() ? "deep stop" : "full winkle", core_.regs_lost_at));
    });
  }
  return {};
}

namespace {
std::string thread_list(unsigned n, uint32_t mask) {
  std::string s;
  for (unsigned t = 0; t < n; ++t) {
    if ((mask >> t) & 1) s += strprintf(" t%u", t);
  }
  return s;
}
std::string bit_string(unsigned n, uint32_t v) {
  std::string s;
  for (unsigned t = 0; t < n; ++t) s += (v >> t) & 1 ? '1' : '0';
  return s;
}
}  // namespace

void Oracle::judge_lock(uint32_t word, const Seen& seen, Violations& out) const {
  if (!seen.holders_known) return;
  const uint32_t holders = seen.holders & static_cast<uint32_t>((1u << config_.threads) - 1);
  if (holders & (holders - 1)) {
    out.push_back(violation("IDLE-1", [&] {
      return std::string("the lock is held by more than one thread:" +
                         thread_list(config_.threads, holders));
    }));
    return;
  }
  const bool bit = (word & kSpecLockBit) != 0;
  if (bit && !holders) {
    out.push_back(violation(
        "IDLE-1", [&] { return std::string("the lock bit is set and no thread holds the lock"); }));
    return;
  }
  if (!bit && holders) {
    out.push_back(violation("IDLE-1", [&] {
      return std::string("the lock bit is clear, but" + thread_list(config_.threads, holders) +
                         " holds the lock");
    }));
    return;
  }
}

void Oracle::observe_store(unsigned t, uint32_t before, uint32_t after, uint32_t holders,
                           Violations& out) const {
  if (t >= config_.threads || ((holders >> t) & 1)) return;
  const uint32_t changed = before ^ after;
  const auto lost_update = [&](const char* what) {
    return strprintf(
        "t%u changed %s with a plain store (%#x -> %#x) without holding the lock (its load and "
        "its store are two steps: another thread's update between them is lost)",
        t, what, before, after);
  };
  if (changed & kSpecThreadBits) {
    out.push_back(violation("IDLE-2", [&] { return lost_update("the thread bits"); }));
  }
  if (!config_.power9() && (changed & ((kSpecCountMask << kSpecCountShift) | kSpecWinkleBits))) {
    out.push_back(
        violation("IDLE-5", [&] { return lost_update("the winkle count or the winkle bits"); }));
  }
}

void Oracle::judge_bits(uint32_t word, const Seen& seen, Violations& out) const {
  if (word & kSpecLockBit) return;
  const uint32_t mask = static_cast<uint32_t>((1u << config_.threads) - 1);
  if (seen.cleared_known) {
    const uint32_t expected = ~seen.cleared & mask;
    if ((word & 0xff) != expected) {
      out.push_back(violation("IDLE-2", [&] {
        return std::string(
            strprintf("the lock is free and the thread bits are %s, but the threads not "
                      "between \"clear own bit\" and \"set own bit\" are %s",
                      bit_string(config_.threads, word).c_str(),
                      bit_string(config_.threads, expected).c_str()));
      }));
      return;
    }
    return;
  }
  for (unsigned t = 0; t < kMaxThreads; ++t) {
    const bool set = (word >> t) & 1;
    if (t >= config_.threads) {
      if (set) {
        out.push_back(violation("IDLE-2", [&] {
          return std::string(
              strprintf("the lock is free and bit %u is set, but the core "
                        "has %u threads",
                        t, config_.threads));
        }));
        return;
      }
      continue;
    }
    if (certainly_awake(t) && !set) {
      out.push_back(violation("IDLE-2", [&] {
        return std::string(strprintf("the lock is free and t%u's bit is clear, but t%u is %s", t, t,
                                     th_[t].phase == Phase::running
                                         ? "running"
                                         : "in nap or a shallow stop (it never clears its bit)"));
      }));
      return;
    }
    if (th_[t].phase == Phase::hw_idle && word_kind(th_[t].kind) && set) {
      out.push_back(violation("IDLE-2", [&] {
        return std::string(
            strprintf("the lock is free and t%u's bit is set, but t%u is in hardware "
                      "idle in %s",
                      t, t, std::string(kind_name(th_[t].kind)).c_str()));
      }));
      return;
    }
  }
}

void Oracle::judge_count(uint32_t word, const Seen& seen, Violations& out) const {
  if (config_.power9()) return;
  const unsigned count = (word >> kSpecCountShift) & kSpecCountMask;
  if (seen.counted_known) {
    if (count != seen.counted || count > config_.threads) {
      out.push_back(violation("IDLE-5", [&] {
        return std::string(
            strprintf("the winkle count is %u but %u thread(s) are between their "
                      "count+1 and count-1 (threads per core: %u)",
                      count, seen.counted, config_.threads));
      }));
      return;
    }
    return;
  }
  unsigned lo = 0;
  unsigned hi = 0;
  for (unsigned t = 0; t < config_.threads; ++t) {
    if (th_[t].kind != Kind::p8_winkle) continue;
    if (th_[t].phase == Phase::hw_idle) ++lo;
    if (th_[t].phase != Phase::running) ++hi;
  }
  if (count < lo || count > hi || count > config_.threads) {
    out.push_back(violation("IDLE-5", [&] {
      return std::string(
          strprintf("the winkle count is %u, but %u winkle thread%s in hardware idle and %u "
                    "between entering and returning (the count must lie between them, and at "
                    "most %u)",
                    count, lo, lo == 1 ? " is" : "s are", hi, config_.threads));
    }));
    return;
  }
}

// --- timelines ---------------------------------------------------------------

std::string describe_cell(const Transition& tr) {
  // For people only: the step's program point names the action (the oracle
  // never judges by it).
  const StepResult& r = tr.result;
  std::string s;
  switch (tr.move.kind) {
    case MoveKind::begin_idle:
      s = "begin " + std::string(kind_name(tr.move.idle));
      break;
    case MoveKind::wake:
      s = "wakes";
      if (tr.before.lost == Loss::partial) s += " (lost: partial)";
      if (tr.before.lost == Loss::full) s += " (lost: full)";
      break;
    case MoveKind::step:
      s = std::string(pc_name(tr.before.pc));
      if (r.event == Event::spin) s += " (spin)";
      if (r.event == Event::enter_hw_idle) s += " -> hw idle";
      break;
    case MoveKind::core_loss:
      s = tr.loss == Loss::full ? "LOSS: full" : "LOSS: partial";
      break;
  }
  if (r.event == Event::bug) s += std::string(" BUG: ") + (r.what ? r.what : "?");
  if (r.returned) s += " -> running";
  return s;
}

std::string render_timeline(const Config& c, const std::vector<Row>& rows, size_t mark,
                            const std::string& note, size_t max_rows) {
  const unsigned ncols = c.threads + 1;  // threads, then the core
  std::vector<std::vector<std::string>> cells(rows.size(), std::vector<std::string>(ncols));
  std::vector<size_t> width(ncols, 4);
  for (unsigned t = 0; t < c.threads; ++t) width[t] = 3;
  for (size_t i = 0; i < rows.size(); ++i) {
    const Transition& tr = rows[i].tr;
    const unsigned col = tr.move.kind == MoveKind::core_loss ? c.threads : tr.move.thread;
    if (col >= ncols) continue;
    cells[i][col] = describe_cell(tr);
    width[col] = std::max(width[col], cells[i][col].size());
  }
  const size_t num_width = std::to_string(rows.size()).size();
  auto line = [&](const std::string& num, const std::vector<std::string>& cols,
                  const std::string& word, const std::string& tail) {
    std::string out = std::string(num_width - std::min(num_width, num.size()), ' ') + num;
    for (unsigned k = 0; k < ncols; ++k) {
      out += "  " + cols[k] + std::string(width[k] - std::min(width[k], cols[k].size()), ' ');
    }
    out += "  " + word + tail;
    while (!out.empty() && out.back() == ' ') out.pop_back();
    return out + "\n";
  };
  std::vector<std::string> head(ncols);
  for (unsigned t = 0; t < c.threads; ++t) head[t] = strprintf("t%u", t);
  head[c.threads] = "core";
  std::string out = c.describe() + "\n" + line("#", head, "word after", "");
  const size_t keep_head = std::min<size_t>(20, max_rows / 4);
  const bool elide = rows.size() > max_rows;
  const size_t tail_from = elide ? rows.size() - (max_rows - keep_head) : 0;
  for (size_t i = 0; i < rows.size(); ++i) {
    if (elide && i == keep_head) {
      out += strprintf("%*s  ... %zu moves ...\n", static_cast<int>(num_width), "",
                       tail_from - keep_head);
    }
    if (elide && i >= keep_head && i < tail_from) continue;
    const std::string tail = (i + 1 == mark) ? "   <== " + note : "";
    out += line(std::to_string(i + 1), cells[i], describe_word(c, rows[i].word_after), tail);
  }
  return out;
}

}  // namespace idlespec::idle_core::oracle

namespace idlespec::idle_core::oracle {

Verdict data_race(const std::string& word, const Access& now, const Access& earlier,
                  size_t move_number) {
  Verdict v;
  if (now.thread == earlier.thread) return v;
  if (!now.store && !earlier.store) return v;
  if (!now.plain && !earlier.plain) return v;
  const auto say = [](const Access& a) {
    return strprintf("t%u's %s %s at %s", a.thread, a.plain ? "plain" : "marked",
                     a.store ? "store" : "load", a.where.c_str());
  };
  v.clause = "IDLE-10";
  v.message = strprintf("move %zu: data race on %s: %s and %s, not ordered by happens-before",
                        move_number, word.c_str(), say(now).c_str(), say(earlier).c_str());
  if (now.lock_op != earlier.lock_op) {
    v.message +=
        " (the lock's operations on the word its section updates plainly: the race b0c5b4f1ee36 "
        "\"powerpc: powernv: Fix KCSAN datarace warnings on idle_state contention\" removed, "
        "v6.5, by moving the lock into paca->idle_lock)";
  }
  return v;
}

}  // namespace idlespec::idle_core::oracle
