// Values longer than SQLite's length limit (SQLITE_LIMIT_LENGTH, sqlite3_limit): the table refuses
// them with an error naming file, row group, column and row before it builds or hands them over,
// where SQLite alone would say "string or blob too big" once the value was whole. Flat TEXT and
// BLOB values, and nested values whose JSON passes the limit as it grows.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <string>

#include "tests/ext/sqlite_test_util.h"

namespace pq {
namespace {

namespace fs = std::filesystem;

class ValueLengthTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(db_.load_error(), "");
    dir_ = fs::temp_directory_path() / ("pq_value_length_" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    // Two row groups of two rows; row 2 (the second row group's first) holds the long values, row 1
    // values of exactly the limit.
    ASSERT_EQ(db_.Exec("CREATE TABLE src(id INTEGER, s TEXT, b BLOB, l TEXT);"
                       "INSERT INTO src VALUES (0, 'short', x'01', '[\"a\"]'),"
                       "  (1, printf('%.*c', 1000, 'x'), zeroblob(1000), '[\"z\"]'),"
                       "  (2, printf('%.*c', 5000, 'x'), zeroblob(5000),"
                       "   (WITH RECURSIVE g(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM g WHERE i < 50)"
                       "    SELECT json_group_array(printf('%.*c', 100, 'y')) FROM g)),"
                       "  (3, 'short', x'03', '[]');"),
              "");
    path_ = (dir_ / "long.parquet").string();
    ASSERT_TRUE(db_.Query("SELECT parquet_export('" + path_ +
                          "', 'SELECT * FROM src ORDER BY id', "
                          "'row_group_size=2, schema=''id INTEGER, s TEXT, b BLOB, l LIST<TEXT>''')")
                    .ok);
    ASSERT_EQ(db_.Exec("CREATE VIRTUAL TABLE temp.t USING parquet('" + path_ + "')"), "");
  }
  void TearDown() override { fs::remove_all(dir_); }

  // The error of `sql` under a length limit of 1000 bytes.
  std::string ErrorAtLimit(const std::string& sql) {
    sqlite3_limit(db_.db(), SQLITE_LIMIT_LENGTH, 1000);
    const testing::QueryResult r = db_.Query(sql);
    EXPECT_FALSE(r.ok) << sql;
    return r.error;
  }

  testing::TestDb db_;
  fs::path dir_;
  std::string path_;
};

TEST_F(ValueLengthTest, FlatTextLongerThanTheLimitNamesWhereItIs) {
  EXPECT_EQ(ErrorAtLimit("SELECT id, length(s) FROM t"),
            path_ + ", row group 1, column 's', row 2: the value of 5000 bytes is longer than SQLite's limit of "
                    "1000 bytes (SQLITE_LIMIT_LENGTH)");
}

TEST_F(ValueLengthTest, FlatBlobLongerThanTheLimitNamesWhereItIs) {
  EXPECT_EQ(ErrorAtLimit("SELECT length(b) FROM t"),
            path_ + ", row group 1, column 'b', row 2: the value of 5000 bytes is longer than SQLite's limit of "
                    "1000 bytes (SQLITE_LIMIT_LENGTH)");
}

TEST_F(ValueLengthTest, NestedJsonFailsAsItPassesTheLimit) {
  const std::string error = ErrorAtLimit("SELECT length(l) FROM t");
  EXPECT_EQ(error.rfind(path_ + ", row group 1, column 'l', row 2: ", 0), 0u) << error;
  EXPECT_NE(error.find("the value is longer than SQLite's limit of 1000 bytes (SQLITE_LIMIT_LENGTH)"),
            std::string::npos)
      << error;
}

TEST_F(ValueLengthTest, SortedScanChecksToo) {
  // Row 1's value of exactly the limit is left out: SQLite's sorter record holding it would pass it.
  EXPECT_EQ(ErrorAtLimit("SELECT s FROM t WHERE id <> 1 ORDER BY s"),
            path_ + ", row group 1, column 's', row 2: the value of 5000 bytes is longer than SQLite's limit of "
                    "1000 bytes (SQLITE_LIMIT_LENGTH)");
}

TEST_F(ValueLengthTest, ValuesUpToTheLimitAndColumnsNotReadPass) {
  sqlite3_limit(db_.db(), SQLITE_LIMIT_LENGTH, 1000);
  // Row 1's row group is read, not row 2's: a nested value is checked for each row of the batch it
  // is assembled in.
  const testing::QueryResult r = db_.Query("SELECT length(s), length(b), length(l) FROM t WHERE id = 1");
  ASSERT_TRUE(r.ok) << r.error;
  ASSERT_EQ(r.rows.size(), 1u);
  EXPECT_EQ(r.rows[0][0], "1000");
  EXPECT_EQ(r.rows[0][1], "1000");
  // Only the columns asked for are handed over: row 2's long values are not.
  const testing::QueryResult ids = db_.Query("SELECT count(*), sum(id) FROM t");
  ASSERT_TRUE(ids.ok) << ids.error;
  EXPECT_EQ(ids.rows[0][1], "6");
}

TEST_F(ValueLengthTest, TheLimitIsReadAtEachScan) {
  sqlite3_limit(db_.db(), SQLITE_LIMIT_LENGTH, 1000);
  EXPECT_FALSE(db_.Query("SELECT length(s) FROM t").ok);
  sqlite3_limit(db_.db(), SQLITE_LIMIT_LENGTH, 1000000);
  const testing::QueryResult r = db_.Query("SELECT sum(length(s)), sum(length(l)) FROM t");
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(r.rows[0][0], "6010");
}

}  // namespace
}  // namespace pq
