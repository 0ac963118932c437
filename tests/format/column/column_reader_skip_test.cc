// ColumnChunkReader skipping: any sequence of SkipRecords / ReadRecords gives exactly the levels and
// values of the records it reads; whole pages are passed without being read (by OffsetIndex, or by
// header counts for flat columns); PlanReads makes a reader read only the pages it needs; an
// OffsetIndex that contradicts the chunk is either ignored (misplaced pages) or reported (row counts
// that do not match the pages).
#include <gtest/gtest.h>

#include <random>

#include "format/column/column_reader.h"
#include "format/metadata/metadata_io.h"
#include "tests/format/reader/scan_test_util.h"

namespace pq::testing {
namespace {

constexpr int64_t kRows = 25'000;
constexpr int64_t kGroupRows = 10'000;

// Records [r0, r1) of `d` (a leaf with these max levels), as ReadRecords would return them.
LeafData Slice(const LeafData& d, const SchemaNode& node, int64_t r0, int64_t r1) {
  const int16_t max_def = node.max_definition_level, max_rep = node.max_repetition_level;
  auto level_of_record = [&](int64_t r) -> size_t {
    if (max_rep == 0) return static_cast<size_t>(r);
    int64_t seen = -1;
    for (size_t i = 0; i < d.rep.size(); ++i) {
      if (d.rep[i] == 0 && ++seen == r) return i;
    }
    return d.rep.size();
  };
  const size_t l0 = level_of_record(r0), l1 = level_of_record(r1);
  auto values_before = [&](size_t l) -> size_t {
    if (max_def == 0) return l;
    size_t n = 0;
    for (size_t i = 0; i < l; ++i) n += d.def[i] == max_def;
    return n;
  };
  const size_t v0 = values_before(l0), v1 = values_before(l1);
  LeafData out;
  if (max_def > 0) out.def.assign(d.def.begin() + l0, d.def.begin() + l1);
  if (max_rep > 0) out.rep.assign(d.rep.begin() + l0, d.rep.begin() + l1);
  out.i32.assign(d.i32.begin() + std::min(v0, d.i32.size()), d.i32.begin() + std::min(v1, d.i32.size()));
  out.i64.assign(d.i64.begin() + std::min(v0, d.i64.size()), d.i64.begin() + std::min(v1, d.i64.size()));
  out.f64.assign(d.f64.begin() + std::min(v0, d.f64.size()), d.f64.begin() + std::min(v1, d.f64.size()));
  out.bytes.assign(d.bytes.begin() + std::min(v0, d.bytes.size()), d.bytes.begin() + std::min(v1, d.bytes.size()));
  return out;
}

LeafData FromBatch(const ColumnBatch& b, const SchemaNode& node) {
  LeafData out;
  if (node.max_definition_level > 0) out.def.assign(b.def_levels.begin(), b.def_levels.end());
  if (node.max_repetition_level > 0) out.rep.assign(b.rep_levels.begin(), b.rep_levels.end());
  out.i32.assign(b.i32.begin(), b.i32.end());
  out.i64.assign(b.i64.begin(), b.i64.end());
  out.f64.assign(b.f64.begin(), b.f64.end());
  for (const ByteArray& v : b.bytes) out.bytes.emplace_back(v.view());
  return out;
}

std::unique_ptr<ColumnChunkReader> Reader(const std::shared_ptr<const FileReader>& file, int group, int leaf) {
  auto r = ColumnChunkReader::Make(file, group, leaf);
  EXPECT_TRUE(r.ok()) << r.status().ToString();
  return r.ok() ? std::move(r).value() : nullptr;
}

class ColumnSkipTest : public ::testing::TestWithParam<TestFileOptions> {
 protected:
  void SetUp() override {
    file_ = WriteTestFile(GetParam(), "column.parquet");
    ASSERT_NE(file_, nullptr);
    table_ = TestTable(kRows);
  }
  // The records of leaf `leaf` in row group `group`, [r0, r1) within the group.
  LeafData Want(int group, int leaf, int64_t r0, int64_t r1) const {
    const int64_t base = group * kGroupRows;
    return Slice(table_[static_cast<size_t>(leaf)], file_->schema().leaf(leaf), base + r0, base + r1);
  }
  std::shared_ptr<const FileReader> file_;
  std::vector<LeafData> table_;
};

TEST_P(ColumnSkipTest, RandomSkipsAndReads) {
  std::mt19937_64 rng(1234);
  for (int leaf = 0; leaf < 5; ++leaf) {
    for (int trial = 0; trial < 6; ++trial) {
      const int group = static_cast<int>(rng() % 3);
      const int64_t rows = std::min(kGroupRows, kRows - group * kGroupRows);
      auto reader = Reader(file_, group, leaf);
      ASSERT_NE(reader, nullptr);
      int64_t pos = 0;
      while (pos < rows) {
        const int64_t skip = static_cast<int64_t>(rng() % (rng() % 2 ? 30 : 1500));
        auto skipped = reader->SkipRecords(skip);
        ASSERT_TRUE(skipped.ok()) << skipped.status().ToString();
        ASSERT_EQ(*skipped, std::min(skip, rows - pos));
        pos += *skipped;
        ASSERT_EQ(reader->position(), pos);
        const int64_t take = 1 + static_cast<int64_t>(rng() % 250);
        ColumnBatch batch;
        auto got = reader->ReadRecords(take, &batch);
        ASSERT_TRUE(got.ok()) << got.status().ToString();
        ASSERT_EQ(*got, std::min(take, rows - pos));
        ExpectSameLeaf(Want(group, leaf, pos, pos + *got), FromBatch(batch, reader->leaf()),
                       "leaf " + std::to_string(leaf) + " records " + std::to_string(pos));
        pos += *got;
      }
      EXPECT_EQ(*reader->SkipRecords(5), 0);
    }
  }
}

TEST_P(ColumnSkipTest, PagesPassedWithoutReading) {
  const bool indexed = GetParam().page_index;
  for (int leaf = 0; leaf < 5; ++leaf) {
    const bool flat = file_->schema().leaf(leaf).max_repetition_level == 0;
    auto reader = Reader(file_, 0, leaf);
    ASSERT_NE(reader, nullptr);
    ASSERT_EQ(*reader->SkipRecords(7000), 7000);
    ColumnBatch batch;
    ASSERT_EQ(*reader->ReadRecords(100, &batch), 100);
    ExpectSameLeaf(Want(0, leaf, 7000, 7100), FromBatch(batch, reader->leaf()), "leaf " + std::to_string(leaf));
    if (indexed || flat) {
      EXPECT_EQ(reader->pages_read(), 1) << "leaf " << leaf;
      EXPECT_EQ(reader->pages_skipped(), indexed ? 99 : 70) << "leaf " << leaf;
    } else {
      EXPECT_EQ(reader->pages_read(), 72) << "leaf " << leaf;  // levels walked, and page 71 started
      EXPECT_EQ(reader->pages_skipped(), 0);
    }
    EXPECT_LE(reader->values_decoded(), 400);
    const int64_t chunk = file_->metadata().row_groups[0].columns[static_cast<size_t>(leaf)].meta_data->total_compressed_size;
    if (indexed) {
      // From page 70 to the end (the skip came first, with no plan): 30 of 100 pages, and the
      // dictionary when there is one.
      EXPECT_LT(reader->bytes_read(), chunk) << "leaf " << leaf;
    } else {
      EXPECT_EQ(reader->bytes_read(), chunk) << "leaf " << leaf;
    }
  }
}

TEST_P(ColumnSkipTest, PlanReadsReadsOnlyThePlannedPages) {
  if (!GetParam().page_index) GTEST_SKIP() << "needs the OffsetIndex";
  for (int leaf = 0; leaf < 5; ++leaf) {
    const ColumnChunk& cc = file_->metadata().row_groups[0].columns[static_cast<size_t>(leaf)];
    const std::string bytes = ReadWholeFile(file_->path());
    const OffsetIndex index = ReadOffsetIndexOf(bytes, cc);
    ASSERT_EQ(index.page_locations.size(), 100u);
    auto reader = Reader(file_, 0, leaf);
    ASSERT_NE(reader, nullptr);
    const std::vector<RowRange> spans = {{250, 260}, {4000, 4150}};
    ASSERT_TRUE(reader->PlanReads(spans).ok());
    int64_t pos = 0;
    for (const RowRange& s : spans) {
      ASSERT_EQ(*reader->SkipRecords(s.begin - pos), s.begin - pos);
      ColumnBatch batch;
      ASSERT_EQ(*reader->ReadRecords(s.end - s.begin, &batch), s.end - s.begin);
      ExpectSameLeaf(Want(0, leaf, s.begin, s.end), FromBatch(batch, reader->leaf()), "leaf " + std::to_string(leaf));
      pos = s.end;
    }
    EXPECT_EQ(reader->pages_read(), 3);  // pages 2, 40, 41
    EXPECT_EQ(reader->pages_skipped(), 97);
    // Exactly those pages (40 and 41 in one read), the index and the dictionary (if any).
    auto page_bytes = [&](size_t i) { return int64_t{index.page_locations[i].compressed_page_size}; };
    int64_t dict = 0;
    const ColumnMetaData& m = *cc.meta_data;
    if (m.dictionary_page_offset && *m.dictionary_page_offset < index.page_locations[0].offset) {
      dict = index.page_locations[0].offset - *m.dictionary_page_offset;
    }
    EXPECT_EQ(reader->bytes_read(), page_bytes(2) + page_bytes(40) + page_bytes(41) +
                                        *cc.offset_index_length + dict)
        << "leaf " << leaf;
  }
}

// Rewrites the OffsetIndex of (row group 0, leaf) in the file's bytes with `edit` applied; the
// encoded index must keep its size.
std::shared_ptr<const FileReader> WithEditedIndex(const std::shared_ptr<const FileReader>& file, int leaf,
                                                  const std::function<void(OffsetIndex*)>& edit) {
  std::string bytes = ReadWholeFile(file->path());
  const ColumnChunk& cc = file->metadata().row_groups[0].columns[static_cast<size_t>(leaf)];
  OffsetIndex index = ReadOffsetIndexOf(bytes, cc);
  edit(&index);
  std::string encoded;
  WriteOffsetIndex(index, &encoded);
  EXPECT_EQ(encoded.size(), static_cast<size_t>(*cc.offset_index_length));
  if (encoded.size() != static_cast<size_t>(*cc.offset_index_length)) return nullptr;
  bytes.replace(static_cast<size_t>(*cc.offset_index_offset), encoded.size(), encoded);
  auto opened = FileReader::Open(RandomAccessFile::FromBytes(file->path(), std::move(bytes)), ReaderOptions{});
  EXPECT_TRUE(opened.ok());
  return opened.ok() ? std::shared_ptr<const FileReader>(*opened) : nullptr;
}

TEST_P(ColumnSkipTest, OffsetIndexWithWrongRowCountsIsAnError) {
  if (!GetParam().page_index) GTEST_SKIP() << "needs the OffsetIndex";
  for (int leaf : {0, 4}) {
    // Page 30 said to start at row 3001 instead of 3000 (same encoded size).
    auto file = WithEditedIndex(file_, leaf, [](OffsetIndex* i) { i->page_locations[30].first_row_index = 3001; });
    ASSERT_NE(file, nullptr);
    auto reader = Reader(file, 0, leaf);
    ASSERT_NE(reader, nullptr);
    ASSERT_TRUE(reader->PlanReads(std::vector<RowRange>{{3050, 3060}}).ok());
    auto skipped = reader->SkipRecords(3050);
    Status s = skipped.ok() ? Status::OK() : skipped.status();
    if (s.ok()) {
      ColumnBatch batch;
      auto got = reader->ReadRecords(10, &batch);
      s = got.ok() ? Status::OK() : got.status();
    }
    ASSERT_FALSE(s.ok()) << "leaf " << leaf;
    EXPECT_NE(s.ToString().find("OffsetIndex"), std::string::npos) << s.ToString();
    EXPECT_NE(s.ToString().find("row group 0"), std::string::npos) << s.ToString();
  }
}

TEST_P(ColumnSkipTest, MisplacedOffsetIndexIsIgnored) {
  if (!GetParam().page_index) GTEST_SKIP() << "needs the OffsetIndex";
  // Pages 10 and 11 swapped: offsets out of order. The reader finds pages by their headers.
  auto file = WithEditedIndex(file_, 2, [](OffsetIndex* i) {
    std::swap(i->page_locations[10].offset, i->page_locations[11].offset);
  });
  ASSERT_NE(file, nullptr);
  auto reader = Reader(file, 0, 2);
  ASSERT_TRUE(reader->PlanReads(std::vector<RowRange>{{1050, 1150}}).ok());
  ASSERT_EQ(*reader->SkipRecords(1050), 1050);
  ColumnBatch batch;
  ASSERT_EQ(*reader->ReadRecords(100, &batch), 100);
  ExpectSameLeaf(Want(0, 2, 1050, 1150), FromBatch(batch, reader->leaf()), "misplaced");
  EXPECT_EQ(reader->pages_skipped(), 10);  // by header
}

TEST_P(ColumnSkipTest, DamagedSkippedPagesAreNotRead) {
  if (!GetParam().page_index) GTEST_SKIP() << "needs the OffsetIndex";
  // Garbage over page 5 of id: a scan that skips it by the index never sees it.
  std::string bytes = ReadWholeFile(file_->path());
  const ColumnChunk& cc = file_->metadata().row_groups[0].columns[0];
  const OffsetIndex index = ReadOffsetIndexOf(bytes, cc);
  const PageLocation& p = index.page_locations[5];
  for (int32_t i = 0; i < p.compressed_page_size; ++i) bytes[static_cast<size_t>(p.offset + i)] = '\x7f';
  auto opened = FileReader::Open(RandomAccessFile::FromBytes("damaged", std::move(bytes)), ReaderOptions{});
  ASSERT_TRUE(opened.ok());
  std::shared_ptr<const FileReader> file = *opened;
  auto reader = Reader(file, 0, 0);
  ASSERT_EQ(*reader->SkipRecords(600), 600);
  ColumnBatch batch;
  ASSERT_EQ(*reader->ReadRecords(10, &batch), 10);
  ExpectSameLeaf(Want(0, 0, 600, 610), FromBatch(batch, reader->leaf()), "after the damage");
  // Reading through it fails.
  auto again = Reader(file, 0, 0);
  ColumnBatch all;
  EXPECT_FALSE(again->ReadRecords(1000, &all).ok());
}

std::vector<TestFileOptions> Layouts() {
  std::vector<TestFileOptions> v;
  for (int version : {1, 2}) {
    for (bool dictionary : {true, false}) {
      for (bool index : {true, false}) {
        TestFileOptions o;
        o.page_version = version;
        o.dictionary = dictionary;
        o.page_index = index;
        o.codec = dictionary ? CompressionCodec::kSnappy : CompressionCodec::kUncompressed;
        v.push_back(o);
      }
    }
  }
  return v;
}

INSTANTIATE_TEST_SUITE_P(Layouts, ColumnSkipTest, ::testing::ValuesIn(Layouts()),
                         [](const ::testing::TestParamInfo<TestFileOptions>& param) {
                           std::string name = Describe(param.param);
                           for (char& c : name) {
                             if (c == ' ' || c == '-') c = '_';
                           }
                           return name;
                         });

}  // namespace
}  // namespace pq::testing
