// Helpers for tests that run SQL against the built extension (build/parquet.so) in the system SQLite.
#pragma once

#include <sqlite3.h>

#include <cstdio>
#include <optional>
#include <string>
#include <vector>

namespace pq::testing {

// One SQL value as text: nullopt for NULL, integers and reals as SQLite prints them, blobs as x'..'.
using SqlValue = std::optional<std::string>;
using SqlRow = std::vector<SqlValue>;

struct QueryResult {
  bool ok = false;
  std::string error;
  std::vector<std::string> columns;
  std::vector<SqlRow> rows;
};

class TestDb {
 public:
  TestDb() {
    sqlite3_open(":memory:", &db_);
    sqlite3_enable_load_extension(db_, 1);
    char* err = nullptr;
    if (sqlite3_load_extension(db_, PQ_EXTENSION_PATH, "sqlite3_parquet_init", &err) != SQLITE_OK) {
      load_error_ = err ? err : "unknown";
      sqlite3_free(err);
    }
  }
  ~TestDb() { sqlite3_close(db_); }
  TestDb(const TestDb&) = delete;
  TestDb& operator=(const TestDb&) = delete;

  const std::string& load_error() const { return load_error_; }
  sqlite3* db() const { return db_; }

  QueryResult Query(const std::string& sql) const {
    QueryResult r;
    sqlite3_stmt* stmt = nullptr;
    if (sqlite3_prepare_v2(db_, sql.c_str(), -1, &stmt, nullptr) != SQLITE_OK) {
      r.error = sqlite3_errmsg(db_);
      return r;
    }
    int n = sqlite3_column_count(stmt);
    for (int i = 0; i < n; ++i) r.columns.push_back(sqlite3_column_name(stmt, i));
    int rc;
    while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
      SqlRow row;
      for (int i = 0; i < n; ++i) row.push_back(ValueText(stmt, i));
      r.rows.push_back(std::move(row));
    }
    if (rc != SQLITE_DONE) {
      r.error = sqlite3_errmsg(db_);
    } else {
      r.ok = true;
    }
    sqlite3_finalize(stmt);
    return r;
  }

  // Runs statements that return no rows; returns the error message or "".
  std::string Exec(const std::string& sql) const {
    char* err = nullptr;
    if (sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &err) != SQLITE_OK) {
      std::string e = err ? err : "error";
      sqlite3_free(err);
      return e;
    }
    return "";
  }

  static SqlValue ValueText(sqlite3_stmt* stmt, int i) {
    switch (sqlite3_column_type(stmt, i)) {
      case SQLITE_NULL: return std::nullopt;
      case SQLITE_INTEGER: return std::to_string(sqlite3_column_int64(stmt, i));
      case SQLITE_FLOAT: {
        char buf[64];
        double d = sqlite3_column_double(stmt, i);
        for (int prec = 15; prec <= 17; ++prec) {
          std::snprintf(buf, sizeof buf, "%.*g", prec, d);
          if (std::strtod(buf, nullptr) == d) break;
        }
        return std::string(buf);
      }
      case SQLITE_BLOB: {
        const auto* p = static_cast<const unsigned char*>(sqlite3_column_blob(stmt, i));
        int len = sqlite3_column_bytes(stmt, i);
        std::string s = "x'";
        static const char* hex = "0123456789abcdef";
        for (int k = 0; k < len; ++k) {
          s.push_back(hex[p[k] >> 4]);
          s.push_back(hex[p[k] & 15]);
        }
        return s + "'";
      }
      default: {
        const char* t = reinterpret_cast<const char*>(sqlite3_column_text(stmt, i));
        return std::string(t, static_cast<size_t>(sqlite3_column_bytes(stmt, i)));
      }
    }
  }

 private:
  sqlite3* db_ = nullptr;
  std::string load_error_;
};

inline std::string TestData(const std::string& rel) {
  return std::string(PQ_TESTDATA_DIR) + "/parquet-testing/" + rel;
}

}  // namespace pq::testing
