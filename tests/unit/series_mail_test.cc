// Tests for a series' mail intake (extract/mbox.h: GMime's decoding, the
// [PATCH vN M/K] tags) and for what lets review skip a patch
// (validate/series.h: series_code_print) and wrap a reply (wrap_text).
#include <gtest/gtest.h>

#include <filesystem>
#include <sstream>
#include <string>

#include "extract/mbox.h"
#include "sandbox/process.h"
#include "validate/series.h"
#include "verify/build_paths.h"

namespace idlespec::extraction {
namespace {

namespace fs = std::filesystem;

std::string series_fixture(const std::string& name) {
  return (fs::path(idlespec::build::source_dir()) / "tests" / "validate" / "series" / name)
      .string();
}

TEST(SubjectTag, ReadsVersionNumberAndCover) {
  const SubjectTag t = parse_subject_tag("[PATCH v2 1/2] powerpc/rtas: sleep");
  EXPECT_TRUE(t.tagged);
  EXPECT_FALSE(t.reply);
  EXPECT_EQ(t.version, 2);
  EXPECT_EQ(t.number, 1);
  EXPECT_EQ(t.total, 2);
  EXPECT_EQ(t.title, "powerpc/rtas: sleep");
  const SubjectTag cover = parse_subject_tag("[PATCH v2 0/2] powerpc/rtas: cover");
  EXPECT_TRUE(cover.numbered);
  EXPECT_EQ(cover.number, 0);
}

TEST(SubjectTag, RepliesRfcPrefixesAndListTags) {
  EXPECT_TRUE(parse_subject_tag("Re: [PATCH v2 0/2] x").reply);
  EXPECT_TRUE(parse_subject_tag("Aw: RE: [PATCH 1/1] x").reply);
  const SubjectTag rfc = parse_subject_tag("[RFC PATCH 4/5] cpuidle: x");
  EXPECT_TRUE(rfc.rfc);
  EXPECT_EQ(rfc.number, 4);
  EXPECT_EQ(rfc.version, 1);
  const SubjectTag net = parse_subject_tag("[PATCH net-next v3 02/10] x");
  EXPECT_EQ(net.prefix, "net-next");
  EXPECT_EQ(net.version, 3);
  EXPECT_EQ(net.number, 2);
  EXPECT_EQ(net.total, 10);
  // A list's own tag before the patch tag is skipped.
  const SubjectTag list = parse_subject_tag("[linux-pm] [PATCH] cpuidle: y");
  EXPECT_TRUE(list.tagged);
  EXPECT_FALSE(list.numbered);
  EXPECT_EQ(list.number, 1);
  EXPECT_EQ(list.title, "cpuidle: y");
  EXPECT_FALSE(parse_subject_tag("cpuidle: no tag").tagged);
}

TEST(MailIntake, DecodesQuotedPrintableBase64AndCharsets) {
  const Mailbox box = read_mail({series_fixture("rtas-v2-thread.mbox")});
  ASSERT_TRUE(box.error.empty()) << box.error;
  ASSERT_EQ(box.messages.size(), 5u);
  // RFC 2047 in From, a UTF-8 8bit cover letter.
  EXPECT_EQ(box.messages[0].from, "Adá Lovelace-Byron <ada@example.org>");
  EXPECT_FALSE(box.messages[0].transfer_encoded);
  // 2/2 is base64: the diff is there once decoded.
  const MailMessage& b64 = box.messages[1];
  EXPECT_TRUE(b64.transfer_encoded);
  EXPECT_NE(b64.body.find("diff --git a/arch/powerpc/kernel/rtas.c"), std::string::npos);
  // 1/2 is quoted-printable: soft breaks joined, =E2=80=99 is U+2019.
  const MailMessage& qp = box.messages[2];
  EXPECT_TRUE(qp.transfer_encoded);
  EXPECT_NE(qp.body.find("don\u2019t round up"), std::string::npos);
  EXPECT_EQ(qp.body.find("=E2=80"), std::string::npos);
  EXPECT_NE(qp.body.find("+\tcase RTAS_EXTENDED_DELAY_MIN ... RTAS_EXTENDED_DELAY_MAX:"),
            std::string::npos);
  EXPECT_EQ(qp.message_id, "20261102093000.1-ada@example.org");
  EXPECT_EQ(qp.in_reply_to, "20261102093000.0-ada@example.org");
  // The reply is ISO-8859-1, quoted-printable: UTF-8 once read.
  const MailMessage& latin = box.messages[3];
  EXPECT_EQ(latin.from, "Jürgen Reviewer <juergen@example.org>");
  EXPECT_NE(latin.body.find("Grüße"), std::string::npos);
  ASSERT_EQ(latin.references.size(), 2u);
  EXPECT_EQ(latin.references[1], "20261102093000.1-ada@example.org");
}

TEST(MailIntake, FormatPatchDirectoryInNameOrder) {
  const Mailbox box = read_mail({series_fixture("xcede-series")});
  ASSERT_TRUE(box.error.empty()) << box.error;
  ASSERT_EQ(box.messages.size(), 4u);
  EXPECT_EQ(parse_subject_tag(box.messages[0].subject).number, 0);
  EXPECT_EQ(parse_subject_tag(box.messages[3].subject).number, 3);
}

TEST(MailIntake, PlainDiffIsABody) {
  const Mailbox box = parse_mail_text("--- a/x.c\n+++ b/x.c\n@@ -1 +1 @@\n-a\n+b\n", "x.diff");
  ASSERT_EQ(box.messages.size(), 1u);
  EXPECT_FALSE(box.messages[0].had_headers);
  EXPECT_EQ(box.messages[0].body.rfind("--- a/x.c", 0), 0u);
}

}  // namespace
}  // namespace idlespec::extraction

namespace idlespec::validate {
namespace {

const char* kBase = R"(#define RTAS_SHORT_WAIT_MS	20

/* the hint */
unsigned int rtas_busy_delay_time(int status)
{
	return status == RTAS_BUSY;
}

static int helper(int status)
{
	return status + 1;
}

bool rtas_busy_delay(int status)
{
	return helper(status) > RTAS_SHORT_WAIT_MS;
}

int rtas_error_rc(int rc)
{
	return -rc;
}
)";

std::string with(const std::string& from, const std::string& to) {
  std::string s = kBase;
  const size_t at = s.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  return s.replace(at, from.size(), to);
}

// A patch whose text reaches no modelled function costs nothing; one that
// reaches it through a helper or a macro does not.
TEST(SeriesCodePrint, SkipsOnlyWhatCannotChangeAVerdict) {
  const std::string base = series_code_print(kBase);
  ASSERT_FALSE(base.empty());
  EXPECT_EQ(series_code_print(with("/* the hint */", "/**\n * the hint, documented\n */")), base);
  EXPECT_EQ(series_code_print(with("return -rc;", "return rc ? -rc : 0;")), base);
  // witnesses: each of these changes what the harness is built from
  EXPECT_NE(series_code_print(with("return status + 1;", "return status + 2;")), base);
  EXPECT_NE(series_code_print(with("RTAS_SHORT_WAIT_MS\t20", "RTAS_SHORT_WAIT_MS\t21")), base);
  EXPECT_NE(series_code_print(with("return status == RTAS_BUSY;", "return 1;")), base);
  // A file without a modelled function never reaches a harness.
  EXPECT_EQ(series_code_print("int rtas_error_rc(int rc)\n{\n\treturn rc;\n}\n"), "");
}

TEST(SeriesReply, WrapsAt72) {
  const std::string long_line =
      "status 0x00000000 (0), need_resched=0: requested 0 sleep(s), 1 cond_resched(), no retry; "
      "expected neither busy nor extended: no sleep, no cond_resched(), no retry";
  const std::string w = wrap_text("  " + long_line, 72, "    ");
  std::istringstream is(w);
  int lines = 0;
  for (std::string l; std::getline(is, l); ++lines) EXPECT_LE(l.size(), 72u) << l;
  EXPECT_GT(lines, 1);
  EXPECT_EQ(w.rfind("  status", 0), 0u);
}

}  // namespace
}  // namespace idlespec::validate

namespace idlespec::validate {
namespace {

// The reply to a synthetic judged patch: the kernel's headers, the hunk of
// the function the clause concerns and nothing else quoted, and a hostile
// subject (a decoded line break) that cannot add a header.
TEST(SeriesReply, QuotesTheFunctionsHunkAndKeepsHeadersOneLine) {
  SeriesReport sr;
  SeriesVersion v;
  SeriesPatch p;
  p.number = 2;
  p.total = 2;
  p.subject = "[PATCH 2/2] demo: change\nBcc: someone@example.org";
  p.message_id = "2.demo@example.org";
  p.references = {"0.demo@example.org"};
  p.from = "Ada Example <ada@example.org>";
  p.date = "Mon, 19 Oct 2026 12:00:02 +0000";
  p.judged = "judged";
  p.text =
      "Subject: x\n\nA commit message line.\n---\n"
      "diff --git a/k/a.c b/k/a.c\n--- a/k/a.c\n+++ b/k/a.c\n"
      "@@ -1,3 +1,3 @@ int other(void)\n int other(void)\n-{ return 1; }\n+{ return 2; }\n"
      " \n"
      "@@ -10,3 +10,3 @@ int other(void)\n int rtas_busy_delay(int s)\n-{ return 0; }\n"
      "+{ return s; }\n \n";
  p.function_lines["k/a.c other"] = {1, 2};
  p.function_lines["k/a.c rtas_busy_delay"] = {10, 11};
  ClauseChange c{"BUSY-5", "busy_delay", "rtas_busy_delay", "k/a.c", "held", "failed", {}, {}};
  c.counterexamples = {"status 0x00000000 (0), need_resched=0: retried"};
  p.changes = {c};
  v.patches = {p};
  sr.versions = {v};
  const std::string mail = render_series_replies(sr, SeriesOptions{});
  std::istringstream is(mail);
  std::vector<std::string> lines;
  for (std::string l; std::getline(is, l);) lines.push_back(l);
  ASSERT_FALSE(lines.empty());
  bool in_headers = true, quoted_second = false, quoted_first = false, says = false;
  for (const auto& l : lines) {
    if (in_headers && l.empty()) in_headers = false;
    EXPECT_NE(l.rfind("Bcc:", 0), 0u) << "a header was injected: " << l;
    if (in_headers) continue;
    quoted_second = quoted_second || l == "> +{ return s; }";
    quoted_first = quoted_first || l == "> +{ return 2; }" || l == "> A commit message line.";
    says = says || l.rfind("This breaks BUSY-5 for rtas_busy_delay()", 0) == 0;
    if (l.rfind(">", 0) != 0) {
      EXPECT_LE(l.size(), 72u) << l;
    }
  }
  EXPECT_NE(mail.find("Subject: Re: [PATCH 2/2] demo: change Bcc: someone@example.org\n"),
            std::string::npos);
  EXPECT_NE(mail.find("In-Reply-To: <2.demo@example.org>\n"), std::string::npos);
  EXPECT_NE(mail.find("References: <0.demo@example.org> <2.demo@example.org>\n"),
            std::string::npos);
  EXPECT_TRUE(quoted_second);
  EXPECT_FALSE(quoted_first) << "only the hunk of rtas_busy_delay() is quoted";
  EXPECT_TRUE(says);
  // witness: nothing newly failed, no mail
  sr.versions[0].patches[0].changes[0].after = "held";
  EXPECT_EQ(render_series_replies(sr, SeriesOptions{}), "");
}

}  // namespace
}  // namespace idlespec::validate
