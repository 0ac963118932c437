// Test helpers for the metadata structs: field-by-field equality (metadata.h defines none) and
// builders of structs with every field set or only the required ones.
#pragma once

#include <string>
#include <tuple>
#include <vector>

#include "format/metadata/metadata.h"

namespace pq {

// Equality through std::tie of every field, so a field a reader stores in the wrong member fails.
inline auto Tie(const SizeStatistics& x) {
  return std::tie(x.unencoded_byte_array_data_bytes, x.repetition_level_histogram,
                  x.definition_level_histogram);
}
inline auto Tie(const BoundingBox& x) {
  return std::tie(x.xmin, x.xmax, x.ymin, x.ymax, x.zmin, x.zmax, x.mmin, x.mmax);
}
inline auto Tie(const GeospatialStatistics& x) {
  return std::tie(x.bbox, x.geospatial_types);
}
inline auto Tie(const Statistics& x) {
  return std::tie(x.max, x.min, x.null_count, x.distinct_count, x.max_value, x.min_value,
                  x.is_max_value_exact, x.is_min_value_exact, x.nan_count);
}
inline auto Tie(const LogicalType& x) {
  return std::tie(x.kind, x.decimal_scale, x.decimal_precision, x.is_adjusted_to_utc, x.unit,
                  x.bit_width, x.is_signed, x.variant_specification_version, x.crs, x.algorithm,
                  x.unknown_field_id);
}
inline auto Tie(const SchemaElement& x) {
  return std::tie(x.type, x.type_length, x.repetition_type, x.name, x.num_children,
                  x.converted_type, x.scale, x.precision, x.field_id, x.logical_type);
}
inline auto Tie(const DataPageHeader& x) {
  return std::tie(x.num_values, x.encoding, x.definition_level_encoding,
                  x.repetition_level_encoding, x.statistics);
}
inline auto Tie(const DictionaryPageHeader& x) {
  return std::tie(x.num_values, x.encoding, x.is_sorted);
}
inline auto Tie(const DataPageHeaderV2& x) {
  return std::tie(x.num_values, x.num_nulls, x.num_rows, x.encoding,
                  x.definition_levels_byte_length, x.repetition_levels_byte_length, x.is_compressed,
                  x.statistics);
}
inline auto Tie(const BloomFilterHeader& x) {
  return std::tie(x.num_bytes, x.algorithm, x.hash, x.compression);
}
inline auto Tie(const PageHeader& x) {
  return std::tie(x.type, x.uncompressed_page_size, x.compressed_page_size, x.crc,
                  x.data_page_header, x.has_index_page_header, x.dictionary_page_header,
                  x.data_page_header_v2);
}
inline auto Tie(const KeyValue& x) {
  return std::tie(x.key, x.value);
}
inline auto Tie(const SortingColumn& x) {
  return std::tie(x.column_idx, x.descending, x.nulls_first);
}
inline auto Tie(const PageEncodingStats& x) {
  return std::tie(x.page_type, x.encoding, x.count);
}
inline auto Tie(const ColumnMetaData& x) {
  return std::tie(x.type, x.encodings, x.path_in_schema, x.codec, x.num_values,
                  x.total_uncompressed_size, x.total_compressed_size, x.key_value_metadata,
                  x.data_page_offset, x.index_page_offset, x.dictionary_page_offset, x.statistics,
                  x.encoding_stats, x.bloom_filter_offset, x.bloom_filter_length, x.size_statistics,
                  x.geospatial_statistics);
}
inline auto Tie(const ColumnCryptoMetaData& x) {
  return std::tie(x.kind, x.path_in_schema, x.key_metadata);
}
inline auto Tie(const ColumnChunk& x) {
  return std::tie(x.file_path, x.file_offset, x.meta_data, x.offset_index_offset,
                  x.offset_index_length, x.column_index_offset, x.column_index_length,
                  x.crypto_metadata, x.encrypted_column_metadata);
}
inline auto Tie(const RowGroup& x) {
  return std::tie(x.columns, x.total_byte_size, x.num_rows, x.sorting_columns, x.file_offset,
                  x.total_compressed_size, x.ordinal);
}
inline auto Tie(const ColumnOrder& x) {
  return std::tie(x.kind);
}
inline auto Tie(const PageLocation& x) {
  return std::tie(x.offset, x.compressed_page_size, x.first_row_index);
}
inline auto Tie(const OffsetIndex& x) {
  return std::tie(x.page_locations, x.unencoded_byte_array_data_bytes);
}
inline auto Tie(const ColumnIndex& x) {
  return std::tie(x.null_pages, x.min_values, x.max_values, x.boundary_order, x.null_counts,
                  x.repetition_level_histograms, x.definition_level_histograms, x.nan_counts);
}
inline auto Tie(const EncryptionAlgorithm& x) {
  return std::tie(x.kind, x.aad_prefix, x.aad_file_unique, x.supply_aad_prefix);
}
inline auto Tie(const FileMetaData& x) {
  return std::tie(x.version, x.schema, x.num_rows, x.row_groups, x.key_value_metadata,
                  x.has_key_value_metadata, x.created_by, x.column_orders, x.encryption_algorithm,
                  x.footer_signing_key_metadata);
}
inline auto Tie(const FileCryptoMetaData& x) {
  return std::tie(x.encryption_algorithm, x.key_metadata);
}

#define PQ_TEST_EQ(T)                              \
  inline bool operator==(const T& a, const T& b) { \
    return Tie(a) == Tie(b);                       \
  }
PQ_TEST_EQ(SizeStatistics)
PQ_TEST_EQ(BoundingBox)
PQ_TEST_EQ(GeospatialStatistics)
PQ_TEST_EQ(Statistics)
PQ_TEST_EQ(LogicalType)
PQ_TEST_EQ(SchemaElement)
PQ_TEST_EQ(DataPageHeader)
PQ_TEST_EQ(DictionaryPageHeader)
PQ_TEST_EQ(DataPageHeaderV2)
PQ_TEST_EQ(BloomFilterHeader)
PQ_TEST_EQ(PageHeader)
PQ_TEST_EQ(KeyValue)
PQ_TEST_EQ(SortingColumn)
PQ_TEST_EQ(PageEncodingStats)
PQ_TEST_EQ(ColumnMetaData)
PQ_TEST_EQ(ColumnCryptoMetaData)
PQ_TEST_EQ(ColumnChunk)
PQ_TEST_EQ(RowGroup)
PQ_TEST_EQ(ColumnOrder)
PQ_TEST_EQ(PageLocation)
PQ_TEST_EQ(OffsetIndex)
PQ_TEST_EQ(ColumnIndex)
PQ_TEST_EQ(EncryptionAlgorithm)
PQ_TEST_EQ(FileMetaData)
PQ_TEST_EQ(FileCryptoMetaData)
#undef PQ_TEST_EQ

// Every field set, values chosen so that no two fields of a struct share a value (a reader that
// swaps two fields fails), with negative numbers, long strings and lists of 15+ elements.
inline Statistics FullStatistics() {
  Statistics s;
  s.max = "max-old";
  s.min = "min-old";
  s.null_count = 3;
  s.distinct_count = -4;
  s.max_value = std::string(200, 'z');
  s.min_value = std::string("\0a", 2);
  s.is_max_value_exact = true;
  s.is_min_value_exact = false;
  s.nan_count = 1234567890123LL;
  return s;
}

inline std::vector<int64_t> Histogram(int n, int64_t base) {
  std::vector<int64_t> v;
  for (int i = 0; i < n; ++i) v.push_back(base * (i + 1) - i * i);
  return v;
}

inline ColumnMetaData FullColumnMetaData() {
  ColumnMetaData c;
  c.type = PhysicalType::kByteArray;
  c.encodings = {Encoding::kPlain, Encoding::kRle, Encoding::kRleDictionary, Encoding::kAlp};
  c.path_in_schema = {"a", "list", "element"};
  c.codec = CompressionCodec::kZstd;
  c.num_values = 1000001;
  c.total_uncompressed_size = 5000000000LL;
  c.total_compressed_size = 4000000000LL;
  c.key_value_metadata = {{"k1", "v1"}, {"k2", std::nullopt}};
  c.data_page_offset = 123456;
  c.index_page_offset = 77;
  c.dictionary_page_offset = 100;
  c.statistics = FullStatistics();
  c.encoding_stats =
      std::vector<PageEncodingStats>{{PageType::kDictionaryPage, Encoding::kPlain, 1},
                                     {PageType::kDataPage, Encoding::kRleDictionary, 17}};
  c.bloom_filter_offset = 999999;
  c.bloom_filter_length = 4096;
  SizeStatistics ss;
  ss.unencoded_byte_array_data_bytes = 31337;
  ss.repetition_level_histogram = Histogram(3, 10);
  ss.definition_level_histogram = Histogram(20, 1000);
  c.size_statistics = ss;
  GeospatialStatistics gs;
  BoundingBox bb;
  bb.xmin = -180.5;
  bb.xmax = 179.25;
  bb.ymin = -90;
  bb.ymax = 89.75;
  bb.zmin = -1;
  bb.zmax = 2;
  bb.mmin = -3.5;
  bb.mmax = 1e300;
  gs.bbox = bb;
  gs.geospatial_types = {1, 2, 1003, 3001};
  c.geospatial_statistics = gs;
  return c;
}

inline ColumnMetaData MinimalColumnMetaData() {
  ColumnMetaData c;
  c.type = PhysicalType::kInt64;
  c.encodings = {Encoding::kPlain};
  c.path_in_schema = {"x"};
  c.codec = CompressionCodec::kSnappy;
  c.num_values = 8;
  c.total_uncompressed_size = 80;
  c.total_compressed_size = 70;
  c.data_page_offset = 4;
  return c;
}

// One schema element per logical type alternative, so every union member round-trips.
inline std::vector<SchemaElement> FullSchema() {
  std::vector<SchemaElement> schema;
  SchemaElement root;
  root.name = "root";
  root.num_children = 0;
  root.repetition_type = Repetition::kRequired;
  schema.push_back(root);
  auto add = [&](LogicalType lt) {
    SchemaElement e;
    e.type = PhysicalType::kFixedLenByteArray;
    e.type_length = 16;
    e.repetition_type = Repetition::kOptional;
    e.name = "c" + std::to_string(schema.size());
    e.converted_type = ConvertedType::kDecimal;
    e.scale = 2;
    e.precision = 9;
    e.field_id = -static_cast<int32_t>(schema.size());
    e.logical_type = lt;
    schema.push_back(e);
  };
  using K = LogicalType::Kind;
  for (K k : {K::kString, K::kMap, K::kList, K::kEnum, K::kDate, K::kUnknown, K::kJson, K::kBson,
              K::kUuid, K::kFloat16, K::kFile}) {
    LogicalType lt;
    lt.kind = k;
    add(lt);
  }
  LogicalType dec;
  dec.kind = K::kDecimal;
  dec.decimal_scale = 3;
  dec.decimal_precision = 38;
  add(dec);
  for (K k : {K::kTime, K::kTimestamp}) {
    for (TimeUnit u : {TimeUnit::kMillis, TimeUnit::kMicros, TimeUnit::kNanos}) {
      for (bool utc : {true, false}) {
        LogicalType lt;
        lt.kind = k;
        lt.unit = u;
        lt.is_adjusted_to_utc = utc;
        add(lt);
      }
    }
  }
  for (int8_t bits : {8, 16, 32, 64}) {
    for (bool sign : {true, false}) {
      LogicalType lt;
      lt.kind = K::kInteger;
      lt.bit_width = bits;
      lt.is_signed = sign;
      add(lt);
    }
  }
  LogicalType variant;
  variant.kind = K::kVariant;
  variant.variant_specification_version = 1;
  add(variant);
  variant.variant_specification_version.reset();
  add(variant);
  LogicalType geometry;
  geometry.kind = K::kGeometry;
  geometry.crs = "OGC:CRS84";
  add(geometry);
  geometry.crs.reset();
  add(geometry);
  LogicalType geography;
  geography.kind = K::kGeography;
  geography.crs = "srid:4326";
  geography.algorithm = EdgeInterpolationAlgorithm::kKarney;
  add(geography);
  geography.algorithm.reset();
  add(geography);
  LogicalType unknown;  // an alternative from a newer edition: written back under its id
  unknown.unknown_field_id = 25;
  add(unknown);
  LogicalType none;  // an empty union
  add(none);
  schema[0].num_children = static_cast<int32_t>(schema.size() - 1);
  return schema;
}

// Every field of every struct set somewhere: column chunks alternate full and minimal metadata and
// the three kinds of column crypto metadata, so 3 columns already cover everything.
inline FileMetaData FullFileMetaData(int row_groups = 3, int columns = 16) {
  FileMetaData f;
  f.version = 2;
  f.schema = FullSchema();
  f.num_rows = 9876543210LL;
  for (int g = 0; g < row_groups; ++g) {
    RowGroup rg;
    for (int c = 0; c < columns; ++c) {
      ColumnChunk cc;
      cc.file_path = "part-" + std::to_string(c) + ".parquet";
      cc.file_offset = 4 + 1000 * c;
      cc.meta_data = (c % 2 == 0) ? FullColumnMetaData() : MinimalColumnMetaData();
      cc.offset_index_offset = 5000000 + c;
      cc.offset_index_length = 30 + c;
      cc.column_index_offset = 6000000 + c;
      cc.column_index_length = 40 + c;
      ColumnCryptoMetaData crypto;
      if (c % 3 == 1) {
        crypto.kind = ColumnCryptoMetaData::Kind::kFooterKey;
      } else if (c % 3 == 2) {
        crypto.kind = ColumnCryptoMetaData::Kind::kColumnKey;
        crypto.path_in_schema = {"a", "b"};
        crypto.key_metadata = "kc1";
      }
      cc.crypto_metadata = crypto;
      cc.encrypted_column_metadata = std::string("\x01\x02\x00\xff", 4);
      rg.columns.push_back(cc);
    }
    rg.total_byte_size = 1 << 20;
    rg.num_rows = 1000 + g;
    rg.sorting_columns = std::vector<SortingColumn>{{0, true, false}, {3, false, true}};
    rg.file_offset = 4;
    rg.total_compressed_size = 555;
    rg.ordinal = static_cast<int16_t>(-g);
    f.row_groups.push_back(rg);
  }
  f.key_value_metadata = {{"writer", "pq"}, {"empty", ""}, {"novalue", std::nullopt}};
  f.has_key_value_metadata = true;
  f.created_by = "pq test";
  f.column_orders = std::vector<ColumnOrder>{{ColumnOrder::Kind::kTypeDefinedOrder},
                                             {ColumnOrder::Kind::kIeee754TotalOrder},
                                             {ColumnOrder::Kind::kInt96TimestampOrder},
                                             {ColumnOrder::Kind::kUnknown}};
  EncryptionAlgorithm alg;
  alg.kind = EncryptionAlgorithm::Kind::kAesGcmCtrV1;
  alg.aad_prefix = "tester";
  alg.aad_file_unique = std::string("\x00\x01\x02", 3);
  alg.supply_aad_prefix = true;
  f.encryption_algorithm = alg;
  f.footer_signing_key_metadata = "kf";
  return f;
}

inline FileMetaData MinimalFileMetaData() {
  FileMetaData f;
  f.version = 1;
  SchemaElement root;
  root.name = "schema";
  f.schema.push_back(root);
  f.num_rows = 0;
  return f;
}

}  // namespace pq
