#include "format/encoding/bit_unpack.h"

#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "encoding_test_util.h"
#include "format/encoding/bit_pack.h"

namespace pq {
namespace {

using testing::ExactCopy;

// Reference: value i is bits [i*w, (i+1)*w) of the LSB-first bit stream, one bit at a time.
uint64_t SlowExtract(const Buffer& packed, uint64_t i, int w) {
  uint64_t v = 0;
  for (int b = 0; b < w; ++b) {
    uint64_t bit = i * static_cast<uint64_t>(w) + static_cast<uint64_t>(b);
    if ((packed[bit / 8] >> (bit % 8)) & 1) v |= uint64_t{1} << b;
  }
  return v;
}

std::vector<uint64_t> RandomOfWidth(size_t n, int w, uint32_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<uint64_t> v(n);
  uint64_t mask = w == 64 ? ~uint64_t{0} : (uint64_t{1} << w) - 1;
  for (auto& x : v) x = rng() & mask;
  if (n > 0) v[0] = mask;  // the widest value always appears
  return v;
}

TEST(BitPackTest, SpecExampleOneThroughSevenInThreeBits) {
  // The Parquet spec, RLE/bit-packing hybrid note 1: 0..7 at width 3 -> 10001000 11000110 11111010.
  std::vector<uint32_t> values = {0, 1, 2, 3, 4, 5, 6, 7};
  Buffer packed;
  bitpack::PackBits(values.data(), values.size(), 3, &packed);
  EXPECT_EQ(packed, testing::Bytes({0b10001000, 0b11000110, 0b11111010}));
  uint32_t out[8] = {};
  bitpack::UnpackRange(packed.data(), packed.size(), 3, 0, 8, out);
  for (uint32_t i = 0; i < 8; ++i) EXPECT_EQ(out[i], i);
}

// Every width 0..64 into uint64_t, at every start offset within a group, with the packed bytes in
// an exactly-sized heap block: the unpacker must not read a byte past it.
TEST(BitUnpackTest, AllWidthsAllOffsetsMatchReference64) {
  for (int w = 0; w <= 64; ++w) {
    SCOPED_TRACE("width " + std::to_string(w));
    const size_t n = 203;
    auto values = RandomOfWidth(n, w, 100 + w);
    Buffer packed;
    bitpack::PackBits(values.data(), n, w, &packed);
    ASSERT_EQ(packed.size(), bitpack::PackedBytes(n, w));
    auto exact = ExactCopy(packed);
    for (uint64_t first : {0, 1, 3, 7, 8, 9, 31, 32, 33, 100}) {
      for (size_t count : {0, 1, 5, 8, 16, 31, 32, 33, 64, 100}) {
        if (first + count > n) continue;
        std::vector<uint64_t> out(count, 0xdeadbeef);
        bitpack::UnpackRange(exact.get(), packed.size(), w, first, count, out.data());
        for (size_t i = 0; i < count; ++i) {
          ASSERT_EQ(out[i], values[first + i]) << "first " << first << " i " << i;
          ASSERT_EQ(out[i], SlowExtract(packed, first + i, w));
        }
      }
    }
  }
}

TEST(BitUnpackTest, NarrowOutputTypesAndTightBuffers) {
  // Pack exactly the values needed (not whole groups) and unpack them from a tight buffer.
  for (int w = 0; w <= 32; ++w) {
    for (size_t n : {1, 7, 8, 9, 63, 64, 65, 1000}) {
      auto values = RandomOfWidth(n, w, 7 * w + static_cast<uint32_t>(n));
      Buffer packed;
      bitpack::PackBits(values.data(), n, w, &packed);
      auto exact = ExactCopy(packed);
      std::vector<uint32_t> out32(n);
      bitpack::UnpackRange(exact.get(), packed.size(), w, 0, n, out32.data());
      for (size_t i = 0; i < n; ++i) ASSERT_EQ(out32[i], values[i]) << "w " << w << " i " << i;
      if (w <= 16) {
        std::vector<int16_t> out16(n);
        bitpack::UnpackRange(exact.get(), packed.size(), w, 0, n, out16.data());
        for (size_t i = 0; i < n; ++i) ASSERT_EQ(static_cast<uint16_t>(out16[i]), values[i]);
      }
      if (w <= 8) {
        std::vector<uint8_t> out8(n);
        bitpack::UnpackRange(exact.get(), packed.size(), w, 0, n, out8.data());
        for (size_t i = 0; i < n; ++i) ASSERT_EQ(out8[i], values[i]);
      }
    }
  }
}

TEST(BitUnpackTest, FastGroupsMatchPaddedPath) {
  // UnpackGroups with room to over-read and UnpackGroupPadded agree for every width.
  for (int w = 1; w <= 32; ++w) {
    auto values = RandomOfWidth(64, w, 900 + w);
    Buffer packed;
    bitpack::PackBits(values.data(), 64, w, &packed);
    packed.resize(packed.size() + 8, 0xff);  // garbage after the groups must not leak in
    uint32_t fast[64];
    bitpack::UnpackGroups(packed.data(), w, 8, fast);
    for (uint64_t g = 0; g < 8; ++g) {
      uint32_t slow[8];
      bitpack::UnpackGroupPadded(packed.data(), packed.size() - 8, w, g, slow);
      for (int i = 0; i < 8; ++i) {
        ASSERT_EQ(fast[g * 8 + i], values[g * 8 + i]);
        ASSERT_EQ(slow[i], values[g * 8 + i]);
      }
    }
  }
}

TEST(BatchHelpersTest, MaxValueFindsTheMaximumAnywhere) {
  for (size_t n = 0; n <= 200; ++n) {
    EXPECT_EQ(bitpack::MaxValue(std::vector<uint16_t>(n, 3).data(), n), n == 0 ? 0 : 3);
    for (size_t pos = 0; pos < n; pos += 7) {
      std::vector<uint32_t> v(n, 5);
      v[pos] = 0xFFFFFFF0u;
      ASSERT_EQ(bitpack::MaxValue(v.data(), n), 0xFFFFFFF0u) << n << " " << pos;
    }
  }
}

TEST(BatchHelpersTest, FillValuesWritesExactlyN) {
  for (size_t n = 0; n <= 40; ++n) {
    std::vector<int16_t> v(48, -1);
    bitpack::FillValues(v.data(), n, int16_t{9});
    for (size_t i = 0; i < v.size(); ++i) ASSERT_EQ(v[i], i < n ? 9 : -1) << n << " " << i;
  }
}

TEST(VarintTest, Uleb128AndZigZagRoundTripThroughByteReader) {
  Buffer b;
  std::vector<uint64_t> unsigned_values = {0, 1, 127, 128, 300, 624485, UINT32_MAX, UINT64_MAX};
  std::vector<int64_t> signed_values = {0, -1, 1, -2, 63, -64, INT64_MIN, INT64_MAX};
  for (auto v : unsigned_values) bitpack::AppendUleb128(&b, v);
  for (auto v : signed_values) bitpack::AppendZigZag(&b, v);
  ByteReader r(b);
  for (auto v : unsigned_values) EXPECT_EQ(*r.ReadUleb128(), v);
  for (auto v : signed_values) EXPECT_EQ(*r.ReadZigZag64(), v);
  EXPECT_TRUE(r.empty());
  Buffer zz;
  bitpack::AppendZigZag(&zz, -2);
  EXPECT_EQ(zz, testing::Bytes({3}));
}

}  // namespace
}  // namespace pq
