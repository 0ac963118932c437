// StatisticsRange: a leaf column's stored statistics (a row group's ColumnMetaData.statistics, one
// page of its ColumnIndex, a data page header's statistics) as a ValueRange in the table's value
// model, the values SQLite sees (predicate.h).
//
// The stored min/max are PLAIN-encoded values of the physical type (byte arrays without length
// prefix), ordered by the column's sort order. They become bounds only when every step keeps
// order, else the range has no bounds (has_bounds false) and keeps only what the counts say:
//
//   - which order the bounds follow: min_value/max_value under the ColumnOrder of the leaf in
//     FileMetaData.column_orders: TYPE_ORDER; IEEE_754_TOTAL_ORDER for FLOAT/DOUBLE/FLOAT16 only;
//     nothing else. Without column_orders (older writers), min_value/max_value are used only for
//     types with a single obvious order: BOOLEAN, signed INT32/INT64 (with DATE, TIME, TIMESTAMP),
//     FLOAT, DOUBLE (the Parquet spec and parquet.thrift, ColumnOrder: "without column_orders
//     the meaning of min_value and max_value is undefined"). The deprecated min/max (signed
//     comparison, any writer) only for those same types, and only when min_value/max_value are
//     both absent: their order was wrong for byte arrays, unsigned integers and decimals.
//   - whether the conversion keeps order (LeafConverter, under the table's ValueOptions): integers
//     (signed, unsigned, UINT64 above 2^63-1 as REAL), BOOLEAN, FLOAT, DOUBLE, FLOAT16, DECIMAL as
//     REAL, TIMESTAMP as INTEGER, strings and byte arrays (as TEXT or BLOB: both compare byte-wise
//     unsigned, the Parquet order), UUID text (fixed-width lower-case hex) do. DATE and TIMESTAMP
//     text only when both bounds print with a four-digit year (0000..9999), TIME text only when
//     both print with two-digit, non-negative hours. DECIMAL as text, INT96, INTERVAL, UNKNOWN,
//     GEOMETRY/GEOGRAPHY, an annotation the converter ignored or a logical type this reader does
//     not know: no bounds.
//   - floating point: a NaN min or max means no bounds (old writers); -0.0 and +0.0 compare equal
//   in
//     SQLite, so the spec's zero rules need nothing here. NaN reads as NULL in the table, so the
//     NULL count of FLOAT/DOUBLE/FLOAT16 is null_count + nan_count, unknown (-1) without nan_count.
//   - truncated byte-array bounds (is_min/max_value_exact false) are still bounds (a prefix below,
//     an incremented prefix above); a FIXED_LEN_BYTE_ARRAY bound of the wrong width is no bound
//     for the types that need the full width (UUID, FLOAT16, DECIMAL), nor is an inexact DECIMAL.
//
// Nested leaves (under a group, or repeated) are the caller's business: their values are not the
// table's values (a nested field reads as JSON text). Use these only for flat top-level leaves.
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

// What can be trusted about one leaf's statistics, worked out once per leaf and file.
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
