// RandomAccessFile (random_access_file.h) and its two implementations: exact reads, ranges outside
// the file refused before anything is read, ReadRanges returning each range's bytes, ids unique,
// and change detection (LocalFile::Unchanged) noticing a rewritten, replaced or removed file.
#include "format/file/random_access_file.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "format/file/local_file.h"
#include "format/file/memory_file.h"

namespace pq {
namespace {

std::string Text(const BufferPtr& b) { return std::string(reinterpret_cast<const char*>(b->data()), b->size()); }

std::string TempFile(const std::string& name, const std::string& bytes) {
  const std::string path = ::testing::TempDir() + "pq-raf-" + name;
  std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
  return path;
}

// Every read of `f` is on a file holding "0123456789".
void ExpectReads(const RandomAccessFile& f) {
  EXPECT_EQ(f.size(), 10);
  auto a = f.ReadAt(2, 3);
  ASSERT_TRUE(a.ok()) << a.status().ToString();
  EXPECT_EQ(Text(*a), "234");
  auto empty = f.ReadAt(10, 0);
  ASSERT_TRUE(empty.ok());
  EXPECT_EQ((*empty)->size(), 0u);
  uint8_t out[4];
  ASSERT_TRUE(f.ReadInto(6, 4, out).ok());
  EXPECT_EQ(std::string(reinterpret_cast<char*>(out), 4), "6789");
  for (auto [offset, length] : std::vector<std::pair<int64_t, int64_t>>{{8, 3}, {-1, 2}, {11, 0}, {0, -1}}) {
    auto bad = f.ReadAt(offset, length);
    ASSERT_FALSE(bad.ok());
    EXPECT_EQ(bad.status().code(), StatusCode::kCorruption);
    EXPECT_EQ(bad.status().message(), "byte range [" + std::to_string(offset) + ", +" + std::to_string(length) +
                                          ") is outside the file (size 10)");
  }
  std::vector<BufferPtr> got;
  const ByteRange ranges[] = {{7, 3}, {0, 2}, {1, 4}};
  ASSERT_TRUE(f.ReadRanges(ranges, &got).ok());
  ASSERT_EQ(got.size(), 3u);
  EXPECT_EQ(Text(got[0]), "789");
  EXPECT_EQ(Text(got[1]), "01");
  EXPECT_EQ(Text(got[2]), "1234");
  // One range outside the file: nothing is returned.
  const ByteRange bad_ranges[] = {{0, 2}, {9, 2}};
  got.clear();
  Status s = f.ReadRanges(bad_ranges, &got);
  EXPECT_EQ(s.code(), StatusCode::kCorruption);
  EXPECT_TRUE(got.empty());
}

TEST(RandomAccessFileTest, MemoryFileReads) {
  auto f = RandomAccessFile::FromBytes("in memory", "0123456789");
  EXPECT_EQ(f->path(), "in memory");
  EXPECT_TRUE(f->Unchanged());
  EXPECT_EQ(f->mtime_ns(), 0);
  ExpectReads(*f);
}

TEST(RandomAccessFileTest, LocalFileReads) {
  const std::string path = TempFile("local", "0123456789");
  auto f = RandomAccessFile::Open(path);
  ASSERT_TRUE(f.ok()) << f.status().ToString();
  EXPECT_EQ((*f)->path(), path);
  EXPECT_GT((*f)->mtime_ns(), 0);
  ExpectReads(**f);
  std::remove(path.c_str());
}

TEST(RandomAccessFileTest, OpenErrorsNameThePath) {
  auto missing = RandomAccessFile::Open("/nonexistent/pq-raf-missing");
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.status().code(), StatusCode::kIOError);
  EXPECT_NE(missing.status().message().find("cannot open '/nonexistent/pq-raf-missing'"), std::string::npos);
  auto folder = RandomAccessFile::Open(::testing::TempDir());
  ASSERT_FALSE(folder.ok());
  EXPECT_NE(folder.status().message().find("is a directory"), std::string::npos);
}

TEST(RandomAccessFileTest, IdsAreUnique) {
  auto a = RandomAccessFile::FromBytes("a", "x");
  auto b = RandomAccessFile::FromBytes("a", "x");
  EXPECT_NE(a->id(), b->id());
}

TEST(RandomAccessFileTest, LocalFileNoticesChanges) {
  // Rewritten with another size.
  const std::string path = TempFile("changes", "0123456789");
  auto f = LocalFile::Open(path);
  ASSERT_TRUE(f.ok());
  EXPECT_TRUE((*f)->Unchanged());
  TempFile("changes", "01234567890");
  EXPECT_FALSE((*f)->Unchanged());
  // Same bytes, another modification time.
  auto g = LocalFile::Open(path);
  ASSERT_TRUE(g.ok());
  EXPECT_TRUE((*g)->Unchanged());
  struct timespec times[2] = {{0, UTIME_OMIT}, {12345, 0}};
  ASSERT_EQ(::utimensat(AT_FDCWD, path.c_str(), times, 0), 0);
  EXPECT_FALSE((*g)->Unchanged());
  // Replaced by another file (another inode) with the same size and time.
  auto h = LocalFile::Open(path);
  ASSERT_TRUE(h.ok());
  const std::string other = TempFile("changes-other", "01234567890");
  ASSERT_EQ(::utimensat(AT_FDCWD, other.c_str(), times, 0), 0);
  ASSERT_EQ(std::rename(other.c_str(), path.c_str()), 0);
  EXPECT_FALSE((*h)->Unchanged());
  // Removed.
  auto k = LocalFile::Open(path);
  ASSERT_TRUE(k.ok());
  EXPECT_TRUE((*k)->Unchanged());
  std::remove(path.c_str());
  EXPECT_FALSE((*k)->Unchanged());
}

}  // namespace
}  // namespace pq
