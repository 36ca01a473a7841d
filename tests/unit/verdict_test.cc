// The verdict model: clause x subject -> held / failed / unknown / uncovered
// / accepted, and the spec parser it reads clauses with. The checks here are
// stand-ins with fixed outcomes; the real ones are in proofs/, properties/
// and fuzz/.
#include <gtest/gtest.h>

#include <csignal>

#include "verify/runner.h"
#include "verify/spec_index.h"

namespace idlespec::verify {
namespace {

constexpr const char* kSpec = R"(# xcede
### XCEDE-1 (safety)
First obligation,
wrapped.

- Subjects: reference, upstream
- Source: somewhere
- Checks: proof p1, property q1
- Accepted for upstream: it knowingly breaks this
- Fixed by: none (a test)

### XCEDE-2 (efficiency)
Second obligation.

- Subjects: reference
- Source: elsewhere
- Since: 09d1ea72c881 ("a title", v6.3)
- Checks: property q2
)";

SpecIndex spec() {
  SpecIndex idx;
  parse_spec_file("xcede", "spec/xcede.md", kSpec, idx);
  return idx;
}

Check fixed(CheckKind kind, const std::string& name, std::vector<std::string> clauses,
            std::vector<std::string> subjects, Outcome reference, Outcome upstream) {
  Check c;
  c.kind = kind;
  c.name = name;
  c.component = "xcede";
  c.clauses = std::move(clauses);
  c.subjects = std::move(subjects);
  c.run = [=](const std::string& subject, const RunOptions&) {
    CheckResult r;
    r.outcome = subject == "reference" ? reference : upstream;
    return r;
  };
  return c;
}

Status status_of(const VerifyReport& r, const std::string& id, const std::string& subject) {
  for (const auto& c : r.clauses) {
    if (c.clause.id == id && c.subject == subject) return c.status;
  }
  ADD_FAILURE() << "no verdict for " << id << "/" << subject;
  return Status::uncovered;
}

TEST(SpecParser, ReadsEveryField) {
  const SpecIndex idx = spec();
  ASSERT_TRUE(idx.errors.empty()) << idx.errors[0];
  ASSERT_EQ(idx.clauses.size(), 2u);
  const Clause& c = idx.clauses[0];
  EXPECT_EQ(c.id, "XCEDE-1");
  EXPECT_EQ(c.kind, "safety");
  EXPECT_EQ(c.obligation, "First obligation, wrapped.");
  EXPECT_EQ(c.subjects, (std::vector<std::string>{"reference", "upstream"}));
  ASSERT_EQ(c.checks.size(), 2u);
  EXPECT_EQ(c.checks[1].kind, CheckKind::property);
  ASSERT_NE(c.acceptance_for("upstream"), nullptr);
  EXPECT_EQ(c.acceptance_for("reference"), nullptr);
  EXPECT_EQ(c.line, 2);
  EXPECT_TRUE(c.since.empty());
  EXPECT_EQ(idx.clauses[1].since, "09d1ea72c881 (\"a title\", v6.3)");
  EXPECT_EQ(idx.clauses[1].since_commit, "09d1ea72c881");
}

TEST(SpecParser, RejectsMalformedClauses) {
  const std::pair<const char*, const char*> cases[] = {
      {"### XCEDE-1 (important)\nx\n- Subjects: r\n- Source: s\n", "kind"},
      {"### XCEDE-1 (safety)\nx\n- Source: s\n", "Subjects"},
      {"### XCEDE-1 (safety)\nx\n- Subjects: r\n", "Source"},
      {"### XCEDE-1 (safety)\n\n- Subjects: r\n- Source: s\n", "obligation"},
      {"### XCEDE-1 (safety)\nx\n- Subjects: r\n- Source: s\n- Checks: prof p\n", "<kind> <name>"},
      {"### XCEDE-1 (safety)\nx\n- Subjects: r\n- Source: s\n- Accepted for z: why\n- Fixed by: "
       "none\n",
       "not one of"},
      {"### XCEDE-1 (safety)\nx\n- Subjects: r\n- Source: s\n- Accepted for r: why\n", "Fixed by"},
      {"### XCEDE-1 (safety)\nx\n- Subjects: r\n- Source: s\n- Fixed by: 779b1a1cb13a\n",
       "must follow"},
      {"### XCEDE-1 (safety)\nx\n- Subjects: r\n- Source: s\n- Accepted for r: why\n- Fixed by: "
       "soon\n",
       "commit id"},
      {"### XCEDE-1 (safety)\nx\n- Subjects: r, s\n- Source: s\n- Accepted for r, r: why\n- Fixed "
       "by: none\n",
       "twice"},
      {"### XCEDE-1 (safety)\nx\n- Subjects: r\n- Source: s\n- Since: v6.3\n", "commit id"},
      {"### XCEDE-1 (safety)\nx\n- Subjects: r\n- Source: s\n- Since: 09d1ea72c881\n- Since: "
       "50741b70b0cb\n",
       "two"},
      {"### XCEDE-1 (safety)\nx\n- Subjects: r\n- Source: s\n- Era v1: why\n",
       "'Era' line without"},
      {"### XCEDE-1 (safety)\nx\n- Subjects: r\n- Source: s\n- Era v1: why\n- Fixed by: none\n"
       "- Era v1: again\n- Fixed by: none\n",
       "twice"},
      {"### GOV-1 (safety)\nx\n- Subjects: r\n- Source: s\n", "does not belong"},
      {"### XCEDE-1 safety\n", "malformed"},
  };
  for (const auto& [text, want] : cases) {
    SpecIndex idx;
    parse_spec_file("xcede", "spec/xcede.md", text, idx);
    ASSERT_FALSE(idx.errors.empty()) << text;
    EXPECT_NE(idx.errors[0].find(want), std::string::npos) << idx.errors[0];
  }
}

TEST(SpecParser, OneAcceptanceLineForSeveralSubjectsWithItsFix) {
  SpecIndex idx;
  parse_spec_file("governor", "spec/governor.md", R"(# governor
- Modes of reference: early, late

### GOV-1 (safety)
x

- Subjects: a, b, reference
- Source: s
- Checks: proof p, validate menu_select, validate menu_update
- Accepted for a, b: why
- Fixed by: 779b1a1cb13a ("cpuidle: a title")
)",
                  idx);
  ASSERT_TRUE(idx.errors.empty()) << idx.errors[0];
  const Clause& c = idx.clauses.at(0);
  EXPECT_EQ(c.checks.size(), 1u);  // validate checks are not registry checks
  EXPECT_EQ(c.validate_functions, (std::vector<std::string>{"menu_select", "menu_update"}));
  for (const char* s : {"a", "b"}) {
    ASSERT_NE(c.acceptance_for(s), nullptr) << s;
    EXPECT_EQ(c.acceptance_for(s)->reason, "why");
    EXPECT_EQ(c.acceptance_for(s)->fixed_by_commit, "779b1a1cb13a");
  }
  EXPECT_EQ(c.acceptance_for("reference"), nullptr);
  EXPECT_EQ(idx.modes_of("governor", "reference"), (std::vector<std::string>{"early", "late"}));
  EXPECT_TRUE(idx.modes_of("governor", "a").empty());
  EXPECT_TRUE(c.applies_to("x", {"b"}));
  EXPECT_FALSE(c.applies_to("x", {"y"}));
  EXPECT_EQ(idx.subjects_of("governor"), (std::vector<std::string>{"a", "b", "reference"}));
}

TEST(SpecParser, AnEraLineWithItsFix) {
  SpecIndex idx;
  parse_spec_file("teo", "spec/teo.md", R"(### TEO-6 (safety)
x

- Subjects: a
- Source: s
- Accepted for a: why
- Fixed by: none (open)
- Era v6.14-v6.18: total decays on its own
- Fixed by: b54df61c7428 ("cpuidle: a title")
)",
                  idx);
  ASSERT_TRUE(idx.errors.empty()) << idx.errors[0];
  const Clause& c = idx.clauses.at(0);
  ASSERT_NE(c.era("v6.14-v6.18"), nullptr);
  EXPECT_EQ(c.era("v6.14-v6.18")->reason, "total decays on its own");
  EXPECT_EQ(c.era("v6.14-v6.18")->fixed_by_commit, "b54df61c7428");
  EXPECT_EQ(c.era("v6.19"), nullptr);
  // The era's fix is not the acceptance's, and an era is no acceptance.
  ASSERT_NE(c.acceptance_for("a"), nullptr);
  EXPECT_EQ(c.acceptance_for("a")->fixed_by_commit, "");
  EXPECT_EQ(c.acceptance_for("v6.14-v6.18"), nullptr);
}

TEST(Verdicts, ExitCodes) {
  VerifyReport rep;
  ClauseReport c;
  for (Status s : {Status::held, Status::accepted}) {
    c.status = s;
    rep.clauses = {c};
    EXPECT_EQ(rep.exit_code(false), 0) << status_name(s);
  }
  c.status = Status::unknown;
  rep.clauses = {c};
  EXPECT_EQ(rep.exit_code(false), 3);
  EXPECT_EQ(rep.exit_code(true), 0);
  ClauseReport f;
  for (Status s : {Status::failed, Status::uncovered}) {
    f.status = s;
    rep.clauses = {c, f};  // a failure dominates the unknown
    EXPECT_EQ(rep.exit_code(true), 1) << status_name(s);
  }
  rep.clauses = {};
  rep.errors = {"a registry check names XCEDE-9"};
  EXPECT_EQ(rep.exit_code(true), 1);
}

TEST(Verdicts, HeldWhenEveryCheckPasses) {
  Registry r;
  r.add(fixed(CheckKind::proof, "p1", {"XCEDE-1"}, {"reference", "upstream"}, Outcome::pass,
              Outcome::fail));
  r.add(fixed(CheckKind::property, "q1", {"XCEDE-1"}, {"reference", "upstream"}, Outcome::pass,
              Outcome::pass));
  r.add(fixed(CheckKind::property, "q2", {"XCEDE-2"}, {"reference"}, Outcome::pass, Outcome::pass));
  const VerifyReport rep = run_verify(spec(), r, {}, {});
  EXPECT_EQ(status_of(rep, "XCEDE-1", "reference"), Status::held);
  EXPECT_EQ(status_of(rep, "XCEDE-1", "upstream"), Status::accepted);
  EXPECT_EQ(status_of(rep, "XCEDE-2", "reference"), Status::held);
  EXPECT_TRUE(rep.passed(false));
}

TEST(Verdicts, FailedUnknownAndUncovered) {
  Registry r;
  r.add(fixed(CheckKind::proof, "p1", {"XCEDE-1"}, {"reference", "upstream"}, Outcome::fail,
              Outcome::fail));
  r.add(fixed(CheckKind::property, "q1", {"XCEDE-1"}, {"reference", "upstream"}, Outcome::unknown,
              Outcome::pass));
  const VerifyReport rep = run_verify(spec(), r, {}, {});
  EXPECT_EQ(status_of(rep, "XCEDE-1", "reference"), Status::failed);
  EXPECT_EQ(status_of(rep, "XCEDE-2", "reference"), Status::failed);  // spec lists q2, unregistered
  EXPECT_FALSE(rep.passed(true));

  Registry only_unknown;
  only_unknown.add(
      fixed(CheckKind::proof, "p1", {"XCEDE-1"}, {"reference"}, Outcome::unknown, Outcome::pass));
  only_unknown.add(
      fixed(CheckKind::property, "q1", {"XCEDE-1"}, {"reference"}, Outcome::pass, Outcome::pass));
  only_unknown.add(fixed(CheckKind::property, "q2", {"XCEDE-2"}, {}, Outcome::pass, Outcome::pass));
  const VerifyReport rep2 = run_verify(spec(), only_unknown, {}, {});
  EXPECT_EQ(status_of(rep2, "XCEDE-1", "reference"), Status::unknown);
  EXPECT_EQ(status_of(rep2, "XCEDE-1", "upstream"), Status::uncovered);  // no check runs upstream
  EXPECT_EQ(status_of(rep2, "XCEDE-2", "reference"), Status::uncovered);
  EXPECT_FALSE(rep2.passed(true));
}

TEST(Verdicts, AnAcceptedViolationThatIsNotFoundIsAFailure) {
  Registry r;
  r.add(fixed(CheckKind::proof, "p1", {"XCEDE-1"}, {"reference", "upstream"}, Outcome::pass,
              Outcome::pass));
  r.add(fixed(CheckKind::property, "q1", {"XCEDE-1"}, {"reference", "upstream"}, Outcome::pass,
              Outcome::pass));
  r.add(fixed(CheckKind::property, "q2", {"XCEDE-2"}, {"reference"}, Outcome::pass, Outcome::pass));
  const VerifyReport rep = run_verify(spec(), r, {}, {});
  EXPECT_EQ(status_of(rep, "XCEDE-1", "upstream"), Status::failed);
  EXPECT_FALSE(rep.passed(false));
}

TEST(Verdicts, RegistryAndSpecMustAgree) {
  Registry r;
  r.add(fixed(CheckKind::proof, "p1", {"XCEDE-1"}, {"reference", "upstream"}, Outcome::pass,
              Outcome::fail));
  r.add(fixed(CheckKind::property, "q1", {"XCEDE-1", "XCEDE-2"}, {"reference", "upstream"},
              Outcome::pass, Outcome::fail));
  r.add(fixed(CheckKind::property, "q2", {"XCEDE-2"}, {"reference"}, Outcome::pass, Outcome::pass));
  r.add(fixed(CheckKind::property, "q3", {"XCEDE-9"}, {"reference"}, Outcome::pass, Outcome::pass));
  const VerifyReport rep = run_verify(spec(), r, {}, {});
  EXPECT_EQ(status_of(rep, "XCEDE-2", "reference"),
            Status::failed);         // q1 names it, spec doesn't list q1
  ASSERT_EQ(rep.errors.size(), 1u);  // q3 names a clause nobody defines
  EXPECT_NE(rep.errors[0].find("XCEDE-9"), std::string::npos);
}

TEST(Verdicts, AViolationOfAnotherClauseDoesNotFailThisOne) {
  Registry r;
  Check multi = fixed(CheckKind::property, "q1", {"XCEDE-1"}, {"reference", "upstream"},
                      Outcome::pass, Outcome::pass);
  r.add(fixed(CheckKind::proof, "p1", {"XCEDE-1"}, {"reference", "upstream"}, Outcome::pass,
              Outcome::fail));
  r.add(multi);
  Check q2 =
      fixed(CheckKind::property, "q2", {"XCEDE-2"}, {"reference"}, Outcome::fail, Outcome::fail);
  q2.run = [](const std::string&, const RunOptions&) {
    CheckResult res;
    res.outcome = Outcome::fail;
    res.violated = {"XCEDE-1"};
    return res;
  };
  r.add(q2);
  const VerifyReport rep = run_verify(spec(), r, {}, {});
  EXPECT_EQ(status_of(rep, "XCEDE-2", "reference"), Status::held);
}

TEST(Verdicts, JsonCarriesTheFieldsMachinesRead) {
  Registry r;
  r.add(fixed(CheckKind::proof, "p1", {"XCEDE-1"}, {"reference", "upstream"}, Outcome::pass,
              Outcome::fail));
  r.add(fixed(CheckKind::property, "q1", {"XCEDE-1"}, {"reference", "upstream"}, Outcome::pass,
              Outcome::pass));
  r.add(fixed(CheckKind::property, "q2", {"XCEDE-2"}, {"reference"}, Outcome::pass, Outcome::pass));
  const std::string json = report_json(run_verify(spec(), r, {}, {}));
  for (const char* field :
       {"\"clauses\":[", "\"id\":\"XCEDE-1\"", "\"component\":\"xcede\"",
        "\"subject\":\"upstream\"", "\"kind\":\"safety\"", "\"status\":\"accepted\"",
        "\"checks\":[", "\"kind\":\"proof\"", "\"name\":\"p1\"", "\"status\":\"fail\"",
        "\"detail\":", "\"replay\":"}) {
    EXPECT_NE(json.find(field), std::string::npos) << field;
  }
}

TEST(BuiltinSpec, ParsesWithoutErrors) {
  const SpecIndex idx = builtin_spec();
  for (const auto& e : idx.errors) ADD_FAILURE() << e;
  EXPECT_GE(idx.clauses.size(), 14u);
}

// verify --jobs: each check in a child process; the result crosses a pipe
// whole (a counterexample larger than the pipe's buffer, the violated
// clauses) and the verdicts are those of the in-process run. A check that
// crashes costs that check (unknown, naming the signal), not the run.
TEST(Verdicts, ChecksInChildProcessesGiveTheSameVerdicts) {
  Registry r;
  Check big = fixed(CheckKind::proof, "p1", {"XCEDE-1"}, {"reference", "upstream"}, Outcome::pass,
                    Outcome::fail);
  big.run = [](const std::string& subject, const RunOptions&) {
    CheckResult res;
    res.outcome = subject == "upstream" ? Outcome::fail : Outcome::pass;
    res.detail = "detail of " + subject;
    res.counterexample = std::string(300000, 'x') + "\nend";
    res.replay = "idlespec check proof p1 --subject " + subject;
    if (subject == "upstream") res.violated = {"XCEDE-1"};
    return res;
  };
  r.add(big);
  r.add(fixed(CheckKind::property, "q1", {"XCEDE-1"}, {"reference", "upstream"}, Outcome::pass,
              Outcome::pass));
  r.add(fixed(CheckKind::property, "q2", {"XCEDE-2"}, {"reference"}, Outcome::unknown,
              Outcome::pass));
  RunOptions serial;
  RunOptions parallel;
  parallel.jobs = 2;
  const VerifyReport a = run_verify(spec(), r, {}, serial);
  const VerifyReport b = run_verify(spec(), r, {}, parallel);
  EXPECT_EQ(report_text(a), report_text(b));
  EXPECT_EQ(status_of(b, "XCEDE-1", "upstream"), Status::accepted);
  EXPECT_EQ(status_of(b, "XCEDE-2", "reference"), Status::unknown);
  bool seen = false;
  for (const auto& c : b.clauses) {
    for (const auto& ch : c.checks) {
      if (ch.ref.name != "p1" || c.subject != "upstream") continue;
      seen = true;
      EXPECT_EQ(ch.result.counterexample.size(), 300004u);
      EXPECT_EQ(ch.result.violated, std::set<std::string>{"XCEDE-1"});
      EXPECT_EQ(ch.result.replay, "idlespec check proof p1 --subject upstream");
    }
  }
  EXPECT_TRUE(seen);
}

TEST(Verdicts, ACrashingCheckInAChildIsUnknown) {
  Registry r;
  Check crash =
      fixed(CheckKind::proof, "p1", {"XCEDE-1"}, {"reference"}, Outcome::pass, Outcome::pass);
  crash.run = [](const std::string&, const RunOptions&) -> CheckResult {
    std::raise(SIGSEGV);
    return {};
  };
  r.add(crash);
  r.add(fixed(CheckKind::property, "q1", {"XCEDE-1"}, {"reference"}, Outcome::pass, Outcome::pass));
  r.add(fixed(CheckKind::property, "q2", {"XCEDE-2"}, {"reference"}, Outcome::pass, Outcome::pass));
  RunOptions parallel;
  parallel.jobs = 2;
  const VerifyReport rep = run_verify(spec(), r, {}, parallel);
  EXPECT_EQ(status_of(rep, "XCEDE-1", "reference"), Status::unknown);
  EXPECT_EQ(status_of(rep, "XCEDE-2", "reference"), Status::held);
  const std::string text = report_text(rep);
  // Plainly the child dies of SIGSEGV; under ASan its handler reports the
  // crash and exits with status 1. Either way no result came back.
  EXPECT_TRUE(text.find("died of signal 11") != std::string::npos ||
              text.find("ended (status 1) without a result") != std::string::npos)
      << text;
}

}  // namespace
}  // namespace idlespec::verify
