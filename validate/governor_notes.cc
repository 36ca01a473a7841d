// The governor's notes: what the differential found, and what the judge's
// tally says beside the verdicts (walks of its own, declined selections,
// other predictions, menu_update() learning otherwise).
#include "validate/governor_run.h"

namespace idlespec::validate::menu {

void tally(Tally& t, Judged& jd, size_t i) {
  t.selections += jd.selections, t.gov5_update += jd.gov5_update, t.gov8_stored += jd.gov8_stored;
  t.gov5_predict += jd.gov5_predict, t.gov5_typical += jd.gov5_typical;
  t.g3_exact += jd.gov3_exact, t.g3_family += jd.gov3_family, t.g3_other += jd.gov3_other;
  t.g3_wrapped += jd.gov3_wrapped + jd.gov3_beyond, t.g3_wording += jd.gov3_wording;
  t.g3_unjudged += jd.gov3_unjudged;
  t.declined += jd.declined;
  if (t.gov8_accepted.empty() && !jd.gov8_accepted.empty())
    t.gov8_accepted = jd.gov8_accepted, t.gov8_input = i, t.gov8_step = jd.gov8_accepted_step;
  if (t.family_first.empty()) t.family_first = jd.family_first;
  if (t.other_first.empty()) t.other_first = jd.other_first;
  if (t.update_differs.empty()) t.update_differs = jd.update_differs;
  t.walk_differs += jd.walk_differs;
  t.new_walks += !jd.new_walk.empty();
  if (t.new_walk.empty()) t.new_walk = jd.new_walk;
  if (!jd.gov5_walk.empty()) t.walk_findings.push_back({i, jd.gov5_walk});
  for (auto& k : jd.known) t.known.push_back(std::move(k));
}

std::string differential_note(const Diff& diff, size_t subject) {
  const auto subjects = gf::all_subjects();
  const std::string sname(subjects[subject].name);
  std::string line;
  std::vector<std::string> all;
  for (size_t j = 0; j < subjects.size(); ++j)
    if (diff.selections > 0 && diff.equal[j] == diff.selections)
      all.push_back(std::string(subjects[j].name));
  if (!all.empty()) {
    line = "differential: the file's choices and learned state equal subject ";
    for (size_t j = 0; j < all.size(); ++j) line += (j ? ", " : "") + all[j];
    line += " on all " + std::to_string(diff.selections) +
            " selections (each from the file's own learned state)";
  } else {
    line = "differential: no subject matches every selection; closest " + sname + " (" +
           std::to_string(diff.equal[subject]) + " of " + std::to_string(diff.selections) +
           "), first divergence: " + diff.first[subject];
  }
  std::string others;
  for (size_t j = 0; j < subjects.size(); ++j)
    if (diff.equal[j] != diff.selections)
      others += (others.empty() ? "" : ", ") + std::string(subjects[j].name) + " " +
                std::to_string(diff.equal[j]);
  if (!others.empty()) line += "; others (equal selections): " + others;
  return line;
}

std::vector<std::string> judged_notes(const Tally& t, const std::string& sname) {
  std::vector<std::string> notes;
  if (!t.new_walk.empty())
    notes.push_back(
        "walk: on " + std::to_string(t.new_walks) +
        " input(s) the file's choice is no subject's walk of any prediction its predictor makes "
        "(exact, or with a word wrapped): a walk of its own, judged by the clauses' words (GOV-3) "
        "and not an overflow (GOV-5 fails only on a wrap its arithmetic shows)" +
        (t.walk_findings.empty()
             ? std::string()
             : "; the wraps seen beside it are not blamed while the walk differs") +
        "; nearest subject " + sname + ", first: " + t.new_walk);
  if (t.declined > 0)
    notes.push_back(std::to_string(t.declined) +
                    " input(s) ended where menu_select() answered -1, no state: before "
                    "v4.4 the cpuidle core then ran the architecture's default idle and "
                    "reflected nothing; that answer is not judged, and the selections "
                    "before it are");
  if (t.g3_family + t.g3_other > 0) {
    std::string line = "predictor: on " + std::to_string(t.g3_family + t.g3_other) + " of " +
                       std::to_string(t.selections) + " selections the file's choice is not " +
                       sname + "'s walk of the prediction " + sname +
                       "'s predictor makes from the file's learned state: another prediction "
                       "(the file predicts otherwise) or another subject's walk of it (the file "
                       "walks otherwise); not a GOV-5 matter";
    if (!t.family_first.empty())
      line += "; first that another known predictor or walk explains: " + t.family_first;
    if (!t.other_first.empty())
      line += "; first that no known predictor explains: " + t.other_first;
    notes.push_back(line);
  }
  if (!t.update_differs.empty())
    notes.push_back(
        "menu_update(): the file learns otherwise than exact arithmetic, without "
        "a wrap (the differential's report, not GOV-5); first: " +
        t.update_differs);
  return notes;
}

}  // namespace idlespec::validate::menu
