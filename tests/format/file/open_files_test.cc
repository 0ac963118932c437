// Open files (local_file.h): the process holds at most MaxOpenFiles() descriptors for
// LocalFiles, a file whose descriptor was closed opens its path again when read, and a file
// replaced in between is an error, never bytes of another file.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>

#include "format/file/local_file.h"
#include "tests/format/reader/scan_test_util.h"

namespace pq::testing {
namespace {

// Sets the limit for one test and puts the previous one back.
class OpenFilesTest : public ::testing::Test {
 protected:
  void SetUp() override { saved_ = LocalFile::MaxOpenFiles(); }
  void TearDown() override { LocalFile::SetMaxOpenFiles(saved_); }
  size_t saved_ = 0;
};

std::string WriteBytes(const std::string& name, const std::string& bytes) {
  const std::string path = TempPath(name);
  std::ofstream(path, std::ios::binary) << bytes;
  return path;
}

TEST_F(OpenFilesTest, NoMoreThanTheLimitAreOpenAndEveryFileStillReads) {
  LocalFile::SetMaxOpenFiles(4);
  EXPECT_EQ(LocalFile::MaxOpenFiles(), 4u);
  const size_t before = LocalFile::OpenDescriptors();
  std::vector<std::unique_ptr<LocalFile>> files;
  for (int i = 0; i < 12; ++i) {
    const std::string path = WriteBytes("f" + std::to_string(i), "file number " + std::to_string(i) + " ...");
    auto f = LocalFile::Open(path);
    ASSERT_TRUE(f.ok()) << f.status().ToString();
    files.push_back(std::move(f).value());
    EXPECT_LE(LocalFile::OpenDescriptors(), std::max<size_t>(before, 4));
  }
  EXPECT_FALSE(files[0]->descriptor_open());
  EXPECT_TRUE(files[11]->descriptor_open());
  // Read them all, twice, in an order that keeps closing and opening them.
  for (int round = 0; round < 2; ++round) {
    for (int i = 0; i < 12; ++i) {
      const std::string want = "file number " + std::to_string(i);
      auto got = files[static_cast<size_t>(i)]->ReadAt(0, static_cast<int64_t>(want.size()));
      ASSERT_TRUE(got.ok()) << got.status().ToString();
      EXPECT_EQ(std::string(reinterpret_cast<const char*>((*got)->data()), (*got)->size()), want);
      EXPECT_TRUE(files[static_cast<size_t>(i)]->descriptor_open());
      EXPECT_LE(LocalFile::OpenDescriptors(), std::max<size_t>(before, 4));
    }
  }
  files.clear();
  EXPECT_EQ(LocalFile::OpenDescriptors(), before);
}

TEST_F(OpenFilesTest, AFileReplacedWhileClosedIsAnErrorNamingIt) {
  LocalFile::SetMaxOpenFiles(1);
  const std::string path = WriteBytes("replaced", "the first contents");
  auto f = LocalFile::Open(path);
  ASSERT_TRUE(f.ok());
  // Opening another file closes the first one's descriptor.
  auto other = LocalFile::Open(WriteBytes("other", "x"));
  ASSERT_TRUE(other.ok());
  ASSERT_FALSE((*f)->descriptor_open());
  // A new file (new inode) under the same name, with the same size.
  const std::string tmp = WriteBytes("replacement", "other contents....");
  ASSERT_EQ(std::rename(tmp.c_str(), path.c_str()), 0);
  auto got = (*f)->ReadAt(0, 4);
  ASSERT_FALSE(got.ok());
  EXPECT_EQ(got.status().code(), StatusCode::kIOError);
  EXPECT_NE(got.status().message().find("changed while it was being read"), std::string::npos)
      << got.status().ToString();
  EXPECT_NE(got.status().message().find(path), std::string::npos);
  // A file removed while closed.
  auto gone = LocalFile::Open(WriteBytes("gone", "abc"));
  ASSERT_TRUE(gone.ok());
  ASSERT_TRUE((*other)->ReadAt(0, 1).ok());  // closes `gone`
  ASSERT_FALSE((*gone)->descriptor_open());
  ASSERT_EQ(std::remove((*gone)->path().c_str()), 0);
  auto missing = (*gone)->ReadAt(0, 1);
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.status().message().find("cannot open"), std::string::npos) << missing.status().ToString();
}

TEST_F(OpenFilesTest, ScansOfMoreFilesThanTheLimitReturnEveryRow) {
  TestFileOptions o;
  o.rows = 3'000;
  o.row_group_rows = 1'000;
  std::vector<std::shared_ptr<const FileReader>> files;
  for (int i = 0; i < 8; ++i) files.push_back(WriteTestFile(o, "scan" + std::to_string(i) + ".parquet"));
  const std::vector<ScannedRow> want = FullScan(files[0], AllFields(*files[0]));
  ASSERT_EQ(want.size(), 3'000u);
  LocalFile::SetMaxOpenFiles(2);
  std::vector<std::shared_ptr<const FileReader>> reopened;
  for (const auto& f : files) reopened.push_back(OpenForTest(f->path()));
  files.clear();
  // Scans interleaved across the files: every batch may need a descriptor closed meanwhile.
  std::vector<std::unique_ptr<TableScanner>> scanners;
  for (const auto& f : reopened) {
    auto s = TableScanner::Make(f, AllFields(*f), AllRowGroups(*f), ValueOptions{});
    ASSERT_TRUE(s.ok());
    scanners.push_back(std::move(s).value());
  }
  std::vector<std::vector<ScannedRow>> got(scanners.size());
  std::string scratch;
  for (bool more = true; more;) {
    more = false;
    for (size_t k = 0; k < scanners.size(); ++k) {
      auto n = scanners[k]->NextBatch();
      ASSERT_TRUE(n.ok()) << n.status().ToString();
      if (*n == 0) continue;
      more = true;
      for (int64_t r = 0; r < *n; ++r) {
        ScannedRow row;
        row.row = scanners[k]->RowNumber(r);
        for (size_t f = 0; f < want[0].values.size(); ++f) {
          row.values.push_back(SqlValue::FromCell(scanners[k]->GetCell(static_cast<int>(f), r, &scratch)));
        }
        got[k].push_back(std::move(row));
      }
      EXPECT_LE(LocalFile::OpenDescriptors(), 2u);
    }
  }
  for (size_t k = 0; k < got.size(); ++k) ExpectSameRows(want, got[k], "file " + std::to_string(k));
}

}  // namespace
}  // namespace pq::testing
