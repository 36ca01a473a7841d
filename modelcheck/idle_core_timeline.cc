// The counterexample timeline (idle_core_timeline.h): one column per
// thread, the word and the hardware after each move.
#include "modelcheck/idle_core_timeline.h"

#include <algorithm>

#include "impl/text.h"

namespace idlespec::idle_core::mc {

namespace {

std::string ghost_changes(const Config& c, const Ghost& a, const Ghost& b) {
  std::string out;
  const auto add = [&](const std::string& s) {
    if (!out.empty()) out += ", ";
    out += s;
  };
  if (a.tb_valid != b.tb_valid) add(b.tb_valid ? "timebase resynced" : "TIMEBASE LOST");
  if (a.wa_applied != b.wa_applied) add(b.wa_applied ? "workaround on" : "workaround off");
  if (a.core_regs_valid != b.core_regs_valid)
    add(b.core_regs_valid ? "core regs restored" : "CORE REGS LOST");
  for (unsigned k = 0; k < c.subcores; ++k) {
    const bool x = (a.subcore_regs_valid >> k) & 1, y = (b.subcore_regs_valid >> k) & 1;
    if (x != y) add(strprintf(y ? "subcore %u regs restored" : "SUBCORE %u REGS LOST", k));
  }
  const uint8_t lost = a.thread_regs_valid & ~b.thread_regs_valid;
  const uint8_t got = b.thread_regs_valid & ~a.thread_regs_valid;
  if (lost == static_cast<uint8_t>(c.core_thread_mask())) {
    add("THREAD REGS LOST");
  } else {
    for (unsigned t = 0; t < c.threads; ++t)
      if ((lost >> t) & 1) add(strprintf("T%u REGS LOST", t));
  }
  for (unsigned t = 0; t < c.threads; ++t)
    if ((got >> t) & 1) add(strprintf("t%u regs restored", t));
  return out;
}

std::string cell_text(const TraceRow& r) {
  const std::string kind(kind_name(r.kind));
  switch (r.move.kind) {
    case MoveKind::begin_idle:
      return "begin " + std::string(kind_name(r.move.idle)) + " -> " +
             std::string(pc_name(r.pc_after));
    case MoveKind::wake: {
      std::string s = "WAKE";
      if (r.pc_before == Pc::hw_idle) {
        // what it lost is what the pc it went to says
        if (r.pc_after == Pc::loss_lock) s += " (state lost)";
      }
      if (r.result.returned) return s + " => running";
      return s + " -> " + std::string(pc_name(r.pc_after));
    }
    case MoveKind::step: {
      std::string s(pc_name(r.pc_before));
      if (r.result.event == Event::spin) return s + " (spin)";
      if (r.result.event == Event::bug) return s + " !BUG";
      if (r.result.returned) return s + " => running";
      return s + " -> " + std::string(pc_name(r.pc_after));
    }
    case MoveKind::core_loss:
      break;
  }
  return "";
}

std::string pad(const std::string& s, size_t w) {
  if (s.size() >= w) return s.substr(0, w);
  return s + std::string(w - s.size(), ' ');
}

}  // namespace

std::string render_timeline(const Config& c, const std::vector<TraceRow>& rows,
                            const CoreState& final_state, const std::string& headline,
                            unsigned max_rows) {
  std::string out = headline + "\n";
  out += strprintf("  %zu moves from the initial state (all threads running, word %s)\n",
                   rows.size(), describe_word(c, initial_state(c).word).c_str());
  size_t w = 10;
  for (const TraceRow& r : rows) w = std::max(w, cell_text(r).size());
  w = std::min<size_t>(w, 40);
  std::string head = "  step ";
  for (unsigned t = 0; t < c.threads; ++t) head += "| " + pad(strprintf("t%u", t), w) + " ";
  head += "| word after";
  out += head + "\n";
  Ghost prev = initial_state(c).ghost;
  size_t skip_from = rows.size(), skip_to = rows.size();
  if (max_rows && rows.size() > max_rows) {
    skip_from = max_rows / 2;
    skip_to = rows.size() - max_rows / 2;
  }
  for (size_t i = 0; i < rows.size(); ++i) {
    const TraceRow& r = rows[i];
    if (i >= skip_from && i < skip_to) {
      if (i == skip_from) out += strprintf("  ... %zu moves left out ...\n", skip_to - skip_from);
      prev = r.ghost_after;
      continue;
    }
    std::string line = strprintf("  %4zu ", i + 1);
    if (r.move.kind == MoveKind::core_loss) {
      const std::string what =
          r.loss == Loss::full ? "== CORE LOSES STATE (full winkle: timebase, registers) =="
          : r.loss == Loss::partial && !c.power9() ? "== CORE LOSES STATE (fastsleep: timebase) =="
          : r.loss == Loss::partial                ? "== CORE LOSES STATE (deep stop: registers) =="
                                                   : "== CORE LOSES STATE ==";
      line += "| " + pad(what, (w + 3) * c.threads - 2) + " ";
    } else {
      for (unsigned t = 0; t < c.threads; ++t) {
        line += "| " + pad(t == r.move.thread ? cell_text(r) : std::string(), w) + " ";
      }
    }
    line += "| " + describe_word(c, r.word_after);
    const std::string g = ghost_changes(c, prev, r.ghost_after);
    if (!g.empty()) line += "; " + g;
    if (!r.note.empty()) line += "   " + r.note;
    prev = r.ghost_after;
    out += line + "\n";
  }
  out += "  state at the end: " + describe_state(c, final_state);
  return out;
}

}  // namespace idlespec::idle_core::mc
