// The `parquet` virtual table's private header, split the way SQLite splits FTS5 (fts5Int.h): what
// the module and table (parquet_vtab.cc: options, xConnect, xDisconnect, the write-table forwarding,
// the LIMIT/OFFSET probe), the planner (parquet_vtab_plan.cc: xBestIndex and the idxStr plan it hands
// to xFilter) and the cursor (parquet_vtab_cursor.cc: xFilter to xRowid, read windows and sorted
// output) share. Only those three files include it; everything else sees parquet_vtab.h.
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <new>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ext/dataset.h"
#include "ext/export.h"
#include "ext/scan_stats.h"
#include "ext/shredded_columns.h"
#include "ext/source_types.h"
#include "ext/sqlite_api.h"
#include "format/file/file_reader.h"
#include "format/predicate/predicate.h"
#include "format/util/row_ranges.h"
#include "format/value/value_options.h"

namespace pq::ext::parquet_vtab {

constexpr int64_t kDefaultSortMemoryMiB = 256;

struct TableConfig {
  ReaderOptions reader;
  ValueOptions values;
  bool union_by_name = false;
  bool hive_partitioning = false;
  // columns=: the files' columns the table has, in this order; empty: all of them.
  std::vector<std::string> columns;
  // ORDER BY / GROUP BY on one column is done here (SortedRows) when the rows are estimated to take
  // at most this many bytes; 0: never, SQLite sorts.
  int64_t sort_memory = kDefaultSortMemoryMiB << 20;
};

// ---------------------------------------------------------------------------------------------------
// Row positions. Terms on rowid (the position in the dataset) and file_row_number (the position in
// the file) are turned into sets of positions here (RowRanges), exactly as SQLite would evaluate
// them, so the scan can read just those rows and SQLite need not check them again.

// What one xFilter argument is (see the idxStr table at BestIndex).
enum class TermOp : uint8_t {
  kEq, kNe, kLt, kLe, kGt, kGe, kIs, kIsNot, kIsNull, kIsNotNull,
  kIn,                 // an IN list handle, read with sqlite3_vtab_in_first/next
  kLike, kGlob,        // the pattern
  kLimit, kOffset,     // LIMIT / OFFSET that SQLite applies; used to size batches
  kTake, kSkip,        // LIMIT / OFFSET the engine applies exactly
};

// ---------------------------------------------------------------------------------------------------
// The plan xBestIndex hands to xFilter through idxStr (the table at BestIndex).

struct FilterTerm {
  TermOp op = TermOp::kEq;
  int column = 0;  // -1 rowid; unused for LIMIT/OFFSET
};

struct IndexPlan {
  uint64_t col_used = ~uint64_t{0};  // sqlite3_index_info.colUsed
  int sort_column = -1;              // rows handed out ordered by this column (SortedRows); -1: scan order
  bool sort_descending = false;     // ... descending (ORDER BY col DESC)
  std::vector<FilterTerm> terms;     // one per xFilter argument, in argv order
};

struct ParquetTable {
  sqlite3_vtab base;  // must come first
  bool is_write_table = false;  // same place as in the writable table (export.h)
  std::shared_ptr<const DatasetSnapshot> data;  // the files, footers read once (again when one changes)
  std::vector<DatasetColumn> columns;  // the columns from the files' fields: SQL columns 0..num_fields-1
  // Every column of the files, which a file read again must fit as at CREATE, and the indices into
  // it of `columns` when the option columns= chose them (empty: `columns` is all of them).
  std::vector<DatasetColumn> file_columns;
  std::vector<size_t> chosen;
  int num_fields = 0;
  std::vector<PartitionColumn> partitions;  // hive partition columns: SQL columns num_fields...
  std::vector<std::vector<SqlValue>> partition_values;  // [file][partition column]
  int first_partition_column = 0;  // == num_fields
  // Hidden `filename` and `file_row_number`; kNoColumn when they would take the table past SQLite's
  // limit of columns (a file of 1,999 or 2,000 columns).
  static constexpr int kNoColumn = -2;
  int filename_column = 0;
  int file_row_number_column = 0;
  // Hidden columns of shredded Variant fields (shredded_columns.h): SQL columns
  // first_shredded_column... (after file_row_number).
  std::vector<ShreddedColumn> shredded;
  int first_shredded_column = 0;
  sqlite3* db = nullptr;              // the connection, whose `->>` computes the shredded columns
  sqlite3_stmt* extract = nullptr;    // `SELECT ?1 ->> ?2`, prepared on first use
  TableConfig config;
  std::shared_ptr<ScanStatsRegistry> registry;  // the connection's tables, for parquet_scan_stats
  std::shared_ptr<ScanRecord> stats;            // this table's entry there
  bool limit_offset_exact = false;              // ModuleState::limit_offset_exact
  // The connection's source types (source_types.h), where this table's columns are listed.
  std::shared_ptr<SourceTypeRegistry> source_types;

  ~ParquetTable() {
    sqlite3_finalize(extract);
    if (registry && stats) registry->Remove(stats.get());
    if (source_types) source_types->Remove(this);
  }
  bool IsPartitionColumn(int col) const {
    return col >= first_partition_column && col - first_partition_column < static_cast<int>(partitions.size());
  }
  bool IsShreddedColumn(int col) const {
    return col >= first_shredded_column && col - first_shredded_column < static_cast<int>(shredded.size());
  }
  const ShreddedColumn& Shredded(int col) const { return shredded[static_cast<size_t>(col - first_shredded_column)]; }
  const PartitionColumn& Partition(int col) const {
    return partitions[static_cast<size_t>(col - first_partition_column)];
  }
};

// ---------------------------------------------------------------------------------------------------
// Shared by the three files.

// True for a table created for writing; its callbacks live in WriteTableModule().
inline bool IsWriteTable(sqlite3_vtab* vtab) { return reinterpret_cast<ParquetTable*>(vtab)->is_write_table; }
inline const sqlite3_module& W() { return WriteTableModule(); }

// The planner (parquet_vtab_plan.cc): the terms, as the planner estimates them and the cursor
// applies them, and the idxStr plan.
RowRanges PositionsSatisfying(TermOp op, sqlite3_value* literal, int64_t end);
SqlValue ToSqlValue(sqlite3_value* v);
std::string PatternPrefix(TermOp op, std::string_view pattern);
PredicateOp ToPredicateOp(TermOp op);
std::string EncodeIndexPlan(const IndexPlan& plan);
std::optional<IndexPlan> DecodeIndexPlan(std::string_view s);
int BestIndex(sqlite3_vtab* vtab, sqlite3_index_info* info);

// The cursor (parquet_vtab_cursor.cc).
int Open(sqlite3_vtab* vtab, sqlite3_vtab_cursor** out);
int Close(sqlite3_vtab_cursor* cur);
int Filter(sqlite3_vtab_cursor* cur, int idx_num, const char* idx_str, int argc, sqlite3_value** argv);
int Next(sqlite3_vtab_cursor* cur);
int Eof(sqlite3_vtab_cursor* cur);
int Column(sqlite3_vtab_cursor* cur, sqlite3_context* ctx, int col);
int Rowid(sqlite3_vtab_cursor* cur, sqlite_int64* rowid);

}  // namespace pq::ext::parquet_vtab
