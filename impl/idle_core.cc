#include "impl/idle_core.h"

#include "impl/idle_core_model.h"
#include "impl/text.h"

namespace idlespec::idle_core {

std::string_view kind_name(Kind k) {
  switch (k) {
    case Kind::none:
      return "none";
    case Kind::p8_nap:
      return "nap";
    case Kind::p8_sleep:
      return "sleep";
    case Kind::p8_winkle:
      return "winkle";
    case Kind::p9_shallow:
      return "stop-shallow";
    case Kind::p9_deep:
      return "stop-deep";
    case Kind::p9_tb_loss:
      return "stop-tb-loss";
  }
  return "?";
}

std::string_view pc_name(Pc pc) {
  switch (pc) {
    case Pc::running:
      return "running";
    case Pc::p8_entry_lock:
      return "entry_lock";
    case Pc::p8_entry_load:
      return "entry_load";
    case Pc::p8_entry_store:
      return "entry_store";
    case Pc::p8_entry_apply_wa:
      return "apply_wa";
    case Pc::p8_entry_winkle:
      return "winkle_count+1";
    case Pc::p8_entry_unlock:
      return "entry_unlock";
    case Pc::p9_entry_clear:
      return "clear_bit";
    case Pc::idle_insn:
      return "idle_insn";
    case Pc::hw_idle:
      return "hw_idle";
    case Pc::p8_wake_lock:
      return "wake_lock";
    case Pc::p8_wake_winkle:
      return "winkle_count-1";
    case Pc::p9_wake_set:
      return "set_bit";
    case Pc::loss_lock:
      return "loss_lock";
    case Pc::p8_loss_winkle:
      return "loss_winkle_count-1";
    case Pc::loss_check:
      return "loss_check";
    case Pc::restore_core:
      return "restore_core";
    case Pc::p8_undo_wa:
      return "undo_wa";
    case Pc::resync_tb:
      return "resync_tb";
    case Pc::restore_subcore:
      return "restore_subcore";
    case Pc::unlock_load:
      return "unlock_load";
    case Pc::unlock_cmpxchg:
      return "unlock_cmpxchg";
    case Pc::unlock_lock:
      return "unlock_lock";
    case Pc::resync_tb_late:
      return "resync_tb(late)";
    case Pc::restore_thread:
      return "restore_thread";
  }
  return "?";
}

uint64_t Config::subcore_sibling_mask(unsigned t) const {
  const unsigned per = threads_per_subcore();
  const unsigned first = subcore_of(t) * per;
  return ((uint64_t{1} << per) - 1) << first;
}

bool Config::valid() const {
  const bool smt = threads == 1 || threads == 2 || threads == 4 || threads == 8;
  if (!smt) return false;
  if (platform == Platform::power9) return threads <= 4 && subcores == 1;
  if (platform != Platform::power8) return false;
  return (subcores == 1 || subcores == 2 || subcores == 4) && threads % subcores == 0;
}

std::string Config::describe() const {
  std::string s = strprintf("%s SMT%u", std::string(platform_name(platform)).c_str(), threads);
  if (subcores > 1) s += strprintf(" %ux%u", subcores, threads_per_subcore());
  if (!power9() && !fastsleep_workaround) s += " (no fastsleep workaround)";
  return s;
}

CoreState initial_state(const Config& c) {
  CoreState s;
  s.word = static_cast<uint32_t>(c.core_thread_mask());
  s.ghost.subcore_regs_valid = static_cast<uint8_t>((1u << c.subcores) - 1);
  s.ghost.thread_regs_valid = static_cast<uint8_t>(c.core_thread_mask());
  return s;
}

std::string describe(const Move& m) {
  switch (m.kind) {
    case MoveKind::begin_idle:
      return strprintf("t%u begins %s", m.thread, std::string(kind_name(m.idle)).c_str());
    case MoveKind::step:
      return strprintf("t%u step", m.thread);
    case MoveKind::wake:
      return strprintf("t%u wakes", m.thread);
    case MoveKind::core_loss:
      return "core loses state";
  }
  return "?";
}

Loss core_loss_level(const Config& c, const CoreState& s) {
  bool all_full = true;
  for (unsigned t = 0; t < c.threads; ++t) {
    const ThreadState& th = s.th[t];
    if (th.pc != Pc::hw_idle) return Loss::none;
    switch (th.kind) {
      case Kind::p8_sleep:
      case Kind::p9_deep:
        all_full = false;
        break;
      case Kind::p8_winkle:
      case Kind::p9_tb_loss:
        break;
      default:
        return Loss::none;  // nap, shallow stop: the core stays up
    }
  }
  const Loss level = all_full ? Loss::full : Loss::partial;
  for (unsigned t = 0; t < c.threads; ++t) {
    if (s.th[t].lost < level) return level;
  }
  return Loss::none;  // nothing more to lose
}

void enabled_moves(const Config& c, const CoreState& s, std::vector<Move>& out) {
  out.clear();
  static constexpr Kind kP8[] = {Kind::p8_nap, Kind::p8_sleep, Kind::p8_winkle};
  static constexpr Kind kP9[] = {Kind::p9_shallow, Kind::p9_deep, Kind::p9_tb_loss};
  for (unsigned t = 0; t < c.threads; ++t) {
    const auto tt = static_cast<uint8_t>(t);
    switch (s.th[t].pc) {
      case Pc::running:
        for (Kind k : c.power9() ? kP9 : kP8) out.push_back({MoveKind::begin_idle, tt, k});
        break;
      case Pc::hw_idle:
        out.push_back({MoveKind::wake, tt, Kind::none});
        break;
      default:
        out.push_back({MoveKind::step, tt, Kind::none});
        break;
    }
  }
  if (core_loss_level(c, s) != Loss::none) out.push_back({MoveKind::core_loss, 0, Kind::none});
}

std::string describe_word(const Config& c, uint32_t word) {
  std::string bits, wbits;
  for (unsigned t = 0; t < c.threads; ++t) {
    bits += (word >> t) & 1 ? '1' : '0';
    wbits += (word >> (kWinkleBitsShift + t)) & 1 ? '1' : '0';
  }
  std::string s = "threads " + bits;
  if (word & kLock) s += " lock";
  if (!c.power9()) {
    s += strprintf(" winkle %u wbits %s", detail::winkle_count(word), wbits.c_str());
  }
  return s;
}

std::string describe_state(const Config& c, const CoreState& s) {
  static constexpr const char* kLoss[] = {"", " lost=partial", " lost=full"};
  std::string out = describe_word(c, s.word) + "\n";
  for (unsigned t = 0; t < c.threads; ++t) {
    const ThreadState& th = s.th[t];
    out += strprintf("  t%u %s", t, std::string(pc_name(th.pc)).c_str());
    if (th.kind != Kind::none) {
      out += ' ';
      out += kind_name(th.kind);
    }
    const auto lost = static_cast<unsigned>(th.lost);
    out += lost < 3 ? std::string(kLoss[lost]) : strprintf(" lost=%u(invalid)", lost);
    if (th.full_winkle) out += " full_winkle";
    if (th.first) out += " first";
    out += "\n";
  }
  const Ghost& g = s.ghost;
  out += strprintf("  timebase %s, workaround %s, core regs %s, subcore regs %x, thread regs %x\n",
                   g.tb_valid ? "valid" : "INVALID", g.wa_applied ? "applied" : "off",
                   g.core_regs_valid ? "valid" : "lost", unsigned{g.subcore_regs_valid},
                   unsigned{g.thread_regs_valid});
  return out;
}

}  // namespace idlespec::idle_core
