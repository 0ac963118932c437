// sort_memory (ext/parquet_vtab.cc, "Ordering"): a sorted scan is planned from the footer's
// estimate of the rows' size; rows that turn out to take more than twice sort_memory fail the query
// with an error naming the table and the option, instead of being held. A footer without size
// statistics and with truncated bounds makes the estimate far too small: a column of two distinct
// 5,000-byte strings, dictionary-encoded, looks like 10 KB and holds 10 MB.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "format/file/file_reader.h"
#include "tests/ext/footer_util.h"
#include "tests/ext/sqlite_test_util.h"

namespace pq::testing {
namespace {

namespace fs = std::filesystem;

// A new folder under /tmp for one test's files.
std::string TempFolder() {
  char tmpl[] = "/tmp/pq-sort-memory-XXXXXX";
  return ::mkdtemp(tmpl) != nullptr ? std::string(tmpl) : std::string();
}

// The table orders the rows of `select` itself: no temp B-tree in SQLite's plan.
void ExpectTableOrders(const TestDb& db, const std::string& select) {
  QueryResult r = db.Query("EXPLAIN QUERY PLAN " + select);
  ASSERT_TRUE(r.ok) << r.error;
  for (const SqlRow& row : r.rows) {
    EXPECT_EQ(row.back()->find("TEMP B-TREE"), std::string::npos) << *row.back();
  }
}

TEST(SortMemoryTest, RowsFarOverTheEstimateFailTheQueryNamingTheOption) {
  TestDb db;
  ASSERT_EQ(db.load_error(), "");
  const std::string dir = TempFolder();
  ASSERT_FALSE(dir.empty());
  const std::string written = dir + "/written.parquet";
  QueryResult r = db.Query(
      "SELECT parquet_export('" + written +
      "', 'WITH RECURSIVE k(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM k WHERE i < 2000) "
      "SELECT (i * 7919) % 2003 AS id, printf(''%05000d'', i % 2) AS v FROM k')");
  ASSERT_TRUE(r.ok) << r.error;

  // The same pages; the footer without v's size statistics and statistics.
  std::ifstream in(written, std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  auto reader = FileReader::Open(written, ReaderOptions{});
  ASSERT_TRUE(reader.ok()) << reader.status().ToString();
  FileMetaData md = (*reader)->metadata();
  const size_t body = bytes.size() - 8 - static_cast<size_t>((*reader)->footer_length());
  ASSERT_EQ(md.row_groups.size(), 1u);
  ColumnMetaData& v = *md.row_groups[0].columns[1].meta_data;
  ASSERT_LT(v.total_uncompressed_size, 100000);  // a dictionary of two values, and indices
  v.size_statistics.reset();
  v.statistics.reset();
  const std::string understated = dir + "/understated.parquet";
  std::ofstream(understated, std::ios::binary) << WithFooter(bytes.substr(0, body), md);

  // Estimated under 1 MiB: the table orders the rows itself (no temp B-tree in the plan) ...
  ASSERT_EQ(db.Exec("CREATE VIRTUAL TABLE t USING parquet('" + understated + "', sort_memory=1)"),
            "");
  ExpectTableOrders(db, "SELECT id, v FROM t ORDER BY id");
  // ... and stops at 2 MiB of the 10 MB.
  r = db.Query("SELECT id, v FROM t ORDER BY id");
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.error.find("parquet table 't': ordering its rows by 'id' (ORDER BY, GROUP BY or "
                         "DISTINCT) needs more than 2 MiB, twice the table option sort_memory (1 "
                         "MiB); create the table with a larger sort_memory, or with sort_memory=0 "
                         "to let SQLite sort"),
            std::string::npos)
      << r.error;
  // With room, the same query answers, in order.
  ASSERT_EQ(db.Exec("CREATE VIRTUAL TABLE t64 USING parquet('" + understated + "', sort_memory=64)"),
            "");
  r = db.Query("SELECT count(*), sum(length(v)), min(id), max(id) FROM (SELECT id, v FROM t64 "
               "ORDER BY id)");
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(*r.rows[0][0] + " " + *r.rows[0][1], "2000 10000000");
  fs::remove_all(dir);
}

// Number columns are kept partitioned by key while the key has at most 256 distinct values: a
// block of 256 values or more per key and column. 4,000 rows of 256 keys and four such columns hold
// about 4 MiB there (8 bytes a row out of them: 128 KB), which the estimate does not count; the
// columns leave their partitions instead of the query failing at twice sort_memory=1, or at
// max_memory=4.
TEST(SortMemoryTest, PartitionsOfFewKeysOverTheLimitAreLeftNotAFailure) {
  TestDb db;
  ASSERT_EQ(db.load_error(), "");
  const std::string dir = TempFolder();
  ASSERT_FALSE(dir.empty());
  const std::string path = dir + "/keys.parquet";
  QueryResult r = db.Query(
      "SELECT parquet_export('" + path +
      "', 'WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 4000) "
      "SELECT i % 256 AS k, i AS a, -i AS b, i * 2 AS c, i * 3 AS d FROM n')");
  ASSERT_TRUE(r.ok) << r.error;
  ASSERT_EQ(db.Exec("CREATE VIRTUAL TABLE t USING parquet('" + path + "', sort_memory=1)"), "");
  ExpectTableOrders(db, "SELECT k, a, b, c, d FROM t ORDER BY k");
  r = db.Query("SELECT k, a, b, c, d FROM t ORDER BY k");
  ASSERT_TRUE(r.ok) << r.error;
  ASSERT_EQ(r.rows.size(), 4000u);
  // Key 0 holds 256, 512, ..., 3840 (15 rows); then key 1 from 1 on.
  EXPECT_EQ(*r.rows[0][0] + " " + *r.rows[0][1] + " " + *r.rows[0][4], "0 256 768");
  EXPECT_EQ(*r.rows[14][1], "3840");
  EXPECT_EQ(*r.rows[15][0] + " " + *r.rows[15][1] + " " + *r.rows[15][2] + " " + *r.rows[15][3], "1 1 -1 2");
  EXPECT_EQ(*r.rows[3999][0] + " " + *r.rows[3999][1], "255 3839");
  ASSERT_EQ(db.Exec("CREATE VIRTUAL TABLE m USING parquet('" + path + "', max_memory=4)"), "");
  r = db.Query("SELECT count(*), sum(a), min(k), max(k) FROM (SELECT k, a, b, c, d FROM m ORDER BY k)");
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(*r.rows[0][0] + " " + *r.rows[0][1] + " " + *r.rows[0][2] + " " + *r.rows[0][3], "4000 8002000 0 255");
  fs::remove_all(dir);
}

}  // namespace
}  // namespace pq::testing
