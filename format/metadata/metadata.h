// The Thrift structures of a Parquet file as plain C++ values. One struct per Thrift struct of
// parquet.thrift, same field names in snake case, optional fields as std::optional. Unions are a
// `kind` enum plus the members of the chosen alternative. Reading and writing them (compact
// protocol) lives in metadata_io.h; nothing here touches bytes.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace pq {

enum class PhysicalType : int32_t {
  kBoolean = 0,
  kInt32 = 1,
  kInt64 = 2,
  kInt96 = 3,
  kFloat = 4,
  kDouble = 5,
  kByteArray = 6,
  kFixedLenByteArray = 7,
};

enum class ConvertedType : int32_t {
  kUtf8 = 0, kMap = 1, kMapKeyValue = 2, kList = 3, kEnum = 4, kDecimal = 5, kDate = 6,
  kTimeMillis = 7, kTimeMicros = 8, kTimestampMillis = 9, kTimestampMicros = 10, kUint8 = 11,
  kUint16 = 12, kUint32 = 13, kUint64 = 14, kInt8 = 15, kInt16 = 16, kInt32 = 17, kInt64 = 18,
  kJson = 19, kBson = 20, kInterval = 21,
};

enum class Repetition : int32_t { kRequired = 0, kOptional = 1, kRepeated = 2 };

enum class Encoding : int32_t {
  kPlain = 0,
  kPlainDictionary = 2,
  kRle = 3,
  kBitPacked = 4,
  kDeltaBinaryPacked = 5,
  kDeltaLengthByteArray = 6,
  kDeltaByteArray = 7,
  kRleDictionary = 8,
  kByteStreamSplit = 9,
  kAlp = 10,
};

enum class CompressionCodec : int32_t {
  kUncompressed = 0, kSnappy = 1, kGzip = 2, kLzo = 3, kBrotli = 4, kLz4 = 5, kZstd = 6, kLz4Raw = 7,
};

enum class PageType : int32_t { kDataPage = 0, kIndexPage = 1, kDictionaryPage = 2, kDataPageV2 = 3 };

enum class BoundaryOrder : int32_t { kUnordered = 0, kAscending = 1, kDescending = 2 };

enum class TimeUnit : int32_t { kMillis = 1, kMicros = 2, kNanos = 3 };

enum class EdgeInterpolationAlgorithm : int32_t {
  kSpherical = 0, kVincenty = 1, kThomas = 2, kAndoyer = 3, kKarney = 4,
};

// Names for messages and metadata functions ("PLAIN", "ZSTD", "INT64", ...). Unknown values print
// as their number.
std::string PhysicalTypeName(PhysicalType t);
std::string ConvertedTypeName(ConvertedType t);
std::string EncodingName(Encoding e);
std::string CompressionCodecName(CompressionCodec c);
std::string PageTypeName(PageType t);
std::string RepetitionName(Repetition r);
std::string BoundaryOrderName(BoundaryOrder b);

struct SizeStatistics {
  std::optional<int64_t> unencoded_byte_array_data_bytes;
  std::vector<int64_t> repetition_level_histogram;
  std::vector<int64_t> definition_level_histogram;
};

struct BoundingBox {
  double xmin = 0, xmax = 0, ymin = 0, ymax = 0;
  std::optional<double> zmin, zmax, mmin, mmax;
};

struct GeospatialStatistics {
  std::optional<BoundingBox> bbox;
  std::vector<int32_t> geospatial_types;
};

struct Statistics {
  std::optional<std::string> max;  // deprecated: sort order of the writer, signed
  std::optional<std::string> min;
  std::optional<int64_t> null_count;
  std::optional<int64_t> distinct_count;
  std::optional<std::string> max_value;  // in the column's sort order
  std::optional<std::string> min_value;
  std::optional<bool> is_max_value_exact;
  std::optional<bool> is_min_value_exact;
  std::optional<int64_t> nan_count;
};

// LogicalType union. `kind` says which alternative; the fields of that alternative are set.
struct LogicalType {
  enum class Kind : int32_t {
    kNone = 0,  // not present (or an alternative this reader does not know)
    kString = 1, kMap = 2, kList = 3, kEnum = 4, kDecimal = 5, kDate = 6, kTime = 7, kTimestamp = 8,
    kInteger = 10, kUnknown = 11, kJson = 12, kBson = 13, kUuid = 14, kFloat16 = 15, kVariant = 16,
    kGeometry = 17, kGeography = 18, kFile = 19,
  };
  Kind kind = Kind::kNone;
  int32_t decimal_scale = 0;      // kDecimal
  int32_t decimal_precision = 0;  // kDecimal
  bool is_adjusted_to_utc = false;     // kTime, kTimestamp
  TimeUnit unit = TimeUnit::kMillis;   // kTime, kTimestamp
  int8_t bit_width = 0;    // kInteger
  bool is_signed = true;   // kInteger
  std::optional<int8_t> variant_specification_version;  // kVariant
  std::optional<std::string> crs;                       // kGeometry, kGeography
  std::optional<EdgeInterpolationAlgorithm> algorithm;  // kGeography
  // The union's field id when it named an alternative this reader does not know (kind == kNone).
  int16_t unknown_field_id = 0;
};

struct SchemaElement {
  std::optional<PhysicalType> type;
  std::optional<int32_t> type_length;
  std::optional<Repetition> repetition_type;
  std::string name;
  std::optional<int32_t> num_children;
  std::optional<ConvertedType> converted_type;
  std::optional<int32_t> scale;
  std::optional<int32_t> precision;
  std::optional<int32_t> field_id;
  std::optional<LogicalType> logical_type;
};

struct DataPageHeader {
  int32_t num_values = 0;
  Encoding encoding = Encoding::kPlain;
  Encoding definition_level_encoding = Encoding::kRle;
  Encoding repetition_level_encoding = Encoding::kRle;
  std::optional<Statistics> statistics;
};

struct DictionaryPageHeader {
  int32_t num_values = 0;
  Encoding encoding = Encoding::kPlain;
  std::optional<bool> is_sorted;
};

struct DataPageHeaderV2 {
  int32_t num_values = 0;
  int32_t num_nulls = 0;
  int32_t num_rows = 0;
  Encoding encoding = Encoding::kPlain;
  int32_t definition_levels_byte_length = 0;
  int32_t repetition_levels_byte_length = 0;
  bool is_compressed = true;  // default true when absent
  std::optional<Statistics> statistics;
};

// BloomFilterHeader: the algorithm, hash and compression unions each have one known alternative;
// a value of 0 means "an alternative this reader does not know".
struct BloomFilterHeader {
  int32_t num_bytes = 0;
  int16_t algorithm = 1;    // 1 = BLOCK (split block)
  int16_t hash = 1;         // 1 = XXHASH
  int16_t compression = 1;  // 1 = UNCOMPRESSED
};

struct PageHeader {
  PageType type = PageType::kDataPage;
  int32_t uncompressed_page_size = 0;
  int32_t compressed_page_size = 0;
  std::optional<int32_t> crc;
  std::optional<DataPageHeader> data_page_header;
  bool has_index_page_header = false;
  std::optional<DictionaryPageHeader> dictionary_page_header;
  std::optional<DataPageHeaderV2> data_page_header_v2;
};

struct KeyValue {
  std::string key;
  std::optional<std::string> value;
};

struct SortingColumn {
  int32_t column_idx = 0;
  bool descending = false;
  bool nulls_first = false;
};

struct PageEncodingStats {
  PageType page_type = PageType::kDataPage;
  Encoding encoding = Encoding::kPlain;
  int32_t count = 0;
};

struct ColumnMetaData {
  PhysicalType type = PhysicalType::kInt32;
  std::vector<Encoding> encodings;
  std::vector<std::string> path_in_schema;
  CompressionCodec codec = CompressionCodec::kUncompressed;
  int64_t num_values = 0;
  int64_t total_uncompressed_size = 0;
  int64_t total_compressed_size = 0;
  std::vector<KeyValue> key_value_metadata;
  int64_t data_page_offset = 0;
  std::optional<int64_t> index_page_offset;
  std::optional<int64_t> dictionary_page_offset;
  std::optional<Statistics> statistics;
  std::optional<std::vector<PageEncodingStats>> encoding_stats;
  std::optional<int64_t> bloom_filter_offset;
  std::optional<int32_t> bloom_filter_length;
  std::optional<SizeStatistics> size_statistics;
  std::optional<GeospatialStatistics> geospatial_statistics;
};

struct ColumnCryptoMetaData {
  enum class Kind : int32_t { kNone = 0, kFooterKey = 1, kColumnKey = 2 };
  Kind kind = Kind::kNone;
  std::vector<std::string> path_in_schema;  // kColumnKey
  std::optional<std::string> key_metadata;  // kColumnKey
};

struct ColumnChunk {
  std::optional<std::string> file_path;
  int64_t file_offset = 0;
  std::optional<ColumnMetaData> meta_data;
  std::optional<int64_t> offset_index_offset;
  std::optional<int32_t> offset_index_length;
  std::optional<int64_t> column_index_offset;
  std::optional<int32_t> column_index_length;
  std::optional<ColumnCryptoMetaData> crypto_metadata;
  std::optional<std::string> encrypted_column_metadata;
};

struct RowGroup {
  std::vector<ColumnChunk> columns;
  int64_t total_byte_size = 0;
  int64_t num_rows = 0;
  std::optional<std::vector<SortingColumn>> sorting_columns;
  std::optional<int64_t> file_offset;
  std::optional<int64_t> total_compressed_size;
  std::optional<int16_t> ordinal;
};

struct ColumnOrder {
  enum class Kind : int32_t { kUnknown = 0, kTypeDefinedOrder = 1, kIeee754TotalOrder = 2,
                              kInt96TimestampOrder = 3 };
  Kind kind = Kind::kUnknown;
};

struct PageLocation {
  int64_t offset = 0;
  int32_t compressed_page_size = 0;
  int64_t first_row_index = 0;
};

struct OffsetIndex {
  std::vector<PageLocation> page_locations;
  std::vector<int64_t> unencoded_byte_array_data_bytes;
};

struct ColumnIndex {
  std::vector<bool> null_pages;
  std::vector<std::string> min_values;
  std::vector<std::string> max_values;
  BoundaryOrder boundary_order = BoundaryOrder::kUnordered;
  std::optional<std::vector<int64_t>> null_counts;
  std::vector<int64_t> repetition_level_histograms;
  std::vector<int64_t> definition_level_histograms;
  std::optional<std::vector<int64_t>> nan_counts;
};

struct EncryptionAlgorithm {
  enum class Kind : int32_t { kNone = 0, kAesGcmV1 = 1, kAesGcmCtrV1 = 2 };
  Kind kind = Kind::kNone;
  std::optional<std::string> aad_prefix;
  std::optional<std::string> aad_file_unique;
  std::optional<bool> supply_aad_prefix;
};

struct FileMetaData {
  int32_t version = 0;
  std::vector<SchemaElement> schema;
  int64_t num_rows = 0;
  std::vector<RowGroup> row_groups;
  std::vector<KeyValue> key_value_metadata;
  bool has_key_value_metadata = false;
  std::optional<std::string> created_by;
  std::optional<std::vector<ColumnOrder>> column_orders;
  std::optional<EncryptionAlgorithm> encryption_algorithm;
  std::optional<std::string> footer_signing_key_metadata;
};

struct FileCryptoMetaData {
  EncryptionAlgorithm encryption_algorithm;
  std::optional<std::string> key_metadata;
};

}  // namespace pq
