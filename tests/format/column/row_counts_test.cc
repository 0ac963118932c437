// CheckRowCounts (row_counts.h): every conformance file's row counts fit its chunks; a row group that
// claims more rows than its chunks hold, by their metadata or by their page headers, is an error
// naming file, row group and column, found in time that does not grow with the claim; a claim that
// one chunk has the bytes for is taken without reading anything.
#include "format/column/row_counts.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "tests/hostile/hostile_files.h"

namespace pq {
namespace {

namespace fs = std::filesystem;

Result<std::shared_ptr<FileReader>> OpenBytes(std::string bytes) {
  return FileReader::Open(RandomAccessFile::FromBytes("claims.parquet", std::move(bytes)), ReaderOptions{});
}

TEST(RowCountsTest, ConformanceFilesFitTheirChunks) {
  int checked = 0;
  for (const auto& e : fs::recursive_directory_iterator(std::string(PQ_TESTDATA_DIR) + "/parquet-testing")) {
    const std::string p = e.path().string();
    if (!e.is_regular_file() || !p.ends_with(".parquet")) continue;
    auto file = FileReader::Open(p, ReaderOptions{});
    if (!file.ok()) continue;  // encrypted without keys, or deliberately broken
    Status s = CheckRowCounts(**file);
    EXPECT_TRUE(s.ok()) << s.ToString();
    ++checked;
  }
  EXPECT_GT(checked, 100);
}

// A file's bytes in memory, each read counted (a remote file's reads are round trips).
class CountingFile final : public RandomAccessFile {
 public:
  CountingFile(std::string bytes, std::atomic<int>* reads)
      : RandomAccessFile("counted.parquet", static_cast<int64_t>(bytes.size())),
        bytes_(std::move(bytes)),
        reads_(reads) {}
  bool Unchanged() const override { return true; }

 protected:
  Status ReadBytes(int64_t offset, int64_t length, uint8_t* out) const override {
    ++*reads_;
    std::memcpy(out, bytes_.data() + offset, static_cast<size_t>(length));
    return Status::OK();
  }

 private:
  std::string bytes_;
  std::atomic<int>* reads_;
};

hostile::FileSpec ThreeValues(int64_t rows, int64_t num_values) {
  hostile::FileSpec f;
  f.schema = {hostile::Root(1), hostile::Leaf("x", PhysicalType::kInt64, Repetition::kRequired)};
  hostile::GroupSpec g;
  g.num_rows = rows;
  hostile::ChunkSpec c;
  c.path = {"x"};
  c.pages.push_back(hostile::DataPage(3, Encoding::kPlain, hostile::PlainInt64({1, 2, 3})));
  c.edit_meta = [num_values](ColumnMetaData* m) { m->num_values = num_values; };
  g.chunks.push_back(c);
  f.groups.push_back(g);
  return f;
}

TEST(RowCountsTest, ClaimsTheChunksCannotHoldAreErrors) {
  {
    auto file = OpenBytes(hostile::BuildFile(ThreeValues(3, 3)));
    ASSERT_TRUE(file.ok());
    EXPECT_TRUE(CheckRowCounts(**file).ok());
  }
  for (int64_t rows : {int64_t{4}, int64_t{1} << 40, int64_t{1} << 62}) {
    auto file = OpenBytes(hostile::BuildFile(ThreeValues(rows, 3)));
    ASSERT_TRUE(file.ok());
    Status s = CheckRowCounts(**file);
    EXPECT_EQ(s.code(), StatusCode::kCorruption);
    EXPECT_EQ(s.message(), "claims.parquet, row group 0, column 'x': the row group claims " +
                               std::to_string(rows) + " rows, the column chunk holds 3 values");
  }
  // The chunk's metadata lies too: its page headers tell.
  const auto t0 = std::chrono::steady_clock::now();
  auto file = OpenBytes(hostile::BuildFile(ThreeValues(int64_t{1} << 62, int64_t{1} << 62)));
  ASSERT_TRUE(file.ok());
  Status s = CheckRowCounts(**file);
  EXPECT_EQ(s.message(), "claims.parquet, row group 0, column 'x': the row group claims " +
                             std::to_string(int64_t{1} << 62) + " rows, the pages of the column chunk hold 3 values");
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), 1.0);
  // A claim a small chunk can make true, a page of 2^30 NULLs in one run, is read and accepted.
  hostile::FileSpec nulls;
  nulls.schema = {hostile::Root(1), hostile::Leaf("x", PhysicalType::kInt64, Repetition::kOptional)};
  hostile::GroupSpec g;
  g.num_rows = int64_t{1} << 30;
  hostile::ChunkSpec c;
  c.path = {"x"};
  c.pages.push_back(hostile::DataPage(int32_t{1} << 30, Encoding::kPlain,
                                      hostile::V1Levels(hostile::RleRun(uint64_t{1} << 30, 0, 1))));
  g.chunks.push_back(c);
  nulls.groups.push_back(g);
  auto honest = OpenBytes(hostile::BuildFile(nulls));
  ASSERT_TRUE(honest.ok());
  EXPECT_TRUE(CheckRowCounts(**honest).ok());
}

// A row group of 2^20 rows: a column of distinct values (8 MiB, plenty of bytes for the claim) beside
// one of NULLs only (a run of 2^20 zero levels in a few bytes), as a boolean or near-constant column
// sits beside real values in most files. The claim is plausible by the first chunk's bytes: nothing
// is read to check it (each read of a remote file is a round trip at every open). With NULLs only,
// the few bytes are all there is, and the chunk's headers are read as before.
TEST(RowCountsTest, AClaimOneChunkHasTheBytesForIsTakenUnread) {
  const int64_t rows = int64_t{1} << 20;
  std::vector<int64_t> values(static_cast<size_t>(rows));
  for (int64_t i = 0; i < rows; ++i) values[static_cast<size_t>(i)] = i * 7919;
  const auto nulls_chunk = [&] {
    hostile::ChunkSpec c;
    c.path = {"n"};
    c.pages.push_back(hostile::DataPage(static_cast<int32_t>(rows), Encoding::kPlain,
                                        hostile::V1Levels(hostile::RleRun(static_cast<uint64_t>(rows), 0, 1))));
    return c;
  };
  for (const bool with_values : {true, false}) {
    hostile::FileSpec f;
    hostile::GroupSpec g;
    g.num_rows = rows;
    if (with_values) {
      f.schema = {hostile::Root(2), hostile::Leaf("v", PhysicalType::kInt64, Repetition::kRequired),
                  hostile::Leaf("n", PhysicalType::kInt64, Repetition::kOptional)};
      hostile::ChunkSpec v;
      v.path = {"v"};
      v.pages.push_back(hostile::DataPage(static_cast<int32_t>(rows), Encoding::kPlain, hostile::PlainInt64(values)));
      g.chunks.push_back(v);
    } else {
      f.schema = {hostile::Root(1), hostile::Leaf("n", PhysicalType::kInt64, Repetition::kOptional)};
    }
    g.chunks.push_back(nulls_chunk());
    f.groups.push_back(g);
    std::atomic<int> reads{0};
    auto file = FileReader::Open(std::make_unique<CountingFile>(hostile::BuildFile(f), &reads), ReaderOptions{});
    ASSERT_TRUE(file.ok()) << file.status().ToString();
    const int after_open = reads.load();
    EXPECT_TRUE(CheckRowCounts(**file).ok());
    if (with_values) {
      EXPECT_EQ(reads.load(), after_open) << "the claim was checked by reading pages";
    } else {
      EXPECT_GT(reads.load(), after_open) << "the NULLs' page headers were not read";
    }
  }
}

}  // namespace
}  // namespace pq
