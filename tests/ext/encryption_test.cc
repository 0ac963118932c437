// Encrypted Parquet through SQL (ext/encryption_options.h, ext/key_functions.h): the conformance
// files read with keys given as table options or registered with parquet_add_key; files written by
// parquet_export and the writable table in every encryption mode read back, prune, and keep their
// keys out of the file and out of every message.
//
// Until the lead applies the SQL hookup (parquet_add_key registered, footer_key / column_keys /
// aad_prefix table options, encryption export options), every test here is skipped.
#include <gtest/gtest.h>
#include <stdlib.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "tests/ext/sqlite_test_util.h"

namespace pq::testing {
namespace {

namespace fs = std::filesystem;

const char kFooterKey[] = "0123456789012345";
const char kDoubleKey[] = "1234567890123450";
const char kFloatKey[] = "1234567890123451";

std::string Data(const std::string& name) { return TestData("data/" + name); }

// `text` as the body of an SQL string literal: quotes doubled.
std::string Quoted(const std::string& text) {
  std::string s;
  for (char c : text) {
    s += c;
    if (c == '\'') s += c;
  }
  return s;
}

std::string Keys(const std::string& aad_prefix = "") {
  std::string s = std::string("footer_key='") + kFooterKey +
                  "', column_keys='double_field:" + kDoubleKey + ",float_field:" + kFloatKey + "'";
  if (!aad_prefix.empty()) s += ", aad_prefix='" + aad_prefix + "'";
  return s;
}

class EncryptionTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(db_.load_error(), "");
    QueryResult probe = db_.Query("SELECT parquet_add_key(NULL, NULL)");
    if (!probe.ok && probe.error.find("no such function") != std::string::npos) {
      GTEST_SKIP() << "the SQL hookup of encryption is not applied yet";
    }
    char tmpl[] = "/tmp/pq-encryption-test-XXXXXX";
    ASSERT_NE(::mkdtemp(tmpl), nullptr);
    dir_ = tmpl;
    ASSERT_EQ(db_.Exec("CREATE TABLE nums AS WITH RECURSIVE n(value) AS (SELECT 1 UNION ALL "
                       "SELECT value + 1 FROM n WHERE value < 5000) SELECT value FROM n"),
              "");
  }
  void TearDown() override {
    if (!dir_.empty()) fs::remove_all(dir_);
  }

  std::string Path(const std::string& name) const { return dir_ + "/" + name; }

  // Every row of `sql`, as one text.
  std::string Rows(const std::string& sql) const {
    QueryResult r = db_.Query(sql);
    EXPECT_TRUE(r.ok) << sql << ": " << r.error;
    std::string out;
    for (const SqlRow& row : r.rows) {
      for (const SqlValue& v : row) out += v.value_or("NULL") + "|";
      out += "\n";
    }
    return out;
  }
  std::string One(const std::string& sql) const {
    QueryResult r = db_.Query(sql);
    EXPECT_TRUE(r.ok) << sql << ": " << r.error;
    if (!r.ok || r.rows.empty() || r.rows[0].empty()) return "<none>";
    return r.rows[0][0].value_or("NULL");
  }
  // The error of `sql` ("" when it succeeds); never holds a key.
  std::string Error(const std::string& sql) const {
    QueryResult r = db_.Query(sql);
    for (const char* key : {kFooterKey, kDoubleKey, kFloatKey}) {
      EXPECT_EQ(r.error.find(key), std::string::npos) << r.error;
    }
    return r.ok ? "" : r.error;
  }

  static std::string ReadBytes(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }

  TestDb db_;
  std::string dir_;
};

TEST_F(EncryptionTest, ConformanceFilesReadTheSameInEveryMode) {
  struct File {
    const char* name;
    const char* aad_prefix;
  } files[] = {
      {"encrypt_columns_and_footer.parquet.encrypted", ""},
      {"encrypt_columns_and_footer_aad.parquet.encrypted", ""},
      {"encrypt_columns_and_footer_disable_aad_storage.parquet.encrypted", "tester"},
      {"encrypt_columns_plaintext_footer.parquet.encrypted", ""},
      {"uniform_encryption.parquet.encrypted", ""},
  };
  std::string reference;
  int n = 0;
  for (const File& f : files) {
    SCOPED_TRACE(f.name);
    const std::string table = "t" + std::to_string(n++);
    ASSERT_EQ(db_.Exec("CREATE VIRTUAL TABLE temp." + table + " USING parquet('" + Data(f.name) +
                       "', " + Keys(f.aad_prefix) + ")"),
              "");
    EXPECT_EQ(Rows("SELECT count(*), sum(boolean_field), sum(ba_field IS NULL), "
                   "sum(double_field = rowid * 1.1111111) FROM " + table),
              "50|25|25|50|\n");
    const std::string rows = Rows("SELECT * FROM " + table);
    if (reference.empty()) {
      reference = rows;
    } else {
      EXPECT_EQ(rows, reference);
    }
    // Statistics of the encrypted column prune.
    EXPECT_EQ(One("SELECT count(*) FROM " + table + " WHERE double_field > 1000"), "0");
    EXPECT_EQ(One("SELECT json_extract(parquet_scan_stats('" + table +
                  "'), '$.row_groups_skipped_by_statistics')"),
              "1");
  }
}

TEST_F(EncryptionTest, KeysRegisteredById) {
  EXPECT_EQ(One(std::string("SELECT parquet_add_key('kf', '") + kFooterKey + "')"), "1");
  EXPECT_EQ(One(std::string("SELECT parquet_add_key('kc1', 'hex:") +
                "31323334353637383930313233343530')"),
            "1");
  EXPECT_EQ(One(std::string("SELECT parquet_add_key('kc2', CAST('") + kFloatKey + "' AS BLOB))"),
            "1");
  ASSERT_EQ(db_.Exec("CREATE VIRTUAL TABLE temp.t USING parquet('" +
                     Data("encrypt_columns_and_footer.parquet.encrypted") + "')"),
            "");
  EXPECT_EQ(One("SELECT count(*) FROM t WHERE float_field > 50"), "4");  // rows 46..49
  // An explicit option wins over the registry.
  EXPECT_NE(Error("CREATE VIRTUAL TABLE temp.u USING parquet('" +
                  Data("encrypt_columns_and_footer.parquet.encrypted") +
                  "', footer_key='abcdefghijklmnop')"),
            "");
  // The same ids are master keys: parquet-java's file with external, double-wrapped key material
  // opens (100 rows: integers 0..99, strings 'a0' .. 'j99').
  ASSERT_EQ(db_.Exec("CREATE VIRTUAL TABLE temp.k USING parquet('" +
                     Data("external_key_material_java.parquet.encrypted") + "')"),
            "");
  EXPECT_EQ(Rows("SELECT count(*), sum(integers), min(strings), max(strings) FROM k"),
            "100|4950|a0|j99|\n");
}

TEST_F(EncryptionTest, ParquetAddKeyArguments) {
  EXPECT_EQ(One("SELECT parquet_add_key(NULL, '0123456789012345')"), "NULL");
  EXPECT_EQ(One("SELECT parquet_add_key('a', NULL)"), "NULL");
  const std::string bad = Error("SELECT parquet_add_key('a', 'secret-but-too-short')");
  EXPECT_NE(bad.find("parquet_add_key"), std::string::npos) << bad;
  EXPECT_EQ(bad.find("secret-but-too-short"), std::string::npos) << bad;
  EXPECT_NE(Error("SELECT parquet_add_key('a', x'0011')").find("16, 24 or 32 bytes"),
            std::string::npos);
  // SQLITE_DIRECTONLY: not from a view (nor a trigger) of the schema.
  ASSERT_EQ(db_.Exec("CREATE VIEW v AS SELECT parquet_add_key('a', '0123456789012345') AS k"), "");
  EXPECT_NE(Error("SELECT * FROM v").find("unsafe use of parquet_add_key"), std::string::npos);
}

TEST_F(EncryptionTest, MissingKeysAreNamed) {
  const std::string pare = Data("encrypt_columns_and_footer.parquet.encrypted");
  EXPECT_NE(Error("CREATE VIRTUAL TABLE temp.a USING parquet('" + pare + "')")
                .find("the file has an encrypted footer and its key was not given (key id 'kf')"),
            std::string::npos);
  // A plaintext footer opens; its plaintext columns read, its encrypted ones name themselves.
  ASSERT_EQ(db_.Exec("CREATE VIRTUAL TABLE temp.p USING parquet('" +
                     Data("encrypt_columns_plaintext_footer.parquet.encrypted") + "')"),
            "");
  EXPECT_EQ(One("SELECT sum(boolean_field) FROM p"), "25");
  const std::string e = Error("SELECT double_field FROM p");
  EXPECT_NE(e.find("column 'double_field' is encrypted and no key was given for it (key id 'kc1')"),
            std::string::npos)
      << e;
  // Options are checked: a malformed key, never echoed.
  const std::string bad = Error("CREATE VIRTUAL TABLE temp.b USING parquet('" + pare +
                                "', footer_key='not-a-key-of-any-size')");
  EXPECT_NE(bad.find("option 'footer_key'"), std::string::npos) << bad;
  EXPECT_EQ(bad.find("not-a-key-of-any-size"), std::string::npos) << bad;
  EXPECT_NE(Error("CREATE VIRTUAL TABLE temp.c USING parquet('" + pare +
                  "', footer_key='0123456789012345', aad_prefix='wrong')")
                .find("authentication failed for footer"),
            std::string::npos);
}

// The file functions take the keys a table takes in their optional last argument, OPTIONS
// ('key=value, ...'): the conformance file that does not store its AAD prefix opens in each with
// the keys and the prefix given there (nothing registered), and no message about those options
// shows a key (Error checks every one).
TEST_F(EncryptionTest, FileFunctionsTakeKeysAsOptions) {
  const std::string file = Data("encrypt_columns_and_footer_disable_aad_storage.parquet.encrypted");
  const std::string keys = std::string("footer_key=") + kFooterKey +
                           ", column_keys=''double_field:" + kDoubleKey +
                           ", float_field:" + kFloatKey + "''";
  const std::string with_prefix = keys + ", aad_prefix=tester";
  struct Call {
    const char* function;
    const char* middle;  // arguments between the path and the options
    const char* rows;    // of SELECT count(*)
  } calls[] = {
      {"parquet_metadata", "", "8"},  // 1 row group, 8 leaves
      {"parquet_schema", "", "9"},    // the root and 8 leaves
      {"parquet_file_metadata", "", "1"},
      {"parquet_kv_metadata", "", nullptr},                         // whatever the footer holds
      {"parquet_page_index", "", nullptr},                          // whatever pages are indexed
      {"parquet_bloom_probe", ", 'double_field', 1.1111111", "1"},  // one row group
  };
  for (const Call& c : calls) {
    SCOPED_TRACE(c.function);
    const std::string head =
        std::string("SELECT count(*) FROM ") + c.function + "('" + file + "'" + c.middle;
    // Nothing given (and nothing registered): the prefix is missing.
    EXPECT_NE(Error(head + ")").find("give it (aad_prefix)"), std::string::npos);
    EXPECT_NE(Error(head + ", 'aad_prefix=tester')").find("its key was not given (key id 'kf')"),
              std::string::npos);
    // Keys without the prefix, a wrong prefix, a wrong key, a malformed key, an unknown option,
    // a key without its name, an unterminated quote: errors that show no key.
    EXPECT_NE(Error(head + ", '" + keys + "')").find("give it (aad_prefix)"), std::string::npos);
    EXPECT_NE(Error(head + ", '" + keys + ", aad_prefix=other')").find("authentication failed"),
              std::string::npos);
    EXPECT_NE(Error(head + ", 'footer_key=abcdefghijklmnop, aad_prefix=tester')")
                  .find("authentication failed"),
              std::string::npos);
    const std::string malformed =
        Error(head + ", 'footer_key=" + kFooterKey + "0, aad_prefix=tester')");
    EXPECT_NE(malformed.find(std::string(c.function) + ": option 'footer_key'"), std::string::npos)
        << malformed;
    EXPECT_NE(Error(head + ", '" + with_prefix + ", verify_checksums=0')")
                  .find(std::string("unknown ") + c.function + " option 'verify_checksums'"),
              std::string::npos);
    EXPECT_NE(
        Error(head + ", '" + kFooterKey + "')").find("an option is not of the form key=value"),
        std::string::npos);
    EXPECT_NE(Error(head + ", 'column_keys=''double_field:" + kDoubleKey + "')")
                  .find("unterminated quote in the options"),
              std::string::npos);
    const std::string bad_columns =
        Error(head + ", 'footer_key=" + kFooterKey + ", column_keys=''double_field:" + kDoubleKey +
              ", float_field'', aad_prefix=tester')");
    EXPECT_NE(bad_columns.find("column_keys"), std::string::npos) << bad_columns;
    // Keys and prefix: the rows.
    const std::string rows = One(head + ", '" + with_prefix + "')");
    if (c.rows != nullptr) {
      EXPECT_EQ(rows, c.rows);
    }
  }
  // The encrypted column's statistics and page index, decrypted with its key from OPTIONS.
  EXPECT_EQ(Rows("SELECT stats_min, stats_max FROM parquet_metadata('" + file + "', '" +
                 with_prefix + "') WHERE path_in_schema = 'double_field'"),
            "-0|54.4444439|\n");
  EXPECT_EQ(Rows("SELECT sum(row_count), max(max_value) FROM parquet_page_index('" + file + "', '" +
                 with_prefix + "') WHERE path_in_schema = 'double_field'"),
            "50|54.4444439|\n");
}

TEST_F(EncryptionTest, ExportInEveryModeReadsBack) {
  const std::string query =
      "SELECT value AS id, 'name' || (value % 97) AS name, value * 0.5 AS score FROM nums";
  const std::string want = Rows("SELECT count(*), sum(id), count(DISTINCT name), sum(score) FROM (" +
                                query + ")");
  struct Mode {
    std::string write;  // export options
    std::string read;   // table options
    bool plaintext_footer;
  } modes[] = {
      {"footer_key='0123456789012345'", "footer_key='0123456789012345'", false},
      {"footer_key='0123456789012345', encryption_algorithm=ctr, compression=zstd",
       "footer_key='0123456789012345'", false},
      {"footer_key='hex:000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f', "
       "column_keys='name:1234567890123450', plaintext_footer=1",
       "footer_key='hex:000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f', "
       "column_keys='name:1234567890123450'",
       true},
      {"footer_key='0123456789012345', aad_prefix='report-7', store_aad_prefix=0, "
       "column_keys='id:1234567890123451,score:1234567890123450', encryption_algorithm=gcm",
       "footer_key='0123456789012345', aad_prefix='report-7', "
       "column_keys='id:1234567890123451,score:1234567890123450'",
       false},
  };
  int n = 0;
  for (const Mode& m : modes) {
    SCOPED_TRACE(m.write);
    const std::string path = Path("e" + std::to_string(n) + ".parquet");
    const std::string table = "r" + std::to_string(n++);
    EXPECT_EQ(One("SELECT parquet_export('" + path + "', '" + Quoted(query) + "', '" +
                  Quoted("row_group_size=1000, bloom_filter=id, " + m.write) + "')"),
              "5000");
    const std::string bytes = ReadBytes(path);
    ASSERT_GT(bytes.size(), 8u);
    EXPECT_EQ(bytes.substr(bytes.size() - 4), m.plaintext_footer ? "PAR1" : "PARE");
    EXPECT_EQ(bytes.find("0123456789012345"), std::string::npos);
    ASSERT_EQ(db_.Exec("CREATE VIRTUAL TABLE temp." + table + " USING parquet('" + path + "', " +
                       m.read + ")"),
              "");
    EXPECT_EQ(Rows("SELECT count(*), sum(id), count(DISTINCT name), sum(score) FROM " + table),
              want);
    // Pruning on the decrypted metadata: statistics skip 4 of the 5 row groups.
    EXPECT_EQ(One("SELECT count(*) FROM " + table + " WHERE id > 4500"), "500");
    EXPECT_EQ(One("SELECT json_extract(parquet_scan_stats('" + table +
                  "'), '$.row_groups_skipped_by_statistics')"),
              "4");
    EXPECT_EQ(One("SELECT count(*) FROM " + table + " WHERE id = 2500.5"), "0");
    // Without keys: an encrypted footer does not open; a plaintext one reads its plaintext columns.
    const std::string e =
        Error("CREATE VIRTUAL TABLE temp.nokey" + table + " USING parquet('" + path + "')");
    if (m.plaintext_footer) {
      EXPECT_EQ(e, "");
      EXPECT_EQ(One("SELECT sum(id) FROM nokey" + table), "12502500");
      EXPECT_NE(Error("SELECT name FROM nokey" + table).find("is encrypted"), std::string::npos);
    } else {
      EXPECT_NE(e, "");
    }
  }
  // The writable table encrypts too.
  const std::string path = Path("w.parquet");
  ASSERT_EQ(db_.Exec("CREATE VIRTUAL TABLE temp.w USING parquet('" + path +
                     "', schema='a INTEGER, b TEXT', footer_key='0123456789012345')"),
            "");
  ASSERT_EQ(db_.Exec("INSERT INTO w VALUES (1, 'one'), (2, 'two')"), "");
  ASSERT_EQ(db_.Exec("CREATE VIRTUAL TABLE temp.wr USING parquet('" + path +
                     "', footer_key='0123456789012345')"),
            "");
  EXPECT_EQ(Rows("SELECT a, b FROM wr ORDER BY a"), "1|one|\n2|two|\n");
}

TEST_F(EncryptionTest, ExportOptionsAreChecked) {
  auto err = [&](const std::string& options) {
    return Error("SELECT parquet_export('" + Path("x.parquet") + "', 'SELECT 1 AS a', '" +
                 Quoted(options) + "')");
  };
  EXPECT_NE(err("column_keys='a:0123456789012345'").find("option 'column_keys': needs footer_key"),
            std::string::npos);
  EXPECT_NE(err("footer_key=0123456789012345, encryption_algorithm=rot13")
                .find("option 'encryption_algorithm'"),
            std::string::npos);
  EXPECT_NE(err("footer_key=0123456789012345, store_aad_prefix=0")
                .find("option 'store_aad_prefix': needs aad_prefix"),
            std::string::npos);
  EXPECT_NE(err("footer_key=0123456789012345, column_keys='nope:1234567890123450'")
                .find("column_keys: no column named 'nope'"),
            std::string::npos);
  EXPECT_FALSE(fs::exists(Path("x.parquet")));
}

// --- Master keys (PKMT1 key material) ------------------------------------------------------------

class MasterKeyTest : public EncryptionTest {
 protected:
  void SetUp() override {
    EncryptionTest::SetUp();
    if (IsSkipped()) return;
    ASSERT_EQ(One(std::string("SELECT parquet_add_key('kf', '") + kFooterKey +
                  "') + parquet_add_key('kc1', '" + kDoubleKey + "')"),
              "2");
  }
  // Files in dir_ whose name contains `part`.
  std::vector<std::string> FilesWith(const std::string& part) const {
    std::vector<std::string> out;
    for (const auto& e : fs::directory_iterator(dir_)) {
      const std::string name = e.path().filename().string();
      if (name.find(part) != std::string::npos) out.push_back(name);
    }
    std::sort(out.begin(), out.end());
    return out;
  }
  std::string Export(const std::string& path, const std::string& options,
                     const std::string& query = "SELECT value AS id, 's' || value AS s FROM nums") {
    QueryResult r = db_.Query("SELECT parquet_export('" + path + "', '" + Quoted(query) + "', '" +
                              Quoted(options) + "')");
    return r.ok ? r.rows[0][0].value_or("NULL") : "error: " + r.error;
  }
};

TEST_F(MasterKeyTest, ExternalMaterialIsWrittenBesideTheFile) {
  const std::string path = Path("ext.parquet");
  EXPECT_EQ(Export(path, "footer_master_key=kf, column_master_keys='s:kc1', key_material=external"),
            "5000");
  const std::string material = Path("_KEY_MATERIAL_FOR_ext.parquet.json");
  ASSERT_TRUE(fs::exists(material));
  // No temporary is left, and no key or data key is in either file.
  EXPECT_EQ(FilesWith(".tmp-"), std::vector<std::string>{});
  const std::string json = ReadBytes(material);
  EXPECT_EQ(json.find(kFooterKey), std::string::npos);
  EXPECT_NE(json.find("\"footerKey\":\"{"), std::string::npos) << json;
  EXPECT_NE(json.find("\"columnKey0\":\"{"), std::string::npos) << json;
  EXPECT_NE(json.find("\\\"masterKeyID\\\":\\\"kc1\\\""), std::string::npos) << json;
  const std::string bytes = ReadBytes(path);
  EXPECT_NE(bytes.find("{\"keyMaterialType\":\"PKMT1\",\"internalStorage\":false,\"keyReference\":\"footerKey\"}"),
            std::string::npos);
  ASSERT_EQ(db_.Exec("CREATE VIRTUAL TABLE temp.r USING parquet('" + path + "')"), "");
  EXPECT_EQ(Rows("SELECT count(*), sum(id), sum(s = 's' || id) FROM r"), "5000|12502500|5000|\n");
  // The file without its material: the error names the material file.
  fs::rename(material, Path("moved.json"));
  const std::string e = Error("CREATE VIRTUAL TABLE temp.r2 USING parquet('" + path + "')");
  EXPECT_NE(e.find("cannot open the key material file '" + material + "'"), std::string::npos) << e;
}

TEST_F(MasterKeyTest, FileAndMaterialAppearTogetherOrNotAtAll) {
  const std::string path = Path("pair.parquet");
  const std::string material = Path("_KEY_MATERIAL_FOR_pair.parquet.json");
  const std::string options = "footer_master_key=kf, key_material=external, schema='id INTEGER'";
  // A failing export leaves neither.
  EXPECT_NE(Export(path, options, "SELECT CASE WHEN value < 4000 THEN value ELSE 'x' END AS id FROM nums")
                .find("error"),
            std::string::npos);
  EXPECT_FALSE(fs::exists(path));
  EXPECT_FALSE(fs::exists(material));
  EXPECT_EQ(FilesWith(".tmp-"), std::vector<std::string>{});
  // A good one writes both; a failing one over them changes neither.
  EXPECT_EQ(Export(path, options), "5000");
  const std::string file_before = ReadBytes(path), material_before = ReadBytes(material);
  EXPECT_NE(Export(path, options, "SELECT CASE WHEN value < 4000 THEN value ELSE 'x' END AS id FROM nums")
                .find("error"),
            std::string::npos);
  EXPECT_EQ(ReadBytes(path), file_before);
  EXPECT_EQ(ReadBytes(material), material_before);
  // Overwritten by a good one: both are new, and they go together.
  EXPECT_EQ(Export(path, options, "SELECT value * 2 AS id FROM nums"), "5000");
  EXPECT_NE(ReadBytes(material), material_before);
  ASSERT_EQ(db_.Exec("CREATE VIRTUAL TABLE temp.r USING parquet('" + path + "')"), "");
  EXPECT_EQ(One("SELECT sum(id) FROM r"), "25005000");
  // When a folder holds the file's name, the export fails before writing anything: no material
  // appears, and one that was there is left as it was.
  const std::string blocked = Path("blocked.parquet");
  const std::string blocked_material = Path("_KEY_MATERIAL_FOR_blocked.parquet.json");
  fs::create_directory(blocked);
  std::ofstream(blocked + "/inside") << "x";
  EXPECT_NE(Export(blocked, options).find("cannot write '" + blocked + "': it is a folder"),
            std::string::npos);
  EXPECT_FALSE(fs::exists(blocked_material));
  std::ofstream(blocked_material) << "old material";
  EXPECT_NE(Export(blocked, options).find("cannot write '" + blocked + "': it is a folder"),
            std::string::npos);
  EXPECT_EQ(ReadBytes(blocked_material), "old material");
  EXPECT_EQ(FilesWith(".tmp-"), std::vector<std::string>{});
}

// A write table's COMMIT whose last rename fails (a folder takes the file's name between xSync and
// xCommit, from the commit hook): the external material, renamed into place first, goes back out, the
// one it replaced restored byte for byte, and no temporary or backup is left.
TEST_F(MasterKeyTest, WriteTableCommitThatCannotPutTheFileInPlaceTakesTheMaterialBack) {
  const std::string path = Path("w.parquet");
  const std::string material = Path("_KEY_MATERIAL_FOR_w.parquet.json");
  const std::string options = "footer_master_key=kf, column_master_keys='s:kc1', key_material=external";
  auto block_at_commit = [](void* arg) -> int {
    const std::string target = *static_cast<const std::string*>(arg);
    fs::create_directory(target);
    std::ofstream(target + "/inside") << "x";
    return 0;
  };
  for (const bool material_before : {false, true}) {
    SCOPED_TRACE(material_before ? "over an earlier material file" : "no material file before");
    std::string old_material;
    if (material_before) {
      ASSERT_EQ(Export(path, options), "5000");
      fs::remove(path);
      old_material = ReadBytes(material);
      ASSERT_FALSE(old_material.empty());
    }
    ASSERT_EQ(db_.Exec("DROP TABLE IF EXISTS temp.w; CREATE VIRTUAL TABLE temp.w USING parquet('" + path +
                       "', schema='id INTEGER, s TEXT', " + options + "); CREATE TEMP TABLE IF NOT EXISTS n(v);"),
              "");
    std::string target = path;
    sqlite3_commit_hook(db_.db(), block_at_commit, &target);
    ASSERT_EQ(db_.Exec("BEGIN; INSERT INTO n VALUES (1); INSERT INTO w SELECT value, 's' || value FROM nums; COMMIT;"),
              "");
    sqlite3_commit_hook(db_.db(), nullptr, nullptr);
    EXPECT_TRUE(fs::is_directory(path));
    if (material_before) {
      EXPECT_EQ(ReadBytes(material), old_material);
    } else {
      EXPECT_FALSE(fs::exists(material));
    }
    EXPECT_EQ(FilesWith(".tmp-"), std::vector<std::string>{});
    const std::string e = Error("INSERT INTO w VALUES (1, 'x')");
    EXPECT_NE(e.find("could not put '" + path + "' in place"), std::string::npos) << e;
    fs::remove_all(path);
    fs::remove(material);
  }
}

TEST_F(MasterKeyTest, EveryModeWithFreshKeysPerFile) {
  for (const char* wrapping : {"double_wrapping=1", "double_wrapping=0"}) {
    for (const char* material : {"key_material=internal", "key_material=external"}) {
      for (const char* columns : {"", ", column_master_keys='s:kc1'"}) {
        const std::string options = std::string("footer_master_key=kf, ") + wrapping + ", " +
                                    material + columns;
        SCOPED_TRACE(options);
        // Two files with the same options: different data keys (their key metadata differs).
        EXPECT_EQ(Export(Path("a.parquet"), options), "5000");
        EXPECT_EQ(Export(Path("b.parquet"), options), "5000");
        const bool external = std::string(material).find("external") != std::string::npos;
        if (external) {
          EXPECT_NE(ReadBytes(Path("_KEY_MATERIAL_FOR_a.parquet.json")),
                    ReadBytes(Path("_KEY_MATERIAL_FOR_b.parquet.json")));
        }
        ASSERT_EQ(db_.Exec("DROP TABLE IF EXISTS temp.r; CREATE VIRTUAL TABLE temp.r USING parquet('" +
                           Path("a.parquet") + "," + Path("b.parquet") + "')"),
                  "");
        EXPECT_EQ(Rows("SELECT count(*), sum(id), sum(s = 's' || id) FROM r"),
                  "10000|25005000|10000|\n");
        fs::remove(Path("_KEY_MATERIAL_FOR_a.parquet.json"));
        fs::remove(Path("_KEY_MATERIAL_FOR_b.parquet.json"));
      }
    }
  }
}

// A persistent table in a database file holds no key: after the connection closes, another one
// registers the keys and reads it; creating it with a key in its options is refused.
TEST_F(EncryptionTest, TablesInDatabaseFilesHoldNoKeys) {
  const std::string db_file = Path("app.db");
  const std::string file = Data("encrypt_columns_and_footer.parquet.encrypted");
  ASSERT_EQ(db_.Exec("ATTACH '" + db_file + "' AS app"), "");
  const std::string refused = Error("CREATE VIRTUAL TABLE app.t USING parquet('" + file + "', " + Keys() + ")");
  EXPECT_NE(refused.find("option 'footer_key' holds a secret"), std::string::npos) << refused;
  EXPECT_NE(refused.find("parquet_add_key"), std::string::npos) << refused;
  ASSERT_EQ(One(std::string("SELECT parquet_add_key('kf', '") + kFooterKey + "') + parquet_add_key('kc1', '" +
                kDoubleKey + "') + parquet_add_key('kc2', '" + kFloatKey + "')"),
            "3");
  ASSERT_EQ(db_.Exec("CREATE VIRTUAL TABLE app.t USING parquet('" + file + "')"), "");
  EXPECT_EQ(One("SELECT count(*) FROM app.t"), "50");
  ASSERT_EQ(db_.Exec("DETACH app"), "");
  const std::string on_disk = ReadBytes(db_file);
  for (const char* key : {kFooterKey, kDoubleKey, kFloatKey}) {
    EXPECT_EQ(on_disk.find(key), std::string::npos);
  }
  // Another connection: without the keys the table names what is missing; with them it reads.
  TestDb other;
  ASSERT_EQ(other.load_error(), "");
  ASSERT_EQ(other.Exec("ATTACH '" + db_file + "' AS app"), "");
  QueryResult before = other.Query("SELECT count(*) FROM app.t");
  EXPECT_FALSE(before.ok);
  EXPECT_NE(before.error.find("key id 'kf'"), std::string::npos) << before.error;
  ASSERT_TRUE(other.Query(std::string("SELECT parquet_add_key('kf', '") + kFooterKey + "')").ok);
  QueryResult after = other.Query("SELECT count(*), sum(boolean_field) FROM app.t");
  ASSERT_TRUE(after.ok) << after.error;
  EXPECT_EQ(after.rows[0][0].value_or(""), "50");
  ASSERT_EQ(other.Exec("DETACH app"), "");
}

}  // namespace
}  // namespace pq::testing
