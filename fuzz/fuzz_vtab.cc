// Fuzz target: a file read through the SQLite layer: the parquet virtual table (full scan) and the
// metadata functions. Input: a Parquet file, written to a temporary path that the SQL names.
#include <sqlite3.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>

extern "C" int sqlite3_parquet_init(sqlite3* db, char** err, const sqlite3_api_routines* api);

namespace {

const std::string& FuzzPath() {
  static const std::string path = "/tmp/pq-fuzz-vtab-" + std::to_string(getpid()) + ".parquet";
  return path;
}

void Run(sqlite3* db, const std::string& sql) {
  sqlite3_stmt* stmt = nullptr;
  if (sqlite3_prepare_v2(db, sql.c_str(), -1, &stmt, nullptr) != SQLITE_OK) return;
  for (int rows = 0; rows < 100000 && sqlite3_step(stmt) == SQLITE_ROW; ++rows) {
    for (int c = 0; c < sqlite3_column_count(stmt); ++c) {
      (void)sqlite3_column_bytes(stmt, c);  // forces text/blob out of every value
    }
  }
  sqlite3_finalize(stmt);
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  sqlite3_auto_extension(reinterpret_cast<void (*)()>(sqlite3_parquet_init));
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  FILE* f = std::fopen(FuzzPath().c_str(), "wb");
  if (f == nullptr) return 0;
  std::fwrite(data, 1, size, f);
  std::fclose(f);
  sqlite3* db = nullptr;
  if (sqlite3_open(":memory:", &db) == SQLITE_OK) {
    const std::string quoted = "'" + FuzzPath() + "'";
    Run(db, "SELECT * FROM parquet_metadata(" + quoted + ")");
    Run(db, "SELECT * FROM parquet_schema(" + quoted + ")");
    Run(db, "CREATE VIRTUAL TABLE temp.t USING parquet(" + quoted + ")");
    Run(db, "SELECT * FROM t");
    Run(db, "SELECT rowid, * FROM t WHERE rowid % 7 = 3 LIMIT 5 OFFSET 2");
  }
  sqlite3_close(db);
  return 0;
}
