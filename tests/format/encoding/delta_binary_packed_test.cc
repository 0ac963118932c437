// DELTA_BINARY_PACKED: the spec's examples, every bit width, wrapping, lenient padding and strict
// headers.

#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <random>
#include <vector>

#include "encoding_test_util.h"
#include "format/encoding/bit_pack.h"
#include "format/encoding/delta_binary_packed.h"

namespace pq {
namespace {

using testing::Bytes;
using testing::DecodeAll;
using testing::ExactCopy;
using P = PhysicalType;
using E = Encoding;

template <typename T>
Buffer Encode(const std::vector<T>& values) {
  auto enc =
      MakeEncoder<T>(std::is_same_v<T, int32_t> ? P::kInt32 : P::kInt64, E::kDeltaBinaryPacked, 0);
  EXPECT_TRUE((*enc)->Put(values.data(), static_cast<int64_t>(values.size())).ok());
  return (*enc)->FlushValues();
}

template <typename T>
std::vector<T> Decode(const Buffer& page, int64_t n, Status* st) {
  auto exact = ExactCopy(page);
  auto dec =
      MakeDecoder<T>(std::is_same_v<T, int32_t> ? P::kInt32 : P::kInt64, E::kDeltaBinaryPacked, 0);
  std::vector<T> out;
  *st = (*dec)->SetData(ByteSpan(exact.get(), page.size()), n);
  if (st->ok()) *st = DecodeAll(dec->get(), &out, 37);
  return out;
}

// The spec's examples use a block of 8 values "to keep the examples short" and call that invalid;
// here they are written with the smallest valid block: 128 values in 4 miniblocks of 32.

TEST(DeltaBinaryPackedTest, SpecExample1) {
  // 1 2 3 4 5: header 128 (80 01), 4 miniblocks, 5 values, first value 1 (zigzag 2);
  // block: min delta 1 (zigzag 2), all four widths 0, no miniblock bytes.
  std::vector<int32_t> values = {1, 2, 3, 4, 5};
  Buffer golden = Bytes({0x80, 0x01, 0x04, 0x05, 0x02, 0x02, 0x00, 0x00, 0x00, 0x00});
  EXPECT_EQ(Encode(values), golden);
  Status st;
  EXPECT_EQ(Decode<int32_t>(golden, 5, &st), values);
  EXPECT_TRUE(st.ok()) << st.ToString();
}

TEST(DeltaBinaryPackedTest, SpecExample2) {
  // 7 5 3 1 2 3 4 5: deltas -2 -2 -2 1 1 1 1, min -2 (zigzag 3), relative 0 0 0 3 3 3 3 at width 2:
  // LSB first that is 11000000 00111111, then zeros up to 32 values (8 bytes).
  std::vector<int32_t> values = {7, 5, 3, 1, 2, 3, 4, 5};
  Buffer golden = Bytes({0x80, 0x01, 0x04, 0x08, 0x0E,  // header, first value 7
                         0x03, 0x02, 0x00, 0x00, 0x00,  // min delta -2, widths
                         0xC0, 0x3F, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00});
  EXPECT_EQ(Encode(values), golden);
  Status st;
  EXPECT_EQ(Decode<int32_t>(golden, 8, &st), values);
  EXPECT_TRUE(st.ok());
  std::vector<int64_t> values64(values.begin(), values.end());
  EXPECT_EQ(Encode(values64), golden);
  EXPECT_EQ(Decode<int64_t>(golden, 8, &st), values64);
}

TEST(DeltaBinaryPackedTest, MissingPaddingOfTheLastMiniblockIsAccepted) {
  // Example 2 with one miniblock of 128 values whose padding (30 of 32 bytes) is absent.
  Buffer page = Bytes({0x80, 0x01, 0x01, 0x08, 0x0E, 0x03, 0x02, 0xC0, 0x3F});
  Status st;
  EXPECT_EQ(Decode<int32_t>(page, 8, &st), (std::vector<int32_t>{7, 5, 3, 1, 2, 3, 4, 5}));
  EXPECT_TRUE(st.ok()) << st.ToString();
  page.pop_back();  // now a value is missing
  Decode<int32_t>(page, 8, &st);
  EXPECT_TRUE(st.IsCorruption());
}

TEST(DeltaBinaryPackedTest, BitWidthsOfUnusedMiniblocksAreIgnored) {
  std::vector<int32_t> values(20);
  for (int i = 0; i < 20; ++i) values[i] = i * i;
  Buffer page = Encode(values);
  // Header is 5 bytes (80 01 04 14 00), then min delta (1 byte), then 4 widths.
  ASSERT_NE(page[6], 0);
  page[7] = 0xFF;
  page[8] = 0x41;
  page[9] = 33;
  Status st;
  EXPECT_EQ(Decode<int32_t>(page, 20, &st), values);
  EXPECT_TRUE(st.ok()) << st.ToString();
}

TEST(DeltaBinaryPackedTest, TooWideMiniblocksAreCorruption) {
  // One value after the first, in a miniblock of width 34 (INT32; 33 is accepted, below) / 65
  // (INT64).
  Buffer page = Bytes({0x80, 0x01, 0x04, 0x02, 0x00, 0x00, 34, 0, 0, 0});
  page.resize(page.size() + 34 * 4, 0);
  Status st;
  Decode<int32_t>(page, 2, &st);
  EXPECT_TRUE(st.IsCorruption()) << st.ToString();
  Decode<int64_t>(page, 2, &st);
  EXPECT_TRUE(st.ok()) << st.ToString();  // 34 bits are fine for INT64
  page[6] = 65;
  page.resize(page.size() + 32 * 8, 0);
  Decode<int64_t>(page, 2, &st);
  EXPECT_TRUE(st.IsCorruption());
}

TEST(DeltaBinaryPackedTest, InvalidHeadersAreCorruption) {
  Status st;
  // Block size 8 (the spec's example size, not valid in real files).
  Decode<int32_t>(Bytes({0x08, 0x01, 0x05, 0x02, 0x02, 0x00}), 5, &st);
  EXPECT_TRUE(st.IsCorruption());
  // Block size 0, miniblock count 0, miniblocks of 16 values.
  Decode<int32_t>(Bytes({0x00, 0x01, 0x01, 0x00}), 1, &st);
  EXPECT_TRUE(st.IsCorruption());
  Decode<int32_t>(Bytes({0x80, 0x01, 0x00, 0x01, 0x00}), 1, &st);
  EXPECT_TRUE(st.IsCorruption());
  Decode<int32_t>(Bytes({0x80, 0x01, 0x08, 0x01, 0x00}), 1, &st);
  EXPECT_TRUE(st.IsCorruption());
  Decode<int32_t>(Bytes({0x80, 0x01, 0x04}), 1, &st);  // truncated header
  EXPECT_TRUE(st.IsCorruption());
}

TEST(DeltaBinaryPackedTest, HeaderCountAndPageCountMayDiffer) {
  Buffer page = Encode(std::vector<int32_t>{10, 20, 30, 40, 50});
  auto dec = MakeDecoder<int32_t>(P::kInt32, E::kDeltaBinaryPacked, 0);
  ASSERT_TRUE((*dec)->SetData(page, 3).ok());  // the page wants fewer values: extra ignored
  EXPECT_EQ((*dec)->values_left(), 3);
  ASSERT_TRUE((*dec)->SetData(page, 9).ok());  // the page wants more: only 5 are there
  EXPECT_EQ((*dec)->values_left(), 5);
  std::vector<int32_t> out;
  ASSERT_TRUE(DecodeAll(dec->get(), &out).ok());
  EXPECT_EQ(out, (std::vector<int32_t>{10, 20, 30, 40, 50}));
}

// Deltas drawn from the signed range [-2^(width-1), 2^(width-1) - 1], both ends in every
// miniblock, so that (max delta - min delta) has exactly `width` bits.
template <typename T>
std::vector<T> ValuesWithDeltaWidth(int width, size_t n, uint32_t seed) {
  using U = std::make_unsigned_t<T>;
  std::mt19937_64 rng(seed);
  const int bits = static_cast<int>(sizeof(T) * 8);
  U base = width == 0 ? static_cast<U>(rng()) : static_cast<U>(U{0} - (U{1} << (width - 1)));
  U span = width == bits ? ~U{0} : (width == 0 ? U{0} : static_cast<U>((U{1} << width) - 1));
  std::vector<T> values;
  U v = static_cast<U>(rng());
  for (size_t i = 0; i < n; ++i) {
    values.push_back(static_cast<T>(v));
    U r = span == ~U{0} ? static_cast<U>(rng()) : static_cast<U>(rng() % (uint64_t{span} + 1));
    if (i % 32 == 1) r = 0;
    if (i % 32 == 2) r = span;         // both ends in every miniblock
    v = static_cast<U>(v + base + r);  // wraps
  }
  return values;
}

template <typename T>
void CheckAllWidths() {
  const int bits = static_cast<int>(sizeof(T) * 8);
  for (int width = 0; width <= bits; ++width) {
    SCOPED_TRACE("width " + std::to_string(width));
    for (size_t n : {2, 33, 129, 1000}) {
      auto values = ValuesWithDeltaWidth<T>(width, n, static_cast<uint32_t>(width * 7 + n));
      Buffer page = Encode(values);
      if (n > 3) {  // the first miniblock holds both extreme deltas: its width is `width`
        ByteReader r(page);
        for (int i = 0; i < 4; ++i) ASSERT_TRUE(r.ReadUleb128().ok());  // header
        ASSERT_TRUE(r.ReadZigZag64().ok());                             // min delta
        EXPECT_EQ(*r.ReadU8(), width);
      }
      Status st;
      auto out = Decode<T>(page, static_cast<int64_t>(n), &st);
      ASSERT_TRUE(st.ok()) << st.ToString();
      ASSERT_EQ(out, values);
    }
  }
}

TEST(DeltaBinaryPackedTest, EveryBitWidthInt32) {
  CheckAllWidths<int32_t>();
}
TEST(DeltaBinaryPackedTest, EveryBitWidthInt64) {
  CheckAllWidths<int64_t>();
}

TEST(DeltaBinaryPackedTest, ExtremeValuesWrapAround) {
  constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
  constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
  std::vector<int64_t> v64 = {kMax, kMin, kMax, 0, kMin, -1, kMax, kMax, kMin, kMin, 1, kMin};
  Status st;
  EXPECT_EQ(Decode<int64_t>(Encode(v64), static_cast<int64_t>(v64.size()), &st), v64);
  EXPECT_TRUE(st.ok());
  constexpr int32_t kMin32 = std::numeric_limits<int32_t>::min();
  constexpr int32_t kMax32 = std::numeric_limits<int32_t>::max();
  std::vector<int32_t> v32 = {kMax32, kMin32, 0, kMax32, -1, kMin32, kMin32, 5};
  EXPECT_EQ(Decode<int32_t>(Encode(v32), static_cast<int64_t>(v32.size()), &st), v32);
  EXPECT_TRUE(st.ok());
}

TEST(DeltaBinaryPackedTest, Int32StreamsFromWritersThatDeltaIn64Bits) {
  // A writer computing INT32 deltas in 64 bits stores min delta -(2^32 - 1) for
  // [INT32_MAX, INT32_MIN]; decoding modulo 2^32 still restores the values.
  Buffer page = Bytes({0x80, 0x01, 0x04, 0x02});
  bitpack::AppendZigZag(&page, std::numeric_limits<int32_t>::max());
  bitpack::AppendZigZag(&page, -static_cast<int64_t>(UINT32_MAX));  // min delta
  page.insert(page.end(), {0, 0, 0, 0});
  Status st;
  auto out = Decode<int32_t>(page, 2, &st);
  ASSERT_TRUE(st.ok()) << st.ToString();
  EXPECT_EQ(out, (std::vector<int32_t>{std::numeric_limits<int32_t>::max(),
                                       std::numeric_limits<int32_t>::min()}));
}

// What DuckDB writes for INT32 columns with PARQUET_VERSION V2: deltas computed in 64 bits, so a
// column spanning more than 2^31 gets 33-bit miniblocks. The stream is made here by the 64-bit
// writer on the sign-extended values, which is exactly that; read as INT32 it must give the values
// back, decoded in pieces of every size and skipped over.
TEST(DeltaBinaryPackedTest, Int32StreamsWith33BitMiniblocks) {
  std::mt19937_64 rng(33);
  for (const int n : {2, 4, 33, 129, 1000, 5000}) {
    std::vector<int32_t> values(static_cast<size_t>(n));
    for (size_t i = 0; i < values.size(); ++i) {
      values[i] = i % 2 == 0 ? std::numeric_limits<int32_t>::min() + static_cast<int32_t>(rng() % 3)
                             : static_cast<int32_t>(rng());
      if (i % 7 == 3) values[i] = std::numeric_limits<int32_t>::max();
    }
    delta::DeltaBinaryPackedWriter<uint64_t> writer;
    for (int32_t v : values) writer.Put(static_cast<uint64_t>(static_cast<int64_t>(v)));
    Buffer page;
    writer.FinishTo(&page);
    // The stream does hold 33-bit miniblocks (bit-width bytes follow each block's min delta).
    bool has33 = false;
    for (uint8_t b : page) has33 |= b == 33;
    ASSERT_TRUE(has33 || n < 3) << n;
    Status st;
    EXPECT_EQ(Decode<int32_t>(page, n, &st), values) << n;
    EXPECT_TRUE(st.ok()) << st.ToString();
    // Skipping over them.
    auto exact = ExactCopy(page);
    auto dec = MakeDecoder<int32_t>(P::kInt32, E::kDeltaBinaryPacked, 0);
    ASSERT_TRUE((*dec)->SetData(ByteSpan(exact.get(), page.size()), n).ok());
    const int64_t skip = n / 2 + 1;
    ASSERT_EQ(*(*dec)->Skip(skip), std::min<int64_t>(skip, n));
    std::vector<int32_t> rest(static_cast<size_t>(n));
    const int64_t got = *(*dec)->Decode(rest.data(), n);
    ASSERT_EQ(got, std::max<int64_t>(n - skip, 0));
    for (int64_t i = 0; i < got; ++i) EXPECT_EQ(rest[static_cast<size_t>(i)], values[static_cast<size_t>(skip + i)]);
  }
}

TEST(DeltaBinaryPackedTest, SkipOverZeroWidthRunsAndAcrossBlocks) {
  std::vector<int64_t> values(5000);
  for (size_t i = 0; i < values.size(); ++i) values[i] = i < 2500 ? int64_t(i) * 7 : int64_t(i * i);
  Buffer page = Encode(values);
  auto dec = MakeDecoder<int64_t>(P::kInt64, E::kDeltaBinaryPacked, 0);
  for (int64_t skip : {0, 1, 31, 32, 33, 127, 128, 129, 2499, 2500, 4999}) {
    ASSERT_TRUE((*dec)->SetData(page, 5000).ok());
    ASSERT_EQ(*(*dec)->Skip(skip), skip);
    int64_t v;
    ASSERT_EQ(*(*dec)->Decode(&v, 1), 1);
    EXPECT_EQ(v, values[static_cast<size_t>(skip)]) << "after skipping " << skip;
  }
}

}  // namespace
}  // namespace pq
