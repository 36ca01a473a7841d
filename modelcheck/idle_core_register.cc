// Registers the explicit-state model checks of idle_core with verify, as
// spec/idle_core.md lists them under "- Checks:":
//
//   model-check idle_core_power8    IDLE-1, 2, 3, 4, 5, 6, 9   POWER8 SMT1, SMT2, SMT4, SMT4 2x2
//                                                              (workaround on), SMT4 (off)
//   model-check idle_core_power9    IDLE-7                     POWER9 SMT1, SMT2, SMT4
//   model-check idle_core_liveness  IDLE-8                     POWER8 SMT2, SMT4; POWER9 SMT2
//   model-check idle_core_lkmm      IDLE-1..6, 9 (POWER8),     under the Linux-kernel memory
//                                   IDLE-7 (POWER9)            model (modelcheck/idle_core_lkmm.h):
//                                                              POWER8 SMT1, SMT2 (workaround on,
//                                                              off); POWER9 SMT1, SMT2
//   model-check idle_core_races     IDLE-10                    the same exploration with the race
//                                                              detector, subject idle_lock, POWER8
//                                                              SMT1, SMT2 (POWER9 has a race: the
//                                                              spec says which; a test finds it)
//
// Each runs the checker (modelcheck/idle_core_checker.h) on every
// configuration in turn, within RunOptions.budget_seconds in all; a run cut
// by the budget makes the check unknown unless a violation was found. The
// subjects: reference (impl/idle_core.h Reference) and idle_lock (IdleLock:
// the lock apart, as upstream since v6.5).
#include <algorithm>

#include "impl/text.h"
#include "modelcheck/idle_core_checker.h"
#include "modelcheck/idle_core_lkmm.h"
#include "verify/layers.h"

namespace idlespec::verify {

namespace {

using idle_core::Config;
namespace mc = idle_core::mc;

Config core(Platform p, unsigned threads, unsigned subcores = 1, bool workaround = true) {
  Config c;
  c.platform = p;
  c.threads = threads;
  c.subcores = subcores;
  c.fastsleep_workaround = workaround;
  return c;
}

std::string replay_command(const Config& c, bool liveness, const std::string& subject,
                           bool lkmm = false, bool races = false) {
  std::string s = strprintf("idlespec model-check idle_core --threads %u", c.threads);
  if (subject != "reference") s += " --subject " + subject;
  if (c.subcores > 1) s += strprintf(" --subcores %u", c.subcores);
  s += c.power9() ? " --platform power9" : " --platform power8";
  if (!c.power9() && !c.fastsleep_workaround) s += " --no-workaround";
  if (liveness) s += " --liveness";
  if (lkmm) s += races ? " --lkmm" : " --lkmm --no-races";
  return s;
}

mc::CheckerResult check_subject(const std::string& subject, const mc::CheckerOptions& o) {
  if (subject == "idle_lock") return mc::check<idle_core::IdleLock>(o);
  return mc::check<idle_core::Reference>(o);
}

// How a check searches: the interleavings (liveness or not), or the
// executions the Linux-kernel memory model allows (with or without the race
// detector).
enum class Search { safety, liveness, lkmm, races };

mc::CheckerResult search_one(Search how, const std::string& subject, const Config& c,
                             double time_limit) {
  if (how == Search::lkmm || how == Search::races) {
    mc::WeakOptions o;
    o.config = c;
    o.races = how == Search::races;
    o.time_limit = time_limit;
    if (subject == "idle_lock") return mc::check_weak<idle_core::IdleLock>(o);
    return mc::check_weak<idle_core::Reference>(o);
  }
  mc::CheckerOptions o;
  o.config = c;
  o.liveness = how == Search::liveness;
  o.time_limit = time_limit;
  return check_subject(subject, o);
}

CheckResult run_configs(const std::vector<Config>& configs, Search how, const std::string& subject,
                        const RunOptions& options) {
  const bool liveness = how == Search::liveness;
  CheckResult r;
  r.outcome = Outcome::pass;
  const auto t0 = std::chrono::steady_clock::now();
  std::string detail;
  bool cut = false;
  for (const Config& c : configs) {
    const double used =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const mc::CheckerResult res = search_one(
        how, subject, c, options.budget_seconds > used ? options.budget_seconds - used : 0.001);
    if (!detail.empty()) detail += "; ";
    detail += strprintf("%s: %llu states%s, %.2fs", res.config.c_str(),
                        static_cast<unsigned long long>(res.states),
                        liveness ? " (unreduced, fair-cycle analysis)" : "", res.seconds);
    if (!res.error.empty()) {
      detail += " (checker error: " + res.error + ")";
      cut = true;
    } else if (!res.complete) {
      detail += " (cut: " + res.incomplete_reason + ")";
      cut = true;
    }
    for (const auto& v : res.violations) {
      if (r.outcome != Outcome::fail) {
        r.counterexample = v.trace;
        r.replay = replay_command(c, liveness, subject, how == Search::lkmm || how == Search::races,
                                  how == Search::races);
      }
      r.outcome = Outcome::fail;
      r.violated.insert(v.clause);
      detail += " " + v.clause + ": " + v.summary;
    }
    if (cut && r.outcome != Outcome::fail) break;
  }
  if (cut && r.outcome == Outcome::pass) r.outcome = Outcome::unknown;
  r.detail = (r.outcome == Outcome::pass ? (how == Search::lkmm || how == Search::races
                                                ? "no violation in any execution LKMM allows: "
                                                : "no violation in any interleaving: ")
                                         : "") +
             detail;
  return r;
}

void add(Registry& registry, std::string name, std::vector<std::string> clauses,
         std::vector<Config> configs, Search how,
         std::vector<std::string> subjects = {"reference", "idle_lock"}) {
  Check c;
  c.kind = CheckKind::model_check;
  c.name = std::move(name);
  c.component = "idle_core";
  c.clauses = std::move(clauses);
  c.subjects = subjects;
  c.run = [configs, how, subjects](const std::string& subject, const RunOptions& options) {
    if (std::find(subjects.begin(), subjects.end(), subject) == subjects.end()) {
      CheckResult r;
      r.outcome = Outcome::unknown;
      r.detail = "no subject '" + subject + "' for this idle_core check";
      return r;
    }
    return run_configs(configs, how, subject, options);
  };
  registry.add(std::move(c));
}

}  // namespace

void register_idle_core_model_checks(Registry& r) {
  const Platform p8 = Platform::power8, p9 = Platform::power9;
  add(r, "idle_core_power8", {"IDLE-1", "IDLE-2", "IDLE-3", "IDLE-4", "IDLE-5", "IDLE-6", "IDLE-9"},
      {core(p8, 1), core(p8, 2), core(p8, 4), core(p8, 4, 2), core(p8, 4, 1, false)},
      Search::safety);
  add(r, "idle_core_power9", {"IDLE-7"}, {core(p9, 1), core(p9, 2), core(p9, 4)}, Search::safety);
  add(r, "idle_core_liveness", {"IDLE-8"}, {core(p8, 2), core(p8, 4), core(p9, 2)},
      Search::liveness);
  add(r, "idle_core_lkmm",
      {"IDLE-1", "IDLE-2", "IDLE-3", "IDLE-4", "IDLE-5", "IDLE-6", "IDLE-7", "IDLE-9"},
      {core(p8, 1), core(p8, 2), core(p8, 2, 1, false), core(p9, 1), core(p9, 2)}, Search::lkmm);
  add(r, "idle_core_races", {"IDLE-10"}, {core(p8, 1), core(p8, 2), core(p8, 2, 1, false)},
      Search::races, {"idle_lock"});
}

}  // namespace idlespec::verify
