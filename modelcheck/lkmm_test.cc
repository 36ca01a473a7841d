// The LKMM machine (modelcheck/lkmm.h) against the kernel's litmus tests
// (modelcheck/lkmm_litmus.h): each shape it expresses gets LKMM's verdict;
// a deliberately broken machine gets some wrong (the witnesses).
#include "modelcheck/lkmm.h"

#include <gtest/gtest.h>

#include <ostream>
#include <string>

#include "modelcheck/lkmm_litmus.h"

namespace idlespec::lkmm {
namespace {

const char* verdict(bool sometimes) { return sometimes ? "Sometimes" : "Never"; }

class LkmmLitmus : public ::testing::TestWithParam<LitmusTest> {};

}  // namespace

// gtest prints a parameter by its name.
void PrintTo(const LitmusTest& t, std::ostream* os) { *os << t.name; }

namespace {

TEST_P(LkmmLitmus, GetsLkmmVerdict) {
  const LitmusTest& t = GetParam();
  const LitmusOutcome o = run_litmus(t);
  EXPECT_GT(o.finals, 0u) << t.name << ": no execution ran to its end";
  EXPECT_EQ(o.sometimes, t.lkmm_sometimes)
      << t.name << " (" << t.note << "): LKMM says " << verdict(t.lkmm_sometimes)
      << ", the machine " << verdict(o.sometimes) << " over " << o.states << " states";
}

std::string test_name(const ::testing::TestParamInfo<LitmusTest>& info) {
  std::string n;
  for (const char c : info.param.name) n += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  return n;
}

INSTANTIATE_TEST_SUITE_P(Kernel, LkmmLitmus, ::testing::ValuesIn(litmus_tests()), test_name);

const LitmusTest& by_name(const std::string& name) {
  for (const LitmusTest& t : litmus_tests())
    if (t.name == name) return t;
  throw std::runtime_error("no litmus test " + name);
}

// The witnesses: each broken machine answers Sometimes where LKMM says Never.
TEST(LkmmLitmusWitness, FullBarrierWithoutGlobalOrderAllowsStoreBuffering) {
  EXPECT_TRUE(run_litmus(by_name("SB+fencembonceonces"), 1).sometimes);
  EXPECT_TRUE(run_litmus(by_name("IRIW+fencembonceonces+OnceOnce"), 1).sometimes);
}

TEST(LkmmLitmusWitness, ReleaseWithoutCumulativityBreaksMessagePassing) {
  EXPECT_TRUE(run_litmus(by_name("MP+pooncerelease+poacquireonce"), 2).sometimes);
  EXPECT_TRUE(run_litmus(by_name("WRC+pooncerelease+fencermbonceonce+Once"), 2).sometimes);
}

TEST(LkmmLitmusWitness, LoadsBehindTheirViewBreakCoherence) {
  EXPECT_TRUE(run_litmus(by_name("CoWR+poonceonce+Once"), 4).sometimes);
  EXPECT_TRUE(run_litmus(by_name("DCL-fixed"), 4).sometimes);
}

// The shapes outside the machine are listed, and none is also run.
TEST(LkmmLitmus, EveryUpstreamShapeIsRunOrListed) {
  EXPECT_EQ(litmus_tests().size(), 41u);
  EXPECT_EQ(litmus_not_expressed().size(), 6u);
  for (const NotExpressed& n : litmus_not_expressed()) {
    for (const LitmusTest& t : litmus_tests()) EXPECT_NE(t.name, n.name);
  }
}

// The conflicts that involve a plain access (what the judge calls a race:
// the machine reports every unordered pair with a store, marked ones too).
std::vector<Conflict> plain_conflicts(Machine& m) {
  std::vector<Conflict> out;
  for (const Conflict& c : m.take_conflicts())
    if (is_plain(c.kind) || is_plain(c.other_kind)) out.push_back(c);
  return out;
}

// The race bits: a plain store and a plain load of one location race
// unless a release/acquire pair orders them.
TEST(LkmmMachine, RaceNeedsHappensBefore) {
  Machine m(2, 2);
  m.set_where(1);
  m.store(0, 0, 1, 0, /*plain=*/true, false);
  m.store(0, 1, 1, 0, false, /*release=*/true);
  m.set_where(2);
  EXPECT_EQ(m.load(1, 1, 0, false, /*acquire=*/true), 1u);
  EXPECT_EQ(m.load(1, 0, 0, true, false), 1u);
  EXPECT_TRUE(plain_conflicts(m).empty());

  Machine r(2, 2);
  r.set_where(1);
  r.store(0, 0, 1, 0, true, false);
  r.store(0, 1, 1, 0, false, /*release=*/false);
  r.set_where(2);
  EXPECT_EQ(r.load(1, 1, 0, false, false), 1u);
  r.load(1, 0, 0, true, false);
  const std::vector<Conflict> c = plain_conflicts(r);
  ASSERT_EQ(c.size(), 1u);
  EXPECT_EQ(c[0].loc, 0u);
  EXPECT_EQ(c[0].thread, 1u);
  EXPECT_EQ(c[0].kind, plain_load);
  EXPECT_EQ(c[0].other, 0u);
  EXPECT_EQ(c[0].other_kind, plain_store);
  EXPECT_EQ(c[0].where, 2u);
  EXPECT_EQ(c[0].other_where, 1u);
}

// A relaxed load can read a stale store; normalize() forgets what nobody
// can read and keeps states finite.
TEST(LkmmMachine, StaleReadsAndNormalize) {
  Machine m(2, 1);
  for (uint32_t v = 1; v <= 5; ++v) m.store(0, 0, v, 0, false, false);
  EXPECT_EQ(m.read_choices(1, 0), 6u);
  m.normalize(3);
  EXPECT_EQ(m.read_choices(1, 0), 3u);
  EXPECT_EQ(m.read_choices(0, 0), 1u);
  EXPECT_EQ(m.load(1, 0, 2, false, false), 3u);
  EXPECT_EQ(m.read_choices(1, 0), 3u);  // it read the oldest kept
  EXPECT_EQ(m.load(1, 0, 0, false, false), 5u);
  m.normalize(3);
  EXPECT_EQ(m.read_choices(1, 0), 1u);
  std::string a, b;
  m.serialize(a);
  Machine n(2, 1);
  n.store(0, 0, 5, 0, false, false);
  n.load(1, 0, 0, false, false);
  n.normalize(3);
  n.serialize(b);
  EXPECT_NE(a, std::string());
  EXPECT_EQ(a.size(), b.size());
}

}  // namespace
}  // namespace idlespec::lkmm
