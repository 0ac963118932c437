// DELTA_LENGTH_BYTE_ARRAY and DELTA_BYTE_ARRAY: the spec's examples and bad lengths.

#include <gtest/gtest.h>

#include <vector>

#include "encoding_test_util.h"
#include "format/encoding/delta_binary_packed.h"

namespace pq {
namespace {

using testing::BA;
using testing::Bytes;
using testing::DecodeAll;
using testing::ExactCopy;
using P = PhysicalType;
using E = Encoding;

Buffer Append(Buffer a, const Buffer& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}
Buffer Text(const std::string& s) {
  return Buffer(s.begin(), s.end());
}

// A DELTA_BINARY_PACKED stream of 32-bit values (lengths).
Buffer Lengths(const std::vector<int32_t>& values) {
  delta::DeltaBinaryPackedWriter<uint32_t> w;
  for (int32_t v : values) w.Put(static_cast<uint32_t>(v));
  Buffer out;
  w.FinishTo(&out);
  return out;
}

std::vector<std::string> DecodeStrings(E encoding, const Buffer& page, int64_t n, Status* st,
                                       P type = P::kByteArray, int32_t type_length = 0) {
  auto exact = ExactCopy(page);
  auto dec = MakeDecoder<ByteArray>(type, encoding, type_length);
  EXPECT_TRUE(dec.ok()) << dec.status().ToString();
  std::vector<ByteArray> out;
  *st = (*dec)->SetData(ByteSpan(exact.get(), page.size()), n);
  if (st->ok()) *st = DecodeAll(dec->get(), &out, 3);
  std::vector<std::string> strings;
  for (auto& v : out) strings.emplace_back(v.view());
  return strings;
}

Buffer EncodeStrings(E encoding, const std::vector<std::string>& strings, P type = P::kByteArray,
                     int32_t type_length = 0) {
  std::vector<ByteArray> values;
  for (auto& s : strings) values.push_back(BA(s));
  auto enc = MakeEncoder<ByteArray>(type, encoding, type_length);
  EXPECT_TRUE((*enc)->Put(values.data(), static_cast<int64_t>(values.size())).ok());
  return (*enc)->FlushValues();
}

TEST(DeltaLengthByteArrayTest, SpecExample) {
  // Lengths 5 5 6 6: header (128, 4 miniblocks, 4 values, first 5 -> zigzag 10), min delta 0,
  // width 1 for relative deltas 0 1 0 (LSB first 0b010), 4 bytes of miniblock; then the bytes.
  std::vector<std::string> strings = {"Hello", "World", "Foobar", "ABCDEF"};
  Buffer golden = Append(
      Bytes({0x80, 0x01, 0x04, 0x04, 0x0A, 0x00, 0x01, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00}),
      Text("HelloWorldFoobarABCDEF"));
  EXPECT_EQ(EncodeStrings(E::kDeltaLengthByteArray, strings), golden);
  Status st;
  EXPECT_EQ(DecodeStrings(E::kDeltaLengthByteArray, golden, 4, &st), strings);
  EXPECT_TRUE(st.ok()) << st.ToString();
}

TEST(DeltaLengthByteArrayTest, ValuesPointIntoThePage) {
  Buffer page = Append(Lengths({2, 3}), Text("abcde"));
  auto dec = MakeDecoder<ByteArray>(P::kByteArray, E::kDeltaLengthByteArray, 0);
  ASSERT_TRUE((*dec)->SetData(page, 2).ok());
  ByteArray out[2];
  ASSERT_EQ(*(*dec)->Decode(out, 2), 2);
  EXPECT_EQ(out[1].view(), "cde");
  EXPECT_EQ(out[1].ptr, page.data() + page.size() - 3);
  EXPECT_EQ((*dec)->storage(), nullptr);
}

TEST(DeltaLengthByteArrayTest, NegativeOrOverlongLengthsAreCorruption) {
  Status st;
  DecodeStrings(E::kDeltaLengthByteArray, Append(Lengths({-1}), Text("abc")), 1, &st);
  EXPECT_TRUE(st.IsCorruption());
  EXPECT_NE(st.message().find("negative"), std::string::npos) << st.message();
  DecodeStrings(E::kDeltaLengthByteArray, Append(Lengths({2, 4}), Text("abcde")), 2, &st);
  EXPECT_TRUE(st.IsCorruption());
  // Lengths whose last miniblock lacks its padding: the bytes cannot be located.
  Buffer lengths = Lengths({1, 5, 2});  // relative deltas 7 0: one miniblock of width 3
  DecodeStrings(E::kDeltaLengthByteArray, Buffer(lengths.begin(), lengths.end() - 1), 3, &st);
  EXPECT_TRUE(st.IsCorruption());
}

TEST(DeltaByteArrayTest, SpecExample) {
  // Prefix lengths 0 2 0 3: deltas 2 -2 3, min -2 (zigzag 3), relative 4 0 5 at width 3
  // (LSB first: 0x44 0x01, then zeros to 12 bytes). Suffix lengths 4 2 6 5: deltas -2 4 -1,
  // min -2, relative 0 6 1 at width 3 (0x70, then zeros). Then the suffixes.
  std::vector<std::string> strings = {"axis", "axle", "babble", "babyhood"};
  Buffer prefixes = Bytes({0x80, 0x01, 0x04, 0x04, 0x00, 0x03, 0x03, 0x00, 0x00, 0x00, 0x44,
                           0x01, 0,    0,    0,    0,    0,    0,    0,    0,    0,    0});
  Buffer suffix_lengths = Bytes({0x80, 0x01, 0x04, 0x04, 0x08, 0x03, 0x03, 0x00, 0x00, 0x00, 0x70,
                                 0,    0,    0,    0,    0,    0,    0,    0,    0,    0,    0});
  Buffer golden = Append(Append(prefixes, suffix_lengths), Text("axislebabbleyhood"));
  EXPECT_EQ(EncodeStrings(E::kDeltaByteArray, strings), golden);
  Status st;
  EXPECT_EQ(DecodeStrings(E::kDeltaByteArray, golden, 4, &st), strings);
  EXPECT_TRUE(st.ok()) << st.ToString();
}

TEST(DeltaByteArrayTest, PrefixLongerThanThePreviousValueIsCorruption) {
  Buffer page = Append(Append(Lengths({0, 3}), Lengths({2, 1})), Text("abc"));
  Status st;
  DecodeStrings(E::kDeltaByteArray, page, 2, &st);
  EXPECT_TRUE(st.IsCorruption());
  page = Append(Append(Lengths({0, 2}), Lengths({2, 1})), Text("abc"));
  EXPECT_EQ(DecodeStrings(E::kDeltaByteArray, page, 2, &st),
            (std::vector<std::string>{"ab", "abc"}));
  EXPECT_TRUE(st.ok());
  page = Append(Append(Lengths({-1, 0}), Lengths({2, 1})), Text("abc"));
  DecodeStrings(E::kDeltaByteArray, page, 2, &st);
  EXPECT_TRUE(st.IsCorruption());
}

TEST(DeltaByteArrayTest, FixedLenValuesMustHaveTypeLength) {
  Buffer page = EncodeStrings(E::kDeltaByteArray, {"axis", "axle", "babble", "babyhood"});
  Status st;
  auto out = DecodeStrings(E::kDeltaByteArray, page, 2, &st, P::kFixedLenByteArray, 4);
  EXPECT_TRUE(st.ok()) << st.ToString();  // the first two are 4 bytes long
  DecodeStrings(E::kDeltaByteArray, page, 4, &st, P::kFixedLenByteArray, 4);
  EXPECT_TRUE(st.IsCorruption());
  // Encoded as FLBA the same bytes come out.
  Buffer flba =
      EncodeStrings(E::kDeltaByteArray, {"axis", "axle", "abcd"}, P::kFixedLenByteArray, 4);
  EXPECT_EQ(DecodeStrings(E::kDeltaByteArray, flba, 3, &st, P::kFixedLenByteArray, 4),
            (std::vector<std::string>{"axis", "axle", "abcd"}));
}

TEST(DeltaByteArrayTest, StreamsWithDifferentCountsOfferTheSmallest) {
  Buffer page = Append(Append(Lengths({0, 1, 1}), Lengths({2, 1})), Text("abc"));
  auto dec = MakeDecoder<ByteArray>(P::kByteArray, E::kDeltaByteArray, 0);
  ASSERT_TRUE((*dec)->SetData(page, 10).ok());
  EXPECT_EQ((*dec)->values_left(), 2);
}

TEST(DeltaByteArrayTest, RebuiltValuesOverTheCapAreOutOfMemory) {
  // One 60000-byte value, then 20000 values repeating it through the prefix: 1.2 GB rebuilt.
  std::vector<int32_t> prefixes(20000, 60000), suffixes(20000, 0);
  prefixes[0] = 0;
  suffixes[0] = 60000;
  Buffer page = Append(Append(Lengths(prefixes), Lengths(suffixes)), Buffer(60000, 'x'));
  auto dec = MakeDecoder<ByteArray>(P::kByteArray, E::kDeltaByteArray, 0);
  Status st = (*dec)->SetData(page, 20000);
  EXPECT_EQ(st.code(), StatusCode::kOutOfMemory) << st.ToString();
  // 100 of them fit.
  EXPECT_TRUE((*dec)->SetData(page, 100).ok());
}

TEST(DeltaByteArrayTest, SkipStillRebuildsPrefixes) {
  std::vector<std::string> strings;
  for (int i = 0; i < 500; ++i)
    strings.push_back("common-prefix-" + std::to_string(i * 7919 % 1000));
  Buffer page = EncodeStrings(E::kDeltaByteArray, strings);
  auto dec = MakeDecoder<ByteArray>(P::kByteArray, E::kDeltaByteArray, 0);
  ASSERT_TRUE((*dec)->SetData(page, 500).ok());
  ASSERT_EQ(*(*dec)->Skip(321), 321);
  ByteArray v;
  ASSERT_EQ(*(*dec)->Decode(&v, 1), 1);
  EXPECT_EQ(v.view(), strings[321]);
}

}  // namespace
}  // namespace pq
