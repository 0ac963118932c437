// The writable form of the `parquet` table: INSERT rows, get a Parquet file at COMMIT.
//
//   CREATE VIRTUAL TABLE temp.out USING parquet('new.parquet', schema='id INTEGER, price
//   DECIMAL(12,2)',
//                                               compression=zstd);
//   INSERT INTO out SELECT id, price FROM sales;     -- autocommit: the file appears now
//   BEGIN; INSERT INTO out VALUES (1, 9.99); INSERT INTO out VALUES (2, 19.5); COMMIT;
//
// A `parquet` table is a write table when its options hold `schema=` (IsWriteTableOptions); the
// parquet module (parquet_vtab.cc) then hands every callback to WriteTableModule(). Options: the
// writer options of export_writer.h; `schema=` gives the columns, every one with a known type.
//
// Transactions. The first write statement of a transaction (xBegin) starts a file: rows are
// converted as they are inserted (a value that does not fit fails the INSERT, naming row and
// column) and streamed to a temporary beside the target in batches. xSync finishes and fsyncs the
// temporary; xCommit renames it over the target. xRollback removes it: nothing appears and an
// existing file is untouched. A transaction that began writing but inserted no rows writes a file
// with no rows.
// Statement rollback inside a transaction (a failing INSERT, ROLLBACK TO) takes back the rows of
// the statement through xSavepoint/xRollbackTo, as long as they are still in the batch in memory;
// when some were already streamed to the file, the transaction can no longer commit: COMMIT fails
// with an error that says so (and the transaction is rolled back).
// A table writes its file once: a later transaction that inserts into it is an error (Parquet files
// cannot be appended to). Create a new table, or insert everything in one transaction.
//
// The table is append-only: reading it (SELECT), UPDATE and DELETE are errors; read the written
// file with a parquet table made without schema=. It is SQLITE_VTAB_DIRECTONLY: it writes files, so
// a schema someone else wrote (a trigger or view in an untrusted database) must not be able to use
// it.
#include <unistd.h>

#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "ext/export.h"
#include "ext/export_writer.h"
#include "ext/remote_options.h"
#include "format/remote/remote_url.h"

namespace pq::ext {

struct WriteTable {
  sqlite3_vtab base;           // must come first
  bool is_write_table = true;  // must follow base: the parquet module tells its tables apart by it
  std::string path;            // the target file
  std::vector<ExportColumn> columns;
  ExportOptions options;
  std::unique_ptr<ExportWriter> writer;  // the file of the transaction in progress
  bool in_transaction = false;           // xBegin seen, no xCommit/xRollback yet
  bool written = false;                  // an earlier transaction committed the file
  std::string broken;                    // non-empty: why the transaction in progress cannot commit
  std::vector<int64_t> savepoint_rows;   // rows at the start of savepoint i
};

namespace {

struct WriteCursor {
  sqlite3_vtab_cursor base;  // must come first
};

WriteTable* AsTable(sqlite3_vtab* vtab) {
  return reinterpret_cast<WriteTable*>(vtab);
}

int Fail(sqlite3_vtab* vtab, const std::string& message) {
  return SetVtabError(vtab, Status::InvalidArgument(message));
}

std::string QuoteIdentifier(const std::string& name) {
  std::string out = "\"";
  for (char c : name) {
    out.push_back(c);
    if (c == '"') out.push_back('"');
  }
  return out + "\"";
}

Status StartWriter(WriteTable* t) {
  if (t->writer) return Status::OK();
  PQ_ASSIGN_OR_RETURN(t->writer, ExportWriter::Make(t->path, t->columns, t->options));
  return Status::OK();
}

int CreateOrConnect(sqlite3*, void*, int, const char* const*, sqlite3_vtab**, char** err) {
  // Never called: the parquet module creates write tables through ConnectWriteTable.
  *err = SqliteStrdup("parquet: write tables are created through the parquet module");
  return SQLITE_ERROR;
}

int Disconnect(sqlite3_vtab* vtab) {
  delete AsTable(vtab);  // a pending writer removes its temporary
  return SQLITE_OK;
}

// xBestIndex: nothing to plan; xFilter refuses every scan.
int BestIndex(sqlite3_vtab*, sqlite3_index_info* info) {
  info->idxNum = 0;
  info->estimatedCost = 1;
  info->estimatedRows = 1;
  return SQLITE_OK;
}

int Open(sqlite3_vtab* vtab, sqlite3_vtab_cursor** out) {
  return Guarded(vtab, [&]() -> int {
    auto cursor = std::make_unique<WriteCursor>();
    std::memset(&cursor->base, 0, sizeof(cursor->base));
    *out = &cursor.release()->base;
    return SQLITE_OK;
  });
}

int Close(sqlite3_vtab_cursor* cur) {
  delete reinterpret_cast<WriteCursor*>(cur);
  return SQLITE_OK;
}

// Scans are refused: that is also what makes UPDATE and DELETE fail, since they scan first.
int Filter(sqlite3_vtab_cursor* cur, int, const char*, int, sqlite3_value**) {
  return Fail(cur->pVtab,
              "parquet tables are append-only: a table created for writing cannot be read, "
              "updated or deleted from (read the file it wrote with a parquet table "
              "without schema=)");
}
int Next(sqlite3_vtab_cursor*) {
  return SQLITE_OK;
}
int Eof(sqlite3_vtab_cursor*) {
  return 1;
}
int Column(sqlite3_vtab_cursor*, sqlite3_context* ctx, int) {
  sqlite3_result_null(ctx);
  return SQLITE_OK;
}
int Rowid(sqlite3_vtab_cursor*, sqlite_int64* rowid) {
  *rowid = 0;
  return SQLITE_OK;
}

// xUpdate: argc == 1 is a DELETE; argv[0] not NULL an UPDATE; else an INSERT of argv[2..].
int Update(sqlite3_vtab* vtab, int argc, sqlite3_value** argv, sqlite_int64* rowid) {
  return Guarded(vtab, [&]() -> int {
    WriteTable* t = AsTable(vtab);
    if (argc == 1 || sqlite3_value_type(argv[0]) != SQLITE_NULL) {
      return Fail(vtab, "parquet tables are append-only: UPDATE and DELETE are not supported");
    }
    if (t->written) {
      return Fail(
          vtab,
          "'" + t->path +
              "' was already written by an earlier transaction and Parquet files "
              "cannot be appended to; insert all rows in one transaction, or create a new table");
    }
    if (!t->broken.empty()) return Fail(vtab, t->broken);
    if (static_cast<size_t>(argc - 2) != t->columns.size())
      return Fail(vtab, "wrong number of values");
    Status s = StartWriter(t);
    if (s.ok()) s = t->writer->AppendRow(argv + 2);
    if (!s.ok()) {
      // A failure while streaming to the file (not a rejected value) spoils the transaction. So
      // does a rejected value when no savepoint lets SQLite take back the statement's earlier rows.
      if (t->broken.empty()) {
        if (s.code() != StatusCode::kInvalidArgument) {
          t->broken = "the Parquet file of this transaction could not be written: " + s.message();
        } else if (t->savepoint_rows.empty()) {
          t->broken = "an INSERT into '" + t->path +
                      "' failed after some of its rows were taken; this "
                      "transaction cannot commit (roll it back)";
        }
      }
      return SetVtabError(vtab, s);
    }
    *rowid = t->writer->rows();
    return SQLITE_OK;
  });
}

int Begin(sqlite3_vtab* vtab) {
  WriteTable* t = AsTable(vtab);
  t->in_transaction = true;
  t->broken.clear();
  t->savepoint_rows.clear();
  return SQLITE_OK;
}

// xSync: the file of the transaction is completed and fsynced under its temporary name.
int Sync(sqlite3_vtab* vtab) {
  return Guarded(vtab, [&]() -> int {
    WriteTable* t = AsTable(vtab);
    if (!t->in_transaction || t->written) return SQLITE_OK;
    if (!t->broken.empty()) return Fail(vtab, t->broken);
    Status s = StartWriter(t);
    if (s.ok()) s = t->writer->Finish();
    if (!s.ok()) {
      t->writer.reset();
      return SetVtabError(vtab, s);
    }
    return SQLITE_OK;
  });
}

// xCommit: the finished file is renamed over the target. (SQLite ignores errors here: the database
// has committed already. A failed rename leaves no file behind and the target untouched.)
int Commit(sqlite3_vtab* vtab) {
  return Guarded(vtab, [&]() -> int {
    WriteTable* t = AsTable(vtab);
    int rc = SQLITE_OK;
    if (t->in_transaction && t->writer) {
      Status s = t->writer->Publish();
      if (s.ok()) {
        t->written = true;
      } else {
        rc = SetVtabError(vtab, s);
      }
    }
    t->writer.reset();
    t->in_transaction = false;
    t->savepoint_rows.clear();
    return rc;
  });
}

int Rollback(sqlite3_vtab* vtab) {
  WriteTable* t = AsTable(vtab);
  t->writer.reset();  // removes the temporary
  t->in_transaction = false;
  t->broken.clear();
  t->savepoint_rows.clear();
  return SQLITE_OK;
}

int64_t CurrentRows(const WriteTable* t) {
  return t->writer ? t->writer->rows() : 0;
}

int Savepoint(sqlite3_vtab* vtab, int i) {
  return Guarded(vtab, [&]() -> int {
    WriteTable* t = AsTable(vtab);
    if (i < 0) return SQLITE_OK;
    t->savepoint_rows.resize(static_cast<size_t>(i) + 1, CurrentRows(t));
    t->savepoint_rows[static_cast<size_t>(i)] = CurrentRows(t);
    return SQLITE_OK;
  });
}

int Release(sqlite3_vtab* vtab, int i) {
  WriteTable* t = AsTable(vtab);
  if (i >= 0 && static_cast<size_t>(i) < t->savepoint_rows.size())
    t->savepoint_rows.resize(static_cast<size_t>(i));
  return SQLITE_OK;
}

int RollbackTo(sqlite3_vtab* vtab, int i) {
  return Guarded(vtab, [&]() -> int {
    WriteTable* t = AsTable(vtab);
    if (i < 0 || static_cast<size_t>(i) >= t->savepoint_rows.size()) return SQLITE_OK;
    const int64_t rows = t->savepoint_rows[static_cast<size_t>(i)];
    t->savepoint_rows.resize(static_cast<size_t>(i) + 1);
    if (t->writer && t->writer->rows() > rows) {
      Status s = t->writer->TruncateRows(rows);
      if (!s.ok() && t->broken.empty()) {
        t->broken = "rows of a statement that was rolled back were already written to '" + t->path +
                    "'; this transaction cannot commit (roll it back)";
      }
    }
    return SQLITE_OK;
  });
}

const sqlite3_module kWriteTableModule = {
    /* iVersion */ 2,
    /* xCreate */ CreateOrConnect,
    /* xConnect */ CreateOrConnect,
    /* xBestIndex */ BestIndex,
    /* xDisconnect */ Disconnect,
    /* xDestroy */ Disconnect,  // DROP TABLE never deletes a file
    /* xOpen */ Open,
    /* xClose */ Close,
    /* xFilter */ Filter,
    /* xNext */ Next,
    /* xEof */ Eof,
    /* xColumn */ Column,
    /* xRowid */ Rowid,
    /* xUpdate */ Update,
    /* xBegin */ Begin,
    /* xSync */ Sync,
    /* xCommit */ Commit,
    /* xRollback */ Rollback,
    /* xFindFunction */ nullptr,
    /* xRename */ nullptr,
    /* xSavepoint */ Savepoint,
    /* xRelease */ Release,
    /* xRollbackTo */ RollbackTo,
    /* xShadowName */ nullptr,
};

}  // namespace

bool IsWriteTableOptions(const OptionList& opts) {
  return opts.Has("schema");
}

int ConnectWriteTable(sqlite3* db, const std::string& path, const OptionList& opts,
                      std::shared_ptr<const crypto::KeyRegistry> keys,
                      std::shared_ptr<const remote::SettingsRegistry> remote, sqlite3_vtab** out, char** err) {
  return Guarded(nullptr, [&]() -> int {
    auto fail = [err](const Status& s) {
      *err = SqliteStrdup(s.message());
      return SQLITE_ERROR;
    };
    Status known = opts.CheckKnown(ExportOptionNames(), "parquet table");
    if (!known.ok()) return fail(known);
    Result<ExportOptions> options = ParseExportOptions(opts, std::move(keys));
    if (!options.ok()) return fail(options.status());
    options->remote = MakeRemoteAccess(db, std::move(remote), options->remote_settings);
    if (path.empty()) return fail(Status::InvalidArgument("parquet: the output path is empty"));
    auto table = std::make_unique<WriteTable>();
    std::memset(&table->base, 0, sizeof(table->base));
    table->path = path;
    table->columns = options->schema;
    table->options = *std::move(options);
    // Resolve the column names the options use now, so that mistakes show at CREATE.
    Result<std::unique_ptr<ExportWriter>> probe =
        ExportWriter::Make(path, table->columns, table->options);
    if (!probe.ok()) return fail(probe.status());
    const size_t slash = path.rfind('/');
    const std::string dir = slash == std::string::npos ? "."
                            : slash == 0               ? "/"
                                                       : path.substr(0, slash);
    if (!remote::IsRemoteLocation(path) && ::access(dir.c_str(), W_OK) != 0) {
      return fail(Status::IOError("cannot write '" + path + "': the folder '" + dir +
                                  "' does not exist or is not writable"));
    }
    std::string sql = "CREATE TABLE x(";
    for (size_t i = 0; i < table->columns.size(); ++i) {
      sql += (i ? ", " : "") + QuoteIdentifier(table->columns[i].name) + " " +
             DeclaredTypeText(table->columns[i].type);
    }
    sql += ")";
    if (sqlite3_declare_vtab(db, sql.c_str()) != SQLITE_OK) {
      return fail(
          Status::InvalidArgument(std::string("cannot declare the table: ") + sqlite3_errmsg(db)));
    }
    // The table writes files: a schema someone else wrote must not be able to use it.
    sqlite3_vtab_config(db, SQLITE_VTAB_DIRECTONLY);
    *out = &table.release()->base;
    return SQLITE_OK;
  });
}

const sqlite3_module& WriteTableModule() {
  return kWriteTableModule;
}

}  // namespace pq::ext
