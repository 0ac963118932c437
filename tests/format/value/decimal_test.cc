#include "format/value/decimal.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <limits>
#include <random>
#include <string>
#include <vector>

namespace pq {
namespace {

__extension__ typedef __int128 Int128;
__extension__ typedef unsigned __int128 UInt128;

std::string Text(int64_t unscaled, int32_t scale) {
  std::string out;
  AppendDecimalText(unscaled, scale, &out);
  return out;
}

std::string Text(const std::string& big_endian, int32_t scale) {
  std::string out;
  EXPECT_TRUE(AppendDecimalText(big_endian, scale, &out));
  return out;
}

double Double(const std::string& big_endian, int32_t scale) {
  double d = -12345;
  EXPECT_TRUE(DecimalToDouble(big_endian, scale, &d));
  return d;
}

std::string Hex(const std::string& hex) {
  std::string out;
  for (size_t i = 0; i + 1 < hex.size(); i += 2) {
    out.push_back(static_cast<char>(std::stoi(hex.substr(i, 2), nullptr, 16)));
  }
  return out;
}

// Big-endian two's complement of v in n bytes.
std::string BigEndian(Int128 v, int n) {
  std::string out(n, '\0');
  for (int i = n - 1; i >= 0; --i) {
    out[i] = static_cast<char>(static_cast<uint8_t>(v));
    v >>= 8;
  }
  return out;
}

// Independent reference: digits of an Int128 by repeated division, then the point placed.
std::string ReferenceText(Int128 v, int scale) {
  const bool negative = v < 0;
  UInt128 m = negative ? -static_cast<UInt128>(v) : static_cast<UInt128>(v);
  std::string digits;
  do {
    digits.insert(digits.begin(), static_cast<char>('0' + static_cast<int>(m % 10)));
    m /= 10;
  } while (m != 0);
  if (scale > 0) {
    while (static_cast<int>(digits.size()) <= scale) digits.insert(digits.begin(), '0');
    digits.insert(digits.end() - scale, '.');
  }
  return (negative ? "-" : "") + digits;
}

TEST(DecimalTest, TextKeepsScaleDigits) {
  EXPECT_EQ(Text(12340, 2), "123.40");
  EXPECT_EQ(Text(-5, 2), "-0.05");
  EXPECT_EQ(Text(5, 2), "0.05");
  EXPECT_EQ(Text(0, 0), "0");
  EXPECT_EQ(Text(0, 2), "0.00");
  EXPECT_EQ(Text(-100, 2), "-1.00");
  EXPECT_EQ(Text(123, 3), "0.123");
  EXPECT_EQ(Text(123, 5), "0.00123");  // scale above the digits (and above a precision of 3)
  EXPECT_EQ(Text(42, 0), "42");
  EXPECT_EQ(Text(std::numeric_limits<int64_t>::min(), 0), "-9223372036854775808");
  EXPECT_EQ(Text(std::numeric_limits<int64_t>::min(), 18), "-9.223372036854775808");
  EXPECT_EQ(Text(std::numeric_limits<int64_t>::max(), 19), "0.9223372036854775807");
}

// Every digit count, at and beside each power of ten, at every scale from none to past the digits.
TEST(DecimalTest, TextAtPowersOfTenMatchesReference) {
  std::vector<int64_t> values = {0, 1, 9, std::numeric_limits<int64_t>::max(), std::numeric_limits<int64_t>::min()};
  int64_t p = 1;
  for (int k = 1; k <= 18; ++k) {
    p *= 10;
    for (int64_t v : {p - 1, p, p + 1}) {
      values.push_back(v);
      values.push_back(-v);
    }
  }
  for (int64_t v : values) {
    for (int scale = -3; scale <= 22; ++scale) {
      ASSERT_EQ(Text(v, scale), ReferenceText(v, scale) + (scale < 0 && v != 0 ? std::string(-scale, '0') : ""))
          << v << " scale " << scale;
    }
  }
}

TEST(DecimalTest, NegativeScaleMultiplies) {
  EXPECT_EQ(Text(7, -2), "700");
  EXPECT_EQ(Text(-7, -3), "-7000");
  EXPECT_EQ(Text(0, -3), "0");
  EXPECT_EQ(DecimalToDouble(7, -2), 700.0);
  EXPECT_EQ(DecimalToDouble(-7, -30), -7e30);
}

TEST(DecimalTest, DoubleFromSmallValues) {
  EXPECT_EQ(DecimalToDouble(12340, 2), 123.4);
  EXPECT_EQ(DecimalToDouble(-5, 2), -0.05);
  EXPECT_EQ(DecimalToDouble(1, 1), 0.1);
  EXPECT_EQ(DecimalToDouble(0, 5), 0.0);
  EXPECT_EQ(DecimalToDouble(std::numeric_limits<int64_t>::min(), 0), -9223372036854775808.0);
  EXPECT_EQ(DecimalToDouble(1, 400), 0.0);
  EXPECT_TRUE(std::signbit(DecimalToDouble(-1, 400)));
  EXPECT_EQ(DecimalToDouble(1, -400), INFINITY);
  EXPECT_EQ(DecimalToDouble(-1, -400), -INFINITY);
  EXPECT_EQ(DecimalToDouble(5, 324), 5e-324);  // the smallest subnormal
}

TEST(DecimalTest, BytesOfEachWidth) {
  EXPECT_EQ(Text(std::string(), 0), "0");  // empty BYTE_ARRAY is zero
  EXPECT_EQ(Text(std::string(), 2), "0.00");
  EXPECT_EQ(Double(std::string(), 2), 0.0);
  EXPECT_EQ(Text(Hex("ff"), 0), "-1");
  EXPECT_EQ(Text(Hex("80"), 0), "-128");
  EXPECT_EQ(Text(Hex("7f"), 1), "12.7");
  EXPECT_EQ(Text(Hex("ff7f"), 0), "-129");
  EXPECT_EQ(Text(Hex("0080"), 0), "128");
  EXPECT_EQ(Text(Hex("00000000000004d2"), 2), "12.34");
  EXPECT_EQ(Text(Hex("8000000000000000"), 0), "-9223372036854775808");
  EXPECT_EQ(Double(Hex("8000000000000000"), 0), -9223372036854775808.0);
  EXPECT_EQ(Text(Hex("ff8000000000000000"), 0), "-9223372036854775808");
  EXPECT_EQ(Text(Hex("008000000000000000"), 0), "9223372036854775808");
  EXPECT_EQ(Text(Hex("ff7fffffffffffffff"), 0), "-9223372036854775809");
  EXPECT_EQ(Text(Hex("00ffffffffffffffff"), 0), "18446744073709551615");
  EXPECT_EQ(Double(Hex("00ffffffffffffffff"), 0), 18446744073709551615.0);
}

TEST(DecimalTest, SixteenByteValues) {
  // -12345678901234567890123456789012345678 as DECIMAL(38, 10) in FIXED_LEN_BYTE_ARRAY(16).
  const std::string v = Hex("f6b64f090ffdccec3bb66faf21c70cb2");
  EXPECT_EQ(Text(v, 10), "-1234567890123456789012345678.9012345678");
  EXPECT_EQ(Double(v, 10), -1.2345678901234569e+27);
  const std::string max = Hex("7fffffffffffffffffffffffffffffff");
  EXPECT_EQ(Text(max, 38), "1.70141183460469231731687303715884105727");
  EXPECT_EQ(Double(max, 38), 1.7014118346046923);
  const std::string min = Hex("80000000000000000000000000000000");
  EXPECT_EQ(Text(min, 5), "-1701411834604692317316873037158841.05728");
  EXPECT_EQ(Double(min, 5), -1.7014118346046925e+33);
}

TEST(DecimalTest, LongByteArrays) {
  // 90 nines in 38 bytes.
  const std::string v =
      Hex("07dac3c24a5671d2f8255a4502032e391f3266bc0c6acdc3fe6ee3ffffffffffffffffffffff");
  EXPECT_EQ(Text(v, 0), std::string(90, '9'));
  EXPECT_EQ(Text(v, 3), std::string(87, '9') + ".999");
  EXPECT_EQ(Double(v, 3), 1e87);
  // Redundant sign-extension bytes cost nothing and change nothing, however many.
  EXPECT_EQ(Text(std::string(5000, '\0') + Hex("05"), 1), "0.5");
  EXPECT_EQ(Text(std::string(5000, '\xff') + Hex("fb"), 1), "-0.5");
  EXPECT_EQ(Double(std::string(5000, '\xff') + Hex("fb"), 1), -0.5);
}

TEST(DecimalTest, TooLongValuesAreRefused) {
  const std::string at_limit = Hex("01") + std::string(kMaxDecimalBytes - 1, '\0');
  std::string out;
  EXPECT_TRUE(AppendDecimalText(at_limit, 0, &out));
  EXPECT_EQ(out.size(), 2464u);                // 2^8184
  EXPECT_EQ(out.substr(0, 10), "4260734904");  // leading digits per Python's int
  double d = 0;
  EXPECT_TRUE(DecimalToDouble(at_limit, 0, &d));
  EXPECT_EQ(d, INFINITY);
  EXPECT_TRUE(DecimalToDouble(at_limit, 2460, &d));
  EXPECT_EQ(d, std::strtod((out + "e-2460").c_str(), nullptr));
  EXPECT_EQ(d, 4260.734904763343);
  const std::string over = Hex("01") + std::string(kMaxDecimalBytes, '\0');
  out = "unchanged";
  EXPECT_FALSE(AppendDecimalText(over, 0, &out));
  EXPECT_EQ(out, "unchanged");
  d = 7;
  EXPECT_FALSE(DecimalToDouble(over, 0, &d));
  EXPECT_EQ(d, 7);
}

// The text of random 1..16-byte values equals the independent Int128 reference, and the double is
// what strtod (correctly rounding in glibc) reads from the text.
TEST(DecimalTest, RandomValuesMatchReferenceAndStrtod) {
  std::mt19937_64 rng(1234);
  for (int i = 0; i < 20000; ++i) {
    const int n = 1 + static_cast<int>(rng() % 16);
    Int128 v = (static_cast<Int128>(rng()) << 64) | rng();
    v >>= 128 - 8 * n;  // sign-extended n-byte value
    const int scale = static_cast<int>(rng() % 45);
    const std::string bytes = BigEndian(v, n);
    const std::string text = Text(bytes, scale);
    ASSERT_EQ(text, ReferenceText(v, scale)) << n;
    ASSERT_EQ(Double(bytes, scale), std::strtod(text.c_str(), nullptr)) << text;
    if (n <= 8) {
      const int64_t small = static_cast<int64_t>(v);
      ASSERT_EQ(Text(small, scale), text);
      ASSERT_EQ(DecimalToDouble(small, scale), std::strtod(text.c_str(), nullptr)) << text;
    }
  }
}

// Near the fast path's edges (2^53, 10^22) the result is still correctly rounded.
TEST(DecimalTest, DoubleRoundingAtFastPathEdges) {
  std::mt19937_64 rng(99);
  const int64_t two53 = int64_t{1} << 53;
  for (int i = 0; i < 20000; ++i) {
    int64_t v = two53 - 1000 + static_cast<int64_t>(rng() % 2000);
    if (i % 3 == 0) v = static_cast<int64_t>(rng());
    if (i % 2) v = -v;
    const int scale = static_cast<int>(rng() % 50) - 25;
    const std::string text = Text(v, scale);
    ASSERT_EQ(DecimalToDouble(v, scale), std::strtod(text.c_str(), nullptr)) << text;
  }
}

// Bigger values (up to 128 bytes) against strtod, with scales up to the hundreds.
TEST(DecimalTest, LongRandomValuesMatchStrtod) {
  std::mt19937_64 rng(5);
  for (int i = 0; i < 2000; ++i) {
    const size_t n = 1 + rng() % 128;
    std::string bytes(n, '\0');
    for (char& c : bytes) c = static_cast<char>(rng());
    const int scale = static_cast<int>(rng() % 400) - 100;
    std::string text = Text(bytes, scale);
    ASSERT_EQ(Double(bytes, scale), std::strtod(text.c_str(), nullptr)) << text;
    // Digits of the magnitude are the same for the negated value.
    if (text[0] == '-') text.erase(0, 1);
    ASSERT_TRUE(text.find_first_not_of("0123456789.") == std::string::npos) << text;
  }
}

}  // namespace
}  // namespace pq
