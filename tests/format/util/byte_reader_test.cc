#include "format/util/byte_reader.h"

#include <gtest/gtest.h>

#include <vector>

namespace pq {
namespace {

TEST(ByteReaderTest, ReadsWithinBoundsAndRefusesPastEnd) {
  std::vector<uint8_t> data = {1, 2, 3, 4, 5};
  ByteReader r(data);
  ASSERT_EQ(*r.ReadU8(), 1);
  auto v = r.ReadLE<uint32_t>();
  ASSERT_TRUE(v.ok());
  EXPECT_EQ(*v, 0x05040302u);
  EXPECT_TRUE(r.empty());
  auto bad = r.ReadU8();
  EXPECT_FALSE(bad.ok());
  EXPECT_TRUE(bad.status().IsCorruption());
  EXPECT_FALSE(r.Skip(1).ok());
}

TEST(ByteReaderTest, Uleb128AndZigZag) {
  std::vector<uint8_t> data = {0xE5, 0x8E, 0x26, 0x03, 0x04};
  ByteReader r(data);
  EXPECT_EQ(*r.ReadUleb128(), 624485u);
  EXPECT_EQ(*r.ReadZigZag32(), -2);
  EXPECT_EQ(*r.ReadZigZag64(), 2);
}

TEST(ByteReaderTest, OverlongVarintIsCorruption) {
  std::vector<uint8_t> data(6, 0x80);
  data.push_back(0);
  ByteReader r(data);
  EXPECT_TRUE(r.ReadUleb128U32().status().IsCorruption());
  std::vector<uint8_t> trunc = {0x80, 0x80};
  ByteReader t(trunc);
  EXPECT_FALSE(t.ReadUleb128().ok());
}

TEST(StatusTest, ContextPrefixesMessage) {
  Status s = Status::Corruption("bad page").WithContext("f.parquet, row group 1");
  EXPECT_EQ(s.ToString(), "Corruption: f.parquet, row group 1: bad page");
  EXPECT_TRUE(Status::OK().WithContext("x").ok());
}

}  // namespace
}  // namespace pq
