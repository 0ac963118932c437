// sqlite3_interrupt (Ctrl-C in the shell) stops a scan that reads on without returning to SQLite,
// which would otherwise see the interrupt only once that reading is done: a sorted scan (ORDER BY,
// GROUP BY) reads every row in xFilter, and a filter that no row passes takes the scan through
// batch after batch, file after file, in one call. The interrupt comes from a function SQLite
// calls for the constraint's value just before xFilter, so it is set when the scan starts; the
// scan's counters then show how far it read. (The checks between batches, when the interrupt
// comes later, are TableScanner's: tests/format/reader/scan_plain_filter_test.cc.)
#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <string>

#include "tests/ext/sqlite_test_util.h"

namespace pq::testing {
namespace {

namespace fs = std::filesystem;

// interrupt_now(x): interrupts the connection and returns x. Not deterministic, so SQLite calls it
// where the constraint's value is needed, right before the scan.
void InterruptNow(sqlite3_context* ctx, int, sqlite3_value** argv) {
  sqlite3_interrupt(sqlite3_context_db_handle(ctx));
  sqlite3_result_value(ctx, argv[0]);
}

class InterruptTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(db_.load_error(), "");
    char tmpl[] = "/tmp/pq-interrupt-XXXXXX";
    ASSERT_NE(::mkdtemp(tmpl), nullptr);
    dir_ = tmpl;
    // 400,000 rows in 4 files of 4 row groups each; k has 20 values, v is i, w the even numbers
    // below 800,000 in no order (every page spans about all of them), not dictionary-encoded.
    for (int f = 0; f < 4; ++f) {
      QueryResult r = db_.Query("SELECT parquet_export('" + dir_ + "/part" + std::to_string(f) +
                                ".parquet', 'WITH RECURSIVE s(i) AS (SELECT " + std::to_string(f * 100000) +
                                " UNION ALL SELECT i + 1 FROM s WHERE i < " + std::to_string(f * 100000 + 99999) +
                                ") SELECT printf(''k%02d'', i % 20) AS k, i AS v, (i * 7919) % 400000 * 2 AS w "
                                "FROM s', 'row_group_size=25000, encoding=w:PLAIN')");
      ASSERT_TRUE(r.ok) << r.error;
    }
    ASSERT_EQ(sqlite3_create_function(db_.db(), "interrupt_now", 1, SQLITE_UTF8, nullptr, InterruptNow, nullptr,
                                      nullptr),
              SQLITE_OK);
    ASSERT_EQ(db_.Exec("CREATE VIRTUAL TABLE t USING parquet('" + dir_ + "/part*.parquet', threads=1)"), "");
  }
  void TearDown() override { fs::remove_all(dir_); }

  // The last scan's counter `key` (parquet_scan_stats).
  int64_t Counter(const std::string& key) {
    QueryResult r = db_.Query("SELECT parquet_scan_stats('t') ->> '" + key + "'");
    EXPECT_TRUE(r.ok) << r.error;
    if (!r.ok || r.rows.empty() || !r.rows[0][0]) return -1;
    return std::stoll(*r.rows[0][0]);
  }

  TestDb db_;
  std::string dir_;
};

TEST_F(InterruptTest, ASortedScanStopsReadingItsRows) {
  // The table orders the rows itself (no temp B-tree): every row is read in xFilter.
  QueryResult r = db_.Query("EXPLAIN QUERY PLAN SELECT k, count(*), sum(v) FROM t WHERE k >= '' GROUP BY k");
  ASSERT_TRUE(r.ok) << r.error;
  for (const SqlRow& row : r.rows) EXPECT_EQ(row.back()->find("TEMP B-TREE"), std::string::npos) << *row.back();
  r = db_.Query("SELECT k, count(*), sum(v) FROM t WHERE k >= '' GROUP BY k");
  ASSERT_TRUE(r.ok) << r.error;
  ASSERT_EQ(r.rows.size(), 20u);
  EXPECT_EQ(Counter("rows_produced"), 400000);

  r = db_.Query("SELECT k, count(*), sum(v) FROM t WHERE k >= interrupt_now('') GROUP BY k");
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.error.find("interrupted"), std::string::npos) << r.error;
  // Stopped at once: the scan had started (its counters are this scan's) and read nothing, where
  // it read the 400,000 rows and only then let SQLite see the interrupt.
  EXPECT_EQ(Counter("files_considered"), 0);
  EXPECT_EQ(Counter("rows_considered"), 0);
}

TEST_F(InterruptTest, AFilterNoRowPassesStopsBetweenBatches) {
  // w is never odd, and 400,001 lies within every row group's and page's range of w: every row is
  // decoded and dropped, batch after batch, file after file, before the scan could return a row.
  QueryResult r = db_.Query("SELECT count(*) FROM t WHERE w = 400001");
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(*r.rows[0][0], "0");
  EXPECT_EQ(Counter("rows_filtered"), 400000);

  r = db_.Query("SELECT count(*) FROM t WHERE w = interrupt_now(400001)");
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.error.find("interrupted"), std::string::npos) << r.error;
  EXPECT_EQ(Counter("files_considered"), 0);
  EXPECT_EQ(Counter("rows_filtered"), 0);
}

}  // namespace
}  // namespace pq::testing
