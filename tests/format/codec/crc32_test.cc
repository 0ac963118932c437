#include "format/util/crc32.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace pq {
namespace {

TEST(Crc32Test, CheckValueOfTheStandardCrc32) {
  // The catalogued check value of CRC-32/ISO-HDLC (the gzip/zlib CRC) for "123456789".
  EXPECT_EQ(Crc32(AsBytes("123456789")), 0xCBF43926u);
}

TEST(Crc32Test, KnownSmallValues) {
  EXPECT_EQ(Crc32(ByteSpan{}), 0u);
  EXPECT_EQ(Crc32(AsBytes("a")), 0xE8B7BE43u);
  std::vector<uint8_t> zeros(32, 0);
  EXPECT_EQ(Crc32(zeros), 0x190A55ADu);
}

TEST(Crc32Test, ContinuesAcrossPieces) {
  std::string text = "The quick brown fox jumps over the lazy dog";
  uint32_t whole = Crc32(AsBytes(text));
  EXPECT_EQ(whole, 0x414FA339u);
  for (size_t split = 0; split <= text.size(); ++split) {
    ByteSpan bytes = AsBytes(text);
    uint32_t first = Crc32(bytes.first(split));
    EXPECT_EQ(Crc32(bytes.subspan(split), first), whole) << "split at " << split;
  }
}

TEST(Crc32Test, DetectsEverySingleBitFlip) {
  std::vector<uint8_t> data(257);
  for (size_t i = 0; i < data.size(); ++i) data[i] = static_cast<uint8_t>(i * 37 + 11);
  uint32_t original = Crc32(data);
  for (size_t bit = 0; bit < data.size() * 8; ++bit) {
    data[bit / 8] ^= static_cast<uint8_t>(1u << (bit % 8));
    EXPECT_NE(Crc32(data), original) << "bit " << bit;
    data[bit / 8] ^= static_cast<uint8_t>(1u << (bit % 8));
  }
}

}  // namespace
}  // namespace pq
