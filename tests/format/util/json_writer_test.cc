#include "format/util/json_writer.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstddef>
#include <cstring>
#include <cstdlib>
#include <limits>
#include <string>
#include <vector>

namespace pq {
namespace {

std::string Json(std::string_view text) {
  std::string out;
  AppendJsonString(text, &out);
  return out;
}

std::string Base64(std::string_view bytes) {
  std::string out;
  AppendBase64(bytes, &out);
  return out;
}

std::string JsonDouble(double v) {
  std::string out;
  AppendJsonDouble(v, &out);
  return out;
}

TEST(JsonWriterTest, StringsEscapeQuotesBackslashesAndControlCharacters) {
  EXPECT_EQ(Json(""), "\"\"");
  EXPECT_EQ(Json("plain text"), "\"plain text\"");
  EXPECT_EQ(Json("a\"b"), "\"a\\\"b\"");
  EXPECT_EQ(Json("a\\b"), "\"a\\\\b\"");
  EXPECT_EQ(Json("line\nbreak\ttab\r"), "\"line\\u000abreak\\u0009tab\\u000d\"");
  EXPECT_EQ(Json(std::string_view("\0\x01\x1f", 3)), "\"\\u0000\\u0001\\u001f\"");
  // DEL, '/' and every byte >= 0x80 (UTF-8 or not) pass through.
  EXPECT_EQ(Json("\x7f/\xc3\xa9\xff"), "\"\x7f/\xc3\xa9\xff\"");
  EXPECT_EQ(Json("\"\""), "\"\\\"\\\"\"");
}

TEST(JsonWriterTest, AppendsToWhatIsThere) {
  std::string out = "[";
  AppendJsonString("x", &out);
  out += ",";
  AppendJsonInt(-5, &out);
  out += ",";
  AppendJsonBool(true, &out);
  out += ",";
  AppendJsonNull(&out);
  out += "]";
  EXPECT_EQ(out, "[\"x\",-5,true,null]");
}

TEST(JsonWriterTest, Integers) {
  std::string out;
  AppendJsonInt(std::numeric_limits<int64_t>::min(), &out);
  out += " ";
  AppendJsonUInt(std::numeric_limits<uint64_t>::max(), &out);
  EXPECT_EQ(out, "-9223372036854775808 18446744073709551615");
}

// The short path for one and two digits and the general one agree with std::to_string on both
// sides of each boundary and at the extremes, and never write past kMaxJsonIntChars.
TEST(JsonWriterTest, IntegersWrittenInPlaceMatchToString) {
  std::vector<int64_t> values = {std::numeric_limits<int64_t>::min(), std::numeric_limits<int64_t>::max(),
                                 std::numeric_limits<int64_t>::min() + 1};
  for (int64_t v = -1005; v <= 1005; ++v) values.push_back(v);
  for (int64_t p = 1000; p > 0 && p < std::numeric_limits<int64_t>::max() / 10; p *= 10) {
    for (int64_t v : {p - 1, p, p + 1}) {
      values.push_back(v);
      values.push_back(-v);
    }
  }
  for (int64_t v : values) {
    char buf[kMaxJsonIntChars + 4];
    std::memset(buf, '#', sizeof(buf));
    const char* end = WriteJsonInt(v, buf);
    ASSERT_LE(end - buf, static_cast<std::ptrdiff_t>(kMaxJsonIntChars));
    EXPECT_EQ(std::string(static_cast<const char*>(buf), end), std::to_string(v));
    EXPECT_EQ(buf[kMaxJsonIntChars], '#');
    std::string appended;
    AppendJsonInt(v, &appended);
    EXPECT_EQ(appended, std::to_string(v));
  }
}

TEST(JsonWriterTest, DoublesAreShortestRoundTripAndStayReal) {
  EXPECT_EQ(JsonDouble(0.1), "0.1");
  EXPECT_EQ(JsonDouble(3.0), "3.0");
  EXPECT_EQ(JsonDouble(-2.5), "-2.5");
  EXPECT_EQ(JsonDouble(0.0), "0.0");
  EXPECT_EQ(JsonDouble(-0.0), "-0.0");
  EXPECT_EQ(JsonDouble(1e300), "1e+300");
  EXPECT_EQ(JsonDouble(1.5e-300), "1.5e-300");
  EXPECT_EQ(JsonDouble(static_cast<double>(0.1f)), "0.10000000149011612");
  EXPECT_EQ(JsonDouble(std::numeric_limits<double>::quiet_NaN()), "null");
  EXPECT_EQ(JsonDouble(INFINITY), "9e999");
  EXPECT_EQ(JsonDouble(-INFINITY), "-9e999");
  EXPECT_EQ(std::strtod("9e999", nullptr), INFINITY);
  // Round trip through the text for a spread of values.
  for (double v : {1.0 / 3, 2.0 / 3, 123456789.123456789, 5e-324, 1.7976931348623157e308}) {
    EXPECT_EQ(std::strtod(JsonDouble(v).c_str(), nullptr), v);
  }
}

// RFC 4648 section 10 test vectors.
TEST(JsonWriterTest, Base64Rfc4648Vectors) {
  EXPECT_EQ(Base64(""), "");
  EXPECT_EQ(Base64("f"), "Zg==");
  EXPECT_EQ(Base64("fo"), "Zm8=");
  EXPECT_EQ(Base64("foo"), "Zm9v");
  EXPECT_EQ(Base64("foob"), "Zm9vYg==");
  EXPECT_EQ(Base64("fooba"), "Zm9vYmE=");
  EXPECT_EQ(Base64("foobar"), "Zm9vYmFy");
}

TEST(JsonWriterTest, Base64UsesTheStandardAlphabetForHighBits) {
  EXPECT_EQ(Base64("\xfb\xff"), "+/8=");
  EXPECT_EQ(Base64(std::string_view("\0\0\0", 3)), "AAAA");
  EXPECT_EQ(Base64("\xff\xff\xff"), "////");
  std::string out;
  AppendJsonBase64("foob", &out);
  EXPECT_EQ(out, "\"Zm9vYg==\"");
}

// Decoding our base64 with an independent table-free decoder gives the input back.
TEST(JsonWriterTest, Base64RoundTripsEveryLengthAndByte) {
  auto decode = [](const std::string& text) {
    auto value = [](char c) -> int {
      if (c >= 'A' && c <= 'Z') return c - 'A';
      if (c >= 'a' && c <= 'z') return c - 'a' + 26;
      if (c >= '0' && c <= '9') return c - '0' + 52;
      return c == '+' ? 62 : 63;
    };
    std::string out;
    for (size_t i = 0; i + 4 <= text.size(); i += 4) {
      uint32_t bits = 0;
      int pad = 0;
      for (int k = 0; k < 4; ++k) {
        bits <<= 6;
        if (text[i + k] == '=') {
          ++pad;
        } else {
          bits |= value(text[i + k]);
        }
      }
      out.push_back(static_cast<char>(bits >> 16));
      if (pad < 2) out.push_back(static_cast<char>(bits >> 8));
      if (pad < 1) out.push_back(static_cast<char>(bits));
    }
    return out;
  };
  std::string input;
  for (int n = 0; n < 300; ++n) {
    const std::string encoded = Base64(input);
    ASSERT_EQ(encoded.size(), (input.size() + 2) / 3 * 4);
    ASSERT_EQ(decode(encoded), input) << n;
    input.push_back(static_cast<char>(n * 37 + 11));
  }
}

}  // namespace
}  // namespace pq
