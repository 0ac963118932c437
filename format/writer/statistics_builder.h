// Column statistics as the writer computes them: min/max in the column's sort order, null and NaN
// counts, for one page (page header, column index) or one column chunk (ColumnMetaData). Values are
// PLAIN in statistics, byte arrays without their length prefix; long byte-array bounds are
// truncated and flagged inexact, a min to a prefix and a max to a prefix whose last byte (or UTF-8
// character) is incremented, so both stay bounds. Every column of our files declares ColumnOrder
// TYPE_ORDER, so a type without a defined order gets no min/max at all.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "format/encoding/values.h"
#include "format/metadata/metadata.h"
#include "format/schema/schema.h"

namespace pq {

enum class SortOrder {
  kNone,                // no defined order: min/max are not written
  kBoolean,             // false < true
  kSignedInt,           // INT32 / INT64 two's complement
  kUnsignedInt,         // INT32 / INT64 read as unsigned (UINT_8..UINT_64)
  kFloat,               // FLOAT / DOUBLE by value, NaN excluded
  kFloat16,             // FIXED_LEN_BYTE_ARRAY(2) half by value, NaN excluded
  kUnsignedBytes,       // BYTE_ARRAY / FIXED_LEN_BYTE_ARRAY byte-wise unsigned
  kSignedDecimalBytes,  // BYTE_ARRAY / FIXED_LEN_BYTE_ARRAY big-endian two's complement
};

// The order of a leaf column from its physical and (resolved) logical type (the Parquet spec, each
// type's "sort order"): unsigned for UINT_x / INTEGER(signed=false); FLOAT/DOUBLE/FLOAT16 by value,
// NaN left out of min/max and counted in nan_count, a zero min written as -0.0 and a zero max as
// +0.0 (so readers that see one zero know both may be there); byte arrays unsigned byte-wise but
// DECIMAL by value; INT96, INTERVAL, GEOMETRY, GEOGRAPHY, UNKNOWN and unknown logical types kNone.
// The deprecated Statistics.min/max (signed order) are written, equal to min_value/max_value, only
// where signed order is the column's: BOOLEAN, signed INT32/INT64 (DATE, TIME, TIMESTAMP, DECIMAL
// on integers too), FLOAT, DOUBLE.
SortOrder ColumnSortOrder(const SchemaNode& leaf);

// True when byte-array bounds of this leaf are UTF-8 text (STRING, ENUM, JSON), so truncation
// must cut and increment whole characters.
bool StatisticsAreUtf8(const SchemaNode& leaf);

// Compares two PLAIN-encoded statistics values (byte arrays without length prefix) of a column of
// `type` in `order`: negative, zero or positive. Values too short for a fixed-width type compare as
// unsigned bytes (never reads past either value). kNone compares as unsigned bytes.
int CompareStatValues(SortOrder order, PhysicalType type, std::string_view a, std::string_view b);

// What one page or chunk holds, with exact (untruncated) bounds.
struct ValueStatistics {
  int64_t null_count = 0;    // level entries below the max definition level
  int64_t value_count = 0;   // non-null values, NaNs included
  int64_t nan_count = 0;     // FLOAT, DOUBLE, FLOAT16 only
  bool has_min_max = false;  // false with no order, no values, or only NaNs
  std::string min;           // PLAIN, zero already normalized (-0.0 min, +0.0 max)
  std::string max;

  // Folds `other` (same column) into this one.
  void Merge(const ValueStatistics& other, SortOrder order, PhysicalType type);
};

// Accumulates the statistics of the non-null values of one page (or chunk) of one column; T as
// values.h. Update() is a tight typed loop, called once per batch of values.
template <typename T>
class StatisticsBuilder {
 public:
  explicit StatisticsBuilder(SortOrder order) : order_(order) {}
  void Update(const T* values, int64_t n);
  void AddNulls(int64_t n) { stats_.null_count += n; }
  // Returns what was accumulated and starts over.
  ValueStatistics Take();

 private:
  SortOrder order_;
  ValueStatistics stats_;
  // Running bounds of fixed-width types, encoded into stats_ by Take().
  T min_{};
  T max_{};
};

// A lower bound of `value` at most `max_bytes` long (a prefix; for UTF-8 cut at a character
// boundary). Returns `value` itself when it is short enough. `max_bytes` >= 1.
std::string TruncateMin(std::string_view value, size_t max_bytes, bool utf8);
// An upper bound of `value` at most `max_bytes` (+3 for UTF-8) long: a prefix whose last byte (or
// character) is incremented, dropping what follows it. nullopt when no prefix can be incremented
// (all 0xFF bytes, or all U+10FFFF). Returns `value` itself when it is short enough.
std::optional<std::string> TruncateMax(std::string_view value, size_t max_bytes, bool utf8);

// How statistics are turned into the Thrift struct.
struct StatisticsFormat {
  SortOrder order = SortOrder::kNone;
  PhysicalType type = PhysicalType::kInt32;
  bool utf8 = false;           // see StatisticsAreUtf8
  size_t truncate_bytes = 64;  // BYTE_ARRAY bounds longer than this are truncated
  bool floating = false;       // FLOAT, DOUBLE, FLOAT16: nan_count is written
};

// The Thrift Statistics for `stats`: null_count always, nan_count for floating types, min_value /
// max_value with their exactness flags when there are bounds (a max that cannot be truncated is
// left out), legacy min/max where signed order is the column's order (ColumnSortOrder).
Statistics ToThriftStatistics(const ValueStatistics& stats, const StatisticsFormat& format);

}  // namespace pq
