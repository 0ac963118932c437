// Dictionary indices (decoder) and the dictionary encoder.

#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "encoding_test_util.h"
#include "format/encoding/rle_bit_packed.h"

namespace pq {
namespace {

using testing::Bytes;
using testing::DecodeAll;
using testing::ExactCopy;
using P = PhysicalType;
using E = Encoding;

TEST(DictionaryIndexDecoderTest, BitWidthByteThenRuns) {
  // Width 3, then the spec's bit-packed group 0..7, then an RLE run of five 6s.
  Buffer page = Bytes({3, 0x03, 0b10001000, 0b11000110, 0b11111010, 0x0A, 0x06});
  DictionaryIndexDecoder d;
  ASSERT_TRUE(d.SetData(page, 13).ok());
  EXPECT_EQ(d.values_left(), 13);
  std::vector<uint32_t> out(13);
  auto got = d.Decode(out.data(), 20, 8);
  ASSERT_TRUE(got.ok()) << got.status().ToString();
  EXPECT_EQ(*got, 13);
  EXPECT_EQ(out, (std::vector<uint32_t>{0, 1, 2, 3, 4, 5, 6, 7, 6, 6, 6, 6, 6}));
  EXPECT_EQ(d.values_left(), 0);
}

TEST(DictionaryIndexDecoderTest, IndexOutOfRangeIsCorruption) {
  Buffer page = Bytes({3, 0x03, 0b10001000, 0b11000110, 0b11111010});
  DictionaryIndexDecoder d;
  ASSERT_TRUE(d.SetData(page, 8).ok());
  std::vector<uint32_t> out(8);
  auto got = d.Decode(out.data(), 8, 7);  // index 7 in a 7-entry dictionary
  ASSERT_FALSE(got.ok());
  EXPECT_TRUE(got.status().IsCorruption());
  EXPECT_NE(got.status().message().find("out of range"), std::string::npos);
  // The same page is fine when only indices below 7 are decoded.
  ASSERT_TRUE(d.SetData(page, 8).ok());
  EXPECT_EQ(*d.Decode(out.data(), 7, 7), 7);
  // Skipped indices are not looked at.
  ASSERT_TRUE(d.SetData(page, 8).ok());
  EXPECT_EQ(*d.Skip(8), 8);
}

TEST(DictionaryIndexDecoderTest, OneBadIndexInALongBatchIsFound) {
  std::vector<uint32_t> indices(1000);
  for (size_t i = 0; i < indices.size(); ++i) indices[i] = static_cast<uint32_t>(i % 600);
  indices[777] = 1000;  // width 10 holds it; a 600-entry dictionary does not
  RleBitPackedEncoder runs(10);
  runs.PutBatch(indices.data(), 1000);
  Buffer page = {10};
  runs.FlushTo(&page);
  DictionaryIndexDecoder d;
  ASSERT_TRUE(d.SetData(page, 1000).ok());
  std::vector<uint32_t> out(1000);
  EXPECT_TRUE(d.Decode(out.data(), 1000, 600).status().IsCorruption());
  ASSERT_TRUE(d.SetData(page, 1000).ok());
  EXPECT_EQ(*d.Decode(out.data(), 1000, 1001), 1000);
  EXPECT_EQ(out, indices);
}

TEST(DictionaryIndexDecoderTest, ProbeMarksTheTargetAndLooksAtNoOtherIndex) {
  std::vector<uint32_t> indices(1'000);
  for (size_t i = 0; i < indices.size(); ++i) indices[i] = static_cast<uint32_t>((i * 37) % 600);
  indices[777] = 1'000;  // out of range for a 600-entry dictionary, and not the target
  for (size_t i = 300; i < 340; ++i) indices[i] = 5;  // an RLE run of the target
  RleBitPackedEncoder runs(10);
  runs.PutBatch(indices.data(), 1'000);
  Buffer page = {10};
  runs.FlushTo(&page);
  DictionaryIndexDecoder d;
  std::vector<uint32_t> out(1'000);
  for (int64_t target : {int64_t{5}, int64_t{1'000}, int64_t{5'000}, int64_t{-1}}) {
    SCOPED_TRACE("target " + std::to_string(target));
    ASSERT_TRUE(d.SetData(page, 1'000).ok());
    int64_t found = 0;
    // In two pieces, the first ending inside a bit-packed run.
    ASSERT_EQ(*d.Probe(out.data(), 333, target, 7, &found), 333);
    ASSERT_EQ(*d.Probe(out.data() + 333, 2'000, target, 7, &found), 667);
    EXPECT_EQ(d.values_left(), 0);
    int64_t want = 0;
    for (size_t i = 0; i < indices.size(); ++i) {
      const bool hit = target >= 0 && indices[i] == static_cast<uint32_t>(target);
      want += hit;
      ASSERT_EQ(out[i], hit ? static_cast<uint32_t>(target) : 7u) << "at " << i;
    }
    EXPECT_EQ(found, want);
    if (target == 5) {
      EXPECT_GT(found, 40);
    } else if (target == 1'000) {
      EXPECT_EQ(found, 1);  // (a caller's target is always below its dictionary's size)
    } else {
      EXPECT_EQ(found, 0);  // wider than the page's 10 bits, or none
    }
  }
  // Width 0: every index is 0.
  ASSERT_TRUE(d.SetData(Bytes({0}), 4).ok());
  int64_t found = 0;
  ASSERT_EQ(*d.Probe(out.data(), 4, 0, 1, &found), 4);
  EXPECT_EQ(found, 4);
  EXPECT_EQ(std::vector<uint32_t>(out.begin(), out.begin() + 4), (std::vector<uint32_t>{0, 0, 0, 0}));
  ASSERT_TRUE(d.SetData(Bytes({0}), 4).ok());
  ASSERT_EQ(*d.Probe(out.data(), 4, 1, 0, &found), 4);
  EXPECT_EQ(found, 4);
  EXPECT_EQ(std::vector<uint32_t>(out.begin(), out.begin() + 4), (std::vector<uint32_t>{0, 0, 0, 0}));
}

TEST(DictionaryIndexDecoderTest, BitWidthRules) {
  DictionaryIndexDecoder d;
  EXPECT_TRUE(d.SetData(Bytes({33, 0x02, 0, 0, 0, 0, 0}), 1).IsCorruption());
  EXPECT_TRUE(d.SetData(Bytes({}), 1).IsCorruption());
  EXPECT_TRUE(d.SetData(Bytes({}), 0).ok());  // an all-null page may have no index bytes
  // Width 32: four value bytes.
  Buffer wide = Bytes({32, 0x04, 0x01, 0x00, 0x00, 0x80});
  ASSERT_TRUE(d.SetData(wide, 2).ok());
  uint32_t out[2];
  EXPECT_TRUE(d.Decode(out, 2, 100).status().IsCorruption());
  ASSERT_TRUE(d.SetData(wide, 2).ok());
  ASSERT_EQ(*d.Decode(out, 2, 0x80000002u), 2);
  EXPECT_EQ(out[1], 0x80000001u);
  // Width 0: every index is 0, whatever follows.
  Buffer zero_width = Bytes({0});
  ASSERT_TRUE(d.SetData(zero_width, 5).ok());
  ASSERT_EQ(*d.Decode(out, 2, 1), 2);
  EXPECT_EQ(out[0], 0u);
  EXPECT_TRUE(d.Decode(out, 1, 0).status().IsCorruption());  // empty dictionary
}

template <typename T>
void DictionaryRoundTrip(P type, int32_t type_length, const std::vector<T>& values) {
  auto made = DictionaryEncoder<T>::Make(type, type_length);
  ASSERT_TRUE(made.ok()) << made.status().ToString();
  DictionaryEncoder<T>& enc = **made;
  // Two data pages sharing one dictionary.
  size_t half = values.size() / 2;
  ASSERT_TRUE(enc.Put(values.data(), static_cast<int64_t>(half)).ok());
  EXPECT_EQ(enc.num_values(), static_cast<int64_t>(half));
  int64_t estimate1 = enc.EstimatedDataSize();
  // PeekIndices is FlushIndices without the flush: the same bytes, the indices still there.
  const Buffer peeked = enc.PeekIndices();
  EXPECT_EQ(enc.num_values(), static_cast<int64_t>(half));
  EXPECT_EQ(enc.PeekIndices(), peeked);
  Buffer page1 = enc.FlushIndices();
  EXPECT_EQ(page1, peeked);
  EXPECT_EQ(enc.num_values(), 0);
  EXPECT_LE(static_cast<int64_t>(page1.size()), estimate1);
  ASSERT_TRUE(enc.Put(values.data() + half, static_cast<int64_t>(values.size() - half)).ok());
  Buffer page2 = enc.FlushIndices();
  Buffer dict = enc.DictionaryPage();
  EXPECT_EQ(static_cast<int64_t>(dict.size()), enc.dictionary_byte_size());

  // Read back: the dictionary page is PLAIN.
  auto plain = MakeDecoder<T>(type, E::kPlain, type_length);
  ASSERT_TRUE((*plain)->SetData(dict, enc.num_entries()).ok());
  std::vector<T> entries;
  ASSERT_TRUE(DecodeAll(plain->get(), &entries).ok());
  ASSERT_EQ(static_cast<int32_t>(entries.size()), enc.num_entries());

  std::vector<T> decoded;
  for (const Buffer* page : {&page1, &page2}) {
    size_t n = page == &page1 ? half : values.size() - half;
    auto exact = ExactCopy(*page);
    DictionaryIndexDecoder d;
    ASSERT_TRUE(d.SetData(ByteSpan(exact.get(), page->size()), static_cast<int64_t>(n)).ok());
    std::vector<uint32_t> idx(n);
    auto got = d.Decode(idx.data(), static_cast<int64_t>(n), static_cast<uint32_t>(entries.size()));
    ASSERT_TRUE(got.ok()) << got.status().ToString();
    for (uint32_t i : idx) decoded.push_back(entries[i]);
  }
  testing::ExpectSameValues(values, decoded);
}

TEST(DictionaryEncoderTest, RoundTripsEveryType) {
  for (size_t n : {0, 1, 7, 1000, 20000}) {
    // Few distinct values, drawn again and again.
    auto pick = [&](auto pool) {
      std::mt19937 rng(static_cast<uint32_t>(n));
      decltype(pool.values) out;
      for (size_t i = 0; i < n; ++i) out.push_back(pool.values[rng() % pool.values.size()]);
      return out;
    };
    auto i32 = testing::RandomValues<int32_t>(37, 1);
    DictionaryRoundTrip<int32_t>(P::kInt32, 0, pick(i32));
    auto i64 = testing::RandomValues<int64_t>(300, 2);
    DictionaryRoundTrip<int64_t>(P::kInt64, 0, pick(i64));
    auto i96 = testing::RandomValues<Int96>(5, 3);
    DictionaryRoundTrip<Int96>(P::kInt96, 0, pick(i96));
    auto f = testing::RandomValues<float>(1, 4);
    DictionaryRoundTrip<float>(P::kFloat, 0, pick(f));
    auto d = testing::RandomValues<double>(2000, 5);
    DictionaryRoundTrip<double>(P::kDouble, 0, pick(d));
    auto ba = testing::RandomValues<ByteArray>(100, 6);
    DictionaryRoundTrip<ByteArray>(P::kByteArray, 0, pick(ba));
    auto flba = testing::RandomValues<ByteArray>(70, 7, 6);
    DictionaryRoundTrip<ByteArray>(P::kFixedLenByteArray, 6, pick(flba));
  }
}

TEST(DictionaryEncoderTest, EqualityIsBitExact) {
  auto enc = DictionaryEncoder<double>::Make(P::kDouble, 0).value();
  double nan = std::numeric_limits<double>::quiet_NaN();
  std::vector<double> values = {0.0, -0.0, nan, nan, 0.0, 1.0};
  ASSERT_TRUE(enc->Put(values.data(), 6).ok());
  EXPECT_EQ(enc->num_entries(), 4);
  EXPECT_EQ(enc->dictionary_byte_size(), 32);
  // Indices: 0 1 2 2 0 3 at width 2.
  Buffer page = enc->FlushIndices();
  DictionaryIndexDecoder d;
  ASSERT_TRUE(d.SetData(page, 6).ok());
  uint32_t idx[6];
  ASSERT_EQ(*d.Decode(idx, 6, 4), 6);
  EXPECT_EQ(std::vector<uint32_t>(idx, idx + 6), (std::vector<uint32_t>{0, 1, 2, 2, 0, 3}));
  EXPECT_EQ(page[0], 2);
}

TEST(DictionaryEncoderTest, ByteArrayEntriesAreCopiedAndSized) {
  auto enc = DictionaryEncoder<ByteArray>::Make(P::kByteArray, 0).value();
  std::string a = "apple", b = "", c = "apple";
  std::vector<ByteArray> values = {testing::BA(a), testing::BA(b), testing::BA(c)};
  ASSERT_TRUE(enc->Put(values.data(), 3).ok());
  a = "XXXXX";  // the dictionary holds its own copy
  EXPECT_EQ(enc->num_entries(), 2);
  EXPECT_EQ(enc->dictionary_byte_size(), 4 + 5 + 4);
  EXPECT_EQ(enc->DictionaryPage(), Bytes({5, 0, 0, 0, 'a', 'p', 'p', 'l', 'e', 0, 0, 0, 0}));
  // A one-entry dictionary writes width 0.
  auto one = DictionaryEncoder<int32_t>::Make(P::kInt32, 0).value();
  int32_t same[3] = {4, 4, 4};
  ASSERT_TRUE(one->Put(same, 3).ok());
  Buffer page = one->FlushIndices();
  EXPECT_EQ(page[0], 0);
}

TEST(DictionaryEncoderTest, RefusesWrongTypesAndLengths) {
  EXPECT_TRUE(DictionaryEncoder<int32_t>::Make(P::kInt64, 0).status().IsInvalidArgument());
  EXPECT_TRUE(DictionaryEncoder<ByteArray>::Make(P::kFixedLenByteArray, 0).status().IsCorruption());
  auto enc = DictionaryEncoder<ByteArray>::Make(P::kFixedLenByteArray, 3).value();
  std::string s = "toolong";
  ByteArray v = testing::BA(s);
  EXPECT_TRUE(enc->Put(&v, 1).IsInvalidArgument());
  EXPECT_EQ(enc->num_values(), 0);
  EXPECT_EQ(enc->num_entries(), 0);
}

TEST(DictionaryEncoderTest, ManyDistinctValuesGrowTheTable) {
  auto enc = DictionaryEncoder<int64_t>::Make(P::kInt64, 0).value();
  std::vector<int64_t> values(100000);
  for (size_t i = 0; i < values.size(); ++i) values[i] = static_cast<int64_t>(i * 2654435761u);
  ASSERT_TRUE(enc->Put(values.data(), 100000).ok());
  ASSERT_TRUE(enc->Put(values.data(), 100000).ok());
  EXPECT_EQ(enc->num_entries(), 100000);
  EXPECT_EQ(enc->dictionary_byte_size(), 800000);
  Buffer page = enc->FlushIndices();
  EXPECT_EQ(page[0], 17);  // indices up to 99999 need 17 bits
}

}  // namespace
}  // namespace pq
