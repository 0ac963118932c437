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

// DoubleToHalf: every half comes back as itself, and doubles between two halves go to the nearer
// one, ties to the even one.
TEST(Float16Test, DoubleToHalfRoundsToNearestEven) {
  for (uint32_t bits = 0; bits < 0x10000; ++bits) {
    const double d = HalfToDouble(static_cast<uint16_t>(bits));
    if (std::isnan(d)) {
      EXPECT_TRUE(std::isnan(HalfToDouble(DoubleToHalf(d))));
      continue;
    }
    ASSERT_EQ(DoubleToHalf(d), bits) << bits;
    // Halfway to the next half up (finite, positive): ties to even; a little above: up.
    if (bits >= 0x7bff || (bits & 0x8000)) continue;
    const double next = HalfToDouble(static_cast<uint16_t>(bits + 1));
    const double mid = (d + next) / 2;
    ASSERT_EQ(DoubleToHalf(mid), (bits & 1) ? bits + 1 : bits) << bits;
    ASSERT_EQ(DoubleToHalf(std::nextafter(mid, 1e9)), bits + 1) << bits;
    ASSERT_EQ(DoubleToHalf(std::nextafter(mid, -1e9)), bits) << bits;
  }
  EXPECT_EQ(DoubleToHalf(65519.99), 0x7bffu);
  EXPECT_EQ(DoubleToHalf(65520.0), 0x7c00u);
  EXPECT_EQ(DoubleToHalf(-1e300), 0xfc00u);
  EXPECT_EQ(DoubleToHalf(1e-300), 0u);
  EXPECT_EQ(DoubleToHalf(-0.0), 0x8000u);
  EXPECT_EQ(DoubleToHalf(0.1), 0x2e66u);
}

}  // namespace
}  // namespace pq
