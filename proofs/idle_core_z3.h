// The idle_core encoding (proofs/idle_core_encoding.h) in Z3: fresh symbolic
// states, constant states, and the flat list of a state's components that
// ties a Z3 state to a CoreState (substitution, models, blocking clauses).
#pragma once

#include <z3++.h>

#include <cstdint>
#include <string>
#include <vector>

#include "proofs/idle_core_encoding.h"
#include "proofs/z3_domain.h"

namespace idlespec::proofs::idle_core_enc {

using ZState = EState<Z3Domain>;

// A state of fresh constants named prefix + field ("s0_t1_pc"). Threads at
// or above c.threads keep the constant zero state.
inline ZState fresh_state(const Config& c, const std::string& prefix) {
  ZState s;
  s.word = fresh<32>(prefix + "word");
  for (unsigned t = 0; t < c.threads; ++t) {
    const std::string p = prefix + "t" + std::to_string(t) + "_";
    EThread<Z3Domain>& th = s.th[t];
    th.pc = fresh<8>(p + "pc");
    th.kind = fresh<8>(p + "kind");
    th.lost = fresh<8>(p + "lost");
    th.sprs_saved = fresh_bool(p + "sprs_saved");
    th.full_winkle = fresh_bool(p + "full_winkle");
    th.first = fresh_bool(p + "first");
    th.sibling_awake = fresh_bool(p + "sibling_awake");
    th.seen = fresh<32>(p + "seen");
  }
  s.g.tb_valid = fresh_bool(prefix + "tb_valid");
  s.g.wa_applied = fresh_bool(prefix + "wa_applied");
  s.g.core_regs_valid = fresh_bool(prefix + "core_regs_valid");
  s.g.subcore_regs_valid = fresh<8>(prefix + "subcore_regs_valid");
  s.g.thread_regs_valid = fresh<8>(prefix + "thread_regs_valid");
  return s;
}

// The components of a state, in a fixed order: word; per thread below
// c.threads pc, kind, lost, sprs_saved, full_winkle, first, sibling_awake,
// seen; the ghost's five fields.
inline std::vector<z3::expr> flatten(const Config& c, const ZState& s) {
  std::vector<z3::expr> out;
  out.push_back(s.word.e);
  for (unsigned t = 0; t < c.threads; ++t) {
    const EThread<Z3Domain>& th = s.th[t];
    for (const z3::expr& e : {th.pc.e, th.kind.e, th.lost.e, th.sprs_saved.e, th.full_winkle.e,
                              th.first.e, th.sibling_awake.e, th.seen.e}) {
      out.push_back(e);
    }
  }
  for (const z3::expr& e : {s.g.tb_valid.e, s.g.wa_applied.e, s.g.core_regs_valid.e,
                            s.g.subcore_regs_valid.e, s.g.thread_regs_valid.e}) {
    out.push_back(e);
  }
  return out;
}

inline std::vector<uint64_t> flatten(const Config& c, const CoreState& s) {
  std::vector<uint64_t> out;
  out.push_back(s.word);
  for (unsigned t = 0; t < c.threads; ++t) {
    const idle_core::ThreadState& th = s.th[t];
    for (uint64_t v :
         {uint64_t{static_cast<uint8_t>(th.pc)}, uint64_t{static_cast<uint8_t>(th.kind)},
          uint64_t{static_cast<uint8_t>(th.lost)}, uint64_t{th.sprs_saved},
          uint64_t{th.full_winkle}, uint64_t{th.first}, uint64_t{th.sibling_awake},
          uint64_t{th.seen}}) {
      out.push_back(v);
    }
  }
  const idle_core::Ghost& g = s.ghost;
  for (uint64_t v : {uint64_t{g.tb_valid}, uint64_t{g.wa_applied}, uint64_t{g.core_regs_valid},
                     uint64_t{g.subcore_regs_valid}, uint64_t{g.thread_regs_valid}}) {
    out.push_back(v);
  }
  return out;
}

inline CoreState unflatten(const Config& c, const std::vector<uint64_t>& v) {
  CoreState s;
  size_t i = 0;
  s.word = static_cast<uint32_t>(v[i++]);
  for (unsigned t = 0; t < c.threads; ++t) {
    idle_core::ThreadState& th = s.th[t];
    th.pc = static_cast<Pc>(v[i++]);
    th.kind = static_cast<Kind>(v[i++]);
    th.lost = static_cast<Loss>(v[i++]);
    th.sprs_saved = v[i++] != 0;
    th.full_winkle = v[i++] != 0;
    th.first = v[i++] != 0;
    th.sibling_awake = v[i++] != 0;
    th.seen = static_cast<uint32_t>(v[i++]);
  }
  idle_core::Ghost& g = s.ghost;
  g.tb_valid = v[i++] != 0;
  g.wa_applied = v[i++] != 0;
  g.core_regs_valid = v[i++] != 0;
  g.subcore_regs_valid = static_cast<uint8_t>(v[i++]);
  g.thread_regs_valid = static_cast<uint8_t>(v[i++]);
  return s;
}

// The constant of the same sort as `like` with value v.
inline z3::expr constant_like(const z3::expr& like, uint64_t v) {
  if (like.is_bool()) return like.ctx().bool_val(v != 0);
  return like.ctx().bv_val(static_cast<uint64_t>(v), like.get_sort().bv_size());
}

inline z3::expr_vector to_vector(z3::context& ctx, const std::vector<z3::expr>& xs) {
  z3::expr_vector v(ctx);
  for (const z3::expr& x : xs) v.push_back(x);
  return v;
}

// s (symbolic) == the concrete state cs.
inline z3::expr equals_state(const Config& c, const ZState& s, const CoreState& cs) {
  const std::vector<z3::expr> xs = flatten(c, s);
  const std::vector<uint64_t> vs = flatten(c, cs);
  z3::expr all = current_context().bool_val(true);
  for (size_t i = 0; i < xs.size(); ++i) all = all && xs[i] == constant_like(xs[i], vs[i]);
  return all;
}

// The state under a model (completed).
inline CoreState state_in_model(const Config& c, const z3::model& m, const ZState& s) {
  std::vector<uint64_t> v;
  for (const z3::expr& e : flatten(c, s)) {
    const z3::expr val = m.eval(e, true);
    if (e.is_bool()) {
      v.push_back(val.is_true() ? 1 : 0);
    } else {
      uint64_t u = 0;
      val.is_numeral_u64(u);
      v.push_back(u);
    }
  }
  return unflatten(c, v);
}

}  // namespace idlespec::proofs::idle_core_enc
