// Loading the extension on a connection: a second load (the shell's .load twice, or SQL's
// load_extension() inside the statement that calls it) changes nothing, and the connection keeps
// what it registered (keys, secrets).
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdio>
#include <string>

#include "tests/ext/sqlite_test_util.h"

namespace pq::testing {
namespace {

TEST(ModuleLoadTest, LoadingAgainChangesNothingAndKeepsTheConnectionsKeys) {
  TestDb db;
  ASSERT_EQ(db.load_error(), "");
  ASSERT_EQ(db.Exec("SELECT parquet_add_key('kf', '0123456789012345')"), "");
  // Through SQL, inside the statement that loads it: SQLite cannot replace a function it is running.
  sqlite3_enable_load_extension(db.db(), 1);
  for (int i = 0; i < 2; ++i) {
    SCOPED_TRACE(i);
    QueryResult r = db.Query(std::string("SELECT load_extension('") + PQ_EXTENSION_PATH + "', 'sqlite3_parquet_init')");
    EXPECT_TRUE(r.ok) << r.error;
  }
  // Through the C API, as the shell's .load does.
  char* err = nullptr;
  EXPECT_EQ(sqlite3_load_extension(db.db(), PQ_EXTENSION_PATH, "sqlite3_parquet_init", &err), SQLITE_OK)
      << (err ? err : "");
  sqlite3_free(err);
  // The key registered before is still there: a file encrypted with it reads.
  char tmpl[] = "/tmp/pq-load-test-XXXXXX";
  ASSERT_NE(::mkdtemp(tmpl), nullptr);
  const std::string file = std::string(tmpl) + "/k.parquet";
  ASSERT_EQ(db.Exec("SELECT parquet_export('" + file + "', 'SELECT 42 AS a', 'footer_key=0123456789012345, footer_key_id=kf')"), "");
  ASSERT_EQ(db.Exec("CREATE VIRTUAL TABLE temp.k USING parquet('" + file + "')"), "");
  EXPECT_EQ(db.Query("SELECT a FROM k").rows, (std::vector<SqlRow>{{"42"}}));
  std::remove(file.c_str());
  ::rmdir(tmpl);
}

}  // namespace
}  // namespace pq::testing
