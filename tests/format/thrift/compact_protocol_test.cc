// CompactReader / CompactWriter: the wire format of the Thrift compact protocol specification,
// checked against bytes worked out by hand from its rules.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "format/thrift/compact_reader.h"
#include "format/thrift/compact_writer.h"

namespace pq::thrift {
namespace {

std::vector<uint8_t> Bytes(std::initializer_list<int> list) {
  std::vector<uint8_t> v;
  for (int b : list) v.push_back(static_cast<uint8_t>(b));
  return v;
}

ByteSpan Span(const std::string& s) {
  return AsBytes(s);
}

TEST(CompactReaderTest, ShortAndLongFieldHeaders) {
  // field 1 i32 (short, delta 1); field 4 i64 (short, delta 3); field 20 struct (long form: type
  // byte 0x0C then zigzag(20) = 40); field 19 binary (long form because the id goes down:
  // zigzag(19) = 38); field -1 bool true (long form, zigzag(-1) = 1); stop.
  auto data = Bytes({0x15, 0x36, 0x0C, 0x28, 0x08, 0x26, 0x01, 0x01, 0x00});
  CompactReader r(data);
  auto f1 = r.ReadFieldHeader(0);
  ASSERT_TRUE(f1.ok());
  EXPECT_EQ(f1->type, CompactType::kI32);
  EXPECT_EQ(f1->id, 1);
  auto f3 = r.ReadFieldHeader(1);
  ASSERT_TRUE(f3.ok());
  EXPECT_EQ(f3->type, CompactType::kI64);
  EXPECT_EQ(f3->id, 4);  // the delta (3) is relative to the previous id passed in (1)
  auto f20 = r.ReadFieldHeader(4);
  ASSERT_TRUE(f20.ok());
  EXPECT_EQ(f20->type, CompactType::kStruct);
  EXPECT_EQ(f20->id, 20);
  auto f19 = r.ReadFieldHeader(20);
  ASSERT_TRUE(f19.ok());
  EXPECT_EQ(f19->type, CompactType::kBinary);
  EXPECT_EQ(f19->id, 19);
  auto fneg = r.ReadFieldHeader(19);
  ASSERT_TRUE(fneg.ok());
  EXPECT_EQ(fneg->type, CompactType::kBoolTrue);
  EXPECT_TRUE(fneg->bool_value());
  EXPECT_EQ(fneg->id, -1);
  auto stop = r.ReadFieldHeader(-1);
  ASSERT_TRUE(stop.ok());
  EXPECT_EQ(stop->type, CompactType::kStop);
  EXPECT_EQ(r.remaining(), 0u);
}

TEST(CompactReaderTest, InvalidFieldTypeAndIdOverflowAreCorruption) {
  auto bad_type = Bytes({0x1E});
  CompactReader r1(bad_type);
  EXPECT_TRUE(r1.ReadFieldHeader(0).status().IsCorruption());
  // Long form id 40000 does not fit i16: zigzag(40000) = 80000 = 0x80 0xF1 0x04.
  auto big_id = Bytes({0x05, 0x80, 0xF1, 0x04});
  CompactReader r2(big_id);
  EXPECT_TRUE(r2.ReadFieldHeader(0).status().IsCorruption());
  // Short form from 32767 overflows i16.
  auto delta = Bytes({0x15});
  CompactReader r3(delta);
  EXPECT_TRUE(r3.ReadFieldHeader(32767).status().IsCorruption());
}

TEST(CompactReaderTest, IntegersZigZagAndDouble) {
  // i32 -1 -> 1; i32 100 -> 200 = C8 01; i64 -3 -> 5; i64 INT64_MIN -> 2^64-1 (ten bytes);
  // i16 -32768 -> 65535 = FF FF 03; i8 -2 raw FE; double 1.5 little endian.
  auto data = Bytes({0x01, 0xC8, 0x01, 0x05, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
                     0x01, 0xFF, 0xFF, 0x03, 0xFE, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xF8, 0x3F});
  CompactReader r(data);
  EXPECT_EQ(*r.ReadI32(), -1);
  EXPECT_EQ(*r.ReadI32(), 100);
  EXPECT_EQ(*r.ReadI64(), -3);
  EXPECT_EQ(*r.ReadI64(), INT64_MIN);
  EXPECT_EQ(*r.ReadI16(), -32768);
  EXPECT_EQ(*r.ReadI8(), -2);
  EXPECT_EQ(*r.ReadDouble(), 1.5);
  EXPECT_EQ(r.remaining(), 0u);
}

TEST(CompactReaderTest, OverlongVarintsAreCorruption) {
  // An i32 in six bytes.
  auto i32 = Bytes({0x80, 0x80, 0x80, 0x80, 0x80, 0x01});
  CompactReader r1(i32);
  EXPECT_TRUE(r1.ReadI32().status().IsCorruption());
  // An i32 whose five bytes exceed 32 bits.
  auto i32big = Bytes({0xFF, 0xFF, 0xFF, 0xFF, 0x1F});
  CompactReader r2(i32big);
  EXPECT_TRUE(r2.ReadI32().status().IsCorruption());
  // An i64 in eleven bytes.
  std::vector<uint8_t> i64(10, 0x80);
  i64.push_back(0x01);
  CompactReader r3(i64);
  EXPECT_TRUE(r3.ReadI64().status().IsCorruption());
  // An i16 out of range: zigzag 65536.
  auto i16 = Bytes({0x80, 0x80, 0x04});
  CompactReader r4(i16);
  EXPECT_TRUE(r4.ReadI16().status().IsCorruption());
}

TEST(CompactReaderTest, BinaryLengthCheckedAgainstRemainingBytes) {
  auto ok = Bytes({0x03, 'a', 'b', 'c', 0x00});
  CompactReader r(ok);
  std::string s;
  ASSERT_TRUE(r.ReadString(&s).ok());
  EXPECT_EQ(s, "abc");
  ASSERT_TRUE(r.ReadString(&s).ok());
  EXPECT_EQ(s, "");
  auto bad = Bytes({0x04, 'a', 'b', 'c'});
  CompactReader r2(bad);
  EXPECT_TRUE(r2.ReadBinary().status().IsCorruption());
  // A length of 2^32-1 on a 6-byte input.
  auto huge = Bytes({0xFF, 0xFF, 0xFF, 0xFF, 0x0F, 0x00});
  CompactReader r3(huge);
  EXPECT_TRUE(r3.ReadBinary().status().IsCorruption());
}

TEST(CompactReaderTest, ListHeaders) {
  // 3 x i32 in the short form.
  auto small = Bytes({0x35, 0x02, 0x04, 0x06});
  CompactReader r1(small);
  auto h1 = r1.ReadListHeader();
  ASSERT_TRUE(h1.ok());
  EXPECT_EQ(h1->size, 3u);
  EXPECT_EQ(h1->element_type, CompactType::kI32);

  // 20 x i8: size 15 in the nibble means a varint size follows.
  std::vector<uint8_t> big = {0xF3, 20};
  for (int i = 0; i < 20; ++i) big.push_back(static_cast<uint8_t>(i));
  CompactReader r2(big);
  auto h2 = r2.ReadListHeader();
  ASSERT_TRUE(h2.ok());
  EXPECT_EQ(h2->size, 20u);
  for (int i = 0; i < 20; ++i) EXPECT_EQ(*r2.ReadI8(), i);

  // Exactly 15 elements need the long form too.
  std::vector<uint8_t> fifteen = {0xF5, 15};
  fifteen.resize(2 + 15, 0x00);
  CompactReader r3(fifteen);
  EXPECT_EQ(r3.ReadListHeader()->size, 15u);

  // Bool elements may be written as type 1 or 2; both read as bool.
  auto bools1 = Bytes({0x21, 0x01, 0x00});
  auto bools2 = Bytes({0x22, 0x01, 0x00});
  for (auto* d : {&bools1, &bools2}) {
    CompactReader r(*d);
    auto h = r.ReadListHeader();
    ASSERT_TRUE(h.ok());
    EXPECT_EQ(h->element_type, CompactType::kBoolTrue);
    EXPECT_TRUE(*r.ReadBoolElement());
    EXPECT_FALSE(*r.ReadBoolElement());
  }
}

TEST(CompactReaderTest, ListSizesAreCheckedBeforeAnyAllocation) {
  // 2^31 - 1 i32 elements claimed by a 7-byte input.
  auto claim = Bytes({0xF5, 0xFF, 0xFF, 0xFF, 0xFF, 0x07, 0x00});
  CompactReader r1(claim);
  EXPECT_TRUE(r1.ReadListHeader().status().IsCorruption());
  // 2^31 is a negative Thrift size.
  auto neg = Bytes({0xF5, 0x80, 0x80, 0x80, 0x80, 0x08});
  CompactReader r2(neg);
  EXPECT_TRUE(r2.ReadListHeader().status().IsCorruption());
  // Doubles take 8 bytes each: 2 doubles need 16 bytes, 15 are there.
  std::vector<uint8_t> doubles = {0x27};
  doubles.resize(1 + 15, 0);
  CompactReader r3(doubles);
  EXPECT_TRUE(r3.ReadListHeader().status().IsCorruption());
  // Uuids take 16 bytes each.
  std::vector<uint8_t> uuids = {0x1D};
  uuids.resize(1 + 15, 0);
  CompactReader r4(uuids);
  EXPECT_TRUE(r4.ReadListHeader().status().IsCorruption());
  // A map of 5 pairs needs at least 10 bytes.
  auto map = Bytes({0x05, 0x55, 1, 2, 3, 4, 5, 6, 7, 8, 9});
  CompactReader r5(map);
  EXPECT_TRUE(r5.ReadMapHeader().status().IsCorruption());
  // An invalid element type in a non-empty list.
  auto bad_type = Bytes({0x1F, 0x00});
  CompactReader r6(bad_type);
  EXPECT_TRUE(r6.ReadListHeader().status().IsCorruption());
  // An empty list may carry any element type.
  auto empty = Bytes({0x00});
  CompactReader r7(empty);
  auto h = r7.ReadListHeader();
  ASSERT_TRUE(h.ok());
  EXPECT_EQ(h->size, 0u);
}

// A struct holding one field of every type, each with nested content where the type allows, to be
// skipped as a whole. Built by hand:
//   1: bool true            0x11
//   2: bool false           0x12
//   3: i8 7                 0x13 07
//   4: i16 -2               0x14 03
//   5: i32 300              0x15 D8 04
//   6: i64 -1               0x16 01
//   7: double 0.0           0x17 00*8
//   8: binary "xy"          0x18 02 'x' 'y'
//   9: list<list<i32>>      0x19 | 0x29 (2 lists) | 0x15 02 (one i32: 1) | 0x05 (empty list of i32)
//  10: set<binary>          0x1A | 0x18 | 01 'z'
//  11: map<i32, struct>     0x1B | 02 (2 pairs) 0x5C | 02 {0x15 02 0x00} | 04 {0x00}
//  12: struct{1: list<bool> [true,false] (type 2), 2: map empty, 3: uuid}
//                           0x1C | 0x19 0x22 01 00 | 0x1B 00 | 0x1D 16 bytes | 0x00
//  13: uuid                 0x1D 16 bytes
//  25: struct (long form)   0x0C 50 (zigzag 25) | 0x00
//  stop                     0x00
std::vector<uint8_t> EveryTypeStruct() {
  std::vector<uint8_t> v = {0x11, 0x12, 0x13, 0x07, 0x14, 0x03, 0x15, 0xD8, 0x04, 0x16, 0x01, 0x17};
  v.insert(v.end(), 8, 0x00);
  std::vector<uint8_t> rest = {0x18, 0x02, 'x',  'y',  0x19, 0x29, 0x15, 0x02, 0x05, 0x1A,
                               0x18, 0x01, 'z',  0x1B, 0x02, 0x5C, 0x02, 0x15, 0x02, 0x00,
                               0x04, 0x00, 0x1C, 0x19, 0x22, 0x01, 0x00, 0x1B, 0x00, 0x1D};
  v.insert(v.end(), rest.begin(), rest.end());
  for (int i = 0; i < 16; ++i) v.push_back(static_cast<uint8_t>(0xA0 + i));
  v.push_back(0x00);  // end of field 12's struct
  v.push_back(0x1D);
  for (int i = 0; i < 16; ++i) v.push_back(static_cast<uint8_t>(0xB0 + i));
  v.push_back(0x0C);
  v.push_back(50);
  v.push_back(0x00);
  v.push_back(0x00);  // stop
  return v;
}

TEST(CompactReaderTest, SkipsEveryTypeIncludingMapSetUuid) {
  std::vector<uint8_t> data = EveryTypeStruct();
  data.push_back(0x42);  // a byte after the struct, to check where skipping stopped
  CompactReader r(data);
  ASSERT_TRUE(r.SkipField(CompactType::kStruct).ok());
  EXPECT_EQ(r.remaining(), 1u);
  EXPECT_EQ(*r.ReadI8(), 0x42);
}

TEST(CompactReaderTest, SkippingATruncatedStructFailsAtEveryLength) {
  const std::vector<uint8_t> full = EveryTypeStruct();
  for (size_t n = 0; n < full.size(); ++n) {
    std::vector<uint8_t> prefix(full.begin(), full.begin() + static_cast<ptrdiff_t>(n));
    CompactReader r(prefix);
    EXPECT_FALSE(r.SkipField(CompactType::kStruct).ok()) << "prefix of " << n << " bytes";
  }
}

TEST(CompactReaderTest, DepthBombsAreRefused) {
  // 100 nested structs: field 1 struct, field 1 struct, ...
  std::vector<uint8_t> structs(100, 0x1C);
  structs.insert(structs.end(), 101, 0x00);
  CompactReader r1(structs);
  Status s1 = r1.SkipField(CompactType::kStruct);
  EXPECT_TRUE(s1.IsCorruption());
  EXPECT_NE(s1.message().find("nesting"), std::string::npos) << s1.message();
  // 100 nested lists, each holding one list.
  std::vector<uint8_t> lists(100, 0x19);
  lists.push_back(0x00);
  CompactReader r2(lists);
  EXPECT_TRUE(r2.SkipField(CompactType::kList).IsCorruption());
  // 100 nested maps of i8 -> map.
  std::vector<uint8_t> maps;
  for (int i = 0; i < 100; ++i) {
    maps.insert(maps.end(), {0x01, 0x3B, 0x00});
  }
  maps.push_back(0x00);
  CompactReader r3(maps);
  EXPECT_TRUE(r3.SkipField(CompactType::kMap).IsCorruption());
  // Nesting within the cap is fine: 60 structs.
  std::vector<uint8_t> ok(59, 0x1C);
  ok.insert(ok.end(), 60, 0x00);
  CompactReader r4(ok);
  EXPECT_TRUE(r4.SkipField(CompactType::kStruct).ok());
  EXPECT_EQ(r4.remaining(), 0u);
}

TEST(CompactWriterTest, GoldenBytes) {
  std::string out;
  CompactWriter w(&out);
  w.BeginStruct();
  w.WriteFieldHeader(CompactType::kI32, 1);
  w.WriteI32(-1);
  w.WriteFieldHeader(CompactType::kI64, 3);
  w.WriteI64(150);  // zigzag 300 = AC 02
  w.WriteBoolField(4, true);
  w.WriteBoolField(5, false);
  w.WriteFieldHeader(CompactType::kStruct, 30);  // delta 25: long form
  w.BeginStruct();
  w.WriteFieldHeader(CompactType::kBinary, 2);  // ids restart inside the nested struct
  w.WriteBinary("hi");
  w.EndStruct();
  w.WriteFieldHeader(CompactType::kList, 31);
  w.WriteListHeader(CompactType::kI8, 16);
  for (int i = 0; i < 16; ++i) w.WriteI8(static_cast<int8_t>(i));
  w.WriteFieldHeader(CompactType::kMap, 32);
  w.WriteMapHeader(CompactType::kBinary, CompactType::kI32, 1);
  w.WriteBinary("k");
  w.WriteI32(2);
  w.WriteFieldHeader(CompactType::kMap, 33);
  w.WriteMapHeader(CompactType::kBinary, CompactType::kI32, 0);
  w.WriteFieldHeader(CompactType::kDouble, 34);
  w.WriteDouble(-2.0);
  w.EndStruct();

  std::vector<uint8_t> expected = {0x15, 0x01, 0x26, 0xAC, 0x02, 0x11, 0x12, 0x0C, 0x3C,
                                   0x28, 0x02, 'h',  'i',  0x00, 0x19, 0xF3, 0x10};
  for (int i = 0; i < 16; ++i) expected.push_back(static_cast<uint8_t>(i));
  expected.insert(expected.end(), {0x1B, 0x01, 0x85, 0x01, 'k', 0x04, 0x1B, 0x00, 0x17});
  expected.insert(expected.end(), {0, 0, 0, 0, 0, 0, 0, 0xC0, 0x00});
  EXPECT_EQ(std::vector<uint8_t>(out.begin(), out.end()), expected);

  // And the reader skips it whole.
  CompactReader r(Span(out));
  ASSERT_TRUE(r.SkipField(CompactType::kStruct).ok());
  EXPECT_EQ(r.remaining(), 0u);
}

TEST(CompactWriterTest, RandomScalarsRoundTrip) {
  std::mt19937_64 rng(42);
  std::vector<int64_t> i64s;
  std::vector<int32_t> i32s;
  std::vector<int16_t> i16s;
  for (int i = 0; i < 2000; ++i) {
    const int shift = static_cast<int>(rng() % 64);
    i64s.push_back(static_cast<int64_t>(rng() >> shift));
    i64s.push_back(-static_cast<int64_t>(rng() >> (shift | 1)));
    i32s.push_back(static_cast<int32_t>(static_cast<uint32_t>(rng()) >> (shift % 32)));
    i16s.push_back(static_cast<int16_t>(rng()));
  }
  i64s.insert(i64s.end(), {INT64_MIN, INT64_MAX, 0, -1});
  i32s.insert(i32s.end(), {INT32_MIN, INT32_MAX, 0, -1});
  i16s.insert(i16s.end(), {INT16_MIN, INT16_MAX});
  std::string out;
  CompactWriter w(&out);
  for (int64_t v : i64s) w.WriteI64(v);
  for (int32_t v : i32s) w.WriteI32(v);
  for (int16_t v : i16s) w.WriteI16(v);
  CompactReader r(Span(out));
  for (int64_t v : i64s) ASSERT_EQ(*r.ReadI64(), v);
  for (int32_t v : i32s) ASSERT_EQ(*r.ReadI32(), v);
  for (int16_t v : i16s) ASSERT_EQ(*r.ReadI16(), v);
  EXPECT_EQ(r.remaining(), 0u);
}

TEST(CompactReaderTest, RandomBytesNeverCrashTheSkipper) {
  std::mt19937 rng(7);
  for (int iter = 0; iter < 20000; ++iter) {
    std::vector<uint8_t> data(rng() % 64);
    for (auto& b : data) b = static_cast<uint8_t>(rng());
    CompactReader r(data);
    Status s = r.SkipField(CompactType::kStruct);
    if (s.ok()) {
      EXPECT_LE(r.position(), data.size());
    }
  }
}

}  // namespace
}  // namespace pq::thrift
