// BYTE_STREAM_SPLIT: the spec's example for every type with K = 4, and bad page sizes.

#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "encoding_test_util.h"

namespace pq {
namespace {

using testing::Bytes;
using testing::DecodeAll;
using P = PhysicalType;
using E = Encoding;

// The spec's three 32-bit elements: AA BB CC DD / 00 11 22 33 / A3 B4 C5 D6.
const Buffer kRaw = Bytes({0xAA, 0xBB, 0xCC, 0xDD, 0x00, 0x11, 0x22, 0x33, 0xA3, 0xB4, 0xC5, 0xD6});
const Buffer kSplit =
    Bytes({0xAA, 0x00, 0xA3, 0xBB, 0x11, 0xB4, 0xCC, 0x22, 0xC5, 0xDD, 0x33, 0xD6});

template <typename T>
void CheckSpecExample(P type, int32_t type_length) {
  std::vector<T> values(3);
  std::vector<std::string> strings;
  if constexpr (std::is_same_v<T, ByteArray>) {
    for (int i = 0; i < 3; ++i)
      strings.emplace_back(kRaw.begin() + 4 * i, kRaw.begin() + 4 * i + 4);
    for (int i = 0; i < 3; ++i) values[i] = testing::BA(strings[i]);
  } else {
    std::memcpy(values.data(), kRaw.data(), 12);
  }
  auto enc = MakeEncoder<T>(type, E::kByteStreamSplit, type_length);
  ASSERT_TRUE((*enc)->Put(values.data(), 3).ok());
  EXPECT_EQ((*enc)->FlushValues(), kSplit);

  auto dec = MakeDecoder<T>(type, E::kByteStreamSplit, type_length);
  ASSERT_TRUE((*dec)->SetData(kSplit, 3).ok());
  std::vector<T> out;
  ASSERT_TRUE(DecodeAll(dec->get(), &out).ok());
  ASSERT_EQ(out.size(), 3u);
  for (int i = 0; i < 3; ++i) {
    if constexpr (std::is_same_v<T, ByteArray>) {
      EXPECT_EQ(out[i].view(), strings[i]);
    } else {
      EXPECT_EQ(std::memcmp(&out[i], kRaw.data() + 4 * i, 4), 0);
    }
  }
}

TEST(ByteStreamSplitTest, SpecExampleForFloatInt32AndFixedLen) {
  CheckSpecExample<float>(P::kFloat, 0);
  CheckSpecExample<int32_t>(P::kInt32, 0);
  CheckSpecExample<ByteArray>(P::kFixedLenByteArray, 4);
}

TEST(ByteStreamSplitTest, EightByteValues) {
  std::vector<int64_t> values = {0x0807060504030201LL, 0x1817161514131211LL};
  auto enc = MakeEncoder<int64_t>(P::kInt64, E::kByteStreamSplit, 0);
  ASSERT_TRUE((*enc)->Put(values.data(), 2).ok());
  Buffer page = (*enc)->FlushValues();
  EXPECT_EQ(page, Bytes({0x01, 0x11, 0x02, 0x12, 0x03, 0x13, 0x04, 0x14, 0x05, 0x15, 0x06, 0x16,
                         0x07, 0x17, 0x08, 0x18}));
  auto dec = MakeDecoder<double>(P::kDouble, E::kByteStreamSplit, 0);
  ASSERT_TRUE((*dec)->SetData(page, 2).ok());
  ASSERT_EQ(*(*dec)->Skip(1), 1);
  double d;
  ASSERT_EQ(*(*dec)->Decode(&d, 1), 1);
  EXPECT_EQ(std::memcmp(&d, &values[1], 8), 0);
}

TEST(ByteStreamSplitTest, PageSizeMustBeAMultipleOfKAndHoldTheValues) {
  auto dec = MakeDecoder<float>(P::kFloat, E::kByteStreamSplit, 0);
  EXPECT_TRUE((*dec)->SetData(Buffer(13, 0), 3).IsCorruption());
  EXPECT_TRUE((*dec)->SetData(Buffer(12, 0), 4).IsCorruption());
  EXPECT_TRUE((*dec)->SetData(Buffer(12, 0), 3).ok());
  auto flba = MakeDecoder<ByteArray>(P::kFixedLenByteArray, E::kByteStreamSplit, 5);
  EXPECT_TRUE((*flba)->SetData(Buffer(12, 0), 2).IsCorruption());
  EXPECT_TRUE((*flba)->SetData(Buffer(15, 0), 3).ok());
}

TEST(ByteStreamSplitTest, StreamsLongerThanThePageValuesKeepTheirStride) {
  // N = 3 streams of a page whose caller wants only 2 values: stream b still starts at b * 3.
  auto dec = MakeDecoder<int32_t>(P::kInt32, E::kByteStreamSplit, 0);
  ASSERT_TRUE((*dec)->SetData(kSplit, 2).ok());
  int32_t out[2];
  ASSERT_EQ(*(*dec)->Decode(out, 2), 2);
  EXPECT_EQ(std::memcmp(out, kRaw.data(), 8), 0);
}

}  // namespace
}  // namespace pq
