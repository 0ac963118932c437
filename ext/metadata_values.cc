#include "ext/metadata_values.h"

#include <cmath>
#include <cstdint>
#include <cstring>

#include "format/util/byte_reader.h"
#include "format/value/float16.h"
#include "format/util/json_writer.h"
#include "format/value/leaf_converter.h"

namespace pq::ext {

namespace {

using Kind = LogicalType::Kind;

const uint8_t* Bytes(std::string_view s) {
  return reinterpret_cast<const uint8_t*>(s.data());
}

void AppendKeyValuePair(std::string_view key, const std::optional<std::string>& value,
                        std::string* out) {
  AppendJsonString(key, out);
  out->push_back(':');
  if (value) {
    AppendJsonString(*value, out);
  } else {
    AppendJsonNull(out);
  }
}

}  // namespace

Cell StatisticValue(const SchemaNode& leaf, std::string_view bytes, std::string* scratch) {
  auto converter = LeafConverter::Make(leaf, ValueOptions{});
  if (!converter.ok()) return Cell::Blob(bytes);  // a unit or a scale the reader refuses
  const uint8_t* b = Bytes(bytes);
  // NaN: the table reads it as NULL, which here would mean "no statistic".
  auto nan_or = [](bool is_nan, Cell cell) { return is_nan ? Cell::Text("NaN") : cell; };
  Cell cell;
  switch (leaf.physical_type) {
    case PhysicalType::kBoolean:
      if (bytes.size() != 1 || b[0] > 1) return Cell::Blob(bytes);
      cell = converter->Convert(uint8_t{b[0]}, scratch);
      break;
    case PhysicalType::kInt32:
      if (bytes.size() != 4) return Cell::Blob(bytes);
      cell = converter->Convert(LoadLE<int32_t>(b), scratch);
      break;
    case PhysicalType::kInt64:
      if (bytes.size() != 8) return Cell::Blob(bytes);
      cell = converter->Convert(LoadLE<int64_t>(b), scratch);
      break;
    case PhysicalType::kInt96: {
      if (bytes.size() != 12) return Cell::Blob(bytes);
      Int96 v;
      for (int i = 0; i < 3; ++i) v.value[i] = LoadLE<uint32_t>(b + 4 * i);
      cell = converter->Convert(v, scratch);
      break;
    }
    case PhysicalType::kFloat: {
      if (bytes.size() != 4) return Cell::Blob(bytes);
      const float v = LoadLE<float>(b);
      cell = nan_or(std::isnan(v), converter->Convert(v, scratch));
      break;
    }
    case PhysicalType::kDouble: {
      if (bytes.size() != 8) return Cell::Blob(bytes);
      const double v = LoadLE<double>(b);
      cell = nan_or(std::isnan(v), converter->Convert(v, scratch));
      break;
    }
    case PhysicalType::kByteArray:
    case PhysicalType::kFixedLenByteArray: {
      if (bytes.size() > UINT32_MAX) return Cell::Blob(bytes);
      if (leaf.physical_type == PhysicalType::kFixedLenByteArray &&
          bytes.size() != static_cast<size_t>(leaf.type_length)) {
        return Cell::Blob(bytes);  // the converter needs the column's width
      }
      const ByteArray v{b, static_cast<uint32_t>(bytes.size())};
      const bool is_nan =
          converter->kind() == LeafConverter::Kind::kFloat16 && std::isnan(HalfToDouble(b));
      cell = nan_or(is_nan, converter->Convert(v, scratch));
      break;
    }
    default:
      return Cell::Blob(bytes);
  }
  // NULL is what the table shows for UNKNOWN columns and for values it cannot convert; a statistic
  // that exists is shown as its bytes instead.
  if (cell.type == CellType::kNull) return Cell::Blob(bytes);
  return cell;
}

std::optional<std::string> LogicalTypeText(const LogicalType& type) {
  auto adjusted_and_unit = [&type](const char* name) {
    std::string out = std::string(name) +
                      "(isAdjustedToUTC=" + (type.is_adjusted_to_utc ? "1" : "0") +
                      ", unit=TimeUnit(";
    switch (type.unit) {
      case TimeUnit::kMillis:
        out += "MILLIS=MilliSeconds()";
        break;
      case TimeUnit::kMicros:
        out += "MICROS=MicroSeconds()";
        break;
      case TimeUnit::kNanos:
        out += "NANOS=NanoSeconds()";
        break;
      default:
        out += "field_id=" + std::to_string(static_cast<int32_t>(type.unit));
        break;
    }
    return out + "))";
  };
  auto crs = [&type]() { return "crs=" + (type.crs ? *type.crs : std::string("<null>")); };
  switch (type.kind) {
    case Kind::kNone:
      if (type.unknown_field_id == 0) return std::nullopt;
      return "UnknownLogicalType(field_id=" + std::to_string(type.unknown_field_id) + ")";
    case Kind::kString:
      return "StringType()";
    case Kind::kMap:
      return "MapType()";
    case Kind::kList:
      return "ListType()";
    case Kind::kEnum:
      return "EnumType()";
    case Kind::kDecimal:
      return "DecimalType(scale=" + std::to_string(type.decimal_scale) +
             ", precision=" + std::to_string(type.decimal_precision) + ")";
    case Kind::kDate:
      return "DateType()";
    case Kind::kTime:
      return adjusted_and_unit("TimeType");
    case Kind::kTimestamp:
      return adjusted_and_unit("TimestampType");
    case Kind::kInteger:
      return "IntType(bitWidth=" + std::to_string(int{type.bit_width}) +
             ", isSigned=" + (type.is_signed ? "1" : "0") + ")";
    case Kind::kUnknown:
      return "NullType()";
    case Kind::kJson:
      return "JsonType()";
    case Kind::kBson:
      return "BsonType()";
    case Kind::kUuid:
      return "UUIDType()";
    case Kind::kFloat16:
      return "Float16Type()";
    case Kind::kVariant:
      return "VariantType(specification_version=" +
             (type.variant_specification_version
                  ? std::to_string(int{*type.variant_specification_version})
                  : std::string("<null>")) +
             ")";
    case Kind::kGeometry:
      return "GeometryType(" + crs() + ")";
    case Kind::kGeography: {
      std::string algorithm = "<null>";
      if (type.algorithm) {
        static const char* const kNames[] = {"SPHERICAL", "VINCENTY", "THOMAS", "ANDOYER",
                                             "KARNEY"};
        const int32_t a = static_cast<int32_t>(*type.algorithm);
        algorithm = (a >= 0 && a < 5) ? kNames[a] : std::to_string(a);
      }
      return "GeographyType(" + crs() + ", algorithm=" + algorithm + ")";
    }
    case Kind::kFile:
      return "FileType()";
  }
  return "UnknownLogicalType(kind=" + std::to_string(static_cast<int32_t>(type.kind)) + ")";
}

std::string EncodingsText(const std::vector<Encoding>& encodings) {
  std::string out;
  for (size_t i = 0; i < encodings.size(); ++i) {
    if (i > 0) out.append(", ");
    out.append(EncodingName(encodings[i]));
  }
  return out;
}

std::optional<std::string> KeyValueJson(const std::vector<KeyValue>& pairs) {
  if (pairs.empty()) return std::nullopt;
  std::string out = "{";
  for (size_t i = 0; i < pairs.size(); ++i) {
    if (i > 0) out.push_back(',');
    AppendKeyValuePair(pairs[i].key, pairs[i].value, &out);
  }
  out.push_back('}');
  return out;
}

std::string EncodingStatsJson(const std::vector<PageEncodingStats>& stats) {
  std::string out = "[";
  for (size_t i = 0; i < stats.size(); ++i) {
    if (i > 0) out.push_back(',');
    out.append("{\"page_type\":");
    AppendJsonString(PageTypeName(stats[i].page_type), &out);
    out.append(",\"encoding\":");
    AppendJsonString(EncodingName(stats[i].encoding), &out);
    out.append(",\"count\":");
    AppendJsonInt(stats[i].count, &out);
    out.push_back('}');
  }
  out.push_back(']');
  return out;
}

std::string BoundingBoxJson(const BoundingBox& box) {
  std::string out;
  auto field = [&out](const char* name, std::optional<double> v) {
    out.push_back(out.empty() ? '{' : ',');
    AppendJsonString(name, &out);
    out.push_back(':');
    if (v) {
      AppendJsonDouble(*v, &out);  // null for NaN, +-9e999 for infinities
    } else {
      AppendJsonNull(&out);
    }
  };
  field("xmin", box.xmin);
  field("xmax", box.xmax);
  field("ymin", box.ymin);
  field("ymax", box.ymax);
  field("zmin", box.zmin);
  field("zmax", box.zmax);
  field("mmin", box.mmin);
  field("mmax", box.mmax);
  out.push_back('}');
  return out;
}

std::string GeospatialTypesJson(const std::vector<int32_t>& codes) {
  static const char* const kBase[] = {
      "point",           "linestring",   "polygon",           "multipoint",
      "multilinestring", "multipolygon", "geometrycollection"};
  static const char* const kSuffix[] = {"", "_z", "_m", "_zm"};
  std::string out = "[";
  for (size_t i = 0; i < codes.size(); ++i) {
    if (i > 0) out.push_back(',');
    const int32_t code = codes[i];
    const int32_t base = code % 1000;
    const int32_t dims = code / 1000;
    if (code > 0 && base >= 1 && base <= 7 && dims <= 3) {
      AppendJsonString(std::string(kBase[base - 1]) + kSuffix[dims], &out);
    } else {
      AppendJsonInt(code, &out);
    }
  }
  out.push_back(']');
  return out;
}

std::string ColumnOrdersJson(const std::vector<ColumnOrder>& orders) {
  std::string out = "[";
  for (size_t i = 0; i < orders.size(); ++i) {
    if (i > 0) out.push_back(',');
    switch (orders[i].kind) {
      case ColumnOrder::Kind::kTypeDefinedOrder:
        out.append("\"TYPE_ORDER\"");
        break;
      case ColumnOrder::Kind::kIeee754TotalOrder:
        out.append("\"IEEE_754_TOTAL_ORDER\"");
        break;
      case ColumnOrder::Kind::kInt96TimestampOrder:
        out.append("\"INT96_TIMESTAMP_ORDER\"");
        break;
      default:
        out.append("\"UNKNOWN\"");
        break;
    }
  }
  out.push_back(']');
  return out;
}

std::optional<std::string> EncryptionAlgorithmName(const EncryptionAlgorithm& algorithm) {
  switch (algorithm.kind) {
    case EncryptionAlgorithm::Kind::kAesGcmV1:
      return "AES_GCM_V1";
    case EncryptionAlgorithm::Kind::kAesGcmCtrV1:
      return "AES_GCM_CTR_V1";
    default:
      return std::nullopt;
  }
}

bool IsValidUtf8(std::string_view bytes) {
  const uint8_t* p = Bytes(bytes);
  const size_t n = bytes.size();
  size_t i = 0;
  while (i < n) {
    const uint8_t c = p[i];
    if (c < 0x80) {
      ++i;
      continue;
    }
    size_t len;    // bytes in the sequence
    uint32_t cp;   // the code point, assembled from the sequence
    uint32_t min;  // the smallest code point of this length (a smaller one is an overlong form)
    if ((c & 0xe0) == 0xc0) {
      len = 2;
      cp = c & 0x1f;
      min = 0x80;
    } else if ((c & 0xf0) == 0xe0) {
      len = 3;
      cp = c & 0x0f;
      min = 0x800;
    } else if ((c & 0xf8) == 0xf0) {
      len = 4;
      cp = c & 0x07;
      min = 0x10000;
    } else {
      return false;  // a continuation byte or 0xf8..0xff where a sequence must start
    }
    if (len > n - i) return false;
    for (size_t k = 1; k < len; ++k) {
      if ((p[i + k] & 0xc0) != 0x80) return false;
      cp = (cp << 6) | (p[i + k] & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return false;
    i += len;
  }
  return true;
}

}  // namespace pq::ext
