// ChunkIndexReader (chunk_index_reader.h), the one reader of a chunk's Bloom filter and page index:
// conformance files with and without stored lengths, both page index parts read with one
// ReadRanges call and then served from the file's caches, the bytes it counts, and the errors for
// offsets and lengths that do not fit the file.
#include "format/file/chunk_index_reader.h"

#include <gtest/gtest.h>

#include <cstring>
#include <fstream>
#include <functional>
#include <iterator>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "format/bloom/split_block_bloom_filter.h"
#include "format/metadata/metadata_io.h"

namespace pq {
namespace {

const std::string kData = std::string(PQ_TESTDATA_DIR) + "/parquet-testing/data/";

std::string ReadWhole(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// A file in memory that counts how it is read.
class CountingFile final : public RandomAccessFile {
 public:
  explicit CountingFile(std::string bytes)
      : RandomAccessFile("counted.parquet", static_cast<int64_t>(bytes.size())), bytes_(std::move(bytes)) {}
  bool Unchanged() const override { return true; }
  Status ReadRanges(std::span<const ByteRange> ranges, std::vector<BufferPtr>* out) const override {
    range_calls.push_back(ranges.size());
    return RandomAccessFile::ReadRanges(ranges, out);
  }
  mutable std::vector<size_t> range_calls;  // ranges asked for, per ReadRanges call
  mutable int reads = 0;                    // single reads

 protected:
  Status ReadBytes(int64_t offset, int64_t length, uint8_t* out) const override {
    ++reads;
    if (length > 0) std::memcpy(out, bytes_.data() + offset, static_cast<size_t>(length));
    return Status::OK();
  }

 private:
  std::string bytes_;
};

struct Opened {
  std::shared_ptr<FileReader> reader;
  const CountingFile* file = nullptr;
};

Opened Open(std::string bytes, ReaderOptions options = {}) {
  auto file = std::make_unique<CountingFile>(std::move(bytes));
  const CountingFile* raw = file.get();
  auto r = FileReader::Open(std::move(file), options);
  EXPECT_TRUE(r.ok()) << r.status().ToString();
  return {r.ok() ? *r : nullptr, raw};
}

// `path` with its footer edited.
std::string WithFooterEdit(const std::string& path, const std::function<void(FileMetaData*)>& edit) {
  const std::string bytes = ReadWhole(path);
  uint32_t footer_len = 0;
  std::memcpy(&footer_len, bytes.data() + bytes.size() - 8, 4);
  const size_t footer_begin = bytes.size() - 8 - footer_len;
  FileMetaData md;
  EXPECT_TRUE(ReadFileMetaData(AsBytes(std::string_view(bytes).substr(footer_begin, footer_len)), &md).ok());
  edit(&md);
  std::string out = bytes.substr(0, footer_begin);
  std::string footer;
  WriteFileMetaData(md, &footer);
  out += footer;
  const uint32_t len = static_cast<uint32_t>(footer.size());
  out.append(reinterpret_cast<const char*>(&len), 4);
  out += "PAR1";
  return out;
}

TEST(ChunkIndexReaderTest, PageIndexPartsInOneCallThenFromTheCache) {
  Opened f = Open(ReadWhole(kData + "alltypes_tiny_pages.parquet"));
  ASSERT_TRUE(f.reader);
  const ColumnChunk& chunk = f.reader->metadata().row_groups[0].columns[0];
  ASSERT_TRUE(chunk.offset_index_length && chunk.column_index_length);
  int64_t bytes = 0;
  ChunkIndexReader reader(*f.reader, 0, 0, std::nullopt, &bytes);
  auto index = reader.ReadPageIndex();
  ASSERT_TRUE(index.ok()) << index.status().ToString();
  ASSERT_TRUE(index->offsets && index->columns);
  EXPECT_GT(index->num_pages, 1u);
  EXPECT_EQ(index->offsets->page_locations.size(), index->num_pages);
  EXPECT_EQ(index->columns->null_pages.size(), index->num_pages);
  EXPECT_EQ(f.file->range_calls, std::vector<size_t>{2});
  EXPECT_EQ(bytes, int64_t{*chunk.offset_index_length} + *chunk.column_index_length);
  // Parsed once per file: asked again, nothing is read.
  const int reads = f.file->reads;
  auto again = reader.ReadPageIndex();
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(again->offsets, index->offsets);
  EXPECT_EQ(again->columns, index->columns);
  EXPECT_EQ(f.file->reads, reads);
  EXPECT_EQ(bytes, int64_t{*chunk.offset_index_length} + *chunk.column_index_length);
  auto offsets = reader.ReadOffsetIndex();
  ASSERT_TRUE(offsets.ok());
  EXPECT_EQ(*offsets, index->offsets);

  // Without a cache every question reads again.
  ReaderOptions uncached;
  uncached.page_index_cache_bytes = 0;
  Opened g = Open(ReadWhole(kData + "alltypes_tiny_pages.parquet"), uncached);
  ChunkIndexReader plain(*g.reader, 0, 0, std::nullopt, nullptr);
  ASSERT_TRUE(plain.ReadPageIndex().ok());
  ASSERT_TRUE(plain.ReadPageIndex().ok());
  EXPECT_EQ(g.file->range_calls, (std::vector<size_t>{2, 2}));
}

TEST(ChunkIndexReaderTest, PageIndexWithoutStoredLengths) {
  const std::string path = kData + "alltypes_tiny_pages.parquet";
  Opened with = Open(ReadWhole(path));
  auto want = ChunkIndexReader(*with.reader, 0, 0, std::nullopt, nullptr).ReadPageIndex();
  ASSERT_TRUE(want.ok());
  Opened f = Open(WithFooterEdit(path, [](FileMetaData* m) {
    for (ColumnChunk& c : m->row_groups[0].columns) {
      c.offset_index_length.reset();
      c.column_index_length.reset();
    }
  }));
  int64_t bytes = 0;
  auto got = ChunkIndexReader(*f.reader, 0, 0, std::nullopt, &bytes).ReadPageIndex();
  ASSERT_TRUE(got.ok()) << got.status().ToString();
  ASSERT_TRUE(got->offsets && got->columns);
  EXPECT_EQ(got->num_pages, want->num_pages);
  EXPECT_EQ(got->offsets->page_locations.size(), want->offsets->page_locations.size());
  EXPECT_EQ(got->offsets->page_locations.back().offset, want->offsets->page_locations.back().offset);
  EXPECT_EQ(got->columns->max_values, want->columns->max_values);
  EXPECT_TRUE(f.file->range_calls.empty());
  EXPECT_GT(bytes, 0);
}

TEST(ChunkIndexReaderTest, PageIndexErrors) {
  const std::string path = kData + "alltypes_tiny_pages.parquet";
  struct Case {
    const char* what;
    std::function<void(ColumnChunk*)> edit;
    StatusCode code;
    std::string message;
  };
  const std::vector<Case> cases = {
      {"offset outside", [](ColumnChunk* c) { c->offset_index_offset = int64_t{1} << 40; }, StatusCode::kCorruption,
       "OffsetIndex offset 1099511627776 is outside the file"},
      {"length not positive", [](ColumnChunk* c) { c->column_index_length = -5; }, StatusCode::kCorruption,
       "ColumnIndex length -5 is not positive"},
      {"runs past the end", [](ColumnChunk* c) { c->column_index_length = 1 << 30; }, StatusCode::kCorruption,
       "ColumnIndex of 1073741824 bytes at offset"},
      {"does not parse", [](ColumnChunk* c) { c->offset_index_offset = 4; }, StatusCode::kCorruption,
       "OffsetIndex: "},
      {"no length, no ColumnIndex there", [](ColumnChunk* c) { c->column_index_offset = 0; c->column_index_length.reset(); },
       StatusCode::kCorruption, "ColumnIndex"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.what);
    Opened f = Open(WithFooterEdit(path, [&](FileMetaData* m) { c.edit(&m->row_groups[0].columns[0]); }));
    ASSERT_TRUE(f.reader);
    auto index = ChunkIndexReader(*f.reader, 0, 0, std::nullopt, nullptr).ReadPageIndex();
    ASSERT_FALSE(index.ok());
    EXPECT_EQ(index.status().code(), c.code) << index.status().ToString();
    EXPECT_NE(index.status().message().find(c.message), std::string::npos) << index.status().ToString();
  }
  // No page index at all: both parts null.
  Opened f = Open(WithFooterEdit(path, [](FileMetaData* m) {
    ColumnChunk& c = m->row_groups[0].columns[0];
    c.offset_index_offset.reset();
    c.column_index_offset.reset();
  }));
  auto none = ChunkIndexReader(*f.reader, 0, 0, std::nullopt, nullptr).ReadPageIndex();
  ASSERT_TRUE(none.ok());
  EXPECT_FALSE(none->offsets);
  EXPECT_FALSE(none->columns);
  EXPECT_EQ(none->num_pages, 0u);
}

TEST(ChunkIndexReaderTest, BloomFiltersWithAndWithoutStoredLength) {
  for (const char* name : {"data_index_bloom_encoding_with_length.parquet", "data_index_bloom_encoding_stats.parquet"}) {
    SCOPED_TRACE(name);
    Opened f = Open(ReadWhole(kData + name));
    ASSERT_TRUE(f.reader);
    const ColumnMetaData& meta = *f.reader->metadata().row_groups[0].columns[0].meta_data;
    ASSERT_TRUE(meta.bloom_filter_offset);
    int64_t bytes = 0;
    ChunkIndexReader reader(*f.reader, 0, 0, std::nullopt, &bytes);
    auto filter = reader.ReadBloomFilter(meta);
    ASSERT_TRUE(filter.ok()) << filter.status().ToString();
    ASSERT_NE(*filter, nullptr);
    EXPECT_TRUE((*filter)->Check(BloomHash(AsBytes(std::string_view("Hello")))));
    EXPECT_FALSE((*filter)->Check(BloomHash(AsBytes(std::string_view("cat")))));
    if (meta.bloom_filter_length) {
      EXPECT_EQ(bytes, *meta.bloom_filter_length);
    } else {
      // The header probe, then the bitset.
      EXPECT_EQ(bytes, 256 + (*filter)->num_bytes());
    }
    // Kept in the file's cache.
    const int64_t first = bytes;
    auto again = reader.ReadBloomFilter(meta);
    ASSERT_TRUE(again.ok());
    EXPECT_EQ(*again, *filter);
    EXPECT_EQ(bytes, first);
  }
}

TEST(ChunkIndexReaderTest, BloomFiltersNotUsed) {
  const std::string path = kData + "data_index_bloom_encoding_with_length.parquet";
  auto probe = [](const std::string& bytes) {
    Opened f = Open(bytes);
    const ColumnMetaData& meta = *f.reader->metadata().row_groups[0].columns[0].meta_data;
    return ChunkIndexReader(*f.reader, 0, 0, std::nullopt, nullptr).ReadBloomFilter(meta);
  };
  // A parquetjs file's filters are not trusted; a chunk may have none.
  for (auto edit : std::vector<std::function<void(FileMetaData*)>>{
           [](FileMetaData* m) { m->created_by = "@dsnp/parquetjs"; },
           [](FileMetaData* m) { m->row_groups[0].columns[0].meta_data->bloom_filter_offset.reset(); }}) {
    auto filter = probe(WithFooterEdit(path, edit));
    ASSERT_TRUE(filter.ok()) << filter.status().ToString();
    EXPECT_EQ(*filter, nullptr);
  }
  // A filter whose offset, length or header does not fit the file is not used either: null, not an
  // error (the filter is optional; the data does not depend on it).
  for (auto edit : std::vector<std::function<void(FileMetaData*)>>{
           [](FileMetaData* m) {
             m->row_groups[0].columns[0].meta_data->bloom_filter_offset = int64_t{1} << 40;
           },
           [](FileMetaData* m) { m->row_groups[0].columns[0].meta_data->bloom_filter_length = 0; },
           [](FileMetaData* m) {
             m->row_groups[0].columns[0].meta_data->bloom_filter_length = 1 << 28;
           },
           [](FileMetaData* m) {
             auto& meta = *m->row_groups[0].columns[0].meta_data;
             meta.bloom_filter_offset = 4;
             meta.bloom_filter_length.reset();
           }}) {
    auto filter = probe(WithFooterEdit(path, edit));
    ASSERT_TRUE(filter.ok()) << filter.status().ToString();
    EXPECT_EQ(*filter, nullptr);
  }
  // The unedited file's filter is used.
  auto good = probe(WithFooterEdit(path, [](FileMetaData*) {}));
  ASSERT_TRUE(good.ok()) << good.status().ToString();
  EXPECT_NE(*good, nullptr);
}

}  // namespace
}  // namespace pq
