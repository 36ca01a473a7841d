#include "tests/stress/idle_core_stress.h"

#include <algorithm>
#include <utility>

#include "impl/text.h"

namespace idlespec::idle_core::stress {

namespace {

bool touches_word(Kind k) { return k != Kind::p8_nap && k != Kind::p9_shallow; }

const char* loss_name(Loss l) {
  switch (l) {
    case Loss::none:
      return "none";
    case Loss::partial:
      return "partial";
    case Loss::full:
      return "full";
  }
  return "?";
}

}  // namespace

std::string describe_thread(unsigned t, const ThreadState& th) {
  std::string s = strprintf("t%u %s", t, std::string(pc_name(th.pc)).c_str());
  if (th.kind != Kind::none) {
    s += ' ';
    s += kind_name(th.kind);
  }
  if (th.lost != Loss::none) s += strprintf(" lost=%s", loss_name(th.lost));
  if (th.full_winkle) s += " full_winkle";
  if (th.first) s += " first";
  return s;
}

std::string check_options(const Options& o) {
  if (!o.config.valid()) return "invalid core configuration " + o.config.describe();
  if (!(o.seconds > 0) && o.iterations == 0) return "neither a time limit nor an iteration count";
  if (o.loss_percent > 100 || o.yield_percent > 100 || o.window_yield_percent > 100) {
    return "percentages must be 0..100";
  }
  if (!(o.stuck_seconds > 0)) return "stuck_seconds must be positive";
  return "";
}

std::string Result::summary(const Config& c) const {
  const Stats& s = stats;
  std::string out = strprintf(
      "%s: %llu cycles in %.2f s (%.0f/s), at least %llu per thread; losses: %llu partial, %llu "
      "full; %llu wake-ups with loss, %llu resyncs, %llu subcore restores, %llu quiescent "
      "checks, %llu spins",
      c.describe().c_str(), static_cast<unsigned long long>(s.cycles), s.seconds,
      s.cycles_per_second(), static_cast<unsigned long long>(s.min_cycles),
      static_cast<unsigned long long>(s.partial_losses),
      static_cast<unsigned long long>(s.full_losses), static_cast<unsigned long long>(s.loss_wakes),
      static_cast<unsigned long long>(s.resyncs),
      static_cast<unsigned long long>(s.subcore_restores),
      static_cast<unsigned long long>(s.quiescent_checks),
      static_cast<unsigned long long>(s.spins));
  if (first_violation_seconds >= 0) {
    out += strprintf("\nfirst violation after %.3f s:", first_violation_seconds);
  }
  for (const std::string& v : violations) out += "\n  " + v;
  return out;
}

Shared::Shared(const Options& o) : o_(o), start_(std::chrono::steady_clock::now()) {
  ghost_.subcore_regs_valid = static_cast<uint8_t>((1u << o.config.subcores) - 1);
  ghost_.thread_regs_valid = static_cast<uint8_t>(o.config.core_thread_mask());
}

double Shared::elapsed() const {
  const std::chrono::duration<double> d = std::chrono::steady_clock::now() - start_;
  return d.count();
}

Kind Shared::choose_kind(std::mt19937_64& rng) const {
  // mood 0: any kind alike; 1: mostly the deepest (full losses); 2: mostly
  // the middle one (partial losses). A shallow kind now and then in every
  // mood keeps the core from losing state.
  const bool p9 = o_.config.power9();
  const Kind shallow = p9 ? Kind::p9_shallow : Kind::p8_nap;
  const Kind middle = p9 ? Kind::p9_deep : Kind::p8_sleep;
  const Kind deepest = p9 ? Kind::p9_tb_loss : Kind::p8_winkle;
  const unsigned r = static_cast<unsigned>(rng() % 100);
  switch (mood_.load(std::memory_order_relaxed)) {
    case 1:
      return r < 3 ? shallow : r < 10 ? middle : deepest;
    case 2:
      return r < 3 ? shallow : r < 10 ? deepest : middle;
    default:
      return r < 20 ? shallow : r < 60 ? middle : deepest;
  }
}

bool Shared::wait_for_wake(unsigned t, Loss& lost) {
  std::unique_lock lk(m_);
  Slot& s = slots_[t];
  s.cv.wait(lk, [&] { return s.wake || aborted(); });
  if (aborted()) return false;
  s.wake = false;
  lost = s.lost;
  s.lost = Loss::none;
  if (lost != Loss::none) ++result_.stats.loss_wakes;
  return true;
}

void Shared::violation(std::string what) {
  std::lock_guard lk(m_);
  violation_locked(std::move(what));
}

void Shared::violation_locked(std::string what) {
  if (result_.violations.empty()) result_.first_violation_seconds = elapsed();
  if (result_.violations.size() < 8) result_.violations.push_back(std::move(what));
  aborted_.store(true, std::memory_order_relaxed);
  for (unsigned t = 0; t < o_.config.threads; ++t) slots_[t].cv.notify_all();
  core_cv_.notify_all();
}

void Shared::worker_exit(unsigned t, uint64_t spins) {
  std::lock_guard lk(m_);
  slots_[t].exited = true;
  ++exited_;
  result_.stats.spins += spins;
  core_cv_.notify_all();
}

void Shared::apply_wa() {
  std::lock_guard lk(m_);
  GhostEnv{o_.config, ghost_}.apply_wa();
}

void Shared::undo_wa() {
  std::lock_guard lk(m_);
  GhostEnv{o_.config, ghost_}.undo_wa();
}

void Shared::resync_tb(unsigned t, const ThreadState& th) {
  std::lock_guard lk(m_);
  ++result_.stats.resyncs;
  if (!th.first) {
    violation_locked(strprintf("IDLE-9: %s resynced the timebase without being the first awake",
                               describe_thread(t, th).c_str()));
  }
  GhostEnv{o_.config, ghost_}.resync_tb(t, th);
}

void Shared::restore_core() {
  std::lock_guard lk(m_);
  GhostEnv{o_.config, ghost_}.restore_core();
}

void Shared::restore_subcore(unsigned k) {
  std::lock_guard lk(m_);
  ++result_.stats.subcore_restores;
  GhostEnv{o_.config, ghost_}.restore_subcore(k);
}

void Shared::restore_thread(unsigned t) {
  std::lock_guard lk(m_);
  GhostEnv{o_.config, ghost_}.restore_thread(t);
}

void Shared::enter_hw_idle(unsigned t, Kind kind) {
  std::lock_guard lk(m_);
  Slot& s = slots_[t];
  s.idle = true;
  s.kind = kind;
  core_cv_.notify_all();
}

void Shared::returned(unsigned t, const ThreadState& th) {
  std::lock_guard lk(m_);
  const Config& c = o_.config;
  const char* regs_clause = c.power9() ? "IDLE-7" : "IDLE-5";
  const std::string who = describe_thread(t, th);
  if (!ghost_.tb_valid) {
    violation_locked(
        strprintf("IDLE-3: %s returned to running with the timebase invalid", who.c_str()));
  }
  if (!ghost_.core_regs_valid) {
    violation_locked(
        strprintf("%s: %s returned to running before the per-core registers were "
                  "restored",
                  regs_clause, who.c_str()));
  }
  if (!((ghost_.thread_regs_valid >> t) & 1)) {
    violation_locked(
        strprintf("%s: %s returned to running without its per-thread registers restored",
                  regs_clause, who.c_str()));
  }
  if (!c.power9() && !((ghost_.subcore_regs_valid >> c.subcore_of(t)) & 1)) {
    violation_locked(
        strprintf("IDLE-6: %s returned to running before the registers of subcore %u were restored",
                  who.c_str(), c.subcore_of(t)));
  }
  Slot& s = slots_[t];
  s.kind = Kind::none;
  ++s.cycles;
  ++result_.stats.cycles;
}

void Shared::wake_locked(unsigned t) {
  Slot& s = slots_[t];
  s.idle = false;
  s.wake = true;
  s.cv.notify_one();
}

std::string Shared::table_locked() const {
  std::string out;
  for (unsigned t = 0; t < o_.config.threads; ++t) {
    const Slot& s = slots_[t];
    out += strprintf("%st%u %s", t ? ", " : "", t, std::string(kind_name(s.kind)).c_str());
    if (s.lost != Loss::none) out += strprintf(" lost=%s", loss_name(s.lost));
  }
  return out;
}

// Every worker is in hardware idle and none has been woken: nobody touches
// the word, and every worker's last write to it happened before its
// enter_hw_idle (this mutex).
void Shared::quiescent_check_locked(uint64_t word) {
  const Config& c = o_.config;
  ++result_.stats.quiescent_checks;
  uint64_t awake_bits = 0;
  unsigned winklers = 0;
  for (unsigned t = 0; t < c.threads; ++t) {
    if (!touches_word(slots_[t].kind)) awake_bits |= uint64_t{1} << t;
    if (slots_[t].kind == Kind::p8_winkle) ++winklers;
  }
  const uint64_t mask = c.core_thread_mask();
  const uint64_t known = mask | (mask << kWinkleBitsShift) | kWinkleCountBits | kLock;
  const auto w = static_cast<uint32_t>(word);
  const std::string where = strprintf("word %s with every thread in hardware idle (%s)",
                                      describe_word(c, w).c_str(), table_locked().c_str());
  if (word & kLock) {
    violation_locked("IDLE-1: the lock is held by nobody: " + where);
  } else if ((word & mask) != awake_bits) {
    violation_locked("IDLE-2: the thread bits are not the threads in nap or a shallow stop: " +
                     where);
  } else if (idle_core::detail::winkle_count(word) != winklers) {
    violation_locked(strprintf("IDLE-5: the winkle count is not the %u winkling threads: %s",
                               winklers, where.c_str()));
  } else if (word & ~known) {
    violation_locked("IDLE-2: stray bits in the word: " + where);
  }
}

// Every worker is in hardware idle: the core may lose state, as
// apply(core_loss) in impl/idle_core_model.h does it (it is called here).
void Shared::maybe_loss_locked(std::mt19937_64& rng) {
  const Config& c = o_.config;
  CoreState s;
  s.ghost = ghost_;
  for (unsigned t = 0; t < c.threads; ++t) {
    s.th[t].pc = Pc::hw_idle;
    s.th[t].kind = slots_[t].kind;
    s.th[t].lost = slots_[t].lost;
  }
  const Loss level = core_loss_level(c, s);
  if (level == Loss::none || rng() % 100 >= o_.loss_percent) return;
  if (!c.power9() && c.fastsleep_workaround && !ghost_.wa_applied) {
    violation_locked(strprintf(
        "IDLE-4: the core loses state (%s) with the fastsleep workaround not applied (%s)",
        loss_name(level), table_locked().c_str()));
  }
  apply(c, s, Move{MoveKind::core_loss, 0, Kind::none});
  ghost_ = s.ghost;
  for (unsigned t = 0; t < c.threads; ++t) slots_[t].lost = s.th[t].lost;
  ++(level == Loss::full ? result_.stats.full_losses : result_.stats.partial_losses);
}

void Shared::run_core(const std::function<uint64_t()>& read_word) {
  const Config& c = o_.config;
  std::mt19937_64 rng(o_.seed ^ 0x5eed0fc07eull);
  std::unique_lock lk(m_);
  std::array<unsigned, kMaxThreads> idle{};
  while (!aborted() && exited_ < c.threads) {
    if (!stopping()) {
      uint64_t min_cycles = UINT64_MAX;
      for (unsigned t = 0; t < c.threads; ++t) min_cycles = std::min(min_cycles, slots_[t].cycles);
      if ((o_.seconds > 0 && elapsed() >= o_.seconds) ||
          (o_.iterations != 0 && min_cycles >= o_.iterations)) {
        stopping_.store(true, std::memory_order_relaxed);
      }
    }
    unsigned n = 0;
    for (unsigned t = 0; t < c.threads; ++t) {
      if (slots_[t].idle) idle[n++] = t;
    }
    if (stopping()) {  // wake everyone; no more losses
      for (unsigned i = 0; i < n; ++i) wake_locked(idle[i]);
    } else if (n == c.threads) {
      quiescent_check_locked(read_word());
      if (aborted()) break;
      maybe_loss_locked(rng);
      if (aborted()) break;
      if (rng() % 2) {
        for (unsigned i = 0; i < n; ++i) wake_locked(idle[i]);
      } else {
        wake_locked(idle[rng() % n]);
      }
    } else if (n != 0 && rng() % 4 == 0) {
      wake_locked(idle[rng() % n]);
    }
    if (rng() % 256 == 0) mood_.store(static_cast<unsigned>(rng() % 3), std::memory_order_relaxed);
    core_cv_.wait_for(lk, std::chrono::microseconds(20 + rng() % 200));
  }
}

Result Shared::finish(uint64_t final_word) {
  std::lock_guard lk(m_);
  const Config& c = o_.config;
  Result r = result_;
  r.stats.seconds = elapsed();
  r.stats.min_cycles = UINT64_MAX;
  for (unsigned t = 0; t < c.threads; ++t) {
    r.stats.min_cycles = std::min(r.stats.min_cycles, slots_[t].cycles);
  }
  if (r.ok() && final_word != c.core_thread_mask()) {
    r.violations.push_back(
        strprintf("IDLE-2: every thread is running again, but the word is %s (0x%llx)",
                  describe_word(c, static_cast<uint32_t>(final_word)).c_str(),
                  static_cast<unsigned long long>(final_word)));
    r.first_violation_seconds = r.stats.seconds;
  }
  return r;
}

}  // namespace idlespec::idle_core::stress
