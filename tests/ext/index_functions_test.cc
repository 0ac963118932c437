// parquet_page_index and parquet_bloom_probe (ext/index_functions.h) on damaged files: what the SQL
// tests cannot build. Each file is a good one written by parquet_export whose footer is rewritten
// (offsets and lengths that point outside the file or at the wrong bytes) or whose page index and
// Bloom filter are replaced by hand-made structures appended before the footer. Every case must
// give an error naming the file, row group and column, never a crash (the sanitizer build checks
// the reads), and bytes flipped at random in those structures must give rows or an error.
#include <gtest/gtest.h>
#include <stdlib.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <random>
#include <string>

#include "format/file/file_reader.h"
#include "format/metadata/metadata_io.h"
#include "tests/ext/footer_util.h"
#include "tests/ext/sqlite_test_util.h"

namespace pq::testing {
namespace {

namespace fs = std::filesystem;

std::string ReadBytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

void WriteBytes(const std::string& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

class IndexFunctionsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(db_.load_error(), "");
    char tmpl[] = "/tmp/pq-index-functions-XXXXXX";
    ASSERT_NE(::mkdtemp(tmpl), nullptr);
    dir_ = tmpl;
    good_ = dir_ + "/good.parquet";
    // One column `x` (INTEGER) with a Bloom filter and a page index, two row groups.
    QueryResult r = db_.Query(
        "SELECT parquet_export('" + good_ +
        "', 'WITH RECURSIVE n(v) AS (SELECT 0 UNION ALL SELECT v + 1 FROM n WHERE v < 199) "
        "SELECT v * 3 AS x FROM n', 'row_group_size=100, page_size=256, dictionary=0, "
        "bloom_filter=x')");
    ASSERT_TRUE(r.ok) << r.error;
    bytes_ = ReadBytes(good_);
    auto reader = FileReader::Open(good_, ReaderOptions{});
    ASSERT_TRUE(reader.ok()) << reader.status().ToString();
    metadata_ = (*reader)->metadata();
    body_size_ = bytes_.size() - 8 - static_cast<size_t>((*reader)->footer_length());
    ASSERT_EQ(metadata_.row_groups.size(), 2u);
    ASSERT_TRUE(metadata_.row_groups[0].columns[0].meta_data->bloom_filter_offset.has_value());
    ASSERT_TRUE(metadata_.row_groups[0].columns[0].offset_index_offset.has_value());
    ASSERT_TRUE(metadata_.row_groups[0].columns[0].column_index_offset.has_value());
  }
  void TearDown() override { fs::remove_all(dir_); }

  ColumnChunk& Chunk(FileMetaData* md, int row_group = 0) {
    return md->row_groups[static_cast<size_t>(row_group)].columns[0];
  }

  // The good file's body, then `extra` (at offset body_size_), then `md` as the footer.
  std::string Write(const std::string& name, const FileMetaData& md,
                    const std::string& extra = "") {
    const std::string path = dir_ + "/" + name;
    WriteBytes(path, WithFooter(bytes_.substr(0, body_size_) + extra, md));
    return path;
  }

  QueryResult PageIndex(const std::string& path) {
    return db_.Query(
        "SELECT row_group_id, page_number, first_row_index, row_count, min_value, "
        "max_value FROM parquet_page_index('" +
        path + "')");
  }
  QueryResult Probe(const std::string& path, int64_t value) {
    return db_.Query("SELECT row_group_id, bloom_filter_excludes FROM parquet_bloom_probe('" +
                     path + "', 'x', " + std::to_string(value) + ")");
  }

  // Row group 0's Bloom filter is not used (NULL, as for a chunk without one) while row group 1's
  // own filter still answers: it holds no 4.
  void ExpectFilterUnused(const std::string& path) {
    QueryResult r = Probe(path, 4);
    ASSERT_TRUE(r.ok) << path << ": " << r.error;
    ASSERT_EQ(r.rows.size(), 2u) << path;
    EXPECT_FALSE(r.rows[0][1].has_value()) << path;
    EXPECT_EQ(r.rows[1][1], "1") << path;
  }

  // The query fails, and its message names the file, row group 0, the column and `what`.
  void ExpectChunkError(const QueryResult& r, const std::string& path, const std::string& what) {
    ASSERT_FALSE(r.ok) << path << ": no error";
    EXPECT_NE(r.error.find(path + ", row group 0, column 'x'"), std::string::npos) << r.error;
    EXPECT_NE(r.error.find(what), std::string::npos) << r.error;
  }

  TestDb db_;
  std::string dir_, good_, bytes_;
  FileMetaData metadata_;
  size_t body_size_ = 0;
};

TEST_F(IndexFunctionsTest, GoodFile) {
  QueryResult pages = PageIndex(good_);
  ASSERT_TRUE(pages.ok) << pages.error;
  EXPECT_GE(pages.rows.size(), 4u);
  QueryResult present = Probe(good_, 3);
  ASSERT_TRUE(present.ok) << present.error;
  ASSERT_EQ(present.rows.size(), 2u);
  EXPECT_EQ(present.rows[0][1], "0");
  QueryResult absent = Probe(good_, 4);
  ASSERT_TRUE(absent.ok) << absent.error;
  EXPECT_EQ(absent.rows[0][1], "1");
  EXPECT_EQ(absent.rows[1][1], "1");
}

TEST_F(IndexFunctionsTest, OffsetIndexOutsideTheFile) {
  FileMetaData md = metadata_;
  Chunk(&md).offset_index_offset = static_cast<int64_t>(bytes_.size()) + 100;
  const std::string path = Write("outside.parquet", md);
  ExpectChunkError(PageIndex(path), path, "OffsetIndex offset");
  Chunk(&md).offset_index_offset = -1;
  const std::string negative = Write("negative.parquet", md);
  ExpectChunkError(PageIndex(negative), negative, "is outside the file");
}

TEST_F(IndexFunctionsTest, IndexLengthsThatDoNotFit) {
  FileMetaData md = metadata_;
  Chunk(&md).offset_index_length = 1'000'000'000;
  const std::string long_path = Write("long.parquet", md);
  ExpectChunkError(PageIndex(long_path), long_path, "runs past the end of the file");
  md = metadata_;
  Chunk(&md).column_index_length = -5;
  const std::string negative = Write("negative_length.parquet", md);
  ExpectChunkError(PageIndex(negative), negative, "ColumnIndex length -5 is not positive");
}

TEST_F(IndexFunctionsTest, IndexWithoutLengthsIsReadToItsEnd) {
  FileMetaData md = metadata_;
  for (RowGroup& g : md.row_groups) {
    g.columns[0].offset_index_length.reset();
    g.columns[0].column_index_length.reset();
  }
  const std::string path = Write("no_lengths.parquet", md);
  QueryResult with = PageIndex(good_);
  QueryResult without = PageIndex(path);
  ASSERT_TRUE(without.ok) << without.error;
  EXPECT_EQ(without.rows, with.rows);
}

TEST_F(IndexFunctionsTest, IndexPointingAtOtherBytes) {
  FileMetaData md = metadata_;
  // The first data page's bytes are not a ColumnIndex.
  Chunk(&md).column_index_offset = 4;
  Chunk(&md).column_index_length = 40;
  const std::string path = Write("wrong_bytes.parquet", md);
  ExpectChunkError(PageIndex(path), path, "ColumnIndex");
}

TEST_F(IndexFunctionsTest, IndexListsThatDisagree) {
  ColumnIndex ci;
  ci.null_pages = {false, false};
  ci.min_values = {std::string(8, '\0')};
  ci.max_values = {std::string(8, '\0'), std::string(8, '\0')};
  std::string extra;
  WriteColumnIndex(ci, &extra);
  FileMetaData md = metadata_;
  Chunk(&md).column_index_offset = static_cast<int64_t>(body_size_);
  Chunk(&md).column_index_length = static_cast<int32_t>(extra.size());
  const std::string path = Write("lists.parquet", md, extra);
  ExpectChunkError(PageIndex(path), path, "ColumnIndex lists differ in length");

  // A ColumnIndex of two pages beside an OffsetIndex of more.
  ci.min_values.push_back(std::string(8, '\0'));
  extra.clear();
  WriteColumnIndex(ci, &extra);
  Chunk(&md).column_index_length = static_cast<int32_t>(extra.size());
  const std::string counts = Write("counts.parquet", md, extra);
  ExpectChunkError(PageIndex(counts), counts, "pages, the ColumnIndex 2");
}

TEST_F(IndexFunctionsTest, RowCountOverflowIsNull) {
  OffsetIndex oi;
  oi.page_locations = {PageLocation{4, 10, std::numeric_limits<int64_t>::min()},
                       PageLocation{14, 10, std::numeric_limits<int64_t>::max()}};
  std::string extra;
  WriteOffsetIndex(oi, &extra);
  FileMetaData md = metadata_;
  Chunk(&md).offset_index_offset = static_cast<int64_t>(body_size_);
  Chunk(&md).offset_index_length = static_cast<int32_t>(extra.size());
  Chunk(&md).column_index_offset.reset();
  Chunk(&md).column_index_length.reset();
  const std::string path = Write("overflow.parquet", md, extra);
  QueryResult r =
      db_.Query("SELECT first_row_index, row_count, null_page FROM parquet_page_index('" + path +
                "') WHERE row_group_id = 0");
  ASSERT_TRUE(r.ok) << r.error;
  ASSERT_EQ(r.rows.size(), 2u);
  EXPECT_EQ(r.rows[0][1], std::nullopt);  // max - min overflows
  EXPECT_EQ(r.rows[0][2], std::nullopt);  // no ColumnIndex
  EXPECT_EQ(r.rows[1][1], std::to_string(100 - std::numeric_limits<int64_t>::max()));
}

// A Bloom filter outside the file, or whose stated length cannot hold it, is not used: a damaged
// index never fails a query that does not need it (docs/pushdown.md).
TEST_F(IndexFunctionsTest, BloomFilterOffsetAndLength) {
  FileMetaData md = metadata_;
  Chunk(&md).meta_data->bloom_filter_offset = static_cast<int64_t>(bytes_.size()) * 2;
  ExpectFilterUnused(Write("bloom_outside.parquet", md));

  md = metadata_;
  Chunk(&md).meta_data->bloom_filter_length = 0;
  ExpectFilterUnused(Write("bloom_zero.parquet", md));

  md = metadata_;
  Chunk(&md).meta_data->bloom_filter_length = 2'000'000'000;
  ExpectFilterUnused(Write("bloom_huge.parquet", md));

  // A length shorter than the filter: the bitset runs past it.
  md = metadata_;
  Chunk(&md).meta_data->bloom_filter_length = 20;
  ExpectFilterUnused(Write("bloom_short.parquet", md));

  // Without a length the header says how much follows: the same answers.
  md = metadata_;
  for (RowGroup& g : md.row_groups) g.columns[0].meta_data->bloom_filter_length.reset();
  const std::string no_length = Write("bloom_no_length.parquet", md);
  for (int64_t v : {3, 4, 300, 301}) {
    QueryResult a = Probe(good_, v);
    QueryResult b = Probe(no_length, v);
    ASSERT_TRUE(b.ok) << b.error;
    EXPECT_EQ(a.rows, b.rows) << v;
  }
}

TEST_F(IndexFunctionsTest, BloomFilterHeaders) {
  struct Case {
    BloomFilterHeader header;
    size_t bitset_bytes;  // appended after the header
    const char* error;
  };
  // A header that contradicts the bytes, or of an algorithm, hash or compression this reader does not
  // know, or a filter over its size cap, is a filter scans do not use: NULL, as for a chunk without
  // one (error null).
  const Case cases[] = {
      {{1 << 20, 1, 1, 1}, 32, nullptr},  // runs past the file
      {{33, 1, 1, 1}, 64, nullptr},       // not a positive multiple of 32
      {{-32, 1, 1, 1}, 64, nullptr},
      {{0, 1, 1, 1}, 64, nullptr},
      {{32, 0, 1, 1}, 64, nullptr},
      {{32, 1, 0, 1}, 64, nullptr},
      {{32, 1, 1, 0}, 64, nullptr},
      {{256 << 20, 1, 1, 1}, 64, nullptr},
  };
  int k = 0;
  for (const Case& c : cases) {
    std::string extra;
    WriteBloomFilterHeader(c.header, &extra);
    extra += std::string(c.bitset_bytes, '\xff');
    FileMetaData md = metadata_;
    Chunk(&md).meta_data->bloom_filter_offset = static_cast<int64_t>(body_size_);
    Chunk(&md).meta_data->bloom_filter_length.reset();
    const std::string path = Write("header" + std::to_string(k++) + ".parquet", md, extra);
    if (c.error != nullptr) {
      ExpectChunkError(Probe(path, 3), path, c.error);
      continue;
    }
    QueryResult r = Probe(path, 4);
    ASSERT_TRUE(r.ok) << path << ": " << r.error;
    ASSERT_EQ(r.rows.size(), 2u) << path;
    EXPECT_FALSE(r.rows[0][1].has_value()) << path;
    EXPECT_EQ(r.rows[1][1], "1") << path;  // the second row group's own filter still answers
  }
  // A filter of all ones excludes nothing; the second row group's own filter still answers.
  std::string extra;
  WriteBloomFilterHeader(BloomFilterHeader{64, 1, 1, 1}, &extra);
  extra += std::string(64, '\xff');
  FileMetaData md = metadata_;
  Chunk(&md).meta_data->bloom_filter_offset = static_cast<int64_t>(body_size_);
  Chunk(&md).meta_data->bloom_filter_length.reset();
  const std::string ones = Write("ones.parquet", md, extra);
  QueryResult r = Probe(ones, 4);
  ASSERT_TRUE(r.ok) << r.error;
  ASSERT_EQ(r.rows.size(), 2u);
  EXPECT_EQ(r.rows[0][1], "0");
  EXPECT_EQ(r.rows[1][1], "1");
}

// Random bytes in the page indexes and Bloom filters (everything between the last data page and
// the footer): each query gives rows or an error, and the sanitizer build sees no bad read.
TEST_F(IndexFunctionsTest, FlippedBytes) {
  int64_t first = static_cast<int64_t>(body_size_);
  for (const RowGroup& g : metadata_.row_groups) {
    const ColumnChunk& c = g.columns[0];
    first = std::min(
        {first, *c.meta_data->bloom_filter_offset, *c.offset_index_offset, *c.column_index_offset});
  }
  ASSERT_LT(first, static_cast<int64_t>(body_size_));
  std::mt19937_64 rng(42);
  const std::string path = dir_ + "/flipped.parquet";
  int errors = 0;
  for (int iteration = 0; iteration < 300; ++iteration) {
    std::string bytes = bytes_;
    for (int k = static_cast<int>(rng() % 4) + 1; k > 0; --k) {
      const size_t at =
          static_cast<size_t>(first) + rng() % (body_size_ - static_cast<size_t>(first));
      bytes[at] = static_cast<char>(rng() % 256);
    }
    WriteBytes(path, bytes);
    QueryResult pages = PageIndex(path);
    QueryResult probe = Probe(path, static_cast<int64_t>(rng() % 700));
    errors += !pages.ok + !probe.ok;
    for (const QueryResult* r : {&pages, &probe}) {
      if (!r->ok) {
        EXPECT_NE(r->error.find(path), std::string::npos) << r->error;
      }
    }
  }
  EXPECT_GT(errors, 0);  // some damage is seen
}

}  // namespace
}  // namespace pq::testing
