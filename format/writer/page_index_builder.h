// The page index of one column chunk as the writer builds it (the Parquet spec, "Page Index"):
// ColumnIndex (per data page: null page flag, min/max, null count, NaN count, level histograms) and
// OffsetIndex (per data page: location, size with header, first row), so that readers can skip
// pages by their bounds and find a page by its rows.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "format/metadata/metadata.h"
#include "format/writer/statistics_builder.h"

namespace pq {

// Column index rules (parquet.thrift ColumnIndex and ColumnOrder TYPE_ORDER):
// - a page with no non-null value is a null page, its min/max entries empty;
// - BYTE_ARRAY bounds are truncated as in statistics_builder.h; a max that cannot be truncated is
//   stored whole (entries are required, so it cannot be left out);
// - no column index at all for a column without sort order (INT96, INTERVAL, ...) or when a page's
//   non-null values are all NaN (TYPE_ORDER cannot express its bounds);
// - boundary_order is ASCENDING when the min and the max of the non-null pages are both
//   non-decreasing page after page (also when there is at most one such page), DESCENDING when both
//   are non-increasing, else UNORDERED.
class ColumnIndexBuilder {
 public:
  // `max_def` / `max_rep`: the leaf's max levels; a level histogram is kept for a level that is
  // not always 0.
  ColumnIndexBuilder(const StatisticsFormat& format, int16_t max_def, int16_t max_rep);

  // Adds the next data page. `def_histogram` has max_def + 1 entries when max_def > 0 (else it is
  // ignored), `rep_histogram` likewise for max_rep.
  void AddPage(const ValueStatistics& page, const std::vector<int64_t>& def_histogram,
               const std::vector<int64_t>& rep_histogram);

  // The column index, or nullopt when the chunk must not have one (the rules above).
  std::optional<ColumnIndex> Finish() const;

 private:
  StatisticsFormat format_;
  int16_t max_def_;
  int16_t max_rep_;
  bool valid_;
  ColumnIndex index_;
};

class OffsetIndexBuilder {
 public:
  // `offset` of the page header, relative to wherever the caller likes (see Shift);
  // `size_with_header` the header plus the stored page bytes; `first_row` within the row group;
  // `unencoded_byte_array_bytes` for BYTE_ARRAY columns (nullopt otherwise, for every page).
  void AddPage(int64_t offset, int32_t size_with_header, int64_t first_row,
               std::optional<int64_t> unencoded_byte_array_bytes);
  // Adds `delta` to every page offset (chunk-relative to file offsets).
  void Shift(int64_t delta);
  const OffsetIndex& index() const { return index_; }

 private:
  OffsetIndex index_;
};

}  // namespace pq
