// The `parquet` virtual table: query Parquet files with SQL.
//
//   .load ./build/parquet
//   CREATE VIRTUAL TABLE temp.t USING parquet('data/trips.parquet', decimal=text);
//   SELECT vendor, count(*) FROM t WHERE fare > 10 GROUP BY vendor;
//
// SOURCE is a path, a glob (`*`, `?`, `[...]`) or several of those separated by commas. Every file must
// have the same top-level fields. Columns: one per top-level field, named as in the file and declared
// with a type whose affinity matches the values (ValueOptions), then the hidden columns `filename` and
// `file_row_number`. The rowid is the row's position in the whole dataset.
//
// Options (module arguments after SOURCE, each key=value; unknown or repeated keys are errors):
//   binary_as_string=0|1     unannotated BYTE_ARRAY as TEXT instead of BLOB
//   decimal=real|text        DECIMAL as REAL (default) or exact TEXT
//   timestamp=text|integer   TIMESTAMP/INT96 as ISO text (default) or the stored integer
//   verify_checksums=0|1     check page CRC-32s when present (default 1)
#include "ext/parquet_vtab.h"

#include <glob.h>
#include <sys/stat.h>

#include <memory>
#include <string>
#include <vector>

#include "ext/export.h"
#include "ext/options.h"
#include "format/reader/file_reader.h"
#include "format/reader/table_scanner.h"

namespace pq::ext {

namespace {

// The options this module accepts; the rest are refused by name.
const std::vector<std::string_view> kTableOptions = {"binary_as_string", "decimal", "timestamp",
                                                      "verify_checksums"};

struct TableConfig {
  ReaderOptions reader;
  ValueOptions values;
};

Result<TableConfig> ParseTableOptions(const OptionList& opts) {
  PQ_RETURN_IF_ERROR(opts.CheckKnown(kTableOptions, "parquet table"));
  TableConfig c;
  PQ_ASSIGN_OR_RETURN(c.values.binary_as_string, opts.GetBool("binary_as_string", false));
  PQ_ASSIGN_OR_RETURN(std::string dec, opts.GetChoice("decimal", "real", {"real", "text"}));
  c.values.decimal = dec == "text" ? ValueOptions::Decimal::kText : ValueOptions::Decimal::kReal;
  PQ_ASSIGN_OR_RETURN(std::string ts, opts.GetChoice("timestamp", "text", {"text", "integer"}));
  c.values.timestamp = ts == "integer" ? ValueOptions::Timestamp::kInteger : ValueOptions::Timestamp::kText;
  PQ_ASSIGN_OR_RETURN(c.reader.verify_checksums, opts.GetBool("verify_checksums", true));
  return c;
}

bool HasGlobChars(const std::string& s) { return s.find_first_of("*?[") != std::string::npos; }

bool FileExists(const std::string& p) {
  struct stat st;
  return ::stat(p.c_str(), &st) == 0;
}

// Expands SOURCE into a sorted, de-duplicated list of files.
Result<std::vector<std::string>> ExpandSource(const std::string& source) {
  std::vector<std::string> parts;
  if (FileExists(source) || source.find(',') == std::string::npos) {
    parts.push_back(source);
  } else {
    size_t start = 0;
    while (start <= source.size()) {
      size_t comma = source.find(',', start);
      if (comma == std::string::npos) comma = source.size();
      std::string p = source.substr(start, comma - start);
      while (!p.empty() && p.front() == ' ') p.erase(p.begin());
      while (!p.empty() && p.back() == ' ') p.pop_back();
      if (!p.empty()) parts.push_back(p);
      start = comma + 1;
    }
  }
  std::vector<std::string> files;
  for (const std::string& p : parts) {
    if (!HasGlobChars(p) || FileExists(p)) {
      files.push_back(p);
      continue;
    }
    glob_t g;
    int rc = ::glob(p.c_str(), GLOB_ERR, nullptr, &g);
    if (rc == GLOB_NOMATCH) {
      globfree(&g);
      return Status::IOError("no file matches '" + p + "'");
    }
    if (rc != 0) {
      globfree(&g);
      return Status::IOError("cannot expand '" + p + "'");
    }
    std::vector<std::string> matched;
    for (size_t i = 0; i < g.gl_pathc; ++i) {
      struct stat st;
      if (::stat(g.gl_pathv[i], &st) == 0 && S_ISREG(st.st_mode)) matched.push_back(g.gl_pathv[i]);
    }
    globfree(&g);
    std::sort(matched.begin(), matched.end());
    files.insert(files.end(), matched.begin(), matched.end());
  }
  if (files.empty()) return Status::IOError("no file in '" + source + "'");
  return files;
}

std::string QuoteIdentifier(const std::string& name) {
  std::string out = "\"";
  for (char c : name) {
    out.push_back(c);
    if (c == '"') out.push_back('"');
  }
  return out + "\"";
}

std::string LowerAscii(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

struct ParquetTable {
  sqlite3_vtab base;  // must come first
  bool is_write_table = false;  // same place as in the writable table (export.h)
  std::vector<std::shared_ptr<const FileReader>> files;  // every file of the dataset, footers read once
  std::vector<int64_t> file_first_row;                    // dataset rowid of each file's first row
  int64_t total_rows = 0;
  int num_fields = 0;          // top-level fields = first num_fields SQL columns
  int filename_column = 0;     // hidden `filename`
  int file_row_number_column = 0;  // hidden `file_row_number`
  TableConfig config;
};

struct ParquetCursor {
  sqlite3_vtab_cursor base;  // must come first
  ParquetTable* table = nullptr;
  std::vector<int> projected_fields;  // field indexes to decode
  std::vector<int> slot_of_field;     // field -> slot in scanner, -1 when not projected
  size_t file_index = 0;
  std::unique_ptr<TableScanner> scanner;
  int64_t row_in_batch = 0;
  int64_t batch_rows = 0;
  bool eof = true;
  std::string scratch;
};

// Module arguments: argv[0] module, argv[1] database, argv[2] table, argv[3] SOURCE, argv[4..] options.
int Connect(sqlite3* db, void*, int argc, const char* const* argv, sqlite3_vtab** out, char** err) {
  return Guarded(nullptr, [&]() -> int {
    auto fail = [err](const Status& s) {
      *err = SqliteStrdup(s.message());
      return SQLITE_ERROR;
    };
    if (argc < 4) {
      return fail(Status::InvalidArgument("parquet: a file path is required, as in "
                                          "USING parquet('file.parquet')"));
    }
    std::string source = Dequote(argv[3]);
    if (source.find('=') != std::string::npos && !FileExists(source) &&
        source.find('/') == std::string::npos && argv[3][0] != '\'' && argv[3][0] != '"') {
      return fail(Status::InvalidArgument("parquet: the first argument must be the file path"));
    }
    OptionList opts;
    for (int i = 4; i < argc; ++i) {
      Status s = opts.Add(argv[i]);
      if (!s.ok()) return fail(s);
    }
    // With schema=, the table is created for writing (ext/export.cc).
    if (IsWriteTableOptions(opts)) return ConnectWriteTable(db, source, opts, out, err);
    auto config = ParseTableOptions(opts);
    if (!config.ok()) return fail(config.status());
    auto files = ExpandSource(source);
    if (!files.ok()) return fail(files.status());

    auto table = std::make_unique<ParquetTable>();
    std::memset(&table->base, 0, sizeof(table->base));
    table->config = *config;
    for (const std::string& path : *files) {
      auto reader = FileReader::Open(path, table->config.reader);
      if (!reader.ok()) return fail(reader.status());
      table->file_first_row.push_back(table->total_rows);
      // Row groups are the truth: some writers leave FileMetaData.num_rows at 0.
      for (const RowGroup& rg : (*reader)->metadata().row_groups) table->total_rows += rg.num_rows;
      table->files.push_back(std::move(reader).value());
    }
    // The first file defines the columns; every other file must have the same fields and types.
    const Schema& schema = table->files.front()->schema();
    std::string sql = "CREATE TABLE x(";
    std::vector<std::string> seen;
    std::vector<std::string> types;
    for (size_t f = 0; f < schema.fields().size(); ++f) {
      auto type = TableScanner::DeclaredType(schema, static_cast<int>(f), table->config.values);
      if (!type.ok()) return fail(type.status().WithContext(table->files.front()->path()));
      std::string name = schema.fields()[f]->name;
      // SQLite column names are case-insensitive: make duplicates distinct.
      std::string unique = name;
      for (int k = 2; std::find(seen.begin(), seen.end(), LowerAscii(unique)) != seen.end(); ++k) {
        unique = name + "_" + std::to_string(k);
      }
      seen.push_back(LowerAscii(unique));
      types.push_back(*type);
      sql += QuoteIdentifier(unique) + (type->empty() ? "" : " " + *type) + ", ";
    }
    for (size_t i = 1; i < table->files.size(); ++i) {
      const Schema& other = table->files[i]->schema();
      bool same = other.fields().size() == schema.fields().size();
      for (size_t f = 0; same && f < schema.fields().size(); ++f) {
        auto type = TableScanner::DeclaredType(other, static_cast<int>(f), table->config.values);
        same = type.ok() && *type == types[f] && other.fields()[f]->name == schema.fields()[f]->name;
      }
      if (!same) {
        return fail(Status::InvalidArgument("'" + table->files[i]->path() +
                                            "' does not have the same columns as '" +
                                            table->files[0]->path() + "'"));
      }
    }
    table->num_fields = static_cast<int>(schema.fields().size());
    table->filename_column = table->num_fields;
    table->file_row_number_column = table->num_fields + 1;
    sql += "filename TEXT HIDDEN, file_row_number INTEGER HIDDEN)";
    int rc = sqlite3_declare_vtab(db, sql.c_str());
    if (rc != SQLITE_OK) {
      return fail(Status::InvalidArgument(std::string("cannot declare the table: ") + sqlite3_errmsg(db)));
    }
    // The table reads files named in its arguments: a schema someone else wrote (a trigger or view in
    // an untrusted database) must not be able to make this connection read files.
    sqlite3_vtab_config(db, SQLITE_VTAB_DIRECTONLY);
    *out = &table.release()->base;
    return SQLITE_OK;
  });
}

// True for a table created for writing; its callbacks live in WriteTableModule().
bool IsWriteTable(sqlite3_vtab* vtab) { return reinterpret_cast<ParquetTable*>(vtab)->is_write_table; }
const sqlite3_module& W() { return WriteTableModule(); }

int Disconnect(sqlite3_vtab* vtab) {
  if (IsWriteTable(vtab)) return W().xDisconnect(vtab);
  delete reinterpret_cast<ParquetTable*>(vtab);
  return SQLITE_OK;
}

int Destroy(sqlite3_vtab* vtab) {
  if (IsWriteTable(vtab)) return W().xDestroy(vtab);
  return Disconnect(vtab);  // DROP TABLE forgets the table; it never deletes data files
}

// xBestIndex. idxNum is unused (0). idxStr carries the columns the statement uses (colUsed) as a
// hexadecimal mask; bit 63 stands for "column 63 or later". No constraint is consumed: SQLite checks
// every WHERE term itself.
int BestIndex(sqlite3_vtab* vtab, sqlite3_index_info* info) {
  if (IsWriteTable(vtab)) return W().xBestIndex(vtab, info);
  return Guarded(vtab, [&]() -> int {
    auto* table = reinterpret_cast<ParquetTable*>(vtab);
    info->idxNum = 0;
    info->idxStr = sqlite3_mprintf("%llx", static_cast<unsigned long long>(info->colUsed));
    info->needToFreeIdxStr = 1;
    int used = 0;
    for (int i = 0; i < 64; ++i) used += (info->colUsed >> i) & 1;
    info->estimatedRows = table->total_rows;
    info->estimatedCost = static_cast<double>(table->total_rows) * (1 + used);
    // Rows come out in rowid order.
    if (info->nOrderBy == 1 && info->aOrderBy[0].iColumn == -1 && !info->aOrderBy[0].desc) {
      info->orderByConsumed = 1;
    }
    return SQLITE_OK;
  });
}

int Open(sqlite3_vtab* vtab, sqlite3_vtab_cursor** out) {
  if (IsWriteTable(vtab)) return W().xOpen(vtab, out);
  return Guarded(vtab, [&]() -> int {
    auto cursor = std::make_unique<ParquetCursor>();
    std::memset(&cursor->base, 0, sizeof(cursor->base));
    cursor->table = reinterpret_cast<ParquetTable*>(vtab);
    *out = &cursor.release()->base;
    return SQLITE_OK;
  });
}

int Close(sqlite3_vtab_cursor* cur) {
  if (IsWriteTable(cur->pVtab)) return W().xClose(cur);
  delete reinterpret_cast<ParquetCursor*>(cur);
  return SQLITE_OK;
}

// Opens files from c->file_index on until one yields a batch; sets eof at the end of the dataset.
Status AdvanceToRows(ParquetCursor* c) {
  ParquetTable* t = c->table;
  while (true) {
    if (c->scanner) {
      PQ_ASSIGN_OR_RETURN(int64_t n, c->scanner->NextBatch());
      if (n > 0) {
        c->batch_rows = n;
        c->row_in_batch = 0;
        return Status::OK();
      }
      c->scanner.reset();
      ++c->file_index;
    }
    if (c->file_index >= t->files.size()) {
      c->eof = true;
      return Status::OK();
    }
    const auto& file = t->files[c->file_index];
    std::vector<int> row_groups(static_cast<size_t>(file->num_row_groups()));
    for (size_t i = 0; i < row_groups.size(); ++i) row_groups[i] = static_cast<int>(i);
    PQ_ASSIGN_OR_RETURN(c->scanner, TableScanner::Make(file, c->projected_fields, std::move(row_groups),
                                                       t->config.values));
  }
}

int Filter(sqlite3_vtab_cursor* cur, int idx_num, const char* idx_str, int argc, sqlite3_value** argv) {
  if (IsWriteTable(cur->pVtab)) return W().xFilter(cur, idx_num, idx_str, argc, argv);
  auto* c = reinterpret_cast<ParquetCursor*>(cur);
  return Guarded(cur->pVtab, [&]() -> int {
    ParquetTable* t = c->table;
    uint64_t col_used = idx_str ? std::strtoull(idx_str, nullptr, 16) : ~uint64_t{0};
    c->projected_fields.clear();
    c->slot_of_field.assign(static_cast<size_t>(t->num_fields), -1);
    for (int f = 0; f < t->num_fields; ++f) {
      bool used = f >= 63 ? (col_used >> 63) & 1 : (col_used >> f) & 1;
      if (!used) continue;
      c->slot_of_field[static_cast<size_t>(f)] = static_cast<int>(c->projected_fields.size());
      c->projected_fields.push_back(f);
    }
    c->scanner.reset();
    c->file_index = 0;
    c->eof = false;
    c->batch_rows = 0;
    c->row_in_batch = 0;
    Status s = AdvanceToRows(c);
    if (!s.ok()) {
      c->eof = true;
      return SetVtabError(cur->pVtab, s);
    }
    return SQLITE_OK;
  });
}

int Next(sqlite3_vtab_cursor* cur) {
  if (IsWriteTable(cur->pVtab)) return W().xNext(cur);
  auto* c = reinterpret_cast<ParquetCursor*>(cur);
  if (++c->row_in_batch < c->batch_rows) return SQLITE_OK;
  return Guarded(cur->pVtab, [&]() -> int {
    Status s = AdvanceToRows(c);
    if (!s.ok()) {
      c->eof = true;
      return SetVtabError(cur->pVtab, s);
    }
    return SQLITE_OK;
  });
}

int Eof(sqlite3_vtab_cursor* cur) {
  if (IsWriteTable(cur->pVtab)) return W().xEof(cur);
  return reinterpret_cast<ParquetCursor*>(cur)->eof;
}

int64_t CurrentFileRow(const ParquetCursor* c) {
  return c->scanner->batch_first_row() + c->row_in_batch;
}

int Column(sqlite3_vtab_cursor* cur, sqlite3_context* ctx, int col) {
  if (IsWriteTable(cur->pVtab)) return W().xColumn(cur, ctx, col);
  auto* c = reinterpret_cast<ParquetCursor*>(cur);
  ParquetTable* t = c->table;
  if (col == t->filename_column) {
    const std::string& p = t->files[c->file_index]->path();
    sqlite3_result_text(ctx, p.data(), static_cast<int>(p.size()), SQLITE_TRANSIENT);
    return SQLITE_OK;
  }
  if (col == t->file_row_number_column) {
    sqlite3_result_int64(ctx, CurrentFileRow(c));
    return SQLITE_OK;
  }
  int slot = col >= 0 && col < t->num_fields ? c->slot_of_field[static_cast<size_t>(col)] : -1;
  if (slot < 0) {
    sqlite3_result_null(ctx);
    return SQLITE_OK;
  }
  Cell cell = c->scanner->GetCell(slot, c->row_in_batch, &c->scratch);
  switch (cell.type) {
    case CellType::kNull: sqlite3_result_null(ctx); break;
    case CellType::kInteger: sqlite3_result_int64(ctx, cell.i); break;
    case CellType::kReal: sqlite3_result_double(ctx, cell.d); break;
    case CellType::kText:
      sqlite3_result_text64(ctx, cell.bytes.data(), cell.bytes.size(), SQLITE_TRANSIENT, SQLITE_UTF8);
      break;
    case CellType::kBlob:
      sqlite3_result_blob64(ctx, cell.bytes.data(), cell.bytes.size(), SQLITE_TRANSIENT);
      break;
  }
  return SQLITE_OK;
}

int Rowid(sqlite3_vtab_cursor* cur, sqlite_int64* rowid) {
  if (IsWriteTable(cur->pVtab)) return W().xRowid(cur, rowid);
  auto* c = reinterpret_cast<ParquetCursor*>(cur);
  *rowid = c->table->file_first_row[c->file_index] + CurrentFileRow(c);
  return SQLITE_OK;
}

// The callbacks only a writable table has; a read table refuses changes (read-only).
int Update(sqlite3_vtab* vtab, int argc, sqlite3_value** argv, sqlite3_int64* rowid) {
  if (IsWriteTable(vtab)) return W().xUpdate(vtab, argc, argv, rowid);
  SetVtabError(vtab, Status::InvalidArgument("parquet table is read-only; create it with schema=... to write"));
  return SQLITE_READONLY;
}
int Begin(sqlite3_vtab* vtab) { return IsWriteTable(vtab) && W().xBegin ? W().xBegin(vtab) : SQLITE_OK; }
int Sync(sqlite3_vtab* vtab) { return IsWriteTable(vtab) && W().xSync ? W().xSync(vtab) : SQLITE_OK; }
int Commit(sqlite3_vtab* vtab) { return IsWriteTable(vtab) && W().xCommit ? W().xCommit(vtab) : SQLITE_OK; }
int Rollback(sqlite3_vtab* vtab) {
  return IsWriteTable(vtab) && W().xRollback ? W().xRollback(vtab) : SQLITE_OK;
}

int SavepointF(sqlite3_vtab* v, int i) { return IsWriteTable(v) ? W().xSavepoint(v, i) : SQLITE_OK; }
int ReleaseF(sqlite3_vtab* v, int i) { return IsWriteTable(v) ? W().xRelease(v, i) : SQLITE_OK; }
int RollbackToF(sqlite3_vtab* v, int i) { return IsWriteTable(v) ? W().xRollbackTo(v, i) : SQLITE_OK; }
sqlite3_module kParquetModule = {
    /* iVersion */ 3,
    /* xCreate */ Connect,
    /* xConnect */ Connect,
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
    /* xRename */ nullptr,
    /* xSavepoint */ SavepointF,
    /* xRelease */ ReleaseF,
    /* xRollbackTo */ RollbackToF,
    /* xShadowName */ nullptr,
};

}  // namespace

int RegisterParquetModule(sqlite3* db) {
  return sqlite3_create_module_v2(db, "parquet", &kParquetModule, nullptr, nullptr);
}

}  // namespace pq::ext
