// The hidden columns of shredded Variant fields on the conformance files
// (parquet-testing/shredded_variant): in every file that reads, each `"var.<path>"` column holds
// exactly what `var ->> '$.<path>'` gives (value and type) in every row, and a term on it finds
// the rows the same term on `->>` finds, whether or not it prunes.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

#include "tests/ext/sqlite_test_util.h"

namespace pq::testing {
namespace {

namespace fs = std::filesystem;

std::string Quoted(const std::string& s, char q) {
  std::string out(1, q);
  for (char c : s) {
    out.push_back(c);
    if (c == q) out.push_back(q);
  }
  return out + q;
}

TEST(ShreddedColumnsTest, ConformanceCasesMatchJsonExtraction) {
  TestDb db;
  ASSERT_EQ(db.load_error(), "");
  std::vector<std::string> files;
  for (const auto& e : fs::directory_iterator(TestData("shredded_variant"))) {
    if (e.path().extension() == ".parquet") files.push_back(e.path().string());
  }
  std::sort(files.begin(), files.end());
  ASSERT_GE(files.size(), 98u);
  int columns = 0, root_columns = 0, files_with_columns = 0, values = 0;
  for (const std::string& f : files) {
    SCOPED_TRACE(f);
    ASSERT_EQ(db.Exec("DROP TABLE IF EXISTS temp.t"), "");
    ASSERT_EQ(db.Exec("CREATE VIRTUAL TABLE temp.t USING parquet(" + Quoted(f, '\'') + ")"), "");
    if (!db.Query("SELECT var FROM t").ok) continue;  // the invalid cases (conformance_test.cc)
    QueryResult hidden =
        db.Query("SELECT name FROM pragma_table_xinfo('t') WHERE hidden AND name LIKE 'var.%'");
    ASSERT_TRUE(hidden.ok) << hidden.error;
    if (!hidden.rows.empty()) ++files_with_columns;
    for (const auto& row : hidden.rows) {
      const std::string name = *row[0];
      const std::string path = name == "var.$" ? "$" : "$" + name.substr(3);
      const std::string column = Quoted(name, '"');
      const std::string extract = "(var ->> " + Quoted(path, '\'') + ")";
      SCOPED_TRACE(name);
      ++columns;
      if (name == "var.$") ++root_columns;
      QueryResult differ = db.Query("SELECT count(*) FROM t WHERE " + column + " IS NOT " +
                                    extract + " OR typeof(" + column + ") <> typeof" + extract);
      ASSERT_TRUE(differ.ok) << differ.error;
      EXPECT_EQ(*differ.rows[0][0], "0");
      QueryResult n = db.Query("SELECT count(" + column + ") FROM t");
      ASSERT_TRUE(n.ok) << n.error;
      values += std::stoi(*n.rows[0][0]);
      // Each value found by `=`, `<` and IS NULL on the hidden column as on the extraction.
      for (const char* op : {"=", "<", ">=", "IS"}) {
        QueryResult same = db.Query("SELECT count(*) FROM (SELECT DISTINCT " + column +
                                    " AS k FROM t) o WHERE "
                                    "(SELECT group_concat(rowid) FROM (SELECT rowid FROM t WHERE " +
                                    column + " " + op +
                                    " o.k ORDER BY rowid)) IS NOT "
                                    "(SELECT group_concat(rowid) FROM (SELECT rowid FROM t WHERE " +
                                    extract + " " + op + " o.k ORDER BY rowid))");
        ASSERT_TRUE(same.ok) << same.error;
        EXPECT_EQ(*same.rows[0][0], "0") << op;
      }
      QueryResult nulls =
          db.Query("SELECT (SELECT count(*) FROM t WHERE " + column +
                   " IS NULL) = (SELECT count(*) FROM t WHERE " + extract + " IS NULL)");
      ASSERT_TRUE(nulls.ok) << nulls.error;
      EXPECT_EQ(*nulls.rows[0][0], "1");
    }
  }
  // The cases shred objects and primitives alike; the counts are those of the files as copied.
  EXPECT_EQ(files_with_columns, 50);
  EXPECT_EQ(columns, 59);
  EXPECT_EQ(root_columns, 45);
  EXPECT_EQ(values, 55);
}

}  // namespace
}  // namespace pq::testing
