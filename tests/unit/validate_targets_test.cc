// validate --targets (validate/targets.h): a component's per-target parts
// merged into one verdict per clause, the worst of its targets', each
// target's kept, and where_text() naming them; the list's parsing.
#include <gtest/gtest.h>

#include "validate/targets.h"

namespace idlespec::validate {
namespace {

ClauseVerdict verdict(const std::string& id, const std::string& status,
                      const std::string& counterexample = "") {
  ClauseVerdict v;
  v.id = id;
  v.component = "xcede";
  v.function = "parse_cede_parameters";
  v.file = "f.c";
  v.line = 10;
  v.status = status;
  if (!counterexample.empty()) v.counterexamples.push_back(counterexample);
  return v;
}

Part part(const std::string& xcede8, const std::string& cex = "") {
  Part p;
  p.component = "xcede";
  p.file = "f.c";
  p.clauses = {verdict("XCEDE-1", "held"), verdict("XCEDE-8", xcede8, cex)};
  return p;
}

TEST(ValidateTargets, ClauseFailingOnOneTargetFailsAndSaysWhere) {
  const Part m = merge_target_parts({{"host", part("held")},
                                     {"ppc64", part("failed", "payload_size 0x0100")},
                                     {"ppc64le", part("held")}});
  ASSERT_EQ(m.clauses.size(), 2u);
  const ClauseVerdict& x8 = m.clauses[1];
  EXPECT_EQ(x8.status, "failed");
  ASSERT_EQ(x8.targets.size(), 3u);
  EXPECT_EQ(x8.targets[1].target, "ppc64");
  EXPECT_EQ(x8.targets[1].status, "failed");
  EXPECT_EQ(x8.targets[1].detail, "payload_size 0x0100");
  ASSERT_EQ(x8.counterexamples.size(), 1u);
  EXPECT_EQ(x8.counterexamples[0], "[ppc64] payload_size 0x0100");
  EXPECT_EQ(where_text(x8), "failed on ppc64 (big-endian), held on host and ppc64le");
  EXPECT_EQ(m.clauses[0].status, "held");
  EXPECT_EQ(where_text(m.clauses[0]), "held on host, ppc64 (big-endian) and ppc64le");
}

TEST(ValidateTargets, WorstVerdictWins) {
  // unknown on one target and held on the others is not held.
  Part a = part("held"), b = part("unknown");
  const Part m = merge_target_parts({{"host", a}, {"ppc64le", b}});
  EXPECT_EQ(m.clauses[1].status, "unknown");
  EXPECT_EQ(where_text(m.clauses[1]), "unknown on ppc64le, held on host");
  // failed beats error.
  const Part n = merge_target_parts({{"host", part("error")}, {"ppc64le", part("failed", "x")}});
  EXPECT_EQ(n.clauses[1].status, "failed");
}

TEST(ValidateTargets, HostAloneIsUnchanged) {
  const Part m = merge_target_parts({{"host", part("failed", "c")}});
  EXPECT_TRUE(m.clauses[1].targets.empty());
  EXPECT_EQ(m.clauses[1].counterexamples[0], "c");
  EXPECT_EQ(where_text(m.clauses[1]), "");
}

TEST(ValidateTargets, OnePowerTargetAloneSaysWhich) {
  const Part m = merge_target_parts({{"ppc64", part("held")}});
  EXPECT_EQ(where_text(m.clauses[1]), "held on ppc64 (big-endian)");
}

TEST(ValidateTargets, EscapesAndNotesNameTheirTarget) {
  Part a = part("held"), b = part("held");
  b.escapes = {"the code under test tried to open /etc/shadow for reading"};
  b.notes = {"RapidCheck: 20 cases"};
  const Part m = merge_target_parts({{"host", a}, {"ppc64le", b}});
  ASSERT_EQ(m.escapes.size(), 1u);
  EXPECT_EQ(m.escapes[0], "on ppc64le: the code under test tried to open /etc/shadow for reading");
  ASSERT_EQ(m.notes.size(), 1u);
  EXPECT_EQ(m.notes[0], "ppc64le: RapidCheck: 20 cases");
}

TEST(ValidateTargets, SettledWithTheSpec) {
  Part m = merge_target_parts({{"host", part("failed", "a")}, {"ppc64", part("held")}});
  m.clauses[1].status = "accepted";  // as the spec post-pass may decide
  settle_target_statuses(m.clauses);
  EXPECT_EQ(m.clauses[1].targets[0].status, "accepted");
  EXPECT_EQ(m.clauses[1].targets[1].status, "held");
}

TEST(ValidateTargets, ParsesTheList) {
  std::vector<std::string> t;
  EXPECT_EQ(parse_targets("host,ppc64le,host", t), "");
  EXPECT_EQ(t, (std::vector<std::string>{"host", "ppc64le"}));
  EXPECT_NE(parse_targets("host,arm64", t), "");
  EXPECT_NE(parse_targets("", t), "");
}

TEST(ValidateTargets, Defaults) {
  Options o;
  std::vector<std::string> missing;
  std::string why;
  EXPECT_EQ(targets_for(o, "governor", missing, why), (std::vector<std::string>{"host"}));
  EXPECT_EQ(targets_for(o, "idle_core", missing, why), (std::vector<std::string>{"host"}));
  EXPECT_TRUE(why.empty());
  o.targets = {"ppc64"};
  EXPECT_EQ(targets_for(o, "idle_core", missing, why), (std::vector<std::string>{"host"}));
  EXPECT_NE(why.find("host only"), std::string::npos);
  // xcede: the host, and each POWER target that is installed or named missing.
  o.targets.clear();
  missing.clear();
  const auto xs = targets_for(o, "xcede", missing, why);
  EXPECT_EQ(xs.front(), "host");
  EXPECT_EQ(xs.size() + missing.size(), 3u);
}

TEST(ValidateTargets, ReducedRunsSaySo) {
  Options o;
  std::vector<std::string> notes;
  const Options p = options_for_target(o, "busy_delay", "ppc64", notes);
  EXPECT_TRUE(p.sampled);
  EXPECT_EQ(p.target, "ppc64");
  EXPECT_EQ(p.inputs.count("fuzz"), 0u);
  EXPECT_FALSE(target_has_asan(p));
  EXPECT_EQ(target_cc(p), "powerpc64-linux-gnu-gcc");
  bool said = false;
  for (const auto& n : notes) said = said || n.find("sampled scan only") != std::string::npos;
  EXPECT_TRUE(said);
  notes.clear();
  const Options h = options_for_target(o, "busy_delay", "host", notes);
  EXPECT_FALSE(h.sampled);
  EXPECT_TRUE(notes.empty());
  EXPECT_TRUE(target_has_asan(h));
}

}  // namespace
}  // namespace idlespec::validate
