// The spec post-pass over a report's parts: each clause's subject, what the
// spec accepts of that subject and its upstream fix, the eras, the clauses
// the spec has validate judge that got no verdict; then the report's clause
// list and exit code.
#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "validate/component.h"
#include "validate/framac.h"
#include "validate/targets.h"
#include "verify/spec_index.h"

namespace idlespec::validate {

std::string judged_subject(const Options& opt, const std::string& component) {
  const verify::SpecIndex& idx = spec();
  const std::vector<std::string> known = idx.subjects_of(component);
  const std::string by_default = idx.validate_default(component);
  const std::string subject = !opt.subject_given && !by_default.empty() ? by_default : opt.subject;
  return std::find(known.begin(), known.end(), subject) == known.end() ? "reference" : subject;
}

void judge_against_spec(Report& rep, const Options& opt) {
  const verify::SpecIndex& idx = spec();
  std::set<std::string> noted;
  std::vector<std::pair<std::string, std::vector<std::string>>> used;  // subject, components
  for (auto& part : rep.parts) {
    // The subject: --subject where the component has it, else the spec's
    // "- Validate default:" for the component, else reference.
    const std::string subject = judged_subject(opt, part.component);
    if (opt.subject_given && subject != opt.subject) {
      if (noted.insert(part.component).second)
        rep.notes.push_back(part.component + " has no subject '" + opt.subject +
                            "': judged against reference");
    }
    // What was judged, after the fall-back (one entry per component).
    auto u =
        std::find_if(used.begin(), used.end(), [&](const auto& x) { return x.first == subject; });
    if (u == used.end()) u = used.insert(used.end(), {subject, {}});
    if (std::find(u->second.begin(), u->second.end(), part.component) == u->second.end())
      u->second.push_back(part.component);
    const std::vector<std::string> modes = idx.modes_of(part.component, subject);
    // A clause the spec has validate judge on a function this part checked,
    // with no verdict: uncovered.
    for (const auto& clause : idx.clauses) {
      if (clause.component != part.component || clause.validate_functions.empty()) continue;
      if (std::any_of(part.clauses.begin(), part.clauses.end(),
                      [&](const ClauseVerdict& v) { return v.id == clause.id; }))
        continue;
      for (const auto& f : part.functions) {
        if (!f.found ||
            std::find(clause.validate_functions.begin(), clause.validate_functions.end(), f.name) ==
                clause.validate_functions.end())
          continue;
        ClauseVerdict v;
        v.id = clause.id;
        v.component = part.component;
        v.function = f.name;
        v.file = part.file;
        v.line = f.first_line;
        v.status = "uncovered";
        v.error = "the spec (" + clause.file + ":" + std::to_string(clause.line) +
                  ") has validate judge " + clause.id + " on " + f.name +
                  ", and the check gave no verdict";
        part.clauses.push_back(v);
        break;
      }
    }
    for (auto& v : part.clauses) {
      v.subject = subject;
      const verify::Clause* clause = idx.find(v.id);
      if (!clause) continue;
      if (!clause->applies_to(subject, modes)) {
        if (v.status != "absent") {
          v.status = "n/a";
          v.spec_note = "not a clause of subject " + subject + " (its subjects: ";
          for (size_t i = 0; i < clause->subjects.size(); ++i)
            v.spec_note += (i ? ", " : "") + clause->subjects[i];
          v.spec_note += ")";
        }
        continue;
      }
      const verify::Acceptance* acc = clause->acceptance_for(subject);
      for (const auto& m : modes)
        if (!acc) acc = clause->acceptance_for(m);
      // Where the check replayed the spec's subjects on its counterexample,
      // an acceptance covers the failure only if its subject breaks the
      // clause there too; otherwise the file fails another way than the
      // accepted violation, and neither the acceptance nor its fix applies.
      auto shows = [&](const std::string& s) {
        return !v.subjects_compared ||
               std::find(v.fails_like.begin(), v.fails_like.end(), s) != v.fails_like.end();
      };
      const verify::Acceptance* era = v.era.empty() ? nullptr : clause->era(v.era);
      if (v.status == "failed" && era) {
        // Text of an era the spec explains (no subject): its words and fix.
        v.spec_note = "as text of the era " + era->subject +
                      " (no subject of the spec): " + era->reason + "; fixed upstream by " +
                      era->fixed_by;
        v.fixed_by = era->fixed_by_commit;
      } else if (v.status == "failed" && acc && shows(acc->subject)) {
        v.status = "accepted";
        v.spec_note = "the spec accepts this for " + acc->subject + ": " + acc->reason;
        v.fixed_by = acc->fixed_by_commit;
        // "- Fixed by: none (why)": no commit to name; the spec's why (open
        // upstream, with its finding page; or upstream's design) is said.
        if (v.fixed_by.empty() && !acc->fixed_by.empty())
          v.spec_note += "; fixed by: " + acc->fixed_by;
      } else if (v.status == "failed") {
        // Which other subjects the spec accepts it for, and their fix.
        std::string like, unlike, fix, fix_text;
        for (const auto& a : clause->accepted) {
          if (!shows(a.subject)) {
            unlike += (unlike.empty() ? "" : ", ") + a.subject;
            continue;
          }
          if (a.subject == subject) continue;
          like += (like.empty() ? "" : ", ") + a.subject;
          if (fix.empty()) fix = a.fixed_by_commit;
          if (fix_text.empty()) fix_text = a.fixed_by;
        }
        if (!like.empty()) {
          v.spec_note = "as " + like + " (the spec accepts this violation there)";
          if (!fix.empty())
            v.spec_note += "; fixed upstream by " + fix;
          else if (!fix_text.empty())
            v.spec_note += "; fixed by: " + fix_text;
          v.fixed_by = fix;
        } else if (!unlike.empty()) {
          v.spec_note =
              "the spec accepts a " + v.id + " violation for " + unlike +
              ", but none of them breaks " + v.id +
              " as the file does on this counterexample (each compared from the file's state): the "
              "file fails another way than the accepted one";
        } else if (!clause->since_commit.empty()) {
          // The clause asks for what an upstream commit brought (spec
          // "- Since:"). Nothing here tells the file's age: the note names
          // the commit as the fix only for text older than it, and says
          // that newer text (or a change) breaks the clause on its own.
          v.spec_note = "upstream has done what the clause asks since " + clause->since +
                        ": text older than that fails as upstream then did, and that commit "
                        "is its fix; newer text fails the clause on its own";
          v.fixed_by = clause->since_commit;
        }
      } else if (v.status == "held" && acc) {
        v.spec_note =
            "the spec accepts a violation for " + acc->subject + "; this file does not show it";
      }
    }
  }
  // One subject: its name; several (the components' defaults differ):
  // "reference (busy_delay); mainline (governor)".
  if (!opt.subject_given && used.size() == 1) rep.judged_subject = used[0].first;
  if (!opt.subject_given && used.size() > 1) {
    rep.judged_subject.clear();
    for (const auto& [s, comps] : used) {
      std::string list;
      for (const auto& c : comps) list += (list.empty() ? "" : ", ") + c;
      rep.judged_subject += (rep.judged_subject.empty() ? "" : "; ") + s + " (" + list + ")";
    }
  }
  for (auto& p : rep.parts) withdraw_if_interrupted(p.clauses);
  for (auto& p : rep.parts) settle_target_statuses(p.clauses);
  rep.clauses.clear();
  for (const auto& p : rep.parts)
    rep.clauses.insert(rep.clauses.end(), p.clauses.begin(), p.clauses.end());
  // Frama-C missing: the set-up line once per report (validate/framac.h).
  if (std::any_of(
          rep.clauses.begin(), rep.clauses.end(),
          [](const ClauseVerdict& v) { return v.proof_note == "Frama-C is not installed"; }) &&
      std::find(rep.notes.begin(), rep.notes.end(), framac_setup_line()) == rep.notes.end())
    rep.notes.push_back(framac_setup_line());
  // An attempt of the code under test to leave its sandbox is a finding.
  rep.exit_code = !rep.error.empty()
                      ? (rep.exit_code == kExitFailed ? kExitFailed : kExitUsage)
                      : command_exit_code(rep.clauses, opt.allow_unknown, any_escape(rep));
  make_report_safe(rep);
}

}  // namespace idlespec::validate
