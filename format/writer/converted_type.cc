#include "format/writer/converted_type.h"

namespace pq {

std::optional<ConvertedType> ConvertedTypeFor(const LogicalType& type) {
  using Kind = LogicalType::Kind;
  switch (type.kind) {
    case Kind::kString:
      return ConvertedType::kUtf8;
    case Kind::kMap:
      return ConvertedType::kMap;
    case Kind::kList:
      return ConvertedType::kList;
    case Kind::kEnum:
      return ConvertedType::kEnum;
    case Kind::kDecimal:
      return ConvertedType::kDecimal;
    case Kind::kDate:
      return ConvertedType::kDate;
    case Kind::kTime:
      if (type.unit == TimeUnit::kMillis) return ConvertedType::kTimeMillis;
      if (type.unit == TimeUnit::kMicros) return ConvertedType::kTimeMicros;
      return std::nullopt;
    case Kind::kTimestamp:
      if (type.unit == TimeUnit::kMillis) return ConvertedType::kTimestampMillis;
      if (type.unit == TimeUnit::kMicros) return ConvertedType::kTimestampMicros;
      return std::nullopt;
    case Kind::kInteger:
      switch (type.bit_width) {
        case 8:
          return type.is_signed ? ConvertedType::kInt8 : ConvertedType::kUint8;
        case 16:
          return type.is_signed ? ConvertedType::kInt16 : ConvertedType::kUint16;
        case 32:
          return type.is_signed ? ConvertedType::kInt32 : ConvertedType::kUint32;
        case 64:
          return type.is_signed ? ConvertedType::kInt64 : ConvertedType::kUint64;
        default:
          return std::nullopt;
      }
    case Kind::kJson:
      return ConvertedType::kJson;
    case Kind::kBson:
      // Not the BSON converted type: DuckDB (1.5) refuses a whole file holding one ("Unsupported
      // converted type (20)"), and readers that know BSON know the logical type.
      return std::nullopt;
    default:
      return std::nullopt;
  }
}

void AddConvertedTypes(std::vector<SchemaElement>* schema) {
  for (SchemaElement& e : *schema) {
    if (!e.logical_type || e.converted_type) continue;
    std::optional<ConvertedType> c = ConvertedTypeFor(*e.logical_type);
    if (!c) continue;
    e.converted_type = c;
    if (*c == ConvertedType::kDecimal) {
      if (!e.scale) e.scale = e.logical_type->decimal_scale;
      if (!e.precision) e.precision = e.logical_type->decimal_precision;
    }
  }
}

}  // namespace pq
