#include "ext/sqlite_api.h"

#include <cstring>

namespace pq::ext {

int ToSqliteCode(const Status& s) {
  if (s.ok()) return SQLITE_OK;
  if (s.code() == StatusCode::kInterrupted) return SQLITE_INTERRUPT;
  return SQLITE_ERROR;
}

char* SqliteStrdup(const std::string& s) {
  char* p = static_cast<char*>(sqlite3_malloc64(s.size() + 1));
  if (p) std::memcpy(p, s.c_str(), s.size() + 1);
  return p;
}

int SetVtabError(sqlite3_vtab* vtab, const Status& s) {
  if (s.ok()) return SQLITE_OK;
  sqlite3_free(vtab->zErrMsg);
  vtab->zErrMsg = SqliteStrdup(s.message());
  return ToSqliteCode(s);
}

void SetFunctionError(sqlite3_context* ctx, const Status& s) {
  sqlite3_result_error(ctx, s.message().c_str(), static_cast<int>(s.message().size()));
  if (s.code() == StatusCode::kInterrupted) sqlite3_result_error_code(ctx, SQLITE_INTERRUPT);
}

}  // namespace pq::ext
