// The `model-check idle_core_spin` check: SPIN on spec/idle_core.pml, the
// Promela twin of impl/idle_core_model.h (Subject = Reference), for IDLE-1..4.
//
//   1. POWER8 SMT2, exhaustive with every reduction off (spin -o3, pan
//      -DNOREDUCE): no assertion violation and no deadlock, and SPIN's
//      "states, stored" equals the reachable states of impl/idle_core_model.h
//      under a plain BFS (else the two models disagree: fail).
//   2. POWER8 SMT4, SPIN's default partial-order reduction with -DCOLLAPSE,
//      when the budget leaves room for it (a few seconds and ~1 GB); when it
//      does not, the detail says that only SMT2 ran.
//
// fail: SPIN's trail as a list of moves; unknown: spin or a C compiler is
// missing, SPIN could not run the model, or the budget cut a run.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>

#include "impl/idle_core.h"
#include "modelcheck/spin_driver.h"
#include "verify/build_paths.h"
#include "verify/layers.h"

namespace idlespec::verify {
namespace {

constexpr const char* kModel = "spec/idle_core.pml";
// Below this many seconds left, the SMT4 run is not started.
constexpr double kSmt4MinSeconds = 20;

idle_core::Config power8(unsigned threads) {
  idle_core::Config c;
  c.platform = Platform::power8;
  c.threads = threads;
  return c;
}

std::string fmt(const char* f, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, f, v);
  return buf;
}

std::string spin_command(const spin::ModelConfig& m, bool reduce) {
  std::string flags;
  for (const std::string& f : m.spin_flags()) flags += f + " ";
  return std::string("spin ") + (reduce ? "" : "-o3 ") + flags + "-a " + kModel +
         " && cc -DSAFETY " + (reduce ? "-DCOLLAPSE" : "-DNOREDUCE") +
         " -o pan pan.c && ./pan -m1000000 && spin -t " + flags + kModel;
}

CheckResult fail_with_trail(const spin::Result& s, const spin::ModelConfig& m, bool reduce,
                            const std::string& ran_before) {
  CheckResult r;
  r.outcome = Outcome::fail;
  for (const std::string& c : s.clauses) r.violated.insert(c);
  r.detail = ran_before + "SPIN, " + m.describe() + ": " + s.message + " after " +
             std::to_string(std::count_if(s.trail.begin(), s.trail.end(),
                                          [](const std::string& l) {
                                            return l.rfind("VIOLATION", 0) != 0 &&
                                                   l.rfind("DEADLOCK", 0) != 0;
                                          })) +
             " moves";
  for (const std::string& move : s.trail) {
    r.counterexample += (r.counterexample.empty() ? "" : "; ") + move;
  }
  r.replay = "idlespec check model-check idle_core_spin --subject reference   (by hand: " +
             spin_command(m, reduce) + ")";
  return r;
}

CheckResult run_spin(const std::string& subject, const RunOptions& opts) {
  CheckResult r;
  const auto t0 = std::chrono::steady_clock::now();
  const auto left = [&] {
    return opts.budget_seconds -
           std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  };
  if (subject != "reference") {
    r.detail = "idle_core_spin models the reference only, not " + subject;
    return r;
  }
  if (const std::string why = spin::unavailable_reason(); !why.empty()) {
    r.detail = why;
    return r;
  }
  const std::string path =
      (opts.source_dir.empty() ? std::string(idlespec::build::source_dir()) : opts.source_dir) +
      "/" + kModel;
  std::string pml;
  if (!spin::read_text(path, pml)) {
    r.detail = "cannot read " + path;
    return r;
  }

  // 1. POWER8 SMT2, exhaustive, every reduction off.
  const idle_core::Config c2 = power8(2);
  const spin::ModelConfig m2 = spin::ModelConfig::from(c2);
  spin::Options o2;
  o2.timeout_seconds = std::max(1.0, left());
  const spin::Result s2 = spin::run(pml, m2, o2);
  if (s2.status == spin::Status::violation) return fail_with_trail(s2, m2, false, "");
  if (s2.status != spin::Status::ok) {
    r.detail = "SPIN, " + m2.describe() + ": " + std::string(spin::status_name(s2.status)) + ": " +
               s2.message;
    return r;
  }
  const spin::Reachable bfs = spin::explore_reference(c2);
  if (bfs.states != s2.states_stored) {
    r.outcome = Outcome::fail;
    r.detail = "spec/idle_core.pml and impl/idle_core_model.h disagree, " + m2.describe() +
               ": SPIN stores " + std::to_string(s2.states_stored) + " states, the BFS reaches " +
               std::to_string(bfs.states);
    r.replay = "idlespec check model-check idle_core_spin --subject reference";
    return r;
  }
  const std::string smt2 =
      "SPIN " + m2.describe() + " exhaustive, no reduction: " + std::to_string(s2.states_stored) +
      " states (= the BFS of impl/idle_core_model.h), " + std::to_string(s2.transitions - 1) +
      " transitions, no assertion violation, no deadlock";

  // 2. POWER8 SMT4, partial-order reduction and COLLAPSE, if the budget allows.
  if (left() < kSmt4MinSeconds) {
    r.outcome = Outcome::pass;
    r.detail = smt2 + "; SMT4 not run (" + fmt("%.0f", std::max(0.0, left())) +
               " s of the budget left, it needs ~" + fmt("%.0f", kSmt4MinSeconds) + ")";
    return r;
  }
  const spin::ModelConfig m4 = spin::ModelConfig::from(power8(4));
  spin::Options o4;
  o4.reduce = true;
  o4.collapse = true;
  o4.hash_bits = 24;
  o4.timeout_seconds = left();
  o4.shortest_trail = false;  // iterative shortening over 3 M states costs too much
  const spin::Result s4 = spin::run(pml, m4, o4);
  if (s4.status == spin::Status::violation) return fail_with_trail(s4, m4, true, smt2 + "; ");
  if (s4.status != spin::Status::ok) {
    r.detail = smt2 + "; SPIN " + m4.describe() + ": " + std::string(spin::status_name(s4.status)) +
               ": " + s4.message;
    return r;  // unknown: SMT4 did not complete
  }
  r.outcome = Outcome::pass;
  r.detail = smt2 + "; SPIN " + m4.describe() +
             " (partial-order reduction, COLLAPSE): " + std::to_string(s4.states_stored) +
             " states, no violation, pan " + fmt("%.1f", s4.pan_seconds) + " s, " +
             fmt("%.0f", s4.pan_memory_mb) + " MB";
  return r;
}

}  // namespace

void register_idle_core_spin(Registry& r) {
  Check c;
  c.kind = CheckKind::model_check;
  c.name = "idle_core_spin";
  c.component = "idle_core";
  c.clauses = {"IDLE-1", "IDLE-2", "IDLE-3", "IDLE-4"};
  c.subjects = {"reference"};
  c.run = [](const std::string& subject, const RunOptions& opts) {
    const auto t0 = std::chrono::steady_clock::now();
    CheckResult res = run_spin(subject, opts);
    res.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return res;
  };
  r.add(std::move(c));
}

}  // namespace idlespec::verify
