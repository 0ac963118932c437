// ScanPlan: which row groups, and which rows in them, a scan of one file must read for a predicate,
// decided from metadata before any value is decoded. Layers, cheapest first (README,
// "Pushdown"): row-group statistics, dictionary (a chunk whose data pages are all
// dictionary-encoded and whose dictionary holds no satisfying value), Bloom filter (equality and
// IN; asked before the dictionary when it is fewer bytes to read), page index (ColumnIndex bounds to row ranges, aligned across columns through the
// OffsetIndex), and page-header statistics when a local file has no page index. Each layer only ever
// removes rows that cannot satisfy the predicate, so a plan is always safe to read; rows it keeps
// may still fail.
#pragma once

#include <memory>
#include <vector>

#include "format/file/file_reader.h"
#include "format/predicate/predicate.h"
#include "format/predicate/row_ranges.h"
#include "format/value/value_options.h"

namespace pq {

// What each layer did; summed over files by the SQLite layer for parquet_scan_stats.
struct PruneStats {
  int64_t files_considered = 0, files_skipped = 0;
  int64_t row_groups_considered = 0;
  int64_t row_groups_skipped_by_statistics = 0;
  int64_t row_groups_skipped_by_dictionary = 0;
  int64_t row_groups_skipped_by_bloom_filter = 0;
  int64_t row_groups_skipped_by_page_index = 0;  // every page excluded
  // Pages of the predicate's columns judged by the page index (or, without one, by the data page
  // headers' statistics), counted once per term.
  int64_t pages_considered = 0, pages_skipped_by_page_index = 0;
  int64_t rows_considered = 0, rows_skipped = 0;
  int64_t bytes_read = 0;  // dictionary pages, Bloom filters and page indexes read to decide
};

struct RowGroupPlan {
  int row_group = -1;
  RowRanges rows;  // never empty in a plan
};

struct ScanPlan {
  std::vector<RowGroupPlan> row_groups;  // in file order
};

// `affinity[f]` is the affinity of top-level field f's declared type under `options`. Terms on
// nested fields, or on leaves whose statistics cannot be mapped safely, are ignored (never prune).
// `row_groups` restricts the candidates (e.g. from rowid constraints); empty means all.
Result<ScanPlan> PlanScan(const FileReader& file, const Predicate& predicate,
                          const std::vector<Affinity>& affinity, const ValueOptions& options,
                          const std::vector<int>& row_groups, PruneStats* stats);

}  // namespace pq
