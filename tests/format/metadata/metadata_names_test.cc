// The *Name() functions: the spec's enum names (parquet.thrift), numbers for anything else.
#include <gtest/gtest.h>

#include "format/metadata/metadata.h"

namespace pq {
namespace {

TEST(MetadataNamesTest, PhysicalTypes) {
  EXPECT_EQ(PhysicalTypeName(PhysicalType::kBoolean), "BOOLEAN");
  EXPECT_EQ(PhysicalTypeName(PhysicalType::kInt64), "INT64");
  EXPECT_EQ(PhysicalTypeName(PhysicalType::kInt96), "INT96");
  EXPECT_EQ(PhysicalTypeName(PhysicalType::kByteArray), "BYTE_ARRAY");
  EXPECT_EQ(PhysicalTypeName(PhysicalType::kFixedLenByteArray), "FIXED_LEN_BYTE_ARRAY");
  EXPECT_EQ(PhysicalTypeName(static_cast<PhysicalType>(8)), "8");
  EXPECT_EQ(PhysicalTypeName(static_cast<PhysicalType>(-1)), "-1");
}

TEST(MetadataNamesTest, ConvertedTypes) {
  EXPECT_EQ(ConvertedTypeName(ConvertedType::kUtf8), "UTF8");
  EXPECT_EQ(ConvertedTypeName(ConvertedType::kMapKeyValue), "MAP_KEY_VALUE");
  EXPECT_EQ(ConvertedTypeName(ConvertedType::kTimestampMicros), "TIMESTAMP_MICROS");
  EXPECT_EQ(ConvertedTypeName(ConvertedType::kUint8), "UINT_8");
  EXPECT_EQ(ConvertedTypeName(ConvertedType::kInt64), "INT_64");
  EXPECT_EQ(ConvertedTypeName(ConvertedType::kInterval), "INTERVAL");
  EXPECT_EQ(ConvertedTypeName(static_cast<ConvertedType>(22)), "22");
}

TEST(MetadataNamesTest, Encodings) {
  EXPECT_EQ(EncodingName(Encoding::kPlain), "PLAIN");
  EXPECT_EQ(EncodingName(static_cast<Encoding>(1)), "1");  // the retired GROUP_VAR_INT
  EXPECT_EQ(EncodingName(Encoding::kPlainDictionary), "PLAIN_DICTIONARY");
  EXPECT_EQ(EncodingName(Encoding::kRle), "RLE");
  EXPECT_EQ(EncodingName(Encoding::kBitPacked), "BIT_PACKED");
  EXPECT_EQ(EncodingName(Encoding::kDeltaBinaryPacked), "DELTA_BINARY_PACKED");
  EXPECT_EQ(EncodingName(Encoding::kDeltaLengthByteArray), "DELTA_LENGTH_BYTE_ARRAY");
  EXPECT_EQ(EncodingName(Encoding::kDeltaByteArray), "DELTA_BYTE_ARRAY");
  EXPECT_EQ(EncodingName(Encoding::kRleDictionary), "RLE_DICTIONARY");
  EXPECT_EQ(EncodingName(Encoding::kByteStreamSplit), "BYTE_STREAM_SPLIT");
  EXPECT_EQ(EncodingName(Encoding::kAlp), "ALP");
  EXPECT_EQ(EncodingName(static_cast<Encoding>(11)), "11");
}

TEST(MetadataNamesTest, CodecsPagesRepetitionBoundaryOrder) {
  EXPECT_EQ(CompressionCodecName(CompressionCodec::kUncompressed), "UNCOMPRESSED");
  EXPECT_EQ(CompressionCodecName(CompressionCodec::kSnappy), "SNAPPY");
  EXPECT_EQ(CompressionCodecName(CompressionCodec::kLzo), "LZO");
  EXPECT_EQ(CompressionCodecName(CompressionCodec::kZstd), "ZSTD");
  EXPECT_EQ(CompressionCodecName(CompressionCodec::kLz4Raw), "LZ4_RAW");
  EXPECT_EQ(CompressionCodecName(static_cast<CompressionCodec>(8)), "8");
  EXPECT_EQ(PageTypeName(PageType::kDataPage), "DATA_PAGE");
  EXPECT_EQ(PageTypeName(PageType::kIndexPage), "INDEX_PAGE");
  EXPECT_EQ(PageTypeName(PageType::kDictionaryPage), "DICTIONARY_PAGE");
  EXPECT_EQ(PageTypeName(PageType::kDataPageV2), "DATA_PAGE_V2");
  EXPECT_EQ(PageTypeName(static_cast<PageType>(4)), "4");
  EXPECT_EQ(RepetitionName(Repetition::kRequired), "REQUIRED");
  EXPECT_EQ(RepetitionName(Repetition::kOptional), "OPTIONAL");
  EXPECT_EQ(RepetitionName(Repetition::kRepeated), "REPEATED");
  EXPECT_EQ(RepetitionName(static_cast<Repetition>(3)), "3");
  EXPECT_EQ(BoundaryOrderName(BoundaryOrder::kUnordered), "UNORDERED");
  EXPECT_EQ(BoundaryOrderName(BoundaryOrder::kAscending), "ASCENDING");
  EXPECT_EQ(BoundaryOrderName(BoundaryOrder::kDescending), "DESCENDING");
  EXPECT_EQ(BoundaryOrderName(static_cast<BoundaryOrder>(-7)), "-7");
}

}  // namespace
}  // namespace pq
