// Datasets through the built extension: many files in hive folders (written by parquet_export with
// partition_by, and file by file), queries compared row for row with a native SQLite table holding
// the same rows, what parquet_scan_stats says the scan skipped, union_by_name, `**` globs, files
// that change between queries, and partition_by's failure modes.
#include <gtest/gtest.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <vector>

#include "tests/ext/sqlite_test_util.h"

namespace pq::testing {
namespace {

namespace fs = std::filesystem;

// Every (year, month, category) of the main dataset: 5 * 12 * 3 = 180 partitions.
constexpr int kPartitions = 180;

class DatasetTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(db_.load_error(), "");
    char tmpl[] = "/tmp/pq-dataset-test-XXXXXX";
    ASSERT_NE(::mkdtemp(tmpl), nullptr);
    dir_ = tmpl;
    ASSERT_EQ(
        db_.Exec(
            "CREATE TABLE nums AS WITH RECURSIVE n(value) AS (SELECT 1 UNION ALL SELECT value + 1 "
            "FROM n WHERE value < 30000) SELECT value FROM n"),
        "");
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string Path(const std::string& name) const { return dir_ + "/" + name; }

  // Names in a folder, sorted.
  std::set<std::string> Listing(const std::string& folder) const {
    std::set<std::string> names;
    for (const auto& e : fs::directory_iterator(folder)) names.insert(e.path().filename().string());
    return names;
  }
  size_t CountFiles(const std::string& folder) const {
    size_t n = 0;
    for (const auto& e : fs::recursive_directory_iterator(folder)) n += e.is_regular_file() ? 1 : 0;
    return n;
  }

  QueryResult Q(const std::string& sql) const { return db_.Query(sql); }
  std::string One(const std::string& sql) const {
    QueryResult r = db_.Query(sql);
    EXPECT_TRUE(r.ok) << sql << ": " << r.error;
    if (!r.ok || r.rows.empty() || r.rows[0].empty()) return "<none>";
    return r.rows[0][0].value_or("NULL");
  }
  std::string Exec(const std::string& sql) const { return db_.Exec(sql); }
  std::string Export(const std::string& path, const std::string& query,
                     const std::string& options = "") {
    return One("SELECT parquet_export('" + path + "', '" + query + "', '" + options + "')");
  }
  // A counter of the last scan of `table`.
  int64_t Stat(const std::string& table, const std::string& key) const {
    return std::stoll(
        One("SELECT json_extract(parquet_scan_stats('" + table + "'), '$." + key + "')"));
  }

  // Runs `sql` with {T} replaced by `dataset` and by `native`, and expects the same rows (in order:
  // queries have an ORDER BY) plus at least one row. Returns the dataset's rows.
  std::vector<SqlRow> ExpectSameRows(const std::string& sql, const std::string& dataset,
                                     const std::string& native) {
    auto with = [&sql](const std::string& name) {
      std::string s = sql;
      for (size_t p = s.find("{T}"); p != std::string::npos; p = s.find("{T}"))
        s.replace(p, 3, name);
      return s;
    };
    QueryResult a = Q(with(dataset));
    QueryResult b = Q(with(native));
    EXPECT_TRUE(a.ok) << with(dataset) << ": " << a.error;
    EXPECT_TRUE(b.ok) << with(native) << ": " << b.error;
    EXPECT_FALSE(b.rows.empty()) << with(native) << " returns nothing: a weak comparison";
    EXPECT_EQ(a.rows.size(), b.rows.size()) << sql;
    EXPECT_TRUE(a.rows == b.rows) << sql;
    return a.rows;
  }

  // The native table `sales` (180 partitions of rows) and its export to `folder` with partition_by.
  void MakeSales() {
    ASSERT_EQ(Exec("CREATE TABLE sales(id INTEGER, value REAL, name TEXT, ts INTEGER, year "
                   "INTEGER, month INTEGER, "
                   "category TEXT)"),
              "");
    // ts is yyyymmdd: clustered by partition, so its statistics prune files. Every id % 180 is one
    // (year, month, category). Values are quarters, so sums are exact in any order.
    ASSERT_EQ(
        Exec("INSERT INTO sales SELECT value, (value * 37 % 1000) / 4.0, 'n' || (value % 97), "
             "(2020 + value % 5) * 10000 + (1 + value / 5 % 12) * 100 + 1 + value % 28, 2020 + "
             "value % 5, "
             "1 + value / 5 % 12, CASE value / 60 % 3 WHEN 0 THEN '1-north' WHEN 1 THEN '2-south' "
             "END "
             "FROM nums WHERE value <= 27000"),
        "");
    ASSERT_EQ(One("SELECT count(*) FROM (SELECT DISTINCT year, month, category FROM sales)"),
              std::to_string(kPartitions));
  }

  TestDb db_;
  std::string dir_;
};

// ---------------------------------------------------------------------------------------------------
// A hive dataset of 180 files written by parquet_export(partition_by=...).

TEST_F(DatasetTest, PartitionedExportReadsBackAndQueriesMatchNativeTable) {
  MakeSales();
  // Rows grouped by partition: one file per partition (interleaved rows would need more than the
  // 64 files open at once that the export allows; see PartitionByBoundsOpenFiles).
  ASSERT_EQ(Export(Path("sales"), "SELECT * FROM sales ORDER BY year, month, category, id",
                   "partition_by=year,month,category, row_group_size=40"),
            "27000");
  EXPECT_EQ(CountFiles(Path("sales")), static_cast<size_t>(kPartitions));
  EXPECT_TRUE(fs::exists(Path("sales/year=2022/month=3/category=1-north/data_0.parquet")));
  EXPECT_TRUE(fs::exists(
      Path("sales/year=2022/month=3/category=__HIVE_DEFAULT_PARTITION__/data_0.parquet")));
  // No temporary is left beside the folder.
  EXPECT_EQ(Listing(dir_), std::set<std::string>{"sales"});
  // The partition columns are not stored in the files.
  EXPECT_EQ(One("SELECT group_concat(name) FROM parquet_schema('" +
                Path("sales/year=2022/month=3/category=1-north/data_0.parquet") +
                "') WHERE name != 'schema'"),
            "id,value,name,ts");

  ASSERT_EQ(Exec("CREATE VIRTUAL TABLE ds USING parquet('" + Path("sales/**/*.parquet") +
                 "', hive_partitioning=1)"),
            "");
  // Partition columns come after the file's columns, typed from their values.
  QueryResult info = Q("SELECT name, type FROM pragma_table_info('ds')");
  ASSERT_TRUE(info.ok) << info.error;
  std::vector<SqlRow> expected_info = {
      {"id", "INTEGER"},   {"value", "REAL"},    {"name", "TEXT"},    {"ts", "INTEGER"},
      {"year", "INTEGER"}, {"month", "INTEGER"}, {"category", "TEXT"}};
  EXPECT_EQ(info.rows, expected_info);

  // The whole table, row for row, with storage classes.
  ExpectSameRows(
      "SELECT id, value, name, ts, year, month, category, typeof(value), typeof(year) FROM {T} "
      "ORDER BY id",
      "ds", "sales");

  // Terms only on partition columns: the files read are exactly the partitions that match, and
  // nothing is read from the others (not even a page index).
  const std::vector<std::string> partition_terms = {
      "year = 2022 AND month = 3",
      "year = '2022' AND month = 3.0",  // literals take the column's affinity
      "year IN (2020, 2024) AND category = '1-north'",
      "month BETWEEN 4 AND 6 AND year > 2021",
      "month != 7 AND year <= 2020",
      "category IS NULL",
      "category IS NOT NULL AND month = 12",
      "category LIKE '2-%' AND month < 3",
      "category GLOB '1-n*' AND year >= 2024",
      "year LIKE '202_' AND month IN (1, 11)",  // LIKE on an INTEGER partition: its text
      "CAST(year AS TEXT) LIKE '2023' AND month = 2",
      "month IN (SELECT value FROM nums WHERE value < 3) AND year = 2021",
      "category IS '2-south' AND year IS NOT 2020 AND month = 5",
      "category > '1-north' AND year = 2023",
  };
  for (const std::string& where : partition_terms) {
    SCOPED_TRACE(where);
    std::vector<SqlRow> rows =
        ExpectSameRows("SELECT * FROM {T} WHERE " + where + " ORDER BY id", "ds", "sales");
    const int64_t matching = std::stoll(
        One("SELECT count(*) FROM (SELECT DISTINCT year, month, category FROM sales WHERE " +
            where + ")"));
    EXPECT_EQ(Stat("ds", "files_considered"), kPartitions);
    // CAST(year AS TEXT) is not a term on the column: SQLite filters on it, after the scan.
    if (where.find("CAST") == std::string::npos) {
      EXPECT_EQ(Stat("ds", "files_skipped"), kPartitions - matching);
      EXPECT_EQ(Stat("ds", "rows_produced"), static_cast<int64_t>(rows.size()));
    } else {
      EXPECT_EQ(Stat("ds", "files_skipped"), kPartitions - 15);  // month = 2 only
    }
  }
  // year = 2022 AND month = 3 reads exactly the three files of that month.
  One("SELECT count(*) FROM ds WHERE year = 2022 AND month = 3");
  EXPECT_EQ(Stat("ds", "files_considered"), 180);
  EXPECT_EQ(Stat("ds", "files_skipped"), 177);
  EXPECT_EQ(Stat("ds", "rows_considered"), 27000);
  EXPECT_EQ(Stat("ds", "rows_skipped"), 27000 - 450);

  // Statistics of a data column: files whose row groups all fail are skipped without being read.
  ExpectSameRows("SELECT * FROM {T} WHERE ts BETWEEN 20220301 AND 20220331 ORDER BY id", "ds",
                 "sales");
  EXPECT_EQ(Stat("ds", "files_considered"), 180);
  EXPECT_EQ(Stat("ds", "files_skipped"), 177);
  EXPECT_EQ(One("SELECT count(*) FROM ds WHERE ts > 30000000"), "0");
  EXPECT_EQ(Stat("ds", "files_skipped"), 180);
  EXPECT_EQ(Stat("ds", "bytes_read"), 0);
  EXPECT_EQ(Stat("ds", "row_groups_read"), 0);

  // Mixed terms, aggregates.
  ExpectSameRows(
      "SELECT * FROM {T} WHERE year = 2022 AND month = 3 AND category = '1-north' AND value > 50 "
      "ORDER BY id",
      "ds", "sales");
  ExpectSameRows(
      "SELECT year, category, count(*), sum(value), min(name), max(ts) FROM {T} GROUP BY 1, 2 "
      "ORDER BY 1, 2",
      "ds", "sales");
  ExpectSameRows(
      "SELECT month, avg(value), count(DISTINCT name) FROM {T} WHERE year BETWEEN 2021 AND 2023 "
      "GROUP BY month ORDER BY month",
      "ds", "sales");
  ExpectSameRows("SELECT count(*), sum(id) FROM {T} WHERE category IS NULL OR month = 1", "ds",
                 "sales");
  ExpectSameRows("SELECT id FROM {T} WHERE year = 2024 ORDER BY id LIMIT 5 OFFSET 10", "ds",
                 "sales");

  // A partition column compared with another table's column (a join term).
  ASSERT_EQ(Exec("CREATE TABLE wanted(y INTEGER, m TEXT)"), "");
  ASSERT_EQ(Exec("INSERT INTO wanted VALUES (2021, '4'), (2023, '11')"), "");
  ExpectSameRows(
      "SELECT {T}.id FROM wanted JOIN {T} ON {T}.year = wanted.y AND {T}.month = wanted.m ORDER BY "
      "1",
      "ds", "sales");
}

// ---------------------------------------------------------------------------------------------------
// Datasets written file by file into hive folders, and a join of two of them.

TEST_F(DatasetTest, FilesWrittenOneByOneAndJoinOfTwoDatasets) {
  MakeSales();
  // Two files per (year, month): 120 files, no category folder (each file holds rows of every
  // category).
  for (int year = 2020; year <= 2024; ++year) {
    for (int month = 1; month <= 12; ++month) {
      for (int part = 0; part < 2; ++part) {
        const std::string file =
            Path("manual/year=" + std::to_string(year) + "/month=" + std::to_string(month) +
                 "/part-" + std::to_string(part) + ".parquet");
        fs::create_directories(fs::path(file).parent_path());
        const std::string n =
            Export(file, "SELECT id, value, name, ts, category FROM sales WHERE year = " +
                             std::to_string(year) + " AND month = " + std::to_string(month) +
                             " AND id / 180 % 2 = " + std::to_string(part) + " ORDER BY id");
        ASSERT_NE(n, "<none>");
      }
    }
  }
  // A second dataset: one label per (year, month).
  ASSERT_EQ(Exec("CREATE TABLE labels(year INTEGER, month INTEGER, label TEXT)"), "");
  ASSERT_EQ(Exec("INSERT INTO labels SELECT 2020 + value / 12, 1 + value % 12, 'L' || value FROM "
                 "nums WHERE value < 60"),
            "");
  for (int year = 2020; year <= 2024; ++year) {
    fs::create_directories(Path("labels/year=" + std::to_string(year)));
    Export(Path("labels/year=" + std::to_string(year) + "/l.parquet"),
           "SELECT month, label FROM labels WHERE year = " + std::to_string(year));
  }
  ASSERT_EQ(Exec("CREATE VIRTUAL TABLE manual USING parquet('" + Path("manual/**/*.parquet") +
                 "', hive_partitioning=1)"),
            "");
  ASSERT_EQ(Exec("CREATE VIRTUAL TABLE lab USING parquet('" + Path("labels/*/*.parquet") +
                 "', hive_partitioning=1)"),
            "");
  EXPECT_EQ(
      One("SELECT group_concat(name || ' ' || type, ', ') FROM pragma_table_info('manual')"),
      "id INTEGER, value REAL, name TEXT, ts INTEGER, category TEXT, year INTEGER, month INTEGER");

  ExpectSameRows("SELECT id, value, name, ts, category, year, month FROM {T} ORDER BY id", "manual",
                 "sales");
  ExpectSameRows("SELECT id, value, name FROM {T} WHERE year = 2022 AND month = 3 ORDER BY id",
                 "manual", "sales");
  EXPECT_EQ(Stat("manual", "files_considered"), 120);
  EXPECT_EQ(Stat("manual", "files_skipped"), 118);
  ExpectSameRows(
      "SELECT id, ts, month FROM {T} WHERE month IN (2, 3) AND category = '2-south' ORDER BY id",
      "manual", "sales");
  EXPECT_EQ(Stat("manual", "files_skipped"), 120 - 20);

  // The join: the same rows as the native tables give.
  auto join = [](const std::string& t, const std::string& l) {
    return "SELECT s.year, l.label, count(*), sum(s.value) FROM " + t + " s JOIN " + l +
           " l ON s.year = l.year AND s.month = l.month WHERE s.category = '2-south' AND l.year >= "
           "2022 "
           "GROUP BY 1, 2 ORDER BY 1, 2";
  };
  QueryResult a = Q(join("manual", "lab"));
  QueryResult b = Q(join("sales", "labels"));
  ASSERT_TRUE(a.ok) << a.error;
  ASSERT_TRUE(b.ok) << b.error;
  EXPECT_EQ(a.rows.size(), 36u);
  EXPECT_EQ(a.rows, b.rows);
  // A self-join of the dataset: two cursors on one table.
  ExpectSameRows(
      "SELECT a.year, count(*) FROM {T} a JOIN {T} b ON a.id = b.id + 1 WHERE a.month = 2 AND "
      "b.month = 2 "
      "GROUP BY 1 ORDER BY 1",
      "manual", "sales");
}

TEST_F(DatasetTest, HivePartitionTypesAndErrors) {
  auto write = [&](const std::string& rel, const std::string& query) {
    fs::create_directories(fs::path(Path(rel)).parent_path());
    ASSERT_NE(Export(Path(rel), query), "<none>");
  };
  write("h/day=2024-01-31/r=1.5/t=abc/f.parquet", "SELECT 1 AS v");
  write("h/day=2024-02-29/r=2/t=12/f.parquet", "SELECT 2 AS v");
  write("h/day=__HIVE_DEFAULT_PARTITION__/r=-3e2/t=a%2Fb%3Dc/f.parquet", "SELECT 3 AS v");
  write("h/day=2023-02-28/r=/t=%41%zz/f.parquet", "SELECT 4 AS v");
  ASSERT_EQ(Exec("CREATE VIRTUAL TABLE h USING parquet('" + Path("h/**/*.parquet") +
                 "', hive_partitioning=1)"),
            "");
  EXPECT_EQ(One("SELECT group_concat(name || ' ' || type, ', ') FROM pragma_table_info('h')"),
            "v INTEGER, day DATE, r REAL, t TEXT");
  QueryResult r = Q("SELECT v, day, typeof(day), r, typeof(r), t, typeof(t) FROM h ORDER BY v");
  ASSERT_TRUE(r.ok) << r.error;
  std::vector<SqlRow> expected = {
      {"1", "2024-01-31", "text", "1.5", "real", "abc", "text"},
      {"2", "2024-02-29", "text", "2", "real", "12", "text"},
      {"3", std::nullopt, "null", "-300", "real", "a/b=c", "text"},
      {"4", "2023-02-28", "text", std::nullopt, "null", "A%zz", "text"},
  };
  EXPECT_EQ(r.rows, expected);
  EXPECT_EQ(One("SELECT group_concat(v) FROM h WHERE day >= '2024-01-01'"), "1,2");
  EXPECT_EQ(Stat("h", "files_skipped"), 2);
  EXPECT_EQ(
      One("SELECT group_concat(v) FROM (SELECT v FROM h WHERE r < 0 OR r IS NULL ORDER BY v)"),
      "3,4");
  EXPECT_EQ(One("SELECT group_concat(v) FROM h WHERE t = '12'"), "2");
  EXPECT_EQ(Stat("h", "files_skipped"), 3);
  // 2023-02-29 is not a date: TEXT.
  write("h2/d=2023-02-29/f.parquet", "SELECT 1 AS v");
  write("h2/d=2023-02-28/f.parquet", "SELECT 2 AS v");
  ASSERT_EQ(Exec("CREATE VIRTUAL TABLE h2 USING parquet('" + Path("h2/*/f.parquet") +
                 "', hive_partitioning=1)"),
            "");
  EXPECT_EQ(One("SELECT type FROM pragma_table_info('h2') WHERE name = 'd'"), "TEXT");
  // Without the option, no partition columns.
  ASSERT_EQ(Exec("CREATE VIRTUAL TABLE h3 USING parquet('" + Path("h2/*/f.parquet") + "')"), "");
  EXPECT_EQ(One("SELECT count(*) FROM pragma_table_info('h3')"), "1");

  // Files with different keys.
  write("k/a=1/f.parquet", "SELECT 1 AS v");
  write("k/b=1/f.parquet", "SELECT 1 AS v");
  std::string err = Exec("CREATE VIRTUAL TABLE k USING parquet('" + Path("k/*/f.parquet") +
                         "', hive_partitioning=1)");
  EXPECT_NE(err.find("has the partition keys (b) but"), std::string::npos) << err;
  EXPECT_NE(err.find("every file must have the same keys"), std::string::npos) << err;
  // A key that is also a column of the files.
  write("c/v=1/f.parquet", "SELECT 1 AS V");
  err = Exec("CREATE VIRTUAL TABLE c USING parquet('" + Path("c/*/f.parquet") +
             "', hive_partitioning=1)");
  EXPECT_NE(err.find("the partition key 'v' is also a column in the files ('V')"),
            std::string::npos)
      << err;
  // A key twice in one path.
  write("d/x=1/X=2/f.parquet", "SELECT 1 AS v");
  err = Exec("CREATE VIRTUAL TABLE d USING parquet('" + Path("d/**/f.parquet") +
             "', hive_partitioning=1)");
  EXPECT_NE(err.find("has the partition key 'X' twice"), std::string::npos) << err;
  err = Exec("CREATE VIRTUAL TABLE d USING parquet('" + Path("d/**/f.parquet") +
             "', hive_partitioning=maybe)");
  EXPECT_NE(err.find("option 'hive_partitioning' expects a boolean"), std::string::npos) << err;
}

// ---------------------------------------------------------------------------------------------------
// union_by_name

TEST_F(DatasetTest, UnionByName) {
  fs::create_directories(Path("u"));
  ASSERT_EQ(Export(Path("u/a.parquet"),
                   "SELECT 1 AS id, 10 AS x, ''s1'' AS s UNION ALL "
                   "SELECT 2, 9007199254740993, NULL"),
            "2");
  ASSERT_EQ(Export(Path("u/b.parquet"),
                   "SELECT 3 AS id, 2.5 AS x, ''q'' AS extra UNION ALL SELECT 4, 1.0, ''r''"),
            "2");
  ASSERT_EQ(Export(Path("u/c.parquet"), "SELECT ''s5'' AS S, 5 AS ID"), "1");

  // Without union_by_name: the files must match, and the message says what to do.
  std::string err = Exec("CREATE VIRTUAL TABLE plain USING parquet('" + Path("u/*.parquet") + "')");
  EXPECT_NE(err.find("does not have the same columns as"), std::string::npos) << err;
  EXPECT_NE(err.find("union_by_name=1"), std::string::npos) << err;

  ASSERT_EQ(
      Exec("CREATE VIRTUAL TABLE un USING parquet('" + Path("u/*.parquet") + "', union_by_name=1)"),
      "");
  EXPECT_EQ(One("SELECT group_concat(name || ' ' || type, ', ') FROM pragma_table_info('un')"),
            "id INTEGER, x REAL, s TEXT, extra TEXT");
  ASSERT_EQ(Exec("CREATE TABLE nat(id INTEGER, x REAL, s TEXT, extra TEXT)"), "");
  ASSERT_EQ(Exec("INSERT INTO nat VALUES (1, 10, 's1', NULL), (2, 9007199254740993, NULL, NULL), "
                 "(3, 2.5, NULL, 'q'), "
                 "(4, 1.0, NULL, 'r'), (5, NULL, 's5', NULL)"),
            "");
  ExpectSameRows("SELECT id, x, typeof(x), s, extra FROM {T} ORDER BY id", "un", "nat");
  // INTEGER values of the widened column come back as REAL, as a REAL column stores them.
  EXPECT_EQ(One("SELECT group_concat(typeof(x)) FROM un WHERE id <= 2"), "real,real");
  const std::vector<std::string> wheres = {
      "x > 5",
      "x = 10",
      "x = 9007199254740992.0",
      "x >= 9007199254740992",
      "x IS NULL",
      "x < 3",
      "extra = 'q'",
      "extra IS NULL",
      "extra IS NOT NULL",
      "s LIKE 's%'",
      "s IN ('s1', 's5')",
      "id >= 4",
  };
  for (const std::string& where : wheres) {
    SCOPED_TRACE(where);
    ExpectSameRows("SELECT id, x, s, extra FROM {T} WHERE " + where + " ORDER BY id", "un", "nat");
  }
  // A term on a column some files lack: NULL fails it there, so those files are skipped.
  One("SELECT count(*) FROM un WHERE extra = 'q'");
  EXPECT_EQ(Stat("un", "files_skipped"), 2);
  // Every file has rows where extra IS NULL, except b.parquet whose statistics say it has no NULL.
  One("SELECT count(*) FROM un WHERE extra IS NULL");
  EXPECT_EQ(Stat("un", "files_skipped"), 1);
  // The widened column's terms are not used in a.parquet (INTEGER there): it is read, and SQLite
  // decides; b.parquet's statistics rule it out.
  EXPECT_EQ(One("SELECT group_concat(id) FROM un WHERE x > 100"), "2");
  EXPECT_EQ(Stat("un", "files_skipped"), 2);

  // Types that do not combine: an error naming the column, both types and both files.
  fs::create_directories(Path("v"));
  ASSERT_EQ(Export(Path("v/a.parquet"), "SELECT 1 AS id, 1 AS k"), "1");
  ASSERT_EQ(Export(Path("v/b.parquet"), "SELECT 2 AS id, ''one'' AS k"), "1");
  err = Exec("CREATE VIRTUAL TABLE bad USING parquet('" + Path("v/*.parquet") +
             "', union_by_name=1)");
  EXPECT_NE(err.find("column 'k' is INTEGER in '" + Path("v/a.parquet") + "' but TEXT in '" +
                     Path("v/b.parquet") + "'"),
            std::string::npos)
      << err;
  // With union_by_name and hive partitioning together.
  fs::create_directories(Path("w/p=1"));
  fs::create_directories(Path("w/p=2"));
  ASSERT_EQ(Export(Path("w/p=1/f.parquet"), "SELECT 1 AS a"), "1");
  ASSERT_EQ(Export(Path("w/p=2/f.parquet"), "SELECT 2 AS b, 2.5 AS a"), "1");
  ASSERT_EQ(Exec("CREATE VIRTUAL TABLE w USING parquet('" + Path("w/*/*.parquet") +
                 "', union_by_name=1, "
                 "hive_partitioning=1)"),
            "");
  QueryResult r = Q("SELECT a, typeof(a), b, p FROM w ORDER BY p");
  ASSERT_TRUE(r.ok) << r.error;
  std::vector<SqlRow> expected = {{"1", "real", std::nullopt, "1"}, {"2.5", "real", "2", "2"}};
  EXPECT_EQ(r.rows, expected);
  EXPECT_EQ(One("SELECT group_concat(p) FROM w WHERE b = 2"), "2");
  EXPECT_EQ(Stat("w", "files_skipped"), 1);
}

// ---------------------------------------------------------------------------------------------------
// `**` globs

TEST_F(DatasetTest, DoubleStarGlobs) {
  for (const std::string rel : {"g/a.parquet", "g/x/b.parquet", "g/x/y/c.parquet",
                                "g/x/y/z/d.parquet", "g/.hidden/e.parquet", "g/x/.f.parquet"}) {
    fs::create_directories(fs::path(Path(rel)).parent_path());
    ASSERT_EQ(Export(Path(rel), "SELECT ''" + fs::path(rel).stem().string() + "'' AS name"), "1")
        << rel;
  }
  std::ofstream(Path("g/x/notes.txt")) << "not parquet";
  // A link back up the tree: walked once, never in a loop.
  fs::create_directory_symlink(Path("g"), Path("g/x/y/loop"));
  auto names = [&](const std::string& pattern) {
    Exec("DROP TABLE IF EXISTS gl");
    std::string err = Exec("CREATE VIRTUAL TABLE gl USING parquet('" + Path(pattern) + "')");
    if (!err.empty()) return "error: " + err;
    return One("SELECT group_concat(name) FROM (SELECT name FROM gl ORDER BY rowid)");
  };
  EXPECT_EQ(names("g/**/*.parquet"), "a,b,c,d");
  EXPECT_EQ(names("g/**/c.parquet"), "c");
  // Through the link g/x/y/loop, g/a.parquet is below g/x too (g/x/y/loop/a.parquet).
  EXPECT_EQ(names("g/x/**/*.parquet"), "b,c,a,d");
  EXPECT_EQ(names("g/**/y/*.parquet"), "c");
  EXPECT_EQ(names("g/**/?.parquet"), "a,b,c,d");
  EXPECT_EQ(names("g/**/[bd].parquet"), "b,d");
  EXPECT_EQ(names("g/*/*.parquet"), "b");
  EXPECT_EQ(names("g/x/**/.*.parquet"), ".f");
  // A trailing ** is every file below: notes.txt too, which is not Parquet.
  EXPECT_NE(names("g/x/**").find("error: " + Path("g/x/notes.txt") + ": not a Parquet file"),
            std::string::npos)
      << names("g/x/**");
  EXPECT_EQ(names("g/x/y/z/**"), "d");
  // Paths come back as the pattern spells them, sorted.
  ASSERT_EQ(Exec("DROP TABLE IF EXISTS gl; CREATE VIRTUAL TABLE gl USING parquet('" +
                 Path("g/**/*.parquet") + "')"),
            "");
  EXPECT_EQ(
      One("SELECT group_concat(substr(filename, " + std::to_string(dir_.size() + 2) + ")) FROM gl"),
      "g/a.parquet,g/x/b.parquet,g/x/y/c.parquet,g/x/y/z/d.parquet");
  EXPECT_EQ(names("g/**/*.nothing"), "error: no file matches '" + Path("g/**/*.nothing") + "'");
  EXPECT_EQ(names("nowhere/**/*.parquet"),
            "error: no file matches '" + Path("nowhere/**/*.parquet") + "'");
}

// ---------------------------------------------------------------------------------------------------
// Files that change between queries.

void SetMtime(const std::string& path, int64_t seconds) {
  struct timeval times[2] = {{static_cast<time_t>(seconds), 0}, {static_cast<time_t>(seconds), 0}};
  ASSERT_EQ(::utimes(path.c_str(), times), 0);
}

TEST_F(DatasetTest, FileReplacedOrTruncatedBetweenQueries) {
  const std::string f = Path("f.parquet");
  const std::string g = Path("g.parquet");
  ASSERT_EQ(Export(f, "SELECT value AS v, ''old'' AS s FROM nums WHERE value <= 10"), "10");
  ASSERT_EQ(Export(g, "SELECT value + 1000 AS v, ''g'' AS s FROM nums WHERE value <= 3"), "3");
  SetMtime(f, 1000000000);
  ASSERT_EQ(Exec("CREATE VIRTUAL TABLE t USING parquet('" + f + "," + g + "')"), "");
  EXPECT_EQ(One("SELECT count(*) || ',' || sum(v) || ',' || max(rowid) FROM t"), "13,3061,12");

  // Replaced (a new file renamed over it) with other rows.
  ASSERT_EQ(Export(f, "SELECT value * 100 AS v, ''new'' AS s FROM nums WHERE value <= 20"), "20");
  EXPECT_EQ(One("SELECT count(*) || ',' || sum(v) || ',' || max(rowid) FROM t"), "23,24006,22");
  EXPECT_EQ(One("SELECT group_concat(DISTINCT s) FROM t WHERE v > 1500"), "new");
  EXPECT_EQ(One("SELECT rowid FROM t WHERE v = 1001"), "20");

  // Rewritten in place, same path and inode, different size and time.
  {
    const std::string other = Path("other.parquet");
    ASSERT_EQ(Export(other, "SELECT value AS v, ''inplace'' AS s FROM nums WHERE value <= 5"), "5");
    std::ifstream in(other, std::ios::binary);
    std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::ofstream out(f, std::ios::binary | std::ios::trunc);
    out << bytes;
  }
  SetMtime(f, 1100000000);
  EXPECT_EQ(One("SELECT count(*) || ',' || group_concat(DISTINCT s) FROM t WHERE s != 'g'"),
            "5,inplace");

  // Truncated: a clear error naming the file, never garbage; the other file is not affected.
  ASSERT_EQ(::truncate(f.c_str(), 100), 0);
  QueryResult r = Q("SELECT count(*), sum(v) FROM t");
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.error.find("'" + f + "' changed since the table was created and cannot be read"),
            std::string::npos)
      << r.error;
  // Again: still an error (not a stale result).
  r = Q("SELECT v FROM t WHERE filename = '" + g + "'");
  EXPECT_FALSE(r.ok) << "a truncated file must be noticed at every scan";

  // Replaced by a file whose columns no longer fit the table.
  ASSERT_EQ(Export(f, "SELECT ''text'' AS v, 1 AS s"), "1");
  r = Q("SELECT count(*) FROM t");
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.error.find("'" + f + "' changed since the table was created and no longer fits it"),
            std::string::npos)
      << r.error;
  // Removed.
  ASSERT_EQ(::unlink(f.c_str()), 0);
  r = Q("SELECT count(*) FROM t");
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.error.find("changed since the table was created"), std::string::npos) << r.error;
  // Back: the table works again.
  ASSERT_EQ(Export(f, "SELECT 7 AS v, ''back'' AS s"), "1");
  EXPECT_EQ(One("SELECT group_concat(v) FROM t"), "7,1001,1002,1003");
}

// A scan that is running when its file is replaced goes on reading the file it started with; the
// next scan reads the new one.
TEST_F(DatasetTest, ScanInProgressKeepsItsFiles) {
  const std::string f = Path("f.parquet");
  ASSERT_EQ(Export(f, "SELECT value AS v FROM nums WHERE value <= 10000", "row_group_size=1000"), "10000");
  ASSERT_EQ(Exec("CREATE VIRTUAL TABLE t USING parquet('" + f + "')"), "");
  sqlite3_stmt* stmt = nullptr;
  ASSERT_EQ(sqlite3_prepare_v2(db_.db(), "SELECT v FROM t", -1, &stmt, nullptr), SQLITE_OK);
  int64_t sum = 0, rows = 0;
  for (; rows < 10; ++rows) {
    ASSERT_EQ(sqlite3_step(stmt), SQLITE_ROW);
    sum += sqlite3_column_int64(stmt, 0);
  }
  ASSERT_EQ(Export(f, "SELECT -value AS v FROM nums WHERE value <= 3"), "3");
  // Another scan of the same table meanwhile sees the new file.
  EXPECT_EQ(One("SELECT sum(v) FROM t"), "-6");
  int rc;
  while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
    sum += sqlite3_column_int64(stmt, 0);
    ++rows;
  }
  EXPECT_EQ(rc, SQLITE_DONE) << sqlite3_errmsg(db_.db());
  sqlite3_finalize(stmt);
  EXPECT_EQ(rows, 10000);
  EXPECT_EQ(sum, 50005000);
  EXPECT_EQ(One("SELECT count(*) || ',' || sum(v) FROM t"), "3,-6");
}

TEST_F(DatasetTest, ReplacedFileInUnionAndHiveTable) {
  fs::create_directories(Path("r/p=1"));
  fs::create_directories(Path("r/p=2"));
  ASSERT_EQ(Export(Path("r/p=1/f.parquet"), "SELECT 1 AS a"), "1");
  ASSERT_EQ(Export(Path("r/p=2/f.parquet"), "SELECT 2.5 AS a, ''x'' AS b"), "1");
  ASSERT_EQ(Exec("CREATE VIRTUAL TABLE t USING parquet('" + Path("r/*/f.parquet") +
                 "', union_by_name=1, "
                 "hive_partitioning=1)"),
            "");
  EXPECT_EQ(
      One("SELECT group_concat(a || ':' || typeof(a) || ':' || ifnull(b, '-') || ':' || p) FROM t"),
      "1.0:real:-:1,2.5:real:x:2");
  // The first file now has b, and a as an INTEGER still: it fits.
  ASSERT_EQ(Export(Path("r/p=1/f.parquet"), "SELECT ''y'' AS b, 3 AS a UNION ALL SELECT ''z'', 4"),
            "2");
  EXPECT_EQ(
      One("SELECT group_concat(a || ':' || typeof(a) || ':' || ifnull(b, '-') || ':' || p) FROM t"),
      "3.0:real:y:1,4.0:real:z:1,2.5:real:x:2");
  EXPECT_EQ(One("SELECT group_concat(a) FROM t WHERE b = 'z'"), "4.0");
  // A column the table does not have: no longer fits.
  ASSERT_EQ(Export(Path("r/p=1/f.parquet"), "SELECT 1 AS a, 2 AS c"), "1");
  std::string err = Q("SELECT * FROM t").error;
  EXPECT_NE(err.find("no longer fits it: it has a column 'c' the table does not have"),
            std::string::npos)
      << err;
}

// ---------------------------------------------------------------------------------------------------
// parquet_export with partition_by: round trips and failures.

TEST_F(DatasetTest, PartitionByValuesRoundTrip) {
  ASSERT_EQ(Exec("CREATE TABLE src(id INTEGER, k, t TEXT)"), "");
  ASSERT_EQ(Exec("INSERT INTO src VALUES (1, 'a/b', 'x'), (2, 'x=y%z', 'y'), (3, 'line' || "
                 "char(10) || 'break', 'z'), "
                 "(4, '__HIVE_DEFAULT_PARTITION__', 'w'), (5, NULL, 'v'), (6, 'a/b', 'u'), (7, "
                 "'*?[]', 't'), "
                 "(8, ' spaced ', 's'), (9, 'é', 'r')"),
            "");
  ASSERT_EQ(Export(Path("o"), "SELECT * FROM src", "partition_by=k"), "9");
  ASSERT_EQ(Exec("CREATE VIRTUAL TABLE o USING parquet('" + Path("o/*/*.parquet") +
                 "', hive_partitioning=1)"),
            "");
  ExpectSameRows("SELECT id, k, t FROM {T} ORDER BY id", "o", "src");
  EXPECT_EQ(One("SELECT group_concat(id) FROM o WHERE k = 'a/b'"), "1,6");
  EXPECT_EQ(One("SELECT count(DISTINCT filename) FROM o"), "8");

  // Numbers: integers and reals read back as such.
  ASSERT_EQ(Export(Path("n"),
                   "SELECT value AS id, value % 4 - 1 AS i, (value % 3) / 2.0 AS r FROM nums WHERE "
                   "value <= 24",
                   "partition_by=''i, r''"),
            "24");
  ASSERT_EQ(Exec("CREATE VIRTUAL TABLE n USING parquet('" + Path("n/**/*.parquet") +
                 "', hive_partitioning=1)"),
            "");
  ASSERT_EQ(Exec("CREATE TABLE nn(id INTEGER, i INTEGER, r REAL)"), "");
  ASSERT_EQ(Exec("INSERT INTO nn SELECT value, value % 4 - 1, (value % 3) / 2.0 FROM nums WHERE "
                 "value <= 24"),
            "");
  ExpectSameRows("SELECT id, i, typeof(i), r, typeof(r) FROM {T} ORDER BY id", "n", "nn");
  EXPECT_TRUE(fs::exists(Path("n/i=-1/r=0.0/data_0.parquet")));
  EXPECT_TRUE(fs::exists(Path("n/i=2/r=0.5/data_0.parquet")));

  // An existing empty folder is fine.
  fs::create_directories(Path("empty"));
  ASSERT_EQ(Export(Path("empty"), "SELECT 1 AS a, 2 AS b", "partition_by=a"), "1");
  EXPECT_TRUE(fs::exists(Path("empty/a=1/data_0.parquet")));
}

TEST_F(DatasetTest, PartitionByBoundsOpenFiles) {
  // 100 partitions, rows interleaved: files are finished and new ones started, at most 64 open (a
  // partition whose file was finished gets a new one each time its rows come back).
  ASSERT_EQ(
      Export(Path("many"), "SELECT value AS id, value % 100 AS p FROM nums WHERE value <= 250",
             "partition_by=p"),
      "250");
  EXPECT_TRUE(fs::exists(Path("many/p=0/data_1.parquet")));
  EXPECT_GT(CountFiles(Path("many")), 100u);
  ASSERT_EQ(Exec("CREATE VIRTUAL TABLE many USING parquet('" + Path("many/*/*.parquet") +
                 "', hive_partitioning=1)"),
            "");
  EXPECT_EQ(One("SELECT count(*) || ',' || sum(id) || ',' || sum(p = id % 100) FROM many"),
            "250,31375,250");
  EXPECT_EQ(One("SELECT count(*) FROM many WHERE p = 42"), "3");
  EXPECT_EQ(Listing(Path("many/p=42")),
            (std::set<std::string>{"data_0.parquet", "data_1.parquet", "data_2.parquet"}));
  EXPECT_EQ(Stat("many", "files_considered") - Stat("many", "files_skipped"),
            static_cast<int64_t>(Listing(Path("many/p=42")).size()));
}

TEST_F(DatasetTest, PartitionByFailuresLeaveNothing) {
  // A name the query does not have.
  QueryResult r =
      Q("SELECT parquet_export('" + Path("x") + "', 'SELECT 1 AS a, 2 AS b', 'partition_by=nope')");
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.error.find("option 'partition_by': the query has no column named 'nope'"),
            std::string::npos)
      << r.error;
  r = Q("SELECT parquet_export('" + Path("x") +
        "', 'SELECT 1 AS a, 2 AS b', 'partition_by=''a,b''')");
  EXPECT_NE(r.error.find("every column is a partition column"), std::string::npos) << r.error;
  r = Q("SELECT parquet_export('" + Path("x") +
        "', 'SELECT 1 AS a, 2 AS b', 'partition_by=a, partition_by=b')");
  EXPECT_NE(r.error.find("given more than once"), std::string::npos) << r.error;
  r = Q("SELECT parquet_export('" + Path("x") + "', 'SELECT 1 AS a, 2 AS b', 'partition_by=a,a')");
  EXPECT_NE(r.error.find("column 'a' is given twice"), std::string::npos) << r.error;
  r = Q("SELECT parquet_export('" + Path("x") +
        "', 'SELECT x''00'' AS a, 2 AS b', 'partition_by=a')");
  EXPECT_NE(r.error.find("row 1, partition column 'a': a partition value cannot be a BLOB"),
            std::string::npos)
      << r.error;
  r = Q("SELECT parquet_export('" + Path("x") +
        "', 'SELECT 1 AS a, 2 AS b', 'partition_by=a, bloom_filter=a')");
  EXPECT_NE(r.error.find("option 'bloom_filter': no column named 'a'"), std::string::npos)
      << r.error;
  EXPECT_TRUE(Listing(dir_).empty());

  // The path exists and is not empty: refused, its contents untouched.
  fs::create_directories(Path("full"));
  std::ofstream(Path("full/keep.txt")) << "keep";
  r = Q("SELECT parquet_export('" + Path("full") + "', 'SELECT 1 AS a, 2 AS b', 'partition_by=a')");
  EXPECT_NE(r.error.find("'" + Path("full") + "' exists and is not empty"), std::string::npos)
      << r.error;
  EXPECT_EQ(Listing(Path("full")), std::set<std::string>{"keep.txt"});
  std::ofstream(Path("file")) << "a file";
  r = Q("SELECT parquet_export('" + Path("file") + "', 'SELECT 1 AS a, 2 AS b', 'partition_by=a')");
  EXPECT_NE(r.error.find("exists and is not a folder"), std::string::npos) << r.error;

  // A query failing after many rows in many partitions (files finished and started): nothing left.
  r = Q("SELECT parquet_export('" + Path("mid") +
        "', 'SELECT value / 300 AS p, CASE WHEN value = 25000 THEN json(''bad'') ELSE value END AS "
        "v FROM nums', "
        "'partition_by=p, row_group_size=100')");
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.error.find("the query failed: malformed JSON"), std::string::npos) << r.error;
  // A value that does not fit its column, in one partition.
  r = Q("SELECT parquet_export('" + Path("mid") +
        "', 'SELECT value % 7 AS p, CASE WHEN value = 9000 THEN ''x'' ELSE value END AS v FROM "
        "nums', "
        "'partition_by=p')");
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.error.find("p=5/data_0.parquet': row 1286, column 'v'"), std::string::npos)
      << r.error;
  // Mixed kinds in a column whose type is inferred (first batch, all partitions).
  r = Q("SELECT parquet_export('" + Path("mid") +
        "', 'SELECT value % 3 AS p, CASE WHEN value = 50 THEN ''x'' ELSE value END AS v FROM "
        "nums', 'partition_by=p')");
  EXPECT_NE(r.error.find("row 50, column 'v': text 'x' after values of another kind"),
            std::string::npos)
      << r.error;
  EXPECT_EQ(Listing(dir_), (std::set<std::string>{"file", "full"}));
}

// A table whose hidden columns (filename, file_row_number) would take it past SQLite's limit of
// columns leaves them out rather than not opening (a file of 1,999 or 2,000 columns under the
// default limit of 2,000); the visible columns, partition keys included, read and filter as before.
// More visible columns than the limit is an error that says so. The limit is lowered here to keep
// the files small.
TEST_F(DatasetTest, HiddenColumnsStepOutOfATableTheyWouldTakePastSQLitesLimit) {
  std::string select = "SELECT value AS c0";
  for (int i = 1; i < 12; ++i) select += ", value + " + std::to_string(i) + " AS c" + std::to_string(i);
  fs::create_directories(Path("hive/k=7"));
  ASSERT_EQ(db_.Exec("SELECT parquet_export('" + Path("hive/k=7/a.parquet") + "', '" + select +
                     " FROM nums WHERE value <= 100')"),
            "");
  const std::string file = Path("hive/k=7/a.parquet");
  auto open = [&](const std::string& name, const std::string& args) {
    return db_.Exec("CREATE VIRTUAL TABLE temp." + name + " USING parquet(" + args + ")");
  };
  sqlite3_limit(db_.db(), SQLITE_LIMIT_COLUMN, 14);  // 12 columns and the two hidden ones fit
  ASSERT_EQ(open("fits", "'" + file + "'"), "");
  EXPECT_EQ(One("SELECT count(*) FROM fits WHERE filename = '" + file + "' AND file_row_number < 10"), "10");

  sqlite3_limit(db_.db(), SQLITE_LIMIT_COLUMN, 13);
  ASSERT_EQ(open("no_hidden", "'" + file + "'"), "");
  EXPECT_EQ(One("SELECT count(*) FROM pragma_table_xinfo('no_hidden')"), "12");
  EXPECT_EQ(One("SELECT count(*) || '|' || sum(c11) || '|' || max(c0) FROM no_hidden WHERE c3 > 50"),
            One("SELECT count(*) || '|' || sum(value + 11) || '|' || max(value) FROM nums WHERE value <= 100 AND "
                "value + 3 > 50"));
  EXPECT_NE(Q("SELECT filename FROM no_hidden").error.find("no such column: filename"), std::string::npos);
  EXPECT_NE(open("named", "'" + file + "', filename=fn")
                .find("the files have 12 columns: with the hidden columns filename and file_row_number the table "
                      "would have more than the 13 columns a SQLite table may have; leave out the options"),
            std::string::npos);
  // With a partition key: 13 visible columns.
  ASSERT_EQ(open("partitioned", "'" + Path("hive/*/*.parquet") + "', hive_partitioning=1"), "");
  EXPECT_EQ(One("SELECT count(*) || '|' || min(k) || '|' || max(k) || '|' || sum(c0) FROM partitioned WHERE k = 7"),
            "100|7|7|5050");

  sqlite3_limit(db_.db(), SQLITE_LIMIT_COLUMN, 11);
  EXPECT_NE(open("too_wide", "'" + file + "'")
                .find("the files have 12 columns, more than the 11 a SQLite table may have (SQLITE_MAX_COLUMN): "
                      "choose those the table has with the option columns='a, b, ...'"),
            std::string::npos);
  // columns= makes a table of some of them, hidden columns included, and it reads and filters as one
  // of all of them would.
  ASSERT_EQ(open("chosen", "'" + file + "', columns='c11, c3, C0'"), "");
  EXPECT_EQ(One("SELECT group_concat(name, ',') FROM pragma_table_xinfo('chosen')"), "c11,c3,c0,filename,file_row_number");
  EXPECT_EQ(One("SELECT count(*) || '|' || sum(c11) || '|' || max(c0) || '|' || max(file_row_number) FROM chosen "
                "WHERE c3 > 50"),
            One("SELECT count(*) || '|' || sum(value + 11) || '|' || max(value) || '|' || max(value - 1) FROM nums "
                "WHERE value <= 100 AND value + 3 > 50"));
}

// A table kept in a database file whose file is gone cannot be connected, so neither queried nor
// dropped (SQLite connects a table before dropping it): the error says so and how to drop it. A
// CREATE over a missing file fails as before, without that advice.
TEST_F(DatasetTest, ATableWhoseFileIsGoneSaysItCannotBeDroppedUntilTheFileIsBack) {
  const std::string database = Path("kept.sqlite");
  const std::string file = Path("gone.parquet");
  ASSERT_EQ(db_.Exec("SELECT parquet_export('" + file + "', 'SELECT value FROM nums WHERE value <= 3')"), "");
  ASSERT_EQ(db_.Exec("ATTACH '" + database + "' AS disk"), "");
  ASSERT_EQ(db_.Exec("CREATE VIRTUAL TABLE disk.t USING parquet('" + file + "')"), "");
  ASSERT_EQ(db_.Exec("DETACH disk"), "");
  fs::remove(file);
  const std::string advice =
      "cannot open '" + file + "': No such file or directory; the table 't' cannot be used, nor dropped, until its "
      "files open again (put a Parquet file back at the path to drop it; docs/reading.md)";
  TestDb other;
  ASSERT_EQ(other.Exec("ATTACH '" + database + "' AS disk"), "");
  EXPECT_NE(other.Exec("SELECT count(*) FROM disk.t").find(advice), std::string::npos);
  EXPECT_NE(other.Exec("DROP TABLE disk.t").find(advice), std::string::npos);
  const std::string created = other.Exec("CREATE VIRTUAL TABLE temp.n USING parquet('" + file + "')");
  EXPECT_NE(created.find("cannot open '" + file + "'"), std::string::npos) << created;
  EXPECT_EQ(created.find("cannot be used, nor dropped"), std::string::npos) << created;
  // As the advice says: a Parquet file at the path, and the table drops.
  ASSERT_EQ(other.Exec("SELECT parquet_export('" + file + "', 'SELECT 1 AS x')"), "");
  EXPECT_EQ(other.Exec("DROP TABLE disk.t"), "");
}

}  // namespace
}  // namespace pq::testing
