// IDLE-1, IDLE-2, IDLE-5 (safety), by k-induction over the encoding of
// proofs/idle_core_encoding.h, bound to the code that runs by
// proofs/idle_core_binding.h. The check `idle_core_induction`.
//
// Configuration: POWER8, whole core, fastsleep workaround on, N = 1, 2, 4, 8
// threads per core. The inductive invariant J is the conjunction of the
// clauses' facts and auxiliary lemmas (idle_core_enc::Fact):
//
//   IDLE-1  at most one thread is in the lock-held range, the lock bit is set
//           iff one is; and in every state of J some thread can move without
//           spinning (no state leaves every thread unable to move)
//   IDLE-2  lock free => thread bits == the threads outside the cleared range
//   IDLE-5  winkle count == the threads in the counted range, <= N
//   L-shape, L-reset, L-store, L-bits, L-cmpxchg (see fact_info)
//
// Per N, with k = 1 by default (k > 1: a path of k states of J):
//   base     the initial state satisfies J: the clause facts (a failure is a
//            real violation) and the lemmas (a failure means a lemma is wrong)
//   step     J(s_0) && T(s_0, s_1) && ... && T(s_{k-1}, s_k) => J(s_k), asked
//            as one query per thread (and one for the core loss):
//            J(s_{k-1}) && guard_m(s_{k-1}) => J(next_m(s_{k-1})) for its moves m,
//            which together are the T(s_{k-1}, s_k) step (T is their
//            disjunction); small queries, that cvc5 re-checks too
//   progress J(s) => some thread can move without spinning (a failing
//            test-and-set or cmpxchg), and its move changes s
// A counterexample to the step (a CTI) may be unreachable: the proof then
// runs a bounded model check from the initial state (bmc_depth moves,
// breaking a clause fact or progress) and reports `violated` only with a
// real path, printed as a sequence of moves; otherwise `unknown`. A timeout
// or an unknown answer is `unknown`, never `held`.
#pragma once

#include <z3++.h>

#include <algorithm>
#include <chrono>
#include <string>
#include <vector>

#include "impl/idle_core_model.h"
#include "impl/text.h"
#include "proofs/idle_core_binding.h"
#include "proofs/idle_core_encoding.h"
#include "proofs/idle_core_z3.h"
#include "proofs/proof.h"
#include "verify/registry.h"

namespace idlespec::proofs {

struct IdleInductionOptions {
  std::vector<unsigned> threads{1, 2, 4, 8};
  unsigned k = 1;
  unsigned bmc_depth = 14;                   // moves from the initial state, after a CTI
  bool progress = true;                      // the progress obligation of IDLE-1
  std::vector<idle_core_enc::Fact> without;  // lemmas left out (tests)
};

struct IdleInductionPerN {
  unsigned threads = 0;
  double base = 0, step = 0, progress = 0, bmc = 0;  // query seconds
  std::string outcome;                               // held, violated, cti (unresolved), unknown
};

struct IdleInductionResult {
  ProofResult proof;
  std::vector<IdleInductionPerN> per_n;
  std::string cti;       // the first counterexample to induction, multi-line
  std::string cti_line;  // ... its one-line detail
  idle_core::Config trace_config;
  std::vector<idle_core::Move> trace;              // a real violation, as moves
  std::vector<idle_core::CoreState> trace_states;  // trace.size() + 1 states
};

inline idle_core::Config p8_whole_core(unsigned threads) {
  idle_core::Config c;
  c.platform = Platform::power8;
  c.threads = threads;
  c.subcores = 1;
  c.fastsleep_workaround = true;
  return c;
}

namespace idle_core_ind {

using idle_core::Config;
using idle_core::CoreState;
using idle_core::Move;
using namespace idle_core_enc;

// The move that leads from a to b (by the Concrete encoding), if any.
template <class Subject>
bool move_between(const Config& c, const CoreState& a, const CoreState& b, Move* out) {
  const EState<Concrete> e = to_enc(a);
  for (const Move& m : encoded_moves(c)) {
    const Branch<Concrete> br = encode_move<Subject, Concrete>(c, e, m);
    if (br.guard && from_enc(br.next) == b) {
      *out = m;
      return true;
    }
  }
  return false;
}

template <class Subject>
std::string describe_path(const Config& c, const std::vector<CoreState>& states, size_t upto,
                          std::vector<Move>* moves = nullptr) {
  std::string out;
  for (size_t i = 0; i < upto && i + 1 < states.size(); ++i) {
    Move m;
    if (move_between<Subject>(c, states[i], states[i + 1], &m)) {
      std::string at;
      if (m.kind == idle_core::MoveKind::step) {
        at = " (" + std::string(idle_core::pc_name(states[i].th[m.thread].pc)) + ")";
      }
      out += strprintf("  %2zu. %s%s\n", i + 1, idle_core::describe(m).c_str(), at.c_str());
      if (moves) moves->push_back(m);
    } else {
      out += strprintf("  %2zu. ? (no move of the encoding)\n", i + 1);
    }
  }
  return out;
}

inline std::string label_of(const Config& c) { return c.describe() + " whole core"; }

inline std::string seconds_of(double s) { return strprintf("%.2f s", s); }

}  // namespace idle_core_ind

template <class Subject>
IdleInductionResult prove_idle_core_induction(const ProofOptions& options,
                                              const IdleInductionOptions& io = {}) {
  using namespace idle_core_ind;
  using clock = std::chrono::steady_clock;
  const std::string name = "idle_core_induction";
  const auto start = clock::now();
  const auto elapsed = [&] { return std::chrono::duration<double>(clock::now() - start).count(); };
  const auto left = [&] {
    ProofOptions o;
    o.budget_seconds = options.budget_seconds - elapsed();
    return o;
  };
  const unsigned k = std::max(1u, io.k);
  const auto included = [&](Fact f) {
    return !fact_info(f).lemma ||
           std::find(io.without.begin(), io.without.end(), f) == io.without.end();
  };
  const auto sum_seconds = [](const ProofResult& r) {
    double s = 0;
    for (const Query& q : r.queries) s += q.seconds;
    return s;
  };

  IdleInductionResult out;
  ProofResult& res = out.proof;
  res.name = name;
  z3::context ctx;
  std::string unresolved;  // the first unresolved CTI, one line
  std::string unknown;     // the first unknown query, one line
  bool violated = false;

  for (unsigned n : io.threads) {
    const Config c = p8_whole_core(n);
    const CoreState init = idle_core::initial_state(c);
    const std::vector<Move> moves = encoded_moves(c);
    IdleInductionPerN pn;
    pn.threads = n;
    const std::string label = label_of(c);
    const auto collect = [&](ProofResult& r) {
      for (Query& q : r.queries) res.queries.push_back(std::move(q));
      r.queries.clear();
    };

    // ---- the base, clause facts: a failure is a real violation ----
    {
      Prover main(name, left());
      Z3Scope scope(ctx);
      std::vector<ZState> s;
      for (unsigned i = 0; i < k; ++i) s.push_back(fresh_state(c, strprintf("s%u_", i)));
      Obligation ob(ctx);
      ob.label = label + ": induction base (the initial state" +
                 (k > 1 ? strprintf(" and %u moves from it", k - 1) : std::string()) + ")";
      z3::expr a = equals_state(c, s[0], init);
      for (unsigned i = 0; i + 1 < k; ++i) {
        a = a &&
            transition<Z3Domain>(c, encode_moves<Subject, Z3Domain>(c, s[i], moves), s[i + 1]).e;
      }
      ob.assumptions = a;
      for (unsigned i = 0; i < k; ++i) {
        const Facts<Z3Domain> f = facts<Subject, Z3Domain>(c, s[i]);
        for (unsigned j = 0; j < kFactCount; ++j) {
          const FactInfo& fi = fact_info(static_cast<Fact>(j));
          if (fi.lemma) continue;
          ob.failures.push_back(
              {fi.clause, strprintf("after %u moves: not (%s)", i, fi.statement), !f[j].e});
        }
      }
      ob.describe = [&c, &s](const z3::model& m) {
        std::string d;
        for (size_t i = 0; i < s.size(); ++i) {
          d += strprintf("state %zu:\n", i) +
               idle_core::describe_state(c, state_in_model(c, m, s[i]));
        }
        return d;
      };
      main.decide(scope, ob);
      ProofResult r = main.finish("");
      pn.base += sum_seconds(r);
      collect(r);
      if (r.verdict == Verdict::violated) {
        res.verdict = Verdict::violated;
        res.detail = r.detail;
        res.counterexample = r.counterexample;
        res.violated = r.violated;
        out.trace_config = c;
        out.trace_states.clear();
        violated = true;
        pn.outcome = "violated";
        out.per_n.push_back(pn);
        break;
      }
      if (r.verdict == Verdict::unknown && unknown.empty()) unknown = r.detail;
    }

    // ---- relative to J: lemmas in the base, the step, progress ----
    ProofResult rel;
    {
      Prover p(name, left());
      // Lemmas in the base.
      {
        Z3Scope scope(ctx);
        std::vector<ZState> s;
        for (unsigned i = 0; i < k; ++i) s.push_back(fresh_state(c, strprintf("s%u_", i)));
        Obligation ob(ctx);
        ob.label = label + ": induction base, lemmas";
        z3::expr a = equals_state(c, s[0], init);
        for (unsigned i = 0; i + 1 < k; ++i) {
          a = a &&
              transition<Z3Domain>(c, encode_moves<Subject, Z3Domain>(c, s[i], moves), s[i + 1]).e;
        }
        ob.assumptions = a;
        for (unsigned i = 0; i < k; ++i) {
          const Facts<Z3Domain> f = facts<Subject, Z3Domain>(c, s[i]);
          for (unsigned j = 0; j < kFactCount; ++j) {
            const FactInfo& fi = fact_info(static_cast<Fact>(j));
            if (!fi.lemma || !included(static_cast<Fact>(j))) continue;
            ob.failures.push_back(
                {fi.clause, strprintf("lemma %s fails after %u moves: %s", fi.id, i, fi.statement),
                 !f[j].e});
          }
        }
        if (ob.failures.empty())
          ob.failures.push_back({"IDLE-1", "(no lemma)", ctx.bool_val(false)});
        ob.describe = [&c, &s](const z3::model& m) {
          std::string d;
          for (size_t i = 0; i < s.size(); ++i) {
            d += strprintf("state %zu:\n", i) +
                 idle_core::describe_state(c, state_in_model(c, m, s[i]));
          }
          return d;
        };
        const auto t0 = clock::now();
        bool go_on = p.decide(scope, ob);
        pn.base += std::chrono::duration<double>(clock::now() - t0).count();
        // The step, one query per thread (its moves) and one for the core
        // loss: J(s) && guard_m(s) => J(next_m(s)) for every move m of the
        // group. Over all groups this is J(s) && T(s, s') => J(s'), T being
        // the disjunction of guard_m(s) && s' == next_m(s); split, each
        // query is small enough for cvc5 too. With k > 1, s is the last of
        // a path of k states of J linked by T.
        std::vector<std::vector<Move>> groups(n + 1);
        for (const Move& m : moves) {
          groups[m.kind == MoveKind::core_loss ? n : m.thread].push_back(m);
        }
        for (unsigned gi = 0; gi <= n && go_on; ++gi) {
          const std::vector<Move>& group = groups[gi];
          Z3Scope scope2(ctx);
          std::vector<ZState> st;
          for (unsigned i = 0; i < k; ++i) st.push_back(fresh_state(c, strprintf("s%u_", i)));
          Obligation step(ctx);
          step.label = label + strprintf(": induction step (k = %u), ", k) +
                       (gi < n ? strprintf("thread %u's moves", gi) : std::string("the core loss"));
          z3::expr assume = ctx.bool_val(true);
          for (unsigned i = 0; i < k; ++i) {
            const Facts<Z3Domain> f = facts<Subject, Z3Domain>(c, st[i]);
            for (unsigned j = 0; j < kFactCount; ++j) {
              if (included(static_cast<Fact>(j))) assume = assume && f[j].e;
            }
            if (i + 1 < k) {
              assume = assume && transition<Z3Domain>(
                                     c, encode_moves<Subject, Z3Domain>(c, st[i], moves), st[i + 1])
                                     .e;
            }
          }
          step.assumptions = assume;
          const std::vector<Branch<Z3Domain>> br =
              encode_moves<Subject, Z3Domain>(c, st[k - 1], group);
          for (size_t mi = 0; mi < group.size(); ++mi) {
            const Facts<Z3Domain> fn = facts<Subject, Z3Domain>(c, br[mi].next);
            for (unsigned j = 0; j < kFactCount; ++j) {
              const FactInfo& fi = fact_info(static_cast<Fact>(j));
              if (!included(static_cast<Fact>(j))) continue;
              step.failures.push_back(
                  {fi.clause,
                   strprintf("'%s' does not preserve %s %s: %s",
                             idle_core::describe(group[mi]).c_str(),
                             fi.lemma ? "lemma" : "clause fact", fi.id, fi.statement),
                   br[mi].guard.e && !fn[j].e});
            }
          }
          step.describe = [&c, &st, &group, &br, k](const z3::model& m) {
            std::vector<CoreState> cs;
            for (const ZState& z : st) cs.push_back(state_in_model(c, m, z));
            std::string d;
            if (k > 1) {
              d += "a path of states of the invariant (not necessarily reachable):\n" +
                   idle_core::describe_state(c, cs[0]) + "moves:\n" +
                   describe_path<Subject>(c, cs, k - 1) + "to:\n" +
                   idle_core::describe_state(c, cs[k - 1]);
            } else {
              d += "a state of the invariant (not necessarily reachable):\n" +
                   idle_core::describe_state(c, cs[0]);
            }
            const EState<Concrete> e = to_enc(cs[k - 1]);
            for (size_t mi = 0; mi < group.size(); ++mi) {
              if (!model_true(m, br[mi].guard.e)) continue;
              const Branch<Concrete> b = encode_move<Subject, Concrete>(c, e, group[mi]);
              const Facts<Concrete> f = facts<Subject, Concrete>(c, b.next);
              if (std::all_of(f.begin(), f.end(), [](bool x) { return x; })) continue;
              d += "move: " + idle_core::describe(group[mi]) + "\nstate after it:\n" +
                   idle_core::describe_state(c, from_enc(b.next));
              break;
            }
            return d;
          };
          const auto t1 = clock::now();
          go_on = p.decide(scope2, step);
          pn.step += std::chrono::duration<double>(clock::now() - t1).count();
        }
      }
      if (io.progress) {
        Z3Scope scope(ctx);
        const ZState s = fresh_state(c, "s_");
        Obligation ob(ctx);
        ob.label = label +
                   ": progress (in every state of the invariant a thread moves without "
                   "spinning)";
        const Facts<Z3Domain> f = facts<Subject, Z3Domain>(c, s);
        z3::expr assume = ctx.bool_val(true);
        for (unsigned j = 0; j < kFactCount; ++j) {
          if (included(static_cast<Fact>(j))) assume = assume && f[j].e;
        }
        ob.assumptions = assume;
        ob.failures.push_back(
            {"IDLE-1", "no thread can move: every move spins or changes nothing",
             !some_move_progresses<Z3Domain>(c, s, encode_moves<Subject, Z3Domain>(c, s, moves))
                  .e});
        ob.describe = [&c, &s](const z3::model& m) {
          return "a state of the invariant (not necessarily reachable):\n" +
                 idle_core::describe_state(c, state_in_model(c, m, s));
        };
        const auto t0 = clock::now();
        p.decide(scope, ob);
        pn.progress = std::chrono::duration<double>(clock::now() - t0).count();
      }
      rel = p.finish("");
      collect(rel);
    }
    if (rel.verdict == Verdict::held) {
      pn.outcome = "held";
      out.per_n.push_back(pn);
      continue;
    }
    if (rel.verdict == Verdict::unknown) {
      if (unknown.empty()) unknown = rel.detail;
      pn.outcome = "unknown";
      out.per_n.push_back(pn);
      continue;
    }

    // ---- a counterexample to induction: is a violation reachable? ----
    if (out.cti.empty()) {
      out.cti = rel.counterexample;
      out.cti_line = rel.detail;
    }
    {
      Prover bmc(name, left());
      Z3Scope scope(ctx);
      const unsigned depth = io.bmc_depth;
      std::vector<ZState> s;
      for (unsigned i = 0; i <= depth; ++i) s.push_back(fresh_state(c, strprintf("b%u_", i)));
      Obligation ob(ctx);
      ob.label = label + strprintf(": bounded model check, %u moves from the initial state", depth);
      z3::expr a = equals_state(c, s[0], init);
      std::vector<z3::expr> broken;  // some clause fact or progress breaks after i moves
      for (unsigned i = 0; i <= depth; ++i) {
        const std::vector<Branch<Z3Domain>> br = encode_moves<Subject, Z3Domain>(c, s[i], moves);
        if (i < depth) a = a && transition<Z3Domain>(c, br, s[i + 1]).e;
        const Facts<Z3Domain> f = facts<Subject, Z3Domain>(c, s[i]);
        z3::expr any = ctx.bool_val(false);
        for (unsigned j = 0; j < kFactCount; ++j) {
          const FactInfo& fi = fact_info(static_cast<Fact>(j));
          if (fi.lemma) continue;
          ob.failures.push_back(
              {fi.clause, strprintf("after %u moves: not (%s)", i, fi.statement), !f[j].e});
          any = any || !f[j].e;
        }
        if (io.progress) {
          const z3::expr stuck = !some_move_progresses<Z3Domain>(c, s[i], br).e;
          ob.failures.push_back(
              {"IDLE-1", strprintf("after %u moves: no thread can move without spinning", i),
               stuck});
          any = any || stuck;
        }
        broken.push_back(any);
      }
      ob.assumptions = a;
      // The shortest path first.
      for (unsigned d = 0; d < depth; ++d) {
        z3::expr by = ctx.bool_val(false);
        for (unsigned i = 0; i <= d; ++i) by = by || broken[i];
        ob.preferences.push_back(by);
      }
      ob.describe = [&c, &s, &broken, &out](const z3::model& m) {
        std::vector<CoreState> cs;
        for (const ZState& z : s) cs.push_back(state_in_model(c, m, z));
        size_t first = cs.size() - 1;
        for (size_t i = 0; i < broken.size(); ++i) {
          if (model_true(m, broken[i])) {
            first = i;
            break;
          }
        }
        out.trace_config = c;
        out.trace.clear();
        std::string d = strprintf("from the initial state, %zu moves:\n", first);
        d += describe_path<Subject>(c, cs, first, &out.trace);
        out.trace_states.assign(cs.begin(), cs.begin() + static_cast<long>(first) + 1);
        d += "state reached:\n" + idle_core::describe_state(c, cs[first]);
        return d;
      };
      const auto t0 = clock::now();
      bmc.decide(scope, ob);
      pn.bmc = std::chrono::duration<double>(clock::now() - t0).count();
      ProofResult r = bmc.finish("");
      collect(r);
      if (r.verdict == Verdict::violated) {
        res.verdict = Verdict::violated;
        res.detail = r.detail + strprintf(
                                    " (a path of %zu moves from the initial state, found "
                                    "after a counterexample to induction)",
                                    out.trace.size());
        res.counterexample = r.counterexample;
        res.violated = r.violated;
        violated = true;
        pn.outcome = "violated";
        out.per_n.push_back(pn);
        break;
      }
      if (r.verdict == Verdict::unknown && unknown.empty()) unknown = r.detail;
      if (unresolved.empty()) {
        unresolved = strprintf(
            "%s: counterexample to induction (%s), and no violation within %u "
            "moves of the initial state",
            label.c_str(), rel.detail.c_str(), depth);
      }
      pn.outcome = "cti";
      out.per_n.push_back(pn);
    }
  }

  res.seconds = elapsed();
  if (violated) return out;
  if (!unresolved.empty()) {
    res.verdict = Verdict::unknown;
    res.detail = "unknown: " + unresolved;
  } else if (!unknown.empty()) {
    res.verdict = Verdict::unknown;
    res.detail = unknown;
  } else if (res.queries.empty()) {
    res.verdict = Verdict::unknown;
    res.detail = "unknown: no query was asked";
  } else {
    res.verdict = Verdict::held;
    std::string ns, times, lemmas;
    for (const IdleInductionPerN& p : out.per_n) {
      ns += (ns.empty() ? "" : ", ") + std::to_string(p.threads);
      times += strprintf("%sN=%u %.2f+%.2f+%.2f s", times.empty() ? "" : ", ", p.threads, p.base,
                         p.step, p.progress);
    }
    for (unsigned j = 0; j < kFactCount; ++j) {
      const FactInfo& fi = fact_info(static_cast<Fact>(j));
      if (fi.lemma && included(static_cast<Fact>(j)))
        lemmas += (lemmas.empty() ? "" : ", ") + std::string(fi.id);
    }
    res.detail = strprintf(
        "proved for every state, %zu queries, %.2f s: %u-induction over T for power8 whole core, "
        "fastsleep workaround on, N = %s: IDLE-1 (at most one thread in the lock-held range, lock "
        "bit iff one is, in every state a thread can move without spinning), IDLE-2 (lock free => "
        "thread bits are the "
        "threads outside the cleared range), IDLE-5 (winkle count = threads in the counted range "
        "<= N); lemmas %s; base+step+progress %s",
        res.queries.size(), res.seconds, k, ns.c_str(), lemmas.empty() ? "none" : lemmas.c_str(),
        times.c_str());
  }
  for (char& ch : res.detail) {
    if (ch == '\n') ch = ' ';
  }
  return out;
}

// Replays a violation's path on the implementation: from impl's initial
// state each move is enabled and apply<Subject>() reaches the proof's next
// state, and the last state breaks a clause fact. Empty when it does, else
// what went wrong.
template <class Subject>
std::string replay_on_impl(const IdleInductionResult& r) {
  using namespace idle_core_enc;
  const idle_core::Config& c = r.trace_config;
  if (r.trace.empty() || r.trace_states.size() != r.trace.size() + 1) return "no path";
  idle_core::CoreState s = idle_core::initial_state(c);
  if (!(s == r.trace_states[0])) return "the path does not start at the initial state";
  std::vector<idle_core::Move> enabled;
  for (size_t i = 0; i < r.trace.size(); ++i) {
    idle_core::enabled_moves(c, s, enabled);
    if (std::find(enabled.begin(), enabled.end(), r.trace[i]) == enabled.end()) {
      return strprintf("move %zu (%s) is not enabled in the implementation", i + 1,
                       idle_core::describe(r.trace[i]).c_str());
    }
    idle_core::apply<Subject>(c, s, r.trace[i]);
    if (!(s == r.trace_states[i + 1])) {
      return strprintf("after move %zu the implementation is elsewhere", i + 1);
    }
  }
  const Facts<Concrete> f = facts<Subject, Concrete>(c, to_enc(s));
  for (unsigned j = 0; j < kFactCount; ++j) {
    if (!fact_info(static_cast<Fact>(j)).lemma && !f[j]) return "";
  }
  const std::vector<Branch<Concrete>> br =
      encode_moves<Subject, Concrete>(c, to_enc(s), encoded_moves(c));
  if (!some_move_progresses<Concrete>(c, to_enc(s), br)) return "";
  return "the last state breaks no clause fact in the implementation";
}

// ---- the check: binding, then induction ------------------------------------------------

// The binding the check runs: POWER8 whole core, workaround on (the
// configuration of the proof), SMT1 and SMT2 exhaustively, SMT3 too when
// `exhaustive` (IDLESPEC_EXHAUSTIVE); the Z3 instance on samples.
// Each capped at a million states (the reference's SMT3 has 98144; a broken
// subject's state space may not be finite in practice: its binding is then
// incomplete, and only a violation replayed on the implementation counts).
inline std::vector<IdleBindingRequest> idle_core_check_bindings(bool exhaustive) {
  constexpr size_t kCap = 1000000;
  std::vector<IdleBindingRequest> out;
  IdleBindingRequest r1;
  r1.config = p8_whole_core(1);
  r1.z3_sample = 64;  // every state (54)
  r1.z3_enumerate = 64;
  r1.max_states = kCap;
  out.push_back(r1);
  IdleBindingRequest r2;
  r2.config = p8_whole_core(2);
  r2.z3_sample = exhaustive ? 64 : 24;
  r2.z3_enumerate = exhaustive ? 16 : 6;
  r2.max_states = kCap;
  out.push_back(r2);
  if (exhaustive) {
    IdleBindingRequest r3;
    r3.config = p8_whole_core(3);
    r3.z3_sample = 16;
    r3.z3_enumerate = 4;
    r3.max_states = kCap;
    out.push_back(r3);
  }
  return out;
}

struct IdleCheckReport {
  IdleBindingReport binding;
  IdleInductionResult induction;
  verify::CheckResult result;
};

template <class Subject>
IdleCheckReport run_idle_core_check(const verify::RunOptions& opts, bool exhaustive,
                                    const IdleInductionOptions& io = {}) {
  using clock = std::chrono::steady_clock;
  const auto start = clock::now();
  IdleCheckReport rep;
  const std::string subject(Subject::name);
  rep.binding = bind_idle_core<Subject>(idle_core_check_bindings(exhaustive), opts.budget_seconds);
  verify::CheckResult& r = rep.result;
  if (!rep.binding.bound) {
    r.outcome = verify::Outcome::fail;
    r.detail = "the encoding is not the code that runs: " + rep.binding.mismatch_line;
    r.counterexample = rep.binding.mismatch;
    r.replay = replay_command("idle_core_induction", subject);
    r.seconds = std::chrono::duration<double>(clock::now() - start).count();
    return rep;
  }
  ProofOptions po;
  po.budget_seconds =
      opts.budget_seconds - std::chrono::duration<double>(clock::now() - start).count();
  rep.induction = prove_idle_core_induction<Subject>(po, io);
  r = to_check_result(rep.induction.proof, subject);
  const std::string bound = strprintf(
      "bound to impl/idle_core_model.h (encoding == apply() on every move of %zu "
      "reachable states, %zu moves: %s)",
      rep.binding.states(), rep.binding.moves(), rep.binding.summary().c_str());
  if (r.outcome == verify::Outcome::fail) {
    // A violation counts only with a path the implementation replays.
    const std::string why = replay_on_impl<Subject>(rep.induction);
    if (why.empty()) {
      r.detail += "; the path replays on impl/idle_core_model.h";
    } else {
      r.outcome = verify::Outcome::unknown;
      r.detail = "unknown: the proof's counterexample does not replay on the implementation (" +
                 why + "): " + r.detail;
      r.counterexample.clear();
      r.violated.clear();
    }
  } else if (r.outcome == verify::Outcome::pass && !rep.binding.complete) {
    r.outcome = verify::Outcome::unknown;
    r.detail = strprintf("unknown: the binding check did not finish within %.0f s (%s); ",
                         opts.budget_seconds, rep.binding.summary().c_str()) +
               r.detail;
    r.replay = replay_command("idle_core_induction", subject);
  } else if (r.outcome == verify::Outcome::pass &&
             (!rep.binding.clause_facts_hold() || !rep.binding.lemmas_hold())) {
    // Cannot happen if both are right: the induction proves every fact.
    r.outcome = verify::Outcome::fail;
    r.detail = "inconsistent: the induction held but a fact fails on a reachable state: " +
               rep.binding.first_fact_failure;
    r.replay = replay_command("idle_core_induction", subject);
  } else {
    r.detail += "; " + bound;
  }
  for (char& ch : r.detail) {
    if (ch == '\n') ch = ' ';
  }
  r.seconds = std::chrono::duration<double>(clock::now() - start).count();
  return rep;
}

}  // namespace idlespec::proofs
