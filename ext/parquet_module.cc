// Entry point of the loadable extension: `.load ./build/parquet` in the sqlite3 shell, or
// sqlite3_load_extension(db, "build/parquet", 0, &err) from a program.
#include <mutex>

#include "ext/export.h"
#include "ext/index_functions.h"
#include "ext/key_functions.h"
#include "ext/metadata_functions.h"
#include "ext/parquet_vtab.h"
#include "ext/remote_options.h"
#include "ext/sqlite_api.h"
#include "ext/version_function.h"

SQLITE_EXTENSION_INIT1

namespace {

// Whether this connection has the extension already: its parquet_version() compiles.
bool AlreadyLoaded(sqlite3* db) {
  sqlite3_stmt* probe = nullptr;
  const bool found = sqlite3_prepare_v2(db, "SELECT parquet_version()", -1, &probe, nullptr) == SQLITE_OK;
  sqlite3_finalize(probe);
  return found;
}

}  // namespace

extern "C" {

#ifdef _WIN32
__declspec(dllexport)
#endif
int sqlite3_parquet_init(sqlite3* db, char** err, const sqlite3_api_routines* api) {
  // Every connection that loads the extension passes the routine table; set it once, so that a
  // connection loading it on one thread does not write the pointer while others call through it.
  static std::once_flag api_set;
  std::call_once(api_set, [api]() { SQLITE_EXTENSION_INIT2(api); });
  if (sqlite3_api != api) {
    // Another SQLite library in the same process: its routines are not the ones set above.
    if (err) {
      *err = api->mprintf("parquet: already loaded by another SQLite library in this process");
    }
    return SQLITE_ERROR;
  }
  // Loaded again on a connection that has it (`.load` twice, or load_extension() inside a statement,
  // where replacing a function SQLite is running fails with "database is locked"): nothing to do,
  // and the connection keeps its keys and secrets.
  if (AlreadyLoaded(db)) return SQLITE_OK;
  // The connection's keys (parquet_add_key), read by its parquet tables and file functions.
  auto keys = std::make_shared<pq::crypto::KeyRegistry>();
  // The column types of the connection's parquet tables, which parquet_export keeps, and its remote
  // settings (parquet_secret), read by its tables, file functions and exports.
  auto source_types = std::make_shared<pq::ext::SourceTypeRegistry>();
  auto remote = std::make_shared<pq::remote::SettingsRegistry>();
  int rc = pq::ext::RegisterParquetModule(db, keys, source_types, remote);
  if (rc == SQLITE_OK) rc = pq::ext::RegisterKeyFunctions(db, keys);
  if (rc == SQLITE_OK) rc = pq::ext::RegisterSecretFunction(db, remote);
  if (rc == SQLITE_OK) rc = pq::ext::RegisterMetadataFunctions(db, keys, remote);
  if (rc == SQLITE_OK) rc = pq::ext::RegisterExport(db, keys, source_types, remote);
  if (rc == SQLITE_OK) rc = pq::ext::RegisterIndexFunctions(db, keys, remote);
  if (rc == SQLITE_OK) rc = pq::ext::RegisterVersionFunction(db);
  if (rc != SQLITE_OK && err) *err = sqlite3_mprintf("parquet: cannot register: %s", sqlite3_errstr(rc));
  return rc;
}

}  // extern "C"
