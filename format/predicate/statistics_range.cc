#include "format/predicate/statistics_range.h"

#include <cmath>
#include <limits>

#include "format/util/byte_reader.h"
#include "format/value/decimal.h"

namespace pq {
namespace {

using Kind = LeafConverter::Kind;
using LogicalKind = LogicalType::Kind;

// No annotation at all: neither a logical type (known or not) nor a converted type.
bool Unannotated(const SchemaNode& leaf) {
  return leaf.logical_type.kind == LogicalKind::kNone && leaf.logical_type.unknown_field_id == 0 &&
         !leaf.converted_type.has_value();
}

bool AnnotatedAs(const SchemaNode& leaf, std::initializer_list<LogicalKind> kinds) {
  for (LogicalKind k : kinds) {
    if (leaf.logical_type.kind == k) return true;
  }
  return false;
}

// Whether the stored order of this leaf's values survives the conversion to table values (see the
// header), and whether the type has the single signed order old writers used (`legacy_order`).
bool ConversionKeepsOrder(const SchemaNode& leaf, Kind kind, bool* legacy_order) {
  *legacy_order = false;
  switch (kind) {
    case Kind::kInteger:
      if (leaf.physical_type == PhysicalType::kBoolean) {
        *legacy_order = Unannotated(leaf);
        return *legacy_order;
      }
      // Plain or signed-integer annotated INT32/INT64; an ignored annotation leaves the writer's
      // order unknown.
      *legacy_order = Unannotated(leaf) || (leaf.logical_type.kind == LogicalKind::kInteger &&
                                            leaf.logical_type.is_signed);
      return *legacy_order;
    case Kind::kReal:
      *legacy_order = Unannotated(leaf);
      return *legacy_order;
    case Kind::kDate:
    case Kind::kTime:
    case Kind::kTimestampText:
    case Kind::kTimestampInteger:
      *legacy_order = true;  // signed INT32/INT64 underneath
      return true;
    case Kind::kUInt32:
    case Kind::kUInt64:
    case Kind::kFloat16:
    case Kind::kDecimalReal:
    case Kind::kUuid:
      return true;  // the converter chose these from an annotation that fits the physical type
    case Kind::kText:
      return AnnotatedAs(leaf, {LogicalKind::kString, LogicalKind::kEnum, LogicalKind::kJson}) ||
             Unannotated(leaf);  // binary_as_string
    case Kind::kBlob:
      return leaf.logical_type.kind == LogicalKind::kBson || Unannotated(leaf);
    case Kind::kNull:
    case Kind::kDecimalText:
    case Kind::kInt96Text:
    case Kind::kInt96Integer:
    case Kind::kInterval:
      return false;
  }
  return false;
}

// Text conversions that keep order only in part of their domain (temporal.h, "Text order").
bool TextInOrderedDomain(Kind kind, std::string_view text) {
  switch (kind) {
    case Kind::kDate:           // 'YYYY-MM-DD'
    case Kind::kTimestampText:  // 'YYYY-MM-DD HH:MM:SS[.f]'
      return text.size() >= 10 && text[0] != '-' && text[4] == '-';
    case Kind::kTime:  // 'HH:MM:SS[.f]'
      return text.size() >= 8 && text[0] != '-' && text[2] == ':';
    default:
      return true;
  }
}

}  // namespace

Result<StatisticsRangeMapper> StatisticsRangeMapper::Make(const FileMetaData& metadata,
                                                          const SchemaNode& leaf,
                                                          const ValueOptions& options) {
  PQ_ASSIGN_OR_RETURN(LeafConverter converter, LeafConverter::Make(leaf, options));
  StatisticsRangeMapper m(converter);
  const Kind kind = converter.kind();
  m.type_length_ = leaf.type_length;
  m.floating_ = kind == Kind::kReal || kind == Kind::kFloat16;
  m.all_null_ = kind == Kind::kNull;
  // A byte-array DECIMAL too long to convert reads as NULL (decimal.h, kMaxDecimalBytes).
  m.nulls_uncountable_ = (kind == Kind::kDecimalReal || kind == Kind::kDecimalText) &&
                         (leaf.physical_type == PhysicalType::kByteArray ||
                          (leaf.physical_type == PhysicalType::kFixedLenByteArray &&
                           static_cast<size_t>(leaf.type_length) > kMaxDecimalBytes));
  bool legacy_order = false;
  const bool keeps_order = ConversionKeepsOrder(leaf, kind, &legacy_order);
  if (!keeps_order) return m;
  if (metadata.column_orders.has_value()) {
    const auto& orders = *metadata.column_orders;
    const size_t i = static_cast<size_t>(leaf.leaf_index);
    if (leaf.leaf_index >= 0 && i < orders.size()) {
      const ColumnOrder::Kind order = orders[i].kind;
      m.use_min_value_ = order == ColumnOrder::Kind::kTypeDefinedOrder ||
                         (order == ColumnOrder::Kind::kIeee754TotalOrder && m.floating_);
    }
  } else {
    m.use_min_value_ = legacy_order;
  }
  m.use_legacy_min_max_ = legacy_order;
  // polars computes a float column chunk's min/max from its pages without a NaN only (and marks
  // those pages as null pages in the ColumnIndex), so a value in a page beside a NaN may lie outside
  // the chunk's bounds: no bounds of floats from polars are used.
  if (m.floating_ && metadata.created_by && metadata.created_by->starts_with("Polars")) {
    m.use_min_value_ = false;
    m.use_legacy_min_max_ = false;
  }
  return m;
}

bool StatisticsRangeMapper::Decode(const std::string& stored, SqlValue* out) const {
  std::string scratch;
  Cell c;
  const size_t n = stored.size();
  const auto* p = reinterpret_cast<const uint8_t*>(stored.data());
  switch (converter_.physical_type()) {
    case PhysicalType::kBoolean:
      if (n != 1 || p[0] > 1) return false;
      c = converter_.Convert(p[0], &scratch);
      break;
    case PhysicalType::kInt32:
      if (n != 4) return false;
      c = converter_.Convert(LoadLE<int32_t>(p), &scratch);
      break;
    case PhysicalType::kInt64:
      if (n != 8) return false;
      c = converter_.Convert(LoadLE<int64_t>(p), &scratch);
      break;
    case PhysicalType::kFloat:
      if (n != 4) return false;
      c = converter_.Convert(LoadLE<float>(p), &scratch);  // NaN becomes NULL, refused below
      break;
    case PhysicalType::kDouble:
      if (n != 8) return false;
      c = converter_.Convert(LoadLE<double>(p), &scratch);
      break;
    case PhysicalType::kByteArray:
    case PhysicalType::kFixedLenByteArray: {
      const Kind kind = converter_.kind();
      const bool whole_width = kind == Kind::kUuid || kind == Kind::kFloat16 ||
                               kind == Kind::kDecimalReal || kind == Kind::kInterval;
      if (converter_.physical_type() == PhysicalType::kFixedLenByteArray && whole_width &&
          n != static_cast<size_t>(type_length_)) {
        return false;
      }
      if (n > std::numeric_limits<uint32_t>::max()) return false;
      c = converter_.Convert(ByteArray{p, static_cast<uint32_t>(n)}, &scratch);
      break;
    }
    case PhysicalType::kInt96:
      return false;
  }
  if (c.type == CellType::kNull) return false;
  if (c.type == CellType::kText && !TextInOrderedDomain(converter_.kind(), c.bytes)) return false;
  *out = SqlValue::FromCell(c);
  return true;
}

bool StatisticsRangeMapper::Bounds(const std::string& min, const std::string& max,
                                   ValueRange* range) const {
  SqlValue lo, hi;
  if (!Decode(min, &lo) || !Decode(max, &hi)) return false;
  if (CompareSql(lo.AsCell(), hi.AsCell()) > 0) return false;  // contradicts itself: distrust
  range->has_bounds = true;
  range->min = std::move(lo);
  range->max = std::move(hi);
  return true;
}

int64_t StatisticsRangeMapper::NullCount(std::optional<int64_t> null_count,
                                         std::optional<int64_t> nan_count,
                                         int64_t num_values) const {
  if (all_null_) return num_values;
  // More nulls than values is a writer's mistake (polars writes a dictionary column chunk's null
  // count into every page of its ColumnIndex, and their sum as the chunk's): nothing is known.
  if (nulls_uncountable_ || !null_count || *null_count < 0 || *null_count > num_values) return -1;
  if (!floating_) return *null_count;
  if (!nan_count || *nan_count < 0 ||
      *nan_count > std::numeric_limits<int64_t>::max() - *null_count) {
    return -1;
  }
  return *null_count + *nan_count;
}

ValueRange StatisticsRangeMapper::FromStatistics(const Statistics* stats,
                                                 int64_t num_values) const {
  ValueRange r;
  r.num_values = num_values;
  if (stats == nullptr) {
    r.null_count = all_null_ ? num_values : -1;
    return r;
  }
  r.null_count = NullCount(stats->null_count, stats->nan_count, num_values);
  const bool decimal = converter_.kind() == Kind::kDecimalReal;
  if (stats->min_value || stats->max_value) {
    if (!use_min_value_ || !stats->min_value || !stats->max_value) return r;
    // Truncating a DECIMAL bound does not give a bound of its value.
    if (decimal && (stats->is_min_value_exact == false || stats->is_max_value_exact == false)) {
      return r;
    }
    Bounds(*stats->min_value, *stats->max_value, &r);
  } else if (use_legacy_min_max_ && stats->min && stats->max) {
    Bounds(*stats->min, *stats->max, &r);
  }
  return r;
}

ValueRange StatisticsRangeMapper::FromColumnIndex(const ColumnIndex& index, size_t page,
                                                  int64_t num_values) const {
  ValueRange r;
  r.num_values = num_values;
  std::optional<int64_t> nulls, nans;
  if (index.null_counts && page < index.null_counts->size()) nulls = (*index.null_counts)[page];
  if (index.null_pages[page]) {
    // No value but NULLs (the min/max entries are meaningless). A null count below the page's
    // entries contradicts that: polars marks a page whose min/max it did not compute (one holding
    // a NaN) as a null page with null count 0. Nothing is known about such a page.
    if (nulls && *nulls < num_values) return r;
    r.null_count = num_values;
    return r;
  }
  if (index.nan_counts && page < index.nan_counts->size()) nans = (*index.nan_counts)[page];
  r.null_count = NullCount(nulls, nans, num_values);
  if (use_min_value_) Bounds(index.min_values[page], index.max_values[page], &r);
  return r;
}

ValueRange StatisticsToValueRange(const FileMetaData& metadata, const SchemaNode& leaf,
                                  const ValueOptions& options, const Statistics& stats,
                                  int64_t num_values) {
  auto mapper = StatisticsRangeMapper::Make(metadata, leaf, options);
  if (!mapper.ok()) {
    ValueRange r;
    r.num_values = num_values;
    return r;
  }
  return mapper->FromStatistics(&stats, num_values);
}

}  // namespace pq
