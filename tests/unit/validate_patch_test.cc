// Tests for the patch intake of `idlespec review` (extract/patch.h).
#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "extract/patch.h"
#include "verify/build_paths.h"

namespace idlespec::extraction {
namespace {

namespace fs = std::filesystem;
using Ranges = std::vector<std::pair<int, int>>;

fs::path fixture_dir() {
  return fs::path(idlespec::build::source_dir()) / "tests" / "validate" / "patches";
}

std::string read_file(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string fixture(const std::string& name) {
  const std::string text = read_file(fixture_dir() / name);
  EXPECT_FALSE(text.empty()) << "missing fixture " << (fixture_dir() / name);
  return text;
}

void write_file(const fs::path& p, const std::string& text) {
  fs::create_directories(p.parent_path());
  std::ofstream(p, std::ios::binary) << text;
}

std::string crlf(const std::string& s) {
  std::string out;
  for (const char c : s) {
    if (c == '\n') out += '\r';
    out += c;
  }
  return out;
}

// A scratch directory holding a one-file kernel tree and room for workdirs.
class PatchApplyTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string tmpl = (fs::temp_directory_path() / "idlespec-patch-XXXXXX").string();
    ASSERT_NE(mkdtemp(tmpl.data()), nullptr);
    root_ = tmpl;
    tree_ = root_ / "linux";
    original_ = fixture("idle_demo.c");
    write_file(tree_ / "drivers/idle/idle_demo.c", original_);
    write_file(tree_ / "drivers/idle/Makefile", "obj-y += idle_demo.o\n");
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(root_, ec);
  }
  std::string workdir(const std::string& name) const { return (root_ / name).string(); }

  fs::path root_, tree_;
  std::string original_;
};

TEST(ParsePatch, PlainDiffWithTwoHunks) {
  const ParsedPatch p = parse_patch(fixture("two_hunks.diff"));
  EXPECT_EQ(p.error, "");
  EXPECT_EQ(p.subject, "");
  EXPECT_EQ(p.strip, 1);
  EXPECT_TRUE(p.warnings.empty());
  ASSERT_EQ(p.files.size(), 1u);
  const FilePatch& f = p.files[0];
  EXPECT_EQ(f.old_path, "drivers/idle/idle_demo.c");  // a/ and the timestamp dropped
  EXPECT_EQ(f.new_path, "drivers/idle/idle_demo.c");
  ASSERT_EQ(f.hunks.size(), 2u);
  EXPECT_EQ(f.hunks[0].old_start, 10);
  EXPECT_EQ(f.hunks[0].old_count, 7);
  EXPECT_EQ(f.hunks[0].new_start, 10);
  EXPECT_EQ(f.hunks[0].new_count, 7);
  EXPECT_EQ(f.hunks[0].section, "static int demo_nr_states;");
  EXPECT_EQ(f.hunks[1].old_start, 21);
  EXPECT_EQ(f.hunks[1].old_count, 7);
  EXPECT_EQ(f.hunks[1].new_start, 21);
  EXPECT_EQ(f.hunks[1].new_count, 8);
  EXPECT_EQ(f.old_changed, (Ranges{{13, 13}, {24, 24}}));
  EXPECT_EQ(f.new_changed, (Ranges{{13, 13}, {24, 25}}));
}

TEST(ParsePatch, UnprefixedPathsOmittedCountsNoNewlineAndCrlf) {
  const std::string diff =
      "--- lib/x.c\t2024-01-01 00:00:00\n"
      "+++ lib/x.c\t2024-01-02 00:00:00\n"
      "@@ -3 +3 @@\n"
      "-int a;\n"
      "+int b;\n"
      "@@ -9,2 +9,3 @@ void f(void)\n"
      " }\n"
      "-/* end */\n"
      "\\ No newline at end of file\n"
      "+/* end */\n"
      "+int c;\n"
      "\\ No newline at end of file\n";
  for (const std::string& text : {diff, crlf(diff)}) {
    const ParsedPatch p = parse_patch(text);
    EXPECT_EQ(p.error, "");
    EXPECT_EQ(p.strip, 0);
    ASSERT_EQ(p.files.size(), 1u);
    const FilePatch& f = p.files[0];
    EXPECT_EQ(f.old_path, "lib/x.c");
    EXPECT_EQ(f.new_path, "lib/x.c");
    ASSERT_EQ(f.hunks.size(), 2u);
    EXPECT_EQ(f.hunks[0].old_count, 1);
    EXPECT_EQ(f.hunks[0].new_count, 1);
    EXPECT_FALSE(f.hunks[1].truncated);
    EXPECT_EQ(f.old_changed, (Ranges{{3, 3}, {10, 10}}));
    EXPECT_EQ(f.new_changed, (Ranges{{3, 3}, {10, 11}}));
  }
}

TEST(ParsePatch, PureInsertionAndDeletionUseTheNeighbouringLine) {
  const ParsedPatch p = parse_patch(
      "--- a/k.c\n+++ b/k.c\n"
      "@@ -4,2 +4,4 @@\n a;\n+b;\n+c;\n d;\n"
      "@@ -20,3 +22,1 @@\n e;\n-f;\n-g;\n"
      "@@ -0,0 +1 @@\n+top;\n");
  ASSERT_EQ(p.files.size(), 1u);
  EXPECT_EQ(p.files[0].old_changed, (Ranges{{4, 4}, {21, 22}, {1, 1}}));
  EXPECT_EQ(p.files[0].new_changed, (Ranges{{5, 6}, {22, 22}, {1, 1}}));
}

TEST(ParsePatch, MboxSeries) {
  const std::string text = fixture("series.mbox");
  for (const std::string& input : {text, crlf(text)}) {
    const ParsedPatch p = parse_patch(input);
    EXPECT_EQ(p.error, "");
    EXPECT_TRUE(p.warnings.empty());
    EXPECT_EQ(p.subject,
              "[PATCH 1/2] idle/demo: add an exit hook so that the state count is reset when the "
              "driver goes away");
    ASSERT_EQ(p.subjects.size(), 2u);
    EXPECT_EQ(p.subjects[1], "[PATCH 2/2] idle/demo: bail out without the hypervisor call");
    ASSERT_EQ(p.files.size(), 3u);

    const FilePatch& first = p.files[0];
    EXPECT_EQ(first.patch_index, 0);
    EXPECT_EQ(first.old_path, "drivers/idle/idle_demo.c");
    ASSERT_EQ(first.hunks.size(), 1u);
    EXPECT_EQ(first.hunks[0].new_count, 11);
    EXPECT_EQ(first.old_changed, (Ranges{{27, 27}}));  // inserted after old line 27
    EXPECT_EQ(first.new_changed, (Ranges{{28, 32}}));

    const FilePatch& header = p.files[1];
    EXPECT_EQ(header.patch_index, 1);
    EXPECT_TRUE(header.is_creation());
    EXPECT_EQ(header.old_path, "/dev/null");
    EXPECT_EQ(header.new_path, "drivers/idle/demo.h");
    EXPECT_TRUE(header.old_changed.empty());
    EXPECT_EQ(header.new_changed, (Ranges{{1, 3}}));

    // The "-- " signature after the last hunk is not a removed line.
    const FilePatch& second = p.files[2];
    EXPECT_EQ(second.patch_index, 1);
    ASSERT_EQ(second.hunks.size(), 1u);
    EXPECT_FALSE(second.hunks[0].truncated);
    EXPECT_EQ(second.old_changed, (Ranges{{34, 34}}));
    EXPECT_EQ(second.new_changed, (Ranges{{35, 36}}));
  }
}

TEST(ParsePatch, GitRenameAndDeletion) {
  const ParsedPatch p = parse_patch(
      "diff --git a/old name.c b/new name.c\n"
      "similarity index 100%\n"
      "rename from old name.c\n"
      "rename to new name.c\n"
      "diff --git a/gone.c b/gone.c\n"
      "deleted file mode 100644\n"
      "index 1234567..0000000\n"
      "--- a/gone.c\n"
      "+++ /dev/null\n"
      "@@ -1,2 +0,0 @@\n"
      "-int x;\n"
      "-int y;\n");
  EXPECT_EQ(p.error, "");
  ASSERT_EQ(p.files.size(), 2u);
  EXPECT_EQ(p.files[0].old_path, "old name.c");
  EXPECT_EQ(p.files[0].new_path, "new name.c");
  EXPECT_TRUE(p.files[0].hunks.empty());
  EXPECT_TRUE(p.files[1].is_deletion());
  EXPECT_EQ(p.files[1].old_path, "gone.c");
  EXPECT_EQ(p.files[1].old_changed, (Ranges{{1, 2}}));
  EXPECT_TRUE(p.files[1].new_changed.empty());
}

TEST(ParsePatch, QuotedReplyIsNotApplicable) {
  const ParsedPatch p = parse_patch(fixture("quoted_reply.txt"));
  EXPECT_TRUE(p.files.empty());
  EXPECT_EQ(p.error, "the message only quotes a diff (lines starting with '>')");
  EXPECT_EQ(p.subject, "Re: [PATCH 1/2] idle/demo: add an exit hook");
}

TEST(ParsePatch, GarbageAndProseAreErrors) {
  const std::string binary(
      "\x7f"
      "ELF\x02\x01\x01\0\0\0\0\0\0\0\0\0\x03\0>\0\x01\0\0\0",
      24);
  EXPECT_NE(parse_patch(binary).error, "");
  EXPECT_TRUE(parse_patch(binary).files.empty());
  EXPECT_EQ(parse_patch("").error, "no diff in the input");
  EXPECT_EQ(parse_patch("Hello,\n\nthis series looks fine to me.\n").error, "no diff in the input");
  // "---" separators and a lone "--- x"/"+++ y" pair without a hunk are prose.
  const ParsedPatch prose = parse_patch("Notes\n---\n--- before\n+++ after\nthanks\n");
  EXPECT_TRUE(prose.files.empty());
  EXPECT_EQ(prose.error, "no diff in the input");
}

TEST(TouchedFunctions, MapsRangesToFunctions) {
  const std::string src = fixture("idle_demo.c");
  EXPECT_EQ(touched_functions(src, {{13, 13}, {24, 24}}),
            (std::vector<std::string>{"demo_snooze", "demo_cede"}));
  EXPECT_EQ(touched_functions(src, {{24, 24}, {13, 13}, {14, 14}}),
            (std::vector<std::string>{"demo_snooze", "demo_cede"}));  // source order, no repeats
  EXPECT_EQ(touched_functions(src, {{26, 28}}),
            (std::vector<std::string>{"demo_cede", "demo_init"}));
  EXPECT_TRUE(touched_functions(src, {{9, 9}, {27, 27}}).empty());  // a variable, a blank line
  EXPECT_TRUE(touched_functions(src, {}).empty());
}

TEST_F(PatchApplyTest, PlainDiffAppliesToACopy) {
  const std::string text = fixture("two_hunks.diff");
  const ParsedPatch p = parse_patch(text);
  const AppliedPatch a = apply_to_copy(p, text, tree_.string(), workdir("w1"));
  ASSERT_TRUE(a.ok) << a.message;
  const std::string before = read_file(fs::path(a.before_root) / "drivers/idle/idle_demo.c");
  const std::string after = read_file(fs::path(a.after_root) / "drivers/idle/idle_demo.c");
  EXPECT_EQ(before, original_);
  EXPECT_NE(after, before);
  EXPECT_NE(after.find("!demo_poll_timeout()"), std::string::npos);
  EXPECT_NE(after.find("demo_account(dev);"), std::string::npos);
  EXPECT_EQ(read_file(tree_ / "drivers/idle/idle_demo.c"), original_);  // tree untouched
  EXPECT_FALSE(
      fs::exists(fs::path(a.before_root) / "drivers/idle/Makefile"));  // only touched files

  const FilePatch& f = p.files[0];
  EXPECT_EQ(touched_functions(before, f.old_changed),
            (std::vector<std::string>{"demo_snooze", "demo_cede"}));
  EXPECT_EQ(touched_functions(after, f.new_changed),
            (std::vector<std::string>{"demo_snooze", "demo_cede"}));
}

TEST_F(PatchApplyTest, MboxSeriesAppliesMessageByMessage) {
  const std::string text = fixture("series.mbox");
  const ParsedPatch p = parse_patch(text);
  const AppliedPatch a = apply_to_copy(p, text, tree_.string(), workdir("w2"));
  ASSERT_TRUE(a.ok) << a.message;
  EXPECT_EQ(read_file(fs::path(a.before_root) / "drivers/idle/idle_demo.c"), original_);
  EXPECT_FALSE(fs::exists(fs::path(a.before_root) / "drivers/idle/demo.h"));  // created
  EXPECT_TRUE(fs::exists(fs::path(a.after_root) / "drivers/idle/demo.h"));
  const std::string after = read_file(fs::path(a.after_root) / "drivers/idle/idle_demo.c");
  EXPECT_NE(after.find("static void demo_idle_exit"), std::string::npos);
  EXPECT_NE(after.find("return -ENODEV;"), std::string::npos);
  EXPECT_EQ(touched_functions(after, p.files[0].new_changed),
            (std::vector<std::string>{"demo_idle_exit"}));
  EXPECT_EQ(touched_functions(after, p.files[2].new_changed),
            (std::vector<std::string>{"demo_init"}));
}

TEST_F(PatchApplyTest, RejectedHunkNamesTheFile) {
  const std::string text = fixture("stale.diff");
  const AppliedPatch a = apply_to_copy(parse_patch(text), text, tree_.string(), workdir("w3"));
  EXPECT_FALSE(a.ok);
  EXPECT_NE(a.message.find("drivers/idle/idle_demo.c"), std::string::npos) << a.message;
  EXPECT_NE(a.message.find("FAILED"), std::string::npos) << a.message;
  // The dry run failed, so the copy is left as it was.
  EXPECT_EQ(read_file(fs::path(a.after_root) / "drivers/idle/idle_demo.c"), original_);
}

TEST_F(PatchApplyTest, BadInputsAreReportedNotThrown) {
  const std::string good = fixture("two_hunks.diff");
  const ParsedPatch p = parse_patch(good);

  AppliedPatch a = apply_to_copy(p, good, (root_ / "no-such-tree").string(), workdir("w4"));
  EXPECT_FALSE(a.ok);
  EXPECT_NE(a.message.find("kernel tree not found"), std::string::npos) << a.message;

  const std::string other =
      "--- a/drivers/idle/missing.c\n+++ b/drivers/idle/missing.c\n"
      "@@ -1 +1 @@\n-a\n+b\n";
  a = apply_to_copy(parse_patch(other), other, tree_.string(), workdir("w5"));
  EXPECT_FALSE(a.ok);
  EXPECT_NE(a.message.find("drivers/idle/missing.c"), std::string::npos) << a.message;

  const std::string quoted = fixture("quoted_reply.txt");
  a = apply_to_copy(parse_patch(quoted), quoted, tree_.string(), workdir("w6"));
  EXPECT_FALSE(a.ok);
  EXPECT_NE(a.message.find("quotes a diff"), std::string::npos) << a.message;

  const std::string escape =
      "--- a/../../etc/passwd\n+++ b/../../etc/passwd\n@@ -1 +1 @@\n-a\n+b\n";
  a = apply_to_copy(parse_patch(escape), escape, tree_.string(), workdir("w7"));
  EXPECT_FALSE(a.ok);
  EXPECT_NE(a.message.find("leaves the tree"), std::string::npos) << a.message;

  // A used workdir is not silently reused.
  ASSERT_TRUE(apply_to_copy(p, good, tree_.string(), workdir("w8")).ok);
  a = apply_to_copy(p, good, tree_.string(), workdir("w8"));
  EXPECT_FALSE(a.ok);
  EXPECT_NE(a.message.find("already holds"), std::string::npos) << a.message;
}

}  // namespace
}  // namespace idlespec::extraction
