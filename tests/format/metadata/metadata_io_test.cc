// Reading and writing the metadata structs: golden bytes worked out by hand from
// the Thrift compact protocol specification and parquet.thrift, round trips of every struct,
// unknown fields and union alternatives, missing required fields, and hostile inputs.
#include "format/metadata/metadata_io.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "format/thrift/compact_writer.h"
#include "tests/format/metadata/allocation_tracker.h"
#include "tests/format/metadata/metadata_test_util.h"
#include "tests/hostile/hostile_files.h"

namespace pq {
namespace {

using thrift::CompactType;
using thrift::CompactWriter;

std::vector<uint8_t> Bytes(std::initializer_list<int> list) {
  std::vector<uint8_t> v;
  for (int b : list) v.push_back(static_cast<uint8_t>(b));
  return v;
}

std::vector<uint8_t> ToVector(const std::string& s) {
  return std::vector<uint8_t>(s.begin(), s.end());
}

// ----------------------------------------------------------------------------------------------
// Golden bytes

// OffsetIndex{[PageLocation{offset 4, compressed_page_size 100, first_row_index -1}]}:
//   19          field 1 list (delta 1, type 9)
//   1C          1 element of type struct
//   16 08       field 1 i64 = zigzag(4) = 8
//   15 C8 01    field 2 i32 = zigzag(100) = 200
//   16 01       field 3 i64 = zigzag(-1) = 1
//   00          end of PageLocation
//   00          end of OffsetIndex
const std::vector<uint8_t> kOffsetIndexBytes =
    Bytes({0x19, 0x1C, 0x16, 0x08, 0x15, 0xC8, 0x01, 0x16, 0x01, 0x00, 0x00});

TEST(MetadataIoTest, OffsetIndexGoldenBytes) {
  OffsetIndex oi;
  size_t consumed = 0;
  ASSERT_TRUE(ReadOffsetIndex(kOffsetIndexBytes, &oi, &consumed).ok());
  EXPECT_EQ(consumed, kOffsetIndexBytes.size());
  ASSERT_EQ(oi.page_locations.size(), 1u);
  EXPECT_EQ(oi.page_locations[0].offset, 4);
  EXPECT_EQ(oi.page_locations[0].compressed_page_size, 100);
  EXPECT_EQ(oi.page_locations[0].first_row_index, -1);
  EXPECT_TRUE(oi.unencoded_byte_array_data_bytes.empty());

  std::string out;
  WriteOffsetIndex(oi, &out);
  EXPECT_EQ(ToVector(out), kOffsetIndexBytes);
}

// FileMetaData{version 1, schema [{name "a", logicalType FILE}], num_rows -3, row_groups []}:
//   15 02        field 1 i32 = 1
//   19 1C        field 2 list, 1 struct
//     48 01 61   field 4 (delta 4) binary "a"
//     6C         field 10 (delta 6) struct: LogicalType
//       0C 26 00 field 19 struct in the long form (delta 19 > 15): zigzag(19) = 38, empty struct
//       00       end of LogicalType
//     00         end of SchemaElement
//   16 05        field 3 i64 = zigzag(-3) = 5
//   19 0C        field 4 list, 0 structs
//   00           end of FileMetaData
const std::vector<uint8_t> kFileMetaDataBytes =
    Bytes({0x15, 0x02, 0x19, 0x1C, 0x48, 0x01, 0x61, 0x6C, 0x0C, 0x26, 0x00, 0x00, 0x00, 0x16, 0x05,
           0x19, 0x0C, 0x00});

TEST(MetadataIoTest, FileMetaDataGoldenBytesWithLongFieldHeader) {
  FileMetaData fmd;
  size_t consumed = 0;
  ASSERT_TRUE(ReadFileMetaData(kFileMetaDataBytes, &fmd, &consumed).ok());
  EXPECT_EQ(consumed, kFileMetaDataBytes.size());
  EXPECT_EQ(fmd.version, 1);
  ASSERT_EQ(fmd.schema.size(), 1u);
  EXPECT_EQ(fmd.schema[0].name, "a");
  ASSERT_TRUE(fmd.schema[0].logical_type.has_value());
  EXPECT_EQ(fmd.schema[0].logical_type->kind, LogicalType::Kind::kFile);
  EXPECT_EQ(fmd.num_rows, -3);
  EXPECT_TRUE(fmd.row_groups.empty());
  EXPECT_FALSE(fmd.has_key_value_metadata);
  EXPECT_FALSE(fmd.created_by.has_value());

  std::string out;
  WriteFileMetaData(fmd, &out);
  EXPECT_EQ(ToVector(out), kFileMetaDataBytes);
}

TEST(MetadataIoTest, LongFormHeadersAreReadEvenWhenAShortOneWouldDo) {
  // PageLocation with every field header in the long form: 06 02 = i64 field 1, and so on.
  auto data = Bytes({0x06, 0x02, 0x08, 0x05, 0x04, 0x0C, 0x06, 0x06, 0x02, 0x00});
  OffsetIndex oi;
  std::vector<uint8_t> wrapped = {0x19, 0x1C};
  wrapped.insert(wrapped.end(), data.begin(), data.end());
  wrapped.push_back(0x00);
  ASSERT_TRUE(ReadOffsetIndex(wrapped, &oi).ok());
  ASSERT_EQ(oi.page_locations.size(), 1u);
  EXPECT_EQ(oi.page_locations[0].offset, 4);
  EXPECT_EQ(oi.page_locations[0].compressed_page_size, 6);
  EXPECT_EQ(oi.page_locations[0].first_row_index, 1);
}

// ColumnIndex{null_pages [true, false], min ["a", "b"], max ["c", "d"], ASCENDING, null_counts [0,
// 1]}
//   19 21 01 00         field 1 list of 2 bools, element type 1 (true), then one byte each
//   19 28 01 61 01 62   field 2 list of 2 binaries
//   19 28 01 63 01 64   field 3
//   15 02               field 4 i32 = 1
//   19 26 00 02         field 5 list of 2 i64: 0, 1
//   00
std::vector<uint8_t> ColumnIndexBytes(int bool_element_type) {
  return Bytes({0x19, 0x20 | bool_element_type,
                0x01, 0x00,
                0x19, 0x28,
                0x01, 0x61,
                0x01, 0x62,
                0x19, 0x28,
                0x01, 0x63,
                0x01, 0x64,
                0x15, 0x02,
                0x19, 0x26,
                0x00, 0x02,
                0x00});
}

TEST(MetadataIoTest, ColumnIndexGoldenBytesWithBoolListOfEitherType) {
  for (int bool_type : {1, 2}) {
    SCOPED_TRACE(bool_type);
    ColumnIndex ci;
    const std::vector<uint8_t> bytes = ColumnIndexBytes(bool_type);
    ASSERT_TRUE(ReadColumnIndex(bytes, &ci).ok());
    EXPECT_EQ(ci.null_pages, (std::vector<bool>{true, false}));
    EXPECT_EQ(ci.min_values, (std::vector<std::string>{"a", "b"}));
    EXPECT_EQ(ci.max_values, (std::vector<std::string>{"c", "d"}));
    EXPECT_EQ(ci.boundary_order, BoundaryOrder::kAscending);
    ASSERT_TRUE(ci.null_counts.has_value());
    EXPECT_EQ(*ci.null_counts, (std::vector<int64_t>{0, 1}));
    EXPECT_FALSE(ci.nan_counts.has_value());
    std::string out;
    WriteColumnIndex(ci, &out);
    EXPECT_EQ(ToVector(out), ColumnIndexBytes(1));  // the writer uses element type 1
  }
}

TEST(MetadataIoTest, ListOfSixteenStringsUsesTheLongListHeader) {
  ColumnMetaData c = MinimalColumnMetaData();
  c.path_in_schema.clear();
  for (int i = 0; i < 16; ++i)
    c.path_in_schema.push_back(std::string(1, static_cast<char>('a' + i)));
  std::string out;
  WriteColumnMetaData(c, &out);
  // type (15 04: INT64 = 2, zigzag 4), encodings (19 15 00), then path_in_schema: 19 F8 10 01 'a'
  // 01 'b' ...
  const std::vector<uint8_t> head =
      Bytes({0x15, 0x04, 0x19, 0x15, 0x00, 0x19, 0xF8, 0x10, 0x01, 'a', 0x01, 'b'});
  ASSERT_GE(out.size(), head.size());
  EXPECT_EQ(std::vector<uint8_t>(out.begin(), out.begin() + static_cast<ptrdiff_t>(head.size())),
            head);
  ColumnMetaData back;
  ASSERT_TRUE(ReadColumnMetaData(AsBytes(out), &back).ok());
  EXPECT_EQ(back, c);
}

// PageHeader{DATA_PAGE_V2, 20, 10, data_page_header_v2{1, 0, 1, PLAIN, 0, 0[, is_compressed]}}.
std::vector<uint8_t> PageHeaderV2Bytes(int is_compressed /* -1 absent, 0, 1 */) {
  std::vector<uint8_t> v = {0x15, 0x06, 0x15, 0x28, 0x15, 0x14,  // type 3, sizes 20 and 10
                            0x5C,                                // field 8 (delta 5 from 3) struct
                            0x15, 0x02, 0x15, 0x00, 0x15, 0x02, 0x15, 0x00, 0x15, 0x00, 0x15, 0x00};
  if (is_compressed >= 0) v.push_back(is_compressed ? 0x11 : 0x12);  // field 7 bool
  v.push_back(0x00);
  v.push_back(0x00);
  return v;
}

TEST(MetadataIoTest, DataPageHeaderV2IsCompressedDefaultsToTrue) {
  for (int c : {-1, 0, 1}) {
    SCOPED_TRACE(c);
    std::vector<uint8_t> bytes = PageHeaderV2Bytes(c);
    bytes.push_back(0xEE);  // page data follows the header
    PageHeader ph;
    size_t consumed = 0;
    ASSERT_TRUE(ReadPageHeader(bytes, &ph, &consumed).ok());
    EXPECT_EQ(consumed, bytes.size() - 1);
    EXPECT_EQ(ph.type, PageType::kDataPageV2);
    EXPECT_EQ(ph.uncompressed_page_size, 20);
    EXPECT_EQ(ph.compressed_page_size, 10);
    ASSERT_TRUE(ph.data_page_header_v2.has_value());
    EXPECT_EQ(ph.data_page_header_v2->num_values, 1);
    EXPECT_EQ(ph.data_page_header_v2->num_rows, 1);
    EXPECT_EQ(ph.data_page_header_v2->is_compressed, c != 0);
    EXPECT_FALSE(ph.data_page_header.has_value());
  }
}

TEST(MetadataIoTest, BloomFilterHeaderGoldenBytes) {
  // numBytes 1024 (zigzag 2048 = 80 10), then algorithm/hash/compression each { 1: {} }.
  auto bytes = Bytes({0x15, 0x80, 0x10, 0x1C, 0x1C, 0x00, 0x00, 0x1C, 0x1C, 0x00, 0x00, 0x1C, 0x1C,
                      0x00, 0x00, 0x00});
  BloomFilterHeader h;
  size_t consumed = 0;
  ASSERT_TRUE(ReadBloomFilterHeader(bytes, &h, &consumed).ok());
  EXPECT_EQ(consumed, bytes.size());
  EXPECT_EQ(h.num_bytes, 1024);
  EXPECT_EQ(h.algorithm, 1);
  EXPECT_EQ(h.hash, 1);
  EXPECT_EQ(h.compression, 1);
  std::string out;
  WriteBloomFilterHeader(h, &out);
  EXPECT_EQ(ToVector(out), bytes);
}

// ----------------------------------------------------------------------------------------------
// Unknown fields, unknown union alternatives, unknown enum values, wrong wire types

// Writes one unknown field of every wire type (ids from `first_id` up), with nested content.
void WriteUnknownFields(CompactWriter& w, int16_t first_id) {
  int16_t id = first_id;
  w.WriteBoolField(id++, true);
  w.WriteBoolField(id++, false);
  w.WriteFieldHeader(CompactType::kI8, id++);
  w.WriteI8(-5);
  w.WriteFieldHeader(CompactType::kI16, id++);
  w.WriteI16(-300);
  w.WriteFieldHeader(CompactType::kI32, id++);
  w.WriteI32(INT32_MIN);
  w.WriteFieldHeader(CompactType::kI64, id++);
  w.WriteI64(INT64_MAX);
  w.WriteFieldHeader(CompactType::kDouble, id++);
  w.WriteDouble(3.25);
  w.WriteFieldHeader(CompactType::kBinary, id++);
  w.WriteBinary(std::string(300, 'q'));
  w.WriteFieldHeader(CompactType::kList, id++);  // list<struct{list<bool>}>
  w.WriteListHeader(CompactType::kStruct, 2);
  for (int i = 0; i < 2; ++i) {
    w.BeginStruct();
    w.WriteFieldHeader(CompactType::kList, 1);
    w.WriteListHeader(CompactType::kBoolFalse, 17);
    for (int j = 0; j < 17; ++j) w.WriteBoolElement(j % 3 == 0);
    w.EndStruct();
  }
  w.WriteFieldHeader(CompactType::kSet, id++);  // set<i64>
  w.WriteListHeader(CompactType::kI64, 3);
  w.WriteI64(1);
  w.WriteI64(-1);
  w.WriteI64(1LL << 40);
  w.WriteFieldHeader(CompactType::kMap, id++);  // map<binary, map<i32, double>>
  w.WriteMapHeader(CompactType::kBinary, CompactType::kMap, 2);
  w.WriteBinary("k1");
  w.WriteMapHeader(CompactType::kI32, CompactType::kDouble, 1);
  w.WriteI32(7);
  w.WriteDouble(-0.5);
  w.WriteBinary("k2");
  w.WriteMapHeader(CompactType::kI32, CompactType::kDouble, 0);
  w.WriteFieldHeader(CompactType::kStruct, id++);  // struct{uuid, struct{}}
  w.BeginStruct();
  w.WriteFieldHeader(CompactType::kUuid, 1);
  w.WriteUuid("0123456789abcdef");
  w.WriteFieldHeader(CompactType::kStruct, 2);
  w.BeginStruct();
  w.EndStruct();
  w.EndStruct();
  w.WriteFieldHeader(CompactType::kUuid, id++);
  w.WriteUuid("fedcba9876543210");
  w.WriteFieldHeader(CompactType::kMap, 1000);  // an empty map under a long-form id
  w.WriteMapHeader(CompactType::kI32, CompactType::kI32, 0);
}

TEST(MetadataIoTest, UnknownFieldsOfEveryTypeAreSkippedAtEveryLevel) {
  // A PageHeader whose own fields, DataPageHeader and Statistics all carry unknown fields between
  // and after the known ones.
  std::string bytes;
  CompactWriter w(&bytes);
  w.BeginStruct();
  w.WriteFieldHeader(CompactType::kI32, 1);
  w.WriteI32(0);  // DATA_PAGE
  w.WriteFieldHeader(CompactType::kI32, 2);
  w.WriteI32(100);
  w.WriteFieldHeader(CompactType::kI32, 3);
  w.WriteI32(50);
  w.WriteFieldHeader(CompactType::kStruct, 5);
  w.BeginStruct();
  w.WriteFieldHeader(CompactType::kI32, 1);
  w.WriteI32(12);
  w.WriteFieldHeader(CompactType::kI32, 2);
  w.WriteI32(8);  // RLE_DICTIONARY
  w.WriteFieldHeader(CompactType::kI32, 3);
  w.WriteI32(3);
  w.WriteFieldHeader(CompactType::kI32, 4);
  w.WriteI32(3);
  w.WriteFieldHeader(CompactType::kStruct, 5);
  w.BeginStruct();
  w.WriteFieldHeader(CompactType::kI64, 3);
  w.WriteI64(2);
  WriteUnknownFields(w, 20);
  w.EndStruct();
  WriteUnknownFields(w, 6);
  w.EndStruct();
  WriteUnknownFields(w, 9);
  w.EndStruct();
  bytes.push_back('\x7f');

  PageHeader ph;
  size_t consumed = 0;
  Status st = ReadPageHeader(AsBytes(bytes), &ph, &consumed);
  ASSERT_TRUE(st.ok()) << st.ToString();
  EXPECT_EQ(consumed, bytes.size() - 1);
  EXPECT_EQ(ph.type, PageType::kDataPage);
  EXPECT_EQ(ph.uncompressed_page_size, 100);
  EXPECT_EQ(ph.compressed_page_size, 50);
  ASSERT_TRUE(ph.data_page_header.has_value());
  EXPECT_EQ(ph.data_page_header->num_values, 12);
  EXPECT_EQ(ph.data_page_header->encoding, Encoding::kRleDictionary);
  ASSERT_TRUE(ph.data_page_header->statistics.has_value());
  EXPECT_EQ(ph.data_page_header->statistics->null_count, 2);
  EXPECT_FALSE(ph.data_page_header->statistics->min_value.has_value());
}

// A FileMetaData with one schema element carrying the given LogicalType bytes (a struct body).
std::string FileWithLogicalType(const std::vector<uint8_t>& logical_type_struct) {
  std::string s = {0x15, 0x02, 0x19, 0x1C, 0x48, 0x01, 'a', 0x6C};
  s.append(logical_type_struct.begin(), logical_type_struct.end());
  s.append({0x00, 0x16, 0x00, 0x19, 0x0C, 0x00});
  return s;
}

TEST(MetadataIoTest, UnknownLogicalTypeAlternativeKeepsItsId) {
  // LogicalType { 2555: struct { 1: i32 7 } }: long form header 0C, zigzag(2555) = 5110 = F6 27.
  FileMetaData fmd;
  std::string bytes = FileWithLogicalType(Bytes({0x0C, 0xF6, 0x27, 0x15, 0x0E, 0x00, 0x00}));
  Status st = ReadFileMetaData(AsBytes(bytes), &fmd);
  ASSERT_TRUE(st.ok()) << st.ToString();
  ASSERT_TRUE(fmd.schema[0].logical_type.has_value());
  EXPECT_EQ(fmd.schema[0].logical_type->kind, LogicalType::Kind::kNone);
  EXPECT_EQ(fmd.schema[0].logical_type->unknown_field_id, 2555);

  // A known alternative with an unknown member inside it: TIMESTAMP{1: true, 2: {3: {}}, 9: "x"}.
  bytes =
      FileWithLogicalType(Bytes({0x8C, 0x11, 0x1C, 0x3C, 0x00, 0x00, 0x78, 0x01, 'x', 0x00, 0x00}));
  st = ReadFileMetaData(AsBytes(bytes), &fmd);
  ASSERT_TRUE(st.ok()) << st.ToString();
  EXPECT_EQ(fmd.schema[0].logical_type->kind, LogicalType::Kind::kTimestamp);
  EXPECT_TRUE(fmd.schema[0].logical_type->is_adjusted_to_utc);
  EXPECT_EQ(fmd.schema[0].logical_type->unit, TimeUnit::kNanos);

  // An unknown time unit alternative (id 4) keeps its number.
  bytes = FileWithLogicalType(Bytes({0x7C, 0x12, 0x1C, 0x4C, 0x00, 0x00, 0x00, 0x00}));
  st = ReadFileMetaData(AsBytes(bytes), &fmd);
  ASSERT_TRUE(st.ok()) << st.ToString();
  EXPECT_EQ(fmd.schema[0].logical_type->kind, LogicalType::Kind::kTime);
  EXPECT_FALSE(fmd.schema[0].logical_type->is_adjusted_to_utc);
  EXPECT_EQ(static_cast<int>(fmd.schema[0].logical_type->unit), 4);
}

TEST(MetadataIoTest, UnknownUnionAlternativesOfOtherUnions) {
  // column_orders [ {5: {}} ], encryption_algorithm {3: {1: "p"}}.
  std::string bytes = {0x15, 0x02, 0x19, 0x1C, 0x48, 0x01, 'a',  0x00, 0x16,
                       0x00, 0x19, 0x0C, 0x39, 0x1C, 0x5C, 0x00, 0x00,  // field 7 (delta 3)
                       0x1C, 0x3C, 0x18, 0x01, 'p',  0x00, 0x00,        // field 8
                       0x00};
  FileMetaData fmd;
  Status st = ReadFileMetaData(AsBytes(bytes), &fmd);
  ASSERT_TRUE(st.ok()) << st.ToString();
  ASSERT_TRUE(fmd.column_orders.has_value());
  ASSERT_EQ(fmd.column_orders->size(), 1u);
  EXPECT_EQ((*fmd.column_orders)[0].kind, ColumnOrder::Kind::kUnknown);
  ASSERT_TRUE(fmd.encryption_algorithm.has_value());
  EXPECT_EQ(fmd.encryption_algorithm->kind, EncryptionAlgorithm::Kind::kNone);
  EXPECT_FALSE(fmd.encryption_algorithm->aad_prefix.has_value());

  // Bloom filter header with algorithm {2: {}}, hash {7: {}} and compression {} (none chosen).
  auto bf =
      Bytes({0x15, 0x80, 0x10, 0x1C, 0x2C, 0x00, 0x00, 0x1C, 0x7C, 0x00, 0x00, 0x1C, 0x00, 0x00});
  BloomFilterHeader h;
  ASSERT_TRUE(ReadBloomFilterHeader(bf, &h, nullptr).ok());
  EXPECT_EQ(h.num_bytes, 1024);
  EXPECT_EQ(h.algorithm, 0);
  EXPECT_EQ(h.hash, 0);
  EXPECT_EQ(h.compression, 0);
}

TEST(MetadataIoTest, UnknownEnumValuesAreKept) {
  // PageHeader type 9, sizes 1 and 1, dictionary_page_header{1, encoding 77}.
  auto bytes =
      Bytes({0x15, 0x12, 0x15, 0x02, 0x15, 0x02, 0x4C, 0x15, 0x02, 0x15, 0x9A, 0x01, 0x00, 0x00});
  PageHeader ph;
  size_t consumed = 0;
  ASSERT_TRUE(ReadPageHeader(bytes, &ph, &consumed).ok());
  EXPECT_EQ(static_cast<int>(ph.type), 9);
  ASSERT_TRUE(ph.dictionary_page_header.has_value());
  EXPECT_EQ(static_cast<int>(ph.dictionary_page_header->encoding), 77);
  EXPECT_EQ(PageTypeName(ph.type), "9");
}

TEST(MetadataIoTest, KnownIdWithWrongWireTypeIsSkipped) {
  // PageHeader whose field 1 is a binary: skipped as Thrift does, so `type` is then missing.
  auto bytes = Bytes({0x18, 0x01, 'x', 0x15, 0x02, 0x15, 0x02, 0x00});
  PageHeader ph;
  size_t consumed = 0;
  Status st = ReadPageHeader(bytes, &ph, &consumed);
  EXPECT_TRUE(st.IsCorruption());
  EXPECT_EQ(st.message(), "PageHeader.type missing");
  // An optional field with the wrong type is just ignored: crc as i64.
  auto crc = Bytes({0x15, 0x00, 0x15, 0x02, 0x15, 0x02, 0x16, 0x02, 0x00});
  ASSERT_TRUE(ReadPageHeader(crc, &ph, &consumed).ok());
  EXPECT_FALSE(ph.crc.has_value());
  // A known list whose elements have the wrong type is Corruption.
  auto bad_list = Bytes({0x19, 0x18, 0x01, 'x', 0x00});
  OffsetIndex oi;
  EXPECT_TRUE(ReadOffsetIndex(bad_list, &oi).IsCorruption());
}

// ----------------------------------------------------------------------------------------------
// Required fields

TEST(MetadataIoTest, MissingRequiredFieldsNameStructAndField) {
  PageHeader ph;
  size_t consumed = 0;
  // No type.
  Status st = ReadPageHeader(Bytes({0x25, 0x02, 0x15, 0x02, 0x00}), &ph, &consumed);
  EXPECT_TRUE(st.IsCorruption());
  EXPECT_EQ(st.message(), "PageHeader.type missing");
  // No compressed_page_size.
  st = ReadPageHeader(Bytes({0x15, 0x00, 0x15, 0x02, 0x00}), &ph, &consumed);
  EXPECT_EQ(st.message(), "PageHeader.compressed_page_size missing");
  // DataPageHeader without repetition_level_encoding, nested in a page header.
  st = ReadPageHeader(Bytes({0x15, 0x00, 0x15, 0x02, 0x15, 0x02, 0x2C, 0x15, 0x02, 0x15, 0x00, 0x15,
                             0x06, 0x00, 0x00}),
                      &ph, &consumed);
  EXPECT_TRUE(st.IsCorruption());
  EXPECT_NE(st.message().find("DataPageHeader.repetition_level_encoding missing"),
            std::string::npos)
      << st.message();
  EXPECT_NE(st.message().find("PageHeader.data_page_header"), std::string::npos) << st.message();

  // FileMetaData without row_groups.
  FileMetaData fmd;
  st = ReadFileMetaData(Bytes({0x15, 0x02, 0x19, 0x1C, 0x48, 0x01, 'a', 0x00, 0x16, 0x00, 0x00}),
                        &fmd);
  EXPECT_EQ(st.message(), "FileMetaData.row_groups missing");
  // A schema element without a name.
  st = ReadFileMetaData(Bytes({0x15, 0x02, 0x19, 0x1C, 0x00, 0x16, 0x00, 0x19, 0x0C, 0x00}), &fmd);
  EXPECT_NE(st.message().find("SchemaElement.name missing"), std::string::npos) << st.message();

  // Each required field of a RowGroup and a ColumnChunk, found missing by deleting it from a
  // well-formed footer.
  for (int which = 0; which < 3; ++which) {
    FileMetaData f = MinimalFileMetaData();
    RowGroup rg;
    rg.num_rows = 5;
    rg.total_byte_size = 6;
    ColumnChunk cc;
    cc.file_offset = 9;
    cc.meta_data = MinimalColumnMetaData();
    rg.columns.push_back(cc);
    f.row_groups.push_back(rg);
    std::string bytes;
    WriteFileMetaData(f, &bytes);
    ASSERT_TRUE(ReadFileMetaData(AsBytes(bytes), &fmd).ok());
    // Locate the field by its encoded bytes and cut it out, fixing the next field's delta.
    std::string needle, replacement, expected;
    if (which == 0) {  // RowGroup.total_byte_size (i64 6 -> 16 0C), then num_rows (16 0A)
      needle = std::string("\x16\x0C\x16\x0A", 4);
      replacement = std::string("\x36\x0A", 2);
      expected = "RowGroup.total_byte_size missing";
    } else if (which ==
               1) {  // ColumnChunk.file_offset (field 2: 26 12), then meta_data (field 3: 1C)
      needle = std::string("\x26\x12\x1C", 3);
      replacement = std::string("\x3C", 1);
      expected = "ColumnChunk.file_offset missing";
    } else {  // ColumnMetaData.data_page_offset: field 9 (delta 2 from 7: 26 08) is last
      needle = std::string("\x26\x08\x00", 3);
      replacement = std::string("\x00", 1);
      expected = "ColumnMetaData.data_page_offset missing";
    }
    size_t at = bytes.find(needle);
    ASSERT_NE(at, std::string::npos) << which;
    bytes.replace(at, needle.size(), replacement);
    st = ReadFileMetaData(AsBytes(bytes), &fmd);
    EXPECT_TRUE(st.IsCorruption());
    EXPECT_NE(st.message().find(expected), std::string::npos) << st.message();
  }
}

// ----------------------------------------------------------------------------------------------
// Round trips

template <typename T, typename ReadFn, typename WriteFn>
void ExpectRoundTrip(const T& value, ReadFn read, WriteFn write) {
  std::string bytes = "prefix";
  write(value, &bytes);  // writers append
  ASSERT_EQ(bytes.substr(0, 6), "prefix");
  std::vector<uint8_t> exact(bytes.begin() + 6,
                             bytes.end());  // exact size: ASan catches over-reads
  T back;
  size_t consumed = 0;
  // Readers of structures a file may hold millions of take a memory limit too.
  const auto call = [&](ByteSpan in) {
    if constexpr (std::is_invocable_v<ReadFn, ByteSpan, T*, size_t*>) {
      return read(in, &back, &consumed);
    } else if constexpr (std::is_invocable_v<ReadFn, ByteSpan, T*, size_t*, int64_t>) {
      return read(in, &back, &consumed, kDefaultMetadataMemory);
    } else {  // ReadFileMetaData also tells what it counted
      return read(in, &back, &consumed, kDefaultMetadataMemory, nullptr);
    }
  };
  Status st = call(ByteSpan(exact));
  ASSERT_TRUE(st.ok()) << st.ToString();
  EXPECT_EQ(consumed, exact.size());
  EXPECT_TRUE(back == value);
  // Reading into a used object gives the same result (readers reset their output).
  st = call(ByteSpan(exact));
  ASSERT_TRUE(st.ok());
  EXPECT_TRUE(back == value);
  // And writing again gives the same bytes.
  std::string again;
  write(back, &again);
  EXPECT_EQ(again, bytes.substr(6));
}

TEST(MetadataIoTest, FileMetaDataRoundTrips) {
  ExpectRoundTrip(FullFileMetaData(), ReadFileMetaData, WriteFileMetaData);
  ExpectRoundTrip(MinimalFileMetaData(), ReadFileMetaData, WriteFileMetaData);
  FileMetaData empty_kv = MinimalFileMetaData();
  empty_kv.has_key_value_metadata = true;  // present but empty
  ExpectRoundTrip(empty_kv, ReadFileMetaData, WriteFileMetaData);
}

TEST(MetadataIoTest, ColumnMetaDataRoundTrips) {
  ExpectRoundTrip(FullColumnMetaData(), ReadColumnMetaData, WriteColumnMetaData);
  ExpectRoundTrip(MinimalColumnMetaData(), ReadColumnMetaData, WriteColumnMetaData);
}

TEST(MetadataIoTest, PageHeaderRoundTrips) {
  PageHeader minimal;
  minimal.type = PageType::kIndexPage;
  minimal.uncompressed_page_size = 0;
  minimal.compressed_page_size = 0;
  ExpectRoundTrip(minimal, ReadPageHeader, WritePageHeader);

  PageHeader v1;
  v1.type = PageType::kDataPage;
  v1.uncompressed_page_size = 1 << 20;
  v1.compressed_page_size = 12345;
  v1.crc = -1234567;
  v1.data_page_header = DataPageHeader{1000, Encoding::kDeltaBinaryPacked, Encoding::kRle,
                                       Encoding::kBitPacked, FullStatistics()};
  v1.has_index_page_header = true;
  v1.dictionary_page_header = DictionaryPageHeader{50, Encoding::kPlainDictionary, true};
  DataPageHeaderV2 v2;
  v2.num_values = 10;
  v2.num_nulls = 3;
  v2.num_rows = 7;
  v2.encoding = Encoding::kByteStreamSplit;
  v2.definition_levels_byte_length = 4;
  v2.repetition_levels_byte_length = 5;
  v2.is_compressed = false;
  v2.statistics = Statistics{};
  v1.data_page_header_v2 = v2;
  ExpectRoundTrip(v1, ReadPageHeader, WritePageHeader);

  PageHeader dict;
  dict.type = PageType::kDictionaryPage;
  dict.uncompressed_page_size = 8;
  dict.compressed_page_size = 8;
  dict.dictionary_page_header = DictionaryPageHeader{2, Encoding::kPlain, std::nullopt};
  ExpectRoundTrip(dict, ReadPageHeader, WritePageHeader);
}

TEST(MetadataIoTest, PageIndexRoundTrips) {
  ColumnIndex ci;
  for (int i = 0; i < 40; ++i) {
    ci.null_pages.push_back(i % 7 == 0);
    ci.min_values.push_back(i % 7 == 0 ? "" : std::string(static_cast<size_t>(i), 'a'));
    ci.max_values.push_back(std::string(static_cast<size_t>(i) + 1, 'b'));
  }
  ci.boundary_order = BoundaryOrder::kDescending;
  ci.null_counts = Histogram(40, 3);
  ci.repetition_level_histograms = Histogram(80, -2);
  ci.definition_level_histograms = Histogram(120, 5);
  ci.nan_counts = Histogram(40, 0);
  ExpectRoundTrip(ci, ReadColumnIndex, WriteColumnIndex);
  ColumnIndex minimal;
  ExpectRoundTrip(minimal, ReadColumnIndex, WriteColumnIndex);

  OffsetIndex oi;
  for (int i = 0; i < 1000; ++i)
    oi.page_locations.push_back({4 + 1000LL * i, 990 + i % 10, 100LL * i});
  oi.unencoded_byte_array_data_bytes = Histogram(1000, 77);
  ExpectRoundTrip(oi, ReadOffsetIndex, WriteOffsetIndex);
  ExpectRoundTrip(OffsetIndex{}, ReadOffsetIndex, WriteOffsetIndex);
}

TEST(MetadataIoTest, BloomFilterAndCryptoRoundTrips) {
  BloomFilterHeader bf;
  bf.num_bytes = 1 << 27;
  ExpectRoundTrip(bf, ReadBloomFilterHeader, WriteBloomFilterHeader);
  bf.algorithm = 0;
  bf.hash = 0;
  bf.compression = 0;
  ExpectRoundTrip(bf, ReadBloomFilterHeader, WriteBloomFilterHeader);

  FileCryptoMetaData fc;
  fc.encryption_algorithm.kind = EncryptionAlgorithm::Kind::kAesGcmV1;
  fc.encryption_algorithm.aad_file_unique = std::string("\x3f\x1a\x3c\xe0\x19\x90\xc1\xd8", 8);
  fc.encryption_algorithm.supply_aad_prefix = false;
  fc.key_metadata = "kf";
  ExpectRoundTrip(fc, ReadFileCryptoMetaData, WriteFileCryptoMetaData);
  FileCryptoMetaData minimal;  // an empty algorithm union
  ExpectRoundTrip(minimal, ReadFileCryptoMetaData, WriteFileCryptoMetaData);
}

// ----------------------------------------------------------------------------------------------
// Hostile inputs

TEST(MetadataIoTest, TruncationAtEveryByteIsAnErrorNeverACrash) {
  std::string bytes;
  WriteFileMetaData(FullFileMetaData(/*row_groups=*/1, /*columns=*/3), &bytes);
  ASSERT_GT(bytes.size(), 1000u);
  FileMetaData fmd;
  for (size_t n = 0; n < bytes.size(); ++n) {
    std::vector<uint8_t> prefix(bytes.begin(), bytes.begin() + static_cast<ptrdiff_t>(n));
    Status st = ReadFileMetaData(prefix, &fmd);
    ASSERT_FALSE(st.ok()) << "prefix of " << n << " bytes parsed";
    ASSERT_TRUE(st.IsCorruption()) << st.ToString();
  }
  std::vector<uint8_t> whole(bytes.begin(), bytes.end());
  EXPECT_TRUE(ReadFileMetaData(whole, &fmd).ok());
}

TEST(MetadataIoTest, TruncatedPageHeadersAndIndexesFail) {
  PageHeader v1;
  v1.type = PageType::kDataPage;
  v1.uncompressed_page_size = 300;
  v1.compressed_page_size = 200;
  v1.crc = 5;
  v1.data_page_header =
      DataPageHeader{1000, Encoding::kPlain, Encoding::kRle, Encoding::kRle, FullStatistics()};
  std::string bytes;
  WritePageHeader(v1, &bytes);
  PageHeader ph;
  for (size_t n = 0; n < bytes.size(); ++n) {
    std::vector<uint8_t> prefix(bytes.begin(), bytes.begin() + static_cast<ptrdiff_t>(n));
    size_t consumed = 0;
    ASSERT_FALSE(ReadPageHeader(prefix, &ph, &consumed).ok()) << n;
  }
}

TEST(MetadataIoTest, AllocationTrackerRecordsTheLargestAllocation) {
  alloc_tracker::ResetLargestAllocation();
  EXPECT_LT(alloc_tracker::LargestAllocationSinceReset(), size_t{1000});
  {
    std::vector<char> big(123456);
    big[0] = 1;
  }
  EXPECT_GE(alloc_tracker::LargestAllocationSinceReset(), size_t{123456});
}

TEST(MetadataIoTest, HugeListClaimsAreRefusedWithoutAllocating) {
  // OffsetIndex whose page_locations list claims 2^31 - 1 structs, then 2^31 (negative as i32).
  for (const auto& bytes : {Bytes({0x19, 0xFC, 0xFF, 0xFF, 0xFF, 0xFF, 0x07, 0x00, 0x00}),
                            Bytes({0x19, 0xFC, 0x80, 0x80, 0x80, 0x80, 0x08, 0x00, 0x00})}) {
    OffsetIndex oi;
    alloc_tracker::ResetLargestAllocation();
    Status st = ReadOffsetIndex(bytes, &oi);
    const size_t largest = alloc_tracker::LargestAllocationSinceReset();
    EXPECT_TRUE(st.IsCorruption());
    EXPECT_LT(largest, size_t{4096}) << "allocated " << largest << " bytes";
  }
  // A schema list of 2^31 - 1 elements, and a binary of 2^32 - 1 bytes, in a footer.
  FileMetaData fmd;
  alloc_tracker::ResetLargestAllocation();
  EXPECT_TRUE(
      ReadFileMetaData(Bytes({0x15, 0x02, 0x19, 0xFC, 0xFF, 0xFF, 0xFF, 0xFF, 0x07, 0x00}), &fmd)
          .IsCorruption());
  EXPECT_TRUE(ReadFileMetaData(
                  Bytes({0x15, 0x02, 0x19, 0x1C, 0x48, 0xFF, 0xFF, 0xFF, 0xFF, 0x0F, 0x00}), &fmd)
                  .IsCorruption());
  EXPECT_LT(alloc_tracker::LargestAllocationSinceReset(), size_t{4096});
  // A list of 100 bools claiming ... in a column index whose input holds 10.
  ColumnIndex ci;
  std::vector<uint8_t> bools = {0x19, 0xF1, 100};
  bools.resize(13, 1);
  EXPECT_TRUE(ReadColumnIndex(bools, &ci).IsCorruption());
}

TEST(MetadataIoTest, DepthBombInAnUnknownFieldIsRefused) {
  // FileMetaData whose field 20 is 200 nested structs.
  std::vector<uint8_t> bytes = {0x0C, 0x28};
  bytes.insert(bytes.end(), 200, 0x1C);
  bytes.insert(bytes.end(), 202, 0x00);
  FileMetaData fmd;
  Status st = ReadFileMetaData(bytes, &fmd);
  EXPECT_TRUE(st.IsCorruption());
  EXPECT_NE(st.message().find("nesting"), std::string::npos) << st.message();
  // A bomb of nested lists inside a known struct (Statistics) inside a page header.
  std::vector<uint8_t> page = {0x15, 0x00, 0x15, 0x02, 0x15, 0x02, 0x2C, 0x15, 0x02,
                               0x15, 0x00, 0x15, 0x06, 0x15, 0x06, 0x1C, 0xA9};
  page.insert(page.end(), 200, 0x19);
  page.insert(page.end(), 4, 0x00);
  PageHeader ph;
  size_t consumed = 0;
  st = ReadPageHeader(page, &ph, &consumed);
  EXPECT_TRUE(st.IsCorruption());
}

TEST(MetadataIoTest, RandomMutationsNeverCrash) {
  std::string good;
  WriteFileMetaData(FullFileMetaData(/*row_groups=*/1, /*columns=*/3), &good);
  std::mt19937 rng(20240601);
  FileMetaData fmd;
  int parsed = 0;
  for (int iter = 0; iter < 3000; ++iter) {
    std::vector<uint8_t> bytes(good.begin(), good.end());
    const int flips = 1 + static_cast<int>(rng() % 4);
    for (int i = 0; i < flips; ++i) {
      bytes[rng() % bytes.size()] = static_cast<uint8_t>(rng());
    }
    if (rng() % 4 == 0) bytes.resize(rng() % bytes.size());
    size_t consumed = 0;
    if (ReadFileMetaData(bytes, &fmd, &consumed).ok()) {
      ++parsed;
      EXPECT_LE(consumed, bytes.size());
    }
  }
  // Some mutations (inside strings) leave a valid footer; most do not. Either way nothing crashed.
  EXPECT_GT(parsed, 0);
  EXPECT_LT(parsed, 3000);
}

// ----------------------------------------------------------------------------------------------
// Scale: a footer of 1,000 columns x 100 row groups parses in time linear in its size.

FileMetaData WideFooter(int columns, int row_groups) {
  FileMetaData f;
  f.version = 2;
  SchemaElement root;
  root.name = "schema";
  root.num_children = columns;
  f.schema.push_back(root);
  for (int c = 0; c < columns; ++c) {
    SchemaElement e;
    e.type = PhysicalType::kInt64;
    e.repetition_type = Repetition::kOptional;
    e.name = "column_" + std::to_string(c);
    f.schema.push_back(e);
  }
  for (int g = 0; g < row_groups; ++g) {
    RowGroup rg;
    rg.num_rows = 100000;
    rg.total_byte_size = 800000LL * columns;
    for (int c = 0; c < columns; ++c) {
      ColumnChunk cc;
      cc.file_offset = 4 + 1000LL * (g * columns + c);
      ColumnMetaData m;
      m.type = PhysicalType::kInt64;
      m.encodings = {Encoding::kPlain, Encoding::kRle, Encoding::kRleDictionary};
      m.path_in_schema = {"column_" + std::to_string(c)};
      m.codec = CompressionCodec::kZstd;
      m.num_values = 100000;
      m.total_uncompressed_size = 800000;
      m.total_compressed_size = 400000;
      m.data_page_offset = cc.file_offset;
      Statistics s;
      s.min_value = std::string(8, '\x01');
      s.max_value = std::string(8, '\x7f');
      s.null_count = 0;
      m.statistics = s;
      cc.meta_data = m;
      cc.offset_index_offset = 1;
      cc.offset_index_length = 2;
      rg.columns.push_back(std::move(cc));
    }
    f.row_groups.push_back(std::move(rg));
  }
  f.num_rows = 100000LL * row_groups;
  return f;
}

// CPU seconds (not wall time: the test machine may be busy) to parse `bytes` into a fresh *out.
double SecondsToParse(const std::string& bytes, FileMetaData* out) {
  *out = FileMetaData{};
  const std::clock_t start = std::clock();
  Status st = ReadFileMetaData(AsBytes(bytes), out);
  const std::clock_t end = std::clock();
  EXPECT_TRUE(st.ok()) << st.ToString();
  return static_cast<double>(end - start) / CLOCKS_PER_SEC;
}

// Sanitizer and debug builds are ~20x slower: they check the same shape on a tenth of the row
// groups.
#if defined(PQ_SANITIZE) || !defined(NDEBUG)
constexpr int kWideRowGroups = 10;
#else
constexpr int kWideRowGroups = 100;
#endif

TEST(MetadataIoTest, WideFooterParsesInLinearTime) {
  std::string small_bytes, big_bytes;
  WriteFileMetaData(WideFooter(1000, kWideRowGroups / 10), &small_bytes);
  const FileMetaData big = WideFooter(1000, kWideRowGroups);
  WriteFileMetaData(big, &big_bytes);
  FileMetaData out;
  double small_s = 1e9, big_s = 1e9;
  for (int i = 0; i < 3; ++i) small_s = std::min(small_s, SecondsToParse(small_bytes, &out));
  for (int i = 0; i < 2; ++i) big_s = std::min(big_s, SecondsToParse(big_bytes, &out));
  EXPECT_TRUE(out == big);
  ASSERT_EQ(out.row_groups.size(), static_cast<size_t>(kWideRowGroups));
  ASSERT_EQ(out.row_groups.back().columns.size(), 1000u);
  EXPECT_EQ(out.row_groups.back().columns[999].meta_data->path_in_schema[0], "column_999");
  // Ten times the bytes may not take more than ~30 times as long (a quadratic parser takes 100x).
  EXPECT_LT(big_s, 30 * small_s + 0.05)
      << "1/10 of the row groups: " << small_s << " s, all: " << big_s << " s";
  std::printf("[ info     ] %zu-byte footer (%d column chunks) parsed in %.1f ms of CPU\n",
              big_bytes.size(), 1000 * kWideRowGroups, big_s * 1000);
}

// A footer of three-byte column chunks takes hundreds of times its bytes once parsed (issue "Hostile
// files", finding 1): what the parser builds is counted as it grows, and past the caller's limit it
// stops with OutOfMemory before allocating more.
TEST(MetadataIoTest, ParsedStructuresAreCountedAgainstTheMemoryLimit) {
  const std::string file = hostile::FooterOfColumnChunks(100'000);
  const ByteSpan footer(reinterpret_cast<const uint8_t*>(file.data()) + 4, file.size() - 12);
  FileMetaData md;
  alloc_tracker::ResetLargestAllocation();
  Status s = ReadFileMetaData(footer, &md, nullptr, int64_t{16} << 20);
  EXPECT_EQ(s.code(), StatusCode::kOutOfMemory) << s.ToString();
  EXPECT_NE(s.message().find("more than 16777216 bytes in memory"), std::string::npos) << s.ToString();
  EXPECT_NE(s.message().find("RowGroup.columns: element"), std::string::npos) << s.ToString();
  EXPECT_LE(alloc_tracker::LargestAllocationSinceReset(), size_t{16} << 20);
  // Within a limit it fits: every chunk is there.
  ASSERT_TRUE(ReadFileMetaData(footer, &md, nullptr, int64_t{256} << 20).ok());
  EXPECT_EQ(md.row_groups[0].columns.size(), 100'000u);
  // The same for the page index.
  const std::string index = hostile::ColumnIndexOfPages(100'000);
  ColumnIndex ci;
  const ByteSpan index_bytes(reinterpret_cast<const uint8_t*>(index.data()), index.size());
  EXPECT_EQ(ReadColumnIndex(index_bytes, &ci, nullptr, int64_t{1} << 20).code(), StatusCode::kOutOfMemory);
  ASSERT_TRUE(ReadColumnIndex(index_bytes, &ci, nullptr, int64_t{64} << 20).ok());
  EXPECT_EQ(ci.min_values.size(), 100'000u);
}

// An optional geospatial bounding box missing a required coordinate is dropped, not fatal to the
// footer (finding 11); the rest of the statistics stay.
TEST(MetadataIoTest, IncompleteBoundingBoxIsDropped) {
  ColumnMetaData m = MinimalColumnMetaData();
  m.geospatial_statistics.emplace();
  m.geospatial_statistics->bbox = BoundingBox{11.5, 12.5, 13.5, 14.5};
  m.geospatial_statistics->geospatial_types = {1, 3};
  std::string bytes;
  WriteColumnMetaData(m, &bytes);
  ColumnMetaData back;
  const auto span = [](const std::string& b) {
    return ByteSpan(reinterpret_cast<const uint8_t*>(b.data()), b.size());
  };
  ASSERT_TRUE(ReadColumnMetaData(span(bytes), &back).ok());
  ASSERT_TRUE(back.geospatial_statistics && back.geospatial_statistics->bbox);
  // Field 4 (ymax) goes: its header byte and the double.
  const double ymax = 14.5;
  std::string field(1, '\x17');
  field.append(reinterpret_cast<const char*>(&ymax), 8);
  const size_t at = bytes.find(field);
  ASSERT_NE(at, std::string::npos);
  bytes.erase(at, field.size());
  ASSERT_TRUE(ReadColumnMetaData(span(bytes), &back).ok());
  ASSERT_TRUE(back.geospatial_statistics);
  EXPECT_FALSE(back.geospatial_statistics->bbox);
  EXPECT_EQ(back.geospatial_statistics->geospatial_types, (std::vector<int32_t>{1, 3}));
  EXPECT_EQ(back.num_values, m.num_values);
}

}  // namespace
}  // namespace pq
