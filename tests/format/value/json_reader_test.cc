// IsValidJson (format/value/json_reader.h): RFC 8259 text is accepted, anything else refused.
#include "format/value/json_reader.h"

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

TEST(JsonReaderTest, NestingIsCapped) {
  const std::string ok = std::string(1000, '[') + std::string(1000, ']');
  EXPECT_TRUE(IsValidJson(ok));
  const std::string deep = std::string(1002, '[') + std::string(1002, ']');
  EXPECT_FALSE(IsValidJson(deep));
}

}  // namespace
}  // namespace pq
