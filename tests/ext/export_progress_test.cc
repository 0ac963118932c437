// ExportProgress (ext/export_progress.h) on a clock the test moves, and progress=1 through the
// extension: the lines it writes to stderr.
#include "ext/export_progress.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>

#include "tests/ext/sqlite_test_util.h"

namespace pq::ext {
namespace {

std::string Contents(std::FILE* f) {
  std::fflush(f);
  std::rewind(f);
  std::string out;
  char buf[4096];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) out.append(buf, n);
  return out;
}

TEST(ExportProgressTest, AtMostOnceASecondThenDone) {
  std::FILE* out = std::tmpfile();
  ASSERT_NE(out, nullptr);
  int64_t now = 5'000'000'000;
  ExportProgress p("parquet_export 'x.parquet'", [&now]() { return now; }, out);
  for (int i = 0; i < 5000; ++i) p.Row();  // no time passed: nothing
  EXPECT_EQ(Contents(out), "");
  now += 900'000'000;
  for (int i = 0; i < 5000; ++i) p.Row();  // 0.9 s: still nothing
  EXPECT_EQ(Contents(out), "");
  now += 200'000'000;  // 1.1 s
  for (int i = 0; i < 2240; ++i) p.Row();  // reported at the next 1024th row: 10240
  for (int i = 0; i < 3000; ++i) p.Row();  // the same second: nothing more
  now += 2'000'000'000;  // 3.1 s
  for (int i = 0; i < 1000; ++i) p.Row();
  now += 100'000'000;  // 3.2 s
  p.Done();
  p.Done();  // once
  EXPECT_EQ(Contents(out),
            "parquet_export 'x.parquet': 10,240 rows, 1.1 s, 9,309 rows/s\n"
            "parquet_export 'x.parquet': 15,360 rows, 3.1 s, 4,954 rows/s\n"
            "parquet_export 'x.parquet': done, 16,240 rows in 3.2 s (5,075 rows/s)\n");
  std::fclose(out);
}

TEST(ExportProgressTest, Grouped) {
  EXPECT_EQ(ExportProgress::Grouped(0), "0");
  EXPECT_EQ(ExportProgress::Grouped(999), "999");
  EXPECT_EQ(ExportProgress::Grouped(1000), "1,000");
  EXPECT_EQ(ExportProgress::Grouped(1234567), "1,234,567");
  EXPECT_EQ(ExportProgress::Grouped(-1234), "-1,234");
}

// progress=1 through SQL: stderr (redirected to a file here) gets the last line with the row count.
TEST(ExportProgressTest, OptionWritesToStderr) {
  testing::TestDb db;
  ASSERT_EQ(db.load_error(), "");
  char tmpl[] = "/tmp/pq-progress-XXXXXX";
  ASSERT_NE(::mkdtemp(tmpl), nullptr);
  const std::string dir = tmpl;
  const std::string log = dir + "/stderr.txt";
  std::fflush(stderr);
  const int saved = ::dup(2);
  std::FILE* f = std::fopen(log.c_str(), "w");
  ASSERT_NE(f, nullptr);
  ::dup2(::fileno(f), 2);
  testing::QueryResult r = db.Query(
      "SELECT parquet_export('" + dir + "/a.parquet', 'WITH RECURSIVE n(v) AS (SELECT 1 UNION ALL "
      "SELECT v + 1 FROM n WHERE v < 5000) SELECT v FROM n', 'progress=1')");
  std::string err = db.Exec("CREATE VIRTUAL TABLE temp.w USING parquet('" + dir +
                            "/b.parquet', schema='v INTEGER', progress=1); INSERT INTO w VALUES (1), (2);");
  std::fflush(stderr);
  ::dup2(saved, 2);
  ::close(saved);
  std::fclose(f);
  ASSERT_TRUE(r.ok) << r.error;
  ASSERT_EQ(err, "");
  std::ifstream in(log);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_NE(text.find("parquet_export '" + dir + "/a.parquet': done, 5,000 rows in "), std::string::npos)
      << text;
  EXPECT_NE(text.find("parquet table '" + dir + "/b.parquet': done, 2 rows in "), std::string::npos)
      << text;
  ::unlink(log.c_str());
  ::unlink((dir + "/a.parquet").c_str());
  ::unlink((dir + "/b.parquet").c_str());
  ::rmdir(dir.c_str());
}

}  // namespace
}  // namespace pq::ext
