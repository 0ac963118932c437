// PLAIN and RLE-boolean decoders and encoders: golden bytes and bad pages.

#include <gtest/gtest.h>

#include <vector>

#include "encoding_test_util.h"

namespace pq {
namespace {

using testing::BA;
using testing::Bytes;
using testing::DecodeAll;
using P = PhysicalType;
using E = Encoding;

// (ByteArrays returned point into a freed copy: only their count and the status may be used.)
template <typename T>
std::vector<T> DecodePage(P type, E encoding, const Buffer& page, int64_t n, Status* st,
                          int32_t type_length = 0) {
  auto exact = testing::ExactCopy(page);
  auto dec = MakeDecoder<T>(type, encoding, type_length);
  EXPECT_TRUE(dec.ok());
  std::vector<T> out;
  *st = (*dec)->SetData(ByteSpan(exact.get(), page.size()), n);
  if (st->ok()) *st = DecodeAll(dec->get(), &out);
  return out;
}

template <typename T>
Buffer EncodePage(P type, E encoding, const std::vector<T>& values, int32_t type_length = 0) {
  auto enc = MakeEncoder<T>(type, encoding, type_length);
  EXPECT_TRUE(enc.ok());
  EXPECT_TRUE((*enc)->Put(values.data(), static_cast<int64_t>(values.size())).ok());
  return (*enc)->FlushValues();
}

TEST(PlainTest, BooleanIsBitPackedLsbFirst) {
  std::vector<uint8_t> values = {1, 0, 1, 1, 0, 0, 0, 0, 1};
  Buffer golden = Bytes({0x0D, 0x01});
  EXPECT_EQ(EncodePage<uint8_t>(P::kBoolean, E::kPlain, values), golden);
  Status st;
  EXPECT_EQ(DecodePage<uint8_t>(P::kBoolean, E::kPlain, golden, 9, &st), values);
  EXPECT_TRUE(st.ok());
  DecodePage<uint8_t>(P::kBoolean, E::kPlain, golden, 17, &st);  // needs 3 bytes
  EXPECT_TRUE(st.IsCorruption());
}

TEST(PlainTest, NumbersAreLittleEndian) {
  Buffer i32 = Bytes({0x01, 0x00, 0x00, 0x00, 0xFE, 0xFF, 0xFF, 0xFF});
  EXPECT_EQ(EncodePage<int32_t>(P::kInt32, E::kPlain, {1, -2}), i32);
  Status st;
  EXPECT_EQ(DecodePage<int32_t>(P::kInt32, E::kPlain, i32, 2, &st), (std::vector<int32_t>{1, -2}));
  Buffer i64 = Bytes({0x08, 0x07, 0x06, 0x05, 0x04, 0x03, 0x02, 0x81});
  EXPECT_EQ(DecodePage<int64_t>(P::kInt64, E::kPlain, i64, 1, &st)[0],
            static_cast<int64_t>(0x8102030405060708ULL));
  Buffer f = Bytes({0x00, 0x00, 0xC0, 0x3F});  // 1.5f
  EXPECT_EQ(DecodePage<float>(P::kFloat, E::kPlain, f, 1, &st)[0], 1.5f);
  Buffer d = Bytes({0, 0, 0, 0, 0, 0, 0x04, 0xC0});  // -2.5
  EXPECT_EQ(DecodePage<double>(P::kDouble, E::kPlain, d, 1, &st)[0], -2.5);
  Buffer i96 = Bytes({1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0});
  Int96 v = DecodePage<Int96>(P::kInt96, E::kPlain, i96, 1, &st)[0];
  EXPECT_EQ(v.value[0], 1u);
  EXPECT_EQ(v.value[1], 2u);
  EXPECT_EQ(v.value[2], 3u);
  EXPECT_EQ(EncodePage<Int96>(P::kInt96, E::kPlain, {v}), i96);
}

TEST(PlainTest, ByteArrayHasLengthPrefixesAndPointsIntoThePage) {
  std::string hello = "Hello", empty;
  Buffer golden = Bytes({5, 0, 0, 0, 'H', 'e', 'l', 'l', 'o', 0, 0, 0, 0});
  EXPECT_EQ(EncodePage<ByteArray>(P::kByteArray, E::kPlain, {BA(hello), BA(empty)}), golden);
  auto dec = MakeDecoder<ByteArray>(P::kByteArray, E::kPlain, 0);
  ASSERT_TRUE((*dec)->SetData(golden, 2).ok());
  ByteArray out[2];
  ASSERT_EQ(*(*dec)->Decode(out, 2), 2);
  EXPECT_EQ(out[0].view(), "Hello");
  EXPECT_EQ(out[0].ptr, golden.data() + 4);  // no copy
  EXPECT_EQ(out[1].len, 0u);
  EXPECT_EQ((*dec)->storage(), nullptr);
}

TEST(PlainTest, ByteArrayWithCStringsPointsIntoTheCopy) {
  // Values "ab", "", "xyz", "q": the page, and the same values as C strings (Page::c_strings).
  Buffer page = Bytes({2, 0, 0, 0, 'a', 'b', 0, 0, 0, 0, 3, 0, 0, 0, 'x', 'y', 'z', 1, 0, 0, 0, 'q'});
  const std::string copy("ab\0\0xyz\0q\0", 10);
  const auto* c = reinterpret_cast<const uint8_t*>(copy.data());
  auto dec = MakeDecoder<ByteArray>(P::kByteArray, E::kPlain, 0);
  ASSERT_TRUE((*dec)->SetData(page, 4).ok());
  ASSERT_TRUE((*dec)->UseCStrings(c));
  // Decoded and skipped in pieces: each value where the copy holds it, whatever came before.
  ByteArray out[4];
  ASSERT_EQ(*(*dec)->Decode(out, 1), 1);
  EXPECT_EQ(out[0].ptr, c);
  EXPECT_EQ(out[0].view(), "ab");
  ASSERT_EQ(*(*dec)->Skip(1), 1);
  ASSERT_EQ(*(*dec)->Decode(out + 2, 5), 2);
  EXPECT_EQ(out[2].ptr, c + 4);
  EXPECT_EQ(out[2].view(), "xyz");
  EXPECT_EQ(out[3].ptr, c + 8);
  EXPECT_EQ(out[3].view(), "q");
  // The next page, without a copy: values point into it again.
  ASSERT_TRUE((*dec)->SetData(page, 2).ok());
  ASSERT_EQ(*(*dec)->Decode(out, 2), 2);
  EXPECT_EQ(out[0].ptr, page.data() + 4);
  EXPECT_EQ(out[1].ptr, page.data() + 10);
  // A copy after a skip at the start of a page.
  ASSERT_TRUE((*dec)->SetData(page, 4).ok());
  ASSERT_TRUE((*dec)->UseCStrings(c));
  ASSERT_EQ(*(*dec)->Skip(2), 2);
  ASSERT_EQ(*(*dec)->Decode(out, 2), 2);
  EXPECT_EQ(out[0].ptr, c + 4);
  EXPECT_EQ(out[1].ptr, c + 8);
  // Only PLAIN BYTE_ARRAY decoders take a copy.
  auto delta = MakeDecoder<ByteArray>(P::kByteArray, E::kDeltaLengthByteArray, 0);
  ASSERT_TRUE(delta.ok());
  EXPECT_FALSE((*delta)->UseCStrings(c));
}

TEST(PlainTest, ByteArrayLengthPastTheEndIsCorruption) {
  Status st;
  DecodePage<ByteArray>(P::kByteArray, E::kPlain, Bytes({6, 0, 0, 0, 'H', 'e', 'l', 'l', 'o'}), 1,
                        &st);
  EXPECT_TRUE(st.IsCorruption());
  DecodePage<ByteArray>(P::kByteArray, E::kPlain, Bytes({0xFF, 0xFF, 0xFF, 0xFF, 'x', 0, 0, 0}), 2,
                        &st);
  EXPECT_TRUE(st.IsCorruption());
  // Skip walks the lengths too.
  Buffer page = Bytes({1, 0, 0, 0, 'a', 9, 0, 0, 0, 'b'});
  auto dec = MakeDecoder<ByteArray>(P::kByteArray, E::kPlain, 0);
  ASSERT_TRUE((*dec)->SetData(page, 2).ok());
  EXPECT_EQ(*(*dec)->Skip(1), 1);
  EXPECT_TRUE((*dec)->Skip(1).status().IsCorruption());
}

TEST(PlainTest, FixedLenByteArrayIsBareBytes) {
  std::string a = "abc", b = "xyz";
  Buffer golden = Bytes({'a', 'b', 'c', 'x', 'y', 'z'});
  EXPECT_EQ(EncodePage<ByteArray>(P::kFixedLenByteArray, E::kPlain, {BA(a), BA(b)}, 3), golden);
  auto dec = MakeDecoder<ByteArray>(P::kFixedLenByteArray, E::kPlain, 3);
  ASSERT_TRUE((*dec)->SetData(golden, 2).ok());
  ByteArray out[2];
  ASSERT_EQ(*(*dec)->Decode(out, 2), 2);
  EXPECT_EQ(out[1].view(), "xyz");
  EXPECT_EQ(out[1].ptr, golden.data() + 3);
  Status st;
  DecodePage<ByteArray>(P::kFixedLenByteArray, E::kPlain, golden, 3, &st, 3);
  EXPECT_TRUE(st.IsCorruption());
}

TEST(PlainTest, FixedWidthPagesTooShortAreCorruptionAtSetData) {
  auto dec = MakeDecoder<int64_t>(P::kInt64, E::kPlain, 0);
  Buffer seven(7, 0);
  EXPECT_TRUE((*dec)->SetData(seven, 1).IsCorruption());
  EXPECT_TRUE((*dec)->SetData(seven, 0).ok());
  EXPECT_TRUE((*dec)->SetData(seven, -1).IsInvalidArgument());
  // A huge count does not overflow the size check.
  EXPECT_TRUE((*dec)->SetData(seven, INT64_MAX).IsCorruption());
}

TEST(PlainTest, SkipAdvancesFixedWidthValues) {
  std::vector<int32_t> values(100);
  for (int i = 0; i < 100; ++i) values[i] = i * 3;
  Buffer page = EncodePage<int32_t>(P::kInt32, E::kPlain, values);
  auto dec = MakeDecoder<int32_t>(P::kInt32, E::kPlain, 0);
  ASSERT_TRUE((*dec)->SetData(page, 100).ok());
  EXPECT_EQ(*(*dec)->Skip(98), 98);
  int32_t out[5];
  EXPECT_EQ(*(*dec)->Decode(out, 5), 2);
  EXPECT_EQ(out[0], 294);
  EXPECT_EQ(out[1], 297);
  EXPECT_EQ(*(*dec)->Skip(3), 0);
}

TEST(RleBooleanTest, LengthPrefixThenRunsOfWidthOne) {
  // 10 trues then 3 falses: RLE run of 10 (header 0x14, value 1); then the three falses as a
  // bit-packed group (header 0x03, one byte 0).
  const std::vector<uint8_t> values = {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0};
  Buffer golden = Bytes({4, 0, 0, 0, 0x14, 0x01, 0x03, 0x00});
  EXPECT_EQ(EncodePage<uint8_t>(P::kBoolean, E::kRle, values), golden);
  Status st;
  EXPECT_EQ(DecodePage<uint8_t>(P::kBoolean, E::kRle, golden, 13, &st), values);
  EXPECT_TRUE(st.ok());
}

TEST(RleBooleanTest, BadLengthOrValuesAreCorruption) {
  Status st;
  DecodePage<uint8_t>(P::kBoolean, E::kRle, Bytes({9, 0, 0, 0, 0x14, 0x01}), 10, &st);
  EXPECT_TRUE(st.IsCorruption());  // length past the page
  DecodePage<uint8_t>(P::kBoolean, E::kRle, Bytes({2, 0, 0}), 1, &st);
  EXPECT_TRUE(st.IsCorruption());  // no room for the length
  DecodePage<uint8_t>(P::kBoolean, E::kRle, Bytes({2, 0, 0, 0, 0x14, 0x02}), 10, &st);
  EXPECT_TRUE(st.IsCorruption());  // RLE value 2 in a 1-bit run
  // Runs are read only up to the length: bytes after it are not values.
  DecodePage<uint8_t>(P::kBoolean, E::kRle, Bytes({2, 0, 0, 0, 0x14, 0x01, 0x14, 0x01}), 20, &st);
  EXPECT_TRUE(st.IsCorruption());
}

}  // namespace
}  // namespace pq
