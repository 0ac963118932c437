#include "format/variant/shredded_leaf.h"

#include <cstring>

#include "format/value/decimal.h"
#include "format/util/json_writer.h"
#include "format/variant/variant_encoder.h"
#include "format/variant/variant_text.h"

namespace pq {

namespace {

constexpr int32_t kMaxVariantDecimalScale = 38;

Status NotAVariantType(const SchemaNode& leaf, const std::string& what) {
  return Status::Corruption("shredded variant column '" + leaf.DottedPath() + "' is " + what +
                            ", which is not a Variant type");
}

const char* LogicalKindName(LogicalType::Kind kind) {
  using LK = LogicalType::Kind;
  switch (kind) {
    case LK::kString:
      return "STRING";
    case LK::kMap:
      return "MAP";
    case LK::kList:
      return "LIST";
    case LK::kEnum:
      return "ENUM";
    case LK::kDecimal:
      return "DECIMAL";
    case LK::kDate:
      return "DATE";
    case LK::kTime:
      return "TIME";
    case LK::kTimestamp:
      return "TIMESTAMP";
    case LK::kInteger:
      return "INT";
    case LK::kUnknown:
      return "UNKNOWN";
    case LK::kJson:
      return "JSON";
    case LK::kBson:
      return "BSON";
    case LK::kUuid:
      return "UUID";
    case LK::kFloat16:
      return "FLOAT16";
    case LK::kVariant:
      return "VARIANT";
    case LK::kGeometry:
      return "GEOMETRY";
    case LK::kGeography:
      return "GEOGRAPHY";
    default:
      return "an unknown logical type";
  }
}

}  // namespace

Result<ShreddedLeafType> ShreddedLeafType::Of(const SchemaNode& leaf) {
  ShreddedLeafType t;
  const LogicalType& lt = leaf.logical_type;
  const PhysicalType pt = leaf.physical_type;
  const std::string physical = PhysicalTypeName(pt);
  using LK = LogicalType::Kind;
  if (lt.kind == LK::kDecimal) {
    if (lt.decimal_scale < 0 || lt.decimal_scale > kMaxVariantDecimalScale) {
      return NotAVariantType(leaf, "a DECIMAL of scale " + std::to_string(lt.decimal_scale));
    }
    t.scale_ = lt.decimal_scale;
    switch (pt) {
      case PhysicalType::kInt32:
        t.kind_ = Kind::kDecimal32;
        return t;
      case PhysicalType::kInt64:
        t.kind_ = Kind::kDecimal64;
        return t;
      case PhysicalType::kByteArray:
      case PhysicalType::kFixedLenByteArray:
        t.kind_ = Kind::kDecimalBytes;
        return t;
      default:
        return NotAVariantType(leaf, "a DECIMAL on " + physical);
    }
  }
  switch (pt) {
    case PhysicalType::kBoolean:
      if (lt.kind == LK::kNone) {
        t.kind_ = Kind::kBoolean;
        return t;
      }
      break;
    case PhysicalType::kInt32:
      if (lt.kind == LK::kNone || (lt.kind == LK::kInteger && lt.is_signed && lt.bit_width <= 32)) {
        t.kind_ = Kind::kInt32;
        t.bit_width_ = lt.kind == LK::kInteger ? lt.bit_width : 32;
        return t;
      }
      if (lt.kind == LK::kDate) {
        t.kind_ = Kind::kDate;
        return t;
      }
      break;
    case PhysicalType::kInt64:
      if (lt.kind == LK::kNone || (lt.kind == LK::kInteger && lt.is_signed && lt.bit_width == 64)) {
        t.kind_ = Kind::kInt64;
        return t;
      }
      if (lt.kind == LK::kTime && lt.unit == TimeUnit::kMicros) {
        t.kind_ = Kind::kTime;
        return t;
      }
      if (lt.kind == LK::kTimestamp &&
          (lt.unit == TimeUnit::kMicros || lt.unit == TimeUnit::kNanos)) {
        t.kind_ = Kind::kTimestamp;
        t.unit_ = lt.unit;
        t.adjusted_to_utc_ = lt.is_adjusted_to_utc;
        return t;
      }
      break;
    case PhysicalType::kFloat:
      if (lt.kind == LK::kNone) {
        t.kind_ = Kind::kFloat;
        return t;
      }
      break;
    case PhysicalType::kDouble:
      if (lt.kind == LK::kNone) {
        t.kind_ = Kind::kDouble;
        return t;
      }
      break;
    case PhysicalType::kByteArray:
      if (lt.kind == LK::kNone) {
        t.kind_ = Kind::kBinary;
        return t;
      }
      if (lt.kind == LK::kString) {
        t.kind_ = Kind::kString;
        return t;
      }
      break;
    case PhysicalType::kFixedLenByteArray:
      if (lt.kind == LK::kUuid && leaf.type_length == static_cast<int32_t>(variant::kUuidSize)) {
        t.kind_ = Kind::kUuid;
        return t;
      }
      break;
    case PhysicalType::kInt96:
      break;
  }
  std::string what = physical;
  if (lt.kind == LK::kInteger) {
    what += " INT(" + std::to_string(lt.bit_width) + (lt.is_signed ? ", signed)" : ", unsigned)");
  } else if (lt.kind == LK::kTime || lt.kind == LK::kTimestamp) {
    what += lt.kind == LK::kTime ? " TIME" : " TIMESTAMP";
    what += lt.unit == TimeUnit::kMillis   ? "(MILLIS)"
            : lt.unit == TimeUnit::kMicros ? "(MICROS)"
                                           : "(NANOS)";
  } else if (lt.kind != LK::kNone) {
    what += std::string(" ") + LogicalKindName(lt.kind);
  }
  return NotAVariantType(leaf, what);
}

Status ShreddedLeafType::CheckSize(ByteSpan raw) const {
  size_t want = 0;
  switch (kind_) {
    case Kind::kBoolean:
      want = 1;
      break;
    case Kind::kInt32:
    case Kind::kFloat:
    case Kind::kDecimal32:
    case Kind::kDate:
      want = 4;
      break;
    case Kind::kInt64:
    case Kind::kDouble:
    case Kind::kDecimal64:
    case Kind::kTime:
    case Kind::kTimestamp:
      want = 8;
      break;
    case Kind::kUuid:
      want = variant::kUuidSize;
      break;
    case Kind::kDecimalBytes:
    case Kind::kBinary:
    case Kind::kString:
      want = raw.size();
      break;
  }
  if (raw.size() != want) {
    return Status::Corruption("shredded variant value has " + std::to_string(raw.size()) +
                              " bytes where its type needs " + std::to_string(want));
  }
  return Status::OK();
}

Status ShreddedLeafType::AppendJson(ByteSpan raw, std::string* out) const {
  PQ_RETURN_IF_ERROR(CheckSize(raw));
  const uint8_t* p = raw.data();
  switch (kind_) {
    case Kind::kBoolean:
      AppendJsonBool(p[0] != 0, out);
      break;
    case Kind::kInt32:
      AppendJsonInt(LoadLE<int32_t>(p), out);
      break;
    case Kind::kInt64:
      AppendJsonInt(LoadLE<int64_t>(p), out);
      break;
    case Kind::kFloat:
      variant::AppendDoubleJson(LoadLE<float>(p), out);
      break;
    case Kind::kDouble:
      variant::AppendDoubleJson(LoadLE<double>(p), out);
      break;
    case Kind::kDecimal32:
      AppendDecimalText(LoadLE<int32_t>(p), scale_, out);
      break;
    case Kind::kDecimal64:
      AppendDecimalText(LoadLE<int64_t>(p), scale_, out);
      break;
    case Kind::kDecimalBytes:
      // decimal16 holds 16 bytes; longer arrays still read exactly up to decimal.h's limit.
      if (!AppendDecimalText(AsStringView(raw), scale_, out)) {
        return Status::Corruption("shredded variant decimal of " + std::to_string(raw.size()) +
                                  " bytes is too long");
      }
      break;
    case Kind::kDate:
      variant::AppendDateJson(LoadLE<int32_t>(p), out);
      break;
    case Kind::kTime:
      variant::AppendTimeJson(LoadLE<int64_t>(p), out);
      break;
    case Kind::kTimestamp:
      variant::AppendTimestampJson(LoadLE<int64_t>(p), unit_, out);
      break;
    case Kind::kBinary:
      AppendJsonBase64(AsStringView(raw), out);
      break;
    case Kind::kString:
      AppendJsonString(AsStringView(raw), out);
      break;
    case Kind::kUuid:
      variant::AppendUuidJson(p, out);
      break;
  }
  return Status::OK();
}

Status ShreddedLeafType::AddToVariant(ByteSpan raw, VariantEncoder* encoder) const {
  PQ_RETURN_IF_ERROR(CheckSize(raw));
  const uint8_t* p = raw.data();
  switch (kind_) {
    case Kind::kBoolean:
      encoder->AddBoolean(p[0] != 0);
      break;
    case Kind::kInt32:
      encoder->AddIntegerAs(bit_width_ == 8    ? variant::kInt8
                            : bit_width_ == 16 ? variant::kInt16
                                               : variant::kInt32,
                            LoadLE<int32_t>(p));
      break;
    case Kind::kInt64:
      encoder->AddIntegerAs(variant::kInt64, LoadLE<int64_t>(p));
      break;
    case Kind::kFloat:
      encoder->AddFloat(LoadLE<float>(p));
      break;
    case Kind::kDouble:
      encoder->AddDouble(LoadLE<double>(p));
      break;
    case Kind::kDecimal32:
      encoder->AddDecimal4(LoadLE<int32_t>(p), static_cast<uint8_t>(scale_));
      break;
    case Kind::kDecimal64:
      encoder->AddDecimal8(LoadLE<int64_t>(p), static_cast<uint8_t>(scale_));
      break;
    case Kind::kDecimalBytes: {
      // Big-endian two's complement of any length up to 16 bytes, sign-extended to decimal16.
      if (raw.size() > 16) {
        return Status::Corruption("shredded variant decimal of " + std::to_string(raw.size()) +
                                  " bytes does not fit decimal16");
      }
      uint8_t wide[16];
      const uint8_t fill = !raw.empty() && (raw[0] & 0x80) ? 0xFF : 0x00;
      std::memset(wide, fill, sizeof wide);
      if (!raw.empty()) std::memcpy(wide + 16 - raw.size(), raw.data(), raw.size());
      encoder->AddDecimal16(wide, static_cast<uint8_t>(scale_));
      break;
    }
    case Kind::kDate:
      encoder->AddDate(LoadLE<int32_t>(p));
      break;
    case Kind::kTime:
      encoder->AddTime(LoadLE<int64_t>(p));
      break;
    case Kind::kTimestamp:
      encoder->AddTimestamp(LoadLE<int64_t>(p), unit_, adjusted_to_utc_);
      break;
    case Kind::kBinary:
      encoder->AddBinary(AsStringView(raw));
      break;
    case Kind::kString:
      return encoder->AddString(AsStringView(raw));
    case Kind::kUuid:
      encoder->AddUuid(p);
      break;
  }
  return Status::OK();
}

}  // namespace pq
