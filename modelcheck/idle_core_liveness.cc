// The IDLE-8 analysis (idle_core_liveness.h): strongly fair cycles of the
// unreduced state graph, by SCCs refined Streett-style.
#include "modelcheck/idle_core_liveness.h"

#include <algorithm>
#include <deque>

#include "impl/idle_core_model.h"
#include "oracle/idle_core.h"

namespace idlespec::idle_core::mc {

// IDLE-8 under strong fairness, on the unreduced state graph (the quotient
// under symmetry permutes thread numbers along its edges, so "thread t stays
// on its wake path" and the per-thread fairness labels are not well defined
// on it without recording the permutation per edge).
//
// Labels: an edge is labelled by its move (thread, kind: begin_idle with the
// idle kind, step, wake, core loss) and, for a step, whether it spun (a
// test-and-set that found the lock held, a cmpxchg that found the word
// changed). A successful test-and-set and a failing one are different
// transitions: strong fairness about the successful one is what rules out a
// thread spinning forever while the lock is free infinitely often. By default
// only thread steps are subject to fairness (the hardware may keep a thread
// running or idle forever, and the core need not ever lose state); with
// fair_environment every move is.
//
// For each thread t: restrict the graph to the states in which t is on its
// wake path. A fair run in which t never returns stays in that set from some
// point on, hence inside one SCC C of it, and visits infinitely often a set
// of states in which every label enabled infinitely often is taken. The
// standard Streett refinement (Emerson-Lei; as in SPIN's and LTSmin's strong
// fairness checks): compute the SCCs; in an SCC C (with at least one edge),
// let E = the fair labels enabled at some state of C, T = those taken by an
// edge inside C. If E == T (the oracle's breaks_idle8: the IDLE-8 judgement
// of a cycle, which validate's harness makes too), C itself carries a fair cycle (go round C taking
// every label in T): a violation. Otherwise any label in E \ T is never taken
// inside C, so a fair run staying in C visits the states enabling it only
// finitely often: remove them and recompute the SCCs of the rest. Each round
// removes at least one state, so it terminates; a violation is reported with
// the BFS path to C and a cycle through C that takes every label of T.

using oracle::Obligations;

bool analyse_liveness(const Config& c, const Graph& g, bool fair_environment, Lasso& out,
                      uint64_t* sccs_examined) {
  const uint32_t N = static_cast<uint32_t>(g.waking.size());
  if (g.offsets.size() < size_t{N} + 1) return false;
  constexpr uint32_t kUnvisited = UINT32_MAX;
  std::vector<uint32_t> member(N, 0), idx(N, kUnvisited), low(N, 0);
  std::vector<uint8_t> onstk(N, 0);
  uint32_t next_set = 1;
  uint64_t examined = 0;
  const auto fair = [&](uint8_t lab) {
    return fair_environment || static_cast<MoveKind>(lab & 3) == MoveKind::step;
  };
  struct Frame {
    uint32_t v;
    uint64_t e;
  };
  std::vector<Frame> frames;
  std::vector<uint32_t> stk;
  for (unsigned t = 0; t < c.threads; ++t) {
    std::vector<std::vector<uint32_t>> work(1);
    for (uint32_t v = 0; v < N; ++v)
      if ((g.waking[v] >> t) & 1) work[0].push_back(v);
    while (!work.empty()) {
      std::vector<uint32_t> X = std::move(work.back());
      work.pop_back();
      if (X.empty()) continue;
      const uint32_t id = next_set++;
      for (uint32_t v : X) {
        member[v] = id;
        idx[v] = kUnvisited;
        onstk[v] = 0;
      }
      // Tarjan, iterative, on the subgraph induced by X.
      std::vector<std::vector<uint32_t>> sccs;
      uint32_t counter = 0;
      for (uint32_t root : X) {
        if (idx[root] != kUnvisited) continue;
        idx[root] = low[root] = counter++;
        stk.push_back(root);
        onstk[root] = 1;
        frames.push_back({root, g.offsets[root]});
        while (!frames.empty()) {
          const uint32_t v = frames.back().v;
          if (frames.back().e < g.offsets[v + 1]) {
            const uint32_t w = g.targets[frames.back().e++];
            if (member[w] != id) continue;
            if (idx[w] == kUnvisited) {
              idx[w] = low[w] = counter++;
              stk.push_back(w);
              onstk[w] = 1;
              frames.push_back({w, g.offsets[w]});
            } else if (onstk[w]) {
              low[v] = std::min(low[v], idx[w]);
            }
          } else {
            if (low[v] == idx[v]) {
              std::vector<uint32_t> scc;
              uint32_t w;
              do {
                w = stk.back();
                stk.pop_back();
                onstk[w] = 0;
                scc.push_back(w);
              } while (w != v);
              sccs.push_back(std::move(scc));
            }
            frames.pop_back();
            if (!frames.empty()) {
              const uint32_t u = frames.back().v;
              low[u] = std::min(low[u], low[v]);
            }
          }
        }
      }
      for (auto& C : sccs) {
        const uint32_t cid = next_set++;
        for (uint32_t v : C) member[v] = cid;
        Obligations E, T;
        bool internal = false;
        for (uint32_t v : C) {
          for (uint64_t e = g.offsets[v]; e < g.offsets[v + 1]; ++e) {
            const bool in = member[g.targets[e]] == cid;
            internal = internal || in;
            if (!fair(g.labels[e])) continue;
            E.set(g.labels[e]);
            if (in) T.set(g.labels[e]);
          }
        }
        if (!internal) continue;
        ++examined;
        const Obligations bad = oracle::unmet(E, T);
        if (oracle::breaks_idle8(E, T, 1u << t)) {  // t is on its wake path throughout C
          // A fair SCC: build the lasso.
          out.thread = t;
          out.scc_size = C.size();
          out.entry = *std::min_element(C.begin(), C.end());
          out.cycle.clear();
          // BFS inside C from `from` to the first edge satisfying `want`;
          // returns its (label, target) edges.
          std::vector<uint32_t> stamp(N, 0);
          uint32_t stamp_id = 0;
          const auto walk = [&](uint32_t from, auto want) {
            ++stamp_id;
            std::vector<uint32_t> order{from};
            std::vector<uint64_t> via{UINT64_MAX};
            std::vector<uint32_t> up{UINT32_MAX};
            stamp[from] = stamp_id;
            uint32_t found_pos = UINT32_MAX;
            uint64_t found_edge = 0;
            for (size_t qi = 0; qi < order.size() && found_pos == UINT32_MAX; ++qi) {
              const uint32_t v = order[qi];
              for (uint64_t e = g.offsets[v]; e < g.offsets[v + 1]; ++e) {
                const uint32_t w = g.targets[e];
                if (member[w] != cid) continue;
                if (want(e)) {
                  found_pos = static_cast<uint32_t>(qi);
                  found_edge = e;
                  break;
                }
                if (stamp[w] != stamp_id) {
                  stamp[w] = stamp_id;
                  order.push_back(w);
                  via.push_back(e);
                  up.push_back(static_cast<uint32_t>(qi));
                }
              }
            }
            std::vector<std::pair<uint8_t, uint32_t>> path;
            if (found_pos == UINT32_MAX) return path;
            path.push_back({g.labels[found_edge], g.targets[found_edge]});
            for (uint32_t p = found_pos; p != 0; p = up[p])
              path.push_back({g.labels[via[p]], order[p]});
            std::reverse(path.begin(), path.end());
            return path;
          };
          uint32_t cur = out.entry;
          for (unsigned lab = 0; lab < 256; ++lab) {
            if (!T.test(lab)) continue;
            const auto p = walk(cur, [&](uint64_t e) { return g.labels[e] == lab; });
            for (const auto& x : p) out.cycle.push_back(x);
            if (!p.empty()) cur = p.back().second;
          }
          if (cur != out.entry || out.cycle.empty()) {
            const uint32_t target = out.entry;
            const auto p = walk(cur, [&](uint64_t e) { return g.targets[e] == target; });
            for (const auto& x : p) out.cycle.push_back(x);
          }
          if (sccs_examined) *sccs_examined = examined;
          return true;
        }
        std::vector<uint32_t> rest;
        for (uint32_t v : C) {
          bool enables_bad = false;
          for (uint64_t e = g.offsets[v]; e < g.offsets[v + 1] && !enables_bad; ++e)
            enables_bad = bad.test(g.labels[e]);
          if (!enables_bad) rest.push_back(v);
        }
        if (!rest.empty() && rest.size() < C.size()) work.push_back(std::move(rest));
      }
    }
  }
  if (sccs_examined) *sccs_examined = examined;
  return false;
}

}  // namespace idlespec::idle_core::mc
