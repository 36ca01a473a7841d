// The idle_core transition relation T(s, s') written once over a value domain
// (impl/domain.h): instantiated with Concrete it is compared, move by move,
// with impl/idle_core_model.h's apply() on every reachable state
// (proofs/idle_core_binding.h); instantiated with Z3Domain it is what the
// induction proof asks Z3 about (proofs/idle_core_induction.h).
//
// impl/idle_core.h's step() switches on the program point and calls an Env,
// so it is not instantiated over Z3 directly. This file restates it as data
// flow: every branch is a D::ite, every move a deterministic function of the
// state with a guard. The encoding is parameterised by the same Subject hooks
// as impl's Reference (clear_under_lock, winkle_dec_on_noloss, first_resyncs,
// resync_before_unlock, every_loss_wake_resyncs, core_thread_mask), so a
// witness subject yields the witness's encoding.
//
// State (one core, c.threads threads, the rest of the arrays fixed at zero):
//   word                     32-bit bit-vector (the layout of impl/idle_core.h)
//   per thread               pc, kind, lost: 8-bit; sprs_saved, full_winkle,
//                            first, sibling_awake: Bool; seen: 32-bit
//   ghost                    tb_valid, wa_applied, core_regs_valid: Bool;
//                            subcore_regs_valid, thread_regs_valid: 8-bit
//
// Moves (impl's Move, same order as enabled_moves): per thread t,
// begin_idle(t, k) for each kind the platform allows, step(t), wake(t); then
// core_loss. T(s, s') = OR over moves m of guard_m(s) && s' == next_m(s).
//
// Both platforms and split-core are encoded (the hooks are the same); the
// induction proof uses POWER8 whole-core with the fastsleep workaround on.
#pragma once

#include <array>
#include <cstdint>
#include <initializer_list>
#include <vector>

#include "impl/domain.h"
#include "impl/idle_core.h"
#include "impl/idle_core_model.h"

namespace idlespec::proofs::idle_core_enc {

using idle_core::Config;
using idle_core::CoreState;
using idle_core::Kind;
using idle_core::Loss;
using idle_core::Move;
using idle_core::MoveKind;
using idle_core::Pc;

// Deliberate slips of the encoding, for the tests of the binding check: a
// subject may carry `static constexpr EncodingMutation encoding_mutation`.
// impl/ never reads it, so the encoding and the code then disagree.
enum class EncodingMutation {
  none,
  cmpxchg_keeps_lock,  // unlock_cmpxchg stores s | thread (the lock stays set)
  wake_from_idle_insn  // wake is also enabled at idle_insn: a move impl does not have
};

template <class Subject>
constexpr EncodingMutation mutation_of() {
  if constexpr (requires { Subject::encoding_mutation; }) {
    return Subject::encoding_mutation;
  } else {
    return EncodingMutation::none;
  }
}

inline constexpr uint32_t kLock32 = static_cast<uint32_t>(idle_core::kLock);
inline constexpr uint32_t kCountOne32 = static_cast<uint32_t>(idle_core::kWinkleCountOne);
inline constexpr uint32_t kCountBits32 = static_cast<uint32_t>(idle_core::kWinkleCountBits);

template <class D>
struct EThread {
  using U8 = typename D::template U<8>;
  using U32 = typename D::template U<32>;
  using B = typename D::Bool;
  U8 pc = D::template lit<8>(0);
  U8 kind = D::template lit<8>(0);
  U8 lost = D::template lit<8>(0);
  B sprs_saved = D::truth(false);
  B full_winkle = D::truth(false);
  B first = D::truth(false);
  B sibling_awake = D::truth(false);
  U32 seen = D::template lit<32>(0);
};

template <class D>
struct EGhost {
  using U8 = typename D::template U<8>;
  using B = typename D::Bool;
  B tb_valid = D::truth(true);
  B wa_applied = D::truth(false);
  B core_regs_valid = D::truth(true);
  U8 subcore_regs_valid = D::template lit<8>(0xf);
  U8 thread_regs_valid = D::template lit<8>(0xff);
};

template <class D>
struct EState {
  typename D::template U<32> word = D::template lit<32>(0);
  std::array<EThread<D>, idle_core::kMaxThreads> th{};
  EGhost<D> g{};
};

template <class D>
struct Branch {
  typename D::Bool guard;
  EState<D> next;
  // A failing test-and-set or cmpxchg: impl's Event::spin (the move must be
  // retried; a failing cmpxchg still records the word it saw).
  typename D::Bool spin;
};

// ---- small helpers over D -----------------------------------------------------

template <class D>
typename D::template U<8> pc_lit(Pc p) {
  return D::template lit<8>(static_cast<unsigned>(p));
}
template <class D>
typename D::template U<8> kind_lit(Kind k) {
  return D::template lit<8>(static_cast<unsigned>(k));
}
template <class D>
typename D::template U<32> w32(uint64_t v) {
  return D::template lit<32>(v & 0xffffffffu);
}

template <class D>
typename D::Bool pc_is(const EThread<D>& th, Pc p) {
  return th.pc == pc_lit<D>(p);
}
template <class D>
typename D::Bool pc_in(const EThread<D>& th, std::initializer_list<Pc> pcs) {
  typename D::Bool any = D::truth(false);
  for (Pc p : pcs) any = any || pc_is<D>(th, p);
  return any;
}
template <class D>
typename D::Bool kind_in(const EThread<D>& th, std::initializer_list<Kind> kinds) {
  typename D::Bool any = D::truth(false);
  for (Kind k : kinds) any = any || th.kind == kind_lit<D>(k);
  return any;
}

template <class D>
EThread<D> ite(const typename D::Bool& c, const EThread<D>& a, const EThread<D>& b) {
  EThread<D> r;
  r.pc = D::ite(c, a.pc, b.pc);
  r.kind = D::ite(c, a.kind, b.kind);
  r.lost = D::ite(c, a.lost, b.lost);
  r.sprs_saved = D::ite(c, a.sprs_saved, b.sprs_saved);
  r.full_winkle = D::ite(c, a.full_winkle, b.full_winkle);
  r.first = D::ite(c, a.first, b.first);
  r.sibling_awake = D::ite(c, a.sibling_awake, b.sibling_awake);
  r.seen = D::ite(c, a.seen, b.seen);
  return r;
}

template <class D>
EGhost<D> ite(const typename D::Bool& c, const EGhost<D>& a, const EGhost<D>& b) {
  EGhost<D> r;
  r.tb_valid = D::ite(c, a.tb_valid, b.tb_valid);
  r.wa_applied = D::ite(c, a.wa_applied, b.wa_applied);
  r.core_regs_valid = D::ite(c, a.core_regs_valid, b.core_regs_valid);
  r.subcore_regs_valid = D::ite(c, a.subcore_regs_valid, b.subcore_regs_valid);
  r.thread_regs_valid = D::ite(c, a.thread_regs_valid, b.thread_regs_valid);
  return r;
}

template <class D>
typename D::Bool same(const EThread<D>& a, const EThread<D>& b) {
  return a.pc == b.pc && a.kind == b.kind && a.lost == b.lost && a.sprs_saved == b.sprs_saved &&
         a.full_winkle == b.full_winkle && a.first == b.first &&
         a.sibling_awake == b.sibling_awake && a.seen == b.seen;
}

template <class D>
typename D::Bool same(const EGhost<D>& a, const EGhost<D>& b) {
  return a.tb_valid == b.tb_valid && a.wa_applied == b.wa_applied &&
         a.core_regs_valid == b.core_regs_valid && a.subcore_regs_valid == b.subcore_regs_valid &&
         a.thread_regs_valid == b.thread_regs_valid;
}

// s == s' over the c.threads threads that exist.
template <class D>
typename D::Bool same(const Config& c, const EState<D>& a, const EState<D>& b) {
  typename D::Bool all = a.word == b.word && same<D>(a.g, b.g);
  for (unsigned t = 0; t < c.threads; ++t) all = all && same<D>(a.th[t], b.th[t]);
  return all;
}

// ---- the protocol's decisions ---------------------------------------------------

// duty_applies<Subject>(c, th, pc) of impl/idle_core.h.
template <class Subject, class D>
typename D::Bool duty_applies(const Config& c, const EThread<D>& th, Pc pc) {
  using B = typename D::Bool;
  const B loss = th.lost != D::template lit<8>(0);
  const B full = th.lost == D::template lit<8>(static_cast<unsigned>(Loss::full));
  const B tb_lost = c.power9() ? full : loss;
  switch (pc) {
    case Pc::restore_core:
      return c.power9() ? (loss && th.first) : (loss && th.first && th.full_winkle);
    case Pc::p8_undo_wa:
      if (c.power9() || !c.fastsleep_workaround) return D::truth(false);
      return loss && th.first;
    case Pc::resync_tb: {
      const B first_here =
          (Subject::first_resyncs && Subject::resync_before_unlock) ? th.first : D::truth(false);
      return tb_lost && (first_here || D::truth(Subject::every_loss_wake_resyncs));
    }
    case Pc::restore_subcore:
      if (c.power9()) return D::truth(false);
      return loss && th.full_winkle && !th.sibling_awake;
    case Pc::unlock_load:
    case Pc::unlock_cmpxchg:
      return D::truth(true);
    case Pc::unlock_lock:
      return D::truth(Subject::lock_apart);
    case Pc::resync_tb_late:
      if (!(Subject::first_resyncs && !Subject::resync_before_unlock)) return D::truth(false);
      return tb_lost && th.first;
    case Pc::restore_thread:
      return loss && (c.power9() ? th.sprs_saved : th.full_winkle);
    default:
      return D::truth(false);
  }
}

// The thread after moving on along the wake path from `from`: the next duty
// that applies, or back to running (every local reset, as finish_wake does).
template <class Subject, class D>
EThread<D> advance(const Config& c, EThread<D> th, Pc from) {
  typename D::template U<8> next = pc_lit<D>(Pc::running);
  for (unsigned p = idle_core::kPcCount - 1; p > static_cast<unsigned>(from); --p) {
    next = D::ite(duty_applies<Subject, D>(c, th, static_cast<Pc>(p)),
                  pc_lit<D>(static_cast<Pc>(p)), next);
  }
  th.pc = next;
  return ite<D>(next == pc_lit<D>(Pc::running), EThread<D>{}, th);
}

// The thread, word and ghost: what one thread's step may change; and
// whether the step was a spin.
template <class D>
struct Local {
  EThread<D> th;
  typename D::template U<32> word;
  EGhost<D> g;
  typename D::Bool spin;
};

template <class D>
Local<D> ite(const typename D::Bool& c, const Local<D>& a, const Local<D>& b) {
  return {ite<D>(c, a.th, b.th), D::ite(c, a.word, b.word), ite<D>(c, a.g, b.g),
          D::ite(c, a.spin, b.spin)};
}

// Thread t's step when its program point is `at` (impl's step(), one case).
template <class Subject, class D>
Local<D> step_at(const Config& c, unsigned t, const EState<D>& s, Pc at) {
  using U8 = typename D::template U<8>;
  using U32 = typename D::template U<32>;
  using B = typename D::Bool;
  const uint64_t thread = uint64_t{1} << t;
  const U32 thread32 = w32<D>(thread);
  const U32 not_thread = w32<D>(~thread);
  const U32 mask = w32<D>(Subject::core_thread_mask(c));
  const U32 zero = D::template lit<32>(0);
  const U32 lock = w32<D>(kLock32);
  const U32 w = s.word;
  EThread<D> th = s.th[t];
  Local<D> out{th, w, s.g, D::truth(false)};
  const B winkle = th.kind == kind_lit<D>(Kind::p8_winkle);
  const auto after_clear = [&](const U32& cleared) -> U8 {
    const U8 by_kind =
        D::ite(winkle, pc_lit<D>(Pc::p8_entry_winkle), pc_lit<D>(Pc::p8_entry_unlock));
    if (!c.fastsleep_workaround) return by_kind;
    return D::ite((cleared & mask) == zero, pc_lit<D>(Pc::p8_entry_apply_wa), by_kind);
  };
  // A test-and-set of the lock: on success the thread moves to `acquired`.
  const auto take_lock = [&](const EThread<D>& acquired) {
    const B held = (w & lock) != zero;
    out.word = w | lock;
    out.th = ite<D>(held, th, acquired);
    out.spin = held;
  };

  switch (at) {
    case Pc::running:
    case Pc::hw_idle:
      break;  // moved by begin_idle and wake
    case Pc::p8_entry_lock: {
      EThread<D> acq = th;
      if (Subject::clear_under_lock) {
        acq.pc = pc_lit<D>(Pc::p8_entry_load);
      } else {
        acq.pc = after_clear(th.seen);
        acq.seen = zero;
      }
      take_lock(acq);
      break;
    }
    case Pc::p8_entry_load:
      out.th.seen = w;
      out.th.pc = pc_lit<D>(Pc::p8_entry_store);
      break;
    case Pc::p8_entry_store: {
      const U32 cleared = th.seen & not_thread;
      out.word = cleared;
      if (Subject::clear_under_lock) {
        out.th.pc = after_clear(cleared);
        out.th.seen = zero;
      } else {
        out.th.seen = cleared;
        out.th.pc = pc_lit<D>(Pc::p8_entry_lock);
      }
      break;
    }
    case Pc::p8_entry_apply_wa:
      out.g.wa_applied = D::truth(true);
      out.th.pc = D::ite(winkle, pc_lit<D>(Pc::p8_entry_winkle), pc_lit<D>(Pc::p8_entry_unlock));
      break;
    case Pc::p8_entry_winkle: {
      const U32 up = w + w32<D>(kCountOne32);
      const B all = ((up & w32<D>(kCountBits32)) >> idle_core::kWinkleCountShift) ==
                    D::template lit<32>(c.threads);
      out.word = D::ite(all, up | w32<D>(c.core_thread_mask() << idle_core::kWinkleBitsShift), up);
      out.th.sprs_saved = D::truth(true);
      out.th.pc = pc_lit<D>(Pc::p8_entry_unlock);
      break;
    }
    case Pc::p8_entry_unlock:
      out.word = w & w32<D>(~uint64_t{kLock32});
      out.th.pc = pc_lit<D>(Pc::idle_insn);
      break;
    case Pc::p9_entry_clear:
      out.word = w & not_thread;
      out.th.pc = pc_lit<D>(Pc::idle_insn);
      break;
    case Pc::idle_insn:
      out.th.pc = pc_lit<D>(Pc::hw_idle);
      break;
    case Pc::p8_wake_lock: {
      EThread<D> acq = th;
      acq.pc = D::ite(winkle, pc_lit<D>(Pc::p8_wake_winkle), pc_lit<D>(Pc::unlock_load));
      take_lock(acq);
      break;
    }
    case Pc::p8_wake_winkle: {
      U32 v = w;
      if (Subject::winkle_dec_on_noloss) v = v - w32<D>(kCountOne32);
      out.word = v & w32<D>(~(thread << idle_core::kWinkleBitsShift));
      out.th.pc = pc_lit<D>(Pc::unlock_load);
      break;
    }
    case Pc::p9_wake_set:
      out.word = w | thread32;
      out.th = EThread<D>{};
      break;
    case Pc::loss_lock: {
      EThread<D> acq = th;
      acq.pc = D::ite(winkle, pc_lit<D>(Pc::p8_loss_winkle), pc_lit<D>(Pc::loss_check));
      take_lock(acq);
      break;
    }
    case Pc::p8_loss_winkle: {
      const U32 v = w - w32<D>(kCountOne32);
      const U32 own = w32<D>(thread << idle_core::kWinkleBitsShift);
      const B had = (v & own) != zero;
      out.word = D::ite(had, v & w32<D>(~(thread << idle_core::kWinkleBitsShift)), v);
      out.th.full_winkle = th.full_winkle || had;
      out.th.pc = pc_lit<D>(Pc::loss_check);
      break;
    }
    case Pc::loss_check: {
      EThread<D> n = th;
      n.first = (w & mask) == zero;
      n.sibling_awake =
          c.power9() ? D::truth(false) : (w & w32<D>(c.subcore_sibling_mask(t))) != zero;
      out.th = advance<Subject, D>(c, n, Pc::loss_check);
      break;
    }
    case Pc::restore_core:
      out.g.core_regs_valid = D::truth(true);
      out.th = advance<Subject, D>(c, th, at);
      break;
    case Pc::p8_undo_wa:
      out.g.wa_applied = D::truth(false);
      out.th = advance<Subject, D>(c, th, at);
      break;
    case Pc::resync_tb:
    case Pc::resync_tb_late:
      out.g.tb_valid = D::truth(true);
      out.th = advance<Subject, D>(c, th, at);
      break;
    case Pc::restore_subcore:
      out.g.subcore_regs_valid =
          s.g.subcore_regs_valid | D::template lit<8>((1u << c.subcore_of(t)) & 0xffu);
      out.th = advance<Subject, D>(c, th, at);
      break;
    case Pc::unlock_load:
      out.th.seen = w;
      out.th.pc = pc_lit<D>(Pc::unlock_cmpxchg);
      break;
    case Pc::unlock_cmpxchg: {
      const U32 expect = th.seen;
      const B ok = w == expect;
      const U32 desired =
          Subject::lock_apart || mutation_of<Subject>() == EncodingMutation::cmpxchg_keeps_lock
              ? (expect | thread32)
              : ((expect | thread32) & w32<D>(~uint64_t{kLock32}));
      out.word = D::ite(ok, desired, w);
      EThread<D> done = th;
      done.seen = zero;
      EThread<D> retry = th;
      retry.seen = w;
      out.th = ite<D>(ok, advance<Subject, D>(c, done, Pc::unlock_cmpxchg), retry);
      out.spin = !ok;
      break;
    }
    case Pc::unlock_lock:
      out.word = Subject::lock_apart_released ? w & w32<D>(~uint64_t{kLock32}) : w;
      out.th = advance<Subject, D>(c, th, at);
      break;
    case Pc::restore_thread:
      out.g.thread_regs_valid = s.g.thread_regs_valid | D::template lit<8>((1u << t) & 0xffu);
      out.th = advance<Subject, D>(c, th, at);
      break;
  }
  return out;
}

// Thread t's step: the case of its program point. In the Concrete domain only
// that case is computed (D::known_false); in Z3 every case is, under an ite.
// A program point outside the enum changes nothing (impl: a bug, no change).
template <class Subject, class D>
Local<D> step_local(const Config& c, unsigned t, const EState<D>& s) {
  Local<D> out{s.th[t], s.word, s.g, D::truth(false)};
  for (unsigned p = 0; p < idle_core::kPcCount; ++p) {
    const Pc at = static_cast<Pc>(p);
    if (at == Pc::running || at == Pc::hw_idle) continue;
    const typename D::Bool here = pc_is<D>(s.th[t], at);
    if (D::known_false(here)) continue;
    out = ite<D>(here, step_at<Subject, D>(c, t, s, at), out);
  }
  return out;
}

// ---- the moves --------------------------------------------------------------------

// Every move the encoding has for this configuration, in enabled_moves' order.
inline std::vector<Move> encoded_moves(const Config& c) {
  static constexpr Kind kP8[] = {Kind::p8_nap, Kind::p8_sleep, Kind::p8_winkle};
  static constexpr Kind kP9[] = {Kind::p9_shallow, Kind::p9_deep, Kind::p9_tb_loss};
  std::vector<Move> out;
  for (unsigned t = 0; t < c.threads; ++t) {
    const auto tt = static_cast<uint8_t>(t);
    for (Kind k : c.power9() ? kP9 : kP8) out.push_back({MoveKind::begin_idle, tt, k});
    out.push_back({MoveKind::step, tt, Kind::none});
    out.push_back({MoveKind::wake, tt, Kind::none});
  }
  out.push_back({MoveKind::core_loss, 0, Kind::none});
  return out;
}

// The level the core may inflict (impl's core_loss_level), as 8-bit: 0 none.
template <class D>
typename D::template U<8> core_loss_level(const Config& c, const EState<D>& s) {
  using B = typename D::Bool;
  B all_idle = D::truth(true);
  B all_full = D::truth(true);
  for (unsigned t = 0; t < c.threads; ++t) {
    const EThread<D>& th = s.th[t];
    const B loses =
        kind_in<D>(th, {Kind::p8_sleep, Kind::p8_winkle, Kind::p9_deep, Kind::p9_tb_loss});
    all_idle = all_idle && pc_is<D>(th, Pc::hw_idle) && loses;
    all_full = all_full && kind_in<D>(th, {Kind::p8_winkle, Kind::p9_tb_loss});
  }
  const typename D::template U<8> level =
      D::ite(all_full, D::template lit<8>(static_cast<unsigned>(Loss::full)),
             D::template lit<8>(static_cast<unsigned>(Loss::partial)));
  B more = D::truth(false);
  for (unsigned t = 0; t < c.threads; ++t) more = more || s.th[t].lost < level;
  return D::ite(all_idle && more, level, D::template lit<8>(0));
}

// One move: its guard and the state after it.
template <class Subject, class D>
Branch<D> encode_move(const Config& c, const EState<D>& s, const Move& m) {
  using B = typename D::Bool;
  Branch<D> b{D::truth(false), s, D::truth(false)};
  const unsigned t = m.thread;
  switch (m.kind) {
    case MoveKind::begin_idle: {
      const EThread<D>& th = s.th[t];
      b.guard = pc_is<D>(th, Pc::running);
      EThread<D>& n = b.next.th[t];
      n.kind = kind_lit<D>(m.idle);
      switch (m.idle) {
        case Kind::p8_sleep:
        case Kind::p8_winkle:
          n.pc = pc_lit<D>(Subject::clear_under_lock ? Pc::p8_entry_lock : Pc::p8_entry_load);
          break;
        case Kind::p9_deep:
        case Kind::p9_tb_loss:
          n.sprs_saved = D::truth(true);
          n.pc = pc_lit<D>(Pc::p9_entry_clear);
          break;
        default:
          n.pc = pc_lit<D>(Pc::idle_insn);
          break;
      }
      break;
    }
    case MoveKind::step: {
      const EThread<D>& th = s.th[t];
      b.guard = !pc_is<D>(th, Pc::running) && !pc_is<D>(th, Pc::hw_idle);
      const Local<D> l = step_local<Subject, D>(c, t, s);
      b.next.th[t] = l.th;
      b.next.word = l.word;
      b.next.g = l.g;
      b.spin = l.spin;
      break;
    }
    case MoveKind::wake: {
      const EThread<D>& th = s.th[t];
      b.guard = pc_is<D>(th, Pc::hw_idle);
      if (mutation_of<Subject>() == EncodingMutation::wake_from_idle_insn) {
        b.guard = b.guard || pc_is<D>(th, Pc::idle_insn);
      }
      const B loss = th.lost != D::template lit<8>(0);
      EThread<D> p8 = th;
      p8.pc = D::ite(loss, pc_lit<D>(Pc::loss_lock), pc_lit<D>(Pc::p8_wake_lock));
      EThread<D> p9 = th;
      p9.pc = D::ite(loss, pc_lit<D>(Pc::loss_lock), pc_lit<D>(Pc::p9_wake_set));
      // nap, shallow stop: back to running; a loss there is a BUG_ON that
      // changes nothing.
      const EThread<D> other = ite<D>(loss, th, EThread<D>{});
      b.next.th[t] = ite<D>(kind_in<D>(th, {Kind::p8_sleep, Kind::p8_winkle}), p8,
                            ite<D>(kind_in<D>(th, {Kind::p9_deep, Kind::p9_tb_loss}), p9, other));
      break;
    }
    case MoveKind::core_loss: {
      const typename D::template U<8> level = core_loss_level<D>(c, s);
      b.guard = level != D::template lit<8>(0);
      for (unsigned u = 0; u < c.threads; ++u) {
        EThread<D>& n = b.next.th[u];
        n.lost = D::ite(s.th[u].lost < level, level, s.th[u].lost);
      }
      const B full = level == D::template lit<8>(static_cast<unsigned>(Loss::full));
      EGhost<D>& g = b.next.g;
      const typename D::template U<8> none8 = D::template lit<8>(0);
      if (c.power9()) {
        g.core_regs_valid = D::truth(false);
        g.thread_regs_valid = none8;
        g.tb_valid = D::ite(full, D::truth(false), s.g.tb_valid);
      } else {
        g.tb_valid = D::truth(false);
        g.core_regs_valid = D::ite(full, D::truth(false), s.g.core_regs_valid);
        g.subcore_regs_valid = D::ite(full, none8, s.g.subcore_regs_valid);
        g.thread_regs_valid = D::ite(full, none8, s.g.thread_regs_valid);
      }
      break;
    }
  }
  return b;
}

// Every move's branch.
template <class Subject, class D>
std::vector<Branch<D>> encode_moves(const Config& c, const EState<D>& s,
                                    const std::vector<Move>& moves) {
  std::vector<Branch<D>> out;
  out.reserve(moves.size());
  for (const Move& m : moves) out.push_back(encode_move<Subject, D>(c, s, m));
  return out;
}

// T(s, s'): some move is enabled in s and leads to s'.
template <class D>
typename D::Bool transition(const Config& c, const std::vector<Branch<D>>& branches,
                            const EState<D>& next) {
  typename D::Bool any = D::truth(false);
  for (const Branch<D>& b : branches) any = any || (b.guard && same<D>(c, b.next, next));
  return any;
}

// Some thread can move without spinning, and its move changes the state: no
// state leaves every thread spinning on the lock or the cmpxchg, or stuck.
template <class D>
typename D::Bool some_move_progresses(const Config& c, const EState<D>& s,
                                      const std::vector<Branch<D>>& branches) {
  typename D::Bool any = D::truth(false);
  for (const Branch<D>& b : branches) {
    any = any || (b.guard && !b.spin && !same<D>(c, b.next, s));
  }
  return any;
}

// ---- the invariants ------------------------------------------------------------------
//
// The program-point ranges, from impl/idle_core.h's Pc enum and the subject's
// program order:
//   lock held   from a successful test-and-set to clear_bit_unlock / the
//               unlock cmpxchg's success (p8_entry_load and p8_entry_store are
//               in it only when the subject clears under the lock)
//   cleared     from the entry's store (p8_entry_store) to the wake's cmpxchg
//               success; at idle_insn and hw_idle only for sleep and winkle
//               (nap never touches the word); p8_entry_lock is in it when the
//               subject clears before taking the lock
//   counted     a winkle between its count+1 (p8_entry_winkle's step) and its
//               count-1 (p8_wake_winkle's or p8_loss_winkle's step)

template <class Subject, class D>
typename D::Bool in_lock_range(const EThread<D>& th) {
  typename D::Bool r = pc_in<D>(
      th, {Pc::p8_entry_apply_wa, Pc::p8_entry_winkle, Pc::p8_entry_unlock, Pc::p8_wake_winkle,
           Pc::p8_loss_winkle, Pc::loss_check, Pc::restore_core, Pc::p8_undo_wa, Pc::resync_tb,
           Pc::restore_subcore, Pc::unlock_load, Pc::unlock_cmpxchg});
  if (Subject::lock_apart) r = r || pc_is<D>(th, Pc::unlock_lock);
  if (Subject::clear_under_lock) r = r || pc_in<D>(th, {Pc::p8_entry_load, Pc::p8_entry_store});
  return r;
}

template <class Subject, class D>
typename D::Bool in_cleared_range(const EThread<D>& th) {
  typename D::Bool r =
      pc_in<D>(th, {Pc::p8_entry_apply_wa, Pc::p8_entry_winkle, Pc::p8_entry_unlock,
                    Pc::p8_wake_lock, Pc::p8_wake_winkle, Pc::loss_lock, Pc::p8_loss_winkle,
                    Pc::loss_check, Pc::restore_core, Pc::p8_undo_wa, Pc::resync_tb,
                    Pc::restore_subcore, Pc::unlock_load, Pc::unlock_cmpxchg});
  r = r || (pc_in<D>(th, {Pc::idle_insn, Pc::hw_idle}) &&
            kind_in<D>(th, {Kind::p8_sleep, Kind::p8_winkle}));
  if (!Subject::clear_under_lock) r = r || pc_is<D>(th, Pc::p8_entry_lock);
  return r;
}

template <class D>
typename D::Bool in_counted_range(const EThread<D>& th) {
  return th.kind == kind_lit<D>(Kind::p8_winkle) &&
         pc_in<D>(th, {Pc::p8_entry_unlock, Pc::idle_insn, Pc::hw_idle, Pc::p8_wake_lock,
                       Pc::p8_wake_winkle, Pc::loss_lock, Pc::p8_loss_winkle});
}

// The facts of the inductive invariant: the clauses' (IDLE-1, IDLE-2, IDLE-5)
// and the auxiliary lemmas that make their conjunction inductive.
enum class Fact : unsigned {
  lock_at_most_one,   // IDLE-1: at most one thread in the lock-held range
  lock_iff_holder,    // IDLE-1: lock bit set iff a thread is in the range
  bits_when_free,     // IDLE-2: lock clear => thread bits == threads not cleared
  winkle_count,       // IDLE-5: count == threads in the counted range
  winkle_bound,       // IDLE-5: count <= threads per core
  shape,              // lemma: pc, kind, lost agree (the kinds each pc is reached with)
  running_reset,      // lemma: a running thread's locals are reset
  store_sees_word,    // lemma: at p8_entry_store under the lock, seen == word
  bits_always,        // lemma: IDLE-2 whether or not the lock is held
  cmpxchg_sees_word,  // lemma: at unlock_cmpxchg, seen == word (the holder's cmpxchg succeeds)
};
inline constexpr unsigned kFactCount = static_cast<unsigned>(Fact::cmpxchg_sees_word) + 1;

struct FactInfo {
  const char* id;
  const char* clause;  // the clause it states, or the one it supports (lemmas)
  bool lemma;
  const char* statement;
};

inline const FactInfo& fact_info(Fact f) {
  static const FactInfo kInfo[kFactCount] = {
      {"IDLE-1 (one holder)", "IDLE-1", false, "at most one thread is in the lock-held range"},
      {"IDLE-1 (lock bit)", "IDLE-1", false,
       "the lock bit is set iff a thread is in the lock-held range"},
      {"IDLE-2", "IDLE-2", false,
       "while the lock is free, the thread bits are the threads outside the cleared range"},
      {"IDLE-5 (count)", "IDLE-5", false,
       "the winkle count equals the threads in the counted range"},
      {"IDLE-5 (bound)", "IDLE-5", false, "the winkle count is at most the threads per core"},
      {"L-shape", "IDLE-1", true,
       "each pc is reached with its kinds (entry/wake: sleep or winkle; winkle count steps: "
       "winkle; idle_insn/hw_idle: nap, sleep or winkle); nap never has a loss"},
      {"L-reset", "IDLE-1", true, "a running thread has kind none, no loss, no flags, seen 0"},
      {"L-store", "IDLE-2", true, "a thread at p8_entry_store under the lock has seen == word"},
      {"L-bits", "IDLE-2", true,
       "the thread bits are the threads outside the cleared range, lock held or not"},
      {"L-cmpxchg", "IDLE-1", true, "a thread at unlock_cmpxchg has seen == word"},
  };
  return kInfo[static_cast<unsigned>(f)];
}

template <class D>
using Facts = std::array<typename D::Bool, kFactCount>;

template <class Subject, class D>
Facts<D> facts(const Config& c, const EState<D>& s) {
  using B = typename D::Bool;
  using U32 = typename D::template U<32>;
  const U32 zero = D::template lit<32>(0);
  const U32 w = s.word;
  Facts<D> f;
  for (B& b : f) b = D::truth(true);
  B some_holder = D::truth(false);
  U32 expected_bits = zero;
  U32 counted = zero;
  for (unsigned t = 0; t < c.threads; ++t) {
    const EThread<D>& th = s.th[t];
    const B holder = in_lock_range<Subject, D>(th);
    for (unsigned u = t + 1; u < c.threads; ++u) {
      f[unsigned(Fact::lock_at_most_one)] =
          f[unsigned(Fact::lock_at_most_one)] && !(holder && in_lock_range<Subject, D>(s.th[u]));
    }
    some_holder = some_holder || holder;
    expected_bits =
        expected_bits | D::ite(in_cleared_range<Subject, D>(th), zero, w32<D>(uint64_t{1} << t));
    counted = counted + D::ite(in_counted_range<D>(th), D::template lit<32>(1), zero);

    // L-shape
    const B valid_pc = th.pc < D::template lit<8>(idle_core::kPcCount) &&
                       !pc_in<D>(th, {Pc::p9_entry_clear, Pc::p9_wake_set}) &&
                       (D::truth(Subject::lock_apart) || !pc_is<D>(th, Pc::unlock_lock));
    const B p8_kind = th.kind <= kind_lit<D>(Kind::p8_winkle);
    const B lost_ok = th.lost <= D::template lit<8>(static_cast<unsigned>(Loss::full));
    const B sleep_or_winkle = kind_in<D>(th, {Kind::p8_sleep, Kind::p8_winkle});
    const B entry_or_wake = pc_in<D>(
        th, {Pc::p8_entry_lock, Pc::p8_entry_load, Pc::p8_entry_store, Pc::p8_entry_apply_wa,
             Pc::p8_entry_unlock, Pc::p8_wake_lock, Pc::loss_lock, Pc::loss_check, Pc::restore_core,
             Pc::p8_undo_wa, Pc::resync_tb, Pc::restore_subcore, Pc::unlock_load,
             Pc::unlock_cmpxchg, Pc::unlock_lock, Pc::resync_tb_late, Pc::restore_thread});
    const B winkle_pc = pc_in<D>(th, {Pc::p8_entry_winkle, Pc::p8_wake_winkle, Pc::p8_loss_winkle});
    const B idle_pc = pc_in<D>(th, {Pc::idle_insn, Pc::hw_idle});
    const B shape =
        valid_pc && p8_kind && lost_ok && (!entry_or_wake || sleep_or_winkle) &&
        (!winkle_pc || th.kind == kind_lit<D>(Kind::p8_winkle)) &&
        (!idle_pc || kind_in<D>(th, {Kind::p8_nap, Kind::p8_sleep, Kind::p8_winkle})) &&
        (!kind_in<D>(th, {Kind::none, Kind::p8_nap}) || th.lost == D::template lit<8>(0));
    f[unsigned(Fact::shape)] = f[unsigned(Fact::shape)] && shape;

    // L-reset
    const B reset = th.kind == kind_lit<D>(Kind::none) && th.lost == D::template lit<8>(0) &&
                    !th.sprs_saved && !th.full_winkle && !th.first && !th.sibling_awake &&
                    th.seen == zero;
    f[unsigned(Fact::running_reset)] =
        f[unsigned(Fact::running_reset)] && (!pc_is<D>(th, Pc::running) || reset);

    if (Subject::clear_under_lock) {
      f[unsigned(Fact::store_sees_word)] =
          f[unsigned(Fact::store_sees_word)] && (!pc_is<D>(th, Pc::p8_entry_store) || th.seen == w);
    }
    f[unsigned(Fact::cmpxchg_sees_word)] =
        f[unsigned(Fact::cmpxchg_sees_word)] && (!pc_is<D>(th, Pc::unlock_cmpxchg) || th.seen == w);
  }
  const B lock_set = (w & w32<D>(kLock32)) != zero;
  f[unsigned(Fact::lock_iff_holder)] = lock_set == some_holder;
  const U32 bits = w & D::template lit<32>(0xff);
  f[unsigned(Fact::bits_when_free)] = lock_set || bits == expected_bits;
  f[unsigned(Fact::bits_always)] = bits == expected_bits;
  const U32 count = (w & w32<D>(kCountBits32)) >> idle_core::kWinkleCountShift;
  f[unsigned(Fact::winkle_count)] = count == counted;
  f[unsigned(Fact::winkle_bound)] = count <= D::template lit<32>(c.threads);
  return f;
}

// ---- Concrete <-> CoreState ------------------------------------------------------------

inline EState<Concrete> to_enc(const CoreState& s) {
  EState<Concrete> e;
  e.word = Word<32>(s.word);
  for (unsigned t = 0; t < idle_core::kMaxThreads; ++t) {
    const idle_core::ThreadState& th = s.th[t];
    EThread<Concrete>& n = e.th[t];
    n.pc = Word<8>(static_cast<uint8_t>(th.pc));
    n.kind = Word<8>(static_cast<uint8_t>(th.kind));
    n.lost = Word<8>(static_cast<uint8_t>(th.lost));
    n.sprs_saved = th.sprs_saved;
    n.full_winkle = th.full_winkle;
    n.first = th.first;
    n.sibling_awake = th.sibling_awake;
    n.seen = Word<32>(th.seen);
  }
  e.g.tb_valid = s.ghost.tb_valid;
  e.g.wa_applied = s.ghost.wa_applied;
  e.g.core_regs_valid = s.ghost.core_regs_valid;
  e.g.subcore_regs_valid = Word<8>(s.ghost.subcore_regs_valid);
  e.g.thread_regs_valid = Word<8>(s.ghost.thread_regs_valid);
  return e;
}

inline CoreState from_enc(const EState<Concrete>& e) {
  CoreState s;
  s.word = e.word.v;
  for (unsigned t = 0; t < idle_core::kMaxThreads; ++t) {
    const EThread<Concrete>& n = e.th[t];
    idle_core::ThreadState& th = s.th[t];
    th.pc = static_cast<Pc>(n.pc.v);
    th.kind = static_cast<Kind>(n.kind.v);
    th.lost = static_cast<Loss>(n.lost.v);
    th.sprs_saved = n.sprs_saved;
    th.full_winkle = n.full_winkle;
    th.first = n.first;
    th.sibling_awake = n.sibling_awake;
    th.seen = n.seen.v;
  }
  s.ghost.tb_valid = e.g.tb_valid;
  s.ghost.wa_applied = e.g.wa_applied;
  s.ghost.core_regs_valid = e.g.core_regs_valid;
  s.ghost.subcore_regs_valid = e.g.subcore_regs_valid.v;
  s.ghost.thread_regs_valid = e.g.thread_regs_valid.v;
  return s;
}

}  // namespace idlespec::proofs::idle_core_enc
