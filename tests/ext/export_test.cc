// parquet_export and the writable parquet table, through the built extension: what the SQL tests
// cannot see (the folder's listing, the bytes of an untouched target, the temporary while a
// transaction is open) and round trips too large to spell out in SQL.
#include <gtest/gtest.h>
#include <stdlib.h>
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

TEST_F(ExportTest, UnwritableDestinations) {
  std::ofstream(Path("plain-file")) << "x";
  QueryResult r =
      Q("SELECT parquet_export('" + Path("plain-file/x.parquet") + "', 'SELECT 1 AS a')");
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.error.find("cannot write '" + Path("plain-file/x.parquet") + "'"), std::string::npos)
      << r.error;
  r = Q("SELECT parquet_export('" + Path("missing/x.parquet") + "', 'SELECT 1 AS a')");
  EXPECT_NE(r.error.find("cannot write"), std::string::npos) << r.error;
  // The target is a folder: the rename fails and the temporary goes.
  fs::create_directory(Path("folder.parquet"));
  r = Q("SELECT parquet_export('" + Path("folder.parquet") + "', 'SELECT 1 AS a')");
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.error.find("cannot rename"), std::string::npos) << r.error;
  EXPECT_EQ(Listing(), (std::set<std::string>{"folder.parquet", "plain-file"}));
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

// A failing statement whose earlier rows already went to the file cannot be taken back: COMMIT
// fails and nothing appears.
TEST_F(ExportTest, WriteTableFailedLargeStatementInTransactionBlocksCommit) {
  ASSERT_EQ(db_.Exec("CREATE VIRTUAL TABLE out USING parquet('" + Path("out.parquet") +
                     "', schema='v SMALLINT')"),
            "");
  ASSERT_EQ(db_.Exec("BEGIN"), "");
  std::string err = db_.Exec("INSERT INTO out SELECT value FROM nums WHERE value <= 40000");
  EXPECT_NE(err.find("row 32768, column 'v'"), std::string::npos) << err;
  err = db_.Exec("COMMIT");
  EXPECT_NE(err.find("cannot commit"), std::string::npos) << err;
  db_.Exec("ROLLBACK");
  EXPECT_TRUE(Listing().empty());
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
       "error: integer 10000000 has more than 9 digits, too many for DECIMAL(9,2)"},
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
       "error: has more than 38 digits"},
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
