// The checker's counterexamples: the path to a finding replayed on concrete
// states (un-permuting each move the search took on a representative, the
// holder's chains re-derived), the violation judged again at its end; and
// IDLE-8's lasso replayed the same way.
#pragma once

#include <algorithm>
#include <array>
#include <climits>
#include <string>
#include <utility>
#include <vector>

#include "impl/text.h"
#include "modelcheck/idle_core_reduction.h"
#include "modelcheck/idle_core_search.h"

namespace idlespec::idle_core::mc {

template <class Subject>
TraceRow Checker<Subject>::traced_move(CoreState& conc, const Move& m, Transition& tr) {
  TraceRow row;
  row.move = m;
  row.pc_before = conc.th[m.thread].pc;
  row.kind = conc.th[m.thread].kind;
  tr = apply<Subject>(c_, conc, m);
  row.pc_after = conc.th[m.thread].pc;
  if (row.kind == Kind::none) row.kind = conc.th[m.thread].kind;
  row.result = tr.result;
  row.loss = tr.loss;
  row.word_after = conc.word;
  row.ghost_after = conc.ghost;
  return row;
}

// Replays the path to f.state on concrete states: each stored move was taken
// on a representative; perm maps the representative's threads to the
// concrete ones.
template <class Subject>
std::string Checker<Subject>::replay(const Found& f, std::vector<TraceRow>& rows,
                                     CoreState& final_state, bool& confirmed) {
  std::vector<uint32_t> path;
  for (uint32_t i = f.state; i != StateStore::kNone; i = store_.parent(i)) path.push_back(i);
  std::vector<uint8_t> steps;  // the moves on representatives, root first
  for (size_t k = path.size(); k-- > 1;) steps.push_back(store_.move(path[k - 1]));
  if (f.has_move) steps.push_back(f.move);
  return replay_steps(f, steps, rows, final_state, confirmed);
}

template <class Subject>
std::string Checker<Subject>::replay_steps(const Found& f, const std::vector<uint8_t>& steps,
                                           std::vector<TraceRow>& rows, CoreState& final_state,
                                           bool& confirmed) {
  confirmed = false;

  CoreState conc = initial_state(c_);
  std::array<uint8_t, kMaxThreads> pi{}, rho{};
  Key key;
  codec_.encode(conc, key, pi);
  CoreState rep;
  codec_.decode(key, rep);
  std::string summary = f.message;
  // The oracle along the concrete path: its messages can say where what
  // went wrong began (the loss that invalidated the timebase, ...).
  oracle::Oracle along(c_);
  oracle::Violations said;
  const unsigned clause_n = static_cast<unsigned>(std::stoi(f.clause.substr(5)));
  // The violating move judged again: by the oracle along the path (its
  // words can say where what went wrong began), else on the snapshot.
  const auto confirm = [&](const CoreState& before, const Transition& tr, const CoreState& after,
                           size_t move_number) {
    for (const oracle::Verdict& v : said) {
      if ((judge_.clauses(v) >> clause_n) & 1) {
        summary = v.message;
        confirmed = true;
        return;
      }
    }
    judge_.set_quiet(false);
    judge_.at(before);
    for (const oracle::Verdict& v : judge_.move(tr, after, move_number)) {
      if ((judge_.clauses(v) >> clause_n) & 1) {
        summary = v.message;
        confirmed = true;
        break;
      }
    }
    judge_.set_quiet(true);
  };
  for (size_t k = 0; k < steps.size(); ++k) {
    const Move rm = unpack_move(c_, steps[k]);
    Move cm = rm;
    cm.thread = pi[rm.thread];
    const CoreState before = conc;
    Transition tr;
    TraceRow row = traced_move(conc, cm, tr);
    const bool last = k + 1 == steps.size();
    said.clear();
    along.observe_all(tr, conc.word, seen_in(c_, shape_, &tr, conc, k + 1), said);
    if (last && f.has_move && f.chain == 0) {
      confirm(before, tr, conc, k + 1);
      row.note = "<- " + f.clause;
    }
    rows.push_back(row);
    // The holder's chain after the move (the reduction): the same steps on
    // the concrete state as the search took on the representative.
    const unsigned want = last && f.has_move ? f.chain : UINT_MAX;
    for (unsigned k = 0; por_ && k < want;) {
      const int t = ample_thread(conc);
      if (t < 0) break;
      const Move chain_move{MoveKind::step, static_cast<uint8_t>(t), Kind::none};
      ++k;
      TraceRow crow;
      crow.move = chain_move;
      crow.pc_before = conc.th[t].pc;
      crow.kind = conc.th[t].kind;
      const CoreState cbefore = conc;
      const Transition ctr = apply<Subject>(c_, conc, chain_move);
      crow.pc_after = conc.th[t].pc;
      crow.result = ctr.result;
      crow.word_after = conc.word;
      crow.ghost_after = conc.ghost;
      said.clear();
      along.observe_all(ctr, conc.word, seen_in(c_, shape_, &ctr, conc, rows.size() + 1), said);
      if (k == want) {
        confirm(cbefore, ctr, conc, rows.size() + 1);
        crow.note = "<- " + f.clause;
      }
      rows.push_back(crow);
    }
    if (!(last && f.has_move)) {
      CoreState next = rep;
      apply<Subject>(c_, next, rm);
      if (por_) {
        for (int t; (t = ample_thread(next)) >= 0;)
          apply<Subject>(c_, next, Move{MoveKind::step, static_cast<uint8_t>(t), Kind::none});
      }
      codec_.encode(next, key, rho);
      codec_.decode(key, rep);
      std::array<uint8_t, kMaxThreads> npi{};
      for (unsigned j = 0; j < c_.threads; ++j) npi[j] = pi[rho[j]];
      pi = npi;
    }
  }
  final_state = conc;
  if (!f.has_move) {  // a state's own violation: the initial state, or every thread stuck
    if (!rows.empty()) rows.back().note = "<- " + f.clause;
    oracle::Violations again = judge_.state(conc);
    std::vector<Move> moves;
    enabled_moves(c_, conc, moves);
    const bool stuck = std::all_of(moves.begin(), moves.end(), [&](const Move& m) {
      CoreState n = conc;
      apply<Subject>(c_, n, m);
      return n == conc;
    });
    if (stuck) again.push_back(judge_.stuck(conc));
    for (const oracle::Verdict& v : again)
      confirmed = confirmed || ((judge_.clauses(v) >> clause_n) & 1);
  }
  return summary;
}

template <class Subject>
std::string Checker<Subject>::replay_lasso(const Lasso& l) {
  // Symmetry is off for liveness: stored keys are the concrete states.
  std::vector<uint32_t> path;
  for (uint32_t i = l.entry; i != StateStore::kNone; i = store_.parent(i)) path.push_back(i);
  std::vector<std::pair<uint8_t, std::string>> steps;
  for (size_t k = path.size(); k-- > 1;) steps.push_back({store_.move(path[k - 1]), ""});
  const size_t prefix = steps.size();
  for (size_t k = 0; k < l.cycle.size(); ++k)
    steps.push_back({uint8_t(l.cycle[k].first & 0x7f), k == 0 ? "cycle starts" : ""});
  CoreState conc = initial_state(c_);
  std::vector<TraceRow> rows;
  for (const auto& [mb, note] : steps) {
    Transition tr;
    TraceRow row = traced_move(conc, unpack_move(c_, mb), tr);
    row.note = note;
    rows.push_back(row);
  }
  if (!rows.empty()) rows.back().note = "cycle ends (back to where it started)";
  (void)prefix;
  return render_timeline(
      c_, rows, conc,
      strprintf("IDLE-8 violated (%s, subject %s): t%u is woken and never returns to running on "
                "a strongly fair cycle of %zu moves (fair SCC of %llu states)",
                res_.config.c_str(), res_.subject.c_str(), l.thread, l.cycle.size(),
                static_cast<unsigned long long>(l.scc_size)),
      o_.max_trace_rows + static_cast<unsigned>(l.cycle.size()));
}

}  // namespace idlespec::idle_core::mc
