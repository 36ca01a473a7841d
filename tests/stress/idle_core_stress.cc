#include "tests/stress/idle_core_stress.h"

#include <algorithm>
#include <utility>

#include "impl/text.h"

namespace idlespec::idle_core::stress {

namespace {

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

Shared::Shared(const Options& o)
    : o_(o), start_(std::chrono::steady_clock::now()), oracle_(o.config) {}

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

void Shared::report_locked(oracle::Violations& found, const std::string& context) {
  for (const oracle::Verdict& v : found) {
    std::string clause = v.clause;
    if (clause == "model") {  // the platform's catch-all (oracle::charged_clauses)
      const uint32_t bits = oracle::charged_clauses(o_.config, v);
      for (unsigned n = 1; n < 32; ++n) {
        if ((bits >> n) & 1) {
          clause = strprintf("IDLE-%u", n);
          break;
        }
      }
    }
    violation_locked(clause + ": " + v.message + context);
  }
  found.clear();
}

void Shared::observe_locked(const Transition& tr, const oracle::Oracle::Seen& seen,
                            const std::string& context) {
  if (read_anytime_) {
    oracle_.observe_all(tr, static_cast<uint32_t>(read_word_()), seen, found_);
  } else {
    oracle::Oracle::Seen blind = seen;
    blind.word_known = false;
    oracle_.observe_all(tr, 0, blind, found_);
  }
  if (!found_.empty()) report_locked(found_, context);
}

void Shared::observe_locked(MoveKind kind, unsigned t, Event e, bool returned) {
  Transition tr;
  tr.move.kind = kind;
  tr.move.thread = static_cast<uint8_t>(t);
  tr.result.event = e;
  tr.result.returned = returned;
  observe_locked(tr, oracle::Oracle::Seen{});
}

void Shared::began(unsigned t, Kind kind) {
  std::lock_guard lk(m_);
  Transition tr;
  tr.move = Move{MoveKind::begin_idle, static_cast<uint8_t>(t), kind};
  slots_[t].kind = kind;
  observe_locked(tr, oracle::Oracle::Seen{});
}

void Shared::assertion(unsigned t, const StepResult& r, const ThreadState& th) {
  std::lock_guard lk(m_);
  Transition tr;
  tr.move = Move{MoveKind::step, static_cast<uint8_t>(t), Kind::none};
  tr.result = r;
  observe_locked(tr, oracle::Oracle::Seen{}, " (" + describe_thread(t, th) + ")");
}

void Shared::lock_shared(unsigned t, uint32_t holders, Pc pc) {
  std::lock_guard lk(m_);
  oracle::Oracle::Seen seen;
  seen.holders_known = true;
  seen.holders = holders;
  // The lock bit is set: t holds the lock (its test-and-set succeeded).
  oracle_.judge_state(static_cast<uint32_t>((read_anytime_ ? read_word_() : 0) | kLock), seen,
                      found_);
  report_locked(found_, strprintf(" (seen by t%u at %s)", t, std::string(pc_name(pc)).c_str()));
  aborted_.store(true, std::memory_order_relaxed);
}

void Shared::spun(unsigned t, double seconds, Pc pc, uint32_t holders) {
  std::lock_guard lk(m_);
  const oracle::Verdict v = oracle_.stuck();
  if (!v.ok()) found_.push_back(v);
  report_locked(
      found_, strprintf(" (t%u spun %.1f s at %s; word %s, lock holders %#x)", t, seconds,
                        std::string(pc_name(pc)).c_str(),
                        read_anytime_
                            ? describe_word(o_.config, static_cast<uint32_t>(read_word_())).c_str()
                            : "unread",
                        holders));
  aborted_.store(true, std::memory_order_relaxed);
}

void Shared::apply_wa(unsigned by) {
  std::lock_guard lk(m_);
  observe_locked(MoveKind::step, by, Event::apply_wa);
}

void Shared::undo_wa(unsigned by) {
  std::lock_guard lk(m_);
  observe_locked(MoveKind::step, by, Event::undo_wa);
}

void Shared::resync_tb(unsigned t, const ThreadState& th) {
  std::lock_guard lk(m_);
  ++result_.stats.resyncs;
  Transition tr;
  tr.move = Move{MoveKind::step, static_cast<uint8_t>(t), Kind::none};
  tr.result.event = Event::resync_tb;
  oracle::Oracle::Seen seen;
  seen.found_known = true;
  seen.found_awake = !th.first;
  if (!o_.config.power9() && read_anytime_) {
    // POWER8: every change of a thread bit happens under the lock, which
    // the resyncing thread holds (the reference resyncs before it releases
    // it): the word now is the word it decided on.
    seen.decided_known = true;
    seen.decided = static_cast<uint32_t>(read_word_());
  }
  observe_locked(tr, seen, " (" + describe_thread(t, th) + ")");
}

void Shared::restore_core(unsigned by) {
  std::lock_guard lk(m_);
  observe_locked(MoveKind::step, by, Event::restore_core);
}

void Shared::restore_subcore(unsigned by, unsigned k) {
  std::lock_guard lk(m_);
  ++result_.stats.subcore_restores;
  (void)k;  // the oracle knows the mover's subcore
  observe_locked(MoveKind::step, by, Event::restore_subcore);
}

void Shared::restore_thread(unsigned by, unsigned t) {
  std::lock_guard lk(m_);
  (void)t;  // a thread restores its own
  observe_locked(MoveKind::step, by, Event::restore_thread);
}

void Shared::enter_hw_idle(unsigned t) {
  std::lock_guard lk(m_);
  observe_locked(MoveKind::step, t, Event::enter_hw_idle);
  Slot& s = slots_[t];
  s.idle = true;
  core_cv_.notify_all();
}

void Shared::returned(unsigned t, const ThreadState& th) {
  std::lock_guard lk(m_);
  Transition tr;
  tr.move = Move{MoveKind::step, static_cast<uint8_t>(t), Kind::none};
  tr.result.returned = true;
  observe_locked(tr, oracle::Oracle::Seen{}, " (" + describe_thread(t, th) + ")");
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
  observe_locked(MoveKind::wake, t, Event::woke);
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
// enter_hw_idle (this mutex). Nobody holds the lock, and the winkle count
// is exactly the winkling workers.
void Shared::quiescent_check_locked() {
  ++result_.stats.quiescent_checks;
  oracle::Oracle::Seen seen;
  seen.holders_known = true;
  seen.holders = 0;
  seen.counted_known = !o_.config.power9();
  for (unsigned t = 0; t < o_.config.threads; ++t) {
    seen.counted += slots_[t].kind == Kind::p8_winkle;
  }
  oracle_.judge_state(static_cast<uint32_t>(read_word_()), seen, found_);
  report_locked(found_, " (every thread in hardware idle: " + table_locked() + ")");
}

// Every worker is in hardware idle: the core may lose state, as
// apply(core_loss) in impl/idle_core_model.h does it (it is called here).
void Shared::maybe_loss_locked(std::mt19937_64& rng) {
  const Config& c = o_.config;
  CoreState s;
  for (unsigned t = 0; t < c.threads; ++t) {
    s.th[t].pc = Pc::hw_idle;
    s.th[t].kind = slots_[t].kind;
    s.th[t].lost = slots_[t].lost;
  }
  const Loss level = core_loss_level(c, s);
  if (level == Loss::none || rng() % 100 >= o_.loss_percent) return;
  apply(c, s, Move{MoveKind::core_loss, 0, Kind::none});
  for (unsigned t = 0; t < c.threads; ++t) slots_[t].lost = s.th[t].lost;
  ++(level == Loss::full ? result_.stats.full_losses : result_.stats.partial_losses);
  Transition tr;
  tr.move = Move{MoveKind::core_loss, 0, Kind::none};
  tr.loss = level;
  observe_locked(tr, oracle::Oracle::Seen{}, " (" + table_locked() + ")");
}

void Shared::run_core() {
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
      quiescent_check_locked();
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

Result Shared::finish() {
  std::lock_guard lk(m_);
  const Config& c = o_.config;
  // Every worker has returned: the lock is free, every thread bit is set
  // and nobody is counted in the winkle count.
  if (result_.ok()) {
    oracle::Oracle::Seen seen;
    seen.holders_known = true;
    seen.counted_known = !c.power9();
    oracle_.judge_state(static_cast<uint32_t>(read_word_()), seen, found_);
    report_locked(found_, " (every thread running again)");
  }
  Result r = result_;
  r.stats.seconds = elapsed();
  r.stats.min_cycles = UINT64_MAX;
  for (unsigned t = 0; t < c.threads; ++t) {
    r.stats.min_cycles = std::min(r.stats.min_cycles, slots_[t].cycles);
  }
  return r;
}

}  // namespace idlespec::idle_core::stress
