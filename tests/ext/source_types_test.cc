// Source types (ext/source_types.h): the writer's type for the fields of real files, and
// parquet_export's fallback when the host SQLite cannot tell where a query column comes from.
#include "ext/source_types.h"

#include <dlfcn.h>
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <unistd.h>
#include <string>

#define SQLITE_CORE 1  // the routine table's layout, without sqlite3ext.h's redirecting macros
#include <sqlite3ext.h>

#include "format/file/file_reader.h"

namespace pq::ext {
namespace {

std::string TestDataPath(const std::string& rel) {
  return std::string(PQ_TESTDATA_DIR) + "/parquet-testing/" + rel;
}

std::shared_ptr<FileReader> OpenFile(const std::string& path) {
  auto reader = FileReader::Open(path, ReaderOptions{});
  EXPECT_TRUE(reader.ok()) << reader.status().message();
  return reader.ok() ? *reader : nullptr;
}

// The writer type of each top-level field, as its name ("" when it has none).
std::vector<std::string> TypeNames(const FileReader& file, const ValueOptions& values) {
  std::vector<std::string> out;
  for (const SchemaNode* field : file.schema().fields()) {
    std::optional<ColumnType> t = WriterTypeOfField(*field, values);
    out.push_back(field->name + " " + (t ? ColumnTypeName(*t) : "-"));
  }
  return out;
}

TEST(SourceTypesTest, FieldsOfADuckDbFile) {
  auto file = OpenFile(std::string(PQ_TESTDATA_DIR) + "/types.parquet");
  ASSERT_TRUE(file);
  EXPECT_EQ(TypeNames(*file, ValueOptions{}),
            (std::vector<std::string>{
                "id INT32", "u8 UTINYINT", "u16 USMALLINT", "u32 UINTEGER", "u64 UBIGINT",
                "i8 TINYINT", "i16 SMALLINT", "dec_i32 DECIMAL(4,2)", "dec_i64 DECIMAL(18,3)",
                "dec_flba DECIMAL(38,10)", "uuid UUID", "d DATE", "t TIME(MICROS)",
                "ts_ms TIMESTAMP_NTZ(MILLIS)", "ts_us TIMESTAMP_NTZ(MICROS)",
                "ts_ns TIMESTAMP_NTZ(NANOS)", "ts_tz TIMESTAMP(MICROS)", "iv INTERVAL", "mood TEXT",
                "js JSON", "s TEXT", "b BLOB", "f FLOAT4", "dbl REAL", "bool BOOLEAN"}));
  // Read as REAL, a DECIMAL beyond precision 15 is not exact: no type; up to 15 it is.
  ValueOptions real;
  real.decimal = ValueOptions::Decimal::kReal;
  std::vector<std::string> names = TypeNames(*file, real);
  EXPECT_EQ(names[7], "dec_i32 DECIMAL(4,2)");
  EXPECT_EQ(names[8], "dec_i64 -");
  EXPECT_EQ(names[9], "dec_flba -");
}

TEST(SourceTypesTest, NestedFields) {
  auto file = OpenFile(TestDataPath("data/nested_lists.snappy.parquet"));
  ASSERT_TRUE(file);
  EXPECT_EQ(TypeNames(*file, ValueOptions{}),
            (std::vector<std::string>{"a LIST<LIST<LIST<TEXT>>>", "b INT32"}));
  // A map without values has no type (the writer's MAP has one).
  auto maps = OpenFile(TestDataPath("data/map_no_value.parquet"));
  ASSERT_TRUE(maps);
  EXPECT_EQ(TypeNames(*maps, ValueOptions{}),
            (std::vector<std::string>{"my_map MAP<INT32, INT32>", "my_map_no_v -",
                                      "my_list LIST<INT32>"}));
  // A repeated group without annotation is a list of structs.
  auto repeated = OpenFile(TestDataPath("data/repeated_no_annotation.parquet"));
  ASSERT_TRUE(repeated);
  EXPECT_EQ(TypeNames(*repeated, ValueOptions{}),
            (std::vector<std::string>{"id INT32",
                                      "phoneNumbers STRUCT<phone LIST<STRUCT<number INTEGER, kind TEXT>>>"}));
}

TEST(SourceTypesTest, RegistryFindsColumnsIgnoringCase) {
  SourceTypeRegistry r;
  int a = 0, b = 0;
  ColumnType date;
  date.kind = ColumnKind::kDate;
  r.Add(&a, "temp", "Trips", {{"Day", date}, {"note", std::nullopt}});
  r.Add(&b, "main", "trips", {{"day", std::nullopt}});
  ASSERT_NE(r.Find("TEMP", "trips", "DAY"), nullptr);
  EXPECT_EQ(r.Find("temp", "trips", "day")->kind, ColumnKind::kDate);
  EXPECT_EQ(r.Find("temp", "trips", "note"), nullptr);
  EXPECT_EQ(r.Find("main", "trips", "day"), nullptr);
  EXPECT_EQ(r.Find("temp", "other", "day"), nullptr);
  r.Remove(&a);
  EXPECT_EQ(r.Find("temp", "trips", "day"), nullptr);
}

// ---------------------------------------------------------------------------------------------
// A SQLite built without SQLITE_ENABLE_COLUMN_METADATA has null entries for
// sqlite3_column_database_name, _table_name and _origin_name in the routine table it hands to
// extensions. parquet_export then falls back to the declared types. The extension is loaded by
// hand with such a table, in a fresh process (a death test re-runs this binary for the one test):
// the extension keeps the first routine table it is given.

const sqlite3_api_routines* g_api = nullptr;

int CaptureApi(sqlite3*, char**, const sqlite3_api_routines* api) {
  g_api = api;
  return SQLITE_OK;
}

[[noreturn]] void Fail(const std::string& why) {
  std::fprintf(stderr, "%s\n", why.c_str());
  std::exit(1);
}

[[noreturn]] void ExportWithoutColumnMetadata() {
  sqlite3_auto_extension(reinterpret_cast<void (*)(void)>(CaptureApi));
  sqlite3* probe = nullptr;
  sqlite3_open(":memory:", &probe);
  sqlite3_close(probe);
  sqlite3_cancel_auto_extension(reinterpret_cast<void (*)(void)>(CaptureApi));
  if (g_api == nullptr) Fail("no routine table");
  static sqlite3_api_routines without = *g_api;
  without.column_database_name = nullptr;
  without.column_table_name = nullptr;
  without.column_origin_name = nullptr;

  void* lib = dlopen(PQ_EXTENSION_PATH, RTLD_NOW | RTLD_LOCAL);
  if (lib == nullptr) Fail(std::string("dlopen: ") + dlerror());
  using Init = int (*)(sqlite3*, char**, const sqlite3_api_routines*);
  auto init = reinterpret_cast<Init>(dlsym(lib, "sqlite3_parquet_init"));
  if (init == nullptr) Fail("no sqlite3_parquet_init");
  sqlite3* db = nullptr;
  sqlite3_open(":memory:", &db);
  char* err = nullptr;
  if (init(db, &err, &without) != SQLITE_OK) Fail(std::string("init: ") + (err ? err : ""));

  char tmpl[] = "/tmp/pq-fallback-XXXXXX";
  if (::mkdtemp(tmpl) == nullptr) Fail("mkdtemp");
  const std::string out = std::string(tmpl) + "/out.parquet";
  const std::string sql =
      "CREATE VIRTUAL TABLE temp.t USING parquet('" + std::string(PQ_TESTDATA_DIR) +
      "/types.parquet'); SELECT parquet_export('" + out + "', 'SELECT id, d, ts_tz, dec_i32, f FROM t');";
  if (sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &err) != SQLITE_OK) {
    Fail(std::string("export: ") + (err ? err : ""));
  }
  // The declared types decide: the file's DATE, TIMESTAMP and INT32 are not known here.
  std::string types;
  sqlite3_stmt* stmt = nullptr;
  const std::string query = "SELECT group_concat(name || ' ' || type || ' ' || "
                            "coalesce(logical_type, '-'), '; ') FROM parquet_schema('" + out +
                            "') WHERE name <> 'schema'";
  if (sqlite3_prepare_v2(db, query.c_str(), -1, &stmt, nullptr) != SQLITE_OK ||
      sqlite3_step(stmt) != SQLITE_ROW) {
    Fail(std::string("schema: ") + sqlite3_errmsg(db));
  }
  types = reinterpret_cast<const char*>(sqlite3_column_text(stmt, 0));
  sqlite3_finalize(stmt);
  sqlite3_close(db);
  std::remove(out.c_str());
  ::rmdir(tmpl);
  const std::string expected =
      "id INT64 -; d BYTE_ARRAY StringType(); ts_tz BYTE_ARRAY StringType(); dec_i32 DOUBLE -; "
      "f DOUBLE -";
  if (types != expected) Fail("types: " + types + "\nexpected: " + expected);
  std::fprintf(stderr, "fallback ok\n");
  std::exit(0);
}

TEST(SourceTypesDeathTest, ExportFallsBackToDeclaredTypesWithoutColumnMetadata) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(ExportWithoutColumnMetadata(), ::testing::ExitedWithCode(0), "fallback ok");
}

}  // namespace
}  // namespace pq::ext
