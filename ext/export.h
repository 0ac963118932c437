// Writing Parquet from SQL: parquet_export(path, query [, options]) and the writable form of the
// `parquet` table (created with schema=, its file written when the transaction commits). The
// function lives in export.cc, the table in export_vtab.cc; both write through ExportWriter
// (export_writer.h: options, batching, atomic temporary + rename) and ColumnBuilder
// (export_types.h: type names and value conversion). Documented in docs/writing.md.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>

#include "ext/options.h"
#include "ext/source_types.h"
#include "ext/sqlite_api.h"
#include "format/crypto/decryption_config.h"
#include "format/remote/remote_access.h"

namespace pq::ext {

// Registers parquet_export(PATH, QUERY [, OPTIONS]) (SQLITE_UTF8 | SQLITE_DIRECTONLY). `keys` is the
// connection's key registry, where footer_master_key= and column_master_keys= find master keys. Query
// columns that come straight from a parquet table keep the Parquet type of `source_types` (may be
// null); `remote` holds the connection's remote settings (parquet_secret), for s3:// targets.
int RegisterExport(sqlite3* db, std::shared_ptr<const crypto::KeyRegistry> keys,
                   std::shared_ptr<const SourceTypeRegistry> source_types,
                   std::shared_ptr<const remote::SettingsRegistry> remote);

// The writable table: `CREATE VIRTUAL TABLE t USING parquet('new.parquet', schema='...', ...)`.
// Its struct starts with sqlite3_vtab then `bool is_write_table = true`, so the parquet module can
// tell it from a read table (whose flag is false) and forward every callback to WriteTableModule():
// xBestIndex, xDisconnect, xDestroy, xOpen, xClose, xFilter, xNext, xEof, xColumn, xRowid, xUpdate,
// xBegin, xSync, xCommit, xRollback, xRename, and xSavepoint, xRelease, xRollbackTo (without these three a
// failed INSERT inside a transaction cannot take back its own rows, and COMMIT then fails).
// Reading a write table is an error ("parquet tables are append-only"), which also makes UPDATE and
// DELETE fail.
struct WriteTable;  // defined in export_vtab.cc

// What is at a write table's target: no file, or a file known by device, inode, size and
// modification time, or an S3 object by size, ETag and Last-Modified. `known` false: not told (an
// http(s) target, or S3 refusing to say).
struct TargetState {
  bool known = true;
  bool exists = false;
  uint64_t device = 0;
  uint64_t inode = 0;
  int64_t size = 0;
  int64_t mtime_ns = 0;
  std::string version;  // s3://: ETag and Last-Modified
  bool operator==(const TargetState&) const = default;
};
// The state of `path` now: a local file's from stat(), an s3:// object's from one HEAD request
// through `remote` (null: not known). IOError when that request fails.
Result<TargetState> TargetStateOf(const std::string& path, remote::RemoteAccess* remote);

// What one connection knows of its write tables (by database, table name and target): which
// committed their file, and which were created here, with the state of the target then. SQLite
// connects a table again, as a new object, after a schema change (a DDL statement rolled back,
// another connection's change, ALTER TABLE ... RENAME, a DROP TABLE rolled back), and that object
// must still refuse to write the file anew. A table this connection neither created nor saw write
// (a database file opened again) may have written its file in an earlier session: it refuses to
// replace an existing target. Kept by the parquet module's per-connection state; DROP TABLE forgets
// the table, so that a table created again under its name writes anew.
class WrittenTables {
 public:
  void Add(const std::string& key) {
    std::lock_guard<std::mutex> lock(mu_);
    keys_.insert(key);
  }
  bool Has(const std::string& key) const {
    std::lock_guard<std::mutex> lock(mu_);
    return keys_.count(key) > 0;
  }
  // CREATE VIRTUAL TABLE in this connection, when the target was in `state`.
  void Created(const std::string& key, const TargetState& state) {
    std::lock_guard<std::mutex> lock(mu_);
    created_[key] = state;
  }
  std::optional<TargetState> CreatedWith(const std::string& key) const {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = created_.find(key);
    if (it == created_.end()) return std::nullopt;
    return it->second;
  }
  void Forget(const std::string& key) {
    std::lock_guard<std::mutex> lock(mu_);
    keys_.erase(key);
    created_.erase(key);
  }
  // ALTER TABLE ... RENAME.
  void Move(const std::string& from, const std::string& to) {
    std::lock_guard<std::mutex> lock(mu_);
    if (keys_.erase(from) > 0) keys_.insert(to);
    auto it = created_.find(from);
    if (it != created_.end()) {
      created_[to] = it->second;
      created_.erase(from);
    }
  }

 private:
  mutable std::mutex mu_;
  std::set<std::string> keys_;
  std::map<std::string, TargetState> created_;
};

// True when the options make a write table (they hold `schema`).
bool IsWriteTableOptions(const OptionList& opts);
// xCreate/xConnect of a write table: checks the options (writer options only; export_writer.h) and
// that the target's folder is writable, declares the columns of `schema=`. Writes nothing on disk.
// `keys`: the connection's key registry (master keys by id); `remote`: its remote settings
// (parquet_secret), for an s3:// target.
// `schema` and `table`: the database and name SQLite gives the table (xConnect's argv[1], argv[2]);
// `written`: the connection's WrittenTables.
int ConnectWriteTable(sqlite3* db, const char* schema, const char* table_name, const std::string& path,
                      const OptionList& opts, std::shared_ptr<const crypto::KeyRegistry> keys,
                      std::shared_ptr<const remote::SettingsRegistry> remote,
                      std::shared_ptr<WrittenTables> written, sqlite3_vtab** out, char** err);
const sqlite3_module& WriteTableModule();

}  // namespace pq::ext
