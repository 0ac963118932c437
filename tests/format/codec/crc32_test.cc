#include "format/util/crc32.h"

#include <gtest/gtest.h>
#include <zlib.h>

#include <random>
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

// Long inputs go through the folding with carry-less multiplication where the CPU has it: every
// length around its thresholds and block sizes, at every alignment, from random starting CRCs, and
// a few MB, give zlib's table-driven CRC.
TEST(Crc32Test, LongInputsAgreeWithZlibAtEveryLengthAndAlignment) {
  std::mt19937_64 rng(5);
  std::vector<uint8_t> data((size_t{4} << 20) + 64);
  for (uint8_t& b : data) b = static_cast<uint8_t>(rng());
  auto zlib = [](uint32_t crc, const uint8_t* p, size_t n) {
    return n == 0 ? crc : static_cast<uint32_t>(crc32_z(crc, p, n));
  };
  for (size_t n = 0; n <= 1200; ++n) {
    for (size_t offset : {size_t{0}, size_t{1}, size_t{7}, size_t{13}}) {
      const uint32_t start = n % 3 == 0 ? 0u : static_cast<uint32_t>(rng());
      ASSERT_EQ(Crc32(ByteSpan(data.data() + offset, n), start), zlib(start, data.data() + offset, n))
          << "length " << n << " offset " << offset;
    }
  }
  for (size_t n : {size_t{1} << 16, (size_t{1} << 20) + 48, data.size() - 3}) {
    EXPECT_EQ(Crc32(ByteSpan(data.data() + 3, n)), zlib(0, data.data() + 3, n)) << n;
  }
  // All zeros and all ones (the folding's products of zero blocks, and of the complemented start).
  std::vector<uint8_t> zeros(4096, 0), ones(4096, 0xFF);
  EXPECT_EQ(Crc32(zeros), zlib(0, zeros.data(), zeros.size()));
  EXPECT_EQ(Crc32(ones), zlib(0, ones.data(), ones.size()));
}

}  // namespace
}  // namespace pq
