// validate's verdict model: the spec post-pass (judge_against_spec) turns
// the components' held/failed into the spec's verdicts for the subject the
// file is judged against, and the exit codes follow verify's.
#include <gtest/gtest.h>

#include <utility>

#include "validate/validate.h"

namespace idlespec::validate {
namespace {

ClauseVerdict verdict(const std::string& id, const std::string& component,
                      const std::string& function, const std::string& status) {
  ClauseVerdict v;
  v.id = id;
  v.component = component;
  v.function = function;
  v.file = "f.c";
  v.line = 1;
  v.status = status;
  return v;
}

// A busy_delay part where every clause validate judges has a verdict.
Part busy_delay_part(const std::string& busy2, const std::string& busy7) {
  Part p;
  p.component = "busy_delay";
  p.file = "f.c";
  p.functions = {{"rtas_busy_delay_time", true, 1, 5, ""}, {"rtas_busy_delay", true, 6, 20, ""}};
  for (const char* id : {"BUSY-1", "BUSY-3", "BUSY-5"})
    p.clauses.push_back(verdict(id, "busy_delay", "rtas_busy_delay", "held"));
  p.clauses.push_back(verdict("BUSY-2", "busy_delay", "rtas_busy_delay", busy2));
  p.clauses.push_back(verdict("BUSY-4", "busy_delay", "rtas_busy_delay_time", "held"));
  p.clauses.push_back(verdict("BUSY-7", "busy_delay", "rtas_busy_delay", busy7));
  return p;
}

const ClauseVerdict& find(const Report& r, const std::string& id) {
  for (const auto& v : r.clauses)
    if (v.id == id) return v;
  static ClauseVerdict none;
  ADD_FAILURE() << "no verdict for " << id;
  return none;
}

TEST(ValidateVerdicts, AFailureTheSpecAcceptsForTheSubjectIsAccepted) {
  Options opt;
  opt.subject = "legacy";
  Report r;
  r.parts = {busy_delay_part("failed", "failed")};
  judge_against_spec(r, opt);
  EXPECT_EQ(find(r, "BUSY-2").status, "accepted");
  EXPECT_EQ(find(r, "BUSY-2").fixed_by, "38f7b7067dae");
  EXPECT_EQ(find(r, "BUSY-2").subject, "legacy");
  // BUSY-7 is the early mode's, which legacy kernels do not have; BUSY-5 is
  // reference's alone.
  EXPECT_EQ(find(r, "BUSY-7").status, "n/a");
  EXPECT_EQ(find(r, "BUSY-5").status, "n/a");
  EXPECT_EQ(r.exit_code, kExitHeld);
}

TEST(ValidateVerdicts, WithoutTheSubjectTheFailureNamesTheFix) {
  Options opt;  // reference
  Report r;
  r.parts = {busy_delay_part("failed", "held")};
  judge_against_spec(r, opt);
  const ClauseVerdict& v = find(r, "BUSY-2");
  EXPECT_EQ(v.status, "failed");
  EXPECT_NE(v.spec_note.find("as legacy"), std::string::npos) << v.spec_note;
  EXPECT_NE(v.spec_note.find("fixed upstream by 38f7b7067dae"), std::string::npos) << v.spec_note;
  EXPECT_EQ(find(r, "BUSY-7").status, "held");  // reference's early mode
  EXPECT_EQ(r.exit_code, kExitFailed);
}

TEST(ValidateVerdicts, AClauseTheSpecHasValidateJudgeWithoutAVerdictIsUncovered) {
  Options opt;
  Report r;
  Part p = busy_delay_part("held", "held");
  p.clauses.erase(p.clauses.begin());  // BUSY-1
  r.parts = {p};
  judge_against_spec(r, opt);
  EXPECT_EQ(find(r, "BUSY-1").status, "uncovered");
  EXPECT_EQ(r.exit_code, kExitFailed);
}

TEST(ValidateVerdicts, GovernorSixIsAcceptedForEverySubject) {
  for (const char* subject : {"reference", "v6.14", "v6.19", "mainline"}) {
    Options opt;
    opt.subject = subject;
    opt.subject_given = true;
    Report r;
    Part p;
    p.component = "governor";
    p.functions = {{"menu_select", true, 1, 9, ""}, {"menu_update", true, 10, 20, ""}};
    for (int i = 1; i <= 9; ++i)
      p.clauses.push_back(verdict("GOV-" + std::to_string(i), "governor",
                                  i == 5 || i == 8 ? "menu_update" : "menu_select",
                                  i == 6 ? "failed" : "held"));
    r.parts = {p};
    judge_against_spec(r, opt);
    EXPECT_EQ(find(r, "GOV-6").status, "accepted") << subject;
    EXPECT_EQ(r.exit_code, kExitHeld) << subject;
  }
}

// Without --subject a governor file is judged against the spec's "Validate
// default" (mainline): GOV-9 failed there, naming the commit that fixed it
// for the older subjects the spec accepts it for; with --subject v6.19 the
// same failure is accepted.
TEST(ValidateVerdicts, GovernorIsJudgedAgainstMainlineByDefault) {
  auto judge = [](bool given, const std::string& subject) {
    Options opt;
    opt.subject = subject;
    opt.subject_given = given;
    Report r;
    Part p;
    p.component = "governor";
    p.functions = {{"menu_select", true, 1, 9, ""}, {"menu_update", true, 10, 20, ""}};
    for (int i = 1; i <= 9; ++i)
      p.clauses.push_back(verdict("GOV-" + std::to_string(i), "governor",
                                  i == 5 || i == 8 ? "menu_update" : "menu_select",
                                  i == 9 ? "failed" : "held"));
    r.parts = {p};
    judge_against_spec(r, opt);
    return r;
  };
  const Report by_default = judge(false, "reference");
  EXPECT_EQ(by_default.judged_subject, "mainline");
  EXPECT_EQ(find(by_default, "GOV-9").subject, "mainline");
  EXPECT_EQ(find(by_default, "GOV-9").status, "failed");
  EXPECT_EQ(find(by_default, "GOV-9").fixed_by, "80606f4eb8d7");
  EXPECT_NE(find(by_default, "GOV-9").spec_note.find("fixed upstream by 80606f4eb8d7"),
            std::string::npos)
      << find(by_default, "GOV-9").spec_note;
  EXPECT_EQ(by_default.exit_code, kExitFailed);
  const Report v619 = judge(true, "v6.19");
  EXPECT_EQ(find(v619, "GOV-9").status, "accepted");
  EXPECT_EQ(v619.exit_code, kExitHeld);
  // --subject reference given: the acceptance for reference applies.
  EXPECT_EQ(find(judge(true, "reference"), "GOV-9").status, "accepted");
}

// The governor's nine clauses, GOV-<failing> failed after a comparison with
// the subjects in which `like` share its failure, judged against the spec.
ClauseVerdict judged_governor(const Options& opt, int failing, std::vector<std::string> like) {
  Report r;
  Part p;
  p.component = "governor";
  p.functions = {{"menu_select", true, 1, 9, ""}, {"menu_update", true, 10, 20, ""}};
  for (int i = 1; i <= 9; ++i)
    p.clauses.push_back(verdict("GOV-" + std::to_string(i), "governor",
                                i == 5 || i == 8 ? "menu_update" : "menu_select",
                                i == failing ? "failed" : "held"));
  p.clauses[failing - 1].subjects_compared = true;
  p.clauses[failing - 1].fails_like = std::move(like);
  r.parts = {p};
  judge_against_spec(r, opt);
  return find(r, "GOV-" + std::to_string(failing));
}

// A check that compared its counterexample with the subjects (governor):
// an acceptance, and its fix, count only for a subject that shares the
// failure. One no accepting subject shares stays failed, also under
// --subject, and names no fix.
TEST(ValidateVerdicts, AnAcceptanceCoversOnlyAViolationItsSubjectShares) {
  auto judge = [](bool given, const std::string& subject, std::vector<std::string> like) {
    Options opt;
    opt.subject = subject;
    opt.subject_given = given;
    return judged_governor(opt, 9, like);
  };
  // Shared with v6.14 and v6.19: as before, the fix is named.
  const ClauseVerdict shared = judge(false, "reference", {"v6.14", "v6.19"});
  EXPECT_EQ(shared.status, "failed");
  EXPECT_EQ(shared.fixed_by, "80606f4eb8d7");
  EXPECT_NE(shared.spec_note.find("as v6.14, v6.19 (the spec accepts"), std::string::npos)
      << shared.spec_note;
  // Shared with none: another defect.
  const ClauseVerdict other = judge(false, "reference", {});
  EXPECT_EQ(other.status, "failed");
  EXPECT_EQ(other.fixed_by, "");
  EXPECT_EQ(other.spec_note.find("80606f4eb8d7"), std::string::npos) << other.spec_note;
  EXPECT_NE(
      other.spec_note.find("but none of them breaks GOV-9 as the file does on this counterexample"),
      std::string::npos)
      << other.spec_note;
  // Under the accepting subject: accepted only if it shares the failure.
  EXPECT_EQ(judge(true, "v6.19", {}).status, "failed");
  EXPECT_EQ(judge(true, "v6.19", {"v6.14"}).status, "failed");
  EXPECT_EQ(judge(true, "v6.19", {"v6.19"}).status, "accepted");
}

// An acceptance whose spec line is "- Fixed by: none (why)" names no
// commit; the verdict says why (GOV-8's: open upstream, with its finding
// page), and a failure the subject does not share still fails.
TEST(ValidateVerdicts, AnAcceptanceFixedByNoneSaysWhy) {
  auto judge = [](std::vector<std::string> like) {
    Options opt;
    return judged_governor(opt, 8, like);
  };
  const ClauseVerdict shared = judge({"v6.14", "reference", "v6.19", "mainline"});
  EXPECT_EQ(shared.status, "accepted");
  EXPECT_EQ(shared.subject, "mainline");
  EXPECT_EQ(shared.fixed_by, "");
  EXPECT_NE(shared.spec_note.find("the spec accepts this for mainline: "), std::string::npos)
      << shared.spec_note;
  EXPECT_NE(shared.spec_note.find("; fixed by: none (open upstream at the newest subject: see "
                                  "docs/findings/gov-8-poll-timeout.md)"),
            std::string::npos)
      << shared.spec_note;
  const ClauseVerdict other = judge({});
  EXPECT_EQ(other.status, "failed");
  EXPECT_EQ(other.spec_note.find("fixed by"), std::string::npos) << other.spec_note;
}

TEST(ValidateVerdicts, ExitCodes) {
  auto code = [](std::vector<std::string> statuses, bool allow_unknown = false) {
    std::vector<ClauseVerdict> vs;
    for (const auto& s : statuses) vs.push_back(verdict("GOV-1", "governor", "menu_select", s));
    return exit_code_of(vs, allow_unknown);
  };
  EXPECT_EQ(code({"held", "n/a", "absent", "accepted"}), kExitHeld);
  EXPECT_EQ(code({"held", "error"}), kExitUnjudged);
  EXPECT_EQ(code({"held", "unknown"}), kExitUnjudged);
  EXPECT_EQ(code({"held", "unknown"}, true), kExitHeld);
  EXPECT_EQ(code({"error", "failed"}), kExitFailed);  // a failure beside an unbuildable function
  EXPECT_EQ(code({"uncovered"}, true), kExitFailed);
  EXPECT_EQ(code({"absent", "n/a"}), kExitUnjudged);  // nothing judged is never a pass
  EXPECT_EQ(code({}), kExitUnjudged);
}

}  // namespace
}  // namespace idlespec::validate
