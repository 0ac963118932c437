#include "format/value/float16.h"

#include <gtest/gtest.h>

#include <cmath>

namespace pq {
namespace {

TEST(Float16Test, ZerosKeepTheirSign) {
  EXPECT_EQ(HalfToDouble(uint16_t{0x0000}), 0.0);
  EXPECT_FALSE(std::signbit(HalfToDouble(uint16_t{0x0000})));
  EXPECT_EQ(HalfToDouble(uint16_t{0x8000}), 0.0);
  EXPECT_TRUE(std::signbit(HalfToDouble(uint16_t{0x8000})));
}

TEST(Float16Test, NormalValues) {
  EXPECT_EQ(HalfToDouble(uint16_t{0x3c00}), 1.0);
  EXPECT_EQ(HalfToDouble(uint16_t{0xc000}), -2.0);
  EXPECT_EQ(HalfToDouble(uint16_t{0x3555}), 0.333251953125);
  EXPECT_EQ(HalfToDouble(uint16_t{0x7bff}), 65504.0);               // largest finite
  EXPECT_EQ(HalfToDouble(uint16_t{0x0400}), std::ldexp(1.0, -14));  // smallest normal
}

TEST(Float16Test, SubnormalsAreExact) {
  EXPECT_EQ(HalfToDouble(uint16_t{0x0001}), std::ldexp(1.0, -24));
  EXPECT_EQ(HalfToDouble(uint16_t{0x03ff}), 1023 * std::ldexp(1.0, -24));
  EXPECT_EQ(HalfToDouble(uint16_t{0x8001}), -std::ldexp(1.0, -24));
}

TEST(Float16Test, InfinitiesAndNaN) {
  EXPECT_EQ(HalfToDouble(uint16_t{0x7c00}), INFINITY);
  EXPECT_EQ(HalfToDouble(uint16_t{0xfc00}), -INFINITY);
  EXPECT_TRUE(std::isnan(HalfToDouble(uint16_t{0x7e00})));
  EXPECT_TRUE(std::isnan(HalfToDouble(uint16_t{0x7c01})));
  EXPECT_TRUE(std::isnan(HalfToDouble(uint16_t{0xfe00})));
}

TEST(Float16Test, ReadsLittleEndianBytes) {
  const uint8_t one[2] = {0x00, 0x3c};
  EXPECT_EQ(HalfToDouble(one), 1.0);
  const uint8_t max[2] = {0xff, 0x7b};
  EXPECT_EQ(HalfToDouble(max), 65504.0);
}

// Every finite half read through the bits equals the value computed from its fields by arithmetic.
TEST(Float16Test, AllFiniteHalvesMatchTheirDefinition) {
  for (uint32_t bits = 0; bits < 0x10000; ++bits) {
    const uint32_t exponent = (bits >> 10) & 0x1f;
    if (exponent == 0x1f) continue;
    const uint32_t mantissa = bits & 0x3ff;
    double expected = exponent == 0 ? std::ldexp(mantissa, -24)
                                    : std::ldexp(1024 + mantissa, static_cast<int>(exponent) - 25);
    if (bits & 0x8000) expected = -expected;
    ASSERT_EQ(HalfToDouble(static_cast<uint16_t>(bits)), expected) << bits;
  }
}

}  // namespace
}  // namespace pq
