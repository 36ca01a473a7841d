// The pieces every command's report shares (verify/report_format.h): the
// JSON string and list, the --json usage error, XML text, fixed decimals.
#include "verify/report_format.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace idlespec::verify {
namespace {

TEST(ReportFormat, JsonStringQuotesWithTheProjectsEscaping) {
  EXPECT_EQ(json_string(""), "\"\"");
  EXPECT_EQ(json_string("a\"b\\c\n"), "\"a\\\"b\\\\c\\n\"");
  EXPECT_EQ(json_string(std::string("\x01\x7f", 2)), "\"\\u0001\\u007f\"");
}

TEST(ReportFormat, JsonListHasNoSpacesAndEscapesEachString) {
  EXPECT_EQ(json_list({}), "[]");
  EXPECT_EQ(json_list({"a", "b\"c"}), "[\"a\",\"b\\\"c\"]");
}

TEST(ReportFormat, JsonErrorIsTheUsageLineOfEveryCommand) {
  EXPECT_EQ(json_error("unknown argument '--x\"'", 2),
            "{\"error\":\"unknown argument '--x\\\"'\",\"exit_code\":2}\n");
}

TEST(ReportFormat, XmlTextEscapesMarkupAndBlanksControlCharacters) {
  EXPECT_EQ(xml_text("<a href=\"x\">&</a>"), "&lt;a href=&quot;x&quot;&gt;&amp;&lt;/a&gt;");
  // Newline and tab stay; other C0 characters (no XML 1.0 spelling) become spaces.
  EXPECT_EQ(xml_text(std::string("a\nb\tc\x01\x1b[0m", 10)), "a\nb\tc  [0m");
  EXPECT_EQ(xml_text("caf\xc3\xa9"), "caf\xc3\xa9");  // UTF-8 passes through
}

TEST(ReportFormat, FixedRoundsToTheDigitsAsked) {
  EXPECT_EQ(fixed(1.23456, 3), "1.235");
  EXPECT_EQ(fixed(0, 3), "0.000");
  EXPECT_EQ(fixed(2.5, 1), "2.5");
}

}  // namespace
}  // namespace idlespec::verify
