// parquet_export and the writable parquet table, through the built extension: what the SQL tests
// cannot see (the folder's listing, the bytes of an untouched target, the temporary while a
// transaction is open) and round trips too large to spell out in SQL.
#include <gtest/gtest.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <regex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "tests/ext/sqlite_test_util.h"

namespace pq::testing {
namespace {

namespace fs = std::filesystem;

class ExportTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(db_.load_error(), "");
    char tmpl[] = "/tmp/pq-export-test-XXXXXX";
    ASSERT_NE(::mkdtemp(tmpl), nullptr);
    dir_ = tmpl;
    // The sqlite3 library has no generate_series.
    ASSERT_EQ(
        db_.Exec(
            "CREATE TABLE nums AS WITH RECURSIVE n(value) AS (SELECT 1 UNION ALL SELECT value + 1 "
            "FROM n WHERE value < 100000) SELECT value FROM n"),
        "");
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string Path(const std::string& name) const { return dir_ + "/" + name; }

  // Names in the folder, sorted.
  std::set<std::string> Listing() const {
    std::set<std::string> names;
    for (const auto& e : fs::directory_iterator(dir_)) names.insert(e.path().filename().string());
    return names;
  }

  static std::string ReadBytes(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }

  QueryResult Q(const std::string& sql) const { return db_.Query(sql); }
  std::string One(const std::string& sql) const {
    QueryResult r = db_.Query(sql);
    EXPECT_TRUE(r.ok) << sql << ": " << r.error;
    if (!r.ok || r.rows.empty() || r.rows[0].empty()) return "<none>";
    return r.rows[0][0].value_or("NULL");
  }

  TestDb db_;
  std::string dir_;
};

TEST_F(ExportTest, FailuresLeaveNoFileAndNoTemporary) {
  const std::vector<std::string> failing = {
      // A runtime error in the query after several batches were written.
      "SELECT parquet_export('" + Path("a.parquet") +
          "', 'SELECT CASE WHEN value = 30000 THEN json(''bad'') ELSE value END AS v FROM "
          "nums WHERE value <= 40000', 'row_group_size=5000')",
      // An integer overflow.
      "SELECT parquet_export('" + Path("a.parquet") +
          "', 'SELECT CASE WHEN value = 9000 THEN abs(-9223372036854775808) ELSE value END AS v "
          "FROM "
          "nums WHERE value <= 10000')",
      // A value that does not fit, far into the rows.
      "SELECT parquet_export('" + Path("a.parquet") +
          "', 'SELECT value AS v FROM nums WHERE value <= 50000', 'schema=''v SMALLINT''')",
      // A column that was all NULL in the first batch gets a value later.
      "SELECT parquet_export('" + Path("a.parquet") +
          "', 'SELECT CASE WHEN value > 9000 THEN value END AS v FROM nums WHERE value <= 10000')",
      // A bad option.
      "SELECT parquet_export('" + Path("a.parquet") + "', 'SELECT 1 AS v', 'compression=nope')",
  };
  for (const std::string& sql : failing) {
    QueryResult r = Q(sql);
    EXPECT_FALSE(r.ok) << sql;
    EXPECT_TRUE(Listing().empty()) << sql << " left: " << *Listing().begin();
  }
  QueryResult r = Q(failing[2]);
  EXPECT_NE(r.error.find("row 32768, column 'v': integer 32768 is out of range for SMALLINT"),
            std::string::npos)
      << r.error;
  r = Q(failing[3]);
  EXPECT_NE(r.error.find("row 9001, column 'v': integer 9001 in a column that held only NULLs"),
            std::string::npos)
      << r.error;
}

TEST_F(ExportTest, FailureLeavesExistingTargetByteForByte) {
  const std::string target = Path("keep.parquet");
  ASSERT_EQ(One("SELECT parquet_export('" + target +
                "', 'SELECT value AS v FROM nums WHERE value <= 100')"),
            "100");
  const std::string before = ReadBytes(target);
  ASSERT_GT(before.size(), 8u);
  QueryResult r = Q("SELECT parquet_export('" + target +
                    "', 'SELECT CASE WHEN value = 20000 THEN json(''x'') ELSE value END AS v FROM "
                    "nums WHERE value <= 30000')");
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(ReadBytes(target), before);
  EXPECT_EQ(Listing(), std::set<std::string>{"keep.parquet"});
  // A successful export replaces it.
  ASSERT_EQ(One("SELECT parquet_export('" + target + "', 'SELECT 7 AS w')"), "1");
  EXPECT_NE(ReadBytes(target), before);
  EXPECT_EQ(Listing(), std::set<std::string>{"keep.parquet"});
}

// A target that cannot be written is an error naming it (never the temporary), given before the
// query runs: the query here would fail with "integer overflow" as soon as it ran.
TEST_F(ExportTest, UnwritableDestinations) {
  const std::string failing_query = "SELECT abs(-9223372036854775807 - 1) AS a";
  auto export_to = [&](const std::string& target) {
    return Q("SELECT parquet_export('" + target + "', '" + failing_query + "')");
  };
  std::ofstream(Path("plain-file")) << "x";
  QueryResult r = export_to(Path("plain-file/x.parquet"));
  EXPECT_NE(r.error.find("cannot write '" + Path("plain-file/x.parquet") + "': '" +
                         Path("plain-file") + "' is not a folder"),
            std::string::npos)
      << r.error;
  r = export_to(Path("missing/x.parquet"));
  EXPECT_NE(r.error.find("cannot write '" + Path("missing/x.parquet") + "': the folder '" +
                         Path("missing") + "' does not exist"),
            std::string::npos)
      << r.error;
  EXPECT_EQ(r.error.find(".tmp-"), std::string::npos) << r.error;
  fs::create_directory(Path("folder.parquet"));
  r = export_to(Path("folder.parquet"));
  EXPECT_NE(r.error.find("cannot write '" + Path("folder.parquet") + "': it is a folder"),
            std::string::npos)
      << r.error;
  ASSERT_EQ(::mkfifo(Path("fifo.parquet").c_str(), 0600), 0);
  r = export_to(Path("fifo.parquet"));
  EXPECT_NE(r.error.find("cannot write '" + Path("fifo.parquet") +
                         "': it is a FIFO (named pipe), not a regular file"),
            std::string::npos)
      << r.error;
  // The same checks when a write table is created.
  r = Q("CREATE VIRTUAL TABLE temp.w USING parquet('" + Path("folder.parquet") +
        "', schema='a INTEGER')");
  EXPECT_NE(r.error.find("cannot write '" + Path("folder.parquet") + "': it is a folder"),
            std::string::npos)
      << r.error;
  // A writable target: the query runs and its own error comes back.
  r = export_to(Path("ok.parquet"));
  EXPECT_NE(r.error.find("integer overflow"), std::string::npos) << r.error;
  EXPECT_EQ(Listing(),
            (std::set<std::string>{"fifo.parquet", "folder.parquet", "plain-file"}));
}

// A FIFO (or any other file that is not a regular file) given as a table's source is refused at
// once, naming it: opening it must not wait for a writer.
TEST_F(ExportTest, NonRegularSourcesAreRefusedAtOnce) {
  ASSERT_EQ(::mkfifo(Path("pipe.parquet").c_str(), 0600), 0);
  QueryResult r = Q("CREATE VIRTUAL TABLE temp.f USING parquet('" + Path("pipe.parquet") + "')");
  EXPECT_NE(r.error.find("'" + Path("pipe.parquet") + "' is a FIFO (named pipe), not a Parquet file"),
            std::string::npos)
      << r.error;
  r = Q("SELECT * FROM parquet_file_metadata('" + Path("pipe.parquet") + "')");
  EXPECT_NE(r.error.find("is a FIFO"), std::string::npos) << r.error;
  r = Q("CREATE VIRTUAL TABLE temp.d USING parquet('/dev/null')");
  EXPECT_NE(r.error.find("'/dev/null' is a character device, not a Parquet file"), std::string::npos)
      << r.error;
}

// Random rows of every storage class and NULLs, across batches (8192 rows) and row groups, come
// back exactly.
TEST_F(ExportTest, RandomRoundTripAcrossBatchesAndRowGroups) {
  ASSERT_EQ(
      db_.Exec("CREATE TABLE src(id INTEGER, i INTEGER, r REAL, s TEXT, b BLOB, d DECIMAL(18,3))"),
      "");
  ASSERT_EQ(
      db_.Exec("INSERT INTO src SELECT value, "
               "CASE WHEN value % 11 = 0 THEN NULL ELSE random() END, "
               "CASE WHEN value % 13 = 0 THEN NULL ELSE random() / 7.0 END, "
               "CASE WHEN value % 17 = 0 THEN NULL ELSE hex(randomblob(value % 20)) || 'é' END, "
               "CASE WHEN value % 19 = 0 THEN NULL ELSE randomblob(value % 9) END, "
               "CASE WHEN value % 23 = 0 THEN NULL ELSE (random() % 1000000000000000) / 1000.0 END "
               "FROM nums WHERE value <= 20000"),
      "");
  for (const std::string opts : {"", "row_group_size=7000, data_page_version=2, compression=zstd",
                                 "dictionary=0, page_size=1000, compression=gzip"}) {
    const std::string file = Path("rt.parquet");
    ASSERT_EQ(One("SELECT parquet_export('" + file + "', 'SELECT * FROM src', '" + opts + "')"),
              "20000")
        << opts;
    ASSERT_EQ(db_.Exec("DROP TABLE IF EXISTS r; CREATE VIRTUAL TABLE r USING parquet('" + file +
                       "', decimal=text)"),
              "");
    // Every row equal, values and storage classes (d compared as a number).
    EXPECT_EQ(
        One("SELECT count(*) FROM src JOIN r USING (id) WHERE src.i IS r.i AND src.r IS r.r AND "
            "src.s IS r.s AND src.b IS r.b AND src.d IS CAST(r.d AS REAL) AND typeof(src.i) = "
            "typeof(r.i) "
            "AND typeof(src.s) = typeof(r.s) AND typeof(src.b) = typeof(r.b)"),
        "20000")
        << opts;
    EXPECT_EQ(One("SELECT count(*) FROM r"), "20000");
  }
  EXPECT_EQ(One("SELECT num_row_groups FROM parquet_file_metadata('" + Path("rt.parquet") + "')"),
            "1");
}

TEST_F(ExportTest, FastConversionsStoreWhatTheGeneralOnesDo) {
  // ColumnBuilder::AppendFast takes REAL and INTEGER into DECIMAL(p <= 18) and
  // 'YYYY-MM-DD HH:MM:SS' into TIMESTAMP without printing or parsing; the same values spelled as
  // text go the general way. Both columns of each pair must hold the same values.
  // k is kept in a table first: random() in a subquery would be drawn again for every use.
  ASSERT_EQ(db_.Exec("CREATE TABLE ks AS SELECT value, CASE value WHEN 1 THEN 0 WHEN 2 THEN "
                     "4503599627370495 WHEN 3 THEN -4503599627370495 WHEN 4 THEN 1 WHEN 5 THEN -1 "
                     "ELSE random() % 4503599627370496 END AS k FROM nums WHERE value <= 30000"),
            "");
  ASSERT_EQ(db_.Exec("CREATE TABLE d AS SELECT value AS id, k / 100.0 AS r, "
                     "printf('%s%d.%02d', CASE WHEN k < 0 THEN '-' ELSE '' END, abs(k) / 100, "
                     "abs(k) % 100) AS rt, k / 1000 AS i, CAST(k / 1000 AS TEXT) AS it, "
                     "datetime(-62135596800 + abs(k) % 315537897600, 'unixepoch') AS ts, "
                     "replace(datetime(-62135596800 + abs(k) % 315537897600, 'unixepoch'), ' ', "
                     "'T') AS tt, "
                     "datetime(-8000000000 + abs(k) % 17000000000, 'unixepoch') AS ns, "
                     "replace(datetime(-8000000000 + abs(k) % 17000000000, 'unixepoch'), ' ', "
                     "'T') AS nt "
                     "FROM ks"),
            "");
  const std::string file = Path("fast.parquet");
  ASSERT_EQ(One("SELECT parquet_export('" + file +
                "', 'SELECT * FROM d', 'schema=''r DECIMAL(18,2), rt DECIMAL(18,2), i "
                "DECIMAL(18,2), it DECIMAL(18,2), ts TIMESTAMP, tt TIMESTAMP, ns "
                "TIMESTAMP(NANOS), nt TIMESTAMP(NANOS)''')"),
            "30000");
  ASSERT_EQ(db_.Exec("CREATE VIRTUAL TABLE f USING parquet('" + file + "', decimal=text)"), "");
  EXPECT_EQ(One("SELECT count(*) FROM f WHERE r = rt AND i = it AND ts = tt AND ns = nt"), "30000");
  EXPECT_EQ(One("SELECT count(*) FROM f JOIN d USING (id) WHERE f.rt = d.rt"), "30000");
  EXPECT_EQ(One("SELECT r FROM f WHERE id = 2"), "45035996273704.95");
  EXPECT_EQ(One("SELECT r FROM f WHERE id = 5"), "-0.01");

  // What does not fit is refused either way.
  for (const std::string bad :
       {"SELECT 0.1 + 0.2 AS x', 'schema=''x DECIMAL(12,2)''",  // 0.30000000000000004
        "SELECT 1e10 AS x', 'schema=''x DECIMAL(12,2)''",       // 11 integer digits
        "SELECT 10000000000 AS x', 'schema=''x DECIMAL(12,2)''",
        "SELECT ''2023-02-29 00:00:00'' AS x', 'schema=''x TIMESTAMP''",
        "SELECT ''2024-01-01 24:00:00'' AS x', 'schema=''x TIMESTAMP''",
        "SELECT ''2300-01-01 00:00:00'' AS x', 'schema=''x TIMESTAMP(NANOS)''"}) {
    QueryResult r = Q("SELECT parquet_export('" + Path("bad.parquet") + "', '" + bad + "')");
    EXPECT_FALSE(r.ok) << bad;
  }
  EXPECT_EQ(One("SELECT parquet_export('" + Path("ok.parquet") +
                "', 'SELECT 9999999999.99 AS x, ''2024-02-29 23:59:59'' AS t', 'schema=''x "
                "DECIMAL(12,2), t TIMESTAMP''')"),
            "1");
}

TEST_F(ExportTest, EveryCodecPageVersionAndDictionarySetting) {
  ASSERT_EQ(db_.Exec("CREATE TABLE many AS SELECT value AS id, 'name-' || (value % 37) AS name, "
                     "value * 0.5 AS "
                     "half, CASE WHEN value % 7 = 0 THEN NULL ELSE value % 5 END AS maybe, "
                     "randomblob(value % 5) AS blob FROM nums WHERE value <= 3000"),
            "");
  for (const char* codec : {"uncompressed", "snappy", "gzip", "zstd", "brotli", "lz4_raw"}) {
    for (int version : {1, 2}) {
      for (int dictionary : {0, 1}) {
        const std::string what =
            std::string(codec) + " v" + std::to_string(version) + " d" + std::to_string(dictionary);
        const std::string file = Path("c.parquet");
        ASSERT_EQ(One("SELECT parquet_export('" + file + "', 'SELECT * FROM many', 'compression=" +
                      codec + ", data_page_version=" + std::to_string(version) +
                      ", dictionary=" + std::to_string(dictionary) + ", page_size=700')"),
                  "3000")
            << what;
        ASSERT_EQ(db_.Exec("DROP TABLE IF EXISTS r; CREATE VIRTUAL TABLE r USING parquet('" + file +
                           "')"),
                  "");
        EXPECT_EQ(One("SELECT count(*) FROM many JOIN r USING (id) WHERE many.name IS r.name AND "
                      "many.half IS r.half "
                      "AND many.maybe IS r.maybe AND many.blob IS r.blob"),
                  "3000")
            << what;
        const std::string encodings =
            One("SELECT group_concat(encodings, ';') FROM parquet_metadata('" + file +
                "') WHERE path_in_schema = 'name'");
        EXPECT_EQ(encodings.find("DICTIONARY") != std::string::npos, dictionary == 1)
            << what << ": " << encodings;
      }
    }
  }
}

// While a transaction is open, the rows past the first batch live in a temporary named
// .<target>.tmp-<pid>-<hex>; ROLLBACK removes it, COMMIT renames it.
TEST_F(ExportTest, WriteTableTemporaryRollbackAndCommit) {
  ASSERT_EQ(db_.Exec("CREATE VIRTUAL TABLE out USING parquet('" + Path("out.parquet") +
                     "', schema='v INTEGER')"),
            "");
  ASSERT_EQ(db_.Exec("BEGIN; INSERT INTO out SELECT value FROM nums WHERE value <= 20000;"), "");
  std::set<std::string> names = Listing();
  ASSERT_EQ(names.size(), 1u);
  const std::regex temp_name("\\.out\\.parquet\\.tmp-" + std::to_string(::getpid()) +
                             "-[0-9a-f]{16}");
  EXPECT_TRUE(std::regex_match(*names.begin(), temp_name)) << *names.begin();
  ASSERT_EQ(db_.Exec("ROLLBACK"), "");
  EXPECT_TRUE(Listing().empty());

  ASSERT_EQ(db_.Exec("BEGIN; INSERT INTO out SELECT value FROM nums WHERE value <= 20000; "
                     "INSERT INTO out VALUES (NULL); COMMIT;"),
            "");
  EXPECT_EQ(Listing(), std::set<std::string>{"out.parquet"});
  ASSERT_EQ(db_.Exec("CREATE VIRTUAL TABLE r USING parquet('" + Path("out.parquet") + "')"), "");
  EXPECT_EQ(One("SELECT count(*) || ' ' || count(v) || ' ' || sum(v) FROM r"),
            "20001 20000 200010000");
}

// A COMMIT that fails with SQLITE_BUSY (another connection reading the database) leaves the
// transaction open, and COMMIT may be tried again: the write table's file, finished by the first
// try, is put in place by the second, with the native rows of the same transaction.
TEST_F(ExportTest, WriteTableCommitRetriedAfterBusy) {
  const std::string database = Path("db.sqlite");
  TestDb a;
  TestDb b;
  ASSERT_EQ(a.load_error(), "");
  ASSERT_EQ(a.Exec("ATTACH '" + database + "' AS disk; CREATE TABLE disk.n(v INTEGER);"), "");
  ASSERT_EQ(a.Exec("CREATE VIRTUAL TABLE temp.w USING parquet('" + Path("w.parquet") + "', schema='v INTEGER')"), "");
  ASSERT_EQ(b.Exec("ATTACH '" + database + "' AS disk"), "");
  ASSERT_EQ(a.Exec("BEGIN; INSERT INTO disk.n VALUES (1); INSERT INTO w VALUES (1), (2);"), "");
  // b holds a read transaction: a's COMMIT cannot take the exclusive lock.
  sqlite3_stmt* reading = nullptr;
  ASSERT_EQ(sqlite3_prepare_v2(b.db(), "SELECT count(*) FROM disk.n", -1, &reading, nullptr), SQLITE_OK);
  ASSERT_EQ(sqlite3_step(reading), SQLITE_ROW);
  EXPECT_NE(a.Exec("COMMIT"), "");
  EXPECT_EQ(sqlite3_get_autocommit(a.db()), 0) << "the transaction is still open";
  sqlite3_finalize(reading);
  ASSERT_EQ(a.Exec("COMMIT"), "");
  ASSERT_EQ(a.Exec("CREATE VIRTUAL TABLE temp.r USING parquet('" + Path("w.parquet") + "')"), "");
  EXPECT_EQ(a.Query("SELECT group_concat(v) FROM r").rows, (std::vector<SqlRow>{{"1,2"}}));
  EXPECT_EQ(b.Query("SELECT count(*) FROM disk.n").rows, (std::vector<SqlRow>{{"1"}}));
  std::set<std::string> names = Listing();
  EXPECT_EQ(names, (std::set<std::string>{"db.sqlite", "w.parquet"}));
}

// After a COMMIT that failed with SQLITE_BUSY (the write table's file already finished by xSync),
// the transaction is still open. Savepoints and statements that take no rows of the write table
// back go on working (a multi-row INSERT into a native table opens a statement savepoint); a
// ROLLBACK TO that would take rows of the write table back cannot take them out of the finished file,
// so it fails and the transaction cannot commit, rather than committing the file with rows the
// native tables rolled back.
TEST_F(ExportTest, WriteTableSavepointsAfterCommitFailedWithBusy) {
  const std::string database = Path("db.sqlite");
  TestDb a;
  TestDb b;
  ASSERT_EQ(a.load_error(), "");
  ASSERT_EQ(a.Exec("ATTACH '" + database + "' AS disk; CREATE TABLE disk.n(v INTEGER);"), "");
  ASSERT_EQ(a.Exec("CREATE VIRTUAL TABLE temp.w USING parquet('" + Path("w.parquet") +
                   "', schema='v INTEGER'); CREATE VIRTUAL TABLE temp.w2 USING parquet('" +
                   Path("w2.parquet") + "', schema='v INTEGER')"),
            "");
  ASSERT_EQ(b.Exec("ATTACH '" + database + "' AS disk"), "");
  sqlite3_stmt* reading = nullptr;

  // Nothing of the write table is taken back: the transaction commits at the second try.
  ASSERT_EQ(a.Exec("BEGIN; INSERT INTO disk.n VALUES (1); INSERT INTO w VALUES (1); SAVEPOINT s; "
                   "INSERT INTO w VALUES (2);"),
            "");
  ASSERT_EQ(sqlite3_prepare_v2(b.db(), "SELECT count(*) FROM disk.n", -1, &reading, nullptr), SQLITE_OK);
  ASSERT_EQ(sqlite3_step(reading), SQLITE_ROW);
  EXPECT_NE(a.Exec("COMMIT"), "");
  EXPECT_EQ(sqlite3_get_autocommit(a.db()), 0) << "the transaction is still open";
  EXPECT_EQ(a.Exec("INSERT INTO disk.n SELECT 10 UNION ALL SELECT 11"), "");
  EXPECT_EQ(a.Exec("SAVEPOINT t; INSERT INTO disk.n SELECT 20 UNION ALL SELECT 21; ROLLBACK TO t; RELEASE t"), "");
  const std::string refused = a.Exec("INSERT INTO w VALUES (3)");
  EXPECT_NE(refused.find("no more rows can be inserted"), std::string::npos) << refused;
  sqlite3_reset(reading);
  ASSERT_EQ(a.Exec("COMMIT"), "");
  ASSERT_EQ(a.Exec("CREATE VIRTUAL TABLE temp.r USING parquet('" + Path("w.parquet") + "')"), "");
  EXPECT_EQ(a.Query("SELECT group_concat(v) FROM r").rows, (std::vector<SqlRow>{{"1,2"}}));
  EXPECT_EQ(a.Query("SELECT group_concat(v) FROM disk.n").rows, (std::vector<SqlRow>{{"1,10,11"}}));

  // ROLLBACK TO a savepoint with rows of the write table after it: refused, and COMMIT fails.
  ASSERT_EQ(a.Exec("BEGIN; INSERT INTO disk.n VALUES (2); INSERT INTO w2 VALUES (1); SAVEPOINT s; "
                   "INSERT INTO w2 VALUES (2); INSERT INTO disk.n VALUES (3);"),
            "");
  ASSERT_EQ(sqlite3_step(reading), SQLITE_ROW);
  EXPECT_NE(a.Exec("COMMIT"), "");
  EXPECT_NE(a.Exec("ROLLBACK TO s"), "");
  sqlite3_finalize(reading);
  const std::string failed = a.Exec("COMMIT");
  EXPECT_NE(failed.find("ROLLBACK TO cannot take rows back"), std::string::npos) << failed;
  EXPECT_EQ(sqlite3_get_autocommit(a.db()), 1);
  EXPECT_FALSE(fs::exists(Path("w2.parquet")));
  EXPECT_EQ(a.Query("SELECT group_concat(v) FROM disk.n").rows, (std::vector<SqlRow>{{"1,10,11"}}));
  EXPECT_EQ(Listing(), (std::set<std::string>{"db.sqlite", "w.parquet"}));
}

// A transaction whose INSERTs into the table all failed or were taken back leaves the target as it
// was, as a native table is left unchanged; one whose INSERT succeeded without rows writes an empty file.
TEST_F(ExportTest, AWriteTableWhoseRowsAllFailedWritesNothing) {
  const std::string target = Path("keep.parquet");
  ASSERT_EQ(db_.Exec("CREATE VIRTUAL TABLE temp.first USING parquet('" + target +
                     "', schema='v SMALLINT'); INSERT INTO first VALUES (1), (2)"),
            "");
  const std::string before = ReadBytes(target);
  ASSERT_FALSE(before.empty());
  ASSERT_EQ(db_.Exec("CREATE VIRTUAL TABLE temp.w USING parquet('" + target + "', schema='v SMALLINT')"), "");
  // A refused row, in a transaction that goes on and commits.
  ASSERT_EQ(db_.Exec("BEGIN"), "");
  EXPECT_NE(db_.Exec("INSERT INTO w VALUES (99999)"), "");
  ASSERT_EQ(db_.Exec("COMMIT"), "");
  EXPECT_EQ(ReadBytes(target), before);
  // Rows taken back by ROLLBACK TO.
  ASSERT_EQ(db_.Exec("BEGIN; SAVEPOINT s; INSERT INTO w VALUES (5), (6); ROLLBACK TO s; RELEASE s; COMMIT"), "");
  EXPECT_EQ(ReadBytes(target), before);
  // A multi-row INSERT failing part-way, its rows taken back with the statement.
  ASSERT_EQ(db_.Exec("BEGIN"), "");
  EXPECT_NE(db_.Exec("INSERT INTO w VALUES (5), (99999)"), "");
  ASSERT_EQ(db_.Exec("COMMIT"), "");
  EXPECT_EQ(ReadBytes(target), before);
  EXPECT_EQ(Listing(), (std::set<std::string>{"keep.parquet"})) << "no temporary left";
  // The table was not used up: it writes its file in a later transaction.
  ASSERT_EQ(db_.Exec("INSERT INTO w VALUES (7)"), "");
  ASSERT_EQ(db_.Exec("CREATE VIRTUAL TABLE temp.r USING parquet('" + target + "')"), "");
  EXPECT_EQ(db_.Query("SELECT group_concat(v) FROM r").rows, (std::vector<SqlRow>{{"7"}}));
  // An INSERT that succeeds without rows writes a file with no rows, even after a failed one.
  ASSERT_EQ(db_.Exec("CREATE VIRTUAL TABLE temp.e USING parquet('" + Path("empty.parquet") +
                     "', schema='v SMALLINT'); INSERT INTO e SELECT 1 WHERE 0"),
            "");
  ASSERT_EQ(db_.Exec("CREATE VIRTUAL TABLE temp.er USING parquet('" + Path("empty.parquet") + "')"), "");
  EXPECT_EQ(db_.Query("SELECT count(*) FROM er").rows, (std::vector<SqlRow>{{"0"}}));
}

// SQLite connects a table again, as a new object, after a schema change; the table that wrote its
// file must still refuse a later INSERT (which would replace the file with only the new rows).
TEST_F(ExportTest, AWriteTableConnectedAgainStillKnowsItWroteItsFile) {
  const std::string database = Path("db.sqlite");
  TestDb a;
  TestDb b;
  ASSERT_EQ(a.load_error(), "");
  ASSERT_EQ(a.Exec("ATTACH '" + database + "' AS disk"), "");
  ASSERT_EQ(b.Exec("ATTACH '" + database + "' AS disk"), "");
  auto rows_of = [&](const std::string& file) {
    const std::string name = "r" + std::to_string(std::hash<std::string>()(file) % 100000);
    EXPECT_EQ(a.Exec("DROP TABLE IF EXISTS temp." + name + "; CREATE VIRTUAL TABLE temp." + name +
                     " USING parquet('" + Path(file) + "')"),
              "");
    return a.Query("SELECT group_concat(v) FROM " + name).rows;
  };
  // `insert` is refused and `file` still holds the rows 1, 2, 3 written first.
  auto still_written = [&](const std::string& insert, const std::string& file) {
    const std::string e = a.Exec(insert);
    EXPECT_NE(e.find("was already written by an earlier transaction"), std::string::npos) << insert << ": " << e;
    EXPECT_EQ(rows_of(file), (std::vector<SqlRow>{{"1,2,3"}})) << insert;
  };
  // A DDL statement rolled back resets the schema: every table of it is connected again.
  ASSERT_EQ(a.Exec("CREATE VIRTUAL TABLE temp.w USING parquet('" + Path("w.parquet") +
                   "', schema='v INTEGER'); INSERT INTO w VALUES (1), (2), (3)"),
            "");
  ASSERT_EQ(a.Exec("BEGIN; CREATE TABLE temp.unrelated(x); ROLLBACK"), "");
  still_written("INSERT INTO w VALUES (5)", "w.parquet");
  // A table in a database file another connection changes the schema of.
  ASSERT_EQ(a.Exec("CREATE VIRTUAL TABLE disk.d USING parquet('" + Path("d.parquet") +
                   "', schema='v INTEGER'); INSERT INTO d VALUES (1), (2), (3)"),
            "");
  ASSERT_EQ(b.Exec("CREATE TABLE disk.other(x)"), "");
  still_written("INSERT INTO disk.d VALUES (5)", "d.parquet");
  // Renamed: connected again under its new name.
  ASSERT_EQ(a.Exec("ALTER TABLE w RENAME TO w_renamed"), "");
  still_written("INSERT INTO w_renamed VALUES (5)", "w.parquet");
  // A DROP TABLE rolled back brings the table back.
  ASSERT_EQ(a.Exec("BEGIN; DROP TABLE w_renamed; ROLLBACK"), "");
  still_written("INSERT INTO w_renamed VALUES (5)", "w.parquet");
  // Dropped for good, a table created again under the name writes the file anew.
  ASSERT_EQ(a.Exec("DROP TABLE w_renamed; CREATE VIRTUAL TABLE temp.w_renamed USING parquet('" + Path("w.parquet") +
                   "', schema='v INTEGER'); INSERT INTO w_renamed VALUES (7)"),
            "");
  EXPECT_EQ(rows_of("w.parquet"), (std::vector<SqlRow>{{"7"}}));
  // Another table over the same file was never written: it writes.
  ASSERT_EQ(a.Exec("CREATE VIRTUAL TABLE temp.w2 USING parquet('" + Path("w.parquet") +
                   "', schema='v INTEGER'); INSERT INTO w2 VALUES (8)"),
            "");
  EXPECT_EQ(rows_of("w.parquet"), (std::vector<SqlRow>{{"8"}}));
}

// A write table of a database file opened again (by a new connection: a later session, another
// program) cannot know whether it wrote its file in an earlier session: it refuses to replace a file
// that exists. A table created in this connection replaces only the file it found at CREATE, not one
// another connection or program wrote since. DROP TABLE and CREATE again writes anew.
TEST_F(ExportTest, AWriteTableOfADatabaseOpenedAgainDoesNotReplaceAFileItMayHaveWritten) {
  const std::string database = Path("db.sqlite");
  auto open = [&database]() {
    auto db = std::make_unique<TestDb>();
    EXPECT_EQ(db->load_error(), "");
    EXPECT_EQ(db->Exec("ATTACH '" + database + "' AS disk"), "");
    return db;
  };
  auto rows_of = [&](const std::string& file) {
    TestDb reader;
    EXPECT_EQ(reader.Exec("CREATE VIRTUAL TABLE temp.r USING parquet('" + Path(file) + "')"), "");
    return reader.Query("SELECT group_concat(v) FROM r").rows;
  };
  auto create = [&](const std::string& table, const std::string& file) {
    return "CREATE VIRTUAL TABLE disk." + table + " USING parquet('" + Path(file) + "', schema='v INTEGER')";
  };
  const std::string kEarlier = "exists and this table was created by an earlier connection to the database, which "
                               "may have written it: Parquet files cannot be appended to";
  const std::string kChanged = "changed after this table was created (something else wrote it: parquet_export, "
                               "another connection or a program)";

  // Written in one session; the next refuses, also in a transaction whose native rows commit.
  {
    auto a = open();
    ASSERT_EQ(a->Exec(create("w", "w.parquet") + "; INSERT INTO disk.w VALUES (1), (2), (3)"), "");
    ASSERT_EQ(a->Exec("CREATE TABLE disk.n(x)"), "");
  }
  {
    auto b = open();
    std::string e = b->Exec("INSERT INTO disk.w VALUES (5)");
    EXPECT_NE(e.find("'" + Path("w.parquet") + "' " + kEarlier), std::string::npos) << e;
    ASSERT_EQ(b->Exec("BEGIN; INSERT INTO disk.n VALUES (1)"), "");
    e = b->Exec("INSERT INTO disk.w VALUES (6)");
    EXPECT_NE(e.find(kEarlier), std::string::npos) << e;
    ASSERT_EQ(b->Exec("COMMIT"), "");
    EXPECT_EQ(b->Query("SELECT count(*) FROM disk.n").rows, (std::vector<SqlRow>{{"1"}}));
    EXPECT_EQ(rows_of("w.parquet"), (std::vector<SqlRow>{{"1,2,3"}}));
    // Dropped and created again: it writes the file anew, and then knows it did.
    ASSERT_EQ(b->Exec("DROP TABLE disk.w; " + create("w", "w.parquet") + "; INSERT INTO disk.w VALUES (7)"), "");
    EXPECT_EQ(rows_of("w.parquet"), (std::vector<SqlRow>{{"7"}}));
    e = b->Exec("INSERT INTO disk.w VALUES (8)");
    EXPECT_NE(e.find("was already written by an earlier transaction"), std::string::npos) << e;
  }
  {
    auto c = open();
    EXPECT_NE(c->Exec("INSERT INTO disk.w VALUES (9)").find(kEarlier), std::string::npos);
    EXPECT_EQ(rows_of("w.parquet"), (std::vector<SqlRow>{{"7"}}));
  }

  // Created in one session without writing, its target absent: the next session writes it, the one
  // after refuses.
  { ASSERT_EQ(open()->Exec(create("later", "later.parquet")), ""); }
  { ASSERT_EQ(open()->Exec("INSERT INTO disk.later VALUES (1)"), ""); }
  EXPECT_EQ(rows_of("later.parquet"), (std::vector<SqlRow>{{"1"}}));
  { EXPECT_NE(open()->Exec("INSERT INTO disk.later VALUES (2)").find(kEarlier), std::string::npos); }
  EXPECT_EQ(rows_of("later.parquet"), (std::vector<SqlRow>{{"1"}}));

  // Two connections at once: the one that created the table does not replace the file the other wrote.
  {
    auto a = open();
    auto b = open();
    ASSERT_EQ(a->Exec(create("both", "both.parquet")), "");
    ASSERT_EQ(b->Exec("INSERT INTO disk.both VALUES (1)"), "");
    const std::string e = a->Exec("INSERT INTO disk.both VALUES (2)");
    EXPECT_NE(e.find("'" + Path("both.parquet") + "' " + kChanged), std::string::npos) << e;
    EXPECT_EQ(rows_of("both.parquet"), (std::vector<SqlRow>{{"1"}}));
  }

  // Another program writes the target while the transaction is open: COMMIT fails and rolls back.
  {
    auto a = open();
    ASSERT_EQ(a->Exec(create("racing", "racing.parquet")), "");
    ASSERT_EQ(a->Exec("BEGIN; INSERT INTO disk.n VALUES (2); INSERT INTO disk.racing VALUES (1)"), "");
    std::ofstream(Path("racing.parquet")) << "someone else's";
    const std::string e = a->Exec("COMMIT");
    EXPECT_NE(e.find(kChanged), std::string::npos) << e;
    EXPECT_EQ(sqlite3_get_autocommit(a->db()), 1);
    EXPECT_EQ(a->Query("SELECT count(*) FROM disk.n").rows, (std::vector<SqlRow>{{"1"}}));
    EXPECT_EQ(ReadBytes(Path("racing.parquet")), "someone else's");
  }

  // A table created in this connection over an existing file replaces it, however the CREATE is
  // spelled (the module tells CREATE from a connection by the statement running it), and after a
  // rename.
  ASSERT_EQ(db_.Exec("SELECT parquet_export('" + Path("old.parquet") + "', 'SELECT 0 AS v')"), "");
  ASSERT_EQ(db_.Exec("ATTACH '" + database + "' AS disk"), "");
  const std::vector<std::string> spellings = {
      "-- a comment\n /* and another */ create   virtual\ttable disk.s1 USING parquet('" + Path("old.parquet") +
          "', schema='v INTEGER')",
      "CREATE VIRTUAL TABLE IF NOT EXISTS \"disk\".[s2] USING parquet('" + Path("old.parquet") +
          "', schema='v INTEGER')",
      "CREATE VIRTUAL TABLE disk.\"S \"\"3\"\"\" USING parquet('" + Path("old.parquet") + "', schema='v INTEGER')",
      "CREATE VIRTUAL TABLE temp.`s4` USING parquet('" + Path("old.parquet") + "', schema='v INTEGER')",
  };
  const std::vector<std::string> names = {"disk.s1", "disk.s2", "disk.\"s \"\"3\"\"\"", "temp.s4"};
  for (size_t i = 0; i < spellings.size(); ++i) {
    SCOPED_TRACE(spellings[i]);
    ASSERT_EQ(db_.Exec("SELECT parquet_export('" + Path("old.parquet") + "', 'SELECT 0 AS v')"), "");
    ASSERT_EQ(db_.Exec(spellings[i]), "");
    ASSERT_EQ(db_.Exec("ALTER TABLE " + names[i] + " RENAME TO renamed" + std::to_string(i)), "");
    ASSERT_EQ(db_.Exec("INSERT INTO renamed" + std::to_string(i) + " VALUES (" + std::to_string(i + 1) + ")"), "");
    EXPECT_EQ(rows_of("old.parquet"), (std::vector<SqlRow>{{std::to_string(i + 1)}}));
  }
}

// The rename at COMMIT fails although xSync found the target writable: a folder takes the file's
// name in between (from the commit hook, which SQLite calls after xSync and before xCommit). The
// database has committed and SQLite ignores xCommit's error, so: the native rows stay committed, the
// temporary is removed and the folder left as it was, the table's next statement fails with what
// happened (once), and the table then writes its file.
TEST_F(ExportTest, WriteTableCommitThatCannotPutTheFileInPlace) {
  const std::string target = Path("w.parquet");
  ASSERT_EQ(db_.Exec("CREATE VIRTUAL TABLE temp.w USING parquet('" + target +
                     "', schema='v INTEGER'); CREATE TEMP TABLE n(v INTEGER);"),
            "");
  struct Blocker {
    std::string target;
    int calls = 0;
  } blocker{target};
  sqlite3_commit_hook(
      db_.db(),
      [](void* arg) -> int {
        auto* b = static_cast<Blocker*>(arg);
        ++b->calls;
        fs::create_directory(b->target);
        std::ofstream(b->target + "/inside") << "x";
        return 0;
      },
      &blocker);
  ASSERT_EQ(db_.Exec("BEGIN; INSERT INTO n VALUES (1); "
                     "INSERT INTO w SELECT value FROM nums WHERE value <= 20000; COMMIT;"),
            "");
  sqlite3_commit_hook(db_.db(), nullptr, nullptr);
  EXPECT_EQ(blocker.calls, 1);
  EXPECT_EQ(sqlite3_get_autocommit(db_.db()), 1);
  EXPECT_EQ(One("SELECT count(*) FROM n"), "1");
  EXPECT_EQ(Listing(), std::set<std::string>{"w.parquet"}) << "no temporary is left";
  EXPECT_TRUE(fs::is_directory(target));
  EXPECT_EQ(ReadBytes(target + "/inside"), "x");

  QueryResult r = Q("INSERT INTO w VALUES (7)");
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.error.find("the last COMMIT that wrote rows to this table could not put '" + target +
                         "' in place (cannot rename the finished file to '" + target + "': "),
            std::string::npos)
      << r.error;
  EXPECT_NE(r.error.find("those rows are not in it"), std::string::npos) << r.error;

  // Reported once: with the folder gone, the table writes its file.
  fs::remove_all(target);
  ASSERT_EQ(db_.Exec("INSERT INTO w VALUES (7), (8)"), "");
  EXPECT_EQ(Listing(), std::set<std::string>{"w.parquet"});
  ASSERT_EQ(db_.Exec("CREATE VIRTUAL TABLE temp.r USING parquet('" + target + "')"), "");
  EXPECT_EQ(One("SELECT count(*) || ' ' || sum(v) FROM r"), "2 15");
}

// A statement that fails after many of its rows went to the temporary file (several row groups)
// takes them all back; the transaction commits the rows of the statements that succeeded. The
// temporary grows while the statement runs: its rows are not held in memory.
TEST_F(ExportTest, WriteTableFailedLargeStatementInTransactionIsTakenBack) {
  for (const std::string threads : {"1", "4"}) {
    SCOPED_TRACE("threads=" + threads);
    fs::remove_all(dir_);
    fs::create_directory(dir_);
    ASSERT_EQ(db_.Exec("CREATE VIRTUAL TABLE temp.out USING parquet('" + Path("out.parquet") +
                       "', schema='v SMALLINT, pad TEXT', row_group_size=5000, threads=" +
                       threads + ")"),
              "");
    ASSERT_EQ(db_.Exec("BEGIN"), "");
    ASSERT_EQ(db_.Exec("INSERT INTO out SELECT value, 'first' FROM nums WHERE value <= 7000"), "");
    std::string err = db_.Exec(
        "INSERT INTO out SELECT value, printf('%.200c', 'x') FROM nums WHERE value <= 40000");
    EXPECT_NE(err.find("row 39768, column 'v': integer 32768 is out of range for SMALLINT"),
              std::string::npos)
        << err;
    ASSERT_EQ(Listing().size(), 1u);
    ASSERT_EQ(db_.Exec("INSERT INTO out VALUES (-1, 'last')"), "");
    ASSERT_EQ(db_.Exec("COMMIT"), "");
    EXPECT_EQ(Listing(), std::set<std::string>{"out.parquet"});
    ASSERT_EQ(db_.Exec("CREATE VIRTUAL TABLE temp.r USING parquet('" + Path("out.parquet") + "')"),
              "");
    EXPECT_EQ(One("SELECT count(*) || ' ' || sum(v) || ' ' || count(DISTINCT pad) FROM r"),
              "7001 24503499 2");
    EXPECT_EQ(One("SELECT group_concat(v) FROM (SELECT v FROM r WHERE rowid IN (0, 6999, 7000))"),
              "1,7000,-1");
    // The row groups end where they would without the failed statement, but for the boundary
    // the statement's savepoint became: 5000 + 2000, then the last row.
    EXPECT_EQ(One("SELECT group_concat(row_group_num_rows) FROM (SELECT DISTINCT row_group_id, "
                  "row_group_num_rows FROM parquet_metadata('" +
                  Path("out.parquet") + "'))"),
              "5000,2000,1");
    ASSERT_EQ(db_.Exec("DROP TABLE temp.r; DROP TABLE temp.out"), "");
  }
}

// A write table takes every type parquet_export takes, with the same spellings, at the top level
// and as a LIST element: both write the same Parquet schema and read back the same value.
TEST_F(ExportTest, WriteTableTakesEveryTypeOfExport) {
  struct Case {
    const char* type;
    const char* value;  // an SQL literal that fits it
  };
  const std::vector<Case> cases = {
      {"BOOLEAN", "1"}, {"BOOL", "0"}, {"TINYINT", "-5"}, {"INT1", "5"}, {"SMALLINT", "300"},
      {"INT2", "-300"}, {"INT4", "70000"}, {"INT32", "-70000"}, {"MEDIUMINT", "1"},
      {"INTEGER", "9007199254740993"}, {"INT", "1"}, {"BIGINT", "-1"}, {"INT8", "2"},
      {"INT64", "3"}, {"LONG", "4"}, {"UTINYINT", "255"}, {"USMALLINT", "65535"},
      {"UINTEGER", "4294967295"}, {"UBIGINT", "'18446744073709551615'"}, {"REAL", "0.1"},
      {"DOUBLE", "1e300"}, {"DOUBLE PRECISION", "-2.5"}, {"FLOAT", "3.25"}, {"FLOAT8", "1"},
      {"FLOAT64", "2"}, {"FLOAT4", "0.5"}, {"FLOAT32", "-0.25"}, {"TEXT", "'héllo'"},
      {"VARCHAR(10)", "'v'"}, {"CHAR(3)", "'abc'"}, {"CLOB", "'c'"}, {"STRING", "'s'"},
      {"BLOB", "x'00ff'"}, {"BYTEA", "x'01'"}, {"BINARY", "x'02'"}, {"VARBINARY", "x'03'"},
      {"JSON", "'{\"a\":[1,2]}'"}, {"DATE", "'2024-02-29'"}, {"TIME", "'12:34:56.123456'"},
      {"TIME(MILLIS)", "'12:34:56.789'"}, {"TIME(MICROS)", "'00:00:01'"},
      {"TIME(NANOS)", "'23:59:59.999999999'"}, {"TIMETZ(MICROS)", "'01:02:03'"},
      {"TIMETZ", "'04:05:06'"}, {"TIME WITH TIME ZONE", "'07:08:09'"},
      {"TIMESTAMP", "'2025-01-01 05:00:00'"}, {"TIMESTAMP(MILLIS)", "'2025-01-01T05:00:00.123Z'"},
      {"TIMESTAMP(MICROS)", "'2025-01-01 05:00:00.000001'"},
      {"TIMESTAMP(NANOS)", "'1900-01-01 00:00:00.000000001'"},
      {"TIMESTAMP_NTZ(MICROS)", "'2025-01-01 05:00:00'"},
      {"TIMESTAMP WITHOUT TIME ZONE", "'2025-01-01 05:00:00'"},
      {"TIMESTAMP WITH TIME ZONE", "'2025-01-01 05:00:00+01:00'"}, {"DATETIME", "'2025-01-01'"},
      {"TIMESTAMPTZ", "1735707600000000"}, {"TIMESTAMP_MS", "'2025-01-01 05:00:00.5'"},
      {"TIMESTAMP_US", "'2025-01-01 05:00:00'"}, {"TIMESTAMP_NS", "'2025-01-01 05:00:00'"},
      {"DECIMAL(5,2)", "'123.45'"}, {"NUMERIC(18)", "123456789012345678"},
      {"DECIMAL(38,10)", "'-1234567890123456789012345678.0123456789'"},
      {"UUID", "'6BA7B810-9DAD-11D1-80B4-00C04FD430C8'"}, {"FLOAT16", "1.5"}, {"HALF", "-2"},
      {"ENUM", "'e'"}, {"INTERVAL", "'{\"months\":1,\"days\":2,\"millis\":3}'"},
      {"TIMESTAMP_NTZ", "'2025-01-01 05:00:00'"}, {"GEOMETRY", "'POINT (1 2)'"},
      {"VARIANT", "'{\"a\":1}'"}, {"LIST<INTEGER>", "'[1,null,3]'"},
      {"MAP<TEXT, TIMESTAMP>", "'{\"k\":\"2025-01-01 05:00:00\"}'"},
      {"STRUCT<a TIME(MILLIS), \"b c\" DECIMAL(3,1)>", "'{\"a\":\"01:02:03.004\",\"b c\":1.5}'"},
  };
  auto quoted = [](const std::string& text) {  // as an SQL string literal
    std::string out = "'";
    for (char c : text) out += c == '\'' ? std::string("''") : std::string(1, c);
    return out + "'";
  };
  auto schema_rows = [this](const std::string& file) {
    return Q("SELECT name, type, type_length, repetition_type, converted_type, scale, precision, "
             "logical_type FROM parquet_schema('" + file + "')").rows;
  };
  int n = 0;
  for (const Case& c : cases) {
    for (const bool in_list : {false, true}) {
      const std::string type = in_list ? "LIST<" + std::string(c.type) + ">" : c.type;
      // In a list: strings as JSON strings, numbers as JSON numbers (UBIGINT's too).
      std::string v = c.value;
      const bool text = v.front() == '\'' && std::string(c.type) != "UBIGINT";
      if (in_list && !text && v.front() == '\'') v = v.substr(1, v.size() - 2);
      const bool nested = std::string(c.type).find('<') != std::string::npos;
      const std::string value = !in_list ? v
                                : nested ? "json_array(json(" + v + "))"
                                : text   ? "json_array(" + v + ")"
                                         : "'[" + v + "]'";
      SCOPED_TRACE(type);
      const std::set<std::string> top_level_only = {"FLOAT16", "HALF", "INTERVAL", "GEOMETRY",
                                                    "VARIANT"};
      if (in_list && (std::string(c.value).rfind("x'", 0) == 0 || type.find("JSON") != std::string::npos ||
                      type.find("LIST<LIST") != std::string::npos || top_level_only.count(c.type))) {
        // BLOBs in JSON are base64 text; JSON and lists are covered at the top level; the types
        // of a column only cannot be in a list
        continue;
      }
      const std::string a = Path("export_" + std::to_string(n) + ".parquet");
      const std::string b = Path("table_" + std::to_string(n) + ".parquet");
      ++n;
      const std::string schema = "c " + type;
      QueryResult exported = Q("SELECT parquet_export('" + a + "', " +
                               quoted("SELECT " + value + " AS c") + ", " +
                               quoted("schema=" + quoted(schema)) + ")");
      ASSERT_TRUE(exported.ok) << exported.error;
      ASSERT_EQ(db_.Exec("CREATE VIRTUAL TABLE temp.w USING parquet('" + b + "', schema=" +
                         quoted(schema) + ")"),
                "");
      ASSERT_EQ(db_.Exec("INSERT INTO w VALUES (" + value + ")"), "");
      ASSERT_EQ(db_.Exec("DROP TABLE temp.w"), "");
      EXPECT_EQ(schema_rows(a), schema_rows(b));
      EXPECT_FALSE(schema_rows(a).empty());
      ASSERT_EQ(db_.Exec("CREATE VIRTUAL TABLE temp.ra USING parquet('" + a +
                         "'); CREATE VIRTUAL TABLE temp.rb USING parquet('" + b + "')"),
                "");
      EXPECT_EQ(One("SELECT quote(c) FROM ra"), One("SELECT quote(c) FROM rb"));
      EXPECT_NE(One("SELECT quote(c) FROM rb"), "NULL");
      ASSERT_EQ(db_.Exec("DROP TABLE temp.ra; DROP TABLE temp.rb"), "");
    }
  }
}

// Rows after a savepoint stream to the temporary file as usual (memory holds a row group at most),
// and ROLLBACK TO cuts the file back to where the savepoint began. threads=1: with encoding threads,
// up to `threads` batches may still wait to be encoded when the size is looked at, so how much is in
// the file then depends on timing (a sanitized build on a busy machine fell short of 5 MB).
TEST_F(ExportTest, WriteTableSavepointRowsStreamAndAreCutBack) {
  ASSERT_EQ(db_.Exec("CREATE VIRTUAL TABLE temp.out USING parquet('" + Path("out.parquet") +
                     "', schema='v INTEGER, pad TEXT', row_group_size=2000, compression=uncompressed, "
                     "threads=1)"),
            "");
  auto temporary_size = [this]() -> int64_t {
    std::set<std::string> names = Listing();
    if (names.size() != 1) return -1;
    return static_cast<int64_t>(fs::file_size(Path(*names.begin())));
  };
  ASSERT_EQ(db_.Exec("BEGIN; INSERT INTO out SELECT value, 'a' FROM nums WHERE value <= 3000"), "");
  ASSERT_EQ(db_.Exec("SAVEPOINT s"), "");
  // 30,000 rows of 200 random hex digits: 6 MB that no encoding makes small.
  ASSERT_EQ(db_.Exec("INSERT INTO out SELECT value, hex(randomblob(100)) FROM nums WHERE value <= "
                     "30000"),
            "");
  const int64_t streamed = temporary_size();
  EXPECT_GT(streamed, 5'000'000);  // in the file, not in memory
  ASSERT_EQ(db_.Exec("ROLLBACK TO s"), "");
  const int64_t cut = temporary_size();
  EXPECT_GT(cut, 0);
  EXPECT_LT(cut, 100'000);
  ASSERT_EQ(db_.Exec("INSERT INTO out VALUES (0, 'b'); RELEASE s; COMMIT"), "");
  ASSERT_EQ(db_.Exec("CREATE VIRTUAL TABLE temp.r USING parquet('" + Path("out.parquet") + "')"),
            "");
  EXPECT_EQ(One("SELECT count(*) || ' ' || sum(v) || ' ' || group_concat(DISTINCT pad) FROM r"),
            "3001 4501500 a,b");
}

TEST_F(ExportTest, LargeValuesAreFlushedByBytes) {
  // 300 rows of 100 KB: batches end by size (16 MiB), not by row count.
  const std::string file = Path("big.parquet");
  ASSERT_EQ(One("SELECT parquet_export('" + file +
                "', 'SELECT value AS id, hex(randomblob(50000)) || value AS s "
                "FROM nums WHERE value <= 300', 'row_group_bytes=1000000')"),
            "300");
  ASSERT_EQ(db_.Exec("CREATE VIRTUAL TABLE r USING parquet('" + file + "')"), "");
  EXPECT_EQ(One("SELECT count(*) || ' ' || sum(length(s)) FROM r"),
            "300 " + std::to_string(300 * 100000 + 9 + 90 * 2 + 201 * 3));
  EXPECT_GT(std::stoi(One("SELECT num_row_groups FROM parquet_file_metadata('" + file + "')")), 1);
}

// One value through one declared type: what reads back (decimal=text), or the error.
struct TypeCase {
  const char* type;
  const char* value;     // an SQL expression
  const char* expected;  // "value|typeof" read back, or "error: <part of the message>"
};

TEST_F(ExportTest, ValuesThroughEachType) {
  const std::vector<TypeCase> cases = {
      {"INTEGER", "42", "42|integer"},
      {"INTEGER", "'  -17 '", "-17|integer"},
      {"INTEGER", "3.0", "3|integer"},
      {"INTEGER", "3.5", "error: real 3.5 is not an integer, as INTEGER needs"},
      {"INTEGER", "9.3e18", "error: real 9.3e+18 is out of range for INTEGER"},
      {"INTEGER", "x'01'", "error: a 1-byte BLOB cannot be stored as INTEGER"},
      {"TINYINT", "-128", "-128|integer"},
      {"TINYINT", "128", "error: integer 128 is out of range for TINYINT"},
      {"INT32", "-2147483648", "-2147483648|integer"},
      {"UTINYINT", "255", "255|integer"},
      {"UTINYINT", "-1", "error: integer -1 is out of range for UTINYINT"},
      {"UINTEGER", "4294967295", "4294967295|integer"},
      {"UBIGINT", "9223372036854775807", "9223372036854775807|integer"},
      {"UBIGINT", "1e19", "1e+19|real"},  // above 2^63-1: the reader gives REAL
      {"REAL", "1", "1|real"},
      {"REAL", "' 2.5e3'", "2500|real"},
      {"REAL", "'nan'", "error: text 'nan' cannot be stored as REAL (a number)"},
      {"TEXT", "12", "12|text"},
      {"TEXT", "1.5", "1.5|text"},
      {"TEXT", "x'00'", "error: a 1-byte BLOB cannot be stored as TEXT"},
      {"BLOB", "'ab'", "x'6162'|blob"},
      {"BLOB", "1", "error: integer 1 cannot be stored as BLOB"},
      {"BOOLEAN", "'TRUE'", "1|integer"},
      {"BOOLEAN", "0.0", "0|integer"},
      {"BOOLEAN", "'yes'", "error: text 'yes' cannot be stored as BOOLEAN (0 or 1)"},
      {"DATE", "'0001-01-01'", "0001-01-01|text"},
      {"DATE", "'2024-13-01'", "error: text '2024-13-01' cannot be stored as DATE"},
      {"DATE", "20240101", "error: integer 20240101 cannot be stored as DATE"},
      {"TIME(MILLIS)", "'23:59:59.999'", "23:59:59.999|text"},
      {"TIME(MILLIS)", "'23:59:59.9991'", "error: cannot be stored as TIME(MILLIS)"},
      {"TIME(NANOS)", "'00:00:00.000000001'", "00:00:00.000000001|text"},
      {"TIMESTAMP", "'2024-02-29T12:34:56.5Z'", "2024-02-29 12:34:56.500000|text"},
      {"TIMESTAMP", "'2024-02-29'", "2024-02-29 00:00:00|text"},
      {"TIMESTAMP(MILLIS)", "-1", "1969-12-31 23:59:59.999|text"},
      {"TIMESTAMP", "'2024-02-29 25:00'", "error: cannot be stored as TIMESTAMP(MICROS)"},
      {"TIMESTAMP", "1.5", "error: real 1.5 cannot be stored as TIMESTAMP(MICROS)"},
      {"DECIMAL(9,2)", "'-0.5'", "-0.50|text"},
      {"DECIMAL(9,2)", "'.5'", "0.50|text"},
      {"DECIMAL(9,2)", "'1.2300'", "1.23|text"},
      {"DECIMAL(9,2)", "'1e3'", "1000.00|text"},
      {"DECIMAL(9,2)", "'12e-2'", "0.12|text"},
      {"DECIMAL(9,2)", "0.1", "0.10|text"},
      {"DECIMAL(9,2)", "9999999.99", "9999999.99|text"},
      {"DECIMAL(9,2)", "10000000",
       "error: integer 10000000 has 8 digits before the point, more than the 7 that DECIMAL(9,2) holds "
       "(precision 9 less scale 2)"},
      {"DECIMAL(9,2)", "'1.005'", "error: text '1.005' has more than 2 digits after the point"},
      {"DECIMAL(9,2)", "'1.2.3'", "error: text '1.2.3' is not a number"},
      {"DECIMAL(9,2)", "'abc'", "error: text 'abc' is not a number"},
      {"DECIMAL(18,0)", "-999999999999999999", "-999999999999999999|text"},
      {"DECIMAL(19,0)", "-9223372036854775808", "-9223372036854775808|text"},
      {"DECIMAL(38,0)", "'99999999999999999999999999999999999999'",
       "99999999999999999999999999999999999999|text"},
      {"DECIMAL(38,0)", "'-99999999999999999999999999999999999999'",
       "-99999999999999999999999999999999999999|text"},
      {"DECIMAL(38,0)", "'100000000000000000000000000000000000000'",
       "error: has 39 digits, more than the 38 that DECIMAL(38,0) holds"},
      {"DECIMAL(20,20)", "'-0.00000000000000000001'", "-0.00000000000000000001|text"},
      {"UUID", "'AAAAAAAA-bbbb-cccc-dddd-eeeeeeeeeeee'",
       "aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee|text"},
      {"UUID", "x'00112233445566778899aabbccddeeff'", "00112233-4455-6677-8899-aabbccddeeff|text"},
      {"UUID", "'aaaaaaaabbbbccccddddeeeeeeeeeeee'", "error: cannot be stored as UUID"},
      {"JSON", "'{\"a\": [1, 2.5e-3, true, null, \"x\\u00e9\"]}'",
       "{\"a\": [1, 2.5e-3, true, null, \"x\\u00e9\"]}|text"},
      {"JSON", "7", "7|text"},
      {"JSON", "'{\"a\":}'",
       "error: text '{\"a\":}' cannot be stored as JSON (it is not valid JSON)"},
      {"JSON", "'[1,]'", "error: it is not valid JSON"},
      {"JSON", "'01'", "error: it is not valid JSON"},
      {"JSON", "replace(hex(zeroblob(1000)), '0', '[')", "error: it is not valid JSON"},
      {"VARCHAR(10)", "'longer than ten'", "longer than ten|text"},
      {"BIGINT", "NULL", "NULL|null"},
  };
  int n = 0;
  size_t files = 0;
  for (const TypeCase& c : cases) {
    const std::string file = Path("t" + std::to_string(n++) + ".parquet");
    const std::string what = std::string(c.type) + " <- " + c.value;
    // Bound parameters spare the value a second round of SQL quoting.
    const std::string query = std::string("SELECT ") + c.value + " AS v";
    const std::string opts = std::string("schema='v ") + c.type + "'";
    sqlite3_stmt* stmt = nullptr;
    ASSERT_EQ(sqlite3_prepare_v2(db_.db(), "SELECT parquet_export(?1, ?2, ?3)", -1, &stmt, nullptr),
              SQLITE_OK);
    sqlite3_bind_text(stmt, 1, file.c_str(), -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(stmt, 2, query.c_str(), -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(stmt, 3, opts.c_str(), -1, SQLITE_TRANSIENT);
    const int rc = sqlite3_step(stmt);
    const std::string error = rc == SQLITE_ROW ? "" : sqlite3_errmsg(db_.db());
    sqlite3_finalize(stmt);
    const std::string expected = c.expected;
    if (expected.rfind("error: ", 0) == 0) {
      EXPECT_NE(error.find(expected.substr(7)), std::string::npos) << what << ": " << error;
      EXPECT_NE(error.find("row 1, column 'v'"), std::string::npos) << what << ": " << error;
      EXPECT_FALSE(fs::exists(file)) << what;
      continue;
    }
    ++files;
    ASSERT_EQ(error, "") << what;
    ASSERT_EQ(db_.Exec("DROP TABLE IF EXISTS r; CREATE VIRTUAL TABLE r USING parquet('" + file +
                       "', decimal=text)"),
              "");
    QueryResult r = Q("SELECT v, typeof(v) FROM r");
    ASSERT_TRUE(r.ok && r.rows.size() == 1) << what << ": " << r.error;
    EXPECT_EQ(r.rows[0][0].value_or("NULL") + "|" + r.rows[0][1].value_or("?"), expected) << what;
  }
  EXPECT_EQ(Listing().size(), files);
}

// A file read by a parquet table exports back to the same values.
TEST_F(ExportTest, ReExportOfAConformanceFile) {
  ASSERT_EQ(db_.Exec("CREATE VIRTUAL TABLE a USING parquet('" +
                     TestData("data/alltypes_plain.parquet") + "')"),
            "");
  const std::string file = Path("again.parquet");
  ASSERT_EQ(One("SELECT parquet_export('" + file + "', 'SELECT * FROM a')"), "8");
  ASSERT_EQ(db_.Exec("CREATE VIRTUAL TABLE b USING parquet('" + file + "')"), "");
  EXPECT_EQ(One("SELECT count(*) FROM (SELECT * FROM a EXCEPT SELECT * FROM b)"), "0");
  EXPECT_EQ(One("SELECT count(*) FROM b"), "8");
}

// The rows of the threads= tests: every kind of column (integers, reals, text, blobs, booleans,
// timestamps, decimals, a nested list), NULLs, dictionary and PLAIN columns. Quoted for an SQL
// string literal ('' is ').
const char* const kThreadsQuery =
    "SELECT value AS id, CASE WHEN value % 7 = 0 THEN NULL ELSE value * 2654435761 % 1000003 END "
    "AS hc, (value * 69069 % 1000) / 8.0 AS r, ''name_'' || (value * 16807 % 5000) AS name, "
    "''text '' || value AS t, CASE WHEN value % 3 = 0 THEN x''00ff'' || "
    "value END AS b, value % 2 = 0 AS flag, datetime(1704067200 + 3 * value, ''unixepoch'') AS ts, "
    "(value * 40503 % 10000000) / 100.0 AS price, CASE WHEN value % 5 = 0 THEN NULL ELSE ''['' || "
    "value || '', '' || (value % 11) || '']'' END AS list FROM nums WHERE value <= 30000";
const char* const kThreadsSchema =
    "schema=''ts TIMESTAMP, price DECIMAL(12,2), flag BOOLEAN, b BLOB, list LIST<INTEGER>''";

TEST_F(ExportTest, ThreadsWriteTheSameBytes) {
  // Several row groups (by rows, and by bytes), several batches per row group.
  for (const std::string options :
       {"row_group_size=10000", "row_group_size=10000, compression=zstd, bloom_filter=hc",
        "row_group_bytes=700000, data_page_version=2, page_size=20000, compression=gzip"}) {
    std::string reference;
    for (int threads : {1, 2, 4, 0}) {  // 0: no threads= (DefaultExportThreads())
      const std::string file = Path("t" + std::to_string(threads) + ".parquet");
      const std::string threads_option =
          threads == 0 ? "" : ", threads=" + std::to_string(threads);
      ASSERT_EQ(One("SELECT parquet_export('" + file + "', '" + kThreadsQuery + "', '" + options +
                    threads_option + ", " + kThreadsSchema + "')"),
                "30000")
          << options;
      const std::string bytes = ReadBytes(file);
      ASSERT_GT(bytes.size(), 10000u);
      if (threads == 1) {
        reference = bytes;
        EXPECT_GE(
            std::stoi(One("SELECT num_row_groups FROM parquet_file_metadata('" + file + "')")), 3)
            << options;
      } else {
        EXPECT_TRUE(bytes == reference) << options << ", threads=" << threads;
      }
    }
  }
  // And it reads back.
  ASSERT_EQ(db_.Exec("CREATE VIRTUAL TABLE r USING parquet('" + Path("t4.parquet") + "')"), "");
  EXPECT_EQ(One("SELECT count(*) || ' ' || sum(id) || ' ' || count(hc) || ' ' || count(list) "
                "FROM r"),
            "30000 450015000 25715 24000");
}

// Tables read ahead on a worker unless told threads=1, when the machine has 2 or more hardware
// threads (DefaultScanThreads in parquet_vtab.cc).
TEST_F(ExportTest, TablesReadAheadByDefaultOnSeveralCores) {
  const std::string file = Path("ahead.parquet");
  ASSERT_EQ(One("SELECT parquet_export('" + file + "', '" + kThreadsQuery +
                "', 'compression=zstd, page_size=4096, " + kThreadsSchema + "')"),
            "30000");
  ASSERT_EQ(db_.Exec("CREATE VIRTUAL TABLE d USING parquet('" + file + "')"), "");
  ASSERT_EQ(db_.Exec("CREATE VIRTUAL TABLE one USING parquet('" + file + "', threads=1)"), "");
  EXPECT_EQ(One("SELECT count(*) || ' ' || sum(id) FROM d"), "30000 450015000");
  EXPECT_EQ(One("SELECT count(*) || ' ' || sum(id) FROM one"), "30000 450015000");
  const int ahead = std::stoi(One("SELECT json_extract(parquet_scan_stats('d'), '$.pages_read_ahead')"));
  if (std::thread::hardware_concurrency() >= 2) {
    EXPECT_GT(ahead, 0);
  } else {
    EXPECT_EQ(ahead, 0);
  }
  EXPECT_EQ(One("SELECT json_extract(parquet_scan_stats('one'), '$.pages_read_ahead')"), "0");
}

TEST_F(ExportTest, ThreadsReportErrorsTheSameWay) {
  // A value that does not fit, far into the rows (batches already encoded on other threads), and
  // a query error after several batches.
  const std::vector<std::string> queries = {
      "SELECT value AS v, 'x' || value AS s FROM nums WHERE value <= 50000",
      "SELECT CASE WHEN value = 30000 THEN json(''bad'') ELSE value END AS v FROM nums WHERE "
      "value <= 40000"};
  for (const std::string& query : queries) {
    std::string reference;
    for (int threads : {1, 3}) {
      const std::string file = Path("e.parquet");
      QueryResult r =
          Q("SELECT parquet_export('" + file + "', '" + query +
            "', 'schema=''v SMALLINT'', row_group_size=5000, threads=" + std::to_string(threads) +
            "')");
      ASSERT_FALSE(r.ok) << query;
      if (threads == 1) {
        reference = r.error;
      } else {
        EXPECT_EQ(r.error, reference);
      }
      EXPECT_TRUE(Listing().empty()) << r.error;
    }
  }
  QueryResult bad =
      Q("SELECT parquet_export('" + Path("x.parquet") + "', 'SELECT 1 AS v', 'threads=0')");
  ASSERT_FALSE(bad.ok);
  EXPECT_NE(bad.error.find("threads"), std::string::npos) << bad.error;
}

TEST_F(ExportTest, ThreadsInWriteTable) {
  // The writable table takes threads= too; a rollback still takes back rows not yet written.
  ASSERT_EQ(db_.Exec("CREATE VIRTUAL TABLE w USING parquet('" + Path("w.parquet") +
                     "', schema='a INTEGER, b TEXT', threads=3, row_group_size=3000)"),
            "");
  ASSERT_EQ(db_.Exec("BEGIN; INSERT INTO w SELECT value, 'v' || value FROM nums WHERE value <= "
                     "20000; COMMIT"),
            "");
  ASSERT_EQ(db_.Exec("CREATE VIRTUAL TABLE r USING parquet('" + Path("w.parquet") + "')"), "");
  EXPECT_EQ(One("SELECT count(*) || ' ' || sum(a) || ' ' || max(b) FROM r"),
            "20000 200010000 v9999");
}

}  // namespace
}  // namespace pq::testing
