// The kernel's litmus tests (tools/memory-model/litmus-tests/ and
// Documentation/litmus-tests/), each shape re-expressed in this file's own
// small notation and run on the LKMM machine (modelcheck/lkmm.h): every
// execution the machine allows is explored, and the test's condition says
// whether LKMM's verdict ("Never": no execution satisfies it; "Sometimes":
// some does) is the machine's. docs/model-check.md counts them; the shapes
// the machine cannot express are listed with why (litmus_not_expressed).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace idlespec::lkmm {

// One instruction of a litmus thread.
enum class LOp : uint8_t {
  store_once,     // WRITE_ONCE(loc, val), atomic_set
  load_once,      // reg = READ_ONCE(loc), atomic_read
  store_release,  // smp_store_release(loc, val)
  load_acquire,   // reg = smp_load_acquire(loc)
  mb,             // smp_mb(), smp_mb__after_atomic(), smp_mb__after_spinlock()
  wmb,            // smp_wmb()
  rmb,            // smp_rmb()
  lock,           // spin_lock(loc): waits for 0, then an acquire RMW to 1
  unlock,         // spin_unlock(loc): a release store of 0
  is_locked,      // reg = spin_is_locked(loc)
  add_relaxed,    // atomic_inc / atomic_add (val): unordered, returns nothing
  add_return,     // reg = atomic_add_return(val, loc): fully ordered
  add_unless_0,   // atomic_add_unless(loc, val, 0): fully ordered when it adds
  cmpxchg,        // reg = cmpxchg(loc, old, val): fully ordered when it succeeds
  skip_if_ne,     // if (reg != val) skip the next `count` instructions
  skip_if_eq,     // if (reg == val) skip the next `count` instructions
};

struct LIns {
  LOp op;
  uint8_t loc = 0;
  uint8_t reg = 0;
  uint32_t val = 0;
  uint32_t old = 0;   // cmpxchg
  uint8_t count = 0;  // skip_if_*
};

// A term of the condition: thread's register == value, or (thread < 0) the
// final value of a location == value.
struct LCond {
  int thread;
  uint8_t idx;
  uint32_t val;
};

struct LitmusTest {
  std::string name;     // the upstream file's name (without .litmus)
  bool lkmm_sometimes;  // LKMM's verdict: Sometimes (true) or Never
  unsigned locs = 2;
  std::vector<uint32_t> init;  // per location, default 0
  std::vector<std::vector<LIns>> threads;
  std::vector<LCond> exists;  // conjunction
  bool exists_any = false;    // the condition is a disjunction of its terms instead
  std::vector<LCond> filter;  // executions considered (conjunction)
  std::string note;           // what the shape shows, in a line
};

struct LitmusOutcome {
  bool sometimes = false;  // some execution satisfies the condition
  uint64_t states = 0;
  uint64_t finals = 0;  // executions that ran to the end
};

// Explores every execution the machine allows (`broken`: tests only, see
// Machine::break_for_test).
LitmusOutcome run_litmus(const LitmusTest& t, unsigned broken = 0);

// The tests the machine expresses, with LKMM's verdicts.
const std::vector<LitmusTest>& litmus_tests();

struct NotExpressed {
  const char* name;
  const char* lkmm_verdict;
  const char* why;
};
const std::vector<NotExpressed>& litmus_not_expressed();

}  // namespace idlespec::lkmm
