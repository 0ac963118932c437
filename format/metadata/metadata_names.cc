// The *Name() functions of metadata.h: enum values as the spec spells them (parquet.thrift),
// values the spec does not name as their decimal number.
#include <string>

#include "format/metadata/metadata.h"

namespace pq {

namespace {

// The name at `value` in `names`, or the value as a number when out of range or unnamed (nullptr).
template <size_t N>
std::string NameOrNumber(const char* const (&names)[N], int32_t value) {
  if (value >= 0 && static_cast<size_t>(value) < N && names[value] != nullptr) return names[value];
  return std::to_string(value);
}

}  // namespace

std::string PhysicalTypeName(PhysicalType t) {
  static const char* const kNames[] = {"BOOLEAN", "INT32",  "INT64",      "INT96",
                                       "FLOAT",   "DOUBLE", "BYTE_ARRAY", "FIXED_LEN_BYTE_ARRAY"};
  return NameOrNumber(kNames, static_cast<int32_t>(t));
}

std::string ConvertedTypeName(ConvertedType t) {
  static const char* const kNames[] = {"UTF8",
                                       "MAP",
                                       "MAP_KEY_VALUE",
                                       "LIST",
                                       "ENUM",
                                       "DECIMAL",
                                       "DATE",
                                       "TIME_MILLIS",
                                       "TIME_MICROS",
                                       "TIMESTAMP_MILLIS",
                                       "TIMESTAMP_MICROS",
                                       "UINT_8",
                                       "UINT_16",
                                       "UINT_32",
                                       "UINT_64",
                                       "INT_8",
                                       "INT_16",
                                       "INT_32",
                                       "INT_64",
                                       "JSON",
                                       "BSON",
                                       "INTERVAL"};
  return NameOrNumber(kNames, static_cast<int32_t>(t));
}

std::string EncodingName(Encoding e) {
  // 1 was GROUP_VAR_INT, never used and gone from the spec: it prints as "1".
  static const char* const kNames[] = {"PLAIN",
                                       nullptr,
                                       "PLAIN_DICTIONARY",
                                       "RLE",
                                       "BIT_PACKED",
                                       "DELTA_BINARY_PACKED",
                                       "DELTA_LENGTH_BYTE_ARRAY",
                                       "DELTA_BYTE_ARRAY",
                                       "RLE_DICTIONARY",
                                       "BYTE_STREAM_SPLIT",
                                       "ALP"};
  return NameOrNumber(kNames, static_cast<int32_t>(e));
}

std::string CompressionCodecName(CompressionCodec c) {
  static const char* const kNames[] = {"UNCOMPRESSED", "SNAPPY", "GZIP", "LZO",
                                       "BROTLI",       "LZ4",    "ZSTD", "LZ4_RAW"};
  return NameOrNumber(kNames, static_cast<int32_t>(c));
}

std::string PageTypeName(PageType t) {
  static const char* const kNames[] = {"DATA_PAGE", "INDEX_PAGE", "DICTIONARY_PAGE",
                                       "DATA_PAGE_V2"};
  return NameOrNumber(kNames, static_cast<int32_t>(t));
}

std::string RepetitionName(Repetition r) {
  static const char* const kNames[] = {"REQUIRED", "OPTIONAL", "REPEATED"};
  return NameOrNumber(kNames, static_cast<int32_t>(r));
}

std::string BoundaryOrderName(BoundaryOrder b) {
  static const char* const kNames[] = {"UNORDERED", "ASCENDING", "DESCENDING"};
  return NameOrNumber(kNames, static_cast<int32_t>(b));
}

}  // namespace pq
