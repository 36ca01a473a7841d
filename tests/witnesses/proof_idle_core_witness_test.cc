// The idle_core induction proof can fail, and its binding can too:
//   - the encoding instantiated for a broken subject
//     (tests/witnesses/idle_core_witnesses.h) is still bound to the broken
//     implementation (the same Subject hooks), and the proof reports
//     `violated` with a real path from the initial state, as moves, that the
//     implementation replays to the same violation: ClearOutsideLock on
//     IDLE-2, NoWinkleDecOnNoLoss on IDLE-5;
//   - the witnesses that break other clauses keep IDLE-1, IDLE-2, IDLE-5;
//   - an encoding with one move encoded differently from the implementation
//     is caught by the binding check, and the check fails.
// cvc5, when installed, gives the same answers.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

#include "impl/idle_core.h"
#include "impl/idle_core_model.h"
#include "proofs/idle_core_induction.h"
#include "proofs/idle_core_test_support.h"
#include "proofs/proof_test_support.h"
#include "tests/witnesses/idle_core_witnesses.h"

namespace idlespec::proofs {
namespace {

using idle_core::Config;
using idle_core::CoreState;
using idle_core::Reference;
using idle_core_enc::EncodingMutation;
using idle_core_enc::Fact;
namespace w = idle_core::witness;

IdleBindingRequest exhaustive(const Config& c, size_t z3_sample = 0, size_t enumerate = 0) {
  IdleBindingRequest r;
  r.config = c;
  r.z3_sample = z3_sample;
  r.z3_enumerate = enumerate;
  return r;
}

// The encoding of subject S is bound to impl's S on SMT1 and SMT2: every
// state breadth-first, up to 200000 (a broken subject's lost updates make its
// SMT2 state space explode: ClearOutsideLock passes 10^8 states).
template <class S>
IdleBindingReport expect_bound() {
  IdleBindingRequest r1 = exhaustive(p8_whole_core(1), 32, 8);
  IdleBindingRequest r2 = exhaustive(p8_whole_core(2), 32, 8);
  r1.max_states = r2.max_states = 200000;
  const IdleBindingReport b = bind_idle_core<S>({r1, r2}, 300);
  EXPECT_TRUE(b.bound) << S::name << ": " << b.mismatch;
  EXPECT_EQ(b.configs.size(), 2u);
  std::printf("[binding] %s: %s\n", std::string(S::name).c_str(), b.summary().c_str());
  return b;
}

// The path replays on the implementation: from the initial state, each move
// is enabled and apply<S>() reaches the proof's next state; the last state
// breaks the clause fact `f`.
template <class S>
void expect_replays(const IdleInductionResult& r, Fact f) {
  ASSERT_FALSE(r.trace.empty());
  ASSERT_EQ(r.trace_states.size(), r.trace.size() + 1);
  const Config& c = r.trace_config;
  CoreState s = idle_core::initial_state(c);
  EXPECT_EQ(s, r.trace_states[0]);
  std::vector<idle_core::Move> enabled;
  for (size_t i = 0; i < r.trace.size(); ++i) {
    idle_core::enabled_moves(c, s, enabled);
    ASSERT_NE(std::find(enabled.begin(), enabled.end(), r.trace[i]), enabled.end())
        << "move " << i + 1 << ": " << idle_core::describe(r.trace[i]);
    idle_core::apply<S>(c, s, r.trace[i]);
    EXPECT_EQ(s, r.trace_states[i + 1]) << "after move " << i + 1;
  }
  const auto facts = idle_core_enc::facts<S, Concrete>(c, idle_core_enc::to_enc(s));
  EXPECT_FALSE(facts[static_cast<unsigned>(f)]) << idle_core_enc::fact_info(f).id << "\n"
                                                << idle_core::describe_state(c, s);
}

void crosscheck(const ProofResult& r, const std::string& tag) {
  if (testing::have_cvc5_for_idle_core()) {
    EXPECT_EQ(testing::idle_core_cvc5_agrees(r, tag, 120), r.queries.size());
  }
}

// ---- IDLE-2: the entry clears its bit before taking the lock ----------------------

TEST(IdleCoreProofWitnesses, ClearOutsideLockBreaksIdle2) {
  const IdleBindingReport b = expect_bound<w::ClearOutsideLock>();
  // The binding's own walk sees the lost update on SMT2.
  EXPECT_GT(b.fact_failures[static_cast<unsigned>(Fact::bits_when_free)], 0u);

  const IdleInductionResult r =
      prove_idle_core_induction<w::ClearOutsideLock>(testing::test_options());
  testing::expect_violated(r.proof, "IDLE-2");
  // A counterexample to induction came first; the bounded check from the
  // initial state then found a real path, printed as moves.
  EXPECT_FALSE(r.cti.empty());
  EXPECT_NE(r.proof.counterexample.find("from the initial state"), std::string::npos);
  // Either idle kind of t1 makes the path (Z3 may return a sleep or a
  // winkle: the witness once failed asserting the sleep alone).
  EXPECT_TRUE(r.proof.counterexample.find("t1 begins sleep") != std::string::npos ||
              r.proof.counterexample.find("t1 begins winkle") != std::string::npos)
      << r.proof.counterexample;
  EXPECT_NE(r.proof.counterexample.find("t0 step"), std::string::npos);
  EXPECT_EQ(r.trace_config.threads, 2u);
  expect_replays<w::ClearOutsideLock>(r, Fact::bits_when_free);
  crosscheck(r.proof, "idle_core_clear_outside_lock");
}

// ---- IDLE-5: the no-loss wake of a winkle keeps the count --------------------------

TEST(IdleCoreProofWitnesses, NoWinkleDecOnNoLossBreaksIdle5) {
  const IdleBindingReport b = expect_bound<w::NoWinkleDecOnNoLoss>();
  EXPECT_GT(b.fact_failures[static_cast<unsigned>(Fact::winkle_count)], 0u);

  const IdleInductionResult r =
      prove_idle_core_induction<w::NoWinkleDecOnNoLoss>(testing::test_options());
  testing::expect_violated(r.proof, "IDLE-5");
  EXPECT_FALSE(r.cti.empty());
  EXPECT_NE(r.proof.counterexample.find("t0 begins winkle"), std::string::npos)
      << r.proof.counterexample;
  EXPECT_NE(r.proof.counterexample.find("t0 wakes"), std::string::npos);
  EXPECT_EQ(r.trace_config.threads, 1u);
  expect_replays<w::NoWinkleDecOnNoLoss>(r, Fact::winkle_count);
  EXPECT_EQ(replay_on_impl<w::NoWinkleDecOnNoLoss>(r), "");
  crosscheck(r.proof, "idle_core_no_winkle_dec");
}

// The check as `idlespec verify` runs it fails on the witness, with the path.
TEST(IdleCoreProofWitnesses, CheckFailsOnClearOutsideLock) {
  verify::RunOptions opts = verify::RunOptions::unhurried();
  const IdleCheckReport rep = run_idle_core_check<w::ClearOutsideLock>(opts, false);
  EXPECT_TRUE(rep.binding.bound);
  EXPECT_EQ(rep.result.outcome, verify::Outcome::fail) << rep.result.detail;
  EXPECT_TRUE(rep.result.violated.count("IDLE-2")) << rep.result.detail;
  EXPECT_NE(rep.result.counterexample.find("moves:"), std::string::npos);
  EXPECT_NE(rep.result.replay.find("idle_core_induction"), std::string::npos);
  EXPECT_NE(rep.result.detail.find("the path replays on impl/idle_core_model.h"), std::string::npos)
      << rep.result.detail;
  EXPECT_EQ(replay_on_impl<w::ClearOutsideLock>(rep.induction), "");
}

// ---- the other witnesses keep IDLE-1, IDLE-2, IDLE-5 ------------------------------------

template <class S>
void expect_keeps_the_invariants() {
  SCOPED_TRACE(std::string(S::name));
  expect_bound<S>();
  IdleInductionOptions io;
  io.threads = {1, 2, 4};
  const IdleInductionResult r = prove_idle_core_induction<S>(testing::test_options(), io);
  testing::expect_held(r.proof);
}

TEST(IdleCoreProofWitnesses, OtherWitnessesKeepTheInvariants) {
  expect_keeps_the_invariants<w::EveryThreadResyncs>();
  expect_keeps_the_invariants<w::FirstSkipsResync>();
  expect_keeps_the_invariants<w::UnlockBeforeResync>();
  expect_keeps_the_invariants<w::CoreMaskFor4>();
}

// CoreMaskFor4 only differs on 8 threads: bound there too (random walks).
TEST(IdleCoreProofWitnesses, CoreMaskFor4IsBoundOnSmt8) {
  IdleBindingRequest r;
  r.config = p8_whole_core(8);
  r.exhaustive = false;
  r.walks = 60;
  r.walk_length = 300;
  const IdleBindingReport b = bind_idle_core<w::CoreMaskFor4>({r}, 300);
  EXPECT_TRUE(b.bound) << b.mismatch;
  EXPECT_TRUE(b.complete);
}

// ---- a wrong encoding is caught by the binding ---------------------------------------

// The encoding's unlock cmpxchg leaves the lock set (s | thread): one move
// encoded differently from the implementation.
struct EncodesCmpxchgKeepingTheLock : Reference {
  static constexpr std::string_view name = "witness-encoding-cmpxchg-keeps-lock";
  static constexpr EncodingMutation encoding_mutation = EncodingMutation::cmpxchg_keeps_lock;
};

// The encoding lets the hardware wake a thread before its idle instruction:
// a move the implementation does not have.
struct EncodesAnEarlyWake : Reference {
  static constexpr std::string_view name = "witness-encoding-early-wake";
  static constexpr EncodingMutation encoding_mutation = EncodingMutation::wake_from_idle_insn;
};

TEST(IdleCoreProofWitnesses, BindingCatchesAMoveEncodedDifferently) {
  const IdleBindingReport b = bind_idle_core<EncodesCmpxchgKeepingTheLock>(
      {exhaustive(p8_whole_core(1)), exhaustive(p8_whole_core(2))}, 300);
  EXPECT_FALSE(b.bound);
  EXPECT_NE(b.mismatch_line.find("'t0 step' leads to different states"), std::string::npos)
      << b.mismatch;
  EXPECT_NE(b.mismatch.find("unlock_cmpxchg"), std::string::npos) << b.mismatch;
  std::printf("%s\n", b.mismatch.c_str());

  verify::RunOptions opts = verify::RunOptions::unhurried();
  const IdleCheckReport rep = run_idle_core_check<EncodesCmpxchgKeepingTheLock>(opts, false);
  EXPECT_EQ(rep.result.outcome, verify::Outcome::fail);
  EXPECT_NE(rep.result.detail.find("the encoding is not the code that runs"), std::string::npos)
      << rep.result.detail;
}

TEST(IdleCoreProofWitnesses, BindingCatchesAMoveTheImplementationDoesNotMake) {
  const IdleBindingReport b =
      bind_idle_core<EncodesAnEarlyWake>({exhaustive(p8_whole_core(1))}, 300);
  EXPECT_FALSE(b.bound);
  EXPECT_NE(b.mismatch_line.find("the encoding enables move 't0 wakes'"), std::string::npos)
      << b.mismatch;
  std::printf("%s: %s\n", std::string(EncodesAnEarlyWake::name).c_str(), b.mismatch.c_str());
}

// The Z3-level comparison catches the slip on its own: T(s, apply(s, m))
// substituted and simplified is not true, on the reachable states of SMT1.
TEST(IdleCoreProofWitnesses, Z3LevelComparisonCatchesAMoveEncodedDifferently) {
  const Config c = p8_whole_core(1);
  std::vector<CoreState> states{idle_core::initial_state(c)};
  std::vector<idle_core::Move> moves;
  for (size_t i = 0; i < states.size(); ++i) {
    idle_core::enabled_moves(c, states[i], moves);
    for (const idle_core::Move& m : moves) {
      CoreState n = states[i];
      idle_core::apply(c, n, m);
      if (std::find(states.begin(), states.end(), n) == states.end()) states.push_back(n);
    }
  }
  ASSERT_EQ(states.size(), 54u);
  IdleBindingConfigReport rep;
  IdleBindingReport good;
  EXPECT_TRUE(idle_core_bind::compare_z3<Reference>(c, states, states.size(), rep, good))
      << good.mismatch;
  EXPECT_EQ(rep.z3_enumerated, 54u);
  IdleBindingReport bad;
  EXPECT_FALSE(idle_core_bind::compare_z3<EncodesCmpxchgKeepingTheLock>(c, states, 0, rep, bad));
  EXPECT_NE(bad.mismatch_line.find("T(s, apply(s, t0 step)) is not true"), std::string::npos)
      << bad.mismatch;
  IdleBindingReport extra;
  EXPECT_FALSE(
      idle_core_bind::compare_z3<EncodesAnEarlyWake>(c, states, states.size(), rep, extra));
  EXPECT_NE(extra.mismatch_line.find("T admits"), std::string::npos) << extra.mismatch;
}

}  // namespace
}  // namespace idlespec::proofs
