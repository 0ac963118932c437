#include "format/encoding/rle_bit_packed.h"

#include <gtest/gtest.h>

#include <array>
#include <random>
#include <vector>

#include "encoding_test_util.h"
#include "format/encoding/bit_pack.h"

namespace pq {
namespace {

using testing::Bytes;
using testing::ExactCopy;

std::vector<uint32_t> Decode(const Buffer& data, int width, int64_t n, Status* status) {
  auto exact = ExactCopy(data);
  RleBitPackedDecoder d(ByteSpan(exact.get(), data.size()), width);
  std::vector<uint32_t> out(static_cast<size_t>(n));
  *status = d.Decode(out.data(), n);
  return out;
}

TEST(RleBitPackedTest, SpecBitPackedRunGolden) {
  // One bit-packed group (header (1 << 1) | 1) holding 0..7 at width 3, bytes from the spec.
  Buffer data = Bytes({0x03, 0b10001000, 0b11000110, 0b11111010});
  Status st;
  auto out = Decode(data, 3, 8, &st);
  ASSERT_TRUE(st.ok()) << st.ToString();
  for (uint32_t i = 0; i < 8; ++i) EXPECT_EQ(out[i], i);

  RleBitPackedEncoder enc(3);
  for (uint32_t i = 0; i < 8; ++i) enc.Put(i);
  EXPECT_EQ(enc.Flush(), data);
}

TEST(RleBitPackedTest, RleRunGolden) {
  // 100 fives at width 3: header varint(100 << 1) = C8 01, value in one byte.
  RleBitPackedEncoder enc(3);
  for (int i = 0; i < 100; ++i) enc.Put(5);
  Buffer expected = Bytes({0xC8, 0x01, 0x05});
  EXPECT_EQ(enc.Flush(), expected);
  Status st;
  auto out = Decode(expected, 3, 100, &st);
  ASSERT_TRUE(st.ok());
  for (auto v : out) EXPECT_EQ(v, 5u);

  // Width 9 and 17 use 2 and 3 value bytes, little endian.
  RleBitPackedEncoder wide(17);
  for (int i = 0; i < 8; ++i) wide.Put(0x1ABCD);
  EXPECT_EQ(wide.Flush(), Bytes({0x10, 0xCD, 0xAB, 0x01}));
}

TEST(RleBitPackedTest, LiteralsBeforeARunArePaddedFromTheRun) {
  // 1 2 3 then twenty 7s: the literal run is completed to 8 values with five 7s, then an RLE run
  // of fifteen 7s.
  RleBitPackedEncoder enc(3);
  std::vector<uint32_t> values = {1, 2, 3};
  values.insert(values.end(), 20, 7);
  enc.PutBatch(values.data(), static_cast<int64_t>(values.size()));
  Buffer b = enc.Flush();
  ASSERT_EQ(b.size(), 1u + 3u + 2u);
  EXPECT_EQ(b[0], 0x03);
  EXPECT_EQ(b[4], 15 << 1);
  EXPECT_EQ(b[5], 7);
  Status st;
  auto out = Decode(b, 3, static_cast<int64_t>(values.size()), &st);
  ASSERT_TRUE(st.ok());
  EXPECT_EQ(out, values);
}

TEST(RleBitPackedTest, ShortFinalGroupIsAcceptedWhenItHoldsTheValues) {
  // Header claims one group of width 3 (3 bytes) but only the first byte is present.
  Buffer data = Bytes({0x03, 0b10001000});
  Status st;
  auto out = Decode(data, 3, 2, &st);
  ASSERT_TRUE(st.ok()) << st.ToString();
  EXPECT_EQ(out[0], 0u);
  EXPECT_EQ(out[1], 1u);
  Decode(data, 3, 3, &st);  // the third value is cut
  EXPECT_TRUE(st.IsCorruption());
}

TEST(RleBitPackedTest, MalformedRunsAreCorruption) {
  Status st;
  Decode(Bytes({0x04, 0x08}), 3, 2, &st);  // RLE value 8 does not fit 3 bits
  EXPECT_TRUE(st.IsCorruption()) << st.ToString();
  Decode(Bytes({0x04, 0x01}), 3, 3, &st);  // two values present, three asked
  EXPECT_TRUE(st.IsCorruption());
  Decode(Bytes({0x04}), 3, 1, &st);  // value byte missing
  EXPECT_TRUE(st.IsCorruption());
  Decode(Bytes({0x80, 0x80, 0x80, 0x80, 0x80, 0x01}), 3, 1, &st);  // overlong varint
  EXPECT_TRUE(st.IsCorruption());
  Decode(Bytes({}), 1, 1, &st);
  EXPECT_TRUE(st.IsCorruption());
  // Zero-length runs are skipped, not looped on.
  auto out = Decode(Bytes({0x00, 0x01, 0x01, 0x04, 0x02}), 2, 2, &st);
  ASSERT_TRUE(st.ok()) << st.ToString();
  EXPECT_EQ(out, (std::vector<uint32_t>{2, 2}));
}

TEST(RleBitPackedTest, WidthZero) {
  RleBitPackedEncoder enc(0);
  for (int i = 0; i < 20; ++i) enc.Put(0);
  Buffer b = enc.Flush();
  EXPECT_EQ(b, Bytes({40}));  // one RLE run, no value bytes
  Status st;
  auto out = Decode(b, 0, 20, &st);
  ASSERT_TRUE(st.ok());
  for (auto v : out) EXPECT_EQ(v, 0u);
  // A bit-packed run of width 0 takes no bytes either.
  out = Decode(Bytes({0x05}), 0, 16, &st);
  ASSERT_TRUE(st.ok());
}

enum class Pattern { kRandom, kRuns, kMixed };

std::vector<uint32_t> MakeValues(size_t n, int width, Pattern p, uint32_t seed) {
  std::mt19937 rng(seed);
  uint64_t limit = uint64_t{1} << width;  // values in [0, limit)
  auto any = [&] { return static_cast<uint32_t>(rng() % limit); };
  std::vector<uint32_t> v;
  while (v.size() < n) {
    size_t run = 1;
    if (p == Pattern::kRuns) run = 1 + rng() % 100;
    if (p == Pattern::kMixed) run = rng() % 3 == 0 ? 8 + rng() % 30 : 1 + rng() % 5;
    uint32_t x = any();
    for (size_t i = 0; i < run && v.size() < n; ++i) v.push_back(x);
  }
  if (n > 0) v[n / 2] = static_cast<uint32_t>(limit - 1);  // the widest value appears
  return v;
}

TEST(RleBitPackedTest, RoundTripAllWidthsSizesAndPatterns) {
  for (int width = 0; width <= 32; ++width) {
    for (size_t n : {0, 1, 7, 8, 127, 128, 129, 1000, 100000}) {
      if (n == 100000 && width % 4 != 1) continue;  // keep the big size to a few widths
      for (Pattern p : {Pattern::kRandom, Pattern::kRuns, Pattern::kMixed}) {
        SCOPED_TRACE("width " + std::to_string(width) + " n " + std::to_string(n) + " pattern " +
                     std::to_string(static_cast<int>(p)));
        auto values = MakeValues(n, width, p, static_cast<uint32_t>(width * 1000 + n));
        RleBitPackedEncoder enc(width);
        enc.PutBatch(values.data(), static_cast<int64_t>(n));
        EXPECT_EQ(enc.num_values(), static_cast<int64_t>(n));
        int64_t estimate = enc.EstimatedSize();
        Buffer b = enc.Flush();
        EXPECT_LE(static_cast<int64_t>(b.size()), estimate);
        Status st;
        auto out = Decode(b, width, static_cast<int64_t>(n), &st);
        ASSERT_TRUE(st.ok()) << st.ToString();
        ASSERT_EQ(out, values);
      }
    }
  }
}

TEST(RleBitPackedTest, SkipInterleavedWithDecode) {
  for (int width : {1, 3, 8, 13, 20, 32}) {
    auto values = MakeValues(5000, width, Pattern::kMixed, 77 + width);
    RleBitPackedEncoder enc(width);
    enc.PutBatch(values.data(), 5000);
    Buffer b = enc.Flush();
    auto exact = ExactCopy(b);
    RleBitPackedDecoder d(ByteSpan(exact.get(), b.size()), width);
    std::mt19937 rng(width);
    size_t pos = 0;
    while (pos < values.size()) {
      size_t k = std::min<size_t>(values.size() - pos, 1 + rng() % 70);
      if (rng() % 2) {
        ASSERT_TRUE(d.Skip(static_cast<int64_t>(k)).ok());
      } else {
        std::vector<uint32_t> out(k);
        ASSERT_TRUE(d.Decode(out.data(), static_cast<int64_t>(k)).ok());
        for (size_t i = 0; i < k; ++i) ASSERT_EQ(out[i], values[pos + i]) << "at " << pos + i;
      }
      pos += k;
    }
    // At most 7 padding values follow the last real one.
    uint32_t extra[8];
    EXPECT_TRUE(d.Decode(extra, 8).IsCorruption());
  }
}

// 64 values packed at `width` (PackBits of exactly 64 values fills 8 * width bytes).
Buffer PackBlock(const std::vector<uint32_t>& values, int width) {
  Buffer out;
  bitpack::PackBits(values.data(), 64, width, &out);
  return out;
}

TEST(PackedValueMatcherTest, SaysExactlyWhetherABlockHoldsTheTarget) {
  std::mt19937 rng(99);
  for (int width = 1; width <= 32; ++width) {
    SCOPED_TRACE("width " + std::to_string(width));
    const uint64_t limit = uint64_t{1} << width;
    const uint32_t top = static_cast<uint32_t>(limit - 1);
    for (uint32_t target : {uint32_t{0}, uint32_t{1}, top, static_cast<uint32_t>(limit / 2),
                            static_cast<uint32_t>(rng() % limit)}) {
      PackedValueMatcher m;
      m.Reset(target, width);
      ASSERT_EQ(m.target(), target);
      // Neighbours of the target (one bit off, one above or below) sit beside it in every field.
      auto near = [&] {
        uint32_t v;
        do {
          switch (rng() % 4) {
            case 0: v = target ^ (uint32_t{1} << (rng() % width)); break;
            case 1: v = static_cast<uint32_t>((uint64_t{target} + 1) % limit); break;
            case 2: v = static_cast<uint32_t>((uint64_t{target} + limit - 1) % limit); break;
            default: v = static_cast<uint32_t>(rng() % limit);
          }
        } while (v == target);
        return v;
      };
      for (int round = 0; round < 40; ++round) {
        std::vector<uint32_t> values(64);
        for (auto& v : values) v = near();
        const Buffer none = PackBlock(values, width);
        ASSERT_FALSE(m.MayHold(none.data())) << "target " << target << " round " << round;
        // The target in one field (the first, the last, one straddling words, any), or in several.
        const int at = round < 3 ? std::array<int, 3>{0, 63, 64 / width}[static_cast<size_t>(round % 3)] % 64
                                 : static_cast<int>(rng() % 64);
        values[static_cast<size_t>(at)] = target;
        if (round % 5 == 4) values[rng() % 64] = target;
        const Buffer one = PackBlock(values, width);
        ASSERT_TRUE(m.MayHold(one.data())) << "target " << target << " at " << at;
      }
    }
  }
}

TEST(RleBitPackedTest, ProbeGivesTheTargetExactlyWhereDecodeDoes) {
  std::mt19937 rng(5150);
  for (int width = 1; width <= 32; ++width) {
    for (Pattern p : {Pattern::kRandom, Pattern::kRuns, Pattern::kMixed}) {
      SCOPED_TRACE("width " + std::to_string(width) + " pattern " + std::to_string(static_cast<int>(p)));
      auto values = MakeValues(3'000, width, p, static_cast<uint32_t>(width * 31 + static_cast<int>(p)));
      // A value the runs hold, one planted at block edges, and (mostly) one they do not hold.
      const uint32_t held = values[1'234];
      for (size_t at : {size_t{0}, size_t{63}, size_t{64}, size_t{127}, size_t{2'999}}) values[at] = held;
      const uint64_t limit = uint64_t{1} << width;
      const uint32_t rare = static_cast<uint32_t>((uint64_t{held} * 7 + 3) % limit);
      RleBitPackedEncoder enc(width);
      enc.PutBatch(values.data(), static_cast<int64_t>(values.size()));
      Buffer b = enc.Flush();
      auto exact = ExactCopy(b);
      for (uint32_t target : {held, rare}) {
        const uint32_t other = target == 0 ? 1 : 0;
        PackedValueMatcher m;
        m.Reset(target, width);
        RleBitPackedDecoder d(ByteSpan(exact.get(), b.size()), width);
        size_t pos = 0;
        int64_t found = 0, want_found = 0;
        while (pos < values.size()) {
          // Pieces of any length start reads inside runs and inside 64-value blocks.
          const size_t k = std::min<size_t>(values.size() - pos, 1 + rng() % 300);
          if (rng() % 5 == 0) {
            ASSERT_TRUE(d.Skip(static_cast<int64_t>(k)).ok());
          } else {
            std::vector<uint32_t> out(k, 0xDEADBEEF);
            ASSERT_TRUE(d.Probe(m, other, out.data(), static_cast<int64_t>(k), &found).ok());
            for (size_t i = 0; i < k; ++i) {
              const bool hit = values[pos + i] == target;
              want_found += hit;
              ASSERT_EQ(out[i], hit ? target : other) << "at " << pos + i;
            }
          }
          pos += k;
        }
        EXPECT_EQ(found, want_found) << "target " << target;
        uint32_t extra[8];
        EXPECT_TRUE(d.Probe(m, other, extra, 8, &found).IsCorruption());
      }
    }
  }
}

TEST(RleBitPackedTest, EveryTruncationFailsCleanlyOrDecodesTheRightValues) {
  for (int width : {1, 5, 17, 32}) {
    auto values = MakeValues(300, width, Pattern::kMixed, 5 + width);
    RleBitPackedEncoder enc(width);
    enc.PutBatch(values.data(), 300);
    Buffer full = enc.Flush();
    for (size_t len = 0; len < full.size(); ++len) {
      Buffer cut(full.begin(), full.begin() + static_cast<std::ptrdiff_t>(len));
      Status st;
      auto out = Decode(cut, width, 300, &st);
      if (st.ok()) {
        EXPECT_EQ(out, values) << "truncated to " << len;  // only padding was cut
      } else {
        EXPECT_TRUE(st.IsCorruption()) << st.ToString();
      }
    }
  }
}

TEST(RleBitPackedTest, RandomBytesNeverCrash) {
  std::mt19937 rng(4242);
  for (int iter = 0; iter < 3000; ++iter) {
    Buffer junk(rng() % 40);
    for (auto& x : junk) x = static_cast<uint8_t>(rng());
    int width = static_cast<int>(rng() % 33);
    Status st;
    Decode(junk, width, 1 + rng() % 200, &st);
    if (!st.ok()) {
      EXPECT_TRUE(st.IsCorruption());
    }
  }
}

}  // namespace
}  // namespace pq
