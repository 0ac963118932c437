#include "format/writer/text_to_value.h"

#include <gtest/gtest.h>

#include <random>
#include <string>

#include "format/value/decimal.h"

namespace pq {
namespace {

std::string DecimalText(std::string_view text, int precision, int scale) {
  UnscaledDecimal d;
  Status s = ParseDecimalText(text, precision, scale, &d);
  if (!s.ok()) return "error: " + s.message();
  std::string out;
  EXPECT_TRUE(AppendDecimalText(d.Bytes(16), scale, &out));
  return out;
}

TEST(TextToValueTest, DecimalsAreExact) {
  EXPECT_EQ(DecimalText("12.34", 5, 2), "12.34");
  EXPECT_EQ(DecimalText(" -0.05 ", 5, 2), "-0.05");
  EXPECT_EQ(DecimalText("+1.500", 5, 2), "1.50");
  EXPECT_EQ(DecimalText("1e2", 5, 2), "100.00");
  EXPECT_EQ(DecimalText("125E-2", 5, 2), "1.25");
  EXPECT_EQ(DecimalText(".5", 3, 1), "0.5");
  EXPECT_EQ(DecimalText("5.", 3, 1), "5.0");
  EXPECT_EQ(DecimalText("0.000", 3, 1), "0.0");
  EXPECT_EQ(DecimalText("-0", 3, 0), "0");
  EXPECT_EQ(DecimalText("99999999999999999999999999999999999999", 38, 0),
            "99999999999999999999999999999999999999");
  EXPECT_EQ(DecimalText("-9999999999999999999999999999.9999999999", 38, 10),
            "-9999999999999999999999999999.9999999999");
  EXPECT_EQ(DecimalText("1.234", 5, 2),
            "error: has more than 2 digits after the point, which DECIMAL(5,2) cannot hold without "
            "rounding");
  // Too large: the digits before the point against the precision less the scale (1000 has 4 digits,
  // fewer than the precision 5, and needs 6 with the scale's 2 after the point).
  EXPECT_EQ(DecimalText("1000", 5, 2),
            "error: has 4 digits before the point, more than the 3 that DECIMAL(5,2) holds (precision 5 "
            "less scale 2)");
  EXPECT_EQ(DecimalText("1000.00", 5, 2), DecimalText("1000", 5, 2));
  EXPECT_EQ(DecimalText("0.01e5", 5, 2), DecimalText("1000", 5, 2));
  EXPECT_EQ(DecimalText("-1", 2, 2),
            "error: has 1 digit before the point, more than the 0 that DECIMAL(2,2) holds (precision 2 "
            "less scale 2)");
  EXPECT_EQ(DecimalText("1234", 3, 0), "error: has 4 digits, more than the 3 that DECIMAL(3,0) holds");
  EXPECT_EQ(DecimalText("1e999999999999", 5, 2),
            "error: has more than 1000000 digits before the point, more than the 3 that DECIMAL(5,2) "
            "holds (precision 5 less scale 2)");
  EXPECT_EQ(DecimalText("1e-999999999999", 5, 2),
            "error: has more than 2 digits after the point, which DECIMAL(5,2) cannot hold "
            "without rounding");
  for (const char* bad : {"", "-", ".", "e5", "1e", "1e+", "1.2.3", "0x10", "1 2", "abc", "--1"}) {
    EXPECT_EQ(DecimalText(bad, 10, 2), "error: is not a number") << bad;
  }
}

// Plain texts ([sign] digits [. digits]) take a direct path; the same number with an exponent of
// zero takes the general one. Both give the same value, or the same error, for random texts of
// every precision and scale, leading and trailing zeros included.
TEST(TextToValueTest, PlainDecimalsReadAsTheGeneralPathReadsThem) {
  std::mt19937_64 rng(11);
  auto digits = [&](int n) {
    std::string d;
    for (int i = 0; i < n; ++i) d.push_back(static_cast<char>('0' + rng() % 10));
    return d;
  };
  for (int p = 1; p <= 38; ++p) {
    for (int k = 0; k < 200; ++k) {
      const int scale = static_cast<int>(rng() % static_cast<uint64_t>(p + 1));
      std::string text = rng() % 3 == 0 ? "-" : (rng() % 5 == 0 ? "+" : "");
      if (rng() % 4 == 0) text += std::string(rng() % 3, '0');
      text += digits(static_cast<int>(rng() % static_cast<uint64_t>(p + 2)));
      if (rng() % 3 != 0) text += "." + digits(static_cast<int>(rng() % static_cast<uint64_t>(scale + 3)));
      const std::string plain = DecimalText(text, p, scale);
      EXPECT_EQ(plain, DecimalText(text + "e0", p, scale)) << text << " DECIMAL(" << p << "," << scale << ")";
    }
  }
}

TEST(TextToValueTest, DecimalWidthsAndInt64Form) {
  EXPECT_EQ(DecimalByteWidth(1), 1);
  EXPECT_EQ(DecimalByteWidth(2), 1);
  EXPECT_EQ(DecimalByteWidth(3), 2);
  EXPECT_EQ(DecimalByteWidth(9), 4);
  EXPECT_EQ(DecimalByteWidth(18), 8);
  EXPECT_EQ(DecimalByteWidth(19), 9);
  EXPECT_EQ(DecimalByteWidth(30), 13);
  EXPECT_EQ(DecimalByteWidth(38), 16);
  // Random values of every precision: the narrow forms hold the same number.
  std::mt19937_64 rng(7);
  for (int p = 1; p <= 38; ++p) {
    for (int k = 0; k < 50; ++k) {
      std::string digits;
      const int n = 1 + static_cast<int>(rng() % static_cast<uint64_t>(p));
      for (int i = 0; i < n; ++i) digits.push_back(static_cast<char>('0' + rng() % 10));
      const std::string text = (rng() % 2 ? "-" : "") + digits;
      UnscaledDecimal d;
      ASSERT_TRUE(ParseDecimalText(text, p, 0, &d).ok()) << text;
      const int32_t w = DecimalByteWidth(p);
      std::string narrow, wide;
      ASSERT_TRUE(AppendDecimalText(d.Bytes(w), 0, &narrow));
      ASSERT_TRUE(AppendDecimalText(d.Bytes(16), 0, &wide));
      EXPECT_EQ(narrow, wide) << text;
      if (p <= 18) {
        std::string small;
        AppendDecimalText(d.ToInt64(), 0, &small);
        EXPECT_EQ(small, wide) << text;
      }
    }
  }
}

// The direct path reads eight digits at a time: texts longer than a run of eight, with leading
// zeros that end inside a run or span several, and up to 45 digits (more than any DECIMAL holds),
// agree with the general path as above.
TEST(TextToValueTest, PlainDecimalsInRunsOfEightDigits) {
  std::mt19937_64 rng(13);
  auto digits = [&](int n, bool zeros_first) {
    std::string out;
    for (int i = 0; i < n; ++i) {
      out.push_back(zeros_first && rng() % 2 ? '0' : static_cast<char>('0' + rng() % 10));
      if (out.back() != '0') zeros_first = false;
    }
    return out;
  };
  int fitted = 0, refused = 0;
  for (int k = 0; k < 20000; ++k) {
    const int precision = 1 + static_cast<int>(rng() % 38);
    const int scale = static_cast<int>(rng() % static_cast<uint64_t>(precision + 1));
    std::string text = rng() % 3 == 0 ? "-" : (rng() % 5 == 0 ? "+" : "");
    const int whole = static_cast<int>(rng() % 45);
    text += digits(whole, rng() % 2 == 0);
    if (whole == 0 || rng() % 3 != 0) text += "." + digits(static_cast<int>(rng() % 12), whole == 0);
    if (text.find_first_of("0123456789") == std::string::npos) text += "7";
    UnscaledDecimal fast, general;
    const Status a = ParseDecimalText(text, precision, scale, &fast);
    const Status b = ParseDecimalText(text + "e0", precision, scale, &general);
    ASSERT_EQ(a.ok(), b.ok()) << text << " DECIMAL(" << precision << "," << scale << "): " << a.ToString()
                              << " / " << b.ToString();
    if (a.ok()) {
      EXPECT_EQ(fast.Bytes(16), general.Bytes(16))
          << text << " DECIMAL(" << precision << "," << scale << ")";
      ++fitted;
    } else {
      ++refused;
    }
  }
  // Both outcomes were exercised.
  EXPECT_GT(fitted, 2000);
  EXPECT_GT(refused, 2000);
  // Runs of eight digits with the leading zeros inside them, and the largest values.
  EXPECT_EQ(DecimalText("00000000000000001234.5", 10, 1), "1234.5");
  EXPECT_EQ(DecimalText("-0000000.00000001", 9, 8), "-0.00000001");
  EXPECT_EQ(DecimalText("99999999999999999999999999999999999999", 38, 0),
            "99999999999999999999999999999999999999");
  EXPECT_EQ(DecimalText("-9999999999999999999999999999999999999.9", 38, 1),
            "-9999999999999999999999999999999999999.9");
  EXPECT_EQ(DecimalText("100000000000000000000000000000000000000", 38, 0),
            "error: has 39 digits, more than the 38 that DECIMAL(38,0) holds");
}

TEST(TextToValueTest, Uuids) {
  uint8_t b[16];
  ASSERT_TRUE(ParseUuidText("0f1E2d3C-4b5a-6978-8796-a5b4c3d2e1f0", b));
  EXPECT_EQ(b[0], 0x0f);
  EXPECT_EQ(b[1], 0x1e);
  EXPECT_EQ(b[15], 0xf0);
  for (const char* bad :
       {"", "0f1e2d3c4b5a69788796a5b4c3d2e1f0", "{0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0}",
        "0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1fg", "0f1e2d3c-4b5a-6978-8796_a5b4c3d2e1f0",
        " 0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f"}) {
    EXPECT_FALSE(ParseUuidText(bad, b)) << bad;
  }
}

TEST(TextToValueTest, Base64) {
  auto decode = [](std::string_view text) -> std::string {
    std::string out = "prefix:";
    if (!DecodeBase64(text, &out)) return "FAIL(" + out + ")";
    return out.substr(7);
  };
  EXPECT_EQ(decode(""), "");
  EXPECT_EQ(decode("Zg=="), "f");
  EXPECT_EQ(decode("Zg"), "f");
  EXPECT_EQ(decode("Zm8="), "fo");
  EXPECT_EQ(decode("Zm8"), "fo");
  EXPECT_EQ(decode("Zm9v"), "foo");
  EXPECT_EQ(decode("Zm9vYmFy"), "foobar");
  EXPECT_EQ(decode("AP8="), std::string("\x00\xff", 2));
  EXPECT_EQ(decode("+/+/"), "\xfb\xff\xbf");
  // Bad: a lone character, misplaced or excess padding, characters outside the alphabet, the URL
  // alphabet, white space, leftover bits that are not zero. *out is unchanged.
  for (const char* bad :
       {"Z", "Zg=", "Z===", "=Zg", "Zg==Zg==", "Zm9v=", "Zm-_", "Zm 9v", "Zh==", "Zm9=", "Zg==="}) {
    EXPECT_EQ(decode(bad), "FAIL(prefix:)") << bad;
  }
  // Every byte string of lengths 0..40 round trips through a plain encoder.
  static const char kAlphabet[] =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::mt19937_64 rng(11);
  for (size_t n = 0; n <= 40; ++n) {
    std::string bytes(n, '\0');
    for (char& c : bytes) c = static_cast<char>(rng());
    std::string text;
    for (size_t i = 0; i < n; i += 3) {
      uint32_t v = static_cast<uint8_t>(bytes[i]) << 16;
      if (i + 1 < n) v |= static_cast<uint8_t>(bytes[i + 1]) << 8;
      if (i + 2 < n) v |= static_cast<uint8_t>(bytes[i + 2]);
      text += kAlphabet[v >> 18 & 63];
      text += kAlphabet[v >> 12 & 63];
      text += i + 1 < n ? kAlphabet[v >> 6 & 63] : '=';
      text += i + 2 < n ? kAlphabet[v & 63] : '=';
    }
    EXPECT_EQ(decode(text), bytes) << text;
    while (!text.empty() && text.back() == '=') text.pop_back();
    EXPECT_EQ(decode(text), bytes) << text;
  }
}

// INTERVAL text as the reader writes it: three little-endian unsigned 32-bit counts.
TEST(TextToValueTest, IntervalText) {
  auto parse = [](std::string_view text) -> std::string {
    uint8_t b[12];
    Status s = ParseIntervalText(text, b);
    if (!s.ok()) return "FAIL(" + s.message() + ")";
    std::string out;
    for (int k = 0; k < 3; ++k) {
      out += std::to_string(b[4 * k] | b[4 * k + 1] << 8 | b[4 * k + 2] << 16 |
                            static_cast<uint32_t>(b[4 * k + 3]) << 24);
      if (k < 2) out += ",";
    }
    return out;
  };
  EXPECT_EQ(parse(R"({"months":1,"days":2,"millis":3})"), "1,2,3");
  EXPECT_EQ(parse(R"( { "millis" : 4294967295 , "months":0 } )"), "0,0,4294967295");
  EXPECT_EQ(parse("{}"), "0,0,0");
  EXPECT_EQ(parse(R"({"days":4294967296})"), "FAIL(has days 4294967296, out of range for INTERVAL)");
  for (const char* bad : {R"({"months":-1})", R"({"months":1,"months":2})", R"({"years":1})",
                          R"({"days":1.5})", R"({"days":1})x", R"([1,2,3])", "", R"({"days":1,})"}) {
    EXPECT_EQ(parse(bad).rfind("FAIL(is not an INTERVAL object", 0), 0u) << bad;
  }
}

}  // namespace
}  // namespace pq
