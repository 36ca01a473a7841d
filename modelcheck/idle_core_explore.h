// The checker's exploration: every move from a state judged by the oracle
// (expand), the breadth-first search over the whole state space (run), and
// the random walks after it.
#pragma once

#include <array>
#include <chrono>
#include <random>
#include <string>
#include <vector>

#include "impl/text.h"
#include "modelcheck/idle_core_reduction.h"
#include "modelcheck/idle_core_replay.h"
#include "modelcheck/idle_core_search.h"

namespace idlespec::idle_core::mc {

template <class Subject>
template <class Emit>
void Checker<Subject>::expand(const CoreState& s, uint32_t cur, std::vector<Move>& moves,
                              Emit&& emit) {
  enabled_moves(c_, s, moves);
  judge_.at(s);
  bool changes = false;
  CoreState n;
  for (const Move& m : moves) {
    n = s;
    const Transition tr = apply<Subject>(c_, n, m);
    ++res_.transitions;
    const uint8_t mb = pack_move(c_, m);
    const bool spin = tr.result.event == Event::spin;
    const bool self = n == s;  // a failing test-and-set
    // A failing test-and-set changes nothing: the state it stays in was
    // judged when it was reached, and the oracle has nothing to learn
    // from a spin.
    const oracle::Violations* vs =
        self && spin && !tr.result.returned ? nullptr : &judge_.move(tr, n, depth_ + 1);
    const bool fs = vs && !vs->empty();
    if (!fs && self) {
      if (o_.liveness && !emit(n, mb, spin, true, false)) break;
      continue;
    }
    changes = changes || !self;
    if (fs) {
      record(*vs, cur, true, mb);
      if (stop_) break;
      // A violating successor is terminal, except for the liveness
      // analysis, which wants the whole reachable graph.
      if (!o_.liveness) continue;
    }
    if (por_ && !self) {  // the holder's chain, judged step by step
      bool bad = false;
      run_chain(n, cur, mb, depth_ + 1, bad);
      if (stop_) break;
      if (bad) continue;
    }
    if (!emit(n, mb, spin, self, fs)) break;
  }
  if (!changes && !stop_) record(oracle::Violations{judge_.stuck(s)}, cur, false, 0);
}

template <class Subject>
CheckerResult Checker<Subject>::run() {
  begin();
  std::array<uint8_t, kMaxThreads> perm{};
  Key key;
  bool inserted = false;

  const CoreState init = initial_state(c_);
  if (!codec_.encode(init, key, perm)) {
    res_.error = codec_.error();
    return res_;
  }
  store_.insert(key, StateStore::kNone, 0, inserted);
  record(judge_.state(init), 0, false, 0);

  std::vector<Move> moves;
  uint64_t level_end = 1;
  bool truncated = false;
  CoreState s, n;
  while (cursor_ < store_.size() && !stop_) {
    if (cursor_ == level_end) {
      ++depth_;
      level_end = store_.size();
    }
    const uint32_t cur = static_cast<uint32_t>(cursor_++);
    if ((cur & 1023) == 0) {
      progress(false);
      if (out_of_time()) {
        res_.incomplete_reason = "time limit";
        truncated = true;
        break;
      }
    }
    codec_.decode(store_.key(cur), s);
    if (o_.liveness) {  // graph_.offsets[cur] is where cur's edges start
      uint8_t w = 0;
      for (unsigned t = 0; t < c_.threads; ++t) w |= uint8_t(on_wake_path(s.th[t]) << t);
      graph_.waking.push_back(w);
    }
    if (o_.max_depth && depth_ >= o_.max_depth) {
      truncated = true;
      if (res_.incomplete_reason.empty()) res_.incomplete_reason = "max depth";
      if (o_.liveness) graph_.offsets.push_back(graph_.targets.size());
      continue;
    }
    succ_.clear();
    expand(s, cur, moves, [&](const CoreState& next, uint8_t mb, bool spin, bool self, bool fs) {
      if (self) {  // only the graph wants it
        succ_.push_back({Key{}, 0, mb, spin, true});
        return true;
      }
      if (!codec_.encode(next, key, perm)) {
        // Only a state past a violation can leave the word's fields (a
        // winkle count wrapped by a broken subject): a dead end for the
        // liveness graph. Otherwise the checker cannot go on.
        if (fs) return true;
        res_.error = codec_.error();
        stop_ = true;
        return false;
      }
      const uint64_t h = StateStore::hash(key);
      store_.prefetch(h);
      succ_.push_back({key, h, mb, spin, false});
      return true;
    });
    for (const Succ& x : succ_) {
      if (stop_) break;
      uint32_t idx = cur;
      if (!x.self) {
        if (o_.max_states && store_.size() >= o_.max_states) {
          truncated = true;
          res_.incomplete_reason = "max states";
          stop_ = true;
          break;
        }
        idx = store_.insert(x.key, x.h, cur, x.move, inserted);
      }
      if (o_.liveness) {
        graph_.targets.push_back(idx);
        graph_.labels.push_back(uint8_t(x.move | (x.spin ? 0x80 : 0)));
      }
    }
    if (o_.liveness) graph_.offsets.push_back(graph_.targets.size());
  }
  res_.depth = depth_;
  if (stop_ && !found_.empty() && res_.incomplete_reason.empty() && cursor_ < store_.size())
    res_.incomplete_reason = "stopped at the first violation";
  res_.complete = !truncated && !stop_ && res_.error.empty() && cursor_ >= store_.size();
  if (o_.random_walks && res_.error.empty() && !stop_) random_walks();
  progress(true);

  if (o_.liveness && res_.complete) {
    Lasso lasso;
    uint64_t examined = 0;
    if (analyse_liveness(c_, graph_, o_.fair_environment, lasso, &examined)) {
      Violation v;
      v.clause = "IDLE-8";
      v.summary = strprintf(
          "t%u is woken and never returns to running on a strongly fair cycle (fair SCC of "
          "%llu states)",
          lasso.thread, static_cast<unsigned long long>(lasso.scc_size));
      v.trace = replay_lasso(lasso);
      v.length = static_cast<unsigned>(lasso.cycle.size());
      res_.violations.push_back(std::move(v));
    }
    res_.liveness = true;
  }
  for (const Found& f : found_) {
    Violation v;
    v.clause = f.clause;
    std::vector<TraceRow> rows;
    CoreState last;
    v.summary = replay(f, rows, last, v.replayed);
    v.length = static_cast<unsigned>(rows.size());
    v.trace = render_timeline(
        c_, rows, last,
        v.clause + " violated (" + res_.config + ", subject " + res_.subject + "): " + v.summary,
        o_.max_trace_rows);
    res_.violations.push_back(std::move(v));
  }
  res_.states = store_.size();
  res_.local_views = codec_.local_views();
  res_.seconds = std::chrono::duration<double>(Clock::now() - t0_).count();
  res_.peak_rss_kb = peak_rss_kb();
  return res_;
}

template <class Subject>
void Checker<Subject>::random_walks() {
  std::mt19937_64 rng(o_.seed);
  std::vector<Move> moves;
  std::array<uint8_t, kMaxThreads> perm{};
  Key key;
  bool inserted = false;
  for (uint64_t w = 0; w < o_.random_walks && !stop_; ++w) {
    CoreState s = initial_state(c_);
    uint32_t cur = 0;
    for (unsigned d = 0; d < o_.walk_length; ++d) {
      enabled_moves(c_, s, moves);
      if (moves.empty()) break;
      const Move m = moves[rng() % moves.size()];
      // The stored move is relative to the representative of cur: map back.
      std::array<uint8_t, kMaxThreads> p{};
      codec_.encode(s, key, p);  // p[new] = concrete thread
      Move rm = m;
      for (unsigned j = 0; j < c_.threads; ++j)
        if (p[j] == m.thread) rm.thread = static_cast<uint8_t>(j);
      CoreState n = s;
      const Transition tr = apply<Subject>(c_, n, m);
      ++res_.transitions;
      judge_.at(s);
      const oracle::Violations& vs = judge_.move(tr, n, d + 1);
      if (!vs.empty()) {
        record(vs, cur, true, pack_move(c_, rm));
        break;
      }
      if (por_) {  // stored states are past the holder's chain (replay re-derives it)
        bool bad = false;
        const unsigned k = run_chain(n, cur, pack_move(c_, rm), d + 1, bad);
        if (bad) break;
        d += k;
      }
      if (!codec_.encode(n, key, perm)) break;
      cur = store_.insert(key, cur, pack_move(c_, rm), inserted);
      s = n;
      if (d + 1 > res_.walk_depth) res_.walk_depth = d + 1;
    }
    if ((w & 63) == 0) progress(false);
  }
}

}  // namespace idlespec::idle_core::mc
