// The `parquet` virtual table: query Parquet files with SQL.
//
//   .load ./build/parquet
//   CREATE VIRTUAL TABLE temp.t USING parquet('data/trips.parquet', decimal=text);
//   SELECT vendor, count(*) FROM t WHERE fare > 10 GROUP BY vendor;
//   SELECT parquet_scan_stats('t');   -- what pruning did in that scan (scan_stats.h)
//
// SOURCE is a path, a glob (`*`, `?`, `[...]`, and `**` for any number of folder levels) or several
// of those separated by commas (dataset.h). By default every file must have the same top-level
// fields; with union_by_name=1 the columns are the union of the files' fields, matched by name.
// Columns: one per top-level field, named as in the file and declared with a type whose affinity
// matches the values (ValueOptions), then with hive_partitioning=1 one per `key=value` folder of
// the files' paths (partition columns), then the hidden columns `filename` and `file_row_number`,
// then a hidden column per shredded Variant field, `"v.a"` holding `v ->> '$.a'` (shredded_columns.h).
// The rowid is the row's position in the whole dataset.
//
// Options (module arguments after SOURCE, each key=value; unknown or repeated keys are errors):
//   binary_as_string=0|1     unannotated BYTE_ARRAY as TEXT instead of BLOB
//   decimal=real|text        DECIMAL as REAL or exact TEXT; default REAL up to precision 15, TEXT
//                            beyond (no value changes silently)
//   timestamp=text|integer   TIMESTAMP/INT96 as ISO text (default) or the stored integer
//   variant=json|binary      VARIANT as JSON TEXT (default) or a BLOB of the Variant's metadata
//                            then value (every value keeping its Variant type: what an export to a
//                            VARIANT column copies losslessly)
//   verify_checksums=0|1     check page CRC-32s when present (default 1)
//   max_memory=MIB           what the table's scans may hold at once in column chunk bytes and
//                            decompressed pages (default 4096); more is an error, not an allocation
//   footer_key=KEY, column_keys='col:KEY,...', aad_prefix=TEXT
//                            keys of encrypted files (encryption_options.h); keys registered with
//                            parquet_add_key(id, key) are found by the key ids the files name
//   union_by_name=0|1        columns matched by name across files (default 0)
//   hive_partitioning=0|1    columns from `key=value` folders (default 0)
//   sort_memory=MIB          ORDER BY / GROUP BY on one column done here when the rows are estimated
//                            to take at most this (default 256; 0: always by SQLite); see Ordering
//   threads=N                1: everything on the calling thread. N > 1: N-1 worker threads of
//                            the table check, decrypt and decompress each column's next page while
//                            the current one is decoded (page_reader.h, "Reading ahead"); they
//                            start with the first scan that reads ahead. Default: 2 on a machine
//                            of 2 or more hardware threads, else 1 (DefaultScanThreads)
//   page_cache=MIB           decompressed pages kept for lookups that land on them again, such as a
//                            join probing the table once per outer row (page_cache.h; default 32, at
//                            most a quarter of max_memory, which they count against; 0: none)
//
// Footers are read once, when the table is created. Each scan (xFilter) first compares every file's
// size, modification time and inode with the file on disk; a file that changed is opened again and
// used when its columns still fit the table, and is an error naming it otherwise. A scan keeps the
// set of files it started with (DatasetSnapshot), so a reload never changes a scan in progress.
//
// This file holds the module and the table (options, xConnect, xDisconnect, the forwarding to a table
// created for writing, the LIMIT/OFFSET probe); the planner (pushdown, ordering, idxStr) is in
// parquet_vtab_plan.cc, the cursor in parquet_vtab_cursor.cc, what they share in parquet_vtab_int.h.
#include "ext/parquet_vtab.h"

#include <sys/stat.h>

#include <algorithm>
#include <cstring>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "ext/encryption_options.h"
#include "ext/export_writer.h"
#include "ext/options.h"
#include "ext/parquet_vtab_int.h"
#include "ext/remote_options.h"
#include "ext/secret_options.h"
#include "format/page/page_cache.h"

namespace pq::ext::parquet_vtab {

namespace {

// The options this module accepts; the rest are refused by name. Built on first use: it takes names
// from other files' lists, which may not be built yet while globals are initialized.
const std::vector<std::string_view>& TableOptionNames() {
  static const std::vector<std::string_view> names = [] {
    std::vector<std::string_view> v = {"binary_as_string", "decimal", "timestamp", "variant",
                                       "verify_checksums", "union_by_name", "hive_partitioning", "columns",
                                       // kDecryptionOptionNames (encryption_options.h)
                                       "footer_key", "column_keys", "aad_prefix", "master_keys",
                                       "max_memory", "sort_memory", "threads", "page_cache",
                                       // the names of the hidden columns
                                       "filename", "file_row_number"};
    v.insert(v.end(), kRemoteOptionNames.begin(), kRemoteOptionNames.end());  // remote_options.h
    return v;
  }();
  return names;
}

constexpr int64_t kDefaultMaxMemoryMiB = 4096;
constexpr int64_t kMaxThreads = 64;

// threads= when not given. One worker: reading ahead goes one page per column, and on 2 cores one
// worker took sum(value) over 10 million rows from 455 to 385 ms (bench/results). It starts only
// when a scan reads ahead, so tables used for lookups never start it.
int64_t DefaultScanThreads() { return std::thread::hardware_concurrency() >= 2 ? 2 : 1; }
constexpr int64_t kDefaultPageCacheMiB = 32;

Result<TableConfig> ParseTableOptions(const OptionList& opts, std::shared_ptr<const crypto::KeyRegistry> keys,
                                      sqlite3* db, std::shared_ptr<const remote::SettingsRegistry> remote) {
  if (Status known = opts.CheckKnown(TableOptionNames(), "parquet table"); !known.ok()) {
    // A writer option (compression=zstd) on a table without schema=: say where it belongs.
    for (const std::string_view name : kWriterOptionNames) {
      if (opts.Has(name) && std::find(TableOptionNames().begin(), TableOptionNames().end(), name) ==
                                TableOptionNames().end()) {
        return Status::InvalidArgument("unknown parquet table option '" + std::string(name) +
                                       "' (a writer option: a write table, created with schema=, takes it, and "
                                       "parquet_export)");
      }
    }
    return known;
  }
  TableConfig c;
  PQ_ASSIGN_OR_RETURN(c.values.binary_as_string, opts.GetBool("binary_as_string", false));
  // decimal= not given: REAL up to precision 15, exact TEXT beyond (ValueOptions::Decimal::kAuto).
  if (opts.Has("decimal")) {
    PQ_ASSIGN_OR_RETURN(std::string dec, opts.GetChoice("decimal", "real", {"real", "text"}));
    c.values.decimal = dec == "text" ? ValueOptions::Decimal::kText : ValueOptions::Decimal::kReal;
  }
  PQ_ASSIGN_OR_RETURN(std::string ts, opts.GetChoice("timestamp", "text", {"text", "integer"}));
  c.values.timestamp = ts == "integer" ? ValueOptions::Timestamp::kInteger : ValueOptions::Timestamp::kText;
  PQ_ASSIGN_OR_RETURN(std::string variant, opts.GetChoice("variant", "json", {"json", "binary"}));
  c.values.variant_binary = variant == "binary";
  PQ_ASSIGN_OR_RETURN(c.reader.verify_checksums, opts.GetBool("verify_checksums", true));
  // What the table's scans may hold at once in page buffers (MemoryBudget), in MiB.
  PQ_ASSIGN_OR_RETURN(int64_t max_memory_mib, opts.GetInt("max_memory", kDefaultMaxMemoryMiB, 1, int64_t{1} << 24));
  c.reader.memory = std::make_shared<MemoryBudget>(max_memory_mib << 20);
  // The parsed footers of the table's files, held as long as the table: together no more than one
  // footer may take (max_memory, 16 MiB at least), beside what the scans hold.
  c.reader.metadata_memory = std::make_shared<MemoryBudget>(MetadataMemoryLimit(c.reader),
                                                            "table option max_memory, in MiB",
                                                            "the table's parsed footers");
  PQ_ASSIGN_OR_RETURN(c.union_by_name, opts.GetBool("union_by_name", false));
  PQ_ASSIGN_OR_RETURN(c.hive_partitioning, opts.GetBool("hive_partitioning", false));
  if (opts.Has("columns")) {
    const std::string list = opts.GetString("columns", "");  // SplitList's views point into it
    for (std::string_view item : SplitList(list, "\"`", false)) c.columns.push_back(Dequote(item));
    if (c.columns.empty()) return Status::InvalidArgument("option 'columns' names no column: columns='a, b, ...'");
  }
  PQ_ASSIGN_OR_RETURN(int64_t sort_memory_mib, opts.GetInt("sort_memory", kDefaultSortMemoryMiB, 0, int64_t{1} << 24));
  c.sort_memory = sort_memory_mib << 20;
  PQ_ASSIGN_OR_RETURN(c.reader.decryption, DecryptionFromOptions(opts, std::move(keys)));
  // threads=N: the calling thread plus N-1 workers that decompress pages ahead of the scan.
  PQ_ASSIGN_OR_RETURN(int64_t threads, opts.GetInt("threads", DefaultScanThreads(), 1, kMaxThreads));
  if (threads > 1) c.reader.task_pool = std::make_shared<TaskPool>(static_cast<int>(threads - 1));
  // The cached pages stay charged to max_memory, so they may take at most a quarter of it.
  PQ_ASSIGN_OR_RETURN(int64_t page_cache_mib, opts.GetInt("page_cache", kDefaultPageCacheMiB, 0, int64_t{1} << 24));
  const int64_t page_cache_bytes = std::min(page_cache_mib << 20, (max_memory_mib << 20) / 4);
  if (page_cache_bytes > 0) c.reader.page_cache = std::make_shared<PageCache>(page_cache_bytes);
  // http(s):// and s3:// files: the connection's settings (parquet_secret), then the table's own.
  PQ_ASSIGN_OR_RETURN(std::vector<remote::Setting> settings, RemoteSettingsFromOptions(opts));
  c.reader.remote = MakeRemoteAccess(db, std::move(remote), std::move(settings));
  return c;
}

bool FileExists(const std::string& p) {
  struct stat st;
  return ::stat(p.c_str(), &st) == 0;
}

std::string QuoteIdentifier(const std::string& name) {
  std::string out = "\"";
  for (char c : name) {
    out.push_back(c);
    if (c == '"') out.push_back('"');
  }
  return out + "\"";
}

// What the `parquet` module keeps per connection; every table's Connect gets it as `aux`.
struct ModuleState {
  std::shared_ptr<ScanStatsRegistry> registry;  // the connection's tables, for parquet_scan_stats
  bool limit_offset_exact = false;  // LimitOffsetCanBeApplied: this SQLite offers LIMIT/OFFSET safely
  std::shared_ptr<const crypto::KeyRegistry> keys;  // parquet_add_key's registry (key_functions.h)
  std::shared_ptr<SourceTypeRegistry> source_types;  // the tables' column types, for parquet_export
  std::shared_ptr<const remote::SettingsRegistry> remote;  // parquet_secret's (remote_options.h)
  std::shared_ptr<WrittenTables> written = std::make_shared<WrittenTables>();  // write tables that wrote
};

// The Parquet type of each column of the files (source_types.h): the type every file holding the
// column gives it, or none when they differ (union_by_name) or it has none.
std::vector<SourceColumn> SourceColumnsOf(const ParquetTable& table) {
  std::vector<SourceColumn> out;
  for (size_t c = 0; c < table.columns.size(); ++c) {
    SourceColumn column;
    column.name = table.columns[c].name;
    bool agreed = true;
    for (const DatasetFile& f : table.data->files) {
      const int field = f.columns.field_of_column[c];
      if (field < 0) continue;
      std::optional<ColumnType> type =
          WriterTypeOfField(*f.reader->schema().fields()[static_cast<size_t>(field)], table.config.values);
      if (!type || (column.type && ColumnTypeName(*column.type) != ColumnTypeName(*type))) {
        agreed = false;
        break;
      }
      column.type = std::move(type);
    }
    if (!agreed) column.type.reset();
    out.push_back(std::move(column));
  }
  return out;
}

bool SameNameIgnoringCase(const std::string& a, const std::string& b) { return LowerAscii(a) == LowerAscii(b); }

// The name of a hidden column (`filename`, `file_row_number`). Given by the option of the same
// name, it must be free; by default it is the option's name, with '_' put before it until no
// column of the files or partition key (`taken`) has it: a file with a column `filename` gets a
// hidden `_filename`. (`filename=true` or `1`, as DuckDB spells "add the column", is the default.)
Result<std::string> HiddenColumnName(const OptionList& opts, const std::string& option,
                                     const std::vector<std::string>& taken) {
  auto is_taken = [&taken](const std::string& name) {
    for (const std::string& t : taken) {
      if (SameNameIgnoringCase(t, name)) return true;
    }
    return false;
  };
  std::string given(TrimSpace(opts.GetString(option, "")));
  if (opts.Has(option) && given.empty()) {
    return Status::InvalidArgument("option '" + option + "' is empty: give the hidden column's name (" + option +
                                   "=NAME), or leave the option out for the name '" + option + "'");
  }
  const std::string lowered = LowerAscii(given);
  if (!given.empty() && lowered != "true" && lowered != "1") {
    if (lowered == "false" || lowered == "0") {
      return Status::InvalidArgument("option '" + option + "' names the hidden column, which is always there: " +
                                     option + "=NAME");
    }
    if (is_taken(given)) {
      return Status::InvalidArgument("option '" + option + "': '" + given + "' is already a column of the table");
    }
    return given;
  }
  std::string name = option;
  while (is_taken(name)) name = "_" + name;
  return name;
}

// Module arguments: argv[0] module, argv[1] database, argv[2] table, argv[3] SOURCE, argv[4..] options.
// `aux` is the connection's ModuleState (RegisterParquetModule).
int ConnectTable(sqlite3* db, void* aux, int argc, const char* const* argv, sqlite3_vtab** out,
                 char** err) {
  return Guarded(nullptr, [&]() -> int {
    auto fail = [err](const Status& s) {
      *err = SqliteStrdup(s.message());
      return SQLITE_ERROR;
    };
    if (argc < 4) {
      // `SELECT ... FROM parquet('x.parquet')`: SQLite connects the module as an eponymous table,
      // without module arguments (the call's arguments would go to hidden columns).
      const bool eponymous = argc == 3 && sqlite3_stricmp(argv[0], argv[2]) == 0;
      return fail(Status::InvalidArgument(
          eponymous ? "parquet: parquet(...) is not a table-valued function; create a table over "
                      "the files first, then query it: CREATE VIRTUAL TABLE temp.t USING "
                      "parquet('file.parquet'); SELECT count(*) FROM t;"
                    : "parquet: a file path is required, as in CREATE VIRTUAL TABLE temp.t USING "
                      "parquet('file.parquet')"));
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
    const auto* module_state = static_cast<const ModuleState*>(aux);
    if (IsWriteTableOptions(opts)) {
      return ConnectWriteTable(db, argv[1], argv[2], source, opts, module_state->keys, module_state->remote,
                               module_state->written, out, err);
    }
    auto config = ParseTableOptions(opts, module_state->keys, db, module_state->remote);
    if (!config.ok()) return fail(config.status());
    // A table kept in a database file whose files no longer open cannot be connected, and SQLite
    // connects a table before it drops it: say so, where it is not the CREATE that fails.
    auto fail_files = [&](const Status& s) {
      if (BeingCreated(db, argv[1], argv[2])) return fail(s);
      return fail(Status(s.code(), s.message() + "; the table '" + std::string(argv[2]) +
                                       "' cannot be used, nor dropped, until its files open again (put a Parquet "
                                       "file back at the path to drop it; docs/reading.md)"));
    };
    auto paths = ExpandSource(source, config->reader.remote.get());
    if (!paths.ok()) return fail_files(paths.status());

    auto table = std::make_unique<ParquetTable>();
    std::memset(&table->base, 0, sizeof(table->base));
    table->config = *config;
    if (table->config.hive_partitioning) {
      auto hive = InferHivePartitions(*paths);
      if (!hive.ok()) return fail(hive.status());
      table->partitions = std::move(hive->columns);
      table->partition_values = std::move(hive->values);
    } else {
      table->partition_values.resize(paths->size());
    }
    std::vector<std::shared_ptr<const FileReader>> readers;
    for (const std::string& path : *paths) {
      auto reader = OpenTableFile(path, table->config.reader);
      if (!reader.ok()) return fail_files(reader.status());
      readers.push_back(std::move(reader).value());
    }
    auto schema = UnifyColumns(readers, table->config.values, table->config.union_by_name);
    if (!schema.ok()) return fail(schema.status());
    table->file_columns = schema->columns;
    if (!table->config.columns.empty()) {
      std::vector<std::string> keys;
      for (const PartitionColumn& p : table->partitions) keys.push_back(p.name);
      auto chosen = ChooseColumns(table->config.columns, schema->columns, keys);
      if (!chosen.ok()) return fail(chosen.status());
      table->chosen = std::move(chosen).value();
      std::vector<DatasetColumn> columns;
      for (size_t c : table->chosen) columns.push_back(schema->columns[c]);
      schema->columns = std::move(columns);
      for (FileColumns& f : schema->files) f = ChosenFileColumns(f, table->chosen);
    }
    auto data = MakeSnapshot(std::move(readers), std::move(schema->files));
    if (!data.ok()) return fail(data.status());
    table->data = std::move(data).value();
    table->columns = std::move(schema->columns);

    // Partition keys name columns of their own.
    for (const PartitionColumn& p : table->partitions) {
      for (const DatasetColumn& c : table->file_columns) {
        if (SameNameIgnoringCase(p.name, c.name) || SameNameIgnoringCase(p.name, c.field_name)) {
          return fail(Status::InvalidArgument("hive_partitioning: the partition key '" + p.name +
                                              "' is also a column in the files ('" + c.field_name + "')"));
        }
      }
    }
    // The hidden columns step aside for columns of the same names (HiddenColumnName).
    std::vector<std::string> taken;
    for (const DatasetColumn& c : table->columns) taken.push_back(c.name);
    for (const PartitionColumn& p : table->partitions) taken.push_back(p.name);
    auto filename = HiddenColumnName(opts, "filename", taken);
    if (!filename.ok()) return fail(filename.status());
    taken.push_back(*filename);
    auto file_row_number = HiddenColumnName(opts, "file_row_number", taken);
    if (!file_row_number.ok()) return fail(file_row_number.status());
    // SQLite's limit of columns a table may have (2,000 unless built otherwise): the hidden columns
    // are left out of a table they would take past it, rather than the file not opening.
    const int64_t visible = static_cast<int64_t>(table->columns.size() + table->partitions.size());
    const int64_t limit = sqlite3_limit(db, SQLITE_LIMIT_COLUMN, -1);
    if (visible > limit) {
      return fail(Status::InvalidArgument(
          "the files have " + std::to_string(visible) + " columns" +
          (table->partitions.empty() ? "" : " (partition keys included)") + ", more than the " + std::to_string(limit) +
          " a SQLite table may have (SQLITE_MAX_COLUMN): choose those the table has with the option columns='a, b, ...'"));
    }
    const bool hidden_fit = visible + 2 <= limit;
    if (!hidden_fit && (opts.Has("filename") || opts.Has("file_row_number"))) {
      return fail(Status::InvalidArgument(
          "the files have " + std::to_string(visible) + " columns: with the hidden columns filename and "
          "file_row_number the table would have more than the " + std::to_string(limit) +
          " columns a SQLite table may have; leave out the options filename= and file_row_number="));
    }
    std::string sql = "CREATE TABLE x(";
    for (const DatasetColumn& c : table->columns) {
      sql += QuoteIdentifier(c.name) + (c.declared_type.empty() ? "" : " " + c.declared_type) + ", ";
    }
    for (const PartitionColumn& p : table->partitions) sql += QuoteIdentifier(p.name) + " " + p.declared_type + ", ";
    table->num_fields = static_cast<int>(table->columns.size());
    table->first_partition_column = table->num_fields;
    if (hidden_fit) {
      table->filename_column = table->num_fields + static_cast<int>(table->partitions.size());
      table->file_row_number_column = table->filename_column + 1;
      sql += QuoteIdentifier(*filename) + " TEXT HIDDEN, " + QuoteIdentifier(*file_row_number) + " INTEGER HIDDEN";
      table->first_shredded_column = table->file_row_number_column + 1;
    } else {
      table->filename_column = ParquetTable::kNoColumn;
      table->file_row_number_column = ParquetTable::kNoColumn;
      table->first_shredded_column = static_cast<int>(visible);
      sql.resize(sql.size() - 2);  // the last ", "
    }
    // Shredded Variant fields, when the VARIANT columns read as JSON: hidden, and declared BLOB, the
    // affinity that converts nothing, so that they compare as `v ->> '$.a'` does. (A column
    // declared only HIDDEN would take NUMERIC affinity from the word HIDDEN, and a comparison would
    // read the text '25' as 25.) Only as many as fit.
    if (!table->config.values.variant_binary && hidden_fit) {
      taken.push_back(*file_row_number);
      table->shredded = FindShreddedColumns(*table->data, table->columns, taken);
      if (static_cast<int64_t>(table->shredded.size()) > limit - visible - 2) {
        table->shredded.erase(table->shredded.begin() + (limit - visible - 2), table->shredded.end());
      }
    }
    for (const ShreddedColumn& s : table->shredded) sql += ", " + QuoteIdentifier(s.name) + " BLOB HIDDEN";
    sql += ")";
    table->db = db;
    int rc = sqlite3_declare_vtab(db, sql.c_str());
    if (rc != SQLITE_OK) {
      return fail(Status::InvalidArgument(std::string("cannot declare the table: ") + sqlite3_errmsg(db)));
    }
    // The table reads files named in its arguments: a schema someone else wrote (a trigger or view in
    // an untrusted database) must not be able to make this connection read files.
    sqlite3_vtab_config(db, SQLITE_VTAB_DIRECTONLY);
    const auto* state = static_cast<const ModuleState*>(aux);
    table->registry = state->registry;
    table->stats = table->registry->Add(argv[1], argv[2]);
    table->limit_offset_exact = state->limit_offset_exact;
    table->source_types = state->source_types;
    if (table->source_types) table->source_types->Add(table.get(), argv[1], argv[2], SourceColumnsOf(*table));
    *out = &table.release()->base;
    return SQLITE_OK;
  });
}

// xCreate and xConnect: the table, after refusing secrets in options a database file would keep
// (secret_options.h). One function for both, so that SQLite makes `parquet` an eponymous table and
// `SELECT ... FROM parquet('x.parquet')` reaches ConnectTable's explanation instead of "no such
// table"; refusing stored secrets at connect too also covers a database file written elsewhere.
int Connect(sqlite3* db, void* aux, int argc, const char* const* argv, sqlite3_vtab** out, char** err) {
  const int rc = CheckSecretsNotStored(argc, argv, err);
  return rc != SQLITE_OK ? rc : ConnectTable(db, aux, argc, argv, out, err);
}

int Disconnect(sqlite3_vtab* vtab) {
  if (IsWriteTable(vtab)) return W().xDisconnect(vtab);
  delete reinterpret_cast<ParquetTable*>(vtab);
  return SQLITE_OK;
}

int Destroy(sqlite3_vtab* vtab) {
  if (IsWriteTable(vtab)) return W().xDestroy(vtab);
  return Disconnect(vtab);  // DROP TABLE forgets the table; it never deletes data files
}

// The callbacks only a writable table has; a read table refuses changes (read-only).
int Update(sqlite3_vtab* vtab, int argc, sqlite3_value** argv, sqlite3_int64* rowid) {
  if (IsWriteTable(vtab)) return W().xUpdate(vtab, argc, argv, rowid);
  SetVtabError(vtab, Status::InvalidArgument(
                         "parquet table is read-only, and Parquet files cannot be appended to: to write rows, "
                         "create a write table (schema=...) for a new file; over an existing file it replaces "
                         "the whole file at COMMIT"));
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
int Rename(sqlite3_vtab* v, const char* name) { return IsWriteTable(v) ? W().xRename(v, name) : SQLITE_OK; }
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
    /* xRename */ Rename,
    /* xSavepoint */ SavepointF,
    /* xRelease */ ReleaseF,
    /* xRollbackTo */ RollbackToF,
    /* xShadowName */ nullptr,
};

// ---------------------------------------------------------------------------------------------------
// Whether this SQLite library's LIMIT/OFFSET constraints can be applied here.
//
// SQLite offers LIMIT and OFFSET to xBestIndex only when every WHERE term is offered too, so a table
// that applies every offered term exactly may apply OFFSET (and LIMIT) itself. Some releases (3.40
// among them) break that rule for a term comparing a column with an expression on the same table
// (`a = b`): xBestIndex never sees the term, yet it is offered LIMIT and OFFSET, and skipping
// OFFSET rows here would drop rows before SQLite filters them; they also offer a compound SELECT's
// OFFSET to each of its arms. So once per connection a probe table plans such queries and reports
// whether LIMIT/OFFSET came along.

struct LimitProbeTable {
  sqlite3_vtab base;  // must come first
  bool* offered = nullptr;  // set when xBestIndex sees LIMIT or OFFSET
};

int ProbeConnect(sqlite3* db, void* aux, int, const char* const*, sqlite3_vtab** out, char**) {
  return Guarded(nullptr, [&]() -> int {
    int rc = sqlite3_declare_vtab(db, "CREATE TABLE x(a, b)");
    if (rc != SQLITE_OK) return rc;
    auto table = std::make_unique<LimitProbeTable>();
    std::memset(&table->base, 0, sizeof(table->base));
    table->offered = static_cast<bool*>(aux);
    *out = &table.release()->base;
    return SQLITE_OK;
  });
}
int ProbeDisconnect(sqlite3_vtab* vtab) {
  delete reinterpret_cast<LimitProbeTable*>(vtab);
  return SQLITE_OK;
}
int ProbeBestIndex(sqlite3_vtab* vtab, sqlite3_index_info* info) {
  for (int i = 0; i < info->nConstraint; ++i) {
    int op = info->aConstraint[i].op;
    if (op == SQLITE_INDEX_CONSTRAINT_LIMIT || op == SQLITE_INDEX_CONSTRAINT_OFFSET) {
      *reinterpret_cast<LimitProbeTable*>(vtab)->offered = true;
    }
  }
  info->estimatedCost = 1;
  return SQLITE_OK;
}
// The probe's statement is only prepared, never run.
int ProbeOpen(sqlite3_vtab*, sqlite3_vtab_cursor**) { return SQLITE_ERROR; }
int ProbeClose(sqlite3_vtab_cursor*) { return SQLITE_OK; }
int ProbeFilter(sqlite3_vtab_cursor*, int, const char*, int, sqlite3_value**) { return SQLITE_ERROR; }
int ProbeNext(sqlite3_vtab_cursor*) { return SQLITE_ERROR; }
int ProbeEof(sqlite3_vtab_cursor*) { return 1; }
int ProbeColumn(sqlite3_vtab_cursor*, sqlite3_context*, int) { return SQLITE_ERROR; }
int ProbeRowid(sqlite3_vtab_cursor*, sqlite_int64*) { return SQLITE_ERROR; }

bool LimitOffsetCanBeApplied(sqlite3* db) {
  static const sqlite3_module kProbe = {
      /* iVersion */ 0,           /* xCreate */ nullptr,  /* xConnect */ ProbeConnect,
      /* xBestIndex */ ProbeBestIndex, /* xDisconnect */ ProbeDisconnect, /* xDestroy */ ProbeDisconnect,
      /* xOpen */ ProbeOpen,      /* xClose */ ProbeClose, /* xFilter */ ProbeFilter,
      /* xNext */ ProbeNext,      /* xEof */ ProbeEof,     /* xColumn */ ProbeColumn,
      /* xRowid */ ProbeRowid,
  };
  const char* name = "parquet_limit_offset_probe";
  // Neither query may offer LIMIT or OFFSET: the first has a term xBestIndex does not see, and in
  // the second the OFFSET belongs to the whole compound, not to each arm.
  const char* queries[] = {
      "SELECT a FROM parquet_limit_offset_probe WHERE a = b LIMIT 1 OFFSET 1",
      "SELECT a FROM parquet_limit_offset_probe UNION ALL SELECT a FROM parquet_limit_offset_probe LIMIT 1 OFFSET 1",
  };
  bool offered = false;
  if (sqlite3_create_module_v2(db, name, &kProbe, &offered, nullptr) != SQLITE_OK) return false;
  bool ok = true;
  for (const char* sql : queries) {
    sqlite3_stmt* stmt = nullptr;
    ok = ok && sqlite3_prepare_v2(db, sql, -1, &stmt, nullptr) == SQLITE_OK;
    sqlite3_finalize(stmt);
  }
  sqlite3_create_module_v2(db, name, nullptr, nullptr, nullptr);  // removes the probe module
  return ok && !offered;
}

}  // namespace

}  // namespace pq::ext::parquet_vtab

namespace pq::ext {

using parquet_vtab::kParquetModule;
using parquet_vtab::LimitOffsetCanBeApplied;
using parquet_vtab::ModuleState;

int RegisterParquetModule(sqlite3* db, std::shared_ptr<const crypto::KeyRegistry> keys,
                          std::shared_ptr<SourceTypeRegistry> source_types,
                          std::shared_ptr<const remote::SettingsRegistry> remote) {
  // One state per connection, handed to every table it connects (Connect's aux).
  auto state = std::make_unique<ModuleState>();
  state->keys = std::move(keys);
  state->source_types = std::move(source_types);
  state->remote = std::move(remote);
  state->registry = std::make_shared<ScanStatsRegistry>();
  state->limit_offset_exact = LimitOffsetCanBeApplied(db);
  ProbeNumericAffinity(db);
  ProbeJsonStrings(db);
  std::shared_ptr<ScanStatsRegistry> registry = state->registry;
  // On failure sqlite3_create_module_v2 calls the destructor itself.
  int rc = sqlite3_create_module_v2(db, "parquet", &kParquetModule, state.release(),
                                    [](void* p) { std::unique_ptr<ModuleState>(static_cast<ModuleState*>(p)); });
  if (rc != SQLITE_OK) return rc;
  return RegisterScanStatsFunction(db, std::move(registry));
}

}  // namespace pq::ext
