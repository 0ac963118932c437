// Definition / repetition levels: v1 RLE with length prefix, v1 BIT_PACKED (MSB first), v2 RLE.

#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "encoding_test_util.h"
#include "format/encoding/rle_bit_packed.h"

namespace pq {
namespace {

using testing::Bytes;

std::vector<int16_t> DecodeLevels(LevelDecoder* d, int64_t n, Status* st) {
  std::vector<int16_t> out(static_cast<size_t>(n));
  auto got = d->Decode(out.data(), n);
  *st = got.status();
  if (got.ok()) out.resize(static_cast<size_t>(*got));
  return out;
}

TEST(LevelDecoderTest, SpecBitPackedDeprecatedExample) {
  // 0..7 at width 3, MSB first: 00000101 00111001 01110111; a trailing byte that is not levels.
  Buffer page = Bytes({0b00000101, 0b00111001, 0b01110111, 0xEE});
  std::vector<int16_t> levels = {0, 1, 2, 3, 4, 5, 6, 7};
  EXPECT_EQ(EncodeBitPackedLevels(7, levels.data(), 8), Buffer(page.begin(), page.end() - 1));
  ByteReader r(page);
  LevelDecoder d;
  ASSERT_TRUE(d.InitV1(Encoding::kBitPacked, 7, 8, &r).ok());
  EXPECT_EQ(r.position(), 3u);  // ceil(8 * 3 / 8) bytes consumed
  Status st;
  EXPECT_EQ(DecodeLevels(&d, 10, &st), levels);
  EXPECT_TRUE(st.ok());
}

TEST(LevelDecoderTest, BitPackedLevelsCheckSizeAndMaximum) {
  // 30 values of 2 bits need 8 bytes (the spec's example).
  Buffer seven(7, 0);
  ByteReader r(seven);
  LevelDecoder d;
  EXPECT_TRUE(d.InitV1(Encoding::kBitPacked, 3, 30, &r).IsCorruption());
  // Max level 2 at width 2: the level 3 is Corruption.
  Buffer page = Bytes({0b11000000});
  ByteReader r2(page);
  ASSERT_TRUE(d.InitV1(Encoding::kBitPacked, 2, 1, &r2).ok());
  Status st;
  DecodeLevels(&d, 1, &st);
  EXPECT_TRUE(st.IsCorruption());
}

TEST(LevelDecoderTest, RleV1HasALengthPrefixAndConsumesExactlyIt) {
  // Length 2, one RLE run of 5 ones at width 1, then the values of the page.
  Buffer page = Bytes({2, 0, 0, 0, 0x0A, 0x01, 0xAB, 0xCD});
  ByteReader r(page);
  LevelDecoder d;
  ASSERT_TRUE(d.InitV1(Encoding::kRle, 1, 5, &r).ok());
  EXPECT_EQ(r.position(), 6u);
  Status st;
  EXPECT_EQ(DecodeLevels(&d, 5, &st), (std::vector<int16_t>(5, 1)));
  EXPECT_TRUE(st.ok());
  // A prefix longer than the page, or no room for the prefix.
  Buffer bad = Bytes({9, 0, 0, 0, 0x0A, 0x01});
  ByteReader rb(bad);
  EXPECT_TRUE(d.InitV1(Encoding::kRle, 1, 5, &rb).IsCorruption());
  Buffer tiny = Bytes({2, 0});
  ByteReader rt(tiny);
  EXPECT_TRUE(d.InitV1(Encoding::kRle, 1, 5, &rt).IsCorruption());
}

TEST(LevelDecoderTest, MaxLevelZeroReadsNothing) {
  Buffer page = Bytes({0xFF, 0xFF});
  ByteReader r(page);
  LevelDecoder d;
  ASSERT_TRUE(d.InitV1(Encoding::kRle, 0, 4, &r).ok());
  EXPECT_EQ(r.position(), 0u);
  Status st;
  EXPECT_EQ(DecodeLevels(&d, 9, &st), (std::vector<int16_t>(4, 0)));
  ASSERT_TRUE(d.InitV2(0, 3, ByteSpan()).ok());
  EXPECT_EQ(DecodeLevels(&d, 9, &st), (std::vector<int16_t>(3, 0)));
  LevelEncoder enc(0);
  int16_t zeros[3] = {0, 0, 0};
  ASSERT_TRUE(enc.Put(zeros, 3).ok());
  EXPECT_TRUE(enc.FlushV1().empty());
  EXPECT_TRUE(enc.FlushV2().empty());
}

TEST(LevelDecoderTest, LevelsAboveTheMaximumAreCorruption) {
  // Max level 2 (width 2), RLE run of 3s.
  Buffer page = Bytes({0x08, 0x03});
  LevelDecoder d;
  ASSERT_TRUE(d.InitV2(2, 4, page).ok());
  Status st;
  DecodeLevels(&d, 4, &st);
  EXPECT_TRUE(st.IsCorruption());
  EXPECT_NE(st.message().find("exceeds the maximum level 2"), std::string::npos);
}

TEST(LevelDecoderTest, OneBadLevelInALongBatchIsFound) {
  // Max level 5 (width 3): a 6 or 7 fits the width but not the level.
  for (int16_t bad : {6, 7}) {
    std::vector<int16_t> levels(500);
    for (size_t i = 0; i < levels.size(); ++i) levels[i] = static_cast<int16_t>(i % 7 == 0 ? 4 : 5);
    levels[301] = bad;
    RleBitPackedEncoder runs(3);
    runs.PutBatch(levels.data(), 500);
    Buffer page = runs.Flush();
    LevelDecoder d;
    ASSERT_TRUE(d.InitV2(5, 500, page).ok());
    Status st;
    DecodeLevels(&d, 500, &st);
    EXPECT_TRUE(st.IsCorruption());
  }
}

TEST(LevelDecoderTest, OtherEncodingsAndBadArgumentsAreRefused) {
  Buffer page = Bytes({0, 0, 0, 0});
  ByteReader r(page);
  LevelDecoder d;
  EXPECT_TRUE(d.InitV1(Encoding::kPlain, 1, 4, &r).IsNotSupported());
  EXPECT_TRUE(d.InitV1(Encoding::kRle, -1, 4, &r).IsInvalidArgument());
  EXPECT_TRUE(d.InitV2(1, -4, page).IsInvalidArgument());
}

TEST(LevelRoundTripTest, EveryMaxLevelBothPageVersions) {
  for (int16_t max_level : {1, 2, 3, 4, 7, 8, 100, 1000, 32767}) {
    for (size_t n : {0, 1, 7, 8, 127, 128, 129, 1000, 100000}) {
      SCOPED_TRACE("max " + std::to_string(max_level) + " n " + std::to_string(n));
      std::mt19937 rng(static_cast<uint32_t>(max_level * 31 + n));
      std::vector<int16_t> levels;
      while (levels.size() < n) {
        int16_t v = static_cast<int16_t>(rng() % (max_level + 1));
        if (rng() % 3 == 0) v = max_level;  // nullable columns: mostly max level
        size_t run = rng() % 2 ? 1 : rng() % 50;
        for (size_t i = 0; i < run && levels.size() < n; ++i) levels.push_back(v);
      }
      LevelEncoder enc(max_level);
      ASSERT_TRUE(enc.Put(levels.data(), static_cast<int64_t>(n)).ok());
      EXPECT_EQ(enc.num_values(), static_cast<int64_t>(n));
      int64_t estimate = enc.EstimatedSize();
      Buffer v1 = enc.FlushV1();
      EXPECT_LE(static_cast<int64_t>(v1.size()), estimate);
      ASSERT_TRUE(enc.Put(levels.data(), static_cast<int64_t>(n)).ok());
      Buffer v2 = enc.FlushV2();
      EXPECT_EQ(Buffer(v1.begin() + 4, v1.end()), v2);

      v1.push_back(0x5A);  // the values that follow the levels
      ByteReader r(v1);
      LevelDecoder d;
      ASSERT_TRUE(d.InitV1(Encoding::kRle, max_level, static_cast<int64_t>(n), &r).ok());
      EXPECT_EQ(r.remaining(), 1u);
      Status st;
      ASSERT_EQ(DecodeLevels(&d, static_cast<int64_t>(n) + 5, &st), levels);
      ASSERT_TRUE(st.ok()) << st.ToString();

      auto exact = testing::ExactCopy(v2);
      ASSERT_TRUE(
          d.InitV2(max_level, static_cast<int64_t>(n), ByteSpan(exact.get(), v2.size())).ok());
      std::vector<int16_t> out;
      while (out.size() < n) {
        auto part = DecodeLevels(&d, 1 + static_cast<int64_t>(rng() % 300), &st);
        ASSERT_TRUE(st.ok());
        out.insert(out.end(), part.begin(), part.end());
      }
      ASSERT_EQ(out, levels);

      if (max_level <= 7) {  // the deprecated layout, through the same decoder
        Buffer packed = EncodeBitPackedLevels(max_level, levels.data(), static_cast<int64_t>(n));
        ByteReader rp(packed);
        ASSERT_TRUE(d.InitV1(Encoding::kBitPacked, max_level, static_cast<int64_t>(n), &rp).ok());
        EXPECT_TRUE(rp.empty());
        ASSERT_EQ(DecodeLevels(&d, static_cast<int64_t>(n), &st), levels);
      }
    }
  }
}

TEST(LevelEncoderTest, RefusesLevelsOutOfRange) {
  LevelEncoder enc(3);
  int16_t bad[2] = {1, 4};
  EXPECT_TRUE(enc.Put(bad, 2).IsInvalidArgument());
  int16_t negative = -1;
  EXPECT_TRUE(enc.Put(&negative, 1).IsInvalidArgument());
  EXPECT_EQ(enc.num_values(), 0);
}

}  // namespace
}  // namespace pq
