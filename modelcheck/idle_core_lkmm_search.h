// The weak exploration's breadth-first search (WeakChecker::run,
// modelcheck/idle_core_lkmm.h), in one process or over the ranks of an
// Exchange (idlespec-mc-mpi under mpirun; ThreadExchange in the tests), and
// its counterexamples rebuilt and replayed on concrete states.
//
// One search for both: with R ranks each state belongs to the rank its
// fingerprint hashes to (R = 1: this process). Level by level, in batches
// that every rank takes part in, each rank expands the states it owns,
// stores its own successors at once and sends the others to their owners
// (the parent's index, the move, the chooser's picks and the state's bytes;
// a successor sent to an owner a moment ago is not sent again). A state is
// stored when a move reaches it without violating a clause (a violating
// move's target is a dead end, never stored: what is stored does not depend
// on the order moves are tried, so any number of ranks stores the same
// states). Each clause's counterexample is the shallowest finding over the
// ranks; rank 0 walks its parents back, asking the rank that holds each.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <string>
#include <unordered_set>
#include <vector>

#include "modelcheck/idle_core_lkmm.h"

namespace idlespec::idle_core::mc {

namespace weak_wire {

inline constexpr uint64_t kBatch = 4096;       // states a rank expands between exchanges
inline constexpr uint64_t kSentMask = 0xffff;  // per owner: fingerprints sent lately

using wire::get_raw;
using wire::put_raw;
inline std::vector<uint8_t> get_bytes(const std::vector<uint8_t>& b, size_t& at, size_t n) {
  if (at + n > b.size()) throw std::length_error("a short record from another rank");
  std::vector<uint8_t> out(b.begin() + static_cast<long>(at),
                           b.begin() + static_cast<long>(at + n));
  at += n;
  return out;
}
inline unsigned owner(const std::pair<uint64_t, uint64_t>& fp, unsigned ranks) {
  return static_cast<unsigned>(fmix64(fp.first ^ fp.second) % ranks);
}

}  // namespace weak_wire

template <class Subject>
CheckerResult WeakChecker<Subject>::run(Exchange* x) {
  namespace ww = weak_wire;
  const auto t0 = Clock::now();
  auto last = t0;
  const unsigned R = x ? x->ranks() : 1, me = x ? x->rank() : 0;
  const auto sum = [&](uint64_t v) { return x ? x->sum(v) : v; };
  const auto most = [&](uint64_t v) { return x ? x->max(v) : v; };
  res_.config = c_.describe() + " LKMM";
  res_.subject = std::string(Subject::name);
  res_.symmetry = sym_.enabled;
  res_.por = false;
  res_.ranks = R;
  if (R > 255) {
    res_.error = "at most 255 ranks";
    return res_;
  }
  std::unordered_set<Fp, FpHash> seen;
  // The frontier as the states' bytes, each with its node.
  std::vector<std::pair<std::string, uint32_t>> level, next;
  std::string buf;
  ThreadPerm perm{};
  WeakState init = initial();
  canonicalize(init, perm, buf);
  if (ww::owner(hash_of(buf), R) == me) {
    seen.insert(hash_of(buf));
    nodes_.push_back(Node{UINT32_MAX, 0, 0, {}});
    node_rank_.push_back(0xff);
    level.push_back({buf, 0});
  }
  // A successor stored here (from: the rank that holds its parent).
  const auto add = [&](const std::string& bytes, const Fp& fp, uint32_t parent, uint8_t mb,
                       const uint8_t* picks, size_t npicks, unsigned from) {
    if (!seen.insert(fp).second) return;
    Node node{parent, mb, static_cast<uint8_t>(npicks), {}};
    if (npicks > node.choices.size()) res_.error = "more choices than a node holds";
    std::copy(picks, picks + std::min(npicks, node.choices.size()), node.choices.begin());
    nodes_.push_back(node);
    node_rank_.push_back(static_cast<uint8_t>(from));
    next.push_back({bytes, static_cast<uint32_t>(nodes_.size() - 1)});
  };
  std::vector<std::vector<uint8_t>> out(R), in;
  std::vector<std::vector<Fp>> sent(R);
  for (unsigned r = 0; r < R; ++r)
    if (r != me) sent[r].assign(ww::kSentMask + 1, Fp{0, 0});
  uint64_t bytes_sent = 0;
  WeakState s = init, n;
  std::vector<Move> moves;
  std::vector<lkmm::Conflict> races;
  lkmm::Chooser ch;
  std::string self_buf, raw;
  bool truncated = false;
  for (;;) {
    const uint64_t batches = most((level.size() + ww::kBatch - 1) / ww::kBatch);
    size_t cur = 0;
    for (uint64_t batch = 0; batch < batches && !truncated; ++batch) {
      for (auto& b : out) b.clear();
      for (uint64_t k = 0; k < ww::kBatch && cur < level.size() && !stop_; ++k, ++cur) {
        const uint32_t idx = level[cur].second;
        restore(level[cur].first, s);
        self_buf = level[cur].first;
        enabled_moves(c_, s.core, moves);
        judge_.at(s.core);
        bool changes = false;
        for (const Move& m : moves) {
          ch.reset();
          for (;;) {
            n = s;
            const Transition tr = apply_weak(n, m, ch, nullptr, races);
            ++res_.transitions;
            const std::vector<uint8_t>& picks = ch.taken();
            const uint8_t mb = pack_move(c_, m);
            oracle::Violations vs = judge_.move(tr, n.core, res_.depth + 1);
            if (o_.races) {
              for (oracle::Verdict& v : race_verdicts(s, races, res_.depth + 1)) vs.push_back(v);
            }
            if (!changes) {  // the move changes the state as it is (not only its numbering)
              raw.clear();
              bytes_of(n.core, n.mem, raw);
              changes = raw != self_buf;
            }
            if (!vs.empty()) {
              record(vs, idx, mb, picks, true, res_.depth + 1);
            } else {
              canonicalize(n, perm, buf);
              const Fp fp = hash_of(buf);
              const unsigned to = ww::owner(fp, R);
              if (to == me) {
                add(buf, fp, idx, mb, picks.data(), picks.size(), me);
              } else {
                Fp& recent = sent[to][fp.second & ww::kSentMask];
                if (recent != fp) {
                  recent = fp;
                  std::vector<uint8_t>& b = out[to];
                  ww::put_raw(b, idx);
                  ww::put_raw(b, mb);
                  ww::put_raw(b, static_cast<uint8_t>(picks.size()));
                  b.insert(b.end(), picks.begin(), picks.end());
                  ww::put_raw(b, static_cast<uint32_t>(buf.size()));
                  b.insert(b.end(), buf.begin(), buf.end());
                }
              }
            }
            if (stop_ || !ch.next()) break;
          }
          if (stop_) break;
        }
        if (!changes && !stop_) record({judge_.stuck(s.core)}, idx, 0, {}, false, res_.depth);
      }
      if (x) {
        for (unsigned r = 0; r < R; ++r)
          if (r != me) bytes_sent += out[r].size();
        x->all_to_all(out, in);
        std::string got;
        for (unsigned from = 0; from < R; ++from) {
          const std::vector<uint8_t>& b = in[from];
          for (size_t at = 0; at < b.size();) {
            const uint32_t parent = ww::get_raw<uint32_t>(b, at);
            const uint8_t mb = ww::get_raw<uint8_t>(b, at);
            const std::vector<uint8_t> picks = ww::get_bytes(b, at, ww::get_raw<uint8_t>(b, at));
            const std::vector<uint8_t> bytes = ww::get_bytes(b, at, ww::get_raw<uint32_t>(b, at));
            got.assign(bytes.begin(), bytes.end());
            add(got, hash_of(got), parent, mb, picks.data(), picks.size(), from);
          }
        }
      }
      // Bounds, checked alike on every rank.
      const uint64_t total = sum(nodes_.size());
      const uint64_t elapsed_ms = most(
          static_cast<uint64_t>(std::chrono::duration<double>(Clock::now() - t0).count() * 1000));
      if (sum(stop_ ? 1 : 0)) stop_ = true;
      if (o_.max_states && total >= o_.max_states) {
        truncated = true;
        res_.incomplete_reason = "max states";
      } else if (o_.time_limit > 0 && static_cast<double>(elapsed_ms) / 1e3 > o_.time_limit) {
        truncated = true;
        res_.incomplete_reason = "time limit";
      }
      if (me == 0 && o_.progress && Clock::now() - last > std::chrono::seconds(1)) {
        last = Clock::now();
        std::fprintf(
            stderr, "[model-check %s%s] %s states, depth %u, peak RSS %.0f MB, %.1fs\n",
            res_.config.c_str(), R > 1 ? (", " + std::to_string(R) + " ranks").c_str() : "",
            human_count(static_cast<double>(total)).c_str(), res_.depth,
            static_cast<double>(peak_rss_kb()) / 1e3, static_cast<double>(elapsed_ms) / 1e3);
      }
      if (stop_) break;
    }
    if (stop_ || truncated) break;
    const uint64_t fresh = sum(next.size());
    level.swap(next);
    next.clear();
    if (fresh == 0) break;
    ++res_.depth;
  }
  res_.states = sum(nodes_.size());
  res_.transitions = sum(res_.transitions);
  res_.max_rank_states = most(nodes_.size());
  res_.bytes_sent = sum(bytes_sent);
  res_.max_rank_bytes_sent = most(bytes_sent);
  res_.max_rank_rss_kb = static_cast<long>(most(static_cast<uint64_t>(peak_rss_kb())));
  const bool any_error = sum(res_.error.empty() ? 0 : 1) != 0;
  res_.complete = !truncated && !stop_ && !any_error;
  if (stop_ && res_.incomplete_reason.empty())
    res_.incomplete_reason = "stopped at the first violation";

  if (!x) {
    for (const Found& f : found_) res_.violations.push_back(replay(f, local_path(f)));
  } else {
    // Each rank's findings to rank 0, which keeps the shallowest of each clause.
    for (auto& b : out) b.clear();
    for (const Found& f : found_) {
      std::vector<uint8_t>& b = out[0];
      ww::put_raw(b, static_cast<uint8_t>(std::stoi(f.clause.substr(5))));
      ww::put_raw(b, f.state);
      ww::put_raw(b, f.move);
      ww::put_raw(b, static_cast<uint8_t>(f.has_move));
      ww::put_raw(b, f.depth);
      ww::put_raw(b, static_cast<uint8_t>(f.choices.size()));
      b.insert(b.end(), f.choices.begin(), f.choices.end());
    }
    x->all_to_all(out, in);
    std::vector<std::pair<Found, unsigned>> chosen;
    if (me == 0) {
      for (unsigned from = 0; from < R; ++from) {
        const std::vector<uint8_t>& b = in[from];
        for (size_t at = 0; at < b.size();) {
          Found f;
          f.clause = "IDLE-" + std::to_string(ww::get_raw<uint8_t>(b, at));
          f.state = ww::get_raw<uint32_t>(b, at);
          f.move = ww::get_raw<uint8_t>(b, at);
          f.has_move = ww::get_raw<uint8_t>(b, at) != 0;
          f.depth = ww::get_raw<unsigned>(b, at);
          f.choices = ww::get_bytes(b, at, ww::get_raw<uint8_t>(b, at));
          bool fresh_clause = true;
          for (auto& [c, r] : chosen) {
            if (c.clause != f.clause) continue;
            fresh_clause = false;
            if (f.depth < c.depth) c = f, r = from;
          }
          if (fresh_clause) chosen.push_back({f, from});
        }
      }
    }
    // Rank 0 walks each finding's parents back; every rank takes part.
    const uint64_t findings = sum(me == 0 ? chosen.size() : 0);
    for (uint64_t k = 0; k < findings; ++k) {
      Steps back;
      uint32_t at_rank = me == 0 ? chosen[k].second : 0;
      uint32_t at_idx = me == 0 ? chosen[k].first.state : 0;
      for (;;) {
        for (auto& b : out) b.clear();
        if (me == 0)
          for (unsigned r = 0; r < R; ++r)
            ww::put_raw(out[r], at_rank), ww::put_raw(out[r], at_idx);
        x->all_to_all(out, in);
        size_t pos = 0;
        const uint32_t q_rank = ww::get_raw<uint32_t>(in[0], pos);
        const uint32_t q_idx = ww::get_raw<uint32_t>(in[0], pos);
        if (q_idx == UINT32_MAX) break;  // past the initial state
        for (auto& b : out) b.clear();
        if (q_rank == me) {
          const Node& nd = nodes_[q_idx];
          ww::put_raw(out[0], static_cast<uint32_t>(node_rank_[q_idx]));
          ww::put_raw(out[0], nd.parent);
          ww::put_raw(out[0], nd.move);
          ww::put_raw(out[0], nd.nchoices);
          out[0].insert(out[0].end(), nd.choices.begin(), nd.choices.begin() + nd.nchoices);
        }
        x->all_to_all(out, in);
        if (me == 0) {
          size_t p = 0;
          at_rank = ww::get_raw<uint32_t>(in[q_rank], p);
          at_idx = ww::get_raw<uint32_t>(in[q_rank], p);
          const uint8_t mb = ww::get_raw<uint8_t>(in[q_rank], p);
          std::vector<uint8_t> picks =
              ww::get_bytes(in[q_rank], p, ww::get_raw<uint8_t>(in[q_rank], p));
          if (at_idx != UINT32_MAX) back.push_back({mb, std::move(picks)});
        }
      }
      if (me != 0) continue;
      const Found& f = chosen[k].first;
      Steps steps(back.rbegin(), back.rend());
      if (f.has_move) steps.push_back({f.move, f.choices});
      res_.violations.push_back(replay(f, steps));
    }
  }
  std::sort(res_.violations.begin(), res_.violations.end(),
            [](const Violation& a, const Violation& b) { return a.clause < b.clause; });
  res_.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
  res_.peak_rss_kb = peak_rss_kb();
  return res_;
}

template <class Subject>
typename WeakChecker<Subject>::Steps WeakChecker<Subject>::local_path(const Found& f) const {
  Steps steps;
  for (uint32_t i = f.state; i != UINT32_MAX && nodes_[i].parent != UINT32_MAX;
       i = nodes_[i].parent) {
    const Node& nd = nodes_[i];
    steps.push_back(
        {nd.move, std::vector<uint8_t>(nd.choices.begin(), nd.choices.begin() + nd.nchoices)});
  }
  std::reverse(steps.begin(), steps.end());
  if (f.has_move) steps.push_back({f.move, f.choices});
  return steps;
}

template <class Subject>
Violation WeakChecker<Subject>::replay(const Found& f, const Steps& steps) {
  // rep: the path's representatives, as the search saw them; s: the
  // concrete execution, rep renumbered by pi (rep's thread j is s's pi[j]).
  WeakState s = initial(), rep = s;
  ThreadPerm pi{}, sigma{};
  std::string buf;
  canonicalize(rep, pi, buf);
  Violation v;
  v.clause = f.clause;
  std::vector<TraceRow> rows;
  lkmm::Chooser ch;
  std::vector<lkmm::Conflict> races;
  const unsigned n = static_cast<unsigned>(std::stoi(f.clause.substr(5)));
  for (size_t k = 0; k < steps.size(); ++k) {
    const Move rm = unpack_move(c_, steps[k].first);
    Move m = rm;
    if (m.kind != MoveKind::core_loss) m.thread = pi[rm.thread];
    ch.reset(steps[k].second);
    apply_weak(rep, rm, ch, nullptr, races);
    canonicalize(rep, sigma, buf);
    ThreadPerm next{};
    for (unsigned j = 0; j < c_.threads; ++j) next[j] = pi[sigma[j]];
    pi = next;
    TraceRow row;
    row.move = m;
    row.pc_before = s.core.th[m.thread].pc;
    row.kind = s.core.th[m.thread].kind;
    const WeakState before = s;
    ch.reset(steps[k].second);
    const Transition tr = apply_weak(s, m, ch, &row.note, races);
    row.pc_after = s.core.th[m.thread].pc;
    if (row.kind == Kind::none) row.kind = s.core.th[m.thread].kind;
    row.result = tr.result;
    row.loss = tr.loss;
    row.word_after = s.core.word;
    row.ghost_after = s.core.ghost;
    if (k + 1 == steps.size() && f.has_move) {
      judge_.set_quiet(false);
      judge_.at(before.core);
      oracle::Violations vs = judge_.move(tr, s.core, k + 1);
      judge_.set_quiet(true);
      for (oracle::Verdict& r : race_verdicts(before, races, k + 1)) vs.push_back(r);
      for (const oracle::Verdict& x : vs) {
        if (!((judge_.clauses(x) >> n) & 1)) continue;
        v.summary = x.message;
        v.replayed = true;
        break;
      }
      row.note += " <- " + f.clause;
    }
    rows.push_back(row);
  }
  if (!f.has_move) {
    const oracle::Verdict x = judge_.stuck(s.core);
    v.summary = x.message;
    v.replayed = (judge_.clauses(x) >> n) & 1;
    if (!rows.empty()) rows.back().note += " <- " + f.clause;
  }
  v.length = static_cast<unsigned>(rows.size());
  v.trace = render_timeline(
      c_, rows, s.core,
      v.clause + " violated (" + res_.config + ", subject " + res_.subject + "): " + v.summary,
      o_.max_trace_rows);
  return v;
}

}  // namespace idlespec::idle_core::mc
