// Binding the idle_core encoding to the code that runs: a differential check
// of proofs/idle_core_encoding.h against impl/idle_core_model.h.
//
// For every reachable state of the implementation model (breadth-first, as
// tests/unit/idle_core_test.cc walks it; or random walks from the initial
// state when the state space is too large) and every move the encoding has:
//
//   - the encoding's guard holds iff impl's enabled_moves() offers the move
//     (T admits no move the implementation does not make, and misses none);
//   - when it does, the encoding's next state (Concrete domain) is exactly
//     apply<Subject>() of the implementation, every field of the word, every
//     thread's locals and the ghost.
//
// Each move of the encoding is deterministic given s, so together these say
// {s' | T(s, s')} = {apply(s, m) | m enabled in s} on every state visited.
//
// The Concrete instance is the Z3 instance's twin (same template); on a
// sample of the visited states the Z3 instance is compared with it too:
// guards and next states substituted with the state's constants and
// simplified, T(s, apply(s, m)) simplified to true, and (on a smaller sample)
// every s' with T(s, s') enumerated by the solver with blocking clauses and
// compared with impl's successors.
//
// The same pass evaluates the inductive invariant's facts on every visited
// state (a lemma that fails on a reachable state is a wrong lemma; a clause
// fact that fails is a real violation) and checks that some move changes
// every state.
#pragma once

#include <z3++.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdint>
#include <deque>
#include <random>
#include <string>
#include <unordered_set>
#include <vector>

#include "impl/idle_core_model.h"
#include "impl/text.h"
#include "proofs/idle_core_encoding.h"
#include "proofs/idle_core_z3.h"

namespace idlespec::proofs {

struct IdleBindingRequest {
  idle_core::Config config;
  bool exhaustive = true;  // breadth-first over every reachable state (threads <= 4)
  size_t max_states = 0;   // exhaustive: stop (incomplete) after this many; 0: no limit
  size_t walks = 0;        // otherwise: random walks from the initial state
  size_t walk_length = 0;
  uint64_t seed = 1;
  size_t z3_sample = 0;     // states on which the Z3 instance is compared
  size_t z3_enumerate = 0;  // of those, states whose T(s, .) is enumerated by the solver
};

struct IdleBindingConfigReport {
  std::string label;  // "power8 SMT2, exhaustive"
  size_t states = 0;  // states whose moves were compared
  size_t moves = 0;   // enabled moves compared (next states equal)
  size_t guards = 0;  // encoded moves whose guard was compared
  size_t z3_states = 0;
  size_t z3_enumerated = 0;
  bool complete = false;  // every requested state was visited
  double seconds = 0;
};

struct IdleBindingReport {
  bool bound = true;          // no mismatch
  bool complete = true;       // every request ran to its end within the budget
  std::string mismatch;       // the first mismatch, multi-line
  std::string mismatch_line;  // ... in one line
  std::vector<IdleBindingConfigReport> configs;
  std::array<size_t, idle_core_enc::kFactCount> fact_failures{};
  std::string first_fact_failure;  // the fact and the state
  size_t stuck_states = 0;         // states where every move spins or changes nothing
  double seconds = 0;

  size_t states() const {
    size_t n = 0;
    for (const auto& c : configs) n += c.states;
    return n;
  }
  size_t moves() const {
    size_t n = 0;
    for (const auto& c : configs) n += c.moves;
    return n;
  }
  bool clause_facts_hold() const {
    for (unsigned f = 0; f < idle_core_enc::kFactCount; ++f) {
      if (!idle_core_enc::fact_info(static_cast<idle_core_enc::Fact>(f)).lemma &&
          fact_failures[f] != 0)
        return false;
    }
    return stuck_states == 0;
  }
  bool lemmas_hold() const {
    for (unsigned f = 0; f < idle_core_enc::kFactCount; ++f) {
      if (idle_core_enc::fact_info(static_cast<idle_core_enc::Fact>(f)).lemma &&
          fact_failures[f] != 0)
        return false;
    }
    return true;
  }
  // "power8 SMT1, exhaustive: 54 states, 60 moves; ..."
  std::string summary() const {
    std::string s;
    for (const auto& c : configs) {
      if (!s.empty()) s += "; ";
      s += strprintf("%s: %zu states, %zu moves%s", c.label.c_str(), c.states, c.moves,
                     c.complete ? "" : " (incomplete)");
      if (c.z3_states) s += strprintf(", Z3 instance on %zu", c.z3_states);
      if (c.z3_enumerated) s += strprintf(", T(s,.) enumerated on %zu", c.z3_enumerated);
      s += strprintf(" (%.2f s)", c.seconds);
    }
    return s;
  }
};

namespace idle_core_bind {

using idle_core::Config;
using idle_core::CoreState;
using idle_core::Move;

// The exact state, packed (threads <= 4: 32 + 4 * 46 + 15 bits).
using Key = std::array<uint64_t, 4>;
struct KeyHash {
  size_t operator()(const Key& k) const {
    uint64_t h = 0x9e3779b97f4a7c15ull;
    for (uint64_t w : k) {
      h ^= w + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
      h *= 0xff51afd7ed558ccdull;
    }
    return static_cast<size_t>(h ^ (h >> 33));
  }
};

inline Key pack(const Config& c, const CoreState& s) {
  Key k{};
  unsigned bit = 0;
  const auto put = [&](uint64_t v, unsigned width) {
    for (unsigned i = 0; i < width; ++i, ++bit) {
      if ((v >> i) & 1) k[bit / 64] |= uint64_t{1} << (bit % 64);
    }
  };
  put(s.word, 32);
  for (unsigned t = 0; t < c.threads; ++t) {
    const idle_core::ThreadState& th = s.th[t];
    put(static_cast<uint8_t>(th.pc), 5);
    put(static_cast<uint8_t>(th.kind), 3);
    put(static_cast<uint8_t>(th.lost), 2);
    put(th.sprs_saved | th.full_winkle << 1 | th.first << 2 | th.sibling_awake << 3, 4);
    put(th.seen, 32);
  }
  const idle_core::Ghost& g = s.ghost;
  put(g.tb_valid | g.wa_applied << 1 | g.core_regs_valid << 2, 3);
  put(g.subcore_regs_valid, 4);
  put(g.thread_regs_valid, 8);
  return k;
}

inline std::string describe_moves_of(const Config& c, const CoreState& s) {
  std::vector<Move> moves;
  idle_core::enabled_moves(c, s, moves);
  std::string out;
  for (const Move& m : moves) out += (out.empty() ? "" : ", ") + idle_core::describe(m);
  return out;
}

// Compares the encoding with impl on one state; appends impl's successors.
// Returns false (and fills report.mismatch) on the first difference.
template <class Subject>
bool compare_state(const Config& c, const CoreState& s, const std::vector<Move>& all_moves,
                   std::vector<Move>& impl_moves, std::vector<CoreState>& successors,
                   IdleBindingConfigReport& rep, IdleBindingReport& report) {
  using namespace idle_core_enc;
  idle_core::enabled_moves(c, s, impl_moves);
  const EState<Concrete> e = to_enc(s);
  size_t matched = 0;
  bool progress = false;
  for (const Move& m : all_moves) {
    const Branch<Concrete> b = encode_move<Subject, Concrete>(c, e, m);
    const bool in_impl = std::find(impl_moves.begin(), impl_moves.end(), m) != impl_moves.end();
    ++rep.guards;
    if (b.guard != in_impl) {
      report.bound = false;
      report.mismatch_line =
          strprintf("%s: the encoding %s move '%s', the implementation %s", c.describe().c_str(),
                    b.guard ? "enables" : "does not enable", idle_core::describe(m).c_str(),
                    in_impl ? "makes it" : "does not");
      report.mismatch = report.mismatch_line + "\nstate:\n" + idle_core::describe_state(c, s) +
                        "implementation's moves: " + describe_moves_of(c, s) + "\n";
      if (b.guard) {
        report.mismatch +=
            "encoding's next state:\n" + idle_core::describe_state(c, from_enc(b.next));
      }
      return false;
    }
    if (!b.guard) continue;
    ++matched;
    CoreState n = s;
    const idle_core::Transition tr = idle_core::apply<Subject>(c, n, m);
    const bool spin = tr.result.event == idle_core::Event::spin;
    const CoreState en = from_enc(b.next);
    if (spin != b.spin) {
      report.bound = false;
      report.mismatch_line =
          strprintf("%s: move '%s' is a spin in the %s only", c.describe().c_str(),
                    idle_core::describe(m).c_str(), spin ? "implementation" : "encoding");
      report.mismatch = report.mismatch_line + "\nstate:\n" + idle_core::describe_state(c, s);
      return false;
    }
    if (!(en == n)) {
      report.bound = false;
      report.mismatch_line = strprintf(
          "%s: move '%s' leads to different states in the encoding and the implementation",
          c.describe().c_str(), idle_core::describe(m).c_str());
      report.mismatch = report.mismatch_line + "\nstate:\n" + idle_core::describe_state(c, s) +
                        "implementation's next state:\n" + idle_core::describe_state(c, n) +
                        "encoding's next state:\n" + idle_core::describe_state(c, en);
      const auto iv = idle_core_enc::flatten(c, n);
      const auto ev = idle_core_enc::flatten(c, en);
      report.mismatch +=
          "components (word, per thread pc kind lost sprs_saved full_winkle first "
          "sibling_awake seen, ghost) that differ:";
      for (size_t i = 0; i < iv.size(); ++i) {
        if (iv[i] != ev[i])
          report.mismatch +=
              strprintf(" #%zu impl %llx enc %llx", i, static_cast<unsigned long long>(iv[i]),
                        static_cast<unsigned long long>(ev[i]));
      }
      report.mismatch += "\n";
      return false;
    }
    ++rep.moves;
    if (!spin && !(n == s)) progress = true;
    successors.push_back(n);
  }
  if (matched != impl_moves.size()) {
    report.bound = false;
    report.mismatch_line = strprintf(
        "%s: the implementation makes a move the encoding does not list", c.describe().c_str());
    report.mismatch = report.mismatch_line + "\nstate:\n" + idle_core::describe_state(c, s) +
                      "implementation's moves: " + describe_moves_of(c, s) + "\n";
    return false;
  }
  if (!progress) ++report.stuck_states;
  const Facts<Concrete> f = facts<Subject, Concrete>(c, e);
  for (unsigned i = 0; i < kFactCount; ++i) {
    if (f[i]) continue;
    if (report.fact_failures[i]++ == 0 && report.first_fact_failure.empty()) {
      report.first_fact_failure = std::string(fact_info(static_cast<Fact>(i)).id) + " fails on " +
                                  c.describe() + ":\n" + idle_core::describe_state(c, s);
    }
  }
  ++rep.states;
  return true;
}

// The Z3 instance against the Concrete one on `states`; T(s, .) enumerated
// on the first `enumerate` of them. Returns false on a difference.
template <class Subject>
bool compare_z3(const Config& c, const std::vector<CoreState>& states, size_t enumerate,
                IdleBindingConfigReport& rep, IdleBindingReport& report) {
  using namespace idle_core_enc;
  if (states.empty()) return true;
  z3::context ctx;
  Z3Scope scope(ctx);
  const std::vector<Move> all_moves = encoded_moves(c);
  const ZState S = fresh_state(c, "s_");
  const ZState N = fresh_state(c, "n_");
  const std::vector<Branch<Z3Domain>> zb = encode_moves<Subject, Z3Domain>(c, S, all_moves);
  const z3::expr T = transition<Z3Domain>(c, zb, N).e;
  const z3::expr_vector src = to_vector(ctx, flatten(c, S));
  const z3::expr_vector nsrc = to_vector(ctx, flatten(c, N));
  z3::expr_vector both(ctx);
  for (unsigned i = 0; i < src.size(); ++i) both.push_back(src[i]);
  for (unsigned i = 0; i < nsrc.size(); ++i) both.push_back(nsrc[i]);
  std::vector<Move> impl_moves;
  const auto fail = [&](const CoreState& s, const std::string& what) {
    report.bound = false;
    report.mismatch_line =
        c.describe() + ": the Z3 instance differs from the concrete one: " + what;
    report.mismatch = report.mismatch_line + "\nstate:\n" + idle_core::describe_state(c, s);
    return false;
  };
  for (size_t k = 0; k < states.size(); ++k) {
    const CoreState& s = states[k];
    const std::vector<uint64_t> sv = flatten(c, s);
    z3::expr_vector dst(ctx);
    for (unsigned i = 0; i < src.size(); ++i) dst.push_back(constant_like(src[i], sv[i]));
    const EState<Concrete> e = to_enc(s);
    // Per move: the guard and (when enabled) the next state, as one formula
    // that must simplify to true.
    z3::expr agree = ctx.bool_val(true);
    for (size_t i = 0; i < all_moves.size(); ++i) {
      const Branch<Concrete> b = encode_move<Subject, Concrete>(c, e, all_moves[i]);
      agree = agree && (b.guard ? zb[i].guard.e : !zb[i].guard.e);
      if (!b.guard) continue;
      agree = agree && (b.spin ? zb[i].spin.e : !zb[i].spin.e);
      const std::vector<z3::expr> xs = flatten(c, zb[i].next);
      const std::vector<uint64_t> vs = flatten(c, from_enc(b.next));
      for (size_t j = 0; j < xs.size(); ++j) agree = agree && xs[j] == constant_like(xs[j], vs[j]);
    }
    if (!z3::expr(agree).substitute(src, dst).simplify().is_true()) {
      return fail(s, "a guard or a next state does not simplify to the concrete value");
    }
    // T(s, apply(s, m)) for every move impl makes.
    idle_core::enabled_moves(c, s, impl_moves);
    std::vector<CoreState> succ;
    for (const Move& m : impl_moves) {
      CoreState n = s;
      idle_core::apply<Subject>(c, n, m);
      if (std::find(succ.begin(), succ.end(), n) == succ.end()) succ.push_back(n);
      const std::vector<uint64_t> nv = flatten(c, n);
      z3::expr_vector dst2(ctx);
      for (unsigned i = 0; i < dst.size(); ++i) dst2.push_back(dst[i]);
      for (unsigned i = 0; i < nsrc.size(); ++i) dst2.push_back(constant_like(nsrc[i], nv[i]));
      if (!z3::expr(T).substitute(both, dst2).simplify().is_true()) {
        return fail(s, "T(s, apply(s, " + idle_core::describe(m) + ")) is not true");
      }
    }
    ++rep.z3_states;
    if (k >= enumerate) continue;
    // Every s' with T(s, s'), by the solver: exactly impl's successors.
    z3::solver solver(ctx);
    solver.add(equals_state(c, S, s));
    solver.add(T);
    size_t found = 0;
    for (;;) {
      if (solver.check() != z3::sat) break;
      const CoreState n = state_in_model(c, solver.get_model(), N);
      if (std::find(succ.begin(), succ.end(), n) == succ.end()) {
        return fail(s, "T admits a successor the implementation does not produce:\n" +
                           idle_core::describe_state(c, n));
      }
      ++found;
      solver.add(!equals_state(c, N, n));
      if (found > succ.size()) break;
    }
    if (found != succ.size()) {
      return fail(s, strprintf("T admits %zu successors, the implementation produces %zu", found,
                               succ.size()));
    }
    ++rep.z3_enumerated;
  }
  return true;
}

}  // namespace idle_core_bind

// Runs the requests in order within `budget_seconds` (what is left of it
// when a request starts; a request cut short is incomplete).
template <class Subject>
IdleBindingReport bind_idle_core(const std::vector<IdleBindingRequest>& requests,
                                 double budget_seconds) {
  using namespace idle_core_bind;
  using clock = std::chrono::steady_clock;
  const auto start = clock::now();
  const auto elapsed = [&] { return std::chrono::duration<double>(clock::now() - start).count(); };
  IdleBindingReport report;
  for (const IdleBindingRequest& req : requests) {
    const Config& c = req.config;
    const auto t0 = clock::now();
    IdleBindingConfigReport rep;
    rep.label = c.describe() + (req.exhaustive ? ", exhaustive" : ", random walks");
    const std::vector<Move> all_moves = idle_core_enc::encoded_moves(c);
    std::vector<Move> impl_moves;
    std::vector<CoreState> successors;
    std::vector<CoreState> sample;
    std::mt19937_64 rng(req.seed);
    size_t visited = 0;
    const auto keep_sample = [&](const CoreState& s) {
      ++visited;
      if (sample.size() < req.z3_sample) {
        sample.push_back(s);
      } else if (req.z3_sample) {
        const size_t j = std::uniform_int_distribution<size_t>(0, visited - 1)(rng);
        if (j < req.z3_sample) sample[j] = s;
      }
    };
    bool ok = true;
    bool out_of_time = false;
    if (req.exhaustive) {
      std::unordered_set<Key, KeyHash> seen;
      std::deque<CoreState> queue;
      const CoreState init = idle_core::initial_state(c);
      seen.insert(pack(c, init));
      queue.push_back(init);
      while (!queue.empty() && ok) {
        if ((rep.states & 1023) == 0 && elapsed() > budget_seconds) {
          out_of_time = true;
          break;
        }
        if (req.max_states && rep.states >= req.max_states) break;
        const CoreState s = queue.front();
        queue.pop_front();
        successors.clear();
        ok = compare_state<Subject>(c, s, all_moves, impl_moves, successors, rep, report);
        keep_sample(s);
        for (const CoreState& n : successors) {
          if (seen.insert(pack(c, n)).second) queue.push_back(n);
        }
      }
      rep.complete = ok && queue.empty() && !out_of_time;
    } else {
      for (size_t w = 0; w < req.walks && ok; ++w) {
        if (elapsed() > budget_seconds) {
          out_of_time = true;
          break;
        }
        CoreState s = idle_core::initial_state(c);
        for (size_t i = 0; i < req.walk_length && ok; ++i) {
          successors.clear();
          ok = compare_state<Subject>(c, s, all_moves, impl_moves, successors, rep, report);
          keep_sample(s);
          if (!ok || successors.empty()) break;
          s = successors[std::uniform_int_distribution<size_t>(0, successors.size() - 1)(rng)];
        }
      }
      rep.complete = ok && !out_of_time;
    }
    if (ok && !sample.empty() && elapsed() < budget_seconds) {
      ok = compare_z3<Subject>(c, sample, req.z3_enumerate, rep, report);
    } else if (ok && !sample.empty()) {
      rep.complete = false;
    }
    rep.seconds = std::chrono::duration<double>(clock::now() - t0).count();
    report.complete = report.complete && rep.complete;
    report.configs.push_back(rep);
    if (!ok) break;
  }
  report.seconds = elapsed();
  return report;
}

}  // namespace idlespec::proofs
