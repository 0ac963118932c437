// parquet_export(PATH, QUERY [, OPTIONS]): runs QUERY and writes its rows to the Parquet file PATH.
//
//   SELECT parquet_export('out.parquet', 'SELECT * FROM sales WHERE year = 2025',
//   'compression=zstd');
//   -> the number of rows written
//
// QUERY is one read-only statement, run on the calling connection. Column names are the query's
// (sqlite3_column_name; they must be distinct, ignoring case). Column types: the `schema=` entry of
// the column if any, else, for a column that comes straight from a column of a `parquet` table,
// the Parquet type of that column in its files (source_types.h), else its declared type
// (sqlite3_column_decltype, export_types.h), else inferred from the values of the first 8192 rows.
// Which table column a query column comes from is what sqlite3_column_database_name,
// sqlite3_column_table_name and sqlite3_column_origin_name say; a SQLite built without
// SQLITE_ENABLE_COLUMN_METADATA has none of them (their entries in the extension's routine table
// are null), and then the declared types decide. OPTIONS: the writer options of export_writer.h.
// The file appears complete or not at all: it is written to a temporary beside PATH and renamed
// into place; any error (a bad option, a query error, a value that does not fit) leaves no file and
// leaves an existing PATH untouched. With `partition_by=col,...` PATH is a new folder of hive
// partitions instead (export_partition.h), written the same all-or-nothing way.
//
// Options of parquet_export alone (besides partition_by):
//   file_size_bytes=N        PATH is a new folder of files data_0.parquet, data_1.parquet, ...
//                            (in each partition with partition_by): a file ends with the row
//                            group in which it reaches N bytes. N may end in KB, MB, GB (powers of
//                            1000) or KiB, MiB, GiB (powers of 1024)
//   row_groups_per_file=N    the same, a file ending after N row groups
//   return_stats=0|1         1: the answer is a JSON summary of the files written (export_stats.h)
//                            instead of the row count
//
// The function is SQLITE_DIRECTONLY: it writes files, so a schema someone else wrote (a view or a
// trigger in an untrusted database) must not be able to call it.
#include "ext/export.h"

#include "ext/remote_options.h"

#include <cctype>
#include <charconv>
#include <optional>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "ext/export_partition.h"
#include "ext/export_progress.h"
#include "ext/export_stats.h"
#include "ext/export_writer.h"

namespace pq::ext {

namespace {

// parquet_export's user data: the connection's key registry (footer_master_key=,
// column_master_keys=), its parquet tables' column types (kept by the export) and its remote
// settings (parquet_secret, for s3:// targets).
struct ExportRegistries {
  std::shared_ptr<const crypto::KeyRegistry> keys;
  std::shared_ptr<const SourceTypeRegistry> source_types;
  std::shared_ptr<const remote::SettingsRegistry> remote;
};

std::string ValueText(sqlite3_value* v) {
  const char* p = reinterpret_cast<const char*>(sqlite3_value_text(v));
  return std::string(p ? p : "", static_cast<size_t>(sqlite3_value_bytes(v)));
}

bool OnlySpaceOrComments(const char* tail) {
  // What SQLite leaves after the first statement: spaces and SQL comments are fine.
  const char* p = tail;
  while (p && *p) {
    if (std::isspace(static_cast<unsigned char>(*p)) || *p == ';') {
      ++p;
    } else if (p[0] == '-' && p[1] == '-') {
      while (*p && *p != '\n') ++p;
    } else if (p[0] == '/' && p[1] == '*') {
      p += 2;
      while (*p && !(p[0] == '*' && p[1] == '/')) ++p;
      if (*p) p += 2;
    } else {
      return false;
    }
  }
  return true;
}

// Whether this SQLite tells where a query column comes from (SQLITE_ENABLE_COLUMN_METADATA).
bool HasColumnMetadata() {
  return sqlite3_api->column_database_name != nullptr && sqlite3_api->column_table_name != nullptr &&
         sqlite3_api->column_origin_name != nullptr;
}

// The Parquet type of query column `i` when it comes straight from a column of a parquet table of
// this connection; null otherwise, or when this SQLite cannot tell.
const ColumnType* SourceColumnType(sqlite3_stmt* stmt, int i, const SourceTypeRegistry* sources) {
  if (sources == nullptr || !HasColumnMetadata()) return nullptr;
  const char* database = sqlite3_column_database_name(stmt, i);
  const char* table = sqlite3_column_table_name(stmt, i);
  const char* column = sqlite3_column_origin_name(stmt, i);
  if (database == nullptr || table == nullptr || column == nullptr) return nullptr;
  return sources->Find(database, table, column);
}

struct Statement {
  sqlite3_stmt* stmt = nullptr;
  ~Statement() { sqlite3_finalize(stmt); }
};

// The rows reach the writer in one of two ways, with the same values in the same order:
//
//  - Through the aggregate function parquet_export_rows, in a statement that wraps the query:
//      WITH "parquet_export_rows"(c0, c1, ...) AS (QUERY) SELECT parquet_export_rows(:w, c0, ...)
//        FROM "parquet_export_rows"
//    SQLite then hands over each row's values in one call. Reading them with sqlite3_column_value
//    instead takes the connection's mutex once per value, which made about a third of a 10-column
//    export's time on the thread that runs the query. The wrapper keeps the query's ORDER BY: an
//    outer query without ORDER BY or a join over an aggregate SQLite does not know never drops it.
//    :w is the RowPump, bound with sqlite3_bind_pointer, so SQL itself cannot reach the function.
//  - By stepping QUERY itself, when the wrapper does not compile: a statement that is not a
//    SELECT (PRAGMA, EXPLAIN), or more columns than a function takes arguments.
constexpr char kRowPumpName[] = "parquet_export_rows";
constexpr char kRowPumpPointerType[] = "pq-export-row-pump";

struct RowPump {
  Status (*append)(void* writer, sqlite3_value** values) = nullptr;
  void* writer = nullptr;
  ExportProgress* progress = nullptr;  // progress=1
  int columns = 0;
  Status status;  // the writer's error that stopped the statement
};

void RowPumpStep(sqlite3_context* ctx, int argc, sqlite3_value** argv) {
  GuardedFunction(ctx, [&]() {
    auto* pump =
        argc > 0 ? static_cast<RowPump*>(sqlite3_value_pointer(argv[0], kRowPumpPointerType))
                 : nullptr;
    if (!pump || argc - 1 != pump->columns) {
      sqlite3_result_error(ctx, "parquet_export_rows is parquet_export's own; call parquet_export",
                           -1);
      return;
    }
    Status s = pump->append(pump->writer, argv + 1);
    if (!s.ok()) {
      SetFunctionError(ctx, s);
      pump->status = std::move(s);
    } else if (pump->progress) {
      pump->progress->Row();
    }
  });
}

void RowPumpFinal(sqlite3_context* ctx) { sqlite3_result_null(ctx); }

// The wrapping statement of the first way above, or null when it does not compile.
sqlite3_stmt* PrepareRowPump(sqlite3* db, const char* query, const char* tail, int columns) {
  std::string body(query, tail ? static_cast<size_t>(tail - query) : std::strlen(query));
  while (!body.empty() && (body.back() == ';' || std::isspace(static_cast<unsigned char>(body.back())))) {
    body.pop_back();
  }
  std::string names;
  for (int i = 0; i < columns; ++i) names += (i ? ", c" : "c") + std::to_string(i);
  // The newline ends a -- comment on the query's last line.
  const std::string sql = std::string("WITH \"") + kRowPumpName + "\"(" + names + ") AS (\n" +
                          body + "\n) SELECT " + kRowPumpName + "(:pq_export_row_pump, " + names +
                          ") FROM \"" + kRowPumpName + "\"";
  sqlite3_stmt* stmt = nullptr;
  if (sqlite3_prepare_v2(db, sql.c_str(), static_cast<int>(sql.size()), &stmt, nullptr) !=
          SQLITE_OK ||
      stmt == nullptr || !sqlite3_stmt_readonly(stmt) ||
      sqlite3_bind_parameter_index(stmt, ":pq_export_row_pump") == 0) {
    sqlite3_finalize(stmt);
    return nullptr;
  }
  return stmt;
}

// The options parquet_export takes besides the writer's (export_writer.h) and partition_by.
const std::vector<std::string_view> kExportOnlyOptionNames = {"file_size_bytes",
                                                              "row_groups_per_file",
                                                              "return_stats"};

// file_size_bytes=: bytes, optionally with a unit (KB, MB, GB: powers of 1000; KiB, MiB, GiB:
// powers of 1024; B), any case, white space allowed before the unit.
Result<int64_t> ParseByteSize(std::string_view text) {
  text = TrimSpace(text);
  size_t digits = 0;
  while (digits < text.size() && text[digits] >= '0' && text[digits] <= '9') ++digits;
  int64_t n = 0;
  auto [p, ec] = std::from_chars(text.data(), text.data() + digits, n);
  std::string unit(TrimSpace(text.substr(digits)));
  for (char& c : unit) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  static constexpr std::pair<std::string_view, int64_t> kUnits[] = {
      {"", 1},          {"b", 1},
      {"kb", 1000},     {"mb", 1000 * 1000},        {"gb", 1000 * 1000 * 1000},
      {"kib", 1 << 10}, {"mib", 1 << 20},           {"gib", int64_t{1} << 30}};
  if (digits == 0 || ec != std::errc() || p != text.data() + digits) {
    return Status::InvalidArgument("option 'file_size_bytes': '" + std::string(text) +
                                   "' is not a size (bytes, or a number with KB, MB, GB, KiB, "
                                   "MiB, GiB)");
  }
  for (const auto& [name, factor] : kUnits) {
    if (unit != name) continue;
    if (n <= 0 || n > (int64_t{1} << 62) / factor) {
      return Status::InvalidArgument("option 'file_size_bytes': '" + std::string(text) +
                                     "' is out of range");
    }
    return n * factor;
  }
  return Status::InvalidArgument("option 'file_size_bytes': unknown unit '" + unit +
                                 "' (KB, MB, GB, KiB, MiB, GiB)");
}

// Hands each row of the query to `writer` (an ExportWriter or a PartitionedExport), then finishes
// and publishes what it wrote. Returns the row count. On failure the writer's destructor removes
// everything it wrote.
template <typename Writer>
Result<int64_t> WriteRows(sqlite3* db, sqlite3_stmt* stmt, const char* query, const char* tail,
                          Writer& writer, ExportProgress* progress) {
  const int n = sqlite3_column_count(stmt);
  Statement pumped;
  pumped.stmt = PrepareRowPump(db, query, tail, n);
  int rc;
  if (pumped.stmt) {
    RowPump pump;
    pump.append = [](void* w, sqlite3_value** values) {
      return static_cast<Writer*>(w)->AppendRow(values);
    };
    pump.writer = &writer;
    pump.progress = progress;
    pump.columns = n;
    if (sqlite3_bind_pointer(pumped.stmt,
                             sqlite3_bind_parameter_index(pumped.stmt, ":pq_export_row_pump"),
                             &pump, kRowPumpPointerType, nullptr) != SQLITE_OK) {
      return Status::OutOfMemory("out of memory");
    }
    while ((rc = sqlite3_step(pumped.stmt)) == SQLITE_ROW) {
    }
    if (!pump.status.ok()) return pump.status;
  } else {
    std::vector<sqlite3_value*> row(static_cast<size_t>(n));
    while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
      for (int i = 0; i < n; ++i) row[static_cast<size_t>(i)] = sqlite3_column_value(stmt, i);
      PQ_RETURN_IF_ERROR(writer.AppendRow(row.data()));
      if (progress) progress->Row();
    }
  }
  if (rc != SQLITE_DONE) {
    return Status::InvalidArgument(std::string("the query failed: ") + sqlite3_errmsg(db));
  }
  PQ_RETURN_IF_ERROR(writer.Finish());
  PQ_RETURN_IF_ERROR(writer.Publish());
  if (progress) progress->Done();
  return writer.rows();
}

// What an export answers: the row count, or (return_stats=1) the JSON summary of its files.
struct ExportAnswer {
  int64_t rows = 0;
  std::optional<std::string> stats;
};

// Runs the export. Query columns that come straight from a parquet table keep the type
// registries.source_types holds for them.
Result<ExportAnswer> RunExport(sqlite3* db, const std::string& path, const std::string& query,
                               const std::string& options_text, const ExportRegistries& registries) {
  const SourceTypeRegistry* sources = registries.source_types.get();
  // partition_by, file_size_bytes, row_groups_per_file and return_stats are parquet_export's own
  // options; the others are the writer's (and the remote settings).
  PQ_ASSIGN_OR_RETURN(PartitionByOption partition_by, TakePartitionByOption(options_text));
  PQ_ASSIGN_OR_RETURN(OptionList opts, OptionList::ParseList(partition_by.other_options));
  std::vector<std::string_view> known = ExportOptionNames();
  known.insert(known.end(), kExportOnlyOptionNames.begin(), kExportOnlyOptionNames.end());
  PQ_RETURN_IF_ERROR(opts.CheckKnown(known, "parquet_export"));
  PQ_ASSIGN_OR_RETURN(ExportOptions options, ParseExportOptions(opts, registries.keys));
  options.remote = MakeRemoteAccess(db, registries.remote, options.remote_settings);
  if (opts.Has("file_size_bytes")) {
    PQ_ASSIGN_OR_RETURN(options.file_size_bytes,
                        ParseByteSize(opts.GetString("file_size_bytes", "")));
  }
  PQ_ASSIGN_OR_RETURN(options.row_groups_per_file,
                      opts.GetInt("row_groups_per_file", 0, 1, int64_t{1} << 40));
  PQ_ASSIGN_OR_RETURN(const bool return_stats, opts.GetBool("return_stats", false));
  const bool folder =
      partition_by.present || options.file_size_bytes > 0 || options.row_groups_per_file > 0;
  std::vector<std::string> partition_columns;
  if (partition_by.present) {
    PQ_ASSIGN_OR_RETURN(partition_columns, ParsePartitionColumns(partition_by.columns));
  }

  // A file target is checked before the query runs: a folder or a missing folder fails now, not
  // after every row was read. (A folder export checks its folder as it makes it.)
  if (!folder) PQ_RETURN_IF_ERROR(CheckOutputFile(path));

  Statement st;
  const char* tail = nullptr;
  if (sqlite3_prepare_v2(db, query.c_str(), static_cast<int>(query.size()), &st.stmt, &tail) !=
      SQLITE_OK) {
    return Status::InvalidArgument(std::string("the query does not compile: ") +
                                   sqlite3_errmsg(db));
  }
  if (!st.stmt) return Status::InvalidArgument("the query is empty");
  if (!OnlySpaceOrComments(tail)) return Status::InvalidArgument("the query must be one statement");
  if (!sqlite3_stmt_readonly(st.stmt)) {
    return Status::InvalidArgument("the query must not change the database");
  }
  const int n = sqlite3_column_count(st.stmt);
  if (n == 0) return Status::InvalidArgument("the query returns no columns");

  std::vector<ExportColumn> columns;
  for (int i = 0; i < n; ++i) {
    ExportColumn c;
    const char* name = sqlite3_column_name(st.stmt, i);
    c.name = name ? name : "";
    if (const ColumnType* source = SourceColumnType(st.stmt, i, sources)) {
      c.type = *source;
      // A compound SELECT names the first arm's source: the other arms' REALs must not be rounded
      // to a narrower float without a word.
      if (c.type.kind == ColumnKind::kFloat || c.type.kind == ColumnKind::kFloat16) c.type.exact = true;
    } else {
      const char* decl = sqlite3_column_decltype(st.stmt, i);
      Result<ColumnType> type = ParseColumnType(decl ? decl : "");
      // A declared type with bad arguments (DECIMAL(50,2)) is not the query's fault: infer instead.
      c.type = type.ok() ? *type : ColumnType{};
      // SQLite keeps a time in an INTEGER as Unix seconds (its date and time functions' convention).
      if (c.type.kind == ColumnKind::kTimestamp) c.type.unix_seconds = true;
    }
    columns.push_back(std::move(c));
  }
  for (const ExportColumn& s : options.schema) {
    bool found = false;
    for (ExportColumn& c : columns) {
      if (sqlite3_stricmp(c.name.c_str(), s.name.c_str()) == 0) {
        // A partition column is not stored in the files: its values become folder names, written
        // from their SQLite type and typed again by the reader, so a type for it would be ignored.
        for (const std::string& p : partition_columns) {
          if (sqlite3_stricmp(p.c_str(), s.name.c_str()) == 0) {
            return Status::InvalidArgument("option 'schema': column '" + s.name +
                                           "' is a partition column, whose values go in folder names (" +
                                           c.name + "=value) and take no type");
          }
        }
        c.type = s.type;
        c.field_id = s.field_id;
        found = true;
      }
    }
    if (!found) {
      return Status::InvalidArgument("option 'schema': the query has no column named '" + s.name +
                                     "'");
    }
  }
  std::unique_ptr<ExportProgress> progress;
  if (options.progress) progress = std::make_unique<ExportProgress>("parquet_export '" + path + "'");
  ExportAnswer answer;
  if (folder) {
    PQ_ASSIGN_OR_RETURN(std::unique_ptr<PartitionedExport> writer,
                        PartitionedExport::Make(path, columns, partition_columns, options));
    PQ_ASSIGN_OR_RETURN(answer.rows,
                        WriteRows(db, st.stmt, query.c_str(), tail, *writer, progress.get()));
    std::string base = path;
    while (base.size() > 1 && base.back() == '/') base.pop_back();
    if (return_stats) answer.stats = ExportStatsJson(base, writer->files(), answer.rows);
    return answer;
  }
  // A write table whose transaction is open would rename its file over this one at COMMIT.
  PQ_ASSIGN_OR_RETURN(std::unique_ptr<TargetClaim> claim, TargetClaim::Take(path, TargetClaim::kExport));
  PQ_ASSIGN_OR_RETURN(std::unique_ptr<ExportWriter> writer,
                      ExportWriter::Make(path, columns, options));
  PQ_ASSIGN_OR_RETURN(answer.rows,
                      WriteRows(db, st.stmt, query.c_str(), tail, *writer, progress.get()));
  if (return_stats) {
    ExportedFile f;
    f.path = path;
    f.rows = answer.rows;
    f.bytes = writer->file_bytes();
    f.metadata = writer->metadata();
    answer.stats = ExportStatsJson("", {f}, answer.rows);
  }
  return answer;
}

void ExportFunction(sqlite3_context* ctx, int argc, sqlite3_value** argv) {
  GuardedFunction(ctx, [&]() {
    if (sqlite3_value_type(argv[0]) != SQLITE_TEXT || sqlite3_value_bytes(argv[0]) == 0) {
      sqlite3_result_error(ctx, "parquet_export: the first argument must be the output path (text)",
                           -1);
      return;
    }
    if (sqlite3_value_type(argv[1]) != SQLITE_TEXT) {
      sqlite3_result_error(ctx, "parquet_export: the second argument must be the query (text)", -1);
      return;
    }
    std::string options;
    if (argc > 2 && sqlite3_value_type(argv[2]) != SQLITE_NULL) {
      if (sqlite3_value_type(argv[2]) != SQLITE_TEXT) {
        sqlite3_result_error(ctx, "parquet_export: the third argument must be the options (text)",
                             -1);
        return;
      }
      options = ValueText(argv[2]);
    }
    const auto* registries = static_cast<const ExportRegistries*>(sqlite3_user_data(ctx));
    Result<ExportAnswer> answer = RunExport(sqlite3_context_db_handle(ctx), ValueText(argv[0]),
                                            ValueText(argv[1]), options, *registries);
    if (!answer.ok()) {
      SetFunctionError(ctx, answer.status().WithContext("parquet_export"));
      return;
    }
    if (answer->stats) {
      sqlite3_result_text64(ctx, answer->stats->data(), answer->stats->size(), SQLITE_TRANSIENT,
                            SQLITE_UTF8);
    } else {
      sqlite3_result_int64(ctx, answer->rows);
    }
  });
}

void DeleteRegistries(void* p) { delete static_cast<ExportRegistries*>(p); }

}  // namespace

int RegisterExport(sqlite3* db, std::shared_ptr<const crypto::KeyRegistry> keys,
                   std::shared_ptr<const SourceTypeRegistry> source_types,
                   std::shared_ptr<const remote::SettingsRegistry> remote) {
  const int flags = SQLITE_UTF8 | SQLITE_DIRECTONLY;
  // Each registration owns its handles on the registries (sqlite3_create_function_v2 frees them,
  // also when the registration fails).
  int rc = sqlite3_create_function_v2(db, "parquet_export", 2, flags,
                                      new ExportRegistries{keys, source_types, remote},
                                      ExportFunction, nullptr, nullptr, DeleteRegistries);
  if (rc == SQLITE_OK) {
    rc = sqlite3_create_function_v2(db, kRowPumpName, -1, flags, nullptr, nullptr, RowPumpStep,
                                    RowPumpFinal, nullptr);
  }
  if (rc == SQLITE_OK) {
    rc = sqlite3_create_function_v2(db, "parquet_export", 3, flags,
                                    new ExportRegistries{keys, source_types, remote},
                                    ExportFunction, nullptr, nullptr, DeleteRegistries);
  }
  return rc;
}

}  // namespace pq::ext
