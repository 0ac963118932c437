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
// with no rows, unless an INSERT of it failed or ROLLBACK TO took rows back: then, as a native
// table would be unchanged, it writes nothing and the table may still write in a later one.
// A failed statement leaves the transaction as it was before the statement, as on a native table,
// and COMMIT writes the rows of the statements that succeeded. A statement that fails on its first
// row took nothing: ExportWriter::AppendRow refuses a value before it stores the row. A statement
// that fails after taking rows (INSERT ... SELECT, a multi-row VALUES) runs inside a statement
// savepoint, and so does everything under a user's SAVEPOINT: SQLite 3.40 calls xSavepoint(i)
// when savepoint i opens (for savepoints opened before the table joined the transaction, right
// after xBegin, with the index of the newest), xRollbackTo(i) to go back to it and xRelease(i) to
// forget it and those after it (sqlite3VtabSavepoint, vdbeCloseStatement). Savepoint i is the
// ExportWriter's take-back point i + 1; point 0 is the transaction's start. Taking rows back works
// whether they are still in memory or already in the temporary file (export_writer.h says how,
// with memory as bounded as without savepoints). Only a failure to write the temporary (a full
// disk) spoils the transaction: COMMIT then fails with an error that says so.
// A table writes its file once: a later transaction that inserts into it is an error (Parquet files
// cannot be appended to). Create a new table, or insert everything in one transaction. A table the
// connection did not create (a database file opened again) refuses to replace an existing target,
// which it may have written in an earlier session; one it created replaces only the file it found
// then (CheckMayReplaceTarget).
//
// The table is append-only: reading it (SELECT), UPDATE and DELETE are errors; read the written
// file with a parquet table made without schema=. It is SQLITE_VTAB_DIRECTONLY: it writes files, so
// a schema someone else wrote (a trigger or view in an untrusted database) must not be able to use
// it.
#include <sys/stat.h>
#include <unistd.h>

#include <cctype>
#include <cstring>
#include <filesystem>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "ext/export.h"
#include "ext/export_progress.h"
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
  std::unique_ptr<TargetClaim> claim;    // held with `writer`
  bool in_transaction = false;           // xBegin seen, no xCommit/xRollback yet
  // In the transaction in progress: an INSERT into the table failed, or ROLLBACK TO took rows back.
  // With no row left at COMMIT, no file is written (skip_file), as a native table would be unchanged;
  // a transaction whose INSERTs succeeded without rows still writes a file with no rows.
  bool refused_or_taken_back = false;
  bool skip_file = false;
  bool written = false;                  // an earlier transaction committed the file
  bool target_checked = false;           // CheckMayReplaceTarget passed in this transaction
  std::shared_ptr<WrittenTables> written_tables;  // the connection's (export.h), which outlive this object
  std::string database;                  // the database's file, or its schema name when it has none
  std::string name;                      // the table's name, lower case
  sqlite3* db = nullptr;
  std::string broken;                    // non-empty: why the transaction in progress cannot commit
  // Non-empty: why the file of the last committed transaction did not appear (xCommit cannot fail
  // the COMMIT); the next statement on the table says so, once.
  std::string unpublished;
  std::unique_ptr<ExportProgress> progress;  // progress=1: the transaction's rows on stderr
  // Once xSync finished the file (and the COMMIT then failed, with SQLITE_BUSY, leaving the
  // transaction open): the rows before each take-back point, which the writer no longer keeps, so
  // that a ROLLBACK TO that would take rows back from the finished file fails instead of leaving
  // them in it.
  std::vector<int64_t> finished_points;
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

// The writer of the transaction, with its take-back point 0 at the start (savepoint -1).
Status StartWriter(WriteTable* t) {
  if (t->writer) return Status::OK();
  PQ_RETURN_IF_ERROR(CheckOutputFile(t->path));
  PQ_ASSIGN_OR_RETURN(std::unique_ptr<TargetClaim> claim, TargetClaim::Take(t->path, TargetClaim::kWriteTable));
  PQ_ASSIGN_OR_RETURN(std::unique_ptr<ExportWriter> writer,
                      ExportWriter::Make(t->path, t->columns, t->options));
  PQ_RETURN_IF_ERROR(writer->PushTakeBackPoint());
  t->writer = std::move(writer);
  t->claim = std::move(claim);
  if (t->options.progress) {
    t->progress = std::make_unique<ExportProgress>("parquet table '" + t->path + "'");
  }
  return Status::OK();
}

// Ends the transaction's file: a writer not published removes its temporary.
void DropWriter(WriteTable* t) {
  t->writer.reset();
  t->claim.reset();
  t->finished_points.clear();
}

// The error of a COMMIT whose file did not appear, for the table's next statement (once).
int ReportUnpublished(sqlite3_vtab* vtab, WriteTable* t) {
  const std::string message = "the last COMMIT that wrote rows to this table could not put '" + t->path +
                              "' in place (" + t->unpublished + "): those rows are not in it";
  t->unpublished.clear();
  return Fail(vtab, message);
}

// The transaction cannot commit any more (the temporary could not be written).
void Spoil(WriteTable* t, const Status& why) {
  if (t->broken.empty()) {
    t->broken = "the Parquet file of this transaction could not be written (" + why.message() +
                "); this transaction cannot commit (roll it back)";
  }
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

// The table's entry in WrittenTables.
std::string WrittenKey(const WriteTable& t) {
  return t.database + '\x1f' + t.name + '\x1f' + t.path;
}

// DROP TABLE: a table created again under the name writes its file anew. (Never deletes a file.)
// Not a DROP inside a transaction, which a ROLLBACK would undo, connecting the table again: that
// table must still refuse to write; so must, loudly, one created again under the name over the same
// file after such a DROP.
int Destroy(sqlite3_vtab* vtab) {
  WriteTable* t = AsTable(vtab);
  if (t->written_tables && sqlite3_get_autocommit(t->db)) t->written_tables->Forget(WrittenKey(*t));
  return Disconnect(vtab);
}

// ALTER TABLE ... RENAME: the table connected again under its new name still knows it wrote, and
// whether this connection created it.
int Rename(sqlite3_vtab* vtab, const char* new_name) {
  WriteTable* t = AsTable(vtab);
  const std::string from = WrittenKey(*t);
  t->name = LowerAscii(new_name);
  if (t->written_tables) t->written_tables->Move(from, WrittenKey(*t));
  return SQLITE_OK;
}

// Whether the table may put its file at the target now (at its first row of a transaction, and
// again at xSync): not over a file that is not what it was when this connection created the table
// (another connection or program wrote it since), nor, for a table this connection did not create
// (its database file opened again), over any file: the table may have written it in an earlier
// session, and a Parquet file cannot be appended to. (A table that wrote its file in this connection
// refuses earlier, through `written`.) An s3:// target is looked at with one HEAD (TargetStateOf); one S3
// will not tell about (403), or an http(s) one, is not judged.
Status CheckMayReplaceTarget(const WriteTable& t) {
  if (!t.written_tables) return Status::OK();
  PQ_ASSIGN_OR_RETURN(const TargetState now, TargetStateOf(t.path, t.options.remote.get()));
  if (!now.known) return Status::OK();
  const std::optional<TargetState> created = t.written_tables->CreatedWith(WrittenKey(t));
  if (created) {
    if (!created->known || *created == now) return Status::OK();
    return Status::InvalidArgument(
        "'" + t.path + "' " + (now.exists ? "changed" : "was removed") +
        " after this table was created (something else wrote it: parquet_export, another connection or a "
        "program): the table replaces only the "
        "file it found at CREATE VIRTUAL TABLE; DROP TABLE and create it again to write the file anew");
  }
  if (!now.exists) return Status::OK();
  return Status::InvalidArgument(
      "'" + t.path + "' exists and this table was created by an earlier connection to the database, which "
      "may have written it: Parquet files cannot be appended to; DROP TABLE and create the table again to "
      "write the file anew (or move the file away)");
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
    if (!t->unpublished.empty()) return ReportUnpublished(vtab, t);
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
    if (!t->target_checked) {
      Status may = CheckMayReplaceTarget(*t);
      if (!may.ok()) {
        t->refused_or_taken_back = true;
        return SetVtabError(vtab, may);
      }
      t->target_checked = true;
    }
    if (t->writer && t->writer->finished()) {
      return Fail(vtab, "a COMMIT of this transaction failed after the Parquet file of '" + t->path +
                            "' was finished: no more rows can be inserted into it; COMMIT again, or roll "
                            "the transaction back");
    }
    Status s = StartWriter(t);
    if (s.ok()) s = t->writer->AppendRow(argv + 2);
    if (!s.ok()) {
      t->refused_or_taken_back = true;
      // A refused value took nothing (the statement's earlier rows are SQLite's to take back through
      // the statement savepoint); a failure to write the file spoils the transaction.
      if (t->writer && t->writer->failed()) Spoil(t, s);
      return SetVtabError(vtab, s);
    }
    *rowid = t->writer->rows();
    if (t->progress) t->progress->Row();
    return SQLITE_OK;
  });
}

// xBegin: the writer starts now (nothing on disk yet), so that savepoints have a writer to mark.
int Begin(sqlite3_vtab* vtab) {
  return Guarded(vtab, [&]() -> int {
    WriteTable* t = AsTable(vtab);
    t->in_transaction = true;
    t->broken.clear();
    t->refused_or_taken_back = false;
    t->skip_file = false;
    t->target_checked = false;
    DropWriter(t);
    if (t->written || !t->unpublished.empty()) return SQLITE_OK;  // xUpdate refuses the rows
    Status s = StartWriter(t);
    if (!s.ok()) return SetVtabError(vtab, s);
    return SQLITE_OK;
  });
}

// xSync: the file of the transaction is completed and fsynced under its temporary name, and what
// xCommit's rename needs is checked now, while an error can still fail the COMMIT (SQLite ignores
// xCommit's). A COMMIT that failed after this (SQLITE_BUSY) may be tried again: the file stays
// finished, and the second xSync only checks again.
int Sync(sqlite3_vtab* vtab) {
  return Guarded(vtab, [&]() -> int {
    WriteTable* t = AsTable(vtab);
    if (!t->in_transaction || t->written || !t->unpublished.empty() || t->skip_file) return SQLITE_OK;
    if (!t->broken.empty()) return Fail(vtab, t->broken);
    if (t->refused_or_taken_back && (!t->writer || (t->writer->rows() == 0 && !t->writer->finished()))) {
      // Every row the transaction tried failed or was taken back: the target stays as it was.
      t->skip_file = true;
      DropWriter(t);
      return SQLITE_OK;
    }
    Status s = StartWriter(t);
    if (s.ok() && !t->writer->finished()) {
      t->finished_points.clear();
      for (size_t k = 0; k < t->writer->take_back_points(); ++k) {
        t->finished_points.push_back(t->writer->take_back_point_rows(k));
      }
      t->writer->PopTakeBackPoints(0);  // committing: nothing can be taken back any more
      s = t->writer->Finish();
    }
    if (!s.ok()) {
      DropWriter(t);
      return SetVtabError(vtab, s);
    }
    // The target may have become a folder, or its folder unwritable, since the first row, or
    // another connection or program may have written it.
    s = CheckOutputFile(t->path);
    if (s.ok()) s = CheckMayReplaceTarget(*t);
    if (!s.ok()) return SetVtabError(vtab, s);  // the finished temporary goes at xRollback
    return SQLITE_OK;
  });
}

// xCommit: the finished file is renamed over the target. SQLite ignores errors here (the database
// has committed already): a failed rename leaves no file behind and the target untouched, and the
// table's next statement reports it (ReportUnpublished).
int Commit(sqlite3_vtab* vtab) {
  return Guarded(vtab, [&]() -> int {
    WriteTable* t = AsTable(vtab);
    int rc = SQLITE_OK;
    if (t->in_transaction && t->writer) {
      Status s = t->writer->Publish();
      if (s.ok()) {
        t->written = true;
        if (t->written_tables) t->written_tables->Add(WrittenKey(*t));
        if (t->progress) t->progress->Done(t->writer->rows());
      } else {
        t->unpublished = s.message();
        rc = SetVtabError(vtab, s);
      }
    }
    DropWriter(t);
    t->progress.reset();
    t->in_transaction = false;
    return rc;
  });
}

int Rollback(sqlite3_vtab* vtab) {
  WriteTable* t = AsTable(vtab);
  DropWriter(t);  // removes the temporary
  t->progress.reset();
  t->in_transaction = false;
  t->broken.clear();
  return SQLITE_OK;
}

// Savepoint i is take-back point i + 1 (point 0: the transaction's start). SQLite numbers
// savepoints from 0, outermost first; savepoints opened before the table joined the transaction
// get points at its start.
int Savepoint(sqlite3_vtab* vtab, int i) {
  return Guarded(vtab, [&]() -> int {
    WriteTable* t = AsTable(vtab);
    if (i < 0 || !t->writer || !t->broken.empty()) return SQLITE_OK;
    const size_t point = static_cast<size_t>(i) + 1;
    if (t->writer->finished()) {  // after a failed COMMIT: no rows can follow the point
      if (t->finished_points.size() > point) t->finished_points.resize(point);
      while (t->finished_points.size() <= point) t->finished_points.push_back(t->writer->rows());
      return SQLITE_OK;
    }
    t->writer->PopTakeBackPoints(point);
    while (t->writer->take_back_points() <= point) {
      Status s = t->writer->PushTakeBackPoint();
      if (!s.ok()) {
        Spoil(t, s);
        return SetVtabError(vtab, s);
      }
    }
    return SQLITE_OK;
  });
}

int Release(sqlite3_vtab* vtab, int i) {
  WriteTable* t = AsTable(vtab);
  if (i >= 0 && t->writer) {
    const size_t keep = static_cast<size_t>(i) + 1;
    t->writer->PopTakeBackPoints(keep);
    if (t->finished_points.size() > keep) t->finished_points.resize(keep);
  }
  return SQLITE_OK;
}

int RollbackTo(sqlite3_vtab* vtab, int i) {
  return Guarded(vtab, [&]() -> int {
    WriteTable* t = AsTable(vtab);
    if (!t->writer || !t->broken.empty()) return SQLITE_OK;
    const size_t point = i < 0 ? 0 : static_cast<size_t>(i) + 1;
    if (t->writer->finished()) {
      // A COMMIT that failed (SQLITE_BUSY) finished the file: rows since the point cannot be taken
      // out of it any more, and must not be committed once the native rows are rolled back.
      if (point < t->finished_points.size() && t->finished_points[point] < t->writer->rows()) {
        const Status s = Status::InvalidArgument(
            "ROLLBACK TO cannot take rows back from '" + t->path +
            "': a COMMIT of this transaction that failed had already finished the file");
        Spoil(t, s);
        return SetVtabError(vtab, s);
      }
      return SQLITE_OK;
    }
    if (point >= t->writer->take_back_points()) return SQLITE_OK;  // no rows since
    const int64_t rows = t->writer->rows();
    Status s = t->writer->TakeBackTo(point);
    if (!s.ok()) {
      Spoil(t, s);
      return SetVtabError(vtab, s);
    }
    if (t->writer->rows() < rows) t->refused_or_taken_back = true;
    return SQLITE_OK;
  });
}

const sqlite3_module kWriteTableModule = {
    /* iVersion */ 2,
    /* xCreate */ CreateOrConnect,
    /* xConnect */ CreateOrConnect,
    /* xBestIndex */ BestIndex,
    /* xDisconnect */ Disconnect,
    /* xDestroy */ Destroy,
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
    /* xRename */ Rename,
    /* xSavepoint */ Savepoint,
    /* xRelease */ Release,
    /* xRollbackTo */ RollbackTo,
    /* xShadowName */ nullptr,
};

}  // namespace

bool IsWriteTableOptions(const OptionList& opts) {
  return opts.Has("schema");
}

Result<TargetState> TargetStateOf(const std::string& path, remote::RemoteAccess* remote) {
  TargetState state;
  if (remote::IsRemoteLocation(path)) {
    state.known = false;
    Result<remote::RemoteUrl> url = remote::ParseRemoteUrl(path);
    if (remote == nullptr || !url.ok() || url->scheme != remote::UrlScheme::kS3) return state;
    PQ_ASSIGN_OR_RETURN(remote::S3Presence presence, remote->Presence(path));
    if (presence.kind == remote::S3Presence::kUnknown) return state;
    state.known = true;
    state.exists = presence.kind == remote::S3Presence::kPresent;
    if (state.exists) {
      state.size = presence.info.size;
      state.version = presence.info.etag + '\n' + presence.info.last_modified;
    }
    return state;
  }
  struct stat st;
  if (::stat(path.c_str(), &st) != 0) return state;
  state.exists = true;
  state.device = static_cast<uint64_t>(st.st_dev);
  state.inode = static_cast<uint64_t>(st.st_ino);
  state.size = static_cast<int64_t>(st.st_size);
  state.mtime_ns = static_cast<int64_t>(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec;
  return state;
}

int ConnectWriteTable(sqlite3* db, const char* schema, const char* table_name, const std::string& path,
                      const OptionList& opts, std::shared_ptr<const crypto::KeyRegistry> keys,
                      std::shared_ptr<const remote::SettingsRegistry> remote,
                      std::shared_ptr<WrittenTables> written, sqlite3_vtab** out, char** err) {
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
    // Connected again (a new object after a schema change) once its file was written: still written.
    const char* file = sqlite3_db_filename(db, schema);
    table->database = file != nullptr && file[0] != '\0' ? std::string(file) : LowerAscii(schema);
    table->name = LowerAscii(table_name);
    table->db = db;
    table->written_tables = std::move(written);
    table->written = table->written_tables && table->written_tables->Has(WrittenKey(*table));
    table->columns = options->schema;
    table->options = *std::move(options);
    if (table->written_tables && BeingCreated(db, schema, table_name)) {
      // A target that cannot be looked at now (an S3 request failing) is not judged later either.
      Result<TargetState> state = TargetStateOf(path, table->options.remote.get());
      table->written_tables->Created(WrittenKey(*table), state.ok() ? *state : TargetState{.known = false});
    }
    // Resolve the column names the options use now, so that mistakes show at CREATE.
    Result<std::unique_ptr<ExportWriter>> probe =
        ExportWriter::Make(path, table->columns, table->options);
    if (!probe.ok()) return fail(probe.status());
    Status target = CheckOutputFile(path);
    if (!target.ok()) return fail(target);
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
