#include "ext/source_types.h"

#include <string>
#include <unordered_set>
#include <utility>

#include "ext/options.h"
#include "format/record/nested_shape.h"
#include "format/value/leaf_converter.h"

namespace pq::ext {

namespace {

using LeafKind = LeafConverter::Kind;

// The width of an INT(n) annotation on an INT32 leaf (8, 16 or 32), 32 when there is none.
int Int32Width(const SchemaNode& leaf) {
  const LogicalType& l = leaf.logical_type;
  if (l.kind == LogicalType::Kind::kInteger && (l.bit_width == 8 || l.bit_width == 16)) {
    return l.bit_width;
  }
  return 32;
}

// A leaf: `in_json` when its values are members of a nested value's JSON, where decimals are exact
// numbers and binary values are base64 strings (leaf_converter.h, "JSON").
std::optional<ColumnType> LeafType(const SchemaNode& leaf, const ValueOptions& values,
                                   bool in_json) {
  Result<LeafConverter> converter = LeafConverter::Make(leaf, values);
  if (!converter.ok()) return std::nullopt;
  const LogicalType& l = leaf.logical_type;
  switch (converter->kind()) {
    case LeafKind::kInteger:
      if (leaf.physical_type == PhysicalType::kBoolean) return ColumnType::Of(ColumnKind::kBoolean);
      if (leaf.physical_type == PhysicalType::kInt32) return ColumnType::Integer(Int32Width(leaf), true);
      return ColumnType::Integer(64, true);
    case LeafKind::kUInt32:
      return ColumnType::Integer(Int32Width(leaf), false);
    case LeafKind::kUInt64:
      return ColumnType::Integer(64, false);
    case LeafKind::kReal:
      return ColumnType::Of(leaf.physical_type == PhysicalType::kFloat ? ColumnKind::kFloat
                                                               : ColumnKind::kDouble);
    case LeafKind::kFloat16:  // FLOAT16 stands only as a column's own type; FLOAT holds each value
      return ColumnType::Of(in_json ? ColumnKind::kFloat : ColumnKind::kFloat16);
    case LeafKind::kDecimalReal:
    case LeafKind::kDecimalText: {
      // A REAL holds the decimal exactly only up to precision 15; JSON numbers always do.
      const bool exact = in_json || converter->kind() == LeafKind::kDecimalText ||
                         l.decimal_precision <= ValueOptions::kMaxExactRealDecimalPrecision;
      if (!exact || l.decimal_precision < 1 || l.decimal_precision > 38 || l.decimal_scale < 0 ||
          l.decimal_scale > l.decimal_precision) {
        return std::nullopt;
      }
      ColumnType t = ColumnType::Of(ColumnKind::kDecimal);
      t.precision = l.decimal_precision;
      t.scale = l.decimal_scale;
      return t;
    }
    case LeafKind::kText:
      if (l.kind == LogicalType::Kind::kJson) return ColumnType::Of(ColumnKind::kJson);
      if (l.kind == LogicalType::Kind::kString || l.kind == LogicalType::Kind::kEnum || in_json) {
        return ColumnType::Of(ColumnKind::kString);
      }
      // Binary read as TEXT (binary_as_string=1): a BLOB column takes the text as its bytes.
      return ColumnType::Of(ColumnKind::kBlob);
    case LeafKind::kBlob:
      return ColumnType::Of(ColumnKind::kBlob);
    case LeafKind::kUuid:
      return ColumnType::Of(ColumnKind::kUuid);
    case LeafKind::kDate:
      return ColumnType::Of(ColumnKind::kDate);
    case LeafKind::kTime:
    case LeafKind::kTimestampText:
    case LeafKind::kTimestampInteger: {
      ColumnType t = ColumnType::Of(converter->kind() == LeafKind::kTime ? ColumnKind::kTime
                                                                 : ColumnKind::kTimestamp);
      t.unit = converter->unit();
      t.adjusted_to_utc = l.is_adjusted_to_utc;
      return t;
    }
    case LeafKind::kNull:
    case LeafKind::kInt96Text:
    case LeafKind::kInt96Integer:
      return std::nullopt;
    case LeafKind::kInterval:  // the JSON object INTERVAL takes back; not inside nested values
      if (in_json) return std::nullopt;
      return ColumnType::Of(ColumnKind::kInterval);
  }
  return std::nullopt;
}

std::optional<ColumnType> ShapeType(const NestedShape& shape, const ValueOptions& values) {
  switch (shape.kind) {
    case NestedShape::Kind::kLeaf:
      return LeafType(*shape.node, values, /*in_json=*/true);
    case NestedShape::Kind::kList: {
      std::optional<ColumnType> element = ShapeType(shape.element(), values);
      if (!element) return std::nullopt;
      ColumnType t = ColumnType::Of(ColumnKind::kList);
      t.children.push_back(std::move(*element));
      return t;
    }
    case NestedShape::Kind::kMap: {
      if (!shape.has_value()) return std::nullopt;
      std::optional<ColumnType> key = ShapeType(shape.key(), values);
      std::optional<ColumnType> value = ShapeType(shape.value(), values);
      if (!key || !value || key->is_nested() || key->kind == ColumnKind::kJson) return std::nullopt;
      ColumnType t = ColumnType::Of(ColumnKind::kMap);
      t.children.push_back(std::move(*key));
      t.children.push_back(std::move(*value));
      return t;
    }
    case NestedShape::Kind::kStruct: {
      ColumnType t = ColumnType::Of(ColumnKind::kStruct);
      // Names seen, ignoring case: a set, so that a struct of many fields costs linear time.
      std::unordered_set<std::string> seen;
      for (const NestedShape& field : shape.children) {
        std::optional<ColumnType> type = ShapeType(field, values);
        if (!type) return std::nullopt;
        if (!seen.insert(LowerAscii(field.node->name)).second) return std::nullopt;
        t.field_names.push_back(field.node->name);
        t.children.push_back(std::move(*type));
      }
      if (t.children.empty()) return std::nullopt;
      return t;
    }
    case NestedShape::Kind::kVariant:
    case NestedShape::Kind::kShredded:
      return std::nullopt;
  }
  return std::nullopt;
}

}  // namespace

std::optional<ColumnType> WriterTypeOfField(const SchemaNode& field, const ValueOptions& values) {
  if (field.is_leaf && !field.is_repeated()) return LeafType(field, values, /*in_json=*/false);
  Result<NestedShape> shape = BuildNestedShape(field);
  if (!shape.ok()) return std::nullopt;
  return ShapeType(*shape, values);
}

void SourceTypeRegistry::Add(const void* owner, std::string schema, std::string table,
                             std::vector<SourceColumn> columns) {
  Remove(owner);
  entries_.push_back({owner, std::move(schema), std::move(table), std::move(columns)});
}

void SourceTypeRegistry::Remove(const void* owner) {
  for (size_t i = 0; i < entries_.size(); ++i) {
    if (entries_[i].owner == owner) {
      entries_.erase(entries_.begin() + static_cast<std::ptrdiff_t>(i));
      return;
    }
  }
}

const ColumnType* SourceTypeRegistry::Find(std::string_view schema, std::string_view table,
                                           std::string_view column) const {
  for (const Entry& e : entries_) {
    if (LowerAscii(e.schema) != LowerAscii(schema) || LowerAscii(e.table) != LowerAscii(table)) {
      continue;
    }
    for (const SourceColumn& c : e.columns) {
      if (LowerAscii(c.name) == LowerAscii(column)) return c.type ? &*c.type : nullptr;
    }
    return nullptr;
  }
  return nullptr;
}

}  // namespace pq::ext
