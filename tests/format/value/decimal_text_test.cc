// Exact decimal text read back (decimal.h: ReadDecimalText, UnscaleDecimal), the one reader the
// writer's ParseDecimalText and the Bloom probe's DECIMAL values share.
#include <gtest/gtest.h>

#include <string>

#include "format/value/decimal.h"

namespace pq {
namespace {

std::string Text(Int128 v) {
  if (v == 0) return "0";
  const bool negative = v < 0;
  std::string out;
  for (; v != 0; v /= 10) out.insert(out.begin(), static_cast<char>('0' + (negative ? -(v % 10) : v % 10)));
  return negative ? "-" + out : out;
}

// The unscaled integer of `text` at `scale` (at most `digits` digits), or the failure.
std::string Unscaled(const std::string& text, int scale, int digits = 38) {
  DecimalText d;
  if (!ReadDecimalText(text, &d)) return "not a number";
  Int128 v = 0;
  switch (UnscaleDecimal(d, scale, digits, &v)) {
    case UnscaleFailure::kFractionDigits: return "fraction digits";
    case UnscaleFailure::kTooManyDigits: return "too many digits";
    case UnscaleFailure::kNone: break;
  }
  return Text(v);
}

TEST(DecimalTextTest, ReadsTheForms) {
  DecimalText d;
  ASSERT_TRUE(ReadDecimalText("-00012.3400e+2", &d));
  EXPECT_TRUE(d.negative);
  EXPECT_EQ(d.digits, "123400");
  EXPECT_EQ(d.fraction_digits, 4);
  EXPECT_EQ(d.exponent, 2);
  EXPECT_FALSE(d.long_exponent);
  ASSERT_TRUE(ReadDecimalText(".5", &d));
  EXPECT_EQ(d.digits, "5");
  EXPECT_EQ(d.fraction_digits, 1);
  ASSERT_TRUE(ReadDecimalText("7.", &d));
  ASSERT_TRUE(ReadDecimalText("+0", &d));
  EXPECT_EQ(d.digits, "");
  for (const char* bad : {"", "-", ".", "1e", "1e+", "1..2", "1.2.3", "0x10", " 1", "1 ", "e5", "1e5.0"}) {
    EXPECT_FALSE(ReadDecimalText(bad, &d)) << bad;
  }
}

TEST(DecimalTextTest, ExponentsSaturate) {
  DecimalText d;
  ASSERT_TRUE(ReadDecimalText("1e99999", &d));
  EXPECT_EQ(d.exponent, 99999);
  EXPECT_FALSE(d.long_exponent);
  ASSERT_TRUE(ReadDecimalText("1e-1234567", &d));
  EXPECT_EQ(d.exponent, -123456);
  EXPECT_TRUE(d.long_exponent);
  ASSERT_TRUE(ReadDecimalText("1e1000000", &d));
  EXPECT_FALSE(d.long_exponent);  // the last digit came while the exponent was 100000, not above
}

TEST(DecimalTextTest, UnscalesExactly) {
  EXPECT_EQ(Unscaled("12.34", 2), "1234");
  EXPECT_EQ(Unscaled("12.3400", 2), "1234");  // zeros beyond the scale are fine
  EXPECT_EQ(Unscaled("-0.05", 2), "-5");
  EXPECT_EQ(Unscaled("1.5e3", 0), "1500");
  EXPECT_EQ(Unscaled("15e-1", 1), "15");
  EXPECT_EQ(Unscaled("0.000", 2), "0");
  EXPECT_EQ(Unscaled("0e999999", 2), "0");
  EXPECT_EQ(Unscaled("1.005", 2), "fraction digits");
  EXPECT_EQ(Unscaled("1e-3", 2), "fraction digits");
  EXPECT_EQ(Unscaled("12345", 2, 6), "too many digits");
  EXPECT_EQ(Unscaled("1234", 2, 6), "123400");
  EXPECT_EQ(Unscaled("99999999999999999999999999999999999999", 0), "99999999999999999999999999999999999999");
  EXPECT_EQ(Unscaled("1e38", 0), "too many digits");
}

}  // namespace
}  // namespace pq
