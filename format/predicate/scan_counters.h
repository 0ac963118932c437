// ScanCounters: what one scan did, summed over the files it reached, and the one set of counters
// every layer counts into: the pruning (PlanScan), the table scan (TableScanner::stats) and the
// SQLite table, which reports the sum with parquet_scan_stats. One struct for all layers keeps
// their counts comparable and their names in one place: the field names are that function's JSON
// keys (kScanCounterFields), documented in docs/pushdown.md ("Scan statistics"); keep them stable.
#pragma once

#include <cstdint>

namespace pq {

// Levels are counted top-down: a file the scan reached is "considered"; a file excluded as a whole
// (by `filename` or partition values, a column the file lacks, rowid/file_row_number/OFFSET, or
// because every row group was pruned) is skipped. Row groups of files not skipped are considered;
// each either is skipped by exactly one layer, or is read, or is never reached because SQLite
// stopped the scan (LIMIT). Rows: every row of a file the scan reached is considered; then it is
// skipped (never decoded: file, row group, page or row range excluded), or filtered (decoded and
// rejected by the engine's predicate), or produced (handed to SQLite in a batch), or never reached.
struct ScanCounters {
  int64_t files_considered = 0;
  int64_t files_skipped = 0;
  int64_t row_groups_considered = 0;
  int64_t row_groups_skipped_by_row_position = 0;  // rowid / file_row_number / OFFSET
  int64_t row_groups_skipped_by_statistics = 0;    // ColumnChunk min/max/null counts
  int64_t row_groups_skipped_by_dictionary = 0;    // no dictionary entry satisfies the predicate
  int64_t row_groups_skipped_by_bloom_filter = 0;  // no value of = / IN is in the filter
  int64_t row_groups_skipped_by_page_index = 0;    // every page excluded by the ColumnIndex
  int64_t row_groups_read = 0;
  int64_t pages_considered = 0;             // data pages listed by the page indexes consulted
  int64_t pages_skipped_by_page_index = 0;  // of those, excluded by ColumnIndex bounds
  int64_t pages_read = 0;                   // data pages read and decoded, all projected columns
  int64_t pages_skipped = 0;  // data pages of the column chunks read, passed over unread (ranges)
  int64_t pages_from_cache = 0;  // pages the table's page cache supplied already decompressed
  int64_t pages_read_ahead = 0;  // pages handed to worker threads ahead of the scan (threads > 1)
  int64_t rows_considered = 0;
  int64_t rows_skipped = 0;
  int64_t rows_filtered = 0;
  int64_t rows_produced = 0;
  int64_t bytes_read = 0;      // column data, dictionaries, Bloom filters and page indexes read
  int64_t values_decoded = 0;  // values decoded, all projected columns
  int64_t requests = 0;        // HTTP requests the scan sent (remote files; every try counts)
  int64_t bytes_fetched = 0;   // body bytes those requests brought (joined gaps included)

  // Every field summed.
  ScanCounters& operator+=(const ScanCounters& o);
  // What a PlanScan of one file decided (row groups and pages skipped by each layer, bytes read to
  // decide), without its tallies of files, row groups and rows considered and skipped, which the
  // SQLite table keeps itself for every file, planned or not.
  void AddPruning(const ScanCounters& plan);
};

// The fields with their names, in the order of the struct.
struct ScanCounterField {
  const char* name;
  int64_t ScanCounters::*member;
};
inline constexpr ScanCounterField kScanCounterFields[] = {
    {"files_considered", &ScanCounters::files_considered},
    {"files_skipped", &ScanCounters::files_skipped},
    {"row_groups_considered", &ScanCounters::row_groups_considered},
    {"row_groups_skipped_by_row_position", &ScanCounters::row_groups_skipped_by_row_position},
    {"row_groups_skipped_by_statistics", &ScanCounters::row_groups_skipped_by_statistics},
    {"row_groups_skipped_by_dictionary", &ScanCounters::row_groups_skipped_by_dictionary},
    {"row_groups_skipped_by_bloom_filter", &ScanCounters::row_groups_skipped_by_bloom_filter},
    {"row_groups_skipped_by_page_index", &ScanCounters::row_groups_skipped_by_page_index},
    {"row_groups_read", &ScanCounters::row_groups_read},
    {"pages_considered", &ScanCounters::pages_considered},
    {"pages_skipped_by_page_index", &ScanCounters::pages_skipped_by_page_index},
    {"pages_read", &ScanCounters::pages_read},
    {"pages_skipped", &ScanCounters::pages_skipped},
    {"pages_from_cache", &ScanCounters::pages_from_cache},
    {"pages_read_ahead", &ScanCounters::pages_read_ahead},
    {"rows_considered", &ScanCounters::rows_considered},
    {"rows_skipped", &ScanCounters::rows_skipped},
    {"rows_filtered", &ScanCounters::rows_filtered},
    {"rows_produced", &ScanCounters::rows_produced},
    {"bytes_read", &ScanCounters::bytes_read},
    {"values_decoded", &ScanCounters::values_decoded},
    {"requests", &ScanCounters::requests},
    {"bytes_fetched", &ScanCounters::bytes_fetched},
};

}  // namespace pq
