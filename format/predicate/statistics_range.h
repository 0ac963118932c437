// StatisticsRange: a leaf column's stored statistics (a row group's ColumnMetaData.statistics, one
// page of its ColumnIndex, a data page header's statistics) as a ValueRange in the table's value
// model, the values SQLite sees (predicate.h). The stored min/max are PLAIN values ordered by the
// column's sort order; they become bounds only when every step keeps that order (the order the file
// declares, the conversion to the table's values), else the range keeps only what the counts say,
// so a bound can never exclude a row that matches. Only for flat top-level leaves: nested values
// read as JSON text, not as the table's values.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "format/metadata/metadata.h"
#include "format/predicate/predicate.h"
#include "format/schema/schema.h"
#include "format/util/status.h"
#include "format/value/leaf_converter.h"
#include "format/value/value_options.h"

namespace pq {

// What can be trusted about one leaf's statistics, worked out once per leaf and file:
//   - the order: min_value/max_value under the leaf's ColumnOrder (TYPE_ORDER; IEEE_754_TOTAL_ORDER
//     for FLOAT/DOUBLE/FLOAT16 only). Without column_orders, whose absence leaves min_value and
//     max_value undefined (parquet.thrift, ColumnOrder), only for types with one obvious order:
//     BOOLEAN, signed INT32/INT64 (DATE, TIME, TIMESTAMP too), FLOAT, DOUBLE. The deprecated
//     min/max only for those types and only when min_value/max_value are absent: their order was
//     wrong for byte arrays, unsigned integers and decimals.
//   - the conversion (LeafConverter): integers, BOOLEAN, floats, DECIMAL as REAL, TIMESTAMP as
//     INTEGER, strings and byte arrays (TEXT and BLOB compare byte-wise unsigned, the Parquet
//     order), UUID text keep order. DATE and TIMESTAMP text only when both bounds have a four-digit
//     year, TIME text only with two-digit non-negative hours. DECIMAL as text, INT96, INTERVAL,
//     UNKNOWN, GEOMETRY/GEOGRAPHY and ignored or unknown annotations: no bounds.
//   - floating point: a NaN bound means no bounds (old writers); NaN reads as NULL, so the NULL
//     count is null_count + nan_count, unknown without nan_count. -0.0 and +0.0 compare equal in
//     SQLite, so the spec's zero rules need nothing here.
//   - truncated byte-array bounds (is_min/max_value_exact false) are still bounds; a
//     FIXED_LEN_BYTE_ARRAY bound of the wrong width is none for UUID, FLOAT16 and DECIMAL, nor is
//     an inexact DECIMAL.
class StatisticsRangeMapper {
 public:
  // `leaf` must be a leaf of the schema of `metadata`. Fails only where LeafConverter::Make does.
  static Result<StatisticsRangeMapper> Make(const FileMetaData& metadata, const SchemaNode& leaf,
                                            const ValueOptions& options);

  // A row group's or a data page's statistics; `num_values` counts every value, NULLs included
  // (-1 when unknown). A null `stats` gives a range that only knows num_values.
  ValueRange FromStatistics(const Statistics* stats, int64_t num_values) const;

  // Page `page` of a ColumnIndex (the caller checked that page < every list's size); `num_values`
  // as above (the page's row count for a flat leaf).
  ValueRange FromColumnIndex(const ColumnIndex& index, size_t page, int64_t num_values) const;

  const LeafConverter& converter() const { return converter_; }
  // False when no statistics of this leaf can ever give bounds.
  bool may_have_bounds() const { return use_min_value_ || use_legacy_min_max_; }

 private:
  explicit StatisticsRangeMapper(LeafConverter converter) : converter_(converter) {}

  // Bounds from two stored values; false when they cannot be used.
  bool Bounds(const std::string& min, const std::string& max, ValueRange* range) const;
  // One stored value converted; false when it cannot be used (wrong size, NaN, text out of order).
  bool Decode(const std::string& stored, SqlValue* out) const;
  int64_t NullCount(std::optional<int64_t> null_count, std::optional<int64_t> nan_count,
                    int64_t num_values) const;

  LeafConverter converter_;
  int32_t type_length_ = 0;
  bool use_min_value_ = false;       // min_value/max_value (and ColumnIndex bounds) are usable
  bool use_legacy_min_max_ = false;  // the deprecated min/max are usable
  bool floating_ = false;            // NaN reads as NULL
  bool nulls_uncountable_ = false;   // values may read as NULL beyond the stored null count
  bool all_null_ = false;            // every value reads as NULL (UNKNOWN)
};

// The same for one Statistics without keeping a mapper: the range of `stats` of `leaf` in a file
// with `metadata`, read under `options`. No bounds when LeafConverter::Make fails.
ValueRange StatisticsToValueRange(const FileMetaData& metadata, const SchemaNode& leaf,
                                  const ValueOptions& options, const Statistics& stats,
                                  int64_t num_values);

}  // namespace pq
