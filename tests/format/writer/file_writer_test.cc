#include "format/writer/file_writer.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <random>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "format/bloom/split_block_bloom_filter.h"
#include "format/util/crc32.h"
#include "format/writer/converted_type.h"
#include "tests/format/writer/writer_test_util.h"

namespace pq {
namespace {

using namespace pq::testing;  // NOLINT
using Kind = LogicalType::Kind;

// ---------------------------------------------------------------------------------------------
// Data generators.

std::string RandomString(std::mt19937_64& rng, size_t max_len) {
  static const char kAlphabet[] = "abcdefghijklmnopqrstuvwxyz0123456789 \xc3\xa9";
  std::string s(rng() % (max_len + 1), ' ');
  for (char& c : s) c = kAlphabet[rng() % (sizeof(kAlphabet) - 1)];
  return s;
}

// A flat column of n records: nulls at ~20% when optional; `cardinality` > 0 draws values from a
// small pool (dictionary friendly).
LeafData MakeFlat(PhysicalType type, bool optional, int64_t n, std::mt19937_64& rng,
                  int cardinality = 0, int type_length = 0) {
  LeafData d;
  std::vector<std::string> pool;
  for (int i = 0; i < cardinality; ++i) pool.push_back("value-" + std::to_string(i * 7919));
  for (int64_t i = 0; i < n; ++i) {
    if (optional) {
      const bool null = rng() % 5 == 0;
      d.def.push_back(null ? 0 : 1);
      if (null) continue;
    }
    const uint64_t r = cardinality > 0 ? rng() % static_cast<uint64_t>(cardinality) : rng();
    switch (type) {
      case PhysicalType::kBoolean:
        d.bools.push_back(static_cast<uint8_t>(r & 1));
        break;
      case PhysicalType::kInt32:
        d.i32.push_back(static_cast<int32_t>(cardinality > 0 ? static_cast<int64_t>(r) * 1000 - 7000
                                                             : static_cast<int64_t>(r)));
        break;
      case PhysicalType::kInt64:
        d.i64.push_back(static_cast<int64_t>(cardinality > 0 ? static_cast<int64_t>(r) * 100000
                                                             : static_cast<int64_t>(r)));
        break;
      case PhysicalType::kInt96: {
        Int96 v;
        v.value[0] = static_cast<uint32_t>(r);
        v.value[1] = static_cast<uint32_t>(r >> 32);
        v.value[2] = static_cast<uint32_t>(cardinality > 0 ? r : rng());
        d.i96.push_back(v);
        break;
      }
      case PhysicalType::kFloat:
        d.f32.push_back(cardinality > 0 ? static_cast<float>(r) / 4
                                        : static_cast<float>(static_cast<int32_t>(r)) / 3.0f);
        break;
      case PhysicalType::kDouble:
        d.f64.push_back(cardinality > 0 ? static_cast<double>(r) / 8
                                        : static_cast<double>(static_cast<int64_t>(r)) / 7.0);
        break;
      case PhysicalType::kByteArray:
        d.bytes.push_back(cardinality > 0 ? pool[r] : RandomString(rng, 24));
        break;
      case PhysicalType::kFixedLenByteArray: {
        std::string s(static_cast<size_t>(type_length), '\0');
        for (char& c : s) c = static_cast<char>(cardinality > 0 ? 'a' + r % 26 : rng());
        d.bytes.push_back(s);
        break;
      }
    }
  }
  return d;
}

const std::vector<CompressionCodec> kWritableCodecs = {
    CompressionCodec::kUncompressed, CompressionCodec::kSnappy, CompressionCodec::kGzip,
    CompressionCodec::kBrotli,       CompressionCodec::kZstd,   CompressionCodec::kLz4Raw};

// The 16-column table of every physical type, required and optional.
struct AllTypesTable {
  std::vector<SchemaElement> schema;
  std::vector<LeafData> leaves;
  int64_t rows = 0;
};

AllTypesTable MakeAllTypes(int64_t rows, uint64_t seed) {
  AllTypesTable t;
  t.rows = rows;
  std::mt19937_64 rng(seed);
  struct Col {
    const char* name;
    PhysicalType type;
    std::optional<LogicalType> logical;
    int cardinality;
    int type_length;
  };
  const std::vector<Col> cols = {
      {"b", PhysicalType::kBoolean, std::nullopt, 0, 0},
      {"i32", PhysicalType::kInt32, std::nullopt, 50, 0},
      {"i64", PhysicalType::kInt64, std::nullopt, 0, 0},
      {"i96", PhysicalType::kInt96, std::nullopt, 0, 0},
      {"f", PhysicalType::kFloat, std::nullopt, 0, 0},
      {"d", PhysicalType::kDouble, std::nullopt, 30, 0},
      {"s", PhysicalType::kByteArray, Logical(Kind::kString), 0, 0},
      {"fl", PhysicalType::kFixedLenByteArray, std::nullopt, 20, 5},
  };
  t.schema.push_back(Root(static_cast<int>(cols.size() * 2)));
  for (const Col& c : cols) {
    for (bool optional : {false, true}) {
      t.schema.push_back(Leaf(std::string(c.name) + (optional ? "_opt" : "_req"), c.type,
                              optional ? Repetition::kOptional : Repetition::kRequired, c.logical,
                              c.type_length));
      t.leaves.push_back(MakeFlat(c.type, optional, rows, rng, c.cardinality, c.type_length));
    }
  }
  return t;
}

std::string CodecLabel(CompressionCodec c) {
  return CompressionCodecName(c);
}

// ---------------------------------------------------------------------------------------------
// Round trips of every physical type through every codec, both page versions, with and without
// dictionary.

class AllTypesRoundTripTest
    : public ::testing::TestWithParam<std::tuple<CompressionCodec, int, bool>> {};

TEST_P(AllTypesRoundTripTest, ReaderGetsBackEveryValueAndLevel) {
  const auto [codec, version, dictionary] = GetParam();
  AllTypesTable t = MakeAllTypes(2500, 42 + static_cast<uint64_t>(codec) * 4 + version);
  WriterOptions o;
  o.codec = codec;
  o.data_page_version = version;
  o.dictionary = dictionary;
  // v1: the fixed rule (the dictionary, PLAIN past 4 KiB); v2: the encoding trial, which may drop
  // the dictionary or pick DELTA_BINARY_PACKED chunk by chunk.
  o.encoding_trial = version == 2;
  o.page_bytes = 2048;
  o.page_rows = 300;
  o.row_group_rows = 1000;
  o.dictionary_page_bytes = 4096;
  const std::string path = TempPath("all.parquet");
  auto w = FileWriter::Open(path, t.schema, o);
  ASSERT_TRUE(w.ok()) << w.status().ToString();
  ASSERT_TRUE(WriteTable(w->get(), t.leaves, t.rows, 250).ok());
  Status closed = (*w)->Close();
  ASSERT_TRUE(closed.ok()) << closed.ToString();

  auto file = OpenForTest(path);
  ASSERT_TRUE(file);
  EXPECT_EQ(file->metadata().num_rows, 2500);
  ASSERT_EQ(file->num_row_groups(), 3);
  EXPECT_EQ(file->metadata().row_groups[0].num_rows, 1000);
  EXPECT_EQ(file->metadata().row_groups[2].num_rows, 500);
  for (int i = 0; i < file->schema().num_leaves(); ++i) {
    ExpectSameLeaf(t.leaves[static_cast<size_t>(i)], ReadLeaf(file, i),
                   file->schema().leaf(i).DottedPath());
    const ColumnMetaData& m =
        *file->metadata().row_groups[0].columns[static_cast<size_t>(i)].meta_data;
    EXPECT_EQ(m.codec, codec);
    const bool want_dictionary =
        dictionary && file->schema().leaf(i).physical_type != PhysicalType::kBoolean;
    if (o.encoding_trial) {
      // A dictionary page exactly when some data page holds dictionary indices.
      bool indices = false;
      for (const PageEncodingStats& s : *m.encoding_stats) {
        indices |=
            s.page_type != PageType::kDictionaryPage && s.encoding == Encoding::kRleDictionary;
      }
      EXPECT_EQ(m.dictionary_page_offset.has_value(), indices) << i;
      if (!want_dictionary) {
        EXPECT_FALSE(indices) << i;
      }
    } else {
      EXPECT_EQ(m.dictionary_page_offset.has_value(), want_dictionary) << i;
    }
    for (const PageEncodingStats& s : *m.encoding_stats) {
      if (s.page_type != PageType::kDictionaryPage) {
        EXPECT_EQ(s.page_type, version == 1 ? PageType::kDataPage : PageType::kDataPageV2);
      }
    }
  }
  std::remove(path.c_str());
}

INSTANTIATE_TEST_SUITE_P(CodecsVersionsDictionary, AllTypesRoundTripTest,
                         ::testing::Combine(::testing::ValuesIn(kWritableCodecs),
                                            ::testing::Values(1, 2), ::testing::Bool()),
                         [](const auto& param_info) {
                           return CodecLabel(std::get<0>(param_info.param)) + "_v" +
                                  std::to_string(std::get<1>(param_info.param)) +
                                  (std::get<2>(param_info.param) ? "_dict" : "_plain");
                         });

// ---------------------------------------------------------------------------------------------
// Nested columns: lists with nulls and empties, a map, a struct with a repeated field.

struct NestedTable {
  std::vector<SchemaElement> schema;
  std::vector<LeafData> leaves;  // id, tags.element, m.key, m.value, s.a, s.b
  int64_t rows = 0;
};

NestedTable MakeNested(int64_t rows, uint64_t seed) {
  NestedTable t;
  t.rows = rows;
  t.schema = {
      Root(4),
      Leaf("id", PhysicalType::kInt64, Repetition::kRequired),
      Group("tags", Repetition::kOptional, 1, Logical(Kind::kList)),
      Group("list", Repetition::kRepeated, 1),
      Leaf("element", PhysicalType::kByteArray, Repetition::kOptional, Logical(Kind::kString)),
      Group("m", Repetition::kOptional, 1, Logical(Kind::kMap)),
      Group("key_value", Repetition::kRepeated, 2),
      Leaf("key", PhysicalType::kInt32, Repetition::kRequired),
      Leaf("value", PhysicalType::kDouble, Repetition::kOptional),
      Group("s", Repetition::kOptional, 2),
      Leaf("a", PhysicalType::kInt32, Repetition::kRequired),
      Leaf("b", PhysicalType::kInt64, Repetition::kRepeated)};
  t.leaves.resize(6);
  LeafData &id = t.leaves[0], &el = t.leaves[1], &key = t.leaves[2], &val = t.leaves[3],
           &a = t.leaves[4], &b = t.leaves[5];
  std::mt19937_64 rng(seed);
  for (int64_t r = 0; r < rows; ++r) {
    id.i64.push_back(r);
    // tags: null, empty, or elements (some null); now and then a long list spanning pages.
    const uint64_t tag_kind = rng() % 6;
    if (tag_kind == 0) {
      el.def.push_back(0), el.rep.push_back(0);
    } else if (tag_kind == 1) {
      el.def.push_back(1), el.rep.push_back(0);
    } else {
      const int n = (r % 97 == 5) ? 700 : 1 + static_cast<int>(rng() % 5);
      for (int k = 0; k < n; ++k) {
        el.rep.push_back(k == 0 ? 0 : 1);
        if (rng() % 7 == 0) {
          el.def.push_back(2);
        } else {
          el.def.push_back(3);
          el.bytes.push_back(RandomString(rng, 10));
        }
      }
    }
    // m: null, empty, or entries with some null values.
    const uint64_t map_kind = rng() % 4;
    if (map_kind == 0) {
      key.def.push_back(0), key.rep.push_back(0), val.def.push_back(0), val.rep.push_back(0);
    } else if (map_kind == 1) {
      key.def.push_back(1), key.rep.push_back(0), val.def.push_back(1), val.rep.push_back(0);
    } else {
      const int n = 1 + static_cast<int>(rng() % 4);
      for (int k = 0; k < n; ++k) {
        const int16_t rep = k == 0 ? 0 : 1;
        key.def.push_back(2), key.rep.push_back(rep), key.i32.push_back(k);
        val.rep.push_back(rep);
        if (rng() % 3 == 0) {
          val.def.push_back(2);
        } else {
          val.def.push_back(3);
          val.f64.push_back(static_cast<double>(rng() % 1000) / 10);
        }
      }
    }
    // s: null, or a value and 0..3 repeated b.
    if (rng() % 5 == 0) {
      a.def.push_back(0);
      b.def.push_back(0), b.rep.push_back(0);
    } else {
      a.def.push_back(1), a.i32.push_back(static_cast<int32_t>(r * 3));
      const int n = static_cast<int>(rng() % 4);
      if (n == 0) b.def.push_back(1), b.rep.push_back(0);
      for (int k = 0; k < n; ++k) {
        b.def.push_back(2), b.rep.push_back(k == 0 ? 0 : 1), b.i64.push_back(r * 10 + k);
      }
    }
  }
  return t;
}

class NestedRoundTripTest : public ::testing::TestWithParam<int> {};

TEST_P(NestedRoundTripTest, LevelsAndValuesComeBackAndPagesStartRecords) {
  const int version = GetParam();
  NestedTable t = MakeNested(1000, 7 + static_cast<uint64_t>(version));
  WriterOptions o;
  o.data_page_version = version;
  o.codec = CompressionCodec::kZstd;
  o.page_rows = 50;
  o.page_bytes = 512;
  o.row_group_rows = 400;
  const std::string path = TempPath("nested.parquet");
  auto w = FileWriter::Open(path, t.schema, o);
  ASSERT_TRUE(w.ok()) << w.status().ToString();
  ASSERT_EQ((*w)->schema().num_leaves(), 6);
  EXPECT_EQ((*w)->schema().leaf(1).max_definition_level, 3);
  EXPECT_EQ((*w)->schema().leaf(1).max_repetition_level, 1);
  Status s = WriteTable(w->get(), t.leaves, t.rows, 37);
  ASSERT_TRUE(s.ok()) << s.ToString();
  ASSERT_TRUE((*w)->Close().ok());

  auto file = OpenForTest(path);
  ASSERT_TRUE(file);
  EXPECT_EQ(file->metadata().num_rows, 1000);
  for (int i = 0; i < 6; ++i)
    ExpectSameLeaf(t.leaves[static_cast<size_t>(i)], ReadLeaf(file, i), std::to_string(i));

  // Page boundaries: the offset index counts rows (records), v2 headers agree, and no page is
  // empty of records.
  const std::string bytes = ReadWholeFile(path);
  for (const RowGroup& rg : file->metadata().row_groups) {
    for (const ColumnChunk& chunk : rg.columns) {
      OffsetIndex oi = ReadOffsetIndexOf(bytes, chunk);
      ASSERT_FALSE(oi.page_locations.empty());
      EXPECT_EQ(oi.page_locations[0].first_row_index, 0);
      int64_t rows_in_pages = 0;
      for (size_t p = 0; p < oi.page_locations.size(); ++p) {
        const PageLocation& loc = oi.page_locations[p];
        const int64_t next_first = p + 1 < oi.page_locations.size()
                                       ? oi.page_locations[p + 1].first_row_index
                                       : rg.num_rows;
        EXPECT_GT(next_first, loc.first_row_index);
        PageHeader h;
        size_t consumed = 0;
        ASSERT_TRUE(
            ReadPageHeader(AsBytes(std::string_view(bytes).substr(static_cast<size_t>(loc.offset))),
                           &h, &consumed)
                .ok());
        EXPECT_EQ(static_cast<int64_t>(consumed) + h.compressed_page_size,
                  loc.compressed_page_size);
        if (version == 2) {
          ASSERT_TRUE(h.data_page_header_v2.has_value());
          EXPECT_EQ(h.data_page_header_v2->num_rows, next_first - loc.first_row_index);
          rows_in_pages += h.data_page_header_v2->num_rows;
        }
      }
      if (version == 2) {
        EXPECT_EQ(rows_in_pages, rg.num_rows);
      }
    }
  }
  // Level histograms in the chunk metadata match the levels written.
  const ColumnMetaData& el = *file->metadata().row_groups[0].columns[1].meta_data;
  ASSERT_TRUE(el.size_statistics.has_value());
  EXPECT_EQ(el.size_statistics->definition_level_histogram.size(), 4u);
  EXPECT_EQ(el.size_statistics->repetition_level_histogram.size(), 2u);
  int64_t levels = 0;
  for (int64_t c : el.size_statistics->definition_level_histogram) levels += c;
  EXPECT_EQ(levels, el.num_values);
  EXPECT_EQ(el.size_statistics->repetition_level_histogram[0],
            file->metadata().row_groups[0].num_rows);
  std::remove(path.c_str());
}

INSTANTIATE_TEST_SUITE_P(PageVersions, NestedRoundTripTest, ::testing::Values(1, 2));

// ---------------------------------------------------------------------------------------------
// Encodings.

TEST(FileWriterTest, DictionaryFallsBackAndSaysSoInEncodingStats) {
  std::mt19937_64 rng(3);
  std::vector<SchemaElement> schema = {
      Root(2),
      Leaf("many", PhysicalType::kByteArray, Repetition::kOptional, Logical(Kind::kString)),
      Leaf("few", PhysicalType::kInt64, Repetition::kRequired)};
  std::vector<LeafData> leaves = {MakeFlat(PhysicalType::kByteArray, true, 5000, rng, 0),
                                  MakeFlat(PhysicalType::kInt64, false, 5000, rng, 12)};
  WriterOptions o;
  o.encoding_trial = false;  // the fixed rule: dictionary until it passes its limit
  o.dictionary_page_bytes = 2000;
  o.page_rows = 500;
  const std::string path = TempPath("fallback.parquet");
  auto w = FileWriter::Open(path, schema, o);
  ASSERT_TRUE(w.ok());
  ASSERT_TRUE(WriteTable(w->get(), leaves, 5000, 1000).ok());
  ASSERT_TRUE((*w)->Close().ok());
  auto file = OpenForTest(path);
  ASSERT_TRUE(file);
  ExpectSameLeaf(leaves[0], ReadLeaf(file, 0), "many");
  ExpectSameLeaf(leaves[1], ReadLeaf(file, 1), "few");

  const ColumnMetaData& many = *file->metadata().row_groups[0].columns[0].meta_data;
  ASSERT_TRUE(many.dictionary_page_offset.has_value());
  EXPECT_LT(*many.dictionary_page_offset, many.data_page_offset);
  std::map<Encoding, int> data_pages;
  for (const PageEncodingStats& s : *many.encoding_stats) {
    if (s.page_type == PageType::kDictionaryPage) {
      EXPECT_EQ(s.encoding, Encoding::kPlain);
      EXPECT_EQ(s.count, 1);
    } else {
      data_pages[s.encoding] += s.count;
    }
  }
  EXPECT_GT(data_pages[Encoding::kRleDictionary], 0);
  EXPECT_GT(data_pages[Encoding::kPlain], 0);
  EXPECT_NE(std::find(many.encodings.begin(), many.encodings.end(), Encoding::kRleDictionary),
            many.encodings.end());
  EXPECT_FALSE(many.statistics->distinct_count.has_value());  // unknown after the fallback

  const ColumnMetaData& few = *file->metadata().row_groups[0].columns[1].meta_data;
  ASSERT_EQ(few.encoding_stats->size(), 2u);
  EXPECT_EQ((*few.encoding_stats)[1].encoding, Encoding::kRleDictionary);
  EXPECT_EQ((*few.encoding_stats)[1].count, 10);  // 5000 rows / 500 per page
  std::set<int64_t> distinct(leaves[1].i64.begin(), leaves[1].i64.end());
  EXPECT_EQ(few.statistics->distinct_count, static_cast<int64_t>(distinct.size()));
  // Required flat column: no levels, so no RLE in the encodings.
  EXPECT_EQ(few.encodings, (std::vector<Encoding>{Encoding::kPlain, Encoding::kRleDictionary}));
  std::remove(path.c_str());
}

TEST(FileWriterTest, PerColumnEncodingsRoundTrip) {
  std::mt19937_64 rng(11);
  std::vector<SchemaElement> schema = {
      Root(7),
      Leaf("i64", PhysicalType::kInt64, Repetition::kOptional),
      Leaf("i32", PhysicalType::kInt32, Repetition::kRequired),
      Leaf("s_delta", PhysicalType::kByteArray, Repetition::kOptional),
      Leaf("s_len", PhysicalType::kByteArray, Repetition::kRequired),
      Leaf("d", PhysicalType::kDouble, Repetition::kOptional),
      Leaf("b", PhysicalType::kBoolean, Repetition::kOptional),
      Leaf("fl", PhysicalType::kFixedLenByteArray, Repetition::kRequired, std::nullopt, 3)};
  std::vector<LeafData> leaves = {
      MakeFlat(PhysicalType::kInt64, true, 3000, rng),
      MakeFlat(PhysicalType::kInt32, false, 3000, rng),
      MakeFlat(PhysicalType::kByteArray, true, 3000, rng),
      MakeFlat(PhysicalType::kByteArray, false, 3000, rng),
      MakeFlat(PhysicalType::kDouble, true, 3000, rng),
      MakeFlat(PhysicalType::kBoolean, true, 3000, rng),
      MakeFlat(PhysicalType::kFixedLenByteArray, false, 3000, rng, 0, 3)};
  const std::map<std::string, Encoding> encodings = {
      {"i64", Encoding::kDeltaBinaryPacked},  {"i32", Encoding::kByteStreamSplit},
      {"s_delta", Encoding::kDeltaByteArray}, {"s_len", Encoding::kDeltaLengthByteArray},
      {"d", Encoding::kByteStreamSplit},      {"b", Encoding::kRle},
      {"fl", Encoding::kDeltaByteArray}};
  for (int version : {1, 2}) {
    WriterOptions o;
    o.column_encodings = encodings;
    o.data_page_version = version;
    o.page_rows = 700;
    const std::string path = TempPath("enc" + std::to_string(version) + ".parquet");
    auto w = FileWriter::Open(path, schema, o);
    ASSERT_TRUE(w.ok()) << w.status().ToString();
    ASSERT_TRUE(WriteTable(w->get(), leaves, 3000, 1000).ok());
    ASSERT_TRUE((*w)->Close().ok());
    auto file = OpenForTest(path);
    ASSERT_TRUE(file);
    for (int i = 0; i < 7; ++i) {
      const SchemaNode& leaf = file->schema().leaf(i);
      ExpectSameLeaf(leaves[static_cast<size_t>(i)], ReadLeaf(file, i), leaf.DottedPath());
      const ColumnMetaData& m =
          *file->metadata().row_groups[0].columns[static_cast<size_t>(i)].meta_data;
      EXPECT_FALSE(m.dictionary_page_offset.has_value());
      ASSERT_EQ(m.encoding_stats->size(), 1u);
      EXPECT_EQ((*m.encoding_stats)[0].encoding, encodings.at(leaf.name)) << leaf.name;
    }
    std::remove(path.c_str());
  }
  // A dictionary can be asked for per column even with dictionaries off; BOOLEAN has none.
  WriterOptions o;
  o.dictionary = false;
  o.column_encodings = {{"i32", Encoding::kRleDictionary}};
  const std::string path = TempPath("dict.parquet");
  auto w = FileWriter::Open(path, schema, o);
  ASSERT_TRUE(w.ok());
  ASSERT_TRUE(WriteTable(w->get(), leaves, 3000, 3000).ok());
  ASSERT_TRUE((*w)->Close().ok());
  auto file = OpenForTest(path);
  EXPECT_TRUE(
      file->metadata().row_groups[0].columns[1].meta_data->dictionary_page_offset.has_value());
  EXPECT_FALSE(
      file->metadata().row_groups[0].columns[0].meta_data->dictionary_page_offset.has_value());
  ExpectSameLeaf(leaves[1], ReadLeaf(file, 1), "i32");
  std::remove(path.c_str());
  o.column_encodings = {{"b", Encoding::kRleDictionary}};
  EXPECT_TRUE(FileWriter::Open(path, schema, o).status().IsInvalidArgument());
  o.column_encodings = {{"d", Encoding::kDeltaBinaryPacked}};
  EXPECT_FALSE(FileWriter::Open(path, schema, o).ok());
  o.column_encodings = {{"nope", Encoding::kPlain}};
  EXPECT_TRUE(FileWriter::Open(path, schema, o).status().IsInvalidArgument());
  EXPECT_FALSE(FileExists(path));
}

// ---------------------------------------------------------------------------------------------
// Statistics and page index.

template <typename T>
std::string Plain(T v) {
  return std::string(reinterpret_cast<const char*>(&v), sizeof(T));
}

TEST(FileWriterTest, ChunkStatisticsFollowEachColumnsSortOrder) {
  const double nan = std::nan("");
  std::vector<SchemaElement> schema = {
      Root(7),
      Leaf("i", PhysicalType::kInt32, Repetition::kOptional),
      Leaf("u", PhysicalType::kInt32, Repetition::kRequired, IntType(32, false)),
      Leaf("d", PhysicalType::kDouble, Repetition::kRequired),
      Leaf("s", PhysicalType::kByteArray, Repetition::kRequired, Logical(Kind::kString)),
      Leaf("dec", PhysicalType::kFixedLenByteArray, Repetition::kRequired, DecimalType(5, 2), 2),
      Leaf("t", PhysicalType::kInt96, Repetition::kRequired),
      Leaf("z", PhysicalType::kFloat, Repetition::kRequired)};
  std::vector<LeafData> leaves(7);
  leaves[0].def = {1, 0, 1, 1, 0};
  leaves[0].i32 = {5, -9, 3};
  leaves[1].i32 = {1, -1, 7, 0, 2};  // unsigned: 0 .. 0xFFFFFFFF
  leaves[2].f64 = {nan, 2.0, -0.0, 0.0, nan};
  const std::string long_a(100, 'a'), long_z = std::string(70, 'z') + "\xc3\xa9";
  leaves[3].bytes = {"m", long_a, long_z, "b", "n"};
  leaves[4].bytes = {std::string("\x00\x05", 2), std::string("\xff\x00", 2),
                     std::string("\x7f\xff", 2), std::string("\x80\x00", 2),
                     std::string("\x00\x00", 2)};
  leaves[5].i96.resize(5);
  leaves[6].f32 = {0.0f, 0.0f, 0.0f, 0.0f, 0.0f};
  const std::string path = TempPath("stats.parquet");
  WriterOptions fixed_rule;
  fixed_rule.encoding_trial = false;  // every chunk dictionary-encoded: exact distinct counts
  auto w = FileWriter::Open(path, schema, fixed_rule);
  ASSERT_TRUE(w.ok());
  ASSERT_TRUE(WriteTable(w->get(), leaves, 5, 5).ok());
  ASSERT_TRUE((*w)->Close().ok());
  auto file = OpenForTest(path);
  ASSERT_TRUE(file);
  auto stats = [&](int c) {
    return *file->metadata().row_groups[0].columns[static_cast<size_t>(c)].meta_data->statistics;
  };

  Statistics i = stats(0);
  EXPECT_EQ(i.null_count, 2);
  EXPECT_EQ(i.min_value, Plain<int32_t>(-9));
  EXPECT_EQ(i.max_value, Plain<int32_t>(5));
  EXPECT_EQ(i.min, i.min_value);  // legacy signed fields for signed ints
  EXPECT_EQ(i.is_min_value_exact, true);
  EXPECT_EQ(i.distinct_count, 3);

  Statistics u = stats(1);
  EXPECT_EQ(u.min_value, Plain<int32_t>(0));
  EXPECT_EQ(u.max_value, Plain<int32_t>(-1));
  EXPECT_FALSE(u.min.has_value());

  Statistics d = stats(2);
  EXPECT_EQ(d.nan_count, 2);
  EXPECT_EQ(d.min_value, Plain(-0.0));
  EXPECT_EQ(d.max_value, Plain(2.0));
  EXPECT_EQ(d.null_count, 0);
  EXPECT_FALSE(d.distinct_count.has_value());

  Statistics s = stats(3);
  EXPECT_EQ(s.min_value, std::string(64, 'a'));  // 100 'a' cut to 64: still a lower bound
  EXPECT_EQ(s.is_min_value_exact, false);
  // 72 bytes: cut at 64 (inside no character here), then incremented.
  EXPECT_EQ(s.max_value, std::string(63, 'z') + "{");
  EXPECT_EQ(s.is_max_value_exact, false);
  EXPECT_FALSE(s.min.has_value());

  Statistics dec = stats(4);
  EXPECT_EQ(dec.min_value, std::string("\x80\x00", 2));  // -32768
  EXPECT_EQ(dec.max_value, std::string("\x7f\xff", 2));

  Statistics t = stats(5);
  EXPECT_FALSE(t.min_value.has_value());
  EXPECT_FALSE(t.max_value.has_value());
  EXPECT_EQ(t.null_count, 0);

  Statistics z = stats(6);
  EXPECT_EQ(z.min_value, Plain(-0.0f));
  EXPECT_EQ(z.max_value, Plain(0.0f));
  EXPECT_EQ(z.nan_count, 0);

  // Every leaf declares TYPE_ORDER.
  ASSERT_TRUE(file->metadata().column_orders.has_value());
  EXPECT_EQ(file->metadata().column_orders->size(), 7u);
  for (const ColumnOrder& c : *file->metadata().column_orders)
    EXPECT_EQ(c.kind, ColumnOrder::Kind::kTypeDefinedOrder);
  // No page index for INT96; the others have one.
  EXPECT_FALSE(file->metadata().row_groups[0].columns[5].column_index_offset.has_value());
  EXPECT_TRUE(file->metadata().row_groups[0].columns[5].offset_index_offset.has_value());
  EXPECT_TRUE(file->metadata().row_groups[0].columns[3].column_index_offset.has_value());
  std::remove(path.c_str());
}

TEST(FileWriterTest, Float16AndByteArrayDecimalStatistics) {
  std::vector<SchemaElement> schema = {
      Root(2),
      Leaf("half", PhysicalType::kFixedLenByteArray, Repetition::kRequired, Logical(Kind::kFloat16),
           2),
      Leaf("bdec", PhysicalType::kByteArray, Repetition::kRequired, DecimalType(10, 2))};
  std::vector<LeafData> leaves(2);
  // Halves 1.0, -2.0, NaN, +0.
  leaves[0].bytes = {std::string("\x00\x3c", 2), std::string("\x00\xc0", 2),
                     std::string("\x00\x7e", 2), std::string("\x00\x00", 2)};
  // Decimals 256, -1, 128, -8388608 (big-endian two's complement of varying length).
  const std::string big_negative = std::string("\x80\x00\x00", 3) + std::string(70, '\x01');
  leaves[1].bytes = {std::string("\x01\x00", 2), std::string("\xff"), std::string("\x00\x80", 2),
                     big_negative};
  const std::string path = TempPath("half.parquet");
  auto w = FileWriter::Open(path, schema, WriterOptions{});
  ASSERT_TRUE(w.ok());
  ASSERT_TRUE(WriteTable(w->get(), leaves, 4, 4).ok());
  ASSERT_TRUE((*w)->Close().ok());
  auto file = OpenForTest(path);
  ASSERT_TRUE(file);
  ExpectSameLeaf(leaves[0], ReadLeaf(file, 0), "half");
  const RowGroup& rg = file->metadata().row_groups[0];
  const Statistics& half = *rg.columns[0].meta_data->statistics;
  EXPECT_EQ(half.min_value, std::string("\x00\xc0", 2));
  EXPECT_EQ(half.max_value, std::string("\x00\x3c", 2));
  EXPECT_EQ(half.nan_count, 1);
  EXPECT_FALSE(half.min.has_value());
  ColumnIndex ci = ReadColumnIndexOf(ReadWholeFile(path), rg.columns[0]);
  ASSERT_TRUE(ci.nan_counts.has_value());
  EXPECT_EQ(*ci.nan_counts, std::vector<int64_t>{1});
  const Statistics& dec = *rg.columns[1].meta_data->statistics;
  EXPECT_EQ(dec.min_value, big_negative);  // decimals are never truncated
  EXPECT_EQ(dec.is_min_value_exact, true);
  EXPECT_EQ(dec.max_value, std::string("\x01\x00", 2));
  std::remove(path.c_str());
}

TEST(FileWriterTest, ColumnIndexDescribesEveryPage) {
  // 1000 rows, 100 per page: ascending ids, descending values, random values, a page of nulls and
  // a double column with an all-NaN page.
  const int64_t n = 1000;
  std::vector<SchemaElement> schema = {
      Root(5),
      Leaf("asc", PhysicalType::kInt64, Repetition::kRequired),
      Leaf("desc", PhysicalType::kByteArray, Repetition::kRequired, Logical(Kind::kString)),
      Leaf("rnd", PhysicalType::kInt32, Repetition::kRequired),
      Leaf("gap", PhysicalType::kInt32, Repetition::kOptional),
      Leaf("nan", PhysicalType::kDouble, Repetition::kRequired)};
  std::vector<LeafData> leaves(5);
  std::mt19937_64 rng(1);
  for (int64_t r = 0; r < n; ++r) {
    leaves[0].i64.push_back(r);
    char buf[16];
    std::snprintf(buf, sizeof(buf), "k%05d", static_cast<int>(n - r));
    leaves[1].bytes.push_back(buf);
    leaves[2].i32.push_back(static_cast<int32_t>(rng() % 1000));
    const bool null = r >= 300 && r < 400;
    leaves[3].def.push_back(null ? 0 : 1);
    if (!null) leaves[3].i32.push_back(static_cast<int32_t>(r));
    leaves[4].f64.push_back(r >= 500 && r < 600 ? std::nan("") : static_cast<double>(r));
  }
  WriterOptions o;
  o.page_rows = 100;
  o.dictionary = false;
  const std::string path = TempPath("index.parquet");
  auto w = FileWriter::Open(path, schema, o);
  ASSERT_TRUE(w.ok());
  ASSERT_TRUE(WriteTable(w->get(), leaves, n, 250).ok());
  ASSERT_TRUE((*w)->Close().ok());
  auto file = OpenForTest(path);
  ASSERT_TRUE(file);
  const std::string bytes = ReadWholeFile(path);
  const RowGroup& rg = file->metadata().row_groups[0];

  ColumnIndex asc = ReadColumnIndexOf(bytes, rg.columns[0]);
  EXPECT_EQ(asc.boundary_order, BoundaryOrder::kAscending);
  ASSERT_EQ(asc.min_values.size(), 10u);
  for (int p = 0; p < 10; ++p) {
    EXPECT_EQ(asc.min_values[static_cast<size_t>(p)], Plain<int64_t>(p * 100));
    EXPECT_EQ(asc.max_values[static_cast<size_t>(p)], Plain<int64_t>(p * 100 + 99));
    EXPECT_EQ((*asc.null_counts)[static_cast<size_t>(p)], 0);
  }
  OffsetIndex oi = ReadOffsetIndexOf(bytes, rg.columns[0]);
  ASSERT_EQ(oi.page_locations.size(), 10u);
  for (int p = 0; p < 10; ++p)
    EXPECT_EQ(oi.page_locations[static_cast<size_t>(p)].first_row_index, p * 100);
  EXPECT_EQ(oi.page_locations[0].offset, rg.columns[0].meta_data->data_page_offset);

  ColumnIndex desc = ReadColumnIndexOf(bytes, rg.columns[1]);
  EXPECT_EQ(desc.boundary_order, BoundaryOrder::kDescending);
  EXPECT_EQ(desc.max_values[0], "k01000");
  EXPECT_EQ(desc.min_values[0], "k00901");
  OffsetIndex desc_oi = ReadOffsetIndexOf(bytes, rg.columns[1]);
  ASSERT_EQ(desc_oi.unencoded_byte_array_data_bytes.size(), 10u);
  EXPECT_EQ(desc_oi.unencoded_byte_array_data_bytes[0], 600);  // 100 values of 6 bytes

  EXPECT_EQ(ReadColumnIndexOf(bytes, rg.columns[2]).boundary_order, BoundaryOrder::kUnordered);

  ColumnIndex gap = ReadColumnIndexOf(bytes, rg.columns[3]);
  EXPECT_EQ(gap.null_pages, (std::vector<bool>{false, false, false, true, false, false, false,
                                               false, false, false}));
  EXPECT_EQ(gap.min_values[3], "");
  EXPECT_EQ((*gap.null_counts)[3], 100);
  EXPECT_EQ(gap.boundary_order, BoundaryOrder::kAscending);
  EXPECT_EQ(gap.definition_level_histograms.size(), 20u);
  EXPECT_EQ(gap.definition_level_histograms[6], 100);  // page 3: 100 at level 0
  EXPECT_EQ(gap.definition_level_histograms[7], 0);

  // A page of NaNs only: TYPE_ORDER cannot describe it, so no column index for the chunk.
  EXPECT_FALSE(rg.columns[4].column_index_offset.has_value());
  EXPECT_TRUE(rg.columns[4].offset_index_offset.has_value());
  EXPECT_EQ(rg.columns[4].meta_data->statistics->nan_count, 100);

  // Page headers carry no statistics while the page index is on.
  PageHeader h;
  size_t consumed;
  ASSERT_TRUE(ReadPageHeader(AsBytes(std::string_view(bytes).substr(
                                 static_cast<size_t>(oi.page_locations[0].offset))),
                             &h, &consumed)
                  .ok());
  EXPECT_FALSE(h.data_page_header->statistics.has_value());
  std::remove(path.c_str());

  // Without a page index, page headers get statistics and chunks no index offsets.
  o.page_index = false;
  auto w2 = FileWriter::Open(path, schema, o);
  ASSERT_TRUE(w2.ok());
  ASSERT_TRUE(WriteTable(w2->get(), leaves, n, 250).ok());
  ASSERT_TRUE((*w2)->Close().ok());
  auto file2 = OpenForTest(path);
  const std::string bytes2 = ReadWholeFile(path);
  const ColumnChunk& c0 = file2->metadata().row_groups[0].columns[0];
  EXPECT_FALSE(c0.column_index_offset.has_value());
  EXPECT_FALSE(c0.offset_index_offset.has_value());
  ASSERT_TRUE(ReadPageHeader(AsBytes(std::string_view(bytes2).substr(
                                 static_cast<size_t>(c0.meta_data->data_page_offset))),
                             &h, &consumed)
                  .ok());
  ASSERT_TRUE(h.data_page_header->statistics.has_value());
  EXPECT_EQ(h.data_page_header->statistics->min_value, Plain<int64_t>(0));
  EXPECT_EQ(h.data_page_header->statistics->max_value, Plain<int64_t>(99));
  std::remove(path.c_str());
}

// ---------------------------------------------------------------------------------------------
// Checksums.

// Walks every page of a chunk from its first page header; returns the headers and checks each CRC.
std::vector<PageHeader> CheckChunkCrcs(const std::string& bytes, const ColumnMetaData& m,
                                       bool expect_crc) {
  std::vector<PageHeader> headers;
  int64_t pos = m.dictionary_page_offset.value_or(m.data_page_offset);
  const int64_t end = pos + m.total_compressed_size;
  while (pos < end) {
    PageHeader h;
    size_t consumed = 0;
    Status s = ReadPageHeader(AsBytes(std::string_view(bytes).substr(static_cast<size_t>(pos))), &h,
                              &consumed);
    EXPECT_TRUE(s.ok()) << s.ToString();
    if (!s.ok()) break;
    const std::string_view stored = std::string_view(bytes).substr(
        static_cast<size_t>(pos) + consumed, static_cast<size_t>(h.compressed_page_size));
    EXPECT_EQ(h.crc.has_value(), expect_crc);
    if (h.crc) {
      EXPECT_EQ(static_cast<uint32_t>(*h.crc), Crc32(AsBytes(stored)));
    }
    headers.push_back(h);
    pos += static_cast<int64_t>(consumed) + h.compressed_page_size;
  }
  EXPECT_EQ(pos, end);
  return headers;
}

TEST(FileWriterTest, EveryPageCarriesTheCrcOfItsStoredBytes) {
  AllTypesTable t = MakeAllTypes(1500, 5);
  for (int version : {1, 2}) {
    for (bool checksums : {true, false}) {
      WriterOptions o;
      o.codec = CompressionCodec::kGzip;
      o.data_page_version = version;
      o.checksums = checksums;
      o.page_rows = 400;
      const std::string path = TempPath("crc.parquet");
      auto w = FileWriter::Open(path, t.schema, o);
      ASSERT_TRUE(w.ok());
      ASSERT_TRUE(WriteTable(w->get(), t.leaves, t.rows, 500).ok());
      ASSERT_TRUE((*w)->Close().ok());
      const std::string bytes = ReadWholeFile(path);
      auto file = OpenForTest(path);
      ASSERT_TRUE(file);
      int pages = 0;
      for (const ColumnChunk& c : file->metadata().row_groups[0].columns) {
        std::vector<PageHeader> headers = CheckChunkCrcs(bytes, *c.meta_data, checksums);
        pages += static_cast<int>(headers.size());
        EXPECT_GE(headers.size(), 4u);  // 1500 rows, 400 per page
      }
      EXPECT_GT(pages, 64);
      // The reader verifies them too (checksums on by default) and a flipped byte is caught.
      ExpectSameLeaf(t.leaves[4], ReadLeaf(file, 4), "i64_req");
      if (checksums) {
        std::string corrupt = bytes;
        const ColumnMetaData& m = *file->metadata().row_groups[0].columns[4].meta_data;
        corrupt[static_cast<size_t>(m.dictionary_page_offset.value_or(m.data_page_offset) +
                                    m.total_compressed_size - 3)] ^= 0x55;
        const std::string bad_path = TempPath("crc_bad.parquet");
        {
          std::ofstream out(bad_path, std::ios::binary);
          out << corrupt;
        }
        auto bad = OpenForTest(bad_path);
        ASSERT_TRUE(bad);
        auto reader = ColumnChunkReader::Make(bad, 0, 4);
        ASSERT_TRUE(reader.ok());
        ColumnBatch batch;
        auto got = (*reader)->ReadRecords(1 << 20, &batch);
        EXPECT_FALSE(got.ok());
        std::remove(bad_path.c_str());
      }
      std::remove(path.c_str());
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Bloom filters.

TEST(FileWriterTest, BloomFiltersHoldEveryValueAndSitBeforeThePageIndex) {
  std::mt19937_64 rng(17);
  std::vector<SchemaElement> schema = {
      Root(4),
      Leaf("dict", PhysicalType::kByteArray, Repetition::kOptional, Logical(Kind::kString)),
      Leaf("mixed", PhysicalType::kInt64, Repetition::kRequired),
      Leaf("plain", PhysicalType::kDouble, Repetition::kOptional),
      Leaf("none", PhysicalType::kInt32, Repetition::kRequired)};
  const int64_t n = 6000;
  std::vector<LeafData> leaves = {MakeFlat(PhysicalType::kByteArray, true, n, rng, 300),
                                  MakeFlat(PhysicalType::kInt64, false, n, rng),
                                  MakeFlat(PhysicalType::kDouble, true, n, rng),
                                  MakeFlat(PhysicalType::kInt32, false, n, rng)};
  WriterOptions o;
  o.bloom_filter_columns = {"dict", "mixed", "plain"};
  o.column_encodings = {{"plain", Encoding::kPlain}};
  o.dictionary_page_bytes = 8000;  // "mixed" falls back part way
  o.encoding_trial = false;
  o.row_group_rows = 3000;
  const std::string path = TempPath("bloom.parquet");
  auto w = FileWriter::Open(path, schema, o);
  ASSERT_TRUE(w.ok()) << w.status().ToString();
  ASSERT_TRUE(WriteTable(w->get(), leaves, n, 1000).ok());
  ASSERT_TRUE((*w)->Close().ok());
  auto file = OpenForTest(path);
  ASSERT_TRUE(file);
  ASSERT_EQ(file->num_row_groups(), 2);
  const std::string bytes = ReadWholeFile(path);

  // Where the last row group's data ends, and where the page index starts.
  const RowGroup& last = file->metadata().row_groups.back();
  const int64_t data_end = *last.file_offset + *last.total_compressed_size;
  int64_t first_index = INT64_MAX;
  for (const RowGroup& rg : file->metadata().row_groups) {
    for (const ColumnChunk& c : rg.columns)
      first_index = std::min(first_index, *c.column_index_offset);
  }
  const LeafData mixed_read = ReadLeaf(file, 1);
  EXPECT_EQ(mixed_read.i64, leaves[1].i64);
  int64_t previous_offset = 0;
  for (int rg = 0; rg < 2; ++rg) {
    const int64_t r0 = rg * 3000;
    for (int c = 0; c < 4; ++c) {
      const ColumnMetaData& m = *file->metadata()
                                     .row_groups[static_cast<size_t>(rg)]
                                     .columns[static_cast<size_t>(c)]
                                     .meta_data;
      if (c == 3) {
        EXPECT_FALSE(m.bloom_filter_offset.has_value());
        continue;
      }
      ASSERT_TRUE(m.bloom_filter_offset.has_value());
      ASSERT_TRUE(m.bloom_filter_length.has_value());
      EXPECT_GE(*m.bloom_filter_offset, data_end);
      EXPECT_LT(*m.bloom_filter_offset, first_index);
      EXPECT_GT(*m.bloom_filter_offset,
                previous_offset);  // row group by row group, columns in order
      previous_offset = *m.bloom_filter_offset;
      size_t consumed = 0;
      auto filter = SplitBlockBloomFilter::Read(
          AsBytes(std::string_view(bytes).substr(static_cast<size_t>(*m.bloom_filter_offset))),
          &consumed);
      ASSERT_TRUE(filter.ok()) << filter.status().ToString();
      EXPECT_EQ(static_cast<int64_t>(consumed), *m.bloom_filter_length);
      // The values of this row group, and the exact distinct count behind the size.
      LeafData one;
      std::set<uint64_t> hashes;
      int false_positives = 0;
      if (c == 0) {
        int64_t v = 0;
        for (int64_t r = 0; r < r0 + 3000; ++r) {
          if (leaves[0].def[static_cast<size_t>(r)] == 0) continue;
          const std::string& s = leaves[0].bytes[static_cast<size_t>(v++)];
          if (r < r0) continue;
          const uint64_t h = BloomHash(AsBytes(s));
          hashes.insert(h);
          EXPECT_TRUE(filter->Check(h)) << s;
        }
        for (int k = 0; k < 2000; ++k)
          false_positives += filter->Check(BloomHash(AsBytes("absent" + std::to_string(k))));
      } else if (c == 1) {
        for (int64_t r = r0; r < r0 + 3000; ++r) {
          const uint64_t h = BloomHash(leaves[1].i64[static_cast<size_t>(r)]);
          hashes.insert(h);
          EXPECT_TRUE(filter->Check(h));
        }
        for (int k = 0; k < 2000; ++k)
          false_positives += filter->Check(BloomHash(int64_t{k} * 7 + 3));
      } else {
        int64_t v = 0;
        for (int64_t r = 0; r < r0 + 3000; ++r) {
          if (leaves[2].def[static_cast<size_t>(r)] == 0) continue;
          const double x = leaves[2].f64[static_cast<size_t>(v++)];
          if (r < r0) continue;
          const uint64_t h = BloomHash(x);
          hashes.insert(h);
          EXPECT_TRUE(filter->Check(h));
        }
        for (int k = 0; k < 2000; ++k) false_positives += filter->Check(BloomHash(0.5 + k));
      }
      EXPECT_EQ(filter->num_bytes(),
                SplitBlockBloomFilter::OptimalNumBytes(static_cast<int64_t>(hashes.size()), 0.01,
                                                       o.bloom_filter_max_bytes))
          << c;
      EXPECT_LT(false_positives, 60) << c;  // 1% of 2000 is 20
    }
  }
  // "mixed" really was dictionary-then-plain.
  const ColumnMetaData& mixed = *file->metadata().row_groups[0].columns[1].meta_data;
  std::set<Encoding> data_encodings;
  for (const auto& s : *mixed.encoding_stats) {
    if (s.page_type != PageType::kDictionaryPage) data_encodings.insert(s.encoding);
  }
  EXPECT_EQ(data_encodings, (std::set<Encoding>{Encoding::kRleDictionary, Encoding::kPlain}));
  std::remove(path.c_str());

  // Pending filters over the buffer limit are written between row groups instead.
  o.bloom_filter_buffer_bytes = 1;
  auto w2 = FileWriter::Open(path, schema, o);
  ASSERT_TRUE(w2.ok());
  ASSERT_TRUE(WriteTable(w2->get(), leaves, n, 1000).ok());
  ASSERT_TRUE((*w2)->Close().ok());
  auto file2 = OpenForTest(path);
  const auto& rgs = file2->metadata().row_groups;
  EXPECT_LT(*rgs[0].columns[0].meta_data->bloom_filter_offset, *rgs[1].file_offset);
  EXPECT_GT(*rgs[1].columns[0].meta_data->bloom_filter_offset, *rgs[1].file_offset);
  ExpectSameLeaf(leaves[0], ReadLeaf(file2, 0), "dict");
  std::remove(path.c_str());
}

// A zero of either sign puts both zeros' hashes in the filter: the spec hashes the bits, and a reader
// that probes only the zero it was asked for (hyparquet probes +0.0) must still find -0.0's rows.
TEST(FileWriterTest, BloomFiltersHoldBothZerosForEither) {
  std::vector<SchemaElement> schema = {Root(2), Leaf("f", PhysicalType::kFloat, Repetition::kRequired),
                                       Leaf("d", PhysicalType::kDouble, Repetition::kRequired)};
  for (const bool dictionary : {true, false}) {
    for (const double zero : {-0.0, 0.0}) {
      SCOPED_TRACE(std::string(dictionary ? "dictionary, " : "plain, ") + (std::signbit(zero) ? "-0.0" : "+0.0"));
      std::vector<LeafData> leaves(2);
      for (int r = 0; r < 10; ++r) {
        leaves[0].f32.push_back(r == 3 ? static_cast<float>(zero) : 1.5f + static_cast<float>(r));
        leaves[1].f64.push_back(r == 3 ? zero : 1.5 + r);
      }
      WriterOptions o;
      o.bloom_filter_columns = {"f", "d"};
      o.encoding_trial = false;
      if (!dictionary) o.column_encodings = {{"f", Encoding::kPlain}, {"d", Encoding::kPlain}};
      const std::string path = TempPath("zeros.parquet");
      auto w = FileWriter::Open(path, schema, o);
      ASSERT_TRUE(w.ok()) << w.status().ToString();
      ASSERT_TRUE(WriteTable(w->get(), leaves, 10, 10).ok());
      ASSERT_TRUE((*w)->Close().ok());
      auto file = OpenForTest(path);
      ASSERT_TRUE(file);
      const std::string bytes = ReadWholeFile(path);
      for (int c = 0; c < 2; ++c) {
        const ColumnMetaData& m = *file->metadata().row_groups[0].columns[static_cast<size_t>(c)].meta_data;
        ASSERT_TRUE(m.bloom_filter_offset.has_value());
        auto filter = SplitBlockBloomFilter::Read(
            AsBytes(std::string_view(bytes).substr(static_cast<size_t>(*m.bloom_filter_offset))));
        ASSERT_TRUE(filter.ok()) << filter.status().ToString();
        if (c == 0) {
          EXPECT_TRUE(filter->Check(BloomHash(0.0f)));
          EXPECT_TRUE(filter->Check(BloomHash(-0.0f)));
          EXPECT_TRUE(filter->Check(BloomHash(5.5f)));
        } else {
          EXPECT_TRUE(filter->Check(BloomHash(0.0)));
          EXPECT_TRUE(filter->Check(BloomHash(-0.0)));
          EXPECT_TRUE(filter->Check(BloomHash(5.5)));
        }
      }
    }
  }
}

// ---------------------------------------------------------------------------------------------
// File layout and metadata.

TEST(FileWriterTest, FooterMetadataAndLayout) {
  LogicalType ts = TimestampType(TimeUnit::kMicros, false);
  std::vector<SchemaElement> schema = {
      Root(4),
      Leaf("name", PhysicalType::kByteArray, Repetition::kRequired, Logical(Kind::kString)),
      Leaf("price", PhysicalType::kInt64, Repetition::kOptional, DecimalType(12, 2)),
      Leaf("at", PhysicalType::kInt64, Repetition::kRequired, ts),
      Leaf("small", PhysicalType::kInt32, Repetition::kRequired, IntType(16, false))};
  std::vector<LeafData> leaves(4);
  for (int r = 0; r < 100; ++r) {
    leaves[0].bytes.push_back("n" + std::to_string(r));
    leaves[1].def.push_back(r % 2);
    if (r % 2) leaves[1].i64.push_back(r * 100);
    leaves[2].i64.push_back(int64_t{1700000000000000} + r);
    leaves[3].i32.push_back(r);
  }
  WriterOptions o;
  o.key_value_metadata = {{"origin", std::string("unit test")}, {"novalue", std::nullopt}};
  o.sorting_columns = {SortingColumn{2, false, true}};
  o.codec = CompressionCodec::kUncompressed;
  const std::string path = TempPath("meta.parquet");
  auto w = FileWriter::Open(path, schema, o);
  ASSERT_TRUE(w.ok());
  ASSERT_TRUE(WriteTable(w->get(), leaves, 100, 100).ok());
  EXPECT_EQ((*w)->num_rows(), 0);
  EXPECT_EQ((*w)->row_group_rows(), 100);
  ASSERT_TRUE((*w)->Close().ok());
  EXPECT_EQ((*w)->num_rows(), 100);
  // Once closed, nothing more.
  EXPECT_FALSE((*w)->Close().ok());
  EXPECT_FALSE((*w)->EndRowGroup().ok());
  EXPECT_TRUE(FileExists(path));  // closing twice does not remove it

  const std::string bytes = ReadWholeFile(path);
  ASSERT_GE(bytes.size(), 12u);
  EXPECT_EQ(bytes.substr(0, 4), "PAR1");
  EXPECT_EQ(bytes.substr(bytes.size() - 4), "PAR1");
  const uint32_t footer_len =
      LoadLE<uint32_t>(reinterpret_cast<const uint8_t*>(bytes.data() + bytes.size() - 8));
  FileMetaData fm;
  ASSERT_TRUE(
      ReadFileMetaData(
          AsBytes(std::string_view(bytes).substr(bytes.size() - 8 - footer_len, footer_len)), &fm)
          .ok());
  EXPECT_EQ(fm.version, 1);
  EXPECT_EQ(fm.num_rows, 100);
  ASSERT_TRUE(fm.created_by.has_value());
  EXPECT_EQ(
      fm.created_by->rfind(std::string("sqlite-parquet version ") + PQ_VERSION + " (build ", 0),
      0u);
  EXPECT_EQ(*fm.created_by, DefaultCreatedBy());
  ASSERT_EQ(fm.key_value_metadata.size(), 2u);
  EXPECT_EQ(fm.key_value_metadata[0].key, "origin");
  EXPECT_EQ(fm.key_value_metadata[0].value, "unit test");
  EXPECT_FALSE(fm.key_value_metadata[1].value.has_value());
  ASSERT_EQ(fm.row_groups.size(), 1u);
  const RowGroup& rg = fm.row_groups[0];
  EXPECT_EQ(rg.ordinal, 0);
  EXPECT_EQ(rg.file_offset, 4);
  ASSERT_TRUE(rg.sorting_columns.has_value());
  EXPECT_EQ((*rg.sorting_columns)[0].column_idx, 2);
  EXPECT_TRUE((*rg.sorting_columns)[0].nulls_first);
  // Chunks follow each other from offset 4; sizes add up.
  int64_t pos = 4, total = 0, total_uncompressed = 0;
  for (const ColumnChunk& c : rg.columns) {
    const ColumnMetaData& m = *c.meta_data;
    EXPECT_EQ(c.file_offset, pos);
    EXPECT_EQ(m.dictionary_page_offset.value_or(m.data_page_offset), pos);
    pos += m.total_compressed_size;
    total += m.total_compressed_size;
    total_uncompressed += m.total_uncompressed_size;
    EXPECT_EQ(m.total_compressed_size, m.total_uncompressed_size);  // UNCOMPRESSED
    EXPECT_EQ(m.num_values, 100);
  }
  EXPECT_EQ(rg.total_compressed_size, total);
  EXPECT_EQ(rg.total_byte_size, total_uncompressed);
  EXPECT_EQ(rg.columns[0].meta_data->path_in_schema, std::vector<std::string>{"name"});
  // Then the column indexes, the offset indexes, the footer.
  int64_t index_pos = pos;
  for (const ColumnChunk& c : rg.columns) {
    EXPECT_EQ(*c.column_index_offset, index_pos);
    index_pos += *c.column_index_length;
  }
  for (const ColumnChunk& c : rg.columns) {
    EXPECT_EQ(*c.offset_index_offset, index_pos);
    index_pos += *c.offset_index_length;
  }
  EXPECT_EQ(index_pos, static_cast<int64_t>(bytes.size() - 8 - footer_len));
  // ConvertedTypes were added for old readers.
  EXPECT_EQ(fm.schema[1].converted_type, ConvertedType::kUtf8);
  EXPECT_EQ(fm.schema[2].converted_type, ConvertedType::kDecimal);
  EXPECT_EQ(fm.schema[2].precision, 12);
  EXPECT_EQ(fm.schema[2].scale, 2);
  EXPECT_EQ(fm.schema[3].converted_type, ConvertedType::kTimestampMicros);
  EXPECT_EQ(fm.schema[4].converted_type, ConvertedType::kUint16);
  EXPECT_EQ(fm.schema[3].logical_type->kind, Kind::kTimestamp);
  std::remove(path.c_str());
}

TEST(FileWriterTest, ConvertedTypeTable) {
  EXPECT_EQ(ConvertedTypeFor(Logical(Kind::kString)), ConvertedType::kUtf8);
  EXPECT_EQ(ConvertedTypeFor(Logical(Kind::kList)), ConvertedType::kList);
  EXPECT_EQ(ConvertedTypeFor(Logical(Kind::kMap)), ConvertedType::kMap);
  EXPECT_EQ(ConvertedTypeFor(Logical(Kind::kEnum)), ConvertedType::kEnum);
  EXPECT_EQ(ConvertedTypeFor(Logical(Kind::kDate)), ConvertedType::kDate);
  EXPECT_EQ(ConvertedTypeFor(Logical(Kind::kJson)), ConvertedType::kJson);
  // Not BSON -> BSON: DuckDB refuses files with that converted type (converted_type.h).
  EXPECT_EQ(ConvertedTypeFor(Logical(Kind::kBson)), std::nullopt);
  EXPECT_EQ(ConvertedTypeFor(IntType(8, true)), ConvertedType::kInt8);
  EXPECT_EQ(ConvertedTypeFor(IntType(64, false)), ConvertedType::kUint64);
  EXPECT_EQ(ConvertedTypeFor(TimestampType(TimeUnit::kMillis, true)),
            ConvertedType::kTimestampMillis);
  EXPECT_EQ(ConvertedTypeFor(TimestampType(TimeUnit::kNanos, true)), std::nullopt);
  LogicalType time = Logical(Kind::kTime);
  time.unit = TimeUnit::kMicros;
  EXPECT_EQ(ConvertedTypeFor(time), ConvertedType::kTimeMicros);
  time.unit = TimeUnit::kNanos;
  EXPECT_EQ(ConvertedTypeFor(time), std::nullopt);
  EXPECT_EQ(ConvertedTypeFor(Logical(Kind::kUuid)), std::nullopt);
  EXPECT_EQ(ConvertedTypeFor(Logical(Kind::kFloat16)), std::nullopt);
  EXPECT_EQ(ConvertedTypeFor(Logical(Kind::kUnknown)), std::nullopt);
  // An element that has one keeps it.
  std::vector<SchemaElement> s = {
      Leaf("x", PhysicalType::kInt32, Repetition::kRequired, IntType(8, true))};
  s[0].converted_type = ConvertedType::kInt16;
  AddConvertedTypes(&s);
  EXPECT_EQ(s[0].converted_type, ConvertedType::kInt16);
}

// ---------------------------------------------------------------------------------------------
// Row groups and pages.

TEST(FileWriterTest, RowGroupsEndAtTheirLimits) {
  std::mt19937_64 rng(2);
  std::vector<SchemaElement> schema = {Root(1),
                                       Leaf("v", PhysicalType::kInt64, Repetition::kRequired)};
  std::vector<LeafData> leaves = {MakeFlat(PhysicalType::kInt64, false, 3500, rng)};
  // Batches cut at row_group_rows_left(): row groups are exactly 1000 rows.
  WriterOptions o;
  o.row_group_rows = 1000;
  const std::string path = TempPath("rg.parquet");
  auto w = FileWriter::Open(path, schema, o);
  ASSERT_TRUE(w.ok());
  int64_t r = 0;
  while (r < 3500) {
    const int64_t take = std::min<int64_t>({300, (*w)->row_group_rows_left(), 3500 - r});
    ASSERT_TRUE(WriteRecords(w->get(), 0, leaves[0], r, r + take).ok());
    ASSERT_TRUE((*w)->EndBatch().ok());
    r += take;
  }
  ASSERT_TRUE((*w)->Close().ok());
  auto file = OpenForTest(path);
  ASSERT_EQ(file->num_row_groups(), 4);
  for (int i = 0; i < 3; ++i)
    EXPECT_EQ(file->metadata().row_groups[static_cast<size_t>(i)].num_rows, 1000);
  EXPECT_EQ(file->metadata().row_groups[3].num_rows, 500);
  EXPECT_EQ(file->metadata().row_groups[3].ordinal, 3);
  ExpectSameLeaf(leaves[0], ReadLeaf(file, 0), "v");
  std::remove(path.c_str());

  // The byte limit: random int64s are ~8 bytes a row; 20 KB row groups hold about 2,500 rows.
  o.row_group_rows = 1'000'000;
  o.row_group_bytes = 20000;
  o.dictionary = false;
  auto w2 = FileWriter::Open(path, schema, o);
  ASSERT_TRUE(w2.ok());
  ASSERT_TRUE(WriteTable(w2->get(), leaves, 3500, 100).ok());
  ASSERT_TRUE((*w2)->Close().ok());
  auto file2 = OpenForTest(path);
  ASSERT_EQ(file2->num_row_groups(), 2);
  EXPECT_EQ(file2->metadata().row_groups[0].num_rows, 2500);
  std::remove(path.c_str());
}

TEST(FileWriterTest, PagesEndAtTheirByteLimit) {
  std::vector<SchemaElement> schema = {Root(1),
                                       Leaf("s", PhysicalType::kByteArray, Repetition::kRequired)};
  LeafData d;
  for (int r = 0; r < 400; ++r)
    d.bytes.push_back(std::string(100 + r % 7, static_cast<char>('a' + r % 26)));
  std::string big(300000, 'x');  // one record larger than a page: a page of its own
  d.bytes.push_back(big);
  WriterOptions o;
  o.dictionary = false;
  o.codec = CompressionCodec::kUncompressed;
  o.page_bytes = 4096;
  const std::string path = TempPath("pages.parquet");
  auto w = FileWriter::Open(path, schema, o);
  ASSERT_TRUE(w.ok());
  ASSERT_TRUE(WriteTable(w->get(), {d}, 401, 401).ok());
  ASSERT_TRUE((*w)->Close().ok());
  auto file = OpenForTest(path);
  ExpectSameLeaf(d, ReadLeaf(file, 0), "s");
  const OffsetIndex oi =
      ReadOffsetIndexOf(ReadWholeFile(path), file->metadata().row_groups[0].columns[0]);
  ASSERT_GE(oi.page_locations.size(), 10u);
  for (size_t p = 0; p + 1 < oi.page_locations.size(); ++p) {
    // Each page stops before the record that would overflow it (a header and ~107-byte records).
    EXPECT_LE(oi.page_locations[p].compressed_page_size, 4096 + 40) << p;
    // (The page before the big record ends early: the big record did not fit beside it.)
    if (p + 2 < oi.page_locations.size()) {
      EXPECT_GT(oi.page_locations[p].compressed_page_size, 4096 - 120) << p;
    }
  }
  EXPECT_GT(oi.page_locations.back().compressed_page_size, 300000);
  EXPECT_EQ(oi.page_locations.back().first_row_index, 400);
  std::remove(path.c_str());
}

TEST(FileWriterTest, EmptyFileAndAllNullColumn) {
  std::vector<SchemaElement> schema = {Root(2),
                                       Leaf("a", PhysicalType::kInt32, Repetition::kOptional),
                                       Leaf("s", PhysicalType::kByteArray, Repetition::kOptional)};
  const std::string path = TempPath("empty.parquet");
  {
    auto w = FileWriter::Open(path, schema, WriterOptions{});
    ASSERT_TRUE(w.ok());
    ASSERT_TRUE((*w)->EndRowGroup().ok());  // nothing to end
    ASSERT_TRUE((*w)->Close().ok());
  }
  auto file = OpenForTest(path);
  ASSERT_TRUE(file);
  EXPECT_EQ(file->num_row_groups(), 0);
  EXPECT_EQ(file->metadata().num_rows, 0);
  std::remove(path.c_str());

  for (int version : {1, 2}) {
    std::vector<LeafData> leaves(2);
    leaves[0].def.assign(300, 0);
    leaves[1].def.assign(300, 0);
    WriterOptions o;
    o.data_page_version = version;
    o.codec = CompressionCodec::kSnappy;
    o.bloom_filter_columns = {"s"};
    auto w = FileWriter::Open(path, schema, o);
    ASSERT_TRUE(w.ok());
    ASSERT_TRUE(WriteTable(w->get(), leaves, 300, 100).ok());
    ASSERT_TRUE((*w)->Close().ok());
    auto f = OpenForTest(path);
    ASSERT_TRUE(f);
    ExpectSameLeaf(leaves[0], ReadLeaf(f, 0), "a");
    ExpectSameLeaf(leaves[1], ReadLeaf(f, 1), "s");
    const ColumnChunk& c = f->metadata().row_groups[0].columns[0];
    EXPECT_EQ(c.meta_data->statistics->null_count, 300);
    EXPECT_FALSE(c.meta_data->statistics->min_value.has_value());
    ColumnIndex ci = ReadColumnIndexOf(ReadWholeFile(path), c);
    for (bool null_page : ci.null_pages) EXPECT_TRUE(null_page);
    std::remove(path.c_str());
  }
}

// ---------------------------------------------------------------------------------------------
// Bad calls.

TEST(FileWriterTest, BadInputIsRefusedAndLeavesTheFileUsable) {
  std::vector<SchemaElement> schema = {Root(2),
                                       Leaf("a", PhysicalType::kInt32, Repetition::kOptional),
                                       Group("l", Repetition::kOptional, 1)};
  schema.push_back(
      Leaf("x", PhysicalType::kFixedLenByteArray, Repetition::kRepeated, std::nullopt, 2));
  const std::string path = TempPath("bad.parquet");
  auto w = FileWriter::Open(path, schema, WriterOptions{});
  ASSERT_TRUE(w.ok());
  FileWriter& fw = **w;
  const int16_t def[] = {1, 0, 1};
  const int32_t vals[] = {1, 2};
  // Wrong value type, wrong leaf.
  const int64_t v64[] = {1, 2};
  EXPECT_TRUE(fw.WriteColumn<int64_t>(0, 3, def, nullptr, v64, 2).IsInvalidArgument());
  EXPECT_TRUE(fw.WriteColumn<int32_t>(5, 3, def, nullptr, vals, 2).IsInvalidArgument());
  // Levels out of range, counts that disagree, missing levels.
  const int16_t bad_def[] = {1, 2, 1};
  EXPECT_TRUE(fw.WriteColumn<int32_t>(0, 3, bad_def, nullptr, vals, 2).IsInvalidArgument());
  EXPECT_TRUE(fw.WriteColumn<int32_t>(0, 3, def, nullptr, vals, 1).IsInvalidArgument());
  EXPECT_TRUE(fw.WriteColumn<int32_t>(0, 3, nullptr, nullptr, vals, 2).IsInvalidArgument());
  // l.x: max def 2, max rep 1. The first rep level must be 0; rep 1 needs def >= 2.
  const std::string ab = "ab", abc = "abc";
  const ByteArray xs[] = {{reinterpret_cast<const uint8_t*>(ab.data()), 2},
                          {reinterpret_cast<const uint8_t*>(ab.data()), 2}};
  const int16_t xdef[] = {2, 2, 0};
  const int16_t xrep_bad_start[] = {1, 1, 0};
  EXPECT_TRUE(fw.WriteColumn<ByteArray>(1, 3, xdef, xrep_bad_start, xs, 2).IsInvalidArgument());
  const int16_t xdef_bad[] = {2, 1, 0};
  const int16_t xrep[] = {0, 1, 0};
  EXPECT_TRUE(fw.WriteColumn<ByteArray>(1, 3, xdef_bad, xrep, xs, 1).IsInvalidArgument());
  // A fixed-length value of the wrong length.
  const ByteArray wrong[] = {{reinterpret_cast<const uint8_t*>(abc.data()), 3}, xs[1]};
  EXPECT_TRUE(fw.WriteColumn<ByteArray>(1, 3, xdef, xrep, wrong, 2).IsInvalidArgument());
  // None of that changed anything: now write properly.
  ASSERT_TRUE(fw.WriteColumn<int32_t>(0, 3, def, nullptr, vals, 2).ok());
  // Columns out of step.
  EXPECT_TRUE(fw.EndBatch().IsInvalidArgument());
  EXPECT_TRUE(fw.EndRowGroup().IsInvalidArgument());
  const int16_t xdef4[] = {2, 2, 0, 1};
  const int16_t xrep4[] = {0, 1, 0, 0};
  Status s = fw.WriteColumn<ByteArray>(1, 4, xdef4, xrep4, xs, 2);
  ASSERT_TRUE(s.ok()) << s.ToString();  // records: [ab, ab], null, []
  ASSERT_TRUE(fw.EndBatch().ok());
  ASSERT_TRUE(fw.Close().ok());
  auto file = OpenForTest(path);
  ASSERT_TRUE(file);
  LeafData a = ReadLeaf(file, 0);
  EXPECT_EQ(a.def, (std::vector<int16_t>{1, 0, 1}));
  EXPECT_EQ(a.i32, (std::vector<int32_t>{1, 2}));
  LeafData x = ReadLeaf(file, 1);
  EXPECT_EQ(x.rep, (std::vector<int16_t>{0, 1, 0, 0}));
  EXPECT_EQ(x.def, (std::vector<int16_t>{2, 2, 0, 1}));
  EXPECT_EQ(x.bytes, (std::vector<std::string>{"ab", "ab"}));
  std::remove(path.c_str());
}

TEST(FileWriterTest, FailedCloseAbortAndDestructorLeaveNoFile) {
  std::vector<SchemaElement> schema = {Root(2),
                                       Leaf("a", PhysicalType::kInt32, Repetition::kRequired),
                                       Leaf("b", PhysicalType::kInt32, Repetition::kRequired)};
  const int32_t v[] = {1, 2, 3};
  const std::string path = TempPath("gone.parquet");
  {
    auto w = FileWriter::Open(path, schema, WriterOptions{});
    ASSERT_TRUE(w.ok());
    ASSERT_TRUE((*w)->WriteColumn<int32_t>(0, 3, nullptr, nullptr, v, 3).ok());
    EXPECT_TRUE(FileExists(path));
    // Column b never got its rows: the file cannot be completed.
    EXPECT_TRUE((*w)->Close().IsInvalidArgument());
    EXPECT_FALSE(FileExists(path));
    EXPECT_FALSE((*w)->WriteColumn<int32_t>(0, 3, nullptr, nullptr, v, 3).ok());
  }
  {
    auto w = FileWriter::Open(path, schema, WriterOptions{});
    ASSERT_TRUE(w.ok());
    ASSERT_TRUE((*w)->WriteColumn<int32_t>(0, 3, nullptr, nullptr, v, 3).ok());
    (*w)->Abort();
    EXPECT_FALSE(FileExists(path));
    (*w)->Abort();
    EXPECT_FALSE((*w)->Close().ok());
  }
  {
    auto w = FileWriter::Open(path, schema, WriterOptions{});
    ASSERT_TRUE(w.ok());
    EXPECT_TRUE(FileExists(path));
  }  // destroyed without Close
  EXPECT_FALSE(FileExists(path));
}

TEST(FileWriterTest, BadOptionsAndSchemasAreRefusedBeforeAFileExists) {
  std::vector<SchemaElement> schema = {Root(2),
                                       Leaf("a", PhysicalType::kInt32, Repetition::kRequired),
                                       Leaf("flag", PhysicalType::kBoolean, Repetition::kRequired)};
  const std::string path = TempPath("never.parquet");
  auto refused = [&](WriterOptions o, std::vector<SchemaElement> s) {
    auto w = FileWriter::Open(path, s, o);
    EXPECT_FALSE(FileExists(path));
    return !w.ok();
  };
  WriterOptions o;
  o.data_page_version = 3;
  EXPECT_TRUE(refused(o, schema));
  o = {};
  o.codec = CompressionCodec::kLz4;  // the Hadoop-framed LZ4 is never written
  EXPECT_TRUE(refused(o, schema));
  o = {};
  o.codec = CompressionCodec::kZstd;
  o.compression_level = 99;
  EXPECT_TRUE(refused(o, schema));
  o = {};
  o.codec = CompressionCodec::kSnappy;
  o.compression_level = 3;
  EXPECT_TRUE(refused(o, schema));
  o = {};
  o.bloom_filter_columns = {"flag"};
  EXPECT_TRUE(refused(o, schema));
  o = {};
  o.bloom_filter_columns = {"missing"};
  EXPECT_TRUE(refused(o, schema));
  o = {};
  o.bloom_filter_fpp = 1.5;
  EXPECT_TRUE(refused(o, schema));
  o = {};
  o.page_rows = 0;
  EXPECT_TRUE(refused(o, schema));
  o = {};
  o.sorting_columns = {SortingColumn{2, false, false}};
  EXPECT_TRUE(refused(o, schema));
  // Schemas: no leaves, a broken tree, a root with a type, FLBA without a length.
  EXPECT_TRUE(refused({}, {Root(0)}));
  EXPECT_TRUE(refused({}, {Root(3), schema[1]}));
  std::vector<SchemaElement> typed_root = schema;
  typed_root[0].type = PhysicalType::kInt32;
  EXPECT_TRUE(refused({}, typed_root));
  EXPECT_TRUE(
      refused({}, {Root(1), Leaf("f", PhysicalType::kFixedLenByteArray, Repetition::kRequired)}));
  // A path that cannot be created.
  auto w = FileWriter::Open("/nonexistent-dir/x.parquet", schema, WriterOptions{});
  ASSERT_FALSE(w.ok());
  EXPECT_EQ(w.status().code(), StatusCode::kIOError);
}

// ---------------------------------------------------------------------------------------------
// Files for an independent reader. With PQ_WRITER_EXPORT_DIR set, writes one file per writable
// codec and page version (tools/duckdb_read_check.mjs checks them with DuckDB). The content is
// a function of the row number, so the checker can recompute every aggregate.

TEST(FileWriterTest, ExportFilesForIndependentReaders) {
  const char* dir = std::getenv("PQ_WRITER_EXPORT_DIR");
  if (dir == nullptr) GTEST_SKIP() << "PQ_WRITER_EXPORT_DIR not set";
  const int64_t n = 10000;
  std::vector<SchemaElement> schema = {
      Root(9),
      Leaf("id", PhysicalType::kInt64, Repetition::kRequired),
      Leaf("opt_i32", PhysicalType::kInt32, Repetition::kOptional),
      Leaf("d", PhysicalType::kDouble, Repetition::kRequired),
      Leaf("s", PhysicalType::kByteArray, Repetition::kOptional, Logical(Kind::kString)),
      Leaf("u", PhysicalType::kByteArray, Repetition::kRequired, Logical(Kind::kString)),
      Leaf("b", PhysicalType::kBoolean, Repetition::kRequired),
      Leaf("dec", PhysicalType::kInt32, Repetition::kRequired, DecimalType(9, 2)),
      Group("l", Repetition::kOptional, 1, Logical(Kind::kList)),
      Group("list", Repetition::kRepeated, 1),
      Leaf("element", PhysicalType::kInt32, Repetition::kOptional),
      Leaf("ts", PhysicalType::kInt64, Repetition::kRequired,
           TimestampType(TimeUnit::kMicros, true))};
  schema[0].num_children = 9;
  std::vector<LeafData> leaves(9);
  for (int64_t i = 0; i < n; ++i) {
    leaves[0].i64.push_back(i);
    leaves[1].def.push_back(i % 7 == 0 ? 0 : 1);
    if (i % 7 != 0) leaves[1].i32.push_back(static_cast<int32_t>(i * 3 - 5000));
    leaves[2].f64.push_back(static_cast<double>(i) * 0.5);
    leaves[3].def.push_back(i % 13 == 0 ? 0 : 1);
    if (i % 13 != 0) leaves[3].bytes.push_back("str" + std::to_string(i % 100));
    leaves[4].bytes.push_back("unique-" + std::to_string(i));
    leaves[5].bools.push_back(i % 3 == 0);
    leaves[6].i32.push_back(static_cast<int32_t>(i * 7));  // decimal(9,2): i * 0.07
    if (i % 11 == 0) {
      leaves[7].def.push_back(0), leaves[7].rep.push_back(0);
    } else if (i % 5 == 0) {
      leaves[7].def.push_back(1), leaves[7].rep.push_back(0);
    } else {
      for (int64_t k = 0; k < i % 5; ++k) {
        leaves[7].rep.push_back(k == 0 ? 0 : 1);
        if (k == 2) {
          leaves[7].def.push_back(2);
        } else {
          leaves[7].def.push_back(3), leaves[7].i32.push_back(static_cast<int32_t>(i + k));
        }
      }
    }
    leaves[8].i64.push_back(int64_t{1700000000} * 1000000 + i * 1000);
  }
  for (CompressionCodec codec : kWritableCodecs) {
    for (int version : {1, 2}) {
      WriterOptions o;
      o.codec = codec;
      o.data_page_version = version;
      o.row_group_rows = 4000;
      o.page_rows = 1000;
      o.dictionary_page_bytes = 32 * 1024;  // "u" falls back
      o.bloom_filter_columns = {"u", "id"};
      const std::string path = std::string(dir) + "/" + CompressionCodecName(codec) + "_v" +
                               std::to_string(version) + ".parquet";
      auto w = FileWriter::Open(path, schema, o);
      ASSERT_TRUE(w.ok()) << w.status().ToString();
      ASSERT_TRUE(WriteTable(w->get(), leaves, n, 1000).ok());
      ASSERT_TRUE((*w)->Close().ok());
      auto file = OpenForTest(path);
      ASSERT_TRUE(file);
      for (int i = 0; i < 9; ++i)
        ExpectSameLeaf(leaves[static_cast<size_t>(i)], ReadLeaf(file, i), path);
    }
  }

  // Edge cases: all-null columns (an empty dictionary), the non-default encodings, UUID, FLOAT16.
  const int64_t m = 3000;
  LogicalType uuid = Logical(Kind::kUuid);
  std::vector<SchemaElement> edge = {
      Root(8),
      Leaf("nul_i32", PhysicalType::kInt32, Repetition::kOptional),
      Leaf("nul_s", PhysicalType::kByteArray, Repetition::kOptional, Logical(Kind::kString)),
      Leaf("delta_i64", PhysicalType::kInt64, Repetition::kRequired),
      Leaf("dba", PhysicalType::kByteArray, Repetition::kRequired, Logical(Kind::kString)),
      Leaf("bss", PhysicalType::kDouble, Repetition::kRequired),
      Leaf("flag", PhysicalType::kBoolean, Repetition::kRequired),
      Leaf("uuid", PhysicalType::kFixedLenByteArray, Repetition::kRequired, uuid, 16),
      Leaf("half", PhysicalType::kFixedLenByteArray, Repetition::kRequired, Logical(Kind::kFloat16),
           2)};
  std::vector<LeafData> e(8);
  for (int64_t i = 0; i < m; ++i) {
    e[0].def.push_back(0);
    e[1].def.push_back(0);
    e[2].i64.push_back(i * i - 1000);
    e[3].bytes.push_back("prefix-" + std::to_string(i / 3));
    e[4].f64.push_back(static_cast<double>(i) * 0.25);
    e[5].bools.push_back(i % 4 == 0);
    std::string id(16, '\0');
    for (int b = 0; b < 8; ++b)
      id[15 - static_cast<size_t>(b)] = static_cast<char>((i >> (8 * b)) & 0xff);
    e[6].bytes.push_back(id);
    e[7].bytes.push_back(i % 2 == 0 ? std::string("\x00\x3c", 2) : std::string("\x00\xc0", 2));
  }
  for (int version : {1, 2}) {
    WriterOptions o;
    o.data_page_version = version;
    o.codec = CompressionCodec::kZstd;
    o.page_rows = 700;
    o.column_encodings = {{"delta_i64", Encoding::kDeltaBinaryPacked},
                          {"dba", Encoding::kDeltaByteArray},
                          {"bss", Encoding::kByteStreamSplit},
                          {"flag", Encoding::kRle}};
    const std::string path = std::string(dir) + "/edge_v" + std::to_string(version) + ".parquet";
    auto w = FileWriter::Open(path, edge, o);
    ASSERT_TRUE(w.ok()) << w.status().ToString();
    ASSERT_TRUE(WriteTable(w->get(), e, m, 1000).ok());
    ASSERT_TRUE((*w)->Close().ok());
    auto file = OpenForTest(path);
    ASSERT_TRUE(file);
    for (int i = 0; i < 8; ++i) ExpectSameLeaf(e[static_cast<size_t>(i)], ReadLeaf(file, i), path);
  }
}

}  // namespace
}  // namespace pq
