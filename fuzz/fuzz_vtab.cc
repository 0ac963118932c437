// Fuzz target: a file read through the SQLite layer: the parquet virtual table (full scan) and the
// file functions (metadata, page index, Bloom filter probes), with the keys of the encrypted
// conformance files registered. Input: a Parquet file, written to a temporary path the SQL names.
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
    // The keys of the encrypted conformance files (seeds), by the ids those files name.
    Run(db, "SELECT parquet_add_key('kf', '0123456789012345'), "
            "parquet_add_key('kc1', '1234567890123450'), parquet_add_key('kc2', '1234567890123451')");
    Run(db, "SELECT * FROM parquet_metadata(" + quoted + ")");
    Run(db, "SELECT * FROM parquet_schema(" + quoted + ")");
    Run(db, "SELECT * FROM parquet_page_index(" + quoted + ")");
    // A Bloom filter probe of each leaf (the first 20), for an integer and a text value.
    sqlite3_stmt* leaves = nullptr;
    if (sqlite3_prepare_v2(db,
                           ("SELECT path_in_schema FROM parquet_schema(" + quoted +
                            ") WHERE num_children IS NULL AND path_in_schema IS NOT NULL LIMIT 20")
                               .c_str(),
                           -1, &leaves, nullptr) == SQLITE_OK) {
      while (sqlite3_step(leaves) == SQLITE_ROW) {
        const char* leaf = reinterpret_cast<const char*>(sqlite3_column_text(leaves, 0));
        if (leaf == nullptr) continue;
        char* sql = sqlite3_mprintf("SELECT * FROM parquet_bloom_probe(%Q, %Q, 7)",
                                    FuzzPath().c_str(), leaf);
        if (sql) Run(db, sql);
        sqlite3_free(sql);
        sql = sqlite3_mprintf("SELECT * FROM parquet_bloom_probe(%Q, %Q, 'abc')",
                              FuzzPath().c_str(), leaf);
        if (sql) Run(db, sql);
        sqlite3_free(sql);
      }
    }
    sqlite3_finalize(leaves);
    Run(db, "CREATE VIRTUAL TABLE temp.t USING parquet(" + quoted + ")");
    Run(db, "SELECT * FROM t");
    Run(db, "SELECT rowid, * FROM t WHERE rowid % 7 = 3 LIMIT 5 OFFSET 2");
  }
  sqlite3_close(db);
  return 0;
}
