// The checker's distributed search (Checker::run_distributed): the
// breadth-first search over the ranks of an Exchange, the states
// hash-partitioned among them, and the counterexamples rebuilt by rank 0.
#pragma once

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "modelcheck/idle_core_exchange.h"
#include "modelcheck/idle_core_explore.h"
#include "modelcheck/idle_core_replay.h"
#include "modelcheck/idle_core_search.h"

namespace idlespec::idle_core::mc {

namespace wire {

inline uint64_t wide_hash(const WideKey& w, unsigned threads) {
  uint64_t h = 0x9E3779B97F4A7C15ULL;
  for (unsigned i = 0; i <= threads; ++i) {
    h ^= w.w[i] + 0x9E3779B97F4A7C15ULL + (h << 6) + (h >> 2);
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdULL;
    h ^= h >> 33;
  }
  return h;
}
}  // namespace wire

template <class Subject>
CheckerResult Checker<Subject>::run_distributed(Exchange& x) {
  begin();
  const unsigned R = x.ranks(), me = x.rank();
  res_.ranks = R;
  if (o_.liveness || o_.random_walks) {
    res_.error = "the distributed search checks safety only (no --liveness, no --random-walks)";
    return res_;
  }
  const unsigned n_words = 1 + c_.threads;
  const auto owner = [&](const WideKey& w) {
    return static_cast<unsigned>(wire::wide_hash(w, c_.threads) % R);
  };
  std::vector<uint8_t> parent_rank;  // per stored state: the rank that holds its parent
  std::array<uint8_t, kMaxThreads> perm{};
  WideKey w;
  Key key;
  bool inserted = false;

  const CoreState init = initial_state(c_);
  if (!codec_.canonical(init, w, perm)) {
    res_.error = codec_.error();
    return res_;
  }
  if (owner(w) == me) {
    if (!codec_.intern_wide(w, key)) {
      res_.error = codec_.error();
      stop_ = true;
    } else {
      store_.insert(key, StateStore::kNone, 0, inserted);
      parent_rank.push_back(0xff);
      record(judge_.state(init), 0, false, 0);
    }
  }
  uint64_t lb = 0, le = store_.size(), bytes = 0;
  bool truncated = false;
  std::vector<std::vector<uint8_t>> out(R), in;
  std::vector<std::vector<WideKey>> sent(R);  // per owner: what was sent to it lately
  WideKey none;  // no state's: its core-wide word has bits no state uses
  none.w[0] = ~uint64_t{0};
  for (unsigned r = 0; r < R; ++r)
    if (r != me) sent[r].assign(kSentMask + 1, none);
  std::vector<Move> moves;
  CoreState s;
  for (;;) {
    if (o_.max_depth && depth_ >= o_.max_depth) {
      truncated = x.sum(le - lb) != 0;
      if (truncated) res_.incomplete_reason = "max depth";
      break;
    }
    // The level in batches (every rank takes part in as many exchanges as
    // the rank with the most states needs), so that the buffers stay small.
    const uint64_t batches = x.max((le - lb + kBatchStates - 1) / kBatchStates);
    const uint64_t level_end = le;
    uint64_t cur = lb;
    lb = store_.size();  // the next level: what this one's exchanges add
    for (uint64_t batch = 0; batch < batches; ++batch) {
      for (auto& b : out) b.clear();
      for (uint64_t k = 0; k < kBatchStates && cur < level_end && !stop_; ++k, ++cur) {
        codec_.decode(store_.key(static_cast<uint32_t>(cur)), s);
        expand(s, static_cast<uint32_t>(cur), moves,
               [&](const CoreState& next, uint8_t mb, bool, bool self, bool fs) {
                 if (self) return true;
                 if (!codec_.canonical(next, w, perm)) {
                   if (fs) return true;  // past a violation: a dead end
                   res_.error = codec_.error();
                   stop_ = true;
                   return false;
                 }
                 const uint64_t h = wire::wide_hash(w, c_.threads);
                 const unsigned to = static_cast<unsigned>(h % R);
                 if (to == me) {  // this rank's own: stored at once (the next level)
                   if (!codec_.intern_wide(w, key)) {
                     res_.error = codec_.error();
                     stop_ = true;
                     return false;
                   }
                   store_.insert(key, static_cast<uint32_t>(cur), mb, inserted);
                   if (inserted) parent_rank.push_back(static_cast<uint8_t>(me));
                   return true;
                 }
                 // Most successors are states seen before: a successor sent
                 // to its owner a moment ago is not sent again (an exact
                 // comparison, never a hash's word for it).
                 WideKey& recent = sent[to][(h >> 20) & kSentMask];
                 if (recent == w) return true;
                 recent = w;
                 std::vector<uint8_t>& b = out[to];
                 wire::put_raw(b, static_cast<uint32_t>(cur));
                 wire::put_raw(b, mb);
                 b.insert(b.end(), reinterpret_cast<const uint8_t*>(w.w),
                          reinterpret_cast<const uint8_t*>(w.w + n_words));
                 return true;
               });
      }
      for (unsigned r = 0; r < R; ++r)
        if (r != me) bytes += out[r].size();
      x.all_to_all(out, in);
      for (unsigned from = 0; from < R && !stop_; ++from) {
        const std::vector<uint8_t>& b = in[from];
        for (size_t at = 0; at < b.size();) {
          const uint32_t parent = wire::get_raw<uint32_t>(b, at);
          const uint8_t mb = wire::get_raw<uint8_t>(b, at);
          WideKey got;
          for (unsigned i = 0; i < n_words; ++i) got.w[i] = wire::get_raw<uint64_t>(b, at);
          if (!codec_.intern_wide(got, key)) {
            res_.error = codec_.error();
            stop_ = true;
            break;
          }
          store_.insert(key, parent, mb, inserted);
          if (inserted) parent_rank.push_back(static_cast<uint8_t>(from));
        }
      }
    }
    le = store_.size();
    const uint64_t fresh = x.sum(le - lb);
    const uint64_t stopping = x.sum(stop_ ? 1 : 0);
    const uint64_t total = x.sum(store_.size());
    const uint64_t elapsed_ms = x.max(
        static_cast<uint64_t>(std::chrono::duration<double>(Clock::now() - t0_).count() * 1000));
    if (me == 0 && o_.progress) {
      std::fprintf(
          stderr,
          "[model-check %s, %u ranks] depth %u: %s states (+%s), rank 0 sent %.0f MB, "
          "peak RSS %.0f MB, %.1fs\n",
          res_.config.c_str(), R, depth_ + 1, human_count(static_cast<double>(total)).c_str(),
          human_count(static_cast<double>(fresh)).c_str(), static_cast<double>(bytes) / 1e6,
          static_cast<double>(peak_rss_kb()) / 1e3, static_cast<double>(elapsed_ms) / 1e3);
    }
    if (stopping) {
      stop_ = true;
      break;
    }
    if (fresh == 0) break;
    ++depth_;
    if (o_.max_states && total >= o_.max_states) {
      truncated = true;
      res_.incomplete_reason = "max states";
      break;
    }
    if (o_.time_limit > 0 && static_cast<double>(elapsed_ms) / 1e3 > o_.time_limit) {
      truncated = true;
      res_.incomplete_reason = "time limit";
      break;
    }
  }

  // The totals, on every rank.
  res_.depth = depth_;
  res_.states = x.sum(store_.size());
  res_.transitions = x.sum(res_.transitions);
  res_.por_states = x.sum(res_.por_states);
  res_.max_rank_states = x.max(store_.size());
  res_.bytes_sent = x.sum(bytes);
  res_.max_rank_bytes_sent = x.max(bytes);
  res_.max_rank_rss_kb = static_cast<long>(x.max(static_cast<uint64_t>(peak_rss_kb())));
  res_.local_views = codec_.local_views();

  // Each rank's findings and error to rank 0.
  for (auto& b : out) b.clear();
  std::vector<uint8_t>& mine = out[0];
  wire::put_raw(mine, static_cast<uint32_t>(res_.error.size()));
  mine.insert(mine.end(), res_.error.begin(), res_.error.end());
  for (const Found& f : found_) {
    wire::put_raw(mine, static_cast<uint8_t>(std::stoi(f.clause.substr(5))));
    wire::put_raw(mine, f.state);
    wire::put_raw(mine, static_cast<uint8_t>(f.has_move));
    wire::put_raw(mine, f.move);
    wire::put_raw(mine, f.chain);
    wire::put_raw(mine, f.depth);
    wire::put_raw(mine, static_cast<uint32_t>(f.message.size()));
    mine.insert(mine.end(), f.message.begin(), f.message.end());
  }
  x.all_to_all(out, in);
  struct Remote {
    Found f;
    unsigned rank = 0;
  };
  std::vector<Remote> chosen;  // rank 0: the shallowest finding of each clause
  if (me == 0) {
    for (unsigned from = 0; from < R; ++from) {
      const std::vector<uint8_t>& b = in[from];
      size_t at = 0;
      const uint32_t elen = wire::get_raw<uint32_t>(b, at);
      const std::string err(b.begin() + static_cast<long>(at),
                            b.begin() + static_cast<long>(at + elen));
      at += elen;
      if (!err.empty() && res_.error.empty()) {
        res_.error = "rank " + std::to_string(from) + ": " + err;
      }
      while (at < b.size()) {
        Remote r;
        r.rank = from;
        r.f.clause = "IDLE-" + std::to_string(wire::get_raw<uint8_t>(b, at));
        r.f.state = wire::get_raw<uint32_t>(b, at);
        r.f.has_move = wire::get_raw<uint8_t>(b, at) != 0;
        r.f.move = wire::get_raw<uint8_t>(b, at);
        r.f.chain = wire::get_raw<unsigned>(b, at);
        r.f.depth = wire::get_raw<unsigned>(b, at);
        const uint32_t mlen = wire::get_raw<uint32_t>(b, at);
        r.f.message.assign(b.begin() + static_cast<long>(at),
                           b.begin() + static_cast<long>(at + mlen));
        at += mlen;
        bool fresh_clause = true;
        for (Remote& c : chosen) {
          if (c.f.clause != r.f.clause) continue;
          fresh_clause = false;
          if (r.f.depth < c.f.depth) c = r;
        }
        if (fresh_clause) chosen.push_back(r);
      }
    }
  }
  const bool any_error = x.sum(res_.error.empty() ? 0 : 1) != 0;
  res_.complete = !truncated && !stop_ && !any_error;
  if (stop_ && res_.incomplete_reason.empty() && !any_error)
    res_.incomplete_reason = "stopped at the first violation";

  // Rank 0 walks each finding's parents back to the initial state, asking
  // the rank that holds each one; every rank takes part in each round.
  const uint64_t findings = x.sum(me == 0 ? chosen.size() : 0);
  for (uint64_t k = 0; k < findings; ++k) {
    std::vector<uint8_t> steps_back;
    uint32_t at_rank = me == 0 ? chosen[k].rank : 0;
    uint32_t at_idx = me == 0 ? chosen[k].f.state : 0;
    for (;;) {
      for (auto& b : out) b.clear();
      if (me == 0) {
        for (unsigned r = 0; r < R; ++r) {
          wire::put_raw(out[r], at_rank);
          wire::put_raw(out[r], at_idx);
        }
      }
      x.all_to_all(out, in);
      size_t pos = 0;
      const uint32_t q_rank = wire::get_raw<uint32_t>(in[0], pos);
      const uint32_t q_idx = wire::get_raw<uint32_t>(in[0], pos);
      if (q_idx == StateStore::kNone) break;  // past the initial state: done
      for (auto& b : out) b.clear();
      if (q_rank == me) {
        const uint32_t parent = store_.parent(q_idx);
        wire::put_raw(out[0], parent == StateStore::kNone ? 0u : uint32_t{parent_rank[q_idx]});
        wire::put_raw(out[0], parent);
        wire::put_raw(out[0], store_.move(q_idx));
      }
      x.all_to_all(out, in);
      if (me == 0) {
        size_t p = 0;
        at_rank = wire::get_raw<uint32_t>(in[q_rank], p);
        at_idx = wire::get_raw<uint32_t>(in[q_rank], p);
        const uint8_t mb = wire::get_raw<uint8_t>(in[q_rank], p);
        if (at_idx != StateStore::kNone) steps_back.push_back(mb);
      }
    }
    if (me != 0) continue;
    const Found& f = chosen[k].f;
    std::vector<uint8_t> steps(steps_back.rbegin(), steps_back.rend());
    if (f.has_move) steps.push_back(f.move);
    Violation v;
    v.clause = f.clause;
    std::vector<TraceRow> rows;
    CoreState last;
    v.summary = replay_steps(f, steps, rows, last, v.replayed);
    v.length = static_cast<unsigned>(rows.size());
    v.trace = render_timeline(
        c_, rows, last,
        v.clause + " violated (" + res_.config + ", subject " + res_.subject + "): " + v.summary,
        o_.max_trace_rows);
    res_.violations.push_back(std::move(v));
  }
  std::sort(res_.violations.begin(), res_.violations.end(),
            [](const Violation& a, const Violation& b) { return a.clause < b.clause; });
  res_.seconds = std::chrono::duration<double>(Clock::now() - t0_).count();
  res_.peak_rss_kb = peak_rss_kb();
  return res_;
}

}  // namespace idlespec::idle_core::mc
