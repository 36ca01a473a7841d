// impl/json.h: every string idlespec writes as JSON (reports, SARIF, usage
// errors) is valid UTF-8 JSON, whatever bytes it came from: the code under
// test may echo raw input into a counterexample, a file name may be Latin-1.
#include "impl/json.h"

#include <gtest/gtest.h>

#include <string>

namespace idlespec {
namespace {

TEST(JsonEscape, QuotesBackslashesAndControlCharacters) {
  EXPECT_EQ(json_escape("a\"b\\c"), "a\\\"b\\\\c");
  EXPECT_EQ(json_escape("\n\t\r"), "\\n\\t\\r");
  EXPECT_EQ(json_escape(std::string("\x01\x1f\x7f", 3)), "\\u0001\\u001f\\u007f");
  EXPECT_EQ(json_escape(std::string("a\0b", 3)), "a\\u0000b");
}

TEST(JsonEscape, WellFormedUtf8IsKept) {
  const std::string s = "\xc2\xb5s \xe2\x86\x92 \xf0\x9f\x90\xa7 \xef\xbf\xbf \xf4\x8f\xbf\xbf";
  EXPECT_EQ(json_escape(s), s);  // µs → 🐧 U+FFFF U+10FFFF
}

TEST(JsonEscape, EveryIllFormedByteBecomesTheReplacementCharacter) {
  const std::string r = "\\ufffd";
  EXPECT_EQ(json_escape("\xff"), r);                          // never in UTF-8
  EXPECT_EQ(json_escape("x\x80y"), "x" + r + "y");            // a lone continuation byte
  EXPECT_EQ(json_escape("\xc0\x80"), r + r);                  // overlong NUL
  EXPECT_EQ(json_escape("\xe0\x80\xaf"), r + r + r);          // overlong '/'
  EXPECT_EQ(json_escape("\xed\xa0\x80"), r + r + r);          // a surrogate
  EXPECT_EQ(json_escape("\xf4\x90\x80\x80"), r + r + r + r);  // above U+10FFFF
  EXPECT_EQ(json_escape("\xe2\x82"), r + r);                  // truncated at the end
  EXPECT_EQ(json_escape("\xe2\x82z"), r + r + "z");           // truncated in the middle
  EXPECT_EQ(json_escape("caf\xe9"), "caf" + r);               // Latin-1
}

TEST(JsonWriter, KeysAndValuesAreEscapedToo) {
  JsonWriter w;
  w.begin_object().key("k\xff").value("v\x80").end_object();
  EXPECT_EQ(w.str(), "{\"k\\ufffd\":\"v\\ufffd\"}");
}

}  // namespace
}  // namespace idlespec
