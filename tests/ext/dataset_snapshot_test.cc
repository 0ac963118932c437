// Dataset snapshots (ext/dataset.h) without SQLite: row counts and first rows, and RefreshSnapshot
// keeping a snapshot whose files did not change, reading a changed file again into a new snapshot
// (the old one untouched, as a scan in progress holds it), and naming a file that no longer reads
// or no longer fits the table.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "ext/dataset.h"

namespace pq::ext {
namespace {

namespace fs = std::filesystem;

class DatasetSnapshotTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/pq-snapshot-XXXXXX";
    ASSERT_NE(::mkdtemp(tmpl), nullptr);
    dir_ = tmpl;
    for (const char* name : {"a.parquet", "b.parquet"}) {
      fs::copy_file(Data("types.parquet"), dir_ + "/" + name);
      paths_.push_back(dir_ + "/" + name);
    }
  }
  void TearDown() override { fs::remove_all(dir_); }

  static std::string Data(const std::string& name) { return std::string(PQ_TESTDATA_DIR) + "/" + name; }

  std::shared_ptr<const DatasetSnapshot> Open() {
    std::vector<std::shared_ptr<const FileReader>> readers;
    for (const std::string& path : paths_) {
      auto reader = FileReader::Open(path, options_);
      EXPECT_TRUE(reader.ok()) << reader.status().message();
      if (!reader.ok()) return nullptr;
      readers.push_back(std::move(reader).value());
    }
    auto schema = UnifyColumns(readers, values_, false);
    EXPECT_TRUE(schema.ok()) << schema.status().message();
    if (!schema.ok()) return nullptr;
    columns_ = schema->columns;
    auto made = MakeSnapshot(std::move(readers), std::move(schema->files));
    EXPECT_TRUE(made.ok()) << made.status().message();
    return made.ok() ? std::move(made).value() : nullptr;
  }

  Result<std::shared_ptr<const DatasetSnapshot>> Refresh(std::shared_ptr<const DatasetSnapshot> data) {
    return RefreshSnapshot(std::move(data), columns_, {}, options_, values_, false);
  }

  // Gives `path` another modification time, its bytes unchanged.
  static void Touch(const std::string& path) {
    struct timespec times[2] = {{0, UTIME_OMIT}, {1000000000, 0}};
    ASSERT_EQ(::utimensat(AT_FDCWD, path.c_str(), times, 0), 0);
  }

  std::string dir_;
  std::vector<std::string> paths_;
  ReaderOptions options_;
  ValueOptions values_;
  std::vector<DatasetColumn> columns_;
};

TEST_F(DatasetSnapshotTest, RowsAndFirstRows) {
  auto data = Open();
  ASSERT_NE(data, nullptr);
  ASSERT_EQ(data->files.size(), 2u);
  int64_t rows = 0;
  for (const RowGroup& rg : data->files[0].reader->metadata().row_groups) rows += rg.num_rows;
  ASSERT_GT(rows, 0);
  EXPECT_EQ(data->files[0].rows, rows);
  EXPECT_EQ(data->files[0].first_row, 0);
  EXPECT_EQ(data->files[1].first_row, rows);
  EXPECT_EQ(data->total_rows, 2 * rows);
  EXPECT_EQ(data->max_file_rows, rows);
  EXPECT_EQ(data->files[1].reader->path(), paths_[1]);
}

TEST_F(DatasetSnapshotTest, UnchangedFilesKeepTheSnapshot) {
  auto data = Open();
  ASSERT_NE(data, nullptr);
  auto fresh = Refresh(data);
  ASSERT_TRUE(fresh.ok()) << fresh.status().message();
  EXPECT_EQ(fresh->get(), data.get());
}

TEST_F(DatasetSnapshotTest, AChangedFileIsReadAgainIntoANewSnapshot) {
  auto data = Open();
  ASSERT_NE(data, nullptr);
  const FileReader* a = data->files[0].reader.get();
  const FileReader* b = data->files[1].reader.get();
  Touch(paths_[1]);
  auto fresh = Refresh(data);
  ASSERT_TRUE(fresh.ok()) << fresh.status().message();
  ASSERT_NE(fresh->get(), data.get());
  EXPECT_EQ((*fresh)->files[0].reader.get(), a);  // unchanged: shared
  EXPECT_NE((*fresh)->files[1].reader.get(), b);  // opened again
  EXPECT_EQ((*fresh)->files[1].reader->file().mtime_ns(), 1000000000LL * 1000000000LL);
  EXPECT_EQ((*fresh)->total_rows, data->total_rows);
  EXPECT_EQ((*fresh)->files[1].first_row, data->files[1].first_row);
  // The old snapshot is as it was: a scan that started with it goes on with it.
  EXPECT_EQ(data->files[1].reader.get(), b);
  // The new one is current now.
  auto again = Refresh(*fresh);
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(again->get(), fresh->get());
}

TEST_F(DatasetSnapshotTest, AFileThatNoLongerFitsIsAnError) {
  auto data = Open();
  ASSERT_NE(data, nullptr);
  fs::copy_file(Data("nested.parquet"), paths_[1], fs::copy_options::overwrite_existing);
  auto fresh = Refresh(data);
  ASSERT_FALSE(fresh.ok());
  EXPECT_EQ(fresh.status().code(), StatusCode::kInvalidArgument);
  const std::string prefix = "'" + paths_[1] + "' changed since the table was created and no longer fits it: ";
  EXPECT_EQ(fresh.status().message().substr(0, prefix.size()), prefix) << fresh.status().message();
  EXPECT_NE(fresh.status().message().find("; create the table again"), std::string::npos);
}

TEST_F(DatasetSnapshotTest, AFileThatNoLongerReadsIsAnError) {
  auto data = Open();
  ASSERT_NE(data, nullptr);
  fs::remove(paths_[0]);
  auto fresh = Refresh(data);
  ASSERT_FALSE(fresh.ok());
  EXPECT_EQ(fresh.status().code(), StatusCode::kIOError);
  const std::string prefix = "'" + paths_[0] + "' changed since the table was created and cannot be read: ";
  EXPECT_EQ(fresh.status().message().substr(0, prefix.size()), prefix) << fresh.status().message();
}

}  // namespace
}  // namespace pq::ext
