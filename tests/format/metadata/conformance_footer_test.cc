// The metadata readers on the footers, page headers, page indexes and Bloom filter headers of the
// conformance files in tests/data/parquet-testing/data. Facts asserted here were read off
// the files independently (names, counts, offsets), and the tests cross-check the structures
// against each other: walking a column chunk's pages header by header must land exactly on the
// chunk's end and add up to its num_values; the offset index must point at those same page headers.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <string>
#include <vector>

#include "format/metadata/metadata_io.h"

namespace pq {
namespace {

const std::string kDataDir = std::string(PQ_TESTDATA_DIR) + "/parquet-testing/data/";

std::vector<uint8_t> ReadWholeFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  EXPECT_TRUE(in.good()) << "cannot open " << path;
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// A file's footer: the bytes before the 4-byte little-endian length and the magic at the end.
struct Footer {
  std::vector<uint8_t> file;
  size_t start = 0;   // offset of the footer in the file
  size_t length = 0;  // footer bytes
  std::string magic;  // "PAR1" or "PARE"

  ByteSpan bytes() const { return ByteSpan(file).subspan(start, length); }
  ByteSpan at(int64_t offset, size_t n) const {
    return ByteSpan(file).subspan(static_cast<size_t>(offset), n);
  }
  ByteSpan from(int64_t offset) const {
    return ByteSpan(file).subspan(static_cast<size_t>(offset));
  }
};

Footer LoadFooter(const std::string& path) {
  Footer f;
  f.file = ReadWholeFile(path);
  if (f.file.size() < 12) {
    ADD_FAILURE() << path << " too small";
    return f;
  }
  const size_t n = f.file.size();
  f.magic.assign(reinterpret_cast<const char*>(&f.file[n - 4]), 4);
  uint32_t len;
  std::memcpy(&len, &f.file[n - 8], 4);
  f.length = len;
  EXPECT_LE(f.length, n - 12) << path;
  f.start = n - 8 - f.length;
  return f;
}

// Parses the footer and checks it took exactly the footer's bytes.
FileMetaData ParseFooter(const Footer& f, const std::string& name) {
  FileMetaData md;
  size_t consumed = 0;
  Status st = ReadFileMetaData(f.bytes(), &md, &consumed);
  EXPECT_TRUE(st.ok()) << name << ": " << st.ToString();
  EXPECT_EQ(consumed, f.length) << name;
  return md;
}

// Reads every page header of a column chunk, from its first page to total_compressed_size bytes
// later.
struct ChunkWalk {
  int64_t end = 0;  // where the walk stopped
  int64_t data_values = 0;
  int data_pages = 0;
  int dictionary_pages = 0;
  std::vector<int64_t> data_page_offsets;
};

ChunkWalk WalkChunk(const Footer& f, const ColumnMetaData& m, const std::string& what) {
  ChunkWalk w;
  int64_t pos = (m.dictionary_page_offset.has_value() && *m.dictionary_page_offset > 0)
                    ? *m.dictionary_page_offset
                    : m.data_page_offset;
  const int64_t end = pos + m.total_compressed_size;
  while (pos < end) {
    PageHeader ph;
    size_t consumed = 0;
    Status st = ReadPageHeader(f.from(pos), &ph, &consumed);
    if (!st.ok()) {
      ADD_FAILURE() << what << " page at " << pos << ": " << st.ToString();
      break;
    }
    if (ph.type == PageType::kDictionaryPage) {
      EXPECT_TRUE(ph.dictionary_page_header.has_value()) << what;
      ++w.dictionary_pages;
    } else if (ph.type == PageType::kDataPage) {
      EXPECT_TRUE(ph.data_page_header.has_value()) << what;
      w.data_values += ph.data_page_header->num_values;
      w.data_page_offsets.push_back(pos);
      ++w.data_pages;
    } else if (ph.type == PageType::kDataPageV2) {
      EXPECT_TRUE(ph.data_page_header_v2.has_value()) << what;
      w.data_values += ph.data_page_header_v2->num_values;
      w.data_page_offsets.push_back(pos);
      ++w.data_pages;
    }
    EXPECT_GE(ph.compressed_page_size, 0) << what;
    pos += static_cast<int64_t>(consumed) + ph.compressed_page_size;
  }
  w.end = pos;
  return w;
}

TEST(ConformanceFooterTest, AlltypesPlain) {
  const Footer f = LoadFooter(kDataDir + "alltypes_plain.parquet");
  ASSERT_EQ(f.magic, "PAR1");
  EXPECT_EQ(f.length, 730u);
  const FileMetaData md = ParseFooter(f, "alltypes_plain");
  EXPECT_EQ(md.version, 1);
  EXPECT_EQ(md.num_rows, 8);
  ASSERT_EQ(md.schema.size(), 12u);
  EXPECT_EQ(md.schema[0].name, "schema");
  EXPECT_EQ(md.schema[0].num_children, 11);
  EXPECT_FALSE(md.schema[0].type.has_value());
  const std::vector<std::string> names = {
      "id",        "bool_col",   "tinyint_col",     "smallint_col", "int_col",      "bigint_col",
      "float_col", "double_col", "date_string_col", "string_col",   "timestamp_col"};
  const std::vector<PhysicalType> types = {
      PhysicalType::kInt32,     PhysicalType::kBoolean, PhysicalType::kInt32,
      PhysicalType::kInt32,     PhysicalType::kInt32,   PhysicalType::kInt64,
      PhysicalType::kFloat,     PhysicalType::kDouble,  PhysicalType::kByteArray,
      PhysicalType::kByteArray, PhysicalType::kInt96};
  for (size_t i = 0; i < names.size(); ++i) {
    EXPECT_EQ(md.schema[i + 1].name, names[i]);
    EXPECT_EQ(md.schema[i + 1].type, types[i]) << names[i];
    EXPECT_EQ(md.schema[i + 1].repetition_type, Repetition::kOptional) << names[i];
  }
  ASSERT_EQ(md.row_groups.size(), 1u);
  const RowGroup& rg = md.row_groups[0];
  EXPECT_EQ(rg.num_rows, 8);
  EXPECT_EQ(rg.total_byte_size, 671);
  ASSERT_EQ(rg.columns.size(), 11u);
  for (size_t i = 0; i < names.size(); ++i) {
    const ColumnChunk& cc = rg.columns[i];
    ASSERT_TRUE(cc.meta_data.has_value());
    const ColumnMetaData& m = *cc.meta_data;
    EXPECT_EQ(m.path_in_schema, std::vector<std::string>{names[i]});
    EXPECT_EQ(m.type, types[i]);
    EXPECT_EQ(m.num_values, 8);
    EXPECT_EQ(m.codec, CompressionCodec::kUncompressed);
    EXPECT_EQ(m.encodings, (std::vector<Encoding>{Encoding::kRle, Encoding::kPlainDictionary,
                                                  Encoding::kPlain}));
    const ChunkWalk w = WalkChunk(f, m, names[i]);
    EXPECT_EQ(w.end,
              m.dictionary_page_offset.value_or(m.data_page_offset) + m.total_compressed_size);
    EXPECT_EQ(w.data_values, 8) << names[i];
    // Impala wrote each chunk's file_offset as the end of its data.
    EXPECT_EQ(cc.file_offset, w.end) << names[i];
  }
  EXPECT_EQ(rg.columns[0].meta_data->dictionary_page_offset, 4);
  EXPECT_EQ(rg.columns[0].meta_data->data_page_offset, 49);
  ASSERT_TRUE(md.created_by.has_value());
  EXPECT_EQ(md.created_by->rfind("impala version 1.3.0-INTERNAL", 0), 0u);
  EXPECT_FALSE(md.has_key_value_metadata);
  EXPECT_FALSE(md.column_orders.has_value());
}

TEST(ConformanceFooterTest, BloomFilterColumnIndexOffsetIndexAndEncodingStats) {
  const Footer f = LoadFooter(kDataDir + "data_index_bloom_encoding_stats.parquet");
  const FileMetaData md = ParseFooter(f, "data_index_bloom_encoding_stats");
  EXPECT_EQ(md.num_rows, 14);
  ASSERT_EQ(md.schema.size(), 2u);
  EXPECT_EQ(md.schema[1].name, "String");
  ASSERT_TRUE(md.schema[1].logical_type.has_value());
  EXPECT_EQ(md.schema[1].logical_type->kind, LogicalType::Kind::kString);
  EXPECT_EQ(md.schema[1].converted_type, ConvertedType::kUtf8);
  ASSERT_TRUE(md.has_key_value_metadata);
  ASSERT_EQ(md.key_value_metadata.size(), 2u);
  EXPECT_EQ(md.key_value_metadata[0].key, "parquet.avro.schema");
  EXPECT_EQ(md.key_value_metadata[1].key, "writer.model.name");
  EXPECT_EQ(md.key_value_metadata[1].value, "avro");
  ASSERT_TRUE(md.column_orders.has_value());
  ASSERT_EQ(md.column_orders->size(), 1u);
  EXPECT_EQ((*md.column_orders)[0].kind, ColumnOrder::Kind::kTypeDefinedOrder);

  ASSERT_EQ(md.row_groups.size(), 1u);
  const RowGroup& rg = md.row_groups[0];
  EXPECT_EQ(rg.file_offset, 4);
  EXPECT_EQ(rg.total_compressed_size, 152);
  EXPECT_EQ(rg.ordinal, 0);
  const ColumnChunk& cc = rg.columns.at(0);
  const ColumnMetaData& m = *cc.meta_data;
  EXPECT_EQ(m.codec, CompressionCodec::kGzip);
  EXPECT_EQ(m.num_values, 14);
  ASSERT_TRUE(m.statistics.has_value());
  EXPECT_EQ(m.statistics->null_count, 0);
  EXPECT_EQ(m.statistics->min_value, "Hello");
  EXPECT_EQ(m.statistics->max_value, "today");
  EXPECT_FALSE(m.statistics->min.has_value());
  ASSERT_TRUE(m.encoding_stats.has_value());
  ASSERT_EQ(m.encoding_stats->size(), 1u);
  EXPECT_EQ((*m.encoding_stats)[0].page_type, PageType::kDataPage);
  EXPECT_EQ((*m.encoding_stats)[0].encoding, Encoding::kPlain);
  EXPECT_EQ((*m.encoding_stats)[0].count, 1);
  const ChunkWalk w = WalkChunk(f, m, "String");
  EXPECT_EQ(w.data_pages, 1);
  EXPECT_EQ(w.data_values, 14);
  EXPECT_EQ(w.end, m.data_page_offset + m.total_compressed_size);

  // The column index and offset index sit between the data and the Bloom filter.
  ASSERT_TRUE(cc.column_index_offset.has_value() && cc.column_index_length.has_value());
  EXPECT_EQ(*cc.column_index_offset, 156);
  ColumnIndex ci;
  size_t consumed = 0;
  ASSERT_TRUE(
      ReadColumnIndex(f.at(*cc.column_index_offset, static_cast<size_t>(*cc.column_index_length)),
                      &ci, &consumed)
          .ok());
  EXPECT_EQ(consumed, static_cast<size_t>(*cc.column_index_length));
  EXPECT_EQ(ci.null_pages, std::vector<bool>{false});
  EXPECT_EQ(ci.min_values, std::vector<std::string>{"Hello"});
  EXPECT_EQ(ci.max_values, std::vector<std::string>{"today"});
  ASSERT_TRUE(ci.null_counts.has_value());
  EXPECT_EQ(*ci.null_counts, std::vector<int64_t>{0});

  ASSERT_TRUE(cc.offset_index_offset.has_value() && cc.offset_index_length.has_value());
  EXPECT_EQ(*cc.offset_index_offset, *cc.column_index_offset + *cc.column_index_length);
  OffsetIndex oi;
  ASSERT_TRUE(
      ReadOffsetIndex(f.at(*cc.offset_index_offset, static_cast<size_t>(*cc.offset_index_length)),
                      &oi, &consumed)
          .ok());
  EXPECT_EQ(consumed, static_cast<size_t>(*cc.offset_index_length));
  ASSERT_EQ(oi.page_locations.size(), 1u);
  EXPECT_EQ(oi.page_locations[0].offset, m.data_page_offset);
  EXPECT_EQ(oi.page_locations[0].compressed_page_size, m.total_compressed_size);
  EXPECT_EQ(oi.page_locations[0].first_row_index, 0);

  // The Bloom filter: its header, then num_bytes of bitset that end where the footer starts.
  ASSERT_TRUE(m.bloom_filter_offset.has_value());
  EXPECT_EQ(*m.bloom_filter_offset, 192);
  EXPECT_FALSE(m.bloom_filter_length.has_value());
  EXPECT_EQ(*m.bloom_filter_offset, *cc.offset_index_offset + *cc.offset_index_length);
  BloomFilterHeader bf;
  ASSERT_TRUE(ReadBloomFilterHeader(f.from(*m.bloom_filter_offset), &bf, &consumed).ok());
  EXPECT_EQ(bf.algorithm, 1);
  EXPECT_EQ(bf.hash, 1);
  EXPECT_EQ(bf.compression, 1);
  EXPECT_GT(bf.num_bytes, 0);
  EXPECT_EQ(bf.num_bytes & (bf.num_bytes - 1), 0) << "a split-block filter is a power of two bytes";
  EXPECT_EQ(*m.bloom_filter_offset + static_cast<int64_t>(consumed) + bf.num_bytes,
            static_cast<int64_t>(f.start));
}

TEST(ConformanceFooterTest, BloomFilterLengthCoversHeaderAndBitset) {
  const Footer f = LoadFooter(kDataDir + "data_index_bloom_encoding_with_length.parquet");
  const FileMetaData md = ParseFooter(f, "data_index_bloom_encoding_with_length");
  const ColumnMetaData& m = *md.row_groups.at(0).columns.at(0).meta_data;
  ASSERT_TRUE(m.bloom_filter_offset.has_value());
  ASSERT_TRUE(m.bloom_filter_length.has_value());
  BloomFilterHeader bf;
  size_t consumed = 0;
  ASSERT_TRUE(ReadBloomFilterHeader(f.from(*m.bloom_filter_offset), &bf, &consumed).ok());
  EXPECT_EQ(static_cast<int64_t>(consumed) + bf.num_bytes, *m.bloom_filter_length);
}

TEST(ConformanceFooterTest, StandaloneBloomFilterHeader) {
  const std::vector<uint8_t> file = ReadWholeFile(kDataDir + "bloom_filter.xxhash.bin");
  BloomFilterHeader bf;
  size_t consumed = 0;
  ASSERT_TRUE(ReadBloomFilterHeader(file, &bf, &consumed).ok());
  EXPECT_EQ(bf.num_bytes, 1024);
  EXPECT_EQ(bf.algorithm, 1);
  EXPECT_EQ(bf.hash, 1);
  EXPECT_EQ(bf.compression, 1);
  EXPECT_EQ(consumed + static_cast<size_t>(bf.num_bytes), file.size());
}

TEST(ConformanceFooterTest, TinyPagesOffsetIndexAndColumnIndexAgreeWithPageHeaders) {
  const Footer f = LoadFooter(kDataDir + "alltypes_tiny_pages.parquet");
  const FileMetaData md = ParseFooter(f, "alltypes_tiny_pages");
  EXPECT_EQ(md.num_rows, 7300);
  ASSERT_EQ(md.schema.size(), 14u);
  EXPECT_EQ(md.schema[0].name, "hive_schema");
  // tinyint_col: INT(8, signed) with converted type INT_8.
  ASSERT_TRUE(md.schema[3].logical_type.has_value());
  EXPECT_EQ(md.schema[3].logical_type->kind, LogicalType::Kind::kInteger);
  EXPECT_EQ(md.schema[3].logical_type->bit_width, 8);
  EXPECT_TRUE(md.schema[3].logical_type->is_signed);
  EXPECT_EQ(md.schema[3].converted_type, ConvertedType::kInt8);
  ASSERT_EQ(md.row_groups.size(), 1u);
  const RowGroup& rg = md.row_groups[0];
  ASSERT_EQ(rg.columns.size(), 13u);
  EXPECT_EQ(rg.num_rows, 7300);

  for (size_t c = 0; c < rg.columns.size(); ++c) {
    const ColumnChunk& cc = rg.columns[c];
    const ColumnMetaData& m = *cc.meta_data;
    const std::string what = m.path_in_schema.at(0);
    SCOPED_TRACE(what);
    const ChunkWalk w = WalkChunk(f, m, what);
    EXPECT_EQ(w.end, (m.dictionary_page_offset ? *m.dictionary_page_offset : m.data_page_offset) +
                         m.total_compressed_size);
    EXPECT_EQ(w.data_values, m.num_values);
    if (m.encoding_stats.has_value()) {
      int data_pages = 0;
      for (const PageEncodingStats& s : *m.encoding_stats) {
        if (s.page_type == PageType::kDataPage) data_pages += s.count;
      }
      EXPECT_EQ(data_pages, w.data_pages);
    }

    ASSERT_TRUE(cc.offset_index_offset.has_value() && cc.offset_index_length.has_value());
    OffsetIndex oi;
    size_t consumed = 0;
    Status st =
        ReadOffsetIndex(f.at(*cc.offset_index_offset, static_cast<size_t>(*cc.offset_index_length)),
                        &oi, &consumed);
    ASSERT_TRUE(st.ok()) << st.ToString();
    EXPECT_EQ(consumed, static_cast<size_t>(*cc.offset_index_length));
    ASSERT_EQ(oi.page_locations.size(), static_cast<size_t>(w.data_pages));
    EXPECT_GT(oi.page_locations.size(), 1u);
    EXPECT_EQ(oi.page_locations[0].first_row_index, 0);
    for (size_t i = 0; i < oi.page_locations.size(); ++i) {
      const PageLocation& loc = oi.page_locations[i];
      EXPECT_EQ(loc.offset, w.data_page_offsets[i]);
      if (i > 0) {
        EXPECT_GT(loc.first_row_index, oi.page_locations[i - 1].first_row_index);
      }
      EXPECT_LT(loc.first_row_index, rg.num_rows);
      // The location's size is the page's header plus its data.
      PageHeader ph;
      size_t header = 0;
      ASSERT_TRUE(ReadPageHeader(f.from(loc.offset), &ph, &header).ok());
      EXPECT_EQ(loc.compressed_page_size, static_cast<int64_t>(header) + ph.compressed_page_size);
    }
    if (c == 0) {
      EXPECT_EQ(oi.page_locations.size(), 325u);  // id: 325 data pages
    }

    // INT96 timestamp_col has no statistics and so no column index.
    if (what == "timestamp_col") {
      EXPECT_FALSE(cc.column_index_offset.has_value());
      continue;
    }
    ASSERT_TRUE(cc.column_index_offset.has_value() && cc.column_index_length.has_value());
    ColumnIndex ci;
    st =
        ReadColumnIndex(f.at(*cc.column_index_offset, static_cast<size_t>(*cc.column_index_length)),
                        &ci, &consumed);
    ASSERT_TRUE(st.ok()) << st.ToString();
    EXPECT_EQ(consumed, static_cast<size_t>(*cc.column_index_length));
    EXPECT_EQ(ci.null_pages.size(), oi.page_locations.size());
    EXPECT_EQ(ci.min_values.size(), oi.page_locations.size());
    EXPECT_EQ(ci.max_values.size(), oi.page_locations.size());
    if (c == 0) {
      // id holds 0..7299, not in file order (UNORDERED): each page's min <= max, and the smallest
      // page min and largest page max are the chunk statistics' 0 and 7299.
      EXPECT_EQ(ci.boundary_order, BoundaryOrder::kUnordered);
      int32_t lowest = INT32_MAX, highest = INT32_MIN;
      for (size_t i = 0; i < ci.min_values.size(); ++i) {
        ASSERT_EQ(ci.min_values[i].size(), 4u);
        ASSERT_EQ(ci.max_values[i].size(), 4u);
        int32_t lo, hi;
        std::memcpy(&lo, ci.min_values[i].data(), 4);
        std::memcpy(&hi, ci.max_values[i].data(), 4);
        EXPECT_LE(lo, hi);
        lowest = std::min(lowest, lo);
        highest = std::max(highest, hi);
      }
      EXPECT_EQ(lowest, 0);
      EXPECT_EQ(highest, 7299);
      EXPECT_EQ(m.statistics->min_value, std::string("\0\0\0\0", 4));
      EXPECT_EQ(m.statistics->max_value, std::string("\x83\x1c\0\0", 4));
    }
  }
}

TEST(ConformanceFooterTest, UnknownLogicalTypeAndSizeStatistics) {
  const Footer f = LoadFooter(kDataDir + "unknown-logical-type.parquet");
  const FileMetaData md = ParseFooter(f, "unknown-logical-type");
  ASSERT_EQ(md.schema.size(), 3u);
  EXPECT_EQ(md.schema[1].name, "column with known type");
  EXPECT_EQ(md.schema[1].logical_type->kind, LogicalType::Kind::kString);
  EXPECT_EQ(md.schema[2].name, "column with unknown type");
  ASSERT_TRUE(md.schema[2].logical_type.has_value());
  EXPECT_EQ(md.schema[2].logical_type->kind, LogicalType::Kind::kNone);
  EXPECT_EQ(md.schema[2].logical_type->unknown_field_id, 2555);
  EXPECT_EQ(md.schema[2].type, PhysicalType::kByteArray);
  const ColumnMetaData& m = *md.row_groups.at(0).columns.at(0).meta_data;
  ASSERT_TRUE(m.size_statistics.has_value());
  EXPECT_EQ(m.size_statistics->unencoded_byte_array_data_bytes, 42);
  EXPECT_TRUE(m.size_statistics->repetition_level_histogram.empty());
  EXPECT_EQ(m.size_statistics->definition_level_histogram, (std::vector<int64_t>{0, 3}));
  EXPECT_EQ(md.num_rows, 3);
}

TEST(ConformanceFooterTest, ColumnChunkKeyValueMetadata) {
  const Footer f = LoadFooter(kDataDir + "column_chunk_key_value_metadata.parquet");
  const FileMetaData md = ParseFooter(f, "column_chunk_key_value_metadata");
  const ColumnMetaData& m = *md.row_groups.at(0).columns.at(0).meta_data;
  ASSERT_EQ(m.key_value_metadata.size(), 2u);
  EXPECT_EQ(m.key_value_metadata[0].key, "foo");
  EXPECT_EQ(m.key_value_metadata[0].value, "bar");
  EXPECT_EQ(m.key_value_metadata[1].key, "thisiskeywithoutvalue");
  EXPECT_FALSE(m.key_value_metadata[1].value.has_value());
  EXPECT_TRUE(md.row_groups[0].columns.at(1).meta_data->key_value_metadata.empty());
}

TEST(ConformanceFooterTest, GeospatialStatisticsAndLogicalTypes) {
  const Footer f = LoadFooter(kDataDir + "geospatial/geospatial.parquet");
  const FileMetaData md = ParseFooter(f, "geospatial");
  ASSERT_EQ(md.schema.size(), 4u);
  EXPECT_EQ(md.schema[3].name, "geometry");
  EXPECT_EQ(md.schema[3].logical_type->kind, LogicalType::Kind::kGeometry);
  EXPECT_FALSE(md.schema[3].logical_type->crs.has_value());
  EXPECT_EQ(md.row_groups.size(), 31u);
  int64_t rows = 0;
  for (const RowGroup& rg : md.row_groups) rows += rg.num_rows;
  EXPECT_EQ(rows, md.num_rows);
  // Row group 0, column "geometry": POLYGON ZM bounds x 10..40, y 10..40, z 30..80, m 200..1600.
  const ColumnMetaData& m = *md.row_groups[0].columns.at(2).meta_data;
  ASSERT_TRUE(m.geospatial_statistics.has_value());
  ASSERT_TRUE(m.geospatial_statistics->bbox.has_value());
  const BoundingBox& bb = *m.geospatial_statistics->bbox;
  EXPECT_EQ(bb.xmin, 10.0);
  EXPECT_EQ(bb.xmax, 40.0);
  EXPECT_EQ(bb.ymin, 10.0);
  EXPECT_EQ(bb.ymax, 40.0);
  EXPECT_EQ(bb.zmin, 30.0);
  EXPECT_EQ(bb.zmax, 80.0);
  EXPECT_EQ(bb.mmin, 200.0);
  EXPECT_EQ(bb.mmax, 1600.0);
  ASSERT_GE(m.geospatial_statistics->geospatial_types.size(), 8u);
  EXPECT_EQ(m.geospatial_statistics->geospatial_types[0], 1);
  EXPECT_EQ(m.geospatial_statistics->geospatial_types[7], 1001);

  const FileMetaData srid =
      ParseFooter(LoadFooter(kDataDir + "geospatial/crs-srid.parquet"), "crs-srid");
  EXPECT_EQ(srid.schema.at(2).logical_type->kind, LogicalType::Kind::kGeometry);
  EXPECT_EQ(srid.schema.at(2).logical_type->crs, "srid:5070");
  const FileMetaData geo =
      ParseFooter(LoadFooter(kDataDir + "geospatial/crs-geography.parquet"), "crs-geography");
  EXPECT_EQ(geo.schema.at(2).logical_type->kind, LogicalType::Kind::kGeography);
}

TEST(ConformanceFooterTest, EncryptedFootersStartWithFileCryptoMetaData) {
  struct Case {
    const char* file;
    std::optional<std::string> aad_prefix;
    bool supply_aad_prefix;
  };
  for (const Case& c : {Case{"encrypt_columns_and_footer.parquet.encrypted", std::nullopt, false},
                        Case{"encrypt_columns_and_footer_aad.parquet.encrypted", "tester", false},
                        Case{"encrypt_columns_and_footer_disable_aad_storage.parquet.encrypted",
                             std::nullopt, true},
                        Case{"uniform_encryption.parquet.encrypted", std::nullopt, false}}) {
    SCOPED_TRACE(c.file);
    const Footer f = LoadFooter(kDataDir + c.file);
    EXPECT_EQ(f.magic, "PARE");
    FileCryptoMetaData fc;
    size_t consumed = 0;
    Status st = ReadFileCryptoMetaData(f.bytes(), &fc, &consumed);
    ASSERT_TRUE(st.ok()) << st.ToString();
    EXPECT_LT(consumed, f.length);  // the encrypted FileMetaData follows
    EXPECT_EQ(fc.encryption_algorithm.kind, EncryptionAlgorithm::Kind::kAesGcmV1);
    EXPECT_EQ(fc.key_metadata, "kf");
    EXPECT_EQ(fc.encryption_algorithm.aad_prefix, c.aad_prefix);
    ASSERT_TRUE(fc.encryption_algorithm.aad_file_unique.has_value());
    EXPECT_EQ(fc.encryption_algorithm.aad_file_unique->size(), 8u);
    EXPECT_EQ(fc.encryption_algorithm.supply_aad_prefix, c.supply_aad_prefix);
  }
}

TEST(ConformanceFooterTest, PlaintextFooterOfAnEncryptedFile) {
  const Footer f = LoadFooter(kDataDir + "encrypt_columns_plaintext_footer.parquet.encrypted");
  EXPECT_EQ(f.magic, "PAR1");
  FileMetaData md;
  size_t consumed = 0;
  Status st = ReadFileMetaData(f.bytes(), &md, &consumed);
  ASSERT_TRUE(st.ok()) << st.ToString();
  EXPECT_EQ(consumed + 28, f.length);  // a 12-byte nonce and a 16-byte tag sign the footer
  EXPECT_EQ(md.num_rows, 50);
  ASSERT_EQ(md.schema.size(), 9u);
  EXPECT_EQ(md.schema[8].name, "flba_field");
  EXPECT_EQ(md.schema[8].type_length, 10);
  ASSERT_TRUE(md.encryption_algorithm.has_value());
  EXPECT_EQ(md.encryption_algorithm->kind, EncryptionAlgorithm::Kind::kAesGcmV1);
  EXPECT_EQ(md.footer_signing_key_metadata, "kf");
  int column_key = 0;
  for (const ColumnChunk& cc : md.row_groups.at(0).columns) {
    if (!cc.crypto_metadata.has_value()) continue;
    if (cc.crypto_metadata->kind != ColumnCryptoMetaData::Kind::kColumnKey) continue;
    ++column_key;
    EXPECT_TRUE(cc.encrypted_column_metadata.has_value());
    ASSERT_EQ(cc.crypto_metadata->path_in_schema.size(), 1u);
    const std::string& col = cc.crypto_metadata->path_in_schema[0];
    if (col == "float_field") {
      EXPECT_EQ(cc.crypto_metadata->key_metadata, "kc2");
    } else {
      EXPECT_EQ(col, "double_field");
      EXPECT_EQ(cc.crypto_metadata->key_metadata, "kc1");
    }
  }
  EXPECT_EQ(column_key, 2);
}

// Every plain footer of the conformance set parses, takes exactly its bytes, and every column
// chunk's pages can be walked header by header to the chunk's end with the chunk's num_values.
TEST(ConformanceFooterTest, EveryFooterAndPageHeaderParses) {
  std::vector<std::string> files;
  for (const char* dir : {"", "geospatial/", "../shredded_variant/"}) {
    std::error_code ec;
    for (const auto& entry : std::filesystem::directory_iterator(kDataDir + dir, ec)) {
      if (entry.path().extension() == ".parquet")
        files.push_back(std::string(dir) + entry.path().filename().string());
    }
  }
  ASSERT_GT(files.size(), 50u);
  int walked = 0;
  for (const std::string& name : files) {
    SCOPED_TRACE(name);
    const Footer f = LoadFooter(kDataDir + name);
    ASSERT_EQ(f.magic, "PAR1");
    const FileMetaData md = ParseFooter(f, name);
    int64_t rows = 0;
    for (const RowGroup& rg : md.row_groups) rows += rg.num_rows;
    // parquet-rs 0.3.0 wrote FileMetaData.num_rows = 0 over a row group of 6 rows.
    EXPECT_EQ(rows, name == "repeated_no_annotation.parquet" ? 6 : md.num_rows);
    // This file's dictionary page headers are malformed on purpose.
    if (name == "nation.dict-malformed.parquet") continue;
    for (const RowGroup& rg : md.row_groups) {
      for (const ColumnChunk& cc : rg.columns) {
        ASSERT_TRUE(cc.meta_data.has_value());
        const ColumnMetaData& m = *cc.meta_data;
        const ChunkWalk w = WalkChunk(f, m, m.path_in_schema.empty() ? "?" : m.path_in_schema[0]);
        const int64_t start =
            (m.dictionary_page_offset.has_value() && *m.dictionary_page_offset > 0)
                ? *m.dictionary_page_offset
                : m.data_page_offset;
        EXPECT_EQ(w.end, start + m.total_compressed_size);
        EXPECT_EQ(w.data_values, m.num_values);
        ++walked;
      }
    }
  }
  EXPECT_GT(walked, 200);
}

// Writing a real footer back and reading it again gives the same bytes again; for writers that emit
// fields in id order with short headers, as ours does, even the file's own bytes. (Arrow writes
// empty SizeStatistics histograms, which metadata.h holds as empty vectors and our writer omits.)
TEST(ConformanceFooterTest, RealFootersRoundTripThroughTheWriter) {
  struct Case {
    const char* file;
    bool same_bytes_as_file;
  };
  for (const Case& c :
       {Case{"alltypes_plain.parquet", true}, Case{"alltypes_tiny_pages.parquet", true},
        Case{"data_index_bloom_encoding_stats.parquet", true},
        Case{"encrypt_columns_plaintext_footer.parquet.encrypted", true},
        Case{"datapage_v2.snappy.parquet", true}, Case{"nested_lists.snappy.parquet", true},
        Case{"unknown-logical-type.parquet", false},
        Case{"geospatial/geospatial.parquet", false}}) {
    SCOPED_TRACE(c.file);
    const Footer f = LoadFooter(kDataDir + c.file);
    FileMetaData md;
    size_t consumed = 0;
    ASSERT_TRUE(ReadFileMetaData(f.bytes(), &md, &consumed).ok());
    std::string written;
    WriteFileMetaData(md, &written);
    FileMetaData again;
    ASSERT_TRUE(ReadFileMetaData(AsBytes(written), &again).ok());
    std::string rewritten;
    WriteFileMetaData(again, &rewritten);
    EXPECT_TRUE(rewritten == written);
    if (c.same_bytes_as_file) {
      const std::string_view original = AsStringView(f.bytes().subspan(0, consumed));
      EXPECT_EQ(written.size(), original.size());
      EXPECT_TRUE(written == original)
          << "first difference at byte "
          << std::mismatch(written.begin(), written.end(), original.begin(), original.end()).first -
                 written.begin();
    }
  }
}

}  // namespace
}  // namespace pq
