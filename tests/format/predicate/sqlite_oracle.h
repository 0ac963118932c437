// SqliteOracle: the real SQLite library, loaded at run time, as the reference the predicate tests
// compare against.
//
// The engine (format/) never links SQLite, and neither does this test binary: the library is
// opened with dlopen() and the handful of C API functions the tests need are looked up by name
// (their C signatures are declared here, so no SQLite header is involved). Values are bound as
// parameters, so each test value reaches SQLite exactly (no literal parsing in between). When the
// library is missing the tests that need it are skipped.
#pragma once

#include <dlfcn.h>

#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "format/predicate/predicate.h"

namespace pq::testing {

class SqliteOracle {
 public:
  // Opens the shared library and an in-memory database; null (and *why) when either fails.
  static std::unique_ptr<SqliteOracle> Open(std::string* why) {
    std::unique_ptr<SqliteOracle> o(new SqliteOracle());
    for (const char* name : {"libsqlite3.so.0", "libsqlite3.so"}) {
      o->lib_ = ::dlopen(name, RTLD_NOW | RTLD_LOCAL);
      if (o->lib_ != nullptr) break;
    }
    if (o->lib_ == nullptr) {
      *why = "libsqlite3 not found";
      return nullptr;
    }
    bool ok = o->Bind(o->open_, "sqlite3_open") && o->Bind(o->close_, "sqlite3_close") &&
              o->Bind(o->prepare_, "sqlite3_prepare_v2") &&
              o->Bind(o->finalize_, "sqlite3_finalize") && o->Bind(o->reset_, "sqlite3_reset") &&
              o->Bind(o->step_, "sqlite3_step") && o->Bind(o->bind_int64_, "sqlite3_bind_int64") &&
              o->Bind(o->bind_double_, "sqlite3_bind_double") &&
              o->Bind(o->bind_text_, "sqlite3_bind_text") &&
              o->Bind(o->bind_blob_, "sqlite3_bind_blob") &&
              o->Bind(o->bind_null_, "sqlite3_bind_null") &&
              o->Bind(o->column_type_, "sqlite3_column_type") &&
              o->Bind(o->column_int64_, "sqlite3_column_int64") &&
              o->Bind(o->column_double_, "sqlite3_column_double") &&
              o->Bind(o->column_blob_, "sqlite3_column_blob") &&
              o->Bind(o->column_text_, "sqlite3_column_text") &&
              o->Bind(o->column_bytes_, "sqlite3_column_bytes") &&
              o->Bind(o->errmsg_, "sqlite3_errmsg") &&
              o->Bind(o->libversion_, "sqlite3_libversion");
    if (!ok) {
      *why = "libsqlite3 lacks a needed function";
      return nullptr;
    }
    if (o->open_(":memory:", &o->db_) != 0) {
      *why = "sqlite3_open failed";
      return nullptr;
    }
    return o;
  }

  ~SqliteOracle() {
    for (void* s : statements_) finalize_(s);
    if (db_ != nullptr) close_(db_);
    if (lib_ != nullptr) ::dlclose(lib_);
  }

  std::string version() const { return libversion_(); }

  // A prepared statement, kept until the oracle closes. Aborts the test on a syntax error.
  class Statement {
   public:
    Statement(SqliteOracle* o, void* stmt) : o_(o), stmt_(stmt) {}
    // Binds value i (1-based).
    void Bind(int i, const SqlValue& v) {
      switch (v.type) {
        case CellType::kNull:
          o_->bind_null_(stmt_, i);
          break;
        case CellType::kInteger:
          o_->bind_int64_(stmt_, i, v.i);
          break;
        case CellType::kReal:
          o_->bind_double_(stmt_, i, v.d);
          break;
        case CellType::kText:
          o_->bind_text_(stmt_, i, v.bytes.data(), static_cast<int>(v.bytes.size()), kTransient);
          break;
        case CellType::kBlob:
          o_->bind_blob_(stmt_, i, v.bytes.data(), static_cast<int>(v.bytes.size()), kTransient);
          break;
      }
    }
    // Runs the statement; returns the first row (empty when there is none) and resets it.
    std::vector<SqlValue> Run() {
      std::vector<SqlValue> row;
      const int rc = o_->step_(stmt_);
      if (rc == kRow) {
        for (int c = 0; c < columns_; ++c) row.push_back(Column(c, o_->column_type_(stmt_, c)));
      }
      o_->reset_(stmt_);
      return row;
    }
    void set_columns(int n) { columns_ = n; }

   private:
    SqlValue Column(int c, int type) {
      switch (type) {
        case 1:
          return SqlValue::Integer(o_->column_int64_(stmt_, c));
        case 2:
          return SqlValue::Real(o_->column_double_(stmt_, c));
        case 3: {
          const auto* p = o_->column_text_(stmt_, c);
          const int n = o_->column_bytes_(stmt_, c);
          return SqlValue::Text(std::string(reinterpret_cast<const char*>(p), n));
        }
        case 4: {
          const void* p = o_->column_blob_(stmt_, c);
          const int n = o_->column_bytes_(stmt_, c);
          return SqlValue::Blob(n == 0 ? std::string()
                                       : std::string(static_cast<const char*>(p), n));
        }
        default:
          return SqlValue::Null();
      }
    }
    SqliteOracle* o_;
    void* stmt_;
    int columns_ = 0;
  };

  // Prepares `sql` with `columns` result columns; null and *why on an error.
  std::unique_ptr<Statement> Prepare(const std::string& sql, int columns, std::string* why) {
    void* stmt = nullptr;
    if (prepare_(db_, sql.c_str(), -1, &stmt, nullptr) != 0) {
      *why = std::string(errmsg_(db_)) + " in: " + sql;
      return nullptr;
    }
    statements_.push_back(stmt);
    auto s = std::make_unique<Statement>(this, stmt);
    s->set_columns(columns);
    return s;
  }

  // Runs a statement without parameters or results; false and *why on an error.
  bool Exec(const std::string& sql, std::string* why) {
    auto s = Prepare(sql, 0, why);
    if (!s) return false;
    s->Run();
    return true;
  }

 private:
  static constexpr int kRow = 100;
  // SQLITE_TRANSIENT: SQLite copies the bytes.
  static inline void (*const kTransient)(void*) = reinterpret_cast<void (*)(void*)>(-1);

  SqliteOracle() = default;
  template <typename F>
  bool Bind(F& f, const char* name) {
    f = reinterpret_cast<F>(::dlsym(lib_, name));
    return f != nullptr;
  }

  void* lib_ = nullptr;
  void* db_ = nullptr;
  std::vector<void*> statements_;
  int (*open_)(const char*, void**) = nullptr;
  int (*close_)(void*) = nullptr;
  int (*prepare_)(void*, const char*, int, void**, const char**) = nullptr;
  int (*finalize_)(void*) = nullptr;
  int (*reset_)(void*) = nullptr;
  int (*step_)(void*) = nullptr;
  int (*bind_int64_)(void*, int, int64_t) = nullptr;
  int (*bind_double_)(void*, int, double) = nullptr;
  int (*bind_text_)(void*, int, const char*, int, void (*)(void*)) = nullptr;
  int (*bind_blob_)(void*, int, const void*, int, void (*)(void*)) = nullptr;
  int (*bind_null_)(void*, int) = nullptr;
  int (*column_type_)(void*, int) = nullptr;
  int64_t (*column_int64_)(void*, int) = nullptr;
  double (*column_double_)(void*, int) = nullptr;
  const void* (*column_blob_)(void*, int) = nullptr;
  const unsigned char* (*column_text_)(void*, int) = nullptr;
  int (*column_bytes_)(void*, int) = nullptr;
  const char* (*errmsg_)(void*) = nullptr;
  const char* (*libversion_)() = nullptr;
};

}  // namespace pq::testing
