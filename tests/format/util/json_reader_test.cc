// JsonReader and IsValidJson (format/util/json_reader.h): RFC 8259 text is accepted, anything else
// refused with an error that says where; lone surrogates are the one difference between the two.
#include "format/util/json_reader.h"

#include <gtest/gtest.h>

#include <string>

namespace pq {
namespace {

TEST(JsonReaderTest, AcceptsJsonText) {
  for (const char* text : {"0", "-0", "1.5e+3", "-12.25E-2", "\"\"", "\"a\\\"b\\\\c\\/\\b\\f\\n\\r\\t\"",
                           "\"\\u00e9\\uD83D\\uDE00\"", "\"caf\xc3\xa9\"", "true", "false", "null", "[]", "{}",
                           " [ 1 , [ ] , { } ] ", "{\"a\": {\"b\": [null, true]}}", "\t\r\n{}\n"}) {
    EXPECT_TRUE(IsValidJson(text)) << text;
  }
}

TEST(JsonReaderTest, RefusesAnythingElse) {
  for (const char* text : {"", " ", "01", "1.", ".5", "+1", "1e", "-", "NaN", "Infinity", "tru", "nul",
                           "'a'", "\"a", "\"\\x\"", "\"\\u12\"", "\"\\u12G4\"", "\"a\tb\"", "[1,]", "[1 2]",
                           "{\"a\"}", "{\"a\":}", "{a:1}", "{\"a\":1,}", "[", "]", "{}{}", "1 2", "[1]x"}) {
    EXPECT_FALSE(IsValidJson(text)) << text;
  }
  EXPECT_FALSE(IsValidJson(std::string("\"a\0b\"", 5)));  // a control character inside a string
}

// A \u escape of half a surrogate pair: the JSON columns have always taken it (IsValidJson), the
// shredder, which decodes strings to UTF-8, refuses it.
TEST(JsonReaderTest, LoneSurrogates) {
  EXPECT_TRUE(IsValidJson("\"\\ud800\""));
  EXPECT_TRUE(IsValidJson("[\"\\udc00x\"]"));
  for (const char* text : {"\"\\ud800\"", "\"\\udc00\"", "\"\\ud800\\u0041\""}) {
    JsonReader r;
    r.text = text;
    std::string scratch;
    std::string_view value, raw;
    Status s = r.ReadString(&value, &scratch, &raw);
    EXPECT_FALSE(s.ok());
    EXPECT_NE(s.message().find(": unpaired surrogate in a \\u escape"), std::string::npos) << s.message();
  }
  JsonReader r;
  r.text = "\"a\\ud83d\\ude00b\"";
  std::string scratch;
  std::string_view value, raw;
  ASSERT_TRUE(r.ReadString(&value, &scratch, &raw).ok());
  EXPECT_EQ(value, "a\xf0\x9f\x98\x80" "b");
  EXPECT_EQ(raw, r.text);
  EXPECT_EQ(r.pos, r.text.size());
}

TEST(JsonReaderTest, ErrorsSayWhere) {
  JsonReader r;
  r.text = "[1, tru]";
  Status s = r.SkipValue(0);
  EXPECT_EQ(s.message(), "invalid JSON at offset 4: unexpected character");
  JsonReader n;
  n.text = "{\"a\" 1}";
  EXPECT_EQ(n.SkipValue(0).message(), "invalid JSON at offset 5: expected ':'");
  EXPECT_TRUE(IsJsonNumber("-1.5e+7"));
  EXPECT_FALSE(IsJsonNumber("01"));
  EXPECT_EQ(JsonNumberLength("12x", 0), 2u);
}

TEST(JsonReaderTest, NestingIsCapped) {
  const std::string ok = std::string(1000, '[') + std::string(1000, ']');
  EXPECT_TRUE(IsValidJson(ok));
  const std::string deep = std::string(1002, '[') + std::string(1002, ']');
  EXPECT_FALSE(IsValidJson(deep));
}

}  // namespace
}  // namespace pq
