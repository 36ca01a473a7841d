// The kernel's litmus shapes on the LKMM machine (modelcheck/lkmm_litmus.h).
// Each shape below is written from the upstream test's description, in this
// file's notation: threads of instructions over locations 0.. (named in the
// comment), LKMM's verdict, and the condition.
#include "modelcheck/lkmm_litmus.h"

#include <array>
#include <unordered_set>

#include "modelcheck/lkmm.h"

namespace idlespec::lkmm {

namespace {

constexpr unsigned kRegs = 4;

struct LState {
  std::array<uint8_t, kMaxThreads> pc{};
  std::array<std::array<uint32_t, kRegs>, kMaxThreads> reg{};
  Machine m;
};

std::string key_of(const LState& s, unsigned threads) {
  std::string k;
  for (unsigned t = 0; t < threads; ++t) {
    k.push_back(static_cast<char>(s.pc[t]));
    k.append(reinterpret_cast<const char*>(s.reg[t].data()), sizeof(uint32_t) * kRegs);
  }
  s.m.serialize(k);
  return k;
}

bool holds(const LCond& c, const LState& s) {
  const uint32_t v =
      c.thread < 0 ? s.m.newest(c.idx) : s.reg[static_cast<unsigned>(c.thread)][c.idx];
  return v == c.val;
}

// Runs thread t's next instruction on s with the chooser's picks. False if
// it cannot run now (a lock held by another).
bool exec(const LitmusTest& test, LState& s, unsigned t, Chooser& ch) {
  const LIns& i = test.threads[t][s.pc[t]];
  Machine& m = s.m;
  uint32_t& r = s.reg[t][i.reg];
  using Order = Machine::Order;
  switch (i.op) {
    case LOp::store_once:
      m.store(t, i.loc, i.val, ch.pick(m.write_choices(t, i.loc)), false, false);
      break;
    case LOp::load_once:
      r = m.load(t, i.loc, ch.pick(m.read_choices(t, i.loc)), false, false);
      break;
    case LOp::store_release:
      m.store(t, i.loc, i.val, ch.pick(m.write_choices(t, i.loc)), false, true);
      break;
    case LOp::load_acquire:
      r = m.load(t, i.loc, ch.pick(m.read_choices(t, i.loc)), false, true);
      break;
    case LOp::mb:
      m.fence_mb(t);
      break;
    case LOp::wmb:
      m.fence_wmb(t);
      break;
    case LOp::rmb:
      m.fence_rmb(t);
      break;
    case LOp::lock:
      if (m.newest(i.loc) != 0) return false;
      m.rmw(t, i.loc, Order::acquire, [](uint32_t, uint32_t& nv) {
        nv = 1;
        return true;
      });
      m.lock_acquired(t);
      break;
    case LOp::unlock:
      m.store(t, i.loc, 0, 0, false, true);
      break;
    case LOp::is_locked:
      r = m.load(t, i.loc, ch.pick(m.read_choices(t, i.loc)), false, false) != 0;
      break;
    case LOp::add_relaxed:
      m.rmw(t, i.loc, Order::relaxed, [&](uint32_t o, uint32_t& nv) {
        nv = o + i.val;
        return true;
      });
      break;
    case LOp::add_return:
      r = i.val + m.rmw(t, i.loc, Order::full, [&](uint32_t o, uint32_t& nv) {
        nv = o + i.val;
        return true;
      });
      break;
    case LOp::add_unless_0:
      m.rmw(t, i.loc, Order::full, [&](uint32_t o, uint32_t& nv) {
        nv = o + i.val;
        return o != 0;
      });
      break;
    case LOp::cmpxchg:
      r = m.rmw(t, i.loc, Order::full, [&](uint32_t o, uint32_t& nv) {
        nv = i.val;
        return o == i.old;
      });
      break;
    case LOp::skip_if_ne:
    case LOp::skip_if_eq:
      if ((r == i.val) == (i.op == LOp::skip_if_eq))
        s.pc[t] = static_cast<uint8_t>(s.pc[t] + i.count);
      break;
  }
  ++s.pc[t];
  return true;
}

}  // namespace

LitmusOutcome run_litmus(const LitmusTest& test, unsigned broken) {
  LitmusOutcome out;
  const unsigned threads = static_cast<unsigned>(test.threads.size());
  std::array<uint32_t, kMaxLocs> init{};
  for (size_t x = 0; x < test.init.size() && x < kMaxLocs; ++x) init[x] = test.init[x];
  std::vector<LState> stack(1);
  stack[0].m = Machine(threads, test.locs, init);
  stack[0].m.break_for_test(broken);
  std::unordered_set<std::string> seen{key_of(stack[0], threads)};
  Chooser ch;
  while (!stack.empty()) {
    const LState s = std::move(stack.back());
    stack.pop_back();
    ++out.states;
    bool done = true;
    for (unsigned t = 0; t < threads; ++t) {
      if (s.pc[t] >= test.threads[t].size()) continue;
      done = false;
      ch.reset();
      for (;;) {
        LState n = s;
        if (exec(test, n, t, ch)) {
          n.m.normalize(0);
          if (seen.insert(key_of(n, threads)).second) stack.push_back(std::move(n));
        }
        if (!ch.next()) break;
      }
    }
    if (!done) continue;
    ++out.finals;
    bool pass = true;
    for (const LCond& c : test.filter) pass = pass && holds(c, s);
    if (!pass) continue;
    bool sat = !test.exists_any;
    for (const LCond& c : test.exists)
      sat = test.exists_any ? sat || holds(c, s) : sat && holds(c, s);
    out.sometimes = out.sometimes || sat;
  }
  return out;
}

namespace {

// The notation: W/R are the _ONCE accesses, Rel/Acq the release store and
// acquire load, Lk/Ul spin_lock/spin_unlock; locations x=0, y=1, z=2, and a
// lock at 3 unless a test says otherwise.
constexpr uint8_t X = 0, Y = 1, Z = 2, L = 3;
LIns W(uint8_t loc, uint32_t v) { return {LOp::store_once, loc, 0, v}; }
LIns R(uint8_t loc, uint8_t reg) { return {LOp::load_once, loc, reg, 0}; }
LIns Rel(uint8_t loc, uint32_t v) { return {LOp::store_release, loc, 0, v}; }
LIns Acq(uint8_t loc, uint8_t reg) { return {LOp::load_acquire, loc, reg, 0}; }
LIns Mb() { return {LOp::mb}; }
LIns Wmb() { return {LOp::wmb}; }
LIns Rmb() { return {LOp::rmb}; }
LIns Lk(uint8_t loc = L) { return {LOp::lock, loc}; }
LIns Ul(uint8_t loc = L) { return {LOp::unlock, loc}; }
LIns IsLk(uint8_t loc, uint8_t reg) { return {LOp::is_locked, loc, reg}; }
LIns Inc(uint8_t loc) { return {LOp::add_relaxed, loc, 0, 1}; }
LIns IncRet(uint8_t loc, uint8_t reg) { return {LOp::add_return, loc, reg, 1}; }
LIns AddUnless0(uint8_t loc, uint32_t v) { return {LOp::add_unless_0, loc, 0, v}; }
LIns Cas(uint8_t loc, uint8_t reg, uint32_t old, uint32_t v) {
  return {LOp::cmpxchg, loc, reg, v, old};
}
LIns SkipNe(uint8_t reg, uint32_t v, uint8_t n) { return {LOp::skip_if_ne, 0, reg, v, 0, n}; }
LIns SkipEq(uint8_t reg, uint32_t v, uint8_t n) { return {LOp::skip_if_eq, 0, reg, v, 0, n}; }
LCond reg(int t, uint8_t r, uint32_t v) { return {t, r, v}; }
LCond loc(uint8_t x, uint32_t v) { return {-1, x, v}; }

constexpr bool Never = false, Sometimes = true;

LitmusTest T(std::string name, bool verdict, unsigned locs, std::vector<std::vector<LIns>> th,
             std::vector<LCond> ex, std::string note) {
  LitmusTest t;
  t.name = std::move(name);
  t.lkmm_sometimes = verdict;
  t.locs = locs;
  t.threads = std::move(th);
  t.exists = std::move(ex);
  t.note = std::move(note);
  return t;
}

std::vector<LitmusTest> make_tests() {
  std::vector<LitmusTest> v;
  // --- tools/memory-model/litmus-tests/ ---
  v.push_back(T("CoRR+poonceonce+Once", Never, 1, {{W(X, 1)}, {R(X, 0), R(X, 1)}},
                {reg(1, 0, 1), reg(1, 1, 0)}, "two loads of one location never go back in co"));
  v.push_back(T("CoRW+poonceonce+Once", Never, 1, {{R(X, 0), W(X, 1)}, {W(X, 2)}},
                {loc(X, 2), reg(0, 0, 2)}, "a load and a later store: the store is co-after"));
  v.push_back(T("CoWR+poonceonce+Once", Never, 1, {{W(X, 1), R(X, 0)}, {W(X, 2)}},
                {loc(X, 1), reg(0, 0, 2)}, "a store and a later load: the load is not co-before"));
  v.push_back(T("CoWW+poonceonce", Never, 1, {{W(X, 1), W(X, 2)}}, {loc(X, 1)},
                "two stores of one thread keep their order in co"));
  v.push_back(T("IRIW+fencembonceonces+OnceOnce", Never, 2,
                {{W(X, 1)}, {R(X, 0), Mb(), R(Y, 1)}, {W(Y, 1)}, {R(Y, 0), Mb(), R(X, 1)}},
                {reg(1, 0, 1), reg(1, 1, 0), reg(3, 0, 1), reg(3, 1, 0)},
                "full barriers make two independent stores seen in one order"));
  v.push_back(T("IRIW+poonceonces+OnceOnce", Sometimes, 2,
                {{W(X, 1)}, {R(X, 0), R(Y, 1)}, {W(Y, 1)}, {R(Y, 0), R(X, 1)}},
                {reg(1, 0, 1), reg(1, 1, 0), reg(3, 0, 1), reg(3, 1, 0)},
                "without barriers two readers may see two stores in opposite orders"));
  v.push_back(
      T("ISA2+pooncelock+pooncelock+pombonce", Never, 4,
        {{Lk(), W(X, 1), W(Y, 1), Ul()}, {Lk(), R(Y, 0), W(Z, 1), Ul()}, {R(Z, 2), Mb(), R(X, 1)}},
        {reg(1, 0, 1), reg(2, 2, 1), reg(2, 1, 0)},
        "a store in a later critical section carries the earlier section's"));
  v.push_back(T("ISA2+poonceonces", Sometimes, 3,
                {{W(X, 1), W(Y, 1)}, {R(Y, 0), W(Z, 1)}, {R(Z, 0), R(X, 1)}},
                {reg(1, 0, 1), reg(2, 0, 1), reg(2, 1, 0)}, "an unordered chain of three"));
  v.push_back(T("ISA2+pooncerelease+poacquirerelease+poacquireonce", Never, 3,
                {{W(X, 1), Rel(Y, 1)}, {Acq(Y, 0), Rel(Z, 1)}, {Acq(Z, 0), R(X, 1)}},
                {reg(1, 0, 1), reg(2, 0, 1), reg(2, 1, 0)},
                "release-acquire chains are transitive"));
  v.push_back(T("LB+poacquireonce+pooncerelease", Never, 2,
                {{R(X, 0), Rel(Y, 1)}, {Acq(Y, 0), W(X, 1)}}, {reg(0, 0, 1), reg(1, 0, 1)},
                "load buffering forbidden by release and acquire"));
  v.push_back(T("LB+unlocklockonceonce+poacquireonce", Never, 4,
                {{Lk(Z), R(X, 1), Ul(Z), Lk(L), W(Y, 1), Ul(L)}, {Acq(Y, 2), W(X, 1)}},
                {reg(0, 1, 1), reg(1, 2, 1)},
                "an unlock followed by a lock orders a load and a store"));
  v.push_back(T("MP+fencewmbonceonce+fencermbonceonce", Never, 2,
                {{W(X, 1), Wmb(), W(Y, 1)}, {R(Y, 0), Rmb(), R(X, 1)}},
                {reg(1, 0, 1), reg(1, 1, 0)}, "message passing with smp_wmb() and smp_rmb()"));
  v.push_back(T("MP+polockmbonce+poacquiresilsil", Never, 4,
                {{Lk(), Mb(), W(X, 1), Ul()}, {Acq(X, 1), IsLk(L, 2), IsLk(L, 3)}},
                {reg(1, 1, 1), reg(1, 2, 0), reg(1, 3, 1)},
                "smp_mb__after_spinlock() orders the lock's store before the section"));
  v.push_back(T("MP+polockonce+poacquiresilsil", Sometimes, 4,
                {{Lk(), W(X, 1), Ul()}, {Acq(X, 1), IsLk(L, 2), IsLk(L, 3)}},
                {reg(1, 1, 1), reg(1, 2, 0), reg(1, 3, 1)},
                "without it a store in the section may be seen before the lock's"));
  v.push_back(T("MP+polocks", Never, 4,
                {{W(X, 1), Lk(), W(Y, 1), Ul()}, {Lk(), R(Y, 0), Ul(), R(X, 1)}},
                {reg(1, 0, 1), reg(1, 1, 0)}, "message passing through a lock"));
  v.push_back(T("MP+poonceonces", Sometimes, 2, {{W(X, 1), W(Y, 1)}, {R(Y, 0), R(X, 1)}},
                {reg(1, 0, 1), reg(1, 1, 0)}, "message passing without ordering fails"));
  v.push_back(T("MP+pooncerelease+poacquireonce", Never, 2,
                {{W(X, 1), Rel(Y, 1)}, {Acq(Y, 0), R(X, 1)}}, {reg(1, 0, 1), reg(1, 1, 0)},
                "message passing with release and acquire"));
  v.push_back(T("MP+porevlocks", Never, 4,
                {{R(Y, 0), Lk(), R(X, 1), Ul()}, {Lk(), W(X, 1), Ul(), W(Y, 1)}},
                {reg(0, 0, 1), reg(0, 1, 0)}, "message passing through a lock, the other way"));
  v.push_back(T("MP+unlocklockonceonce+fencermbonceonce", Never, 4,
                {{Lk(Z), W(X, 1), Ul(Z), Lk(L), W(Y, 1), Ul(L)}, {R(Y, 1), Rmb(), R(X, 2)}},
                {reg(1, 1, 1), reg(1, 2, 0)}, "an unlock followed by a lock orders two stores"));
  v.push_back(T("R+fencembonceonces", Never, 2,
                {{W(X, 1), Mb(), W(Y, 1)}, {W(Y, 2), Mb(), R(X, 0)}}, {loc(Y, 2), reg(1, 0, 0)},
                "full barriers order a store against a later load"));
  v.push_back(T("R+poonceonces", Sometimes, 2, {{W(X, 1), W(Y, 1)}, {W(Y, 2), R(X, 0)}},
                {loc(Y, 2), reg(1, 0, 0)}, "the same without barriers"));
  v.push_back(T("S+fencewmbonceonce+poacquireonce", Never, 2,
                {{W(X, 2), Wmb(), W(Y, 1)}, {Acq(Y, 0), W(X, 1)}}, {loc(X, 2), reg(1, 0, 1)},
                "smp_wmb() and an acquire order two stores to one location"));
  v.push_back(T("S+poonceonces", Sometimes, 2, {{W(X, 2), W(Y, 1)}, {R(Y, 0), W(X, 1)}},
                {loc(X, 2), reg(1, 0, 1)}, "the same without ordering"));
  v.push_back(T("SB+fencembonceonces", Never, 2,
                {{W(X, 1), Mb(), R(Y, 0)}, {W(Y, 1), Mb(), R(X, 0)}}, {reg(0, 0, 0), reg(1, 0, 0)},
                "store buffering forbidden by full barriers"));
  v.push_back(T("SB+poonceonces", Sometimes, 2, {{W(X, 1), R(Y, 0)}, {W(Y, 1), R(X, 0)}},
                {reg(0, 0, 0), reg(1, 0, 0)}, "store buffering"));
  v.push_back(T("SB+rfionceonce-poonceonces", Sometimes, 2,
                {{W(X, 1), R(X, 1), R(Y, 2)}, {W(Y, 1), R(Y, 3), R(X, 0)}},
                {reg(0, 2, 0), reg(1, 0, 0)}, "reading one's own store orders nothing"));
  v.push_back(
      T("WRC+poonceonces+Once", Sometimes, 2, {{W(X, 1)}, {R(X, 0), W(Y, 1)}, {R(Y, 0), R(X, 1)}},
        {reg(1, 0, 1), reg(2, 0, 1), reg(2, 1, 0)}, "write-to-read causality without ordering"));
  v.push_back(T("WRC+pooncerelease+fencermbonceonce+Once", Never, 2,
                {{W(X, 1)}, {R(X, 0), Rel(Y, 1)}, {R(Y, 0), Rmb(), R(X, 1)}},
                {reg(1, 0, 1), reg(2, 0, 1), reg(2, 1, 0)}, "a release is cumulative"));
  v.push_back(T("Z6.0+pooncelock+poonceLock+pombonce", Never, 4,
                {{Lk(), W(X, 1), W(Y, 1), Ul()},
                 {Lk(), Mb(), R(Y, 0), W(Z, 1), Ul()},
                 {W(Z, 2), Mb(), R(X, 1)}},
                {reg(1, 0, 1), loc(Z, 2), reg(2, 1, 0)},
                "smp_mb__after_spinlock() makes the lock chain a full barrier"));
  v.push_back(
      T("Z6.0+pooncelock+pooncelock+pombonce", Sometimes, 4,
        {{Lk(), W(X, 1), W(Y, 1), Ul()}, {Lk(), R(Y, 0), W(Z, 1), Ul()}, {W(Z, 2), Mb(), R(X, 1)}},
        {reg(1, 0, 1), loc(Z, 2), reg(2, 1, 0)}, "a lock chain is not a full barrier for others"));
  v.push_back(T("Z6.0+pooncerelease+poacquirerelease+fencembonceonce", Sometimes, 3,
                {{W(X, 1), Rel(Y, 1)}, {Acq(Y, 0), Rel(Z, 1)}, {W(Z, 2), Mb(), R(X, 1)}},
                {reg(1, 0, 1), loc(Z, 2), reg(2, 1, 0)}, "nor is a release-acquire chain"));
  // --- Documentation/litmus-tests/atomic/ (x, y, z as above) ---
  v.push_back(T("Atomic-RMW+mb__after_atomic-is-stronger-than-acquire", Never, 2,
                {{R(X, 0), Rmb(), R(Y, 1)}, {Inc(Y), Mb(), W(X, 1)}}, {reg(0, 0, 1), reg(0, 1, 0)},
                "smp_mb__after_atomic() after an unordered RMW orders it"));
  {
    LitmusTest t =
        T("Atomic-RMW-ops-are-atomic-WRT-atomic_set", Never, 1, {{AddUnless0(X, 1)}, {W(X, 0)}},
          {loc(X, 2)}, "no store lands between an RMW's load and its store");
    t.init = {1};
    v.push_back(t);
  }
  v.push_back(
      T("cmpxchg-fail-ordered-1", Never, 3,
        {{W(X, 1), Cas(Z, 1, 1, 0), Mb(), R(Y, 0)}, {W(Y, 1), Cas(Z, 1, 1, 0), Mb(), R(X, 0)}},
        {reg(0, 0, 0), reg(1, 0, 0)},
        "a failing cmpxchg followed by smp_mb__after_atomic() is a full barrier"));
  v.push_back(T("cmpxchg-fail-ordered-2", Never, 2,
                {{W(X, 1), Cas(Y, 1, 0, 1)}, {Cas(Y, 1, 0, 1), Mb(), R(X, 2)}},
                {reg(0, 1, 0), reg(1, 1, 1), reg(1, 2, 0)},
                "a failing cmpxchg reads a fully ordered one's store"));
  v.push_back(T("cmpxchg-fail-unordered-1", Sometimes, 3,
                {{W(X, 1), Cas(Z, 1, 1, 0), R(Y, 0)}, {W(Y, 1), Cas(Z, 1, 1, 0), R(X, 0)}},
                {reg(0, 0, 0), reg(1, 0, 0)}, "a failing cmpxchg orders nothing"));
  v.push_back(T("cmpxchg-fail-unordered-2", Sometimes, 2,
                {{W(X, 1), Cas(Y, 1, 0, 1)}, {Cas(Y, 1, 0, 1), R(X, 2)}},
                {reg(0, 1, 0), reg(1, 1, 1), reg(1, 2, 0)},
                "nor does it order a later load after what it read"));
  // --- Documentation/litmus-tests/locking/ (flag=0, data=1, lock=3) ---
  {
    const auto dcl = [](bool fixed) {
      std::vector<LIns> p = {fixed ? Acq(0, 0) : R(0, 0),
                             SkipNe(0, 0, 6),
                             Lk(),
                             R(0, 1),
                             SkipNe(1, 0, 2),
                             W(1, 1),
                             fixed ? Rel(0, 1) : W(0, 1),
                             Ul(),
                             R(1, 2)};
      return p;
    };
    LitmusTest t =
        T("DCL-broken", Sometimes, 4, {dcl(false), dcl(false)}, {reg(0, 2, 0), reg(1, 2, 0)},
          "double-checked locking without acquire and release");
    t.exists_any = true;
    v.push_back(t);
    LitmusTest f = T("DCL-fixed", Never, 4, {dcl(true), dcl(true)}, {reg(0, 2, 0), reg(1, 2, 0)},
                     "double-checked locking with them");
    f.exists_any = true;
    v.push_back(f);
  }
  {
    // x=0, y=1 (the atomic counter), lock=3
    LitmusTest t =
        T("RM-fixed", Never, 4,
          {{Lk(), IncRet(1, 2), W(0, 1), Ul()}, {R(0, 0), R(0, 1), Lk(), IncRet(1, 2), Ul()}},
          {reg(1, 2, 1)}, "a thread that saw the section's store locks after it");
    t.filter = {reg(1, 0, 0), reg(1, 1, 1)};
    v.push_back(t);
  }
  // A control dependency the machine does not need: load buffering never
  // happens on it, so this Never holds for that reason (see the spec).
  v.push_back(T("LB+fencembonceonce+ctrlonceonce", Never, 2,
                {{R(X, 0), SkipEq(0, 0, 1), W(Y, 1)}, {R(Y, 0), Mb(), W(X, 1)}},
                {reg(0, 0, 1), reg(1, 0, 1)},
                "load buffering forbidden by a dependency and a barrier"));
  return v;
}

}  // namespace

const std::vector<LitmusTest>& litmus_tests() {
  static const std::vector<LitmusTest> tests = make_tests();
  return tests;
}

const std::vector<NotExpressed>& litmus_not_expressed() {
  static const std::vector<NotExpressed> v = {
      {"LB+poonceonces", "Sometimes",
       "load buffering: each load reads a store already executed, so the machine answers Never"},
      {"MP+onceassign+derefonce", "Never",
       "rcu_assign_pointer()/rcu_dereference(): pointers and address dependencies are not "
       "modelled"},
      {"dep+plain", "Never",
       "data and control dependencies through plain locals, and load buffering (as "
       "LB+poonceonces)"},
      {"RM-broken", "DEADLOCK",
       "herd's answer is that every execution the filter keeps deadlocks in its lock model: not a "
       "Never/Sometimes verdict to compare"},
      {"RCU+sync+free", "Never", "RCU read-side sections and synchronize_rcu() are not modelled"},
      {"RCU+sync+read", "Never", "RCU read-side sections and synchronize_rcu() are not modelled"},
  };
  return v;
}

}  // namespace idlespec::lkmm
