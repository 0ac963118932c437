// Every conformance file reads through the virtual table; files with expected CSVs match them value for
// value; corrupt checksums are reported with the column and page.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "tests/ext/sqlite_test_util.h"

namespace pq::testing {
namespace {

namespace fs = std::filesystem;

std::string Sql(const std::string& s) {
  std::string out = "'";
  for (char c : s) {
    out.push_back(c);
    if (c == '\'') out.push_back('\'');
  }
  return out + "'";
}

std::vector<std::string> ConformanceFiles() {
  std::vector<std::string> files;
  for (const auto& e : fs::recursive_directory_iterator(TestData(""))) {
    if (!e.is_regular_file()) continue;
    std::string p = e.path().string();
    if (p.size() > 8 && p.substr(p.size() - 8) == ".parquet") files.push_back(p);
  }
  std::sort(files.begin(), files.end());
  return files;
}

bool IsCorruptChecksumFile(const std::string& p) {
  return p.find("corrupt-checksum") != std::string::npos;
}

// Shredded Variant cases that must fail (cases.json gives them an error_message), and the invalid
// case-043 this reader refuses (tests/format/variant/shredded_variant_test.cc).
bool IsInvalidVariantFile(const std::string& p) {
  for (const char* name : {"/case-040.parquet", "/case-042.parquet", "/case-087.parquet",
                           "/case-043-INVALID.parquet"}) {
    if (p.find("shredded_variant") != std::string::npos && p.ends_with(name)) return true;
  }
  return false;
}

TEST(ConformanceTest, EveryUnencryptedFileReadsCompletely) {
  TestDb db;
  ASSERT_EQ(db.load_error(), "");
  auto files = ConformanceFiles();
  ASSERT_GE(files.size(), 59u + 98u);  // data/ and shredded_variant/
  for (const std::string& f : files) {
    SCOPED_TRACE(f);
    ASSERT_EQ(db.Exec("DROP TABLE IF EXISTS temp.t"), "");
    std::string err = db.Exec("CREATE VIRTUAL TABLE temp.t USING parquet(" + Sql(f) + ")");
    ASSERT_EQ(err, "");
    QueryResult r = db.Query("SELECT * FROM t");
    if (IsCorruptChecksumFile(f) || IsInvalidVariantFile(f)) {
      EXPECT_FALSE(r.ok);
      continue;
    }
    ASSERT_TRUE(r.ok) << r.error;
    // Row groups are the truth: some writers leave FileMetaData.num_rows at 0.
    QueryResult n = db.Query("SELECT coalesce(sum(n), 0) FROM (SELECT DISTINCT row_group_id, "
                             "row_group_num_rows AS n FROM parquet_metadata(" + Sql(f) + "))");
    ASSERT_TRUE(n.ok) << n.error;
    ASSERT_EQ(n.rows.size(), 1u);
    EXPECT_EQ(std::to_string(r.rows.size()), *n.rows[0][0]);
    // Every column alone gives the same values as in the full scan (projection changes nothing).
    for (size_t c = 0; c < r.columns.size(); ++c) {
      QueryResult one = db.Query("SELECT \"" + r.columns[c] + "\" FROM t");
      ASSERT_TRUE(one.ok) << one.error;
      ASSERT_EQ(one.rows.size(), r.rows.size());
      for (size_t i = 0; i < one.rows.size(); ++i) {
        ASSERT_EQ(one.rows[i][0], r.rows[i][c]) << "column " << r.columns[c] << " row " << i;
      }
    }
  }
}

// A CSV field: its text and whether it was quoted ("" is an empty string, an empty unquoted field NULL).
struct CsvField {
  std::string text;
  bool quoted = false;
};

std::vector<std::vector<CsvField>> ReadCsv(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  std::string s = ss.str();
  std::vector<std::vector<CsvField>> rows;
  std::vector<CsvField> row;
  CsvField field;
  bool in_quotes = false;
  for (size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    if (in_quotes) {
      if (c == '"' && i + 1 < s.size() && s[i + 1] == '"') {
        field.text.push_back('"');
        ++i;
      } else if (c == '"') {
        in_quotes = false;
      } else {
        field.text.push_back(c);
      }
    } else if (c == '"') {
      in_quotes = true;
      field.quoted = true;
    } else if (c == ',') {
      row.push_back(field);
      field = {};
    } else if (c == '\n' || c == '\r') {
      if (c == '\r' && i + 1 < s.size() && s[i + 1] == '\n') ++i;
      row.push_back(field);
      field = {};
      rows.push_back(row);
      row.clear();
    } else {
      field.text.push_back(c);
    }
  }
  if (!row.empty() || !field.text.empty()) {
    row.push_back(field);
    rows.push_back(row);
  }
  return rows;
}

void ExpectMatchesCsv(const std::string& parquet, const std::string& csv) {
  TestDb db;
  ASSERT_EQ(db.load_error(), "");
  ASSERT_EQ(db.Exec("CREATE VIRTUAL TABLE temp.t USING parquet(" + Sql(TestData(parquet)) + ")"), "");
  QueryResult r = db.Query("SELECT * FROM t");
  ASSERT_TRUE(r.ok) << r.error;
  auto expected = ReadCsv(TestData(csv));
  ASSERT_FALSE(expected.empty());
  ASSERT_EQ(expected.size() - 1, r.rows.size());
  ASSERT_EQ(expected[0].size(), r.columns.size());
  for (size_t i = 0; i < r.rows.size(); ++i) {
    for (size_t c = 0; c < r.columns.size(); ++c) {
      const CsvField& want = expected[i + 1][c];
      const SqlValue& got = r.rows[i][c];
      if (!want.quoted && want.text.empty()) {
        EXPECT_FALSE(got.has_value()) << parquet << " row " << i << " column " << r.columns[c];
      } else {
        ASSERT_TRUE(got.has_value()) << parquet << " row " << i << " column " << r.columns[c];
        EXPECT_EQ(*got, want.text) << parquet << " row " << i << " column " << r.columns[c];
      }
    }
  }
}

TEST(ConformanceTest, DeltaBinaryPackedMatchesCsv) {
  ExpectMatchesCsv("data/delta_binary_packed.parquet", "data/delta_binary_packed_expect.csv");
}
TEST(ConformanceTest, DeltaByteArrayMatchesCsv) {
  ExpectMatchesCsv("data/delta_byte_array.parquet", "data/delta_byte_array_expect.csv");
}
TEST(ConformanceTest, DeltaOptionalColumnMatchesCsv) {
  ExpectMatchesCsv("data/delta_encoding_optional_column.parquet",
                   "data/delta_encoding_optional_column_expect.csv");
}
TEST(ConformanceTest, DeltaRequiredColumnMatchesCsv) {
  ExpectMatchesCsv("data/delta_encoding_required_column.parquet",
                   "data/delta_encoding_required_column_expect.csv");
}

TEST(ConformanceTest, CorruptChecksumNamesChecksumColumnAndPage) {
  for (const char* f : {"data/datapage_v1-corrupt-checksum.parquet",
                        "data/rle-dict-uncompressed-corrupt-checksum.parquet"}) {
    SCOPED_TRACE(f);
    TestDb db;
    ASSERT_EQ(db.Exec("CREATE VIRTUAL TABLE temp.t USING parquet(" + Sql(TestData(f)) + ")"), "");
    QueryResult r = db.Query("SELECT * FROM t");
    ASSERT_FALSE(r.ok);
    EXPECT_NE(r.error.find("checksum"), std::string::npos) << r.error;
    EXPECT_NE(r.error.find("column '"), std::string::npos) << r.error;
    EXPECT_NE(r.error.find("page "), std::string::npos) << r.error;
    EXPECT_NE(r.error.find("row group 0"), std::string::npos) << r.error;
    ASSERT_EQ(db.Exec("CREATE VIRTUAL TABLE temp.u USING parquet(" + Sql(TestData(f)) +
                      ", verify_checksums=0)"),
              "");
    QueryResult ok = db.Query("SELECT * FROM u");
    EXPECT_TRUE(ok.ok) << ok.error;
    EXPECT_GT(ok.rows.size(), 0u);
  }
}

TEST(ConformanceTest, GoodChecksumsVerify) {
  for (const char* f : {"data/datapage_v1-snappy-compressed-checksum.parquet",
                        "data/datapage_v1-uncompressed-checksum.parquet",
                        "data/plain-dict-uncompressed-checksum.parquet",
                        "data/rle-dict-snappy-checksum.parquet"}) {
    SCOPED_TRACE(f);
    TestDb db;
    ASSERT_EQ(db.Exec("CREATE VIRTUAL TABLE temp.t USING parquet(" + Sql(TestData(f)) + ")"), "");
    QueryResult r = db.Query("SELECT * FROM t");
    ASSERT_TRUE(r.ok) << r.error;
    EXPECT_GT(r.rows.size(), 0u);
  }
}

}  // namespace
}  // namespace pq::testing
